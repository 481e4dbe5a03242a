"""Small inputs that exhausted the machine (a resource fuzz, stop 49): each case runs the command a
user would, in a child process whose CPU time and memory the kernel caps, and must end, in one
clear line where it is refused, well within the caps (seconds of CPU where the fuzz measured
minutes or gigabytes). The caps are CPU time, not wall-clock: a busy machine does not fail them."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CPU_CAP = 60                 # CPU seconds before the kernel stops a child (a hang)
MEMORY_CAP = 2 << 30         # bytes of address space a child may map
CPU_LIMIT = 15.0             # CPU seconds a case may take (they take about one)

CHILD = r"""
import io, json, resource, sys, time
spec = json.loads(sys.stdin.read())
from rulelang.cli import main
start = time.process_time()
sys.stdin = io.StringIO(spec.get("input", ""))
try:
    code = main(spec["argv"])
except SystemExit as stop:
    code = stop.code
# (VmHWM, this process's own peak: ru_maxrss keeps the forking test worker's peak across fork and exec)
peak = next((int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")), None)
print(json.dumps({"code": code, "cpu": time.process_time() - start,
                  "rss_mb": (peak or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024}), file=sys.__stderr__)
"""


def _caps():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_CAP, CPU_CAP))


def run(tmp_path, argv: list[str], stdin: str = "") -> tuple[dict, str, str]:
    env = dict(os.environ, RULELANG_CACHE_DIR=str(tmp_path / "cache"), HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps({"argv": argv, "input": stdin}),
                          capture_output=True, text=True, preexec_fn=_caps, cwd=tmp_path, env=env,
                          timeout=600)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 0 and lines, f"the child was stopped (a hang or a runaway allocation): " \
                                           f"{done.returncode} {done.stderr[-1500:]}"
    report = json.loads(lines[-1])
    assert report["cpu"] < CPU_LIMIT, f"{report['cpu']:.1f} s of CPU time for {argv}"
    return report, done.stdout, "\n".join(lines[:-1])


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("middle", ['"' + "[for " * 2000 + '" for',
                                    '"' + "create cards where in " * 450 + '"\n  setup { for x 5 }'])
def test_a_syntax_error_on_a_long_line_is_told_at_once(tmp_path, middle):
    """The hints of a syntax error read the line before it through patterns with two `.*`: a 10 KB
    line took over a minute."""
    path = write(tmp_path, "long.rules", 'game "T" {\n  players 2\n  def a = ' + middle + "\n}\n")
    report, out, err = run(tmp_path, ["lint", path])
    assert report["code"] == 1 and "error[E001]" in out + err


def test_the_rulebook_sets_up_a_bounded_number_of_matches(tmp_path):
    """`rules` set up a match for every player count and option value (130 here, each spending the
    rules' whole work limit): a minute and a half."""
    path = write(tmp_path, "w.rules", """game "W" {
  players 1..64
  option o0: bool = false
  option o1: bool = false
  kind C { v: int  label text(v)  text "x" + text(v) }
  zone d: pile
  var a: int = 1
  var b: int = 2
  setup {
    create C(v: 1) in d
    for k in 1..30 { for i in 1..99999 { a = (a * 3 + b * 5 + 7) % 1000003  b = (b * 7 + a * 3 + 11) % 999983 } }
  }
  turn { step s1 { action go { end turn } action win { finish win for me } } }
}
""")
    report, out, _ = run(tmp_path, ["rules", path])
    assert report["code"] == 0 and out.startswith("W\n=")


def test_content_files_copied_by_many_creates_are_refused_before_the_ir_is_built(tmp_path):
    """Each `create … from` copies its file's rows into the IR: 650 of a 990 KB file made a 644 MB
    IR (1.9 GB to build), and the cache kept it."""
    # (99 rows of 9,900 characters: a text field holds at most TEXT_LIMIT, 10,000)
    (tmp_path / "a.yaml").write_text(("- {name: " + "x" * 9_900 + "}\n") * 99, encoding="utf-8")
    path = write(tmp_path, "y.rules", 'game "Y" {\n  players 2\n  kind C { name: text = "x"  label name }\n'
                 "  zone d: pile\n  setup {\n" + '    create C from "a.yaml" in d\n' * 40
                 + "  }\n  turn { step s { action win { finish win for me } } }\n}\n")
    report, out, err = run(tmp_path, ["compile", path, "-o", str(tmp_path / "y.json")])
    assert report["code"] == 1 and "MB of content files" in err and report["rss_mb"] < 500
    assert not (tmp_path / "y.json").exists()


def test_anytime_actions_joining_a_thousand_steps_are_refused(tmp_path):
    """Every step compiles the `anytime` actions again: 10 of them in 1,000 steps took 3.5 GB."""
    body = " ".join(f"v = v + {i % 10}" for i in range(75))
    steps = "\n".join(f"  step s{i} {{ action a{i} {{ goto s{(i + 1) % 1000} }} }}" for i in range(1000))
    path = write(tmp_path, "a.rules", 'game "A" {\n  players 2\n  var v: int = 0\n'
                 + "".join(f"  anytime action y{k} {{ {body} }}\n" for k in range(10))
                 + "  turn { step s { action win { finish win for me }  action go { goto s0 } } }\n" + steps + "\n}\n")
    report, out, err = run(tmp_path, ["lint", path])
    assert report["code"] == 1 and "error[E003]" in out + err and "`anytime` actions join every step" in out + err


def test_a_long_line_typed_against_many_actions_is_answered_at_once(tmp_path):
    """A 129 KB line was compared word by word with each of 5,000 actions: 19 s. (Past 10,000
    characters a line is not read at all; one just under it is matched as fast.)"""
    path = write(tmp_path, "m.rules", 'game "M" {\n  players 2\n  turn { step s { action take(n in 1..5000) '
                                      "{ end turn }  action win { finish win for me } } }\n}\n")
    line = "take " + " ".join(f"w{i}" for i in range(1800))
    report, out, _ = run(tmp_path, ["play", path, "--seed", "1"], stdin=line + "\nquit\n")
    assert report["code"] == 0 and "is not a legal action" in out


def test_a_move_of_many_look_alike_pieces_is_drawn_at_once(tmp_path):
    """The change lines matched look-alike pieces pair by pair: 98 pieces of one move, 46 s."""
    path = write(tmp_path, "b.rules", """game "B" {
  players 2
  board b: squares(14, 14)
  kind P { n: int = 0  label "o" }
  zone here: pile per cell of b
  setup { for c in cells(b) { if c.col <= 7 { create P() in here[c] } } }
  turn { step s {
    action shift { for c in cells(b) { if c.col <= 7 { move here[c] to here[cell(b, 15 - c.col, c.row)] } }  end turn }
    action win { finish win for me }
  } }
}
""")
    report, out, _ = run(tmp_path, ["play", path, "--seed", "1"], stdin="shift\nquit\n")
    assert report["code"] == 0 and "P1 plays: shift" in out


def _fan(name: str, params: str, call: str, leaf: str, width: int, deep: int, joiner: str,
         wrap: str = "{}") -> str:
    """Defs d0 … d{deep}: each the `width` calls of the next, joined (in `wrap`); the last is `leaf`."""
    lines = [f"  def {name}{deep}{params} = {leaf}"]
    for i in range(deep - 1, -1, -1):
        lines.append(f"  def {name}{i}{params} = " + wrap.format(joiner.join([f"{name}{i + 1}{call}"] * width)))
    return "\n".join(lines)


@pytest.mark.parametrize("defs, action, moves", [
    # the zone flows (change lines, undo checks, the bots' worlds): 80 calls a body, 4 deep
    (_fan("d", "(x)", "(x)", "[x]", 80, 4, ", ", "[{}]"),
     "action big require size(e) > 5 { let y = d0(1)  move top(d) to e }", "go\n"),
    # which parameters the actor surely sees (when the game is loaded): 12 calls a body, 7 deep
    (_fan("e", "", "", "d", 12, 7, " + "), "action take(c in e0) { move c to e }", ""),
    # a `require` that reads only fields (when the game is loaded): 11 calls a body, 7 deep
    (_fan("g", "(c)", "(c)", "c.n", 11, 7, " + "), "action take(c in d) require g0(c) > 0 { end turn }", ""),
])
def test_defs_that_call_defs_many_times_are_read_once_each(tmp_path, defs, action, moves):
    """Three analyses followed every call into a def's body, with a depth limit but no memory of
    what they had found: a body of a dozen calls of the next def, a few deep, never finished."""
    path = write(tmp_path, "f.rules", 'game "F" {\n  players 2\n  kind C { n: int = 1  label "c" }\n'
                 "  zone d: pile\n  zone e: pile\n" + defs + "\n  setup { create C() in d }\n"
                 "  turn { step s {\n    action go { end turn }\n    action win { finish win for me }\n    "
                 + action + "\n  } }\n}\n")
    report, out, err = run(tmp_path, ["play", path, "--seed", "1"], stdin=moves + "quit\n")
    assert report["code"] in (0, 1), (out[-500:], err[-500:])
    assert "Traceback" not in out + err
