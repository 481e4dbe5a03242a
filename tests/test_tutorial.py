"""docs/tutorial.md and its step files (docs/tutorial/*.rules) stay true.

- every step file lints with no diagnostic at all (no errors, no warnings) and compiles;
- a seeded random game of each part's last step finishes;
- every ```rules block of the tutorial that names a step file on its first line is that file:
  `# docs/tutorial/NAME.rules` is the whole file, byte for byte; `# docs/tutorial/NAME.rules: new
  lines` is a fragment whose every line (bar `…`) is a line of that file;
- every output the tutorial quotes (commands, screens, diagnostics) is what the tool prints today.
"""
from __future__ import annotations

import io
import random
import re
import shlex
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


# ---- every output the tutorial quotes is what the tool prints today. Each ``` block (not ```rules)
# is one or more `$ COMMAND` lines, each followed by the output quoted for it: run from a folder
# holding docs/ and the wrong variants below, the command's output must be the quoted lines, where
# a line `…` stands for any number of lines. A play session may go on after its quote where it
# waits for the player (a `P1> ` prompt); its input is the printf piped in, else the answers the
# quote shows after its prompts.

# the wrong variants of the pitfalls, made from a step file as the tutorial says
WRONG = {
    "grid_1_no_end_turn.rules": ("grid_1.rules", "        end turn\n", ""),
    "grid_3_without_on_stuck.rules": ("grid_3.rules", "  on stuck { finish draw }\n", ""),
    "grid_3_typo.rules": ("grid_3.rules", "mark[c] = me", "mrak[c] = me"),
    "grid_4_reason.rules": ("grid_4.rules", 'finish win for me "three in a row for " + text(me)',
                            'finish win for me text(me) + " has three in a row"'),
    "cards_3_draw.rules": ("cards_3.rules", "action draw require size(deck) > 0 {", "action draw {"),
    "cards_3_no_pile.rules": ("cards_3.rules", "    move top(deck) to pile\n", ""),
    "cards_3_hidden.rules": ("cards_3.rules", "zone hand: set per player, owner",
                             "zone hand: set per player, hidden"),
    "cards_5_unranked.rules": ("cards_5.rules", " ranked by -sum(c.rank for c in hand[me])", ""),
}
# a game without --seed gets a new one, which it shows at the end
SEED = (re.compile(r"Seed \d+: `--seed \d+`"), "Seed N: `--seed N`")
PROMPT = re.compile(r"^P\d+> (.*)$")


def output_blocks() -> list[str]:
    """The fenced blocks without a language: outputs (```rules blocks are files, checked above)."""
    blocks: list[str] = []
    lang, lines = None, []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if lang is None:
            if line.startswith("```"):
                lang, lines = line[3:], []
        elif line == "```":
            if lang == "":
                blocks.append("\n".join(lines))
            lang = None
        else:
            lines.append(line)
    return blocks


def commands(block: str) -> list[tuple[str, list[str]]]:
    """The block's `$ ` commands, each with the lines quoted after it."""
    found: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        else:
            assert found, f"an output block without its command: {block.splitlines()[0]!r}"
            found[-1][1].append(line)
    return found


def printf_text(fmt: str) -> str:
    return fmt.encode("ascii").decode("unicode_escape")


def run(command: str, quoted: list[str], capsys, monkeypatch) -> str:
    """Run a `$` line of the tutorial in this process, the way a shell would; its stdout."""
    stdin = ""
    if command.startswith("printf "):
        printf, _, rest = command.partition(" | ") if " | " in command else command.partition(" > ")
        fmt = shlex.split(printf)[1]
        if " > " in command:
            Path(rest).write_text(printf_text(fmt), encoding="utf-8")
            return ""
        stdin, command = printf_text(fmt), rest
    else:
        stdin = "".join(m.group(1) + "\n" for m in map(PROMPT.match, quoted) if m)
    argv = shlex.split(command)
    assert argv[0] == "rulelang", command
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    capsys.readouterr()
    try:
        rulelang.cli.main(argv[1:])
    except SystemExit:
        pass
    return capsys.readouterr().out


def matches(quoted: list[str], out: str, session: bool) -> bool:
    pattern = "".join(r"(?:.*\n)*?" if line.strip() == "…"
                      else re.escape(SEED[0].sub(SEED[1], line.rstrip())) + r"\n" for line in quoted)
    if session:   # the quote may stop where the tool waits for the player
        pattern += r"(?:P\d+>.*\n(?:.*\n)*)?"
    text = "".join(line.rstrip() + "\n" for line in out.rstrip().splitlines())
    return re.fullmatch(pattern, SEED[0].sub(SEED[1], text)) is not None


OUTPUTS = output_blocks()


def test_the_tutorial_quotes_outputs():
    assert len(OUTPUTS) >= 20
    made = {arg for block in OUTPUTS for line in block.splitlines() if line.startswith("$ rulelang")
            for arg in line.split() if arg.endswith(".rules") and not arg.startswith("docs/")}
    # every wrong variant the tutorial runs is made here, as its prose says
    assert made - {"mygame.rules"} == set(WRONG)


@pytest.mark.parametrize("block", OUTPUTS, ids=lambda b: b.splitlines()[0][2:60])
def test_quoted_output_is_the_tools(block, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    for name, (source, old, new) in WRONG.items():
        text = step(source).read_text(encoding="utf-8")
        assert text.count(old) == 1, (name, old)
        (tmp_path / name).write_text(text.replace(old, new), encoding="utf-8")
    for command, quoted in commands(block):
        out = run(command, quoted, capsys, monkeypatch)
        assert matches(quoted, out, session="rulelang play " in command), \
            f"$ {command}\n--- the tool prints:\n{out}"


@pytest.mark.parametrize("name, drop, code, games", [
    ("grid_3_without_on_stuck.rules", "on stuck", "E411", 40),   # a full grid: nobody can move
    ("cards_3_no_pile.rules", "move top(deck) to pile", "E414", 3),  # top(pile) of an empty pile
])
def test_deep_lint_pitfalls(tmp_path, name, drop, code, games):
    """What the tutorial says of them: plain lint cannot see them, the random games do."""
    source, old, new = WRONG[name]
    assert drop in old and new == ""
    wrong = tmp_path / name
    wrong.write_text(step(source).read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    assert rulelang.lint([str(wrong)])[0] == []
    found = rulelang.deep_lint(str(wrong), games=games)
    assert [d.code for d in found] == [code]
