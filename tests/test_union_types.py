"""Union types: "a creature or a player" (`Creature or player`), the type of a target.

Players and components are both small numbers at run time; inside a union a player p is held as
-1 - p. These tests play the small duel in tests/unions/duel.rules and check what a rule may and
may not do with such a value (docs/language.md, "Declared types")."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang import check_source
from rulelang.engine.match import Match

DUEL = Path(__file__).parent / "unions" / "duel.rules"
SOURCE = DUEL.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def duel():
    return rulelang.load(str(DUEL))


def texts(m) -> list[str]:
    return [a.text for a in m.legal_actions()]


def life(m) -> list[int]:
    return next(v["per_player"] for v in m.view(0)["values"] if v["name"] == "life")


def errors(source: str) -> list[str]:
    return [f"{d.code} {d.message}" for d in check_source(source, "x.rules")[1] if d.severity == "error"]


def test_a_union_list_offers_creatures_and_players_by_their_names(duel):
    m = duel.new_match(seed=1)
    assert texts(m) == ["bolt Ogre", "bolt Elf", "bolt P1", "bolt P2", "zap"]


def test_a_player_target_is_narrowed_to_that_player_and_a_creature_to_that_creature(duel):
    m = duel.new_match(seed=1)
    m.apply("bolt P2")                      # `if t in players`: life[t], with t the player P2
    assert life(m) == [5, 3]
    assert m.messages[-1] == "P2 loses 2 life"
    m.apply("bolt P1")
    assert life(m) == [3, 3]
    m.apply("bolt Ogre")                    # else: the creature, with its own fields
    view = m.view(0)
    ogre = next(c["id"] for z in view["zones"] for c in z.get("cards", []) if c["label"] == "Ogre")
    assert view["component_values"][str(ogre)] == {"damage": 2}
    assert life(m) == [3, 3]
    m.apply("bolt Goblin")                  # toughness 1: dies
    assert [c["label"] for z in m.view(0)["zones"] if z["name"] == "graveyard" for c in z["cards"]] == ["Goblin"]


def test_a_choice_of_a_union_shows_names_and_the_answer_keeps_its_kind(duel):
    m = duel.new_match(seed=1)
    m.apply("bolt P2")
    m.apply("zap")                          # P2: itself, the Ogre or the Elf
    assert texts(m) == ["P2", "Ogre", "Elf"]
    m.apply("Elf")
    assert m.messages[-1] == "zapped creature Elf" and life(m) == [5, 3]
    m.apply("zap")
    assert texts(m) == ["P1", "Goblin"]
    m.apply("P1")                           # `u == me` compares a union with a player
    assert m.messages[-1] == "zapped player P1" and life(m) == [4, 3]


def test_a_position_with_a_union_choice_waiting_saves_and_loads(duel):
    m = duel.new_match(seed=1)
    m.apply("bolt P2")
    m.apply("zap")
    again = Match.from_state(duel, json.loads(json.dumps(m.state())))
    assert texts(again) == ["P2", "Ogre", "Elf"]
    again.apply("P2")
    assert life(again) == [5, 2]


def test_bots_play_union_targets_to_the_end(duel):
    from rulelang.play.bots import make_bot
    for seed in range(6):
        m = duel.new_match(seed=seed)
        bots = [make_bot("random", seed=seed), make_bot("ismcts:20", seed=seed)]
        while m.outcome is None:
            m.apply(bots[m.actor].choose(m))
        assert m.outcome["reason"] in ("the other is out of life", "time is up")


def test_the_ir_shows_a_union_as_a_component_or_a_player(duel):
    action = next(a for s in duel.ir["steps"] for a in s["actions"] if a["name"] == "bolt")
    assert action["params"][0]["show"] == "comp_or_player"
    choose = json.dumps(duel.ir)
    assert '"show": "comp_or_player"' in choose


@pytest.mark.parametrize("old, new, message", [
    ('log "zapped " + describe(u)', 'log "zapped " + u.name',
     "E201 `name` of Creature or player: say which it is first, `if u in players { … } else { … u.name … }`"),
    ('if u == me { life[me] -= 1 }', 'life[u] -= 1',
     "E201 the index of `life` must be player, not Creature or player"),
    ('  var damage: int = 0 per Creature\n', '  var damage: int = 0 per Creature\n  var last: Creature or player = none\n',
     "E201 `last` cannot hold Creature or player: a union is the type of a `choose` variable, a def's parameter or "
     "a def's value"),
    ('if u == me { life[me] -= 1 }', 'if me == top(graveyard) { life[me] -= 1 }',
     "E201 cannot compare player with component"),
    ('          life[t] -= 2\n', '          life[t] -= 2\n          t = me\n',
     "E201 `t` is narrowed by the `if` around it: change it outside that `if`"),
    ('Creature or player in [me]', 'Creature or text in [me]',
     "E201 a union is one component kind and `player` (`Creature or player`), not Creature or text"),
    ('kind Creature { name: text  toughness: int  label name }',
     'kind Creature { name: text  toughness: int  owner: Creature or player = none  label name }',
     "E201 field `owner` cannot hold Creature or player: a union is the type of a `choose` variable, a def's "
     "parameter or a def's value"),
])
def test_what_a_union_may_not_do_is_refused_in_words(old, new, message):
    assert old in SOURCE
    assert errors(SOURCE.replace(old, new)) == [message]


def test_the_else_of_a_test_that_is_not_every_player_is_not_narrowed():
    # `t in remaining` makes t a player; not being in it leaves t a creature *or* a player
    source = SOURCE.replace("if t in players {", "if t in [me] {")
    assert "E201 `toughness` of Creature or player: say which it is first, " \
           "`if t in players { … } else { … t.toughness … }`" in errors(source)


def test_a_union_joins_where_lists_or_branches_meet_and_a_def_takes_either():
    source = SOURCE.replace('log "zapped " + describe(u)',
                            'log describe(me) + ", " + describe(top(graveyard)) + ", " + '
                            'text(size([me, top(graveyard)])) + ", " + text(if u in players then me else u)')
    assert errors(source) == []
    game = rulelang.Game(rulelang.compile_source(source, "x.rules"))
    m = game.new_match(seed=1)
    m.apply("bolt P1")
    m.apply("bolt Goblin")
    m.apply("zap")                          # (P1 has no creature left: the choice is forced)
    assert m.messages[-1] == "player P1, creature Goblin, 2, P1"


def test_contains_and_in_tag_a_player_so_it_is_never_taken_for_component_0():
    # the Goblin is component 0 and P1 is player 0: in a union they must not be equal
    source = '''game "c" {
  players 2
  kind Creature { name: text  label name }
  zone field: set per player, public
  def targets: list[Creature or player] = [c for c in field[0]] + [players[1]]
  setup { create Creature(name: "Goblin") in field[0] }
  turn { step s { action a {
    log text(contains(targets, me)) + " " + text(me in targets) + " " + text(contains(targets, players[1]))
        + " " + text(players[1] in targets) + " " + text(contains(targets, top(field[0])))
    finish draw
  } } }
}'''
    m = rulelang.Game(rulelang.compile_source(source, "c.rules")).new_match(seed=1)
    m.apply("a")
    assert m.messages[-1] == "false false true true true"


def test_a_union_never_names_a_card_its_chooser_may_not_see():
    # `others`: every player but its owner sees a hand; the owner picks among its own cards blind
    source = '''game "Blind" {
  players 2
  kind Card { name: text  label name }
  zone hand: set per player, others
  def marks: list[Card or player] = [c for c in hand[me]] + others
  setup { create Card(name: "Ace") in hand[0]  create Card(name: "King") in hand[1] }
  turn { step s {
    action mark(t in marks) { log "marked"  end turn }
    action tag(t in marks) as "tag " + text(t) { log "tagged"  end turn }
    action pick { choose u: Card or player in marks prompt "which?" { log "picked" }  end turn }
  } }
  turn limit 4 { finish draw }
}'''
    m = rulelang.Game(rulelang.compile_source(source, "blind.rules")).new_match(seed=1)
    assert texts(m) == ["mark hand slot 1", "mark P2", "tag hand slot 1", "tag P2", "pick"]
    m.apply("pick")
    assert texts(m) == ["hand slot 1", "P2"]


def test_interop_lists_a_union_parameters_texts_in_its_fixed_action_space():
    from rulelang.interop import core
    source = '''game "Bolt" {
  players 2
  kind Creature { name: text  label name }
  zone field: set, public
  var life: int = 3 per player
  def targets: list[Creature or player] = [c for c in field] + players
  setup { create Creature(name: "Ogre") in field }
  turn { step main { action bolt(t in targets) { if t in players { life[t] -= 1 }  end turn } } }
  when any(life[p] <= 0 for p in players) { finish win for [p for p in players where life[p] > 0] }
}'''
    game = rulelang.Game(rulelang.compile_source(source, "bolt.rules"))
    universe, why = core.text_universe(game, 2, None, 5000)
    assert (universe, why) == (["bolt Ogre", "bolt P1", "bolt P2"], None)
    m = game.new_match(seed=1)
    while m.outcome is None:
        assert set(texts(m)) <= set(universe)
        m.apply("bolt P2")
    assert m.outcome["results"] == ["win", "lose"]
