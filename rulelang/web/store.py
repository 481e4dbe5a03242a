"""Where served matches are kept: one SQLite file, written on every action.

A match is stored as its save (the rules' path and fingerprint, player count, seed, options, and
the texts of the actions applied, in order, each numbered by the match's change count; an undo
deletes the actions it takes back and records its own change number in `undos`), its seats (human or a bot kind), the SHA-256 of
each link's token (never the token itself: whoever reads the file cannot use the links) and of the
address that made it (its bots take their turns at the workers with that address's other matches), and
when it was last played (an action, an undo, a seat taken, its rebuilding from the store). After a restart a match is rebuilt by
replaying its actions from the seed, the first time a link of it is opened. A match not played for
the server's `keep` time is deleted (`prune`): a server open to others kept every match for good,
each a few kB, and anyone could have it make one every two seconds.
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time

from ..core import safejson

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY, rules TEXT NOT NULL, fingerprint TEXT NOT NULL, game TEXT NOT NULL,
    players INTEGER NOT NULL, seed INTEGER NOT NULL, options TEXT NOT NULL, seats TEXT NOT NULL,
    tokens TEXT NOT NULL, created REAL NOT NULL, maker TEXT NOT NULL DEFAULT '',
    touched REAL NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS actions (
    match TEXT NOT NULL, n INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (match, n));
CREATE TABLE IF NOT EXISTS undos (
    match TEXT NOT NULL, version INTEGER NOT NULL, kept INTEGER NOT NULL, PRIMARY KEY (match, version));
"""


STORE_COLUMNS = {"matches": ("id", "rules", "fingerprint", "game", "players", "seed", "options", "seats", "tokens",
                             "created", "maker", "touched"),
                 "actions": ("match", "n", "text"), "undos": ("match", "version", "kept")}


class Store:
    def __init__(self, path: str):
        self.path = str(path)
        self.lock = threading.Lock()
        try:                                    # (a file that is no database, a folder, a device: said so)
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            with self.lock:
                wrong = self.not_a_store()      # (before anything is written: a file of another program is
                if not wrong:                   # left as it was — a review)
                    self.db.execute("PRAGMA journal_mode=WAL")
                    self.db.executescript(SCHEMA)
                    columns = [row[1] for row in self.db.execute("PRAGMA table_info(matches)")]
                    if "maker" not in columns:  # (a store written before the column: its matches had none)
                        self.db.execute("ALTER TABLE matches ADD COLUMN maker TEXT NOT NULL DEFAULT ''")
                    if "touched" not in columns:    # (a store written before the column: its matches count
                        self.db.execute("ALTER TABLE matches ADD COLUMN touched REAL NOT NULL DEFAULT 0")
                        self.db.execute("UPDATE matches SET touched = ?", (time.time(),))   # as played now)
        except sqlite3.Error as error:
            raise ValueError(f"cannot use {self.path} as the server's store: {error}") from None
        if wrong:
            self.db.close()
            raise ValueError(f"cannot use {self.path} as the server's store: {wrong}")

    def not_a_store(self) -> str | None:
        """What makes the file no store of ours, if anything: no table but the store's, each with its
        columns, and no view or trigger (a file whose `matches` was a view over an endless query held the store's lock
        for good on the first link opened, and then every request: an attacker's trial)."""
        found = {name: kind for kind, name in self.db.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')")}
        for name, kind in found.items():
            if kind != "table" or name not in STORE_COLUMNS:
                return f"it holds a {kind} (`{name}`), which a store never has"
        for table, wanted in STORE_COLUMNS.items():
            if table not in found:              # (made below: a new store, or one from before `undos`)
                continue
            columns = [row[1] for row in self.db.execute(f"PRAGMA table_info({table})")]
            older = (set(wanted) - {"touched"}, set(wanted) - {"touched", "maker"})   # (columns added since)
            if sorted(columns) not in [sorted(wanted)] + [sorted(x) for x in older]:
                return f"its table `{table}` has other columns than a store's ({', '.join(wanted)})"
        return None

    def create(self, mid: str, rules: str, fingerprint: str, game: str, players: int, seed: int,
               options: dict, seats: list, tokens: dict, maker: str = "") -> None:
        with self.lock:
            now = time.time()
            self.db.execute("INSERT INTO matches (id, rules, fingerprint, game, players, seed, options, seats, "
                            "tokens, created, maker, touched) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                            (mid, rules, fingerprint, game, players, seed, json.dumps(options),
                             json.dumps(seats), json.dumps(tokens), now, maker, now))

    def tokens(self, mid: str) -> dict | None:
        """A match's link tokens (their hashes), None if there is no such match: read before a match
        is rebuilt, so that a wrong link costs no replay (a socket trial's 30 wrong links to one
        match replayed it 30 times at once and held up every table for 27 s)."""
        with self.lock:
            row = self.db.execute("SELECT tokens FROM matches WHERE id = ?", (mid,)).fetchone()
        try:
            found = safejson.loads(str(row[0]), "stored match") if row is not None else None
        except ValueError:
            return None
        return found if isinstance(found, dict) else None

    def set_tokens(self, mid: str, tokens: dict) -> None:
        """A match's link tokens (their hashes) now: a seat taken through its invite link."""
        with self.lock:
            self.db.execute("UPDATE matches SET tokens = ?, touched = ? WHERE id = ?",
                            (json.dumps(tokens), time.time(), mid))

    def append(self, mid: str, version: int, text: str) -> None:
        """An action applied, as the match's change number `version` (they only grow)."""
        with self.lock, self._transaction():
            self.db.execute("INSERT INTO actions VALUES (?,?,?)", (mid, version, text))
            self.db.execute("UPDATE matches SET touched = ? WHERE id = ?", (time.time(), mid))

    def undo(self, mid: str, version: int, kept: int) -> None:
        """An undo, the match's change number `version`: only its first `kept` actions stay."""
        with self.lock, self._transaction():
            self.db.execute("DELETE FROM actions WHERE match = ? AND n IN "
                            "(SELECT n FROM actions WHERE match = ? ORDER BY n LIMIT -1 OFFSET ?)", (mid, mid, kept))
            self.db.execute("INSERT INTO undos VALUES (?,?,?)", (mid, version, kept))
            self.db.execute("UPDATE matches SET touched = ? WHERE id = ?", (time.time(), mid))

    PRUNE_CHUNK = 500               # matches deleted under one hold of the lock

    def prune(self, before: float, keep=frozenset()) -> int:
        """Delete the matches last played before `before` (a time.time()), with their actions and
        undos, but those in `keep` (the ones a server holds open); how many went. A few hundred at a
        time, the lock let go between them: a server making a match or storing a move waits for
        one such chunk, not for the whole prune (a review: 50,000 old matches froze every page for
        3 s). A match read by `get` meanwhile was touched by it, so it is kept."""
        gone, last = 0, ""
        while True:
            with self.lock, self._transaction(immediate=True):
                ids = [mid for (mid,) in self.db.execute(
                    "SELECT id FROM matches WHERE touched < ? AND id > ? ORDER BY id LIMIT ?",
                    (before, last, self.PRUNE_CHUNK))]
                old = [(mid,) for mid in ids if mid not in keep]
                for table, column in (("actions", "match"), ("undos", "match"), ("matches", "id")):
                    self.db.executemany(f"DELETE FROM {table} WHERE {column} = ?", old)
            gone += len(old)
            if len(ids) < self.PRUNE_CHUNK:
                return gone
            last = ids[-1]

    @contextlib.contextmanager
    def _transaction(self, immediate: bool = False):
        """One transaction, rolled back if anything in it fails (left open, every later write went
        into it and was lost when the server stopped — a review). `immediate`: it writes after
        reading, so it takes the write lock first and waits for another program's (a deferred one
        that reads first failed at once with "database is locked" — a review)."""
        self.db.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
        try:
            yield
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def get(self, mid: str) -> dict | None:
        """A stored match, to be rebuilt; reading it counts as playing it (`touched`), in the same
        hold of the lock as the read, so a prune never deletes a match being rebuilt (a review: one
        deleted while it was replayed was then played in memory, and lost at the next restart)."""
        with self.lock:
            try:
                self.db.execute("UPDATE matches SET touched = ? WHERE id = ?", (time.time(), mid))
            except sqlite3.OperationalError:    # (a store that cannot be written is not pruned either:
                pass                            # its matches are still read)
            row = self.db.execute("SELECT rules, fingerprint, game, players, seed, options, seats, tokens, maker "
                                  "FROM matches WHERE id = ?", (mid,)).fetchone()
            if row is None:
                return None
            rows = self.db.execute("SELECT n, text FROM actions WHERE match = ? ORDER BY n", (mid,)).fetchall()
            (undone,) = self.db.execute("SELECT MAX(version) FROM undos WHERE match = ?", (mid,)).fetchone()
        # (SQLite keeps any type in any column: a text change number or a BLOB action was a 500 and a
        # traceback in the server's log — a fuzzer's tampered store)
        if any(type(n) is not int or not isinstance(t, str) for n, t in rows) or undone is not None and type(undone) is not int:
            raise ValueError("its record is damaged in the store")
        actions = [t for _, t in rows]
        version = max([rows[-1][0] if rows else 0, undone or 0])
        rules, fingerprint, game, players, seed, options, seats, tokens, maker = row
        try:                                    # (a damaged row: 100,000 `[` raised a RecursionError — a fuzz trial)
            options, seats, tokens = (safejson.loads(str(x), "stored match") for x in (options, seats, tokens))
        except ValueError:
            raise ValueError("its record is damaged in the store") from None
        return {"id": mid, "rules": rules, "fingerprint": fingerprint, "game": game, "players": players,
                "seed": seed, "options": options, "seats": seats,
                "tokens": tokens, "actions": actions, "version": version, "maker": maker}

    def close(self) -> None:
        with self.lock:
            self.db.close()
