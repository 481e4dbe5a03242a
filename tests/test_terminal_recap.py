"""Issue 28, reading at 80×24: `rules` in sections and paged at a terminal, `recap` of the other
players' turns that scrolled away, `log` saying who played and what followed (never another
seat's private lines), the reason right above the result, `clear`, `help COMMAND`, the rule
text of `help ACTION` labelled for rule authors, and a choice picked by the start of a word."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.play.repl import rulebook, run_repl

RACE = """
game "Race" {
  players 2..3
  about "Take chips from the pool, one a turn."
  about win "Whoever takes the last chip wins."
  about action take "Take a chip from the pool."
  kind Chip { v: int  label "c" + text(v) }
  zone pool: pile, public
  zone box: pile, public
  setup { for v in 1..9 { create Chip(v: v) in pool } }
  turn { step s {
    action take(c in pool) require c.v > 0 {
      move c to box
      log text(me) + " boxes chip " + text(c.v)
      log "only " + text(me) + " hears this: psst " + text(c.v) to [me]
      if size(pool) == 0 { finish win for me }
      end turn
    }
  } }
}
"""
MORE = "-- more: Enter, q to stop --"


@pytest.fixture(scope="module")
def race():
    return rulelang.Game(rulelang.compile_source(RACE, "race.rules"))


def play(game, typed: list[str], bots=None, screen=(80, 24), pager=True, source="race.rules") -> str:
    out = io.StringIO()
    run_repl(game, 2, 1, {}, bots if bots is not None else {1: "random"},
             io.StringIO("".join(x + "\n" for x in typed)), out, source, screen=screen, pager=pager)
    return out.getvalue()


def between(out: str, start: str, end: str) -> str:
    at = out.index(start) + len(start)
    return out[at:out.index(end, at)]


# -- 1. rules: a table of contents and the basics, sections, paged at the terminal's height ----

def test_rules_at_a_terminal_gives_the_basics_and_the_sections_a_screen_at_a_time(race):
    out = play(race, ["rules"] + [""] * 10 + ["quit"], screen=(80, 10))
    shown = between(out, "P1> rules\n", "P1> \nP1> ")
    assert "How to win\n----------\n\nWhoever takes the last chip wins." in shown
    assert "Step `s`" in shown and "More to read (type rules and a word):" in shown
    assert re.search(r"^  rules turn +A turn$", shown, re.M) and re.search(r"^  rules all +everything$", shown, re.M)
    pages = shown.split(MORE)
    assert re.search(r"^  (?:choices: 1\. |\d+ choices: type more)", pages[-1], re.M), pages[-1]   # (said again)
    pages[-1] = re.sub(r"^  (?:choices: 1\. |\d+ choices: type more).*\n?", "", pages[-1], flags=re.M)
    assert len(pages) >= 2 and all(len(p.strip("\n").split("\n")) <= 9 for p in pages), pages
    assert "Take a chip from the pool." not in shown          # (the actions: in `rules turn`)


def test_q_at_the_more_prompt_stops_and_rules_all_is_the_whole_book(race):
    out = play(race, ["rules all", "q", "quit"], screen=(80, 10))
    shown = between(out, "P1> rules all\n", "P1> quit")
    assert shown.count(MORE) == 1 and shown.endswith(MORE + "q\n")
    whole = play(race, ["rules all"] + [""] * 20 + ["quit"], screen=(200, 10))
    text = between(whole, "P1> rules all\n", "\nP1> ").replace(MORE + "\n", "")
    text = re.sub(r"\n  (?:choices: 1\. |\d+ choices: type more).*$", "", text.rstrip("\n"))   # (the choices again)
    assert text.rstrip("\n") == rulebook(race, source=None)


def test_rules_piped_prints_everything_as_before(race):
    out = play(race, ["rules", "quit"], screen=None, pager=None)
    assert between(out, "P1> rules\n", "P1> quit").rstrip("\n") == rulebook(race, source=None)
    assert MORE not in out


def test_rules_section_by_its_word_and_an_unknown_one_is_one_line(race):
    out = play(race, ["rules turn", "rules win", "rules moon", "quit"])
    turn = between(out, "P1> rules turn\n", "P1> rules win")
    assert turn.startswith("A turn\n------\n") and "Take a chip from the pool." in turn and "How to win" not in turn
    assert between(out, "P1> rules win\n", "P1> rules moon").startswith("How to win\n----------\n\nWhoever takes")
    assert "P1> rules moon\nerror: the rules have no section 'moon'; type rules for the list\nP1> quit" in out


def test_help_rules_explains_the_command(race):
    out = play(race, ["help rules", "help recap", "quit"])
    assert "no action" not in out
    assert re.search(r"P1> help rules\n  rules +the basics .*\n(.*\n)*  rules KEY +one section", out)
    assert re.search(r"P1> help recap\n  recap +what happened since your last move", out)


# -- 2. the other players' turns that scrolled away: a note on the screen, and `recap` -----------

def test_what_scrolled_away_is_noted_and_recap_shows_it(race):
    out = play(race, ["c7", "c1", "recap", "quit"], screen=(80, 12))
    assert "(5 lines since your last move scrolled up: type recap)\n== Race · turn 5" in out
    recap = between(out, "P1> recap\n", "P1> quit")
    assert recap == ("Since your last move:\nP1 plays: take c1\n  > P1 boxes chip 1\n"
                     "  (to you) only P1 hears this: psst 1\nP2 (random) plays: take c5\n  > P2 boxes chip 5\n"
                     "(clear: your decision again)\n")
    screen = out[out.index("(5 lines since"):out.index("P1> recap")].split("\n")
    assert len(screen) <= 12                                  # the note, the decision and the prompt fit


def test_no_note_when_it_all_fits_and_recap_before_any_move(race):
    out = play(race, ["recap", "c7", "quit"], screen=(80, 24))
    assert "P1> recap\nnothing happened since your last move\n" in out and "type recap" not in out


def test_recap_is_never_another_seats(race):
    out = play(race, ["c7", "recap", "quit"], bots={})         # two people at one terminal
    # (P1's move as everyone saw it, never what was said to P1 alone; P2's first recap said "nothing
    # happened" until a review)
    assert between(out, "P2> recap\n", "P2> quit") == ("Since your last move:\nP1 plays: take c7\n"
                                                       "  > P1 boxes chip 7\n(clear: your decision again)\n")


def test_recap_of_two_people_at_a_table_with_nothing_hidden_says_both_moves():
    """A first hour: two people playing Valgarð at one terminal typed `recap` and read "nothing
    happened since your last move" after the other had moved (only a bot's moves were kept)."""
    from pathlib import Path
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "valgard.rules"))
    out = play(game, ["place d1", "", "place d7", "", "recap", "quit"], bots={}, source="valgard.rules")
    assert between(out, "P1> recap\n", "P1> quit") == (
        "Since your last move:\nP1 plays: place d1\n  · L: reserve (P1) → d1\nP2 plays: place d7\n"
        "  · D: reserve (P2) → d7\n(clear: your decision again)\n")


def test_clear_draws_the_decision_again(race):
    out = play(race, ["clear", "quit"], screen=None, pager=None)
    assert out.count("== Race · turn 1") == 2 and "P1> clear\n\n" + "=" * 60 + "\n== Race · turn 1" in out


# -- 3. log: who played, and what the move made happen, as the reader may see it ------------------

def test_log_says_who_and_the_messages_each_move_wrote_but_not_others_private_ones(race):
    out = play(race, ["c7", "log", "quit"], screen=None, pager=None)
    log = between(out, "P1> log\n", "P1> quit")
    assert log == ("  1. P1: take c7\n       > P1 boxes chip 7\n       > only P1 hears this: psst 7\n"
                   "  2. P2: take c3\n       > P2 boxes chip 3\n")
    assert "only P2 hears" not in out


# -- 4. the reason right above the result ---------------------------------------------------------

def test_the_end_says_why_right_above_the_result(race):
    out = play(race, ["1"] * 5 + ["quit"])
    assert re.search(r"\nWhy: the last move ended the game: P1 plays: take c\d\nResult:\n  P1 \(human\): win\n", out)


# -- 5. help ACTION for players first, then for rule authors; a word's start picks a choice -------

def test_help_action_gives_the_rule_text_for_rule_authors_only_when_asked_in_full(race, tmp_path):
    path = tmp_path / "race.rules"
    path.write_text(RACE, encoding="utf-8")
    out = play(race, ["help take", "help take full", "quit"], source=str(path))
    text = between(out, "P1> help take\n", "P1> help take full")
    assert "take(c in pool)" not in text        # (issue 28: not the last thing a player reads)
    assert text.index("Take a chip from the pool.") < text.index("(for rule authors, the rule as written: help take full)")
    text = between(out, "P1> help take full\n", "P1> quit")
    assert text.index("Take a chip from the pool.") < text.index(
        "for rule authors, as the rules write it: take(c in pool) require c.v > 0")


def test_the_start_of_a_word_in_a_choice_picks_it_when_only_one_has_it(race):
    out = play(race, ["C7", "c", "quit"])
    assert "P1> C7\nP1 plays: take c7\n" in out
    assert "P1> c\nambiguous: 'c' could be take c1, take c2" in out


def test_at_one_terminal_recap_after_a_hand_over_has_the_public_lines_only():
    source = RACE.replace("  zone box: pile, public\n", "  zone box: pile, public\n  zone hand: set per player, owner\n") \
                 .replace("create Chip(v: v) in pool }", "create Chip(v: v) in pool }\n    for p in players { create Chip(v: 0) in hand[p] }")
    game = rulelang.Game(rulelang.compile_source(source, "race.rules"))
    out = play(game, ["c7", "", "c3", "", "c1", "", "recap", "quit"], bots={})
    recap = between(out, "P2> recap\n", "P2> quit")
    assert recap == "Since your last move:\nP1 plays: take c1\n  > P1 boxes chip 1\n(clear: your decision again)\n"
    assert "only P1 hears" not in recap


def test_help_fits_80_columns_and_pages_at_24_lines(race):
    out = play(race, ["help", "", "quit"])
    shown = between(out, "P1> help\n", "P1> quit")
    assert MORE in shown and "  recap" in shown and "  clear" in shown
    assert all(len(line) <= 80 for line in shown.split("\n"))
    assert len(shown.split(MORE)[0].rstrip("\n").split("\n")) <= 23


# -- status, table and the full list of choices: taller than the screen, read from their top ----

def test_the_list_of_choices_taller_than_the_screen_is_paged_and_a_table_that_fits_is_not(race):
    out = play(race, ["more", "", "table", "quit"], screen=(80, 6))
    listed = between(out, "P1> more\n", "P1> table")
    assert MORE in listed and "  1. take c1" in listed.split(MORE)[0]          # from the top, a screen at a time
    assert all(len(p.strip("\n").split("\n")) <= 5 for p in listed.split(MORE))
    assert "  9. take c9" in listed
    table = between(out, "P1> table\n", "P1> quit")
    assert table.startswith("== Race") and MORE not in table                  # (it fits: not stopped)
    piped = play(race, ["more", "quit"], screen=None, pager=None)
    assert MORE not in piped and "  9. take c9" in piped


def test_recap_gives_lines_as_they_were_shown_not_wrapped_again():
    """A long message wrapped on the screen came back from `recap` wrapped a second time (a word
    alone on a line: Dozen War's "…answer with / a / defence card or skill")."""
    long = RACE.replace('log text(me) + " boxes chip " + text(c.v)',
                        'log text(me) + " boxes chip " + text(c.v) + ", which is a rather long message to say it, '
                        'as long as it takes to fill more than one line of this narrow screen"')
    game = rulelang.Game(rulelang.compile_source(long, "race.rules"))
    for width in range(50, 72):                 # (some width gives a row as wide as the screen)
        out = play(game, ["c7", "c1", "recap", "quit"], screen=(width, 12))
        shown = between(out, "P1> c1\n", "P1> recap").split("\n")
        recap = between(out, "P1> recap\nSince your last move:\n", "(clear: your decision again)")
        assert "rather long" in recap
        assert all(line in shown for line in recap.rstrip("\n").split("\n")), (width, recap, shown)


def test_the_end_is_bold_not_green_whoever_won():
    """`Game over: P1 loses` was printed in bold green."""
    out = io.StringIO()
    run_repl(rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules")), 1, 3, {},
             {0: "random"}, io.StringIO(""), out,
             "regicide.rules", color=True, screen=(100, 30))
    text = out.getvalue()
    assert "\033[1mGame over: P1 loses" in text and "\033[1;32m" not in text


def test_the_note_is_said_only_when_the_lines_since_the_move_are_out_of_sight():
    """A first hour at Regicide (80 × 24) read "(8 lines since your last move scrolled up: type
    recap)" under those 8 lines: the screen, fitted one line shorter for the note, was short enough
    to leave them in sight."""
    from pathlib import Path
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(game, 1, 5, {}, {}, io.StringIO("1\n" * 12 + "quit\n"), out, "regicide.rules", screen=(80, 24))
    text = out.getvalue().split("\n")
    prompts = [i for i, line in enumerate(text) if line.startswith("P1> ")]
    noted = [text[a:b + 1] for a, b in zip(prompts, prompts[1:]) if any("scrolled up" in x for x in text[a:b])]
    assert all(len(block) > 24 for block in noted), [len(b) for b in noted]
    assert "(5 lines since your last move scrolled up" not in out.getvalue()       # (seed 5's second move)


def test_recap_after_a_save_is_loaded_gives_the_moves_since_ones_own_from_the_log(race, tmp_path):
    """A first hour at the terminal: after resuming a save, `recap` said "nothing happened since
    your last move" over the other player's move (the lines said on screen are not saved)."""
    path = tmp_path / "race.save"
    play(race, ["c7", f"save {path}", "quit"])
    for typed in (["recap", "quit"], []):                          # loaded by `load`, and resumed by the CLI
        if typed:
            out = play(race, [f"load {path}", "", *typed])
        else:
            from rulelang.cli import main
            import contextlib
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer), pytest.MonkeyPatch.context() as mp:
                mp.setattr("sys.stdin", io.StringIO("recap\nquit\n"))
                (tmp_path / "race.rules").write_text(RACE, encoding="utf-8")
                main(["play", str(path), "--rules", str(tmp_path / "race.rules")])
            out = buffer.getvalue()
        recap = between(out, "P1> recap\n", "P1> quit")
        assert recap.startswith("Since your last move:\n  1. P1: take c7\n       > P1 boxes chip 7\n"
                                "       > only P1 hears this: psst 7\n  2. P2: take c"), recap
        assert "P2 hears" not in recap and "psst" not in recap.split("2. P2:")[1]


def test_look_taller_than_the_screen_is_paged_from_its_first_line(tmp_path):
    """A first hour at Dozen War: `look f6` of a crowded cell gave 31 lines at 24 rows, and its first,
    what lies there, scrolled away (rules, help, log and recap page)."""
    words = " ".join(f"clause{i} of the long card text that goes on" for i in range(60))
    source = RACE.replace('kind Chip { v: int  label "c" + text(v) }',
                          'kind Chip { v: int  label "c" + text(v) }\n  kind Scroll { label "Scroll" }\n'
                          f'  card Scroll "Scroll" {{ text "{words}" }}')
    source = source.replace("setup {", "setup { create cards Scroll in box ")
    game = rulelang.Game(rulelang.compile_source(source, "race.rules"))
    out = play(game, ["look Scroll", "", "quit"], screen=(80, 24))
    said = out[out.index("P1> look Scroll\n"):]
    assert said.split("\n")[1].startswith("Scroll (scroll)") and MORE in said, said[:300]
    first_page = said[:said.index(MORE)].split("\n")[1:-1]        # (under the command, over the pager's line)
    assert len(first_page) == 23 and "clause0 " in first_page[1]
    assert "clause59 of the long card text that goes on" in said
    short = play(game, ["look Scroll", "quit"], screen=(80, 60))      # (it fits: said at once, as before)
    assert MORE not in short[short.index("P1> look Scroll"):short.index("P1> quit")]
    # (a review: a first line wider than the screen took two rows, and the page ran one past the screen)
    name = "Scroll " + "of the long name " * 6
    game = rulelang.Game(rulelang.compile_source(source.replace('card Scroll "Scroll"', f'card Scroll "{name.strip()}"'),
                                                 "race.rules"))
    out = play(game, ["look Scroll of", "", "quit"], screen=(80, 24))
    said = out[out.index("P1> look Scroll of\n"):]
    assert len(said[:said.index(MORE)].split("\n")[1:-1]) == 23 and all(
        len(row) <= 80 for row in said[:said.index(MORE)].split("\n"))


SECRET = """
game "Secret" {
  players 2
  kind Card { v: int  label "card " + text(v) }
  zone deck: pile, hidden
  zone hand: set per player, owner
  zone market: set, public
  setup { for i in 1..20 { create Card(v: i) in deck }  shuffle deck  for p in players { repeat 4 { move top(deck) to hand[p] } } }
  turn { step s {
    action sell { choose c in hand[me] prompt "which do you sell?" { move c to market  end turn } }
    action stop { finish draw "stop" }
  } }
}
"""


def test_recap_at_a_hand_over_after_a_loaded_save_has_the_moves_since_the_load_too(tmp_path):
    """A review: with hidden hands (the terminal handed over), P1's recap after a resumed save gave
    only the log's lines, not P2's move since the load; and P2's first recap of a new game said
    nothing had happened."""
    game = rulelang.Game(rulelang.compile_source(SECRET, "secret.rules"))
    path = tmp_path / "s.save"

    def run(lines: list[str]) -> str:
        out = io.StringIO()
        run_repl(game, 2, 1, {}, {}, io.StringIO("".join(x + "\n" for x in lines)), out, "secret.rules")
        return out.getvalue()
    first = run(["sell", "1", "", "recap", "sell", "1", "", f"save {path}", "quit"])
    recap = between(first, "P2> recap\n", "P2> sell")
    assert recap.startswith("Since your last move:\nP1 plays: sell\nP1 chooses: card"), recap
    out = run([f"load {path}", "", "sell", "1", "", "recap", "quit", "n"])   # (P1 moves; P2 reads its recap)
    recap = between(out, "P2> recap\n", "P2> quit")
    assert recap.startswith("Since your last move:\n  3. P2: sell\n  4. P2: which do you sell? → card"), recap
    assert "P1 plays: sell\nP1 chooses: card" in recap
