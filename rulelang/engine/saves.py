"""Saves: `state()` as plain JSON and `from_state`, which checks a position against the rules
before it becomes a match.

Part of `Match` (match.py): a mixin sharing its state."""
from __future__ import annotations

from typing import TYPE_CHECKING

import json

from .chance import checked_tape
from .codegen import player_text
from .codegen.effects import Paused
from ..core.errors import RuleFault, RuleRuntimeError, StateError
from ..core.limits import COMPONENT_LIMIT, INT_LIMIT, PLAYER_LIMIT
from ..core.types import ValueType
from .support import RULE_FAULTS, STATE_FORMAT, STATE_VERSION, _component_key, _components, _cuts, _message, _named, _outcome, _plain_value, _rng_state, _rounds, _short, _text
from .parts import MatchParts
from .records import Grant, Revealed

if TYPE_CHECKING:
    from typing import Self

    from .game import Game


class MatchSaves(MatchParts):
    """The position as plain JSON, and back."""

    def state(self) -> dict:
        """The position as plain JSON. A determinized copy paused inside an effect is refused: it
        replays its chain from the real position where the chain began (its `pending` base), which
        its seat may not see, so writing it out would hand over the real hidden cards."""
        pending = self.pending
        if pending is not None and pending["base"] is not None and _imagined(pending["base"]):
            raise StateError("a determinized copy cannot be saved while an effect waits for an answer: "
                             "it replays from the real position, which its seat may not see (save the "
                             "match it was copied from, or read the copy's view)")
        return self._state()

    def _state(self) -> dict:
        """state() without the check: the position of any match, a paused copy's real base included
        (for the engine's own use, never handed to a seat)."""
        game = self.game
        version, internal, gauss = self._rng_tuple()
        Z, V = self.Z, self.V
        return {
            "format": STATE_FORMAT, "version": STATE_VERSION, "game": game.name, "fingerprint": game.fingerprint,
            "players": self.players, "seed": self.seed, "options": dict(self.options),
            "rng": [version, list(internal), gauss],
            "components": [{"kind": k, "fields": self._fields(c, k), "label": l}
                           for c, (k, l) in enumerate(zip(self.kinds, self.labels))],
            "zones": {z["name"]: ([list(x) for x in Z[i]] if z["per"] else list(Z[i]))
                      for i, z in enumerate(game.zones)},
            "vars": {name: (list(V[i]) if isinstance(V[i], list) else V[i]) for i, (name, *_) in enumerate(game.vars)},
            "step": self.step, "current": self.current, "actor": self.actor, "turn": self.turn_count,
            "outcome": self.result, "log": list(self.log), "messages": list(self.messages),
            **({"tape": [list(e) if e[0] != "shuffle" else [e[0], e[1], list(e[2])] for e in self.tape]}
               if self.tape else {}),
            **({"setup_chance": [list(e) if e[0] != "shuffle" else [e[0], e[1], list(e[2])]
                                 for e in self.setup_chance]} if self.setup_chance else {}),
            **({"cuts": [[cut.at, sorted([a, b] for a, b in cut.mapping.items()), sorted(cut.seen), cut.seed]
                         for cut in self.cuts]} if self.cuts else {}),
            **self._interaction_state(),
            **self._simul_state(),
            **({"rounds": {"round": self.seq[0], "order": list(self.seq[1]),
                           "eliminated": [p for p in range(self.players) if self.seq[2][p]],
                           **({"this_round": [p for p in range(self.players) if self.seq[2][p] == "round"]}
                              if "round" in self.seq[2] else {})}}
               if game.sequenced else {}),
        }

    def _interaction_state(self) -> dict:
        """The paused effect and the revealed components, when there are any (plain JSON)."""
        out: dict = {}
        if self.known:
            out["known"] = {str(c): {"zone": r.zone, "to": r.to} for c, r in self.known.items()}
        if self.grants:
            names = list(self.game.ir["defs"])
            out["grants"] = [[names[g.def_index], list(g.args), g.amount] for g in self.grants]
        if self.private:
            out["private"] = {str(i): list(seats) for i, seats in sorted(self.private.items())}
        pending = self.pending
        if pending is not None:
            q = pending["question"]
            out["pending"] = {
                "root": list(pending["root"]), "answers": list(pending["answers"]),
                "question": {"chooser": q["chooser"], "prompt": q["prompt"], "kind": q["kind"],
                             "options": list(q["options"]),
                             **({"also": [[p, list(t)] for p, t in q["also"]]} if "also" in q else {})},
                # where the effect stopped: the abilities and windows running, the triggers waiting
                "stack": [dict(f) for f in q["stack"]], "triggers": list(q["triggers"]),
                "base": pending["base"]._state() if pending["root"] != ["start"] else None}
            if pending["root"] == ["start"] and getattr(pending["base"], "tape", None):
                # (paused in a setup given chance ahead of time: the setup replays on that chance —
                # restored from the seed alone, it dealt another position, and `from_state` refused it)
                out["pending"]["base_tape"] = [list(e) if e[0] != "shuffle" else [e[0], e[1], list(e[2])]
                                               for e in pending["base"].tape]
        return out

    @classmethod
    def from_state(cls, game: Game, data: dict) -> Self:
        """A match in the position `data` (a `state()`, or a test position built from one).

        The data may come from anywhere, so everything that can be checked is: the components are
        the ones setup makes (plus any the rules create in play), each in exactly one zone within
        its capacity, values of their declared types, known options, a real step and its actor, a
        well-formed outcome and generator state. Any problem is a StateError with a one-line reason.
        """
        try:
            return cls._restore(game, data)
        except StateError:
            raise
        except RuleRuntimeError as err:
            raise StateError(f"the rules fail on this position: {err}") from None
        except RULE_FAULTS + (RuleFault, OverflowError, MemoryError) as err:
            raise StateError(f"corrupt match state ({type(err).__name__}: {_text(str(err), 120)})") from None

    @classmethod
    def _restore(cls, game: Game, data: dict) -> Self:
        """The match a state describes, each part checked as it is read, in this order: the header
        (game, players, options, generator), the components, the zones, the variables, the position
        (step, seats, turn, outcome, log), then what is paused or open, and the legal actions."""
        m = cls._restore_header(game, data)
        ctx = m._restore_components(data)
        m._restore_zones(data)
        m._restore_vars(data, ctx)
        m._restore_position(data)
        if "private" in data:                   # (log entries some seats may not read: an action that names
            m._restore_private(data["private"])  # a card by its place writes one, in rules that never pause —
        if "known" in data or "pending" in data or "grants" in data:    # a fuzz trial's saves were refused)
            if not m.game.can_pause:
                raise StateError("these rules never pause an effect or reveal a component")
            m._restore_known(data.get("known", {}))
            m._restore_grants(data.get("grants", []))
            if "pending" in data:
                return m._restore_pending(data)
        if m.result is None and m.step in m.game.code.simultaneous:     # (simultaneous.py)
            try:
                m._restore_simultaneous(data.get("simultaneous"))
            except RULE_FAULTS + (RuleFault,) as err:
                raise m._rule_error("restoring a state", err) from None
        elif data.get("simultaneous") is not None:      # (null, as an edited state may say it: none)
            raise StateError("`simultaneous`: no simultaneous decision is open in this position")
        if m.result is None:
            if m.step not in m.game.code.simultaneous:
                m._check_actor()
            try:
                m._enumerate()
                if not m._by_text:                  # a built position where the actor is stuck:
                    m._settle(None)                 # the rules decide, as after any action
            except RULE_FAULTS + (RuleFault,) as err:
                raise m._rule_error("restoring a state", err) from None
            except Paused:
                # (no action began the question, so no chain could replay up to it: a new author's
                # position, where `on stuck` asks, ended in the engine's own signal, a BaseException)
                raise StateError("the player to act has no legal action here, and the rules then ask a "
                                 "question (`on stuck`): a state cannot begin at a question no action asked "
                                 "(save the match while its question waits instead)") from None
        return m

    @classmethod
    def _restore_header(cls, game: Game, data: dict) -> Self:
        """A new match of these rules, players and options, with the saved generator."""
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise StateError("not a rulelang match state")
        version = data.get("version", STATE_VERSION)       # (another was read as if it were this one)
        if type(version) is not int or version != STATE_VERSION:
            raise StateError(f"this state is of version {_short(version)}; this rulelang reads version "
                             f"{STATE_VERSION} (a newer rulelang wrote it?)")
        if not game.accepts_fingerprint(data.get("fingerprint")):
            if data.get("game") == game.name:    # (`(state: 'X', game: 'X')` read as a
                raise StateError(f"this state was saved with another version of the rules of "   # contradiction)
                                 f"{_short(game.name)} (a changed rule file, or an older rulelang's): it "
                                 f"cannot go on with these")
            raise StateError(f"this state belongs to another game or another version of its rules "
                             f"(state: {_short(data.get('game'))}, game: {_short(game.name)})")
        players, seed, options = data.get("players"), data.get("seed"), data.get("options")
        if type(players) is not int or not game.min_players <= players <= game.max_players:
            raise StateError(f"{_text(game.name)} is for {game.players_text} players, "
                             f"not {_short(players)}")
        if seed is not None and type(seed) is not int:
            raise StateError(f"the seed must be a whole number, not {_short(seed)}")
        if not isinstance(options, dict):
            raise StateError("the options must be an object")
        try:
            options = game.option_values(options)
        except ValueError as err:
            raise StateError(str(err)) from None
        m = cls(game, players, seed, options)
        m._rng, m._rng_state = None, _rng_state(data.get("rng"))
        try:
            m._gen()                                # a bad generator state fails here, not later
        except (ValueError, TypeError, OverflowError):
            raise StateError("the random generator state is not valid") from None
        if "tape" in data:
            try:
                m.tape = checked_tape(data["tape"])
            except ValueError as err:
                raise StateError(f"`tape`: {err}") from None
        if "setup_chance" in data:              # (the setup was dealt by them: see _conserved)
            try:
                m.setup_chance = checked_tape(data["setup_chance"])
            except ValueError as err:
                raise StateError(f"`setup_chance`: {err}") from None
        if "cuts" in data:
            m.cuts = _cuts(data["cuts"], len(data.get("components") or ()))
        return m

    def _restore_components(self, data: dict):
        """The components (those made in play: their fields checked); the type context after them."""
        m, game = self, self.game
        comps, extra = m._conserved(data.get("components"))
        m.kinds = [c["kind"] for c in comps]
        m.labels = [c["label"] for c in comps]
        m.F = [[c["fields"].get(name) for c in comps] for name in game.columns]
        m.created = None                            # the universe is found by content
        ctx = m.type_context()
        for c in extra:                             # components the rules made in play: check their fields
            types = game.field_types[c["kind"]]
            for name, value in c["fields"].items():
                typ = ValueType.parse(types[name])
                if not typ.fits(value, ctx):
                    raise StateError(f"field `{name}` of component {_text(c['label'])} holds {_short(value)}, "
                                     f"which is not {typ.with_article()}")
        return ctx

    def _restore_zones(self, data: dict) -> None:
        m, game = self, self.game
        zones = _named(data.get("zones"), [z["name"] for z in game.zones], "zone")
        Z = m.Z = []
        for z in game.zones:
            raw = zones[z["name"]]
            if z["per"]:
                if not (isinstance(raw, list) and len(raw) == game.family_size(z["per"], m.players, len(m.labels),
                                                                               z.get("key"))
                        and all(isinstance(x, list) for x in raw)):
                    raise StateError(f"zone `{z['name']}` must be one list per "
                                     f"{' per '.join(z['key']) if z['per'] == 'key' else z['per']}")
                Z.append([list(x) for x in raw])
            else:
                if not isinstance(raw, list):
                    raise StateError(f"zone `{z['name']}` must be a list")
                Z.append(list(raw))
        m._index_zones()
        missing = [m.labels[c] for c, zl in enumerate(m.where) if zl is None]
        if missing:
            raise StateError(f"components in no zone: {_text(', '.join(missing[:5]))}")

    def _restore_vars(self, data: dict, ctx) -> None:
        m, game = self, self.game
        values = _named(data.get("vars"), [name for name, *_ in game.vars], "variable")
        V = m.V = []
        for slot, (name, per, _, init) in enumerate(game.vars):
            if per == "component":
                m.me = 0
                m.comp_defaults.append((slot, init(m)))
        for name, per, _, _ in game.vars:
            value = values[name]
            typ = ValueType.parse(game.var_types[name])
            size = (len(m.labels) if per == "component" else
                    game.family_size(per, m.players, key=game.var_keys.get(name)) if per else 0)
            if per and (not isinstance(value, list) or len(value) != size):
                raise StateError(f"variable `{name}` must have one value per "
                                 f"{' per '.join(game.var_keys[name]) if per == 'key' else per}")
            for v in (value if per else [value]):
                if not typ.fits(v, ctx):
                    raise StateError(f"variable `{name}` holds {_short(v)}, which is not {typ.with_article()}")
            V.append(list(value) if isinstance(value, list) else value)

    def _restore_position(self, data: dict) -> None:
        """The step, the seats, the turn, the outcome, the rounds, the log and the messages."""
        m, game = self, self.game
        # (unchecked values from outside, each checked below)
        m.step, m.current, m.actor = data.get("step"), data.get("current"), data.get("actor")  # type: ignore[assignment]
        m.turn_count = data.get("turn")         # type: ignore[assignment]
        if not (isinstance(m.step, str) and m.step in game.steps):
            raise StateError(f"unknown step {_short(m.step)}")
        if not all(type(x) is int and 0 <= x < m.players for x in (m.current, m.actor)):
            raise StateError("the current player and the actor must be seats of this match")
        if not (type(m.turn_count) is int and 0 <= m.turn_count <= INT_LIMIT):
            raise StateError(f"the turn must be a whole number, not {_short(m.turn_count)}")
        m.result = _outcome(game, m.players, data.get("outcome"))
        if game.sequenced:
            m.seq = _rounds(data.get("rounds"), m.players)
        log, messages = data.get("log", []), data.get("messages", [])
        if not (isinstance(log, list) and isinstance(messages, list)
                and all(isinstance(x, str) for x in log) and all(_message(x, m.players) for x in messages)):
            raise StateError("the log and the messages must be lists of texts")
        m.log, m.messages = list(log), [x if isinstance(x, str) else {"to": list(x["to"]), "text": x["text"]}
                                        for x in messages]

    def _restore_known(self, raw) -> None:
        if not isinstance(raw, dict):
            raise StateError("`known` must map components to who they were revealed to")
        zones = {z["name"]: z for z in self.game.zones}
        known = {}
        for key, entry in raw.items():
            c = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else -1
            if not 0 <= c < len(self.labels) or not isinstance(entry, dict):
                raise StateError(f"`known` names {_short(key)}, which is not a component")
            zone, who = entry.get("zone"), entry.get("to")
            if not (isinstance(zone, list) and len(zone) == 2 and zone[0] in zones
                    and (zone[1] is None or type(zone[1]) is int and 0 <= zone[1] < self.players)):
                raise StateError(f"`known` of component {c}: not a zone")
            if not (who == "all" or isinstance(who, list) and all(type(p) is int and 0 <= p < self.players
                                                                   for p in who)):
                raise StateError(f"`known` of component {c}: not a list of players")
            known[c] = Revealed(list(zone), who if who == "all" else sorted(set(who)))
        self.known = known

    def _restore_private(self, raw) -> None:
        if not isinstance(raw, dict):
            raise StateError("`private` must map log entries to the seats that may read them")
        out = {}
        for key, seats in raw.items():
            i = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 12 else -1
            if not 0 <= i < len(self.log):
                raise StateError(f"`private` names {_short(key)}, which is not an entry of the log")
            if not (isinstance(seats, list) and all(type(p) is int and 0 <= p < self.players for p in seats)):
                raise StateError(f"`private` of log entry {i}: not a list of players")
            out[i] = sorted(set(seats))
        self.private = out

    def _restore_grants(self, raw) -> None:
        defs = list(self.game.ir["defs"])
        if not isinstance(raw, list):
            raise StateError("`grants` must be a list")
        out = []
        for g in raw:
            if not (isinstance(g, list) and len(g) == 3 and g[0] in defs and isinstance(g[1], list)
                    and all(_plain_value(x) for x in g[1]) and type(g[2]) is int and abs(g[2]) <= INT_LIMIT):
                raise StateError(f"not a timed modifier: {_short(g)}")
            out.append(Grant(defs.index(g[0]), list(g[1]), g[2]))
        self.grants = out

    def _restore_pending(self, data: dict) -> Self:
        """A paused position: restore its base, replay its action and answers, and check that
        this leads exactly to the position given."""
        raw = data["pending"]
        if not isinstance(raw, dict):
            raise StateError("`pending` must be an object")
        root, answers, base_data = raw.get("root"), raw.get("answers"), raw.get("base")
        if not (isinstance(root, list) and (root == ["start"] or len(root) == 2 and root[0] == "action"
                                            and isinstance(root[1], str) or _simul_root(root))):
            raise StateError("`pending.root` must be [\"start\"], [\"action\", TEXT] or [\"simul\", STEP, ANSWERS]")
        if not (isinstance(answers, list) and all(isinstance(a, str) for a in answers)):
            raise StateError("`pending.answers` must be a list of texts")
        if root == ["start"]:                   # paused in the setup: the base is the match before it
            base = type(self)(self.game, self.players, self.seed, self.options)
            base.setup_chance = self.setup_chance
            if "base_tape" in raw:              # (on the chance the setup was given)
                try:
                    base.tape = checked_tape(raw["base_tape"])
                except (TypeError, ValueError) as err:
                    raise StateError(f"`pending.base_tape`: {err}") from None
        elif not isinstance(base_data, dict) or "pending" in base_data:
            raise StateError("`pending.base` must be a position that is not paused")
        else:
            base = type(self)._restore(self.game, base_data)
        m = type(self).__new__(type(self))
        m.__dict__.update(base.__dict__)
        try:
            m._resume(base, root, answers, "replaying a paused effect")
        except RuleRuntimeError as err:
            raise StateError(f"the paused effect cannot be replayed: {err}") from None
        if m.pending is None or m.pending["answers"] != answers:
            raise StateError("the paused effect does not stop where this position says")
        # (compared as the rules' content is for saves: not the fingerprint, which a save from before
        # gives in its older form, nor the messages' words, which rules reworded since write anew — a
        # review: every paused card-game save of the previous release was refused)
        mine, given = _comparable(m.state()), _comparable(data)
        if json.dumps(mine, sort_keys=True, default=str) != json.dumps(given, sort_keys=True, default=str):
            raise StateError("the paused effect does not lead to this position (replaying it gives another)")
        return m

    def _conserved(self, comps) -> tuple[list, list]:
        """The restored components, and those among them beyond what setup makes.

        A new match with the same settings says what there must be: every component setup makes
        (as many of each), and anything more of a kind the rules create in play. A duplicated card,
        ten copies of a one-off, or a card these rules never make is refused."""
        if not isinstance(comps, list):
            raise StateError("the components must be a list")
        if len(comps) > COMPONENT_LIMIT:
            raise StateError(f"more than {COMPONENT_LIMIT} components")
        if self.seed is None:
            # (a state without its seed — a search copy's, which keeps none: the seed would tell
            # the deal — cannot say which setup made it: a setup that draws (factions dealt at random)
            # made other cards, and every copy was refused (a trial). Each component is checked,
            # fields too, not counted against a setup)
            checked = _components(self.game, comps)
            return checked, checked
        fresh = self.game.setup_components(self.players, self.seed, self.options, self.setup_chance)
        n = len(fresh)
        if comps[:n] == fresh:                      # the usual case: setup's components, in order
            extra = _components(self.game, comps[n:])
            comps = fresh + extra                   # setup's own rows: equal, and of the exact types
        else:                                       # moved around: compare as multisets
            _components(self.game, comps)
            have: dict = {}
            for c in comps:
                have.setdefault(_component_key(c), []).append(c)
            for c in fresh:
                same = have.get(_component_key(c))
                if not same:
                    raise StateError(f"component {_text(c['label'])} that setup creates is missing")
                same.pop()
            extra = [c for group in have.values() for c in group]
        allowed = self.game.kinds_made_later(self.players, self.seed, self.options, self.setup_chance)
        for c in extra:
            if c["kind"] not in allowed:
                raise StateError(f"component {_text(c['label'])} is not one setup creates "
                                 f"(a second copy, or a card these rules never make)")
        return comps, extra

    def _check_actor(self) -> None:
        """The actor is who the step's `by` expression names (when it can be worked out here)."""
        actor_fn = self.game.steps[self.step][0]
        if actor_fn is None:
            expected = self.current
        else:
            saved = self._rng_snapshot()            # working it out must not draw from the generator
            tape, drawn = self.tape, self.drawn     # (nor use up chance given ahead of time)
            try:
                self.me = self.current
                expected = actor_fn(self)
            except RULE_FAULTS + (RuleFault,):
                expected = None
            finally:
                self._rng, self._rng_state = None, saved
                self.tape, self.drawn = tape, drawn
        if expected is not None and expected != self.actor:
            raise StateError(f"at step `{self.step}` the actor must be {player_text(expected)}, "
                             f"not {player_text(self.actor)}")


def _simul_root(root: list) -> bool:
    """`["simul", STEP, [[seat, TEXT], …]]`: the reveal of a simultaneous step (simultaneous.py)."""
    return (len(root) == 3 and root[0] == "simul" and isinstance(root[1], str) and isinstance(root[2], list)
            and 0 < len(root[2]) <= PLAYER_LIMIT
            and all(isinstance(x, list) and len(x) == 2 and type(x[0]) is int and isinstance(x[1], str)
                    for x in root[2]))


def _imagined(base) -> bool:
    """Is this paused chain's base a determinized copy's (a cut waits in its replay)? (A base made
    only when needed, pausing.Rebuilt, is a real match's: it has no cuts.)"""
    return bool(getattr(base, "cuts", ()))


def _comparable(state: dict) -> dict:
    """A state without its paused effect, its fingerprint and its messages' words (who each was told
    to kept): what a replay of the effect must give again."""
    messages = state.get("messages")
    return {**{k: v for k, v in state.items() if k not in ("pending", "fingerprint")},
            "messages": [{k: v for k, v in x.items() if k != "text"} if isinstance(x, dict) else None
                         for x in messages] if isinstance(messages, list) else messages}
