"""`rulelang serve`: play rule files in the browser, each player on their own device (docs/serve.md).

Starlette, uvicorn and websockets are core dependencies: a plain `pip install .` serves.
"""
from __future__ import annotations

import os
import signal
import socket
import sys
import threading
from pathlib import Path

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def default_store() -> str:
    """Where matches are kept between runs: $XDG_DATA_HOME/rulelang/serve.sqlite (or ~/.local/share/...)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "rulelang" / "serve.sqlite")


def serve(rules: list[str], host: str = "127.0.0.1", port: int = 8000, store: str | None = None,
          bot_delay: float = 0.5, keep_days: float | None = None) -> int:
    """Run the server until Ctrl-C. Returns an exit code."""
    try:
        import uvicorn
        from .connections import uvicorn_options
        from .server import KEEP_DAYS, create_app
    except ImportError:
        print("rulelang serve needs Starlette and uvicorn (dependencies of rulelang): pip install .",
              file=sys.stderr)
        return 1
    problem = cannot_listen(host, port)
    if problem:                     # (said before "open … in a browser", not as uvicorn's exit 3 after it)
        print(f"error: cannot listen on {host or '(no host)'}:{port}: {problem}", file=sys.stderr)
        return 1
    store = store or default_store()
    if store != ":memory:":
        Path(store).parent.mkdir(parents=True, exist_ok=True)
    print("loading the games...", flush=True)
    keep_days = KEEP_DAYS if keep_days is None else keep_days
    app, server = create_app(rules, store, bot_delay, keep_days=keep_days)
    shown = f"[{host}]" if ":" in host else host
    kept = f"one nobody plays for {keep_days:g} days is deleted" if keep_days else "for good"
    print(f"rulelang serve: {len(server.entries)} games, matches kept in {store} ({kept})")
    print(f"open http://{shown if host not in ('0.0.0.0', '::') else 'localhost'}:{port}/ in a browser")
    if host in LOOPBACK:
        print("only this computer can connect; to play with others on your network: "
              f"rulelang serve --host 0.0.0.0 --port {port} (then open http://THIS-COMPUTER'S-ADDRESS:{port}/)")
    else:
        print("anyone who can reach this address can open the lobby and start matches; each seat's link "
              "is its own secret (see docs/serve.md for a reverse proxy with HTTPS)")
    print("Ctrl-C stops the server", flush=True)
    # (uvicorn stops on SIGTERM, then raises it again with the handler it found: by default that ended the
    # process at once, before the bot workers' semaphores were cleaned up — "6 leaked semaphore objects"
    # on the console, exit -15, an attacker's trial; this handler makes it a normal exit)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _stopped)
    try:
        uvicorn.run(app, host=host, port=port, **uvicorn_options())
    except SystemExit as stop:      # uvicorn's own "could not start" (3): our documented failure, 1
        if stop.code not in (None, 0):
            print(f"error: the server could not start on {host}:{port} (see the line above)", file=sys.stderr)
            return 1
    return 0


def _stopped(signum, frame) -> None:
    """SIGTERM, after uvicorn's own stop: exit as Ctrl-C does, cleaning up on the way."""
    raise SystemExit(0)


def cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (a port in use, an unknown host), or None: asked
    by binding a socket as uvicorn will (a fuzz trial: it said "open http://…/ in a browser", then
    exited 3 with uvicorn's line alone)."""
    if not host:
        return "give an address with --host (0.0.0.0: every interface)"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as err:
        return f"unknown host ({getattr(err, 'strerror', None) or err})"
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # (as uvicorn binds)
            probe.bind(address)
    except OSError as err:
        return err.strerror or str(err)
    return None
