"""`rulelang bench`: random playouts per second, measured like the speed references, on both games."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.play import bench
from rulelang.cli import main

ROOT = Path(__file__).resolve().parent.parent
REGICIDE = str(ROOT / "games" / "regicide.rules")
VALGARD = str(ROOT / "games" / "valgard.rules")
KEYS = {"game", "file", "players", "games", "seed", "options", "repeats", "python", "clock", "chunk", "seconds",
        "seconds_wall",
        "playouts_per_s", "playouts_per_s_median", "actions", "actions_per_s", "actions_per_s_median",
        "mean_length", "mean_legal_actions", "state_bytes", "clone_bytes", "state_json_bytes", "clone_us", "copy_us", "state_us",
        "from_state_us"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_bench_prints_the_figures_of_every_file_and_player_count(capsys):
    code, out, err = run(capsys, "bench", REGICIDE, VALGARD, "--players", "1,2", "--games", "5",
                         "--repeats", "1")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("Python ") and "5 games from seed 0" in lines[0]
    assert "CPU time, best (median) of 1 rounds" in lines[0] and "interleaved" not in lines[0]
    rows = [line for line in lines if re.match(r"(Regicide|Valgarð) \dp ", line)]
    # the table (Regicide 1p, 2p; Valgarð is 2 players only), then the state figures
    assert [r.split()[0] + " " + r.split()[1] for r in rows] == ["Regicide 1p", "Regicide 2p", "Valgarð 2p"] * 2
    for row in rows[:3]:
        assert re.search(r"[\d,]+ \( *[\d,]+\) +[\d,]+ \( *[\d,]+\) +\d+\.\d +\d+\.\d$", row), row
    assert "bytes (copy)" in out and "bytes (clone)" in out and "from_state" in out


def test_two_files_of_one_game_are_told_apart_by_their_file_names(capsys, tmp_path):
    variant = tmp_path / "regicide_variant.rules"
    variant.write_text(Path(REGICIDE).read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run(capsys, "bench", REGICIDE, str(variant), "--players", "1", "--games", "2", "--repeats", "1")
    assert code == 0
    rows = [line.split()[0] for line in out.splitlines() if re.match(r"\S+\.rules 1p ", line)]
    assert rows == ["regicide.rules", "regicide_variant.rules"] * 2     # the table, then the state figures
    assert "Regicide 1p" not in out


def test_bench_json_has_every_figure(capsys):
    code, out, _ = run(capsys, "bench", VALGARD, "--games", "5", "--repeats", "2", "--seed", "3", "--json")
    assert code == 0
    (result,) = json.loads(out)
    assert set(result) == KEYS
    assert result["game"] == "Valgarð" and result["players"] == 2 and result["games"] == 5
    assert result["seed"] == 3 and result["repeats"] == 2 and result["file"] == VALGARD
    assert result["playouts_per_s"] > 0 and result["actions_per_s"] > result["playouts_per_s"]
    assert result["playouts_per_s"] >= result["playouts_per_s_median"]
    assert result["mean_length"] == result["actions"] / 5
    assert result["mean_legal_actions"] >= 1
    assert result["state_bytes"] > result["clone_bytes"] > 0 and result["state_json_bytes"] > 0
    assert min(result["clone_us"], result["copy_us"], result["state_us"], result["from_state_us"]) > 0


def test_the_playouts_are_the_seeded_random_games(capsys):
    """Match i is seeded seed+i and its bot 10**6+seed+i: the figures (but the timings) repeat."""
    game = rulelang.load(REGICIDE)
    m, n, seen = bench.playout(game, 2, 4, {}, count=True)
    again, n2, _ = bench.playout(game, 2, 4, {})
    assert m.log == again.log and n == n2 == len(m.log) and m.is_over and seen >= n
    one = bench.bench(game, 2, 3, seed=4, repeats=1)
    two = bench.bench(game, 2, 3, seed=4, repeats=1)
    for key in ("actions", "mean_length", "mean_legal_actions", "state_json_bytes"):
        assert one[key] == two[key]
    assert one["actions"] == sum(len(bench.playout(game, 2, 4 + i, {})[0].log) for i in range(3))


def test_options_reach_the_matches(capsys):
    code, out, _ = run(capsys, "bench", VALGARD, "--games", "2", "--repeats", "1", "--option", "turn_limit=5",
                       "--json")
    (result,) = json.loads(out)
    assert result["options"] == {"turn_limit": 5}
    assert result["mean_length"] <= 6 + 5            # 6 muster placements, then at most 5 turns


def test_reference_modules_are_timed_the_same_way(tmp_path, capsys):
    """A module with the references' interface is timed on the same seeds, and the ratio given."""
    ref = tmp_path / "tiny_ref.py"
    ref.write_text(
        "import random\n"
        "class Match:\n"
        "    def __init__(self, players=2, seed=0, **options):\n"
        "        self.left = 3 + random.Random(seed).randrange(3)\n"
        "        self.is_over = False\n"
        "    def legal_actions(self):\n"
        "        return ['tick']\n"
        "    def apply(self, action):\n"
        "        self.left -= 1\n"
        "        self.is_over = self.left == 0\n", encoding="utf-8")
    code, out, _ = run(capsys, "bench", VALGARD, "--games", "3", "--repeats", "3", "--reference", str(ref),
                       "--json")
    assert code == 0
    (result,) = json.loads(out)
    assert result["reference"]["module"] == str(ref) and result["clock"] == "cpu"
    assert set(result["reference"]) == {"module", "playouts_per_s", "playouts_per_s_median", "actions_per_s",
                                        "mean_length"}
    # 4, 3 and 3 ticks: seeds 0, 1, 2 of the tiny game (3 + random.Random(seed).randrange(3))
    assert result["reference"]["mean_length"] == pytest.approx(10 / 3)
    # one ratio per round (reference time / engine time); min and median of them
    assert len(result["ratios"]) == 3
    assert result["ratio_min"] == min(result["ratios"]) <= result["ratio_median"] <= result["ratio_max"]
    assert result["ratio"] == result["ratio_median"] == sorted(result["ratios"])[1]
    code, out, _ = run(capsys, "bench", VALGARD, "--games", "3", "--repeats", "2", "--chunk", "2",
                       "--reference", str(ref))
    lines = out.splitlines()
    assert "CPU time, best (median) of 2 rounds" in lines[0]
    assert "engine and reference interleaved in chunks of 2 games" in lines[0]
    assert "reference/s" in lines[1] and "ratio min / median" in lines[1]
    assert re.search(r"[\d,]+ \( *[\d,]+\) +\d+\.\d\d / \d+\.\d\d$", lines[2]), lines[2]
    assert lines[3].startswith("ratio: reference CPU time / engine CPU time")


def test_engine_and_reference_alternate_chunk_by_chunk():
    """Every side plays each chunk in turn, the order reversed chunk by chunk and round by round, so a
    burst of load falls on both alike; each plays every game once per round, after one warm-up chunk."""
    calls = []

    def side(name):
        def play(seed):
            calls.append((name, seed))
            return 1
        return play
    timed = bench.timed_rounds([side("e"), side("r")], games=5, seed=10, rounds=2, chunk=2)
    warm = [("e", 10), ("r", 10), ("e", 11), ("r", 11)]
    round1 = [("e", 10), ("e", 11), ("r", 10), ("r", 11), ("r", 12), ("r", 13), ("e", 12), ("e", 13),
              ("e", 14), ("r", 14)]
    round2 = [("r", 10), ("r", 11), ("e", 10), ("e", 11), ("e", 12), ("e", 13), ("r", 12), ("r", 13),
              ("r", 14), ("e", 14)]
    assert calls == warm + round1 + round2
    assert timed["actions"] == [5, 5]
    assert [len(x) for x in timed["cpu"]] == [2, 2] and [len(x) for x in timed["wall"]] == [2, 2]


@pytest.mark.parametrize("argv, message", [
    (["bench", VALGARD, "--players", "3"], "error: Valgarð is for 2 players, not 3"),
    (["bench", VALGARD, "--games", "0"], None),
    (["bench", VALGARD, "--players", "two"], None),
    (["bench", REGICIDE, VALGARD, "--reference", "x.py"], "error: give one --reference per file"),
    (["bench", VALGARD, "--reference", "missing_ref.py"], "error: no reference module missing_ref.py"),
    (["bench", VALGARD, "--option", "colour=red"], "error: unknown option `colour`"),
])
def test_bad_bench_command_lines_are_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert "Traceback" not in out + err
    if message is None:                  # argparse: usage, then the problem; exit 2
        assert code == 2
    else:
        assert code == 1 and err.startswith(message) and len(err.strip().splitlines()) == 1


def test_a_game_random_play_never_ends_is_said_not_timed_for_ever(capsys, tmp_path, monkeypatch):
    """An exhaustion trial: `bench` of a lint-clean file whose only `finish` cannot be reached ran
    until killed (simulate stops such a game at MAX_ACTIONS and counts it an error)."""
    path = tmp_path / "forever.rules"
    path.write_text('game "Forever" {\n  players 2\n  var n: int = 0\n  turn { step act {\n'
                    '    action wait { n = 1 - n  end turn }\n'
                    '    action quit require n == 7 { finish draw "never" }\n  } }\n}\n', encoding="utf-8")
    monkeypatch.setattr(bench, "MAX_ACTIONS", 2000)
    assert main(["bench", str(path), "--games", "2", "--repeats", "1"]) == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["error: the game of seed 0 has not ended after 2,000 random actions: bench "
                                        "times games that end (`rulelang lint --deep` looks for why one may not)"]


def test_a_long_game_name_keeps_the_columns_in_line(capsys, tmp_path):
    """A new author's `Modern Art (simplified) 3p` pushed its figures out of line with the next row's."""
    long = tmp_path / "long.rules"
    long.write_text(Path(REGICIDE).read_text(encoding="utf-8").replace('game "Regicide"', 'game "Regicide, the long-named variant"', 1),
                    encoding="utf-8")
    code, out, _ = run(capsys, "bench", REGICIDE, str(long), "--players", "1", "--games", "2", "--repeats", "1")
    assert code == 0
    rows = [line for line in out.splitlines() if " 1p " in line]
    table = rows[:2]
    assert "long-named" in table[1], out
    assert len({line.index("(") for line in table}) == 1, out


def test_a_bench_stops_at_its_cpu_budget_and_says_so(tmp_path, capsys):
    """A fuzz trial: lint-clean files made `rulelang bench` run about 5 minutes, 4 hours and 10 hours
    (`simulate` stops the same files at 45 s). A run has a budget of CPU time, 600 s unless
    `--max-cpu` says otherwise."""
    import time
    path = tmp_path / "long.rules"
    path.write_text('game "Long" {\n  players 1\n  var n: int = 0\n  turn { step s { action tick {\n'
                    '    n += 1\n    if n >= 99990 { finish win for me "done" } else { end turn }\n  } } }\n}\n',
                    encoding="utf-8")
    started = time.process_time()
    code, out, err = run(capsys, "bench", str(path), "--max-cpu", "0.5")
    assert code == 1 and out == "" and time.process_time() - started < 30
    assert err == ("error: bench stopped: its budget of 0.5 s of CPU time is spent (fewer --games or --repeats, "
                   "or --max-cpu SECONDS, 0 for none)\n")
    assert bench.CPU_LIMIT == 600 and bench._deadline == float("inf")      # (the next run starts afresh)


def test_a_budget_spent_keeps_what_was_measured_and_names_the_whole_budget(tmp_path):
    """A review: at a terminal, three files with `--max-cpu 8` ended "its budget of 0.667723 s …"
    (the part left for the last file) and printed none of the rows measured; and a reference module
    that never ends was not stopped by the budget at all."""
    import argparse
    from rulelang import cli
    long = tmp_path / "long.rules"
    long.write_text('game "Long" {\n  players 1\n  var n: int = 0\n  turn { step s { action tick {\n'
                    '    n += 1\n    if n >= 99990 { finish win for me "done" } else { end turn }\n  } } }\n}\n',
                    encoding="utf-8")
    args = argparse.Namespace(files=[REGICIDE, str(long)], games=3, seed=0, option=[], repeats=1, reference=[],
                              chunk=20, max_cpu=2.0)
    class Bar:                                           # (the terminal's progress bar, silent)
        def __call__(self, *a):
            pass

        def close(self):
            pass
    results, partial = cli._bench_here(args, [], bench.run, Bar())
    assert [r["game"] for r in results] == ["Regicide"]
    assert partial.startswith("bench stopped: its budget of 2 s of CPU time is spent"), partial
    endless = tmp_path / "endless_ref.py"
    endless.write_text("class Match:\n    def __init__(self, players, seed, **options):\n        self.is_over = False\n"
                       "    def legal_actions(self):\n        return [1]\n    def apply(self, a):\n        pass\n",
                       encoding="utf-8")
    with pytest.raises(bench.BudgetSpent):
        bench.run([REGICIDE], [1], 3, 0, {}, 1, [str(endless)], cpu_limit=1.0)
