"""Issue 28, Dozen War in words: every component has rules text, the event and the draft say what
the dice did, every damage and heal gets a line, the map's glyphs say one thing each."""
from __future__ import annotations

from dw_helpers import Position, game, hp, play


def test_every_component_has_rules_text_with_its_effect_and_marks():
    m = game.new_match(2, seed=1)
    for c, label in enumerate(m.labels):
        assert m.rules_text(c, 0), f"{label} ({m.kinds[c]}) has no rules text"
    text = m.rules_text(m.labels.index("Shield Bash"), 0)
    assert text.startswith("2 damage to an enemy unit next to Iron Warden. [Skill 2 of Iron Warden: attack, 1 star, fist]")
    assert "[Equipment: defence, 2 stars]" in m.rules_text(m.labels.index("Iron Shield"), 0)
    assert m.rules_text(m.labels.index("Storm in the South"), 0) == (
        "An event. Each player rolls a die: on 1-3, 1 damage to each of your archers, generals too, in the "
        "South half (rows 1-5); on 4-6, nothing.")
    assert m.rules_text(m.labels.index("Sky Arrow"), 0).startswith(
        "Archer general. Skills: Camouflage, Piercing Shot, Rain of Arrows. A general of the archer class: 3 health")


def test_an_event_tells_each_roll_and_the_hp_it_costs():
    # Storm in the South on a roll of 1-3: Sky Arrow (an archer general at f3, the South half) loses 1
    p = (Position(2).general(1, "Sky Arrow", "f3").events_top("Storm in the South").rolls((6, 5), (6, 2)).turn(1))
    sky = p.unit_at("f3")
    m = p.match()
    play(m, "end turn")
    said = m.messages_for(0)
    assert ("Event 1 of 7: Storm in the South (1-3: 1 damage to each of your archers, generals too, in the South "
            "half (rows 1-5); 4-6: nothing)") in said
    assert "P1 rolls 5: nothing" in said
    assert "P2 rolls 2: 1 damage to each of your archers, generals too, in the South half (rows 1-5)" in said
    assert "P2's Sky Arrow at f3 loses 1 health (2 left)" in said and hp(m, sky) == 2


def test_a_heal_gets_a_line():
    p = Position(2).general(0, "Quicksilver", "e5", hp=1).turn(0)
    m = p.match()
    play(m, "skill Elixir")                                  # (its only choice: asked no question)
    assert "P1's Quicksilver at e5 heals to 3 health" in m.messages_for(1)


def test_the_draft_tells_the_die_rolls_for_the_third_pick():
    m = game.new_match(3, seed=4, options={"generals": "draft"})
    while m.question and not m.question["prompt"].startswith("Pick your third"):
        m.apply(str(m.legal_actions()[0]))
    rolls = [x for x in m.messages_for(1) if x.endswith("for the third pick (highest first, ties to the lower seat)")]
    assert [x.split(" ")[0] for x in rolls] == ["P1", "P2", "P3"]
    dice = {x.split(" ")[0]: int(x.split(" ")[2]) for x in rolls}
    first = max(range(3), key=lambda p: (dice[f"P{p + 1}"], -p))
    assert m.question["chooser"] == first


def test_soldiers_generals_castles_and_lying_pieces_read_differently():
    p = (Position(2).soldier(0, "archer", "e5").general(0, "Hawk Eye", "g5", pieces=1)
         .soldier(1, "cavalry", "c5", n=2))
    m = p.match()
    rows = {int(line[:3]): line.split() for line in m.view(0)["board"].splitlines()[1:]}
    assert rows[5][5] == "1a1"          # P1, 1 archer (before: "11A")
    assert rows[5][7] == "1A3*"         # P1's archer general, 3 health, carrying map pieces
    assert rows[5][3] == "2c2"          # P2, 2 cavalry
    assert "#1I2" in rows[11]           # an empty castle
    key = " ".join(m.game.ir["boards"][0]["legend"])                  # the board's declared key
    assert "1i2c1: P1's soldiers" in key and "m2: 2 map pieces lying there" in key and "#1I2: P1's infantry castle" in key
