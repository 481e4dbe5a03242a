"""A Game holds one compiled IR: it checks the IR, generates its code once, and makes matches."""
from __future__ import annotations


import hashlib
import json
import math
import operator
import re

from .chance import checked_tape
from .codegen import Lowerer
from .codegen.runtime_actions import _Texts
from ..core.errors import GameRefused, OptionsRefused, RuleFault
from ..core.limits import INT_LIMIT, TEXT_LIMIT
from ..ir.check import check_ir
from ..ir.spec import (ANYTIME_STEP, LINE_FILE_STRIDE, RANDOM_CALLS, REFUSES, line_words, refusal_def,
                       typed_names, walk_ir)
from .match import Match
from .parts import MatchParts
from .records import Checkpoint
from .support import RULE_FAULTS, SETUP, _short, _text


UNIVERSES = 16               # component sets whose interned actions a Game keeps


INTERN_SLOTS = 2_000_000     # slots of the nested-list intern tables of one universe


KEPT_SLOTS = 8_000_000       # slots of the intern tables of all the universes a Game keeps


def _draws_aside(ir: dict) -> bool:
    """Can reading the position draw chance — a `roll` or `pick` in a def (a `show`, a kind's
    text, a refusal's words), the `estimate`, the `side`, or an action's `require` or `as` text?"""
    parts = [ir["defs"], ir.get("estimate"), ir.get("side")]
    parts += [[a.get("require"), a.get("text")] for s in ir["steps"] for a in s["actions"]]
    return any(x.get("k") == "call" and x.get("f") in RANDOM_CALLS for x in walk_ir(parts))


def _draws_in_listing(ir: dict) -> bool:
    """Can listing the actions draw chance — a `roll` or `pick` in a def, or in an action's
    `require`, `as` text or a parameter's domain?"""
    parts = [ir["defs"]] + [[a.get("require"), a.get("text"), a.get("params")] for s in ir["steps"] for a in s["actions"]]
    return any(x.get("k") == "call" and x.get("f") in RANDOM_CALLS for x in walk_ir(parts))


def _how(t: str) -> str:
    """How a value of declared type `t` is worded: player, comp, cell, enum:E, or plain (a number, a
    text, a list: shown as it is)."""
    if t.startswith("comp:"):
        return "comp"
    if t in ("player", "cell") or t.startswith("enum:"):
        return t
    if t.startswith("list:") and _how(t[5:]) != "plain":   # a list of them: each worded (`P3, P1`)
        return "list:" + _how(t[5:])
    return "plain"


def _zone_kinds(ir: dict) -> dict:
    """Each zone's component kind as far as the rules alone say (the same for every viewer, so
    it tells nothing about hidden components): the only kind the game has, or the only kind its
    `create` statements put there; None when it may hold several."""
    kinds = list(ir["kinds"])
    made: dict = {}
    for x in walk_ir([ir["setup"], ir["procs"], ir["steps"], ir["handlers"], ir["checks"], ir["limits"]]):
        if x.get("s") in ("create", "create_cards") and isinstance(x.get("to"), dict) and x["to"].get("k") == "zone":
            made.setdefault(x["to"].get("n"), set()).add(x.get("kind"))
    out = {}
    for z in ir["zones"]:
        found = made.get(z["name"], set())
        out[z["name"]] = (kinds[0] if len(kinds) == 1 else next(iter(found)) if len(found) == 1 else None)
    return out


class _Uninterned:
    """An intern table too large to make (engine INTERN_SLOTS): it keeps nothing, so each listing
    makes its actions afresh. Read as nested lists indexed by ids, `depth` deep."""
    __slots__ = ("inner",)

    def __init__(self, depth: int):
        self.inner = _Uninterned(depth - 1) if depth > 1 else None

    def __getitem__(self, key):
        return self.inner

    def __setitem__(self, key, value) -> None:
        pass


def _comp_params(low) -> dict:
    """Each action's body (and its variants) -> whether each of the action's parameters is a
    component (shown as one), for the actions where one is. By body, not by name: two actions of
    one name in two steps take different parameters (a number renamed as if a card: a leak scan)."""
    flags: dict = {}
    for s in low.sh.ir["steps"]:
        for a in s["actions"]:
            shown = tuple(p.get("show") == "comp" for p in a["params"])
            if any(shown):
                flags[low.sh.action_index[id(a)]] = shown
    out: dict = {}
    for name, fn in low.sh.ns.items():
        body = re.fullmatch(r"ac(\d+)(?:_\d+_\d+)?", name)
        if body and int(body.group(1)) in flags:
            out[fn] = flags[int(body.group(1))]
    return out


def _rewritten(x, entry, memo: dict | None = None):
    """A copy of the IR (or a part) in which `entry(node, key, value)` says of each entry of a dict
    node what becomes of it: (kept?, the value, walk into it?). A part shared by several places is
    made once (`memo`: a crafted IR of one statement repeated 150,000 times)."""
    memo = {} if memo is None else memo
    if not isinstance(x, (dict, list)):
        return x
    found = memo.get(id(x))
    if found is not None:
        return found[1]
    out: dict | list
    if isinstance(x, dict):
        out = {}
        for k, v in x.items():
            kept, value, walk = entry(x, k, v)
            if kept:
                out[k] = _rewritten(value, entry, memo) if walk else value
    else:
        out = [_rewritten(v, entry, memo) for v in x]
    memo[id(x)] = (x, out)                 # (x kept: its id is not reused while the memo lives)
    return out


def _plain_line(node: dict, key: str, value):
    """Each rule line as its line in its own file (spec.LINE_FILE_STRIDE)."""
    if key == "line" and type(value) is int:
        return True, value % LINE_FILE_STRIDE, False
    return True, value, True


COMPILER_HINTS = frozenset({"scalar"})   # keys of IR nodes that speed the engine up and mean nothing else


def _unworded(node: dict, key: str, value):
    """Every `log` statement's text left out (who it is told to kept), and the compiler's hints, and
    the rule lines (a comment that moves the lines below it changes no rule)."""
    if key in COMPILER_HINTS or key == "line":
        return False, None, False
    if key == "v" and node.get("s") == "log":
        return True, None, False
    return True, value, True


class Game:
    """A loaded rule file: build matches from it."""

    # caches the parts of a match keep on their game, made when first needed (`__dict__.get`)
    _internal_names: frozenset          # views.py
    _card_texts: dict                   # views.py
    _simul_comp_params: dict            # simultaneous.py
    _has_others: bool                   # visibility.py
    _has_secrets: bool                  # visibility.py
    _hiding_slots: list                 # alike.py
    _comp_columns: list                 # alike.py

    @property
    def fingerprint(self) -> str:
        """The rules' content hash, as saves name the rules they were made with (worked out when first
        asked, not at load: a crafted IR of 150,000 statements took 277 MB to copy for it)."""
        found = self.__dict__.get("_fingerprints")
        if found is None:
            found = self.__dict__["_fingerprints"] = self._fingerprints()
        return found[0]

    @property
    def legacy_fingerprint(self) -> str:
        """The fingerprint as worked out before messages' words were left out of it (saves made then)."""
        self.fingerprint
        return self.__dict__["_fingerprints"][1]

    def _fingerprints(self) -> tuple[str, str]:
        ir = self.ir
        # the rules' content, not where they were read from: `./x.rules` and `/abs/x.rules` are one game;
        # nor the words about them (`about`): a save stays good when its rulebook is reworded
        # nor the values an option may take: a save of a match that began is good whatever they became
        # nor the lines of the estimate, side and trigger order (added later: older saves stay good)
        # nor which file a line is in (`line_files`, and the lines' encoding of it: spec.LINE_FILE_STRIDE)
        content = _rewritten({k: v for k, v in ir.items() if k not in ("source", "about", "decl_lines", "line_files")},
                             _plain_line)
        if isinstance(content.get("handler_lines"), dict):
            content["handler_lines"] = {k: v % LINE_FILE_STRIDE if type(v) is int else v
                                        for k, v in content["handler_lines"].items()}
        content["options"] = [{k: v for k, v in o.items() if k != "choices"} for o in content["options"]]
        # nor the kind a variable per component is of (added later, for the screen: older saves stay good)
        content["vars"] = [{k: v for k, v in var.items() if k != "of"} for var in content["vars"]]
        # nor whether a refused action's condition holds (words for a player, added later)
        content["defs"] = {k: v for k, v in content["defs"].items() if not k.startswith(REFUSES)}
        # the fingerprint of the rules as before their messages' words were left out of it: a save made
        # before is still good for rules whose content has not changed (`accepts_fingerprint`)
        legacy = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:16]
        # nor the words of the messages (`log`): a save stays good when a message is reworded (a first
        # hour asked a shipped game's to say a killing blow's damage — a new word, every old save refused)
        # (nor the compiler's hints: a comparison known `scalar` once a parameter's type was inferred
        # through two calls changed a shipped game's)
        # nor the hashes of the files it includes (their content is in the IR: a comment, a message's
        # words, in an included file refused every save — a review)
        blind = hashlib.sha256(json.dumps(_rewritten({k: v for k, v in content.items()
                                                      if k not in ("imports", "handler_lines")}, _unworded),
                                          sort_keys=True).encode()).hexdigest()[:16]
        return blind, legacy

    def accepts_fingerprint(self, fingerprint) -> bool:
        """Was a save with this fingerprint made with these rules (their messages' words aside)? Its
        `legacy_fingerprint` too: a save from before the words were left out."""
        return fingerprint in (self.fingerprint, self.legacy_fingerprint)

    def __deepcopy__(self, memo) -> "Game":
        """A game is not changed by playing it: every copy shares it (its compiled code too)."""
        return self

    def __copy__(self) -> "Game":
        return self

    def __reduce_ex__(self, protocol):
        """Its compiled code cannot be pickled: say what to do instead (a researcher's environment,
        sent to worker processes, failed on a lambda deep inside)."""
        raise TypeError("a Game, and a Match or an environment holding one, cannot be pickled: load the game "
                        "in each process (`rulelang.load(path)`, cached) and send a match as `match.state()` "
                        "(docs/interop.md, \"Determinism\")")

    def __init__(self, ir: dict, path: str | None = None, *, compiled: bool = True):
        check_ir(ir, path or "<ir>")            # untrusted IR: refused before any code is generated
        self.ir = ir
        self.path = path
        # made by the compiler from rules it type-checked (False: read from a compiled .json someone
        # may have edited — a fault in the engine's helpers is then the file's, said as a rule error)
        self.compiled = compiled
        self.name = ir["name"]
        self.min_players = ir["players"]["min"]
        self.max_players = ir["players"]["max"]
        self.options = [dict(o) for o in ir["options"]]
        self.about = ir.get("about", {})
        low = Lowerer(ir)
        code = low.build()
        self.lowerer = low
        self.code = code
        self.zones = ir["zones"]
        self.zone_per = [bool(z["per"]) for z in self.zones]      # (a family of zone lists)
        self.others_zones = frozenset(z["name"] for z in self.zones if z["visibility"] == "others")
        self.public_component_slots = [i for i, v in enumerate(ir["vars"])
                                       if v["per"] == "component" and v["visibility"] == "public"]
        self.family_zones = [i for i, per in enumerate(self.zone_per) if per]
        self.family_slots = [i for i, v in enumerate(ir["vars"]) if v["per"]]   # (a list of members' values)
        self.zone_slot = low.zone_slot
        self.var_slot = low.var_slot
        self.vars = [(v["name"], v["per"], v["visibility"], code.var_init[i]) for i, v in enumerate(ir["vars"])]
        self.var_types = {v["name"]: v["type"] for v in ir["vars"]}
        self.var_keys = {v["name"]: v["key"] for v in ir["vars"] if v["per"] == "key"}
        self.enums = ir["enums"]
        self._member_texts: dict[str, dict] = {}
        self.setup = code.setup
        self.steps = code.steps
        self.first_step = ir["first_step"]
        self.handlers = code.handlers
        self.on_turn_start = code.handlers.get("turn_start")
        self.on_turn_end = code.handlers.get("turn_end")
        self.sequenced = low.rounds                # rounds, a turn order, eliminated players (Match.seq)
        self.on_round_start = code.handlers.get("round_start")
        self.on_round_end = code.handlers.get("round_end")
        self.first_goto = ("goto", ir["first_step"])
        self.has_interrupts = ANYTIME_STEP in self.steps       # any-time actions, usable out of turn
        # step -> [(action, the def wording its refusal)] for `require C else "…"`, longest name first
        # (the words a player types for each action with a reason: its name, its `as` text's first word)
        self.refusals = {s["name"]: sorted(((typed, refusal_def(s["name"], a["name"])) for a in s["actions"]
                                            if refusal_def(s["name"], a["name"]) in ir["defs"]
                                            for typed in typed_names(a)),
                                           key=lambda pair: len(pair[0]), reverse=True) for s in ir["steps"]}
        # a turn ends and the next begins with no rule of its own to run (see Match._settle)
        self.plain_turns = (self.on_turn_start is None and self.on_turn_end is None and not self.sequenced
                            and not any(code.builtin_triggers.values()) and not code.has_grants)
        self.can_pause = code.can_pause
        # `apply` of a listed action by a bot (no seat named) takes the lean path (match._apply_lean):
        # nothing of the game can pause (so no simultaneous step either) or hide a card an action
        # names from its holder
        self.lean = "lean" in low.opt and not code.can_pause and not self.others_zones
        self.pause_free = code.pause_free      # (step, action) run without a chain to resume (pausing.py)
        self.start_triggers = bool(code.builtin_triggers["turn_start"])   # card triggers on turn boundaries
        self.end_triggers = bool(code.builtin_triggers["turn_end"])
        self.checks = code.checks
        self.limits = code.limits
        self.scores = code.scores
        self.geometry = low.geometry
        self.columns = low.columns
        self.kind_fields = low.kind_fields
        board = (ir.get("boards") or [None])[0]
        self.draw = code.defs[board["draw"]] if board and board["draw"] else None
        self.shown = code.shown
        self.slot_caps = [(z["capacity"], z["name"]) if z["capacity"] is not None else None for z in self.zones]
        self._universes: dict = {}
        self._kept = 0                             # slots of the intern tables kept in _universes
        self._seats: dict = {}
        self.field_types = {k: {f["name"]: f["type"] for f in spec["fields"]} for k, spec in ir["kinds"].items()}
        self.enum_names = {e: {item["name"] for item in items} for e, items in ir["enums"].items()}
        self._setups: dict = {}                    # see setup_components
        self._play_kinds: set | None = None        # see play_kinds
        # zone families per component: one zone per component, added as components are created
        self.component_zones = [i for i, z in enumerate(self.zones) if z["per"] == "component"]
        self.zone_kind = _zone_kinds(ir)           # what a zone's components are, where the rules say
        # how a view words a variable that holds a player, a component, a cell or an enum value
        self.var_how = {v["name"]: _how(v["type"]) for v in ir["vars"] if _how(v["type"]) != "plain"}
        # lists of components: a view gives the ids of those its viewer sees only (views._seen_value)
        self.var_comp_lists = frozenset(v["name"] for v in ir["vars"] if v["type"].startswith("list:comp:"))
        self.draws_aside = _draws_aside(ir)      # (chance.aside)
        self.draws_in_listing = _draws_in_listing(ir)    # (chance.list_in_position)
        # copies played from hidden zones (alike.py): which arguments of each action are components,
        # which variables may name components, and the copies of each universe
        self.comp_params = _comp_params(low)
        self.comp_var_slots = [(i, v["per"], v["type"].startswith("list") or "any" in v["type"])
                               for i, v in enumerate(ir["vars"]) if "comp" in v["type"] or "any" in v["type"]]
        self.alike_classes: dict = {}

    def family_size(self, per: str, players: int, components: int = 0, key=None) -> int:
        """How many zones (or values) a `per player` / `per cell` / per-component declaration stands
        for, or a family `per` enum values or a combination of parts (`key`)."""
        if per == "key":
            size = 1
            for part in key:
                size *= self.part_size(part, players)
            return size
        return players if per == "player" else components if per == "component" else self.geometry.size  # type: ignore[union-attr]  # (a cell: the game has a board)

    def part_size(self, part: str, players: int) -> int:
        return (players if part == "player"
                else self.geometry.size if part == "cell" else len(self.enums[part[5:]]))  # type: ignore[union-attr]  # (a cell: the game has a board)

    def members(self, key: list, players: int) -> list[tuple]:
        """Each member of a keyed family, in its list's order: a tuple of one value per part (a
        seat, a cell index, an enum value's name), the last part varying fastest."""
        out: list[tuple] = [()]
        for part in key:
            values = (list(range(players)) if part == "player" else list(range(self.geometry.size))  # type: ignore[union-attr]  # (a cell: the game has a board)
                      if part == "cell" else [v["name"] for v in self.enums[part[5:]]])
            out = [t + (v,) for t in out for v in values]
        return out

    def member_owner(self, z: dict, member: int, players: int) -> int | None:
        """The seat a zone of a family belongs to: its `per player` part, if it has one."""
        per = z["per"]
        if per == "player":
            return member
        if per != "key" or "player" not in z["key"]:
            return None
        stride = 1
        for part in z["key"][z["key"].index("player") + 1:]:
            stride *= self.part_size(part, players)
        return (member // stride) % players

    def member_text(self, key: list, values: tuple) -> str:
        """`P2, red`: a member of a keyed family in words."""
        words = []
        for part, v in zip(key, values):
            if part == "player":
                words.append(f"P{v + 1}")
            elif part == "cell":
                words.append(self.geometry.names[v])  # type: ignore[union-attr]  # (a cell: the game has a board)
            else:
                words.append(self._enum_texts(part[5:])[v])
        return ", ".join(words)

    def _enum_texts(self, enum: str) -> dict:
        """An enum's member texts by name, built once (a view may name every member of a family)."""
        texts = self._member_texts.get(enum)
        if texts is None:
            texts = self._member_texts[enum] = {x["name"]: x["text"] for x in self.enums[enum]}
        return texts

    def option_values(self, options: dict | None) -> dict:
        values = {o["name"]: o["default"] for o in self.options}
        if options is not None and not isinstance(options, dict):     # (a fuzz trial: `"hardcore"` gave a traceback)
            raise ValueError(f"options are a mapping of names to values ({{\"hardcore\": true}}), not {_text(repr(options), 60)}")
        for key, value in (options or {}).items():
            spec = next((o for o in self.options if o["name"] == key), None)
            if spec is None:
                known = ", ".join(values) or "none"
                raise ValueError(f"unknown option `{_text(str(key))}` for {_text(self.name)} (options: {known})")
            want = {"bool": bool, "int": int, "text": str}.get(spec["type"])
            if want is not None and (type(value) is not want):
                raise ValueError(f"option `{key}` must be {spec['type']}, not {_short(value)}")
            if want is int and abs(value) > INT_LIMIT or want is str and len(value) > TEXT_LIMIT:
                raise ValueError(f"option `{key}` is too large: " + (
                    f"a number is at most {INT_LIMIT:,} either side of 0, not {_short(value)}" if want is int
                    else f"a text is at most {TEXT_LIMIT:,} characters, not {len(value):,}"))
            choices = spec.get("choices")
            if choices is not None and value not in choices:
                raise ValueError(f"option `{key}` must be one of {', '.join(_short(c) for c in choices)}, "
                                 f"not {_short(value)}")
            values[key] = value
        return values

    @property
    def players_text(self) -> str:
        """How many players the game is for, as said to people: `2`, `1..4`."""
        lo, hi = self.min_players, self.max_players
        return str(lo) if lo == hi else f"{lo}..{hi}"

    def new_match(self, players: int | None = None, seed: int = 0, options: dict | None = None,
                  chance: list | None = None) -> "Match":
        """A match set up and ready for its first action. `chance`: outcomes its first shuffles,
        rolls and picks use before the generator (`Match.supply_chance`), setup's included."""
        players = self.min_players if players is None else players
        seed_given = seed
        if type(players) is not int or not self.min_players <= players <= self.max_players:   # (True: a 1-player
            # match whose own state() from_state refused — an attacker's trial)
            raise ValueError(f"{self.name} is for {self.players_text} players, not {_short(players)}")
        if seed is not None:                # (a NumPy integer is one; 5.0 and "5" made a match whose
            try:                            # own state() could not be restored: an API trial)
                if isinstance(seed, bool):
                    raise TypeError
                seed = operator.index(seed)
            except TypeError:
                raise ValueError(f"the seed must be a whole number, not {_short(seed_given)}") from None
        m = Match(self, players, seed, self.option_values(options))
        if chance:
            m.tape = m.setup_chance = checked_tape(chance)
        m.drawn = ()
        if not self.can_pause:                      # a failed action rebuilds from a new match (no copy)
            m.ckpt = Checkpoint((SETUP, m.tape), 0)
        try:
            if self.can_pause:                      # the setup may stop for a choice too
                m._resume(m.clone(), ["start"], [], "setting up the match", here=True)
                return m
            try:
                m._start()
            except RULE_FAULTS + (RuleFault,) as err:
                raise m._rule_error("setting up the match", err) from None
        except OptionsRefused as why:               # `refuse(REASON)` in the set-up
            raise GameRefused(f"the rules refuse this game: {why}") from None
        return m

    def setup_components(self, players: int, seed, options: dict, chance: tuple = ()) -> list:
        """The components a new match with these settings starts with, as `state()` lists them:
        what a restored state must hold (plus what the rules create in play), no more. `chance`:
        the outcomes the match was made with (`new_match(chance=…)`: factions dealt by them)."""
        return self._setup(players, seed, options, chance)[0]

    def _setup(self, players: int, seed, options: dict, chance: tuple = ()) -> tuple[list, bool]:
        """(setup_components, whether that setup waits for an answer: a draft asked in `setup`)."""
        key = (players, seed, tuple(sorted(options.items())),
               tuple((kind, size, tuple(value) if kind == "shuffle" else value) for kind, size, value in chance))
        found = self._setups.get(key)
        if found is None:
            state = self.new_match(players, seed, options, chance=list(chance) or None).state()
            pending = state.get("pending")
            found = (state["components"], isinstance(pending, dict) and pending.get("root") == ["start"])
            if len(self._setups) >= UNIVERSES:
                self._setups.clear()
            self._setups[key] = found
        return found

    MAKING = ("create", "create_cards")        # the statements that make components

    def play_kinds(self) -> set:
        """The kinds of component the rules may create after setup (in an action, a step, a handler...)."""
        if self._play_kinds is None:
            self._play_kinds = {x["kind"] for key, part in self.ir.items() if key != "setup"
                                for x in walk_ir(part) if x.get("s") in self.MAKING and isinstance(x.get("kind"), str)}
        return self._play_kinds

    def kinds_made_later(self, players: int, seed, options: dict, chance: tuple = ()) -> set:
        """The kinds a match with these settings may create after `new_match` returns it: those
        made in play, and, where its setup waits for an answer (a draft of decks to play), those
        the rest of `setup` makes."""
        if not self._setup(players, seed, options, chance)[1]:
            return self.play_kinds()
        return self.play_kinds() | {x["kind"] for x in walk_ir(self.ir.get("setup") or [])
                                    if x.get("s") in self.MAKING and isinstance(x.get("kind"), str)}

    def seats(self, players: int) -> tuple[list, list]:
        """`players` and `others` (clockwise after each seat) for a player count; shared, never changed."""
        s = self._seats.get(players)
        if s is None:
            s = self._seats[players] = (list(range(players)),
                                        [[(me + i) % players for i in range(1, players)] for me in range(players)])
        return s

    def universe(self, m: MatchParts) -> list:
        """The interned actions (one table per action) shared by the matches whose components are
        the same (same kinds, fields and labels, in the same order): keyed by how they were created
        (the bulk creations and single creates, in order), or by their content after a restore."""
        key: tuple | None
        if m.created is not None:
            key = tuple(m.created)
        else:
            key = ("restored", tuple(m.kinds), tuple(m.labels), tuple(tuple(col) for col in m.F))
        try:
            u = self._universes.get(key)
        except TypeError:                      # unhashable field values: a universe of its own
            key, u = None, None
        if u is None:
            sizes = {"comp": len(m.labels), "cell": self.geometry.size if self.geometry else 0,
                     "player": self.max_players}
            # nested lists indexed by ids while INTERN_SLOTS last (a pair of components of 10,000
            # would be 100 million); past them a table keeps nothing, and the actions are made afresh
            room, u = INTERN_SLOTS, []
            for dims in self.code.intern_dims:
                if not dims:
                    u.append({})
                    continue
                shape = [sizes[d] for d in dims]
                slots = math.prod(shape)
                u.append(self._table(shape) if slots <= room else _Uninterned(len(shape)))
                room -= min(slots, room)
            u.append([_Texts() for _ in self.ir["steps"]])   # each step's texts (runtime_actions._Texts)
            used = INTERN_SLOTS - room
            if key is not None and len(self._universes) < UNIVERSES and self._kept + used <= KEPT_SLOTS:
                self._universes[key] = u
                self._kept += used
        return u

    @staticmethod
    def _table(sizes: list[int]):
        """Nested lists of None, indexed by ids: where the actions of one universe are interned."""
        if len(sizes) == 1:
            return [None] * sizes[0]
        return [Game._table(sizes[1:]) for _ in range(sizes[0])]

    def inlined_at(self, line) -> str:
        """The defs written into the code of a rule line (inlined): a rule error met there may be in
        one of them, and the message says so (` (here or in a def this line reads: `share` of line 4)`)."""
        defs = self.lowerer.inlined.get(line) if line is not None else None
        if not defs:
            return ""
        named = ", ".join(f"`{name}`" + (f" of {line_words(self.ir, at)}" if at is not None else "")
                          for name, at in defs.items())
        return f" (here or in a def this line reads: {named})"

    def maker_kind(self, tb) -> str | None:
        """The kind whose new component's label or field default failed, if the innermost generated
        frame of a traceback is a component maker (the create's line alone sent an author there)."""
        low, kind = self.lowerer, None
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == low.filename:
                kind = low.maker_kinds.get(code.co_name)
            tb = tb.tb_next
        return kind

    def in_listing(self, tb) -> bool:
        """Did a traceback pass through a step's listing of the legal actions (generated `st_enum…`)?"""
        low = self.lowerer
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == low.filename and code.co_name.startswith("st_enum"):
                return True
            tb = tb.tb_next
        return False

    def rule_line(self, tb) -> int | None:
        """The rule line of the innermost generated-code frame of a traceback."""
        low = self.lowerer
        line = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == low.filename:
                n = tb.tb_lineno
                if 0 < n < len(low.line_map) and low.line_map[n] is not None:
                    line = low.line_map[n]
            tb = tb.tb_next
        return line
