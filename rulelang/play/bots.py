"""Bots: players that choose actions through the public engine API only.

Each bot owns its random generator, so a match played by bots is reproducible from
the match seed alone (see `bot_seed`), whether it runs in the REPL or in `simulate`.
"""
from __future__ import annotations

import hashlib
import math
import random
import re
import time

from ..core.errors import RulelangError


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot at `seat` in the match seeded `match_seed`.

    A hash rather than arithmetic, so bots of neighbouring matches and seats do not
    share random streams; the REPL and `simulate` both use it, so a simulated game
    can be replayed with `rulelang play --seed`.
    """
    digest = hashlib.sha256(f"bot:{match_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class RandomBot:
    """Picks uniformly among the legal actions."""

    kind = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, match):
        return self.rng.choice(match.legal_actions())


class GreedyBot(RandomBot):
    """Looks one action ahead: takes a win now if there is one, avoids an immediate
    loss if it can, and otherwise plays at random. It looks ahead in one world its seat imagines
    (`match.determinized`: hidden cards dealt anew, fresh luck, the others' secret answers drawn
    again), never in the real match, which holds what it may not see: the next card of a hidden
    deck, the next roll."""

    kind = "greedy"
    LOOKS = 256                                 # actions looked at, at most (a random few of more)
    LOOK_SECONDS = 2.0                          # CPU time a decision may spend looking, at most

    def choose(self, match):
        seat = match.current_player
        seed = self.rng.getrandbits(64)
        if hasattr(match, "sampler"):           # one imagined world for all the actions
            sample = match.sampler(seat)
            look = lambda: sample(seed)         # noqa: E731
        else:                                   # (a match of another make, which keeps nothing hidden)
            look = match.clone
        legal = match.legal_actions()
        if len(legal) > self.LOOKS:             # (14,400 actions took a minute a decision: a fuzzing trial)
            legal = self.rng.sample(legal, self.LOOKS)
        ranked: dict[int, list] = {}
        stop = time.thread_time() + self.LOOK_SECONDS
        for action in legal:
            ranked.setdefault(self._rank(match, action, seat, look), []).append(action)
            if time.thread_time() > stop:       # (a fuzzer's 256 actions of 0.24 s each: a minute a decision;
                break                           # only such rules reach it: then the machine's speed counts)
        return self.rng.choice(ranked[max(ranked)])

    FORCED = 16                                 # forced answers followed after an action, at most

    @classmethod
    def _rank(cls, match, action, seat: int, look) -> int:
        """2 for a win, 1 for a game that goes on (or a draw), 0 for a loss. A win or loss behind
        answers that have no alternative (a target's one card to reveal) is now too: they are
        followed (a new author's Coup: a coup on a player's last influence ends the game only once
        they reveal it, and greedy played no better than random). A rule error in the world the seat
        imagines counts as a game that goes on: a line the real match may never play is not the
        bot's to report (if the real match meets it, it is reported there)."""
        try:
            after = look()
            after.apply(action)
            for _ in range(cls.FORCED):
                if after.is_over:
                    break
                forced = after.legal_actions()
                if len(forced) != 1:
                    break
                after.apply(forced[0])
        except RulelangError:
            return 1
        if not after.is_over:
            return 1
        result = after.outcome["results"][seat]
        return {"win": 2, "lose": 0}.get(result, 1)


class MctsBot:
    """UCT Monte Carlo tree search with uniformly random rollouts, `iterations` per move.

    It searches on `match.clone()`, so it SEES EVERYTHING the engine holds: hidden zones
    (other hands, the order of a hidden deck) and the state of the match's random
    generator. A clone continues with the same generator state, so repeated rollouts from
    one node replay the same luck (a shuffle that happens at the same point comes out the
    same), and that is the luck the real match will meet when the same actions are played:
    the bot in effect also foresees shuffles. The search neither samples nor averages over
    chance (no determinization). Use it for balance estimates ("how well can this game be
    played by someone who sees everything"), not as a fair opponent.

    Multi-player (max^n): each node's statistics are from the point of view of the seat
    that chose the move into it, so it serves 1 to 4 players, rivals or co-operative.
    A finished line scores 1 for a win, 0.5 for a draw and 0 for a loss; a rollout longer
    than `rollout_cap` actions, or one stopped by a rule error, scores as a draw for
    everyone (a rule error on a line the real match never plays is not the bot's to
    report; if the real match reaches it, it is reported there). The answer is the most
    visited move (ties: the better mean, then the earlier legal action), and depends only
    on the seed and the match.
    """

    kind = "mcts"
    _until = math.inf                     # (set per move: `_until`)
    DEFAULT_ITERATIONS = 200
    ROLLOUT_CAP = 2_000
    EXPLORATION = math.sqrt(2)

    def __init__(self, seed: int, iterations: int | None = None,
                 rollout_cap: int = ROLLOUT_CAP, exploration: float = EXPLORATION,
                 seconds: float | None = None):
        self.rng = random.Random(seed)
        self.rollout_cap = rollout_cap
        self.exploration = exploration
        self.kind = _search_kind("mcts", iterations, seconds)
        self.iterations, self.seconds, self.cap = _budget_of(iterations, seconds, self.DEFAULT_ITERATIONS)

    def choose(self, match):
        legal = match.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = _Node(None, None, match.current_player, legal)
        self._until = _until(self.seconds, self.cap)
        for _ in _budget(self.iterations, self.seconds, self.cap, self._until):
            self._iterate(root, match.clone())
        if not root.children:                  # every action failed with a rule error: let the match say so
            return legal[0]
        order = {str(action): i for i, action in enumerate(legal)}
        best = max(root.children, key=lambda child: (child.visits, child.mean, -order[child.key]))
        return best.action

    def _iterate(self, root: "_Node", state) -> None:
        """One UCT iteration on `state`, a fresh clone of the root position."""
        node, path = root, [root]
        rng = self.rng
        try:
            # selection: down the fully expanded nodes by UCB1, for the seat choosing there
            while not node.untried and node.children:
                node = node.select(self.exploration)
                state.apply(node.action)
                path.append(node)
            # expansion: one untried action, chosen at random
            if node.untried:
                action = node.untried.pop(rng.randrange(len(node.untried)))
                state.apply(action)
                over = state.is_over
                child = _Node(node, action, None if over else state.current_player,
                              [] if over else state.legal_actions())
                node.children.append(child)
                node, path = child, path + [child]
            rewards = self._rollout(state)
        except RulelangError:
            rewards = None
        for visited in path:
            visited.visits += 1
            if visited.parent is not None:
                mover = visited.parent.player
                visited.total += 0.5 if rewards is None else rewards[mover]

    def _rollout(self, state) -> list[float] | None:
        """Uniformly random actions to the end: each seat's reward, or None (a draw) past the cap."""
        rng, clock, until = self.rng, time.thread_time, self._until
        for _ in range(self.rollout_cap):
            if state.is_over:
                return [_REWARD.get(result, 0.5) for result in state.outcome["results"]]
            actions = state.legal_actions()
            if not actions or clock() > until:      # (the move's time is up: a draw, as past the cap)
                break
            state.apply(actions[rng.randrange(len(actions))])
        if state.is_over:
            return [_REWARD.get(result, 0.5) for result in state.outcome["results"]]
        return None


_REWARD = {"win": 1.0, "draw": 0.5, "lose": 0.0}


class _Node:
    """A position in the search tree; `total` is the reward of the seat that moved into it."""

    __slots__ = ("parent", "action", "key", "player", "untried", "children", "visits", "total")

    def __init__(self, parent, action, player, legal):
        self.parent = parent
        self.action = action
        self.key = None if action is None else str(action)
        self.player = player                   # the seat that chooses here; None when over
        self.untried = list(legal)
        self.children: list[_Node] = []
        self.visits = 0
        self.total = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def select(self, exploration: float) -> "_Node":
        """The child with the best UCB1 score; the earliest expanded one on a tie."""
        log_n = math.log(self.visits)
        best, best_score = None, -math.inf
        for child in self.children:
            score = child.total / child.visits + exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best


class IsmctsBot:
    """Information-set Monte Carlo tree search (single-observer ISMCTS), `iterations` per move.

    It decides only from what its seat may know. Each iteration searches a fresh
    `match.determinized(seat, …)`: the components the seat cannot see are dealt again at random
    among the places it cannot see, and the copy gets a fresh random generator, so shuffles and
    dice are sampled, not foreseen. One tree is shared by all those worlds: its edges are action
    texts, and an edge is chosen among those legal in the world at hand (UCB1 with availability
    counts). Two positions its seat sees alike give the same decision for the same bot seed.

    A decision with many legal actions (more than `WIDEN_ABOVE`: a war game's turn may list 66)
    is widened progressively: a node tries a new action only while it has fewer children than
    `WIDTH` × √(its visits + 1), else it chooses among those it has tried (a new one too if none of
    them is legal in the world at hand), so the iterations deepen a few lines instead of each
    trying one more action once. The order in which actions are tried is random.

    A playout runs random actions until the game ends (1 for a win, 0.5 a draw, 0 a loss). If
    the rules declare an `estimate` (how well each player is doing), it stops after
    `rollout_depth` actions and the estimate scores it; without one it goes on to the end (at
    most `rollout_cap` actions, then it counts as a draw). Games random play never wins
    (a co-operative card game, say) need the estimate to learn anything. Rewards are per seat (max^n), so it serves
    rivals and co-operative games alike. The answer is the most visited move.
    """

    kind = "ismcts"
    _until = math.inf                     # (set per move: `_until`)
    DEFAULT_ITERATIONS = 200
    ROLLOUT_DEPTH = 8
    ROLLOUT_CAP = 2_000
    EXPLORATION = 0.7
    WIDEN_ABOVE = 32
    WIDTH = 2.0

    def __init__(self, seed: int, iterations: int | None = None,
                 rollout_depth: int = ROLLOUT_DEPTH, exploration: float = EXPLORATION,
                 seconds: float | None = None):
        self.rng = random.Random(seed)
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.kind = _search_kind("ismcts", iterations, seconds)
        self.iterations, self.seconds, self.cap = _budget_of(iterations, seconds, self.DEFAULT_ITERATIONS)

    #: People watch how long a bot thinks: one that answered at once whenever it had a single answer
    #: told them so (that a question asked `always` had one honest answer for it, which tells what
    #: its secret card is). A watched bot (the terminal's, the browser's) searches all the same.
    watched = False

    def choose(self, match):
        legal = match.legal_actions()
        if len(legal) == 1:
            if self.watched:                 # (searched for show, on a copy of the generator: the bot's
                own = self.rng               # own draws stay those of a simulation, so a simulated game
                self.rng = random.Random()   # replays at the terminal — a designer's trial found it did not)
                self.rng.setstate(own.getstate())
                try:
                    self._search(match, legal)
                finally:
                    self.rng = own
            return legal[0]
        return self._search(match, legal)

    def _search(self, match, legal):
        seat = match.current_player
        self._depth = self.rollout_depth if match.estimate(seat) is not None else self.ROLLOUT_CAP
        root = _InfoNode()
        rng = self.rng
        sample = match.sampler(seat)
        self._until = _until(self.seconds, self.cap)
        for _ in _budget(self.iterations, self.seconds, self.cap, self._until):
            try:
                world = sample(rng.getrandbits(64))
            except RulelangError:
                # (a world the seat imagines where the rules fail at once — its hidden cards dealt anew
                # break what the rules assume of them: a new author's tokens — is no world to search; the
                # real match was ended by it, in every game of a simulation)
                continue
            self._iterate(root, world)
        by_text = {str(a): a for a in legal}
        ranked = [(child.visits, child.mean, -i) for i, child in enumerate(root.children.values())]
        best = None
        for (key, child), rank in zip(root.children.items(), ranked):
            if key in by_text and (best is None or rank > best[0]):
                best = (rank, key)
        return by_text[best[1]] if best is not None else legal[0]

    def _iterate(self, root: "_InfoNode", state) -> None:
        node, path = root, []
        rng = self.rng
        try:
            while not state.is_over:
                legal = state.legal_actions()
                if not legal:                # (a world imagined with nothing to do: scored as it stands)
                    break
                mover = state.current_player
                untried = [a for a in legal if str(a) not in node.children]
                tried = 0
                for a in legal:                               # these were available to choose here
                    child = node.children.get(str(a))
                    if child is not None:
                        child.available += 1
                        tried += 1
                if untried and (len(legal) <= self.WIDEN_ABOVE or not tried
                                or len(node.children) < self.WIDTH * math.sqrt(node.visits + 1)):
                    action = untried[rng.randrange(len(untried))]
                    child = node.children[str(action)] = _InfoNode()
                    child.available = 1
                    path.append((child, mover))   # (before: an action the rules fail on still counts a
                    state.apply(action)           # visit, else its node has none and UCB divides by 0)
                    break
                child_key, action = self._select(node, legal if not untried else
                                                 [a for a in legal if str(a) in node.children])
                node = node.children[child_key]
                path.append((node, mover))
                state.apply(action)
            rewards = self._rollout(state)
        except RulelangError:
            rewards = None
        for visited, mover in path:
            visited.visits += 1
            visited.total += 0.5 if rewards is None else rewards[mover]
        root.visits += 1                        # (how wide the root may grow)

    def _select(self, node: "_InfoNode", legal: list):
        best, best_score = None, -math.inf
        c = self.exploration
        for action in legal:
            child = node.children[str(action)]
            score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = (str(action), action), score
        return best

    def _rollout(self, state) -> list[float]:
        rng, clock, until = self.rng, time.thread_time, self._until
        for _ in range(self._depth):
            if state.is_over:
                break
            actions = state.legal_actions()
            if not actions or clock() > until:      # (the move's time is up: scored as it stands)
                break
            state.apply(actions[rng.randrange(len(actions))])
        if state.is_over:
            return [_REWARD.get(result, 0.5) for result in state.outcome["results"]]
        out = []
        for p in range(state.players):
            value = state.estimate(p)
            out.append(0.5 if value is None else value)
        return out


class _InfoNode:
    """An information set reached by a sequence of action texts; `total` is the reward of the
    seat that chose the edge into it, `available` how often that edge could have been chosen."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self):
        self.children: dict[str, _InfoNode] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


DEFAULT_SECONDS = 0.5     # the default search's CPU-time cap per move (its 200 iterations or this)


def _budget_of(iterations: int | None, seconds: float | None, default: int) -> tuple:
    """(iterations, seconds, cap) of a search: a count (exactly that many iterations: the game can be
    replayed from its seed), a CPU-time budget, or neither — the default: `default` iterations, but
    no more than DEFAULT_SECONDS of CPU time per move, so that it answers promptly in every game."""
    if seconds is not None:
        return default, seconds, None
    if iterations is not None:
        return iterations, None, None
    return default, None, DEFAULT_SECONDS


SAFETY_SECONDS = 30.0     # CPU time a search given a count of iterations stops at all the same


def _until(seconds: float | None, cap: float | None) -> float:
    """When (this thread's CPU clock) a move's search stops, its playouts too: its time budget, its
    cap, or SAFETY_SECONDS for a count of iterations — a lint-clean file whose every action takes the
    work limit made one playout of `ismcts:1` last minutes (an exhaustion trial)."""
    return time.thread_time() + (seconds if seconds is not None else cap if cap is not None else SAFETY_SECONDS)


def _budget(iterations: int, seconds: float | None, cap: float | None = None, until: float | None = None):
    """The iterations of one search: `iterations` of them, or with a CPU-time budget (`seconds`
    of this thread's CPU time, so that other programs' load does not shorten it) as many as fit,
    at least one; with a `cap` (seconds), `iterations` unless the cap's time runs out first; and
    none begun after `until` (`_until`). A time budget makes the decision depend on the machine's
    speed: a game played with it (or with the default, where the cap is reached, or a count past
    SAFETY_SECONDS) cannot be replayed exactly from its seed."""
    clock = time.thread_time
    if seconds is None:
        if cap is None:
            for n in range(iterations):
                if n and until is not None and clock() > until:
                    return
                yield n
            return
        start = clock()
        deadline = start + cap
        for n in range(iterations):
            if n:                               # (stop before an iteration of the mean cost would pass it)
                now = clock()
                if now + (now - start) / n > deadline:
                    return
            yield n
        return
    deadline = clock() + seconds
    yield 0
    n = 1
    while clock() < deadline:
        yield n
        n += 1


def _search_kind(name: str, iterations: int | None, seconds: float | None) -> str:
    """How a search bot is named: `ismcts` (the default budget), `ismcts:500` (iterations) or
    `ismcts:0.5s` (a CPU budget)."""
    if seconds is not None:
        return f"{name}:{_shown_seconds(seconds)}"
    return f"{name}:{iterations}" if iterations is not None else name

def _shown_seconds(seconds: float) -> str:
    return f"{seconds:g}s"


_BOTS = {cls.kind: cls for cls in (RandomBot, GreedyBot, MctsBot, IsmctsBot)}
KINDS = tuple(_BOTS)
KIND_HELP = ("random, greedy, mcts[:ITERATIONS|:SECONDSs], ismcts[:ITERATIONS|:SECONDSs] (mcts, ismcts: 200 "
             "iterations, at most 0.5 s of CPU time per move; ismcts:0.5s: 0.5 s of CPU time per move)")
SECONDS_LIMIT = 3600.0
ITERATIONS_LIMIT = 9_999_999


def _past_limit(number: str) -> bool:
    """A time written with an exponent (`1e309`) that no budget may take (one within the limit is
    not a form the kinds take: said unknown)."""
    if not re.fullmatch(r"[0-9.]+[eE][+-]?[0-9]{1,5}", number):
        return False
    try:
        value = float(number)
    except ValueError:
        return False
    return not 0 < value <= SECONDS_LIMIT


def _short_kind(kind: str) -> str:
    """A bot kind as typed, quoted, cut if long (a budget of 5,000 digits)."""
    return repr(kind) if len(kind) <= 40 else repr(kind[:37] + "...")


def parse_kind(kind: str) -> tuple[str, int | None, float | None]:
    """A bot kind as (name, iterations, seconds): `random`, `greedy`, `mcts`/`ismcts` with no budget
    (the default), `ismcts:500` (iterations) or `ismcts:0.5s` (CPU seconds per move). The one parser
    of bot kinds (the command line, the web lobby, simulations); ValueError naming the kinds."""
    name, colon, budget = kind.partition(":") if isinstance(kind, str) else ("", "", "")
    if name not in _BOTS or (colon and name not in ("mcts", "ismcts")):
        raise ValueError(f"unknown bot kind {kind!r}; choose one of: {KIND_HELP}")
    if not colon:
        return name, None, None
    if budget.endswith("s") and budget.isascii():
        number = budget[:-1]
        if number and len(number) <= 10 and all(ch in "0123456789." for ch in number) \
                and number.count(".") <= 1 and number != "." and 0 < float(number) <= SECONDS_LIMIT:
            return name, None, float(number)
    elif budget.isdigit() and budget.isascii() and len(budget) <= 7 and 1 <= int(budget) <= ITERATIONS_LIMIT:
        return name, int(budget), None
    if budget.isascii() and budget.isdigit():       # a count out of range (however long: a fuzz trial)
        raise ValueError(f"{_short_kind(kind)}: a search makes 1 to {ITERATIONS_LIMIT:,} iterations a move")
    if budget.endswith("s") and budget[:-1].isascii() and (budget[:-1].replace(".", "", 1).isdigit()
                                                            or _past_limit(budget[:-1])):
        raise ValueError(f"{_short_kind(kind)}: a search's time is more than 0 and at most {SECONDS_LIMIT:g} s a move")
    raise ValueError(f"unknown bot kind {kind!r}; choose one of: {KIND_HELP}")


def make_bot(kind: str, seed: int, watched: bool = False):
    """A bot of the named kind ("mcts:N" for N search iterations, "ismcts:0.5s" for a CPU-time
    budget per move: see parse_kind); ValueError naming the kinds otherwise. `watched`: people see
    how long it thinks (the terminal, the browser), so a fair search takes its time even when one
    answer is forced (IsmctsBot.watched)."""
    name, iterations, seconds = parse_kind(kind)
    if name in ("mcts", "ismcts"):
        bot = _BOTS[name](seed, iterations=iterations, seconds=seconds)
        if name == "ismcts":
            bot.watched = watched
        return bot
    return _BOTS[name](seed)


def check_kind(kind: str) -> str:
    """`kind` if `make_bot` accepts it; the same ValueError otherwise."""
    make_bot(kind, 0)
    return kind
