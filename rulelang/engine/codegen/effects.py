"""The interaction model at run time: choices, triggers, windows, hooks, replacements,
modifiers, reveals and private messages. Generated code calls these; see docs/engine.md
("How an effect pauses").

A choice with no recorded answer raises `Paused`. The engine then keeps the position as it is
at that moment (what the chooser sees) together with a copy of the match from before the action
that started it (the *base*) and the answers given so far. An answer re-runs that action on a
copy of the base, feeding the recorded answers to the choices in order, until the next choice
nobody has answered yet. Everything a paused effect is (the base, the answers) is plain data,
so a paused match can be cloned, saved and restored like any other, and the compiled code stays
straight-line Python: no generators, no interpreter.
"""
from __future__ import annotations

import random as _random

from ...core.errors import RuleFault
from ...core.textsafe import printable
try:                                     # resumable chains (pausing.py); without greenlet, replays
    from greenlet import getcurrent as _current
except ImportError:                      # pragma: no cover (a dependency; kept optional for safety)
    def _current():
        return None
from .runtime import _overworked, as_items, plain_text, player_text
from .runtime_actions import _copies, _one_per_subset
from .runtime_moves import _move
from ..records import Cut, Grant, Response, Revealed, Trigger
from ..visibility import has_secrets


def _said(text, limit: int = 200) -> str:
    """An answer from a save, as an error quotes it: printable and cut short (a crafted 5,000,000-
    character answer made a message as long — a fuzzer's hour)."""
    text = printable(str(text))
    return text if len(text) <= limit else text[:limit - 3] + "..."


SKIP = object()                  # a choice declined (`optional`), or one with nothing to choose
_UNSET_BY = object()             # `run … of c` without `by`: `me` stays the effect's player
_DECLINED = object()             # `pass` at the first pick of an optional subset
PASS = "pass"                    # the text of declining


class Paused(BaseException):
    """A choice nobody has answered yet. (A BaseException: no rule-error handler catches it.)"""

    def __init__(self, question: dict):
        super().__init__(question.get("prompt") or "a choice")
        self.question = question


class CutShort(BaseException):
    """An interrupt taken while an effect waited for an answer moved the flow on (`goto`, `end
    turn`, `finish`): the waiting effect ends there, and the flow follows `signal`
    (Match._run_root). A BaseException, as Paused, for the same reason."""

    def __init__(self, signal: tuple):
        super().__init__(signal[0])
        self.signal = signal


# ---- asking -----------------------------------------------------------------------------------
_NO_ABOUT = object()            # (a question with no `about`: about the card whose hook asks, if any)

def _answer(m, chooser: int, prompt, options: dict, kind: str, comps: bool = False, mine: list | None = None,
            also: list | None = None, picked: list | None = None, cards: dict | None = None,
            legacy: dict | None = None, about=_NO_ABOUT):
    """The value of the answer to this question: recorded, forced, or (none yet) pause.
    `comps`: the options are components; an answer naming one that a seat cannot see now is
    logged as private to the chooser and those who can (see `private_to`). `mine` and `also`: a
    question other seats may answer too (a window answered first): the chooser's own options, and
    [seat, its options] of each other seat (`options` holds them all). `picked`: a subset or order
    being picked, the texts of the picks made so far (those made for the chooser, forced, too).
    `cards`: the component each option is about, where they are not the options' values (the
    card whose ability an order question names). `legacy`: texts an older engine gave the same
    options, read from a save it wrote. `about`: the component the question is about (`choose …
    about C`), named to the seats that see it, as the card whose hook asks is."""
    if type(chooser) is not int or not 0 <= chooser < m.players:     # (`by P` of no seat: a fuzz trial)
        raise RuleFault(f"a choice is made `by` a player, not by {plain_text(chooser)}")
    cut: list = [None, None]                    # (a determinized copy's cut, met at the first asking:
    while True:                                 # it still maps the answer given after an interrupt;
        value = _answer_once(m, chooser, prompt, options, kind, comps, mine, also, picked, cards, legacy, cut, about)
        if value is not _INTERRUPTED:           # and where each component option lay then)
            return value
        options = _still_there(m, options, cut)


_INTERRUPTED = object()         # (an interrupt came instead of an answer: the question is asked again)


def _still_there(m, options: dict, cut: list) -> dict:
    """After an interrupt inside the question: the options that are components still lying where
    they lay when it was asked (one the interrupt moved away is no option now — a trial's interrupt
    sent an offered card to the grave, and the answer still took it)."""
    places = cut[1]
    if not places:
        return options
    mp = cut[0] or {}
    left = {t: v for t, v in options.items() if t not in places or id(m.where[mp.get(v, v)]) == places[t]}
    if not any(t in places for t in left) and PASS not in left:
        raise RuleFault("after that, nothing the question offered is where it was: it cannot be answered")
    return left         # (`pass` alone, where the question may be declined: an atomicity trial's listed
                        # answer inside it took the last card, and failed as if nothing were left)


def _answer_once(m, chooser, prompt, options, kind, comps, mine, also, picked, cards, legacy, cut, about):
    mapping = cut_here(m) if m.cuts and m.cuts[0].at == m.pos else None
    if mapping is not None:
        m.cut_mapping = cut[0] = mapping        # (a subset being picked maps what it holds: _choose_many)
    else:
        mapping = cut[0]
    if comps and cut[1] is None and m.game.has_interrupts:
        mp = mapping or {}
        cut[1] = {t: id(m.where[mp.get(v, v)]) for t, v in options.items() if type(v) is int}
    if m.pos >= len(m.answers):
        question = _question(m, chooser, prompt, options, kind, mine, also, about)
        if picked:
            question["picked"] = list(picked)
        if comps and mine is None:              # (which component each option is: the web's card tips)
            question["components"] = {t: v for t, v in options.items() if type(v) is int}
        elif cards:
            question["components"] = dict(cards)
        elif kind == "window" and mine is None:  # (a card's response: that card — a browser trial
            cards = {t: v.card for t, v in options.items()      # found no text to read for a defence)
                     if isinstance(v, Response) and v.card is not None}
            if cards:
                question["components"] = cards
        _wait(m, question)                      # (Paused; or, in a greenlet, back with the answer)
    if m.pos < len(m.answers):
        text = m.answers[m.pos]
        m.pos += 1
        if text in options:
            value = options[text]
        elif legacy and text in legacy:
            value = legacy[text]
        elif m._interrupt_in_effect(text):      # (`P3: reveal`: run here, then the question again)
            return _INTERRUPTED
        else:
            raise RuleFault(f"the recorded answer `{_said(text)}` is not one of the choices here")
        if mapping is not None and comps and type(value) is int:
            value = mapping.get(value, value)               # the option's place holds this one now
        if comps:
            private_to(m, chooser, value)
        m.log.append(text)
        return value
    raise RuleFault("a chain went on without an answer to its question")    # (_wait returns with one)


def _question(m, chooser: int, prompt, options: dict, kind: str, mine, also, about=_NO_ABOUT) -> dict:
    """What a paused effect asks: the chooser, the prompt, the options, the abilities and
    windows running and the triggers waiting."""
    question = {"chooser": chooser, "prompt": prompt, "kind": kind,
                "options": list(options) if mine is None else list(mine),
                "stack": [dict(f) for f in m.frames],
                "triggers": [t.label for t in m.trig]}
    src = m.src                                           # (the card whose hook asks; `about C`: C,
    if about is not _NO_ABOUT:                            #  `about none`: none, in a hook too)
        if about is not None and (type(about) is not int or not 0 <= about < len(m.labels)):
            raise RuleFault(f"a question is `about` a component, not {plain_text(about)}")   # (a crafted IR's)
        src = about
    if src is not None and (not m.frames or m.frames[-1].get("source") != src):
        question["asker"] = src                           # a card's hook asks (`run play of c`): that card
    if also:
        question["also"] = [[p, list(texts)] for p, texts in also]
    return question


def _wait(m, question: dict) -> None:
    """Stop for an answer. A chain running in a greenlet of its own (pausing.py) waits there: the
    engine's `apply` appends the answer to `m.answers` and switches back, and the chain goes on
    where it stopped (what a replay from the base with that answer would do, without replaying).
    Otherwise the chain stops by raising Paused, and an answer replays it from its base."""
    g = m.cont
    if g is None or g is not _current():
        raise Paused(question)
    # the chain's own state, as it stands inside the effect: the engine's bookkeeping between the
    # pause and the answer (the chooser as actor, a view's budget) is not the chain's
    inner = (m.me, m.src, m.trig, m.frames, m.depth, m.replacing, m.lm, m.actor, m.step)
    if m.outer_step is not None:            # an interrupt's effect: the step it goes back to, as a
        m.step = m.outer_step               # replay that stopped here would leave it (Match._as_interrupt)
    g.parent.switch(("waiting", question))
    m.me, m.src, m.trig, m.frames, m.depth, m.replacing, m.lm, m.actor, m.step = inner


def cut_here(m) -> dict:
    """A determinized copy's replay has reached the question it was copied at (Match.sampler):
    from here on the unseen components lie as the copy dealt them, and chance is the copy's own.
    Returns the mapping (real component -> the one now in its place), all cuts here composed."""
    composed: dict = {}
    while m.cuts and m.cuts[0].at == m.pos:
        cut: Cut = m.cuts[0]
        m.cuts = m.cuts[1:]
        mapping = cut.mapping
        if m.shared == "all":
            m.own()
        where = m.where
        for z, value in zip(m.game.zones, m.Z):
            for zl in (value if z["per"] else [value]):
                for i, c in enumerate(zl):
                    new = mapping.get(c)
                    if new is not None:
                        zl[i] = new
                        where[new] = zl
        m.zone_info, m._zone_ids = None, None
        m.held = None
        follow_places(m, mapping)
        if m.known:
            m.known = {c: k for c, k in m.known.items() if c in cut.seen}
        m.named = [(at, tuple(mapping.get(x, x) for x in c) if type(c) is tuple else mapping.get(c, c))
                   for at, c in m.named]
        m._rng, m._rng_state, m.tape = _random.Random(cut.seed), None, ()
        m.seed = None                                       # (as in the copy: it would tell the deal)
        composed = {c: mapping.get(n, n) for c, n in composed.items()} | \
                   {c: n for c, n in mapping.items() if c not in composed}
    return composed


def follow_places(m, mapping: dict) -> None:
    """In a seat's own `others` zone (its hand, whose places it knows and whose cards it cannot
    see) public variables kept per component stay with the place, not the component, when a copy
    deals the unseen anew (old -> the one now in its place): the seat reads them by place (what it
    was told of the card in slot 2), so its view of the copy is its view of the match (a new
    author's Hanabi: clue knowledge moved with the cards dealt away, 668 of 814 views differed).
    Everywhere else they go with the component: a card publicly marked and shuffled into a deck is
    somewhere in it, not at its real depth (a leak scan: a bot then found it every time)."""
    slots = m.game.public_component_slots
    zones = m.game.others_zones
    if not slots or not zones or not mapping:
        return
    info = _zone_info(m)
    placed = [(old, new) for old, new in mapping.items()
              if info.get(id(m.where[new]), (None,))[0] in zones]
    if not placed:
        return
    # the cards dealt out of those places take the values of those dealt into them, which
    # otherwise went with them: a card really in the hand kept its mark wherever it was dealt,
    # and the copy named it (a new author's Battleship-like marks: 25 of 25 copies)
    out = sorted({old for old, _ in placed} - {new for _, new in placed})
    came = sorted({new for _, new in placed} - {old for old, _ in placed})
    V = m.V
    for slot in slots:
        before = V[slot]
        values = V[slot] = list(before)
        for old, new in placed:
            values[new] = before[old]
        for old, new in zip(out, came):
            values[old] = before[new]


def private_to(m, chooser: int, value, at: int | None = None) -> None:
    """Note the answer about to be logged as private when some seat cannot see the component it
    names, at this moment: its text is then for the chooser and those who can see it alone. By
    identity, never by label: a face-up card named like a hidden one tells nothing of it."""
    if type(value) is not int or value < 0:             # a pass, `done`, a declined pick, a player (-1 - p)
        return
    # (those who see it where it lies — a public zone, their own, an `others` hand, or revealed to all —
    # see it chosen; one who only knows it from a reveal to some seats does not: a new author's Cluedo
    # told P2 "Lead Pipe" when P1 showed P3 the card P2 had been shown, and "a secret choice" when P1
    # showed another)
    openly = value in known_to(m, None) if m.known else False      # (revealed to all: on show to every seat)
    seats = [p for p in range(m.players) if p == chooser or openly or seen_where(m, value, p)]
    if len(seats) < m.players:
        at = len(m.log) if at is None else at
        m.private = {**m.private, at: seats}
        m.named = m.named + [(at, value)]


def private_args(m, action, at: int, actor: int | None = None) -> None:
    """An action's text is public (docs/language.md), but a card lying in an `others` zone is not
    named to its owner, who cannot see it: the log entry at `at` is then for the seats that see it
    (a new author's Hanabi clue `point(c in hand[next(me)])` read `point 1` to the card's holder).
    Widened as answers are, when its effect ends with the card in everyone's sight (widen_private)."""
    zones = m.game.others_zones
    if not zones:
        return
    meta = action._meta
    if len(meta) < 3:                                   # (an action of no parameters)
        return
    info = _zone_info(m)
    named = []
    for show, value in zip(meta[2], action._args):
        if show not in ("comp", "comp_or_player"):
            continue
        for c in (value if type(value) is tuple else (value,)):
            if type(c) is int and c >= 0 and info.get(id(m.where[c]), (None,))[0] in zones:
                named.append(c)
    if not named:
        return
    actor = m.actor if actor is None else actor         # (an interrupt's: its seat)
    seats = [p for p in range(m.players) if p == actor or all(seen_by(m, c, p) for c in named)]
    if len(seats) < m.players:
        m.private = {**m.private, at: seats}
        m.named = m.named + [(at, tuple(named) if len(named) > 1 else named[0])]


def widen_private(m, keep: bool = False) -> None:
    """When a chain ends, an answer whose component every seat can see by then (a card chosen
    from a hand and laid on the table) is no longer private: the position shows it anyway. An
    answer naming several (cards passed at once) is read by each seat that sees them all. `keep`:
    asked on the way (the answers of a simultaneous step, once they have run: a card laid face up
    then and boxed by the `reveal` block was seen — a new author's Sushi Go), and again at the end."""
    private = dict(m.private)
    everyone: set | None = None
    for at, c in m.named:
        seats = private.get(at)
        if seats is None:
            continue
        cs = c if type(c) is tuple else (c,)
        # (who sees them where they lie by then, revealed to all, or revealed to them in this chain: not
        # who knew them from a private reveal before — see private_to)
        openly = known_to(m, None) if m.known else {}
        seats = [p for p in range(m.players)
                 if p in seats or all(x in openly or seen_where(m, x, p) or _shown_to(m, x, p) for x in cs)]
        if len(seats) == m.players and everyone is None:
            everyone = seen_by_all(m)
        if len(seats) == m.players and everyone is not None and all(x in everyone for x in cs):
            del private[at]                 # (also a spectator's: not when each seat but no watcher
        else:                               #  sees it — a card passed into an `others` hand, a leak scan)
            private[at] = seats
    m.private = private
    if not keep:
        m.named, m.chain_reveals = [], ()


def _options(m, values, texter, unseen_by=None, components: bool | list = False) -> dict:
    """Text -> value. Equal values are one option, and so are copies (`components`: the values
    are components; two in one place that nothing the rules can tell apart, as one action stands
    for both): numbered, the chooser's pick would tell the table there were two. Other values
    shown alike are told apart by a number (`Walker`, `Walker #2`), in the order of the choices.
    (texter None: values are already (text, value) pairs, from `as`.) `unseen_by`: the chooser,
    when the values are components of a game with secrets: one the chooser cannot see is named
    by its place (`hand slot 2`), never by its label or the rules' `as` words. (`components` a
    list: the values are indexes of `as` pairs, and these their components.)"""
    labels = m.labels
    pairs: list = []
    for v in values:
        if texter is None:
            text, v = v
        else:
            text = texter(labels, v)
        if unseen_by is not None and type(v) is int and v >= 0 and not seen_by(m, v, unseen_by):
            text = slot_text(m, v)
        m.work -= len(text) + 1                # (each option's text is made, kept and shown: charged)
        if text in (PASS, "done"):
            text = f"{text} #1"
        pairs.append((text, v))
    if components and len({text for text, _ in pairs}) < len(pairs):
        pairs = _without_copies(m, pairs, components if type(components) is list else None)
    order = list(range(len(pairs)))
    if unseen_by is not None and len({text for text, _ in pairs}) < len(pairs):
        # look-alike components: those anyone at the table may see are numbered first. Numbered
        # after a hidden one, a card everyone sees would be logged as `Owl #2` and tell them a
        # hidden Owl is among the choices (a leak trial).
        public = seen_by_all(m)
        hidden = [type(v) is int and v >= 0 and v not in public for _, v in pairs]
        order = [i for i in order if not hidden[i]] + [i for i in order if hidden[i]]
    texts = _numbered(m, pairs, order)
    out: dict = {}
    for text, (_, v) in zip(texts, pairs):
        if text not in out:
            out[text] = v
    if m.work < 0:
        _overworked()
    return out


def _without_copies(m, pairs: list, ids: list | None = None) -> list:
    """The (text, component) options with each copy of an earlier option of its text left out
    (`ids`: the options' values are indexes into it, the components)."""
    kept: list = []
    for text, v in pairs:
        if not any(t == text and w != v and _copies(m, *((ids[w], ids[v]) if ids else (w, v))) for t, w in kept):
            kept.append((text, v))
    return kept


def _copies_unseen(m, values, comps) -> bool:
    """Did copies make one option of several components some player cannot see? Then the
    question is asked all the same: were it skipped, the others would learn the cards are alike."""
    if not comps or has_secrets(m.game) is False or len(values) < 2:
        return False
    public = seen_by_all(m)
    values = [v[1] if type(v) is tuple else v for v in values]      # (`as`: (text, value) pairs)
    if type(comps) is list:                                         # (`as`, several picked: indexes)
        values = [comps[v] for v in values]
    return any(type(v) is int and v >= 0 and v not in public for v in values)


def _numbered(m, pairs: list, order) -> list:
    """The text of each (text, value) option: different values of one text are told apart by a
    number (`Walker #2`), given in `order` (indexes into `pairs`)."""
    taken: dict = {}
    texts: list = [None] * len(pairs)
    for i in order:
        text, v = pairs[i]
        if text in taken and taken[text] != v:
            k = 2
            while f"{text} #{k}" in taken and taken[f"{text} #{k}"] != v:
                k += 1
            m.work -= k * (len(text) + 1)
            text = f"{text} #{k}"
        taken.setdefault(text, v)
        texts[i] = text
    return texts


def _choose_one(m, chooser, prompt, values, texter, optional: bool, always: bool = False, comps: bool = False,
                about=_NO_ABOUT):
    """One element of `values` (SKIP if there is none, or the chooser passes). `always`: ask even
    a forced choice, so that whether a question came tells the others nothing — an optional one
    even with nothing to choose (only `pass`: "you may play a unit" tells nobody if you hold one)."""
    options = _options(m, values, texter, _unseen_by(m, chooser, comps), comps is True)
    if not options and not (optional and always):
        return SKIP
    if len(options) == 1 and not optional and not always and not _copies_unseen(m, values, comps):
        return next(iter(options.values()))               # nothing to decide
    if optional:
        options[PASS] = SKIP
    return _answer(m, chooser if chooser is not None else m.me, prompt, options, "one", comps, about=about)


def _choose_many(m, chooser, prompt, values, texter, lo, hi, ordered: bool, optional: bool = False,
                 always: bool = False, comps: list | bool = False, about=_NO_ABOUT):
    """A subset of `values` (in the order picked if `ordered`), picked one element at a time;
    `done` ends it once `lo` are picked. SKIP if there are fewer than `lo` to pick from, or the
    chooser passes (`optional`)."""
    remaining = list(values)
    cuts = len(m.cuts)                     # (a determinized copy's replay may leave the real world here)
    if texter is None:                     # (text, value) pairs: pick among them, give the values
        pairs = remaining
        who = _unseen_by(m, chooser, comps)
        if who is not None:                # (a component its chooser cannot see: by its place)
            pairs = [(slot_text(m, v) if type(v) is int and v >= 0 and not seen_by(m, v, who) else t, v)
                     for t, v in pairs]
        got = _choose_many(m, chooser, prompt, list(range(len(pairs))), lambda lb, i: pairs[i][0], lo, hi,
                           ordered, optional, always, comps and [v for _, v in pairs], about)
        if got is SKIP:
            return got
        got = [pairs[i][1] for i in got]
        if len(m.cuts) < cuts and comps:   # the components picked lie as the copy dealt them now
            mp = m.cut_mapping or {}
            got = [mp.get(v, v) if type(v) is int else v for v in got]
        return got
    lo = 0 if lo is None else max(0, lo)
    if not remaining or len(remaining) < lo:
        return SKIP
    hi = len(remaining) if hi is None else min(hi, len(remaining))
    who = chooser if chooser is not None else m.me
    if not ordered and lo == len(remaining) and not optional and not always:
        return remaining                       # every one of them: nothing to decide
    picked: list = []
    said: list = []                            # (the picks' texts, as the chooser read them)
    while len(picked) < hi and remaining:
        options = _options(m, remaining, texter, _unseen_by(m, chooser, comps),
                           comps if type(comps) is list else comps is True)
        if len(picked) >= lo:
            options["done"] = SKIP
        elif optional and not picked:
            options[PASS] = _DECLINED
        if len(options) == 1 and not always and not _copies_unseen(m, remaining, comps):
            text, v = next(iter(options.items()))   # forced
        else:
            v = _answer(m, who, prompt, options, "order" if ordered else "subset",
                        comps if type(comps) is bool else False, picked=said, about=about)
            text = m.log[-1]
            if type(comps) is list and type(v) is int:      # (picked by index among `as` pairs)
                private_to(m, who, comps[v], len(m.log) - 1)
        if len(m.cuts) < cuts and comps is True:     # the copy's world from this answer on: what is
            mp = m.cut_mapping or {}                   # left to pick and picked already lies as it dealt
            remaining = [mp.get(x, x) if type(x) is int else x for x in remaining]
            picked = [mp.get(x, x) if type(x) is int else x for x in picked]
            cuts = len(m.cuts)
        if v is _DECLINED:
            return SKIP
        if v is SKIP:
            break
        said.append(text)
        picked.append(v)
        remaining.remove(v)
    return picked


def _unseen_by(m, chooser, comps):
    """The chooser, when options naming components it cannot see must be named by their place
    (the options are components, in a game where some are out of someone's sight)."""
    if comps is True and has_secrets(m.game):
        return chooser if chooser is not None else m.me
    return None


def _may(m, chooser, prompt, about=_NO_ABOUT):
    return _answer(m, chooser if chooser is not None else m.me, prompt, {"yes": True, "no": False}, "may", about=about)


# ---- cards in play ------------------------------------------------------------------------------
def _cards(m) -> dict:
    """Card name -> the ids of its components (rebuilt when components are created)."""
    cache = m.cards_index
    if cache is not None and cache[0] == len(m.labels):
        return cache[1]
    col = m.F[m.game.code.card_column]
    out: dict = {}
    for c, name in enumerate(col):
        if name:
            out.setdefault(name, []).append(c)
    m.cards_index = (len(m.labels), out)
    return out


def _zone_info(m) -> dict:
    """id(zone list) -> (zone name, owner seat or None): which zone a component lies in."""
    info = m.zone_info
    if info is None:
        info = {}
        for z, value in zip(m.game.zones, m.Z):
            if z["per"] in ("player", "key"):
                for member, zl in enumerate(value):
                    info[id(zl)] = (z["name"], m.game.member_owner(z, member, m.players))
            elif z["per"]:
                for zl in value:
                    info[id(zl)] = (z["name"], None)
            else:
                info[id(value)] = (z["name"], None)
        m.zone_info = info
    return info


def seen_by(m, c, player: int) -> bool:
    """May `player` see component c where it lies now: a public zone, their own `owner` zone, or
    revealed to them? (An ability of a card they cannot see is not named to them.)"""
    return seen_where(m, c, player) or c in known_to(m, player)


def seen_where(m, c, player: int) -> bool:
    """Does `player` see component c by where it lies — a public zone (a top-only pile's top), their
    own `owner` zone, another's `others` zone — not by an earlier reveal?"""
    where = _zone_info(m).get(id(m.where[c]))
    if where is None:
        return False
    z = next(z for z in m.game.zones if z["name"] == where[0])
    vis = z["visibility"]
    if vis == "public" and z.get("top"):               # a pile showing only its top
        zl = m.where[c]
        if zl and zl[-1] == c:
            return True
    elif vis == "public" or (vis == "owner" and where[1] == player) or (vis == "others" and where[1] is not None
                                                                         and where[1] != player):
        return True
    return False


def _shown_to(m, c, player: int) -> bool:
    """Was component c revealed to `player` in the chain running (and is it still where it was shown)?"""
    return any(x == c and (to == "all" or player in to) for x, to in m.chain_reveals) and seen_by(m, c, player)


HIDDEN_ABILITY = "a hidden card's ability"


def slot_text(m, c: int) -> str:
    """Component c named by its place, for a player who cannot see it: `hand slot 2` (counted from
    1, in the zone's order; a pile's top is its last slot)."""
    zl = m.where[c]
    where = _zone_info(m).get(id(zl)) if zl is not None else None
    name = " ".join(str(where[0]).split("_")) if where is not None else "a hidden place"
    return f"{name} slot {zl.index(c) + 1}" if zl is not None else name


def _comp_seen_text(m, lb, v):
    """A component as the player to act may name it in an action's text: its label, or its place
    if they cannot see it (a card of their own hand, in a zone seen by the `others`)."""
    if v is None:
        return "none"
    return lb[v] if seen_by(m, v, m.me) else slot_text(m, v)


def _union_text(lb, v):
    """A value of a union ("a creature or a player"): a player p is held as -1 - p."""
    return "none" if v is None else player_text(-1 - v) if v < 0 else lb[v]


def _union_seen_text(m, lb, v):
    """_comp_seen_text for a union: a player is seen by everyone."""
    return _union_text(lb, v) if v is None or v < 0 else _comp_seen_text(m, lb, v)


def _all_seen(m, args) -> bool:
    """Does the player to act see every component among an action's component arguments? (Else
    the rules' `as` words, which may name them, are not used.)"""
    for a in args:
        for v in (a if isinstance(a, (tuple, list)) else (a,)):
            if type(v) is int and v >= 0 and not seen_by(m, v, m.me):     # (-1 - p: a player, seen by all)
                return False
    return True


def _controller(m, c) -> int:
    """Who controls component c: its `controller` variable (per component) if set, else its
    `controller` field, else its `owner` field, else the owner of the zone it lies in, else whose
    turn it is."""
    code = m.game.code
    if code.control_var is not None:
        v = m.V[code.control_var][c]
        if v is not None:
            return v
    for col in code.control_columns:
        v = m.F[col][c]
        if v is not None:
            return v
    where = m.where[c]
    if where is not None:
        owner = _zone_info(m).get(id(where), (None, None))[1]
        if owner is not None:
            return owner
    return m.current


def _active(m, c, zones) -> bool:
    where = m.where[c]
    if where is None:
        return False
    if zones == "anywhere":
        return True
    return (m.zone_info or _zone_info(m)).get(id(where), (None,))[0] in zones


def _held(m) -> dict:
    """What is kept about the cards in play (the holders of each ability, the modifiers of each
    def) until a component moves or is made: that drops the match's table (runtime_moves). A
    clone shares the table while it stands where it was cloned; a move on either side drops it
    from that side only, so an entry is only ever read in the position it was found in."""
    kept = m.held
    if kept is None:
        kept = m.held = {}
    return kept


def _holders(m, entry):
    """The components of an ability's card that lie where it applies (kept: _held)."""
    table = m.held
    if table is None:
        table = m.held = {}
    found = table.get(entry)
    if found is not None:
        return found
    comps = _cards(m).get(entry.card)
    zones = entry.zones
    if not comps:
        found = ()
    elif zones == "anywhere":
        where = m.where
        found = [c for c in comps if where[c] is not None]
    else:
        where, info = m.where, m.zone_info or _zone_info(m)    # (as _active, for each of them)
        found = [c for c in comps if where[c] is not None and info.get(id(where[c]), (None,))[0] in zones]
    table[entry] = found
    return found


# ---- effects and triggers -------------------------------------------------------------------------
def _run_effect(m, fn, args, me, source, label):
    """Run an effect (a trigger, a response): its own pending triggers run when it ends."""
    outer_trig, outer_me = m.trig, m.me
    m.trig, m.me = [], me
    outer_src, m.src = m.src, source
    m.frames.append({"effect": label, "source": source, "controller": me})
    try:
        signal = fn(m, *args)
        after = drain(m)
    finally:
        m.frames.pop()
        m.trig, m.me, m.src = outer_trig, outer_me, outer_src
    return signal or after


def drain(m):
    """Run the triggers the effect now ending set off. When several wait, whose turn it is picks
    the next (their texts are the cards' names and the events)."""
    pending = m.trig
    signal = None
    while pending and m.result is None:
        i = 0
        # an ability of a card some player cannot see runs first, unasked, in the order they were
        # set off: a question with it among the options told every seat that a hidden card had
        # reacted (a leak scan), and its answer named the card
        unseen = next((j for j, t in enumerate(pending) if t.source is not None
                       and not all(seen_by(m, t.source, p) for p in range(m.players))), None) \
            if len(pending) > 1 else None
        if unseen is not None:
            i = unseen
        elif len(pending) > 1:
            order = m.game.code.trigger_order
            chooser = order(m) if order is not None else m.current
            shown = [t.label for t in pending]      # (every card here is in everyone's sight: above)
            # (copies of a card of different players: told apart by whose they are — a rules
            # trial could not tell P2's Gremlin from P3's)
            texts = [f"{text} ({player_text(t.controller)})" if t.controller is not None
                     and any(x == text and u.controller != t.controller for x, u in zip(shown, pending)) else text
                     for text, t in zip(shown, pending)]
            if len(set(texts)) < len(texts):
                texts = _by_cause(m, texts, pending)
            # the same ability of alike cards of one player, one as another: no question the chooser
            # could answer knowingly — in turn, as they came
            if len(set(texts)) > 1:
                options, legacy, cards = {}, {}, {}
                for j, (text, old) in enumerate(zip(texts, shown)):
                    for table, base in ((options, text), (legacy, old)):
                        numbered, k = base, 2
                        while numbered in table:     # (two copies of a card: told apart by number)
                            numbered, k = f"{base} #{k}", k + 1
                        table[numbered] = j
                        if table is options and type(pending[j].source) is int:
                            cards[numbered] = pending[j].source
                i = _answer(m, chooser, "which ability resolves first", options, "order", cards=cards,
                            legacy=legacy)
        t = pending.pop(i)
        m.work -= 1
        if m.work < 0:
            from .runtime import _overworked
            _overworked()
        s = _run_effect(m, t.proc, t.args, t.controller, t.source, t.label)
        signal = signal or s
    return signal


def _by_cause(m, texts: list, pending: list) -> list:
    """Waiting triggers of one text told apart by what set each off, where every seat may know it:
    one trap card set off by two cards played is `Trap: played (Scout)` and `… (Archer)` — as
    `… #2` the order was a guess, and alone among the waiting triggers they were not asked at all
    (a rules audit). A hidden cause stays unnamed (then `#2`, as before)."""
    out = []
    for text, t in zip(texts, pending):
        twins = [u for x, u in zip(texts, pending) if x == text and len(u.args) == len(t.args)]
        skip = len(t.args) - len(t.shows)        # (the card itself comes first)
        words = []
        for k, show in enumerate(t.shows if len(twins) > 1 and skip >= 0 else ()):
            v = t.args[skip + k]
            if all(u.args[skip + k] == v for u in twins) or type(v) is not int:
                continue
            if show == "player" and 0 <= v < m.players:
                words.append(player_text(v))
            elif show == "comp" and 0 <= v < len(m.labels) and all(seen_by(m, v, p) for p in range(m.players)):
                words.append(m.labels[v])
        out.append(f"{text} ({', '.join(words)})" if words else text)
    return out


def _emit(m, ev: int, args: tuple):
    """An event happens: each trigger on it whose card is where it applies and whose `where`
    holds (on the arguments as they are now: frozen) waits for the current effect to end."""
    _collect(m, m.game.code.triggers[ev], args)


def _watched_move(m, what, dest, bottom: bool) -> None:
    """A move in a game with `on enter Z` / `on leave Z` triggers: each component that changes
    zone sets off the leave and enter triggers of the zones it leaves and enters."""
    items = list(as_items(what))
    before = [m.where[c] for c in items]
    _move(m, items, dest, bottom)
    for c, old in zip(items, before):
        if old is not dest:
            _zone_event(m, "leave", old, c)
            _zone_event(m, "enter", dest, c)


def _move_at(m, what, dest, depth, watched: bool) -> None:
    """`insert(X, ZONE, N)`: moved as onto the top (in its order, each on top of the one before),
    then put under the N components that were on top (all of them: at the bottom). Nothing else in
    the pile moves, so what was revealed of the others stays so (a new author's Exploding Kittens
    lifted the cards above and back, and that told a player who had seen them the depth)."""
    if type(depth) is not int or depth < 0:
        raise RuleFault(f"`insert` puts a component under a number of others (0: on top), not {plain_text(depth)}")
    items = list(dict.fromkeys(as_items(what)))     # (a card named twice moves once: a trial's `[c, c]`)
    if watched:
        _watched_move(m, items, dest, False)
    else:
        _move(m, items, dest, False)
    k = len(items)
    if not k:
        return
    block = dest[len(dest) - k:]
    del dest[len(dest) - k:]
    at = max(0, len(dest) - depth)
    dest[at:at] = block
    m.work -= len(dest)
    if m.work < 0:
        _overworked()


def _created(m) -> None:
    """The component just created enters its zone."""
    c = len(m.labels) - 1
    _zone_event(m, "enter", m.where[c], c)


def _zone_event(m, what: str, zl, c) -> None:
    if zl is None:
        return
    where = _zone_info(m).get(id(zl))
    entries = m.game.code.zone_triggers.get((what, where[0])) if where is not None else None
    if entries:
        _collect(m, entries, (c,))


def _collect(m, entries, args: tuple) -> None:
    """The triggers among `entries` that apply now wait for the current effect to end."""
    saved = m.me
    try:
        for entry in entries:
            if entry.card is None:
                if entry.where is None or entry.where(m, *args[:entry.arity]):
                    m.trig.append(Trigger(entry.proc, args[:entry.arity], saved, None, entry.label, entry.shows))
                continue
            for c in _holders(m, entry):
                me = m.me = _controller(m, c)
                if entry.where is None or entry.where(m, c, *args[:entry.arity]):
                    m.trig.append(Trigger(entry.proc, (c,) + args[:entry.arity], me, c, f"{m.labels[c]}: {entry.said}",
                                          entry.shows))
                m.me = saved
    finally:
        m.me = saved


def emit_builtin(m, name: str) -> None:
    """The engine's own events (turn_start, turn_end): the card triggers on them wait."""
    saved = m.me
    try:
        for entry in m.game.code.builtin_triggers[name]:
            for c in _holders(m, entry):
                me = m.me = _controller(m, c)
                if entry.where is None or entry.where(m, c):
                    m.trig.append(Trigger(entry.proc, (c,), me, c, f"{m.labels[c]}: {entry.said}"))
                m.me = saved
    finally:
        m.me = saved


def _open(m, wi: int, args: tuple, start, to=None, always=False, until=None):
    """A window: players in turn from `start` (only those in `to`, if given, and never an eliminated
    one) respond or pass; it
    closes when all of them have passed in a row, or once `until()` holds (checked before each
    player is asked). A player with no legal response passes without being asked — unless
    `always`: then being asked at all tells the others nothing. A window declared `order first`
    asks them all at once instead (`_open_first`)."""
    code = m.game.code
    entries = code.responses[wi]
    name = code.window_names[wi]
    n = m.players
    first = m.current if start is None else start
    asked = [(first + i) % n for i in range(n)]
    if to is not None:
        wanted = set(to) if isinstance(to, list) else {to}
        asked = [p for p in asked if p in wanted]
    if m.game.sequenced:                        # an eliminated player (for good or for this round) is
        out = m.seq[2]                          # out of the game: never asked (a new author's Coup: a
        asked = [p for p in asked if not out[p]]  # player out challenged for free, with no card to lose)
    if wi in code.first_windows:                # (one answer closes it: `until` can only keep it shut)
        return None if until is not None and until() else _open_first(m, wi, name, args, asked, always)
    passes, k = 0, 0
    signal = None
    while asked and passes < len(asked) and m.result is None:
        if until is not None and until():
            break
        p = asked[k % len(asked)]
        k += 1
        if m.game.sequenced and m.seq[2][p]:    # (put out by a response while the window was open: a review)
            passes += 1
            continue
        options = _responses(m, wi, entries, args, p)
        if not options and not always:
            passes += 1
            continue
        options[PASS] = SKIP
        m.frames.append({"window": name, "asking": p})
        try:
            got = _answer(m, p, _window_prompt(m, name, args, p), options, "window")
        finally:
            m.frames.pop()
        if got is SKIP:
            passes += 1
            continue
        passes = 0
        s = _respond(m, got, p, name)
        signal = signal or s
    return signal


def _responses(m, wi: int, entries, args: tuple, p: int) -> dict:
    """What player p may respond with in window `wi` now: its own responses declared on the window
    (`respond NAME where C`, shown by their texts), then its cards' responses (shown by the cards'
    labels). Text -> its Response (ability, arguments, card or None)."""
    options: dict = {}
    saved = m.me
    try:
        m.me = p
        for entry in m.game.code.player_responses[wi]:
            own = args[:entry.arity]
            if entry.where is None or entry.where(m, *own):
                options.setdefault(entry.label, Response(entry, own, None))
        for entry in entries:
            for c in _holders(m, entry):
                if _controller(m, c) != p:
                    continue
                full = (c,) + args[:entry.arity]
                if entry.where is None or entry.where(m, *full):
                    options.setdefault(m.labels[c], Response(entry, full, c))
    finally:
        m.me = saved
    return options


def _respond(m, got: Response, p: int, name: str):
    """Run the response p chose: a card's, or p's own (then the running effect is named by p)."""
    c, ability = got.card, got.ability
    m.work -= 1
    label = f"{m.labels[c]}: {name.replace('_', ' ')}" if c is not None else f"{player_text(p)}: {ability.label}"
    return _run_effect(m, ability.proc, got.args, p, c, label)


def _open_first(m, wi: int, name: str, args: tuple, asked: list, always: bool):
    """A window answered first (`order first`): every player asked may answer at once, and the first
    response takes the right to respond; the window then closes. A pass takes that player out. The
    question is put to the first of them still in (in turn from `start`: how a terminal or a bot
    answers it); the others may answer it too, as `P3: challenge` (`Match.interrupts`), and a
    networked table takes whichever answer comes first."""
    entries = m.game.code.responses[wi]
    offers = {p: _responses(m, wi, entries, args, p) for p in asked}
    waiting = [p for p in asked if offers[p] or always]
    while waiting and m.result is None:
        chooser = waiting[0]
        options: dict = {}
        mine: list = []
        also: list = []
        for p in waiting:
            prefix = "" if p == chooser else player_text(p) + ": "
            texts = []
            for text, got in list(offers[p].items()) + [(PASS, SKIP)]:
                options[prefix + text] = (p, got)
                texts.append(prefix + text)
            if p == chooser:
                mine = texts
            else:
                also.append([p, texts])
        m.frames.append({"window": name, "asking": chooser})
        try:
            p, got = _answer(m, chooser, _window_prompt(m, name, args, chooser), options, "window", mine=mine,
                             also=also)
        finally:
            m.frames.pop()
        if got is SKIP:
            waiting.remove(p)
            continue
        return _respond(m, got, p, name)
    return None


def _window_prompt(m, name: str, args: tuple, p: int) -> str:
    """A window's question: the rules' `window W(…) as E` for the player asked (`me`), or the default."""
    fn = m.game.code.defs.get("__window_" + name)
    if fn is None:
        return f"respond in {name}"
    saved, m.me = m.me, p
    try:
        text = fn(m, *args)
    finally:
        m.me = saved
    return text if isinstance(text, str) else f"respond in {name}"


def _hook_entry(m, hi: int, c, args: tuple):
    """c's card's ability for hook `hi`, if it has one that applies now (its `from`, its `where`)."""
    if c is None:
        return None
    code = m.game.code
    entry = code.hooks[hi].get(m.F[code.card_column][c])
    if entry is None or not _active(m, c, entry.zones):
        return None
    if entry.where is not None and not entry.where(m, c, *args[:entry.arity]):
        return None
    return entry


def _can(m, hi: int, c, args: tuple) -> bool:
    """`can HOOK(args) of c`: _hook_entry is not None, written out (asked of every card a listing or
    a `when` looks at, mostly of cards without that ability: no second call for those)."""
    if c is None:
        return False
    code = m.game.code
    entry = code.hooks[hi].get(m.F[code.card_column][c])
    if entry is None or not _active(m, c, entry.zones):
        return False
    return entry.where is None or bool(entry.where(m, c, *args[:entry.arity]))


def _hook(m, hi: int, c, args: tuple, by=_UNSET_BY):
    """`run HOOK(args) of c [by P]`: c's card's ability for the hook, if it has one that applies
    (`by`: with `me` that player while it runs)."""
    entry = _hook_entry(m, hi, c, args)
    if entry is None:
        return None
    saved, m.src = m.src, c
    if by is _UNSET_BY:
        try:
            return entry.proc(m, c, *args[:entry.arity])
        finally:
            m.src = saved
    if type(by) is not int or not 0 <= by < m.players:
        m.src = saved
        raise RuleFault(f"`run … by` needs a player, not {'none' if by is None else str(by)[:40]}")
    me, m.me = m.me, by
    try:
        return entry.proc(m, c, *args[:entry.arity])
    finally:
        m.src, m.me = saved, me


def _replaceable(m, pi: int, fn, args: tuple):
    """A call of a procedure some card may replace: the first replacement that applies runs
    instead (each replacement at most once in a chain of replacements)."""
    for entry in m.game.code.replacements[pi]:
        for c in _holders(m, entry):
            key = (entry.proc, c)
            if key in m.replacing:
                continue
            if entry.where is None or entry.where(m, c, *args[:entry.arity]):
                m.replacing.append(key)
                try:
                    return entry.proc(m, c, *args[:entry.arity])
                finally:
                    m.replacing.remove(key)
    return fn(m, *args)


def _grant(m, di: int, args: tuple, amount) -> None:
    """`modify D(args) += E until turn_end`: kept in the match until the turn ends."""
    if type(amount) is not int:
        raise RuleFault("a timed modifier adds a number")
    m.grants.append(Grant(di, list(args), amount))


def _mods(m, di: int, args: tuple) -> int:
    """What the cards in play add to a def (their `modify` abilities), and the timed modifiers;
    kept while a memo of defs is open (a listing asks a card's power often)."""
    kept = m.held
    if kept is not None and not m.grants and kept.get(~di) == []:
        return 0                                # (no card in play modifies it: nothing to ask or charge)
    lm = m.lm
    if lm is None:
        return _mods_now(m, di, args)
    key = (di, args)        # (a def's own memo key is (its index, *its arguments): never equal to this)
    try:
        total = lm.get(key)
    except TypeError:                           # (a list argument)
        return _mods_now(m, di, args)
    if total is None:
        total = lm[key] = _mods_now(m, di, args)
    return total


def _mods_now(m, di: int, args: tuple) -> int:
    total = 0
    if m.grants:
        key = list(args)
        m.work -= len(m.grants)
        for g in m.grants:
            if g.def_index == di and g.args == key:
                total += g.amount
    # (ability, component) of every card in play that modifies def `di`, in the rules' order; kept
    # as _holders is, under the key ~di
    table = _held(m)
    holders = table.get(~di)
    if holders is None:
        holders = table[~di] = [(entry, c) for entry in m.game.code.modifiers[di] for c in _holders(m, entry)]
    if holders:
        m.work -= len(holders)                 # (each holder's amount is asked: charged)
        for entry, c in holders:
            total += entry.where(m, c, *args)
    if m.work < 0:
        _overworked()
    return total


# ---- knowledge ----------------------------------------------------------------------------------
def _reveal(m, what, to) -> None:
    """Show components to players (all of them if `to` is none): each stays known to them until
    it moves to another zone."""
    new = "all" if to is None else sorted(set(to)) if isinstance(to, list) else [to]
    info = _zone_info(m)
    for c in as_items(what):
        where = info.get(id(m.where[c]))
        if where is None:
            continue
        who, old = new, m.known.get(c)
        if old is not None and old.zone == list(where):   # known already: to more players now
            who = "all" if "all" in (old.to, new) else sorted(set(old.to) | set(new))
        m.known[c] = Revealed(list(where), who)
        if m.named and any(x == c or (type(x) is tuple and c in x) for _, x in m.named):
            m.chain_reveals = m.chain_reveals + ((c, new),)     # (a private answer's card shown now: those it is shown to read it)


def _forget(m, what, dest=None) -> None:
    """Components that move to another zone (or are shuffled) are no longer known where they were
    revealed; a move within its own zone (`dest`: a hand sorted onto itself) forgets nothing."""
    known = m.known
    if known:
        where = m.where
        for c in list(as_items(what)):
            if c in known and (dest is None or where[c] is not dest):     # (only what is known: a bad
                del known[c]                                              #  value is the move's to refuse)


def _anonymize(m, zone) -> None:
    """A shuffle of components private answers named, out of some player's sight: those answers
    stay private for good, even if the cards end in everyone's sight (widen_private) — the shuffle
    is what hides whose each was (a new author's secret ballot: Yes and No cast, boxed, shuffled
    and shown, and the log read `P2: cast No` to all). One everyone sees as it is shuffled (a card
    laid face up on the table) is public already; a shuffle of one card hides nothing."""
    items = set(as_items(zone))
    if len(items) < 2:
        return
    everyone = None
    keep = []
    for at, c in m.named:
        cs = c if type(c) is tuple else (c,)
        if items.intersection(cs):
            if everyone is None:
                everyone = seen_by_all(m)
            if not all(x in everyone for x in cs):
                continue                        # (hidden as shuffled: whose it was is not told)
        keep.append((at, c))
    m.named = keep


def _tell(m, text, to) -> None:
    """A message for some players only."""
    who = sorted(set(to)) if isinstance(to, list) else [to]
    m.messages.append({"to": who, "text": text})


def known_to(m, player: int | None) -> dict:
    """Components revealed to `player` that are still where they were revealed: id -> zone.
    None: those revealed to all (`reveal X` with no `to`: onlookers too), not to a list of seats —
    of one player, `to [me]` is a private peek."""
    out: dict = {}
    if not m.known:
        return out
    info = _zone_info(m)
    for c, revealed in m.known.items():
        to = revealed.to
        if to != "all" and (player is None or player not in to):
            continue
        where = info.get(id(m.where[c]))
        if where is not None and list(where) == revealed.zone:
            out[c] = revealed.zone
    return out


def seen_by_all(m) -> set:
    """The components anyone watching the table may see now: in public zones (a top-only pile's
    top) or revealed to all, while they stay where they were shown (`Match.visible_to_all`)."""
    seen = set(known_to(m, None)) if m.known else set()
    for z, value in zip(m.game.zones, m.Z):
        if z["visibility"] == "public":
            for zl in (value if z["per"] else [value]):
                seen.update(zl[-1:] if z.get("top") else zl)
    return seen


NAMESPACE = {
    "_choose_one": _choose_one, "_choose_many": _choose_many, "_may": _may, "_SKIP": SKIP,
    "_emit": _emit, "_open": _open, "_drain": drain, "_hook": _hook, "_can": _can, "_replaceable": _replaceable, "_mods": _mods,
    "_reveal": _reveal, "_tell": _tell, "_forget": _forget, "_anonymize": _anonymize, "_grant": _grant,
    "_watched_move": _watched_move, "_move_at": _move_at, "_created": _created,
    "_comp_seen_text": _comp_seen_text, "_all_seen": _all_seen, "_union_text": _union_text,
    "_union_seen_text": _union_seen_text,
    # (a listing's subsets of copies: merged only where the actor sees them, seen_by)
    "_one_per_subset": lambda m, out, start, subsets, zone=None: _one_per_subset(m, out, start, subsets, zone, seen_by),
}
