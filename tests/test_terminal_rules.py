"""Player-facing text (issue 13): `about` declarations, the rulebook `rulelang rules FILE [--format
md]` made from them and from the declarations, and `rules` / `help ACTION` at the terminal."""
from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main
from rulelang.play.repl import action_help, rulebook, run_repl

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))
BIG = {"smash_up", "shadow_hunters"}          # (compiling them takes seconds)

CHIPS = """
game "Chips" {
  players 2..3
  option rounds: int = 2
  about "Take chips. "
        "Whoever takes the last one decides."
  about "A second paragraph."
  about win "The last chip wins."
  about setup "Three chips in the pool."
  about zone pool "The chips left."
  about step s "Take one."
  about action take "Take this chip."
  about option rounds "How many rounds."
  kind Chip { v: int  label "c" + text(v) }
  zone pool: pile, public
  zone box: pile, hidden, internal
  setup { for v in 1..3 { create Chip(v: v) in pool } }
  turn { step s { action take(c in pool) require c.v > 0 {
    move c to box
    if size(pool) == 0 { finish win for me "the last chip is taken" }
    end turn
  } } }
}
"""


def build(source: str = CHIPS) -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source(source, "chips.rules"))


def test_about_words_are_in_the_ir_and_adjacent_strings_join():
    about = build().ir["about"]
    assert about == {"game": "Take chips. Whoever takes the last one decides.\n\nA second paragraph.",
                     "win": "The last chip wins.", "setup": "Three chips in the pool.",
                     "zones": {"pool": "The chips left."}, "steps": {"s": "Take one."},
                     "actions": {"take": "Take this chip."}, "options": {"rounds": "How many rounds."}}


def test_words_are_no_part_of_the_rules_fingerprint():
    assert build().fingerprint == build(CHIPS.replace("Take one.", "Take a chip, any chip.")).fingerprint
    assert build().fingerprint != build(CHIPS.replace("c.v > 0", "c.v > 1")).fingerprint


@pytest.mark.parametrize("old, new, message, suggestion", [
    ("about zone pool", "about zone pol", "unknown zone `pol`", "pool"),
    ("about step s ", "about step t ", "unknown step `t`", None),
    ("about action take", "about action tak", "unknown action `tak`", "take"),
    ("about option rounds", "about option round", "unknown option `round`", "rounds"),
])
def test_words_about_something_undeclared_are_an_error(old, new, message, suggestion):
    errors = [d for d in rulelang.check_source(CHIPS.replace(old, new), "c.rules")[1] if d.severity == "error"]
    assert [(d.code, d.message) for d in errors] == [("E101", message)]
    assert errors[0].suggestion == suggestion


def test_a_shared_ir_with_words_about_nothing_is_refused():
    ir = json.loads(json.dumps(build().ir))
    ir["about"]["zones"]["moon"] = "?"
    with pytest.raises(rulelang.RuleError, match="no zone named `moon`"):
        rulelang.Game(ir)
    ir = json.loads(json.dumps(build().ir))
    ir["about"]["game"] = ["not", "a", "text"]
    with pytest.raises(rulelang.RuleError, match="about"):
        rulelang.Game(ir)


def test_the_rulebook_is_made_of_the_words_and_the_declarations(tmp_path):
    path = tmp_path / "chips.rules"
    path.write_text(CHIPS, encoding="utf-8")
    text = rulebook(rulelang.load(str(path)), source=str(path))
    lines = text.splitlines()
    assert lines[:4] == ["Chips", "=====", "", "Take chips. Whoever takes the last one decides."]
    for part in ("2 to 3 players.", "- `rounds` (a number, default 2): How many rounds.",
                 "The last chip wins.",
                 "- the player to act wins, the others lose — “the last chip is taken” (after the action take)",
                 "- `pool` (a pile, face up): The chips left.", "Three chips in the pool.",
                 "A turn starts at step `s`", "Step `s`: Take one.", "- `take C`: Take this chip.",
                 "At the table, `help ACTION` says more about an action"):
        assert part in text, part
    assert "box" not in text                                           # internal
    assert "as the rules write it" not in text and "c.v > 0" not in text     # (for authors: `help take full`)
    markdown = rulebook(rulelang.load(str(path)), markdown=True, source=str(path))
    assert markdown.startswith("# Chips\n\nTake chips.") and "\n## How to win\n" in markdown


def test_a_step_an_action_goes_to_is_not_said_to_come_before_the_first_turn(tmp_path):
    """A new author's checkers: the "keep jumping" step outside the turn, reached only by a `goto`
    from an action, was listed under Setup as "Before the first turn"; a draft the setup goes to is."""
    path = tmp_path / "steps.rules"
    path.write_text("""game "Steps" {
  players 2
  var n: int = 0
  setup { goto draft }
  step draft { action pick { goto roll } }
  turn {
    step roll {
      action go { n += 1  if n >= 6 { finish win for me "six" }  if n % 2 == 0 { goto bonus }  end turn }
    }
  }
  step bonus { action extra { n += 1  end turn } }
}
""", encoding="utf-8")
    text = rulebook(rulelang.load(str(path)), source=str(path))
    setup, turn = text.split("\nA turn\n")
    assert "Before the first turn" in setup and "Step `draft`" in setup and "bonus" not in setup
    assert "Steps outside the usual turn, where an action or a rule leads:\n\nStep `bonus`" in turn
    # (a draft the setup reaches through a proc it calls is still before the first turn: a review)
    path.write_text(path.read_text(encoding="utf-8").replace("setup { goto draft }",
                                                             "proc begin() { goto draft }\n  setup { begin() }"),
                    encoding="utf-8")
    setup = rulebook(rulelang.load(str(path)), source=str(path)).split("\nA turn\n")[0]
    assert "Before the first turn" in setup and "Step `draft`" in setup


def test_a_compiled_game_has_a_rulebook_without_the_rule_files_text(tmp_path):
    path = tmp_path / "chips.json"
    path.write_text(json.dumps(build().ir), encoding="utf-8")
    text = rulebook(rulelang.load(str(path)))
    assert "Take this chip." in text and "as the rules write it" not in text


def test_help_of_a_compiled_game_gives_an_action_s_refusal_words(tmp_path):
    """Without the rule file's text, `help ACTION` said only "allowed only when its condition
    holds" (a first hour): the `require … else` words say what the condition is."""
    path = tmp_path / "valgard.json"
    path.write_text(json.dumps(rulelang.load("games/valgard.rules").ir), encoding="utf-8")
    text = action_help(rulelang.load(str(path)), "march")
    assert "as the rules write it" not in text
    assert ("when not, the rules say: a piece marches onto an empty octagon that is not dead, or onto an "
            "enemy it may capture") in text


def test_help_of_a_compiled_game_tells_one_action_at_two_steps_apart(tmp_path):
    """A fuzz trial: `buy it` at two steps with two `else` words read as one, at step a, with the
    first step's words (a compiled game has no rule text to tell them apart)."""
    source = ('game "Two" { players 2  var coins: int = 0 per player  turn {\n'
              '  step a { action buy_it require coins[me] >= 3 else "at the market it costs 3" { goto b }\n'
              '           action earn { coins[me] += 1  if coins[me] > 5 { finish win for me "rich" }  goto b } }\n'
              '  step b { action buy_it require coins[me] >= 9 else "at the palace it costs 9" { end turn }\n'
              '           action rest { end turn } } } }')
    path = tmp_path / "two.json"
    path.write_text(json.dumps(rulelang.compile_source(source, "two.rules")), encoding="utf-8")
    text = action_help(rulelang.load(str(path)), "buy it")
    assert "buy it (at step a)" in text and "buy it (at step b)" in text
    assert "at the market it costs 3" in text and "at the palace it costs 9" in text


def test_the_words_are_made_printable():
    text = rulebook(build(CHIPS.replace("Take one.", "Take \\u001b one.".replace("\\u001b", "\x1b"))))
    assert "\x1b" not in text and "Take \\u001b one." in text


def test_rules_command_text_and_markdown(capsys):
    assert main(["rules", str(ROOT / "games" / "valgard.rules")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Valgarð\n=======\n\nValgarð: The Walls of the Slain is an abstract game")
    for part in ("2 players.", "How to win", "cannot move at the start of their turn", "The game ends:",
                 "“no winner after … turns” (once the turn limit is reached)",
                 "Step `muster` (the rules say who acts)", "- `march FROM TO`: Move a warrior",
                 "`hardcore` (true or false, default false)"):
        assert part in out, part
    assert main(["rules", str(ROOT / "games" / "regicide.rules"), "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# Regicide\n") and "\n## A turn\n" in md and "- `play CARDS`: One card" in md


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in BIG else [])
                                  for p in GAMES])
def test_every_game_explains_itself(path):
    game = rulelang.load(str(path))
    about = game.ir.get("about", {})
    assert about.get("game") and about.get("win")
    steps = [s for s in game.ir["steps"] if not s["name"].startswith("__")]
    assert {s["name"] for s in steps} <= set(about.get("steps", {}))
    assert {a["name"] for s in game.ir["steps"] for a in s["actions"]} <= set(about.get("actions", {}))
    assert {z["name"] for z in game.ir["zones"] if not z.get("internal")} <= set(about.get("zones", {}))
    assert {o["name"] for o in game.ir["options"]} <= set(about.get("options", {}))


def test_rules_and_help_at_the_terminal():
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(game, 1, 3, {}, {}, io.StringIO("rules\nhelp play full\n? flip jester full\nhelp dance\nquit\n"), out,
             str(ROOT / "games" / "regicide.rules"))
    text = out.getvalue()
    after_rules = text.split("P1> rules\n")[1].split("P1> help play full")[0]
    assert after_rules.startswith("Regicide\n========\n") and "How to win" in after_rules
    play = text.split("P1> help play full\n")[1].split("P1> ")[0]
    assert play.startswith("play CARDS (at step play)\n\nCARDS: 1 to 4 of your hand\n\nOne card; an Ace with one other card")
    legal = [a.text for a in game.new_match(1, seed=3).legal_actions() if a.name == "play"]
    assert f"legal now: {legal[0]}, {legal[1]}, {legal[2]} … ({len(legal)} in all)" in play
    assert "as the rules write it: play(cards subset of hand[me] size 1..4) require valid_play(cards)" in play
    flip = text.split("P1> ? flip jester full\n")[1].split("P1> ")[0]
    assert flip.count("flip jester (at step") == 2 and "not paying" in flip
    assert "error: no action `dance`; the actions are: discard, flip jester, next turn, play, yield" in text


def test_help_for_a_game_without_words():
    assert action_help(build(CHIPS.replace('about action take "Take this chip."', "")), "take").startswith(
        "take C (at step s)\n\nC: one of pool (The chips left)\n\n(the rule file says nothing more about it)")


def test_help_says_what_a_shared_zone_chosen_from_is_in_the_rules_words():
    """Smash Up's `help use` read "C: one of field": the zone's name alone. A zone the rules say
    something about (`about zone`) is told with those words; a player's own zone reads "your hand"."""
    game = rulelang.load(str(ROOT / "games" / "smash_up.rules"))
    text = action_help(game, "use", authors=False)
    assert "C: one of field (The minions in play, each at its base); B: one of bases (The bases in play;" in text
    assert "C: one of your hand; B: one of bases (" in action_help(game, "play", authors=False)
    # (a first-hour trial: `use C` — a card played from hand or discard — is `use` too, and was left out)
    assert "use C (at step play)\n\nC: one of your hand or your discard\n\nUse an ability a card of yours in your hand" in text


def test_help_names_a_rule_that_lists_components_with_what_it_is_given():
    """Dozen War's `help move` read "U: one of the values of `movers`" (a player trial: jargon)."""
    ir = rulelang.compile_file(str(ROOT / "games" / "dozen_war.rules"))
    del ir["about"]["defs"]                     # (the words the rule file gives them: below)
    game = rulelang.Game(ir)
    text = action_help(game, "move", authors=False)
    assert "FROM: one of the cells of `my cells`; U: one of `movers` for FROM; TO: one of the cells of `dests` for U" in text
    assert "T: one of `foes at` for AT and you" in action_help(game, "attack", authors=False)


def test_help_says_a_parameter_in_the_words_the_rules_give_its_def():
    """Three trials (Dozen War's first hour, Shadow Hunters' and Smash Up's checks): `help move` read
    "U: one of `movers` for FROM" — a name of the rule file. `about def movers "…"` words it."""
    game = rulelang.load(str(ROOT / "games" / "dozen_war.rules"))
    assert ("FROM: one of the cells with a unit of yours; U: one of your units on that cell that may still "
            "move this turn (for FROM); TO: one of the cells that unit may move to (for U)") in action_help(game, "move", authors=False)
    assert "T: one of the enemy units on that cell (for AT)" in action_help(game, "attack", authors=False)
    sh = rulelang.load(str(ROOT / "games" / "shadow_hunters.rules"))
    assert "A: one of the areas next to yours: the other of your pair" in action_help(sh, "teleport", authors=False)
    with pytest.raises(rulelang.RuleError, match="E101.*unknown def `mover`"):
        rulelang.compile_source('game "F" { players 2  about def mover "x"  def movers = [1]\n'
                                '  turn { step s { action go(n in movers) { finish draw } } } }', "f.rules")


def test_help_names_a_list_of_values_and_what_kind_of_value_a_rule_gives():
    """A first hour at Shadow Hunters: `help teleport` read "A: one of the values of `adjacent`",
    `help draw card` "COL: one of the values the rules list"."""
    ir = rulelang.compile_file(str(ROOT / "games" / "shadow_hunters.rules"))
    del ir["about"]["defs"]
    game = rulelang.Game(ir)
    assert "A: one of `adjacent` for your at (Area values)" in action_help(game, "teleport", authors=False)
    assert "COL: one of white, black, hermit" in action_help(game, "draw_card", authors=False)
    flags = rulelang.Game(rulelang.compile_source(
        'game "F" { players 2  turn { step s { action flag(b in [true, false]) { finish draw } } } }', "f.rules"))
    assert "B: one of true, false" in action_help(flags, "flag", authors=False)      # (was True, False)
    # an enum's values as the screen shows them, and a range in words (a new author's Risk-lite read
    # `F: one of alder, birch` and `K: one of the values the rules list`)
    lands = rulelang.Game(rulelang.compile_source(
        'game "L" { players 2  enum Land { alder "Alder", birch "Birch" }  turn { step s { '
        'action attack(f in Land, k in 1..3) { finish draw } } } }', "l.rules"))
    assert "F: one of Alder, Birch; K: one of the numbers 1 to 3" in action_help(lands, "attack", authors=False)


def test_help_says_why_an_action_is_not_legal_now():
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    text = action_help(game, "yield", game.new_match(1, seed=3), authors=False)
    assert text.rstrip().endswith("not legal now: in a solo game you may never yield "
                                  "(not when every other player yielded: there is none)")


def test_rules_of_a_file_that_does_not_exist_is_one_line(capsys, tmp_path):
    assert main(["rules", str(tmp_path / "nope.rules")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


if sys.platform == "win32":                                   # (paths in messages differ)
    pytest.skip("POSIX paths", allow_module_level=True)


def test_the_rulebook_says_what_the_score_is_in_the_rules_words():
    """`finish by score` said "the best score wins" and never what the score is (a new author);
    then it quoted `ranked by vp[me]`, which players cannot read: the `about win` words say it."""
    text = rulebook(rulelang.load(str(ROOT / "games" / "smash_up.rules")), source=str(ROOT / "games" / "smash_up.rules"))
    assert "a player with 15 VP or more who is alone in the lead wins" in text
    assert ("- the best score wins (players tied for the best draw, and the others lose) — “… has … VP, 15 or more, and is alone in the lead” "
            "(as step draw cards begins)") in text
    assert "vp[me]" not in text and "ranked by" not in text


def test_the_rulebook_names_an_action_by_the_text_players_type():
    """An action with `as TEXT` is listed as players type it: its written words, its parameters
    where their labels go, `…` for anything else computed."""
    root = Path(__file__).resolve().parent.parent
    text = rulebook(rulelang.load(str(root / "games" / "smash_up.rules")))
    assert "- `play C on B`:" in text and "- `play C from the discard pile on B`:" in text
    source = CHIPS.replace("action take(c in pool)", 'action take(c in pool) as "take chip " + text(c.v)')
    assert source != CHIPS
    text = rulebook(build(source))
    assert "- `take chip C`" in text                # (worked out of the parameter alone: its name)
    source = CHIPS.replace("action take(c in pool)", 'action take(c in pool) as "take " + text(3 * 2) + " " + text(c)')
    assert "- `take … C`" in rulebook(build(source))


def test_help_of_an_action_playable_at_any_time_says_so():
    """`help reveal` said `(at step start)`: an any-time action is offered at every step too."""
    root = Path(__file__).resolve().parent.parent
    path = str(root / "games" / "shadow_hunters.rules")
    game = rulelang.load(path)
    text = action_help(game, "reveal", game.new_match(4, seed=1), source=path, authors=False)
    assert text.splitlines()[0] == "reveal (at any time)"


def test_the_rulebook_gives_a_hexagon_board_by_its_side():
    """`hexagon(4)` read 'hexagon, 4 by 4'; a hexagon has one number, its side."""
    source = 'game "Hex" {\n  players 2\n  board hx: hexagon(3)\n  var n: int = 0\n' \
             '  turn { step s { action go { n += 1  if n > 3 { finish draw }  end turn } } }\n}\n'
    text = rulebook(rulelang.Game(rulelang.compile_source(source, "hex.rules")))
    assert "The board: hexagon, 3 cells a side." in text
    squares = source.replace("hexagon(3)", "squares(4, 3)")
    assert "The board: squares, 4 by 3." in rulebook(rulelang.Game(rulelang.compile_source(squares, "sq.rules")))


# ---- a rulebook for players: their words, never the rules' inside (issue: testers at the table) ----

def _book(stem: str) -> str:
    path = str(ROOT / "games" / f"{stem}.rules")
    return rulebook(rulelang.load(path), source=path)


INSIDE = re.compile(r"\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b|\bhooks?\b|as the rules write it|Card abilities|"
                    r"window `|opened by|\[me\]|\bin check_|\bproc\b")


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in BIG else [])
                                  for p in GAMES])
def test_no_rulebook_names_the_rules_inside(path):
    """Testers read `Armor Stego (×3): adds to raw_power`, `hook on_play: …`, `(in check_end, …)`:
    names of the rule file's procedures, hooks and defs. An option's name stays: players type it."""
    text = _book(path.stem)
    for o in rulelang.load(str(path)).ir["options"]:
        text = text.replace(f"- `{o['name']}` (", "- `OPTION` (")
    found = sorted({m.group(0) for m in INSIDE.finditer(text)})
    assert not found, found


def test_regicide_says_the_jester_for_each_player_count():
    text = _book("regicide")
    assert "- Jester (with 1 player): Jester (solo): never played, never in a hand." in text
    assert "- Jester (with 2 players): Jester: not used with 2 players." in text
    assert ("- Jester (with 3 or 4 players): Jester (1 in the tavern with 3 players, 2 with 4): attack 0, played "
            "alone. It cancels the current enemy's immunity") in text
    assert "its player chooses who plays next, themselves included" in text
    assert "Step `choose next`: After a Jester, its player chooses who takes the next turn, themselves included." in text
    assert "- `jesters aside` (a pile, face up): Solo: the Jesters you may still flip." in text


def test_rules_cards_at_the_table_tells_this_matchs_jester():
    """`rules cards` in a 3-player game told only the solo Jester: the texts are this match's."""
    game = rulelang.load(str(ROOT / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(game, 3, 3, {}, {}, io.StringIO("rules cards\nquit\n"), out, str(ROOT / "games" / "regicide.rules"))
    cards = out.getvalue().split("P1> rules cards\n")[1].split("P1> quit")[0]
    assert "- Jester: Jester (1 in the tavern with 3 players, 2 with 4): attack 0, played alone." in cards
    assert "never played" not in cards and "with 1 player" not in cards


@pytest.mark.slow
def test_smash_up_tells_cards_by_their_text_and_windows_by_their_question():
    text = _book("smash_up")
    assert "- Armor Stego: Minion, power 3 (3 copies). Ongoing: +2 power during other players' turns." in text
    assert ("- “… is about to score: play a Special?”: asked in turn; after an answer the others are asked again, "
            "until everyone passes in a row\n  - answered with (by the player who has it): Shinobi, Hidden Ninja, "
            "Pirate King, Full Sail") in text
    assert "Step `score bases`: Every base whose power has reached its breakpoint scores" in text
    assert "raw_power" not in text and "on_play" not in text and "Wildlife Preserve: adds to" not in text


@pytest.mark.slow
def test_shadow_hunters_ends_deals_and_lists_every_character_truthfully():
    text = _book("shadow_hunters")
    assert ("The game ends:\n\n- some players win, the others lose (the game says who, and why, when it ends, "
            "after some actions (attack, attack everyone in range, take, …), by a card (Hermit's Bully, Hermit's Bully "
            "(expansion), Hermit's Exorcism, …))\n" in text)    # (they share the proc whose gift may end it)
    assert "check_end" not in text and "“…”" not in text and "Hermit's Anger's ability" not in text
    assert ("Neutrals by the number of players (4 players: 2 Shadows, 2 Hunters, no Neutral; 5: 2, 2 and 1; "
            "6: 2, 2 and 2; 7: 2, 2 and 3; 8: 3, 3 and 2)") in text
    assert "- Ultra Soul (option characters: expansion or all): Shadow, 11 HP" in text
    assert "- Emi (option characters: base or all): Hunter, 10 HP" in text
    assert "- Chocolate (option characters: base): White card, single use (base version)." in text
    # the words agree with what a match deals (digest H2)
    game = rulelang.load(str(ROOT / "games" / "shadow_hunters.rules"))
    said = {4: (2, 2, 0), 5: (2, 2, 1), 6: (2, 2, 2), 7: (2, 2, 3), 8: (3, 3, 2)}
    for players, split in said.items():
        m = game.new_match(players, seed=players)
        dealt = [m.rules_text(z[0], 0).split(",")[0] for z in m.state()["zones"]["character"]]
        assert (dealt.count("Shadow"), dealt.count("Hunter"), dealt.count("Neutral")) == split, players


def test_dozen_war_ends_without_its_procedures_and_says_the_castles_by_player_count():
    text = _book("dozen_war")
    assert ("- the players the game names win, the others lose — “5 map pieces held at once by …” (at the start of a round, "
            "after some actions (dig, siege, attack, …), by a card (Desertion, Famine, Explosion, …))") in text
    # (a rules lawyer: Desertion taking the last soldier ends it too, not only siege or attack)
    assert ("“every other player has lost all castles, generals and soldiers” (after the action siege or attack, "
            "by a card (Desertion, Famine, Explosion, …))") in text
    assert "“after the 7th event, the best score (then map pieces): …” (at the end of a round)" in text
    assert "check_pieces" not in text and "final_scoring" not in text and "Desertion's ability" not in text
    assert "- East infantry castle (with 3 or 4 players): The East player's infantry castle" in text
    assert "- West infantry castle (with 4 players):" in text
    assert "(D18)" not in text and "With 3 players each player starts with a map piece" in text


def test_an_end_a_reveal_brings_through_a_procedure_says_its_moment():
    # before: "“three points”" with no moment (the reveal's calls were not read; a new author's Cribbage)
    game = rulelang.Game(rulelang.compile_source("""
game "Reveal Finish" {
  players 2 ranked by pts[me]
  var pts: int = 0 per player, public
  proc add(p: player) { pts[p] += 1  if pts[p] >= 3 { finish win for p "three points" } }
  turn {
    step pick simultaneous {
      action pick(n in 1..2) as "pick " + text(n) { pts[me] += n }
      reveal {
        add(current)
        if pts[0] >= 5 { finish by score "five" }
        end turn
      }
    }
  }
}
""", "x.rules"))
    text = rulebook(game)
    assert "“three points” (once the answers at step pick are revealed)" in text, text


def test_rules_takes_an_enum_value_by_its_name_as_actions_do():
    """A first hour: `rules ♥` worked, `rules hearts` was "no section" (the README: `spades` for `♠`)."""
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "regicide.rules"))
    out = io.StringIO()
    run_repl(game, 1, 1, {}, {}, io.StringIO("rules hearts\nrules zzz\nquit\n"), out, "regicide.rules")
    text = out.getvalue()
    assert "P1> rules hearts\n♥ (suit)\n  Hearts (♥): heal." in text, text[-1500:]
    assert "P1> rules zzz\nerror: the rules have no section 'zzz'" in text


def test_words_starting_several_actions_are_said_ambiguous():
    """A first hour: `wild t` (Tortuga and The Great Library) read "not a legal action or a command"
    where `wild tor` played and `pay t` said "ambiguous"."""
    game = rulelang.load(str(Path(__file__).resolve().parent.parent / "games" / "smash_up.rules"))
    keys = ["", "keep", "", "keep", "", "pirate tort", "block tor", "dino", "done", "", "neo tort", "y", "neo",
            "wild t", "quit", "n"]
    out = io.StringIO()
    run_repl(game, 2, 3, {}, {}, io.StringIO("".join(k + "\n" for k in keys)), out, "smash_up.rules")
    text = out.getvalue()
    said = text[text.index("> wild t\n"):].splitlines()[1]
    assert said == ("ambiguous: 'wild t' could be place Wildlife Preserve on Tortuga, place Wildlife Preserve "
                    "on The Great Library"), said


def test_an_action_text_worked_out_of_one_parameter_names_it():
    """A new author's Quoridor read `wall ……O` and `move ……` in the rulebook and `help`: a part worked
    out of one parameter (`letters[c] + text(c * 2)`) is that parameter, once."""
    from rulelang.play.rulebook import rulebook
    game = rulelang.Game(rulelang.compile_source('''game "Walls" {
  players 1
  enum Orient { h "h", v "v" }
  table letters { 1: "a", 2: "b", 3: "c" }
  turn { step s {
    action wall(c in 1..3, o in Orient) as "wall " + letters[c] + text(c * 2) + text(o) { finish draw }
    action hop(c in 1..3, d in 1..3) as "hop " + text(c + d) { finish draw }
  } }
}''', "walls.rules"))
    text = rulebook(game, source=None)
    assert "`wall CO`" in text and "`hop …`" in text, text     # (two parameters in one part: still `…`)


def test_help_names_a_builtin_call_chosen_from_with_its_arguments():
    """A new author's Backgammon: `move(d in distinct(dice))` read "D: one of the values: distinct"."""
    game = build("""
game "Dice" {
  players 1
  var dice: list[int] = [3, 3, 5], public
  turn { step s { action move(d in distinct(dice)) { finish draw "done" } } }
}
""")
    assert "D: one of the values of `distinct(dice)`" in action_help(game, "move", authors=False)


def test_help_names_two_parameters_whose_texts_stand_side_by_side():
    """A new author's Bridge: `bid(l in 1..7, s in Strain) as text(l) + text(s)` read `LS` in help
    (as typed: `1♣`), over blank lines where each parameter is said."""
    game = build("""
game "Bids" {
  players 2
  enum Strain { clubs "♣", notrump "NT" }
  turn { step auction { action bid(l in 1..7, s in Strain) as text(l) + text(s) { finish draw "done" } } }
}
""")
    text = action_help(game, "bid", authors=False)
    assert text.startswith("LS (at step auction)"), text
    assert "L: one of the numbers 1 to 7; S: one of ♣, NT" in text, text
