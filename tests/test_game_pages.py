"""The how-to-play pages (`games/*.md`): every command they give runs, every option they name
exists. A page is what a new player copies from first; a renamed option must not leave it wrong."""
from __future__ import annotations

import io
import re
import shlex
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "games").glob("*.md"))


def commands(page: Path, verb: str) -> list[list[str]]:
    """The page's indented `rulelang VERB …` lines, as argument lists (comments cut)."""
    found = []
    for line in page.read_text(encoding="utf-8").splitlines():
        m = re.match(rf"\s{{4}}rulelang {verb} (.*)", line)
        if m:
            found.append(shlex.split(m.group(1).split(" #")[0]))
    return found


def test_every_shipped_game_has_a_page():
    assert sorted(p.stem for p in PAGES) == sorted(p.stem for p in (ROOT / "games").glob("*.rules"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_a_page_s_play_and_rules_commands_run(page, capsys, monkeypatch):
    plays = commands(page, "play")
    assert plays, f"{page.name} gives no play command"
    monkeypatch.chdir(ROOT)
    game = rulelang.load(str(ROOT / "games" / f"{page.stem}.rules"))
    for i, argv in enumerate(plays):
        players = int(argv[argv.index("--players") + 1].split(",")[0]) if "--players" in argv else game.min_players
        options = dict(a.split("=", 1) for a in argv[argv.index("--option") + 1:argv.index("--option") + 2]) \
            if "--option" in argv else {}
        assert game.min_players <= players <= game.max_players, f"{page.name}: {players} players"
        bots = [a for a in argv if re.fullmatch(r"\d=\w+", a)]
        if i > 0 and options == {} or len(bots) >= players:
            continue                  # (the first command is run whole, and each naming an option; bots
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n\n"))     # alone would play a whole game)
        code = main(["play", *argv, "--seed", "1"])
        out, err = capsys.readouterr()
        assert code == 0 and "error" not in err.lower(), f"{page.name}: rulelang play {' '.join(argv)}: {err}"
        assert "P1>" in out or "P1 " in out
    for argv in commands(page, "rules"):
        assert main(["rules", *argv]) == 0
        assert capsys.readouterr().out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_a_page_s_options_exist(page):
    text = page.read_text(encoding="utf-8")
    named = set(re.findall(r"--option (\w+)=", text))
    ir = rulelang.load(str(ROOT / "games" / f"{page.stem}.rules")).ir
    declared = {o["name"] for o in ir.get("options", [])} if isinstance(ir.get("options"), list) \
        else set(ir.get("options", {}))
    assert named <= declared, f"{page.name} names options the game lacks: {sorted(named - declared)}"
