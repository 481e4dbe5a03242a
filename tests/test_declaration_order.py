"""Declaration order never changes what a rule file means, and a builtin's name may be declared.

Each game here is written twice, its declarations in two orders, and must compile to the same IR
(line numbers aside): the same types, so the same texts (a seat shown `P2`, a card by its label),
the same diagnostics. Before, a card or def read the type of a def or table declared further down
as `any`: seats showed as `1`, cards as raw component ids.

A declaration with the name of a builtin (a file written before the language took the name over)
hides the builtin where it can be written, with a warning (W220), and never crashes the linter.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.language import nodes as n
from rulelang.language.checker import check
from rulelang.language.compiler import compile_checked
from rulelang.ir.spec import BUILTIN_FUNCTIONS, BUILTIN_VALUES
from rulelang.language.parser import parse

ROOT = Path(__file__).resolve().parent.parent


def game(parts: list[str], head: str = "players 2..3") -> str:
    return 'game "Order" {\n  ' + head + "\n  " + "\n  ".join(parts) + "\n}\n"


def checked(text: str, name: str = "x.rules"):
    return check(parse(text, name))


def normal(ir):
    """The IR without what the position in the file decides (line numbers, the file's name)."""
    if isinstance(ir, dict):
        return {k: normal(v) for k, v in ir.items() if k not in ("line", "source", "handler_lines", "decl_lines")}
    if isinstance(ir, list):
        return [normal(v) for v in ir]
    return ir


def ir_of(text: str) -> dict:
    c = checked(text)
    assert c.ok, [d.headline() for d in c.diagnostics]
    return compile_checked(c)


def headlines(text: str) -> list[str]:
    """Every diagnostic, without its position."""
    return sorted(f"{d.severity}[{d.code}]: {d.message}" for d in checked(text).diagnostics)


def texts_as(ir) -> list:
    """Every `as` of the IR (how a value becomes text), in a stable order."""
    out = []

    def go(x, path):
        if isinstance(x, dict):
            for k in sorted(x):
                if k == "as" and isinstance(x[k], str):
                    out.append((path, x[k]))
                go(x[k], path + "/" + k)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                go(v, f"{path}/{i}")
    go(ir, "")
    return out


def both_orders(first: list[str], later: list[str], **kw) -> tuple[dict, dict]:
    """The IR of a game with `later` after `first`, and with `later` before it: equal, or the test fails."""
    a, b = ir_of(game(first + later, **kw)), ir_of(game(later + first, **kw))
    assert normal(a) == normal(b)
    assert headlines(game(first + later, **kw)) == headlines(game(later + first, **kw))
    return a, b


# -- the reported case: a card declared before the defs it calls ---------------------------------

CARD_GAME = [
    'kind Card { v: int  label "card " + text(v) }',
    "hook play()",
    "zone deck: pile",
    "zone hand: set per player, owner",
    "zone used: pile",
    "var hits: int = 0 per player",
    "setup { create cards Card in deck  for p in players { move top(deck) to hand[p] } }",
    "turn { step act { action play(c in hand[me]) { run play() of c  move c to used  end turn } } }",
    "on stuck { finish draw }",
]
CARD = ('card Card "Zap" { v: 1  copies: 4\n    on play() {\n      choose q in rivals(me) prompt "whom?" {\n'
        '        hits[q] += 1\n        log text(q) + " is hit by " + text(best(me))\n      }\n    }\n  }')
DEFS = ["def rivals(p) = [q for q in players where q != p]", "def best(p) = first(hand[p])"]


@pytest.mark.parametrize("order", ["card first", "defs first"])
def test_a_cards_choice_shows_players_and_its_log_labels_whatever_the_order(order, tmp_path):
    parts = CARD_GAME + ([CARD] + DEFS if order == "card first" else DEFS + [CARD])
    path = tmp_path / "order.rules"
    path.write_text(game(parts), encoding="utf-8")
    ir = rulelang.compile_file(str(path))
    choose = ir["procs"]["__c0_0"]["body"][0]
    assert choose["show"] == "player"
    assert choose["body"][1]["v"]["x"]["r"]["as"] == "comp"          # text(best(me)): the card's label
    g = rulelang.load(str(path))
    m = g.new_match(3, seed=1)
    m.apply(m.legal_actions()[0])
    assert [str(a) for a in m.legal_actions()] == ["P2", "P3"]        # not "1", "2"
    m.apply(m.legal_actions()[-1])
    assert m.messages_for(0)[-1] == "P3 is hit by card 1"             # not a component id


def test_the_card_game_compiles_the_same_in_both_orders():
    both_orders(CARD_GAME + [CARD], DEFS)


# -- other reads before the declaration: defs of defs, tables, enums, kinds, shown values ----------

def test_defs_tables_enums_and_labels_read_before_their_declaration():
    first = [
        'kind Chip { colour: Colour  label name_of(colour) + " chip" }',   # a label calling a later def
        "zone pool: pile",
        "zone hand: set per player, owner",
        "var holder: player = leader per Colour",                          # a later def, per a later enum
        "var last: int = 0",
        'show "leader" = text(leader)',
        "show def top_chip = text(chip_at(0))",
        "setup { for c in Colour { create Chip(colour: c) in pool } }",
        "turn { step go {\n    action take(c in pool) {\n      move c to hand[me]  holder[c.colour] = winner_of(c)\n"
        "      last = rank[c.colour]\n      log text(winner_of(c)) + \" takes \" + text(c) + \" of \" + text(hue(c))\n"
        "      if size(pool) == 0 { finish win for winner_of(c) }\n      end turn } } }",
    ]
    later = [
        'enum Colour { red "R", blue "B" }',
        'table shade { red: "dark", blue: "light" }',
        "table rank { red: 1, blue: 2 }",
        "def name_of(c: Colour) = shade[c] + text(c)",
        "def leader = first(players)",
        "def winner_of(c) = owner_of(c)",                                  # a chain of later defs
        "def owner_of(c) = first([p for p in players where c in hand[p]] + [me])",
        "def chip_at(i) = first([c for c in pool])",
        "def hue(c) = c.colour",
    ]
    a, _ = both_orders(first, later)
    assert a["defs"]["__show0"]["body"]["as"] == "player"                 # text(leader): P1
    assert "player" in {v for k, v in texts_as(a) if "/steps/" in k}       # text(winner_of(c)): P1, not 0
    assert "enum:Colour" in {v for k, v in texts_as(a) if "/steps/" in k}  # text(hue(c)): R, not red
    m = rulelang.Game(a, "x").new_match(2, seed=1)
    m.apply(m.legal_actions()[0])
    assert m.messages_for(0)[-1] in ("P1 takes darkR chip of R", "P1 takes lightB chip of B")


def test_a_recursive_def_is_typed_by_its_other_branch_in_both_orders():
    first = [
        "var out: bool = false per player",
        "turn { step go {\n    action knock(p in others) require not out[p] {\n      out[p] = true\n"
        "      log text(next_alive(me)) + \" is next\"  end turn to next_alive(me) } } }",
        "when count(not out[p] for p in players) == 1 { finish win for [p for p in players where not out[p]] }",
    ]
    later = ["def next_alive(p) = if not out[next(p)] then next(p) else next_alive(next(p))",
             "def ping(p) = if p == 0 then pong(p) else next(p)", "def pong(p) = ping(p)"]
    a, _ = both_orders(first + ['show "x" = text(pong(1))'], later)
    steps = [v for k, v in texts_as(a) if k.startswith("/steps/")]
    assert "player" in steps                                               # P2 is next, not 1
    assert a["defs"]["__show0"]["body"]["as"] == "player"                  # mutual recursion too


def test_a_replacements_parameters_are_typed_like_the_procedure_it_replaces():
    first = [
        'kind Card { v: int  label "card " + text(v) }',
        'card Card "Shield" { v: 2\n    replace discard(c) where c == self { log "saved " + text(c) }\n  }',
        'card Card "Plain" { v: 1 }',
        "zone table: set, play",
        "zone box: pile",
        "setup { create cards Card in table }",
        "turn { step go { action drop(c in table) { discard(c)  finish draw } } }",
    ]
    later = ["proc discard(x) { move x to box }"]
    a, _ = both_orders(first, later)
    assert "comp" in [v for k, v in texts_as(a) if k.startswith("/procs/__c0_0")]   # "saved card 2"


@pytest.mark.parametrize("name", ["regicide", "valgard"])
def test_a_real_game_compiles_the_same_with_its_defs_and_tables_first_or_last(name, tmp_path):
    source = (ROOT / "games" / f"{name}.rules").read_text(encoding="utf-8")
    tree = parse(source, str(tmp_path / "x.rules"))
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    at = lambda line, column: starts[line - 1] + column - 1
    moved = [d for d in tree.decls if isinstance(d, (n.DefDecl, n.TableDecl, n.ShowDecl))]
    assert len(moved) > 5
    rest, pieces, end = source, [], None
    for d in sorted(moved, key=lambda d: (d.span.line, d.span.column), reverse=True):
        lo, hi = at(d.span.line, d.span.column), at(d.span.end_line, d.span.end_column)
        pieces.insert(0, source[lo:hi])
        rest = rest[:lo] + rest[hi:]
    end = rest.rstrip().rfind("}")
    opening = rest.index("{") + 1
    first = rest[:opening] + "\n  " + "\n  ".join(pieces) + "\n" + rest[opening:]
    last = rest[:end] + "\n  " + "\n  ".join(pieces) + "\n" + rest[end:]
    a, b = ir_of(first), ir_of(last)
    assert normal(a) == normal(b)


# -- a builtin's name declared by the rules (W220) -------------------------------------------------

CONNECT = """game "Four" {
  players 2
  board b: squares(4, 4)
  table opposite { "n": "e", "s": "n", "e": "w", "w": "e" }
  var owner: int = -1 per cell of b
  def free(c: cell) = owner[c] == -1
  def mine(c: cell) = owner[c] == me
  def run_len(c: cell, d) = size(line_in(c, d, [x for x in cells(b) where mine(x)]))
                            + size(line_in(c, opposite[d], [x for x in cells(b) where mine(x)]))
  show "away from north" = opposite["n"]
  turn {
    step drop {
      action drop(c in cells(b)) require free(c) and (c.row == 1 or not free(step(c, "s"))) {
        owner[c] = me
        if any(run_len(c, d) >= 3 for d in ["n", "e"]) { finish win for me }
        end turn
      }
    }
  }
  on stuck { finish draw }
}
"""


def test_a_table_named_like_a_builtin_lints_with_one_warning_and_runs_on_its_values(tmp_path):
    path = tmp_path / "four.rules"
    path.write_text(CONNECT, encoding="utf-8")
    diagnostics, _ = rulelang.lint([str(path)])
    assert [(d.code, d.severity, d.line) for d in diagnostics] == [("W220", "warning", 4)]
    assert "`opposite[…]` reads the table" in diagnostics[0].message
    g = rulelang.load(str(path))
    m = g.new_match(2, seed=1)
    shown = {v["name"]: v["value"] for v in m.view(0)["values"]}
    assert shown["away from north"] == "e"                              # the table's "e", not the builtin's "s"
    while not m.is_over:
        m.apply(m.legal_actions()[0])
    assert m.outcome["results"]


def test_a_def_named_like_a_builtin_function_is_called_instead(tmp_path):
    text = game([
        "def next(p) = p",                                                   # the same player again
        "def max = 7",                                                       # a value: max(…) stays the builtin
        "var remaining: int = 3",                                            # hides the builtin value
        "turn { step go { action tick {\n      remaining -= 1  log text(max(remaining, max)) + \" \" + text(next(me))\n"
        "      if remaining == 0 { finish draw }  end turn to next(me) } } }",
    ], head="players 2")
    path = tmp_path / "x.rules"
    path.write_text(text, encoding="utf-8")
    codes = [(d.code, d.line) for d in rulelang.lint([str(path)])[0]]
    assert codes == [("W220", 3), ("W220", 4), ("W220", 5)]
    m = rulelang.load(str(path)).new_match(2, seed=1)
    seen = []
    while not m.is_over:
        seen.append(m.current_player)
        m.apply(m.legal_actions()[0])
    assert seen == [0, 0, 0]                                                 # `end turn to next(me)`: the def
    assert m.messages_for(0) == ["7 P1", "7 P1", "7 P1"]


DECLARATIONS = {
    "table": ("table NAME { 1: 2 }", "log text(NAME[1])"),
    "def": ("def NAME = 3", "log text(NAME)"),
    "def with parameters": ("def NAME(x) = x + 1", "log text(NAME(1))"),
    "var": ("var NAME: int = 4", "NAME = 5  log text(NAME)"),
    "enum": ('enum NAME { aa "A" }', "for e in NAME { log text(e) }"),
    "enum value": ('enum Ee { NAME "N" }', "log text(NAME)"),
    "kind": ("kind NAME { v: int }", "create NAME(v: 1) in pile0"),
    "zone": ("zone NAME: pile", "log text(size(NAME))"),
    "proc": ("proc NAME(x) { log text(x) }", "NAME(1)"),
    "option": ("option NAME: int = 2", "log text(NAME)"),
    "event": ("event NAME(p: player)", "emit NAME(me)"),
    "hook": ("hook NAME()", 'log "h"'),
    "window": ("window NAME(p: player)", "open NAME(me)"),
}


@pytest.mark.parametrize("what", sorted(DECLARATIONS))
def test_every_builtin_name_may_be_declared_with_a_warning(what):
    decl, use = DECLARATIONS[what]
    for name in list(BUILTIN_VALUES) + list(BUILTIN_FUNCTIONS):
        text = game([decl.replace("NAME", name), "zone pile0: pile", "setup { " + use.replace("NAME", name) + " }",
                     "turn { step go { action pass { end turn } action stop { finish draw } } }"], head="players 2")
        found = checked(text).diagnostics
        assert [d.code for d in found if d.severity == "error"] == [], (name, [d.headline() for d in found])
        assert "W220" in [d.code for d in found], name
