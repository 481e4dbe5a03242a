"""`rulelang new NAME [--template grid|cards]`: a starter rule file that lints clean and plays, never
written over an existing file."""
from __future__ import annotations

import random

import pytest

import rulelang
from rulelang.cli import TEMPLATES, main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def play_out(game, players: int, seed: int) -> dict:
    """A seeded random game to its end."""
    rng = random.Random(seed)
    match = game.new_match(players=players, seed=seed)
    for _ in range(1000):
        if match.is_over:
            return match.outcome
        match.apply(rng.choice(match.legal_actions()))
    raise AssertionError("the game did not end in 1000 actions")


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_template_lints_without_any_diagnostic_and_plays(capsys, tmp_path, template):
    path = tmp_path / f"my_{template}.rules"
    code, out, err = run(capsys, "new", str(tmp_path / f"my_{template}"), "--template", template)
    assert code == 0 and err == "" and out.startswith(f"wrote {path}")
    text = path.read_text(encoding="utf-8")
    assert f'game "my_{template}"' in text and f"rulelang play my_{template}.rules" in text
    assert "__NAME__" not in text and "__FILE__" not in text
    diagnostics, _ = rulelang.lint([str(path)])
    assert diagnostics == []
    assert run(capsys, "lint", "--strict", str(path))[0] == 0
    code, out, err = run(capsys, "simulate", str(path), "--games", "20", "--bot", "random")
    assert code == 0 and "errors: 0" in out and err == ""
    rulelang.compile_file(str(path))
    game = rulelang.load(str(path))
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(5):
            outcome = play_out(game, players, seed)
            assert len(outcome["results"]) == players and outcome["reason"]


def test_the_default_template_is_the_grid_game_and_a_rules_suffix_is_not_doubled(capsys, tmp_path):
    assert run(capsys, "new", str(tmp_path / "first.rules"))[0] == 0
    assert "squares(3, 3)" in (tmp_path / "first.rules").read_text(encoding="utf-8")
    assert not (tmp_path / "first.rules.rules").exists()


def test_an_existing_file_is_never_overwritten(capsys, tmp_path):
    path = tmp_path / "mine.rules"
    path.write_text("my own work\n", encoding="utf-8")
    code, out, err = run(capsys, "new", str(tmp_path / "mine"), "--template", "cards")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "already exists" in err and "Traceback" not in err
    assert path.read_text(encoding="utf-8") == "my own work\n"


@pytest.mark.parametrize("argv, says", [
    (["new", "x", "--template", "chess"], "no template 'chess'; choose one of grid, cards"),
    (["new", "two words"], "bad name"),
    (["new", ".hidden"], "bad name"),
    (["new", "\x1b[31mred"], "bad name '\\u001b[31mred'"),      # (was `'\\\\u001b…'`: a fuzz trial)
    (["new", "nowhere/at/all/x"], "no such folder"),
])
def test_a_bad_request_is_one_line(capsys, tmp_path, monkeypatch, argv, says):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code in (1, 2) and out == "" and says in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []
