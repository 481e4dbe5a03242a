"""The lint corpus: broken rule files and the exact diagnostics each must produce.

`corpus/NAME.rules` is a small game with one kind of problem; `corpus/NAME.expected` lists
what `rulelang lint` says about it, one diagnostic a line, in the order it is reported:

    LINE:COLUMN: SEVERITY[CODE]: MESSAGE (did you mean `X`?)

A line may stop after `SEVERITY[CODE]`; then only the position, severity and code are
compared. Files named `deep_*` also get the deep lint (seeded random games) and list its
findings after the static ones, position and code only (their messages carry game counts).
To rewrite every .expected file from what the linter says now, after reading the diff:

    RULELANG_UPDATE_CORPUS=1 python -m pytest tests/lint/test_corpus.py
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main
from rulelang.core.errors import RuleRuntimeError
from rulelang.playtest import Finding

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
ROOT = HERE.parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))
DOCS = ROOT / "docs" / "diagnostics.md"
DEEP = {"games": 30, "seed": 0, "max_actions": 300}
FILES = sorted(CORPUS.glob("*.rules"))
UPDATE = os.environ.get("RULELANG_UPDATE_CORPUS") == "1"
CODE = re.compile(r"\b[EW]\d{3}\b")
# Codes no rule file in the corpus can show: an unreadable file, a broken IR .json (tested elsewhere);
# and the limits on what a rule or content file may ask (tests/test_limits_frontend.py).
NOT_IN_CORPUS = {"E000", "E300", "E301", "E003", "E004", "E005", "E006", "E007", "E506", "W210", "W211", "W212", "W213",
                 "W406"}     # (the deep lint's CPU budget: tests/test_run_budget.py)


def describe(d, full: bool = True) -> str:
    text = f"{d.line}:{d.column}: {d.severity}[{d.code}]"
    if full:
        text += f": {d.message}"
        if d.suggestion:
            text += f" (did you mean `{d.suggestion}`?)"
    return text


def actual(path: Path) -> list[str]:
    diagnostics, _ = rulelang.lint([str(path)])
    lines = [describe(d) for d in diagnostics]
    if path.name.startswith("deep_") and not any(d.severity == "error" for d in diagnostics):
        lines += [describe(d, full=False) for d in rulelang.deep_lint(path, **DEEP)]
    return lines


def expected(path: Path) -> list[str]:
    return [line for line in path.with_suffix(".expected").read_text(encoding="utf-8").splitlines() if line.strip()]


def matches(got: str, want: str) -> bool:
    return got == want or (re.fullmatch(r"\d+:\d+: \w+\[[EW]\d{3}\]", want) is not None
                           and got.startswith(want) and got[len(want):len(want) + 1] in ("", ":"))


def test_the_corpus_has_at_least_forty_files_each_with_its_expectations():
    assert len(FILES) >= 40
    for path in FILES:
        assert path.with_suffix(".expected").exists(), f"{path.name} has no .expected file"
    orphans = {p.stem for p in CORPUS.glob("*.expected")} - {p.stem for p in FILES}
    assert not orphans


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_corpus_file_gives_exactly_its_diagnostics(path):
    got = actual(path)
    if UPDATE:
        path.with_suffix(".expected").write_text("\n".join(got) + "\n", encoding="utf-8")
    want = expected(path)
    assert len(got) == len(want) and all(matches(g, w) for g, w in zip(got, want)), \
        "\n".join(["got:", *got, "want:", *want])


def test_every_file_is_broken_somehow():
    """Each corpus file shows at least one problem (else it is not a corpus file)."""
    for path in FILES:
        assert expected(path), path.name


def test_every_code_is_documented_and_every_documented_code_is_in_the_corpus():
    docs = DOCS.read_text(encoding="utf-8")
    documented = set(re.findall(r"^### ([EW]\d{3})\b", docs, flags=re.M))
    emitted = set()
    for module in (ROOT / "rulelang").rglob("*.py"):
        emitted |= set(re.findall(r"\"([EW]\d{3})\"", module.read_text(encoding="utf-8")))
    assert emitted - documented == set(), "codes the linter emits but docs/diagnostics.md does not explain"
    assert documented - emitted == set(), "codes documented but never emitted"
    in_corpus = set()
    for path in FILES:
        in_corpus |= set(CODE.findall(path.with_suffix(".expected").read_text(encoding="utf-8")))
    assert documented - NOT_IN_CORPUS - in_corpus == set(), "documented codes no corpus file shows"


def test_every_documented_code_has_an_example_and_a_fix():
    docs = DOCS.read_text(encoding="utf-8")
    sections = re.split(r"^### ", docs, flags=re.M)[1:]
    for section in sections:
        code = section.split()[0]
        assert "```" in section, f"{code} has no example"
        assert re.search(r"\*\*Fix", section), f"{code} has no fix"


# -- the real games ---------------------------------------------------------------------

@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_real_games_lint_without_a_single_diagnostic(path):
    diagnostics, _ = rulelang.lint([str(path)])
    assert [d.headline() for d in diagnostics] == []


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_real_games_survive_a_deep_lint(path):
    # (2,000 as the deep lint's default: a 4-player Dozen War with alliances takes ~900 random actions,
    # more than 1,000 in one game of 8)
    found = rulelang.deep_lint(path, games=4, seed=1, max_actions=2_000)
    assert [d.format() for d in found] == []


# -- deep findings reproduce -------------------------------------------------------------

DEEP_FILES = [p for p in FILES if p.name.startswith("deep_")]


@pytest.mark.parametrize("path", DEEP_FILES, ids=[p.stem for p in DEEP_FILES])
def test_a_deep_finding_replays_with_its_seed_and_log(path):
    findings = rulelang.deep_lint(path, **DEEP)
    assert findings and all(isinstance(f, Finding) for f in findings)
    game = rulelang.load(str(path))
    for f in findings:
        assert f.file == str(path) and 1 <= f.line <= len(path.read_text(encoding="utf-8").splitlines())
        assert f.seed is not None and f"seed {f.seed}" in f.message
        match = game.new_match(players=f.players, seed=f.seed, options=dict(f.options))
        if f.code == "W405":                  # no end: the whole log plays, and the game goes on
            for action in f.log:
                match.apply(action)
            assert not match.is_over and len(f.log) == DEEP["max_actions"]
            continue
        if f.code == "W407":                  # none offered: after the log, an action takes `none`
            for action in f.log:
                match.apply(action)
            assert any(str(a).endswith(" none") for a in match.legal_actions())
            continue
        if f.code == "W408":                  # actions alike: after the log, one is numbered
            for action in f.log:
                match.apply(action)
            texts = [str(a) for a in match.legal_actions()]
            assert any(t.endswith(" (2)") and t[:-4] in texts for t in texts), texts
            continue
        with pytest.raises(RuleRuntimeError):
            for action in f.log:
                match.apply(action)
        assert f.log, "the problem shows after at least one action"


def test_deep_lint_is_deterministic_and_reports_the_shortest_game():
    path = CORPUS / "deep_stuck.rules"
    one, two = rulelang.deep_lint(path, games=12, seed=3), rulelang.deep_lint(path, games=12, seed=3)
    assert [f.to_json() for f in one] == [f.to_json() for f in two]
    longer = rulelang.deep_lint(path, games=40, seed=3)
    assert len(longer[0].log) <= len(one[0].log)
    assert longer[0].games >= one[0].games


def test_deep_lint_of_a_file_with_errors_gives_its_errors():
    found = rulelang.deep_lint(CORPUS / "e201_type.rules", games=3)
    assert [d.code for d in found] == ["E201"]


# -- the command line --------------------------------------------------------------------

def test_cli_deep_json_carries_seed_players_and_log(capsys):
    path = str(CORPUS / "deep_capacity.rules")
    code = main(["lint", "--deep", "--games", "5", "--format", "json", path])
    items = json.loads(capsys.readouterr().out)
    assert code == 1                                   # a broken invariant is an error
    assert [i["code"] for i in items] == ["E413"]
    item = items[0]
    assert {"file", "line", "column", "end", "severity", "code", "message", "suggestion"} <= set(item)
    assert item["seed"] == 0 and item["players"] == 2 and item["log"] and item["games"] == 5


def test_cli_deep_text_prints_a_replay_line(capsys):
    path = str(CORPUS / "deep_stuck.rules")
    assert main(["lint", "--deep", "--games", "3", path]) == 1
    out = capsys.readouterr().out
    assert "error[E411]: stuck:" in out
    assert f"    replay: rulelang play {path} --players 2 --seed 0, then play: take " in out


def test_cli_strict_fails_on_warnings(capsys):
    path = str(CORPUS / "w204_pass_forever.rules")
    assert main(["lint", path]) == 0
    assert main(["lint", "--strict", path]) == 1
    assert main(["lint", "--strict", *map(str, GAMES)]) == 0


@pytest.mark.parametrize("argv", [["--games", "3"], ["--deep", "--games", "0"], ["--deep", "--games", "x"],
                                  ["--seed", "x"]])
def test_cli_usage_errors_exit_two(capsys, argv):
    assert main(["lint", *argv, str(GAMES[0])]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_time_prints_the_lint_time_on_stderr(capsys):
    assert main(["lint", "--time", *map(str, GAMES)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == f"ok: {len(GAMES)} file(s) clean"
    assert re.match(rf"lint: {len(GAMES)} file\(s\), \d+ lines in \d+\.\d+ s", captured.err)


def test_cli_exit_codes_clean_errors(capsys):
    assert main(["lint", str(CORPUS / "w209_unreachable_statement.rules")]) == 0
    assert main(["lint", str(CORPUS / "e401_no_way_out.rules")]) == 1


def test_w241_walks_a_bounded_number_of_nodes_through_defs(monkeypatch):
    """A fuzz finding: a def calling itself a thousand times, read by ten shown values, made W241
    walk for 12 s (100 s and more for a larger file): each (def, arguments) is now read once per
    shown value, within a node budget for the file."""
    import rulelang
    from rulelang.language import lint_visibility
    walked = [0]
    real = lint_visibility.walk

    def counting(node):
        for x in real(node):
            walked[0] += 1
            yield x
    monkeypatch.setattr(lint_visibility, "walk", counting)
    source = (Path(__file__).resolve().parents[1] / "games" / "w241_fan_out.rules").read_text(encoding="utf-8")
    rulelang.check_source(source, "w241_fan_out.rules")
    assert walked[0] < 2 * lint_visibility.W241_NODES


def codes_of(folder, source: str) -> set[str]:
    """The codes `rulelang.lint` gives a rule file of `source` (for the cases a corpus file cannot hold:
    every corpus file is broken, and these must lint without one warning)."""
    path = folder / "case.rules"
    path.write_text(source, encoding="utf-8")
    diagnostics, _ = rulelang.lint([str(path)])
    return {d.code for d in diagnostics}


def test_w269_not_of_a_text_that_shows_a_field_of_the_choice(tmp_path):
    """A review: `as "ride to " + text(s.n)` tells every choice apart (`ride to 3`), yet W269 said they read
    alike; a field read only in a test (`if s.big then "far" else "near"`) still warns (the corpus)."""
    source = (
        'game "Ride" {\n  players 2\n  kind Spot { n: int  big: bool  label "spot " + text(n) }\n'
        '  zone spots: set per player, owner\n'
        '  setup { for i in 1..4 { create Spot(n: i, big: i > 2) in spots[0] } }\n'
        '  turn { step s { action ride(s in spots[me]) as "ride to " + text(s.n) { end turn } } }\n'
        '  turn limit 6 { finish draw }\n}\n')
    assert "W269" not in codes_of(tmp_path, source)


def test_w263_not_of_a_parameters_values_read_from_a_zone_its_actor_sees_or_from_sizes(tmp_path):
    """The values a parameter takes warn when worked out from a zone the actor cannot see (the corpus);
    not from its own `owner` hand, nor from sizes, nor when chosen from the zone itself."""
    source = (
        'game "Sell" {\n  players 2\n  kind Card { v: int  label text(v) }\n'
        '  zone deck: pile, hidden\n  zone hand: set per player, owner\n'
        '  setup { for v in 1..9 { create Card(v: v) in deck }  shuffle deck\n'
        '          for p in players { move top(deck, 3) to hand[p] } }\n'
        '  turn { step s {\n'
        '    action sell(n in 0..count(c.v > 5 for c in hand[me])) as "sell " + text(n) { end turn }\n'
        '    action toss(n in 1..size(deck)) as "toss " + text(n) { end turn }\n'
        '    action keep(c in hand[me]) { end turn } } }\n'
        '  turn limit 6 { finish draw }\n}\n')
    assert "W263" not in codes_of(tmp_path, source)


def test_w271_not_of_a_field_shown_or_a_loop_name(tmp_path):
    """A review: a field `attack` shown in the label beside a value `attack` means the field, and a
    comprehension's own name is no field; only a name compared (the corpus) is warned."""
    source = (
        'game "Unit" {\n  players 2\n  enum Stat { attack, defense }\n'
        '  kind Unit { attack: int  tags: list[int]\n'
        '    label "atk " + text(attack) + text([attack for attack in tags]) }\n'
        '  zone box: set, public\n  setup { create Unit(attack: 2, tags: [1]) in box }\n'
        '  turn { step s { action stop { finish draw "stopped" } } }\n}\n')
    assert "W271" not in codes_of(tmp_path, source)


def test_w230_w263_not_of_current_in_a_step_without_by(tmp_path):
    """Whose turn it is acts in a step without `by`: `hand[current]` is the actor's own hand there, and
    W230 and W263 warned it (left alone twice); under `by next(current)` it is another's and both warn."""
    source = (
        'game "Current" {\n  players 2\n  kind Card { v: int  label text(v) }\n'
        '  zone deck: pile, hidden\n  zone hand: set per player, owner\n'
        '  setup { for v in 1..9 { create Card(v: v) in deck }  shuffle deck\n'
        '          for p in players { move top(deck, 3) to hand[p] } }\n'
        '  turn { step s {\n'
        '    action sell(c in hand[current]) require c.v > 2 { end turn }\n'
        '    action pass require count(c.v > 5 for c in hand[current]) == 0 { end turn } } }\n'
        '  turn limit 6 { finish draw }\n}\n')
    assert not {"W230", "W263"} & codes_of(tmp_path, source)
    assert not {"W230", "W263"} & codes_of(tmp_path, source.replace("step s {", "step s by current {"))
    assert {"W230", "W263"} <= codes_of(tmp_path, source.replace("step s {", "step s by next(current) {"))
    # an `anytime` action is offered to the others as an interrupt, `me` another seat than `current`: warned
    # (a review: the first version took the step `anytime` actions join for one without `by`)
    anytime = source.replace("    action pass require", "  } }\n  anytime action pass require").replace(
        "== 0 { end turn } } }\n", "== 0 { }\n")
    assert "W263" in codes_of(tmp_path, anytime), anytime


def test_no_e403_when_the_finish_is_in_a_proc_a_cycle_of_calls_comes_back_to(tmp_path):
    """A new author's betting rounds: `outer` calls `inner`, which may `finish` and calls `outer` again.
    Worked out from `inner`, `outer` was kept as never finishing, and the game was "never ends" (E403),
    which refuses to load."""
    source = ('game "Rounds" {\n  players 2\n  var n: int = 0\n'
              '  proc outer() { inner() }\n'
              '  proc inner() {\n'
              '    n += 1\n'
              '    if n >= 3 { finish draw "three" }\n'
              '    outer()\n'
              '  }\n'
              '  turn { step act { action go { outer()  end turn } } }\n}\n')
    assert codes_of(tmp_path, source) == set()
    m = rulelang.load(str(tmp_path / "case.rules")).new_match(2, seed=0)
    m.apply("go")
    assert m.is_over and "three" in m.result["reason"]


def test_what_a_proc_in_a_cycle_says_of_its_body_does_not_depend_on_the_order_declared(tmp_path):
    """A review: `outer` loops `while true { inner() }`, and `inner` may `finish` then calls `outer`. With
    `outer` declared first its loop was E404 ("never ends", refusing to load), with `inner` first it was
    not: the body's lints used the exits found before the cycle was settled. Now both lint alike: the
    `end turn` after `outer()` never runs (W209), as `outer` leaves only by `finish`."""
    outer = "  proc outer() { while true { inner() } }\n"
    inner = '  proc inner() {\n    n += 1\n    if n >= 3 { finish draw "three" }\n    outer()\n  }\n'
    for procs in (outer + inner, inner + outer):
        source = ('game "Loop" {\n  players 2\n  var n: int = 0\n' + procs +
                  '  turn { step act { action go { outer()  end turn } } }\n}\n')
        assert codes_of(tmp_path, source) == {"W209"}, procs
        m = rulelang.load(str(tmp_path / "case.rules")).new_match(2, seed=0)
        m.apply("go")
        assert m.is_over
    # (a statement after a call that, settled, never returns: W209, as after `finish` itself)
    source = ('game "After" {\n  players 2\n  var n: int = 0\n  proc outer() { inner()  log "after inner" }\n'
              '  proc inner() {\n    n += 1\n    if n >= 3 { finish draw "three" }\n    outer()\n    end turn\n  }\n'
              '  turn { step act { action go { outer()  end turn } } }\n}\n')
    path = tmp_path / "after.rules"
    path.write_text(source, encoding="utf-8")
    found = [(d.code, d.span.line) for d in rulelang.lint([str(path)])[0]]
    assert ("W209", 4) in found, found


W248_LOOPS = """game "Gifts" {
  players 2
  kind Card { n: int  label text(n) }
  zone a: set per player, owner
  zone b: set per player, owner
  zone hand: set per player, owner
  setup {
    for p in players { create Card(n: 1) in a[p]  create Card(n: 2) in b[p] }
    for p in players {
      for x in a[p] { move x to hand[next(p)]  reveal x to p }
      for x in b[p] { BODY }
    }
  }
  turn { step s { action go { finish draw } } }
}
"""


def test_w248_not_of_another_card_bound_to_the_same_name(tmp_path):
    """A new author's Tichu: two loops of one variable name, the first revealing each gift to its giver,
    the second moving other cards — W248 said the gifts moved away unseen (they were seen). A card
    revealed and moved in one loop's body still warns, and so does one named anew by `let`."""
    assert "W248" not in codes_of(tmp_path, W248_LOOPS.replace("BODY", "move x to hand[next(p)]  reveal x to p"))
    assert "W248" in codes_of(tmp_path, W248_LOOPS.replace("BODY", "reveal x to p  move x to hand[p]"))
    let = W248_LOOPS.replace("for x in b[p] { BODY }", "let y = top(b[p])  reveal y to p  let z = y  move y to hand[p]")
    assert "W248" in codes_of(tmp_path, let)
    # (a review: the same cards through loops whose variables are named otherwise, or a filtered list of the
    # zone revealed, still warn)
    other_names = W248_LOOPS.replace("for x in b[p] { BODY }", "").replace(
        "    for p in players {\n      for x in a[p] { move x to hand[next(p)]  reveal x to p }",
        "    for p in players { for x in a[p] { reveal x to next(p) } }\n"
        "    for q in players { for y in a[q] { move y to hand[q] } }\n    for p in players {")
    assert "W248" in codes_of(tmp_path, other_names)
    filtered = W248_LOOPS.replace("for x in b[p] { BODY }", "").replace(
        "    for p in players {\n      for x in a[p] { move x to hand[next(p)]  reveal x to p }",
        "    for x in a[0] { reveal x to 1 }\n    for x in [c for c in a[0] where c.n > 0] { move x to hand[1] }\n"
        "    for p in players {")
    assert "W248" in codes_of(tmp_path, filtered)


def test_w408_not_where_the_text_tells_the_copies_apart(tmp_path):
    """W408's way round: the face read through a parameter from a list of one tells the two yellow dice
    apart (`place Y1 a1`, `place Y2 a1`), and the deep lint says nothing."""
    source = (CORPUS / "deep_actions_alike.rules").read_text(encoding="utf-8").replace(
        "action place(d in pool, c in cells(window))",
        "action place(d in pool, f in [face[d]], c in cells(window)) as \"place \" + text(d) + text(f) + \" \" + text(c)")
    path = tmp_path / "told_apart.rules"
    path.write_text(source, encoding="utf-8")
    assert [d.code for d in rulelang.deep_lint(str(path), games=20)] == []
