"""A whole Valgarð game at the terminal against a random bot, with the board drawn."""
from __future__ import annotations

import io
import sys
from pathlib import Path

from rulelang.cli import main

VALGARD = str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules")


def test_a_full_game_against_a_random_bot_at_the_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    code = main(["play", VALGARD, "--seed", "5", "--bot", "2=random", "--option", "turn_limit=150"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Game over: " in out
    assert "Traceback" not in out
    # The board is drawn with labelled rows and columns, sockets between the octagon rows.
    assert "     a   b   c   d   e   f   g" in out
    assert any(line.startswith("  7 ") for line in out.splitlines())
    assert "·" in out


def test_hardcore_option_reaches_the_match(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", VALGARD, "--seed", "1", "--option", "hardcore=true"]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", VALGARD, "--seed", "1", "--option", "hardcore=3"]) == 1
    assert "option `hardcore` must be bool" in capsys.readouterr().err


def test_a_move_the_rules_refuse_is_told_why():
    """A first hour at the terminal: `march d4 d5` onto a Valkyrie was refused with no reason (Regicide's
    refusals quote the rules' `else` words; Valgarð's actions had none)."""
    import rulelang
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules"))
    m = game.new_match(2, 1)
    for cell in ("a1", "b1", "c1"):                # the muster, three each
        m.apply(f"place {cell}")
        m.apply(next(a for a in m.legal_actions() if str(a).startswith("place ")))
    assert "march a1 b1" not in [str(a) for a in m.legal_actions()]
    assert m.refusal("march a1 b1") == ("a piece marches onto an empty octagon that is not dead, or onto an "
                                        "enemy it may capture (a warrior cannot take a Valkyrie)")
    assert m.refusal("rally a1 a2").startswith("a lone warrior rallies onto a lone warrior of its own")
