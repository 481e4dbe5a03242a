"""Rules text is part of a declaration (issue 28): `text "…"` on a card and an enum value, `text E`
on a kind, a window's `as E`; the terminal shows it (`look`, `help NAME`, beside a choice's options,
`rulelang rules`), says in words what each move changed, and fits a decision into the screen."""
from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.core.errors import RuleError
from rulelang.play.repl import rulebook, run_repl
from rulelang.play.screen import changes, fit_screen, group_actions, words
from rulelang.play.repl import seat_name, view_parts

ROOT = Path(__file__).resolve().parent.parent

CARDS = """
game "Cards" {
  players 2
  enum Faction { red "Reds" text "The red faction: " "fire.", blue "Blues" }
  kind Card { faction: Faction  power: int = 0  label card }
  kind Chip { v: int  label "c" + text(v)  text "Chip worth " + text(v) + ", " + text([v, v + 1]) + " for " + text(me) }
  card Card "Fire Imp" { faction: red  power: 2  copies: 2  text "When played, destroy a minion of power 1." }
  card Card "Ice Wall" { faction: blue  text "Ongoing: nothing passes." }
  card Card "Plain" { faction: blue }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone field: set, public
  zone chips: pile, public
  var hurt: int = 0 per player
  window react(c: Card) as text(me) + ", " + text(c) + " was played: answer it?"
  setup { create cards Card in deck  create Chip(v: 4) in chips
          move top(deck, 2) to hand[0]  move top(deck, 2) to hand[1] }
  turn { step s {
    action play(c in hand[me]) {
      move c to field
      hurt[next(me)] += 1
      open react(c) from next(me) always
      if size(hand[me]) == 0 { finish draw }
      end turn
    }
  } }
}
"""


@pytest.fixture(scope="module")
def cards():
    return rulelang.Game(rulelang.compile_source(CARDS, "cards.rules"))


def test_texts_are_declared_compiled_and_computed(cards):
    ir = cards.ir
    assert [c.get("text") for c in ir["cards"]] == ["When played, destroy a minion of power 1.",
                                                     "Ongoing: nothing passes.", None]
    assert ir["enums"]["Faction"][0] == {"name": "red", "text": "Reds", "about": "The red faction: fire."}
    assert "about" not in ir["enums"]["Faction"][1]
    m = cards.new_match(2, seed=1)
    chip = m.labels.index("c4")
    assert m.rules_text(chip, 1) == "Chip worth 4, 4 5 for P2"          # fields in scope, `me` who asks
    imp = m.labels.index("Fire Imp")
    assert m.rules_text(imp, 0) == "When played, destroy a minion of power 1."
    assert m.rules_text(m.labels.index("Plain"), 0) is None


def test_a_window_is_asked_in_the_rules_words(cards):
    m = cards.new_match(2, seed=1)
    m.apply(str(m.legal_actions()[0]))
    played = m.view(0)["zones"]
    question = m.question
    assert question["kind"] == "window" and question["chooser"] == 1
    assert question["prompt"].startswith("P2, ") and question["prompt"].endswith(" was played: answer it?")
    assert played


def test_the_word_must_be_text():
    bad = CARDS.replace('copies: 2  text "When', 'copies: 2  txt "When')
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(bad, "cards.rules")
    assert "unexpected `txt`; expected `text`" in str(err.value) and "cards.rules:7:" in str(err.value)
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(CARDS.replace('label "c" + text(v)  text', 'label "c" + text(v)  words'), "c.rules")
    assert "expected `:` (a field), `label` or `text`" in str(err.value)


def test_a_list_reads_as_words():
    game = rulelang.Game(rulelang.compile_source(
        'game "W" { players 1  var xs: list[text] = ["?", "11"]\n'
        '  show "max hp" = xs  show "joined" = text(["a b", "c"])  show "plain" = text([1, 2])\n'
        '  turn { step s { action a { finish draw } } } }', "w.rules"))
    values = {v["name"]: v["value"] for v in game.new_match(1).view(0)["values"]}
    assert values["joined"] == "a b c" and values["plain"] == "1 2"         # (a typed list: spaces, as before)
    assert words(["?", "11", None, True]) == "?, 11, -, yes" and words([]) == "empty"
    out = io.StringIO()
    run_repl(game, 1, 1, {}, {}, io.StringIO("quit\n"), out, None)
    assert "  xs: ?, 11\n" in out.getvalue() and "['" not in out.getvalue()


def test_the_rulebook_lists_every_text_grouped(cards):
    book = rulebook(cards)
    part = book[book.index("Cards and pieces"):]
    assert "Cards: Reds:\n\n- Fire Imp: When played, destroy a minion of power 1." in part
    assert "Cards: Blues:\n\n- Ice Wall: Ongoing: nothing passes." in part
    assert "Faction:\n\n- Reds: The red faction: fire." in part
    assert "- c4: Chip worth 4, 4 5 for P1" in part and "Plain" not in part


def test_regicide_and_valgard_give_every_component_a_text():
    for path, players in (("games/regicide.rules", 1), ("games/valgard.rules", 2)):
        game = rulelang.load(path)
        m = game.new_match(players, seed=3)
        missing = [m.labels[c] for c in range(len(m.labels)) if not m.rules_text(c, 0)]
        assert not missing, (path, missing)
    regicide = rulelang.load("games/regicide.rules").new_match(2, seed=3)
    texts = {regicide.labels[c]: regicide.rules_text(c, 0) for c in range(len(regicide.labels))}
    assert texts["K♣"].startswith("King of Clubs: a royal. As an enemy: health 40, attack 20, immune to the power of ♣.")
    assert texts["A♠"].startswith("Ace of Spades (an animal companion): attack 1")
    assert texts["7♦"].endswith("♦ draws: that many cards are dealt from the tavern round the table.")


def repl(game, lines, screen=None, bots=None, players=2):
    out = io.StringIO()
    run_repl(game, players, 1, {}, bots or {}, io.StringIO("".join(x + "\n" for x in lines)), out, "x.rules",
             screen=screen)
    return out.getvalue()


def test_a_value_is_said_changed_unless_a_word_of_the_move_names_it():
    """A new author's Stone Age: `take Forest` never showed `res: … 0 → 8` ("res" is inside "Forest"),
    and `buzz` hid the change of `zz`. A value named as a word of the move or a message is said."""
    source = ('game "Chg" { players 2\n  var zz: int = 0\n  var other: int = 0\n  var res: int = 0\n'
              '  turn { step s {\n    action buzz { zz += 1  other += 1  end turn }\n'
              '    action take_res { res += 8  log "res up"  end turn }\n  } }\n  turn limit 4 { finish draw } }\n')
    game = rulelang.Game(rulelang.compile_source(source, "chg.rules"))
    out = repl(game, ["buzz", "take res", "quit", "n"])
    assert "P1 plays: buzz\n  · zz: 0 → 1\n  · other: 0 → 1\n" in out, out
    assert "P2 plays: take res\n  > res up\n== " in out, out         # (named by its word: not said again)


def test_look_and_help_show_a_name_s_text(cards):
    out = repl(cards, ["look fire imp", "help Ice", "look c4", "look Reds", "look nothing", "help plain", "quit"])
    assert "P1> look fire imp\nFire Imp (card)\n  When played, destroy a minion of power 1.\n" in out
    assert "P1> help Ice\nIce Wall (card)\n  Ongoing: nothing passes.\n" in out
    assert "P1> look c4\nc4 (chip)\n  Chip worth 4, 4 5 for P1\n" in out
    assert "P1> look Reds\nReds (faction)\n  The red faction: fire.\n" in out
    assert "P1> look nothing\nerror: no card or piece named 'nothing' has rules text" in out
    assert "P1> help plain\nerror: no action `plain`" in out


def test_look_of_a_word_no_name_has_says_whose_text_names_it_and_the_board_key_that_does():
    """A first-hour trial: `look Lightning` (an ability named in a prompt) and `look mountain` (a
    word of the board's key) were "no card or piece named …"."""
    out = repl(rulelang.Game(rulelang.compile_source(CARDS, "cards.rules")), ["look minion", "look nowhere", "quit"])
    assert ("P1> look minion\nerror: no card or piece named 'minion' has rules text; it is named in the text of "
            "Fire Imp\n") in out
    game = rulelang.Game(rulelang.compile_source(
        'game "Yard" { players 2  board yard: squares(3, 3), draw glyph, legend ["#: a wall", "o: a stone"]\n'
        '  def glyph(c) = "."\n'
        '  turn { step s { action stop { finish draw } } } }', "yard.rules"))
    out = repl(game, ["look wall", "quit"])
    assert "P1> look wall\nerror: no card or piece named 'wall' has rules text\n  the board's key: #: a wall\n" in out


def test_look_takes_a_card_typed_in_plain_letters_as_play_does():
    """A first-hour trial: `play 7h` was taken for `play 7♥`, but `look 7h` found no card."""
    regicide = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    out = repl(regicide, ["look 7h", "look ks", "quit"], players=1)
    assert "P1> look 7h\n7♥ (card)\n  7 of Hearts: attack 7" in out
    assert "P1> look ks\nK♠ (card)\n  King of Spades: a royal." in out


def test_a_move_says_what_it_changed_and_a_choice_its_question(cards):
    out = repl(cards, ["1", "pass", "log", "quit"])
    assert "P1 plays: play " in out
    assert "  · hurt: P2 0 → 1\n" in out                       # a counter the rules did not tell
    assert "Pass the terminal to P2 and press Enter pass\n" in out           # typed there: not lost
    assert "  ▶ P2, Plain was played: answer it?\n  1. pass\nP2> pass\n" in out     # a worded window: its question
    assert "P2 chooses: pass (asked: P2, " in out
    assert "  2. P2: Plain was played: answer it? → pass\n" in out          # (issue 28: who, then what)


def test_changes_name_moves_draws_reveals_and_counters():
    def view(zones, values=()):
        return {"zones": zones, "values": list(values), "cells": {}}

    def zone(name, cards=None, count=None, owner=None):
        return {"name": name, "owner": owner, "count": count if cards is None else len(cards),
                "cards": None if cards is None else [{"id": i, "label": label} for i, label in cards]}
    before = view([zone("deck", count=5), zone("hand", [(1, "Gnome")], owner=0), zone("field", []),
                   zone("hand", count=2, owner=1)], [{"name": "vp", "per_player": [0, 0]}])
    after = view([zone("deck", count=4), zone("hand", [(2, "Pay the Piper")], owner=0),
                  zone("field", [(1, "Gnome")]), zone("hand", count=2, owner=1)],
                 [{"name": "vp", "per_player": [0, 3]}])
    assert changes(before, after, "done", seat_name) == [
        "Gnome: hand (P1) → field", "Pay the Piper: deck → hand (P1)", "vp: P2 0 → 3"]
    assert changes(before, after, "play Gnome", seat_name) == ["Pay the Piper: deck → hand (P1)", "vp: P2 0 → 3"]
    assert changes(before, after, "P2 gains 3 VP", seat_name)[-1] != "vp: P2 0 → 3"


def test_a_decision_fits_80x24_with_its_choices_grouped():
    game = rulelang.load("games/regicide.rules")
    out = repl(game, ["quit"], screen=(80, 24))
    screen = out[out.index("== Regicide"):out.index("P1> quit")].rstrip("\n").split("\n")
    assert len(screen) <= 20 and all(len(line) <= 80 for line in screen)
    assert any(line.startswith("  play → 1. ") for line in screen)
    assert " · " in screen[1]                                  # zones side by side
    full = repl(game, ["quit"])                                  # piped: not fitted, one a line
    assert "\n  1. play " in full


def test_choices_group_by_their_first_choice_and_page_when_they_must():
    class A:
        def __init__(self, name, args, text):
            self.name, self.args, self.text = name, args, text
    acts = [A("play", {"c": 1, "b": b}, f"play Gnome {base}") for b, base in enumerate(["Jungle Oasis", "Tortuga"])]
    acts += [A("play", {"c": 2, "b": 0}, "play Saucy Wench Jungle Oasis"), A("done", {}, "done")]
    groups = group_actions(acts, [a.text for a in acts])
    assert groups == [("play Gnome", [(1, "Jungle Oasis"), (2, "Tortuga")]),
                      ("", [(3, "play Saucy Wench Jungle Oasis"), (4, "done")])]
    parts = {"header": ["== G"], "board": [], "zones": ["z: " + "x" * 30] * 3, "values": [], "extra": [],
             "choice": [], "zone_lines": ["  z"] * 3, "value_lines": []}
    many = [A("move", {"u": i, "to": j}, f"move u{i} c{j}") for i in range(30) for j in range(4)]
    lines, paged = fit_screen(parts, 80, 24, many, [a.text for a in many])
    assert paged and len(lines) <= 20 and re.search(r"more(?: choices: type more|; every kind: .*: type more KIND)", lines[-1])


def test_a_status_that_gives_way_whole_says_where_it_is():
    """A 14-row board at 80x24 left no room for a new author's only status value (`Squares left`),
    and nothing said where it went: the line saying there are more choices says it (no line more)."""
    class A:
        def __init__(self, text):
            self.name, self.args, self.text = "place", {}, text
    board = ["   a b c d e f g h i j k l m n"] + [f"{r:2} " + ". " * 14 for r in range(1, 15)] + [""]
    parts = {"header": ["== Blokus"], "board": board, "zones": ["your pieces: I1 I2 I3 L4 N P T4"], "zone_ranks": [0],
             "values": ["Squares left: 89"], "value_ranks": [2], "extra": [], "choice": [],
             "zone_lines": ["  z"], "value_lines": ["  v"]}
    many = [A(f"place I{i % 5 + 1} {chr(97 + i % 14)}{i % 14 + 1}") for i in range(400)]
    lines, paged = fit_screen(parts, 80, 24, many, [a.text for a in many])
    assert paged and len(lines) <= 23 and not any("Squares left" in line for line in lines)
    assert lines[-1] == "  … 383 more choices: type more · the status: type status"
    roomy, _ = fit_screen(parts, 80, 40, many, [a.text for a in many])          # (shown: no word of it)
    assert any("Squares left: 89" in line for line in roomy) and not any("type status" in line for line in roomy)


def test_view_parts_word_a_window_without_words():
    view = {"game": "G", "turn": 1, "turn_player": 0, "actor": 1, "step": "s", "viewer": 1, "zones": [],
            "values": [], "choice": {"chooser": 1, "prompt": "respond in before_scores", "kind": "window",
                                     "running": [{"window": "before_scores", "asking": 1}]}}
    assert view_parts(view, 80)["choice"] == ["  ▶ before scores: you may respond now, or pass"]


ASK = """
game "Ask" {
  players 2
  kind Card { label card }
  event played(c: Card)
  card Card "Oracle" { text "Ask the table a question; answer it truthfully."
    on played(x) from field where x == self { may prompt "is it so?" { log "so it is" } }
  }
  zone hand: set per player, owner
  zone field: set, public
  setup { create cards Card in hand[0] }
  turn { step s { action play(c in hand[me]) { move c to field  emit played(c) }  action stop { finish draw } } }
}
"""


def test_a_choice_a_card_s_ability_asks_shows_that_card_s_text():
    game = rulelang.Game(rulelang.compile_source(ASK, "ask.rules"))
    out = repl(game, ["play Oracle", "yes", "quit"])
    assert ("  ▶ you must choose: is it so? (because of Oracle)\n"
            "    (Oracle: Ask the table a question; answer it truthfully.)\n  1. yes\n  2. no\n") in out
    assert "P1 chooses: yes (asked: is it so?)\n  > so it is\n" in out


def test_a_card_that_moves_between_zones_off_screen_is_not_the_card_that_left_a_hand():
    """A minion goes from a base to its owner's discard pile (both internal: off screen) while the
    other player plays a card from their hidden hand onto the base: the card that left the hand is
    the one that arrived unseen, not the minion (a new user saw `Warbot: hand (P2) → discard (P1)`)."""
    def zone(name, cards=None, count=None, owner=None, internal=False):
        return {"name": name, "owner": owner, "count": count if cards is None else len(cards), "internal": internal,
                "cards": None if cards is None else [{"id": i, "label": label} for i, label in cards]}
    # (ids below the 4 components the match holds: the card on the base was not made now)
    before = {"zones": [zone("hand", count=3, owner=1), zone("discard", [], owner=0, internal=True),
                        zone("field", [(1, "Warbot")], internal=True)], "values": [], "cells": {},
              "internal": ["field", "discard"]}
    after = {"zones": [zone("hand", count=2, owner=1), zone("discard", [(1, "Warbot")], owner=0, internal=True),
                       zone("field", [(2, "Pirate King")], internal=True)], "values": [], "cells": {},
             "internal": ["field", "discard"]}
    lines = changes(before, after, "P2 plays something", seat_name)
    assert lines == ["Pirate King: hand (P2) → field"]


def test_a_card_covered_on_a_pile_shown_by_its_top_is_not_gone():
    """A pile the view shows by its top card only: a card covered by the next one is still there
    (the tutorial's Colour Match said `B8: gone from pile`); a card taken off it is gone."""
    def view(count, top, hand):
        return {"zones": [{"name": "pile", "owner": None, "count": count, "top_only": True,
                           "cards": [{"id": top[0], "label": top[1]}]},
                          {"name": "hand", "owner": 0, "count": len(hand),
                           "cards": [{"id": i, "label": label} for i, label in hand]}],
                "values": [], "cells": {}}
    before = view(3, (1, "B8"), [(2, "B3"), (4, "R5")])
    assert changes(before, view(4, (2, "B3"), [(4, "R5")]), "P1 plays", seat_name) == ["B3: hand (P1) → pile"]
    # (G2, now on top, was under B8: uncovered, not new — a new author's deck builder read `Silver:
    # new in supply` after every buy)
    assert changes(before, view(2, (7, "G2"), [(2, "B3"), (4, "R5")]), "P1 takes", seat_name) == [
        "B8: gone from pile"]


def test_the_tutorial_game_never_says_a_covered_card_is_gone():
    game = rulelang.load(str(ROOT / "docs" / "tutorial" / "cards_6.rules"))
    m = game.new_match(2, seed=1)
    chooser = random.Random(2)
    said = []
    while not m.is_over and len(said) < 60:
        before = m.view(0)
        action = chooser.choice(m.legal_actions())
        m.apply(action)
        said += changes(before, m.view(0), action.text.lower(), seat_name)
    assert any("→ pile" in line or "Colour to play" in line for line in said)
    assert not any("gone from pile" in line for line in said)


def _zones_view(*zones):
    out = []
    for name, owner, cards, count in zones:
        out.append({"name": name, "owner": owner, "count": len(cards) if cards is not None else count,
                    "cards": None if cards is None else [{"id": i, "label": label} for i, label in cards]})
    return {"zones": out, "values": [], "cells": {}}


def test_cards_into_several_hidden_zones_at_once_are_not_said_to_go_one_each():
    """The discard pile shuffled into the deck and the top card dealt to P2: which card P2 got is
    unknown (it said `C5: discard → hand (P2), face down`, a new author found, for every seed)."""
    before = _zones_view(("deck", None, None, 4), ("discard", None, [(1, "C6"), (2, "C5")], None),
                         ("hand", 1, None, 0))
    after = _zones_view(("deck", None, None, 5), ("discard", None, [], None), ("hand", 1, None, 1))
    assert changes(before, after, "redeal", seat_name) == ["C6, C5: discard → deck / hand (P2), face down"]
    only_deck = _zones_view(("deck", None, None, 6), ("discard", None, [], None), ("hand", 1, None, 0))
    assert changes(before, only_deck, "redeal", seat_name) == ["C6, C5: discard → deck, face down"]


def test_a_card_that_left_and_one_that_looks_the_same_came_back_is_no_move():
    before = _zones_view(("deck", None, None, 4), ("hand", 0, [(1, "Prince 5")], None))
    after = _zones_view(("deck", None, None, 4), ("hand", 0, [(7, "Prince 5")], None))
    assert not any("hand (P1) → hand (P1)" in line for line in changes(before, after, "new hand", seat_name))


def test_dice_revealed_are_said_though_a_message_names_their_numbers():
    """A new author's Liar's Dice: `P1 calls 2 x 2 a lie: there are 3` hid the 2s and the 3 of
    `revealed: 4, 2, 1, 2, 3 (cup (P2))` (a one-character label is said only with its place)."""
    cup = lambda known: {"name": "cup", "owner": 1, "count": 5, "cards": None,
                         "known": [{"id": i, "label": x, "revealed": True} for i, x in known]}
    before = {"zones": [cup([])], "values": [], "cells": {}}
    after = {"zones": [cup([(1, "4"), (2, "2"), (3, "1"), (4, "2"), (5, "3")])], "values": [], "cells": {}}
    lines = changes(before, after, "call p1 calls 2 x 2 a lie: there are 3", seat_name, "call")
    assert lines == ["revealed: 4, 2, 1, 2, 3 (cup (P2))"], lines
    named = changes(before, after, "call p2 shows cup (p2): 4, 2, 1, 2, 3", seat_name, "call")
    assert named == [], named


def test_a_name_said_once_does_not_hide_a_second_card_of_that_name():
    """A new author's Coup: P2 turns up a Contessa (`P2 loses an influence: Contessa`) while P1
    draws another Contessa; P1's lines said nothing of the one they drew. The answer's text and
    the message are one naming; two cards of that name changed, so both are said."""
    before = _zones_view(("deck", None, None, 10), ("hand", 0, [(1, "Duke")], None),
                         ("hand", 1, None, 2), ("lost", 1, [], None))
    after = _zones_view(("deck", None, None, 10), ("hand", 0, [(5, "Contessa")], None),
                        ("hand", 1, None, 1), ("lost", 1, [(7, "Contessa")], None))
    before["actor"] = after["actor"] = 1
    lines = changes(before, after, "contessa p2 loses an influence: contessa", seat_name, "contessa")
    assert any(line.startswith("Contessa: ") and line.endswith("→ hand (P1)") for line in lines), lines
    assert any(line.startswith("Contessa: ") and "lost (P2)" in line for line in lines), lines
    # named as often as cards of that name changed: left out, as before
    said = "contessa p2 loses an influence: contessa; p1 draws contessa"
    assert not any(line.startswith("Contessa") for line in changes(before, after, said, seat_name, "contessa"))


def test_a_card_the_move_names_comes_from_the_movers_hidden_hand():
    """P2 plays 6♦ from their hand and the tavern deals 6 round the table, 4 to P1, 2 to P2: it
    said `1 card: tavern → hand (P2)` (the played card was taken for one the tavern dealt)."""
    before = _zones_view(("tavern", None, None, 29), ("table", None, [], None), ("hand", 0, [(1, "A♠")], None),
                         ("hand", 1, None, 5))
    after = _zones_view(("tavern", None, None, 23), ("table", None, [(9, "6♦")], None),
                        ("hand", 0, [(1, "A♠"), (2, "8♥"), (3, "4♣"), (4, "6♠"), (5, "9♣")], None),
                        ("hand", 1, None, 6))
    before["actor"] = after["actor"] = 1
    lines = changes(before, after, "play 6♦ 6 cards are drawn round the table", seat_name, "play 6♦")
    assert lines == ["8♥, 4♣, 6♠, 9♣: tavern → hand (P1)", "2 cards: tavern → hand (P2)"]


def test_a_card_played_from_a_hidden_hand_is_not_said_to_go_into_the_players_deck():
    """P2 plays C4 from their hidden hand to their table, and has a hidden deck too: it said
    `1 card: hand (P2) → deck (P2)` (the deck, first of P2's hidden zones, was taken for its source)."""
    before = _zones_view(("deck", 1, None, 3), ("hand", 1, None, 3), ("table", 1, [], None))
    after = _zones_view(("deck", 1, None, 3), ("hand", 1, None, 2), ("table", 1, [(4, "C4")], None))
    before["actor"] = after["actor"] = 1
    assert changes(before, after, "play c4", seat_name, "play C4") == []
    assert changes(before, after, "p2 plays", seat_name, "pass") == ["C4: hand (P2) → table (P2)"]


def test_a_card_the_viewer_takes_from_an_unseen_pile_is_not_said_to_enter_their_deck():
    """Smash Up's Not Enough Bullets: P1 puts Walker from their discard pile (kept off screen) into
    their hand; their hidden deck did not change. It said `1 card added to deck (P1)` (a card the
    move names was taken to come from the mover's hidden zone, though its count had not moved)."""
    before = _zones_view(("deck", 0, None, 29), ("hand", 0, [(1, "Scry")], None))
    after = _zones_view(("deck", 0, None, 29), ("hand", 0, [(1, "Scry"), (5, "Walker")], None))
    before["actor"] = after["actor"] = 0
    assert changes(before, after, "walker p1 puts walker from their discard pile into their hand", seat_name,
                   "Walker") == []
    assert changes(before, after, "p1 chooses", seat_name, "Walker") == ["Walker: new in hand (P1)"]


def _pile(name, owner, count, top):
    return {"name": name, "owner": owner, "count": count, "top_only": True,
            "cards": [{"id": top[0], "label": top[1]}] if top else []}


def test_cards_put_under_the_top_of_a_pile_are_said_to_go_there():
    """A turn's cards in play go to a discard pile shown by its top: the ones under it are not
    `gone from inplay` (a new author's deck-builder), and cards alike drawn from the deck are not
    the ones that left (`Copper, Copper, Raid: inplay (P1) → hand (P1)`)."""
    before = _zones_view(("deck", 0, None, 8), ("hand", 0, [], None),
                         ("inplay", 0, [(1, "Copper"), (2, "Raid"), (3, "Copper")], None))
    before["zones"].append(_pile("discard", 0, 0, None))
    after = _zones_view(("deck", 0, None, 6), ("hand", 0, [(7, "Copper"), (8, "Raid")], None),
                        ("inplay", 0, [], None))
    after["zones"].append(_pile("discard", 0, 3, (3, "Copper")))
    before["actor"] = after["actor"] = 0
    assert changes(before, after, "done", seat_name, "done") == [
        "Copper, Copper, Raid: inplay (P1) → discard (P1)", "Copper, Raid: deck (P1) → hand (P1)"]


def test_a_hand_refilled_while_one_of_its_cards_was_discarded_says_no_false_way():
    """The other player's hidden hand goes onto their discard pile (its last card on top) and is
    refilled from their deck: the top card came from the hand or the deck, which is not known, and
    the counts are said as they changed (it said `Raid: deck (P2) → discard (P2)` and `Copper,
    Copper: inplay (P2) → hand (P2), face down`)."""
    before = _zones_view(("deck", 1, None, 9), ("hand", 1, None, 1), ("inplay", 1, [(1, "Copper"), (2, "Copper")], None))
    before["zones"].append(_pile("discard", 1, 0, None))
    after = _zones_view(("deck", 1, None, 4), ("hand", 1, None, 5), ("inplay", 1, [], None))
    after["zones"].append(_pile("discard", 1, 3, (6, "Raid")))
    before["actor"] = after["actor"] = 1
    assert changes(before, after, "done", seat_name, "done") == [
        "Copper, Copper: inplay (P2) → discard (P2)", "Raid: deck (P2) or hand (P2) → discard (P2)",
        "5 cards left deck (P2)", "4 cards added to hand (P2)"]


def test_a_group_of_actions_leaves_each_a_word_of_its_own():
    """Two attacks whose texts differ only by the engine's `(2)`: the group's head took every word
    of the first, and the screen read `attack b7 cavalry b6 Storm Lancer → 1. · 2. (2)`."""
    from types import SimpleNamespace
    from rulelang.play.screen import action_lines, group_actions
    acts = [SimpleNamespace(name="attack", args={"a": 1, "b": 2}), SimpleNamespace(name="attack", args={"a": 1, "b": 3})]
    groups = group_actions(acts, ["attack b7 cavalry b6 Storm Lancer", "attack b7 cavalry b6 Storm Lancer (2)"])
    assert action_lines(groups, 80) == ["  attack b7 cavalry b6 Storm → 1. Lancer · 2. Lancer (2)"]


def test_a_group_s_head_leaves_no_bracket_open():
    """A first hour at Dozen War: `move c10 infantry (+1 to its next attack with → 5. 2 stars) d10` —
    the head ended inside a unit's brackets. It stops before them."""
    from types import SimpleNamespace
    from rulelang.play.screen import action_lines, group_actions
    texts = [f"move c10 infantry (+1 to its next attack with {s}) {c}" for s, c in
             (("2 stars", "d10"), ("2 stars", "b10"), ("1 star", "c9"))]
    acts = [SimpleNamespace(name="move", args={"u": 7, "to": i}) for i in range(3)]
    assert action_lines(group_actions(acts, texts), 80) == [
        "  move c10 infantry → 1. (+1 to its next attack with 2 stars) d10",
        "            2. (+1 to its next attack with 2 stars) b10",
        "            3. (+1 to its next attack with 1 star) c9"]


def test_the_rulebook_names_the_variables_the_screen_shows():
    game = rulelang.Game(rulelang.compile_source(
        'game "V" { players 2  var score: int = 0 per player  var bid: int = 0 per player, owner\n'
        '  var secret: int = 0, hidden  var tally: int = 0, public, internal\n'
        '  show "Leader" = 0\n'
        '  turn { step s { action a { score[me] += 1  bid[me] += 1  secret += 1  tally += 1  finish draw } } } }',
        "v.rules"))
    from rulelang.play.rulebook import rulebook
    text = rulebook(game)
    assert "The screen also shows: score; bid (each player's own); Leader." in text



def test_the_rulebook_does_not_promise_a_components_value_no_zone_lists():
    """A new author's trial: pawns kept in an internal zone only, and the rulebook said the screen
    shows their `pos`, which it never listed."""
    src = ('game "P" { players 2  kind Pawn { owner: player  label "pawn" }  zone pawns: set, public{I}\n'
           '  var pos: int = 0 per Pawn, public  var die: int = 0\n'
           '  setup { create Pawn(owner: 0) in pawns }\n'
           '  turn { step s { action a { die += 1  finish draw } } } }')
    from rulelang.play.rulebook import rulebook
    hidden = rulebook(rulelang.Game(rulelang.compile_source(src.replace("{I}", ", internal"), "p.rules")))
    assert "The screen also shows: die." in hidden
    listed = rulebook(rulelang.Game(rulelang.compile_source(src.replace("{I}", ""), "p.rules")))
    assert "The screen also shows: pos; die." in listed


HIRE = """
game "Hire" {
  players 2
  board b: squares(3, 1)
  kind Unit { cl: text  label cl }
  zone here: set per cell of b, public
  turn limit 4 { finish draw }
  turn { step s {
    action hire {
      create Unit(cl: "cavalry") in here[cell(b, "a1")]
      log "P2 may hire a cavalry too"
      end turn
    }
  } }
}
"""


def test_a_piece_new_on_a_cell_is_said_though_a_message_names_its_kind_elsewhere():
    """Dozen War's Mercenaries: P1's new cavalry at d11 got no line because a message about P2's
    castle said "a cavalry"; a piece new on a cell is left out only if the cell is named too."""
    game = rulelang.Game(rulelang.compile_source(HIRE, "hire.rules"))
    m = game.new_match(2, seed=1)
    before = m.view(0)
    m.apply("hire")
    said = " ".join(["hire"] + [e["text"] for e in m.message_log()])
    assert "cavalry: new in a1" in changes(before, m.view(0), said, seat_name, "hire")
    assert "cavalry: new in a1" not in changes(before, m.view(0), said + " at a1", seat_name, "hire")


REDEAL = """
game "Redeal" {
  players 2
  kind Die { face: int  label text(face) }
  zone cup: set per player, owner
  zone box: set, public, internal
  turn limit 4 { finish draw }
  setup { for p in players { repeat 2 { create Die(face: 6) in cup[p] } } }
  turn { step s {
    action reroll {
      for p in players { move cup[p] to box }
      create Die(face: 6) in cup[me]
      create Die(face: 6) in cup[me]
      create Die(face: 6) in cup[next(me)]
      end turn
    }
  } }
}
"""


def test_a_card_made_by_the_action_is_new_not_drawn_from_a_hidden_zone_that_shrank():
    """Liar's Dice (an author trial): the cups emptied into a box and new dice made read
    `6: cup (P3) → cup (P1)` — a die made now was said to come from another player's cup."""
    game = rulelang.Game(rulelang.compile_source(REDEAL, "redeal.rules"))
    m = game.new_match(2, seed=1)
    before = m.view(0)
    m.apply("reroll")
    lines = changes(before, m.view(0), "reroll", seat_name, "reroll")
    assert not any("→ cup (P1)" in x for x in lines), lines
    assert "6, 6: new in cup (P1)" in lines, lines                    # (one line for each place)


BAGGED = """
game "Bagged" {
  players 2
  kind Die { face: int  owner: player  label text(face) }
  zone bag: pile per player, hidden, internal, uncounted
  zone cup: set per player, owner
  turn limit 6 { finish draw }
  setup {
    for p in players { for v in 1..6 { create Die(face: v, owner: p) in bag[p] } }
    for p in players { move top(bag[p], 3) to cup[p] }
  }
  turn { step s {
    action reroll {
      move cup[me] to bag[me]
      shuffle bag[me]
      move top(bag[me], 3) to cup[me]
      end turn
    }
  } }
}
"""


def test_where_a_zone_is_not_counted_no_card_is_said_to_have_gone_through_another_hidden_zone():
    """A new author's Liar's Dice keeps each player's faces in an `uncounted` bag: P2's reroll was
    told to P2 as its old dice going face down into P1's cup and new ones coming out of it. Where
    some zone's size is not told, a card out of sight went where nobody can say: gone, and new."""
    game = rulelang.Game(rulelang.compile_source(BAGGED, "bagged.rules"))
    m = game.new_match(2, seed=4)
    m.apply("reroll")
    before = m.view(1)
    m.apply("reroll")
    lines = changes(before, m.view(1), "reroll", seat_name, "reroll")
    assert lines == ["5, 4: gone from cup (P2)", "2, 1: new in cup (P2)"], lines


# -- change lines that never name a place a card did not go ---------------------------------------

def _said_after(game, m, move: str, seat: int = 0) -> list[str]:
    """The change lines `seat` reads after `move`, as the terminal works them out."""
    from rulelang.ir.flows import zone_flows
    before, told = m.view(seat), len(m.message_log())
    m.apply(move)
    said = " ".join([move] + [e["text"] for e in m.message_log()[told:]])
    return changes(before, m.view(seat), said, seat_name, move, zone_flows(game.ir))


CYCLE = """
game "Cycle" {
  players 2
  kind Card { v: int  label card }
  card Card "Merchant" { v: 1 }
  card Card "Copper" { v: 0  copies: 5 }
  zone deck: pile per player, hidden
  zone hand: set per player, owner
  zone inplay: set per player, public
  zone discard: pile per player, public
  var turns: int = 0
  proc draw(p: player, n: int) {
    repeat n {
      if size(deck[p]) == 0 { move discard[p] to deck[p]  shuffle deck[p] }
      if size(deck[p]) > 0 { move top(deck[p]) to hand[p] }
    }
  }
  setup { for p in players { create cards Card in deck[p]  shuffle deck[p]  draw(p, 2) } }
  turn { step s {
    action play(c in hand[me]) { move c to inplay[me] }
    action clean {
      move hand[me] to discard[me]
      move inplay[me] to discard[me]
      draw(me, 2)
      turns += 1
      if turns == 8 { finish draw }
      end turn
    }
  } }
}
"""


def test_a_card_shuffled_into_its_owners_deck_may_be_in_the_hand_drawn_from_it():
    """A new author's Dominion: P2's clean-up put the discards into P2's deck, shuffled it and drew
    from it, P2's hand the same size, and P1 read `Merchant: inplay (P2) → deck (P2), face down` —
    so P2 held no Merchant. The hand it may have been drawn into is named too."""
    game = rulelang.Game(rulelang.compile_source(CYCLE, "cycle.rules"))
    m = game.new_match(2, 3)
    for move in ["play Copper", "play Copper", "clean", "clean", "play Copper", "play Copper", "clean",
                 "play Copper", "play Merchant", "clean", "clean"]:
        m.apply(move)
    lines = _said_after(game, m, "clean")
    assert lines == ["Copper, Copper, Copper, Merchant: discard (P2) → deck (P2) / hand (P2), face down",
                     "turns: 5 → 6"], lines
    held = sorted(m.labels[c] for c in m.state()["zones"]["hand"][1])
    assert held == ["Copper", "Copper"]          # (two of those cards are in P2's hand indeed)


PRINCE = """
game "Prince" {
  players 2
  kind Card { label card }
  card Card "King" { }
  card Card "Guard" { copies: 4 }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone played: pile per player, public
  setup { create cards Card in deck  move [c for c in deck where c.card == "King"] to hand[1]  shuffle deck }
  turn { step s {
    action prince { move hand[1] to played[1]  repeat 2 { move top(deck) to hand[1] }  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_card_shown_from_a_hand_that_grew_may_have_come_from_that_hand():
    """A twin-world scan of a new author's Love Letter: P2's hand put its King on the table and drew
    two, and P1 read `King: deck → played (P2)` — as if P2 never held it. The hand that grew, whose
    cards the rules put there, is among the places it may have come from."""
    game = rulelang.Game(rulelang.compile_source(PRINCE, "prince.rules"))
    m = game.new_match(2, 1)
    lines = _said_after(game, m, "prince")
    assert lines[0] == "King: deck or hand (P2) → played (P2)", lines


DISCS = """
game "Discs" {
  players 2
  kind Disc { skull: bool  label (if skull then "skull" else "flower") }
  zone hand: set per player, owner
  zone mat: pile per player, hidden
  zone shown: pile per player, public
  zone lost: set per player, hidden
  zone pool: set, hidden
  setup { for p in players { create Disc(skull: true) in hand[p]  repeat 2 { create Disc(skull: false) in hand[p] } } }
  turn { step s {
    action place(d in hand[me]) { move d to mat[me]  end turn }
    action flip(p in players) as "flip " + text(p) require size(mat[p]) > 0 {
      let d = top(mat[p])
      move d to shown[p]
      end turn
    }
    action lose {
      move shown[me] to hand[me]
      choose d in hand[me] { move d to lost[me] }
      move hand[me] to pool
      move pool to hand[me]
      end turn
    }
    action stop { finish draw }
  } }
}
"""


def test_a_card_moved_as_soon_as_it_is_bound_comes_from_where_it_was_bound():
    """A new author's Skull (`let d = top(mat[p])  move d to shown[p]`) read `skull: mat (P1) or pool
    or hand (P1) or lost (P1) → shown (P1)`: a local's card was taken to lie anywhere its zone leads
    to, though nothing could have moved it between the `let` and the `move`."""
    from rulelang.ir.flows import zone_flows
    game = rulelang.Game(rulelang.compile_source(DISCS, "discs.rules"))
    m = game.new_match(2, 1)
    m.apply(next(a for a in m.legal_actions() if str(a).startswith("place")))
    assert _said_after(game, m, "flip P1", seat=1) == ["skull: mat (P1) → shown (P1)"]
    flows = zone_flows(game.ir)
    assert flows.direct("hand", "lost", "Disc")             # (`choose d in hand[me] { move d to lost[me] }`)
    assert not flows.direct("pool", "lost", "Disc") and not flows.direct("mat", "lost", "Disc")
    assert flows.direct("hand", "mat", "Disc") and not flows.direct("lost", "mat", "Disc")   # (an action's card)


RECYCLE = """
game "Recycle" {
  players 1
  kind Card { n: text  label n }
  zone deck: pile, hidden
  zone discard: pile, public
  zone hand: set per player, owner
  setup { for x in ["A", "B", "C", "D", "E", "F", "G", "H"] { create Card(n: x) in deck }  move top(deck, 4) to discard }
  turn { step s {
    action heal { move discard to bottom of deck  repeat 2 { move top(deck) to hand[me] }  end turn }
    action stop { finish draw }
  } }
}
"""


def test_cards_put_into_a_hidden_pile_and_drawn_from_it_are_not_counted_again():
    """A first hour at Regicide read `4 cards added to tavern` under the ten cards put under it and
    the seven drawn from it, when no other card went in."""
    game = rulelang.Game(rulelang.compile_source(RECYCLE, "recycle.rules"))
    m = game.new_match(1, 1)
    lines = _said_after(game, m, "heal")
    assert len(lines) == 2 and "discard → deck, face down" in lines[0] and "deck → hand (P1)" in lines[1], lines


WINDS = """
game "Winds" {
  players 1
  kind Card { n: text  label n }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone discard: pile, public, internal
  setup { for x in ["A", "B", "C", "D", "E", "F"] { create Card(n: x) in deck }  move top(deck, 2) to hand[0] }
  turn { step s {
    action winds(c in hand[me]) {
      move c to discard  move hand[me] to bottom of deck  repeat 2 { move top(deck) to hand[me] }  end turn
    }
    action stop { finish draw }
  } }
}
"""


def test_a_card_put_on_an_internal_pile_is_not_said_to_go_into_the_deck():
    """Smash Up's Winds of Change goes to its owner's discard pile (internal: off the screen, but the
    reader sees into it) while the rest of the hand is put into the deck and cards are drawn: it
    said `Winds of Change, They Keep Coming: hand (P1) → deck (P1), face down` (a card seen in an
    internal zone was matched only after the hidden zones' counts had been spent)."""
    game = rulelang.Game(rulelang.compile_source(WINDS, "winds.rules"))
    lines = _said_after(game, game.new_match(1, seed=1), "winds F")
    assert lines == ["F: hand (P1) → discard", "D, C: deck → hand (P1)", "E: hand (P1) → deck, face down"], lines


HEAL = """
game "Heal" {
  players 1
  kind Card { n: text  label n }
  zone castle: pile, hidden
  zone enemy: pile, public
  zone tavern: pile, hidden
  zone discard: pile, public
  zone hand: set per player, owner
  setup {
    for x in ["K", "Q", "J"] { create Card(n: x) in castle }
    for x in ["2", "3", "4", "5", "6", "7", "8", "9"] { create Card(n: x) in tavern }
    move top(castle) to enemy
    move top(tavern, 2) to discard
  }
  turn { step s {
    action heal { move discard to bottom of tavern  move enemy to discard  move top(castle) to enemy  end turn }
    action draw { move enemy to discard  move top(castle) to enemy  repeat 2 { move top(tavern) to hand[me] }  end turn }
    action stop { finish draw }
  } }
}
"""


def test_no_card_is_said_to_go_to_or_come_from_a_zone_no_rule_moves_it_to_or_from():
    """Regicide: a heal put the discard pile under the tavern while the next enemy came out of the
    castle, and it said `A♥, 9♣: discard → tavern / castle, face down`; a draw, `3♣: castle or
    tavern → hand (P1)`. By the counts alone either may be; by the rules, which every player may
    read, no card ever goes into the castle, and the castle gives only the enemy."""
    game = rulelang.Game(rulelang.compile_source(HEAL, "heal.rules"))
    assert _said_after(game, game.new_match(1, seed=1), "heal") == [
        "J: enemy → discard", "Q: castle → enemy", "9, 8: discard → tavern, face down"]
    assert _said_after(game, game.new_match(1, seed=1), "draw") == [
        "J: enemy → discard", "Q: castle → enemy", "7, 6: tavern → hand (P1)"]
    m = game.new_match(1, seed=1)                  # (without the rules: every place the counts allow)
    before = m.view(0)
    m.apply("heal")
    assert "9, 8: discard → tavern / castle, face down" in changes(before, m.view(0), "heal", seat_name, "heal")


BASES = """
game "Bases" {
  players 1
  kind Card { label card }
  kind Base { label card }
  hook played()
  card Card "Echo" { copies: 2  on played() { move self to hand[0] } }
  card Card "Spark" { copies: 2 }
  card Base "Dojo" {}
  card Base "Oasis" {}
  card Base "Tortuga" {}
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: set, public
  zone base_deck: pile, hidden, internal
  zone bases: set, public
  setup { create cards Card in deck  create cards Base in base_deck  move top(base_deck) to bases }
  turn { step s {
    action next { move top(base_deck) to bases  move top(deck, 2) to hand[me]  end turn }
    action play(c in hand[me]) { move c to table  run played() of c  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_card_is_never_said_to_come_from_a_zone_that_holds_only_another_kind():
    """Smash Up: a base replaced a scored one while P1 drew two cards, and it said `Scry, Not Enough
    Bullets: deck (P1) or base deck → hand (P1)`. A card's ability moves `self` (any zone, as far
    as the rules say), but a base is never a card: the base deck gives bases only."""
    from rulelang.ir.flows import zone_flows
    game = rulelang.Game(rulelang.compile_source(BASES, "bases.rules"))
    flows = zone_flows(game.ir)
    assert flows.may("base_deck", "hand") and not flows.may("base_deck", "hand", "Card")
    assert flows.may("base_deck", "bases", "Base") and not flows.may("deck", "bases", "Base")
    assert _said_after(game, game.new_match(1, seed=1), "next") == [
        "Spark, Spark: deck → hand (P1)", "Oasis: base deck → bases"]


SLOTS = """
game "Slots" {
  players 2
  kind Card { rank: int  label "card" + text(rank) }
  zone deck: pile, hidden
  zone hand: set per player, others
  zone trash: set, public
  setup { for r in 1..8 { create Card(rank: r) in deck }  shuffle deck  for p in players { move top(deck, 2) to hand[p] } }
  turn { step act {
    action play(c in hand[me]) { move c to trash  move top(deck) to hand[me]  if size(deck) == 0 { finish draw }  end turn }
  } }
}
"""


def test_a_card_the_move_names_by_its_place_came_from_that_zone_refilled_meanwhile():
    """A player who cannot see their own hand plays `hand slot 1`, and the hand is refilled from the
    deck: it said `card3: deck → trash` (the hand's size had not changed, so only the deck was
    taken to have given a card), and the refill went unsaid."""
    game = rulelang.Game(rulelang.compile_source(SLOTS, "slots.rules"))
    m = game.new_match(2, seed=1)
    lines = _said_after(game, m, "play hand slot 1")
    played = next(z for z in m.view(0)["zones"] if z["name"] == "trash")["cards"][0]["label"]
    assert lines == [f"{played}: hand (P1) → trash", "1 card: deck → hand (P1)"], lines


MUSTER = """
game "Muster" {
  players 2
  board map: squares(3, 3)
  kind Unit { cl: text  label cl }
  kind Gem { g: text  label g }
  kind Gear { n: text  label n }
  zone here: set per cell of map, public
  zone barracks: pile per player, public, internal
  zone stash: set, hidden, internal
  zone buried: pile per cell of map, hidden
  zone deck: pile, hidden, internal
  zone hand: set per player, owner
  setup {
    for p in players { repeat 3 { create Unit(cl: "infantry") in barracks[p] } }
    repeat 3 { create Gem(g: "gem") in stash }
    for x in ["Bow", "Axe", "Shield", "Horn"] { create Gear(n: x) in deck }
  }
  turn { step s {
    action muster {
      move top(barracks[me]) to here[cell(map, "a1")]
      move top(barracks[next(me)]) to here[cell(map, "c3")]
      move top(stash) to buried[cell(map, "b2")]
      move top(deck) to hand[me]
      end turn
    }
    action stop { finish draw }
  } }
}
"""


def test_a_piece_from_an_internal_reserve_is_new_on_the_board_and_an_internal_size_is_not_said():
    """Dozen War: soldiers placed from each player's reserve (internal: never on the screen) while a
    token went from the stash (internal, hidden) under a mountain read `infantry: stash or deck → a1`
    and `1 card left stash`: the soldiers are new on the board, the stash's size is not shown."""
    game = rulelang.Game(rulelang.compile_source(MUSTER, "muster.rules"))
    lines = _said_after(game, game.new_match(2, seed=1), "muster")
    assert lines == ["Horn: deck → hand (P1)", "infantry: new in a1", "infantry: new in c3"], lines


WAYS = """
game "Ways" {
  players 2
  kind Card { n: int  label text(n) }
  zone deck: pile, hidden
  zone table: set, public
  zone hand: set per player, owner
  zone discard: pile, public
  zone vault: pile, hidden
  zone lost: pile, hidden
  var kept: Card = none
  proc bury(c) { move c to vault }
  setup { for i in 1..9 { create Card(n: i) in deck }  kept = top(deck) }
  turn { step s {
    action lay { let c = top(deck)  move c to table  move c to discard  end turn }
    action stash(c in hand[me]) { bury(c)  end turn }
    action drop { move kept to lost  end turn }
    action draw { move top(deck) to hand[me]  end turn }
    action stop { finish draw }
  } }
}
"""


def test_the_rules_ways_leave_out_no_way_a_card_may_take():
    """What the change lines read from the rules errs one way only: a card bound to a name is moved
    from wherever it has gone since (`let c = top(deck)  move c to table  move c to discard`), a
    proc's parameter is what its callers pass, a variable holds what was put in it."""
    from rulelang.ir.flows import ZoneFlows
    flows = ZoneFlows(rulelang.compile_source(WAYS, "ways.rules"))
    assert flows.may("deck", "discard") and flows.may("table", "discard")
    assert flows.may("hand", "vault") and flows.may("deck", "vault")
    assert flows.may("hand", "lost") and flows.may("discard", "lost")
    assert not flows.may("discard", "hand") and not flows.may("vault", "hand") and not flows.may("lost", "deck")
    assert flows.may_make("deck") and not flows.may_make("hand")
    assert flows.direct("deck", "lost") and flows.direct("hand", "vault") and not flows.direct("table", "hand")


def _lines_of(out: str, after: str) -> list[str]:
    part = out.split(after, 1)[1].split("==")[0]
    return [x[4:] for x in part.split("\n") if x.startswith("  · ")]


@pytest.mark.slow
def test_the_games_change_lines_where_testers_found_them_wrong():
    """The lines testers found naming a place a card never touched, in the games themselves."""
    def play(name, players, seed, lines, bots):
        out = io.StringIO()
        game = rulelang.load(str(ROOT / "games" / f"{name}.rules"))
        run_repl(game, players, seed, {}, bots, io.StringIO("\n".join(lines) + "\nquit\n"), out, f"{name}.rules")
        return out.getvalue()
    out = play("smash_up", 3, 11, ["redraw", "play neophyte on the homeworld", "play walker on grey", "no",
                                    "place they're coming to get you on the grey opal", "done",
                                    "play grave digger on the homeworld", "play tenacious z on tortuga",
                                    "act winds"], {1: "random", 2: "random"})
    assert _lines_of(out, "P1> act winds\n") == [
        "Neophyte, Enchantress, Summon, Enchantress, Tenacious Z: deck (P1) → hand (P1)",
        "They Keep Coming: hand (P1) → deck (P1), face down",
        "Discard piles: P1 (6): + Winds of Change"]          # (a long line: what came into it)
    out = play("regicide", 1, 1, ["play 9c ah", "play 8c", "discard 5c", "discard 4d", "discard 2s", "play 7h"], {})
    assert _lines_of(out, "P1> play 7h\n") == [
        "8♣: table → discard", "A♥, 9♣, 5♣, 4♦, 2♠: discard → tavern, face down",
        "Enemy health left: 4 of 20 → 20 of 20",
        # (a long value: its new words, since stop 63 — it was left unsaid)
        "Enemy immune to: now ♣, its own suit: ♣ cards attack without their power"]
    out = play("regicide", 3, 5, ["yield", "discard 7h", "discard 4c", "play 5d"], {1: "random", 2: "random"})
    assert _lines_of(out, "P1> play 5d\n")[:4] == [
        "9♣: table → discard", "3♣: tavern → hand (P1)", "2 cards: tavern → hand (P2)", "2 cards: tavern → hand (P3)"]
    out = play("dozen_war", 2, 4, ["fire powder", "night rider", "quicksilver", "quicksilver", "night rider"],
               {1: "greedy"})
    assert "  · Sky Arrow, cavalry: new in f1\n  · Fire Powder, archer: new in h1\n" in out, out
    assert "stash" not in out


def test_change_lines_name_where_each_card_really_went():
    """Random play of Regicide and the tutorial's game, each move read from a random seat: every
    card a line names lay in one of the places it says it came from and lies in one it says it went
    to (the engine's own record of where each component is, which no seat sees)."""
    from rulelang.engine.codegen.effects import _zone_info
    from rulelang.ir.flows import zone_flows
    from rulelang.play.screen import zone_title

    def where(m):
        info = _zone_info(m)
        return {c: info.get(id(m.where[c])) if m.where[c] is not None else None for c in range(len(m.labels))}

    def titles(view):
        out: dict = {}
        for z in view["zones"]:
            out.setdefault(zone_title(z, seat_name), set()).add((z["name"], z.get("owner")))
        return out

    def lies(loc, places, known):
        return loc is not None and any(loc[0] == n and (o is None or loc[1] == o)
                                       for p in places for n, o in known.get(p, ()))
    checked = 0
    for path, players, seed in [(ROOT / "games" / "regicide.rules", 3, 2), (ROOT / "docs" / "tutorial" / "cards_6.rules", 2, 3)]:
        game = rulelang.load(str(path))
        m, rng = game.new_match(players, seed=seed), random.Random(seed)
        for _ in range(80):
            if m.is_over:
                break
            seat = rng.randrange(players)
            before, was, told = m.view(seat), where(m), len(m.message_log())
            move = rng.choice(m.legal_actions())
            m.apply(move)
            now = where(m)
            said = " ".join([str(move)] + [e["text"] for e in m.message_log()[told:]])
            known = {**titles(before), **titles(m.view(seat))}
            for line in changes(before, m.view(seat), said, seat_name, str(move), zone_flows(game.ir)):
                moved = re.match(r"^(.*): (.*) → (.*)$", line)
                if not moved or re.match(r"^\d+ cards?$", moved[1]) or moved[2] not in known and " or " not in moved[2]:
                    continue
                froms, tos = moved[2].split(" or "), moved[3].removesuffix(", face down").split(" / ")
                for label in moved[1].split(", "):
                    assert any(m.labels[c] == label and lies(was[c], froms, known) and lies(now[c], tos, known)
                               for c in was), (line, str(move), seat)
                    checked += 1
    assert checked > 20


REDRAW = """
game "Redraw" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone deck: pile per player, hidden
  zone hand: set per player, owner
  zone discard: pile per player, public
  setup { for p in players { for i in 1..9 { create Card(n: i) in deck[p] }  move top(deck[p], 2) to hand[p] } }
  turn { step s {
    action redraw { move hand[me] to discard[me]  move top(deck[me], 2) to hand[me]  end turn }
    action pass { end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_hand_discarded_and_drawn_again_is_named_where_the_cards_may_have_come_from():
    """Smash Up's mulligan seen by another player: P2's hand went face up to P2's discard pile and
    P2 drew as many. The hand's size did not change, so it read `…: deck (P2) → discard (P2)`; the
    rules move cards from a hand to the discard pile and from the deck to the hand, so the hand may
    have given them (without the rules, by the counts alone, the deck gave them)."""
    game = rulelang.Game(rulelang.compile_source(REDRAW, "redraw.rules"))
    m = game.new_match(2, seed=1)
    m.apply("pass")
    lines = _said_after(game, m, "redraw")
    assert lines == ["c9, c8: deck (P2) or hand (P2) → discard (P2)", "2 cards left deck (P2)"], lines


def test_a_card_put_back_into_a_dealing_deck_is_said_to_be_there():
    """A new author's trick game: the tricks won go back into the deck, which is shuffled and deals
    four: a card seen on the table was said to go to `hand (P2) / won` — won is empty now, and the
    deck (its count the same) was never named. Now `hand (P2) / deck`."""
    game = rulelang.load(str(ROOT / "tests" / "games" / "tricks_back_to_deck.rules"))
    out = io.StringIO()
    run_repl(game, 2, 4, {}, {1: "random"}, io.StringIO("1\n1\nquit\n"), out, "tricks_back_to_deck.rules")
    lines = [x[4:] for x in out.getvalue().split("\n") if x.startswith("  · ")]
    put_back = [x for x in lines if x.startswith("c3: trick")]
    assert put_back == ["c3: trick → hand (P2) / deck, face down"], lines


TRICKS = """
game "Tricks" {
  players 3 ranked by tricks[me]
  option hands: int = 1
  enum Suit { clubs "♣", diamonds "♦", hearts "♥", spades "♠" }
  kind Card { suit: Suit  rank: int  label text(rank) + text(suit) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone trick: pile, public
  zone taken: pile, hidden
  var tricks: int = 0 per player, public
  var hand_no: int = 1, public
  var played_by: player = 0 per Card, public, internal
  def led = bottom(trick).suit
  def may_play(c: Card) = size(trick) == 0 or c.suit == led or not any(x.suit == led for x in hand[me])
  def best = first(c for c in trick where c.suit == led by -c.rank)
  proc deal() {
    for p in players { move hand[p] to deck }
    move taken to deck
    move trick to deck
    shuffle deck
    repeat 4 { for p in players { move top(deck) to hand[p] } }
  }
  setup { for s in Suit { for r in 2..9 { create Card(suit: s, rank: r) in deck } }  deal() }
  turn {
    step play {
      action play(c in hand[me]) require may_play(c) {
        move c to trick
        played_by[c] = me
        if size(trick) == player_count {
          let w = played_by[best]
          tricks[w] += 1
          move trick to taken
          if size(hand[w]) == 0 {
            if hand_no == hands { finish by score "the hands are played" }
            hand_no += 1
            deal()
          }
          end turn to w
        } else { end turn }
      }
    }
  }
}
"""


def test_a_trick_won_face_down_is_not_said_to_be_in_a_hand():
    """A new author's trick-taking game: each trick won read `2♠, 8♠: trick → taken / hand (P3),
    face down` — a new deal puts the tricks in the deck and deals it, but no deal came between."""
    game = rulelang.Game(rulelang.compile_source(TRICKS, "tricks.rules"))
    seen = []
    for seed in range(4):
        out = io.StringIO()
        run_repl(game, 3, seed, {}, {1: "random", 2: "random"}, io.StringIO("1\n" * 6 + "quit\n"), out, "tricks.rules")
        seen += [line for line in out.getvalue().splitlines() if ": trick → " in line]
    assert seen and all(line.endswith(": trick → taken, face down") for line in seen), seen


def test_look_at_a_card_the_options_left_out_says_so():
    """A rules audit: in a `characters=expansion` game `look Daniel` said no such name had rules
    text, as for a typo, though the game's notes say `look` reads any character."""
    game = rulelang.load(str(ROOT / "games" / "shadow_hunters.rules"))
    out = io.StringIO()
    run_repl(game, 4, 1, {"characters": "expansion"}, {}, io.StringIO("look Daniel\nlook Dnaiel\nquit\n"), out,
             "shadow_hunters.rules")
    assert ("P1> look Daniel\nerror: 'Daniel' is not in this game: its options leave it out (`rulelang rules` "
            "lists every card, with the options that bring it)\n") in out.getvalue()
    assert "P1> look Dnaiel\nerror: no card or piece named 'Dnaiel' has rules text" in out.getvalue()


def test_a_value_per_enum_value_that_is_none_everywhere_reads_none():
    """A new author's worker placement: `occupant: player = none per Space` read `occupant: `, blank."""
    from rulelang.play.render import render_value
    value = {"name": "occupant", "per_key": [{"key_text": "forest", "value": None}, {"key_text": "quarry", "value": None}]}
    assert render_value(value) == "occupant: none"
    value["per_key"][1]["value"] = 1
    value["per_key"][1]["text"] = "P2"
    assert render_value(value) == "occupant: (quarry) P2"


def test_regicide_says_which_number_cards_can_make_a_combo():
    """A first hour: every 6 to 10 read that it makes a combo with 1 to 3 more of its rank "if they add
    up to 10 or less", which they never do; a 2 makes one with up to three more (four 2s in all)."""
    path = str(ROOT / "games" / "regicide.rules")
    out = io.StringIO()
    run_repl(rulelang.load(path), 1, 4, {}, {}, io.StringIO("look 7h\nlook 2h\nlook 5h\nquit\n"), out, path,
             screen=(400, 60))
    text = " ".join(out.getvalue().split())
    assert "7 of Hearts: attack 7, worth 7 when discarded. Too high for a combo" in text
    assert "2 of Hearts: attack 2, worth 2 when discarded. With 1 to 3 more cards of the same rank it makes a combo" in text
    assert "5 of Hearts: attack 5, worth 5 when discarded. With 1 more card of the same rank" in text


def test_the_ways_to_end_name_an_action_as_players_type_it():
    """A new author's deck builder: the rulebook's turn said `end turn` (the action's `as` text) and its
    end of the game "after the action done" (its name in the rule file)."""
    game = rulelang.Game(rulelang.compile_source("""
game "Ends" {
  players 2
  var bought: int = 0
  turn { step s {
    action done as "end turn" { bought += 1  if bought > 5 { finish draw "the supply ran out" }  end turn }
  } }
}
""", "ends.rules"))
    text = rulebook(game)
    assert "(after the action end turn)" in text and "after the action done" not in text


def test_a_card_uncovered_on_a_pile_shown_by_its_top_is_not_new_there():
    """A new author's deck builder: every buy from a supply pile shown by its top read `Silver: new in
    supply` — the Silver under the one bought, seen now, was there all along."""
    game = rulelang.Game(rulelang.compile_source("""
game "Shop" {
  players 2
  kind Coin { label "Silver" }
  zone supply: pile, public, top
  zone bought: set per player, public
  setup { for i in 1..3 { create Coin() in supply } }
  turn { step s {
    action buy require size(supply) > 0 { move top(supply) to bought[me]  if size(supply) == 0 { finish draw "sold out" }  end turn }
  } }
}
""", "shop.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("buy\nquit\n\n"), out, "shop.rules", screen=(100, 40))
    text = out.getvalue()
    said = text[text.index("P1 plays: buy"):]
    assert "Silver: supply → bought (P1)" in said, said
    assert "new in supply" not in text


def test_a_value_whose_note_came_or_went_says_so():
    """A first hour at Regicide read `Shield from spades: 0 → 0 (no effect: the enemy is immune to ♠)`
    (no change?) and `… 0 (no effect: …) → 0` (the note the old value's?)."""
    from rulelang.play.screen import _change
    note = "0 (no effect: the enemy is immune to ♠)"
    assert _change("0", note) == "0, now (no effect: the enemy is immune to ♠)"
    # (`0, no longer (no effect: …)` read as if the shield were "no longer": another first hour)
    assert _change(note, "0") == "0, the note (no effect: the enemy is immune to ♠) gone"
    # (a paragraph is not said again for its note: Shadow Hunters' `You` line repeated it whole)
    you = "You are George, a Hunter with 14 HP (revealed). You win when every Shadow character is dead."
    assert _change(you, you + " (Used.)") == "…, now (Used.)"
    assert _change(you + " (Used.)", you) == "…, the note (Used.) gone"
    assert _change("2", "5") == "2 → 5" and _change("0", "0 (x") == "0 → 0 (x"



def test_choices_are_not_grouped_mid_phrase_of_a_part_said_again():
    """A new author's Kingdomino: `place 9: Water at → 1. c5, Water at d5` — the group's head ended
    inside a phrase its choices say again. It stops before it; other heads stay whole."""
    class Act:
        def __init__(self, name, args):
            self.name, self.args = name, args
    texts = ["place 9: Water at c5, Water at d5", "place 9: Water at d4, Water at d5"]
    assert group_actions([Act("place", {"d": 9, "a": i}) for i in range(2)], texts) == [
        ("place 9:", [(1, "Water at c5, Water at d5"), (2, "Water at d4, Water at d5")])]
    texts = ["attack e5 infantry e6 infantry", "attack e5 infantry f6 infantry"]
    assert group_actions([Act("attack", {"a": 1, "b": i}) for i in range(2)], texts)[0][0] == "attack e5 infantry"


def test_the_rulebook_says_who_starts_when_the_setup_names_them():
    """A new author's Oh Hell ended its setup `end turn to next(dealer)`: the rulebook said play
    starts with P1, and P2 moved first."""
    src = ('game "Dealer" {\n  players 3\n  var dealer: player = 0, public\n'
           '  setup { {END} }\n  turn { step s { action go { finish draw "done" } } }\n}\n')
    named = " ".join(rulebook(rulelang.Game(rulelang.compile_source(src.replace("{END}", "end turn to next(dealer)"),
                                                                    "d.rules"))).split())
    plain = " ".join(rulebook(rulelang.Game(rulelang.compile_source(src.replace("{END}", "dealer = 0"),
                                                                    "d.rules"))).split())
    assert "starting with the player the setup passes the first turn to, unless" in named
    assert "starting with P1" not in named
    assert "starting with P1, unless the rules say otherwise" in plain
    # through a procedure the setup calls, and a plain `end turn` (P2 starts): a review
    for end in ("deal()", "end turn"):
        src2 = src.replace("  setup {", "  proc deal() { end turn to next(dealer) }\n  setup {")
        text = " ".join(rulebook(rulelang.Game(rulelang.compile_source(src2.replace("{END}", end), "d.rules"))).split())
        assert "starting with the player the setup passes the first turn to" in text, end
