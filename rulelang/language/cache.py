"""A cache of compiled IR, so that loading a rule file already seen skips parse, check and compile.

An entry is keyed by the SHA-256 of the rule file's text together with the rulelang version
and a digest of every file of the installed package (its sources, grammar and IR schema, found
by walking its directory, not listed by hand), so an edited rule file — or an edited compiler —
never reads a stale entry. Entries live in `$RULELANG_CACHE_DIR`, else `$XDG_CACHE_HOME/rulelang`,
else `~/.cache/rulelang`, one file each (a JSON header line with the key and a signature, then
the IR as JSON), written atomically.
Every failure (no home directory, a read-only disk, a corrupt entry) silently falls back to
compiling: the cache can make loading faster, never wrong.

A cache directory may be shared or planted, so entries are not trusted (docs/security.md):
- an entry is read only if it is a regular file (not a FIFO, a device or a symbolic link) owned
  by the user and at most JSON_SIZE_LIMIT bytes (`_read_entry`); anything else, and anything
  malformed in it, is a miss: loading never blocks on an entry and never fails because of one;
- each entry is signed with HMAC-SHA-256 under a key private to the user (`signing_key`, kept
  outside the cache directory, mode 0600); an entry whose signature does not match is ignored;
- a signed entry is still read within size and depth limits, and the IR it holds is checked by
  the engine (`ir.check.check_ir`) before any code is generated from it, like any compiled IR.
Only IR is cached, never code: the engine still builds its functions from the IR.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import tempfile
from functools import lru_cache
from pathlib import Path

from ..core.limits import JSON_SIZE_LIMIT
from ..core.safejson import loads

FORMAT = "rulelang-ir-cache"
_HEX = re.compile(r"[0-9a-f]{64}")      # a signature as _signature writes it


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


def signing_key() -> bytes | None:
    """The user's private key for cache signatures: `$RULELANG_KEY_FILE`, else
    `$XDG_CONFIG_HOME/rulelang/cache-key`, else `~/.config/rulelang/cache-key`; made on first use.
    None (so no caching) if it cannot be read or made, or if others can read or write it."""
    explicit = os.environ.get("RULELANG_KEY_FILE")
    try:
        if explicit:
            path = Path(explicit)
        else:
            base = os.environ.get("XDG_CONFIG_HOME")
            path = (Path(base) if base else Path.home() / ".config") / "rulelang" / "cache-key"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
        if path.stat().st_mode & 0o077:
            return None                        # a key others can read or change signs nothing
        key = path.read_text(encoding="ascii").strip()
        return key.encode() if len(key) >= 32 else None
    except (OSError, RuntimeError, KeyError, ValueError, UnicodeDecodeError):
        return None


def front_end_files() -> list[tuple[str, Path]]:
    """The files that may decide what IR a rule file compiles to, as (name, path) sorted by name:
    every file of the package, found by walking its directory, and the grammar's directory when it
    lies beside the package (a source checkout: parser.py reads it there) rather than in it (an
    installed package). Modules only the engine uses are in too: a needless miss costs a compile, a
    file left out would serve stale IR. Left out: compiled bytecode (__pycache__, *.pyc)."""
    here = Path(__file__).resolve().parents[1]   # the package: rulelang/
    roots = [("rulelang", here)]
    if not (here / "grammar").is_dir():
        roots.append(("grammar", here.parent / "grammar"))
    found = []
    for name, root in roots:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [d for d in subfolders if d != "__pycache__"]
            prefix = Path(name, os.path.relpath(folder, root))
            found.extend(((prefix / f).as_posix(), Path(folder, f))
                         for f in files if not f.endswith((".pyc", ".pyo")))
    return sorted(found)


@lru_cache(maxsize=1)
def front_end_digest() -> str:
    """A digest of the rulelang version and of the content of every file in front_end_files()
    (~50 files, ~1.7 MB: a few milliseconds, once per process)."""
    from ..core.version import __version__
    h = hashlib.sha256(f"rulelang {__version__}\0".encode())
    for name, path in front_end_files():
        try:
            data = path.read_bytes()
        except OSError:
            h.update(name.encode() + b"\0-\0")
            continue
        h.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def key(source: str) -> str:
    """The cache key of a rule file's text."""
    return hashlib.sha256(front_end_digest().encode() + b"\0" + source.encode("utf-8")).hexdigest()


def load(source: str, path: str) -> dict | None:
    """The cached IR of this text, as compiled from `path`; None on a miss (or any problem)."""
    where, secret = cache_dir(), signing_key()
    if where is None or secret is None:
        return None
    k = key(source)
    text = _read_entry(where / f"{k}.json")
    if text is None:
        return None
    try:
        head, _, body = text.partition("\n")
        entry = loads(head, "cache entry")
        if not (isinstance(entry, dict) and entry.get("format") == FORMAT and entry.get("key") == k
                and isinstance(entry.get("signature"), str) and _HEX.fullmatch(entry["signature"])
                and hmac.compare_digest(entry["signature"], _signature(secret, k, body))):
            return None                 # (compare_digest refuses non-ASCII text: only hex gets there)
        ir = loads(body, "cache entry")
        if not isinstance(ir, dict):
            return None
        from .content import file_hash, resolve
        imports = ir.get("imports", [])
        if not isinstance(imports, list):
            return None
        for imported in imports:        # included and content files must be unchanged too
            if not (isinstance(imported, dict) and isinstance(imported.get("path"), str)
                    and isinstance(imported.get("sha256"), str)):
                return None
            if file_hash(resolve(path, imported["path"])) != imported["sha256"]:
                return None
    except (OSError, ValueError, TypeError):     # anything malformed is a miss, never an error
        return None
    ir["source"] = str(path)            # the same IR a fresh compile of this path gives
    try:
        os.utime(where / f"{k}.json")   # (used now: the last to be trimmed away)
    except OSError:
        pass
    return ir


def _read_entry(file: Path) -> str | None:
    """The text of a cache entry, or None unless it is a regular file of at most JSON_SIZE_LIMIT
    bytes owned by this user. A cache directory may be shared, so what is there may be planted:
    a FIFO or a device (which would block, or never end) and a symbolic link are not followed —
    the entry is opened without waiting and without following a link, then checked, so the file
    read is the file checked."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(file, flags)
    except (OSError, ValueError):
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > JSON_SIZE_LIMIT:
                return None
            if hasattr(os, "getuid") and info.st_uid != os.getuid():
                return None             # another user's file, even one signed: not ours to trust
            data = f.read(JSON_SIZE_LIMIT + 1)
        if len(data) > JSON_SIZE_LIMIT:
            return None
        return data.decode("utf-8")
    except (OSError, ValueError):       # (UnicodeDecodeError is a ValueError)
        return None


def store(source: str, ir: dict) -> None:
    """Keep the IR of this text; silently does nothing if the cache cannot be written."""
    where, secret = cache_dir(), signing_key()
    if where is None or secret is None:
        return
    k = key(source)
    try:
        body = json.dumps(ir, ensure_ascii=False, separators=(",", ":"))
        if len(body) > JSON_SIZE_LIMIT:      # (never read back: a fuzzer's 644 MB entries filled the disk)
            return
        head = json.dumps({"format": FORMAT, "key": k, "signature": _signature(secret, k, body)})
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
        _trim(where)
    except (OSError, TypeError, ValueError):
        pass


ENTRIES_KEPT = 512              # cache entries kept: the least recently used go first


_ENTRY_NAME = re.compile(r"[0-9a-f]{64}\.json")


def _trim(where: Path) -> None:
    """Keep the cache bounded: past ENTRIES_KEPT entries, the least recently used (written or read)
    are removed (each rules text and front end makes its own entry: it grew with every edit)."""
    # (entries only, `<64 hex>.json`: a folder shared or planted may hold other tools' or a user's
    # .json files, and a fuzz trial saw 89 of 600 saves there removed)
    dated = []
    for e in os.scandir(where):
        if _ENTRY_NAME.fullmatch(e.name):
            try:                                # (a dangling link named like an entry stopped every trim
                dated.append((e.stat().st_mtime_ns, e))     # for good: a review — it is left alone)
            except OSError:
                continue
    if len(dated) <= ENTRIES_KEPT:
        return
    entries = [e for _, e in sorted(dated, key=lambda t: t[0])]
    for e in entries[:len(entries) - ENTRIES_KEPT]:
        try:
            os.unlink(e.path)
        except OSError:
            pass


def _signature(secret: bytes, k: str, body: str) -> str:
    """The entry's HMAC: only someone holding the user's key can make an entry this accepts."""
    return hmac.new(secret, k.encode() + b"\0" + body.encode("utf-8"), hashlib.sha256).hexdigest()
