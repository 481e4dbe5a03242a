"""`refuse(REASON)` in `setup`: the rules refuse the options (and player count) a match was asked
with. The match is not made; whoever asked reads the rules' reason. After the set-up it is a rule
error; a `proc refuse` of the rules hides the builtin procedure."""
from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main

ROOT = Path(__file__).resolve().parent.parent

TEAMS = """
game "Teams" {
  players 2..4
  option teams: bool = false
  var n: int = 0
  setup {
    if teams and player_count != 4 { refuse("teams are for 4 players") }
  }
  turn { step s { action go { n += 1  if n > 3 { finish draw }  end turn }
                  action late { refuse("too late") } } }
}
"""


def build(src: str) -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source(src, "teams.rules"))


def test_the_set_up_refuses_the_options_with_the_rules_reason():
    game = build(TEAMS)
    with pytest.raises(ValueError, match=r"^the rules refuse this game: teams are for 4 players$"):
        game.new_match(3, options={"teams": True})
    assert game.new_match(4, options={"teams": True}).legal_actions()
    assert game.new_match(3).legal_actions()


def test_refuse_after_the_set_up_is_a_rule_error_and_changes_nothing():
    m = build(TEAMS).new_match(2)
    before = m.state()
    with pytest.raises(rulelang.RuleRuntimeError, match="`refuse` is for the set-up, before the first turn"):
        m.apply("late")
    assert m.state() == before


def test_a_proc_of_that_name_hides_the_builtin_procedure():
    source = TEAMS.replace("  setup {", '  proc refuse(why) { n = 7 }\n  setup {')
    m = build(source).new_match(3, options={"teams": True})
    assert m.state()["vars"]["n"] == 7


def test_refuse_needs_one_text():
    with pytest.raises(rulelang.RuleError, match=r"E201.*`refuse` needs a text saying why, not"):
        build(TEAMS.replace('refuse("teams are for 4 players")', "refuse(3)"))
    with pytest.raises(rulelang.RuleError, match=r"E103.*`refuse\(REASON\)` takes one argument"):
        build(TEAMS.replace('refuse("teams are for 4 players")', 'refuse("a", "b")'))


def test_the_command_line_says_it_in_one_line(capsys, monkeypatch, tmp_path):
    path = tmp_path / "teams.rules"
    path.write_text(TEAMS, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", str(path), "--players", "3", "--option", "teams=true"]) == 1
    err = capsys.readouterr().err
    assert err == "error: the rules refuse this game: teams are for 4 players\n"


def test_the_deep_lint_leaves_out_the_settings_the_rules_refuse(tmp_path):
    path = tmp_path / "teams.rules"
    path.write_text(TEAMS.replace("action late { refuse(\"too late\") }", ""), encoding="utf-8")
    assert [d for d in rulelang.deep_lint(str(path), games=40) if d.severity == "error"] == []


def test_dozen_war_plays_its_alliance_with_four_players_only():
    game = rulelang.load(str(ROOT / "games" / "dozen_war.rules"))
    with pytest.raises(ValueError, match="the alliance .* is for 4 players"):
        game.new_match(3, options={"alliance": True})
    assert game.new_match(4, options={"alliance": True}).legal_actions()


@pytest.mark.parametrize("factions, why", [
    ("pirates+pirates,ninjas+robots", "each player has two different factions, joined by +: pirates+ninjas, "
                                      "not pirates+pirates"),
    ("pirates+ninjas", "the option factions is random, draft, or two factions for each of the 2 players"),
    ("", "the option factions is random, draft, or two factions"),     # (a browser trial: an empty field)
    ("pirates,ninjas+robots", "each player has two different factions, joined by +"),
    ("zombie+wizards,aliens+tricksters", "there is no faction zombie (the factions: aliens, dinosaurs, ninjas, "
                                         "pirates, robots, tricksters, wizards, zombies)"),
])
def test_smash_up_refuses_named_factions_that_cannot_be_dealt(factions, why):
    game = rulelang.load(str(ROOT / "games" / "smash_up.rules"))
    with pytest.raises(ValueError, match=re.escape("the rules refuse this game: " + why)):
        game.new_match(2, options={"factions": factions})
    assert game.new_match(2, options={"factions": "pirates+ninjas,robots+zombies"}).legal_actions()
    assert game.new_match(2, options={"factions": "ninjas+pirates,ninjas+pirates"}).legal_actions()  # (a mirror match)


@pytest.mark.parametrize("limit", [0, -5])
def test_valgard_refuses_a_turn_limit_that_is_no_number_of_turns(limit):
    game = rulelang.load(str(ROOT / "games" / "valgard.rules"))
    with pytest.raises(ValueError, match=re.escape(f"the rules refuse this game: the turn limit (option "
                                                   f"turn_limit) is a number of turns: at least 1, not {limit}")):
        game.new_match(2, options={"turn_limit": limit})
    m = game.new_match(2, options={"turn_limit": 1})      # (one turn each, then the draw)
    assert m.legal_actions() and not m.is_over
