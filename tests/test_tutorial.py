"""docs/tutorial.md and its step files (docs/tutorial/*.rules) stay true.

- every step file lints with no diagnostic at all (no errors, no warnings) and compiles;
- a seeded random game of each part's last step finishes;
- every ```rules block of the tutorial that names a step file on its first line is that file:
  `# docs/tutorial/NAME.rules` is the whole file, byte for byte; `# docs/tutorial/NAME.rules: new
  lines` is a fragment whose every line (bar `…`) is a line of that file;
- the commands shown work, and the pitfalls shown give the diagnostics the tutorial quotes.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rulelang
import rulelang.cli

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "tutorial.md"
STEPS_DIR = ROOT / "docs" / "tutorial"
STEPS = sorted(STEPS_DIR.glob("*.rules"))
FINAL = {"grid": "grid_5.rules", "cards": "cards_6.rules"}
BLOCK = re.compile(r"^```rules\n(.*?)^```", re.S | re.M)
HEADER = re.compile(r"# docs/tutorial/([\w.]+\.rules)(: new lines)?$")


def step(name: str) -> Path:
    return STEPS_DIR / name


def rules_blocks() -> list[str]:
    return BLOCK.findall(DOC.read_text(encoding="utf-8"))


def test_the_tutorial_has_its_steps():
    names = {p.name for p in STEPS}
    assert {f"grid_{i}.rules" for i in range(1, 6)} <= names
    assert {f"cards_{i}.rules" for i in range(1, 7)} <= names
    assert set(FINAL.values()) <= names


@pytest.mark.parametrize("path", STEPS, ids=lambda p: p.name)
def test_step_lints_clean_and_compiles(path):
    diags, _ = rulelang.lint([str(path)])
    assert diags == [], [f"{d.span.line}:{d.span.column} {d.code} {d.message}" for d in diags]
    game = rulelang.load(str(path))
    assert game.new_match(players=2, seed=0).legal_actions()
    # every step file starts with the header the tutorial shows it with
    assert path.read_text(encoding="utf-8").startswith(f"# docs/tutorial/{path.name}\n")


def play_out(path: Path, players: int, seed: int, options=None, cap: int = 500):
    match = rulelang.load(str(path)).new_match(players=players, seed=seed, options=options or {})
    rng = random.Random(seed)
    for _ in range(cap):
        if match.is_over:
            return match
        actions = match.legal_actions()
        assert actions, "a player with no legal action and the game not over"
        match.apply(actions[0] if seed % 2 == 0 else rng.choice(actions))
    raise AssertionError(f"{path.name}: not over after {cap} actions (seed {seed})")


@pytest.mark.parametrize("seed", range(4))
def test_final_grid_game_finishes(seed):
    for misere in (False, True):
        match = play_out(step(FINAL["grid"]), 2, seed, {"misere": misere})
        assert sorted(match.outcome["results"]) in (["lose", "win"], ["draw", "draw"])


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1), (4, 2), (3, 3)])
def test_final_card_game_finishes_by_score(players, seed):
    match = play_out(step(FINAL["cards"]), players, seed)
    outcome = match.outcome
    assert len(outcome["scores"]) == players
    best = max(outcome["scores"])
    for result, score in zip(outcome["results"], outcome["scores"]):
        assert (result != "lose") == (score == best)


def test_whole_file_blocks_are_the_files():
    whole = fragments = 0
    for block in rules_blocks():
        first = block.splitlines()[0]
        m = HEADER.match(first)
        if not m:
            continue
        path = step(m.group(1))
        assert path.exists(), f"the tutorial names {path.name}, which does not exist"
        text = path.read_text(encoding="utf-8")
        if m.group(2) is None:
            whole += 1
            assert block == text, f"the tutorial's copy of {path.name} differs from the file"
        else:
            fragments += 1
            lines = {line.strip() for line in text.splitlines()}
            for line in block.splitlines()[1:]:
                if line.strip() and line.strip() != "…":
                    assert line.strip() in lines, f"{path.name} has no line {line.strip()!r}"
    assert whole >= 2 and fragments >= 8


def test_every_step_appears_in_the_tutorial():
    doc = DOC.read_text(encoding="utf-8")
    for path in STEPS:
        assert f"# docs/tutorial/{path.name}" in doc, f"{path.name} is not shown in the tutorial"


def test_lint_command(capsys):
    assert rulelang.cli.main(["lint", str(step("grid_1.rules"))]) == 0
    assert capsys.readouterr().out.strip() == "ok: 1 file(s) clean"
    assert rulelang.cli.main(["lint", "--deep", "--games", "20",
                              str(step(FINAL["grid"])), str(step(FINAL["cards"]))]) == 0
    assert capsys.readouterr().out.strip() == "ok: 2 file(s) clean (20 random game(s) each played to the end or to the action limit)"


def test_simulate_command(capsys):
    assert rulelang.cli.main(["simulate", str(step("grid_5.rules")), "--games", "50", "--bot", "random",
                              "--seed", "1", "--option", "misere=true"]) == 0
    out = capsys.readouterr().out
    assert "Three in a Row: 50 games, 2 players, seed 1" in out and "errors: 0" in out
    assert rulelang.cli.main(["simulate", str(step("cards_5.rules")), "--players", "3", "--games", "50",
                              "--bot", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Colour Match: 50 games, 3 players" in out and "errors: 0" in out


def test_rules_command(capsys):
    assert rulelang.cli.main(["rules", str(step("grid_4.rules"))]) == 0
    out = capsys.readouterr().out
    assert "Three of your marks in a row" in out and "“the grid is full”" in out


def test_play_command(capsys, monkeypatch):
    """The game the tutorial plays in step 3: X takes row 2."""
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("place a2\nplace a1\nplace b2\nplace b1\nplace c2\n"))
    rulelang.cli.main(["play", str(step("grid_3.rules")), "--seed", "1"])
    out = capsys.readouterr().out
    assert "  2  X   X   X" in out
    assert "P1 (human): win" in out


# ---- the pitfalls: each wrong variant (made from a step file as the tutorial says) gives the
# diagnostic the tutorial quotes
PITFALLS = [
    ("grid_3.rules", "mark[c] = me", "mrak[c] = me", "E101", "unknown variable `mrak`"),
    ("grid_4.rules", 'finish win for me "three in a row for " + text(me)',
     'finish win for me text(me) + " has three in a row"', "E001", "unexpected `+`"),
    ("cards_3.rules", "action draw require size(deck) > 0 {", "action draw {", "E403",
     "the game can never end"),
    ("cards_5.rules", " ranked by -sum(c.rank for c in hand[me])", "", "E113",
     "`finish by score` needs the players ranked"),
    ("grid_1.rules", "        end turn\n", "", "W217", "no turn ever ends"),
    ("cards_3.rules", "zone hand: set per player, owner", "zone hand: set per player, hidden", "W218",
     "which is hidden"),
]


@pytest.mark.parametrize("name, old, new, code, message", PITFALLS, ids=[p[3] for p in PITFALLS])
def test_pitfall_diagnostics(tmp_path, name, old, new, code, message):
    text = step(name).read_text(encoding="utf-8")
    assert old in text
    wrong = tmp_path / name
    wrong.write_text(text.replace(old, new), encoding="utf-8")
    diags, _ = rulelang.lint([str(wrong)])
    assert any(d.code == code and message in d.message for d in diags), diags
    severity = "warning" if code.startswith("W") else "error"
    assert f"{severity}[{code}]" in DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("name, drop, code, games", [
    ("grid_3.rules", "on stuck", "E411", 40),                    # a full grid: nobody can move
    ("cards_3.rules", "move top(deck) to pile", "E414", 3),       # top(pile) of an empty pile
])
def test_deep_lint_pitfalls(tmp_path, name, drop, code, games):
    text = step(name).read_text(encoding="utf-8")
    wrong = tmp_path / name
    wrong.write_text("".join(l for l in text.splitlines(True) if drop not in l), encoding="utf-8")
    assert rulelang.lint([str(wrong)])[0] == []          # plain lint cannot see it ...
    found = rulelang.deep_lint(str(wrong), games=games)   # ... the random games do
    assert [d.code for d in found] == [code]
    assert f"error[{code}]" in DOC.read_text(encoding="utf-8")
