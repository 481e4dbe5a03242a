"""The `rulelang` command end to end on the real game (games/regicide.rules):
compile, simulate, play at a piped terminal, hot seat, and bad command lines."""
from __future__ import annotations

import argparse
import copy
import io
import json
import random
import re
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import rulelang
from rulelang.cli import main
from rulelang.play.repl import run_repl

ROOT = Path(__file__).resolve().parent.parent
REGICIDE = str(ROOT / "games" / "regicide.rules")
SCHEMA = ROOT / "rulelang" / "ir" / "schema.json"
TIMINGS = ("seconds", "actions_per_s", "playouts_per_s")
SIM_KEYS = {"games", "players", "seed", "actions", "seconds", "actions_per_s", "playouts_per_s", "outcomes"}


@pytest.fixture(scope="module")
def game():
    return rulelang.load(REGICIDE)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def play_cli(capsys, monkeypatch, lines, *argv: str) -> tuple[int, str, str]:
    """`rulelang play` with `lines` piped to its standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    return run(capsys, "play", *argv)


def random_playout(match, seed: int, limit: int = 5000) -> list[str]:
    rng = random.Random(seed)
    for _ in range(limit):
        if match.is_over:
            return match.log
        match.apply(rng.choice(match.legal_actions()))
    raise AssertionError("the game did not finish")


# -- compile -----------------------------------------------------------------------

def test_compile_writes_ir_that_validates_against_the_schema(tmp_path, capsys):
    out_path = tmp_path / "regicide.json"
    code, out, err = run(capsys, "compile", REGICIDE, "-o", str(out_path))
    assert (code, out, err) == (0, "", "")
    ir = json.loads(out_path.read_text(encoding="utf-8"))
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    errors = sorted(Draft202012Validator(schema).iter_errors(ir), key=lambda e: list(e.path))
    assert errors == [], [f"{list(e.path)}: {e.message}" for e in errors[:5]]


def test_compile_to_stdout_prints_the_same_ir(tmp_path, capsys):
    out_path = tmp_path / "regicide.json"
    run(capsys, "compile", REGICIDE, "-o", str(out_path))
    code, out, err = run(capsys, "compile", REGICIDE)
    assert code == 0 and err == ""
    assert json.loads(out) == json.loads(out_path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("players", [1, 2, 4])
def test_compiled_ir_loads_and_plays_like_the_rule_file(tmp_path, capsys, game, players):
    out_path = tmp_path / "regicide.json"
    assert run(capsys, "compile", REGICIDE, "-o", str(out_path))[0] == 0
    compiled = rulelang.load(str(out_path))
    assert compiled.name == game.name == "Regicide"
    match = compiled.new_match(players, seed=11)
    log = random_playout(match, seed=3)
    assert match.is_over and len(match.outcome["results"]) == players
    assert set(match.outcome["results"]) <= {"win", "lose", "draw"}
    assert log == random_playout(game.new_match(players, seed=11), seed=3)


def test_play_and_simulate_accept_compiled_ir(tmp_path, capsys, monkeypatch):
    out_path = tmp_path / "regicide.json"
    run(capsys, "compile", REGICIDE, "-o", str(out_path))
    args = ("--players", "2", "--games", "5", "--seed", "4", "--json")
    from_ir = json.loads(run(capsys, "simulate", str(out_path), *args)[1])
    from_rules = json.loads(run(capsys, "simulate", REGICIDE, *args)[1])
    for key in TIMINGS:
        from_ir.pop(key), from_rules.pop(key)
    assert from_ir == from_rules
    code, out, err = play_cli(capsys, monkeypatch, ["1", "quit"], str(out_path), "--seed", "2")
    assert code == 0 and err == "" and "P1 plays: " in out


# -- simulate ----------------------------------------------------------------------

def simulate_json(capsys, players: int) -> dict:
    code, out, err = run(capsys, "simulate", REGICIDE, "--players", str(players), "--games", "30",
                         "--seed", "1", "--bot", "random", "--json")
    assert code == 0 and err == ""
    assert out.count("\n") == 1 and out.endswith("}\n")     # one JSON object on one line
    return json.loads(out)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_simulate_json_is_one_object_with_the_figures(capsys, players):
    result = simulate_json(capsys, players)
    assert SIM_KEYS <= set(result)
    assert (result["games"], result["players"], result["seed"]) == (30, players, 1)
    assert result["bots"] == ["random"] * players
    assert set(result["outcomes"]) == {"win", "lose", "draw"}
    assert sum(result["outcomes"].values()) + result["errors"] == 30
    assert result["errors"] == 0, result["failures"]
    assert result["actions"] >= 30
    assert result["seconds"] > 0 and result["actions_per_s"] > 0 and result["playouts_per_s"] > 0
    assert result["actions_per_s"] == pytest.approx(result["actions"] / result["seconds"])
    assert result["playouts_per_s"] == pytest.approx(30 / result["seconds"])


@pytest.mark.parametrize("players", [1, 2, 4])
def test_simulate_twice_gives_the_same_figures_but_timings(capsys, players):
    first, second = simulate_json(capsys, players), simulate_json(capsys, players)
    for result in (first, second):
        for key in TIMINGS:
            result.pop(key)
    assert first == second


def test_simulate_text_report(capsys):
    code, out, err = run(capsys, "simulate", REGICIDE, "--players", "2", "--games", "5", "--seed", "1")
    assert code == 0 and err == ""
    assert out.startswith("Regicide: 5 games, 2 players, seed 1 (bots: P1 random, P2 random)")
    assert "errors: 0" in out


# -- play at a piped terminal ---------------------------------------------------------

def shortest_unique_prefix(text: str, texts: list[str]) -> str:
    for n in range(1, len(text) + 1):
        prefix = text[:n].lower()
        if sum(t.lower().startswith(prefix) for t in texts) == 1:
            return text[:n]
    raise AssertionError(f"{text!r} has no unique prefix")


def error_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if "error" in line]


def test_play_by_number_text_and_prefix_with_log_undo_save_load(tmp_path, capsys, monkeypatch, game):
    match = game.new_match(2, 5)
    first = [str(a) for a in match.legal_actions()]
    match.apply(first[1])
    discards = [str(a) for a in match.legal_actions()]
    prefix = shortest_unique_prefix(discards[-1], discards)
    assert prefix != discards[-1]
    save, corrupt = tmp_path / "match.json", tmp_path / "corrupt.json"
    corrupt.write_text("{this is not json", encoding="utf-8")
    lines = ["1", "undo", first[1].upper(), "log", f"save {save}", prefix, "99", "dance",
             f"load {corrupt}", f"load {save}", "log", "quit"]
    code, out, err = play_cli(capsys, monkeypatch, lines, REGICIDE, "--players", "2", "--seed", "5",
                              "--bot", "2=random")
    assert code == 0 and err == ""
    assert "Traceback" not in out
    assert out.startswith("Regicide: 2 players, seed 5\n  P1 human, P2 random bot\n")
    assert f"P1> 1\nP1 plays: {first[0]}\n" in out
    assert "P1> undo\nundone\n" in out
    assert f"P1 plays: {first[1]}\n" in out
    assert f"P1> log\n  1. P1: {first[1]}\nP1> save" in out          # (who played it: issue 28)
    # (Regicide hides hands: the file names them, and the table says so — a first hour at the terminal)
    assert f"P1> save {save}\n(a save holds every hidden card: keep the file from the other players)\nsaved {save}\n" in out
    assert f"P1> {prefix}\nP1 plays: {discards[-1]}\n" in out
    assert error_lines(out) == [
        f"error: there is no action 99; choose 1-{len(discards) - 1}",
        "error: 'dance' is not a legal action or a command (legal now: discard 4♣, discard 6♦, discard 5♣, discard 5♠, discard 7♥; type help)",
        f"error: cannot load {corrupt}: not a rulelang save file",
    ]
    for line in error_lines(out):           # one line each, then straight back to the prompt
        assert f"{line}\nP1> " in out
    assert f"loaded {save}\n" in out
    after_load = out.split(f"loaded {save}\n")[1]
    assert f"P1> log\n  1. P1: {first[1]}\nP1> quit" in after_load     # (who, from the replayed save)
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["players"] == 2 and saved["seed"] == 5 and saved["state"]["log"] == [first[1]]


def test_help_and_a_save_without_a_file_name(capsys, monkeypatch):
    code, out, err = play_cli(capsys, monkeypatch, ["help", "save", "load", "quit"], REGICIDE, "--seed", "1")
    assert code == 0 and err == ""
    for command in ("help", "log", "undo", "save FILE", "load FILE", "quit"):
        assert command in out
    assert error_lines(out) == ["error: save needs a file name, e.g. save match.json",
                                "error: load needs a file name, e.g. load match.json"]
    # (a fuzz trial: `save ''` read "cannot save : No such file…", `save "  "` wrote a file named so)
    code, out, err = play_cli(capsys, monkeypatch, ["save ''", 'save "  "', "quit"], REGICIDE, "--seed", "1")
    assert error_lines(out) == ["error: save needs a file name, e.g. save match.json"] * 2


def test_a_bot_budget_out_of_range_is_said_so_however_it_is_written():
    """A fuzz trial: `mcts:99999999999999999999999` and `ismcts:1e309s` read "unknown bot kind"."""
    from rulelang.play.bots import parse_kind
    for kind, said in [("mcts:" + "9" * 5000, "a search makes 1 to 9,999,999 iterations a move"),
                       ("ismcts:1e309s", "a search's time is more than 0 and at most 3600 s a move"),
                       ("ismcts:1e3s", "unknown bot kind 'ismcts:1e3s'")]:
        with pytest.raises(ValueError, match=re.escape(said)):
            parse_kind(kind)
    assert len(str(pytest.raises(ValueError, parse_kind, "mcts:" + "9" * 5000).value)) < 120


def test_lint_takes_one_path_alone(tmp_path):
    """A fuzz trial: `rulelang.lint("x.rules")` read the name letter by letter (`no such file: x`)."""
    path = tmp_path / "g.rules"
    path.write_text('game "G" {\n  players 2\n  turn { step s { action stop { finish draw } } }\n}\n', encoding="utf-8")
    assert rulelang.lint(str(path)) == rulelang.lint([str(path)]) and str(path) in rulelang.lint(path)[1]
    assert rulelang.lint(str(path).encode())[0] == []      # (bytes too: read item by item, a review)


def test_play_stops_cleanly_when_input_ends(capsys, monkeypatch):
    code, out, err = play_cli(capsys, monkeypatch, ["1"], REGICIDE, "--seed", "1")
    assert code == 0 and err == ""
    assert out.rstrip().endswith("input ended")


def test_bots_alone_play_a_whole_game(capsys, monkeypatch):
    code, out, err = play_cli(capsys, monkeypatch, [], REGICIDE, "--players", "3", "--seed", "8",
                              "--bot", "random")
    assert code == 0 and err == ""
    assert "Game over: everyone loses" in out or "Game over: everyone wins" in out
    assert re.search(r"P3 \(random bot\): (win|lose|draw)", out)


def corrupt_save(tmp_path, capsys, monkeypatch, change) -> Path:
    path = tmp_path / "save.json"
    play_cli(capsys, monkeypatch, [f"save {path}", "quit"], REGICIDE, "--players", "2", "--seed", "5",
             "--bot", "2=random")
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["state"])
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("change", [
    lambda state: state["vars"].__setitem__("damage", "lots"),
    lambda state: state.__setitem__("outcome", "won"),
], ids=["var-of-the-wrong-type", "outcome-not-an-object"])
def test_a_save_with_a_corrupt_state_is_refused_in_one_line(tmp_path, capsys, monkeypatch, change, game):
    path = corrupt_save(tmp_path, capsys, monkeypatch, change)
    first = str(game.new_match(2, 5).legal_actions()[0])
    code, out, err = play_cli(capsys, monkeypatch, [f"load {path}", "1", "quit"], REGICIDE, "--players", "2",
                              "--seed", "5", "--bot", "2=random")
    assert code == 0 and "Traceback" not in out + err
    assert error_lines(out) == [error_lines(out)[0]] and error_lines(out)[0].startswith(f"error: cannot load {path}")
    assert f"P1 plays: {first}" in out


def test_a_save_of_another_game_is_refused(tmp_path, capsys, monkeypatch):
    path = corrupt_save(tmp_path, capsys, monkeypatch, lambda state: None)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["name"] = "Chess"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = play_cli(capsys, monkeypatch, [f"load {path}", "quit"], REGICIDE, "--players", "2",
                            "--seed", "5", "--bot", "2=random")
    assert code == 0
    assert error_lines(out) == [f"error: cannot load {path}: it is a save of 'Chess', not of 'Regicide'"]


# -- hot seat: two humans at one terminal ------------------------------------------------

HAND_OVER = "Pass the terminal to"


class HotSeatKeys:
    """Piped input for two human seats. It answers each prompt by looking at what was
    printed last, plays the first legal action by its text (or a scripted command), and
    keeps a shadow match in step so it knows, at every prompt, the cards the *other*
    seat holds. Every prompt's screen (from the last hand-over) is recorded."""

    def __init__(self, game, seed: int, out: io.StringIO, script: dict[int, list[str]]):
        self.shadow = game.new_match(2, seed)
        self.history: list = []
        self.out = out
        self.script = script
        self.screens: list[tuple[int, list[str], str]] = []

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        text = self.out.getvalue()
        prompt = text.rsplit("\n", 1)[-1]
        if prompt.startswith(HAND_OVER):
            return "\n"
        if "type yes to agree" in prompt:           # (undoing the other seat's decision: they agree)
            return "yes\n"
        if len(self.screens) > 300:
            return ""
        seat = int(re.fullmatch(r"P(\d)> ", prompt).group(1)) - 1
        other = 1 - seat
        hidden = [card["label"] for zone in self.shadow.view(other)["zones"]
                  if zone["name"] == "hand" and zone["owner"] == other for card in zone["cards"]]
        start = max(text.rfind(HAND_OVER), text.rfind("=" * 60))     # (since the screen was last cleared)
        self.screens.append((seat, hidden, text[max(start, 0):]))
        queue = self.script.get(seat, [])
        if queue and queue[0] == "undo":
            queue.pop(0)
            self.shadow = self.history.pop()
            return "undo\n"
        action = str(self.shadow.legal_actions()[0])
        self.history.append(self.shadow.clone())
        self.shadow.apply(action)
        return action + "\n"


@pytest.mark.parametrize("seed, script", [(11, {}), (5, {}), (11, {1: ["undo"]})],
                         ids=["seed-11", "seed-5", "seed-11-undo-by-P2"])
def test_hot_seat_never_shows_the_other_hand_to_the_deciding_player(game, seed, script):
    out = io.StringIO()
    keys = HotSeatKeys(game, seed, out, script)
    code = run_repl(game, 2, seed, {}, {}, keys, out, REGICIDE)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text
    assert "Game over: " in text
    assert text.count(HAND_OVER) >= 2
    if script:
        assert ("P2> undo\n\n" + "=" * 60 + "\nP2 asks to undo P1's last decision. P1, type yes to agree "
                "(Enter: keep it): yes\nundone\n") in text
    assert {seat for seat, _, _ in keys.screens} == {0, 1}
    assert all(hidden for _, hidden, _ in keys.screens[:4]), "the other seat holds cards: the check means something"
    for seat, hidden, screen in keys.screens:
        assert f"you are P{seat + 1}" in screen
        assert f"you are P{2 - seat}" not in screen
        leaked = [label for label in hidden if re.search(rf"(?<![\w]){re.escape(label)}(?!\w)", screen)]
        assert leaked == [], f"P{seat + 1} saw P{2 - seat}'s {leaked}"
        assert re.search(rf"hand \(P{2 - seat}\): \d+ cards?, hidden", screen)


def test_hot_seat_undo_of_another_players_decision_needs_their_yes():
    game = rulelang.load(str(ROOT / "docs" / "tutorial" / "grid_5.rules"))
    out = io.StringIO()
    keys = io.StringIO("1\nundo\n\n1\nundo\nyes\nquit\n")
    run_repl(game, 2, 1, {}, {}, keys, out, None)
    text = out.getvalue()
    assert ("P2> undo\nP2 asks to undo P1's last decision. P1, type yes to agree (Enter: keep it): \n"
            "not undone: P1 keeps their decision\n") in text
    assert ("P1> undo\nP1 asks to undo P2's last decision. P2, type yes to agree (Enter: keep it): yes\n"
            "undone\n") in text
    assert text.split("undone\n")[1].split("\n")[0].startswith("== Three in a Row · turn 2 · P2's turn")


def test_hot_seat_hand_over_segments_hold_one_view_each(game):
    """Split the transcript at the hand-over prompts: each segment is one seat's screen."""
    out = io.StringIO()
    keys = HotSeatKeys(game, 11, out, {})
    run_repl(game, 2, 11, {}, {}, keys, out, REGICIDE)
    segments = out.getvalue().split(HAND_OVER)
    assert len(segments) >= 3
    for segment in segments:
        viewers = set(re.findall(r"you are (P\d)", segment))
        prompts = set(re.findall(r"^(P\d)> ", segment, flags=re.M))
        assert len(viewers) == 1 and prompts <= viewers, (viewers, prompts)
    viewers_in_order = [re.search(r"you are (P\d)", s).group(1) for s in segments]
    assert all(a != b for a, b in zip(viewers_in_order, viewers_in_order[1:]))


# -- bad command lines --------------------------------------------------------------------

@pytest.mark.parametrize("argv, code, message", [
    (["play", "missing.rules"], 1, "error[E000]: no such file: missing.rules"),
    (["simulate", "missing.rules"], 1, "error[E000]: no such file: missing.rules"),
    (["compile", "missing.rules"], 1, "error[E000]: no such file: missing.rules"),
    (["simulate", REGICIDE, "--games", "2", "--option", "foo=1"], 1, "error: unknown option `foo`"),
    (["play", REGICIDE, "--option", "foo=1"], 1, "error: unknown option `foo`"),
    (["simulate", REGICIDE, "--games", "2", "--players", "5"], 1, "error: Regicide is for 1..4 players, not 5"),
    (["simulate", REGICIDE, "--games", "2", "--players", "-1"], 1, "error: Regicide is for 1..4 players, not -1"),
    (["play", REGICIDE, "--players", "9"], 1, "error: Regicide is for 1..4 players, not 9"),
    (["play", REGICIDE, "--players", "2", "--bot", "3=random"], 1, "error: no seat P3 in a 2-player match"),
    (["simulate", REGICIDE, "--games", "0"], 1, "error: the number of games must be at least 1"),
    (["simulate", REGICIDE, "--players", "two"], 2, "argument --players: expected a whole number, got 'two'"),
    (["simulate", REGICIDE, "--players", "10000000000"], 2, "argument --players: must be at most 64, not 10000000000"),
    (["bench", REGICIDE, "--players", "1,100000000000"], 2, "a player count is from 1 to 64, got '1,100000000000'"),
    (["simulate", REGICIDE, "--games", "99999999999999"], 2, "--games: must be at most 10,000,000, not 99999999999999"),
    (["simulate", REGICIDE, "--workers", "100000"], 2, "argument --workers: must be at most 64, not 100000"),
    (["serve", "--port", "99999"], 2, "argument --port: must be at most 65535, not 99999"),
    (["play", REGICIDE, "--players", "9" * 60], 2, "must be at most 64, not 9999999999999999999999999999999999999..."),
    (["play", REGICIDE, "--players", "0" * 40 + "9"], 1, "error: Regicide is for 1..4 players, not 9"),
    (["simulate", REGICIDE, "--bot", "smart"], 2, "argument --bot: unknown bot kind 'smart'"),
    (["play", REGICIDE, "--option", "foo"], 2, "argument --option: expected K=V, got 'foo'"),
    (["play", REGICIDE, "--bot", "0=random"], 2, "argument --bot: bad seat '0'"),
    (["frobnicate"], 2, "invalid choice: 'frobnicate'"),
    (["play", REGICIDE, "--frobnicate"], 2, "rulelang play: error: unrecognized arguments: --frobnicate"),
    (["lint", REGICIDE, "-x"], 2, "rulelang lint: error: unrecognized arguments: -x"),
    ([], 2, "the following arguments are required: COMMAND"),
])
def test_bad_command_lines_are_one_clear_line(capsys, monkeypatch, argv, code, message):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    got, out, err = run(capsys, *argv)
    assert got == code
    assert "Traceback" not in out + err
    assert out == ""
    last = err.rstrip("\n").splitlines()[-1]
    assert message in last
    if code == 1:
        assert err.count("\n") == 1, err          # exactly one line
    else:
        assert err.startswith("usage: rulelang")  # argparse: usage, then the one error line


def test_an_unknown_argument_is_said_with_its_commands_usage(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, err = run(capsys, "play", REGICIDE, "--frobnicate")
    assert code == 2 and err.startswith("usage: rulelang play ")


@pytest.mark.parametrize("command", ["lint", "play", "compile"])
def test_a_file_that_is_not_utf8_is_said_where_in_one_line(tmp_path, capsys, monkeypatch, command):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    bad = tmp_path / "latin1.rules"
    bad.write_bytes('game "Café" {\n  # déjà\n}\n'.encode("latin-1"))
    code, out, err = run(capsys, command, str(bad))
    assert code == 1 and "Traceback" not in out + err
    assert f"{bad}:1:10: not UTF-8 text (byte 0xe9)" in out + err
    assert "codec" not in out + err


def test_an_included_file_that_is_not_utf8_is_said_where(tmp_path, capsys):
    (tmp_path / "cards.rules").write_bytes("enum Suit { hearts }\n# ♥ \xff\n".encode("utf-8").replace(b"\xc3\xbf", b"\xff"))
    main_file = tmp_path / "main.rules"
    main_file.write_text('game "G" {\n  include "cards.rules"\n}\n', encoding="utf-8")
    code, out, err = run(capsys, "lint", str(main_file))
    assert code == 1
    assert f"cannot include 'cards.rules': {tmp_path / 'cards.rules'}:2:5: not UTF-8 text (byte 0xff)" in out + err


def test_an_include_named_with_a_control_character_is_refused_where_it_is_written(tmp_path, capsys):
    """A review: `include "tab<TAB>name.rules"` linted clean, then every load of the game was refused
    (E301: a compiled game's included names are printable)."""
    (tmp_path / "tab\tname.rules").write_text("def x = 1\n", encoding="utf-8")
    main_file = tmp_path / "main.rules"
    main_file.write_text('game "G" {\n  players 2\n  include "tab\tname.rules"\n'
                         '  turn { step s { action go { finish draw } } }\n}\n', encoding="utf-8")
    code, out, err = run(capsys, "lint", str(main_file))
    assert code == 1 and "main.rules:3:11: error[E007]: cannot include 'tab\\tname.rules': a file name of " \
        "printable characters" in out, out


def test_compile_to_a_missing_directory_is_one_line(tmp_path, capsys):
    target = tmp_path / "nowhere" / "out.json"
    code, out, err = run(capsys, "compile", REGICIDE, "-o", str(target))
    assert code == 1 and out == ""
    assert err == f"error: {target}: No such file or directory\n"


def test_simulate_says_a_bot_with_a_time_budget_may_not_repeat_its_games(capsys):
    """A designer's trial: two runs of bots.md's `--bot ismcts` recipe, same seed, differed (it stops
    at 0.5 s of CPU a move), and nothing said so."""
    code, out, err = run(capsys, "simulate", REGICIDE, "--games", "1", "--bot", "ismcts:0.01s")
    assert code == 0 and "ismcts:0.01s stops at a CPU time per move" in err and "(ismcts:200)" in err
    code, out, err = run(capsys, "simulate", REGICIDE, "--games", "1", "--bot", "ismcts:3")
    assert code == 0 and "CPU time per move" not in err
    code, out, err = run(capsys, "simulate", REGICIDE, "--games", "1", "--bot", "ismcts", "--bot", "1=random")
    assert code == 0 and "CPU time per move" not in err           # (no seat plays it)


def test_compile_and_a_report_never_replace_a_file_they_did_not_write(tmp_path, capsys):
    """A fuzzer's trial, run as root: `compile … -o /etc/passwd` replaced it, and `simulate --report
    DIR` replaced the notes in DIR/report.md. Compiled IR replaces compiled IR, a report a report
    (as `save` replaces only a save)."""
    notes = tmp_path / "notes.txt"
    notes.write_text("precious", encoding="utf-8")
    code, out, err = run(capsys, "compile", REGICIDE, "-o", str(notes))
    assert code == 1 and err == f"error: {notes} exists and is not a compiled game: not overwritten " \
                                "(write to another name, or remove it first)\n"
    assert notes.read_text(encoding="utf-8") == "precious"
    ir = tmp_path / "r.json"
    assert run(capsys, "compile", REGICIDE, "-o", str(ir))[0] == 0
    assert run(capsys, "compile", REGICIDE, "-o", str(ir))[0] == 0         # (its own output: replaced)
    folder = tmp_path / "rep"
    folder.mkdir()
    (folder / "report.md").write_text("my notes", encoding="utf-8")
    code, out, err = run(capsys, "simulate", REGICIDE, "--games", "2", "--report", str(folder))
    assert code == 1 and "report.md there is not part of a report of rulelang simulate: not overwritten" in err
    assert (folder / "report.md").read_text(encoding="utf-8") == "my notes"
    again = tmp_path / "again"
    for _ in range(2):                                                     # (an earlier report: replaced)
        assert run(capsys, "simulate", REGICIDE, "--games", "2", "--report", str(again))[0] == 0
    (again / "report.json").unlink()               # (the repository keeps report.md alone: still a report)
    assert run(capsys, "simulate", REGICIDE, "--games", "2", "--report", str(again))[0] == 0
    pictures = tmp_path / "pictures"                # a folder with a picture of the same name: not ours
    pictures.mkdir()
    (pictures / "win_rates.png").write_bytes(b"mine")
    code, out, err = run(capsys, "simulate", REGICIDE, "--games", "2", "--report", str(pictures))
    assert code == 1 and "win_rates.png there is not part of a report" in err
    odd = tmp_path / "odd"                          # a folder where a file must go: said before the games
    (odd / "report.md").mkdir(parents=True)
    code, out, err = run(capsys, "simulate", REGICIDE, "--games", "2", "--report", str(odd))
    assert code == 1 and "report.md there is not a file" in err and out == ""
    sorted_ir = tmp_path / "sorted.json"            # IR another tool wrote (keys sorted): replaced
    sorted_ir.write_text(json.dumps(json.loads(ir.read_text(encoding="utf-8")), sort_keys=True), encoding="utf-8")
    assert run(capsys, "compile", REGICIDE, "-o", str(sorted_ir))[0] == 0


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_zero_players_is_refused(capsys, monkeypatch, command):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    extra = ["--games", "2"] if command == "simulate" else []
    code, out, err = run(capsys, command, REGICIDE, "--players", "0", *extra)
    assert code == 1
    assert err == "error: Regicide is for 1..4 players, not 0\n"


def test_a_misspelt_field_in_a_def_is_an_error_not_a_traceback(tmp_path, capsys):
    source = Path(REGICIDE).read_text(encoding="utf-8")
    broken = tmp_path / "broken.rules"
    broken.write_text(source.replace("sum(c.value for c in cards)", "sum(c.valeu for c in cards)", 1),
                      encoding="utf-8")
    code, out, err = run(capsys, "simulate", str(broken), "--players", "2", "--games", "3")
    assert code == 1 and "Traceback" not in out + err
    assert "valeu" in err


def test_a_shipped_game_is_found_by_its_name_from_any_folder(capsys, monkeypatch, tmp_path):
    """A first hour after `pip install .`: from another folder, `rulelang play games/regicide.rules`,
    `rulelang play regicide` and `rulelang rules valgard` all said `no such file`. A name that is no
    file but a shipped game's is that game; a file of that name in the folder still comes first."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "rules", "valgard")
    assert code == 0 and out.startswith("Valgarð\n") and not err
    code, out, err = run(capsys, "lint", "games/regicide.rules")
    assert code == 0 and "ok: 1 file(s) clean" in out
    code, out, err = play_cli(capsys, monkeypatch, ["quit", ""], "regicide", "--seed", "3")
    assert code == 0 and out.startswith("Regicide: 1 player, seed 3")
    (tmp_path / "regicide.rules").write_text('game "Mine" { players 1  turn { step s { action stop { finish win } } } }',
                                              encoding="utf-8")
    code, out, err = run(capsys, "rules", "regicide.rules")
    assert code == 0 and out.startswith("Mine")
    code, out, err = run(capsys, "rules", "nosuchgame")
    assert code == 1 and "no such file: nosuchgame" in err and "did you mean" not in err
    # (a bare name of no game: the shipped games are named — a first hour at the terminal)
    assert err.strip().endswith("(the shipped games: dozen_war, regicide, shadow_hunters, smash_up, valgard)")
    # a typo of a shipped game's name says which it is near (a first-hour trial typed shadow_hunter)
    code, out, err = run(capsys, "rules", "shadow_hunter")
    assert code == 1 and err.strip() == ("error[E000]: no such file: shadow_hunter "
                                         "(did you mean the shipped game shadow_hunters?)")


def test_a_save_too_large_to_read_back_is_written_compact_or_refused_and_said(tmp_path, monkeypatch):
    """A fuzzer: a match of 3.9 million values (within the state limit) was saved as 42 MB, and
    reading it back refused anything over 20 MB: the match was lost without a word at `save`.
    Past the limit a save is written compact; past it even so, `save` says so and writes nothing."""
    from rulelang.play import repl_commands
    game = rulelang.load(REGICIDE)
    path = tmp_path / "m.json"

    def save(limit):
        monkeypatch.setattr(repl_commands, "JSON_SIZE_LIMIT", limit)
        out = io.StringIO()
        run_repl(game, 1, 3, {}, {}, io.StringIO(f"save {path}\nquit\n"), out, REGICIDE)
        return out.getvalue()
    said = save(10 ** 9)
    indented = path.read_text(encoding="utf-8")
    assert f"saved {path}" in said and "\n" in indented
    compact = json.dumps(json.loads(indented), ensure_ascii=False, separators=(",", ":"))
    said = save(len(compact.encode()) + 10)
    assert f"saved {path}" in said and path.read_text(encoding="utf-8") == compact
    said = save(100)
    assert f"error: cannot save {path}: the save would be " in said and "(the match goes on)" in said
    assert path.read_text(encoding="utf-8") == compact                       # (untouched)


def test_replaying_a_save_stops_at_its_cpu_budget_with_a_message(tmp_path, monkeypatch, capsys):
    """A fuzzer's save of 1,000 actions of 0.24 s each (or 4 million cheap ones) replayed with no
    limit (`play SAVE`, `replay`, `load`). A replay now stops at REPLAY_CPU_LIMIT with one line."""
    from rulelang.play import replay
    game = rulelang.load(REGICIDE)
    match = game.new_match(1, seed=3)
    random_playout(match, 3)
    save = tmp_path / "m.json"
    save.write_text(json.dumps(replay.save_data(game, match, 3, {})), encoding="utf-8")
    assert main(["replay", str(save), "--rules", REGICIDE]) == 0
    capsys.readouterr()
    monkeypatch.setattr(replay, "REPLAY_CPU_LIMIT", -1.0)
    assert main(["replay", str(save), "--rules", REGICIDE]) == 1
    said = capsys.readouterr()
    assert "replaying this save took more than -1 s of CPU time (stopped at action 1 of " in said.out + said.err
    assert "Traceback" not in said.out + said.err


@pytest.mark.parametrize("command", ["lint", "play", "compile", "rules", "simulate"])
def test_a_file_name_too_long_for_the_system_is_one_line(capsys, command):
    """A fuzzer: a 300-character name ended in a traceback (`File name too long`) in every command."""
    code, out, err = run(capsys, command, "x" * 300)
    assert code == 1 and "Traceback" not in out + err and "cannot read " + "x" * 20 in out + err


def test_a_digit_of_another_script_is_not_a_number_anywhere(capsys, monkeypatch, tmp_path):
    """A fuzzer: `²` typed at the prompt ended the session (`int('²')`), and a save's bot seat
    named "²" failed to load with the same Python message."""
    code, out, err = play_cli(capsys, monkeypatch, ["²", "quit", ""], "regicide", "--seed", "1")
    assert code == 0 and "error: '²' is not a legal action or a command (type help)" in out + err
    save = tmp_path / "s.json"
    play_cli(capsys, monkeypatch, ["save " + str(save), "quit", ""], "regicide", "--seed", "1")
    data = json.loads(save.read_text(encoding="utf-8"))
    data["bots"] = {"²": "random"}
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = play_cli(capsys, monkeypatch, ["quit", ""], str(save))
    assert code == 0 and "invalid literal" not in out + err


def test_an_option_sweep_past_a_thousand_combinations_is_refused_before_it_is_built(capsys):
    """A fuzzer: 60,000 x 20,000 swept values were built whole before any game: 4 GB, then a
    MemoryError said as an internal error."""
    values = ",".join(str(i) for i in range(1, 60001))
    code, out, err = run(capsys, "simulate", "valgard", "--games", "1", "--option", f"turn_limit={values}",
                         "--option", "hardcore=true,false")
    assert code == 1 and err.strip() == "error: the options swept make more than 1,000 combinations; sweep fewer values"


def test_a_broken_save_opened_with_play_says_it_is_no_save_either(capsys, tmp_path):
    """A first-hour trial: `rulelang play broken.json` spoke only of rule files and IR."""
    bad = tmp_path / "broken.json"
    bad.write_text("[1, 2, 3]", encoding="utf-8")
    code, out, err = run(capsys, "play", str(bad))
    assert code == 1 and "does not match its schema" in err
    assert err.strip().endswith('(nor is it a save file: a save begins {"rulelang_save": …)')


def test_a_save_given_where_rules_are_wanted_is_said_to_be_a_save(capsys, tmp_path):
    """A first-hour trial: `rulelang rules SAVE.json` printed five schema errors about `ir_version`,
    and a save named without `.json` was parsed as a rule file with a hint about compiled games."""
    from rulelang.play import replay
    game = rulelang.load(REGICIDE)
    match = game.new_match(1, seed=3)
    text = json.dumps(replay.save_data(game, match, 3, {}))
    for name, bom in (("m.json", ""), ("mygame", ""), ("b.json", "\ufeff"), ("b.sav", "\ufeff")):
        save = tmp_path / name            # (with an editor's byte order mark: "not valid JSON: Unexpected
        save.write_text(bom + text, encoding="utf-8")      # UTF-8 BOM" — left alone in stop 75)
        for command in ("rules", "simulate"):
            code, out, err = run(capsys, command, str(save))
            assert code == 1 and err.strip() == (f"error[E300]: {save}: a saved match of Regicide, not rules: "
                                                 f"`rulelang play {save}` goes on with it"), err
    for name in ("mygame", "b.json"):
        code, out, err = run(capsys, "lint", str(tmp_path / name))
        assert code == 1 and "(this is a saved match, not rules: `rulelang play FILE` goes on with it)" in out + err
    compiled = tmp_path / "game.json"         # (a compiled game with one loads, as rules with one do)
    assert run(capsys, "compile", REGICIDE, "-o", str(compiled))[0] == 0
    compiled.write_text("\ufeff" + compiled.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run(capsys, "rules", str(compiled))
    assert code == 0 and out.startswith("Regicide\n"), err


def test_a_save_cut_short_says_so_and_where_it_breaks(capsys, tmp_path):
    """A first-hour trial: a save cut off in a copy read "not a rulelang save file"."""
    from rulelang.play import replay
    game = rulelang.load(REGICIDE)
    text = json.dumps(replay.save_data(game, game.new_match(1, seed=3), 3, {}), indent=1)
    save = tmp_path / "cut.json"
    save.write_text(text[:len(text) // 2], encoding="utf-8")
    code, out, err = run(capsys, "play", str(save))
    assert code == 1
    assert re.search(r"cannot load .*cut\.json: a save file that is cut short or damaged: not valid JSON "
                     r"\(line \d+, column \d+\)", err), err
    # (an attacker's trial: a save nested too deeply said "cut short"; with an editor's byte order mark
    # first, `play` took it for rules and said to play it as a save, `replay` "not a rulelang save file")
    deep = json.loads(text)
    deep["options"] = {"x": "@@"}
    save.write_text(json.dumps(deep).replace('"@@"', "[" * 600 + "]" * 600), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(save))
    assert code == 1 and err.strip().endswith("cut.json: the save file nests deeper than 500 levels"), err
    save.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    code, out, err = run(capsys, "replay", str(save))
    assert code == 0 and "the saved position is reproduced exactly" in out, err
    save.write_bytes(text.encode("utf-8").replace(b'"log"', b'"l\xe9g"'))     # (bytes not UTF-8: "damaged", not
    code, out, err = run(capsys, "replay", str(save))                          # Python's words — a review)
    assert code == 1 and err.strip().endswith("cut.json: a save file that is cut short or damaged: not valid JSON"), err


def test_undo_goes_back_past_a_load_as_it_would_have_before_the_save(tmp_path, capsys, monkeypatch):
    """A first-hour trial: two undos worked before a save, and none after loading it ("nothing to
    undo"): the loaded moves are judged as moves played here, so undo goes back through them — and
    refuses where it would have refused before the save."""
    save = tmp_path / "u1.json"
    code, out, err = play_cli(capsys, monkeypatch, ["15", "4", f"save {save}", f"load {save}", "undo", "undo",
                                                    "undo", "quit"], REGICIDE, "--seed", "3")
    after = out.split(f"loaded {save}\n")[1]
    assert code == 0 and after.count("P1> undo\nundone\n") == 2 and "P1> undo\nnothing to undo\n" in after
    code, out, err = play_cli(capsys, monkeypatch, ["undo", "undo", "quit"], str(save))
    assert code == 0 and out.count("P1> undo\nundone\n") == 2, out
    # a ♦ played draws hidden cards: refused after the load as before it
    code, live, _ = play_cli(capsys, monkeypatch, ["play 7d", "undo", "quit"], REGICIDE, "--seed", "3")
    code, out, _ = play_cli(capsys, monkeypatch, ["play 7d", f"save {save}", f"load {save}", "undo", "quit"],
                            REGICIDE, "--seed", "3")
    refusal = live.split("P1> undo\n")[1].split("\n")[0]
    assert refusal.startswith("cannot undo: since that decision P1 has seen a card that was hidden from them")
    assert out.split(f"loaded {save}\n")[1].split("P1> undo\n")[1].split("\n")[0] == refusal


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_simulation_stopped_without_a_terminal_keeps_its_games_and_writes_its_report(tmp_path, sig):
    """A designer's trial: `timeout 900 rulelang simulate … --report DIR` (SIGTERM) wrote no report, and
    an interrupt with the output in a file said "no results (no game had finished)" after ten games."""
    import signal
    import subprocess
    import time
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "simulate", str(ROOT / "games" / "valgard.rules"),
                             "--games", "100000", "--bot", "random", "--max-cpu", "0", "--report", str(tmp_path / "r")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    for _ in range(300):                           # (the report's folder is made before the games start)
        if (tmp_path / "r").is_dir():
            break
        time.sleep(0.1)
    time.sleep(1.5)                                # (games played: ~5 ms of CPU each)
    proc.send_signal(getattr(signal, sig))
    out, err = proc.communicate(timeout=120)
    found = re.search(r"interrupted: partial results, (\d+) of 100000 games", out)
    assert found and int(found.group(1)) > 0, (out[-800:], err[-800:])
    assert proc.returncode == 130 and "Traceback" not in err
    assert json.loads((tmp_path / "r" / "report.json").read_text())


def test_a_simulation_whose_reader_has_gone_still_writes_its_report(tmp_path):
    """A designer's trial: `simulate … --report DIR | tee log`, then Ctrl-C (which stops tee too): the
    first line printed raised, and the report was never written."""
    import subprocess
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "simulate", str(ROOT / "games" / "valgard.rules"),
                             "--games", "6", "--bot", "random", "--report", str(tmp_path / "r")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    proc.stdout.close()                            # (the reader gone before a line is printed)
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert "Traceback" not in err, err[-800:]
    assert json.loads((tmp_path / "r" / "report.json").read_text())
    assert (tmp_path / "r" / "report.md").is_file()


ENDLESS = """game "Endless" {
  players 2
  var n: int = 0
  turn { step s {
    action pass { end turn }
    action wait { end turn }
    action stop require n > 5 { finish draw }
  } }
}
"""


def _wait_for_group(pgid: int, count: int, limit: float = 30.0) -> None:
    """Until `count` processes are in the process group (a parent and its workers), at most `limit` s
    (a fixed 6 s sleep beside two searching workers cost the suite's other tests their CPU)."""
    import os
    import time
    end = time.monotonic() + limit
    while time.monotonic() < end:
        members = 0
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    if os.getpgid(int(pid)) == pgid:
                        members += 1
                except OSError:
                    pass
        if members >= count:
            return
        time.sleep(0.1)


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_run_in_several_processes_stops_with_its_workers(tmp_path, sig):
    """A designer's trial: `--workers 2` on a game that never ends went on after SIGINT (the parent
    waited for its workers' games), and after SIGTERM its workers were left running, orphaned."""
    import os
    import signal
    import subprocess
    import time
    rules = tmp_path / "endless.rules"
    rules.write_text(ENDLESS, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "simulate", str(rules), "--games", "4",
                             "--bot", "ismcts:300", "--max-cpu", "0", "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            start_new_session=True)
    _wait_for_group(proc.pid, 3)                   # (the workers started, each in a game without end)
    time.sleep(1)
    proc.send_signal(getattr(signal, sig))         # (to the parent alone, as `timeout` sends it)
    try:
        out, err = proc.communicate(timeout=60)
        for _ in range(100):                       # (no process of its group left: no orphaned worker)
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("a worker outlived the run")
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert proc.returncode == 130 and "interrupted: no results" in err and "Traceback" not in err, err[-800:]


def test_simulate_says_first_that_the_game_may_never_end(tmp_path, capsys):
    """A designer's trial: a changed rule file that never ended was linted W204, but `simulate` said
    nothing of it and the search bots spent the whole budget on one game."""
    rules = tmp_path / "endless.rules"
    rules.write_text(ENDLESS, encoding="utf-8")
    main(["simulate", str(rules), "--games", "1", "--bot", "random"])
    err = capsys.readouterr().err
    assert err.startswith(f"{rules}:5:5: warning[W204]: the game may never end: `pass` and `wait`"), err
    main(["simulate", str(ROOT / "games" / "valgard.rules"), "--games", "1"])
    assert "W204" not in capsys.readouterr().err


def test_a_bot_seat_may_be_named_as_the_game_names_it():
    """A first hour at the terminal: the game calls its seats P1, P2…, and `--bot P2=random` was a
    bad seat; it is seat 2, as `2=random` is."""
    from rulelang.cli import _bot_spec
    assert _bot_spec("P2=random") == _bot_spec("2=random") == (1, "random")
    assert _bot_spec("p3=greedy") == (2, "greedy")
    with pytest.raises(argparse.ArgumentTypeError, match="seats are 1, 2, ... \\(or P1, P2, ...\\)"):
        _bot_spec("Q2=random")


OPTION_ONLY_BUG = """game "OptDeep" {
  players 2
  option hands: int = 1
  var xs: list[int] = []
  turn { step s { action go { if hands > 1 { let y = xs[3] }  finish draw } } }
}
"""


def test_lint_deep_plays_the_options_it_is_given(capsys, tmp_path):
    """A new author's Hold'em broke only with `hands > 1`: `lint --deep` played the default and said
    clean, and had no `--option`. It takes them, says the replay with them, and refuses one the
    game has not."""
    path = tmp_path / "opt.rules"
    path.write_text(OPTION_ONLY_BUG, encoding="utf-8")
    code, out, _ = run(capsys, "lint", "--deep", "--games", "5", str(path))
    assert code == 0 and "clean" in out
    code, out, _ = run(capsys, "lint", "--deep", "--games", "5", "--option", "hands=2", str(path))
    assert code == 1 and "error[E414]" in out and "--option hands=2, then play: go" in out
    code, _, err = run(capsys, "lint", "--deep", "--option", "foo=1", str(path))
    assert code == 2 and "unknown option `foo`" in err
    code, _, err = run(capsys, "lint", "--option", "hands=2", str(path))
    assert code == 2 and "--option needs --deep" in err


def test_deep_lint_says_an_error_of_a_content_file_once(tmp_path, capsys):
    """A new author's Coup: one bad row of its YAML was said once by `lint` and twice by `lint
    --deep` ("2 error(s)"): the error is the YAML file's, so the rule file was played, failed to
    load, and said it again."""
    (tmp_path / "cards.yaml").write_text("- {n: many}\n", encoding="utf-8")
    (tmp_path / "g.rules").write_text(
        'game "G" {\n  players 2\n  kind Card { n: int  label text(n) }\n  zone deck: pile, hidden\n'
        '  setup { create Card from "cards.yaml" in deck }\n'
        '  turn { step s { action stop { finish draw } } }\n}\n', encoding="utf-8")
    for argv in (["lint"], ["lint", "--deep", "--games", "2"]):
        code, out, err = run(capsys, *argv, str(tmp_path / "g.rules"))
        assert code == 1 and (out + err).count("error[E5") == 1 and "1 error(s)" in out + err


def test_ctrl_c_before_a_command_handles_it_exits_quietly(monkeypatch, capsys):
    """A first hour: Ctrl-C while `rulelang play` started (the parser made, the engine's modules
    loading) printed a traceback; it is an interrupt like any other: exit status 130, no traceback."""
    from rulelang import cli

    def interrupted(argv):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "_main", interrupted)
    assert cli.main(["play", "regicide"]) == 130
    assert "Traceback" not in capsys.readouterr().err
