"""What a player reads of an action's typed words: an `as` text computed two ways in the rulebook
and `help`, and a refused choice told as refused (trials by new authors, stop 61)."""
from __future__ import annotations

import io

import rulelang
from rulelang.play.repl import run_repl
from rulelang.play.rulebook import action_help, rulebook

PAIRS = '''game "Pairs" {
  players 2
  def moves = [[5, 0], [7, 9]]
  var total: int = 0 per player
  about action advance "Use this pairing of the dice: advance the columns named."
  turn { step pick {
    action advance(o in moves)
        as (if o[1] == 0 then "advance " + text(o[0]) else "advance " + text(o[0]) + " and " + text(o[1])) {
      total[me] += o[0]
      if total[me] > 20 { finish win for me }
      end turn
    }
  } }
}
'''


def test_an_as_text_computed_two_ways_shows_the_words_both_start_with():
    """A new author's Can't Stop: the rulebook listed its action as `…` and `help advance` said
    "O: one of the values of `moves`", naming nothing a player types (`advance 7 and 9`)."""
    game = rulelang.Game(rulelang.compile_source(PAIRS, "pairs.rules"))
    book = rulebook(game)
    assert "- `advance …`: Use this pairing of the dice" in book and "- `…`" not in book
    helped = action_help(game, "advance", game.new_match(2, 1))
    assert helped.startswith("advance … (at step pick)")
    assert "…: made from one of the values of `moves`" in helped and "O:" not in helped



def test_an_as_text_whose_words_are_chosen_among_a_few_shows_each_of_them():
    """A new author's President, `as (if n == 1 then "single " else if n == 2 then "pair " else …) +
    rank_label[r]`: the rulebook and `help play` read `…R`."""
    source = PAIRS.replace('as (if o[1] == 0 then "advance " + text(o[0]) else "advance " + text(o[0]) + " and " + text(o[1]))',
                           'as (if o[1] == 0 then "single " else if o[1] == 1 then "pair " else "three ") + text(o[0])')
    game = rulelang.Game(rulelang.compile_source(source, "pairs.rules"))
    assert "- `single/pair/three O`: Use this pairing of the dice" in rulebook(game)
    assert action_help(game, "advance", game.new_match(2, 1)).startswith("single/pair/three O (at step pick)")
    spaced = source.replace('as (if o[1] == 0 then "single " else if o[1] == 1 then "pair " else "three ") + text(o[0])',
                            'as "play" + (if o[1] == 0 then " single" else " pair") + " of " + text(o[0])')
    assert "- `play single/pair of O`" in rulebook(rulelang.Game(rulelang.compile_source(spaced, "pairs.rules")))

BIDS = '''game "Bids" {
  players 2
  kind Card { rank: int  label (if rank == 1 then "A" else text(rank)) + "♠" }
  zone hand: set per player, owner
  zone deck: pile, hidden
  zone table: pile, public
  var said: int = 0
  setup {
    for p in players { for r in [2, 7] { create Card(rank: r) in hand[p] } }
    create Card(rank: 1) in deck
  }
  turn { step s {
    action bid(n in 0..3) as "bid " + text(n) require n != 2 else "a bid of two is never allowed" {
      said = n
      goto play
    }
  }
  step play {
    action play(c in hand[me]) require c.rank > 1 else "an ace is never played" { move c to table  if size(table) == 4 { finish draw }  end turn }
  } }
}
'''


def test_a_number_the_rules_refuse_is_told_with_their_reason_and_a_card_as_it_is_shown():
    """A new author's Oh Hell: the dealer's `bid 3` (in the bid's range, refused by its `require`)
    read "no bid choice has 3", not the rules' reason; `play A♠`, no such card in sight, read `a♠`."""
    game = rulelang.Game(rulelang.compile_source(BIDS, "bids.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("bid 2\nbid 9\nbid 1\n\nplay a♠\nquit\n"), out, "bids.rules",
             screen=(200, 40))
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error: ")]
    assert errors[0] == ("error: 'bid 2' is not a legal action now (legal: bid 0, bid 1, bid 3); when it is not "
                         "allowed, the rules say: a bid of two is never allowed")
    assert errors[1].startswith("error: 'bid 9' is not a legal action now (legal: ")
    assert errors[1].endswith("; no bid choice has 9")        # (out of 0..3: no choice, not refused)
    assert errors[2].endswith("; no play choice has A♠"), errors[2]


WORDS = '''game "Words" {
  players 2
  var n: int = 0
  turn { step s {
    action bid(k in 1..3) as "bid " + text(k) + "!" { n = k  end turn }
    action wait(t in 1..2) as (if t == 1 then "pass" else "pass turn") { n += t  if n > 5 { finish draw }  end turn }
  } }
}
'''


def test_an_as_text_names_a_parameter_beside_punctuation_and_keeps_a_whole_first_word():
    """A review: `bid N!` read "…: made from the numbers 1 to 3" (its parameter unseen beside `!`), and
    `if … then "pass" else "pass turn"` still read `…` (the shared word cut back to a space)."""
    game = rulelang.Game(rulelang.compile_source(WORDS, "words.rules"))
    book = rulebook(game)
    assert "- `pass …`" in book
    helped = action_help(game, "bid", game.new_match(2, 1))
    assert "K: one of the numbers 1 to 3" in helped and "made from" not in helped


BANS = '''game "Bans" {
  players 2
  enum General { gold "Gold Maker", iron "Iron Warden" }
  var banned: list[General] = []
  turn { step s {
    action go {
      choose g in [gold, iron] prompt "Ban a general" { banned = banned + [g] }
      finish draw
    }
  } }
}
'''


def test_the_questions_own_verb_typed_before_the_answer_is_understood():
    """A first hour at Dozen War: at "Ban a general", `ban gold` read "'ban gold' is not an answer";
    only `gold` was."""
    game = rulelang.Game(rulelang.compile_source(BANS, "bans.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("go\nban gold\n"), out, "bans.rules", screen=(200, 40))
    text = out.getvalue()
    assert "P1 chooses: Gold Maker" in text and "error:" not in text
    # (a review: `bid 2` at "bid coins", answers `0 coins`…, picked the list's 2nd, `1 coins`)
    coins = rulelang.Game(rulelang.compile_source('''game "Coins" {
  players 2
  turn { step s { action auction { choose n in 0..3 as text(n) + " coins" prompt "bid coins" { finish draw } } } }
}''', "coins.rules"))
    out = io.StringIO()
    run_repl(coins, 2, 1, {}, {}, io.StringIO("auction\nbid 2\n2 coins\n"), out, "coins.rules", screen=(200, 40))
    assert "P1 chooses: 1 coins" not in out.getvalue() and "P1 chooses: 2 coins" in out.getvalue()


def test_look_at_a_player_shows_their_zones_as_the_seat_sees_them():
    """A first hour at Shadow Hunters: `look P4` read "no card or piece named 'P4' has rules text"."""
    from pathlib import Path
    path = str(Path(__file__).resolve().parent.parent / "games" / "shadow_hunters.rules")
    out = io.StringIO()
    run_repl(rulelang.load(path), 4, 4, {}, {}, io.StringIO("look P2\nlook p3\nquit\n"), out, path, screen=(200, 40))
    text = out.getvalue()
    assert "character (P2): 1 card, hidden\nequipment (P2): empty\n" in text
    assert "character (P3): 1 card, hidden" in text and "error:" not in text


def test_look_at_a_player_shows_a_pile_kept_off_the_table_that_is_in_sight():
    """A first hour at Smash Up: `look P2` showed P2's deck and hand, not their discard pile (an
    internal zone, off the table under a `show` of its size, but face up)."""
    from pathlib import Path
    path = str(Path(__file__).resolve().parent.parent / "games" / "smash_up.rules")
    game = rulelang.load(path)
    m = game.new_match(2, 1)
    hidden_or_empty = {z["name"] for z in m.view(0)["zones"] if z.get("owner") == 1 and z.get("internal")}
    assert "discard" in hidden_or_empty
    out = io.StringIO()
    lines = "\n".join(["keep", "keep", "done", "look P2", "quit", "n"]) + "\n"
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO(lines), out, path, screen=(200, 40))
    text = out.getvalue().split("P1> look P2")[1]
    assert "discard (P2): " in text and "arranging" not in text and "hand (P2): " in text


def test_look_at_a_player_says_the_empty_places_of_a_family_of_many_in_one_line():
    """A new author's Stratego kept a public zone per player per cell: `look P2` printed 64 lines of
    `shown (P2, a1): empty`."""
    game = rulelang.Game(rulelang.compile_source('''game "Cells" {
  players 2
  kind Piece { label "piece" }
  board b: squares(4, 4)
  zone shown: set per player per cell of b, public, internal
  zone dead: set per player, public
  setup { create Piece() in shown[1, cell(b, "b2")] }
  turn { step s { action stop { finish draw } } }
}''', "cells.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("look P2\nquit\n"), out, "cells.rules", screen=(200, 40))
    text = out.getvalue().split("P1> look P2")[1]
    assert "shown (P2, b2): 1 piece: piece\nshown (P2): empty in 15 places\n" in text, text
    assert "dead (P2): empty" in text and "(P2, a1)" not in text


def test_look_names_a_kind_of_two_words_as_two_words():
    """A first hour at Dozen War: `look Bomb` read "Bomb (equipmentcard)"."""
    from pathlib import Path
    path = str(Path(__file__).resolve().parent.parent / "games" / "dozen_war.rules")
    out = io.StringIO()
    run_repl(rulelang.load(path), 2, 5, {}, {1: "random"}, io.StringIO("look Bomb\nquit\nn\n"), out, path)
    assert "Bomb (equipment card)\n" in out.getvalue().split("P1> look Bomb")[1]


def test_more_of_the_only_kind_offered_lists_it():
    """A new author's Yahtzee: `more score`, where every choice was a `score …`, said "no score is
    possible now"."""
    bids = rulelang.Game(rulelang.compile_source('''game "Bids" {
  players 2
  var bid: int = 0
  turn { step s {
    action raise(n in 1..30) require n > bid { bid = n  if bid == 30 { finish win for me }  end turn }
  } }
}''', "bids.rules"))
    out = io.StringIO()
    run_repl(bids, 2, 1, {}, {}, io.StringIO("more raise\nquit\n"), out, "bids.rules", screen=(80, 24))
    text = out.getvalue().split("P1> more raise")[1]
    assert "is possible now" not in text and "  1. raise 1\n" in text and "  30. raise 30\n" in text


GEMS = '''game "Ord" {
  players 2
  enum Gem { white "W", blue "U", green "G", red "R" }
  kind Chip { g: Gem  label text(g) }
  zone pool: set, public
  setup { for x in Gem { create Chip(g: x) in pool } }
  turn { step s {
    action take(gs subset of [x for x in Gem] size 3..3) { log "took " + text(gs)  end turn }
    action grab(cs subset of pool size 2..2) { finish draw }
  } }
}
'''


def test_several_values_of_one_pick_are_typed_in_any_order_as_cards_are():
    """A new author's gem tokens: `take R G W` was refused, "legal: take W G R, …", though the
    README says several of one pick are typed in any order; cards were (`grab G W`)."""
    game = rulelang.Game(rulelang.compile_source(GEMS, "ord.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("take R G W\ngrab R W\nquit\n"), out, "ord.rules", screen=(200, 40))
    text = out.getvalue()
    assert "P1 plays: take W G R" in text and "error" not in text
    assert "P2 plays: grab W R" in text


JUMPS = '''game "Jumps" {
  players 2
  var jumper: int = 1
  turn {
    step play { action start(f in 1..3, t in 4..5) as text(f) + "x" + text(t) { jumper = f  goto more } }
    step more { action jump(f in [jumper], t in 4..5) as text(f) + "x" + text(t) { finish draw } }
  }
}
'''


def test_a_one_value_parameter_that_stands_for_the_state_is_named_in_the_rulebook():
    """A new author's checkers: the piece that must jump on, `f in [jumper]`, read `xT` in the
    rulebook (for `FxT`): only a parameter worked out of the others (`su in [apart(u)]`) is left out."""
    game = rulelang.Game(rulelang.compile_source(JUMPS, "jumps.rules"))
    text = rulebook(game)
    assert text.count("`FxT`") == 2 and "`xT`" not in text


HOPS = '''game "Hops" {
  players 2
  board strip: squares(6, 1)
  kind Stone { v: int = 0 }
  zone spot: pile per cell of strip, public
  setup { create Stone() in spot[cell(strip, "a1")] }
  def stones = [c for c in cells(strip) where size(spot[c]) > 0]
  def empty_from(c: cell) = [d for d in cells(strip) where d != c and size(spot[d]) == 0]
  turn { step s {
    action hop(from in stones, to in empty_from(from)) require to == cell(strip, "c1")
        else "a hop goes two squares to the right" {
      move top(spot[from]) to spot[to]
      finish win for me
    }
  } }
}
'''


def test_a_square_of_the_board_the_rules_refuse_is_told_with_their_reason():
    """A first hour's Valgarð: a charge over an occupied octagon read "no charge choice has c4",
    where the rules' reason says what a charge needs; a square the board does not have is still
    no choice."""
    game = rulelang.Game(rulelang.compile_source(HOPS, "hops.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("hop a1 e1\nhop a1 z9\nquit\n"), out, "hops.rules", screen=(200, 40))
    errors = [line for line in out.getvalue().splitlines() if line.startswith("error: ")]
    assert errors[0] == ("error: 'hop a1 e1' is not a legal action now (legal: hop a1 c1); when it is not "
                         "allowed, the rules say: a hop goes two squares to the right")
    assert errors[1].endswith("; no hop choice has z9")


def test_help_gives_look_zone_s_example_with_a_zone_of_these_rules():
    """A first hour at Shadow Hunters: `help` said `look ZONE … (look hand)`, and the game has no
    `hand`: `look hand` showed the Handgun's text. The example names a zone the rules have."""
    source = HOPS.replace("zone spot: pile per cell of strip, public",
                          "zone spot: pile per cell of strip, public\n  zone kit: set per player, owner")
    game = rulelang.Game(rulelang.compile_source(source, "hops.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("help\nquit\n"), out, "hops.rules", screen=(200, 40))
    assert "look ZONE: of each card you see there (look kit);" in " ".join(out.getvalue().split())


MARSH = '''game "Marsh" {
  players 2
  board field: squares(3, 1), draw glyph, legend ["~: a marsh", ".: dry land"]
  var wet: bool = false per cell of field, public
  var crossed: int = 0 per player
  about var wet "a marsh: nobody may stop there"
  about var crossed "marshes crossed"
  def glyph(c: cell) = if wet[c] then "~" else "."
  setup { wet[cell(field, "b1")] = true }
  turn { step s { action cross { crossed[me] += 1  finish draw } } }
}
'''


def test_a_variable_s_about_words_are_said_where_the_screen_names_it():
    """A first hour at Dozen War: `look f6` read `mount: yes`, a name of the rule file. `about var
    NAME "…"` gives the words: `look CELL` says them beside the name, with what the board draws there
    and its key; the rulebook's list of what the screen shows gives them too."""
    from rulelang.play.rulebook import rulebook
    game = rulelang.Game(rulelang.compile_source(MARSH, "marsh.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("look b1\nlook a1\nquit\n"), out, "marsh.rules", screen=(200, 40))
    text = out.getvalue()
    assert "P1> look b1\nb1: on the board: ~; wet (a marsh: nobody may stop there): yes\n  the board's key: ~: a marsh\n" in text
    assert "P1> look a1\na1: empty\n" in text
    assert "The screen also shows: crossed: marshes crossed." in rulebook(game)


def test_an_illegal_move_sharing_only_its_name_lists_the_nearest_spelt_first():
    """A new author's Quoridor: `wall e4v` read `legal: wall a1h, wall a1v, wall b1h …`, in the
    listing's order, though the README promises the nearest first."""
    game = rulelang.Game(rulelang.compile_source('''game "Walls" {
  players 1
  turn { step s { action put(x in [i for i in 1..40 where i != 17], o in ["h", "v"]) as "put " + text(x) + o { finish draw } } }
}''', "walls.rules"))
    out = io.StringIO()
    run_repl(game, 1, 1, {}, {}, io.StringIO("put 17v\nquit\n"), out, "walls.rules")
    said = next(line for line in out.getvalue().split("\n") if line.startswith("error: 'put 17v'"))
    listed = said.split("(legal: ")[1].split(", ")[:3]
    assert all(x.endswith("v") for x in listed) and listed[0] != "put 1h", said


DUMMY = """
game "Dummy" {
  players 2
  kind Card { name: text  label name }
  zone hand: set per player, owner
  zone dummy: set, public
  setup {
    create Card(name: "Ace") in hand[players[0]]
    create Card(name: "Two") in dummy
  }
  turn { step s {
    action play(c in hand[me]) require false { finish draw "no" }
    action play_dummy(c in dummy) as "dummy " + text(c) { finish draw "done" }
  } }
}
"""


def test_the_actions_now_are_named_as_they_are_typed():
    """A new author's Bridge: `play 2c` on dummy's turn read "the actions now: play dummy", and `play
    dummy` was refused — the action is typed `dummy 2♣`, the words its `as` text starts with."""
    game = rulelang.Game(rulelang.compile_source(DUMMY, "dummy.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, stdin=io.StringIO("play Ace\nquit\n"), stdout=out)
    line = next(x for x in out.getvalue().splitlines() if "is not a legal action" in x)
    assert "the actions now: dummy;" in line, line


STRAIN_BIDS = """
game "Bids" {
  players 2
  enum Strain { clubs "♣", hearts "♥" }
  var level: int = 0
  turn { step auction {
    action bid(l in 1..3, s in Strain) as text(l) + text(s) require l > level else "a bid must be higher than the last one" {
      level = l  end turn
    }
    action stop { finish draw "done" }
  } }
}
"""


def test_a_choice_typed_as_shown_and_refused_gets_the_rules_reason():
    """A new author's Bridge: after `2♣`, `1c` read only "is not a legal action or a command" — the
    bid is shown `1♣` (its text starts with a value, no word names the action)."""
    game = rulelang.Game(rulelang.compile_source(STRAIN_BIDS, "bids.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, stdin=io.StringIO("2c\n\n1c\nquit\n"), stdout=out)
    line = next(x for x in out.getvalue().splitlines() if "'1c' is not" in x)
    assert "legal like it: 3♣;" in line and "the rules say: a bid must be higher than the last one" in line, line


def test_an_as_text_of_several_computed_parts_is_one_ellipsis_and_each_part_said():
    """A new author's Carcassonne: `help place` read `place C …………` (four computed parts side by side)
    and "…: made from one of held and one of the numbers 0 to 3", read as one thing."""
    game = rulelang.Game(rulelang.compile_source('''game "Tiles" {
  players 2
  kind Tile { n: int  e: int }
  zone held: pile, public
  setup { create Tile(n: 1, e: 2) in held }
  turn { step place {
    action place(t in held, c in 1..3, r in 0..3)
        as "place " + text(c) + " " + (if r == 0 then text(t.n) + text(t.e) else text(t.e) + text(t.n)) {
      finish draw "placed"
    }
  } }
}''', "tiles.rules"))
    helped = action_help(game, "place", game.new_match(2, 1))
    assert helped.startswith("place C … (at step place)"), helped
    assert "…: made from one of held, and from one of the numbers 0 to 3" in helped, helped


def test_a_choice_from_members_of_a_family_per_enum_value_names_each_member():
    """A new author's Splendor: `help buy` read "C: one of a player's market or a player's market or a
    player's market or your reserved" — `market` is one zone per tier, not per player."""
    game = rulelang.Game(rulelang.compile_source('''game "Rows" {
  players 2
  enum Tier { t1 "I", t2 "II" }
  kind C { }
  zone market: pile per Tier
  zone reserved: set per player
  setup { create C() in market[t1] }
  turn { step s {
    action buy(c in market[t1] + market[t2] + reserved[me]) { finish draw "bought" }
  } }
}''', "rows.rules"))
    helped = action_help(game, "buy", game.new_match(2, 1))
    assert "C: one of market (I) or market (II) or your reserved" in helped, helped


def test_help_of_an_action_named_whole_is_that_action_alone():
    """A new author's Splendor: `help reserve blind` printed the help of `reserve` too."""
    game = rulelang.Game(rulelang.compile_source('''game "Reserve" {
  players 2
  enum Tier { t1 "I", t2 "II" }
  turn { step s {
    action reserve(t in Tier) { finish draw "face up" }
    action reserve_blind(t in Tier) as "reserve blind " + text(t) { finish draw "blind" }
  } }
}''', "reserve.rules"))
    alone = action_help(game, "reserve blind", game.new_match(2, 1))
    assert alone.startswith("reserve blind T") and "reserve T (at step" not in alone, alone
    both = action_help(game, "reserve", game.new_match(2, 1))
    assert "reserve T (at step s)" in both and "reserve blind T" in both


def test_a_number_past_the_list_s_end_is_the_start_of_a_move_s_text():
    """A new author's Backgammon: with `1. 13/8  2. 8/3` listed, `13` read "there is no action 13;
    choose 1-2", though a unique start of a move is accepted. Past the list's end it is that start;
    within the list, the list's number; the start of several moves, ambiguous."""
    rules = """game "Points" {
  players 2
  var a: int = 13
  var b: int = 18
  var c: int = 19
  turn { step s {
    action move(p in [a, b, c], n in [5]) as text(p) + "/" + text(p - n) {
      if p == a { a -= n } else if p == b { b -= n } else { c -= n }
      if a < 5 { finish draw }
      end turn
    }
  } }
}"""
    game = rulelang.Game(rulelang.compile_source(rules, "points.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("13\n1\nquit\n"), out, "points.rules", screen=(200, 40))
    text = out.getvalue()
    assert "P1 plays: 13/8" in text and "P2 plays: 8/3" in text
    out = io.StringIO()
    rules2 = rules.replace("n in [5]", "n in [5, 6]")
    run_repl(rulelang.Game(rulelang.compile_source(rules2, "points.rules")), 2, 1, {}, {}, io.StringIO("13\nquit\n"),
             out, "points.rules", screen=(200, 40))
    assert "error: 13 is ambiguous here: 13/8, 13/7; type the whole action" in out.getvalue(), out.getvalue()


def test_a_square_or_a_number_typed_whole_is_never_taken_for_a_longer_one():
    """A new author's Blokus: on a board of 14 rows, `place I1 j1` played `place I1 j10`, a square
    not typed, as the only move whose text starts so. A number or a square is never cut short."""
    rules = """game "Rows" {
  players 2
  board grid: squares(3, 12)
  var taken: int = 0
  turn { step s {
    action place(c in [x for x in cells(grid) where x.row >= 10]) { taken += 1  if taken > 3 { finish draw }  end turn }
    action bid(n in [29, 30]) { taken += 1  if taken > 3 { finish draw }  end turn }
  } }
}"""
    game = rulelang.Game(rulelang.compile_source(rules, "rows.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("place a1\nbid 2\npla a10\nquit\n"), out, "rows.rules", screen=(200, 40))
    text = out.getvalue()
    assert "plays: place a10" in text and text.count(" plays: ") == 1, text
    assert "error: 'place a1' is not a legal action now" in text and "error: 'bid 2' is not a legal action now" in text
