"""Dozen War, hidden information: over full random games (2, 3 and 4 players, and the 2 vs 2
alliance), nothing a player is shown tells them what they may not know.

The secrets, worked out from `state()` (which holds everything), not from what `view()` shows:
(a) the token under a mountain that has not been dug (zone `buried`): a map piece, a treasure or
    the curse;
(b) the equipment cards in another player's hand (zone `hand`, `owner`). games/dozen_war.md says
    only that allies "may exchange one equipment card each" at the start of a round (D29), the card
    offered being shown to the ally: it does not say allies see each other's hands, so here an ally's
    hand is as secret as an enemy's, the offered card aside;
(c) the equipment deck, its discard pile `used` (face down, reshuffled into the deck) and the event
    deck: which cards they hold and in what order.
A component of those kinds is visible to p when it lies in a public zone (`past`), in p's own hand,
or is revealed to p (`state()["known"]`; Dozen War reveals only a card offered to an ally). Tokens in the internal `box`
were dug (announced) or are the starting map pieces: no secret.

What is scanned, after every action (and after setup), for every seat p:
- `view(p)` (after every action with 2 players, every 2nd with 3, every 3rd with 4 — the views are
  most of the time —, and always while a choice waits, its prompt being there only then): every
  component listed in a zone must be visible to p (ids, not labels), a hidden zone
  may show its size only (`cells[...]["buried"]` an int), and the whole view as JSON text may name a
  secret label only when a copy p may see (or one just announced: see below) explains it;
- the legal actions when p is to act (`current_player == p`), `question` when p is the chooser, and
  `interrupts(p)`;
- each message p may read (`messages_for(p)`), once, when it is written: a card or token it names
  must be one that moved in this action (or the chain of answers it is part of) and that p may see
  before or after it, or one announced by that move: played (hand -> `used`) or dug (`buried` ->
  `box`). Counted: a message naming two Sharp Swords needs two such copies. So "P2 draws Sharp
  Sword" is a leak even when p holds a Sharp Sword of its own;
- the text of a top-level action just played (the terminal shows it to everyone; the answers to a
  choice naming a card some seat cannot see are shown as "a secret choice", so those are not).
Labels are matched as whole words, the longest first ("Smoke Bomb" is not "Bomb", "Old Armoury" is
not the event "Armoury"), case-sensitively ("Map piece" is the token, "map pieces" the counter).

The self-tests plant leaks (a view, a message, an action text, and a `log` in a copy of the rules)
and check that the scanner flags them.

Not a text, so not scanned: whether a player is asked at all. A window skips a player with no legal
response, which would tell the attacker whether the defender (or its ally) holds a defence card that
can answer; the rules open `defend` `always` to the defender's side, and the last test checks that
the question betrays nothing.
"""
from __future__ import annotations

import json
import random
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

import rulelang
from dw_helpers import ROOT, Position, game, play

SECRET_KINDS = ("EquipmentCard", "Event", "Token")
SECRET_ZONES = ("buried", "hand", "deck", "used", "events")


def locate(state: dict) -> dict[int, tuple[str, int | None]]:
    """Each component's zone: (name, index of the family member — player, cell, key — or None)."""
    where = {}
    for name, value in state["zones"].items():
        if value and all(isinstance(v, list) for v in value):
            for i, items in enumerate(value):
                for c in items:
                    where[c] = (name, i)
        else:
            for c in value:
                where[c] = (name, None)
    return where


class Scanner:
    """What each seat may see in a match, and the check of what it is shown against it."""

    def __init__(self, m):
        st = m.state()
        self.n = st["players"]
        comps = st["components"]
        self.label = [c["label"] for c in comps]
        self.kind = [c["kind"] for c in comps]
        self.secret_kind = {i for i, k in enumerate(self.kind) if k in SECRET_KINDS}
        self.secret_labels = {self.label[i] for i in self.secret_kind}
        # every label that contains a secret label as a word is matched too (and so masks it)
        word = {s: re.compile(r"(?<![A-Za-z])" + re.escape(s) + r"(?![A-Za-z])") for s in self.secret_labels}
        names = {l for l in set(self.label) if any(w.search(l) for w in word.values())}
        self.names = re.compile(r"(?<![A-Za-z])(" + "|".join(re.escape(w) for w in sorted(names, key=len, reverse=True))
                                + r")(?![A-Za-z])")
        self.read = [len(m.messages_for(p)) for p in range(self.n)]
        self.where = locate(st)
        self.known = st.get("known") or {}
        self.chain_start = dict(self.where)       # where things were before the current action chain

    def ids(self, label: str) -> set[int]:
        return {c for c in self.secret_kind if self.label[c] == label}

    # ---- knowledge ----
    def visible(self, p: int, where=None, known=None) -> set[int]:
        """The components of the secret kinds p may see."""
        where = self.where if where is None else where
        known = self.known if known is None else known
        out = set()
        for c in self.secret_kind:
            z, i = where.get(c, (None, None))
            if z == "past" or (z == "hand" and i == p):
                out.add(c)
        for key, entry in known.items():
            c = int(key)
            if (entry["to"] == "all" or p in entry["to"]) and list(where.get(c, ())) == list(entry["zone"]):
                out.add(c)
        return out

    def secrets(self, p: int) -> set[int]:
        """The components of the secret kinds p may not see (tokens in the internal box excepted)."""
        vis = self.visible(p)
        return {c for c in self.secret_kind if self.where.get(c, (None,))[0] in SECRET_ZONES and c not in vis}

    def announced(self, before: dict) -> set[int]:
        """Components made public by a move since `before`: played (a hand -> used) or dug (buried -> box).
        (A card played is exchanged first with the lowest copy no one sees, which may lie in the deck
        or another hand: engine/alike.py. Its id comes out of there.)"""
        out = set()
        for c in self.secret_kind:
            a, b = before.get(c, (None,))[0], self.where.get(c, (None,))[0]
            if (a, b) in (("hand", "used"), ("deck", "used"), ("buried", "box")):
                out.add(c)
        return out

    def describe(self, c: int) -> str:
        z, i = self.where[c]
        if z == "buried":
            return f"{self.label[c]!r} buried at {chr(97 + i % 11)}{i // 11 + 1}"
        if z == "hand":
            return f"{self.label[c]!r} in P{i + 1}'s hand"
        return f"{self.label[c]!r} in {z}"

    # ---- the checks ----
    def leaks(self, p: int, text: str, where: str, explained: set[int] = frozenset()) -> list[str]:
        """Secret labels named in `text` that no component p may see (or `explained`) accounts for."""
        if not any(s in text for s in self.secret_labels):
            return []
        ok = {self.label[c] for c in self.visible(p) | set(explained)}
        secret = self.secrets(p)
        out = []
        for name in sorted(set(self.names.findall(text))):
            if name in self.secret_labels and name not in ok:
                holders = [self.describe(c) for c in sorted(secret) if self.label[c] == name]
                if holders:
                    out.append(f"{where}: {name!r} ({', '.join(holders[:3])}) in {text[:300]!r}")
        return out

    def message_leaks(self, p: int, text: str, involved: Counter) -> list[str]:
        """A message: each secret label it names must be a copy involved in this move (counted)."""
        if not any(s in text for s in self.secret_labels):
            return []
        named = Counter(n for n in self.names.findall(text) if n in self.secret_labels)
        out = []
        for name, k in sorted(named.items()):
            if k > involved[name]:
                holders = [self.describe(c) for c in sorted(self.secrets(p)) if self.label[c] == name]
                out.append(f"message to P{p + 1}: {name!r} named {k}x, {involved[name]} copy(ies) moved where "
                           f"P{p + 1} may see them ({', '.join(holders[:3]) or 'no hidden copy'}) in {text[:300]!r}")
        return out

    def view_leaks(self, p: int, view: dict, explained: set[int] = frozenset()) -> list[str]:
        out = []
        # (the internal box, in views since issue 28: spent tokens, each announced as it was dug)
        explained = set(explained) | {c for c in self.secret_kind if self.where.get(c, (None,))[0] == "box"}
        vis = self.visible(p) | explained
        for z in view["zones"]:
            listed = (z.get("cards") or []) + (z.get("known") or [])
            for card in listed:
                c = card["id"]
                if c in self.secret_kind and c not in vis:
                    out.append(f"view(P{p + 1}): zone {z['name']} (owner {z['owner']}) lists {self.describe(c)}")
            if z["name"] in SECRET_ZONES and z["visibility"] != "public" and z.get("cards") is not None \
                    and not (z["name"] == "hand" and z["owner"] == p):
                out.append(f"view(P{p + 1}): hidden zone {z['name']} (owner {z['owner']}) shows its cards")
        for cell, entry in (view.get("cells") or {}).items():
            if "buried" in entry and not isinstance(entry["buried"], int):
                out.append(f"view(P{p + 1}): cell {cell} shows what is buried: {entry['buried']!r}")
        for key in (view.get("component_values") or {}):
            if str(key).isdigit() and int(key) in self.secret_kind and int(key) not in vis:
                out.append(f"view(P{p + 1}): values of {self.describe(int(key))}")
        out += self.leaks(p, json.dumps(view, ensure_ascii=False), f"view(P{p + 1})", explained)
        return out

    # ---- one action ----
    def after(self, m, played: str | None = None, top_level: bool = False, views: bool = True) -> list[str]:
        """Check everything shown after `played` (None: the position as it is); `top_level`: it
        was an action, not an answer to a choice (its text is shown to everyone). `views` False:
        not the views (to save time; whatever else is shown is checked)."""
        st = m.state()
        before, known_before = self.where, self.known
        self.where, self.known = locate(st), st.get("known") or {}
        chain = self.announced(self.chain_start)
        step = self.announced(before)
        moved = {c for c in self.secret_kind
                 if self.chain_start.get(c) != self.where.get(c) or before.get(c) != self.where.get(c)}
        out = []
        for p in range(self.n):
            if views:
                out += self.view_leaks(p, m.view(p), chain)
            if m.current_player == p:
                for a in m.legal_actions():
                    out += self.leaks(p, a.text, f"legal action of P{p + 1}", chain)
            q = m.question
            if q is not None and q["chooser"] == p:
                for text in [q.get("prompt") or ""] + [str(o) for o in q.get("options") or []]:
                    out += self.leaks(p, text, f"question to P{p + 1}", chain)
            for a in m.interrupts(p):
                out += self.leaks(p, a.text, f"interrupt of P{p + 1}", chain)
            was_seen = self.visible(p, before, known_before)
            seen = was_seen | self.visible(p)
            # (a card shown to p, as an ally's offered card is: "P3 offers you Horseshoe" — also when the
            # same card, refused, is offered again: it was shown before and is still where it was shown)
            shown = {int(k) for k, e in self.known.items() if e["to"] == "all" or p in e["to"]} & self.visible(p)
            involved = Counter(self.label[c] for c in (moved & seen) | chain | step | (self.visible(p) - was_seen)
                               | shown)
            msgs = m.messages_for(p)
            for text in msgs[self.read[p]:]:
                out += self.message_leaks(p, text, involved)
            self.read[p] = len(msgs)
            if played is not None and top_level:
                out += self.leaks(p, played, f"action played, seen by P{p + 1}", chain | step)
        if m.question is None:
            self.chain_start = dict(self.where)
        return out


def play_random(m, seed: int, scanner: Scanner | None = None, cap: int = 2000, view_every: int = 1):
    """Random legal actions to the end (now and then an interrupt, if the game has any), each one
    scanned (the views after every `view_every`-th action, and whenever a choice waits, as a
    choice's prompt and options are there only while it waits). Returns the leaks found (the
    first few) and the number of actions."""
    rng = random.Random(seed)
    scan = scanner or Scanner(m)
    found = [f"after setup: {x}" for x in scan.after(m)]
    steps = 0
    while not m.is_over and steps < cap and not found:
        top_level = m.question is None
        actor = m.current_player
        played = None
        if top_level and rng.random() < 0.05:
            p = rng.randrange(m.players)
            offers = m.interrupts(p)
            if offers:
                played, actor = rng.choice(offers).text, p
        if played is None:
            played = rng.choice(m.legal_actions()).text
        m.apply(played)
        steps += 1
        views = steps % view_every == 0 or m.question is not None or m.is_over
        found = [f"after {steps} actions ({played!r} by P{actor + 1}): {x}"
                 for x in scan.after(m, played, top_level, views)]
    return found, steps


# (four players without alliances: the 3-player game has several opponents, the 4-player ones allies)
# (seed 20 of the alliance: a shorter game, ~680 actions against ~870, in which a refused card is offered again)
GAMES = [(2, 1, {}), (3, 2, {}), (4, 20, {"alliance": True})]


@pytest.mark.parametrize("players,seed,options", GAMES, ids=["2p", "3p", "4p-alliance"])
def test_no_player_is_shown_a_secret(players, seed, options):
    m = game.new_match(players, seed=seed, options=options)
    found, steps = play_random(m, seed, view_every=players - 1)   # (the views are most of the time)
    assert found == [], "\n".join(found[:5])
    assert m.is_over and steps > 100


def test_a_game_with_digs_and_swaps_shows_no_secret():
    """Random play seldom digs: a game that prefers digging, equipment, skills and (alliance)
    exchanges, so tokens are dug up, treasures found and cards pass between allies while being scanned."""
    m = game.new_match(4, seed=7, options={"alliance": True, "generals": "random"})
    rng = random.Random(7)
    scan = Scanner(m)
    found = scan.after(m)
    steps, dug, given = 0, 0, 0
    # (300 actions once a few digs and swaps are in: the other tests scan whole games; since stop 57
    # allies may swap at every turn's start, and a whole game here took 11 s)
    while not m.is_over and not found and steps < 2000 and not (steps >= 300 and dug >= 2 and given >= 2):
        top_level = m.question is None
        acts = [a.text for a in m.legal_actions()]
        q = m.question
        pick = None
        if top_level:
            for prefix in ("dig ", "equip ", "skill "):
                options = [a for a in acts if a.startswith(prefix)]
                if options and rng.random() < 0.7:
                    pick = rng.choice(options)
                    break
            if pick is None:
                # walk generals towards the middle (the mountains)
                moves = [a for a in acts if a.startswith("move ") and any(
                    a.split(" ")[2] == g for g in ("Iron", "Stone", "Shield", "Night", "Storm", "Ash", "Sky",
                                                    "Moon", "Hawk", "Gold", "Fire", "Quicksilver"))]
                if moves and rng.random() < 0.6:
                    pick = min(moves, key=lambda a: abs(int(a.rsplit(" ", 1)[1][1:]) - 6) + rng.random())
        elif q is not None and (q["prompt"].startswith("Offer an equipment card") or " offers you a card" in q["prompt"]):
            pick = next((a for a in acts if a != "pass"), None)
            given += pick is not None
        if pick is None:
            pick = rng.choice(acts)
        dug += pick.startswith("dig ")
        m.apply(pick)
        steps += 1
        views = steps % 3 == 0 or m.question is not None or m.is_over
        found = [f"after {steps} actions ({pick!r}): {x}" for x in scan.after(m, pick, top_level, views)]
    assert found == [], "\n".join(found[:5])
    assert dug >= 2 and given >= 2, (dug, given)


# ---- the scanner itself ------------------------------------------------------------------------------

def small_position():
    """P1 and P2, each with a general; P2 holds a Bomb and a War Axe, P1 a Dodge; a Dragon Gold
    under c9, the deck topped with Tower Shield and the events with Famine."""
    return (Position(2).general(0, "Iron Warden", "c10").general(1, "Night Rider", "f2")
            .hand(1, "Bomb", "War Axe").hand(0, "Dodge").bury("c9", "Dragon Gold").bury("i9", "Map piece")
            .deck_top("Tower Shield").events_top("Famine").turn(0))


def test_scanner_flags_planted_leaks():
    m = small_position().match()
    s = Scanner(m)
    assert s.after(m) == []
    # (a) a buried token
    assert s.leaks(0, "c9 hides Dragon Gold", "t")
    assert s.leaks(1, "a Map piece lies under i9", "t")
    # (b) another player's hand: P1 is shown P2's Bomb; P2 is shown P1's Dodge
    assert s.leaks(0, "P2 holds Bomb", "t")
    assert s.leaks(1, "P1 holds Dodge", "t")
    assert s.names.findall("Smoke Bomb, Bomb") == ["Smoke Bomb", "Bomb"]    # the longest label first
    assert s.names.findall("Old Armoury (a token), Armoury (an event)") == ["Old Armoury", "Armoury"]
    assert s.names.findall("Map pieces: P1=2 (map piece)") == []
    # (c) the decks
    assert s.leaks(0, "next: Tower Shield", "t")
    assert s.leaks(1, "the next event is Famine", "t")
    # what each may know
    assert s.leaks(0, "you hold Dodge", "t") == []
    assert s.leaks(1, "you hold Bomb and War Axe", "t") == []
    assert s.leaks(0, "P1 digs up Dragon Gold", "t", explained=s.ids("Dragon Gold")) == []
    # a view: P2's view shown to P1 lists P2's hand by id
    assert any("Bomb" in x for x in s.view_leaks(0, m.view(1)))
    shown = json.loads(json.dumps(m.view(0)))
    shown["values"].append({"name": "Under c9", "value": "Dragon Gold"})
    assert any("Dragon Gold" in x for x in s.view_leaks(0, shown))
    shown = json.loads(json.dumps(m.view(0)))
    shown["cells"]["c9"]["buried"] = ["Dragon Gold"]
    assert s.view_leaks(0, shown)
    shown = json.loads(json.dumps(m.view(0)))
    next(z for z in shown["zones"] if z["name"] == "hand" and z["owner"] == 1)["cards"] = []
    assert s.view_leaks(0, shown)
    for p in range(2):
        assert s.view_leaks(p, m.view(p)) == []
    # a message names a copy that did not move (P1 holds a Dodge: "P2 draws Dodge" is still a leak)
    assert s.message_leaks(0, "P2 draws Dodge", Counter())
    assert s.message_leaks(0, "P2 plays Bomb", Counter({"Bomb": 1})) == []
    assert s.message_leaks(0, "P2 plays Bomb, then Bomb", Counter({"Bomb": 1}))


def test_scanner_flags_a_planted_message_action_and_question():
    """A fake match that writes a message naming a secret, offers an action naming one, and asks a
    question naming one: `after` flags each."""
    m = small_position().match()
    s = Scanner(m)

    class Fake:
        def __init__(self, real, messages=(), actions=(), question=None, interrupts=()):
            self.real, self.extra, self.acts, self.question, self.ints = real, list(messages), actions, question, interrupts
            self.current_player = real.current_player
            self.players = real.players

        def state(self):
            return self.real.state()

        def view(self, p):
            return self.real.view(p)

        def messages_for(self, p):
            return self.real.messages_for(p) + self.extra

        def legal_actions(self):
            return [type("A", (), {"text": t})() for t in self.acts] or self.real.legal_actions()

        def interrupts(self, p):
            return [type("A", (), {"text": t})() for t in self.ints]

    assert any("Bomb" in x for x in s.after(Fake(m, messages=["P2's hand: Bomb"])))
    s = Scanner(m)
    assert any("Famine" in x for x in s.after(Fake(m, actions=["end turn", "peek Famine"])))
    s = Scanner(m)
    q = {"chooser": 0, "prompt": "Dragon Gold is under c9: dig?", "options": ["yes", "no"]}
    assert any("Dragon Gold" in x for x in s.after(Fake(m, question=q)))
    s = Scanner(m)
    assert any("War Axe" in x for x in s.after(Fake(m, interrupts=["P1: steal War Axe"])))
    s = Scanner(m)
    assert s.after(Fake(m)) == []


def test_scanner_follows_a_dig_and_a_played_card():
    m = (small_position().general(0, "Hawk Eye", "b9").hand(0, "Sharp Sword")
         .soldier(1, "infantry", "c8").match())
    s = Scanner(m)
    assert s.after(m) == []
    play(m, "dig Hawk Eye c9")                   # announced: "P1's Hawk Eye digs up Dragon Gold"
    assert any("Dragon Gold" in t for t in m.messages_for(1))
    assert s.after(m, "dig Hawk Eye c9", True) == []
    assert s.leaks(1, "Dragon Gold", "t") == []     # dug: no longer a secret
    assert s.leaks(1, "Map piece", "t")             # the one under i9 still is
    play(m, "equip Sharp Sword")
    assert s.after(m, "equip Sharp Sword", True) == []


def test_a_game_with_random_generals_shows_no_secret():
    m = game.new_match(2, seed=9, options={"generals": "random"})
    found, steps = play_random(m, 9)
    assert found == [], "\n".join(found[:5])


# ---- leaks planted in a copy of the rules are found --------------------------------------------------

def mutated_rules(tmp_path: Path, file: str, old: str, new: str) -> Path:
    src = ROOT / "games"
    shutil.copytree(src / "dozen_war", tmp_path / "dozen_war")
    shutil.copy(src / "dozen_war.rules", tmp_path / "dozen_war.rules")
    target = tmp_path / file
    text = target.read_text()
    assert text.count(old) == 1, old
    target.write_text(text.replace(old, new))
    return tmp_path / "dozen_war.rules"


@pytest.mark.parametrize("file,old,new,what", [
    # (b) a drawn card announced to everyone
    ("dozen_war.rules", "if size(deck) > 0 { move top(deck) to hand[p] }",
     'if size(deck) > 0 { log text(p) + " draws " + text(top(deck))  move top(deck) to hand[p] }', "hand"),
    # (a) the token left under a mountain named when the setup buries it
    ("dozen_war.rules", "move pick([t for t in stash]) to buried[h]",
     'let t = pick([t for t in stash])  log "buried: " + text(t)  move t to buried[h]', "buried"),
    # (c) the next event named in advance
    ("dozen_war.rules", 'log text(p) + " rolls " + text(d) + ": "',
     'log text(p) + " rolls " + text(d) + (if size(events) > 0 then " next: " + text(top(events)) else "") + ": "',
     "events"),
    # (c) a prompt naming the next event (every view shows a waiting choice's prompt)
    ("dozen_war.rules", 'prompt "Which general stands in your " + text(k)',
     'prompt "Which general stands in your " + text(k) + " (" + text(top(events)) + " is next)"', "in events"),
])
def test_the_scan_finds_leaks_planted_in_the_rules(tmp_path, file, old, new, what):
    leaky = rulelang.load(str(mutated_rules(tmp_path, file, old, new)))
    m = leaky.new_match(2, seed=1, options={"generals": "random"})
    found, _ = play_random(m, 1)
    assert found, "the scan missed a planted leak"
    assert what in found[0], found[0]


@pytest.mark.parametrize("old,new,what", [
    # the card given to an ally announced to everyone
    ('log text(p) + " and " + text(mate) + " exchange an equipment card"',
     'log text(p) + " gives " + text(c) + " to " + text(mate)', " gives "),
    # an ally shown the other's hand (allies may not see each other's hands, only the card offered)
    ("reveal c to [mate]", 'reveal c to [mate]  log "my hand: " + text([text(x) for x in hand[p]]) to [mate]',
     "hand"),
])
def test_the_scan_finds_alliance_leaks_planted_in_the_rules(tmp_path, old, new, what):
    leaky = rulelang.load(str(mutated_rules(tmp_path, "dozen_war.rules", old, new)))
    for seed in (1, 2, 3):
        m = leaky.new_match(4, seed=seed, options={"alliance": True, "generals": "random"})
        found, _ = play_random(m, seed, view_every=4)
        if found:
            break
    assert found, "the scan missed a planted leak"
    assert what in found[0], found[0]


# ---- what the scan cannot see: being asked at all ----------------------------------------------------

def test_being_asked_to_defend_does_not_tell_what_the_defender_holds():
    """P1's Iron Warden attacks P2's Night Rider (no defence skill): P2 holding a Dodge or a Sharp
    Sword must look the same to P1 (in the game at the table, the defender is always asked)."""
    seen = []
    for card in ("Dodge", "Sharp Sword"):
        m = (Position(2).general(0, "Iron Warden", "e5").general(1, "Night Rider", "f5")
             .hand(1, card).turn(0).match())
        m.apply("attack e5 Iron Warden f5 Night Rider")        # (not play(): it would answer a lone pass)
        seen.append((m.view(0)["choice"], m.current_player))
    assert seen[0] == seen[1], seen
