"""The interaction model, part two: cards as declarations (`create cards`, `c.card`, card triggers,
hooks, `can`, `replace`, `modify`, `source`), knowledge (`reveal`, `log … to`), `include` and
`split`. Every game is a small made-up one (a flea market, a hidden deck). Part one:
test_interaction.py.
"""
from __future__ import annotations

import json

import pytest

import rulelang

from interaction_helpers import build, play, texts, var


def zones(m):
    return m.state()["zones"]


# ---- cards ----------------------------------------------------------------------------------------
MARKET = """
game "Flea Market" {
  players 2
  kind Lot { value: int  owner: player = 0  label card }
  zone deck: pile per player, hidden
  zone hand: set per player, public     # (either player lays from either hand: both are seen)
  zone table: set, public, play
  zone box: pile, public
  event sold(l: Lot, buyer: player)
  hook appraise(by: player)
  hook shine()
  var gold: int = 0 per player, public
  var notes: list[text] = []
  var mes: list[player] = []
  turn limit 30 { finish draw }
  def worth(l: Lot) = l.value * 2
  proc discard(l: Lot) { move l to box append "discarded " + text(l) to notes }
  card Lot "Clock" { value: 3 copies: 2
    on sold(l, buyer) where l != self { gold[me] += 1 append "clock " + text(source) to notes append me to mes }
    on appraise(by) { gold[by] += self.value append "appraised " + text(source) to notes append me to mes }
    modify worth(l) += 10 where l != self
  }
  card Lot "Vase" { value: 5
    on sold(l, buyer) where l == self { append "vase sold" to notes }
    on shine() from table { append "shiny" to notes }
    replace discard(l) where l == self { }
  }
  card Lot "Urn" { value: 2
    replace discard(l) where l == self and me != self.owner {
      move l to hand[self.owner]
      append "urn saved from " + text(me) + " by " + text(source) to notes
    }
    modify worth(l) += 1
  }
  card Lot "Jar" { value: 4
    replace discard(l) where l == self { append "jar" to notes discard(l) }
  }
  card Lot "Coin" { value: 1
    on sold(l, buyer) from anywhere { append "coin" to notes append me to mes }
  }
  setup {
    create cards Lot(owner: 1) where value > 1 and card != "Jar" in hand[1]
    create cards Lot(owner: 0) where value == 1 in deck[0]
    create cards Lot where card == "Jar" in hand[0]
  }
  turn {
    step main {
      action lay(l in hand[0] + hand[1]) { move l to table end turn }
      action sell(l in table) { move l to box emit sold(l, me) end turn }
      action value(l in hand[1] + table) { run appraise(me) of l end turn }
      action polish(l in hand[1] + table) require can shine() of l { run shine() of l end turn }
      action toss(l in hand[0] + hand[1] + table) { discard(l) end turn }
      action worth(l in hand[1] + table) { append text(l) + "=" + text(worth(l)) to notes end turn }
      action rate(l in table) { append text(l) + "=" + text(worth(l)) to notes end turn }
      action names { for l in hand[1] { append l.card to notes } end turn }
      action idle { if source == none { append "no source" to notes } end turn }
    }
  }
}
"""


@pytest.fixture(scope="module")
def market():
    return build(MARKET)


def test_create_cards_makes_every_copy_of_the_declarations_that_match(market):
    m = market.new_match(2, seed=1)
    s = m.state()
    assert s["components"] == [
        {"kind": "Lot", "fields": {"value": 3, "owner": 1, "card": "Clock"}, "label": "Clock"},
        {"kind": "Lot", "fields": {"value": 3, "owner": 1, "card": "Clock"}, "label": "Clock"},
        {"kind": "Lot", "fields": {"value": 5, "owner": 1, "card": "Vase"}, "label": "Vase"},
        {"kind": "Lot", "fields": {"value": 2, "owner": 1, "card": "Urn"}, "label": "Urn"},
        {"kind": "Lot", "fields": {"value": 1, "owner": 0, "card": "Coin"}, "label": "Coin"},
        {"kind": "Lot", "fields": {"value": 4, "owner": 0, "card": "Jar"}, "label": "Jar"},
    ]
    assert s["zones"] == {"deck": [[4], []], "hand": [[5], [0, 1, 2, 3]], "table": [], "box": []}


def test_a_component_knows_its_card(market):
    m = market.new_match(2, seed=1)
    m.apply("names")
    assert sorted(var(m, "notes")) == ["Clock", "Clock", "Urn", "Vase"]


def test_a_card_trigger_applies_only_while_in_play_and_me_is_its_controller(market):
    m = market.new_match(2, seed=1)
    play(m, "lay Clock", "lay Vase")                    # P1 lays a Clock, P2 the Vase
    assert zones(m)["table"] == [0, 2]
    play(m, "sell Vase")                                # P1 sells: the Clock on the table and the Coin
    # the Vase was moved to the box before the event: it is not in play, its trigger waits not.
    # The Coin lies in P1's hidden deck: its ability runs first, unasked (a question naming "a
    # hidden card's ability" told every seat that a hidden card had reacted — a leak scan)
    assert m.pending is None and m.log == ["lay Clock", "lay Vase", "sell Vase"]
    # Coin (from anywhere, in P1's hidden deck, owner P1) ran first, then the Clock (owner P2)
    assert var(m, "notes") == ["coin", "clock Clock"] and var(m, "mes") == [0, 1]
    assert var(m, "gold") == [0, 1]


def test_an_unseen_cards_trigger_runs_first_whoever_acts(market):
    m = market.new_match(2, seed=1)
    play(m, "lay Clock", "lay Vase", "idle", "sell Vase")     # P2 sells
    assert m.current_player == 0 and m.pending is None
    assert var(m, "notes")[-2:] == ["coin", "clock Clock"]


def test_a_trigger_where_can_use_self(market):
    m = market.new_match(2, seed=1)
    play(m, "lay Clock", "lay Vase", "lay Clock", "sell Clock")
    # the first Clock went to the box first; the other Clock (l != self) and the Coin triggered
    assert var(m, "notes") == ["coin", "clock Clock"] and zones(m)["table"] == [2, 1]
    assert zones(m)["box"] == [0] and var(m, "gold") == [0, 1]


def test_two_copies_of_one_players_card_that_trigger_together_run_in_turn_unasked(market):
    m = market.new_match(2, seed=1)
    play(m, "lay Clock", "lay Clock", "lay Vase", "idle", "sell Vase")
    # both Clocks (and the Coin) wait: the Coin first (unseen), then the Clocks, alike, as they came
    assert m.current_player == 1 and m.pending is None
    assert var(m, "notes") == ["no source", "coin", "clock Clock", "clock Clock"] and var(m, "gold") == [0, 2]


def test_a_hook_runs_the_cards_ability_wherever_the_card_is(market):
    m = market.new_match(2, seed=1)
    m.apply("value Clock")                              # in P2's hand; P1 runs it
    assert var(m, "gold") == [3, 0] and var(m, "notes") == ["appraised Clock"]
    m.apply("value Vase")                               # the Vase has no such hook: nothing happens
    assert var(m, "gold") == [3, 0] and var(m, "notes") == ["appraised Clock"] and m.current_player == 0


def test_inside_a_hook_me_stays_the_player_of_the_effect_that_runs_it(market):
    m = market.new_match(2, seed=1)
    m.apply("value Clock")                              # P1 runs the hook of P2's Clock
    assert var(m, "mes") == [0] and var(m, "gold") == [3, 0]
    m.apply("value Clock")                              # P2 runs the hook of their own Clock
    assert var(m, "mes") == [0, 1] and var(m, "gold") == [3, 3]


def test_can_tells_whether_a_hook_applies_now(market):
    m = market.new_match(2, seed=1)
    assert not [t for t in texts(m) if t.startswith("polish")]     # the Vase's shine is `from table`
    play(m, "idle", "lay Vase")
    assert [t for t in texts(m) if t.startswith("polish")] == ["polish Vase"]
    m.apply("polish Vase")
    assert var(m, "notes") == ["no source", "shiny"]


def test_source_is_none_outside_abilities(market):
    m = market.new_match(2, seed=1)
    m.apply("idle")
    assert var(m, "notes") == ["no source"]


def test_an_empty_replacement_prevents_the_call_but_only_in_play(market):
    m = market.new_match(2, seed=1)
    play(m, "idle", "lay Vase", "toss Vase")
    assert zones(m)["table"] == [2] and zones(m)["box"] == [] and var(m, "notes") == ["no source"]
    m = market.new_match(2, seed=1)
    m.apply("toss Vase")                                # in a hand: not in play, not protected
    assert zones(m)["box"] == [2] and var(m, "notes") == ["discarded Vase"]


def test_a_replacement_sees_the_callers_me_and_source(market):
    m = market.new_match(2, seed=1)
    play(m, "idle", "lay Urn", "toss Urn")              # P1 tosses P2's Urn: saved
    assert zones(m)["hand"][1] == [0, 1, 2, 3] and zones(m)["box"] == []
    assert var(m, "notes") == ["no source", "urn saved from P1 by none"]
    play(m, "lay Urn", "idle", "toss Urn")              # P2 tosses their own Urn: not replaced
    assert zones(m)["box"] == [3] and var(m, "notes")[-1] == "discarded Urn"


def test_a_replacement_applies_once_in_a_chain(market):
    m = market.new_match(2, seed=1)
    play(m, "lay Jar", "idle", "toss Jar")
    assert var(m, "notes") == ["no source", "jar", "discarded Jar"] and zones(m)["box"] == [5]


def test_modify_adds_to_a_def_only_while_the_card_is_in_play(market):
    m = market.new_match(2, seed=1)
    play(m, "worth Vase")
    assert var(m, "notes") == ["Vase=10"]
    play(m, "idle", "lay Clock", "idle", "worth Vase", "rate Clock", "worth Clock")
    # the Clock on the table adds 10 to the Vase and to the other Clock (in P2's hand), not to itself
    assert var(m, "notes")[-3:] == ["Vase=20", "Clock=6", "Clock=16"]
    play(m, "lay Urn", "worth Vase", "rate Clock")
    assert var(m, "notes")[-2:] == ["Vase=21", "Clock=7"]            # two modifiers add up
    play(m, "sell Clock", "worth Vase")                              # the Clock leaves the table
    assert var(m, "notes")[-1] == "Vase=11"


HOOKED = """
game "Heirlooms" {
  players 2
  kind Lot { owner: player  label card }
  zone vault: set per player, public    # (P1 acts on P2's vault: seen by both)
  zone shelf: pile, public, play
  event dusted(by: player)
  hook inspect()
  var seen: list[text] = []
  turn limit 10 { finish draw }
  card Lot "Ring" { owner: 1
    on inspect() { may by self.owner prompt "polish the ring?" { emit dusted(self.owner) } append "inspected" to seen }
    on dusted(by) from anywhere { append "dusted by " + text(by) + " as " + text(me) + " from " + text(source) to seen }
    on turn_start() from shelf { append "dawn " + text(me) to seen }
  }
  setup { create cards Lot in vault[1] }
  turn {
    step main {
      action look(l in vault[1]) { run inspect() of l append "looked" to seen end turn }
      action shelve(l in vault[1]) { move l to shelf end turn }
      action wait { end turn }
    }
  }
}
"""


def test_a_hook_with_a_choice_and_a_trigger_it_sets_off():
    game = build(HOOKED)
    m = game.new_match(2, seed=1)
    m.apply("look Ring")
    assert m.question["chooser"] == 1 and m.question["prompt"] == "polish the ring?" and texts(m) == ["yes", "no"]
    r = rulelang.Match.from_state(game, json.loads(json.dumps(m.state())))
    m.apply("yes")
    assert var(m, "seen") == ["inspected", "looked", "dusted by P2 as P2 from Ring"]
    r.apply("yes")
    assert r.state() == m.state()


def test_a_card_trigger_on_turn_start():
    game = build(HOOKED)
    m = game.new_match(2, seed=1)
    play(m, "shelve Ring")
    assert var(m, "seen") == ["dawn P2"]
    play(m, "wait")
    assert var(m, "seen") == ["dawn P2", "dawn P2"]


# ---- knowledge --------------------------------------------------------------------------------------
PEEK = """
game "Peek" {
  players 3
  kind Card { rank: int  label "r" + text(rank) }
  zone deck: pile, hidden
  zone aside: pile, hidden
  zone hand: set per player, owner
  turn limit 20 { finish draw }
  setup { for r in [1, 2, 3] { create Card(rank: r) in deck } }
  turn {
    step main {
      action peek { reveal top(deck) to next(me) log "peeked" to [me, next(me)] log "for all" end turn }
      action show { reveal top(deck) end turn }
      action look { reveal top(deck) to me end turn }
      action aside { move top(deck) to aside end turn }
      action back { move top(aside) to deck end turn }
      action draw { move top(deck) to hand[me] end turn }
      action spy { reveal hand[next(me)] to me log "spied" to me end turn }
      action idle { end turn }
      action guess { may prompt "guess high?" { log "high" to me } end turn }
      action everyone { reveal deck end turn }
      action mix { shuffle deck end turn }
    }
  }
}
"""


@pytest.fixture(scope="module")
def peek():
    return build(PEEK)


def known(m, player, zone="deck", owner=None):
    for z in m.view(player)["zones"]:
        if z["name"] == zone and z["owner"] == owner:
            return z.get("known")
    raise AssertionError(zone)


def test_reveal_to_a_player_shows_the_card_to_that_player_only(peek):
    m = peek.new_match(3, seed=1)
    m.apply("peek")                                    # P1 shows the top card to P2
    assert known(m, 1) == [{"id": 2, "label": "r3"}]
    assert known(m, 0) is None and known(m, 2) is None
    assert all(z["cards"] is None for z in m.view(1)["zones"] if z["name"] == "deck")
    assert m.state()["known"] == {"2": {"zone": ["deck", None], "to": [1]}}


def test_a_message_to_some_players_is_read_by_them_only(peek):
    m = peek.new_match(3, seed=1)
    m.apply("peek")
    assert m.messages_for(0) == ["peeked", "for all"]
    assert m.messages_for(1) == ["peeked", "for all"]
    assert m.messages_for(2) == ["for all"]
    assert m.state()["messages"] == [{"to": [0, 1], "text": "peeked"}, "for all"]
    r = rulelang.Match.from_state(peek, json.loads(json.dumps(m.state())))
    assert r.messages_for(2) == ["for all"] and known(r, 1) == [{"id": 2, "label": "r3"}]


def test_a_revealed_card_is_forgotten_once_it_moves_to_another_zone(peek):
    m = peek.new_match(3, seed=1)
    play(m, "peek", "aside")
    for p in range(3):
        assert known(m, p) is None and known(m, p, "aside") is None


def test_reveal_to_everyone_and_private_reveals_add_up(peek):
    m = peek.new_match(3, seed=1)
    m.apply("show")
    assert [known(m, p) for p in range(3)] == [[{"id": 2, "label": "r3", "revealed": True}]] * 3      # (to everyone: marked so)
    m = peek.new_match(3, seed=1)
    play(m, "look", "look")                            # P1 then P2 look at the same card
    assert [known(m, p) is not None for p in range(3)] == [True, True, False]


def test_a_private_reveal_does_not_hide_a_card_revealed_to_everyone(peek):
    m = peek.new_match(3, seed=1)
    play(m, "show", "look")                            # everyone saw it; then P2 looks at it
    assert [known(m, p) is not None for p in range(3)] == [True, True, True]
    assert m.state()["known"] == {"2": {"zone": ["deck", None], "to": "all"}}


def test_a_revealed_card_that_left_and_came_back_stays_forgotten(peek):
    m = peek.new_match(3, seed=1)
    play(m, "peek", "aside", "back")                   # r3 goes aside and back on top of the deck
    assert zones(m)["deck"] == [0, 1, 2]
    assert [known(m, p) for p in range(3)] == [None, None, None] and "known" not in m.state()


def test_a_shuffle_ends_what_was_revealed_of_a_pile(peek):
    m = peek.new_match(3, seed=1)
    m.apply("everyone")
    assert [x["id"] for x in known(m, 0)] == [0, 1, 2]
    m.apply("mix")
    assert zones(m)["deck"] != [0, 1, 2]
    assert [known(m, p) for p in range(3)] == [None, None, None] and "known" not in m.state()


def test_a_shuffle_forgets_a_revealed_card_for_good(peek):
    m = peek.new_match(3, seed=1)
    play(m, "look", "mix")                              # P1 saw the top card; then the deck is shuffled
    assert [known(m, p) for p in range(3)] == [None, None, None] and "known" not in m.state()
    m.apply("idle")
    assert known(m, 0) is None


def test_reveal_a_hidden_hand_to_me(peek):
    m = peek.new_match(3, seed=1)
    play(m, "draw", "spy")                              # P2 looks at P3's hand, which is empty
    assert [known(m, p, "hand", 2) for p in range(3)] == [None, None, None]
    play(m, "draw", "idle", "spy")                      # P3 draws r2; P2 looks at P3's hand again
    assert known(m, 1, "hand", 2) == [{"id": 1, "label": "r2"}]
    assert known(m, 0, "hand", 2) is None and known(m, 2, "hand", 2) is None    # P3 sees its own hand
    assert [z["cards"] for z in m.view(2)["zones"] if z["name"] == "hand" and z["owner"] == 2] == [
        [{"id": 1, "label": "r2"}]]
    assert m.messages_for(0) == [] and m.messages_for(1) == ["spied", "spied"] and m.messages_for(2) == []


# ---- include ---------------------------------------------------------------------------------------
MAIN = """
game "Included" {
  players 2
  include "INCLUDED"
  turn limit 2 { finish draw }
  turn { step main { action go { bonus() end turn } } }
}
"""
PART = """
var total: int = 0
proc bonus() { total += 2 }
"""


def write_main(folder, included: str):
    path = folder / "main.rules"
    path.write_text(MAIN.replace("INCLUDED", included), encoding="utf-8")
    return path


def test_include_reads_a_file_relative_to_the_rule_file(tmp_path, monkeypatch):
    game_dir = tmp_path / "game"
    (game_dir / "parts").mkdir(parents=True)
    (game_dir / "parts" / "bonus.rules").write_text(PART, encoding="utf-8")
    path = write_main(game_dir, "parts/bonus.rules")
    monkeypatch.chdir(tmp_path)                        # not the rule file's folder
    m = rulelang.load(str(path)).new_match(2)
    m.apply("go")
    assert var(m, "total") == 2
    assert rulelang.Game(rulelang.compile_file(str(path))).fingerprint == rulelang.load(str(path)).fingerprint


def e007(path):
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_file(str(path))
    assert [d.code for d in err.value.diagnostics] == ["E007"]
    return str(err.value)


def test_include_outside_the_rule_files_folder_is_e007(tmp_path):
    (tmp_path / "x.rules").write_text(PART, encoding="utf-8")
    game_dir = tmp_path / "game"
    game_dir.mkdir()
    (game_dir / "bonus.rules").write_text(PART, encoding="utf-8")
    assert "stay in its folder" in e007(write_main(game_dir, "../x.rules"))
    assert "stay in its folder" in e007(write_main(game_dir, str(game_dir / "bonus.rules")))
    assert "stay in its folder" in e007(write_main(game_dir, str(tmp_path / "x.rules")))


def test_include_of_a_file_that_is_not_rules_is_e007(tmp_path):
    (tmp_path / "bonus.txt").write_text(PART, encoding="utf-8")
    assert "only `.rules` files" in e007(write_main(tmp_path, "bonus.txt"))
    assert "no such file" in e007(write_main(tmp_path, "missing.rules"))


def test_an_include_cycle_is_e007(tmp_path):
    (tmp_path / "a.rules").write_text('include "b.rules"\nvar total: int = 0\n', encoding="utf-8")
    (tmp_path / "b.rules").write_text('include "a.rules"\nproc bonus() { total += 2 }\n', encoding="utf-8")
    assert "includes itself" in e007(write_main(tmp_path, "a.rules"))
    (tmp_path / "self.rules").write_text('include "self.rules"\n', encoding="utf-8")
    assert "includes itself" in e007(write_main(tmp_path, "self.rules"))
    assert "includes itself" in e007(write_main(tmp_path, "main.rules"))


def test_a_diagnostic_in_an_included_file_names_that_file(tmp_path):
    (tmp_path / "bad.rules").write_text("var total: int = 0\nproc bonus() { totl += 2 }\n", encoding="utf-8")
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_file(str(write_main(tmp_path, "bad.rules")))
    d = err.value.diagnostics[0]
    assert d.code == "E101" and d.span.file.endswith("bad.rules") and d.span.line == 2


# ---- split ------------------------------------------------------------------------------------------
SPLIT = """
game "Words" {
  players 2
  var parts: list[text] = []
  var n: int = 0
  turn limit 4 { finish draw }
  setup { parts = split("a,b,,c", ",") n = count(split("abc", "")) }
  turn { step main { action go { choose w in split("red blue red", " ") { append w to parts } end turn } } }
}
"""


def test_split_gives_the_parts_between_separators():
    m = build(SPLIT).new_match(2)
    assert var(m, "parts") == ["a", "b", "", "c"]
    assert var(m, "n") == 3                            # an empty separator: the characters
    m.apply("go")
    assert texts(m) == ["red", "blue"]                 # equal parts are one option
    m.apply("blue")
    assert var(m, "parts") == ["a", "b", "", "c", "blue"]


# A game whose only interaction is messages to some players: it never pauses.
QUIET_NOTE = """
game "Quiet Note" {
  players 2
  turn limit 20 { finish draw }
  turn { step main { action note { log "noted" to me end turn } } }
}
"""


def test_private_messages_in_a_game_that_never_pauses():
    game = build(QUIET_NOTE)
    assert game.can_pause is False
    m = game.new_match(2, seed=1)
    play(m, "note", "note")
    assert m.messages_for(0) == ["noted"] and m.messages_for(1) == ["noted"]
    assert "pending" not in m.state() and "known" not in m.state()
    r = rulelang.Match.from_state(game, json.loads(json.dumps(m.state())))
    assert r.state() == m.state() and r.messages_for(0) == ["noted"]


# A game whose only interaction is knowledge: no choice ever pauses it, but `reveal` makes it keep
# interaction state (per match).
QUIET_PEEK = """
game "Quiet Peek" {
  players 2
  kind Card { rank: int  label "r" + text(rank) }
  zone deck: pile, hidden
  turn limit 20 { finish draw }
  setup { for r in [1, 2, 3] { create Card(rank: r) in deck } }
  turn {
    step main {
      action look { reveal top(deck) to me end turn }
      action note { log "noted" to me end turn }
    }
  }
}
"""


def test_a_game_that_reveals_keeps_interaction_state():
    game = build(QUIET_PEEK)
    assert game.can_pause is True
    m = game.new_match(2, seed=1)
    assert "known" not in m.state() and "pending" not in m.state()
    m.apply("look")
    assert m.pending is None and "pending" not in m.state()
    assert m.state()["known"] == {"2": {"zone": ["deck", None], "to": [0]}}
    assert known(m, 0) == [{"id": 2, "label": "r3"}] and known(m, 1) is None


def test_a_reveal_stays_in_its_match():
    game = build(QUIET_PEEK)
    a = game.new_match(2, seed=1)
    a.apply("look")
    assert known(a, 0) == [{"id": 2, "label": "r3"}]
    b = game.new_match(2, seed=1)
    assert "known" not in b.state() and known(b, 0) is None
    c = a.clone()
    c.apply("look")                                     # P2 looks in the clone only
    assert known(c, 1) is not None and known(a, 1) is None
    other = build(QUIET_PEEK).new_match(2, seed=1)      # another Game of the same rules
    assert "known" not in other.state()


def test_a_reveal_round_trips():
    game = build(QUIET_PEEK)
    m = game.new_match(2, seed=1)
    m.apply("look")
    r = rulelang.Match.from_state(game, json.loads(json.dumps(m.state())))
    assert r.state() == m.state() and known(r, 0) == [{"id": 2, "label": "r3"}]
    r.apply("look")
    m.apply("look")
    assert r.state() == m.state()


# ---- replace and modify from zones -------------------------------------------------------------------
PAWNSHOP = """
game "Pawnshop" {
  players 2
  kind Lot { value: int  owner: player = 0  label card }
  zone hand: set per player, public     # (either player acts on either hand: both are seen)
  zone table: set, public, play
  zone shelf: set, public
  zone box: pile, public
  var notes: list[text] = []
  turn limit 40 { finish draw }
  def price(l: Lot) = l.value
  proc scrap(l: Lot) { move l to box append "scrapped " + text(l) to notes }
  card Lot "Phoenix" { value: 2  owner: 0
    replace scrap(l) from anywhere where l == self { move self to hand[self.owner] append "phoenix returns" to notes }
  }
  card Lot "Lamp" { value: 3  owner: 1
    modify price(l) += 10 from shelf where l != self
  }
  card Lot "Rug" { value: 1  owner: 1
    replace scrap(l) where l == self { append "rug kept" to notes }
  }
  setup {
    create cards Lot where card == "Phoenix" in hand[0]
    create cards Lot where card != "Phoenix" in hand[1]
  }
  turn {
    step main {
      action lay(l in hand[0] + hand[1]) { move l to table end turn }
      action stock(l in hand[0] + hand[1] + table) { move l to shelf end turn }
      action toss(l in hand[0] + hand[1] + table + shelf) { scrap(l) end turn }
      action rate(l in hand[0] + hand[1] + table + shelf) { append text(l) + "=" + text(price(l)) to notes end turn }
    }
  }
}
"""


@pytest.fixture(scope="module")
def pawnshop():
    return build(PAWNSHOP)


def test_replace_from_anywhere_applies_wherever_the_card_lies(pawnshop):
    m = pawnshop.new_match(2, seed=1)
    assert zones(m)["hand"] == [[0], [1, 2]]
    m.apply("toss Phoenix")                             # in a hand: replaced all the same
    assert zones(m)["hand"][0] == [0] and zones(m)["box"] == [] and var(m, "notes") == ["phoenix returns"]
    play(m, "toss Rug")                                 # no `from`: only in play, so not in a hand
    assert zones(m)["box"] == [2] and var(m, "notes")[-1] == "scrapped Rug"
    play(m, "stock Phoenix", "rate Lamp", "toss Phoenix")      # on a shelf (not in play)
    assert zones(m)["shelf"] == [] and zones(m)["hand"][0] == [0] and var(m, "notes")[-1] == "phoenix returns"
    play(m, "rate Lamp", "lay Phoenix", "rate Lamp", "toss Phoenix")  # in play
    assert zones(m)["table"] == [] and zones(m)["hand"][0] == [0] and var(m, "notes")[-1] == "phoenix returns"
    assert zones(m)["box"] == [2]


def test_a_replacement_without_from_applies_in_play(pawnshop):
    m = pawnshop.new_match(2, seed=1)
    play(m, "rate Phoenix", "lay Rug", "toss Rug")
    assert zones(m)["table"] == [2] and zones(m)["box"] == [] and var(m, "notes")[-1] == "rug kept"


def test_modify_from_a_zone_applies_only_while_the_card_lies_there(pawnshop):
    m = pawnshop.new_match(2, seed=1)
    play(m, "rate Phoenix", "lay Lamp")                 # the Lamp in play: not where it applies
    play(m, "rate Phoenix")
    assert var(m, "notes") == ["Phoenix=2", "Phoenix=2"]
    play(m, "stock Lamp", "rate Phoenix", "rate Lamp", "rate Rug")   # on the shelf: +10 to the others
    assert var(m, "notes")[-3:] == ["Phoenix=12", "Lamp=3", "Rug=11"]
    play(m, "toss Lamp", "rate Phoenix")                # gone to the box
    assert zones(m)["box"] == [1] and var(m, "notes")[-1] == "Phoenix=2"


GIFT = """
game "Gift" {
  players 2
  kind Card { owner: player  label card }
  hook given()
  var got: list[player] = []
  card Card "Lamp" { owner: 1
    on given() { append me to got }
  }
  zone table: set, public
  setup { create cards Card in table }
  turn { step s {
    action give { for c in table { run given() of c  run given() of c by c.owner } finish draw }
    action bad { for c in table { run given() of c by none } finish draw }
  } }
}
"""


def test_a_hook_run_by_a_player_has_that_player_as_me():
    """`run H() of c by P`: the hook runs with `me` P (who plays the card), not the effect's player;
    a `by` that is no player is a rule error and changes nothing."""
    m = build(GIFT).new_match(2, seed=1)
    m.apply("give")
    assert var(m, "got") == [0, 1]
    m = build(GIFT).new_match(2, seed=1)
    with pytest.raises(rulelang.RuleRuntimeError, match="`run … by` needs a player, not none"):
        m.apply("bad")
    assert var(m, "got") == [] and m.legal_actions()


SHIELD = """
game "Shield" {
  players 2
  kind Card { label card }
  window attacked(t: player)
  card Card "Shield" { on attacked(t) from hand where t == me { log "blocked" } }
  zone hand: set per player, owner
  setup { create cards Card in hand[1] }
  turn { step s { action attack { open attacked(next(me))  end turn }  action stop { finish draw } } }
}
"""


def test_a_cards_response_in_a_window_names_its_card_for_the_table():
    """A browser trial: Dozen War's defence question offered Smoke and Wooden Shield with no way to
    read them (the window's options named no component, unlike a choice's). A card's response now
    names its card, as a choice of components does (`Match.option_components`)."""
    game = build(SHIELD)
    m = game.new_match(2, seed=1)
    m.apply("attack")
    assert m.question["chooser"] == 1 and m.question["options"] == ["Shield", "pass"]
    shield = m.state()["zones"]["hand"][1][0]
    assert m.option_components() == {"Shield": shield}


BORROWED = """
game "Borrowed Charm" {
  players 2
  kind Charm { owner: player  label card }
  zone table: set, public, play
  var controller: player = none per Charm, public     # control that changes hands
  var gold: int = 0 per player, public
  card Charm "Lucky" { on turn_end { gold[me] += 1 } }
  setup { create cards Charm(owner: 0) in table }
  turn limit 10 { finish draw }
  turn { step main {
    action borrow(c in table) require controller[c] != me { controller[c] = me  end turn }
    action wait { end turn }
  } }
}
"""


def test_a_per_component_controller_variable_decides_who_a_cards_trigger_acts_for():
    """A card's trigger acts for its controller: a `var controller` per KIND when set (control
    that changes hands: an action played from another player's deck), else its `controller` or
    `owner` field. Before, the variable was ordinary and the owner's field decided."""
    m = build(BORROWED).new_match(2, seed=1)
    play(m, "wait")                                       # P1's turn ends: Lucky is P1's (its owner)
    assert var(m, "gold") == [1, 0]
    play(m, "borrow Lucky")                               # P2 takes control: P2's turn end is P2's
    assert var(m, "gold") == [1, 1]
    play(m, "wait")                                       # and so is P1's next one
    assert var(m, "gold") == [1, 2]


def test_a_hand_sorted_onto_itself_keeps_what_was_revealed_of_it():
    """A new author's Hearts: the passer's cards, revealed to it, were forgotten when the hands were
    sorted (moved onto themselves, as language.md shows); "a move within its own zone ends nothing"."""
    game = build("""
game "Sorted" {
  players 2
  kind Card { rank: int  label text(rank) }
  zone hand: set per player, owner
  zone pile: pile, public
  setup {
    for r in [3, 1, 2] { create Card(rank: r) in hand[1] }
    reveal hand[1] to [0]
    move [c for c in hand[1] by c.rank] to hand[1]
  }
  turn { step s {
    action give { move first([c for c in hand[1] where c.rank == 3]) to pile  end turn }
    action done { finish draw }
  } }
}""")
    m = game.new_match(2, seed=1)

    def known(match):
        return [c["label"] for z in match.view(0)["zones"] if z["name"] == "hand" and z["owner"] == 1
                for c in z.get("known") or []]
    assert known(m) == ["1", "2", "3"]                   # (in the hand's order: sorted)
    m.apply("give")                                      # (to another zone: known there as public)
    assert known(m) == ["1", "2"]
