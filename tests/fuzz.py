"""Fuzz harness: mutated rule files, compiled IR and save files must never crash rulelang.

Every case takes a seed input, mutates it and runs it through the public API:

  rules  games/*.rules and tests/lint/corpus/*.rules, mutated character by character, token by token
         and with grammar-aware edits (whole blocks, deep nesting, extreme numbers, other names);
         then `lint`, `compile_file` (and `compile_source` of the raw text, if reading the file changed
         it), `Game`, two random playouts, `state` -> JSON -> `from_state`, and `view` of every seat.
  ir     the compiled IR of those files, mutated as JSON (values seen under the same key elsewhere,
         other types, deleted keys, other strings including code-like payloads, extreme numbers,
         deep nesting, grafted and swapped subtrees); then `rulelang.load(FILE.json)` (and `Game(ir)`
         directly when the schema refuses it) and the same playouts.
  save   `match.state()` after some random moves and files written by the REPL's `save`, mutated as
         JSON; then `Match.from_state`, a REPL session that runs `load FILE`, and `rulelang replay`.

A case passes when every call returns or raises a `rulelang.RulelangError`. It fails on any other
exception, a call taking more than CALL_LIMIT seconds of CPU time (a hang), a diagnostic whose span
lies outside the file it names, a lint that is clean while compiling fails, a state that does not
survive `state()` -> JSON -> `from_state` -> `state()`, or a file appearing in the (empty, temporary)
working directory. Failures are grouped by (exception type, innermost frame in rulelang/); one reproducer
per group (the smallest input seen) goes to OUT/<group>/ with notes and the traceback.

    python tests/fuzz.py --cases 10000 --seed 1 --jobs 2              # every kind: the documented run
    python tests/fuzz.py --cases 3000 --kind ir --out /tmp/rulelang-fuzz
    python tests/fuzz.py --run /tmp/rulelang-fuzz/<group>             # run one reproducer, show traceback
    python tests/fuzz.py --shrink /tmp/rulelang-fuzz/<group>          # delta-debug it into OUT/min/<group>

(--shrink cuts text: it suits rule files; for IR and saves, notes.txt names the JSON paths mutated.)

Exit status 1 when any case failed. Cases are deterministic for a given --seed (except hangs, which
depend on the machine's speed, not on its load: calls are timed in CPU time). tests/test_fuzz.py runs
a bounded version as part of the suite.
"""
from __future__ import annotations

import argparse
import copy
import faulthandler
import io
import functools
import json
import math
import multiprocessing
import os
import queue
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang import Game, Match, RuleError, RulelangError  # noqa: E402
from rulelang import cli
from rulelang.play import repl  # noqa: E402

PKG = str(ROOT / "rulelang") + os.sep
GAMES = sorted((ROOT / "games").glob("*.rules"))
CORPUS = ROOT / "tests" / "lint" / "corpus"
GRAMMAR = ROOT / "grammar" / "rulelang.lark"
KINDS = ("rules", "ir", "save")
COST_KINDS = KINDS + ("cost",)   # --cost: and mutants that multiply sizes, each case in a capped child
# A hang is told by CPU time, which other work on a busy machine does not stretch: the slowest call
# takes ~1.5 s of it. The wall-clock limit of a whole case is only the safety net for a hang that
# never returns to Python (in C code) or waits without using the CPU; it is far above any real case.
CALL_LIMIT = 20.0         # CPU seconds one API call may take before it counts as a hang
CASE_LIMIT = 300.0        # wall-clock seconds a whole case may take before its worker is killed
MEMORY_LIMIT = 3 << 30    # bytes of address space per worker: a memory bomb is a MemoryError, not a dead box
MAX_ACTIONS = 50          # random actions per playout
DEFAULT_OUT = Path("/tmp/rulelang-fuzz")

EXTREME_INTS = [0, -1, 1, 2, 255, 10 ** 9, -10 ** 9, 2 ** 31, 2 ** 62, 2 ** 63, -2 ** 63, 10 ** 30]
HUGE_DIGITS = ["9" * 5000, "1" + "0" * 30, "0" * 400 + "7"]
PAYLOADS = [                              # strings that would do something if pasted into generated code
    "if open('pwned','w') else",
    "+ (open('pwned', 'w') and 0) +",
    "__import__('os').system('touch pwned')",
    "'); open('pwned','w'); ('",
    "x\nopen('pwned','w')\n",
    "pwned()", "", " ", "-", "a.b", "__class__", "None", "\x00", "\u202e", "é" * 3, "x" * 5000,
]
PAYLOAD_STRINGS = ['"\\"); open(\'pwned\',\'w\') #"', '""', '"\\\\"', '"' + "x" * 3000 + '"',
                   '"a.yaml"', '"../up.yaml"', '"/etc/passwd"', '"sub/x.yaml"', '"\\u0000"', '"\\n"']
ODD_CHARS = ("\x00\x01\x08\x0b\x0c\x1b\x7f\r\t\n\ufeff\u0085\u2028\u200b\u202e\ud800"
             "éß∑😀{}[]()\"'#.,:;=+-*/%<>!\\")


class Timeout(BaseException):
    """A call used more than CALL_LIMIT of CPU time (a BaseException, so `except Exception` in rulelang
    cannot swallow it)."""


@dataclass
class Mutant:
    kind: str                      # rules | ir | save
    text: str                      # the input file's text
    seed: str                      # the seed it was made from
    notes: list[str] = field(default_factory=list)        # the mutations, in order
    meta: dict = field(default_factory=dict)              # save: game path and players
    extra: dict[str, str] = field(default_factory=dict)   # other files beside it (YAML content)


# ============================================================================ seeds

@dataclass
class Seeds:
    rules: dict[str, str]          # name -> text
    yaml: dict[str, str]           # YAML content files a corpus rule file may import
    ir: dict[str, dict]            # name -> compiled IR
    saves: dict[str, tuple]        # name -> (JSON document, {"game": path, "players": n})
    tokens: list[str]              # every distinct token of the rule files, plus keywords and payloads
    names: list[str]               # declared names
    strings: list[str]             # every string in the IR and saves, plus payloads
    keys: list[str]                # every object key in the IR and saves
    by_key: dict[str, list]        # key -> values found under that key (a list item: under "key[]")
    cost_ir: dict                  # the compiled game cost mutants of an IR start from


@functools.lru_cache(maxsize=1)
def build_seeds() -> Seeds:
    """The seed inputs, built once per process (every mutant works on a copy)."""
    rules = {p.name: p.read_text(encoding="utf-8") for p in GAMES + sorted(CORPUS.glob("*.rules"))}
    yaml = {p.name: p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.yaml"))}
    ir = {}
    for p in GAMES + sorted(CORPUS.glob("*.rules")):
        try:
            ir[p.name] = rulelang.compile_file(str(p))
        except RuleError:
            pass
    saves = build_saves()
    tokens = sorted({t for text in rules.values() for t in tokenize(text) if not t.isspace()}
                    | set(grammar_keywords()) | set(PAYLOAD_STRINGS) | set(HUGE_DIGITS))
    names = sorted({n for text in rules.values() for n in declared_names(text)})
    docs = list(ir.values()) + [doc for doc, _ in saves.values()]
    strings = sorted({s for d in docs for s in walk_scalars(d) if isinstance(s, str) and len(s) < 200}
                     | set(PAYLOADS))
    keys = sorted({k for d in docs for k in walk_keys(d)})
    by_key: dict[str, list] = {}
    for d in docs:
        for c, k, p in slots(d):
            by_key.setdefault(slot_key(c, k, p), []).append(c[k])
    return Seeds(rules, yaml, ir, saves, tokens, names, strings, keys, by_key,
                 rulelang.compile_source(COST_BASE, "cost.rules"))


def build_saves() -> dict[str, tuple]:
    """States after random moves, and files the REPL's own `save` writes (whatever its format is now)."""
    saves = {}
    for path in GAMES:
        game = seed_game(str(path))                     # (built once a process: the fuzz runs use it too)
        for players in sorted({game.min_players, max(game.min_players, min(game.max_players, 2)), game.max_players}):
            for moves in (0, 7, 40):
                match = game.new_match(players, seed=moves)
                play_randomly(match, random.Random(moves), moves)
                meta = {"game": str(path), "players": players}
                saves[f"{path.stem}-p{players}-m{moves}.state"] = (match.state(), meta)
            saves[f"{path.stem}-p{players}.repl"] = (repl_save(game, str(path), players), meta)
    return saves


def play_randomly(match, rng, moves: int) -> None:
    for _ in range(moves):
        if match.is_over:
            return
        match.apply(rng.choice(match.legal_actions()))


def repl_save(game, path: str, players: int) -> dict:
    """A save file written by a REPL session (seat 1 human, the rest random bots) after a few moves."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "save.json")
        script = "1\n1\n1\nsave " + out + "\nquit\n"
        repl.run_repl(game, players, 3, None, {s: "random" for s in range(1, players)},
                      io.StringIO(script), io.StringIO(), path)
        return json.loads(Path(out).read_text(encoding="utf-8"))


TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[A-Za-z_][A-Za-z_0-9]*|\d+|\.\.|[+\-]=|[=!<>]=|\s+|.', re.S)
DECLARES = {"enum", "table", "kind", "zone", "board", "var", "def", "proc", "step", "action", "option", "let", "for"}


def tokenize(text: str) -> list[str]:
    return TOKEN.findall(text)


def grammar_keywords() -> list[str]:
    return sorted(set(re.findall(r'"([^"\s]+)"', GRAMMAR.read_text(encoding="utf-8"))))


def declared_names(text: str) -> list[str]:
    toks = [t for t in tokenize(text) if not t.isspace() and not t.startswith("#")]
    return [b for a, b in zip(toks, toks[1:]) if a in DECLARES and re.fullmatch(r"[A-Za-z_]\w*", b)]


def walk_scalars(doc):
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        else:
            yield v


def walk_keys(doc):
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            yield from v
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


# ============================================================================ text mutators

def pick_range(rng, n: int, longest: int = 40) -> tuple[int, int]:
    i = rng.randrange(n + 1)
    return i, min(n, i + rng.randint(1, longest))


def odd_text(rng) -> str:
    return "".join(rng.choice(ODD_CHARS) for _ in range(rng.randint(1, 6)))


def char_mutation(rng, text: str, seeds: Seeds) -> tuple[str, str]:
    i, j = pick_range(rng, len(text), rng.choice([3, 40, 400]))
    op = rng.choice(["delete", "insert", "replace", "duplicate", "huge", "truncate", "crlf", "nul"])
    if op == "delete":
        return text[:i] + text[j:], f"char: delete {i}..{j}"
    if op == "insert":
        s = odd_text(rng)
        return text[:i] + s + text[i:], f"char: insert {s!r} at {i}"
    if op == "replace":
        s = odd_text(rng)
        return text[:i] + s + text[j:], f"char: replace {i}..{j} with {s!r}"
    if op == "duplicate":
        return text[:j] + text[i:j] + text[j:], f"char: duplicate {i}..{j}"
    if op == "huge":
        s = rng.choice(HUGE_DIGITS)
        return text[:i] + s + text[i:], f"char: insert a {len(s)}-digit number at {i}"
    if op == "truncate":
        return text[:i], f"char: truncate at {i}"
    if op == "crlf":
        return text.replace("\n", rng.choice(["\r\n", "\r"])), "char: other line ends"
    return text[:i] + "\x00" + text[i:], f"char: NUL at {i}"


def token_mutation(rng, text: str, seeds: Seeds) -> tuple[str, str]:
    toks = tokenize(text)
    idx = [k for k, t in enumerate(toks) if not t.isspace()]
    if not idx:
        return text + rng.choice(seeds.tokens), "token: append"
    a, b = rng.choice(idx), rng.choice(idx)
    op = rng.choice(["delete", "duplicate", "swap", "replace", "keyword"])
    old = toks[a]
    if op == "delete":
        del toks[a]
    elif op == "duplicate":
        toks.insert(a, toks[a] + " ")
    elif op == "swap":
        toks[a], toks[b] = toks[b], toks[a]
    elif op == "replace":
        toks[a] = rng.choice(seeds.tokens)
    else:
        toks[a] = rng.choice(grammar_keywords())
    return "".join(toks), f"token: {op} #{a} {old!r} -> {toks[a] if a < len(toks) else ''!r}"


def blocks(toks: list[str]) -> list[tuple[int, int]]:
    """(open, close) token indices of every balanced {...}."""
    stack, found = [], []
    for k, t in enumerate(toks):
        if t == "{":
            stack.append(k)
        elif t == "}" and stack:
            found.append((stack.pop(), k))
    return found


def grammar_mutation(rng, text: str, seeds: Seeds) -> tuple[str, str]:
    op = rng.choice(["swap_lines", "dup_line", "swap_blocks", "dup_block", "drop_block", "move_block",
                     "nest_blocks", "nest_expr", "extreme_number", "rename", "string",
                     "swap_alike", "swap_alike", "extreme_number", "rename"])
    try:
        return GRAMMAR_OPS[op](rng, text, seeds)
    except (IndexError, ValueError):       # rng.choice([]) or randrange(0): a text with nothing to edit
        return char_mutation(rng, text, seeds)


def g_swap_lines(rng, text, seeds):
    lines = text.splitlines(keepends=True)
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[a], lines[b] = lines[b], lines[a]
    return "".join(lines), f"grammar: swap lines {a + 1} and {b + 1}"


def g_dup_line(rng, text, seeds):
    lines = text.splitlines(keepends=True)
    a = rng.randrange(len(lines))
    to = a if rng.random() < 0.5 else rng.randrange(len(lines))    # beside itself: often still valid
    lines.insert(to, lines[a])
    return "".join(lines), f"grammar: duplicate line {a + 1} at line {to + 1}"


def g_swap_alike(rng, text, seeds):
    """Swap two names, or two numbers: the file still parses, the checker and engine get work."""
    toks = tokenize(text)
    pattern = rng.choice([r"[A-Za-z_]\w*", r"\d+"])
    idx = [k for k, t in enumerate(toks) if re.fullmatch(pattern, t)]
    if len(idx) < 2:
        return text, "grammar: nothing alike to swap"
    a, b = rng.sample(idx, 2)
    toks[a], toks[b] = toks[b], toks[a]
    return "".join(toks), f"grammar: swap #{a} {toks[b]!r} and #{b} {toks[a]!r}"


def _block_op(rng, text, what):
    toks = tokenize(text)
    found = blocks(toks)
    if len(found) < 2:
        return text, "grammar: no blocks"
    (a0, a1), (b0, b1) = sorted(rng.sample(found, 2))
    A, B = toks[a0:a1 + 1], toks[b0:b1 + 1]
    if what == "swap" and a1 < b0:
        toks = toks[:a0] + B + toks[a1 + 1:b0] + A + toks[b1 + 1:]
    elif what == "dup":
        toks = toks[:b1 + 1] + [" "] + A + toks[b1 + 1:]
    elif what == "drop":
        toks = toks[:a0] + ["{", "}"] + toks[a1 + 1:]
    elif what == "move" and a1 < b0:         # the body of A goes into B; A is left empty
        toks = toks[:a0] + ["{", "}"] + toks[a1 + 1:b0 + 1] + A[1:-1] + toks[b0 + 1:]
    return "".join(toks), f"grammar: {what} block at token {a0} / {b0}"


def g_nest_blocks(rng, text, seeds):
    lines = text.splitlines(keepends=True)
    k = rng.choice([5, 13, 40, 300])
    a = rng.randrange(len(lines))
    wrapped = "if true { " * k + lines[a].rstrip("\n") + " }" * k + "\n"
    lines[a] = wrapped
    return "".join(lines), f"grammar: wrap line {a + 1} in {k} nested ifs"


def g_nest_expr(rng, text, seeds):
    toks = tokenize(text)
    idx = [k for k, t in enumerate(toks) if re.fullmatch(r"\d+|[a-z_]\w*", t)]
    if not idx:
        return text, "grammar: nothing to nest"
    a, k = rng.choice(idx), rng.choice([50, 101, 500, 3000])
    style = rng.choice(["parens", "neg", "not", "chain", "list"])
    t = toks[a]
    toks[a] = {"parens": "(" * k + t + ")" * k, "neg": "-" * k + t, "not": "not " * k + t,
               "chain": t + " + 1" * k, "list": "[" * k + t + "]" * k}[style]
    return "".join(toks), f"grammar: {style} x{k} around token #{a} {t!r}"


def g_extreme_number(rng, text, seeds):
    toks = tokenize(text)
    idx = [k for k, t in enumerate(toks) if t.isdigit()]
    if not idx:
        return text, "grammar: no numbers"
    a = rng.choice(idx)
    new = rng.choice([str(n) for n in EXTREME_INTS] + HUGE_DIGITS)
    old, toks[a] = toks[a], new
    return "".join(toks), f"grammar: number #{a} {old} -> {new[:40]}"


def g_rename(rng, text, seeds):
    toks = tokenize(text)
    idx = [k for k, t in enumerate(toks) if re.fullmatch(r"[A-Za-z_]\w*", t)]
    local = declared_names(text) or seeds.names
    a = rng.choice(idx)
    old, toks[a] = toks[a], rng.choice(local if rng.random() < 0.7 else seeds.names)
    return "".join(toks), f"grammar: name #{a} {old} -> {toks[a]}"


def g_string(rng, text, seeds):
    toks = tokenize(text)
    idx = [k for k, t in enumerate(toks) if t.startswith('"')]
    if not idx:
        return text, "grammar: no strings"
    a = rng.choice(idx)
    old, toks[a] = toks[a], rng.choice(PAYLOAD_STRINGS)
    return "".join(toks), f"grammar: string #{a} {old[:30]} -> {toks[a][:40]}"


GRAMMAR_OPS = {
    "swap_lines": g_swap_lines, "dup_line": g_dup_line,
    "swap_blocks": lambda r, t, s: _block_op(r, t, "swap"), "dup_block": lambda r, t, s: _block_op(r, t, "dup"),
    "drop_block": lambda r, t, s: _block_op(r, t, "drop"), "move_block": lambda r, t, s: _block_op(r, t, "move"),
    "nest_blocks": g_nest_blocks, "nest_expr": g_nest_expr, "extreme_number": g_extreme_number,
    "rename": g_rename, "string": g_string, "swap_alike": g_swap_alike,
}
TEXT_MUTATORS = [char_mutation, token_mutation, grammar_mutation]


def mutate_rules(rng, seeds: Seeds) -> Mutant:
    """Mostly the real games and the corpus files that compile, mostly grammar-aware edits: a mutant
    that still parses reaches the checker, the compiler and the engine."""
    games = [p.name for p in GAMES]
    pool = rng.choice([games, games, sorted(seeds.ir), sorted(seeds.rules)])
    name = rng.choice(pool)
    text = seeds.rules[name]
    mutant = Mutant("rules", text, name)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        mutate = rng.choice([char_mutation, token_mutation, grammar_mutation, grammar_mutation])
        mutant.text, note = mutate(rng, mutant.text, seeds)
        mutant.notes.append(note)
    for yaml_name in re.findall(r'"([^"]+\.yaml)"', text):
        if yaml_name in seeds.yaml:
            body = seeds.yaml[yaml_name]
            if rng.random() < 0.3:
                body, note = rng.choice([char_mutation, token_mutation])(rng, body, seeds)
                mutant.notes.append(f"{yaml_name}: {note}")
            mutant.extra[yaml_name] = body
    return mutant


# ============================================================================ JSON mutators

class Deep:
    """A value wrapped in `depth` lists, written out without recursion (the harness must not crash)."""

    def __init__(self, value, depth: int):
        self.value, self.depth = value, depth


def dump(v) -> str:
    if isinstance(v, Deep):
        return "[" * v.depth + dump(v.value) + "]" * v.depth
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)}: {dump(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(dump(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def slots(doc) -> list[tuple]:
    """(container, key, path) for every value inside doc."""
    out, stack = [], [(doc, "")]
    while stack:
        v, path = stack.pop()
        items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
        for k, x in items:
            p = f"{path}/{k}"
            out.append((v, k, p))
            stack.append((x, p))
    return out


def slot_key(c, k, path: str) -> str:
    """What kind of place a slot is: its key, or its list's key and []."""
    if isinstance(c, dict):
        return str(k)
    parent = path.rsplit("/", 2)[-2] if path.count("/") >= 2 else ""
    return f"{parent}[]"


def odd_value(rng, seeds: Seeds):
    return rng.choice([None, True, False, 0, -1, 1, 2 ** 31, 2 ** 63, 10 ** 30, -10 ** 30, 1.5, -0.0,
                       float("nan"), float("inf"), "", "x", [], {}, [0], {"k": "x"},
                       rng.choice(seeds.strings), rng.choice(EXTREME_INTS)])


def j_retype(rng, doc, seeds, c, k, p):
    old, c[k] = c[k], odd_value(rng, seeds)
    return f"json: {p}: {short(old)} -> {short(c[k])}"


def j_delete(rng, doc, seeds, c, k, p):
    del c[k]
    return f"json: delete {p}"


def j_string(rng, doc, seeds, c, k, p):
    old, c[k] = c[k], rng.choice(seeds.strings)
    return f"json: {p}: {short(old)} -> {short(c[k])}"


def j_number(rng, doc, seeds, c, k, p):
    old, c[k] = c[k], rng.choice(EXTREME_INTS + [-5, 3, 0.5])
    return f"json: {p}: {short(old)} -> {short(c[k])}"


def j_nest(rng, doc, seeds, c, k, p):
    depth = rng.choice([3, 150, 250, 2000, 100_000])
    c[k] = Deep(c[k], depth)
    return f"json: {p}: wrapped in {depth} lists"


def j_dup_item(rng, doc, seeds, c, k, p):
    if isinstance(c, list):
        c.insert(k, copy.deepcopy(c[k]))
        return f"json: duplicate {p}"
    return j_graft(rng, doc, seeds, c, k, p)


def j_graft(rng, doc, seeds, c, k, p):
    donor_c, donor_k, donor_p = rng.choice(slots(doc))
    c[k] = copy.deepcopy(donor_c[donor_k])
    return f"json: {p} := copy of {donor_p}"


def j_swap(rng, doc, seeds, c, k, p):
    c2, k2, p2 = rng.choice(slots(doc))
    if p2.startswith(p) or p.startswith(p2):
        return j_graft(rng, doc, seeds, c, k, p)
    c[k], c2[k2] = c2[k2], c[k]
    return f"json: swap {p} and {p2}"


def j_rename_key(rng, doc, seeds, c, k, p):
    if not isinstance(c, dict):
        return j_retype(rng, doc, seeds, c, k, p)
    new = rng.choice(seeds.keys)
    c[new] = c.pop(k)
    return f"json: rename key {p} -> {new}"


def j_same_key(rng, doc, seeds, c, k, p):
    """Another value seen in the same kind of place: likely to pass the schema and reach the engine."""
    pool = seeds.by_key.get(slot_key(c, k, p))
    if not pool:
        return j_graft(rng, doc, seeds, c, k, p)
    old, c[k] = c[k], copy.deepcopy(rng.choice(pool))
    return f"json: {p}: {short(old)} -> {short(c[k])} (seen under the same key)"


JSON_OPS = [j_retype, j_delete, j_string, j_number, j_nest, j_dup_item, j_graft, j_swap, j_rename_key]


def short(v) -> str:
    text = dump(v) if not isinstance(v, float) else repr(v)
    return text if len(text) < 60 else text[:57] + "..."


def mutate_json(rng, doc, seeds: Seeds) -> tuple[str, list[str]]:
    doc, notes = copy.deepcopy(doc), []
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        places = [s for s in slots(doc) if not isinstance(s[0][s[1]], Deep)]
        if not places:
            break
        c, k, p = rng.choice(places)
        op = j_same_key if rng.random() < 0.5 else rng.choice(JSON_OPS)
        if op in (j_string, j_number):        # a like-for-like replacement where the value is one
            op = op if isinstance(c[k], str if op is j_string else (int, float)) else rng.choice(JSON_OPS)
        notes.append(op(rng, doc, seeds, c, k, p))
    text = dump(doc)
    if rng.random() < 0.1:
        text, note = char_mutation(rng, text, seeds)
        notes.append(note)
    return text, notes


def mutate_ir(rng, seeds: Seeds) -> Mutant:
    name = rng.choice(sorted(seeds.ir))
    text, notes = mutate_json(rng, seeds.ir[name], seeds)
    return Mutant("ir", text, name, notes)


def mutate_save(rng, seeds: Seeds) -> Mutant:
    name = rng.choice(sorted(seeds.saves))
    doc, meta = seeds.saves[name]
    text, notes = mutate_json(rng, doc, seeds)
    rules = {"game.rules": Path(meta["game"]).read_text(encoding="utf-8")}
    return Mutant("save", text, name, notes, dict(meta), rules)


# ============================================================================ cost mutants

# Sizes a cost mutant multiplies by: within every limit, just past one, and far past all of them.
LARGE_SHARE = 0.05        # cost mutants whose declarations make a file of hundreds of kilobytes
BIG = [2, 40, 1_000, 9_999, 10_001, 99_999, 100_001, 1_000_000, 2_000_000_000, 10 ** 30]
DOUBLINGS = [10, 13, 14, 20, 40, 64, 300]


def big(rng) -> int:
    return rng.choice(BIG)


def _enum(name: str, count: int) -> str:
    return f"  enum {name} {{ " + ", ".join(f"{name.lower()}{i}" for i in range(count)) + " }"


# Action bodies that multiply sizes: (body, declarations it needs). Each is a lambda of the rng.
COST_BODIES = {
    "repeat": lambda r: (f"repeat {big(r)} {{ k = k + 1 }}", ""),
    "nested repeat": lambda r: (f"repeat {big(r)} {{ repeat {big(r)} {{ k = k + 1 }} }}", ""),
    "while": lambda r: (f"while k < {big(r)} {{ k = k + 1 }}", ""),
    "text doubling": lambda r: (f"repeat {r.choice(DOUBLINGS)} {{ s = s + s }}", ""),
    "list doubling": lambda r: (f"xs = [1]  repeat {r.choice(DOUBLINGS)} {{ xs = xs + xs }}  k = size(xs)", ""),
    "list doubling (recursion)": lambda r: (f"k = size(dbl({r.choice(DOUBLINGS)}, [1]))",
                                            "  def dbl(n, ys) = if n == 0 then ys else dbl(n - 1, ys + ys)"),
    "text doubling (recursion)": lambda r: (f"k = size(twice({r.choice(DOUBLINGS)}, s))",
                                            "  def twice(n, t) = if n == 0 then t else twice(n - 1, t + t)"),
    "text * n": lambda r: (f's = "xy" * {big(r)}', ""),
    "n * text": lambda r: (f"k = size({big(r)} * s)", ""),
    "list * n": lambda r: (f"xs = [1, 2] * {big(r)}  k = size(xs)", ""),
    "append": lambda r: (f"repeat {big(r)} {{ append k to xs }}", ""),
    "costly iterations": lambda r: (f"let bg = [i for i in 1..{big(r)}]  k = sum(size(bg + bg) for i in 1..{big(r)})", ""),
    "text of a list": lambda r: (f"k = size(text([i for i in 1..{big(r)}]))", ""),
    "sort": lambda r: (f"k = size(sort([0 - i for i in 1..{big(r)}]))", ""),
    "distinct": lambda r: (f"k = size(distinct([i / 2 for i in 1..{big(r)}]))", ""),
    "in": lambda r: (f"let bg = [i for i in 1..{big(r)}]  k = size([i for i in 1..{big(r)} where i in bg])", ""),
    "log a list": lambda r: (f"let bg = [i for i in 1..{big(r)}]  log text(bg)", ""),
    "grid": lambda r: (f"let row = [i for i in 1..{big(r)}]  let grid = [row for i in 1..{big(r)}]  "
                       f'if text(grid) == "" {{ k = 1 }}', ""),
    "for in a for": lambda r: (f"for i in 1..{big(r)} {{ for j in 1..{big(r)} {{ k = k + 1 }} }}", ""),
    "growing state": lambda r: (f"append [i for i in 1..{big(r)}] to rs", ""),
    "calls ten wide": lambda r: ("k = f6(1)", "\n".join(["  def f0(x) = x + k"] + [
        f"  def f{i}(x) = " + " + ".join([f"f{i - 1}(x)"] * 10) for i in range(1, 7)])),
    "long chain": lambda r: ("k = " + " + ".join(["k"] * r.choice([10, 60, 63, 64, 65, 2000])), ""),
    "long body": lambda r: (f"repeat {big(r)} {{ " + "k = k + 1  " * r.choice([10, 10, 10, 500, 500, 3000]) + "}", ""),
}


def cost_decls(rng) -> tuple[list[str], list[str], str, dict]:
    """Declarations that multiply sizes: (declarations, actions' extra bodies, a note, extra files).
    One in LARGE_SHARE makes a file of hundreds of kilobytes (each costs seconds to read: rarer)."""
    large = rng.random() < LARGE_SHARE
    op = rng.choice(["family", "family", "long enum", "unknown handlers", "many actions", "many vars",
                     "content", "content", "players", "nesting", "none", "none"])
    if op == "family":
        a, b = rng.choice([1_000, 25_000] if large else [10, 300]), rng.choice([2, 300, 1_000, 25_000] if large else [2, 300])
        a, b = (a, b) if 9 * (a + b) < 360_000 else (a, 2)
        decl = rng.choice(["zone zz: pile per E per F", "var vv: int = 0 per E per F",
                           "zone zz: pile per E per F per player", "var vv: int = 0 per E"])
        use = "k = size(zz[e1, f1])" if "zone" in decl else "k = vv[e1, f1]" if "per F" in decl else "k = vv[e1]"
        if "per player" in decl:
            use = "k = size(zz[e1, f1, me])"
        return [_enum("E", a), _enum("F", b), "  " + decl], [use], f"cost: family {decl} ({a} x {b})", {}
    if op == "long enum":
        n = rng.choice([30_000, 45_000] if large else [100, 5_000])
        return [_enum("E", n), "  var ee: E = e0"], [f"ee = e{n - 1}"], f"cost: enum of {n} values", {}
    if op == "unknown handlers":
        n, m = rng.choice([1_000, 5_000] if large else [10, 300]), rng.choice([1_000, 5_000] if large else [10, 300])
        return ([f"  event evt{i}()" for i in range(n)] + [f"  on evx{i}q {{ }}" for i in range(m)], [],
                f"cost: {n} events, {m} handlers of unknown events", {})
    if op == "many actions":
        n = rng.choice([1_000, 3_000] if large else [10, 100])
        return [], [f"__ACTIONS__{n}"], f"cost: {n} actions", {}
    if op == "many vars":
        n = rng.choice([5_000, 20_000] if large else [10, 100])
        return [f"  var w{i}: list[int] = []" for i in range(n)], [], f"cost: {n} variables", {}
    if op == "content":
        values, rows = rng.choice([5_000, 30_000] if large else [3, 100]), rng.choice([3_000, 30_000] if large else [1, 100])
        copies, bad = rng.choice([1, 3, 1_000, 1_001]), rng.random() < 0.4
        body = "".join(f"- {{b: {'w' if bad else 'big'}{i % values}{'x' if bad else ''}, copies: {copies}}}\n"
                       for i in range(rows))
        decls = [_enum("Big", values), "  kind C { b: Big }", "  zone deck: pile"]
        return decls, ["__SETUP__create C from \"big.yaml\" in deck"], \
            f"cost: {rows} YAML rows x {copies} copies, an enum of {values}{', bad values' if bad else ''}", \
            {"big.yaml": body}
    if op == "players":
        return ["__PLAYERS__" + rng.choice(["1..64", "64", "1..65", "2..1000000"])], [], "cost: players", {}
    if op == "nesting":
        return ["__NEST__" + str(rng.choice([5, 12, 13, 40]))], [], "cost: nesting", {}
    return [], [], "", {}


def cost_source(rng) -> tuple[str, list[str], dict]:
    """A small lint-clean game whose one action (or setup) does something costly."""
    decls, bodies, notes, extra = [], [], [], {}
    for _ in range(rng.choice([1, 1, 2, 3])):
        name = rng.choice(sorted(COST_BODIES))
        body, decl = COST_BODIES[name](rng)
        bodies.append(body)
        if decl and decl not in decls:
            decls.append(decl)
        notes.append(f"cost: {name}: {body[:80]}")
    more, uses, note, extra = cost_decls(rng)
    if note:
        notes.append(note)
    players, nest, setup, actions = "1..2", 0, [], ""
    for d in more:
        if d.startswith("__PLAYERS__"):
            players = d[len("__PLAYERS__"):]
        elif d.startswith("__NEST__"):
            nest = int(d[len("__NEST__"):])
        else:
            decls.append(d)
    for u in uses:
        if u.startswith("__SETUP__"):
            setup.append(u[len("__SETUP__"):])
        elif u.startswith("__ACTIONS__"):
            actions = "".join(f"      action a{i} {{ k = k + {i}  end turn }}\n" for i in range(int(u[11:])))
        else:
            bodies.append(u)
    where = rng.random()
    body = "  ".join(bodies)
    if nest:
        body = "if k >= 0 { " * nest + body + " }" * nest
    if where < 0.15:                            # in the setup: every match pays it before any action
        setup.append(body)
        body = "k = k + 1"
    text = (f'game "Cost" {{\n  players {players}\n  var k: int = 0\n  var s: text = "ab"\n'
            f"  var xs: list[int] = []\n  var rs: list[list[int]] = []\n" + "\n".join(decls) + "\n"
            f"  setup {{ {'  '.join(setup)} }}\n  turn {{\n    step play {{\n"
            f"      action go {{\n        {body}\n        log text(k)\n        end turn\n      }}\n{actions}"
            f"      action stop require k > 3 {{ finish draw }}\n    }}\n  }}\n}}\n")
    return text, notes, extra


def cost_ir(rng, seeds: Seeds) -> tuple[str, list[str]]:
    """A compiled game whose constants are multiplied: texts and lists times huge numbers (folded
    when loaded), huge repeat counts and ranges, big enums under a family."""
    doc = copy.deepcopy(seeds.cost_ir)
    notes = []
    lits = [(c, k, p) for c, k, p in slots(doc) if isinstance(c[k], dict) and c[k].get("k") == "lit"]
    for _ in range(rng.choice([1, 2, 3])):
        op = rng.choice(["product", "product", "number", "family", "enum"])
        if op == "product" and lits:
            c, k, p = rng.choice(lits)
            left = rng.choice([{"k": "lit", "v": "xy"}, {"k": "lit", "v": [1, 2]}, c[k], {"k": "var", "n": "s"},
                               {"k": "var", "n": "xs"}])
            n = {"k": "lit", "v": rng.choice([2_000_000_000, 10 ** 6, 10_001, 2 ** 62, -3])}
            c[k] = {"k": "bin", "op": "*", "l": left, "r": n} if rng.random() < 0.5 else \
                {"k": "bin", "op": "*", "l": n, "r": left}
            notes.append(f"cost-ir: {p} := {short(c[k])}")
        elif op == "number":
            ints = [(c, k, p) for c, k, p in lits if type(c[k].get("v")) is int]
            if ints:
                c, k, p = rng.choice(ints)
                c[k] = {"k": "lit", "v": rng.choice([10 ** 6, 2 ** 31, 2 ** 62, 10 ** 30])}
                notes.append(f"cost-ir: {p} := {c[k]['v']}")
        elif op == "family":
            n = rng.choice([300, 1_000, 40_000])
            doc.setdefault("enums", {})["Q"] = [{"name": f"q{i}", "text": str(i)} for i in range(n)]
            doc["zones"].append({"name": "qq", "ordered": True, "per": "key", "visibility": "public",
                                 "capacity": None, "key": ["enum:Q", "enum:Q"] + (["player"] if rng.random() < 0.5 else [])})
            notes.append(f"cost-ir: a zone per Q per Q, Q of {n}")
        else:
            n = rng.choice([1_000, 100_000, 400_000])
            doc.setdefault("enums", {})["R"] = [{"name": f"r{i}", "text": "r" * 20} for i in range(n)]
            notes.append(f"cost-ir: an enum of {n} values")
    return dump(doc), notes


def mutate_cost(rng, seeds: Seeds) -> Mutant:
    if rng.random() < 0.2:
        text, notes = cost_ir(rng, seeds)
        return Mutant("cost", text, "cost-base", notes, {"format": "ir"})
    text, notes, extra = cost_source(rng)
    return Mutant("cost", text, "cost", notes, {"format": "rules"}, extra)


COST_BASE = ('game "Cost" {\n  players 1..2\n  var k: int = 0\n  var s: text = "ab"\n  var xs: list[int] = []\n'
             '  setup { xs = [1, 2, 3] }\n  turn {\n    step play {\n      action go {\n'
             '        repeat 3 { k = k + 1 }  s = s + "c"  xs = xs + [k]  log text(size(xs))\n        end turn\n      }\n'
             '      action stop require k > 3 { finish draw }\n    }\n  }\n}\n')


# ============================================================================ the entry points a cost mutant goes through

COST_GAMES = 2               # games of `lint --deep` and `simulate` per case (the CLI plays 200 and 100)
COST_ACTIONS = 12            # actions per game of those, and of the scripted `play`
COST_RUN_CPU = 1.5           # the run budget (--max-cpu) those runs get: it must stop them, not the caps
PLAY_SCRIPT = "1\n2\nlog\nundo\n1\nquit\n"   # a few actions at `rulelang play`, then quit


class FaultShown(Exception):
    """An entry point printed an internal error or a traceback instead of raising it."""


def shown_fault(text: str) -> str | None:
    for line in text.splitlines():
        if "internal error" in line or line.startswith("Traceback"):
            return line[:300]
    return None


def lint_entry(path: str):
    diagnostics, sources = rulelang.lint([path])
    fault = shown_fault("\n".join(d.message for d in diagnostics))
    if fault:
        raise FaultShown(fault)
    return diagnostics, sources


def lsp_entry(path: str, text: str):
    """What the language server does on every keystroke: analyze the document, its diagnostics as LSP."""
    from rulelang.editor import lsp
    analysis = lsp.analyze(text, path)
    items = lsp.lsp_diagnostics(analysis)
    fault = shown_fault("\n".join(i["message"] for i in items))
    if fault:
        raise FaultShown(fault)
    return items


def play_entry(game, path: str, players: int, seed: int):
    """`rulelang play` at the terminal with a few scripted answers (every seat human)."""
    out = io.StringIO()
    repl.run_repl(game, players, seed, {}, {}, io.StringIO(PLAY_SCRIPT), out, path)
    fault = shown_fault(out.getvalue())
    if fault:
        raise FaultShown(fault)


def simulate_entry(game, players: int, seed: int):
    from rulelang.play.simulate import format_report, simulate
    result = simulate(game, players, COST_GAMES, seed, max_actions=COST_ACTIONS, cpu_limit=COST_RUN_CPU)
    fault = shown_fault(format_report(result))
    if fault:
        raise FaultShown(fault)
    return result


def run_cost(probe: Probe, path: str, text: str, rng) -> None:
    """A cost mutant through every entry point a user reaches: lint, the language server, and for
    a file without errors lint --deep, play (a few scripted actions) and simulate (a few games)."""
    clean = True
    if path.endswith(".rules"):
        ok, linted = probe.call("lint", lint_entry, path)
        clean = ok and not any(d.severity == "error" for d in linted[0])
        if ok:
            probe.check_spans("lint", *linted)
        probe.call("lsp", lsp_entry, path, text)
    if not clean:
        return
    probe.call("lint --deep", rulelang.deep_lint, path, games=COST_GAMES, max_actions=COST_ACTIONS,
               cpu_limit=COST_RUN_CPU)
    ok, game = probe.call("load", rulelang.load, path)
    if not ok:
        return
    players = game.min_players
    seed = rng.randrange(1000)
    probe.call("play", play_entry, game, path, players, seed)
    probe.call("simulate", simulate_entry, game, players, seed)


MUTATE = {"rules": mutate_rules, "ir": mutate_ir, "save": mutate_save, "cost": mutate_cost}


def make_case(seeds: Seeds, seed: int, i: int, kinds: tuple) -> Mutant:
    rng = random.Random(f"{seed}:{i}")
    return MUTATE[kinds[i % len(kinds)]](rng, seeds)


# ============================================================================ the oracle

@dataclass
class Failure:
    sig: str          # what groups it: exception type and innermost rulelang frame (or the check that failed)
    stage: str        # the API call that failed
    message: str
    detail: str = ""  # traceback


def _on_cpu_limit(signum, frame):
    raise Timeout(f"no answer within {CALL_LIMIT} s of CPU time")


def innermost_frame(tb) -> str:
    where = "no rulelang frame"
    for fs in traceback.extract_tb(tb):
        if fs.filename.startswith(PKG):
            where = f"rulelang/{fs.filename[len(PKG):]}:{fs.lineno} ({fs.name})"
    return where


class Probe:
    """Runs API calls under a CPU-time limit and records what counts as a failure."""

    def __init__(self, files: dict[str, str], cwd: str):
        self.files = files        # path -> text of every input file (for span checks)
        self.cwd = cwd
        self.failures: list[Failure] = []
        self.entries: dict[str, list] = {}    # stage -> [calls, returned, refused (RulelangError), failed, CPU s]

    def call(self, stage: str, fn, *args, **kwargs):
        """(True, result) or (False, the RulelangError or None)."""
        signal.signal(signal.SIGPROF, _on_cpu_limit)
        tally = self.entries.setdefault(stage, [0, 0, 0, 0, 0.0])
        tally[0] += 1
        began = time.process_time()
        try:
            signal.setitimer(signal.ITIMER_PROF, CALL_LIMIT)   # counts this process's CPU time only
            try:
                result = True, fn(*args, **kwargs)
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)    # before any handling below
            tally[1] += 1
            return result
        except Timeout as err:
            tally[3] += 1
            self.fail(f"Hang in {innermost_frame(err.__traceback__)}", stage, str(err), err)
            return False, None
        except RulelangError as err:
            tally[2] += 1
            if isinstance(err, RuleError):
                self.check_spans(stage, err.diagnostics, err.sources)
            return False, err
        except KeyboardInterrupt:
            raise
        except BaseException as err:      # noqa: B036 - anything else is what we are looking for
            tally[3] += 1
            self.fail(f"{type(err).__name__} at {innermost_frame(err.__traceback__)}", stage,
                      f"{type(err).__name__}: {err}", err)
            return False, None
        finally:
            tally[4] += time.process_time() - began
            self.check_cwd(stage)

    def fail(self, sig: str, stage: str, message: str, err: BaseException | None = None) -> None:
        detail = "".join(traceback.format_exception(err)[-40:]) if err is not None else ""
        self.failures.append(Failure(sig, stage, message[:500], detail))

    def check_cwd(self, stage: str) -> None:
        made = os.listdir(self.cwd)
        if made:
            self.fail("FileCreatedInCwd", stage, f"files appeared in the working directory: {made}")
            for name in made:
                target = os.path.join(self.cwd, name)
                shutil.rmtree(target) if os.path.isdir(target) else os.remove(target)

    def check_spans(self, stage: str, diagnostics, sources: dict | None = None) -> None:
        files = {**self.files, **(sources or {})}      # what rulelang read, else what we wrote
        for d in diagnostics:
            problem = span_problem(d, files)
            if problem:
                what = Path(d.span.file).suffix.lstrip(".")
                where = "file" if stage in ("lint", "compile_file") else stage
                which = f"linebreak ({where})" if problem.startswith("linebreak") else f"{problem.split()[0]} of a .{what} file"
                self.fail(f"SpanOutsideFile {which}", stage,
                          f"{problem}: {d.headline()}")


def span_problem(d, files: dict[str, str]) -> str | None:
    """Why the span lies outside its file, or None. Lines are counted as str.splitlines counts them
    (as Diagnostic.format does); a span that fits only when "\n" alone ends a line says so."""
    s = d.span
    if s is None:
        return None
    if s.file not in files:
        return f"file {s.file!r} is not an input file"
    text = files[s.file]
    problem = outside(s, text, text.splitlines())
    if problem and not outside(s, text, text.split("\n")):
        odd = sorted({ch for ch in text if ch in ODD_BREAKS})
        return f"linebreak: the span counts only \\n as a line break, Diagnostic.format also {odd}; {problem}"
    return problem


ODD_BREAKS = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def outside(s, text: str, lines: list[str]) -> str | None:
    """The end of a file that ends with a line break is the start of the line after it (YAML says so)."""
    lines = lines or [""]
    eof = (len(lines) + 1, 1) if text.endswith(tuple("\n\r")) else None
    if (s.line, s.column) == eof:
        return None
    if not 1 <= s.line <= len(lines):
        return f"line {s.line} of a {len(lines)}-line file"
    if not 1 <= s.column <= len(lines[s.line - 1]) + 1:
        return f"column {s.column} of a {len(lines[s.line - 1])}-character line {s.line}"
    if s.end_line and not (s.line <= s.end_line <= len(lines) or (s.end_line, s.end_column) == eof):
        return f"end line {s.end_line} of a {len(lines)}-line file"
    return None


def run_rules(probe: Probe, path: str, text: str, rng) -> None:
    """lint and compile the file as the CLI does; compile_source the raw text too if reading changed it."""
    ok, linted = probe.call("lint", rulelang.lint, [path])
    clean, read = False, text
    if ok:
        diagnostics, sources = linted
        probe.check_spans("lint", diagnostics, sources)
        clean = not any(d.severity == "error" for d in diagnostics)
        read = sources.get(path, text)
    ok, ir = probe.call("compile_file", rulelang.compile_file, path)
    if not ok and clean and isinstance(ir, RuleError):
        code = ir.diagnostics[0].code if ir.diagnostics else ""
        probe.fail(f"LintCleanButCompileFails {code}", "compile_file", str(ir))
    if read != text:
        probe.call("compile_source(raw text)", rulelang.compile_source, text, path)
    if not ok:
        return
    probe.call("ir-to-json", json.dumps, ir)
    ok, game = probe.call("Game", Game, ir, path)
    if ok:
        exercise_game(probe, game, rng)


def run_ir(probe: Probe, path: str, text: str, rng) -> None:
    """load() checks the JSON schema, then Game() checks the IR itself (irspec.check_ir): when the
    schema refuses the mutant, Game() is given it directly too, so each check is fuzzed on its own."""
    ok, game = probe.call("load", rulelang.load, path)
    if not ok and isinstance(game, RuleError) and game.diagnostics and game.diagnostics[0].code == "E301":
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            return
        ok, game = probe.call("Game(ir) without the schema", Game, doc, path)
    if ok:
        # a mutated IR may declare one type and compute another (its `var` says player, its code
        # stores 6): the engine must refuse such a position cleanly, which is all a round trip asks
        exercise_game(probe, game, rng, typed=False)


def exercise_game(probe: Probe, game, rng, matches: int = 2, typed: bool = True) -> None:
    counts = sorted({game.min_players, game.max_players})[:matches]
    for players in counts:
        ok, match = probe.call("new_match", game.new_match, players, rng.randrange(1000))
        if ok:
            exercise_match(probe, game, match, rng, typed=typed)


def exercise_match(probe: Probe, game, match, rng, moves: int = MAX_ACTIONS, typed: bool = True) -> None:
    listed = True
    for _ in range(moves):
        ok, over = probe.call("is_over", lambda: match.is_over)
        if not ok or over:
            break
        listed, actions = probe.call("legal_actions", match.legal_actions)
        if not listed or not actions:
            break
        action = rng.choice(actions)
        if rng.random() < 0.05:
            probe.call("apply-junk", match.apply, "no such action \x00")
        ok, _ = probe.call("apply", match.apply, str(action) if rng.random() < 0.3 else action)
        if not ok:                 # a rule error mid-action may leave the match half-changed: stop here
            return
    if listed:                     # (from_state lists the actions again, and would fail the same way)
        round_trip(probe, game, match, typed)
    for player in range(match.players):
        ok, view = probe.call("view", match.view, player)
        if ok:
            probe.call("view-to-json", json.dumps, view)
            probe.call("render_view", repl.render_view, view)


def round_trip(probe: Probe, game, match, typed: bool = True) -> None:
    """state -> JSON -> from_state -> state gives the same state. With typed=False (a mutated IR,
    whose declared types may be lies) a clean StateError refusal is also acceptable."""
    ok, state = probe.call("state", match.state)
    if not ok:
        return
    ok, text = probe.call("state-to-json", json.dumps, state)
    if not ok:
        return
    saved = json.loads(text)
    ok, again = probe.call("from_state", Match.from_state, game, saved)
    if not ok:
        if again is not None and (typed or type(again).__name__ != "StateError"):
            probe.fail(f"RoundTripRefused {type(again).__name__}", "from_state", str(again))
        return
    ok, state2 = probe.call("state", again.state)
    if ok and state2 != saved:
        key = next((k for k in saved if saved.get(k) != state2.get(k)), "?")
        probe.fail(f"RoundTripMismatch {key}", "from_state", f"`{key}` differs after state -> from_state -> state")


_GAMES: dict[str, Game] = {}


def seed_game(path: str) -> Game:
    if path not in _GAMES:
        _GAMES[path] = Game(rulelang.compile_file(path), path)
    return _GAMES[path]


def run_save(probe: Probe, path: str, text: str, meta: dict, rng) -> None:
    """A save goes in through the stable doors only (the save format and its readers are changing):
    `from_state` on the document, the REPL's `load FILE`, and `rulelang replay FILE`, with --rules or
    with the rule file lying beside the save (write_inputs puts it there as game.rules)."""
    game, players = seed_game(meta["game"]), meta["players"]
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    inner = data.get("state") if isinstance(data, dict) else None
    for stage, state in (("from_state", data), ("from_state(save['state'])", inner)):
        if isinstance(state, dict):
            ok, match = probe.call(stage, Match.from_state, game, state)
            if ok:
                exercise_match(probe, game, match, rng, moves=10)
    script = io.StringIO(f"load {path}\n1\nlog\nundo\nquit\n")
    probe.call("repl load", repl.run_repl, game, players, 0, stdin=script, stdout=io.StringIO(),
               source_path=meta["game"])
    argv = ["replay", path] + (["--rules", meta["game"]] if rng.random() < 0.5 else [])
    probe.call("rulelang " + " ".join(argv[:1] + argv[2:3]), quietly, cli.main, argv)


def quietly(fn, *args):
    """Run fn with stdout and stderr captured (the CLI prints; we only care whether it raises)."""
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    try:
        return fn(*args)
    finally:
        sys.stdout, sys.stderr = saved


def input_name(kind: str, meta: dict) -> str:
    if kind == "cost":
        return "input.ir.json" if meta.get("format") == "ir" else "input.rules"
    return {"rules": "input.rules", "ir": "input.ir.json", "save": "input.save.json"}[kind]


def write_inputs(mutant: Mutant, folder: Path) -> Path:
    """The mutant's files in `folder`; returns the main one."""
    name = input_name(mutant.kind, mutant.meta)
    for extra, body in mutant.extra.items():
        (folder / extra).write_text(body, encoding="utf-8", errors="surrogatepass")
    main = folder / name
    main.write_text(mutant.text, encoding="utf-8", errors="surrogatepass")
    return main


def run_case(mutant: Mutant, work: Path, case: int = 0, entries: dict | None = None) -> list[Failure]:
    """Write the mutant to work/in, run it from the empty work/cwd; the failures found (and in
    `entries`, if given, how each API call ended: stage -> [calls, returned, refused, failed])."""
    for sub in ("in", "cwd"):
        shutil.rmtree(work / sub, ignore_errors=True)
        (work / sub).mkdir(parents=True)
    main = write_inputs(mutant, work / "in")
    files = {str(main): mutant.text, **{str(work / "in" / k): v for k, v in mutant.extra.items()}}
    probe = Probe(files, str(work / "cwd"))
    rng = random.Random(case)
    here = os.getcwd()
    os.chdir(work / "cwd")
    try:
        if mutant.kind == "rules":
            run_rules(probe, str(main), mutant.text, rng)
        elif mutant.kind == "ir":
            run_ir(probe, str(main), mutant.text, rng)
        elif mutant.kind == "cost":
            run_cost(probe, str(main), mutant.text, rng)
        else:
            run_save(probe, str(main), mutant.text, mutant.meta, rng)
    finally:
        os.chdir(here)
    if entries is not None:
        entries.update(probe.entries)
    return probe.failures


# ============================================================================ one case in a capped child (--cost)

CAP_MEMORY = 1 << 30      # bytes of address space of one capped case: the promise is 1 GB
CAP_CPU = 60              # CPU seconds of one capped case before the kernel stops it: the promise is 60 s


def _mapped_bytes() -> int:
    """This process's address space now (Linux: /proc/self/statm; elsewhere 0)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def run_case_capped(mutant: Mutant, work: Path, case: int = 0) -> tuple[list[Failure], dict]:
    """run_case in a forked child whose address space is capped at CAP_MEMORY and CPU time at
    CAP_CPU; (failures, stats: entries, cpu, rss_mb). A child stopped by a signal (the CPU cap) is
    a failure "CapKill"; a MemoryError (the memory cap) is one of the failures run_case reports."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:                                  # the child: never returns
        code = 0
        try:
            os.close(r)
            # the case's own 1 GB, over what the forked process already maps (a test process that
            # loaded every game first left a case too little room: MemoryErrors in odd places)
            cap = _mapped_bytes() + CAP_MEMORY
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            resource.setrlimit(resource.RLIMIT_CPU, (CAP_CPU, CAP_CPU + 5))
            entries: dict = {}
            failures = run_case(mutant, work, case, entries)
            data = json.dumps({"failures": [[f.sig, f.stage, f.message, f.detail] for f in failures],
                               "entries": entries}).encode("utf-8", "backslashreplace")
            with os.fdopen(w, "wb") as pipe:
                pipe.write(data)
        except BaseException:                     # noqa: B036 - the harness's own fault: say so
            code = 3
            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as pipe:
        data = pipe.read()
    _, status, usage = os.wait4(pid, 0)
    stats = {"entries": {}, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}
    failures = []
    if data:
        try:
            report = json.loads(data)
            stats["entries"] = report["entries"]
            failures = [Failure(*f) for f in report["failures"]]
        except ValueError:
            data = b""
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        failures.append(Failure(f"CapKill {name}", "?", f"the case was stopped by {name} after "
                                f"{stats['cpu']:.1f} s of CPU time, {stats['rss_mb']:.0f} MB"))
    elif not data:
        failures.append(Failure(f"HarnessError exit {os.WEXITSTATUS(status)}", "?", "the capped child gave no report"))
    return failures, stats


def cap_kill(sig: str) -> bool:
    """A failure that is a run over the caps: stopped by the CPU cap (a signal, or a call over
    CALL_LIMIT), out of memory under the memory cap, a worker killed or stuck."""
    return sig.startswith(("CapKill", "Hang", "HardHang", "WorkerDied", "MemoryError"))


# ============================================================================ reproducers

def slug(sig: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", sig).strip("-")[:90]


def save_reproducer(out: Path, mutant: Mutant, failure: Failure, case: int | None) -> Path:
    """Keep the smallest input seen for each failure group in out/<group>/."""
    folder = out / slug(failure.sig)
    meta_file = folder / "meta.json"
    if meta_file.exists():
        try:
            if json.loads(meta_file.read_text())["size"] <= len(mutant.text):
                return folder
        except (ValueError, KeyError, OSError):
            pass
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    write_inputs(mutant, folder)
    meta = {"kind": mutant.kind, "seed": mutant.seed, "case": case, "size": len(mutant.text),
            "meta": mutant.meta, "extra": sorted(mutant.extra), "sig": failure.sig, "stage": failure.stage}
    meta_file.write_text(json.dumps(meta, indent=1))
    (folder / "notes.txt").write_text(
        f"{failure.sig}\nstage: {failure.stage}\nseed input: {mutant.seed}\nmutations:\n  "
        + "\n  ".join(mutant.notes) + f"\n\n{failure.message}\n\n{failure.detail}", encoding="utf-8",
        errors="backslashreplace")
    return folder


def load_reproducer(folder: Path) -> Mutant:
    meta = json.loads((folder / "meta.json").read_text())
    main = input_name(meta["kind"], meta["meta"])
    read = lambda p: p.read_text(encoding="utf-8", errors="surrogatepass")  # noqa: E731
    return Mutant(meta["kind"], read(folder / main), meta["seed"], [], meta["meta"],
                  {name: read(folder / name) for name in meta["extra"]})


# ============================================================================ running many cases

def worker(w: int, start: int, stride: int, cases: int, seed: int, kinds: tuple, seeds: Seeds,
           out: Path, base: Path, results, capped: bool = False) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    work = base / f"w{w}"
    work.mkdir(parents=True, exist_ok=True)
    os.environ["RULELANG_CACHE_DIR"] = str(base / f"cache{w}")
    with open(work / "stack.txt", "w") as stack:
        for i in range(start, cases, stride):
            mutant = make_case(seeds, seed, i, kinds)
            results.put(("start", w, i, mutant.kind))
            stack.seek(0)
            stack.truncate()
            faulthandler.dump_traceback_later(CASE_LIMIT * 0.8, file=stack)
            if capped:
                failures, stats = run_case_capped(mutant, work, i)
            else:
                entries: dict = {}
                began = time.process_time()
                failures = run_case(mutant, work, i, entries)
                stats = {"entries": entries, "cpu": time.process_time() - began,
                         "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
            faulthandler.cancel_dump_traceback_later()
            for f in failures:
                save_reproducer(out, mutant, f, i)
            results.put(("done", w, i, ([(f.sig, f.stage, f.message) for f in failures], stats)))
    results.put(("exit", w, None, None))


@dataclass
class Report:
    cases: int = 0
    seconds: float = 0.0
    by_kind: dict = field(default_factory=dict)
    groups: dict = field(default_factory=dict)    # sig -> {"count", "stage", "message", "kinds"}
    entries: dict = field(default_factory=dict)   # stage -> [calls, returned, refused, failed, CPU s]
    max_cpu: tuple = (0.0, None)                  # (CPU seconds, case) of the costliest case
    max_rss: tuple = (0.0, None)                  # (MB, case) of the largest peak memory of a case
    cpu: float = 0.0                              # CPU seconds of every case together

    def count(self, kind: str, failures: list, stats: dict | None = None, case: int | None = None) -> None:
        self.cases += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
        if stats:
            for stage, tally in stats["entries"].items():
                mine = self.entries.setdefault(stage, [0, 0, 0, 0, 0.0])
                for k, n in enumerate(tally):
                    mine[k] += n
            self.cpu += stats["cpu"]
            self.max_cpu = max(self.max_cpu, (stats["cpu"], case), key=lambda t: t[0])
            self.max_rss = max(self.max_rss, (stats["rss_mb"], case), key=lambda t: t[0])
        for sig, stage, message in failures:
            g = self.groups.setdefault(sig, {"count": 0, "stage": stage, "message": message, "kinds": set()})
            g["count"] += 1
            g["kinds"].add(kind)

    def summary(self, out: Path) -> str:
        lines = [f"{self.cases} cases ({', '.join(f'{k} {n}' for k, n in sorted(self.by_kind.items()))}) "
                 f"in {self.seconds:.1f} s; {len(self.groups)} failure classes"]
        for sig, g in sorted(self.groups.items(), key=lambda kv: -kv[1]["count"]):
            lines.append(f"  {g['count']:>5}x {sig}  [{'/'.join(sorted(g['kinds']))}, {g['stage']}]")
            lines.append(f"         {g['message'][:160]!r}")
            lines.append(f"         reproducer: {out / slug(sig)}")
        hangs = sum(g["count"] for s, g in self.groups.items() if s.startswith(("Hang", "HardHang")))
        lines.append(f"hangs: {hangs}")
        return "\n".join(lines + self.figures())

    def figures(self) -> list[str]:
        """Cases, calls per entry point, tracebacks, runs over the caps, peak memory and CPU."""
        kills = sum(g["count"] for s, g in self.groups.items() if cap_kill(s))
        tracebacks = sum(g["count"] for s, g in self.groups.items()
                         if not cap_kill(s) and not s.startswith(("SpanOutsideFile", "LintClean", "RoundTrip",
                                                                  "FileCreated")))
        failures = sum(g["count"] for g in self.groups.values())
        lines = ["figures:", f"  cases run: {self.cases} ({', '.join(f'{k} {n}' for k, n in sorted(self.by_kind.items()))})",
                 "  calls per entry point (returned / refused with a RulelangError / failed; CPU time):"]
        for stage, (calls, ok, refused, failed, cpu) in sorted(self.entries.items(), key=lambda kv: -kv[1][0]):
            lines.append(f"    {stage:<28} {calls:>7}  ({ok} / {refused} / {failed}; {cpu:.1f} s)")
        lines += [f"  tracebacks or internal errors: {tracebacks}",
                  f"  runs over the caps (CPU or memory, or a hang): {kills}",
                  f"  other failures (spans, round trips, files made): {failures - tracebacks - kills}",
                  f"  max RSS of a case: {self.max_rss[0]:.0f} MB (case {self.max_rss[1]})",
                  f"  max CPU of a case: {self.max_cpu[0]:.2f} s (case {self.max_cpu[1]}); "
                  f"mean {self.cpu / max(1, self.cases):.2f} s, {self.cpu:.0f} s in all"]
        return lines


class Fleet:
    """Worker processes, each taking every `jobs`-th case; a dead or stuck one is replaced."""

    def __init__(self, cases, seed, kinds, jobs, seeds, out, base, capped=False):
        self.args = (cases, seed, kinds, jobs, seeds, out, base)
        self.capped = capped
        self.ctx = multiprocessing.get_context("fork")
        self.results = self.ctx.Queue()
        self.procs, self.current = {}, {}
        for w in range(jobs):
            self.spawn(w, w)

    def spawn(self, w: int, start: int) -> None:
        cases, seed, kinds, jobs, seeds, out, base = self.args
        if start >= cases:
            return
        self.procs[w] = self.ctx.Process(target=worker, daemon=True, args=(
            w, start, jobs, cases, seed, kinds, seeds, out, base, self.results, self.capped))
        self.procs[w].start()

    def check(self, report: Report) -> None:
        """Record the case a dead or stuck worker was on, and start a new worker after it."""
        cases, seed, kinds, jobs, seeds, out, base = self.args
        for w, proc in list(self.procs.items()):
            if w not in self.current:
                if not proc.is_alive():
                    del self.procs[w]
                    if proc.exitcode:              # the harness itself broke: say so, loudly
                        report.groups.setdefault(f"HarnessError: worker {w} exit {proc.exitcode}", {
                            "count": 1, "stage": "harness", "message": "see stderr", "kinds": set()})
                continue
            i, kind, since = self.current[w]
            stuck = time.time() - since > CASE_LIMIT
            if not stuck and proc.is_alive():
                continue
            proc.kill()
            proc.join()
            del self.procs[w], self.current[w]
            stack = (base / f"w{w}" / "stack.txt").read_text(errors="replace")
            frames = re.findall(r'File "' + re.escape(PKG) + r'([^"]+)", line (\d+) in (\w+)', stack)
            where = f"rulelang/{frames[0][0]}:{frames[0][1]} ({frames[0][2]})" if frames else "unknown frame"
            sig = f"HardHang in {where}" if stuck else f"WorkerDied exit {proc.exitcode}"
            failure = Failure(sig, "?", f"case {i} ({kind})", stack[-4000:])
            save_reproducer(out, make_case(seeds, seed, i, kinds), failure, i)
            report.count(kind, [(sig, "?", failure.message)], case=i)
            self.spawn(w, i + jobs)


def run_fuzz(cases: int, seed: int = 1, kinds: tuple = KINDS, jobs: int = 2, out: Path = DEFAULT_OUT,
             progress=None, capped: bool = False) -> Report:
    """Run `cases` cases on `jobs` worker processes (capped: each case in a child process capped at
    CAP_MEMORY and CAP_CPU, whose peak memory and CPU time are the figures)."""
    out.mkdir(parents=True, exist_ok=True)
    seeds = build_seeds()
    report, began = Report(), time.time()
    with tempfile.TemporaryDirectory(prefix="rulelang-fuzz-") as tmp:
        fleet = Fleet(cases, seed, kinds, jobs, seeds, out, Path(tmp), capped)
        checked = time.time()
        while fleet.procs:
            if time.time() - checked > 1.0:
                fleet.check(report)
                checked = time.time()
            try:
                what, w, i, payload = fleet.results.get(timeout=1.0)
            except queue.Empty:
                continue
            if what == "start":
                fleet.current[w] = (i, payload, time.time())
            elif what == "done":
                report.count(fleet.current.pop(w)[1], *payload, case=i)
                if progress and report.cases % 500 == 0:
                    progress(f"[{report.cases:>6}/{cases}] {time.time() - began:7.1f} s  "
                             f"{len(report.groups)} failure classes, "
                             f"{sum(g['count'] for g in report.groups.values())} failures; "
                             f"max RSS {report.max_rss[0]:.0f} MB, max CPU {report.max_cpu[0]:.1f} s, "
                             f"{report.cpu:.0f} s of CPU")
            elif w in fleet.procs:
                fleet.procs.pop(w).join()
    report.seconds = time.time() - began
    return report


# ============================================================================ one reproducer, and shrinking it

def rerun(folder: Path) -> list[Failure]:
    mutant = load_reproducer(folder)
    with tempfile.TemporaryDirectory(prefix="rulelang-fuzz-run-") as tmp:
        os.environ.setdefault("RULELANG_CACHE_DIR", os.path.join(tmp, "cache"))
        return run_case(mutant, Path(tmp), json.loads((folder / "meta.json").read_text()).get("case") or 0)


def ddmin(parts: list[str], still_fails) -> list[str]:
    """Zeller's delta debugging: a smaller list of parts whose concatenation still fails."""
    n = 2
    while len(parts) >= 2:
        chunk = math.ceil(len(parts) / n)
        for k in range(0, len(parts), chunk):
            rest = parts[:k] + parts[k + chunk:]
            if still_fails(rest):
                parts, n = rest, max(n - 1, 2)
                break
        else:
            if n >= len(parts):
                break
            n = min(len(parts), n * 2)
    return parts


def shrink(folder: Path, out: Path) -> Path:
    """Delta-debug a reproducer (lines, then tokens, then characters) keeping its failure class."""
    mutant = load_reproducer(folder)
    meta = json.loads((folder / "meta.json").read_text())
    sig, case = meta["sig"], meta.get("case") or 0
    with tempfile.TemporaryDirectory(prefix="rulelang-fuzz-shrink-") as tmp:
        def fails(parts: list[str]) -> bool:
            trial = Mutant(mutant.kind, "".join(parts), mutant.seed, [], mutant.meta, mutant.extra)
            return any(f.sig == sig for f in run_case(trial, Path(tmp), case))
        text = mutant.text
        for split in (lambda t: t.splitlines(keepends=True), tokenize, list):
            text = "".join(ddmin(split(text), fails))
    small = Mutant(mutant.kind, text, mutant.seed, [f"shrunk from {folder}"], mutant.meta, mutant.extra)
    target = out / "min" / folder.name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    save_reproducer(out / "min", small, Failure(sig, meta["stage"], f"shrunk from {folder}"), case)
    return target


# ============================================================================ command line

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=COST_KINDS + ("all",), default="all")
    ap.add_argument("--cost", action="store_true",
                    help="also cost mutants (sizes multiplied), every case in a child capped at 1 GB and 60 s "
                         "of CPU, through lint, the language server, lint --deep, play and simulate; prints "
                         "figures (calls per entry point, tracebacks, cap kills, max RSS and CPU of a case)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where reproducers go (default %(default)s)")
    ap.add_argument("--jobs", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--run", type=Path, metavar="DIR", help="run one reproducer folder and print its failures")
    ap.add_argument("--shrink", type=Path, metavar="DIR", help="delta-debug a reproducer into OUT/min/")
    args = ap.parse_args(argv)
    if args.run:
        failures = rerun(args.run)
        for f in failures:
            print(f"{f.sig}  [{f.stage}]\n{f.message}\n{f.detail}")
        print(f"{len(failures)} failures")
        return 1 if failures else 0
    if args.shrink:
        print(f"minimal reproducer: {shrink(args.shrink, args.out)}")
        return 0
    kinds = (COST_KINDS if args.cost else KINDS) if args.kind == "all" else (args.kind,)
    if args.cost:                 # a case may take up to CAP_CPU of CPU on a busy machine: wait longer for it
        global CASE_LIMIT
        CASE_LIMIT = max(CASE_LIMIT, 20 * CAP_CPU)
    report = run_fuzz(args.cases, args.seed, kinds, args.jobs, args.out, progress=lambda line: print(line, flush=True),
                      capped=args.cost or "cost" in kinds)
    print(report.summary(args.out))
    return 1 if report.groups else 0


if __name__ == "__main__":
    sys.exit(main())
