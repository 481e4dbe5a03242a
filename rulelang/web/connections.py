"""Connections `rulelang serve` accepts, and how long it waits for them.

uvicorn closes a kept-alive connection that stays idle, but not one that never finishes its request:
a web-server trial held 20,400 sockets open that sent nothing (or half a request), until the server
ran out of file descriptors and the pages of every table stalled. Here each HTTP connection has a
deadline for its whole request (head and body), from its opening and again after each response; an
address may hold only so many connections at once, and the server only so many in all. A websocket,
once upgraded, is the websockets library's: its pings find a page that went away.
"""
from __future__ import annotations

import logging
import resource

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = 15.0        # seconds a connection has to send a whole request (a 16 kB lobby request at most)
PER_ADDRESS = 100             # connections one address may hold at once (a browser opens ~6, and 1 per table)
WRITE_TIMEOUT = 30.0          # seconds an answer may wait for a client that stopped reading it
LOOPBACK = frozenset({"127.0.0.1", "::1"})   # a proxy on this computer speaks for everyone: not capped per address


def most_connections() -> int:
    """Connections the server holds at most: half its file descriptors (the store, the bot workers,
    the rule files and the pages it sends need the rest), between 100 and 4,000."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 4000
    return max(100, min(4000, soft // 2))


def guarded(request_timeout: float = REQUEST_TIMEOUT, per_address: int = PER_ADDRESS,
            total: int | None = None, uncapped: frozenset = LOOPBACK, write_timeout: float = WRITE_TIMEOUT) -> type:
    """uvicorn's HTTP protocol with these limits (a class per set of limits: uvicorn makes the protocol
    objects itself)."""
    total = most_connections() if total is None else total

    class Guarded(H11Protocol):
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            host = self.client[0] if self.client else ""
            if len(self.connections) > total or (host not in uncapped and per_address < sum(
                    1 for c in self.connections if c.client and c.client[0] == host)):
                transport.abort()              # (no answer: an answer is what a flood wants)
                return
            self._deadline_round = 0
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def _arm(self) -> None:
            self._deadline_round += 1
            self.loop.call_later(request_timeout, self._too_slow, self._deadline_round)

        def _too_slow(self, round_: int) -> None:
            """Close a connection still short of a whole request since it was armed (not one whose
            request the application is answering, nor one upgraded to a websocket)."""
            if round_ != self._deadline_round or self.transport.is_closing() \
                    or self.transport.get_protocol() is not self:
                return
            answering = self.cycle is not None and self.cycle.response_started and not self.cycle.response_complete
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not answering:
                self.transport.close()

        # a client that stops reading an answer (its buffers full) is let go after write_timeout: a
        # socket trial held 50 connections for a minute, each with a rulebook it never read
        def pause_writing(self) -> None:
            super().pause_writing()
            if getattr(self, "_stalled", None) is None:
                self._stalled = self.loop.call_later(write_timeout, self._stopped_reading)

        def resume_writing(self) -> None:
            super().resume_writing()
            stalled, self._stalled = getattr(self, "_stalled", None), None
            if stalled is not None:
                stalled.cancel()

        def _stopped_reading(self) -> None:
            self._stalled = None
            if not self.transport.is_closing() and self.transport.get_protocol() is self:
                self.transport.abort()         # (close would wait to send what it never reads)

    return Guarded


CLIENT_FAULTS = frozenset({"Invalid UTF-8 sequence received from client."})


class _ClientFaultsInOneLine(logging.Filter):
    """A client's malformed frame is the client's doing, said in one line: uvicorn logs it with a
    traceback (a socket trial sent one text frame of invalid UTF-8 per connection, a traceback each)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.getMessage() in CLIENT_FAULTS:
            record.exc_info, record.exc_text = None, None
        return True


ONE_LINE = _ClientFaultsInOneLine()


def uvicorn_options(**limits) -> dict:
    """How `rulelang serve` runs uvicorn (the tests' servers too): these limits, websocket messages of
    64 kB at most, a ping every 20 s (a page that does not answer within 20 s more is let go)."""
    logging.getLogger("uvicorn.error").addFilter(ONE_LINE)
    return dict(http=guarded(**limits), log_level="warning", ws_max_size=65536, ws_ping_interval=20,
                ws_ping_timeout=20, timeout_graceful_shutdown=2)
