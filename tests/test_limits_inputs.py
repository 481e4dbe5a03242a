"""Limits that bound cost, not counts: whatever a rule file, a YAML content file, a cache entry or a
path holds, reading it ends within seconds in a clear one-line diagnostic, never a hang, a flood of
output or a traceback.

- diagnostics of bounded size and cost: a message lists a few names and a count ("… and 1,995
  more"), and "did you mean" works within one budget per file (content.Suggester), shared by the
  checker, desugaring, content files and so the language server;
- the IR cache reads only regular files of the user's own (no FIFO, device or symbolic link), and a
  malformed entry (a non-ASCII signature, bad imports) is a miss, never an error;
- a NUL byte in a path (an `include`, a `create … from`, a save, a document name) is a diagnostic,
  and `lint` still reports every other file;
- `rulelang bench --reference` of something that is not a Python module is a one-line error.

Nothing here measures wall-clock time: sizes are asserted, and CPU time only with wide margins.
"""
from __future__ import annotations

import difflib
import json
import os
import random
import signal
import stat
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

import rulelang
from rulelang.language import cache, content
from rulelang.cli import main
from rulelang.core.errors import StateError

ROOT = Path(__file__).resolve().parent.parent
REGICIDE = ROOT / "games" / "regicide.rules"
TAIL = '  turn { step s { action a { finish draw } } }\n}\n'
MESSAGE_LIMIT = 300            # characters of one diagnostic's headline, whatever the file declares
CPU_LIMIT = 20.0               # seconds of CPU time (generous: each case takes ~1-3 s here)


class Blocked(Exception):
    """Raised by `deadline` (not an OSError, which the code under test may catch)."""


@contextmanager
def deadline(seconds: int = 20):
    """Fail (rather than hang the suite) if the block does not end: a blocking open() of a FIFO is
    interrupted by the alarm's exception, and again every second should something swallow it."""
    def expired(signum, frame):
        raise Blocked(f"still running after {seconds} s: it blocks")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def lint_file(path: Path):
    start = time.process_time()
    diagnostics, _ = rulelang.lint([str(path)])
    return diagnostics, time.process_time() - start


def assert_small(diagnostics, count: int) -> None:
    assert len(diagnostics) >= count
    sizes = [len(d.headline()) for d in diagnostics]
    assert max(sizes) <= MESSAGE_LIMIT, max(diagnostics, key=lambda d: len(d.headline())).headline()[:500]
    assert "\n" not in "".join(d.message for d in diagnostics)


# ---- diagnostics of bounded size and cost -------------------------------------------------------

def unknown_events(tmp_path: Path, count: int) -> Path:
    """A game declaring `count` events and `count` handlers of events it does not declare."""
    events = "".join(f"  event evt{i}()\n" for i in range(count))
    handlers = "".join(f"  on evx{i}q {{ }}\n" for i in range(count))
    path = tmp_path / "events.rules"
    path.write_text('game "X" {\n  players 2\n' + events + handlers + TAIL, encoding="utf-8")
    return path


def test_thousands_of_unknown_events_give_short_messages_quickly(tmp_path):
    # before: every E106 listed all 2,000 events (~17 KB each, 34 MB in all) after a close-match
    # search of them all (5,500 handlers: 105 s of CPU and 267 MB of messages)
    path = unknown_events(tmp_path, 2000)
    diagnostics, cpu = lint_file(path)
    e106 = [d for d in diagnostics if d.code == "E106"]
    assert len(e106) == 2000
    assert_small(diagnostics, 2000)
    assert cpu < CPU_LIMIT
    first = e106[0]
    assert first.line == 2003 and first.column == 3
    assert first.message == ("unknown event `evx0q` (events: stuck, turn_start, turn_end, round_start, "
                             "round_end and 2,000 more)")
    assert first.suggestion == "evt0"          # "did you mean" still works while its budget lasts
    assert sum(len(d.headline()) for d in diagnostics) < 1_000_000     # (headlines hold the temporary path)


def test_the_language_server_gives_the_same_short_messages(tmp_path):
    from rulelang.editor.lsp import analyze, lsp_diagnostics
    path = unknown_events(tmp_path, 1500)
    start = time.process_time()
    analysis = analyze(path.read_text(encoding="utf-8"), str(path))
    items = lsp_diagnostics(analysis)
    assert time.process_time() - start < CPU_LIMIT
    assert len(items) == 1500
    assert max(len(i["message"]) for i in items) <= MESSAGE_LIMIT


def test_a_few_names_of_a_huge_enum_in_each_content_row(tmp_path):
    # before: each of the 2,000 rows listed all 5,000 values (~34 KB a message, 68 MB in all)
    values = ", ".join(f"v{i}" for i in range(5000))
    (tmp_path / "big.yaml").write_text("".join(f"- {{b: w{i}x}}\n" for i in range(2000)), encoding="utf-8")
    path = tmp_path / "big.rules"
    path.write_text('game "X" {\n  players 2\n  enum Big { ' + values + ' }\n  kind C { b: Big }\n'
                    '  zone deck: pile\n  setup { create C from "big.yaml" in deck }\n' + TAIL, encoding="utf-8")
    diagnostics, cpu = lint_file(path)
    e504 = [d for d in diagnostics if d.code == "E504"]
    assert len(e504) == 2000
    assert_small(diagnostics, 2000)
    assert cpu < CPU_LIMIT
    assert e504[0].message == "field `b` must be one of v0, v1, v2, v3, v4 and 4,995 more, not 'w0x'"
    assert (e504[0].file, e504[0].line, e504[0].column) == (str(tmp_path / "big.yaml"), 1, 7)
    assert sum(len(d.headline()) for d in diagnostics) < 1_000_000     # (headlines hold the temporary path)


def test_a_family_of_thousands_of_parts_is_named_in_a_few(tmp_path):
    # before: each wrong use of `v` listed its 2,000 parts twice (~32 KB a message)
    enums = "".join(f"  enum E{i} {{ a{i} }}\n" for i in range(2000))
    per = " ".join(f"per E{i}" for i in range(2000))
    uses = "".join("    v = 1\n" for _ in range(500))
    path = tmp_path / "per.rules"
    path.write_text('game "X" {\n  players 2\n' + enums + f"  var v: int = 0 {per}\n  setup {{\n{uses}  }}\n" + TAIL,
                    encoding="utf-8")
    diagnostics, cpu = lint_file(path)
    e201 = [d for d in diagnostics if d.code == "E201"]
    assert len(e201) == 500
    assert_small(diagnostics, 500)
    assert e201[0].message == ("`v` is per E0 per E1 per E2 per E3 per E4 and 1,995 more: say which, "
                               "e.g. `v[a0, a1, a2, a3, a4, …]`")


def test_close_match_searches_share_one_budget_per_file(tmp_path):
    # Long look-alike names make each comparison costly: 1,500 misspelt names against 1,500 defs.
    # Before: the budget counted names, not work (500,000 comparisons of ~100 µs: ~50 s of CPU).
    rng = random.Random(7)
    names = ["d" + "".join(rng.choice("ab") for _ in range(47)) for _ in range(1500)]
    defs = "".join(f"  def {x} = 1\n" for x in names)
    uses = "".join(f"    n = u{x[1:]}x\n" for x in names)
    path = tmp_path / "typos.rules"
    path.write_text('game "X" {\n  players 2\n  var n: int = 0\n' + defs + f"  setup {{\n{uses}  }}\n" + TAIL,
                    encoding="utf-8")
    diagnostics, cpu = lint_file(path)
    e101 = [d for d in diagnostics if d.code == "E101"]
    assert len(e101) == 1500
    assert cpu < CPU_LIMIT
    assert e101[0].suggestion is not None and e101[-1].suggestion is None     # the budget ran out on the way


def test_the_suggester_finds_what_difflib_finds_and_stops_when_spent():
    rng = random.Random(3)
    words = ["".join(rng.choice("abcdefgh_") for _ in range(rng.randint(1, 12))) for _ in range(400)]
    for word in words[:60]:
        want = difflib.get_close_matches(word, words[60:], n=1, cutoff=0.6)
        assert content.Suggester()(word, words[60:]) == (want[0] if want else None), word
    spent = content.Suggester(work=100)
    assert spent("hand", ["hands"] * 1000) == "hands"        # found before the budget ran out
    assert spent("hand", ["hands"]) is None and spent.work <= 0
    assert content.Suggester()("x" * (content.SUGGEST_LENGTH + 1), ["x" * content.SUGGEST_LENGTH]) is None
    assert content.listing(["a" * 100, "b"]) == "a" * content.LISTED_LENGTH + "…, b"
    assert content.listing([f"n{i}" for i in range(7)]) == "n0, n1, n2, n3, n4 and 2 more"


# ---- the IR cache opens only regular files of the user's own ------------------------------------

@pytest.fixture
def cached(tmp_path, monkeypatch):
    """A rule file and where its cache entry lives (an empty cache directory)."""
    where = tmp_path / "cache"
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(where))
    where.mkdir()
    path = tmp_path / "r.rules"
    path.write_text(REGICIDE.read_text(encoding="utf-8"), encoding="utf-8")
    source = path.read_text(encoding="utf-8")
    return path, source, where / f"{cache.key(source)}.json"


def test_a_fifo_planted_as_a_cache_entry_does_not_block_loading(cached):
    path, source, entry = cached
    os.mkfifo(entry)
    with deadline():
        assert cache.load(source, str(path)) is None       # before: blocked for ever in open()
        game = rulelang.load(str(path))
    assert game.name == "Regicide"
    assert not stat.S_ISFIFO(entry.lstat().st_mode)         # the fresh compile replaced it with an entry


def test_a_symbolic_link_as_a_cache_entry_is_not_followed(cached, tmp_path):
    path, source, entry = cached
    rulelang.load(str(path))                                # a good, signed entry
    assert cache.load(source, str(path)) is not None
    elsewhere = tmp_path / "elsewhere.json"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    assert cache.load(source, str(path)) is None            # before: followed, and read
    assert rulelang.load(str(path)).name == "Regicide"


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to give a file away")
def test_a_cache_entry_of_another_user_is_not_read(cached):
    path, source, entry = cached
    rulelang.load(str(path))
    os.chown(entry, 12345, 12345)
    assert cache.load(source, str(path)) is None


def signed(source: str, ir: dict) -> str:
    k = cache.key(source)
    body = json.dumps(ir, ensure_ascii=False, separators=(",", ":"))
    head = json.dumps({"format": cache.FORMAT, "key": k, "signature": cache._signature(cache.signing_key(), k, body)})
    return head + "\n" + body


@pytest.mark.parametrize("mangle", [
    pytest.param(lambda text: text.replace('"signature": "', '"signature": "\\u00e9', 1), id="non-ASCII signature"),
    pytest.param(lambda text: text.replace('"signature": "', '"signature": "é', 1), id="non-ASCII signature, raw"),
    pytest.param(lambda text: "\udcff" + text, id="not UTF-8"),
])
def test_a_malformed_cache_entry_is_a_miss(cached, mangle):
    path, source, entry = cached
    rulelang.load(str(path))
    text = entry.read_text(encoding="utf-8")
    entry.write_bytes(mangle(text).encode("utf-8", "surrogateescape"))
    assert cache.load(source, str(path)) is None            # before: TypeError from hmac.compare_digest
    assert rulelang.load(str(path)).name == "Regicide"


@pytest.mark.parametrize("imports", [7, "x", [7], [{"path": 7, "sha256": "x"}], [{"path": "a\0b.yaml", "sha256": "x"}],
                                     [{"path": "r.rules"}]])
def test_bad_imports_in_a_signed_entry_are_a_miss(cached, imports):
    path, source, entry = cached
    ir = rulelang.compile_file(str(path))
    ir["imports"] = imports
    entry.write_text(signed(source, ir), encoding="utf-8")
    assert cache.load(source, str(path)) is None            # before: TypeError or ValueError
    assert rulelang.load(str(path)).name == "Regicide"


# ---- NUL bytes and impossible paths ---------------------------------------------------------------

def game(name: str, body: str) -> str:
    return f'game "{name}" {{\n  players 1..2\n{body}\n' + TAIL


def test_lint_reports_a_nul_byte_in_an_include_and_every_other_file(tmp_path, capsys):
    bad = tmp_path / "a.rules"
    bad.write_text(game("A", '  include "x\0y.rules"'), encoding="utf-8")
    other = tmp_path / "b.rules"
    other.write_text(game("B", "  var q: int = zz"), encoding="utf-8")
    diagnostics, _ = rulelang.lint([str(bad), str(other)])       # before: ValueError
    first = diagnostics[0]
    assert (first.code, first.file, first.line, first.column) == ("E007", str(bad), 3, 11)
    assert "NUL byte" in first.message
    assert ("E101", str(other), 3, 16) in [(d.code, d.file, d.line, d.column) for d in diagnostics]

    code = main(["lint", str(bad), str(other)])
    out, err = capsys.readouterr()
    assert code == 1 and err == ""
    assert f"{bad}:3:11: error[E007]: cannot include 'x\\x00y.rules'" in out
    assert f"{other}:3:16: error[E101]: unknown name `zz`" in out

    code = main(["lint", "--format", "json", str(bad), str(other)])
    out, err = capsys.readouterr()
    assert code == 1 and err == ""
    found = json.loads(out)                                        # before: no JSON at all
    assert {(d["file"], d["code"]) for d in found} >= {(str(bad), "E007"), (str(other), "E101")}


def test_a_nul_byte_in_a_content_path_is_a_diagnostic(tmp_path):
    path = tmp_path / "c.rules"
    path.write_text(game("C", '  kind K { n: int }\n  zone d: pile\n'
                                               '  setup { create K from "x\0y.yaml" in d }'), encoding="utf-8")
    diagnostics, _ = rulelang.lint([str(path)])                    # before: ValueError
    assert [(d.code, d.line, d.column) for d in diagnostics if d.severity == "error"] == [("E501", 5, 25)]
    assert "NUL byte" in diagnostics[0].message


@pytest.mark.parametrize("body", ['  include "b.rules"', '  kind K { n: int }\n  zone d: pile\n'
                                                      '  setup { create K from "k.yaml" in d }'])
def test_a_rule_file_whose_own_path_holds_a_nul_byte(tmp_path, body):
    """An editor's document may be named anything (a `file:` URI with %00): still diagnostics."""
    from rulelang.editor.lsp import analyze, lsp_diagnostics, path_of
    (tmp_path / "b.rules").write_text("  var q: int = 0\n", encoding="utf-8")
    (tmp_path / "k.yaml").write_text("- {n: 1}\n", encoding="utf-8")
    source = game("D", body)
    name = path_of((tmp_path / "x%00y" / "d.rules").as_uri().replace("x%2500y", "x%00y"))
    assert "\0" in name
    with pytest.raises(rulelang.RuleError) as err:                 # before: ValueError
        rulelang.compile_source(source, name)
    assert err.value.diagnostics[0].code in ("E007", "E501")
    analysis = analyze(source, name)                               # before: "internal error"
    messages = [d["message"] for d in lsp_diagnostics(analysis)]
    assert messages and not any("internal error" in m for m in messages)
    assert any("NUL byte" in m for m in messages)


def test_saves_that_are_fifos_or_impossible_names_are_refused_at_once(tmp_path, capsys):
    from rulelang.play.replay import is_save, read
    fifo = tmp_path / "match.json"
    os.mkfifo(fifo)
    with deadline():
        with pytest.raises(StateError, match="not a regular file"):
            read(str(fifo))                                        # before: blocked for ever
        assert not is_save(str(fifo))
        with pytest.raises(StateError, match="NUL byte"):
            read(str(tmp_path / "a\0b.json"))                      # before: ValueError
        assert not is_save(str(tmp_path / "a\0b.json"))
        for argv in (["replay", str(fifo)], ["play", str(fifo)]):
            assert main(argv) == 1
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "not a regular file" in err, err


def test_a_rule_file_api_path_with_a_nul_byte_is_no_such_file():
    for path in ("a\0b.rules", "a\0b.json", ""):
        with pytest.raises(rulelang.RuleError, match="no such file"):
            rulelang.load(path)
    diagnostics, _ = rulelang.lint(["a\0b.rules", str(REGICIDE)])
    assert [d.code for d in diagnostics] == ["E000"]


# ---- bench --reference of something that is not a Python module ----------------------------------

@pytest.mark.parametrize("name, text, said", [
    ("ref.txt", "hello\n", "is not a Python module"),
    ("ref.py", "x = \n", "SyntaxError at line 1"),
    ("ref.py", "import sys\nsys.exit(3)\n", "SystemExit: 3"),
    ("ref.py", "Match = 3\n", "has no Match class"),
    ("ref.py", "class Match:\n    def __init__(self, *a):\n        raise KeyError('boom')\n", "failed: KeyError"),
])
def test_bench_reference_that_is_not_a_python_module_is_one_line(tmp_path, capsys, name, text, said):
    reference = tmp_path / name
    reference.write_text(text, encoding="utf-8")
    code = main(["bench", str(REGICIDE), "--games", "1", "--repeats", "1", "--reference", str(reference)])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("error: ") and said in err, err   # before: internal error
    assert "internal error" not in err and "Traceback" not in err


def test_options_and_player_counts_beyond_the_limits_are_refused_in_one_short_line():
    """An int option past INT_LIMIT was accepted (a game then ran 100,000 actions); a 5,000-digit
    number in a message raised Python's own int-to-text error instead of saying what was wrong."""
    game = rulelang.load(str(ROOT / "games" / "valgard.rules"))
    for value, said in ((10 ** 30, "not a number of 31 digits"), (10 ** 5000, "not a number of 5001 digits")):
        with pytest.raises(ValueError) as err:
            game.new_match(2, options={"turn_limit": value})
        assert str(err.value) == ("option `turn_limit` is too large: a number is at most 4,611,686,018,427,387,904 "
                                  f"either side of 0, {said}")
    game.new_match(2, options={"turn_limit": 2 ** 62})            # the largest is still good
    with pytest.raises(ValueError) as err:
        game.new_match(10 ** 5000)
    assert str(err.value) == "Valgarð is for 2 players, not a number of 5001 digits"
    named = rulelang.Game(rulelang.compile_source(
        'game "Named" { players 1  option title: text = "x"  turn { step s { action go { finish win } } } }'))
    with pytest.raises(ValueError) as err:
        named.new_match(1, options={"title": "y" * 10_001})
    assert str(err.value) == "option `title` is too large: a text is at most 10,000 characters, not 10,001"
    named.new_match(1, options={"title": "y" * 10_000})


def test_an_include_naming_a_fifo_or_a_folder_is_not_a_regular_file(tmp_path):
    """An exhaustion trial: `include "ff.rules"`, a FIFO, said "no such file" though it is there."""
    import os
    os.mkfifo(tmp_path / "ff.rules")
    (tmp_path / "dir.rules").mkdir()
    for name in ("ff.rules", "dir.rules", "none.rules"):
        main_file = tmp_path / "main.rules"
        main_file.write_text(game("A", f'  include "{name}"'), encoding="utf-8")
        diagnostics, _ = rulelang.lint([str(main_file)])
        said = "no such file" if name == "none.rules" else "not a regular file"
        assert diagnostics[0].code == "E007" and diagnostics[0].message.endswith(said), diagnostics[0].message
