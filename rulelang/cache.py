"""A cache of compiled IR, so that loading a rule file already seen skips parse, check and compile.

An entry is keyed by the SHA-256 of the rule file's text together with the rulelang version
and a digest of the front end's own sources (grammar, parser, checker, compiler, IR schema),
so an edited rule file — or an edited compiler — never reads a stale entry. Entries live in
`$RULELANG_CACHE_DIR`, else `$XDG_CACHE_HOME/rulelang`, else `~/.cache/rulelang`, one file
each (a JSON header line with the key and a checksum, then the IR as JSON), written atomically. Every failure (no home directory, a read-only disk, a corrupt
entry) silently falls back to compiling: the cache can make loading faster, never wrong.
Only IR is cached, never code: the engine still builds its functions from the IR.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path

FORMAT = "rulelang-ir-cache"
FRONT_END = ("parser.py", "checker.py", "compiler.py", "nodes.py", "lints.py", "content.py", "ir.schema.json")


def cache_dir() -> Path | None:
    """Where entries live (None if there is no sensible place)."""
    explicit = os.environ.get("RULELANG_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "rulelang"
    try:
        return Path.home() / ".cache" / "rulelang"
    except (RuntimeError, KeyError, OSError):
        return None


@lru_cache(maxsize=1)
def front_end_digest() -> str:
    """A digest of the sources that decide what IR a rule file compiles to."""
    from . import __version__
    h = hashlib.sha256(f"rulelang {__version__}\0".encode())
    here = Path(__file__).resolve().parent
    for name in FRONT_END:
        try:
            h.update(name.encode() + b"\0" + (here / name).read_bytes())
        except OSError:
            h.update(name.encode() + b"\0-")
    for grammar in (here / "grammar", here.parent / "grammar"):
        try:
            for path in sorted(grammar.glob("*.lark")):
                h.update(path.name.encode() + b"\0" + path.read_bytes())
        except OSError:
            pass
    return h.hexdigest()


def key(source: str) -> str:
    """The cache key of a rule file's text."""
    return hashlib.sha256(front_end_digest().encode() + b"\0" + source.encode("utf-8")).hexdigest()


def load(source: str, path: str) -> dict | None:
    """The cached IR of this text, as compiled from `path`; None on a miss (or any problem)."""
    where = cache_dir()
    if where is None:
        return None
    k = key(source)
    try:
        head, _, body = (where / f"{k}.json").read_text(encoding="utf-8").partition("\n")
        entry = json.loads(head)
        if not (isinstance(entry, dict) and entry.get("format") == FORMAT and entry.get("key") == k
                and entry.get("digest") == _digest(body)):
            return None
        ir = json.loads(body)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(ir, dict):
        return None
    from .content import file_hash, resolve
    for imported in ir.get("imports", ()):     # content files must be unchanged too
        if not isinstance(imported, dict) or file_hash(resolve(path, str(imported.get("path")))) != imported.get("sha256"):
            return None
    ir["source"] = str(path)            # the same IR a fresh compile of this path gives
    return ir


def store(source: str, ir: dict) -> None:
    """Keep the IR of this text; silently does nothing if the cache cannot be written."""
    where = cache_dir()
    if where is None:
        return
    k = key(source)
    try:
        body = json.dumps(ir, ensure_ascii=False, separators=(",", ":"))
        head = json.dumps({"format": FORMAT, "key": k, "digest": _digest(body)})
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(head + "\n" + body)
            os.replace(tmp, where / f"{k}.json")
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except (OSError, TypeError, ValueError):
        pass


def _digest(body: str) -> str:
    """A checksum of an entry's IR text (it catches a truncated or edited file, not an attacker)."""
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def compile_cached(source: str, path: str, compile_source) -> dict:
    """`compile_source(source, path)`, through the cache."""
    ir = load(source, path)
    if ir is not None:
        return ir
    ir = compile_source(source, path)
    store(source, ir)
    return ir
