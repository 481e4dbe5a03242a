"""benchmarks/scaling.py (the scaling tables of the engine-speed issue) runs and prints its tables."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "scaling.py"


def run(*args: str) -> str:
    proc = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def tables(out: str) -> list[list[dict[str, str]]]:
    """Every markdown table of the output, as rows keyed by the header's cells."""
    found, head = [], None
    for line in out.splitlines():
        if not line.startswith("|"):
            head = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if head is None:
            head = cells
            found.append([])
        elif not set(line) <= set("|-: "):
            assert len(cells) == len(head), line
            found[-1].append(dict(zip(head, cells)))
    return found


@pytest.mark.slow
def test_memory_table_has_every_game_at_its_minimum_and_maximum_player_count():
    out = run("--quick", "--only", "memory", "--clones", "50")
    assert "## 4. Memory per state and clone cost" in out
    assert "## 1." not in out and "## 2." not in out and "## 3." not in out
    [table] = tables(out)
    assert [(r["game"], r["players"]) for r in table] == [
        ("Regicide", "1"), ("Regicide", "4"), ("Valgarð", "2"), ("Shadow Hunters", "4"), ("Shadow Hunters", "8"),
        ("Smash Up", "2"), ("Smash Up", "4"), ("Dozen War", "2"), ("Dozen War", "4")]
    for r in table:
        assert re.fullmatch(r"[\d,]+", r["clone bytes"]), r                     # may be ~0: lazy clones
        assert re.fullmatch(r"\d+\.\d", r["µs/clone"]), r
        assert re.fullmatch(r"[\d,]+", r["JSON chars"]), r
        assert re.fullmatch(r"\d+\.\d", r["traced MB: 10k clones"]), r
        assert r["< 100 MB"].startswith(("yes", "**no**")), r


@pytest.mark.slow
def test_board_tables_have_every_size_linted_clean():
    out = run("--quick", "--only", "board", "--games", "4")
    assert "## 1. Board size: Valgarð" in out and "## 4." not in out
    density, fixed = tables(out)
    assert [r["size"] for r in density] == [r["size"] for r in fixed] == ["5×5", "7×7", "9×9", "13×13"]
    assert [r["warriors each"] for r in density] == ["6", "12", "20", "41"]
    assert [r["warriors each"] for r in fixed] == ["12"] * 4
    for r in density + fixed:
        assert r["lint"] == "clean", r
        assert r["games"] == "2", r                                     # --games 4 × ½ for Valgarð
        assert re.fullmatch(r"\d+\.\d", r["µs/action"]), r
        assert re.fullmatch(r"[\d,]+", r["clone bytes"]), r
    assert density[0]["×µs/action"] == fixed[0]["×µs/action"] == "1.00"   # growth from the first row


def test_only_rejects_an_unknown_table():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--only", "speed"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 2 and "--only" in proc.stderr


def test_alternate_measures_two_checkouts_taking_turns():
    """benchmarks/alternate.py (the like-for-like measure of the issue's base against this engine):
    each tree's own engine and games, CPU time, a ratio to the first tree."""
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "alternate.py"), "--tree", str(ROOT),
                           "--tree", str(ROOT), "--game", "regicide:2:2", "--runs", "2", "--repeats", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("regicide 2p, 2 games, 2 runs x best of 1")
    assert len(lines) == 3 and all(re.search(r"\(median [\d,]+, \d+\.\d\dx\)$", x) for x in lines[1:])
    assert lines[1].endswith("1.00x)")
