"""`rulelang replay SAVE.json`: a saved match replays move by move to the same position."""
from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

from rulelang.cli import main

RULES = str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules")


def save_a_match(tmp_path, capsys, monkeypatch) -> Path:
    """A save of a short Regicide match, with the rule file beside it (where replay looks)."""
    shutil.copy(RULES, tmp_path / "regicide.rules")
    save = tmp_path / "s.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"1\n1\n2\nsave {save}\nquit\n"))
    assert main(["play", RULES, "--players", "2", "--seed", "4", "--bot", "2=random"]) == 0
    capsys.readouterr()
    return save


def test_a_saved_match_replays_to_the_same_position(tmp_path, capsys, monkeypatch):
    save = save_a_match(tmp_path, capsys, monkeypatch)
    log = json.loads(save.read_text(encoding="utf-8"))["log"]
    assert main(["replay", str(save)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Regicide: 2 players, seed 4"
    assert [line.split(": ", 1)[1] for line in out[1:1 + len(log)]] == log
    assert out[-1] == f"replayed {len(log)} actions: the saved position is reproduced exactly"
    assert main(["replay", str(save), "--rules", RULES]) == 0


def test_a_tampered_save_is_caught(tmp_path, capsys, monkeypatch):
    save = save_a_match(tmp_path, capsys, monkeypatch)
    data = json.loads(save.read_text(encoding="utf-8"))
    data["state"]["vars"]["damage"] += 1                   # the moves no longer give this position
    save.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(save)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "the replayed position differs from the saved one"


def test_a_save_without_a_position_or_of_another_version_says_so(tmp_path, capsys, monkeypatch):
    """A fuzzer: a save whose `state` was deleted replayed to "the saved position is reproduced
    exactly" (there was none to compare with); one whose state's `version` was 2 read "the replayed
    position differs" — not the version, as `Match.from_state` says it."""
    save = save_a_match(tmp_path, capsys, monkeypatch)
    data = json.loads(save.read_text(encoding="utf-8"))
    data["state"]["version"] = 2
    save.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(save)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == \
        "the saved position is of version 2; this rulelang reads version 1 (a newer rulelang wrote it?)"
    del data["state"]
    save.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(save)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == \
        f"replayed {len(data['log'])} actions (the save holds no position to compare them with)"


def test_a_missing_or_foreign_file_is_one_line(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "none.json")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot load" in err and "No such file" in err and "Traceback" not in err
    other = tmp_path / "x.json"
    other.write_text("[1, 2]", encoding="utf-8")
    assert main(["replay", str(other)]) == 1
    assert "not a rulelang save file" in capsys.readouterr().err
