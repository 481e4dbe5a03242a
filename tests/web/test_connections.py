"""The connections the server accepts, over real sockets: one that never finishes its request is
closed, an address may hold only so many, and neither limit touches a page playing (a websocket)."""
from __future__ import annotations

import asyncio
import http.client
import socket
import time

import pytest

from .conftest import SMALL, get
from .test_server import connect, make

QUICK = 0.6          # the request deadline these servers get (the real one: 15 s)...
SLOW = 2.5           # ...and where a test must act inside it (room for a busy machine)


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Has the server closed `sock` (end of stream, or reset) within `seconds`?"""
    sock.settimeout(seconds)
    try:
        while True:
            if not sock.recv(4096):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def _open(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=5)


def test_a_connection_that_never_finishes_its_request_is_closed(serve):
    server = serve([SMALL], include_shipped=False, request_timeout=SLOW)
    silent = _open(server.url)
    assert not _closed_within(silent, SLOW / 8)             # (not closed before its deadline)
    half_head, half_body = _open(server.url), _open(server.url)
    half_head.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
    half_body.sendall(b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{\"game\"")
    for sock in (silent, half_head, half_body):
        assert _closed_within(sock, 10), "a connection short of a whole request was kept open"
        sock.close()
    code, _ = get(server.url + "/api/games")                # and a whole request is answered
    assert code == 200


def test_a_kept_alive_connection_gets_a_new_deadline_after_each_answer(serve):
    server = serve([SMALL], include_shipped=False, request_timeout=SLOW)
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=5)
    for _ in range(3):       # three requests on one connection, each inside its own deadline, together past one
        conn.request("GET", "/api/games")
        answer = conn.getresponse()
        assert answer.status == 200 and answer.read()
        assert conn.sock is not None, "the server closed a kept-alive connection that was answered"
        time.sleep(SLOW * 0.4)
    conn.close()


def test_an_address_may_hold_only_so_many_connections(serve):
    server = serve([SMALL], include_shipped=False, per_address=3, uncapped=frozenset())
    held = [_open(server.url) for _ in range(3)]
    extra = _open(server.url)
    assert _closed_within(extra, 5), "a fourth connection from one address was kept"
    for sock in held:                       # the three it holds are served
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(64).startswith(b"HTTP/1.1 200")
        sock.close()
    for _ in range(100):                     # (closed: the address may connect again, once the server
        try:                                 # has seen them go)
            code, _ = get(server.url + "/api/games")
            break
        except (OSError, http.client.HTTPException):
            time.sleep(0.05)
    assert code == 200


def test_a_playing_page_is_kept_past_the_request_deadline(serve):
    server = serve([SMALL], include_shipped=False, request_timeout=QUICK)
    match = make(server, "small", ["human", "human"])

    async def go():
        seat = await connect(match["links"][0]["url"])
        await asyncio.sleep(QUICK * 3)
        await seat.ws.send('{"type": "sync"}')         # still open, still answered
        msg = await seat.recv()
        await seat.ws.close()
        return msg
    assert asyncio.run(go())["type"] == "state"


def test_a_wrong_method_is_told_which_the_address_takes(serve):
    server = serve([SMALL], include_shipped=False)
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=5)
    conn.request("GET", "/api/matches")
    answer = conn.getresponse()
    body = answer.read().decode()
    assert answer.status == 405 and answer.getheader("Allow") == "POST"
    assert "GET is not taken here; this address takes POST" in body
    conn.request("DELETE", "/")                    # a page's address: said as a page
    answer = conn.getresponse()
    assert answer.status == 405 and "<!doctype html>" in answer.read().decode()
    conn.close()


def test_the_bot_workers_take_each_address_in_turn():
    """One address's many slow bots delay another address's bot by one move at most."""
    from rulelang.web.server import BotPool

    started = []

    class Workers:                          # stands for the worker processes: a move ends when told
        def apply_async(self, fn, args, callback, error_callback):
            started.append((args, callback))

    async def go():
        bots = BotPool(workers=1)
        bots.pool = Workers()
        asked = [asyncio.ensure_future(bots.choose(who, who + str(n))) for who, n in
                 [("hog", 1), ("hog", 2), ("hog", 3), ("friend", 1)]]
        await asyncio.sleep(0)
        order = []
        while len(order) < 4:
            await asyncio.sleep(0.01)
            assert len(started) == len(order) + 1, "not one move at a time on one worker"
            args, done = started[-1]
            order.append(args[0])
            done(("ok", args[0]))
        assert [await a for a in asked] == [("ok", x) for x in ("hog1", "hog2", "hog3", "friend1")]
        return order
    assert asyncio.run(go()) == ["hog1", "friend1", "hog2", "hog3"]


def test_a_bot_move_no_longer_wanted_is_not_started():
    from rulelang.web.server import BotPool

    started = []

    class Workers:
        def apply_async(self, fn, args, callback, error_callback):
            started.append((args, callback))

    async def go():
        bots = BotPool(workers=1)
        bots.pool = Workers()
        first = asyncio.ensure_future(bots.choose("a", "a1"))
        second = asyncio.ensure_future(bots.choose("b", "b1"))
        await asyncio.sleep(0.01)
        second.cancel()                      # (its match moved on while it waited)
        await asyncio.sleep(0.01)
        started[0][1](("ok", "a1"))
        await first
        await asyncio.sleep(0.01)
        return [args[0] for args, _ in started], bots.busy, bots.waiting
    assert asyncio.run(go()) == (["a1"], 0, {})


def test_an_origin_or_host_that_does_not_parse_is_refused_in_words(serve):
    """A socket trial: `Origin: http://[` (or `Host: [x` beside an Origin) made `urlsplit` raise: a
    500 page saying "the match is unchanged", and a traceback in the server's log."""
    server = serve([SMALL], include_shipped=False)
    for headers in ({"Origin": "http://["}, {"Host": "[x", "Origin": "http://a"}):
        sock = _open(server.url)
        body = b'{"game": "small"}'
        head = "".join(f"{k}: {v}\r\n" for k, v in {"Host": "x", **headers}.items())
        sock.sendall(f"POST /api/matches HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
                     f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        sock.close()
        assert answer.startswith(b"HTTP/1.1 403"), answer[:200]
        assert b"a page of another site may not make matches here" in answer


def test_a_text_frame_of_invalid_utf8_closes_the_socket_with_one_line_logged(serve):
    """A socket trial: one text frame of invalid UTF-8 put a traceback in the server's log (uvicorn
    logs it with the exception), once per connection: the log could be flooded."""
    import base64
    import logging
    import os
    server = serve([SMALL], include_shipped=False)
    match = make(server, "small", ["human", "human"])
    records = []
    collect = logging.Handler()
    collect.emit = records.append
    logging.getLogger("uvicorn.error").addHandler(collect)
    try:
        sock = _open(server.url)
        path = match["links"][0]["path"].replace("/play/", "/ws/")
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
                     f"Sec-WebSocket-Version: 13\r\n\r\n".encode())
        assert sock.recv(12) == b"HTTP/1.1 101"
        mask = os.urandom(4)
        sock.sendall(bytes([0x81, 0x82]) + mask + bytes(c ^ mask[i % 4] for i, c in enumerate(b"\xff\xfe")))
        got = b""
        while b"\x88\x02\x03\xef" not in got:           # a close frame, code 1007 (invalid data)
            chunk = sock.recv(65536)
            assert chunk, got[-40:]
            got += chunk
        sock.close()
    finally:
        logging.getLogger("uvicorn.error").removeHandler(collect)
    said = [r for r in records if "UTF-8" in r.getMessage()]
    assert said and all(r.exc_info is None and r.exc_text is None for r in said)


def test_links_to_a_match_not_in_memory_rebuild_it_once_and_wrong_ones_never(serve, tmp_path, monkeypatch):
    """A socket trial: after a restart, 30 requests with wrong tokens to one match id replayed the
    match 30 times at once (the token was checked after the replay) and held up another table's
    move for 27 s. A wrong link costs no replay; right ones asking at once share one."""
    from concurrent.futures import ThreadPoolExecutor
    from rulelang.web import server as web
    server = serve([SMALL], store=tmp_path / "s.sqlite", include_shipped=False)
    match = make(server, "small", ["human", "human"])
    mid = match["id"]
    server.server.matches.pop(mid)                       # (let go, as past the 1,000 held, or a restart)
    rebuilt = []
    real = web.Server._restore

    async def counted(self, m):
        rebuilt.append(m)
        return await real(self, m)
    monkeypatch.setattr(web.Server, "_restore", counted)
    wrong = [f"{server.url}/api/play/{mid}/wrong{i}" for i in range(10)]
    right = [server.url + match["links"][0]["path"].replace("/play/", "/api/play/")] * 10
    with ThreadPoolExecutor(10) as pool:
        assert {code for code, _ in pool.map(get, wrong)} == {404}
        assert rebuilt == []
        assert {code for code, _ in pool.map(get, right)} == {200}
    assert rebuilt == [mid]


def test_a_rebuilt_match_keeps_the_turn_of_the_address_that_made_it(serve, tmp_path):
    """A socket trial: after a restart each of one address's matches took a turn of its own at the
    bot workers (their maker was forgotten), and another table's bot waited 25 s, not 3."""
    from rulelang.web.server import _hash
    server = serve([SMALL], store=tmp_path / "s.sqlite", include_shipped=False)
    match = make(server, "small", ["human", "human"])
    assert server.server.matches[match["id"]].maker == _hash("127.0.0.1")
    server.server.matches.pop(match["id"])
    code, _ = get(server.url + match["links"][0]["path"].replace("/play/", "/api/play/"))
    assert code == 200 and server.server.matches[match["id"]].maker == _hash("127.0.0.1")


def test_an_address_a_proxy_forwards_may_hold_only_so_many_pages(serve):
    """A socket trial: behind the nginx the docs show, every connection comes from loopback (no cap
    of its own), and one client's 4,000 websockets locked every page out. The pages an address holds
    are counted as the proxy names it (`X-Forwarded-For`)."""
    import websockets
    server = serve([SMALL], include_shipped=False)
    server.server.pages_per_address = 2
    match = make(server, "small", ["human", "human"])
    url = match["links"][0]["url"].replace("http://", "ws://").replace("/play/", "/ws/")

    async def go():
        held = [await websockets.connect(url, additional_headers={"X-Forwarded-For": "203.0.113.9"})
                for _ in range(2)]
        for ws in held:
            assert (await asyncio.wait_for(ws.recv(), 10))
        extra = await websockets.connect(url, additional_headers={"X-Forwarded-For": "203.0.113.9"})
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(extra.recv(), 10)
        other = await websockets.connect(url, additional_headers={"X-Forwarded-For": "198.51.100.7"})
        assert (await asyncio.wait_for(other.recv(), 10))
        for ws in held + [other]:
            await ws.close()
        return closed.value.rcvd.code
    assert asyncio.run(go()) == 1013


def test_a_lobby_bot_given_a_count_stops_at_the_lobbys_most_time_too(monkeypatch):
    """A socket trial: `ismcts:5000` took 16 s of CPU a move in Dozen War, past the 10 s the lobby
    gives a bot at most (and past what the workers' turns by address promise)."""
    from rulelang.web import server as web
    made = []
    real = web.make_bot
    monkeypatch.setattr(web, "make_bot", lambda *a, **k: made.append(real(*a, **k)) or made[-1])
    game = web.load_game(str(SMALL))
    state = game.new_match(2, 1).state()
    for kind in ("ismcts:3", "ismcts:0.2s"):
        assert web._bot_move(str(SMALL), game.fingerprint, state, kind, 1)[0] == "ok"
    assert (made[0].iterations, made[0].cap) == (3, web.MAX_BOT_SECONDS)
    assert (made[1].seconds, made[1].cap) == (0.2, None)


def test_a_client_that_stops_reading_its_answers_is_let_go(serve):
    """A socket trial: 50 connections asked for a rulebook many times over and never read it; the
    server held them a minute (its deadline skips a connection whose answer is being sent)."""
    server = serve([SMALL], include_shipped=False, write_timeout=1.0)
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, int(port)))
    sock.sendall(b"GET /rules/small HTTP/1.1\r\nHost: x\r\n\r\n" * 4000)
    reset = False
    for _ in range(200):                     # never reading: the server's buffers fill, its writes pause,
        time.sleep(0.1)                      # and past 1 s it lets the client go (a byte sent then fails)
        try:
            sock.send(b"\r\n")
        except (ConnectionResetError, BrokenPipeError):
            reset = True
            break
    sock.close()
    assert reset, "a client that read nothing was held 20 s"
