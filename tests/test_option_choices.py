"""`option NAME: [V1, V2, …] = V`: an option that may take only the values listed. A value not
listed is refused when the match starts, with the values it may take; the linter checks the list;
the values are left out of the game's fingerprint (a save stays good when they change)."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

import rulelang
from rulelang.play.rulebook import rulebook

ROOT = Path(__file__).resolve().parent.parent

SOURCE = """
game "Pick" {
  players 2
  option pace: ["slow", "fast"] = "slow"
  option count: [3, 5, -1] = 3
  var n: int = 0
  turn { step s { action go { n += 1  if n > count or pace == "fast" { finish draw }  end turn } } }
}
"""


def build(src: str) -> rulelang.Game:
    return rulelang.Game(rulelang.compile_source(src, "pick.rules"))


def codes(src: str) -> list:
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(src, "pick.rules")
    return [(d.code, d.message) for d in err.value.diagnostics]


def test_the_values_listed_are_taken_and_any_other_is_refused_naming_them():
    game = build(SOURCE)
    assert [o.get("choices") for o in game.options] == [["slow", "fast"], [3, 5, -1]]
    assert game.new_match(2, 0, {"pace": "fast", "count": -1}).options == {"pace": "fast", "count": -1}
    with pytest.raises(ValueError, match=r"option `pace` must be one of 'slow', 'fast', not 'medium'"):
        game.new_match(2, 0, {"pace": "medium"})
    with pytest.raises(ValueError, match=r"option `count` must be one of 3, 5, -1, not 4"):
        game.new_match(2, 0, {"count": 4})


def test_the_linter_checks_the_list():
    bad_default = SOURCE.replace('= "slow"', '= "medium"')
    assert ("E204", 'the option\'s default "medium" is not one of its values ("slow", "fast")') in codes(bad_default)
    twice = SOURCE.replace("[3, 5, -1]", "[3, 5, 3]")
    assert ("E204", "the option's value 3 is listed twice") in codes(twice)
    mixed = SOURCE.replace("[3, 5, -1]", '[3, "five"]')
    assert any(code == "E201" and "must be int, not text" in message for code, message in codes(mixed))
    computed = SOURCE.replace("[3, 5, -1]", "[3, 2 + 3]")
    assert any(code == "E204" and "written out" in message for code, message in codes(computed))


def test_the_values_are_not_part_of_the_fingerprint():
    plain = build(SOURCE.replace('["slow", "fast"]', "text").replace("[3, 5, -1]", "int"))
    assert "choices" not in plain.options[0]
    assert build(SOURCE).fingerprint == plain.fingerprint


def test_a_compiled_game_whose_default_is_not_a_value_is_refused():
    ir = rulelang.compile_source(SOURCE, "pick.rules")
    bad = copy.deepcopy(ir)
    bad["options"][0]["choices"] = ["fast"]
    with pytest.raises(rulelang.RulelangError, match="one of the choices"):
        rulelang.Game(bad)
    bad = copy.deepcopy(ir)
    bad["options"][1]["choices"] = [3, "3"]
    with pytest.raises(rulelang.RulelangError, match="distinct values of type int"):
        rulelang.Game(bad)


def test_the_rulebook_names_the_values():
    text = rulebook(build(SOURCE))
    assert '`pace` (one of "slow", "fast", default "slow")' in text


@pytest.mark.parametrize("path, option, bad", [("shadow_hunters.rules", "characters", "foo"),
                                                ("dozen_war.rules", "generals", "xyz")])
def test_the_shipped_games_refuse_a_mistyped_option(path, option, bad):
    game = rulelang.load(str(ROOT / "games" / path))
    with pytest.raises(ValueError, match=f"option `{option}` must be one of"):
        game.new_match(game.min_players, 0, {option: bad})


def test_the_rulebook_names_a_family_of_zones_by_the_words_of_its_enum_values():
    """A new author's Gin Rummy: `melds (a set, face up, one for each player and Slot)` — `Slot` is a name of
    the rule file; players read `meld 1`, `meld 2`, `meld 3`."""
    text = rulebook(build('game "Melds" {\n  players 2\n  enum Slot { s1 "meld 1", s2 "meld 2", s3 "meld 3" }\n'
                          '  zone melds: set per player per Slot, public\n'
                          '  turn { step s { action stop { finish draw "done" } } }\n}\n'))
    assert "one for each player and each of meld 1, meld 2, meld 3" in text, text
    assert "Slot" not in text, text
    text = rulebook(build('game "Months" {\n  players 2\n  enum Slot { s1 "meld 1", s2 "meld 2" }\n'
                          '  zone melds: set per Slot per player, public\n'
                          '  turn { step s { action stop { finish draw "done" } } }\n}\n'))
    assert "one for each of meld 1, meld 2 and player" in text, text     # (a review: "each each of")
