"""Issue 28, read at an 80×24 terminal by a person new to the games (the second round of findings):
every line the terminal prints breaks between words, a command typed at the pager's prompt is run
(never lost), a choice of several items says how to answer it and takes several numbers at once, a
player's own secret answer is told to them, a paged list of choices names every kind of action on
its first page, and the smaller things on screen (step names, commands that show nothing, the
board's key, the authors' line under `help ACTION`, who may act out of turn)."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.play.repl import run_repl
from test_terminal_fit import PROMPT, sized

ROOT = Path(__file__).resolve().parent.parent
DOZEN_WAR = str(ROOT / "games" / "dozen_war.rules")
REGICIDE = str(ROOT / "games" / "regicide.rules")


def piped(name: str, players: int, seed: int, lines: list[str], bots=None, screen=(80, 24), pager=True,
          options=None) -> str:
    """The output of a match played with `lines` typed, at a terminal of `screen`'s size."""
    path = str(ROOT / "games" / f"{name}.rules")
    game = rulelang.load(path)
    out = io.StringIO()
    run_repl(game, players, seed, options or {}, {1: "random"} if bots is None else bots,
             io.StringIO("".join(x + "\n" for x in lines)), out, path, screen=screen, pager=pager)
    return out.getvalue()


@pytest.mark.slow
def test_every_line_breaks_between_words_at_an_80_column_terminal():
    """The echo of an answer (`P1 chooses: … (asked: Which general stands in your North infantry
    castle?)`), `help ACTION` and an error were cut by the terminal at column 80, inside a word."""
    term = sized("play", DOZEN_WAR, "--seed", "3", "--players", "2", "--bot", "2=random", columns=80, lines=24)
    for typed in ("1", "1", "1", "1", "1", "help dig", "look grey", "quit"):
        term.expect(PROMPT)
        term.line(typed)
    term.expect(r"Save before leaving|left the game")
    term.line("")
    term.close()
    text = term.text
    assert "castle?)" in text and "help dig" in text
    long = [line for line in text.split("\n") if len(line.rstrip("\r")) > 80]
    assert not long, long
    said = re.search(r"P1 chooses: \S+ \S+ \(asked: Which general stands in your North infantry\n  castle\?\)", text)
    assert said, text[-3000:]
    assert re.search(r"\n  attack or use a skill this turn", text), text[-3000:]     # help: between words


@pytest.mark.slow
def test_a_command_typed_at_the_pagers_prompt_ends_the_pager_and_is_run():
    """`rules` stopped at `-- more: Enter, q to stop --`; `hand` typed there was taken for "go on"
    and lost. Now it ends the pager and is run as the next command."""
    term = sized("play", REGICIDE, "--seed", "4", columns=80, lines=24)
    term.expect(PROMPT)
    term.line("rules all")
    term.expect(r"-- more: Enter, q to stop --")
    term.line("hand")
    found = term.expect(rf"hand \(P1\): \d+ cards|{re.escape('-- more: Enter, q to stop --')}")
    assert found.group().startswith("hand"), term.text[-2000:]
    term.expect(PROMPT)
    term.line("help")
    term.expect(r"-- more: Enter, q to stop --")     # (an 80×24 screen: help is longer than 23 lines)
    term.line("q")
    term.expect(PROMPT)
    term.line("quit")
    term.expect(r"Save before leaving|left the game")
    term.line("")
    term.close()


def test_a_command_typed_at_the_pager_is_run_when_input_is_piped_too():
    out = piped("regicide", 1, 4, ["rules all", "log", "quit"], bots={})
    assert "-- more: Enter, q to stop --log" in out
    assert re.search(r"-- more: Enter, q to stop --log\nP1> log\nno actions yet", out), out[-1500:]


GEMS = """
game "Gems" {
  players 2
  kind Gem { label card }
  card Gem "Ruby" {}
  card Gem "Opal" {}
  card Gem "Jade" {}
  card Gem "Onyx" {}
  zone deck: pile, hidden, internal
  zone hand: set per player, owner
  zone vault: pile per player, owner
  setup { create cards Gem in deck  move deck to hand[0] }
  turn { step sort_gems {
    action stash {
      choose xs subset of hand[me] size 0..size(hand[me]) prompt "gems to put in your vault" { move xs to vault[me] }
      end turn
    }
    action stack {
      choose ys order of hand[me] size size(hand[me]) prompt "stack your gems, from the top down" { move ys to vault[me] }
      end turn
    }
    action quit_game { finish draw }
  } }
}
"""


@pytest.fixture(scope="module")
def gems():
    return rulelang.Game(rulelang.compile_source(GEMS, "gems.rules"))


def gem_play(game, lines: list[str], screen=(80, 24)) -> str:
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("".join(x + "\n" for x in lines)), out, "gems.rules", screen=screen)
    return out.getvalue()


def test_a_choice_of_several_items_says_how_to_answer_it_and_what_is_picked(gems):
    """`Portal: minions to put in your hand` said nothing of picking one at a time then `done`, and
    nothing showed what was picked already, though the list renumbers after each pick."""
    out = gem_play(gems, ["stash", "Opal", "quit"])
    first, second = out.split("P1> Opal")[0], out.split("P1> Opal")[1]
    assert "(pick one at a time, then done; several at once: 1 2 5)" in first
    assert "Picked so far" not in first
    assert "Picked so far: Opal" in second.split("P1> quit")[0]
    out = gem_play(gems, ["stack", "Jade", "quit"])
    assert "(pick them in order, one at a time; several at once: 1 2)" in out and "In order so far: Jade" in out



def test_an_action_typed_by_its_name_in_the_rules_with_underscores_is_found(gems):
    """A new author typed `buy_phase`, as their rules name it (and `help buy_phase` found it), and
    read "not a legal action … (legal now: buy phase)". Only the action's name is so read: an enum
    value named with an underscore (`c_clubs`) is typed as it is (a review found it refused)."""
    out = gem_play(gems, ["quit_game"])
    assert "P1 plays: quit game" in out and "error" not in out
    strain = rulelang.Game(rulelang.compile_source("""game "Strain" {
  players 2
  enum Strain { c_clubs "♣", d_diamonds "♦", notrump "NT" }
  turn { step act {
    action bid(n in 1..2, s in [c_clubs, d_diamonds, notrump]) as "bid " + text(n) + text(s) { end turn }
    action pay_up require false else "nothing is owed" { end turn }
  } }
  turn limit 4 { finish draw }
}""", "strain.rules"))
    out = io.StringIO()
    run_repl(strain, 2, 1, {}, {}, io.StringIO("bid 1 c_clubs\npay_up\nquit\n"), out, "strain.rules", screen=(200, 40))
    text = out.getvalue()
    assert "P1 plays: bid 1♣" in text and "error: 'pay up' is not a legal action now: nothing is owed" in text


def test_a_pick_of_an_exact_size_does_not_promise_a_done(gems):
    """A new author's Coup: an exchange returning exactly two cards (`size 2..2`) said "then done",
    but `done` is never offered there: the last pick ends it."""
    pair = rulelang.Game(rulelang.compile_source(GEMS.replace("size 0..size(hand[me])", "size 2..2"), "gems.rules"))
    out = gem_play(pair, ["stash", "Opal", "Ruby", "quit"])
    first = out.split("P1> Opal")[0]
    assert "(pick one at a time; several at once: 1 2)" in first and "then done" not in out
    # (the example names options on screen: `1 2 5` stood above three — a new author's Coup)
    assert "  4. Onyx" in first and "  5." not in first


def test_several_numbers_or_names_are_as_many_picks_in_turn(gems):
    """`1 2 5` gave an error; now it is that many picks, numbered as the list is on screen."""
    out = gem_play(gems, ["stash", "1 3", "quit"])
    listed = re.findall(r"(\d)\. (\w+)", out.split("P1> 1 3")[0].split("gems to put in your vault")[-1])
    names = dict(listed)
    assert re.search(rf"P1 chooses: {names['1']} .*\nP1 chooses: {names['3']} ", out), out
    assert f"Picked so far: {names['1']}, {names['3']}" in out
    out = gem_play(gems, ["stash", "jade, ruby, done", "", "quit"])
    assert re.search(r"P1> jade, ruby, done\nP1 chooses: Jade \(asked: gems to put in your vault\)\n"
                     r"P1 chooses: Ruby .*\nP1 chooses: done ", out), out
    out = gem_play(gems, ["stash", "1 9", "1 1", "ruby, pearl", "log", "quit"])
    assert "error: there is no choice 9; choose 1-5" in out and "a number is given twice" in out
    assert "'pearl' is not an answer (the answers: " in out and "no actions yet" not in out.split("P1> log")[0]
    assert re.search(r"P1> log\n  1\. P1: stash\n(?!  2\.)", out), out      # (nothing was picked)


def test_a_whole_order_typed_at_once_is_taken_though_its_last_item_places_itself(gems):
    """Dozen War's turn order, `1 2`: the last item of an order goes where it must without a
    question, and the second number was refused ('P2' cannot be picked after P1)."""
    out = gem_play(gems, ["stack", "4 3 2 1", "", "quit"])
    listed = dict(re.findall(r"(\d)\. (\w+)", out.split("P1> 4 3 2 1")[0].split("from the top down")[-1]))
    assert "cannot be picked" not in out
    order = ", ".join(listed[k] for k in "4321")
    assert f"· {order}: hand (P1) → vault (P1)" in out, out


def test_a_players_own_secret_answer_is_told_to_them_and_to_nobody_else(gems):
    """P1's pick from their own hand was echoed to P1 as `P1 makes a secret choice`; P2, who may
    not see P1's hand, still reads it so (after the hand-over too), and in `log`."""
    out = gem_play(gems, ["stash", "Opal", "done", "", "log", "quit"])
    mine, theirs = out.split("Pass the terminal to P2")
    assert "P1 chooses: Opal (asked: gems to put in your vault)" in mine
    assert "secret" not in mine
    assert "Opal" not in theirs
    assert "P1 makes a secret choice (asked: gems to put in your vault)" in theirs
    assert "gems to put in your vault → (a secret choice)" in theirs


def test_a_paged_list_of_choices_names_every_kind_of_action_on_its_first_page():
    """Dozen War's first screen listed only moves (`… 89 more choices`): the attack was choice 40 of
    46, and nothing said there was one. Now the first page names each kind with its count, and
    `more attack` lists that kind (by the numbers of the whole list)."""
    import random
    game = rulelang.load(DOZEN_WAR)
    match = game.new_match(2, seed=3)
    rng = random.Random(3)
    for _ in range(3000):
        actions = match.legal_actions()
        names = [getattr(a, "name", None) for a in actions]
        if match.current_player == 0 and match.question is None and "attack" in names and len(actions) > 30 \
                and names.index("attack") > 25:
            break
        match.apply(rng.choice(actions))
    else:
        raise AssertionError("no such position")
    out = io.StringIO()
    run_repl(game, 2, 3, {}, {1: "random"}, io.StringIO("more attack\nquit\n"), out, DOZEN_WAR, match=match,
             screen=(80, 24), pager=True)
    text = out.getvalue()
    screen = text[:text.index("P1> more attack")]
    assert "more choices" in screen
    counts = {n: names.count(n) for n in set(names)}
    line = re.search(r"every kind: (.*)$", screen, re.M)
    assert line, screen
    assert f"attack ({counts['attack']})" in line.group(1) and f"move ({counts['move']})" in line.group(1)
    listed = text[text.index("P1> more attack") + len("P1> more attack\n"):text.index("P1> quit")].strip().split("\n")
    numbers = [i for i, n in enumerate(names, 1) if n == "attack"]
    assert [int(x.split(".")[0]) for x in listed] == numbers, listed
    assert all(" attack " in f" {x} " for x in listed), listed


def test_the_header_names_the_step_in_words_and_not_while_a_question_is_asked(gems):
    out = gem_play(gems, ["stash", "quit"])
    first, asked = out.split("P1> stash")
    assert "· step sort gems ·" in first and "sort_gems" not in out
    assert "== Gems · turn 1 · P1's turn · you are P1\n" in asked       # (the prompt says what is going on)


def test_a_screen_that_leaves_zones_out_names_them_and_no_command_that_shows_nothing():
    """Valgarð has no cards: `(the table: type table; your own cards: hand)` named cards and a
    command for them. Now the line names the zones left out, for `table`."""
    out = piped("valgard", 2, 5, ["1", "1", "1", "quit"])
    assert "your own cards" not in out and "hand" not in out
    assert "\n  (reserve, fallen: type table)\n" in out, out


BURN = """
game "Burn" {
  players 2
  kind Gem { label card }
  card Gem "Ruby" {}
  card Gem "Opal" {}
  card Gem "Jade" {}
  card Gem "Onyx" {}
  card Gem "Pearl" {}
  card Gem "Topaz" {}
  zone deck: pile, hidden
  zone ash: pile, public, internal
  zone vault: pile, hidden, internal
  zone hand: set per player, owner
  zone box: set per player, owner
  setup { create cards Gem in deck  move top(deck, 2) to hand[0] }
  turn { step s {
    action burn { move top(deck, 1) to ash }
    action bury { move top(deck, 1) to vault }
    action keep { choose xs subset of hand[me] size 0..2 prompt "gems to keep" { move xs to box[me] } }
    action quit_game { finish draw }
  } }
}
"""


def test_a_card_leaving_the_screen_says_where_it_went_and_a_moved_card_is_never_dropped():
    """`1 card left deck` when the card went to a zone the screen does not show (an internal
    pile): it is named when the reader may see it there, else where it went is said; and the
    answer `Pearl` (the action's own text) went missing from `Topaz: hand (P1) → box (P1)`."""
    game = rulelang.Game(rulelang.compile_source(BURN, "burn.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("burn\nbury\nkeep\nTopaz\nPearl\nquit\n"), out, "burn.rules")
    text = out.getvalue()
    burnt = text.split("P1> burn\n")[1].split("P1> bury")[0]
    assert re.search(r"  · \w+: deck → ash\n", burnt), burnt
    buried = text.split("P1> bury\n")[1].split("P1> keep")[0]
    assert "  · 1 gem: deck → vault\n" in buried, buried          # (its kind: not "card")
    kept = text.split("P1> Pearl\n")[1]
    assert "  · Topaz, Pearl: hand (P1) → box (P1)\n" in kept, kept


def test_the_terminals_own_counts_read_in_the_singular_for_one():
    from rulelang.play.screen import more_lines
    assert more_lines(1, [], 80) == ["  … 1 more choice: type more (or a number, or the start of a text)"]
    assert more_lines(2, [], 80)[0].startswith("  … 2 more choices: ")
    many = more_lines(1, [("attack with the cavalry of the north", 6), ("move the infantry", 38)], 60)
    assert many[-1].startswith("  … 1 more choice: ") and all(len(x) <= 60 for x in many), many


def test_a_card_may_be_typed_in_plain_letters_in_a_unicode_terminal_too():
    """`7d` for `7♦`, `as 6s` for `A♠ 6♠`: a player without the glyphs on their keyboard."""
    game = rulelang.load(REGICIDE)
    texts = [a.text for a in game.new_match(1, seed=3).legal_actions()]
    assert "play 7♦" in texts and "play A♠ 6♠" in texts
    out = piped("regicide", 1, 3, ["play 7d", "quit", "n"], bots={})
    assert "P1 plays: play 7♦" in out
    out = piped("regicide", 1, 3, ["play as 6s", "quit", "n"], bots={})
    assert "P1 plays: play A♠ 6♠" in out


def typing(folder, source: str, players: int, bots=None):
    """A function typing one line into a new match of `source` (then `quit`): what the terminal printed."""
    path = folder / "typed.rules"
    path.write_text(source, encoding="utf-8")
    game = rulelang.load(str(path))

    def typed(line: str) -> str:
        out = io.StringIO()
        run_repl(game, players, 1, {}, bots or {}, io.StringIO(line + "\nquit\nn\n"), out, str(path))
        return out.getvalue()
    return typed


PICK_THREE = """
game "Pick three" {
  players 2
  enum Suit { hearts "♥", spades "♠" }
  kind Card {
    suit: Suit
    rank: int
    label text(rank) + text(suit)
  }
  zone hand: set per player, owner
  zone given: set per player, public
  setup {
    for r in [2, 5, 9, 11] { create Card(suit: hearts, rank: r) in hand[0] }
    for r in [3, 4, 6, 7] { create Card(suit: spades, rank: r) in hand[1] }
  }
  turn {
    step giving {
      action give(cs subset of hand[me] size 3) { move cs to given[me]
        end turn }
    }
  }
  when size(given[0]) > 0 and size(given[1]) > 0 { finish draw "both gave" }
}
"""


def test_a_pick_of_several_is_never_completed_from_the_cards_typed_first(tmp_path):
    """A new author's Hearts: `pass 2h` was taken for the secret three-card pass `pass 2♥ 9♥ A♥`
    (the only one whose text starts so) and sent at once; which other two it added depended on the
    order of the hand. A pick typed in part is refused; typed whole, in any order, it is played."""
    typed = typing(tmp_path, PICK_THREE, 2, {1: "random"})

    out = typed("give 5h 9h")
    assert "error: 'give 5h 9h' names 2 of the 3 picked in give 5♥ 9♥ 11♥: type every one you pick" in out
    assert "P1 plays" not in out
    assert "P1 plays: give 5♥ 9♥ 11♥" in typed("give 11h 5h 9h")
    assert "P1 plays: give 5♥ 9♥ 11♥" in typed("give 5h 9h 11h")
    # (a number is never cut short: `1` is no start of `11♥` — a new author's Blokus typed `j1` and
    # played `j10`, a square not typed)
    assert "P1 plays" not in typed("give 5h 9h 1")


MIXED_PICKS = """
game "Picks" {
  players 2
  kind Card { name: text  label name }
  zone hand: set per player, owner
  zone given: set per player, public
  setup {
    for x in ["Sharp Sword", "War Axe", "Iron Shield"] { create Card(name: x) in hand[0] }
    create Card(name: "Owl") in hand[1]
  }
  turn { step s {
    action hand_over(cs subset of hand[me] size 2, p in others) { move cs to given[p]  finish draw "given" }
  } }
}
"""


def test_a_pick_beside_another_choice_or_under_a_two_word_name_is_named_card_by_card(tmp_path):
    """A review: the guard above let `hand over sharp P2` through where the pick sat beside a
    player to give to, and counted words, not cards: `sharp war` names Sharp Sword and War Axe."""
    typed = typing(tmp_path, MIXED_PICKS, 2)

    out = typed("hand over war")                     # (the one text that starts so: not completed)
    assert "names 1 of the 2 picked in hand over War Axe Iron Shield P2" in out and "P1 plays" not in out
    assert "P1 plays: hand over Sharp Sword War Axe P2" in typed("hand over sharp war p2")
    assert "P1 plays: hand over Sharp Sword War Axe P2" in typed("sword axe")



PAIRS = """
game "Pairs" {
  players 1
  kind Gear { name: text  sort: int  label name }
  kind Coin { label "Coin" }
  zone hand: set per player, owner
  zone purse: set per player, owner
  zone gone: set, public
  setup { create Gear(name: "Sharp Sword", sort: 1) in hand[0]  create Gear(name: "Sword of Light", sort: 1) in hand[0]
          create Gear(name: "Iron Ring", sort: 2) in hand[0]  create Gear(name: "Ruby Ring", sort: 2) in hand[0]
          repeat 3 { create Coin() in purse[0] } }
  turn { step s {
    action pair(cs subset of hand[me] size 2) require cs[0].sort == cs[1].sort { move cs to gone  finish draw "paired" }
    action pay(cs subset of purse[me] size 2..3) as "pay " + text(size(cs)) + " coins" { move cs to gone  finish draw "paid" }
  } }
}
"""


def test_a_word_that_goes_on_with_one_label_names_no_other_and_an_as_text_is_typed_whole(tmp_path):
    """A second review: `pair iron ring` played Iron Ring and Ruby Ring (`ring` counted for the
    second), and the whole `as` text `pay 2 coins`, which names no card, was refused."""
    typed = typing(tmp_path, PAIRS, 1)

    for line in ("pair iron ring", "pair sharp sword", "pa iron"):
        out = typed(line)
        assert "names 1 of the 2 picked" in out and "P1 plays" not in out, line
    assert "P1 plays: pair Iron Ring Ruby Ring" in typed("pair iron ruby")
    assert "P1 plays: pair Sharp Sword Sword of Light" in typed("pair sharp sword sword of light")
    assert "P1 plays: pay 2 coins" in typed("pay 2 coins")


def test_a_step_everyone_answers_at_once_says_so_in_the_header_and_whose_turn_it_is(tmp_path):
    """A new author's Hearts read `turn 52 · P1's turn · step passing` while all four passed at once; with
    no turn player said, another's Qwixx read `turn 2 · step whites · P1 to act` on P2's turn, whose
    player alone is penalised for marking nothing."""
    path = tmp_path / "bid.rules"
    path.write_text('game "Bid" { players 2  var bid: int = 0 per player, public\n'
                    '  turn { step bidding simultaneous { action offer(n in 1..3) { bid[me] = n }\n'
                    '                                    reveal { finish draw "both bid" } } } }\n', encoding="utf-8")
    out = io.StringIO()
    run_repl(rulelang.load(str(path)), 2, 1, {}, {}, io.StringIO("quit\nn\n"), out, str(path))
    headers = [line for line in out.getvalue().splitlines() if line.startswith("==")]
    assert headers and headers[0] == "== Bid · turn 1 · P1's turn · step bidding · all answer at once · you are P1", \
        headers


def test_a_number_that_is_an_actions_only_word_and_another_actions_place_is_ambiguous(tmp_path):
    """A new author's Connect Four, `drop(col in 1..7)`, column 1 full: `4` dropped in column 5 (the
    list's 4th), though `drop 4` was offered; `=4` said no action is exactly 4."""
    typed = typing(tmp_path, 'game "Columns" { players 1\n  var at: int = 0, public\n'
                   '  turn { step s { action drop(col in 2..5) { at = col  finish draw "dropped" } } } }\n', 1)

    out = typed("2")
    assert "error: 2 is ambiguous here: drop 2, or number 2 in the list (drop 3); type =2 for drop 2, #2 " \
           "for drop 3" in out and "P1 plays" not in out
    assert "P1 plays: drop 2" in typed("=2")
    assert "P1 plays: drop 3" in typed("#2")
    assert "P1 plays: drop 2" in typed("1")          # the list's first is `drop 2` itself: no doubt
    assert "P1 plays: drop 5" in typed("5")          # no 5th in the list

    # (a review: under a two-word name, and offered by two actions, it was still the list's place)
    typed = typing(tmp_path, 'game "Columns" { players 1\n  var at: int = 0, public\n'
                   '  turn { step s { action drop_disc(col in 2..5) { at = col  finish draw "dropped" }\n'
                   '                  action pop(col in 2..3) { at = col  finish draw "popped" } } } }\n', 1)
    assert "error: 2 is ambiguous here: drop disc 2, pop 2, or number 2 in the list (drop disc 3); type the " \
           "whole action, or #2 for drop disc 3" in typed("2")
    assert "P1 plays: drop disc 4" in typed("=4")
    assert "=3 is ambiguous here: drop disc 3, pop 3; type the whole action" in typed("=3")
    # (a second review: the form language.md shows, `as "drop in column " + text(col)`, and `04`)
    typed = typing(tmp_path, 'game "Columns" { players 1\n  var at: int = 0, public\n'
                   '  turn { step s { action drop(col in 2..5) as "drop in column " + text(col) {\n'
                   '                    at = col  finish draw "dropped" } } } }\n', 1)
    assert "error: 2 is ambiguous here: drop in column 2, or number 2 in the list (drop in column 3)" in typed("2")
    assert "04 is ambiguous here: drop in column 4, or number 4 in the list" in typed("04")
    assert "P1 plays: drop in column 4" in typed("=4")


def test_a_number_that_is_a_word_of_several_actions_and_the_place_of_one_of_them_is_that_place(tmp_path):
    """A new author's Ludo: `1. move R1 to square 1 … 4. move R4 to square 1` — `1` was refused as
    ambiguous at nearly every move, though both readings take the list's first."""
    def cards(label: str, numbers: str, action: str):
        return typing(tmp_path, f'game "Cards" {{ players 1\n  kind Card {{ n: int  label {label} }}\n'
                      f'  zone hand: pile, public\n  setup {{ for i in {numbers} {{ create Card(n: i) in hand }} }}\n'
                      f'  turn {{ step s {{ action {action} {{ finish draw "done" }} }} }} }}\n', 1)
    typed = cards('"R" + text(n)', "1..4", 'move(t in hand) as "move " + text(t) + " to square 1"')
    assert "P1 plays: move R1 to square 1" in typed("1")
    assert "P1 plays: move R3 to square 1" in typed("3")
    # (a number that ends a card's name is no value typed: a new author's Sushi Go, `take Maki 1`)
    typed = cards('(if n == 0 then "Pudding" else "Maki " + text(n))', "[0, 1, 3]", "take(c in hand)")
    assert "P1 plays: take Pudding" in typed("1")
    assert "P1 plays: take Maki 1" in typed("2")
    # (a review: a card named by a number alone is that number; bids that differ in a value are no place)
    typed = cards("text(n)", "[3, 5, 8, 12, 40]", "play(c in hand)")
    assert "error: 5 is ambiguous here: play 5, or number 5 in the list (play 40)" in typed("5")
    typed = typing(tmp_path, 'game "Bids" { players 1\n  turn { step s { action bid(n in 1..3, f in 5..6) as "bid " + text(n) '
                   '+ " x " + text(f) { finish draw "bid" } } } }\n', 1)
    assert "error: 5 is ambiguous here: bid 1 x 5, bid 2 x 5, bid 3 x 5, or number 5 in the list (bid 3 x 5)" in typed("5")
    # (a second review: `bid 2 on Lot 2` ends with a card's name, but is a bid of 2 too)
    typed = cards('"Lot " + text(n)', "1..3", 'bid(k in 1..2, c in hand) as "bid " + text(k) + " on " + text(c)')
    assert "error: 2 is ambiguous here: bid 2 on Lot 2, or number 2 in the list (bid 1 on Lot 2)" in typed("2")
    # (nor a pick's, `pick two card 2 card 16`: `16` past the list's end played it — a review)
    typed = cards('"card " + text(n)', "[2, 16]", 'take(c in hand) { finish draw "taken" }  action two(xs subset of hand size 2)')
    assert "error: there is no action 16; choose 1-3" in typed("16")


def test_a_picks_cards_cut_short_may_be_typed_in_any_order():
    """A first hour: the page teaches `play 4d a` for `play 4♦ A♥`; `play 9c a` for `play A♥ 9♣` read
    "no play choice has a" — cut short, the cards had to come in the action's own order."""
    out = piped("regicide", 1, 1, ["play 9c a", "quit", "n"], bots={})
    assert "P1 plays: play A♥ 9♣" in out
    out = piped("regicide", 1, 1, ["play a 9c", "quit", "n"], bots={})
    assert "P1 plays: play A♥ 9♣" in out
    # with the action's name left out too (`8d ac` was "not a legal action", `ac 8d` played: a first hour)
    for typed, played in (("8d ac", "play A♣ 8♦"), ("2s 2h", "play 2♥ 2♠")):
        out = piped("regicide", 1, 6, [typed, "quit", "n"], bots={})
        assert f"P1 plays: {played}" in out, out[-600:]


def test_the_ace_of_spades_typed_first_is_a_card_not_the_as_command():
    """A first hour: `as 7d` (A♠ with 7♦) read "as is for another player at the terminal" — `as` is both
    the Ace of spades and the command `as P2`; a seat after it is the command."""
    out = piped("regicide", 1, 3, ["as 7d", "quit", "n"], bots={})
    assert "P1 plays: play A♠ 7♦" in out and "another player at the terminal" not in out
    out = piped("regicide", 1, 3, ["as p2", "quit", "n"], bots={})
    assert "as is for another player at the terminal, and this game has one player" in out


def test_a_suit_typed_by_name_after_a_rank_is_the_card_shown_so():
    """A first-hour trial: README says `spades` for `♠`, but `play 2 spades` was not understood: the
    card shows `2♠`, the symbol joined to its rank."""
    out = piped("regicide", 1, 3, ["play 7 diamonds", "quit", "n"], bots={})
    assert "P1 plays: play 7♦" in out
    out = piped("regicide", 1, 3, ["play A spades 6 spades", "quit", "n"], bots={})
    assert "P1 plays: play A♠ 6♠" in out


def test_an_empty_hidden_zone_reads_empty_as_an_empty_zone_in_sight_does():
    """`hand (P1): 0 cards, hidden · hand (P2): empty` on one line told two ways of one thing."""
    from rulelang.play.render import render_zone
    hidden = {"name": "hand", "owner": 1, "count": 0, "cards": None, "known": []}
    assert render_zone(hidden) == "hand (P2): empty"
    assert render_zone(dict(hidden, count=2)) == "hand (P2): 2 cards, hidden"
    assert render_zone(dict(hidden, cards=[], owner=0)) == "hand (P1): empty"


def test_a_revealed_component_of_a_hidden_zone_is_listed_with_its_values():
    """A new author's dice: `reveal cup[me]` showed the others `cup (P1): 2 dice, revealed: die, die`
    — no faces — while their view carried them (`component_values`)."""
    game = rulelang.Game(rulelang.compile_source("""game "Lift" {
  players 2
  kind Die { label "die" }
  zone cup: set per player, owner
  var face: int = 1 per Die
  setup { for p in players { create Die() in cup[p] }  for d in cup[0] { face[d] = 4 } }
  turn { step call { action lift { reveal cup[me]  end turn }  action stop { finish draw } } }
}""", "lift.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("lift\n\nstop\n"), out, "lift.rules")
    assert "cup (P1): 1 die, revealed: die (face 4)" in out.getvalue()


def test_look_at_a_zone_tells_components_apart_by_their_values():
    """A new author's Farkle: the table listed `tray: 3 dice: die (face 2), die (face 6) ×2`, and
    `look tray` said `die ×3` — no faces, and different dice counted as copies; `look P2` and a
    hidden zone's revealed dice had no faces either. The values are the table's: no `internal` one (a
    review: `Warbot (at 91)`, Smash Up's internal base of a card, by its id)."""
    game = rulelang.Game(rulelang.compile_source("""game "Tray" {
  players 2
  kind Die { label "die" text "A six-sided die." }
  zone tray: set
  zone cup: set per player, owner
  var face: int = 1 per Die
  var spin: int = 7 per Die, internal
  setup {
    repeat 3 { create Die() in tray }
    repeat 2 { create Die() in cup[1] }
    face[first(tray)] = 2
    for d in cup[1] { face[d] = 5 }
  }
  turn { step call { action show { reveal cup[1]  end turn }  action stop { finish draw } } }
}""", "tray.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("look tray\nlook P2\nshow\n\nlook cup p2\nstop\n"), out, "tray.rules")
    text = out.getvalue()
    tray = text[text.index("P1> look tray\n"):].split("P1> ")[1]
    assert "  die (face 2) (die)\n" in tray and "  die (face 1) ×2 (die)\n" in tray, tray
    assert tray.count("A six-sided die.") == 1, tray                # (its rules text once)
    assert "spin" not in text                                       # (`internal`: as on the table, left out)
    later = text[text.index("> look cup p2\n"):]
    assert "die (face 5)" in later, later


def test_several_numbers_where_one_action_is_chosen_say_one_at_a_time():
    out = piped("valgard", 2, 1, ["1 2", "quit"], bots={})
    said = " ".join(out.split("error: ", 1)[-1].split("P1>")[0].split())
    assert said == "'1 2': one number at a time here (several numbers answer a question that picks several things)"


def test_a_hot_seat_game_whose_first_decision_is_p2s_passes_the_terminal_first():
    """Dozen War's setup asks P2 first: P2's view was drawn at once for whoever started the game
    (P1). With one human, or P1 first, nothing is asked."""
    out = piped("dozen_war", 2, 1, ["", "quit"], bots={})
    assert out.index("Pass the terminal to P2 and press Enter") < out.index("you are P2")
    out = piped("dozen_war", 2, 1, ["quit"], bots={0: "random"})
    assert "Pass the terminal" not in out.split("P2>")[0]
    out = piped("regicide", 2, 4, ["quit"], bots={})
    assert "Pass the terminal" not in out.split("P1>")[0]


TRICK = """
game "Trick" {
  players 3
  kind Card { v: int  label "c" + text(v) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone trick: pile, public
  zone taken: pile per player, hidden
  setup { for v in 1..9 { create Card(v: v) in deck }  shuffle deck  for p in players { repeat 3 { move top(deck) to hand[p] } } }
  turn { step s {
    action play(c in hand[me]) {
      move c to trick
      if size(trick) == 3 { move trick to taken[0] }
      end turn
    }
  } }
  when size(hand[2]) == 0 { finish draw }
}
"""


def test_a_hidden_card_that_passed_through_the_table_says_where_it_ended():
    """P3's card went face up to the trick and the trick went face down to P1's pile before P1 saw
    the screen again. From P1's seat the cards it saw on the trick went into P1's pile: P3's hand
    lost a card meanwhile, but no rule moves a card from the trick to a hand (it said `trick →
    taken (P1) / hand (P3)`, by the counts alone), and P3's card went to P1's pile the same way —
    never a guess said as a fact (a new author's Love Letter was told a King went into a hand when
    it had gone under the deck)."""
    game = rulelang.Game(rulelang.compile_source(TRICK, "trick.rules"))
    out = io.StringIO()
    run_repl(game, 3, 1, {}, {1: "random", 2: "random"}, io.StringIO("1\nquit\nn\n"), out, "trick.rules")
    after = out.getvalue().split("P1> 1\n")[1].split("==")[0]
    assert "  · c3, c5: trick → taken (P1), face down\n  · 1 card: hand (P3) → taken (P1)\n" in after, after


def test_a_move_that_is_not_legal_says_what_is_or_what_was_meant():
    """`march d1 d3`, `paly 10♣`: a bare "not a legal action or a command". Now the legal actions
    of that name, nearest first; a name typed amiss gets a "did you mean"; `help flip` finds the
    one action whose name starts so (typing `flip` played it, `help flip` said there is none)."""
    out = piped("regicide", 1, 454463, ["paly 10c", "play zz", "help flip", "quit", ""], bots={}, screen=(200, 40))
    assert "error: 'paly 10c' is not a legal action now (did you mean play 10♣?)" in out     # (the legal one, whole)
    legal = [str(a) for a in rulelang.load(str(ROOT / "games" / "regicide.rules")).new_match(1, seed=454463).legal_actions()
             if str(a).startswith("play ")]
    assert f"error: 'play zz' is not a legal action now (legal: {', '.join(legal[:8])}" in out
    assert "P1> help flip\nflip jester (at steps play, suffer)" in out
    out = piped("valgard", 2, 5, ["march d1 d3", "quit", ""], screen=(200, 40))
    assert ("error: 'march d1 d3' is not a legal action now (`march` is not allowed now; the actions now: place; "
            "type help march)") in out          # (what is allowed: `skip`, where `pass` was typed — a first hour)
    # an action of several words typed by its first, or amiss: "did you mean stop?" for `stop` (a new author)
    game = rulelang.Game(rulelang.compile_source(
        'game "S" { players 2  turn { step a { action go { goto b } }  step b { action stop_attacking { end turn } '
        ' action quit_game { finish draw } } } }', "s.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("stop\nsto\nquit\n"), out, "s.rules")
    assert ("error: 'stop' is not a legal action now (`stop attacking` is not allowed now; the actions now: go; "
            "type help stop attacking)") in out.getvalue()
    assert "error: 'sto' is not a legal action or a command (did you mean stop attacking? type help)" in out.getvalue()


def test_the_actions_now_are_named_as_the_menu_shows_them():
    """A first hour with Shadow Hunters: `attack` at the area step read "the actions now: hermit
    card, skip", the menu saying `draw a hermit card` — the action's name, not its words."""
    game = rulelang.Game(rulelang.compile_source(
        'game "H" { players 2  turn { step area { action hermit_card as "draw a hermit card" { goto fight } '
        ' action skip { goto fight } }  step fight { action attack(p in others) { finish draw } '
        ' action pass { end turn } } } }', "h.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("attack P2\nquit\n"), out, "h.rules")
    assert ("error: 'attack P2' is not a legal action now (`attack` is not allowed now; the actions now: draw a "
            "hermit card, skip; type help attack)") in out.getvalue()


def test_a_command_typed_amiss_with_its_word_gets_a_did_you_mean():
    """A first hour: `hlep` and `sav` got "did you mean", `sav x`, `lok 4c`, `hlep play` only the rules'
    moves. A command that takes what was typed after it is meant; a name with more words than the
    command takes (`move c1 c2` near `more`) is still taken for a move."""
    out = piped("regicide", 1, 5, ["sav x", "lok 4c", "hlep play", "rule win", "move c1 c2", "quit", ""], bots={},
                screen=(200, 40))
    for typed, meant in [("sav x", "save x"), ("lok 4c", "look 4c"), ("hlep play", "help play"),
                         ("rule win", "rules win")]:
        assert f"error: '{typed}' is not a legal action or a command (did you mean {meant}? type help)" in out, out
    assert "error: 'move c1 c2' is not a legal action (the rules' moves: " in out


BIDS = """
game "Bids" {
  players 2
  var last: int = 0
  turn limit 6 { finish draw }
  turn { step s {
    action raise(q in 1..6) as "bid " + text(q) require q > last else "a bid must be higher than the last" {
      last = q  end turn
    }
  } }
}
"""


def test_an_action_written_with_as_is_found_by_the_words_players_type():
    """Players type `bid 2`, the rules name the action `raise`: an illegal bid gave no reason,
    `help bid` said there is no such action, and no legal bids were suggested (an author trial)."""
    game = rulelang.Game(rulelang.compile_source(BIDS, "bids.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO("bid 3\n\nbid 2\nhelp bid\nquit\n\n"), out, "bids.rules", screen=(200, 40))
    text = out.getvalue()
    assert ("error: 'bid 2' is not a legal action now (legal: bid 4, bid 5, bid 6); when it is not allowed, the "
            "rules say: a bid must be higher than the last") in text          # (the legal bids too, as `raise 2` has)
    assert "P2> help bid\nbid Q (at step s)" in text
    m = game.new_match(2, seed=1)
    m.apply("bid 3")
    assert m.refusal("bid 2") == "a bid must be higher than the last" == m.refusal("raise 2")


SWAP = """game "Swap" {
  players 2
  kind Card { rank: int  label text(rank) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone discard: pile, public
  zone box: set, hidden, internal
  setup {
    for r in 1..9 { create Card(rank: r) in deck }
    for p in players { move top(deck) to hand[p] }
  }
  turn { step s {
    enter { move top(deck) to hand[me] }
    action swap(c in hand[me]) {
      let a = [x for x in hand[me] where x != c][0]
      let b = hand[next(me)][0]
      move c to discard
      move a to hand[next(me)]
      move b to hand[me]
      if size(deck) == 0 { finish draw }
      end turn
    }
    action bin(c in hand[me]) { move c to box  if size(deck) == 0 { finish draw }  end turn }
  } }
}
"""


def test_a_card_from_a_hand_that_was_refilled_meanwhile_is_not_said_to_come_from_the_deck():
    """P1 (9 and 7) trades: 9 to the discard, 7 to P2, P2's 8 to P1; then P2 draws 6. From P1's
    seat the 8 came from the deck or P2's hand (which grew by one: it may have given a card and
    taken two), and the 7 went into P2's hand: the deck lost a card meanwhile, but no rule puts a
    card into the deck (it said `hand (P2) / deck`, by the counts alone). Two cards come to P1 from
    the deck and P2's hand: either may be either (a new author's Love Letter was told each card's
    way as a fact)."""
    game = rulelang.Game(rulelang.compile_source(SWAP, "swap.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("swap 9\nquit\nn\n"), out, "swap.rules")
    text = out.getvalue()
    mine = text.split("P1> swap 9\n")[1].split("P2 (random) plays")[0]
    assert "  · 8: deck or hand (P2) → hand (P1)\n" in mine, mine
    assert "  · 7: hand (P1) → hand (P2), face down\n  · 1 card left deck\n" in mine, mine
    theirs = text.split("P2 (random) plays")[1].split("==")[0]       # (P2 trades its 6: P1 gets 7 and 5)
    assert theirs.startswith(": swap 6\n") and "  · 7, 5: deck or hand (P2) → hand (P1)\n" in theirs, theirs


def test_a_card_gone_out_of_sight_may_be_in_an_internal_zone_seen_only_by_its_size():
    """P1 puts its 9 in `box` (hidden, internal), then P2 draws: from P1's seat the 9 went into the
    box or P2's hand (not the deck: no rule puts a card there), and no card is said to have gone
    from the deck to the box; the box's size is off the screen, P2's hand's is not."""
    game = rulelang.Game(rulelang.compile_source(SWAP, "swap.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("bin 9\nquit\nn\n"), out, "swap.rules")
    mine = out.getvalue().split("P1> bin 9\n")[1].split("P2 (random) plays")[0]
    assert "  · 9: hand (P1) → hand (P2) / box, face down\n  · 1 card left deck\n  · 1 card added to hand (P2)\n" \
        in mine, mine
    assert "box\n" not in mine, mine
    assert "deck → box" not in mine, mine


UNDER = """game "Under" {
  players 2
  kind Card { rank: int  label "c" + text(rank) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone table: pile, public
  setup {
    for r in 1..9 { create Card(rank: r) in deck }
    for p in players { move top(deck) to hand[p] }
  }
  turn {
    step s {
      enter { move top(deck) to hand[me] }
      action play(c in hand[me]) {
        move c to table
        if c.rank == 6 {
          move top(deck, 2) to hand[me]
          choose b in hand[me] prompt "put one under the deck" { move b to bottom of deck }
        }
        end turn
      }
      action trade(c in hand[me]) {
        move c to table
        let mine = [x for x in hand[me]]
        let theirs = [x for x in hand[next(me)]]
        move mine to hand[next(me)]
        move theirs to hand[me]
        end turn
      }
    }
  }
  on stuck { finish draw }
}
"""


@pytest.mark.parametrize("seed, said, never", [
    # P2 puts a card under the deck, P1 draws the top: from the deck, or P2's hand (a way the rules
    # have, by trade) — it read `c3: hand (P2) → hand (P1)`, the deck, which gave it, left out
    (1, "  · c3: hand (P2) or deck → hand (P1)\n", "c3: hand (P2) → hand (P1)"),
    # P2 trades hands (its c8 for P1's c7), P1 draws c5: it read `c8, c5: deck → hand (P1)` and
    # `c7: hand (P1) → deck, face down`, a place c7 never went
    (2, "  · c8, c5: deck or hand (P2) → hand (P1)\n", "→ deck, face down"),
])
def test_a_pile_that_took_a_card_and_gave_one_is_named_among_the_ways(seed, said, never):
    """A new author's Love Letter read `Guard: hand (P3) → hand (P1)` after P3's Chancellor put two
    cards under the deck and P1 drew its top: a hidden zone whose size did not change — a pile no
    one owns, or the mover's hand while a card of the reader's went out of sight — may have passed
    a card on, and is named among the places it may have come from."""
    game = rulelang.Game(rulelang.compile_source(UNDER, "under.rules"))
    out = io.StringIO()
    run_repl(game, 2, seed, {}, {1: "random"}, io.StringIO("play c9\nquit\nn\n"), out, "under.rules")
    theirs = out.getvalue().split("P1> play c9\n")[1].split("==")[0]
    assert said in theirs and never not in theirs, theirs


TOSS = """game "Toss" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone crib: set, hidden
  setup {
    for i in 1..20 { create Card(n: i) in deck }
    shuffle deck
    for p in players { move top(deck, 3) to hand[p] }
  }
  turn {
    step toss {
      action toss { choose c in hand[me] prompt "toss which?" { move c to crib }
        for p in players { move top(deck) to hand[p] }
        if size(deck) < 2 { finish draw "done" }
        end turn
      }
    }
  }
}
"""


def test_a_card_tossed_from_a_hand_refilled_at_once_is_not_said_to_come_from_the_deck():
    """P2 tosses a card from its hidden hand into the crib, then each player draws: P2's hand is
    the size it was, the deck lost two (one seen going to P1). The crib's card came from P2's hand,
    which the deck refilled: no rule moves a card from the deck to the crib (it read `1 card: deck →
    crib`, a new author's Cribbage)."""
    game = rulelang.Game(rulelang.compile_source(TOSS, "toss.rules"))
    out = io.StringIO()
    run_repl(game, 2, 3, {}, {1: "random"}, io.StringIO("1\n1\nquit\nn\n"), out, "toss.rules")
    theirs = out.getvalue().split("P2 (random) makes a secret choice")[1].split("==")[0]
    assert "  · 1 card: deck or hand (P2) → crib\n" in theirs, theirs
    assert "deck → crib" not in theirs, theirs


PEEK = """game "Peek" {
  players 2
  kind Card { rank: int  label "card " + text(rank) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  setup {
    for r in 1..6 { create Card(rank: r) in deck }
    shuffle deck
    for p in players { move top(deck) to hand[p] }
  }
  turn {
    step act {
      action peek require size(deck) > 0 { reveal hand[next(me)] to [me]  move top(deck) to hand[me]  end turn }
      action show require size(deck) > 0 { reveal hand[next(me)]  move top(deck) to hand[me]  end turn }
    }
  }
  on stuck { finish draw }
}"""


@pytest.mark.parametrize("typed, line", [("peek", "revealed to you: "), ("show", "revealed: ")])
def test_a_card_revealed_by_a_move_that_ends_the_turn_is_shown_to_its_mover(typed, line):
    """A new author's Priest: `reveal hand[next(me)] to [me]` then `end turn` showed P1 nothing — the
    card was in P1's view only between the move and P1's next screen, after the card had moved."""
    game = rulelang.Game(rulelang.compile_source(PEEK, "peek.rules"))
    match = game.new_match(2, 1)
    other = next(z for z in match.view(1)["zones"] if z["owner"] == 1)["cards"][0]["label"]   # (as P2 sees it)
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO(f"{typed}\n\n"), out, "peek.rules")
    mine = out.getvalue().split("Pass the terminal to P2")[0]
    assert f"  · {line}{other} (hand (P2))\n" in mine, mine


def test_a_move_typed_at_the_pager_is_not_played():
    """A terminal trial: `7` typed at `-- more --` while reading the rules played move 7 (`yield`).
    A command there is run; a move is not: the pager stops and says so."""
    out = piped("regicide", 1, 4, ["rules all", "1", "log", "quit"], bots={})
    assert "(the pager stopped: nothing was played; type 1 at your prompt to play it)" in out
    assert re.search(r"P1> log\nno actions yet", out), out[-1500:]
    # (a word of the screen's commands with more after it is an action's text, as at the prompt)
    out = piped("regicide", 1, 4, ["rules all", "hand over", "quit"], bots={})
    assert "(the pager stopped: nothing was played; type hand over at your prompt to play it)" in " ".join(out.split())


STUDY = """game "Study" {
  players 2
  kind Card { n: int  label "c" + text(n) }
  zone deck: pile per player, hidden
  zone hand: set per player, owner
  zone discard: pile per player, public
  setup {
    for p in players { for i in 1..9 { create Card(n: i) in deck[p] }  move top(deck[p], 3) to hand[p] }
  }
  turn { step s {
    action study(c in hand[me]) { move c to discard[me]  move top(deck[me], 2) to hand[me]  end turn }
  } }
  turn limit 4 { finish draw }
}
"""


def test_a_card_played_from_a_hand_that_then_drew_is_not_said_to_come_from_the_deck():
    """A first hour at the terminal: Smash Up's Mystic Studies (played from P2's hand, draw two) read
    `1 card: deck (P2) → hand (P2)`: the card played, named by the move, was taken to come from the
    deck, which shrank, though no one sees into a deck — the mover named it, so saw it."""
    game = rulelang.Game(rulelang.compile_source(STUDY, "study.rules"))
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("study c9\nquit\nn\n"), out, "study.rules")
    theirs = out.getvalue().split("P2 (random) plays: study ")[1].split("==")[0]
    assert "  · 2 cards: deck (P2) → hand (P2)\n" in theirs, theirs


def test_look_at_a_zone_names_its_cards_that_have_no_rules_text(gems):
    """A new author's trick-taking game: `look hand` read `hand (P1): 1 card` and named none."""
    text = gem_play(gems, ["look hand", "quit", "n"])
    said = text[text.index("P1> look hand\n"):].split("P1> ")[1]
    assert said.splitlines()[1:5] == ["hand (P1): 4 gems", "  Ruby", "  Opal", "  Jade"], said
    assert "  Onyx" in said


FLIPS = """game "Flips" {
  players 2
  var flipped: int = 0, public
  proc score() { finish draw "two points" }
  turn {
    step place { action add { goto flip_step } }
    step flip_step { action flip(p in players) as "turn over " + text(p) { flipped += 1  score() } }
  }
}"""


def test_an_action_is_named_as_players_type_it():
    """A new author's Skull, `action flip(p …) as "turn over " + text(p)`: the rulebook said an end came
    "after some actions (flip, …)" and `turn over P2` typed too early was refused as "`turn` is not
    allowed now" — neither what players see nor what they type."""
    from rulelang.play.rulebook import rulebook
    game = rulelang.Game(rulelang.compile_source(FLIPS, "flips.rules"))
    book = rulebook(game)
    assert "after the action turn over" in book and "flip" not in book.split("How to win")[1].split("\n\n")[0], book
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {1: "random"}, io.StringIO("turn over P2\nquit\nn\n"), out, "flips.rules", screen=(200, 40))
    assert ("error: 'turn over P2' is not a legal action now (`turn over` is not allowed now; the actions now: add; "
            "type help turn over)") in out.getvalue(), out.getvalue()


def test_help_begin_says_a_start_of_turn_ability_comes_after_it():
    """A first hour with Shadow Hunters: revealed at the start step, the only option was `begin`, and
    `help begin` said "Start your turn." — George's Demolish, asked right after, looked lost."""
    from rulelang.play.rulebook import action_help
    game = rulelang.load(str(ROOT / "games" / "shadow_hunters.rules"))
    assert "start-of-turn ability is offered next" in action_help(game, "begin")


def test_a_number_that_names_a_seat_offered_at_another_place_is_ambiguous(tmp_path):
    """A first hour at Shadow Hunters: "Who do you give the hermit card to? 1. P2 · 2. P3 · 3. P4" —
    `3`, meant for P3, gave the card to P4, and `4` was refused."""
    typed = typing(tmp_path, 'game "Gift" { players 4\n'
                   '  turn { step s { action give(p in others) { finish win for p } } } }\n', 4)
    assert "error: 3 is ambiguous here: give P3, or number 3 in the list (give P4); type P3 for give P3, " \
           "#3 for give P4" in typed("3")
    assert "P1 plays: give P4" in typed("#3") and "P1 plays: give P3" in typed("p3")
    assert "P1 plays: give P4" in typed("4")         # no 4th in the list: the seat it names
    assert "there is no action 5" in typed("5")
    typed = typing(tmp_path, 'game "Gift" { players 3\n'
                   '  turn { step s { action give(p in players) { finish win for p } } } }\n', 3)
    assert "P1 plays: give P2" in typed("2")         # the list's place is the seat: no doubt
    # (a review: a card that only mentions a seat does not offer it — `3` played `destroy Zapbot of P3`)
    typed = typing(tmp_path, 'game "Zap" { players 3\n  kind Minion { who: int  label "Zapbot of P" + text(who) }\n'
                   '  zone field: set, public\n  setup { create Minion(who: 3) in field }\n'
                   '  turn { step s { action destroy(m in field) { end turn }  action pass { finish draw "passed" } } } }\n', 3)
    assert "P1 plays: pass" in typed("2") and "there is no action 3" in typed("3")


def test_a_legal_action_typed_amiss_whole_is_offered_and_a_name_nearest_to_what_was_typed(tmp_path):
    """A first hour at Shadow Hunters: `ned turn` at the end step got no hint, and `attak p2` was
    offered `attack everyone in range` (the longest name starting `attack`), not `attack`."""
    typed = typing(tmp_path, 'game "Ends" { players 2\n  var shots: int = 0\n'
                   '  turn { step s {\n'
                   '    action end_turn { end turn }\n'
                   '    action draw_card { finish draw "drawn" }\n'
                   '    action attack(p in others) require shots > 0 { finish win for me "hit" }\n'
                   '    action attack_everyone_in_range require shots > 1 { finish win for me "hit" } } } }\n', 2)
    assert "'ned turn' is not a legal action now (did you mean end turn?)" in typed("ned turn")
    assert "(did you mean attack? type help)" in typed("attak p2")


def test_options_whose_text_is_cut_say_how_to_read_it_whole():
    """A first hour at Dozen War's draft: each general's skills were cut at 80 columns, and nothing
    said that `look NAME` reads them whole."""
    out = piped("dozen_war", 2, 5, ["quit", "n"])
    screen = out[out.index("▶ you must choose: Ban a general"):out.index("P1> quit")]
    assert "    (an option's whole text: look Iron Warden)\n  1. Iron Warden — Infantry general. Skills:" in screen
    wide = piped("dozen_war", 2, 5, ["quit", "n"], screen=(2000, 60))
    assert "whole text" not in wide                 # (nothing cut: nothing said)


def test_the_hint_under_options_cut_short_is_left_out_where_it_would_not_fit():
    """A review: at a Dozen War defence question the line `(an option's whole text: look …)` ran the
    80×24 screen to 25 rows (the numbers below are a review's recorded game, P2 a random bot)."""
    typed = ("1 1 1 1 2 1 12 7 8 3 2 1 1 1 1 9 1 5 1 4 1 1 9 5 6 5 2 1 3 2 1 7 6 1 5 7 5 4 3 1 1 5 1 1 5 1 1 3 1 1 1 "
             "6 7 1 1 1 9 1 4 1 3 4 1 8 5 2 3 1 1 5 1 5 1 1 1 5 1 1 1 7 8 1 1 1 1 3 4 5 1 5 1 2 1 1 8 6 3 8 3 1 1 1 1 "
             "1 1 1 1 1 1 7 4 11 1 11 1 1 1 8 1 1 5 3 6 7 1 1 10 1 1 1 1 2 1 4 1 1 5 13 10 1 1 1 10 4 2 6 3 5 8 1 1 6 "
             "2 5 6 1 6 3 3 3 4 1 2 5 1 1").split()
    out = piped("dozen_war", 2, 4, typed)
    last = out[out.rfind("\n== ") + 1:]
    screen = last[:last.index("P1> ")].rstrip("\n").split("\n")
    assert "attacks" in last and len(screen) + 1 <= 24, "\n".join(screen)


def test_a_number_int_refuses_is_said_wrong_and_the_game_goes_on():
    """A fuzz trial: `help ²`, `look ⑧` and `help` of 4,301 nines ended the game (exit 1, no offer to
    save): `str.isdigit` is true of them, and `int` refuses them."""
    lines = ["1", "help ²", "look ²", "help ⑧", "help " + "9" * 4301, "look " + "9" * 4301, "#1", "quit", "n"]
    try:
        out = piped("regicide", 1, 1, lines, bots={})
    except ValueError as err:                    # (what cli.py said as its one line, ending the game)
        raise AssertionError(f"the game ended: {err}") from None
    assert "invalid literal" not in out and "Exceeds the limit" not in out
    assert "error: no action `²`" in out and "error: no card or piece named '²'" in out
    assert out.count("P1 plays: ") == 2, out[-2000:]          # (`1`, then `#1` after the bad lines)


def test_a_character_that_looks_like_another_is_named_where_a_line_is_refused():
    """A fuzz trial: `plаy 4d` (a Cyrillic а), `play 4♦️` (♦ and an emoji selector) and `#１` (a fullwidth 1)
    were refused with a suggestion that looked just like what was typed; a suit typed plainly is not named."""
    out = piped("regicide", 1, 1, ["plаy 4d", "play 4♦️", "#１", "play ♠", "quit", "n"], bots={}, screen=(400, 50))
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert "it has U+0430 cyrillic small letter a, in no action: type it again" in errors[0], errors
    assert "it has U+FE0F variation selector-16, in no action" in errors[1], errors
    assert "it has U+FF11 fullwidth digit one, in no action" in errors[2], errors
    assert "in no action" not in errors[3], errors
