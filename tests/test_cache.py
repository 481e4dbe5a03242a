"""The IR cache behind `rulelang.load`: keyed by a rule file's text (and the front end's version),
a warm load gives exactly the IR a fresh compile gives, and any trouble falls back to compiling."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.core import version
from rulelang.language import cache

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))
SMALL = ROOT / "games" / "regicide.rules"      # (quick to compile: tests where any game will do)
OTHER = ROOT / "games" / "valgard.rules"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    where = tmp_path / "cache"
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(where))
    return where


def entries(where: Path) -> list[Path]:
    return sorted(where.glob("*.json")) if where.exists() else []


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_warm_load_gives_the_ir_of_a_fresh_compile(cache_dir, path):
    fresh = rulelang.compile_file(str(path))
    cold = rulelang.load(str(path))                  # compiles, then stores
    assert len(entries(cache_dir)) == 1
    source = path.read_text(encoding="utf-8")
    assert cache.load(source, str(path)) == fresh     # what a warm load reads
    warm = rulelang.load(str(path))
    assert warm.ir == cold.ir == fresh
    assert warm.fingerprint == cold.fingerprint      # saved states stay loadable across runs
    a, b = cold.new_match(seed=3), warm.new_match(seed=3)
    for _ in range(400):                           # (a game may go on for ever when nobody plays)
        if a.is_over:
            break
        assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]
        a.apply(a.legal_actions()[-1])
        b.apply(b.legal_actions()[-1])
    assert a.state() == b.state()


def test_a_warm_load_does_not_compile(cache_dir, monkeypatch):
    path = str(SMALL)
    rulelang.load(path)
    monkeypatch.setattr(rulelang, "compile_source", lambda *a: pytest.fail("compiled on a warm load"))
    assert rulelang.load(path).name


def test_a_changed_file_misses_and_the_same_text_elsewhere_hits(cache_dir, tmp_path):
    src = (ROOT / "games" / "regicide.rules").read_text(encoding="utf-8")
    path = tmp_path / "r.rules"
    path.write_text(src, encoding="utf-8")
    rulelang.load(str(path))
    changed = src.replace("table hand_size { 1: 8,", "table hand_size { 1: 7,")
    assert changed != src
    assert cache.load(changed, str(path)) is None
    path.write_text(changed, encoding="utf-8")
    game = rulelang.load(str(path))
    assert game.new_match(players=1, seed=0).view(0)["values"][-1] == {"name": "Hand limit", "value": 7, "label": True}
    assert len(entries(cache_dir)) == 2
    other = tmp_path / "copy.rules"
    other.write_text(src, encoding="utf-8")
    ir = cache.load(src, str(other))                  # same text: a hit, naming the file it is loaded from
    assert ir is not None and ir["source"] == str(other)


def test_the_key_covers_the_version_and_the_front_end(monkeypatch):
    text = "game \"X\" {}"
    k = cache.key(text)
    assert k == cache.key(text) and k != cache.key(text + " ")
    monkeypatch.setattr(version, "__version__", "9.9.9")
    cache.front_end_digest.cache_clear()
    try:
        assert cache.key(text) != k
    finally:
        monkeypatch.undo()
        cache.front_end_digest.cache_clear()
    assert cache.key(text) == k


EDIT_EVERY_FILE = """
import json, shutil
from pathlib import Path
import rulelang.language.cache as cache

here = Path.cwd().resolve()
assert Path(cache.__file__).resolve().is_relative_to(here), cache.__file__      # the copy, not the original


def digest():
    cache.front_end_digest.cache_clear()
    return cache.front_end_digest()


files = sorted(p.relative_to(here).as_posix() for p in here.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".json", ".lark", ".rules"))
missed = []
for name in files:
    before, original = digest(), (here / name).read_bytes()
    (here / name).write_bytes(original + b"\\n")
    if digest() == before:
        missed.append(name)
    (here / name).write_bytes(original)
    assert digest() == before
before = digest()
shutil.move(here / "rulelang" / "language" / "desugar.py", here / "rulelang" / "engine" / "desugar.py")
moved = digest() != before
print(json.dumps({"files": files, "missed": missed, "moved": moved}))
"""


@pytest.mark.parametrize("layout", ["checkout", "installed"])
def test_editing_or_moving_any_file_of_the_package_changes_the_key(tmp_path, layout):
    """The key covers every file of the package, found where it is, not listed by hand: a copy of
    the package (grammar beside it as in a checkout, or inside it as installed) has each file
    edited in turn, and one moved, and the key changes every time."""
    junk = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "rulelang", tmp_path / "rulelang", ignore=junk)
    shutil.copytree(ROOT / "grammar", tmp_path / ("grammar" if layout == "checkout" else "rulelang/grammar"),
                    ignore=junk)
    done = subprocess.run([sys.executable, "-c", EDIT_EVERY_FILE], cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"), timeout=300)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    grammar = "grammar" if layout == "checkout" else "rulelang/grammar"
    assert {"rulelang/language/desugar.py", "rulelang/language/compiler.py", "rulelang/engine/codegen/generator.py",
            "rulelang/ir/schema.json", f"{grammar}/rulelang.lark"} <= set(seen["files"])
    assert seen["missed"] == []
    assert seen["moved"]


def test_a_corrupt_entry_is_ignored_and_replaced(cache_dir):
    path = str(SMALL)
    rulelang.load(path)
    (entry,) = entries(cache_dir)
    head, _, body = entry.read_text(encoding="utf-8").partition("\n")
    entry.write_text(head + "\n" + body[: len(body) // 2], encoding="utf-8")     # truncated
    source = Path(path).read_text(encoding="utf-8")
    assert cache.load(source, path) is None
    assert rulelang.load(path).ir == rulelang.compile_file(path)
    assert cache.load(source, path) == rulelang.compile_file(path)              # rewritten


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="permissions do not bind root")
def test_an_unwritable_cache_falls_back_silently(tmp_path, monkeypatch, capsys):
    where = tmp_path / "ro"
    where.mkdir()
    where.chmod(0o500)
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(where / "cache"))
    try:
        assert rulelang.load(str(SMALL)).name
        assert capsys.readouterr() == ("", "")
    finally:
        where.chmod(0o700)


def test_a_cache_that_cannot_be_a_directory_falls_back_silently(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(blocker / "cache"))
    game = rulelang.load(str(SMALL))
    assert game.ir == rulelang.compile_file(str(SMALL))
    assert capsys.readouterr() == ("", "")


def test_the_cache_lives_under_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.delenv("RULELANG_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "rulelang"
    rulelang.load(str(SMALL))
    assert entries(tmp_path / "xdg" / "rulelang")


def test_rule_errors_are_not_cached(cache_dir, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('game "X" { players 1..2 zone hand: set per player\n turn { step s { action a { move x to hnad[me] } } } }',
                   encoding="utf-8")
    with pytest.raises(rulelang.RuleError):
        rulelang.load(str(bad))
    assert entries(cache_dir) == []


def test_entries_are_one_header_line_then_the_ir(cache_dir):
    path = str(SMALL)
    rulelang.load(path)
    (entry,) = entries(cache_dir)
    head, _, body = entry.read_text(encoding="utf-8").partition("\n")
    header = json.loads(head)
    assert header["format"] == cache.FORMAT and header["key"] == entry.stem
    assert json.loads(body)["name"] == rulelang.load(path).name


def planted(cache_dir, path: str, ir: dict, secret: bytes | None) -> Path:
    """Write an entry for `path`'s text as an attacker would: signed with `secret` (None: unsigned)."""
    import hashlib
    import hmac
    source = Path(path).read_text(encoding="utf-8")
    k = cache.key(source)
    body = json.dumps(ir)
    sig = hmac.new(secret, k.encode() + b"\0" + body.encode(), hashlib.sha256).hexdigest() if secret else \
        hashlib.sha256(body.encode()).hexdigest()
    cache_dir.mkdir(parents=True, exist_ok=True)
    entry = cache_dir / f"{k}.json"
    entry.write_text(json.dumps({"format": cache.FORMAT, "key": k, "signature": sig, "digest": sig}) + "\n" + body,
                     encoding="utf-8")
    return entry


EVIL_LET = {"s": "let", "n": "x", "v": {"k": "bin", "op": "+ __import__('os').system('touch pwned') +",
                                        "l": {"k": "builtin", "n": "player_count"}, "r": {"k": "lit", "v": 0}}}


def test_a_planted_unsigned_entry_is_ignored(cache_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = str(SMALL)
    other = rulelang.compile_file(str(OTHER))            # a well-formed IR of another game
    planted(cache_dir, path, other, None)
    assert rulelang.load(path).name == rulelang.compile_file(path)["name"]


def test_a_planted_signed_entry_with_code_is_refused_before_code_is_generated(cache_dir, tmp_path, monkeypatch):
    # even an entry signed with the user's own key (say, written by an older, buggy rulelang) is checked
    monkeypatch.chdir(tmp_path)
    path = str(SMALL)
    evil = rulelang.compile_file(path)
    evil["setup"].insert(0, EVIL_LET)
    planted(cache_dir, path, evil, cache.signing_key())
    game = rulelang.load(path)                               # refused, compiled afresh, rewritten
    game.new_match(game.min_players, seed=1)
    assert not (tmp_path / "pwned").exists()
    assert game.ir == rulelang.compile_file(path)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_key_others_can_read_disables_the_cache(cache_dir, tmp_path, monkeypatch):
    key = tmp_path / "shared-key"
    key.write_text("k" * 64)
    key.chmod(0o644)
    monkeypatch.setenv("RULELANG_KEY_FILE", str(key))
    assert cache.signing_key() is None
    rulelang.load(str(SMALL))
    assert entries(cache_dir) == []


def test_a_changed_included_file_is_not_served_from_the_cache(cache_dir, tmp_path):
    """The key is the main file's text; an `include`d file is checked by its hash, as content is."""
    (tmp_path / "main.rules").write_text('game "Inc" { players 2  include "part.rules"  '
                                         'turn { step s { action go { finish win } } } }', encoding="utf-8")
    (tmp_path / "part.rules").write_text("var x: int = 1", encoding="utf-8")
    path = str(tmp_path / "main.rules")
    assert rulelang.load(path).new_match(2).state()["vars"] == {"x": 1}
    assert rulelang.load(path).new_match(2).state()["vars"] == {"x": 1}      # warm
    (tmp_path / "part.rules").write_text("var x: int = 2", encoding="utf-8")
    assert rulelang.load(path).new_match(2).state()["vars"] == {"x": 2}


def test_the_cache_keeps_its_newest_entries_only(cache_dir, monkeypatch):
    """Every edited rules text made an entry of its own, for ever (80 MB after many test runs)."""
    monkeypatch.setattr(cache, "ENTRIES_KEPT", 3)
    texts = [f'game "G{i}" {{\n  players 2\n  turn {{ step s {{ action stop {{ finish draw }} }} }}\n}}\n'
             for i in range(5)]
    for i, text in enumerate(texts):
        cache.store(text, {"n": i})
        os.utime(cache_dir / f"{cache.key(text)}.json", ns=(i * 10**9, i * 10**9))   # (written in this order)
    kept = {p.name for p in entries(cache_dir)}
    assert len(kept) == 3 and kept == {f"{cache.key(t)}.json" for t in texts[2:]}
    assert cache.load(texts[4], "g.rules")["n"] == 4 and cache.load(texts[0], "g.rules") is None
    os.utime(cache_dir / f"{cache.key(texts[3])}.json", ns=(10**9, 10**9))     # the oldest now …
    assert cache.load(texts[3], "g.rules")["n"] == 3                               # … but read: kept
    cache.store(texts[0], {"n": 0})
    assert {p.name for p in entries(cache_dir)} == {f"{cache.key(t)}.json" for t in (texts[0], texts[3], texts[4])}


def test_the_trim_removes_only_the_caches_own_entries(cache_dir, monkeypatch):
    """A fuzz trial: 600 old `mysave_N.json` in the cache folder (which may be shared), and a new
    entry's trim removed 89 of them — every `.json` counted as an entry."""
    monkeypatch.setattr(cache, "ENTRIES_KEPT", 2)
    cache.store('game "G" { }', {"n": -1})          # (the folder, made as the cache makes it)
    for i in range(5):
        (cache_dir / f"mysave_{i}.json").write_text("{}", encoding="utf-8")
        os.utime(cache_dir / f"mysave_{i}.json", ns=(1, 1))                    # (older than any entry)
    for i in range(4):
        cache.store(f'game "G{i}" {{ }}', {"n": i})
    assert sorted(p.name for p in cache_dir.iterdir() if p.name.startswith("mysave_")) == \
        [f"mysave_{i}.json" for i in range(5)]
    assert len([p for p in entries(cache_dir) if not p.name.startswith("mysave_")]) == 2
    # (a review: one dangling link named like an entry stopped every trim after it)
    (cache_dir / ("0" * 64 + ".json")).symlink_to(cache_dir / "nowhere.json")
    for i in range(4, 8):
        cache.store(f'game "G{i}" {{ }}', {"n": i})
    assert len([p for p in cache_dir.iterdir() if p.name.endswith(".json") and not p.name.startswith("mysave_")
                and p.exists()]) == 2
