"""`rulelang serve`: a Starlette application (run by uvicorn) where people play served matches
in their browsers, each on their own device, each seat behind its own unguessable link.

The server is the authority: a seat's page and websocket receive only what the engine gives that
seat (present.py), every action is checked against the seat's own legal actions and applied by
the engine (atomic: a refused or failing action changes nothing), and every request and
connection presents its token. Engine work runs in worker threads, one match at a time under
that match's lock, so a thinking bot never blocks the other matches or the pages.
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import multiprocessing
import os
import secrets
import signal
import sqlite3
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import rulelang
from rulelang import interrupt_seat
from rulelang.play.bots import bot_seed, make_bot, parse_kind
from rulelang.play.repl import answers_revealed, has_secrets, hidden_outcome, learned
from rulelang.play.rulebook import rulebook
from rulelang.play.simulate import stop_pool
from rulelang.core.errors import EngineFault, IllegalAction, RulelangError
from rulelang.core import safejson
from rulelang.core.textsafe import printable

from . import present
from .store import Store

STATIC = Path(__file__).resolve().parent / "static"
MESSAGE_LIMIT = 4096          # characters of one message from a page
BODY_LIMIT = 16384            # bytes of a lobby request
RATE = 10.0                   # messages a second a connection may send, on average...
BURST = 30.0                  # ...and at once
FLOOD_CLOSE = 60              # messages refused for flooding before the connection is closed
SEND_TIMEOUT = 10.0           # seconds a page has to take in a state before it is let go (it reconnects)
ACTION_TEXT_LIMIT = 1000
MAX_ISMCTS = 5000             # the largest search budget a lobby may ask of a bot
MAX_BOT_SECONDS = 10.0        # the most CPU time per move a lobby may give a bot (ismcts:10s)
MATCHES_HELD = 1000           # matches kept in memory; beyond, idle ones are let go (replayed from the store when opened)
KEEP_DAYS = 90.0              # a match not played for this long is deleted from the store (`--keep-days`; 0: never)
PRUNE_EVERY = 3600.0          # seconds between two looks for such matches (at start, then when a match is made)
NEW_MATCH_RATE = 0.5          # new matches a second one address may make, on average...
NEW_MATCH_BURST = 30          # ...and at once
PAGES_PER_ADDRESS = 100       # pages (websockets) one address may hold open, as a proxy forwards it too
HUMAN = "human"
INVITE = "invite"             # what an invite link's token stands for (a seat's: its number; the spectator's: None)
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",          # the links carry their tokens: never send them on
    "Cache-Control": "no-store",
}


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def shipped_games() -> list[Path]:
    """The rule files of the games shipped with rulelang (games/ beside the package, in a clone or
    a source tree), in a fixed order."""
    here = Path(rulelang.__file__).resolve().parent
    for folder in (here.parent / "games", here / "games", Path.cwd() / "games"):
        if folder.is_dir():
            return sorted(p for p in folder.glob("*.rules") if p.is_file())
    return []


_LOADED: dict = {}                # (path, mtime, size) -> Game: loaded once per process
_LOADING = threading.Lock()


def load_game(path: str):
    """rulelang.load, once per process for a file that has not changed."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):                  # rulelang.load says what is wrong, for people
        return rulelang.load(str(path))
    key = (str(Path(path).resolve()), info.st_mtime_ns, info.st_size)
    with _LOADING:
        game = _LOADED.get(key)
        if game is None:
            game = _LOADED[key] = rulelang.load(str(path))
        return game


def _bot_move(path: str, fingerprint: str, state: dict, kind: str, seed: int) -> tuple[str, str]:
    """In a worker process: the move a bot of `kind` makes in the position `state`."""
    try:
        game = load_game(path)
        if game.fingerprint != fingerprint:
            return "error", f"{path} has changed since the match began"
        match = rulelang.Match.from_state(game, state)
        bot = make_bot(kind, seed, watched=True)
        if getattr(bot, "seconds", 0) is None and getattr(bot, "cap", 0) is None:
            bot.cap = MAX_BOT_SECONDS       # (a count too stops at the lobby's most: `ismcts:5000` took
        return "ok", bot.choose(match).text  # 16 s a move in a shipped game — a socket trial)
    except (RulelangError, EngineFault, ValueError, OSError) as err:
        return "error", printable(str(err))[:300]


def _worker_signals() -> None:
    """A bot worker leaves Ctrl-C to the server (pressed at the terminal, it reaches every process
    of the group: the workers died on it, with a traceback each, and the pool made new ones)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class BotPool:
    """Search bots think in worker processes (spawned when first needed): a long search holds no
    lock and no interpreter the server needs. Stopping the server ends them."""

    def __init__(self, workers: int = 2):
        self.workers = workers
        self.pool = None
        self.lock = threading.Lock()
        self.waiting: dict[str, deque] = {}      # who -> their moves not yet started, (future, args); in turn
        self.busy = 0                            # moves the workers are making
        self.last_turn: dict[str, int] = {}     # who -> when a move of theirs last started (self.turns)
        self.turns = 0
        self.starting: asyncio.Future | None = None      # the pool being made, awaited by all who need it

    async def _started(self):
        """The pool, made now. Ctrl-C is ignored by the server while its workers start, so that they
        start ignoring it (a process keeps an ignored signal through exec, and Python then installs
        no handler of its own: the mask below is not kept by a spawned process, and one still
        importing when Ctrl-C came died with a traceback, under load). Only the main thread may
        set a handler; elsewhere (a server run in a thread) the mask is all there is."""
        if self.pool is not None:
            return self.pool
        if self.starting is None:               # (once: two bots starting together each saved the other's
            self.starting = asyncio.ensure_future(self._start_ignoring())   # SIG_IGN as the handler to
        return await asyncio.shield(self.starting)        # put back, and Ctrl-C then stopped nothing — a trial)

    async def _start_ignoring(self):
        main = threading.current_thread() is threading.main_thread()
        old = signal.getsignal(signal.SIGINT) if main else None
        if old is not None:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            return await asyncio.to_thread(self._start)
        finally:
            if old is not None:
                signal.signal(signal.SIGINT, old)
            self.starting = None

    def _start(self):
        with self.lock:
            if self.pool is None:
                # Ctrl-C blocked in the threads the pool makes now (they keep this thread's mask),
                # and ignored by the workers from their start (_started, where it can be done).
                old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                try:
                    self.pool = multiprocessing.get_context("spawn").Pool(self.workers, initializer=_worker_signals)
                finally:
                    signal.pthread_sigmask(signal.SIG_SETMASK, old)
            return self.pool

    async def choose(self, who: str, *args) -> tuple[str, str]:
        """A bot's move (`_bot_move(*args)`), in its turn: the workers take the waiting moves of each
        `who` (the address that made the match) in turn, so one address's many slow bots delay
        another's table by one move at most (a trial's 30 matches of 10-second bots held every other
        table's bots for minutes)."""
        pool = self.pool or await self._started()
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self.waiting.setdefault(who, deque()).append((done, args))
        self._next(pool, loop)
        try:
            return await done
        finally:
            queue = self.waiting.get(who)
            if queue is not None and (done, args) in queue:      # (the match moved on, or the server stops)
                queue.remove((done, args))
                if not queue:
                    del self.waiting[who]

    def _next(self, pool, loop) -> None:
        """Start waiting moves while a worker is free, one address after another."""
        while self.busy < self.workers and self.waiting:
            who = min(self.waiting, key=lambda w: self.last_turn.get(w, -1))    # (the longest unserved)
            queue = self.waiting[who]
            done, args = queue.popleft()
            if not queue:
                del self.waiting[who]
            if done.done():
                continue
            self.busy += 1
            if len(self.last_turn) > 10000:
                self.last_turn.clear()
            self.turns += 1
            self.last_turn[who] = self.turns

            def settle(value, done=done):
                def back():
                    if not done.done():
                        done.set_result(value)
                    if self.pool is pool:            # (not a pool closed since)
                        self.busy -= 1
                        self._next(pool, loop)
                try:
                    loop.call_soon_threadsafe(back)
                except RuntimeError:                 # (the server's loop closed meanwhile: a move nobody
                    pass                             # waits for; it was a traceback from the pool's thread)
            pool.apply_async(_bot_move, args, callback=settle,
                             error_callback=lambda err, settle=settle: settle(("error", printable(str(err))[:300])))

    def close(self) -> None:
        """End the workers (killed if need be: `stop_pool`)."""
        with self.lock:
            pool, self.pool = self.pool, None
            self.busy, self.waiting = 0, {}
        if pool is not None:
            stop_pool(pool)


@dataclass
class Entry:
    """A game the lobby offers."""
    key: str
    path: str
    game: object

    def describe(self) -> dict:
        g = self.game
        about = g.about or {}
        words = about.get("game")
        words = " ".join(words) if isinstance(words, list) else (words or "")
        option_words = about.get("options") or {}
        return {"key": self.key, "name": printable(g.name), "about": _cut(printable(words, multiline=True), 1200),
                "min_players": g.min_players, "max_players": g.max_players,
                "options": [{"name": o["name"], "type": o["type"], "default": o["default"],
                             "about": _cut(printable(_join(option_words.get(o["name"], ""))), 300),
                             **({"choices": o["choices"]} if o.get("choices") else {})}
                            for o in g.options]}


def _named_action(text: str, legal, names) -> str | None:
    """The name of a legal action (`play`) that the typed text is another choice of (`play 4♦`), or
    None: the rules' `else` reason then speaks of the action as a whole, not of this choice. The
    text is of the action whose name it starts with, the longest of `names` (the step's actions):
    `play card x1` is `play_card`'s, not `play`'s (an adversarial review)."""
    words = " ".join(text.split()).lower()
    shown = sorted({str(x).replace("_", " ").lower() for x in names if x}, key=len, reverse=True)
    name = next((x for x in shown if words == x or words.startswith(x + " ")), None)
    if name is None or not any((a.name or "").replace("_", " ").lower() == name for a in legal):
        return None
    return name


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters, cut between words with `…` (never mid-word)."""
    if len(text) <= limit:
        return text
    head = text[:limit - 1]
    space = head.rfind(" ")
    return (head[:space] if space > limit // 2 else head).rstrip() + "…"


def _close_reason(text: str) -> str:
    """A websocket close reason: at most 123 bytes of UTF-8 (the protocol's limit)."""
    data = text.encode("utf-8")[:123]
    return data.decode("utf-8", "ignore")


def _join(x) -> str:
    return " ".join(x) if isinstance(x, list) else str(x or "")


@dataclass
class Served:
    """A match being served: the engine's match, its seats and who is connected."""
    id: str
    entry: Entry
    match: object
    seats: list                              # per seat: "human" or a bot kind
    tokens: dict                             # token hash -> seat (None: the spectator link)
    seed: int
    applied: int = 0                         # actions applied (and stored): the match's log of texts
    version: int = 0                         # changes so far (actions and undos), as the store numbers them
    page_version: int = 0                    # a page's position: the changes every page may know of (a secret
                                             # answer at a simultaneous step is none until the reveal)
    last_hidden: bool = False                # was the last action such an answer (told to its seat only)?
    sealed: list = field(default_factory=list)      # per text: a secret answer of the step still open
    texts: list = field(default_factory=list)       # the texts applied, in order
    actors: list = field(default_factory=list)      # per text: the seat that chose it
    crossed: list = field(default_factory=list)     # per text: (what it told a person but its chooser's own
                                                    # cards, what it told a person at all), or None
    log_who: list = field(default_factory=list)     # per entry of the match's log: (the seat that made it,
                                                    # the question it answered or None), for the Log
    log_at: list = field(default_factory=list)      # per text: the match's log length before it
    undo: dict | None = None                 # an undo asked and not yet answered: {by, back_to, waiting}
    notice: str | None = None                # the last word about an undo, until the next action
    unjudged: set = field(default_factory=set)      # texts whose outcome may hang on what a person could
                                                    # not see (`judge_hidden_outcomes`, when an undo is asked)
    hidden_why: dict = field(default_factory=dict)  # (text, asker) -> why an undo past it is refused, or None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: dict = field(default_factory=dict)     # websocket -> seat
    bots: dict = field(default_factory=dict)
    thinking: int | None = None
    fault: str | None = None                 # the game cannot go on (a rule error met by a bot)
    bot_task: asyncio.Task | None = None
    maker: str = ""                          # the SHA-256 of the address that made it (its bots' turn at the
                                             # workers; kept in the store), or its own id where none is known

    def __post_init__(self):
        self.log_who = [(None, None)] * len(self.match.log)     # (what the set-up logged: no one's)

    def kinds(self) -> list[str]:
        return ["human" if k == HUMAN else f"{k} bot" for k in self.seats]

    def humans(self) -> list[int]:
        return [p for p, k in enumerate(self.seats) if k == HUMAN]

    def play(self, text: str, seat: int | None = None) -> None:
        """Apply `text` (chosen by `seat`; None: as the text or the turn says) and note what it told
        a person's seat it could not know before, in the terminal's words (play/repl.py `learned`):
        chance drawn, a card a person now sees, a message to a person alone. Twice: as the terminal
        judges it (the chooser's own cards shown to others do not count: undoing that decision costs
        only its chooser), and strictly (they do: a later decision of another seat that showed a
        person its cards may not be undone). Raises as Match.apply does (and then nothing changed)."""
        m = self.match
        if seat is None:
            seat = interrupt_seat(text)
            seat = m.current_player if seat is None else seat
        before = {p: m.visible_to(p) for p in self.humans()}
        own = before.get(seat, set())           # a human showing their own card tells them nothing
        told = len(m.message_log())
        existed = len(m.labels)                 # (a component the action makes was hidden from nobody)
        logged, question, together = len(m.log), m.question, m.simultaneous
        judge = bool(self.humans()) and m.simultaneous is None and has_secrets(m)
        m.apply(text)
        answering = question is not None and (text in question["options"] or question.get("also")
                                              or interrupt_seat(text) is None)
        asked = str(question.get("prompt") or "") if answering else None   # (not an interrupt meanwhile)
        new = len(m.log) - logged
        if together is not None and new == len(together["seats"]):   # the reveal: each asked seat's answer
            self.log_who += [(p, asked) for p in together["seats"]]
        else:
            self.log_who += [(seat, asked)] * new
        self.log_at.append(logged)
        lenient = (learned(m, {p: seen | own for p, seen in before.items()}, told, existed)
                   or answers_revealed(together, logged, m, self.humans()))
        strict = lenient if lenient is not None else learned(
            m, {p: seen | own if p == seat else seen for p, seen in before.items()}, told, existed)
        if strict is None and judge and not m.is_over:     # (a wound that kills or not, by a hidden
            self.unjudged.add(len(self.crossed))           # character's health: judged if an undo is asked)
        self.crossed.append((lenient, strict))
        self.texts.append(text)
        self.actors.append(seat)
        self.applied += 1
        self.version += 1
        # an answer at a simultaneous step that is not the last: nobody but its seat may learn that
        # it came (engine/simultaneous.py): the pages' position stays, and only its seat is told
        self.last_hidden = together is not None and new == 0 and m.simultaneous is not None
        if self.last_hidden:
            self.sealed.append(True)
        else:                                   # (the reveal unseals every answer before it)
            self.sealed = [False] * (len(self.sealed) + 1)
            self.page_version += 1
        self.notice = None

    def undo_target(self, seat: int, judge_hidden: bool = True) -> tuple[int | None, str | None]:
        """(how many actions stay, None) to undo `seat`'s last decision and all played since; or
        (None, why not) in words. Without `judge_hidden`, the moves whose outcome may have hung on
        what a person could not see are not replayed (`judge_hidden_outcomes`): what a page is told
        with every position, where the replays would cost more than all the rest of a move."""
        if seat not in self.humans():
            return None, "only a person's seat may ask to undo"
        if self.match.is_over:
            return None, "the game is over"
        last = next((i for i in range(len(self.actors) - 1, -1, -1) if self.actors[i] == seat), None)
        if last is None:
            return None, "you have no move to undo"
        if self.sealed[last] and len(self.humans()) > 1:    # (asking would tell the others you have answered)
            return None, "your answer is sealed until everyone asked has answered, and then shown: it stays"
        if judge_hidden:
            self.judge_hidden_outcomes(last, seat)
        for i in range(last, len(self.crossed)):
            reason = self.crossed[i][0 if self.actors[i] == seat else 1] or self.hidden_why.get((i, seat))
            if reason is not None:
                return None, _worded_for(f"cannot undo: since your last move {reason}, and undoing would let it "
                                         f"be played again knowing it", seat)
        return last, None

    def replayed(self, keep: int):
        """A new match of this one's seed with its first `keep` actions played (an undo's position)."""
        m = self.entry.game.new_match(self.match.players, self.seed, self.match.options)
        for text in self.texts[:keep]:
            m.apply(text)
        return m

    def hidden_by_undo(self, keep: int) -> dict:
        """{seat: the names of the components that seat sees now and would not see once the match is
        back to its first `keep` actions}: an undo of one's own reveal hides the card again on every page
        (a browser trial: the others accepted, not told their view would lose it). Only names each seat
        sees now; {} where the replay fails."""
        try:
            m = self.replayed(keep)
        except (RulelangError, EngineFault):
            return {}
        now = self.match
        return {s: sorted({printable(now.labels[c]) for c in now.visible_to(s) - m.visible_to(s)})
                for s in self.humans()}

    def move_read(self, i: int, seat: int | None) -> str | None:
        """Text `i`'s first log entry as `seat` reads it (a secret answer stays "(a secret choice)")."""
        log = self.match.log_for(seat)
        at = self.log_at[i] if i < len(self.log_at) else None
        if at is None or at >= len(log):
            return None
        asked = self.log_who[at][1] if at < len(self.log_who) else None
        # (an answer with its question: "Shield Mother at h2" read as a move to h2 — a browser trial)
        return log[at] + (f" — the answer to “{printable(asked)}”" if asked and not asked.startswith("respond in ")
                          else "")

    def judge_hidden_outcomes(self, since: int, asker: int) -> None:
        """Judge the moves from `since` on left unjudged by `play` (play/repl.py `hidden_outcome`),
        as `asker` may judge them (told the verdict, which hangs on nothing they may not know),
        replaying the match from its seed to reach the position before each; stop at the first
        refused (the ones after it need no judging while it stands). Under the lock."""
        todo = sorted(i for i in self.unjudged if i >= since and (i, asker) not in self.hidden_why)
        if not todo:
            return
        try:
            m = self.entry.game.new_match(self.match.players, self.seed, self.match.options)
            for text in self.texts[:todo[0]]:
                m.apply(text)
            for i in range(todo[0], todo[-1] + 1):
                if i not in self.unjudged:
                    m.apply(self.texts[i])
                    continue
                base = m.clone()
                m.apply(self.texts[i])
                why = self.hidden_why.get((i, asker))
                if (i, asker) not in self.hidden_why:
                    why = self.hidden_why[(i, asker)] = hidden_outcome(base, self.texts[i], m, self.humans(),
                                                                        asker=asker)
                if why is not None:
                    return
        except (RulelangError, EngineFault):     # (a replay of applied actions: not expected; the
            return                               # undo's own replay says it)


class Outbox:
    """What is yet to be sent to one page, in order, by a task of its own: a page that stops
    reading holds up itself alone (a browser trial: a spectator whose socket never read made every
    move of the table wait SEND_TIMEOUT, as each push waited for every page's send). A state
    waiting behind another is replaced by the newer one: a page needs only the latest."""
    __slots__ = ("items", "wake", "task")

    def __init__(self) -> None:
        self.items: deque = deque()             # ("state" | "message" | "close", the message)
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None


class Server:
    def __init__(self, rules: list[str] | None = None, store: str = ":memory:", bot_delay: float = 0.0,
                 include_shipped: bool = True, keep_days: float = KEEP_DAYS):
        self.entries: dict[str, Entry] = {}
        named = [(Path(r), load_game(str(r))) for r in (rules or [])]   # first: a mistake in them is said at once
        shipped = [(path, load_game(str(path))) for path in (shipped_games() if include_shipped else [])]
        for path, game in shipped + named:     # (a RuleError names the file and line: the caller says it)
            key = _key(path.stem, self.entries)
            self.entries[key] = Entry(key, str(path.resolve()), game)
        self.store = Store(store)
        self.matches: dict[str, Served] = {}
        self.keep = keep_days * 86400.0 if keep_days else None     # (seconds a match is kept unplayed)
        self.pruned_at = -PRUNE_EVERY
        self.pruning: asyncio.Future | None = None       # (the hourly prune under way, kept from the collector)
        self.prune()
        self.outboxes: dict[WebSocket, Outbox] = {}
        self.rulebooks: dict[str, str] = {}      # game key -> its rulebook text (made once)
        self.bot_delay = bot_delay
        self.rate, self.burst = RATE, BURST      # a connection's messages a second, and at once
        self.held = MATCHES_HELD
        self.new_rate, self.new_burst = NEW_MATCH_RATE, NEW_MATCH_BURST
        self.makers: dict[str, tuple[float, float]] = {}     # address -> (allowance, when), for new matches
        self.restoring: dict[str, asyncio.Future] = {}      # match id -> its rebuilding from the store, under way
        self.unlimited = {"127.0.0.1", "::1"}    # this computer's own requests make matches freely
        self.pages_from: dict[str, int] = {}     # address -> its pages (websockets) open
        self.pages_per_address = PAGES_PER_ADDRESS
        self.pool = BotPool()
        self.app = Starlette(lifespan=self._lifespan, routes=[
            Route("/", self.lobby_page),
            Route("/api/games", self.api_games),
            Route("/api/matches", self.api_create, methods=["POST"]),
            Route("/play/{mid}/{token}", self.table_page),
            Route("/join/{mid}/{token}", self.join_page, methods=["GET", "POST"]),
            Route("/api/play/{mid}/{token}", self.api_state),
            Route("/api/play/{mid}/{token}/text/{cid}", self.api_text),
            Route("/api/play/{mid}/{token}/card/{name}", self.api_card),
            Route("/api/play/{mid}/{token}/history", self.api_history),
            Route("/rules/{key}", self.rules_page),
            WebSocketRoute("/ws/{mid}/{token}", self.socket),
            Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        ], exception_handlers={404: self.not_found, 405: self.not_allowed, 500: self.internal})

    @contextlib.asynccontextmanager
    async def _lifespan(self, app):
        yield
        self.close()
        # (each page's writer ended and awaited: left pending, a stop by SIGTERM printed "Task was
        # destroyed but it is pending!" — a live trial)
        tasks = [box.task for box in list(self.outboxes.values()) if box.task is not None and not box.task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def close(self) -> None:
        self.pool.close()
        for served in self.matches.values():
            if served.bot_task is not None:
                served.bot_task.cancel()

    # ---- pages ------------------------------------------------------------------------------
    async def lobby_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html", headers=SECURITY_HEADERS)

    async def table_page(self, request: Request) -> Response:
        served, seat = await self._open(request.path_params["mid"], request.path_params["token"])
        if served is None:
            return _error_page(seat, 404)
        return FileResponse(STATIC / "table.html", headers=SECURITY_HEADERS)

    async def join_page(self, request: Request) -> Response:
        """An invite link. Opened (GET), it leads a browser that has a seat of this match back to
        it, and otherwise shows a page whose button takes one: only that (a POST) takes the next
        person's seat not yet taken, made then and kept in a cookie of this browser. A chat app's
        link preview, a HEAD request, or the host looking in took a seat each on opening it, and
        the friends then found every seat taken (a browser trial). A page says so when every seat
        is taken."""
        mid, token = request.path_params["mid"], request.path_params["token"]
        if not (isinstance(mid, str) and isinstance(token, str)) or len(mid) > 64 or len(token) > 128:
            return _error_page("no such match, or a wrong link", 404)
        cookie = f"rulelang_seat_{mid}"
        mine = request.cookies.get(cookie, "")
        while True:
            served, why = await self._served(mid, _hash(token))
            if served is None or served.tokens.get(_hash(token)) != INVITE:
                return _error_page(why or "no such match, or a wrong link", 404)
            await served.lock.acquire()
            if self.matches.get(mid) is served:     # (else let go while the lock was awaited: a seat
                break                               # given on that copy would be unknown to the next)
            served.lock.release()
        try:
            taken = {p for p in served.tokens.values() if type(p) is int}
            free = [p for p in served.humans() if p not in taken]
            if len(mine) <= 128 and type(served.tokens.get(_hash(mine))) is int:
                seat_token = mine                   # (this browser's seat already)
            elif not free:
                return _error_page("every person's seat of this match is taken: ask whoever made it "
                                   "for the spectator link (yours, on another device: the address of your "
                                   "table, /play/…, not this invitation)", 409)
            elif request.method != "POST":
                return _join_page(served.entry.game.name, len(free), len(served.humans()))
            else:
                seat_token = secrets.token_urlsafe(24)
                served.tokens[_hash(seat_token)] = free[0]
                await asyncio.to_thread(self.store.set_tokens, mid, served.tokens)
        finally:
            served.lock.release()
        response = RedirectResponse(f"/play/{mid}/{seat_token}", 303, headers=SECURITY_HEADERS)
        response.set_cookie(cookie, seat_token, max_age=30 * 86400, path=f"/join/{mid}", httponly=True,
                            samesite="lax", secure=request.url.scheme == "https")
        return response

    async def rules_page(self, request: Request) -> Response:
        """A game's rulebook (`rulelang rules`): its rules and every card's text, for people at a
        table in the browser, where no card in play could be read (a browser trial)."""
        entry = self.entries.get(request.path_params["key"])
        if entry is None:
            return _error_page("no such game", 404)
        text = self.rulebooks.get(entry.key)
        if text is None:
            text = self.rulebooks[entry.key] = await asyncio.to_thread(
                rulebook, entry.game, False, entry.path)
        import html
        title = html.escape(printable(entry.game.name))
        return HTMLResponse(f"<!doctype html><html lang=en><meta charset=utf-8><link rel=icon href='data:,'>"
                            f"<meta name=viewport content='width=device-width, initial-scale=1'>"
                            f"<title>{title} — rules</title><link rel=stylesheet href='/static/style.css'>"
                            f"<main class=page><pre class=rulebook>{html.escape(text)}</pre></main>",
                            headers=SECURITY_HEADERS)

    async def not_found(self, request, exc) -> Response:
        return _error_page("no such page", 404)

    async def not_allowed(self, request, exc) -> Response:
        """405 with the methods the address takes (a script that GETs /api/matches learns it must POST)."""
        allow = (getattr(exc, "headers", None) or {}).get("Allow", "")
        said = f"{printable(request.method)[:20]} is not taken here; this address takes {allow or 'another method'}"
        page = _error(said, 405) if request.url.path.startswith("/api/") else _error_page(said, 405)
        if allow:
            page.headers["Allow"] = allow
        return page

    async def internal(self, request, exc) -> Response:
        return _error_page("the server met a problem; the match is unchanged", 500)

    # ---- the lobby's API --------------------------------------------------------------------
    async def api_games(self, request: Request) -> Response:
        return JSONResponse({"games": [e.describe() for e in self.entries.values()],
                             "bots": ["random", "greedy", "ismcts"], "max_ismcts": MAX_ISMCTS,
                             "max_bot_seconds": MAX_BOT_SECONDS},
                            headers=SECURITY_HEADERS)

    def _may_make(self, request: Request) -> bool:
        """A lobby request from this address may make a match now (a flood of them filled the
        server's memory at 113 kB a match: 2 GB in 45 s). Requests from this computer are not
        counted (a script of the server's own user, a load test)."""
        now = time.monotonic()
        who = request.client.host if request.client else ""
        # (not a page of a site by another name: a DNS rebinding points a name at 127.0.0.1, and its page's
        # `Origin` and `Host` agree — an attacker's trial made matches with search bots without limit)
        origin = request.headers.get("origin")
        if who in self.unlimited and (origin is None or _is_loopback_name(_hostname(origin))):
            return True
        if len(self.makers) > 10000:
            self.makers.clear()
        allowance, last = self.makers.get(who, (self.new_burst, now))
        allowance = min(self.new_burst, allowance + (now - last) * self.new_rate)
        if allowance < 1:
            self.makers[who] = (allowance, now)
            return False
        self.makers[who] = (allowance - 1, now)
        return True

    def prune(self, keep: set | None = None) -> int:
        """Delete from the store the matches not played for the `keep` time, but those held in memory
        (`keep`: their ids, taken on the event loop; a page may be open on them); how many went. Done
        at start and, at most once in PRUNE_EVERY, when a match is made: what fills the store is what
        empties it. A store that cannot do it now (read-only, locked by another program) is said on
        the console and left as it is: it is housekeeping, never a reason to refuse a request."""
        self.pruned_at = time.monotonic()
        if self.keep is None:
            return 0
        try:
            return self.store.prune(time.time() - self.keep, keep=set(self.matches) if keep is None else keep)
        except sqlite3.Error as error:
            print(f"rulelang serve: old matches could not be deleted from the store now: {error}",
                  file=sys.stderr, flush=True)
            return 0

    def _hold(self, mid: str, served: Served) -> None:
        """Keep a match in memory, the most recently used last; past `held`, the longest idle ones
        with nobody connected and no bot thinking are let go (the store replays them when opened)."""
        self.matches.pop(mid, None)
        self.matches[mid] = served
        for old in list(self.matches):
            if len(self.matches) <= self.held:
                break
            s = self.matches[old]
            if old != mid and not s.sockets and (s.bot_task is None or s.bot_task.done()) and not s.lock.locked():
                del self.matches[old]               # (not one whose lock is held: a seat being given, say)

    async def api_create(self, request: Request) -> Response:
        # a page of another site may not make matches here: a plain-text POST needs no CORS preflight,
        # so a web page could fill this computer's store (and its bots' workers) unasked (a fuzz trial);
        # JSON from another origin is preflighted, which this server never allows
        origin = request.headers.get("origin")
        # (by host name: a proxy's `Host $host` drops the port the browser's Origin keeps)
        if origin is not None and (_hostname(origin) is None
                                   or _hostname(origin) != _hostname("//" + request.headers.get("host", ""))):
            return _error("a page of another site may not make matches here", 403)
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return _error("send the match as JSON (Content-Type: application/json)", 415)
        if not self._may_make(request):
            return _error("too many new matches from here: wait a little", 429)
        if time.monotonic() - self.pruned_at > PRUNE_EVERY:
            self.pruned_at = time.monotonic()           # (one look at a time, while this match is made)
            self.pruning = asyncio.ensure_future(asyncio.to_thread(self.prune, set(self.matches)))
        body = b""
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > BODY_LIMIT:
                    return _error(f"the request is larger than {BODY_LIMIT} bytes", 413)
        except ClientDisconnect:           # (gone before its body came: nobody to answer, and no
            return Response(status_code=400)  # traceback in the server's log — a fuzz trial)
        try:
            spec = safejson.loads(body.decode("utf-8") or "null", "request")
        except (ValueError, UnicodeDecodeError):     # (nesting past the depth limit too: JSONLimitError)
            return _error("the request is not JSON, or nests too deep, or holds a number too long")
        try:
            result = await self.create(spec, request.client.host if request.client else "")
        except (ValueError, TypeError, RulelangError) as err:
            return _error(printable(str(err))[:300])
        base = str(request.base_url).rstrip("/")
        result["links"] = [dict(x, url=base + x["path"]) for x in result["links"]]
        result["spectator"] = dict(result["spectator"], url=base + result["spectator"]["path"])
        if "invite" in result:
            result["invite"] = dict(result["invite"], url=base + result["invite"]["path"])
        return JSONResponse(result, headers=SECURITY_HEADERS)

    async def create(self, spec, maker: str = "") -> dict:
        """A new match from the lobby's form: {game, players, options, seats: ["human" | "random" |
        "greedy" | "ismcts[:N|:Ss]"...], seed?}. ValueError for anything wrong, said for people."""
        if not isinstance(spec, dict):
            raise ValueError("send {game, players, options, seats}")
        unknown = sorted(str(k) for k in spec if k not in SPEC_FIELDS)
        if unknown:                        # (a misspelt `seat` made a match of humans only, unsaid — a fuzz trial)
            raise ValueError(f"no field {printable(repr(unknown[0][:40]))} in a match's request; its fields: "
                             + ", ".join(SPEC_FIELDS))
        entry = self.entries.get(spec.get("game")) if isinstance(spec.get("game"), str) else None
        if entry is None:
            # (quoted, then made printable: made printable first, its `\u001b` read `\\u001b` — an attacker's trial)
            raise ValueError(f"no game {printable(repr(str(spec.get('game'))[:60]))}; the lobby lists them")
        game = entry.game
        players = spec.get("players", game.min_players)
        if type(players) is not int:            # (a trial sent "1": "… is for 1..4 players" misled)
            raise ValueError(f"`players` is a whole number ({printable(game.name)} is for {game.players_text} players), "
                             f"not {printable(json.dumps(players))[:40]}")
        if not game.min_players <= players <= game.max_players:
            raise ValueError(f"{printable(game.name)} is for {game.players_text} players")
        options = spec.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict) or len(options) > 50:
            raise ValueError("`options` is an object of option names to values")
        seats = spec.get("seats")
        if seats is None:                       # (not given: every seat a person's; `{}`, `""` or `false`
            seats = [HUMAN] * players           #  are refused as a wrong type — a review)
        if not isinstance(seats, list):
            raise ValueError("`seats` is a list: for each player, \"human\" or a bot")
        if len(seats) != players:
            raise ValueError(f"give one seat (human or a bot) for each of the {players} "
                             f"player{'s' if players != 1 else ''}, not {len(seats)}")
        seats = [_seat_kind(s) for s in seats]
        seed = spec.get("seed")
        drawn = seed is None                    # (a drawn seed is told to nobody: it deals every hidden card)
        if seed is None:
            seed = rulelang.secret_seed()
        if type(seed) is not int or not 0 <= seed < 2 ** 63:
            raise ValueError("the seed must be a whole number from 0")
        invite = spec.get("invite", False)
        if type(invite) is not bool:
            raise ValueError("`invite` is true (one link that seats each person who opens it) or false")
        match = await asyncio.to_thread(game.new_match, players, seed, options)
        mid = secrets.token_urlsafe(9)
        # one link per person, or one invite that gives each who opens it a seat of their own (made
        # then: nobody, the host included, holds another person's link — a browser trial)
        tokens = {} if invite else {secrets.token_urlsafe(24): p for p in range(players) if seats[p] == HUMAN}
        invited = secrets.token_urlsafe(24) if invite and HUMAN in seats else None
        watch = secrets.token_urlsafe(24)
        hashed = {_hash(t): p for t, p in tokens.items()} | {_hash(watch): None} \
            | ({_hash(invited): INVITE} if invited else {})
        maker = _hash(maker) if maker else mid     # (kept as a hash: the store need not hold addresses)
        self.store.create(mid, entry.path, game.fingerprint, entry.key, players, seed, match.options,
                          seats, hashed, maker)
        served = Served(mid, entry, match, seats, hashed, seed, maker=maker)
        served.bots = {p: make_bot(k, bot_seed(seed, p), watched=True) for p, k in enumerate(seats) if k != HUMAN}
        self._hold(mid, served)
        self._wake_bots(served)
        return {"id": mid, "game": printable(game.name), **({} if drawn else {"seed": seed}),
                "links": [{"seat": present.seat_name(p), "path": f"/play/{mid}/{t}"} for t, p in tokens.items()],
                "bots": [{"seat": present.seat_name(p), "kind": k} for p, k in enumerate(seats) if k != HUMAN],
                **({"invite": {"path": f"/join/{mid}/{invited}",
                               "seats": [present.seat_name(p) for p in range(players) if seats[p] == HUMAN]}}
                   if invited else {}),
                "spectator": {"path": f"/play/{mid}/{watch}"}}

    # ---- a seat's state -----------------------------------------------------------------------
    async def _open(self, mid: str, token: str):
        """(served, seat) for a match id and a token; (None, why) when either is wrong."""
        if not (isinstance(mid, str) and isinstance(token, str)) or len(mid) > 64 or len(token) > 128:
            return None, "no such match, or a wrong link"
        key = _hash(token)
        served, why = await self._served(mid, key)
        if served is None:
            return None, why
        if key not in served.tokens or served.tokens[key] == INVITE:
            return None, "no such match, or a wrong link"
        return served, served.tokens[key]

    async def _served(self, mid: str, key: str | None = None):
        """(served, None) for a match id, restored from the store if need be — only for a link
        (`key`, its token's hash) the match has, and once however many ask at once; (None, why)."""
        served = self.matches.get(mid)
        if served is not None:
            self._hold(mid, served)               # (the most recently used: let go last)
        else:
            if not isinstance(mid, str) or len(mid) > 64:
                return None, "no such match, or a wrong link"
            if key is not None:
                stored = await asyncio.to_thread(self.store.tokens, mid)
                if stored is None or key not in stored:
                    return None, "no such match, or a wrong link"
            task = self.restoring.get(mid)
            if task is None and mid in self.matches:      # (rebuilt while its tokens were read)
                return await self._served(mid)
            if task is None:
                task = self.restoring[mid] = asyncio.ensure_future(self._restore(mid))
                task.add_done_callback(lambda _: self.restoring.pop(mid, None))
            try:
                served = await asyncio.shield(task)
            except (RulelangError, ValueError, OSError) as err:
                return None, f"this match cannot be resumed: {printable(str(err))[:200]}"
        if served is None:
            return None, "no such match, or a wrong link"
        return served, None

    async def _restore(self, mid: str) -> Served | None:
        """A stored match, rebuilt by replaying its actions (after a restart)."""
        if len(mid) > 64:
            return None
        saved = await asyncio.to_thread(self.store.get, mid)
        if saved is None:
            return None
        # (only a game this server serves: the path a stored row names is never opened — a tampered
        # store named /etc/passwd, and its first word reached the page in the error, a fuzz trial)
        entry = next((e for e in self.entries.values() if e.path == saved["rules"]), None)
        if entry is None:
            raise ValueError("its game is not one this server serves now (start `rulelang serve` with its rule file)")
        if not entry.game.accepts_fingerprint(saved["fingerprint"]):
            raise ValueError(f"{saved['rules']} has changed since the match began")

        # (a damaged row is said as such: options stored as a list made every open a 500, and seats
        # fewer than the players let a match be played until its end crashed every page — a fuzz trial)
        if not isinstance(saved["options"], dict):
            raise ValueError("its options are damaged in the store")
        seats = saved["seats"]
        if not (isinstance(seats, list) and len(seats) == saved["players"] and all(isinstance(k, str) for k in seats)):
            raise ValueError("its seats are damaged in the store")
        try:                                    # (a kind the lobby refuses: `skynet` read the command line's list,
            for k in seats:                     #  and `mcts`, which sees every hidden card, played — an attacker)
                _seat_kind(k)
        except ValueError:
            raise ValueError("its seats are damaged in the store") from None
        tokens = saved["tokens"]                # (a link's seat -1, 99 or "0" was a 500 at every open: a fuzz trial)
        if not (isinstance(tokens, dict) and all(
                isinstance(k, str) and (v is None or v == INVITE or type(v) is int and 0 <= v < len(seats))
                for k, v in tokens.items())):
            raise ValueError("its links are damaged in the store")

        def replay():
            m = entry.game.new_match(saved["players"], saved["seed"], saved["options"])
            served = Served(mid, entry, m, saved["seats"], saved["tokens"], saved["seed"],
                            maker=saved.get("maker") or mid)
            for text in saved["actions"]:
                served.play(text)
            served.version = saved["version"]
            served.page_version = saved["version"] - sum(served.sealed)    # (what every page may know of)
            return served
        restored = await asyncio.to_thread(replay)
        served = self.matches.get(mid)            # (another request restored it meanwhile)
        if served is not None:
            return served
        served = restored
        served.bots = {p: make_bot(k, bot_seed(saved["seed"] + served.version, p), watched=True)
                       for p, k in enumerate(served.seats) if k != HUMAN}
        self._hold(mid, served)
        self._wake_bots(served)
        return served

    def payload(self, served: Served, seat: int | None) -> dict:
        """What `seat` (None: a spectator) is sent now. Called under the match's lock."""
        m = served.match
        here = set(served.sockets.values())      # (the seats a page is open for: "P4 … (not connected)")
        body = present.seat_payload(m, seat) if seat is not None else present.spectator_payload(m)
        body["log"] = present.log_lines(body["log"], served.log_who[len(m.log) - len(body["log"]):])
        if seat is not None and seat in served.bots:
            body["actions"], body["out_of_turn"] = [], []
        undo = served.undo
        if seat is not None and seat in served.humans():
            _, why = served.undo_target(seat, judge_hidden=False)
        else:
            why = "only a person's seat may ask to undo"
        body.update({"undo": None if undo is None else {
                         "by": present.seat_name(undo["by"]), "mine": undo["by"] == seat,
                         "move": served.move_read(undo["back_to"], seat),
                         "waiting": [present.seat_name(p) for p in sorted(undo["waiting"])],
                         "to_answer": seat in undo["waiting"],
                         "hides": (undo.get("hides") or {}).get(seat, [])},
                     "can_undo": why is None and undo is None, "undo_why": why,
                     "notice": _worded_for(served.notice, seat)})
        body.update({"type": "state", "version": served.page_version, "thinking": served.thinking,
                     "fault": served.fault, "you": present.seat_name(seat) if seat is not None else None,
                     "seats": [{"name": present.seat_name(p), "kind": k, "connected": p in here}
                               for p, k in enumerate(served.kinds())],
                     "outcome": present.outcome_words(m, served.kinds())})
        return body

    def drawn(self, served: Served, seat: int | None) -> str:
        """The payload for `seat` as sent; where the rules fail to draw the position (a view's own
        rule error), a message saying so: the players are told, the server and the match go on."""
        try:
            return present.dumps(self.payload(served, seat))
        except (RulelangError, EngineFault) as err:
            return present.dumps({"type": "error", "message": f"rule error: the table cannot be drawn: "
                                                              f"{printable(str(err))[:300]}"})

    def hello(self, served: Served, seat: int | None) -> dict:
        g = served.entry.game
        return {"type": "hello", "game": printable(g.name), "seat": seat,
                "you": present.seat_name(seat) if seat is not None else None,
                "board": present.board_layout(g), "match": served.id,
                "rules": f"/rules/{served.entry.key}" if self.entries.get(served.entry.key) is served.entry else None}

    async def api_state(self, request: Request) -> Response:
        served, seat = await self._open(request.path_params["mid"], request.path_params["token"])
        if served is None:
            return _error(seat, 404)
        try:
            async with served.lock:
                body = await asyncio.to_thread(lambda: {**self.hello(served, seat), **self.payload(served, seat)})
        except (RulelangError, EngineFault) as err:
            return _error(f"rule error: the table cannot be drawn: {printable(str(err))[:300]}", 500)
        return JSONResponse(body, headers=SECURITY_HEADERS)

    async def api_text(self, request: Request) -> Response:
        """A component's rules text for the card tip, if the seat may see it now (docs/serve.md)."""
        served, seat = await self._open(request.path_params["mid"], request.path_params["token"])
        if served is None:
            return _error(seat, 404)
        raw = request.path_params["cid"]         # (read here: a 5,000-digit id must not fail the route)
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
            return _error("no such component in sight", 404)
        cid = int(raw)
        async with served.lock:
            body = await asyncio.to_thread(present.component_words, served.match, seat, cid)
        if body is None:
            return _error("no such component in sight", 404)
        return JSONResponse(body, headers=SECURITY_HEADERS)

    async def api_history(self, request: Request) -> Response:
        """The whole log and messages as the seat reads them (a state carries the last 300: serve.md)."""
        served, seat = await self._open(request.path_params["mid"], request.path_params["token"])
        if served is None:
            return _error(seat, 404)
        try:
            async with served.lock:
                body = await asyncio.to_thread(present.history, served.match, seat)
                # (each entry with its seat and question, as a state's last 300 are: a review)
                body["log"] = present.log_lines(body["log"], served.log_who[len(served.match.log) - len(body["log"]):])
        except (RulelangError, EngineFault) as err:
            return _error(f"rule error: the log cannot be read: {printable(str(err))[:300]}", 500)
        # (the pages' version: the match's own counts a secret answer at a simultaneous step, which is no
        # page's business until the reveal — a review read every bid's coming from it)
        return JSONResponse({**body, "version": served.page_version}, headers=SECURITY_HEADERS)

    async def api_card(self, request: Request) -> Response:
        """A declared card's rules text by its name (docs/serve.md): public, the rulebook's words."""
        served, seat = await self._open(request.path_params["mid"], request.path_params["token"])
        if served is None:
            return _error(seat, 404)
        name = request.path_params["name"]
        body = present.card_words(served.entry.game, name) if len(name) <= 200 else None
        if body is None:
            return _error("no card of that name in the rules", 404)
        return JSONResponse(body, headers=SECURITY_HEADERS)

    # ---- the websocket ------------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        # (the address a proxy on this computer forwards: the connections' own cap sees the proxy
        # alone, and one client behind nginx held 4,000 sockets and locked every page out — a socket trial)
        who = ws.client.host if ws.client else ""
        if who not in self.unlimited and self.pages_from.get(who, 0) >= self.pages_per_address:
            await ws.accept()
            await ws.close(code=1013, reason="too many pages open from this address")
            return
        self.pages_from[who] = self.pages_from.get(who, 0) + 1
        try:
            await self._socket(ws)
        finally:
            self.pages_from[who] -= 1
            if not self.pages_from[who]:
                del self.pages_from[who]

    async def _socket(self, ws: WebSocket) -> None:
        # (accepted first: a close before it is a 403 the page cannot read, and it would try again for ever)
        await ws.accept()
        served, seat = await self._open(ws.path_params["mid"], ws.path_params["token"])
        # The page joins the copy the server holds, with no await between that check and joining: a match
        # with no page open may be let go at any await (`_hold`), and a page that joined a copy let go
        # played on it while the next page replayed another from the store — two live copies, moves
        # lost and a store that disagreed with every page (an attacker's trial, with 1,000 busy matches).
        while served is not None and self.matches.get(served.id) is not served:
            served, seat = await self._open(ws.path_params["mid"], ws.path_params["token"])
        if served is None:
            await ws.close(code=4404, reason=_close_reason(str(seat)))
            return
        joined = seat is not None and seat not in served.sockets.values()
        served.sockets[ws] = seat
        allowance, refused = self.burst, 0
        last = asyncio.get_running_loop().time()
        try:
            async with served.lock:
                first = await asyncio.to_thread(lambda: (present.dumps(self.hello(served, seat)),
                                                         self.drawn(served, seat)))
            for message in first:
                self._post(served, ws, message)
            if joined:                           # (the others see this seat connected again; this page
                await self.push(served, skip=ws)  # has it in its first state — a second, the same, was sent)
            while True:
                got = await ws.receive()
                if got.get("type") == "websocket.disconnect":
                    break
                raw = got.get("text")
                if raw is None:                  # (a binary frame: no page sends one)
                    await self._tell(ws, "a message is text (JSON), not binary data")
                    continue
                now = asyncio.get_running_loop().time()
                allowance = min(self.burst, allowance + (now - last) * self.rate)
                last = now
                if allowance < 1:
                    refused += 1
                    if refused >= FLOOD_CLOSE:          # (after what it was told: in its queue,
                        self._post(served, ws, "", close=(1008, "too many messages"))   # sent before the
                        box = self.outboxes.get(ws)                                      # handler returns)
                        if box is not None and box.task is not None:
                            with contextlib.suppress(Exception):
                                await asyncio.wait_for(asyncio.shield(box.task), SEND_TIMEOUT)
                        return
                    await self._tell(ws, "too many messages: slow down")
                    continue
                allowance -= 1
                await self.handle(served, seat, ws, raw)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            served.sockets.pop(ws, None)
            box = self.outboxes.pop(ws, None)
            if box is not None and box.task is not None:
                box.task.cancel()
            if seat is not None and seat not in served.sockets.values() and served.sockets:
                with contextlib.suppress(Exception):      # (the others see this seat gone)
                    await self.push(served)

    async def _tell(self, ws: WebSocket, message: str) -> None:
        self._post(None, ws, present.dumps({"type": "error", "message": message}))

    def _post(self, served: Served | None, ws: WebSocket, body: str, state: bool = False,
              close: tuple | None = None) -> None:
        """Queue a message for a page (its Outbox's task sends it); nothing waits for the send.
        `close`: (code, reason) — close the socket once what is queued before it is sent."""
        box = self.outboxes.get(ws)
        if box is None:
            box = self.outboxes[ws] = Outbox()
            box.task = asyncio.get_running_loop().create_task(self._writer(served, ws, box))
        if close is not None:
            box.items.append(("close", close))
        elif state and box.items and box.items[-1][0] == "state":
            box.items[-1] = ("state", body)     # (a newer state for the page: the older is news no more)
        else:
            box.items.append(("state" if state else "message", body))
        box.wake.set()

    async def _writer(self, served: Served | None, ws: WebSocket, box: Outbox) -> None:
        """Send a page its messages one after another; one it takes SEND_TIMEOUT to take lets it go
        (its page reconnects and syncs)."""
        try:
            while True:
                while not box.items:
                    box.wake.clear()
                    await box.wake.wait()
                kind, body = box.items.popleft()
                try:
                    if kind == "close":
                        await asyncio.wait_for(ws.close(code=body[0], reason=body[1]), 2)
                        return
                    await asyncio.wait_for(ws.send_text(body), SEND_TIMEOUT)
                except asyncio.TimeoutError:
                    self._drop(served, ws)
                    await self._let_go(ws)
                    return
                except (WebSocketDisconnect, RuntimeError):
                    self._drop(served, ws)
                    return
        finally:
            if self.outboxes.get(ws) is box:
                del self.outboxes[ws]

    def _drop(self, served: Served | None, ws: WebSocket) -> None:
        if served is not None:
            served.sockets.pop(ws, None)
        else:
            for one in self.matches.values():
                one.sockets.pop(ws, None)
        self.outboxes.pop(ws, None)

    async def handle(self, served: Served, seat: int | None, ws: WebSocket, raw: str) -> None:
        """One message from a page: {"type": "act", "text": ..., "version": N} or {"type": "sync"}."""
        if len(raw) > MESSAGE_LIMIT:
            await self._tell(ws, f"a message may hold at most {MESSAGE_LIMIT} characters")
            return
        try:
            msg = safejson.loads(raw, "message")
        except ValueError:                           # (nesting past the depth limit too: JSONLimitError)
            await self._tell(ws, "a message must be JSON, not nested deeper than a move needs")
            return
        if not isinstance(msg, dict) or msg.get("type") not in ("act", "sync", "undo", "answer_undo"):
            await self._tell(ws, 'a message is {"type": "act", "text": ..., "version": ...}, {"type": "sync"}, '
                                 '{"type": "undo", "version": ...} or {"type": "answer_undo", "accept": ...}')
            return
        if msg["type"] == "sync":
            await self.push(served, only=ws)
            return
        if msg["type"] in ("undo", "answer_undo"):
            await self.undo_message(served, seat, ws, msg)
            return
        text, version = msg.get("text"), msg.get("version")
        if isinstance(text, str) and len(text) > ACTION_TEXT_LIMIT:
            await self._tell(ws, f"an action text may hold at most {ACTION_TEXT_LIMIT} characters")
            return
        if not isinstance(text, str) or not text:
            await self._tell(ws, "an action is its text, as the page lists it")
            return
        if type(version) is not int:
            await self._tell(ws, "an action must say which position it was chosen in (version)")
            return
        if seat is None:
            await self._tell(ws, "a spectator cannot act")
            return
        problem = None
        async with served.lock:
            m = served.match
            if served.fault:
                problem = "the match cannot go on"
            elif m.is_over:
                problem = "the game is over"
            elif version != served.page_version:
                problem = "the match has moved on since then: choose again"
            elif served.undo is not None:
                problem = (f"{present.seat_name(served.undo['by'])} has asked to undo their last move: "
                           f"that is answered first")
            else:
                problem = await asyncio.to_thread(self._apply_for, served, seat, text)
        if problem:
            await self._tell(ws, problem)
            await self.push(served, only=ws)
            return
        await self.push(served, seat=seat if served.last_hidden else None)
        self._wake_bots(served)

    async def undo_message(self, served: Served, seat: int | None, ws: WebSocket, msg: dict) -> None:
        """{"type": "undo", "version": N}: a seat asks to take back its last decision (and all played
        since); every other person's seat must accept (bots accept), and none of those actions may
        have told a person something hidden (chance, a card, a private message).
        {"type": "answer_undo", "accept": true|false}: an answer (the asker's false withdraws it)."""
        if seat is None:
            await self._tell(ws, "a spectator cannot ask or answer an undo")
            return
        problem, done = None, False
        async with served.lock:
            undo = served.undo
            if msg["type"] == "undo":
                if type(msg.get("version")) is not int:
                    problem = "an undo must say which position it was asked in (version)"
                elif msg["version"] != served.page_version:
                    problem = "the match has moved on since then: ask again"
                elif undo is not None and undo["by"] == seat:
                    problem = "you have already asked to undo: the others are answering"
                elif undo is not None:
                    problem = f"{present.seat_name(undo['by'])} has already asked to undo: answer that first"
                else:
                    back_to, problem = await asyncio.to_thread(served.undo_target, seat)
                    if problem is None:
                        waiting = set(served.humans()) - {seat}
                        hides = await asyncio.to_thread(served.hidden_by_undo, back_to) if waiting else {}
                        served.undo = {"by": seat, "back_to": back_to, "waiting": waiting, "hides": hides}
                        served.notice = None
                        done = not waiting
            else:
                accept = msg.get("accept")
                if type(accept) is not bool:
                    problem = "an answer to an undo is accept: true or false"
                elif undo is None:
                    problem = "no undo is asked now"
                elif seat == undo["by"]:
                    if not accept:
                        served.undo = None
                        served.notice = f"{present.seat_name(seat)} withdrew their undo"
                    else:
                        problem = "you asked for it: the others answer"
                elif seat not in undo["waiting"]:
                    problem = "you have answered already"
                elif not accept:
                    served.undo = None
                    served.notice = f"{present.seat_name(seat)} declined to undo {present.seat_name(undo['by'])}'s move"
                else:
                    undo["waiting"].discard(seat)
                    done = not undo["waiting"]
            if done:
                problem = await asyncio.to_thread(self._undo_now, served)
                if problem:                      # (the undo asked is over, not done: every page is told)
                    served.notice, problem = problem, None
        if problem:
            await self._tell(ws, problem)
            await self.push(served, only=ws)
            return
        await self.push(served)
        self._wake_bots(served)

    def _undo_now(self, served: Served) -> str | None:
        """Rebuild the match from its seed with the actions before the asker's last decision (under
        the lock, in a worker thread). The store forgets the undone actions."""
        undo, served.undo = served.undo, None
        keep = undo["back_to"]
        try:
            m = served.replayed(keep)
        except (RulelangError, EngineFault) as err:      # (a replay of applied actions: not expected)
            return f"cannot undo: {printable(str(err))[:200]}"
        undone = served.applied - keep - sum(served.sealed[keep:])    # (sealed answers are nobody's news)
        try:                                    # (the store first: one that refuses leaves the match as it was —
            self.store.undo(served.id, served.version + 1, keep)      # it was undone in memory alone, with a
        except sqlite3.Error as err:                                  # traceback: a review)
            why = printable(str(err))[:200]
            print(f"rulelang serve: match {served.id}: an undo could not be saved: {why}", file=sys.stderr)
            return f"cannot undo: the server could not save it ({why}); the match is as it was"
        served.match = m
        del served.texts[keep:], served.actors[keep:], served.crossed[keep:], served.log_who[len(m.log):]
        del served.log_at[keep:], served.sealed[keep:]
        served.unjudged = {i for i in served.unjudged if i < keep}
        served.hidden_why = {k: why for k, why in served.hidden_why.items() if k[0] < keep}
        served.applied = keep
        served.version += 1
        served.page_version += 1
        served.fault = None
        served.thinking = None                  # (a bot thinking on the undone position: its move is dropped)
        served.notice = (f"{present.seat_name(undo['by'])}'s last move was undone"
                         f" ({undone} action{'s' if undone != 1 else ''} taken back)")
        return None

    def _store_move(self, served: Served, text: str) -> None:
        """Keep an applied move in the store; if the store refuses it, no move is played until it is
        undone, said on every page and in one line on the console (it was a traceback, and the match
        went on in memory ahead of its store — an attacker's trial)."""
        try:
            self.store.append(served.id, served.version, text)
        except sqlite3.Error as err:
            why = printable(str(err))[:200]
            served.fault = f"the server could not save the last move ({why}): no move can be played until it is undone"
            print(f"rulelang serve: match {served.id}: a move could not be saved: {why}", file=sys.stderr)

    def _apply_for(self, served: Served, seat: int, text: str) -> str | None:
        """Apply `text` for `seat` if it is one of that seat's own actions now (in a worker thread,
        under the lock); the problem in words otherwise, and the match unchanged."""
        m = served.match
        live = self.matches.get(served.id)
        if live is not None and live is not served:         # (a copy let go, another in its place: never
            return "this match was reloaded meanwhile: open its link again"     # played on — see _socket)
        try:
            together = m.simultaneous is not None      # (each seat asked answers in any order)
            if together or m.current_player == seat:
                mine = {a.text for a in m.legal_actions_of(seat)}
                if not together and m.question is not None:     # (asked: may act at any time first)
                    mine |= {a.text for a in m.interrupts(seat)}
            else:
                mine = {a.text for a in m.interrupts(seat)}
            if text not in mine:
                if not mine:
                    if together and seat in m.simultaneous["seats"]:
                        return "you have answered: the answers are shown once everyone asked has answered"
                    return "it is not your turn" if m.current_player != seat else "you have no action now"
                why = m.refusal(text) if m.current_player == seat else None     # the rules' words, if any
                said = f"`{printable(text)[:80]}` is not one of your actions now"
                if not why:
                    return said
                step = next((x for x in m.game.ir["steps"] if x["name"] == m.step), {})
                named = _named_action(text, m.legal_actions_of(seat), [x["name"] for x in step.get("actions", ())])
                if named is not None:           # (another choice of it is legal: the rules' reason may not
                    return (f"{said} (other {named} choices are; when {named} is not allowed, "  # be this one's —
                            f"the rules say: {printable(why)[:200]})")    # `play 4♦` of a card another holds)
                return f"{said}: {printable(why)[:200]}"
            if together and seat != m.current_player:
                text = f"{present.seat_name(seat)}: {text}"   # (whose answer: the log replays it so)
            served.play(text, seat)
        except IllegalAction as err:
            return printable(str(err))[:300]
        except (RulelangError, EngineFault) as err:
            return f"rule error: {printable(str(err))[:300]} (the match is unchanged)"
        self._store_move(served, text)
        return None

    async def push(self, served: Served, only: WebSocket | None = None, seat: int | None = None,
                   skip: WebSocket | None = None) -> None:
        """Send each connected page its seat's state now (one computation per seat); `only`: to
        that page, `seat`: to that seat's pages (a secret answer is news to its seat alone); `skip`:
        not to that page."""
        sockets = [(ws, s) for ws, s in list(served.sockets.items())
                   if (only is None or ws is only) and (seat is None or s == seat) and ws is not skip]
        if not sockets:
            return
        async with served.lock:
            seats = {s for _, s in sockets}
            bodies = await asyncio.to_thread(lambda: {s: self.drawn(served, s) for s in seats})
        # queued for each page, whose own task sends it: a page that never reads (a phone whose
        # network froze) held the mover's send for ever (a fuzzer), then SEND_TIMEOUT (a browser trial)
        for ws, s in sockets:
            self._post(served, ws, bodies[s], state=True)

    @staticmethod
    async def _let_go(ws: WebSocket) -> None:
        """Close a page's socket that stopped reading, without waiting on it for long."""
        try:
            await asyncio.wait_for(ws.close(code=1013, reason="the page did not keep up; reconnect"), 2)
        except Exception:                       # (closing a stalled socket may fail or time out: it is gone)
            pass

    # ---- bots -------------------------------------------------------------------------------------
    def _wake_bots(self, served: Served) -> None:
        if served.bots and (served.bot_task is None or served.bot_task.done()):
            try:
                served.bot_task = asyncio.get_running_loop().create_task(self._bots(served))
            except RuntimeError:                   # no loop running (a match made outside the server)
                pass

    async def _bots(self, served: Served) -> None:
        """While a bot is to act: it thinks on a copy (in a worker thread, the match free for
        others' out-of-turn actions), then its action is applied if the match has not moved on. At a
        simultaneous step nothing is pushed while a bot thinks or answers (unless its answer is the
        last one): when an answer came is no page's business."""
        unsaid = False                              # (a page shows a bot thinking that has stopped)
        while True:
            async with served.lock:
                m = served.match
                seat = m.current_player
                if m.is_over or served.fault or seat not in served.bots or served.undo is not None:
                    served.thinking = None          # (an undo asked: the bots wait for its answer)
                    break
                secret = m.simultaneous is not None     # (who is still to answer is told to nobody)
                served.thinking = None if secret else seat
                copy, version = m.clone(), served.version
            if not secret or unsaid:                # (a thinking shown before: said to be over now,
                await self.push(served)             # never after a secret answer, whose time it would tell)
                unsaid = not secret
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            kind = served.seats[seat]
            # (seeded by the position, not by the version: asked again after an undo, a bot answers
            # the same — else a person could undo and ask until its answers told its hidden cards,
            # a new author's Liar's Dice)
            seed = bot_seed(served.seed + len(copy.log), seat)
            # a search, or a look one action ahead at each of its actions (`greedy`: 0.09 s a decision in
            # a war game, holding the interpreter; 30 matches of greedy bots took every other table's
            # moves from 8 ms to 2.6 s — an attacker's trial): in a worker process, the addresses in turn
            if kind.startswith("ismcts") or kind == "greedy":
                state = await asyncio.to_thread(copy.state)
                status, text = await self.pool.choose(served.maker, served.entry.path, served.entry.game.fingerprint, state,
                                                      kind, seed)
            else:                                  # a random pick: in a worker thread, on a copy
                try:
                    bot = make_bot(kind, seed, watched=True)
                    status, text = "ok", (await asyncio.to_thread(bot.choose, copy)).text
                except (RulelangError, EngineFault) as err:
                    status, text = "error", printable(str(err))[:300]
            if status != "ok":
                served.fault = f"a bot met a rule error: {text}"
                served.thinking = None
                break
            async with served.lock:
                if served.version != version or served.match.current_player != seat or served.undo is not None:
                    continue
                try:
                    await asyncio.to_thread(served.play, text, seat)
                except (RulelangError, EngineFault) as err:
                    served.fault = f"a bot met a rule error: {printable(str(err))[:300]}"
                    served.thinking = None
                    break
                served.thinking = None
                self._store_move(served, text)
            if not served.last_hidden:
                await self.push(served)
                unsaid = False
        if unsaid or served.fault:
            await self.push(served)


def _is_loopback_name(host: str | None) -> bool:
    """`localhost`, `127.x.x.x` or `::1`: a name only this computer answers to."""
    return host is not None and (host == "localhost" or host.endswith(".localhost") or host == "::1"
                                 or host.startswith("127."))


def _hostname(url: str) -> str | None:
    """The host name of a URL, None when it has none that parses (`Origin: http://[` raised
    ValueError: a 500 and a traceback, a socket trial)."""
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _key(stem: str, taken: dict) -> str:
    key = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in stem.lower())[:40] or "game"
    base, n = key, 2
    while key in taken:
        key, n = f"{base}-{n}", n + 1
    return key


def _seat_kind(kind) -> str:
    """A seat's kind: human, or a bot kind as the command line takes it (bots.parse_kind: random,
    greedy, ismcts, ismcts:N, ismcts:0.5s), within the lobby's limits. Not `mcts`: it sees every
    hidden component, and a seat at a table plays only from what it may know."""
    if kind == HUMAN:
        return HUMAN
    said = "a seat is human, random, greedy or ismcts[:N|:SECONDSs]"
    if not isinstance(kind, str) or len(kind) > 20:
        raise ValueError(said)
    try:
        name, iterations, seconds = parse_kind(kind)
    except ValueError:
        name, _, budget = kind.partition(":")
        if name == "ismcts" and budget.isdigit() and budget.isascii():
            iterations, seconds = MAX_ISMCTS + 1, None     # (0, or too many to parse: said as the range)
        else:
            raise ValueError(f"no bot {printable(repr(kind))}: {said}") from None
    if name == "mcts":
        raise ValueError(f"no bot {printable(repr(kind))}: mcts sees the hidden cards; {said}")
    if iterations is not None and iterations > MAX_ISMCTS:
        raise ValueError(f"an ismcts bot needs a budget of 1..{MAX_ISMCTS} iterations (ismcts:200)")
    if seconds is not None and seconds > MAX_BOT_SECONDS:
        raise ValueError(f"an ismcts bot may think at most {MAX_BOT_SECONDS:g} s per move (ismcts:0.5s)")
    return kind


def _worded_for(text: str | None, seat: int | None) -> str | None:
    """A line about undoing as `seat` reads it: its own seat as `you` (`P1's last move was undone`
    on P1's page reads `your last move was undone`, after its status; a browser trial)."""
    if text is None or seat is None:
        return text
    me = present.seat_name(seat)
    for mine, yours in ((f"told {me} about what was hidden from them", "told you about what was hidden from you"),
                        (f"{me} has seen a card that was hidden from them", "you have seen a card that was hidden from you"),
                        (f"{me}'s ", "your "), (f"{me} has ", "you have "),
                        (f"{me} withdrew their ", "you withdrew your "), (f"{me} declined ", "you declined ")):
        text = text.replace(mine, yours)
    return text


SPEC_FIELDS = ("game", "players", "options", "seats", "seed", "invite")     # what POST /api/matches reads


def _error(message: str, status: int = 400) -> Response:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


def _error_page(message: str, status: int) -> Response:
    import html
    text = html.escape(message)
    return HTMLResponse(f"<!doctype html><meta charset=utf-8><link rel=icon href='data:,'><meta name=viewport content='width=device-width'>"
                        f"<title>rulelang</title><link rel=stylesheet href='/static/style.css'>"
                        f"<main class=page><h1>{text}</h1><p><a href='/'>Back to the lobby</a></p></main>",
                        status_code=status, headers=SECURITY_HEADERS)


def _join_page(game: str, free: int, seats: int) -> Response:
    """What an invite shows before a seat is taken: the game, how many seats are free, and the
    button that takes one (a form posted to the same address: no script needed)."""
    import html
    name = html.escape(printable(game))
    return HTMLResponse(f"<!doctype html><meta charset=utf-8><link rel=icon href='data:,'><meta name=viewport content='width=device-width'>"
                        f"<title>{name}: take a seat</title><link rel=stylesheet href='/static/style.css'>"
                        f"<main class=page><h1>{name}</h1><p>You are invited to play: {free} of {seats} "
                        f"seat{'s' if seats != 1 else ''} still free.</p>"
                        f"<form method=post><button type=submit id=take-seat>Take a seat</button></form>"
                        f"<p class=small>Your seat is kept in this browser: opening the invite here again leads "
                        f"back to it. On another device, use the address of your table, not the invite (it "
                        f"would take a second seat).</p></main>",
                        headers=SECURITY_HEADERS)


def create_app(rules: list[str] | None = None, store: str = ":memory:", bot_delay: float = 0.0,
               include_shipped: bool = True, keep_days: float = KEEP_DAYS):
    """The ASGI application (and its Server) for these rule files."""
    server = Server(rules, store, bot_delay, include_shipped, keep_days)
    return server.app, server
