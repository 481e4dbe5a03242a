"""What happened since a player's last decision (issue 13): the other players' moves and the
rule file's messages reach the screen before the prompt, each only for who may read it; a
watched bot game shows the board move by move; Regicide and Valgarð tell what matters."""
from __future__ import annotations

import io
import re
from pathlib import Path

import rulelang
from rulelang.play.repl import run_repl

ROOT = Path(__file__).resolve().parent.parent
HAND_OVER = "Pass the terminal to"

TELL = """
game "Tell" {
  players 2..3
  kind Gem { label "gem" }
  zone bag: pile, hidden
  zone hand: set per player, owner
  setup { repeat 5 { create Gem() in bag }  log "the game begins"  log "psst, P2: you go second" to [1] }
  turn { step s {
    action take {
      move top(bag) to hand[me]
      log text(me) + " takes a gem"
      log "secret for " + text(next(me)) to next(me)
      if size(bag) == 0 { finish draw "the bag is empty" }
      end turn
    }
  } }
}
"""


def play(source, players, lines, bots=None, **kw) -> str:
    game = rulelang.Game(rulelang.compile_source(source, "tell.rules"))
    out = io.StringIO()
    run_repl(game, players, 1, {}, bots or {}, io.StringIO("".join(f"{x}\n" for x in lines)), out, None, **kw)
    return out.getvalue()


def screens(text: str) -> list[tuple[str, str]]:
    """(the seat that had the terminal, what it saw) for each stretch between hand-overs."""
    out = []
    for part in text.split(HAND_OVER):
        seat = re.search(r"you are (P\d)", part)
        out.append((seat.group(1) if seat else "", part))
    return out


def test_each_player_reads_the_messages_for_them_and_no_others():
    text = play(TELL, 3, ["take", "", "take", "", "take", "", "quit"])
    seen = screens(text)
    assert [seat for seat, _ in seen] == ["P1", "P2", "P3", "P1"]
    for seat, part in seen:
        secrets = re.findall(r"secret for (P\d)", part)
        assert all(s == seat for s in secrets), (seat, secrets)
        assert ("psst" in part) == (seat == "P2")
    assert "(to you) secret for P2" in seen[1][1] and "(to you) psst, P2: you go second" in seen[1][1]
    assert "(to you) secret for P1" in seen[3][1]


def test_a_player_given_the_terminal_hears_every_move_since_their_last():
    text = play(TELL, 3, ["take", "", "take", "", "take", "", "quit"])
    p3 = screens(text)[2][1]
    assert "P1 plays: take" in p3 and "P2 plays: take" in p3          # both, not only the last one
    assert "  > P1 takes a gem" in p3 and "  > P2 takes a gem" in p3
    assert "  > the game begins" in p3
    back = screens(text)[3][1]
    assert "Since P1's last move:" in back
    assert "P1 plays: take" not in back.split("Since P1's last move:")[1]   # P1 made that move: not again
    assert "P2 plays: take" in back and "P3 plays: take" in back


def test_messages_to_a_bot_never_reach_the_screen():
    text = play(TELL, 2, ["take", "take", "take", "quit"], bots={1: "random"})
    assert "psst" not in text and "secret for P2" not in text
    assert "(to you) secret for P1" in text                          # the bot's move told P1
    assert text.count("  > the game begins") == 1


def test_a_watched_bot_game_shows_each_board_and_waits(monkeypatch):
    import rulelang.play.repl as repl
    waits = []
    monkeypatch.setattr(repl.time, "sleep", waits.append)
    text = play(TELL, 2, [], bots={0: "random", 1: "random"}, delay=0.25)
    assert text.splitlines()[2] == "Watching the bots play, 0.25 s a move."
    assert text.count("== Tell · turn") == 5 and text.count("== Tell · game over") == 1   # each move, then the end
    assert waits == [0.25] * 5
    assert "Game over: a draw. Why: the bag is empty" in text
    # nobody at the terminal plays a seat: the header says whose view it is, not "you are P1"
    assert "you are" not in text and "as P1 sees it" in text and "as P2 sees it" in text


def game_text(path: str, players: int, seed: int) -> str:
    game = rulelang.load(str(ROOT / "games" / path))
    out = io.StringIO()
    run_repl(game, players, seed, {}, {s: "random" for s in range(players)}, io.StringIO(""), out, None)
    return out.getvalue()


def test_regicide_tells_what_the_cards_did():
    text = "".join(game_text("regicide.rules", 2, seed) for seed in range(4))
    assert re.search(r"  > J[♥♦♣♠] is defeated", text)
    assert re.search(r"  > the next enemy is [JQK][♥♦♣♠]", text)
    assert re.search(r"  > \d+ cards are drawn round the table", text)
    assert re.search(r"  > \d+ cards from the discard pile go under the tavern", text)


def test_valgard_tells_a_capture():
    text = "".join(game_text("valgard.rules", 2, seed) for seed in range(3))
    assert re.search(r"  > P[12] captures a (warrior|Valkyrie) at [a-g][1-7]: back to its reserve", text)


PASS_LEFT = """game "Pass left" {
  players 3
  kind Card { n: int  label "c" + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone passing: set per player, hidden, internal
  zone won: set per player, public
  setup { for i in 1..9 { create Card(n: i) in deck }  for p in players { repeat 3 { move top(deck) to hand[p] } } }
  turn { step s {
    action pass(c in hand[me]) {
      move c to passing[me]
      for p in others { move first([x for x in hand[p]]) to passing[p] }
      for p in players { move passing[p] to hand[next(p)] }
      end turn
    }
    action keep(c in hand[me]) {
      move c to won[me]
      if size(won[me]) >= 2 { for p in players { move won[p] to deck }  finish draw }
      end turn
    }
  } }
}"""


def test_a_card_passed_out_of_sight_is_not_said_to_lie_where_nothing_lies_now():
    """A new author's Hearts: a card passed left read `hand (P1) → deck / hand (P2) / hand (P3) /
    hand (P4) / passing (P1) / … / passing (P4), face down` — the deck and the passing piles were
    empty when the move ended, so it could lie in none of them."""
    game = rulelang.Game(rulelang.compile_source(PASS_LEFT, "pass_left.rules"))
    out = io.StringIO()
    run_repl(game, 3, 1, {}, {1: "random", 2: "random"}, io.StringIO("1\nquit\n"), out, "pass_left.rules",
             screen=(200, 40))
    lines = [line for line in out.getvalue().splitlines() if "face down" in line]
    assert len(lines) == 1 and lines[0].endswith(": hand (P1) → hand (P2) / hand (P3), face down")


REGICIDE_11 = ["play 9♣", "discard 10♦", "play 3♥ A♠", "play 5♦", "discard A♥", "discard 10♥", "play 7♣",
               "discard 6♠", "discard 4♣", "play 10♠", "play 7♦", "discard 8♠", "discard 2♦", "yield",
               "discard 2♣", "discard 8♥", "play 4♦", "discard A♣", "discard 5♣", "discard 4♠", "play 7♥ A♦",
               "discard 10♣", "play 8♣", "yield", "discard 9♥", "discard 2♠", "play 8♦", "discard 5♠",
               "discard 3♣", "discard 5♥", "play 10♦", "discard 6♦", "discard 4♥", "play 2♦", "play J♣ A♠",
               "discard 6♣", "discard 6♥", "discard 3♠"]


SWAP = """game "Swap" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone court: pile, hidden
  zone hand: set per player, owner
  zone lost: set per player, public
  setup {
    for i in 1..6 { create Card(n: i) in court }
    shuffle court
    for p in players { move top(court, 2) to hand[p] }
  }
  turn {
    step act {
      action wait require me == 0 { end turn }
      action go require me == 1 {
        move first([c for c in hand[me]]) to lost[me]
        let x = first([c for c in hand[next(me)]])
        move x to court
        shuffle court
        move top(court) to hand[next(me)]
        finish draw
      }
    }
  }
}"""


def test_a_card_swapped_with_a_hidden_pile_is_not_said_to_go_to_a_hand_that_gave_a_card_elsewhere():
    """A new author's Coup: P1's proven Duke shuffled into the court and a card drawn for it,
    while P2 turned a card of its hidden hand face up, read `Duke: hand (P1) → hand (P2), face down`
    and `Captain: hand (P2) → hand (P1)`: P2's hand, having given a card to its own discard pile,
    was taken for the way the swap went. The court may have taken it (or, as far as the rules'
    moves tell, P2's hand by the court): both are named."""
    from rulelang.ir.flows import zone_flows
    from rulelang.play.render import seat_name
    from rulelang.play.screen import changes
    game = rulelang.Game(rulelang.compile_source(SWAP, "swap.rules"))
    m = game.new_match(2, 1)
    m.apply("wait")
    labels = lambda zone: [m.labels[c] for c in zone]       # noqa: E731
    p1, p2 = labels(m.Z[1][0]), labels(m.Z[1][1])
    before = m.view(0)
    m.apply("go")
    took = labels(m.Z[1][0])[-1]
    lines = changes(before, m.view(0), "go", seat_name, "go", zone_flows(game.ir))
    assert lines == [f"{p2[0]}: hand (P2) → lost (P2)", f"{p1[0]}: hand (P1) → court / hand (P2), face down",
                     f"{took}: court or hand (P2) → hand (P1)"], lines


def test_cards_healed_then_dealt_are_not_told_apart_by_their_place_in_the_discard_pile():
    """A terminal trial (Regicide, 3 players): after P3's `play 9♦ A♥` — the discard shuffled, ten
    cards put under the tavern, nine dealt round the table — the screen said `6♠, 8♥, 5♦, J♠, 7♥, 8♦`
    went to the tavern or P2's hand and only `2♦, 6♥` may have reached P3's: the first ones in the
    pile's old order were placed first. Any of the eight may lie in any of the three."""
    from rulelang.ir.flows import zone_flows
    from rulelang.play.render import seat_name
    from rulelang.play.screen import changes
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    m = game.new_match(3, 11)
    for move in REGICIDE_11:
        m.apply(move)
    before = m.view(0)
    m.apply("play 9♦ A♥")
    lines = changes(before, m.view(0), "play 9♦ A♥", seat_name, "play 9♦ A♥", zone_flows(game.ir))
    assert "4♣, 3♣: discard → hand (P1)" in lines
    assert "6♠, 8♥, 5♦, J♠, 7♥, 8♦, 2♦, 6♥: discard → tavern / hand (P2) / hand (P3), face down" in lines


def test_cards_dealt_round_the_table_come_from_the_tavern_not_from_another_hand():
    """Two trials (a leak scan's hot seat, a new author's reading): after a ♦ deal round the table
    each player read `9♥, 3♥: tavern or hand (P2) or hand (P3) → hand (P1)`; no rule moves a card
    from one hand to another, which only the discard pile and the tavern could join."""
    from rulelang.ir.flows import zone_flows
    from rulelang.play.render import seat_name
    from rulelang.play.screen import changes
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    m = game.new_match(4, 14)
    for move in ["play 9♣", "discard 10♣", "play 3♣", "discard 5♦", "discard 7♦", "yield", "discard 6♠",
                 "discard Jester", "discard 8♠"]:
        m.apply(move)
    before = [m.view(p) for p in range(4)]
    m.apply("play 8♦")
    dealt = [changes(before[p], m.view(p), "play 8♦", seat_name, "play 8♦", zone_flows(game.ir)) for p in range(4)]
    assert all(any(line.endswith(f": tavern → hand (P{p + 1})") for line in lines) for p, lines in enumerate(dealt)), dealt
    assert not any(" or " in line for lines in dealt for line in lines), dealt


CUPS = """
game "Cup Swap" {
  players 2
  kind Die { face: int  label text(face) }
  zone bag: pile, hidden
  zone cup: set per player, owner
  zone shown: set per player, public
  setup { for f in 1..6 { repeat 4 { create Die(face: f) in bag } }  shuffle bag
          for p in players { move top(bag, 2) to cup[p] } }
  turn { step act {
    action stop { finish draw }
    action lift { for p in players { move cup[p] to shown[p] }  for p in players { move top(bag, 2) to cup[p] }  end turn }
  } }
}
"""


def test_dice_laid_open_from_a_cup_refilled_at_once_are_not_said_to_come_from_the_bag():
    """A new author's Liar's Dice: each cup laid open, then filled again from the bag, read
    `1, 3: bag → shown (P2)` to P1 — no rule moves dice from the bag there; they came out of P2's
    cup, whose size did not change. Both ways the rules allow are named."""
    from rulelang.ir.flows import zone_flows
    from rulelang.play.render import seat_name
    from rulelang.play.screen import changes
    game = rulelang.Game(rulelang.compile_source(CUPS, "cups.rules"))
    m = game.new_match(2, 1)
    before = m.view(0)
    m.apply("lift")
    lines = changes(before, m.view(0), "lift", seat_name, "lift", zone_flows(game.ir))
    opened = ", ".join(m.labels[c] for c in m.Z[2][1])
    assert f"{opened}: bag or cup (P2) → shown (P2)" in lines and f"{opened}: bag → shown (P2)" not in lines, lines


ROLLS = """
game "Rolls" {
  players 2
  var dice: list[int] = [], public
  var kept: list[int] = [] per player, public
  var t: int = 0
  turn { step s { action roll {
    dice = [roll(6), roll(6)]
    append dice[0] to kept[me]
    t += 1
    if t > 3 { finish draw }
    end turn } } }
}
"""


def test_a_list_value_that_changes_is_told_as_a_value_is():
    """A new author's Can't Stop: the dice a bot rolled (a list) were never on the human's screen;
    a number's change was (`die: 3 → 4`)."""
    out = play(ROLLS, 2, ["roll", "roll", "quit", "n"], bots={1: "random"})
    bot = out[out.index("P2 (random) plays: roll"):]
    rolled = re.search(r"  · dice: (\d), (\d) → (\d), (\d)\n", bot)
    assert rolled, bot
    kept = re.search(r"  · kept: P2 empty → (\d)\n", bot)
    assert kept and kept.group(1) == rolled.group(3)


PAY = """
game "Pay" {
  players 2
  kind Card { c: text  label c }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone discard: pile, public, top
  setup {
    repeat 4 { create Card(c: "loco") in deck }
    repeat 4 { create Card(c: "red") in deck }
    for p in players { repeat 4 { move top(deck) to hand[p] } }
  }
  turn { step s {
    action pay as "pay 2 loco" require count(c.c == "loco" for c in hand[me]) >= 2 {
      let ls = [c for c in hand[me] where c.c == "loco"]
      move [ls[0], ls[1]] to discard
      end turn
    }
    action wait require me == 0 { end turn }
  } }
  turn limit 4 { finish draw }
}
"""


def test_a_count_said_beside_a_card_the_move_names_says_more():
    """A new author's Ticket to Ride: `claim … with 2 loco` paid two locomotives from P2's hand; the
    top one, named by the move, got no line, and "1 card left hand (P2)" read as the whole payment."""
    out = play(PAY, 2, ["wait", "quit", "n"], bots={1: "random"})
    moved = out[out.index("P2 (random) plays: pay 2 loco"):]
    assert moved.splitlines()[1:3] == ["  · 1 more card left hand (P2)", "  · 1 more card added to discard"]


RACE = """
game "Race" {
  players 2
  var pos: int = 0 per player
  var die: int = 0, internal
  on turn_start { die = roll(6)  log text(me) + " rolls " + text(die) }
  turn { step go {
    action advance { pos[me] += die  if pos[me] >= 20 { finish win for me "home" }  end turn }
  } }
}
"""


def test_a_moves_changes_are_told_before_what_the_next_turns_start_says():
    """A new author's race game: `P1 plays: move P1/1`, `> P2 rolls 5`, then `· P1/1: pos 0 → 2`
    read as if P2's roll had moved P1's pawn; the move's own changes come before the next turn's
    messages."""
    game = rulelang.Game(rulelang.compile_source(RACE, "race.rules"))
    out = io.StringIO()
    run_repl(game, 2, 3, {}, {1: "random"}, io.StringIO("advance\nquit\nn\n"), out, "race.rules")
    text = out.getvalue()
    mine = text[text.index("P1 plays: advance\n"):].splitlines()[1:3]
    assert re.fullmatch(r"  · pos: P1 0 → \d", mine[0]) and re.fullmatch(r"  > P2 rolls \d", mine[1]), mine
    bots = text[text.index("P2 (random) plays: advance\n"):].splitlines()[1:3]
    assert re.fullmatch(r"  · pos: P2 0 → \d", bots[0]) and re.fullmatch(r"  > P1 rolls \d", bots[1]), bots


SLOTS = """
game "Slots" {
  players 2..3
  kind Card { n: int  label "card " + text(n) }
  zone deck: pile, hidden
  zone hand: pile per player, others
  zone pile: pile, public
  setup { for i in 1..12 { create Card(n: i) in deck }  for p in players { move top(deck, 2) to hand[p] } }
  turn { step s {
    action discard(c in hand[me]) {
      move c to pile
      move top(deck) to hand[me]
      if size(deck) < 2 { finish draw "the deck is low" }
      end turn
    }
  } }
}
"""


def test_a_player_given_the_terminal_hears_what_the_others_moves_changed_as_they_see_it():
    """A new author's Hanabi, hot seat: P1's recap of P2's `discard hand slot 1` did not say which
    card went or came (a bot's move said it), and the move's text names only a slot. Each seat's
    recap tells the changes as that seat saw them; the mover never reads its own cards' names."""
    text = play(SLOTS, 2, ["discard hand slot 1", "", "discard hand slot 1", "", "quit"])
    seen = screens(text)
    assert [seat for seat, _ in seen] == ["P1", "P2", "P1"]
    assert "  · 1 card: deck → hand (P1)" in seen[0][1]          # (their own draw: unnamed)
    back = seen[2][1].split("Since P1's last move:")[1]
    assert re.search(r"P2 plays: discard hand slot 1\n  · card \d+: hand \(P2\) → pile\n"
                     r"  · card \d+: deck → hand \(P2\)\n", back), back
    for seat, part in seen:                      # nobody reads the name of a card coming into their hand
        assert not re.search(rf"card \d+: \w+ → hand \({seat}\)", part), (seat, part)
    # a bot's move between two humans: the human away from the terminal hears its changes too
    text = play(SLOTS, 3, ["discard hand slot 1", "", "discard hand slot 1", "", "quit"], bots={1: "random"})
    seen = screens(text)
    assert [seat for seat, _ in seen][:2] == ["P1", "P3"]
    p3 = seen[1][1]
    assert re.search(r"P2 \(random\) plays: discard hand slot \d\n  · card \d+: hand \(P2\) → pile\n", p3), p3


BURY = """
game "Bury" {
  players 2
  kind Card { name: text  label name }
  zone hand: pile per player, owner
  zone market: pile, public
  zone table: pile, public
  zone vault: pile, hidden
  zone deck: pile, public
  setup {
    create Card(name: "Earl") in hand[0]
    create Card(name: "Duke") in hand[0]
    create Card(name: "Earl") in hand[1]
    create Card(name: "Earl") in market
    create Card(name: "Duke") in market
    for i in 1..3 { create Card(name: "Knave") in deck }
  }
  turn { step s {
    action bury { choose c in hand[me] prompt "bury which?" { move c to vault }  move top(market) to table  end turn }
    action take require size(deck) > 0 { move top(deck) to table }
    action stop { finish draw }
  } }
}
"""


def test_what_a_seat_reads_of_a_move_never_depends_on_a_secret_choice_it_could_not_see():
    """An adversarial review: P1 buries a card of its hidden hand (a secret choice) and the market's
    Duke goes to the table; P2's recap dropped `· Duke: market → table` when the buried card was a
    Duke, since the answer's text, `Duke`, was taken as said (a bot's move read the same way)."""
    def p2_reads(lines):
        part = play(BURY, 2, lines).split(HAND_OVER)[-1]
        return [x for x in part.splitlines() if x.startswith("  ·")]
    seen = {choice: p2_reads(["bury", choice, "", "quit"]) for choice in ("Duke", "Earl")}
    assert seen["Duke"] == seen["Earl"] and "  · Duke: market → table" in seen["Duke"], seen


def test_a_move_undone_leaves_no_change_line_in_the_next_recap():
    """An adversarial review: P1 took a card, undid it and ended the turn; P2's recap told
    `· Knave: deck → table` of the move taken back."""
    out = play(BURY, 2, ["take", "undo", "stop"])
    assert "Knave: deck → table" not in out.split("undone")[-1]
    out = play(BURY.replace('action stop { finish draw }', 'action done { end turn }  action stop { finish draw }'),
               2, ["take", "undo", "done", "", "recap", "quit"])
    after = out.split(HAND_OVER)[-1]
    assert "undone" in after and "Knave: deck → table" not in after, after


GUESS = """
game "Guess" {
  players 2
  var said: int = 0
  turn { step s {
    action pass require me == players[0] { end turn }
    action say(n in 1..50) require me == players[1] { said = n  end turn }
    action stop { finish draw }
  } }
}
"""


def test_a_bot_asked_again_after_an_undo_answers_as_it_did():
    """A new author's Liar's Dice: undoing past a search bot's bid and asking again gave another bid
    each time (`bid 6 x 2`, `bid 5 x 5`, `bid 4 x 2`): a person could probe its hidden dice. The
    bots' generators go back with the undo."""
    for kind in ("random", "ismcts:20"):
        out = play(GUESS, 2, ["pass", "undo", "pass", "undo", "pass", "quit"], bots={1: kind})
        said = re.findall(r"P2 \([^)]*\) plays: (say \d+)", out)
        assert len(said) == 3 and len(set(said)) == 1, (kind, said)


PER_GEM = """
game "Chg" {
  players 2
  enum Gem { white "W", blue "U" }
  var a: int = 0 per player
  var b: int = 0 per player per Gem
  var c: int = 0 per Gem
  turn { step s {
    action go { a[me] += 1  b[me, white] += 1  c[blue] += 1  if a[me] > 3 { finish draw }  end turn }
  } }
}
"""


def test_a_value_kept_per_enum_value_is_said_when_it_changes():
    """A new author's gem tokens (`per player per Gem`) and bank (`per Gem`) changed every turn and
    no line ever said so; a value `per player` was said."""
    game = rulelang.Game(rulelang.compile_source(PER_GEM, "chg.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("go\nquit\n"), out, "chg.rules", screen=(200, 40))
    lines = [line.strip() for line in out.getvalue().splitlines() if line.strip().startswith("·")]
    assert lines[:6] == ["· a: P1 0 → 1", "· b: (P1, W) 0 → 1", "· c: (U) 0 → 1",
                         "· a: P2 0 → 1", "· b: (P2, W) 0 → 1", "· c: (U) 1 → 2"], lines


def test_a_card_moved_in_the_branches_of_a_loop_over_a_zone_comes_from_that_zone():
    """A new author's Sheriff: `for c in [c for c in bag[m]] { if legal(c) { move c to stand[m] } else { move
    c to smuggled[m] } }` read `Bread, Cheese: bag (P2) or smuggled (P2) → stand (P2)`, though no rule
    moves a card out of `smuggled`: a move inside an `if` was taken for one of a card from anywhere."""
    from rulelang.ir.flows import zone_flows
    source = """game "Sell" {
  players 2
  kind Card { v: int  label "ware " + text(v) }
  zone bag: set per player, public
  zone stand: set per player, public
  zone smuggled: set per player, public
  setup { for v in 1..4 { create Card(v: v) in bag[0] } }
  turn { step s { action sell {
    for c in [c for c in bag[me]] { if c.v > 2 { move c to stand[me] } else { move c to smuggled[me] } }
    for c in bag[me] { move c to stand[me]  move c to smuggled[me] }
    finish draw "sold" } } }
}"""
    flows = zone_flows(rulelang.compile_source(source, "sell.rules"))
    assert flows.may("bag", "stand") and flows.may("bag", "smuggled")
    assert flows.direct("stand", "smuggled")               # (the second loop's second move: a card on the stand)
    assert not flows.direct("smuggled", "stand") and not flows.may("smuggled", "bag")


def test_a_refill_whose_count_reads_the_hands_is_drawn_from_the_deck_alone():
    """A new author's Durak: P2 took the table, and P1's refill, `move top(deck, 3 - size(hand[p])) to
    hand[p]`, read `c13: deck or hand (P2) → hand (P1)`: the count's `hand[p]` was taken for where the
    cards come from, and no rule moves a card from one hand to another."""
    from rulelang.ir.flows import zone_flows
    source = """game "Refill" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  setup {
    for i in 1..20 { create Card(n: i) in deck }
    for p in players { move top(deck, 3) to hand[p] }
  }
  turn { step act {
    action play(c in hand[me]) { move c to table  end turn }
    action take require size(table) > 0 {
      move table to hand[me]
      for p in players { if size(hand[p]) < 3 { move top(deck, 3 - size(hand[p])) to hand[p] } }
      end turn
    }
  } }
  on stuck { finish draw }
}"""
    flows = zone_flows(rulelang.compile_source(source, "refill.rules"))
    assert flows.direct("deck", "hand") and flows.direct("table", "hand") and not flows.direct("hand", "hand")
    out = play(source, 2, ["play c20", "", "take", "", "quit", "n"], bots={})
    p1 = out[out.index("Since P1's last move:"):]
    assert "  · c14: deck → hand (P1)\n" in p1 and "deck or hand" not in out, p1


def test_a_named_card_played_from_a_hand_refilled_from_a_common_pile_comes_from_the_hand():
    """A new author's Briscola: P2 played 7c, took the trick and both hands were refilled from the stock in
    the same action. P1 read `Ac: stock → hand (P1)` alone — 7c was taken to come from the stock (P2's hand
    held as many cards as before), and P2's draw went unsaid while the stock dropped by two."""
    from rulelang.ir.flows import zone_flows
    from rulelang.play.repl import seat_name
    from rulelang.play.screen import changes
    source = """game "Tricks" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone stock: pile, hidden
  zone hand: set per player, owner
  zone won: pile per player, public
  setup {
    for i in 1..12 { create Card(n: i) in stock }
    for p in players { move top(stock, 3) to hand[p] }
  }
  turn { step act {
    action play(c in hand[me]) {
      move c to won[me]
      for p in players { move top(stock) to hand[p] }
      if size(stock) < 2 { finish draw }
      end turn
    }
  } }
}"""
    ir = rulelang.compile_source(source, "tricks.rules")
    game = rulelang.Game(ir)
    m = game.new_match(2, seed=3)
    m.apply(m.legal_actions()[0])
    before = m.view(0)
    played = m.legal_actions()[0]
    m.apply(played)
    said = m.log_for(0)[-1]
    lines = changes(before, m.view(0), said, seat_name, said, zone_flows(ir))
    drawn = [x for x in lines if x.endswith("stock → hand (P1)")]
    assert len(drawn) == 1 and "1 card: stock → hand (P2)" in lines, lines
    assert not any("→ won (P2)" in x for x in lines), lines            # (the move's text names the card played)


GUARD = """game "Guard" {
  players 3
  enum Rank { r0 "Guard", r1 "Priest", r2 "Baron" }
  kind Card { r: Rank  label text(r) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone discard: pile, public
  setup {
    for i in 1..10 { create Card(r: r0) in deck }
    for i in 1..10 { create Card(r: r1) in deck }
    for i in 1..10 { create Card(r: r2) in deck }
    shuffle deck
    for p in players { move top(deck) to hand[p] }
    move top(deck) to hand[players[0]]
  }
  turn {
    step play {
      action guess(c in hand[me], g in Rank) {
        move c to discard
        for x in hand[next(me)] { if x.r == g { move x to discard  move top(deck) to hand[next(me)] } }
        if size(deck) < 3 { finish draw }
        end turn
      }
    }
  }
  on turn_start { move top(deck) to hand[me] }
}"""


def test_a_guess_naming_another_players_card_is_no_draw_of_the_guesser():
    """A review of the rule above: `guess Baron Priest` discards the guesser's Baron and the next player's
    Priest, who draws. The third seat read `1 card: deck → hand (P2)` too: the Priest was taken for a card
    of the guesser's hand (emptied of its count by the Baron), and its place for a draw that never was."""
    import random
    from rulelang.ir.flows import zone_flows
    from rulelang.play.repl import seat_name
    from rulelang.play.screen import changes
    ir = rulelang.compile_source(GUARD, "guard.rules")
    game, flows = rulelang.Game(ir), zone_flows(ir)
    said_of = {}
    for step in (4, 6, 9):
        m = game.new_match(3, seed=0)
        rng = random.Random(0)
        for _ in range(step):
            acts = m.legal_actions()
            m.apply(acts[rng.randrange(len(acts))])
        mover = m.current_player
        reader = (mover + 2) % 3
        sizes = [len(h) for h in m.state()["zones"]["hand"]]
        before = m.view(reader)
        acts = m.legal_actions()
        m.apply(acts[rng.randrange(len(acts))])
        said = m.log_for(reader)[-1]
        grown = [p for p, h in enumerate(m.state()["zones"]["hand"]) if len(h) > sizes[p]]
        said_of[step] = changes(before, m.view(reader), said, seat_name, said, flows)
        assert [f"1 card: deck → hand (P{p + 1})" for p in grown] == said_of[step], (said, said_of[step])
    assert all(lines for lines in said_of.values())                 # (each step had a draw to say)
