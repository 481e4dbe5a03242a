"""`rulelang serve`: play rule files in the browser, each player on their own device (docs/serve.md).

Starlette, uvicorn and websockets are core dependencies: a plain `pip install .` serves.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def default_store() -> str:
    """Where matches are kept between runs: $XDG_DATA_HOME/rulelang/serve.sqlite (or ~/.local/share/...)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "rulelang" / "serve.sqlite")


def serve(rules: list[str], host: str = "127.0.0.1", port: int = 8000, store: str | None = None,
          bot_delay: float = 0.5) -> int:
    """Run the server until Ctrl-C. Returns an exit code."""
    try:
        import uvicorn
        from .server import create_app
    except ImportError:
        print("rulelang serve needs Starlette and uvicorn (dependencies of rulelang): pip install .",
              file=sys.stderr)
        return 1
    store = store or default_store()
    if store != ":memory:":
        Path(store).parent.mkdir(parents=True, exist_ok=True)
    print("loading the games...", flush=True)
    app, server = create_app(rules, store, bot_delay)
    shown = f"[{host}]" if ":" in host else host
    print(f"rulelang serve: {len(server.entries)} games, matches kept in {store}")
    print(f"open http://{shown if host not in ('0.0.0.0', '::') else 'localhost'}:{port}/ in a browser")
    if host in LOOPBACK:
        print("only this computer can connect; to play with others on your network: "
              f"rulelang serve --host 0.0.0.0 --port {port} (then open http://THIS-COMPUTER'S-ADDRESS:{port}/)")
    else:
        print("anyone who can reach this address can open the lobby and start matches; each seat's link "
              "is its own secret (see docs/serve.md for a reverse proxy with HTTPS)")
    print("Ctrl-C stops the server", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=2)
    return 0
