"""The small things of `rulelang play` and the command line (issue 13): --version, a reader
that stops early, exit/q/?, the end of input, a terminal that cannot show every glyph, wording
by count and kind, the header while a game is set up, and `play SAVE.json`."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main
from rulelang.play.repl import kind_noun, plural, render_view, run_repl

ROOT = Path(__file__).resolve().parent.parent
REGICIDE = str(ROOT / "games" / "regicide.rules")
VALGARD = str(ROOT / "games" / "valgard.rules")


@pytest.fixture(scope="module")
def regicide():
    return rulelang.load(REGICIDE)


@pytest.fixture(scope="module")
def valgard():
    return rulelang.load(VALGARD)


def play(game, lines, players=1, seed=3, bots=None, stdout=None, **kw) -> tuple[int, str]:
    out = stdout or io.StringIO()
    code = run_repl(game, players, seed, {}, bots or {}, io.StringIO("".join(f"{x}\n" for x in lines)), out,
                    None, **kw)
    if stdout is None:
        return code, out.getvalue()
    out.flush()
    return code, out.buffer.getvalue().decode(out.encoding)


def cli(capsys, monkeypatch, argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("bots, said", [
    (["--bot", "2=random", "--bot", "2=greedy"], "error: --bot names seat P2 twice: give each seat one bot"),
    (["--bot", "random", "--bot", "greedy"], "error: --bot without a seat is given twice"),
])
def test_a_seat_given_two_bots_is_refused(capsys, monkeypatch, bots, said):
    """A first hour: `--bot 2=random --bot 2=greedy` played greedy and said nothing."""
    for command in (["play", REGICIDE, "--players", "2"], ["simulate", REGICIDE, "--players", "2", "--games", "1"]):
        code, out, err = cli(capsys, monkeypatch, command + bots)
        assert code == 1 and err.startswith(said) and err.count("\n") == 1


def test_version(capsys):
    with pytest.raises(SystemExit):      # (argparse's own exit, which main turns into a return code)
        raise SystemExit(main(["--version"]))
    assert capsys.readouterr().out == f"rulelang {rulelang.__version__}\n"


def test_a_reader_that_stops_early_ends_the_command_quietly():
    process = subprocess.Popen([sys.executable, "-m", "rulelang", "compile", VALGARD],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()                                  # `| head -0`: nobody reads any more
    _, err = process.communicate(timeout=60)
    assert process.returncode == 141
    assert err == b""


@pytest.mark.parametrize("word", ["q", "exit", "quit", "QUIT"])
def test_exit_and_q_leave_at_once(regicide, word):
    code, out = play(regicide, [word, "1"])
    assert code == 0 and "P1 plays" not in out and "input ended" not in out


def test_a_question_mark_is_help_and_help_names_every_command(regicide):
    _, out = play(regicide, ["?"])
    help_text = out.split("P1> ?\n")[1]
    for command in ("help ACTION", "rules", "log", "undo", "as P2", "save FILE", "load FILE", "quit, exit, q"):
        assert command in help_text


def test_piped_input_that_ends_stops_without_a_question(regicide):
    code, out = play(regicide, ["1"])
    assert code == 0 and out.rstrip().endswith("input ended") and "Save before leaving" not in out


def test_wording_follows_the_count_and_the_kind():
    assert plural(1, "player") == "1 player" and plural(2, "player") == "2 players"
    assert kind_noun("Warrior") == ("warrior", "warriors")
    assert kind_noun("PlayerCard") == ("player card", "player cards")
    assert kind_noun("Box") == ("box", "boxes") and kind_noun("Enemy") == ("enemy", "enemies")
    assert kind_noun(None) == ("card", "cards")
    assert kind_noun("C") == ("card", "cards")        # (a new author's `kind C` read `3 cs`)
    assert kind_noun("Domino") == ("domino", "dominoes")   # (a new author's Kingdomino read `22 dominos`)


def test_valgard_counts_warriors_and_a_solo_game_one_player(regicide, valgard):
    _, out = play(regicide, [])
    assert out.startswith("Regicide: 1 player, seed 3\n")
    _, out = play(valgard, [], players=2, bots={0: "random"})
    assert "reserve (P2): 12 warriors" in out and "cards" not in out


def test_the_header_while_setting_up_names_who_acts(valgard):
    m = valgard.new_match(2, seed=1)
    m.apply("place a1")                      # P1 placed: P2 musters next, before any turn began
    header = render_view(m.view(1)).splitlines()[0]
    assert header == "== Valgarð · setting up · step muster · P2 to act · you are P2"
    assert "P1's turn" not in header
    while m.view(0)["turn"] == 0:
        m.apply(m.legal_actions()[0])
    assert render_view(m.view(0)).splitlines()[0] == "== Valgarð · turn 1 · P1's turn · step act · you are P1"
    assert "to act" not in render_view(m.view(1)).splitlines()[0]


def test_a_terminal_that_cannot_show_the_suits_gets_letters_and_may_type_them(regicide):
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="iso-8859-1", newline="\n")
    match = regicide.new_match(1, seed=3)
    card = next(str(a) for a in match.legal_actions() if "♠" in str(a))     # e.g. "play A♠"
    typed = card.replace("♠", "S")
    code, out = play(regicide, [typed.upper(), "quit"], stdout=stdout)
    assert code == 0
    assert "♠" not in out and "♥" not in out
    assert f"P1 plays: {card.replace('♠', 'S')}" in out
    assert "enemy: 1 card: JH" in out                       # J♥ as the terminal shows it


def test_the_command_line_writes_stand_ins_under_an_8_bit_locale(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="iso-8859-1", NO_COLOR="1")
    done = subprocess.run([sys.executable, "-m", "rulelang", "play", REGICIDE, "--seed", "3"], input=b"1\nquit\n",
                          capture_output=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stderr == b""
    text = done.stdout.decode("iso-8859-1")
    assert "Traceback" not in text and "JH" in text and "P1 plays: play" in text


def test_play_a_save_goes_on_where_it_stopped(tmp_path, capsys, monkeypatch):
    save = tmp_path / "match.json"
    code, out, _ = cli(capsys, monkeypatch, ["play", VALGARD, "--seed", "4", "--bot", "2=random"],
                       f"1\n1\nlog\nsave {save}\nquit\n")
    assert code == 0 and f"saved {save}" in out
    before = out.split("P1> log\n")[1].split("P1> save")[0]
    moves = json.loads(save.read_text(encoding="utf-8"))["log"]
    code, out, err = cli(capsys, monkeypatch, ["play", save, "--rules", VALGARD, "--bot", "2=random"], "log\nquit\n")
    assert code == 0 and err == ""
    assert out.startswith("Valgarð: 2 players, seed 4\n  P1 human, P2 random bot\n")
    assert f"resumed after {len(moves)} moves" in out
    listed = out.split("P1> log\n")[1].split("P1> quit")[0]
    assert listed == before                                # who made each move, and what it wrote, as it was
    assert [line.split(". ", 1)[1] for line in listed.splitlines() if not line.startswith("       >")] == [
        f"{'P1' if n % 2 else 'P2'}: {text}" for n, text in enumerate(moves, 1)]
    copy = tmp_path / "valgard.rules"                      # the rule file beside the save is found
    copy.write_text(Path(VALGARD).read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = cli(capsys, monkeypatch, ["play", save, "--bot", "2=random"], "quit\n")
    assert code == 0 and "resumed after" in out


def test_a_resumed_save_does_not_say_again_what_was_said_before_it(tmp_path, capsys, monkeypatch):
    """The messages of the moves before the save are in `log`, with their moves: on resuming they
    are not printed again on their own (a new author's Checkers printed seven `captures at …`
    lines, no move attached, and again to P2 at the next hand-over)."""
    save = tmp_path / "match.json"
    hunters = str(Path(VALGARD).with_name("shadow_hunters.rules"))
    bots = ["--bot", "2=random", "--bot", "3=random", "--bot", "4=random"]
    code, out, _ = cli(capsys, monkeypatch, ["play", hunters, "--players", "4", "--seed", "3", *bots],
                       f"1\n1\n1\nlog\nsave {save}\nquit\n")
    assert "       > " in out.split("P1> log\n")[1].split("P1> save")[0]       # (messages were written)
    code, out, err = cli(capsys, monkeypatch, ["play", save, "--rules", hunters, *bots], "log\nquit\n")
    assert code == 0 and err == ""
    opening = out.split("P1> log\n")[0]
    assert "(log lists them)" in opening and "  > " not in opening, opening
    assert "       > " in out.split("P1> log\n")[1]


def test_a_save_of_any_name_seats_its_bots_again(tmp_path, capsys, monkeypatch):
    """`save mygame` writes that name; `rulelang play mygame` knows it for a save (not a rule
    file), and the seats bots played are bots again unless --bot says otherwise."""
    save = tmp_path / "mygame"
    code, out, _ = cli(capsys, monkeypatch, ["play", VALGARD, "--seed", "4", "--bot", "2=greedy"],
                       f"1\nsave {save}\nquit\n")
    assert code == 0 and f"saved {save}" in out
    assert json.loads(save.read_text(encoding="utf-8"))["bots"] == {"2": "greedy"}
    code, out, err = cli(capsys, monkeypatch, ["play", save, "--rules", VALGARD], "quit\n")
    assert code == 0 and err == ""
    assert out.startswith("Valgarð: 2 players, seed 4\n  P1 human, P2 greedy bot\n")
    code, out, err = cli(capsys, monkeypatch, ["play", save, "--rules", VALGARD, "--bot", "1=random"], "quit\n")
    assert code == 0 and "P1 random bot, P2 human" in out
    data = json.loads(save.read_text(encoding="utf-8"))
    data["bots"] = {"2": "import os", "9": "random", "x": "random"}      # (untrusted: a human seat)
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = cli(capsys, monkeypatch, ["play", save, "--rules", VALGARD], "quit\n")
    assert code == 0 and "P1 human, P2 human" in out


def test_a_broken_save_is_one_line_not_schema_errors(tmp_path, capsys, monkeypatch):
    save = tmp_path / "match.json"
    save.write_text(json.dumps({"rulelang_save": 1, "log": []}), encoding="utf-8")
    code, out, err = cli(capsys, monkeypatch, ["play", save, "--rules", VALGARD])
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"error: cannot load {save}: a save file of another")
    save.write_text(json.dumps({"rulelang_save": 2, "fingerprint": "x", "name": "Valgarð", "players": 2,
                                "seed": 1, "options": {}, "log": []}), encoding="utf-8")
    code, out, err = cli(capsys, monkeypatch, ["play", save, "--rules", VALGARD])
    assert code == 1 and err.count("\n") == 1 and "other rules" in err
    code, out, err = cli(capsys, monkeypatch, ["play", save, "--rules", VALGARD, "--seed", "3"])
    assert code == 1 and "keeps its seed" in err


TIMINGS = ("seconds", "actions_per_s", "playouts_per_s")


def test_a_simulation_at_a_terminal_gives_what_simulate_gives(regicide):
    from rulelang.cli import _simulate_here
    from rulelang.play.simulate import simulate
    bar = []
    here = _simulate_here(regicide, 2, 6, 3, {1: "greedy"}, {}, lambda done, total: bar.append((done, total)))
    there = simulate(regicide, 2, 6, 3, {1: "greedy"}, {})
    assert {k: v for k, v in here.items() if k not in TIMINGS} == {k: v for k, v in there.items() if k not in TIMINGS}
    assert bar == [(n, 6) for n in range(1, 7)] and "partial" not in here


def test_ctrl_c_in_a_simulation_keeps_the_games_played(regicide, monkeypatch):
    from rulelang.play import simulate as sim
    from rulelang.cli import _simulate_here
    play = sim.play_game

    def stop_at_four(game, index, *args):
        if index == 4:
            raise KeyboardInterrupt
        return play(game, index, *args)
    monkeypatch.setattr(sim, "play_game", stop_at_four)
    result = _simulate_here(regicide, 1, 10, 0, "random", {}, lambda done, total: None)
    assert result["partial"] is True and result["planned"] == 10 and result["games"] == 4
    assert [r["game"] for r in result["records"]] == [0, 1, 2, 3]


def test_a_drawn_seed_is_told_only_when_the_game_ends(capsys, monkeypatch):
    """A seed drawn at random is secret while a person plays: with it, anyone could deal the same
    game in another terminal and see every hidden card. It is printed at the end, and deals the
    same game again; a seed the player chose is shown at once."""
    code, out, _ = cli(capsys, monkeypatch, ["play", REGICIDE], stdin="1\n" * 80)
    first = out.splitlines()[0]
    assert first == "Regicide: 1 player, the seed is shown when the game ends"
    told = [line for line in out.splitlines() if line.startswith("Seed ")]
    assert len(told) == 1 and "Game over" in out
    seed = int(told[0].split()[1].rstrip(":"))
    assert f"seed {seed}" not in out.split("Game over")[0] and f"--seed {seed}" in told[0]
    _, again, _ = cli(capsys, monkeypatch, ["play", REGICIDE, "--seed", seed], stdin="1\n" * 80)
    assert again.splitlines()[0] == f"Regicide: 1 player, seed {seed}"
    assert again.split("\n", 1)[1] == out.split("\n", 1)[1].replace(told[0] + "\n", "")
    _, watched, _ = cli(capsys, monkeypatch, ["play", REGICIDE, "--bot", "1=random"])
    assert ", seed " in watched.splitlines()[0]                  # (nobody to keep it from)
    seed = watched.splitlines()[0].rsplit(" ", 1)[1]             # (and said again at the end, as `play
    assert f"Seed {seed}: `--seed {seed}` deals this game again." in watched.split("Game over")[1]  # --help` says)


def test_what_a_player_typed_is_quoted_back_short(regicide):
    """A 9,000-character line is not echoed in full (past 10,000 it is not read at all); a
    negative number is a number."""
    _, out = play(regicide, ["x" * 9_000, "-1", "quit"])
    line = next(x for x in out.splitlines() if "is not a legal action" in x)
    assert len(line) < 160 and "xxx..." in line
    assert "there is no action -1; choose 1-" in out


def test_a_drawn_seed_stays_off_the_screen_when_the_game_resumes(tmp_path, capsys, monkeypatch):
    save = tmp_path / "match.json"
    code, out, _ = cli(capsys, monkeypatch, ["play", REGICIDE, "--players", "2"], f"save {save}\nquit\n")
    assert code == 0 and out.startswith("Regicide: 2 players, the seed is shown when the game ends\n")
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["seed_secret"] is True
    code, out, _ = cli(capsys, monkeypatch, ["play", save, "--rules", REGICIDE], "quit\n")
    assert code == 0 and out.startswith("Regicide: 2 players, the seed is shown when the game ends\n")
    assert str(data["seed"]) not in out.split("\n", 1)[0]
    code, out, _ = cli(capsys, monkeypatch, ["play", REGICIDE, "--players", "2", "--seed", "8"], f"save {save}\nquit\n")
    assert "seed_secret" not in json.loads(save.read_text(encoding="utf-8"))      # a chosen seed: shown


def test_a_drawn_seed_is_one_of_2_to_the_62_from_the_operating_system(tmp_path, capsys, monkeypatch):
    """A leak trial found a secret seed (one of a million) in 3 minutes by trying every one against
    the hand it saw, and with it every other hand and the deck's order."""
    seeds = [rulelang.secret_seed() for _ in range(20)]
    assert len(set(seeds)) == 20 and all(0 <= s < 2 ** 62 for s in seeds) and max(seeds) > 2 ** 50
    import secrets
    asked = []
    monkeypatch.setattr(secrets, "randbits", lambda bits: asked.append(bits) or 2 ** 61 + 12345)
    save = tmp_path / "match.json"
    cli(capsys, monkeypatch, ["play", REGICIDE, "--players", "2"], f"save {save}\nquit\n")
    assert asked == [62] and json.loads(save.read_text(encoding="utf-8"))["seed"] == 2 ** 61 + 12345


ASKS = """game "Asks" {
  players 2
  var total: int = 0
  turn { step s {
    action pick { choose x in [1, 2, 3] prompt "how many" { total += x  log "total " + text(total) }  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_resumed_log_keeps_the_questions_its_answers_answered(tmp_path, capsys, monkeypatch):
    rules = tmp_path / "asks.rules"
    rules.write_text(ASKS, encoding="utf-8")
    save = tmp_path / "asks.json"
    code, out, _ = cli(capsys, monkeypatch, ["play", rules, "--seed", "1", "--bot", "2=random"],
                       f"pick\n2\nlog\nsave {save}\nquit\n")
    before = out.split("P1> log\n")[1].split("P1> save")[0]
    assert "how many → 2" in before
    code, out, _ = cli(capsys, monkeypatch, ["play", save], "log\nquit\n")
    assert code == 0 and out.split("P1> log\n")[1].split("P1> quit")[0] == before


def test_no_declines_a_question_whose_way_to_decline_is_pass(tmp_path, capsys, monkeypatch):
    rules = tmp_path / "asks.rules"
    rules.write_text(ASKS.replace('choose x in [1, 2, 3] prompt "how many"',
                                  'choose x in [1, 2, 3] optional prompt "how many"'), encoding="utf-8")
    code, out, _ = cli(capsys, monkeypatch, ["play", rules, "--seed", "1", "--bot", "2=random"], "pick\nno\nlog\nquit\n")
    assert code == 0 and "how many → pass" in out and "error" not in out


def test_a_line_too_long_is_left_out_and_said(capsys, monkeypatch):
    """A fuzz trial: `look` of a 40 MB name took 3.7 GB and ended in a MemoryError."""
    from rulelang.play.repl import LINE_LIMIT
    code, out, err = cli(capsys, monkeypatch, ["play", REGICIDE, "--seed", "1"],
                         stdin="look " + "x" * (3 * LINE_LIMIT) + "\nquit\n")
    assert code == 0 and "error: a line of at most 10,000 characters is read" in out + err
    assert "x" * 100 not in out + err
