"""Any rule file as an OpenSpiel Python game (docs/interop.md).

    from rulelang.interop import openspiel
    game = openspiel.load("game.rules")               # registers "rulelang_game"
    game = pyspiel.load_game("rulelang_game", {"players": 2})   # once registered

`register(FILE)` registers the game under `rulelang_<file stem>`; its parameters are `players`,
`options` (JSON text), `seed`, `seeds`, `actions`, `action_cap`, `universe_cap` and `max_game_length`.

Chance: the engine draws every random number from one generator seeded per match, so a match is
deterministic given its seed. Rules that use chance (a `shuffle`, `roll`, `pick`) get one explicit
chance node at the root that picks the match seed, `seed + k` for k in 0..seeds-1, uniformly; no
player observes it. Every later shuffle or die roll is a function of that seed (all luck drawn at
the start). Rules without chance are DETERMINISTIC: no chance node, the match is seeded `seed`.
Information states are built from `Match.view(p)` (plus p's messages and own actions for perfect
recall); observation tensors are the interface's encoding of the same view.
"""
from __future__ import annotations

import json
import re

from .core import Interface, need, slug
from ..core import safejson

pyspiel = need("pyspiel", "openspiel")

import numpy as np  # noqa: E402

import rulelang  # noqa: E402

_REGISTERED: dict = {}        # short name -> rulelang Game
_INTERFACES: dict = {}        # (short name, parameters) -> Interface
DEFAULTS = {"seed": 0, "seeds": 1000, "options": "{}", "actions": "auto", "action_cap": 512,
            "universe_cap": 1024, "max_game_length": 10_000}
SEEDS_LIMIT = 1_000_000       # chance outcomes at the root, each listed by chance_outcomes()
_UTILITY = {"identical": "IDENTICAL", "zero_sum": "ZERO_SUM", "general_sum": "GENERAL_SUM"}


def register(game, name: str | None = None) -> str:
    """Register a rule file (or Game) with OpenSpiel once; returns its short name."""
    game = rulelang.load(str(game)) if not isinstance(game, rulelang.Game) else game
    name = name or slug(game)
    old = _REGISTERED.get(name)
    if old is not None:
        if old.legacy_fingerprint != game.legacy_fingerprint:     # (its messages' words too)
            raise ValueError(f"another game is already registered as {name!r}")
        return name
    _REGISTERED[name] = game
    pyspiel.register_game(_game_type(name, game, game.min_players), _make_class(name))
    return name


def load(game, players: int | None = None, options: dict | None = None, **params) -> "pyspiel.Game":
    """Register if needed and load: `players`, `options` (a dict) and the other parameters."""
    name = register(game)
    full = dict(params)
    if players is not None:
        full["players"] = players
    if options:
        full["options"] = options_param(options)
    return pyspiel.load_game(name, full)


def options_param(options: dict) -> str:
    """Game options as the `options` parameter: JSON text whose commas, parentheses, `=` (and `%`)
    are %-escaped, so that the game's string (`rulelang_x(options=…,players=2)`) loads again —
    OpenSpiel splits parameters at commas (two options, or one listing factions `a+b,c+d`, made a
    game that `load_game(str(game))` and deserialising refused: a researcher's trial)."""
    text = json.dumps(options, sort_keys=True, separators=(",", ":"))
    for ch in "%,()=":
        text = text.replace(ch, f"%{ord(ch):02X}")
    return text


def _options(raw) -> dict:
    """The `options` parameter read back: %-escaped or plain JSON text of an object."""
    # (one pass: `%2525` is a written `%25`, not a `%` — replaced one escape after another, it was)
    text = re.sub(r"%(2[589Cc]|3[Dd])", lambda hit: chr(int(hit.group(1), 16)), str(raw))
    try:                                        # (within limits: 1,000 `[` died of recursion, a
        options = safejson.loads(text, "`options` text")     # number of 5,000 digits named no parameter)
    except safejson.JSONLimitError as err:
        raise ValueError(f"parameter `options` must be JSON text of an object ({{\"hands\": 2}}): {err}") from None
    if not isinstance(options, dict):
        raise ValueError("parameter `options` must be JSON text of an object ({\"hands\": 2})")
    return options


def _checked(p: dict) -> dict:
    """The parameters, each of the kind it must be: a one-line ValueError naming the one that is not
    (`seeds=0` divided by zero at the chance node, `action_cap=0` made a game of no actions)."""
    for key in ("seeds", "action_cap", "universe_cap", "max_game_length"):
        if type(p[key]) is not int or p[key] < 1:
            raise ValueError(f"parameter `{key}` must be a whole number of at least 1, not {p[key]!r}")
    if p["seeds"] > SEEDS_LIMIT:                # (the chance node lists them all: 2^31 ran out of memory)
        raise ValueError(f"parameter `seeds` must be at most {SEEDS_LIMIT:,}, not {p['seeds']:,}")
    if type(p["seed"]) is not int:
        raise ValueError(f"parameter `seed` must be a whole number, not {p['seed']!r}")
    return p


def _game_type(name: str, game, players: int):
    from .core import facts
    f = facts(game.ir, players)
    T = pyspiel.GameType
    return T(
        short_name=name,
        long_name=f"rulelang {game.name}",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC if f["chance"] else T.ChanceMode.DETERMINISTIC,
        information=T.Information.IMPERFECT_INFORMATION if f["imperfect"] else T.Information.PERFECT_INFORMATION,
        utility=getattr(T.Utility, _UTILITY[f["utility"]]),
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": game.min_players, **DEFAULTS})


def _make_class(name: str):
    """The pyspiel.Game class of one registered rule file."""
    class Game(RulelangGame):
        short_name = name
    Game.__name__ = Game.__qualname__ = "RulelangGame_" + name
    return Game


class RulelangGame(pyspiel.Game):
    """One rule file with its parameters; states are RulelangState."""

    short_name = ""

    def __init__(self, params=None):
        p = _checked({"players": _REGISTERED[self.short_name].min_players, **DEFAULTS, **(params or {})})
        game = _REGISTERED[self.short_name]
        options = _options(p["options"])
        p["options"] = options_param(options) if options else DEFAULTS["options"]   # (its string loads again)
        key = (self.short_name, json.dumps(p, sort_keys=True))
        interface = _INTERFACES.get(key)
        if interface is None:
            interface = Interface(game, p["players"], options, actions=p["actions"],
                                  action_cap=p["action_cap"], universe_cap=p["universe_cap"])
            _INTERFACES[key] = interface
        self.interface, self.key, self.params_used = interface, key, p
        self.chance = interface.facts["chance"]
        utility = interface.facts["utility"]
        info = pyspiel.GameInfo(
            num_distinct_actions=interface.actions.size,
            max_chance_outcomes=p["seeds"] if self.chance else 0,
            num_players=interface.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if utility == "zero_sum" else None,
            max_game_length=p["max_game_length"])
        super().__init__(_game_type(self.short_name, game, interface.players), info, p)

    def new_initial_state(self):
        return RulelangState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                                         or not iig_obs_type.public_info):
            raise ValueError("rulelang games observe a seat's own view only (public and private information "
                             "together: private_info=SINGLE_PLAYER, public_info=True)")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.interface, recall)


class _Box:
    """Holds a state's Match: deep-copied by `Match.clone`, pickled as `Match.state()`."""

    __slots__ = ("match", "key", "views")

    def __init__(self, match, key, views: dict | None = None):
        self.match, self.key = match, key
        # (player, drawing) -> view, ("tensor", player) -> its encoding, of this position (not copied;
        # the initial states of a game without chance share theirs: one position)
        self.views: dict = {} if views is None else views

    def view(self, player: int, drawing: bool = True) -> dict:
        """view(player), kept for this position; without the board drawn for the tensor, which
        reads the cells (the drawing was most of a board game's observation — a researcher's trial)."""
        v = self.views.get((player, drawing))
        if v is None:
            v = self.views[(player, drawing)] = self.match.view(player, drawing=drawing)
        return v

    def __deepcopy__(self, memo):
        return _Box(None if self.match is None else self.match.clone(), self.key)

    def __reduce__(self):
        return _unbox, (self.key, None if self.match is None else self.match.state())


def _unbox(key, data):
    interface = _INTERFACES.get(tuple(key))
    if interface is None:                      # (a fresh process: the game was loaded under these parameters)
        pyspiel.load_game(key[0], json.loads(key[1]))
        interface = _INTERFACES[tuple(key)]
    match = None if data is None else rulelang.Match.from_state(interface.game, data)
    return _Box(match, key)


def _first_match(game: "RulelangGame"):
    """The match of a game without chance nodes: one set-up per game, each state a clone of it
    (OpenSpiel makes a fresh initial state at every observation to learn the tensor's size: a whole
    set-up each time, a third of an observation's cost — a researcher's trial)."""
    first = getattr(game, "_first", None)
    if first is None:
        first = game._first = (game.interface.new_match(game.params_used["seed"]), {})
    return first[0].clone(), first[1]


class RulelangState(pyspiel.State):
    """A match, or (rules with chance) the root before its seed is chosen."""

    def __init__(self, game: RulelangGame):
        super().__init__(game)
        self._key = game.key
        self._chance = game.chance
        self._seed = game.params_used["seed"]
        self._seeds = game.params_used["seeds"]
        self._max_length = game.params_used["max_game_length"]
        if self._chance:
            self._box = _Box(None, game.key)
        else:
            first, views = _first_match(game)
            self._box = _Box(first, game.key, views)
        self._mine = [[] for _ in range(game.interface.players)]     # each seat's own action texts
        self._moves = 0
        self._truncated = False

    def __deepcopy__(self, memo):
        """`copy.deepcopy` as `clone()`: through pickling it saved and restored the match, which a
        copy resampled for a seat (`resample_from_infostate`: no seed) cannot be."""
        return self.clone()

    @property
    def interface(self) -> Interface:
        return _INTERFACES[self._key]

    @property
    def match(self):
        return self._box.match

    def current_player(self):
        m = self._box.match
        if m is None:
            return pyspiel.PlayerId.CHANCE
        if m.is_over or self._truncated:
            return pyspiel.PlayerId.TERMINAL
        return m.current_player

    def _legal_actions(self, player):
        m = self._box.match
        if m is None or m.is_over or self._truncated or player != m.current_player:
            return []
        return [i for i, _ in self.interface.legal(m)]

    def chance_outcomes(self):
        p = 1.0 / self._seeds
        return [(k, p) for k in range(self._seeds)]

    def _apply_action(self, action):
        m = self._box.match
        if m is None:
            if type(action) is not int or not 0 <= action < self._seeds:
                raise ValueError(f"chance outcome {action} is not one of 0..{self._seeds - 1}")
            self._box = _Box(self.interface.new_match(self._seed + action), self._key)
            return
        if m.is_over or self._truncated:
            raise ValueError(f"action {action}: the game is over" + (" (cut at max_game_length)" if self._truncated else ""))
        found = next((a for i, a in self.interface.legal(m) if i == action), None)
        if found is None:
            raise ValueError(f"action {action} is not legal now")
        seat = m.current_player
        self._box.views = {}                   # (a new one: an initial state's is shared with its likes)
        m.apply(found)
        self._mine[seat].append(str(found))
        self._moves += 1
        if not m.is_over and self._moves >= self._max_length:
            self._truncated = True           # a draw for everyone (documented)

    def _action_to_string(self, player, action):
        m = self._box.match
        if m is None or player == pyspiel.PlayerId.CHANCE:
            return f"seed {self._seed + action}"
        found = next((a for i, a in self.interface.legal(m) if i == action), None)
        return str(found) if found is not None else f"action #{action}"

    def is_terminal(self):
        m = self._box.match
        return m is not None and (m.is_over or self._truncated)

    def returns(self):
        m = self._box.match
        if m is None or not m.is_over:
            return [0.0] * self.interface.players
        return self.interface.rewards(m)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one: `Match.determinized` (what the seat
        cannot see dealt again, fresh luck), seeded from the sampler. The other seats' own past
        actions (their perfect recall) are not the real ones either: they named cards `player_id`
        never saw and answers it was never told, so the copy keeps none of them."""
        m = self._box.match
        clone = self.clone()
        if m is not None and not m.is_over:
            seed = int(probability_sampler() * 2 ** 31)
            clone._box = _Box(m.determinized(player_id, seed), self._key)
            clone._mine = [list(mine) if p == player_id else [] for p, mine in enumerate(self._mine)]
        return clone

    def __str__(self):
        m = self._box.match
        if m is None:
            return "choosing the match seed"
        s = m._state()                         # (a paused copy too: none of its base is printed)
        return json.dumps({"seed": s["seed"], "log": s["log"], "step": s["step"], "actor": s["actor"],
                           "turn": s["turn"], "outcome": s["outcome"]}, ensure_ascii=False, sort_keys=True)


class Observer:
    """OpenSpiel's PyObserver: the encoding of view(p) as the tensor; as the string, view(p) as JSON
    (with perfect recall also p's messages, every seat's actions as p reads them, and p's own)."""

    def __init__(self, interface: Interface, perfect_recall: bool):
        self.interface = interface
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(interface.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        m = state.match
        if m is None:
            self.tensor.fill(0)
        else:
            box = state._box
            done = box.views.get(("tensor", player))
            if done is None:
                done = box.views[("tensor", player)] = self.interface.observe(m, player, box.view(player, drawing=False)).copy()
            self.tensor[:] = done

    def string_from(self, state, player):
        m = state.match
        if m is None:
            return ""
        view = state._box.view(player)
        if not self.perfect_recall:
            return json.dumps(view, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        # (the actions as p reads them, every seat's: with p's own alone, two histories p saw go
        # differently — another seat's moves in another order — had one string: a researcher's trial)
        return json.dumps({"view": view, "messages": m.messages_for(player), "log": m.log_for(player),
                           "mine": state._mine[player]}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
