"""Issue 28's smaller defects, on a game of its own: names always joined by commas, a worded
window asked as its question, a question from a card's play naming that card, a card revealed to
everyone read as revealed by name; a card's `text` before its kind's; `rules_text(c)` in rules;
`show … , own` and `, table` in the view and the IR."""
from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.core.errors import RuleError
from rulelang.play.repl import run_repl

SOURCE = """
game "Spells" {
  players 2
  kind Spell { power: int  label card  text "Power " + text(power) + "." }
  card Spell "Hex" { power: 1  copies: 2  text "Play: pick a spell on the altar to burn." }
  card Spell "Ward" { power: 2 }
  card Spell "Glow" { power: 3 }
  card Spell "Dust" { power: 0 }
  zone deck: pile, hidden, internal
  zone hand: set per player, owner
  zone secret: set per player, owner
  zone altar: set, public
  zone ash: set, public
  var burnt: text = ""
  window answer(s: Spell) as text(me) + ", " + text(s) + " was cast: answer it?"
  setup { create cards Spell in deck
          move [s for s in deck where s.card == "Glow"] to secret[0]
          move [s for s in deck where s.card == "Ward" or s.card == "Dust"] to altar
          move first([s for s in deck where s.card == "Hex"]) to hand[0]  move deck to hand[1] }
  show "Your secret" = [text(s) for s in secret[me]], own
  show "On the altar" = [text(s) + ": " + rules_text(s) for s in altar], table
  show "Burnt" = burnt
  turn { step s {
    action cast(c in hand[me]) {
      move c to altar
      choose t in altar where t != c prompt "pick a spell to burn" { burnt = rules_text(t)  move t to ash }
      open answer(c) from next(me) always
      end turn
    }
    action show_secret require size(secret[me]) > 0 { reveal secret[me]  end turn }
    action quit_game { finish draw }
  } }
}
"""


@pytest.fixture(scope="module")
def game():
    return rulelang.Game(rulelang.compile_source(SOURCE, "spells.rules"))


def play(game, lines: list[str], screen=(100, 40)) -> str:
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("".join(x + "\n" for x in lines)), out, "spells.rules", screen=screen)
    return out.getvalue()


def typed(source: str, lines: list[str], seed: int = 1, screen=(200, 40)) -> tuple[str, list[str]]:
    """Two humans at the terminal of a new match of `source`, typing `lines`: what it printed, and its errors."""
    game = rulelang.Game(rulelang.compile_source(source, "typed.rules"))
    out = io.StringIO()
    run_repl(game, 2, seed, {}, {}, io.StringIO("".join(x + "\n" for x in lines)), out, "typed.rules", screen=screen)
    text = out.getvalue()
    return text, [line for line in text.splitlines() if line.startswith("error: ")]


def test_a_cards_text_comes_before_its_kinds_and_rules_can_read_it(game):
    m = game.new_match(2, seed=1)
    hexes = [c for c, label in enumerate(m.labels) if label == "Hex"]
    ward = m.labels.index("Ward")
    assert m.rules_text(hexes[0], 0) == "Play: pick a spell on the altar to burn.\n\nPower 1."
    assert m.rules_text(ward, 0) == "Power 2."
    m.apply("cast Hex")
    m.apply("Ward")
    assert m.state()["vars"]["burnt"] == "Power 2."
    m.apply("pass")
    m.apply("pass")                           # (the window asks P1 too)
    m.apply("cast Hex")
    m.apply("Hex")                            # the first one: its card's text, then its kind's, on one line
    assert m.state()["vars"]["burnt"] == "Play: pick a spell on the altar to burn. Power 1."


def test_rules_text_needs_a_component_and_a_text_cannot_read_itself():
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(SOURCE.replace("rules_text(t)", "rules_text(3)"), "spells.rules")
    assert "spells.rules:" in str(err.value) and "a component" in str(err.value)
    selfish = SOURCE.replace('text "Power " + text(power) + "."', 'text "Power " + rules_text(self)')
    m = rulelang.Game(rulelang.compile_source(selfish, "spells.rules")).new_match(2, seed=1)
    with pytest.raises(rulelang.RuleRuntimeError) as err:
        m.rules_text(m.labels.index("Ward"), 0)
    assert "reads itself" in str(err.value) and "\n" not in str(err.value)


def test_own_and_table_values_are_marked_in_the_view_and_the_ir(game):
    assert game.ir["defs"]["__show0"]["place"] == "own" and game.ir["defs"]["__show1"]["place"] == "table"
    assert "place" not in game.ir["defs"]["__show2"]
    values = {v["name"]: v for v in game.new_match(2, seed=1).view(0)["values"]}
    assert values["Your secret"] == {"name": "Your secret", "value": ["Glow"], "label": True, "own": True}
    assert values["On the altar"]["table"] is True and "own" not in values["On the altar"]
    assert "table" not in values["Burnt"] and "own" not in values["Burnt"]
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(SOURCE.replace("for s in secret[me]], own", "for s in secret[me]], mine"), "s.rules")
    assert "unknown shown value property `mine` (known: own, table)" in str(err.value)


def test_the_smaller_defects_on_screen(game):
    out = play(game, ["cast Hex", "Ward", "pass", "quit"])
    # a question from the card just played names it
    assert "  ▶ you must choose: Hex: pick a spell to burn\n" in out
    # a worded window is asked as its question, not "you must choose: …"
    assert "  ▶ P2, Hex was cast: answer it?\n" in out
    assert "must choose: P2, Hex" not in out
    # names side by side always by commas, one-word names too
    out = play(game, ["table", "quit"])
    assert "  secret (P1): 1 spell: Glow\n" in out
    assert "  altar: 2 spells: Ward, Dust\n" in out
    assert ("  On the altar: Ward: Power 2., Dust: Power 0.\n  choices: 1. cast Hex · 2. show secret · 3. quit game\n"
            "P1> quit") in out.split("P1> table")[1]   # `table`, then the choices again (a first hour)


def test_a_card_revealed_to_everyone_reads_as_revealed_by_name(game):
    out = play(game, ["show secret", "", "quit"])
    p2 = out[out.index("you are P2"):]
    assert "  secret (P1): 1 spell, revealed: Glow\n" in p2
    assert "you know: Glow" not in p2


WALLS = """
game "Walls" {
  players 2
  board b: squares(3, 3), legend ["#: a wall", "o: " + "a stone", ".: an empty cell"]
  zone stones: pile per cell of b
  setup { create Stone() in stones[cell(b, "a1")] }
  kind Stone { label "o" }
  turn { step s { action go { finish draw } } }
}
"""


def test_a_board_declares_its_legend_and_board_shows_it():
    ir = rulelang.compile_source(WALLS, "walls.rules")
    assert ir["boards"][0]["legend"] == ["#: a wall", "o: a stone", ".: an empty cell"]
    out = io.StringIO()
    run_repl(rulelang.Game(ir), 2, 1, {}, {}, io.StringIO("board\nquit\n"), out, "walls.rules")
    shown = out.getvalue().split("P1> board\n")[1]
    assert "\n  Key:\n    #: a wall\n    o: a stone\n    .: an empty cell\nP1> quit" in shown
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(WALLS.replace('legend ["#', 'legend [size(stones), "#'), "walls.rules")
    assert "walls.rules:4:" in str(err.value) and "`legend` is a text or a list of texts written out" in str(err.value)
    # past the IR's bounds (101 entries, 1,001 characters): refused at its line, not after a clean
    # lint by the schema with no line (a fuzzer's trial)
    for legend in ('["x"] ', '["' + "a" * 1001 + '"] ', "[" + ", ".join(['"x"'] * 101) + "] "):
        src = WALLS.replace('legend ["#: a wall", "o: " + "a stone", ".: an empty cell"]', "legend " + legend)
        if legend == '["x"] ':
            rulelang.compile_source(src, "walls.rules")
            continue
        with pytest.raises(RuleError) as err:
            rulelang.compile_source(src, "walls.rules")
        assert "walls.rules:4:" in str(err.value) and "E203" in str(err.value) \
            and "at most 100 entries of at most 1000 characters" in str(err.value), str(err.value)


def test_the_linter_says_what_internal_now_means_and_an_own_value_must_read_me():
    src = SOURCE.replace("  var burnt: text = \"\"", "  var burnt: text = \"\"\n  var turns_seen: int = 0, internal\n"
                         "  var peeked: int = 0, hidden, internal")
    src = src.replace('show "Burnt" = burnt', 'show "Burnt" = burnt\n  show "Altar size" = size(altar), own')
    diags = [d for d in rulelang.check_source(src, "spells.rules")[1] if d.code in ("W234", "W235")]
    assert [(d.code, d.span.line) for d in diags] == [("W234", 15), ("W235", 25)], [str(d) for d in diags]
    assert "views and interop carry it, as public" in diags[0].message
    assert "`Altar size` is shown as the viewer's `own`, but never reads `me`" in diags[1].message
    # (`me` read through a def it calls: a new author's Spades was warned, and dropped `own`)
    through = src.replace('show "Altar size" = size(altar), own',
                          "def mine_and(n: int) = n + size(altar) + (if me == 0 then 1 else 0)\n"
                          '  show "Altar size" = text(mine_and(1)), own')
    assert not [d for d in rulelang.check_source(through, "spells.rules")[1] if d.code == "W235"]
    game = rulelang.Game(rulelang.compile_source(src, "spells.rules"))
    view = game.new_match(2, seed=1).view(1)
    assert {"name": "turns_seen", "value": 0, "internal": True} in view["values"]      # carried, flagged
    assert all(v["name"] != "peeked" for v in view["values"])                         # hidden: in no view


ECHOES = """
game "Echoes" {
  players 2
  kind Spell { label card }
  hook cast()
  card Spell "Mirror" { text "Play: cast the spell on the altar again."  on cast() { run cast() of top(altar) } }
  card Spell "Flare" { text "Play: pick a player to singe."
    on cast() { choose p in players prompt "whom to singe" { log text(p) + " is singed" } } }
  zone hand: set per player, public
  zone altar: pile, public
  setup { create Spell(card: "Flare") in altar  create Spell(card: "Mirror") in hand[0] }
  turn { step s {
    action play(c in hand[me]) { run cast() of c  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_question_names_the_card_whose_ability_asks_it_not_the_card_played():
    # Mirror is played; Flare's own ability asks: the engine says so (the view's choice `asker`)
    game = rulelang.Game(rulelang.compile_source(ECHOES, "echoes.rules"))
    m = game.new_match(seed=1)
    m.apply("play Mirror")
    assert [m.view(p)["choice"]["asker"]["label"] for p in (0, 1)] == ["Flare", "Flare"]
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("play Mirror\nquit\n"), out, "echoes.rules", screen=(100, 40))
    assert "  ▶ you must choose: Flare: whom to singe\n" in out.getvalue()
    assert "Mirror: whom to singe" not in out.getvalue()


def test_a_refused_action_is_told_with_the_rules_reason():
    from positions import GAME as REGICIDE
    out = io.StringIO()
    run_repl(REGICIDE, 1, 3, {}, {}, io.StringIO("yield\nquit\n"), out, "regicide.rules", screen=(200, 40))
    assert ("error: 'yield' is not a legal action now: in a solo game you may never yield (not when every other "
            "player yielded: there is none)") in out.getvalue()


PICKY = '''
game "Picky" {
  players 2
  kind Card { rank: int  name: text  label name + " " + text(rank) }
  zone hand: set per player, owner
  zone table: pile, public
  setup {
    for p in players {
      create Card(rank: 1, name: "Guard") in hand[p]
      create Card(rank: 5, name: "Prince") in hand[p]
      create Card(rank: 8, name: "Princess") in hand[p]
    }
  }
  turn { step act {
    action play(c in hand[me]) require c.rank > 1 else "a Guard may not be played" { move c to table  end turn }
  } }
  on stuck { finish draw }
}
'''


def test_a_reason_for_the_action_as_a_whole_is_said_beside_its_legal_choices():
    """A new author typed a card they did not hold and read the rules' reason for another card:
    the reason is the action's as a whole, so the legal choices of that action are said first —
    and the reason only for a card in sight (a Guard held); for one nowhere in sight, that no
    choice has it (a first hour: Regicide's reason for a combination, for a card not held)."""
    game = rulelang.Game(rulelang.compile_source(PICKY, "picky.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("play zzz\nplay guard\nplay prince\nquit\n"), out, "picky.rules",
             screen=(200, 40))
    text = out.getvalue()
    assert ("error: 'play zzz' is not a legal action now (legal: play Prince 5, play Princess 8); no play choice "
            "has zzz\n") in text
    assert ("error: 'play guard' is not a legal action now (legal: play Prince 5, play Princess 8); when it is not "
            "allowed, the rules say: a Guard may not be played") in text
    assert "P1 plays: play Prince 5" in text          # whole words first: not ambiguous with Princess 8


TELLING = """
game "Telling" {
  players 2
  var tokens: int = 8
  turn {
    step act {
      action hint(p in others, n in 1..3) as "tell " + text(p) + " " + text(n)
          require tokens > 0 and n != 2 else "no tokens left" {
        tokens -= 1
        if tokens == 0 { finish draw }
        end turn
      }
    }
  }
}
"""


def test_an_action_typed_by_its_as_words_gets_its_legal_choices_not_a_false_reason():
    """A new author's Hanabi: `tell P2 2` (an action shown `tell …`, its `require` reading the
    choice) read "not a legal action now: no tokens left" with 8 tokens and `tell P2 1` legal —
    typed by its name, `hint P2 2`, it listed the legal choices. Both are found alike now."""
    _, errors = typed(TELLING, ["tell P2 2", "hint P2 2", "quit"])
    assert errors == ["error: 'tell P2 2' is not a legal action now (legal: tell P2 1, tell P2 3); no tell choice has 2",
                      "error: 'hint P2 2' is not a legal action now (legal: tell P2 1, tell P2 3); no hint choice has 2"]


def test_a_card_in_sight_where_no_choice_takes_one_is_no_choice_not_refused_by_the_rules():
    """A new author's Oh Hell: the leader typed the turned-up trump card (in sight, on the table,
    not theirs to play) and read the rules' reason "follow the suit led if you can", nothing led.
    A card in sight outside the places the choices come from is said to be no choice; one held
    (a Guard) still gets the rules' reason."""
    rules = PICKY.replace('      create Card(rank: 8, name: "Princess") in hand[p]\n',
                          '      create Card(rank: 8, name: "Princess") in hand[p]\n    }\n'
                          '    create Card(rank: 7, name: "Trump") in table\n    for p in [] {\n')
    game = rulelang.Game(rulelang.compile_source(rules, "picky.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("play trump\nplay guard\nquit\n"), out, "picky.rules",
             screen=(200, 40))
    text = out.getvalue()
    assert "table: 1 card: Trump 7" in text
    assert ("error: 'play trump' is not a legal action now (legal: play Prince 5, play Princess 8); no play "
            "choice has trump\n") in text
    assert "the rules say: a Guard may not be played" in text


def test_messages_to_the_player_and_to_all_come_in_the_order_the_rules_wrote_them():
    """A Baron-like compare: the result to the player first, then the public outcome (the
    terminal printed every public message before the private ones)."""
    rules = PICKY.replace('{ move c to table  end turn }',
                          '{ log "you see: " + text(c) to [me]  log "nobody is out"  move c to table  end turn }')
    game = rulelang.Game(rulelang.compile_source(rules, "picky.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("play prince\nquit\n"), out,
             "picky.rules", screen=(200, 40))
    text = out.getvalue()
    assert text.index("(to you) you see: Prince 5") < text.index("> nobody is out")


OUTS = '''
game "Outs" {
  players 3
  turn { step s {
    action out require size(remaining) > 2 { eliminate next(me)  end turn }
    action stop { finish win for me "done" }
  } }
}
'''


@pytest.mark.parametrize("extra, shown", [("", False), ('  on round_start { log "a new round" }\n', True)])
def test_the_header_counts_rounds_only_where_the_rules_do(extra, shown):
    """A game that puts players out (`eliminate`) keeps the engine's rounds (a turn each); the
    header said `round 4` in the middle of a new author's second hand. It says it where the rules
    count rounds themselves."""
    source = OUTS.replace("  turn {", extra + "  turn {")
    game = rulelang.Game(rulelang.compile_source(source, "outs.rules"))
    out = io.StringIO()
    run_repl(game, 3, 1, {}, {}, io.StringIO("out\nquit\n"), out, "outs.rules", screen=(200, 40))
    headers = [line for line in out.getvalue().splitlines() if line.startswith("== Outs")]
    assert headers and all(("· round " in line) == shown for line in headers)
    assert "turn order:" in out.getvalue()          # (who is out is still shown)


def test_a_spectator_is_not_told_a_card_some_seats_cannot_see_asks():
    from rulelang.web.present import spectator_payload
    source = ECHOES.replace("zone hand: set per player, public", "zone hand: set per player, owner").replace(
        'create Spell(card: "Mirror") in hand[0]', 'create Spell(card: "Flare") in hand[0]')
    m = rulelang.Game(rulelang.compile_source(source, "echoes.rules")).new_match(seed=1)
    m.apply("play Flare")
    assert m.view(0)["choice"]["asker"]["label"] == "Flare" and "asker" not in m.view(1)["choice"]
    assert "asker" not in spectator_payload(m)["view"]["choice"]
    m = rulelang.Game(rulelang.compile_source(ECHOES, "echoes.rules")).new_match(seed=1)
    m.apply("play Mirror")                  # a card on the table asks: everyone may know it
    assert spectator_payload(m)["view"]["choice"]["asker"]["label"] == "Flare"


def test_a_spectator_gets_no_value_worded_for_its_viewer():
    """Dozen War's "Attack skills you cannot use now" differs by seat: a spectator's table left it
    as "–"; it is left out. A value every seat reads alike, and a declared hidden one, stay."""
    from rulelang.web.present import spectator_payload
    m = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "dozen_war.rules")).new_match(2, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        m.apply(rng.choice(m.legal_actions()))
    mine = {v["name"]: v for v in m.view(0)["values"]}
    assert mine["Attack skills you cannot use now"]["value"] != m.view(1)["values"][
        list(mine).index("Attack skills you cannot use now")]["value"]
    shown = {v["name"] for v in spectator_payload(m)["view"]["values"]}
    assert "Attack skills you cannot use now" not in shown
    assert {"Generals off the map (before the first round: to place; later: dead, revive for 4 coins)"} <= shown


DICE = """
game "Dice Faces" {
  players 2
  kind Die { n: int  label "die " + text(n) }
  zone tray: set, public
  var face: int = 1 per Die, public
  var worn: int = 0 per Die, public, internal
  setup { for i in 1..2 { create Die(n: i) in tray } }
  turn { step act {
    action reroll(d in tray) { face[d] = roll(6)  worn[d] = worn[d] + 1
                               if face[d] == 7 { finish win for me }  end turn }
  } }
}
"""


def test_a_value_per_component_is_listed_with_it_and_its_change_said():
    game = rulelang.Game(rulelang.compile_source(DICE))
    var = next(v for v in game.ir["vars"] if v["name"] == "face")
    assert var["of"] == "Die"
    m = game.new_match(seed=1)
    assert m.view(1)["component_values"] == {"0": {"face": 1}, "1": {"face": 1}}   # the initial face too
    m.supply_chance([["roll", 6, 5]])
    m.apply("reroll die 2")
    view = m.view(0)
    assert view["component_values"] == {"0": {"face": 1}, "1": {"face": 5, "worn": 1}}
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("reroll die 1\ntable\nquit\n"), out, "dice.rules", screen=(100, 40))
    text = out.getvalue()
    assert "  tray: 2 dice: die 1 (face 1), die 2 (face 1)\n" in text        # before any roll
    face = re.search(r"  · die 1: face 1 → (\d)\n", text).group(1)            # the change, said
    assert f"  tray: 2 dice: die 1 (face {face})," in text.split("P2> table")[1]
    assert "worn" not in text                                                  # internal: off the screen


FLIPS = """
game "Flips" {
  players 2
  board g: squares(4, 1)
  var disc: player = none per cell of g, public
  var seen: int = 0 per cell of g, public, internal
  setup { disc[cell(g, "b1")] = 1  disc[cell(g, "c1")] = 1 }
  turn { step go {
    action place(c in cells(g)) require disc[c] == none {
      disc[c] = me
      for x in cells(g) { if disc[x] != none { disc[x] = me  seen[x] += 1 } }
      finish draw "placed"
    }
  } }
}
"""


def test_a_value_per_cell_that_changes_is_said_with_its_cells_in_words():
    """A new author's Othello kept its discs in a variable per cell: the terminal said how many discs
    each had, never which flipped. The cells are said, the value in words (`P1`, not 0), the cell
    the move names too (Valgarð's rune kills the cell its text names), an `internal` one not at all."""
    game = rulelang.Game(rulelang.compile_source(FLIPS))
    m = game.new_match(2, seed=1)
    assert m.view(0)["cell_texts"] == {"b1": {"disc": "P2"}, "c1": {"disc": "P2"}}
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("place a1\n"), out, "flips.rules", screen=(100, 40))
    text = out.getvalue()
    assert "  · disc: a1 → P1; b1 → P1; c1 → P1\n" in text, text
    assert "seen" not in text


MARKED = """
game "Marked" {
  players 2
  kind Card { name: text  label name }
  board b: squares(3, 1)
  zone hand: set per player, owner
  zone table: set, public
  var mark: Card = none per cell of b, public
  var marks: list[Card] = [] per cell of b, public
  var hp: int = 5 per cell of b, public
  setup { create Card(name: "Dragon") in hand[0]  create Card(name: "Owl") in table  hp[cell(b, "b1")] = 2 }
  turn { step s {
    action hide { choose c in hand[me] always prompt "which card?" { mark[cell(b, "a1")] = c }  end turn }
    action show { for c in table { marks[cell(b, "c1")] = [c] }  hp[cell(b, "b1")] = 5  end turn }
  } }
  turn limit 4 { finish draw }
}
"""


def test_a_hidden_card_a_list_of_cards_and_a_value_back_to_its_start_are_said_per_cell():
    """A review: a list of cards per cell stopped the terminal (its ids taken for a zone's labels),
    a hidden card set in a cell was not said (None before and after), and a value back to its
    initial one read `→ -`."""
    game = rulelang.Game(rulelang.compile_source(MARKED))
    assert game.new_match(2, seed=1).view(0)["cell_vars"] == {"mark": None, "marks": [], "hp": 5}
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("hide\n1\n\nshow\n\nquit\nn\n"), out, "marked.rules", screen=(100, 40))
    text = out.getvalue()
    assert "internal error" not in text
    assert "  · mark: a1 → a hidden component\n" in text          # P2's screen
    assert "  · marks: c1 → Owl\n" in text and "  · hp: b1 → 5\n" in text


KEEPERS = """
game "Keepers" {
  players 2
  kind Card { name: text  label name }
  board b: squares(2, 1)
  zone table: set, public
  zone pocket: set per player, owner
  var keeper: player = 0 per cell of b, public
  var mark: Card = none per cell of b, public
  setup { create Card(name: "Eel") in table }
  turn { step s {
    action grow { keeper[cell(b, "a1")] = 1  for c in table { mark[cell(b, "b1")] = c }  end turn }
    action cut { keeper[cell(b, "a1")] = 0  end turn }
    action pocket { for c in table { move c to pocket[me] }  end turn }
  } }
  turn limit 6 { finish draw }
}
"""


def test_a_cell_back_to_its_start_says_that_value_in_words_and_a_card_gone_from_sight_is_no_change():
    """A second review: `keeper: a1 → 0` (P1) after `cut`; a card set in a cell then pocketed by
    another player read `mark: b1 → a hidden component`, though the value had not changed."""
    game = rulelang.Game(rulelang.compile_source(KEEPERS))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("grow\n\npocket\n\ncut\n\nquit\nn\n"), out, "k.rules", screen=(100, 40))
    text = out.getvalue()
    assert "  · keeper: a1 → P2\n" in text and "  · mark: b1 → Eel\n" in text
    assert "  · keeper: a1 → P1\n" in text
    assert "mark: b1 → a hidden component" not in text


TRUMPS = """
game "Trumps" {
  players 1
  enum Suit { hearts "♥", spades "♠" }
  var trump: Suit = none
  turn { step s {
    action name { choose x in Suit prompt "name the trump suit" { trump = x }  finish win for me "named " + text(trump) }
  } }
}
"""


def test_a_choice_of_an_enum_value_takes_its_name_as_well_as_its_symbol():
    game = rulelang.Game(rulelang.compile_source(TRUMPS))
    for typed in ("spades", "Spades", "♠"):
        out = io.StringIO()
        run_repl(game, 1, 1, {}, {}, io.StringIO(f"name\n{typed}\nquit\n"), out, "trumps.rules", screen=(100, 40))
        assert "named ♠" in out.getvalue(), (typed, out.getvalue())
    out = io.StringIO()
    run_repl(game, 1, 1, {}, {}, io.StringIO("name\nclubs\nquit\n"), out, "trumps.rules", screen=(100, 40))
    assert "'clubs' is not an answer (the answers: ♥, ♠)" in out.getvalue()


def test_an_action_is_found_by_an_enum_value_name_alone():
    """A new author's trial: `rock` was not found for `throw R` (only `throw rock` was)."""
    source = """
game "Throws" {
  players 1
  enum Hand { rock "R", paper "P", scissors "S" }
  turn { step s { action throw(h in Hand) { finish win for me "threw " + text(h) } } }
}
"""
    game = rulelang.Game(rulelang.compile_source(source))
    for typed in ("rock", "throw rock", "R"):
        out = io.StringIO()
        run_repl(game, 1, 1, {}, {}, io.StringIO(f"{typed}\nquit\n"), out, "throws.rules", screen=(100, 40))
        assert "threw R" in out.getvalue(), (typed, out.getvalue())


def test_an_answer_spelled_amiss_is_met_with_the_answer_meant():
    """At a question, `spdes` is not an answer: did you mean ♠ (spades)? — before, only that it
    was not a legal action or a command (a new author's Love Letter: `Barn` for Baron)."""
    game = rulelang.Game(rulelang.compile_source(TRUMPS))
    out = io.StringIO()
    run_repl(game, 1, 1, {}, {}, io.StringIO("name\nspdes\nhlep\nquit\n"), out, "trumps.rules", screen=(100, 40))
    text = out.getvalue()
    assert "'spdes' is not an answer (did you mean ♠?)" in text, text
    assert "'hlep' is not an answer or a command (did you mean help? type help)" in text, text


def test_log_shows_what_the_setup_said_before_the_first_move():
    source = DICE.replace("setup { for i in 1..2 { create Die(n: i) in tray } }",
                          'setup { for i in 1..2 { create Die(n: i) in tray }  log "the dice are cast" }')
    game = rulelang.Game(rulelang.compile_source(source))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("log\nreroll die 1\nlog\nquit\n"), out, "dice.rules", screen=(100, 40))
    first, second = out.getvalue().split("> log\n")[1:]
    assert first.startswith("  setup:\n       > the dice are cast\nno actions yet\n")
    assert second.startswith("  setup:\n       > the dice are cast\n  1. P1: reroll die 1\n")


def test_several_cards_of_one_pick_may_be_named_in_any_order():
    """`play 3h 3s` is `play 3♠ 3♥` (a first-hour trial's typed plays were refused for the order);
    a move whose order matters (`march d4 d5`) is never read backwards."""
    regicide = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    assert "play 3♠ 3♥" in [a.text for a in regicide.new_match(1, seed=7).legal_actions()]
    for typed in ("play 3h 3s", "play 3♥ 3♠", "play 3s 3h"):
        out = io.StringIO()
        run_repl(regicide, 1, 7, {}, {}, io.StringIO(f"{typed}\nquit\n"), out, "regicide.rules", screen=(100, 40))
        assert "P1 plays: play 3♠ 3♥\n" in out.getvalue(), typed
    valgard = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules"))
    placed = ["place a1", "place a7", "place b1", "place b7", "place c1", "place c7"]
    m = valgard.new_match(2, seed=0)
    for text in placed:
        m.apply(text)
    texts = [a.text for a in m.legal_actions()]
    one = next(t for t in texts if len(t.split()) == 3 and " ".join([t.split()[0]] + t.split()[:0:-1]) not in texts)
    backwards = " ".join([one.split()[0]] + one.split()[:0:-1])
    out = io.StringIO()
    run_repl(valgard, 2, 0, {}, {}, io.StringIO("\n".join(placed + [backwards, "quit"]) + "\n"), out, "valgard.rules",
             screen=(100, 40))
    assert f"'{backwards}' is not a legal action" in out.getvalue()


def test_recap_never_shows_moves_that_were_undone():
    valgard = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules"))
    out = io.StringIO()
    run_repl(valgard, 2, 1, {}, {1: "random"}, io.StringIO("place a1\nrecap\nundo\nrecap\nquit\n\n"), out,
             "valgard.rules", screen=(100, 40))
    before, after = out.getvalue().split("P1> undo\n")
    assert "Since your last move:" in before and "place a1" in before.split("P1> recap")[1]
    assert "P1> recap\nnothing happened since your last move\n" in after
    assert "P1 plays: place a1" not in after.split("P1> recap")[1]


WALKERS = """
game "Walkers" {
  players 1
  kind Card { name: text  strength: int  label name }
  zone pool: pile, public
  zone kept: pile, public
  setup {                                     # (two Walkers told apart by strength: not copies)
    create Card(name: "Walker", strength: 1) in pool
    create Card(name: "Walker", strength: 2) in pool
    create Card(name: "Gnome", strength: 1) in pool
  }
  turn { step s {
    action take { choose xs subset of pool size 2 prompt "take two" { move xs to kept }  finish win }
  } }
}
"""


def test_several_picks_at_once_follow_a_card_whose_name_changes_as_others_are_picked():
    """`1 2` at `Walker, Walker #2, Gnome`: once the first Walker is picked the other is plain
    `Walker` (a first-hour trial got "'Walker #2' cannot be picked after Walker")."""
    game = rulelang.Game(rulelang.compile_source(WALKERS))
    m = game.new_match(1, seed=1)
    m.apply("take")
    assert [a.text for a in m.legal_actions()][:3] == ["Walker", "Walker #2", "Gnome"]
    out = io.StringIO()
    run_repl(game, 1, 1, {}, {}, io.StringIO("take\n1 2\nquit\n"), out, "walkers.rules", screen=(100, 40))
    text = out.getvalue()
    assert "cannot be picked" not in text and "kept: 2 cards: Walker\u00a0×2" in text


def test_a_move_typed_without_some_of_its_words_is_found_when_only_one_fits():
    """`move ash hound e10` was refused (the move is `move f11 Ash Hound e10`) and the error listed
    eight unrelated moves: now the one move that has those words, in order, is played; two that
    fit are not guessed between; and the legal moves sharing the most words are listed first."""
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "dozen_war.rules"))
    drafted = ["Iron Warden", "Stone Breaker", "Shield Mother", "Night Rider", "Storm Lancer", "Ash Hound",
               "Iron Warden", "Shield Mother", "Ash Hound", "Night Rider", "Storm Lancer"]
    out = io.StringIO()
    typed = ["move d11 e11", "move shield e10", "move ash hound e10", "quit"]
    run_repl(game, 2, 5, {}, {}, io.StringIO("\n".join(drafted + typed) + "\n"), out, "dozen_war.rules",
             screen=(200, 50))
    text = out.getvalue()
    assert "ambiguous: 'move d11 e11' could be move d11 Shield Mother e11, move d11 infantry e11\n" in text
    assert "error: 'move shield e10' is not a legal action now (legal: move d11 Shield Mother e11, " in text
    assert "P1 plays: move f11 Ash Hound e10\n" in text


def test_a_move_from_a_cell_no_legal_move_names_says_so_where_the_list_is_cut():
    """A first hour in hot seat typed the other player's unit (`move e9 storm e8`) and read eight of
    their own moves "and 32 more", none from e9, and nothing saying none was; a general banned a
    moment ago, typed at the draft, read only "answer 1-11"."""
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "dozen_war.rules"))
    drafted = ["Iron Warden", "Stone Breaker", "Shield Mother", "Night Rider", "Storm Lancer", "Ash Hound",
               "Iron Warden", "Shield Mother", "Ash Hound", "Night Rider", "Storm Lancer"]
    out = io.StringIO()
    typed = ["move d2 infantry d3", "move d11 infantry d9", "quit"]
    run_repl(game, 2, 5, {}, {}, io.StringIO("\n".join(drafted + typed) + "\n"), out, "dozen_war.rules",
             screen=(400, 50))
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error: 'move")]
    assert errors[0].endswith(" more; none of them names d2, d3)")
    assert errors[1].endswith(" more)")               # (d9 is named by a legal move: nothing to add)
    out = io.StringIO()
    run_repl(game, 2, 5, {}, {}, io.StringIO("Stone Breaker\n\nstone breaker\nStone Breakr\nquit\n"), out,
             "dozen_war.rules", screen=(400, 50))
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error: ")]
    assert errors == ["error: 'stone breaker' is not an answer (Stone Breaker is not one of the answers now; "
                      "answer 1-11; more lists them all)",       # (a near spelling names nothing: a review)
                      "error: 'Stone Breakr' is not an answer (answer 1-11; more lists them all)"]


MULL = """
game "Mull" {
  players 1
  kind Card { n: text  label n }
  zone deck: pile, hidden
  zone hand: set per player, owner
  setup { for x in ["A", "B", "C", "D", "E"] { create Card(n: x) in deck }  shuffle deck
          repeat 3 { move top(deck) to hand[0] } }
  turn { step s {
    action mull { move hand[me] to deck  shuffle deck  repeat 3 { move top(deck) to hand[me] }  end turn }
    action stop { finish win }
  } }
}
"""


def test_a_hand_shuffled_into_the_deck_and_drawn_again_says_where_each_card_went():
    """A card that went back into the deck was "gone from hand", one drawn out of it "new in hand"
    (Smash Up's Winds of Change in a first-hour trial): the deck's count was the same before and after."""
    game = rulelang.Game(rulelang.compile_source(MULL))
    out = io.StringIO()
    run_repl(game, 1, 3, {}, {}, io.StringIO("mull\nquit\n"), out, "mull.rules", screen=(100, 40))
    text = out.getvalue()
    assert "  hand (P1): 3 cards: B, E, D\n" in text and "  hand (P1): 3 cards: D, A, B\n" in text
    assert "  · E: hand (P1) → deck, face down\n  · A: deck → hand (P1)\n" in text
    assert "gone from" not in text and "new in" not in text


TIED = """
game "Tied" {
  players 2 ranked by score[me] then gold[me]
  var score: int = 3 per player
  var gold: int = 0 per player
  turn { step s {
    action dig { gold[me] += 2  end turn }
    action stop { finish by score "the last round is over" }
  } }
}
"""


def test_a_win_on_an_equal_score_says_the_tie_break_that_decided_it():
    """`P1: win, score 3` beside `P2: lose, score 3` read as a bug to a new author: where scores tie,
    the tie-breaks are said."""
    game = rulelang.Game(rulelang.compile_source(TIED))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("dig\nstop\n"), out, "tied.rules", screen=(100, 40))
    text = out.getvalue()
    assert "  P1 (human): win, score 3, then 2\n  P2 (human): lose, score 3, then 0\n" in text
    m = game.new_match(2, seed=1)
    assert m.scores() == [3, 3] and m.scores(tie_breaks=True) == [[3, 0], [3, 0]]


CLEANUP = """
game "Cleanup" {
  players 2
  kind Card { n: text  label n }
  zone deck: pile per player, hidden
  zone hand: set per player, owner
  zone inplay: set per player, public
  zone discard: pile per player, public, top
  setup { for p in players { for x in ["Copper", "Copper", "Copper", "Estate", "Estate", "Copper", "Copper",
                                        "Estate", "Copper", "Copper", "Estate", "Copper", "Copper", "Copper",
                                        "Estate"] { create Card(n: x) in deck[p] }
                             repeat 5 { move top(deck[p]) to hand[p] } } }
  turn { step s {
    action play(c in hand[me]) { move c to inplay[me] }
    action cleanup { move inplay[me] to discard[me]  move hand[me] to discard[me]
                     repeat 5 { move top(deck[me]) to hand[me] }  if size(deck[me]) == 0 { finish draw }  end turn }
  } }
}
"""


def test_a_card_from_the_table_put_under_an_empty_discard_pile_is_said_to_go_there():
    """`Copper: inplay (P2) → hand (P2), face down` told a player a public card went into a hidden
    hand (a new author's deck-builder): the discard pile was empty before, so it was not known to
    be one shown by its top, and the card covered there was taken for one gone elsewhere."""
    game = rulelang.Game(rulelang.compile_source(CLEANUP))
    m = game.new_match(2, seed=1)
    out = io.StringIO()
    assert "play Copper" in [a.text for a in m.legal_actions()]
    run_repl(game, 2, 1, {}, {}, io.StringIO("cleanup\n\nplay Copper\ncleanup\n\nquit\n"), out, "cleanup.rules",
             screen=(100, 40))
    seen_by_p1 = out.getvalue().split("P2 plays: cleanup")[1]
    assert "  · Copper: inplay (P2) → discard (P2)\n" in seen_by_p1
    assert "face down" not in seen_by_p1.split("==")[0]


REGATHER = """
game "Regather" {
  players 2
  kind Card { n: int  label "card " + text(n) }
  zone deck: pile, hidden
  zone mine: pile, public
  zone hand: set per player, owner
  setup { for i in 1..6 { create Card(n: i) in deck }  move top(deck) to mine }
  turn { step act {
    action regather require size(mine) > 0 { move mine to bottom of deck  move top(deck, 2) to hand[next(me)]  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_card_put_into_a_deck_that_then_deals_to_a_hand_is_not_said_to_be_in_the_hand():
    """`card 6: mine → hand (P2), face down` (a new author's Love Letter): card 6 went under the deck
    and P2 was dealt the two top cards. Where it went is not known to P1: the hand or the deck."""
    game = rulelang.Game(rulelang.compile_source(REGATHER))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("regather\n\nquit\n"), out, "regather.rules", screen=(100, 40))
    said = out.getvalue().split("P1 plays: regather")[1].split("====")[0]
    assert "  · card 6: mine → hand (P2) / deck, face down\n" in said
    assert "  · 1 card left deck\n  · 2 cards added to hand (P2)\n" in said
    m = game.new_match(2, seed=1)
    m.apply("regather")
    assert m.state()["zones"]["hand"][1] == [4, 3]            # (ids: cards 5 and 4; card 6 is id 5)


ORDER = """
game "Order" {
  players 3
  var order: list[player] = []
  var firsts: list[player] = [] per player
  setup { order = [2, 0, 1]  firsts[0] = [1, 2] }
  turn { step s { action go { finish draw } } }
}
"""


def test_a_list_of_players_is_said_by_their_names():
    """`order: 1, 0` showed seat numbers where a single player reads `P2` (a new author's turn order)."""
    game = rulelang.Game(rulelang.compile_source(ORDER))
    values = {v["name"]: v for v in game.new_match(3).view(0)["values"]}
    assert values["order"]["value"] == [2, 0, 1] and values["order"]["text"] == "P3, P1, P2"
    assert values["firsts"]["texts"] == ["P2, P3", "empty", "empty"]
    out = io.StringIO()
    run_repl(game, 3, 1, {}, {}, io.StringIO("quit\n"), out, "order.rules", screen=(100, 40))
    assert "  order: P3, P1, P2\n" in out.getvalue() and "  firsts: P1 (P2, P3), P2 empty, P3 empty\n" in out.getvalue()


PICK = """
game "Pick" {
  players 1
  kind Card { rank: int  label text(rank) }
  zone deck: pile
  zone hand: set per player
  setup { for r in 1..6 { create Card(rank: r) in deck } }
  turn { step act { action take { choose xs subset of deck size 0..4 { move xs to hand[me] }  finish draw } } }
}
"""


def test_several_picks_with_a_number_of_thousands_of_digits_is_an_error_and_the_game_goes_on():
    """A fuzzer: `1 ` and a 5,000-digit number at a pick-several question ended the session
    (Python refuses to read such a number): the match was lost. Now an error; the next line counts."""
    game = rulelang.Game(rulelang.compile_source(PICK))
    out = io.StringIO()
    run_repl(game, 1, 1, {}, {}, io.StringIO("take\n1 " + "9" * 5000 + "\n1 2\ndone\nquit\n"), out, "pick.rules",
             screen=(100, 40))
    text = out.getvalue()
    assert "error: there is no choice 999999999999…; choose 1-" in text
    assert "Game over" in text and "Traceback" not in text


def test_a_card_typed_alone_is_the_action_that_plays_just_that_card():
    """A first hour at Regicide: `ac` and `7c` were "ambiguous: 'ac' could be play A♣, play 3♥ A♣, …"
    though one action is exactly that card (only `play ac` worked), at almost every turn with an A."""
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    assert "play A♣" in [a.text for a in game.new_match(1, seed=10).legal_actions()]
    out = io.StringIO()
    run_repl(game, 1, 10, {}, {}, io.StringIO("ac\nquit\n\n"), out, "regicide.rules", screen=(120, 40))
    text = out.getvalue()
    assert "P1 plays: play A♣\n" in text and "ambiguous" not in text


def test_look_finds_a_card_by_a_later_word_of_its_name():
    """A first hour at Smash Up: `look library`, `look great library` and `look piper` said "did you
    mean: The Great Library" — only the start of a name worked, while actions took any word."""
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "smash_up.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("look great library\nlook piper\nquit\n\n"), out,
             "smash_up.rules", screen=(120, 40))
    text = out.getvalue()
    assert "no card or piece named" not in text
    assert "The Great Library (base)" in text and "Pay the Piper" in text


SHOWN_AS = """game "Shown as" {
  players 2
  board g: squares(3, 1)
  var n: int = 0
  turn { step s {
    action go(c in cells(g)) as text(c) + "-z" require n < 2 else "only two moves in a game" { n += 1  end turn }
    action stop { finish draw "stopped" }
  } }
}
"""


def test_a_move_typed_as_shown_when_none_of_its_kind_is_allowed_gets_the_rules_reason():
    """`c1-z` names no action (`go` is shown by its `as` text): when no `go` is allowed at all, the
    rules' reason for it is said (a new author's Checkers: `e3-f4` while a capture is due got only
    "not a legal action or a command")."""
    game = rulelang.Game(rulelang.compile_source(SHOWN_AS))
    m = game.new_match(2, 1)
    assert m.refusals_now() == []                          # (go is allowed: no reason to give)
    m.apply("a1-z"), m.apply("b1-z")
    assert m.refusals_now() == [("go", "only two moves in a game")]
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("a1-z\n\nb1-z\n\nc1-z\nquit\n"), out, "shown.rules", screen=(100, 40))
    assert "error: 'c1-z' is not a legal action now (no go now: only two moves in a game)" in out.getvalue()


REFUSE = """
game "Refuse" {
  players 2
  kind Card { rank: int  label "card " + text(rank) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone pile: pile, public
  var done: int = 0, public
  setup {
    for r in 1..9 { create Card(rank: r) in deck }
    shuffle deck
    for p in players { move top(deck, 2) to hand[p] }
  }
  anytime action wave { log text(me) + " waves" }
  turn {
    step act {
      action play(c in hand[me]) { move c to pile  done += 1  if done >= 4 { finish draw }  end turn }
      action fold require false else "you cannot fold while holding " + text([c.rank for c in hand[me]]) { end turn }
    }
  }
}
"""


def test_a_player_out_of_turn_is_not_told_the_reason_worded_for_the_player_to_act():
    """A leak trial: P2, typing `fold` out of turn, read "you cannot fold while holding 4 3" — the
    rules' reason for P1, the player to act, naming P1's hidden hand."""
    game = rulelang.Game(rulelang.compile_source(REFUSE))
    m = game.new_match(2, seed=3)
    held = " ".join(m.labels[c].split()[1] for c in m.state()["zones"]["hand"][0])
    out = io.StringIO()
    run_repl(game, 2, 3, {}, {}, io.StringIO("as P2\n\nfold\nback\n\nfold\nquit\n"), out, "refuse.rules",
             screen=(100, 40))
    text = out.getvalue()
    out_of_turn = text.split("P2 (out of turn)> fold\n")[1].split("\n")[0]
    assert "not a legal action" in out_of_turn and "holding" not in out_of_turn
    assert f"you cannot fold while holding {held}" in text.split("P1> fold\n")[1]     # P1 is told, at P1's turn


def test_help_of_a_word_only_the_start_of_a_name_is_not_that_name_and_a_bad_move_lists_the_legal(game):
    """A first-hour trial: `help ban` at Dozen War's ban question showed the event card Bandits;
    `help` takes a name in full (`look` still takes its start). A new author's `e3-f4`, typed
    where no action has that shape, now lists the few legal ones."""
    out = play(game, ["help gl", "help Glow", "zz9", "quit game"], screen=(200, 40))
    assert "P1> help gl\nerror: no action `gl`" in out and "names with rules text like it: Glow" in out
    assert "P1> help Glow\nGlow (spell)" in out
    assert ("'zz9' is not a legal action or a command (legal now: cast Hex, show secret, quit game; type help)"
            in out)


def test_an_action_of_no_parameters_typed_with_more_words_is_not_given_the_rules_reason():
    """A terminal trial: Bob typed `reveal extra words` and read "(legal: reveal); when it is not
    allowed, the rules say: your character does not reveal at will" — while `reveal` was legal."""
    src = PICKY.replace("action play(c in hand[me])",
                        'action knock require true else "knocking is closed" { finish draw }\n    action play(c in hand[me])')
    game = rulelang.Game(rulelang.compile_source(src, "picky.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("knock twice\nquit\n"), out, "picky.rules", screen=(200, 40))
    assert "error: 'knock twice' is not a legal action now (legal: knock)\n" in out.getvalue()


def test_the_start_of_each_word_names_an_action(capsys, monkeypatch):
    """A first hour: `play gno on temp` was refused for `play Gnome on Temple of Goju`, while `play
    gnome on temp` was taken: each word typed may be the start of the action's word in its place."""
    import io
    import sys
    from rulelang.cli import main
    regicide = str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules")
    monkeypatch.setattr(sys, "stdin", io.StringIO("pl 3 3\nquit\n"))
    main(["play", regicide, "--seed", "0"])
    out = capsys.readouterr().out
    assert "P1 plays: play 3♣ 3♠" in out                      # (the hand holds 3♣ and 3♠, one pair of 3s)
    monkeypatch.setattr(sys, "stdin", io.StringIO("play 9 3\nquit\n"))
    main(["play", regicide, "--seed", "0"])
    assert "not a legal action now" in capsys.readouterr().out      # (9♥ 3♣ adds to 12: no such play)


def test_a_newcomers_words_lead_to_the_command_that_answers_them():
    """A first hour at the terminal: `score`, `whose turn`, `who am i` read "not a legal action or a
    command", `move c1 c2` in Valgarð "did you mean more?" (its moves are march, place…), and `more
    attack` — the screen's own hint — with no attack possible read "not a legal action"."""
    def said(name: str, players: int, lines: list[str], bots: dict) -> str:
        out = io.StringIO()
        game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / f"{name}.rules"))
        run_repl(game, players, 3, {}, bots, io.StringIO("\n".join(lines) + "\nquit\n\n"), out, f"{name}.rules")
        return out.getvalue()
    out = said("valgard", 2, ["score", "whose turn", "who am i", "move c1 c2"], {1: "random"})
    for typed in ("score", "whose turn", "who am i"):
        assert f"'{typed}' is not a legal action or a command (type status: the scores, whose turn it is" in out
    assert "'move c1 c2' is not a legal action (the rules' moves: charge, deploy, march, place, rally, rune" in out
    out = said("dozen_war", 2, ["1"] * 7 + ["more attack"], {1: "greedy"})
    assert "no attack is possible now (more: every choice)" in out
    out = said("smash_up", 2, ["keep", "more xyz"], {1: "random"})     # (read "did you mean more?")
    assert "error: no kind of choice is named xyz; type more for every choice, or more and one of: " in out


def test_look_at_a_zone_reads_the_cards_one_sees_there():
    """A first hour at the terminal: `look hand` in Smash Up showed the card Lend a Hand, which was
    not in the hand. A zone's name reads each card the seat sees there; another's hidden hand says
    so; a card's own name still reads that card."""
    out = io.StringIO()
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "smash_up.rules"))
    run_repl(game, 2, 3, {}, {1: "random"}, io.StringIO("keep\nlook hand\nlook hand p2\nlook lend a hand\nquit\n\n"),
             out, "smash_up.rules")
    text = out.getvalue()
    m = game.new_match(2, 3)
    hand = list(dict.fromkeys(m.labels[c] for c in m.Z[[z["name"] for z in game.zones].index("hand")][0]))
    mine = text[text.index("P1> look hand\n"):text.index("P1> look hand p2")]
    assert mine.startswith(f"P1> look hand\nhand (P1): {len(m.Z[[z['name'] for z in game.zones].index('hand')][0])} cards\n")
    assert "Lend a Hand" not in mine
    assert [re.sub(r"\s×\d+$", "", line[2:].split(" (")[0]) for line in mine.split("\n")
            if line.startswith("  ") and not line.startswith("    ")] == hand
    assert "P1> look hand p2\nhand (P2): 5 cards, hidden\n" in text
    assert "P1> look lend a hand\nLend a Hand (card)\n  Action (1 copy)." in text


def test_look_at_a_board_cell_says_what_lies_there_and_what_it_is():
    """A first hour at the terminal: `look c5` in Valgarð read "no card or piece named 'c5'"."""
    out = io.StringIO()
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules"))
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("place a1\nlook a1\nlook c5\nlook zz9\nquit\n\n"), out,
             "valgard.rules", screen=(100, 40))
    text = out.getvalue()
    at = text[text.index("P1> look a1\n"):text.index("P1> look c5")]
    assert at.startswith("P1> look a1\na1: stack: L\n  the board's key: L, D: a warrior of light (P1)"), at
    assert "  L: A warrior of light (P1), from row 1." in at
    assert "P1> look c5\nc5: empty\n" in text
    assert "P1> look zz9\nerror: no card or piece named 'zz9'" in text
    state = game.new_match(2, seed=1).state()             # (dead land read `dead: True`: a trial)
    state["vars"]["dead"][[str(c) for c in game.geometry.names].index("c5")] = True
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("look c5\nquit\n\n"), out, "valgard.rules",
             screen=(100, 40), match=rulelang.Match.from_state(game, state))
    # (what the board draws there and its key's words: a first hour's `look f6` in Dozen War read
    # "mount: yes", never the `^` on the map nor "a mountain")
    # (and the rules' words for the variable: `about var dead "…"`)
    assert " ".join(("P1> look c5\nc5: on the board: x; dead (dead land, beside a rune: nobody may enter it for the "
                     "rest of the game): yes\n  the board's key: x: dead land\n").split()) in " ".join(out.getvalue().split())


def test_the_starts_of_some_of_a_moves_words_name_it_when_only_one_move_has_them():
    """A first hour at the terminal mixed the two shortcuts: `move nig g8` (a start, a word left
    out) and `nig g8` for `move f11 Night Rider g8` were not moves; they are, when one move only
    has those starts in that order. Ambiguous starts still play nothing."""
    out = io.StringIO()
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "dozen_war.rules"))
    run_repl(game, 2, 3, {}, {1: "greedy"}, io.StringIO("1\n" * 7 + "move nig\nnig g8\nquit\n\n"), out,
             "dozen_war.rules")
    text = out.getvalue()
    assert "P1> nig g8\nP1 plays: move f11 Night Rider g8\n" in text
    assert "P1> move nig\nambiguous: 'move nig' could be move f11 Night Rider g11, " in text   # (to which cell?)


def test_help_with_a_choices_number_explains_its_action():
    """A first hour at the terminal: `help 3` read "no action `3`"; it is choice 3's action."""
    out = io.StringIO()
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    run_repl(game, 1, 3, {}, {}, io.StringIO("help 1\nhelp 99\nquit\n"), out, "regicide.rules")
    text = out.getvalue()
    assert "P1> help 1\nplay CARDS (at step play)\n" in text
    assert "P1> help 99\nerror: there is no choice 99; the choices are 1-17" in text     # (said so since stop 53)


ROOT = Path(__file__).resolve().parents[1]


def test_help_shows_how_to_type_with_this_games_own_choices():
    """A first hour: every game's `help` gave examples from other games (`outbreak` for `act
    Outbreak`, `play gno on temp`); they are taken from the choices offered now, and each works."""
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(game, 1, 4, {}, {}, io.StringIO("help\n6c\nquit\n"), out, "regicide.rules")
    text = out.getvalue()
    helped = text[text.index("P1> help"):text.index("Commands:")]
    assert "(any case: `6c` for `play 6♣`)" in " ".join(helped.split()) and "outbreak" not in helped
    assert "P1 plays: play 6♣" in text


def test_help_or_look_with_a_number_at_a_question_reads_that_option_whole():
    """A first hour: at Dozen War's draft each general's text is cut short, and `help 1` said "no
    action `1`; the actions are: attack, …" (none playable then). `help N` and `look N` at a
    question read option N whole."""
    game = rulelang.load(str(ROOT / "games" / "dozen_war.rules"))
    out = io.StringIO()
    run_repl(game, 2, 4, {}, {1: "random"}, io.StringIO("help 1\nlook 3\nquit\n"), out, "dozen_war.rules")
    text = out.getvalue()
    first = text[text.index("P1> help 1"):text.index("P1> look 3")]
    third = text[text.index("P1> look 3"):]
    assert "no action" not in first and "Iron Warden (unit)" in first and "for 4 coins (revive)" in " ".join(first.split())
    assert "Night Rider (unit)" in third and "Cavalry general" in third


def test_a_card_no_choice_has_is_said_not_the_rules_reason_for_a_combination():
    """A first hour: `play 5s` with no 5♠ in hand read the rules' reason for a wrong combination
    ("one card, an Ace with one other card, …"), word for word as for `play 4h 4s 4c`, and the
    legal plays came in hand order though the README says nearest first."""
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(game, 1, 4, {}, {}, io.StringIO("play 5s\nplay 4h 4s 4c\nquit\n"), out, "regicide.rules")
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error: ")]
    assert errors[0].startswith("error: 'play 5s' is not a legal action now (legal: play 6♠, play 5♦, ")
    assert errors[0].endswith("; no play choice has 5♠") and "the rules say" not in errors[0]
    assert "the rules say: one card, an Ace with one other card" in errors[1]


def test_look_at_a_zone_the_rules_show_by_a_line_of_their_own():
    """A fuzz trial: Smash Up's discard piles are `internal` (the screen's `Discard piles: …` line
    lists them), and `look discard` read "no card or piece named 'discard' has rules text"."""
    game = rulelang.load(str(ROOT / "games" / "smash_up.rules"))
    out = io.StringIO()
    moves = "1\n" * 12
    run_repl(game, 2, 4, {}, {1: "random"}, io.StringIO(moves + "look discard p2\nquit\n"), out, "smash_up.rules")
    text = out.getvalue()
    after = text[text.index("P1> look discard p2"):]
    assert after.startswith("P1> look discard p2\ndiscard (P2):") and "no card or piece named" not in after


def test_help_with_a_number_past_the_choices_says_so():
    """A fuzz trial: `help 3` with two choices read "no action `3`; the actions are: …" and "names
    with rules text like it: Factory 436-1337"."""
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(game, 1, 4, {}, {}, io.StringIO("help 40\nquit\n"), out, "regicide.rules")
    assert "error: there is no choice 40; the choices are 1-12" in out.getvalue()


def test_help_with_a_number_and_full_is_that_choices_action_as_written():
    """A first hour at the terminal: `help 1` worked, `help 1 full` read "no action `1`", though the
    help text offers both `help 3` and `help play full`."""
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(game, 1, 4, {}, {}, io.StringIO("help 1 full\nquit\n"), out, str(ROOT / "games" / "regicide.rules"))
    text = out.getvalue().split("P1> help 1 full\n")[1]
    assert text.startswith("play CARDS") and "for rule authors, as the rules write it: play(" in text
    assert "no action" not in text.split("P1>")[0]

def test_cards_that_read_alike_are_said_once_with_how_many():
    # a new author's supply pile read "Copper, Copper, …" 46 times
    from rulelang.play.render import render_zone
    cards = [{"id": i, "label": label} for i, label in enumerate(["Copper", "Estate", "Copper", "Copper"])]
    zone = {"name": "supply", "owner": None, "visibility": "public", "count": 4, "kind": "Card", "cards": cards}
    # (a no-break space before the count: a line is never wrapped between a name and its count)
    # (a set keeps its order too, as it shows it: a new author's Hanabi hand, its clues by place,
    # read `B4, Y1 ×2, B1, W3` for B4, Y1, B1, W3, Y1)
    assert render_zone(dict(zone, ordered=False)) == "supply: 4 cards: Copper, Estate, Copper\u00a0×2"
    # (a pile keeps its order: runs of alike cards)
    assert render_zone(dict(zone, ordered=True)) == "supply: 4 cards, bottom to top: Copper, Estate, Copper\u00a0×2"
    # (all alike: no order to tell — Valgarð's `reserve: 11 warriors, bottom to top: L ×11`, a trial)
    alike = [dict(card, label="Copper") for card in cards]
    assert render_zone(dict(zone, ordered=True, cards=alike)) == "supply: 4 cards: Copper\u00a0×4"


def test_look_at_a_hidden_zone_says_what_is_known_of_it_as_the_table_does():
    """A first hour at the terminal: the table read `deck (P1): 26 cards, hidden, revealed: Warbot`,
    `look deck` only `26 cards, hidden`."""
    game = rulelang.Game(rulelang.compile_source("""
game "Peek" {
  players 2
  kind Card { n: int  label "card " + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  setup { for i in 1..4 { create Card(n: i) in deck } }
  turn { step s {
    action show { reveal top(deck) }
    action stop { finish draw }
  } }
}
""", "peek.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("show\nlook deck\nquit\nn\n"), out, "peek.rules")
    looked = out.getvalue().split("P1> look deck\n")[1]
    assert looked.startswith("deck: 4 cards, hidden, revealed: card 4\n"), looked


def test_the_last_pick_of_a_question_picked_one_at_a_time_says_the_choice_is_made():
    """A first hour at the terminal: the one pick a question allowed closed it by itself, and the
    `done` typed next was taken as the next move — it ended the player's turn."""
    game = rulelang.Game(rulelang.compile_source("""
game "Pick" {
  players 2
  kind Card { n: int  label "card " + text(n) }
  zone hand: set per player, owner
  zone table: set, public
  setup { for i in 1..3 { create Card(n: i) in hand[first(players)] } }
  turn { step s {
    action go { choose xs subset of hand[me] size 0..1 prompt "pick one" { move xs to table } }
    action stop { finish draw }
  } }
}
""", "pick.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("go\ncard 1\nquit\nn\n"), out, "pick.rules")
    after = out.getvalue().split("P1> card 1\n")[1]
    assert "(that was the last pick: the choice is made)" in after.split("\n==")[0], after


def test_a_count_of_alike_cards_is_never_wrapped_onto_a_line_of_its_own():
    """A fuzzer's: at 80 columns a line wrapped between `Guardian Angel` and its `×2`, which stood
    alone on the next line (83 times in one Shadow Hunters game)."""
    from rulelang.play.render import _wrapped, render_zone
    labels = ["Holy Water of Healing"] * 2 + ["Fortune Brooch"] + ["Silver Rosary"] * 2 + ["Talisman"] * 2
    zone = {"name": "white discard", "owner": None, "visibility": "public", "count": len(labels), "kind": "Card",
            "ordered": True, "cards": [{"id": i, "label": x} for i, x in enumerate(labels)]}
    for width in range(30, 90):
        assert not any(x.strip().startswith("×") for x in _wrapped("  " + render_zone(zone), width)), width


def test_look_at_a_name_spelled_amiss_offers_the_name_meant():
    """Stop 54's first hour: `look canon` read "no card or piece named 'canon' has rules text; look
    at a name on screen" though Cannon is a card of the game; a name is offered by its spelling too,
    whole or by one of its words, and nothing when no name is near."""
    game = rulelang.load(str(ROOT / "games" / "smash_up.rules"))
    out = io.StringIO()
    run_repl(game, 2, 3, {}, {}, io.StringIO("look canon\nlook pirat king\nlook kign\nlook xyzzy\nquit\n"), out,
             "smash_up.rules")
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error: ")]
    assert errors[0] == "error: no card or piece named 'canon' has rules text; did you mean: Cannon"
    assert errors[1] == "error: no card or piece named 'pirat king' has rules text; did you mean: Pirate King"
    assert "Pirate King" in errors[2] and "King" in errors[2]
    assert errors[3].endswith("look at a name on screen (Tab completes)")


def test_look_at_a_zone_counts_its_cards_by_their_kind_as_the_table_does():
    # a first hour at the terminal: `look character` read "character (P1): 1 cards"
    game = rulelang.load(str(ROOT / "games" / "shadow_hunters.rules"))
    out = io.StringIO()
    run_repl(game, 4, 21, {}, {1: "random", 2: "random", 3: "random"}, io.StringIO("look character\nquit\n"), out,
             "shadow_hunters.rules")
    assert "P1> look character\ncharacter (P1): 1 character\n" in out.getvalue()


def test_look_at_a_long_name_echoes_it_cut_short():
    # a first hour at the terminal: `look` of a 2,700-character name repeated it whole in the error
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(game, 1, 4, {}, {}, io.StringIO("look " + "x" * 2700 + "\nquit\n"), out, "regicide.rules")
    error = next(line for line in out.getvalue().splitlines() if line.startswith("error: no card"))
    assert len(error) < 200 and "x" * 57 + "..." in error


def test_done_before_enough_picks_says_to_pick_more():
    """A new author's Ticket to Ride: `done` typed before the 2 tickets a player must keep read
    "'done' is not an answer (the answers: …)", with no word of why."""
    source = """
game "Keep" {
  players 1
  var kept: list[int] = []
  turn { step s { action keep {
    choose xs subset of [1, 2, 3] size 2..3 prompt "keep which?" { kept = xs }
    finish draw
  } } }
}
"""
    game = rulelang.Game(rulelang.compile_source(source, "keep.rules"))
    out = io.StringIO()
    # (`=2`: the answer 2 — `2` alone is also the list's second answer, `3`, and is refused as ambiguous)
    run_repl(game, 1, 1, {}, {}, io.StringIO("keep\ndone\n1\ndone\n=2\ndone\n"), out, None)
    text = out.getvalue()
    assert text.count("'done' is not an answer yet: pick more first") == 2
    assert "Game over" in text


def test_a_number_out_of_reach_lists_the_nearest_numbers_first():
    """A new author's auction: `bid 30` with 29 coins listed `bid 0, bid 1, bid 2 … and 22 more`."""
    source = """game "Bids" {
  players 2
  turn { step s { action bid(n in 0..29) { finish draw } } }
}"""
    g = rulelang.Game(rulelang.compile_source(source, "bids.rules"))
    out = io.StringIO()
    run_repl(g, 2, 1, {}, {}, io.StringIO("bid 30\nquit\n"), out, "bids.rules", screen=(120, 40))
    assert "error: 'bid 30' is not a legal action now (legal: bid 29, bid 28, bid 27," in out.getvalue()


def test_a_number_out_of_range_at_a_question_is_no_answer():
    """A first hour: typing 99 at a question said "there is no action 99"."""
    source = """game "Ask" {
  players 2
  turn { step s { action go { choose n in [1, 2, 3] { finish draw } } } }
}"""
    g = rulelang.Game(rulelang.compile_source(source, "ask.rules"))
    out = io.StringIO()
    run_repl(g, 2, 1, {}, {}, io.StringIO("go\n99\nquit\n"), out, "ask.rules", screen=(120, 40))
    assert "error: there is no answer 99; choose 1-3" in out.getvalue()


TRADES = """
game "Trades" {
  players 1
  var points: int = 0
  turn { step s {
    action trade { choose n in 0..2 prompt "how many times to trade?" { points += n  finish win } }
  } }
}
"""


@pytest.mark.parametrize("typed,said,points", [
    ("0", None, 0), ("3", None, 2), ("=2", None, 2), ("=1", None, 1), ("#2", None, 1), ("#3", None, 2),
    ("2", "error: 2 is ambiguous here: the answer 2, or number 2 in the list (1); type =2 for the answer, "
          "#2 for 1", None),
    ("#4", "error: there is no number 4 in the list; choose #1-#3", None),
    ("=5", "error: no answer is exactly 5", None)])
def test_answers_that_are_numbers_are_not_taken_for_their_places_in_the_list(typed, said, points):
    """A new author's `choose n in 0..2`, listed `1. 0 · 2. 1 · 3. 2`: typing 2 (trades) answered 1,
    and 0 was "no answer 0"."""
    game = rulelang.Game(rulelang.compile_source(TRADES, "trades.rules"))
    out = io.StringIO()
    run_repl(game, 1, 1, {}, {}, io.StringIO(f"trade\n{typed}\nquit\n"), out, "trades.rules")
    text = out.getvalue()
    if said is not None:
        assert said in text, text
        assert "P1 chooses" not in text
    else:
        assert f"P1 chooses: {points} (asked: how many times to trade?)" in text, text


def test_a_long_word_typed_is_cut_short_in_its_error(game, tmp_path):
    """A fuzzer's trial: `help`, `load` and `save` of a 5,000-character word repeated it whole in one
    error line (`look` already cut it short)."""
    long = "x" * 5000
    out = play(game, [f"help {long}", f"load {tmp_path / long}", f"save {tmp_path / long}", "quit"])
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(errors) == 3 and all(len(line) < 400 for line in errors), [len(x) for x in errors]
    assert errors[0].startswith("error: no action `xxx") and "...`" in errors[0]
    assert errors[1].startswith("error: cannot load ") and errors[2].startswith("error: cannot save ")


def test_a_long_value_that_changes_is_still_said():
    """A new author's Stratego: `Captured from P1` was said while short, then nothing once its text
    reached 60 characters (the change line was dropped). Grown at its end, what came into it is said
    (a new author's Resistance read `Missions: now M1 succeeded …, M2 failed …` for one mission more)."""
    game = rulelang.Game(rulelang.compile_source("""
game "Long" {
  players 1
  var taken: list[text] = ["a marshal who fell at d4", "a captain who fell at e5"], public
  turn { step s {
    action take { append "a sergeant who fell at f6" to taken  end turn }
    action grow { taken = taken + taken + taken  end turn }
    action stop { finish draw "done" }
  } }
}
"""))
    out = io.StringIO()
    run_repl(game, 1, 1, {}, {}, io.StringIO("take\ngrow\nstop\n"), out, "long.rules", screen=(100, 40))
    text = out.getvalue()
    assert "  · taken: + a sergeant who fell at f6\n" in text
    # (its whole list, longer still: what came into it — a first hour's Smash Up discard piles)
    assert ("  · taken: + a marshal who fell at d4, a captain who fell at e5, a sergeant who fell at f6, a "
            "marshal who fell at d4, a captain who fell at e5, a sergeant who fell at f6\n") in text.replace("a\n    ", "a ")


def test_a_long_list_per_player_says_what_came_and_went():
    """A first hour at Smash Up: the `Discard piles` line, past 120 characters, said nothing of the
    minions a scoring discarded (that pile is off the screen's zones: no other line said it)."""
    from rulelang.play.screen import _change
    was = ("P1 (7): Walker, Saucy Wench, Broadside, Invader, Neophyte, Summon, Mystic Studies · P2 (4): "
           "Broadside, Zapbot, Microbot Guard, Hoverbot")
    now = ("P1 (9): Walker, Saucy Wench, Broadside, Invader, Neophyte, Summon, Mystic Studies, Grave Digger, "
           "Walker · P2 (3): Broadside, Microbot Guard, Hoverbot")
    assert _change(was, now) == "P1 (9): + Grave Digger, Walker · P2 (3): - Zapbot"
    assert _change(was, was.replace("P2 (3)", "P2 (4)") + ", " + "x" * 200) == ""     # (still too long)
    cards = [f"card {i}" for i in range(30)]          # (a fuzz trial: wrong words where they could not be right)
    assert _change(cards, cards + ["new"]) == "+ new"
    assert _change(cards, list(reversed(cards))) == ""                       # (an order: nothing came or went)
    assert _change(["Jack, the Ripper"] + cards, ["the Ripper"] + cards) == ""   # (items the commas cannot part)
    assert _change([[1, 2], [3, 4]] * 20, [[1, 2]] * 20) == ""


def test_a_long_value_s_items_are_parted_outside_brackets():
    """A first hour at Shadow Hunters: a death read `P4: + dead, was Unknown (Shadow - Unknown
    (Shadow, 7 damage` — the items were parted at the commas inside the brackets. A part that kept
    none of its items is said as it is now; brackets that do not close say nothing."""
    from rulelang.play.screen import _change
    was = ("P1 (you): George (Hunter, revealed, ability used) · P2: hidden, 3 damage · P3: Emi (Hunter, "
           "revealed), 2 damage · P4: Unknown (Shadow, 7 damage) · P5: hidden")
    now = ("P1 (you): dead, was George (Hunter, revealed, ability used) · P2: hidden, 3 damage · P3: Emi (Hunter, "
           "revealed), 2 damage · P4: dead, was Unknown (Shadow, 7 damage) · P5: hidden, 1 damage")
    assert _change(was, now) == ("P1 (you): dead, was George (Hunter, revealed, ability used) · P4: dead, was "
                                 "Unknown (Shadow, 7 damage) · P5: + 1 damage")
    assert _change(was.replace("P5: hidden", "P5: hidden (" + "x" * 80), now) == ""
    # one item become another: `2 damage → 5 damage` (`+ 5 damage - 2 damage` read as a sum, and a
    # reveal as `+ Unknown (Shadow, 11 HP) - hidden` — a first hour)
    assert _change(now, now.replace("P2: hidden, 3 damage", "P2: hidden, 5 damage")) == "P2: 3 damage → 5 damage"
    assert _change(now, now.replace("P5: hidden", "P5: Unknown (Shadow, 11 HP)")) == \
        "P5: hidden → Unknown (Shadow, 11 HP)"


def test_a_value_from_or_to_nothing_is_said_in_words():
    """A new author's Resistance read `Missions:  → M1 succeeded (0 fail)`: an empty value has no
    words of its own."""
    from rulelang.play.screen import _change
    assert _change("", "M1 succeeded (0 fail)") == "now M1 succeeded (0 fail)"
    assert _change("M1 succeeded (0 fail)", "") == "M1 succeeded (0 fail) → none"
    assert _change(3, 5) == "3 → 5"


def test_a_message_naming_a_list_value_does_not_hide_the_items_it_adds():
    """A first hour at Smash Up: after "the cards left on The Mothership go to their owners' discard
    piles" no line said which cards (the message named `Discard piles`, so its change line was left
    out). A line that adds items the messages do not name is said; one they name is not."""
    from rulelang.play.screen import _value_changes
    before = [{"name": "Discard piles", "label": True, "text": "P1 (1): Walker"}]
    after = [{"name": "Discard piles", "label": True, "text": "P1 (3): Walker, Hoverbot, Invader"}]
    seat = lambda p: f"P{p + 1}"
    told = "the cards left on the mothership go to their owners' discard piles"
    assert _value_changes(before, after, told, seat) == ["Discard piles: P1 (1): Walker → P1 (3): Walker, Hoverbot, Invader"]
    assert _value_changes(before, after, told + " hoverbot and invader", seat) == []
    number = [{"name": "gold", "value": 1}], [{"name": "gold", "value": 3}]
    assert _value_changes(*number, "p1 gains 2 gold", seat) == []       # (a number named: said, as before)
    assert _value_changes(*number, "p1 passes", seat) == ["gold: 1 → 3"]
    # the game itself: every scoring's discards are said to a player at the table
    game = rulelang.load("games/smash_up.rules")
    from rulelang.play.screen import changes
    from rulelang.play.render import seat_name
    from rulelang.ir.flows import zone_flows
    m, rng, scorings = game.new_match(3, 0), random.Random(0), 0
    while not m.is_over and scorings < 2:
        seen, told = m.view(0), len(m.message_log())
        m.apply(rng.choice(m.legal_actions()))
        said = [e["text"] for e in m.message_log()[told:] if e["to"] is None or 0 in e["to"]]
        if any("go to their owners' discard piles" in x for x in said):
            scorings += 1
            lines = changes(seen, m.view(0), " ".join([str(m.log_for(0)[-1])] + said), seat_name,
                            str(m.log_for(0)[-1]), zone_flows(game.ir))
            assert any(line.startswith("Discard piles: ") and "+ " in line for line in lines), lines
    assert scorings == 2


TILES = """game "Tiles" {
  players 2
  kind Tile { }
  board grid: squares(3, 3)
  zone bag: pile, hidden
  zone held: pile, public
  zone placed: pile per cell of grid, public, internal
  var marked: int = 0 per cell of grid, public, internal
  setup { repeat 4 { create Tile() in bag }  move top(bag) to held }
  when size(held) == 0 { finish draw "no tiles" }
  turn { step s {
    action put(c in cells(grid)) as "put " + text(c) require size(placed[c]) == 0 {
      move top(held) to placed[c]
      marked[c] = 1
      if size(bag) > 0 { move top(bag) to held }
      end turn
    }
  } }
}"""


def test_a_card_put_into_an_internal_zone_per_cell_is_said_to_go_to_its_cell():
    """A new author's Carcassonne: a tile put from the public `held` pile into `placed[c]`, a zone per
    cell kept `internal`, read `curve: gone from held` — language.md says a card put into an internal
    zone the player sees is said to go there. Its internal variable per cell stays unsaid."""
    game = rulelang.Game(rulelang.compile_source(TILES, "tiles.rules"))
    text = play(game, ["put a1", "quit"])
    said = text[text.index("P1 plays: put a1"):]
    assert "  · Tile3: held → a1\n" in said, said
    assert "gone from" not in said and "marked" not in said


CARDS_ON_CELLS = """game "Patterns" {
  players 2
  board grid: squares(5, 5)
  zone hand: set per player, public
  zone box: set, hidden
  kind Card { at: int  label card }
  card Card "Boar" { at: 0 }
  card Card "Crane" { at: 0 }
  card Card "Eel" { at: 1 }
  card Card "Tiger" { at: 2 }
  setup { create cards Card where at == 0 in hand[0]  create cards Card where at == 1 in hand[1]
          create cards Card where at == 2 in box }
  def free = [c for c in cells(grid)]
  about def free "one of the cells of the board"
  turn { step s {
    action move(k in hand[me], c in free) as text(k) + " " + text(c) { finish draw "moved" }
  } }
}"""


def test_a_move_with_a_card_not_held_lists_the_legal_ones_with_its_other_words():
    """A new author's Onitama: `Tiger a5-a4`, a card in the box, read "not a legal action or a command
    (type help)"; `help Boar a5-a4`, a move on the screen, "no action `Boar a5-a4`"; and `about def
    mine "one of your pieces"` was said "one of one of your pieces"."""
    game = rulelang.Game(rulelang.compile_source(CARDS_ON_CELLS, "patterns.rules"))
    text = play(game, ["Tiger c3", "help Boar c3", "quit"])
    assert "'Tiger c3' is not a legal action now (legal with those words: Boar c3, Crane c3)" in text, text
    assert "no action" not in text
    assert "c: one of the cells of the board" in text.lower() and "one of one of" not in text


def test_a_word_typed_whole_is_the_action_that_has_it_whole():
    """A new author's Catan: `c3.n` could be `place settlement c3.n` or `… c3.ne` — refused as
    ambiguous, so no corner ending in `.n` could be chosen by its name alone."""
    game = rulelang.Game(rulelang.compile_source('''game "Corners" {
  players 2
  enum Corner { c3n "c3.n", c3ne "c3.ne", d4n "d4.n" }
  turn { step s {
    action place(c in Corner) as "place settlement " + text(c) { log "settled " + text(c)  finish draw "placed" }
  } }
}''', "corners.rules"))
    text = play(game, ["c3.n", "quit"])
    assert "settled c3.n" in text and "ambiguous" not in text, text
    assert "ambiguous" in play(game, ["c3", "quit"])          # (the start of both: still asked which)


def test_a_move_typed_nearly_as_shown_is_offered_as_it_is_shown():
    """A new author's chess: `e5d6` and `e5xd6` for `e5-d6` read "not a legal action or a command (type
    help)", with 63 moves legal: no "did you mean"."""
    game = rulelang.Game(rulelang.compile_source('''game "Moves" {
  players 2
  board b: squares(8, 8)
  turn { step s {
    action move(f in [cell(b, "e5")], t in [c for c in cells(b) where c != f]) as text(f) + "-" + text(t) {
      finish draw "moved"
    }
  } }
}''', "moves.rules"))
    text = play(game, ["e5d6", "e5xd6", "zz9", "quit"])
    assert "'e5d6' is not a legal action now (did you mean e5-d6?)" in text
    assert "'e5xd6' is not a legal action now (did you mean e5-d6?)" in text
    assert "'zz9' is not a legal action or a command (type help)" in text


MELDS = """game "Melds" {
  players 2
  enum Slot { s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, s16, s17 }
  kind C { }
  zone meld: pile per Slot, public
  setup { create C() in meld[s1]  MORE }
  turn { step s { action stop { finish draw "x" } } }
}"""


def test_look_of_a_large_family_says_its_empty_places_past_those_shown_as_empty():
    """A new author's Rummy: `look meld` of 17 places, one holding cards, read "meld (s2) and 11 more places:
    empty … 5 more places: look meld (s17)" — the 5 empty too, but read as if something were hidden."""
    game = rulelang.Game(rulelang.compile_source(MELDS.replace("MORE", ""), "melds.rules"))
    text = play(game, ["look meld", "quit"])
    assert "meld (s2) and 15 more places: empty" in text and "more places: look" not in text, text
    game = rulelang.Game(rulelang.compile_source(MELDS.replace("MORE", "create C() in meld[s17]"), "melds.rules"))
    text = play(game, ["look meld", "quit"])
    assert "meld (s2) and 10 more places: empty" in text and "… 5 more places: look meld (s17)" in text, text


def test_an_action_not_allowed_now_is_named_as_the_rules_write_it():
    """A new author's chess: "(`o-o` is not allowed now; … type help o-o)" for the rules' `O-O`."""
    game = rulelang.Game(rulelang.compile_source('''game "Castle" {
  players 2
  var moved: bool = false
  turn { step s {
    action castle as "O-O" require not moved { moved = true  end turn }
    action wait { moved = true  end turn }
    action stop require moved { finish draw "x" }
  } }
}''', "castle.rules"))
    text = " ".join(play(game, ["wait", "O-O", "quit"]).split())          # (the line wraps)
    assert "(`O-O` is not allowed now; the actions now: wait, stop; type help O-O)" in text, text


STONES = """
game "Stones" {
  players 2
  board goban: squares(3, 3), draw glyph
  var stone: player = none per cell of goban
  def glyph(c: cell) = if stone[c] == none then "." else text(stone[c])
  turn limit 9 { finish draw }
  turn {
    step move {
      action place(c in cells(goban)) require stone[c] == none else "the point is taken" {
        stone[c] = me
        end turn
      }
      action pass { end turn }
    }
  }
}
"""


def test_a_choice_typed_without_its_action_name_gets_the_rules_reason_when_refused():
    """A new author's Go: `b2` on a point taken read only "not a legal action or a command (type
    help)", while `place b2` read the legal points and the rules' reason. A lone word shaped like
    the choices of one action is read as that action's."""
    text, errors = typed(STONES, ["b2", "b2", "place b2", "zz", "99", "quit"])
    assert "P1 plays: place b2" in text
    for error, said in zip(errors, ["b2", "place b2"]):
        assert error.startswith(f"error: '{said}' is not a legal action now (legal: place ")
        assert error.endswith("; when it is not allowed, the rules say: the point is taken") and "b2," not in error
    assert errors[2] == "error: 'zz' is not a legal action or a command (type help)"
    assert "place 99" not in errors[3]                   # (a number alone is the menu's)


def test_a_card_an_answer_stands_for_is_never_said_to_be_no_answer():
    """A review: answers worded `the 8s` stand for `card 8`, and typing `card 8` read "card 8 is not one
    of the answers now"; a card on the table that no answer stands for is said so."""
    rules = """game "Answers" {
  players 2
  kind Card { rank: int  label "card " + text(rank) }
  zone deck: pile, hidden
  zone table: set, public
  var got: int = 0
  setup { for r in 1..9 { create Card(rank: r) in deck }  repeat 4 { move top(deck) to table } }
  turn { step s {
    action take {
      choose c in [x for x in table where x.rank % 2 == 0] always as "the " + text(c.rank) + "s" prompt "take which?" {
        got += c.rank
        move c to deck
      }
      end turn
    }
  } }
  turn limit 4 { finish draw }
}"""
    text, errors = typed(rules, ["take", "card 9", "card 8", "quit"], seed=2)
    assert "table: 4 cards: card 9, card 8, card 7, card 6" in text
    assert errors[0] == "error: 'card 9' is not an answer (card 9 is not one of the answers now; the answers: the 8s, the 6s)"
    assert errors[1] == "error: 'card 8' is not an answer (the answers: the 8s, the 6s)"


def test_a_word_that_names_an_enum_value_is_not_said_to_be_named_by_no_move():
    """A review: `bid 3 spades now` read "none of them names spades, now" though `bid 3 ♠` is legal:
    `spades` is how a player types ♠."""
    rules = """game "Suits" {
  players 2
  enum Suit { clubs "♣", spades "♠" }
  turn { step act {
    action bid(n in 1..7, s in [clubs, spades]) as "bid " + text(n) + " " + text(s) { end turn }
    action pass_turn { end turn }
  } }
  turn limit 4 { finish draw }
}"""
    _, errors = typed(rules, ["bid 3 spades now", "quit"], screen=(300, 40))
    assert errors[0].endswith(" and 6 more; none of them names now)"), errors
