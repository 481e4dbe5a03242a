"""Issue 28, Dozen War in words: every component has rules text, the event and the draft say what
the dice did, every damage and heal gets a line, the map's glyphs say one thing each."""
from __future__ import annotations

from dw_helpers import Position, game, hp, idx, legal, play, units_at, var


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
    sky = m.rules_text(m.labels.index("Sky Arrow"), 0)
    assert sky.startswith("Archer general. Skills: Camouflage, Piercing Shot, Rain of Arrows. Camouflage (defence, 1 star): ")
    assert " A general of the archer class: 3 health" in sky
    # each skill with what it does (the draft's tip named them only: a first hour in the browser)
    storm = m.rules_text(m.labels.index("Storm Lancer"), 0)
    assert "Thunder Charge (attack, 3 stars, 2 coins): Your cavalry soldiers within 2 cells of Storm Lancer" in storm
    # a fist skill says so in its general's text, as in its own (a first hour: `look Iron Warden` did not)
    iron = m.rules_text(m.labels.index("Iron Warden"), 0)
    assert "Shield Bash (attack, 1 star, fist): 2 damage" in iron and "Hold the Line (defence, 1 star): " in iron


def test_an_event_tells_each_roll_and_the_hp_it_costs():
    # Storm in the South on a roll of 1-3: Sky Arrow (an archer general at f3, the South half) loses 1
    p = (Position(2).general(1, "Sky Arrow", "f3").events_top("Storm in the South").rolls((6, 5), (6, 2)).turn(1))
    sky = p.unit_at("f3")
    m = p.match()
    play(m, "end turn")
    said = m.messages_for(0)
    assert ("Event 1 of 7: Storm in the South (1-3: 1 damage to each of your archers, generals too, in the South "
            "half (rows 1-5); 4-6: nothing)") in said
    assert "P1 rolls 5: for P1, nothing" in said
    assert "P2 rolls 2: for P2, 1 damage to each of your archers, generals too, in the South half (rows 1-5)" in said
    assert "P2's Sky Arrow at f3 loses 1 health (2 left)" in said and hp(m, sky) == 2


def test_an_event_says_whether_its_conditional_coin_was_gained():
    # Pilgrims on 4-6: +1 coin if you have a unit within 2 cells of f6: P1 has one at f5, P2 none;
    # both roll high. Before, neither line said who gained.
    p = (Position(2).soldier(0, "archer", "f5").soldier(1, "archer", "b5").events_top("Pilgrims")
         .rolls((6, 5), (6, 6)).turn(1))
    m = p.match()
    play(m, "end turn")
    said = m.messages_for(1)
    at = said.index("P1 rolls 5: for P1, +1 coin if you have a unit within 2 cells of f6")
    assert said[at + 1].startswith("P1 gains 1 coin (now ")
    at = said.index("P2 rolls 6: for P2, +1 coin if you have a unit within 2 cells of f6")
    assert not any(line.startswith("P2 gains") for line in said[at:])


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


def test_the_draft_and_the_muster_say_what_nobody_was_asked():
    """The last banned general and the last castle's general are taken without a question (a first
    hour read nothing of either and typed a placement into turn 1)."""
    m = game.new_match(2, seed=3, options={"generals": "draft"})
    asked = []
    while m.question:
        asked.append((m.question["chooser"], m.question["prompt"]))
        m.apply(str(m.legal_actions()[0]))
    thirds = [c for c, q in asked if q.startswith("Pick your third")]
    assert len(thirds) == 1                                  # one of two banned generals is chosen
    last = 1 - thirds[0]
    lines = m.messages_for(0)
    forced = [x for x in lines if "takes the last banned general" in x]
    assert len(forced) == 1 and forced[0].startswith(f"P{last + 1} takes the last banned general, ")
    general = forced[0].rsplit(", ", 1)[1]
    assert var(m, "player_of")[m.labels.index(general)] == last
    stands = [x for x in lines if "last general, stands in their" in x]
    assert [x.split("'s")[0].split(", ")[1] for x in stands] == ["P1", "P2"]
    assert sum(q.startswith("Which general stands") for _, q in asked) == 4      # two castles each asked


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


def test_one_star_one_map_piece_and_a_dug_piece_read_right():
    # `(1 stars)` read wrong: a Sharp Sword's attack carries 1 star
    p = (Position(2).soldier(0, "infantry", "e5").soldier(1, "infantry", "e6").hand(0, "Sharp Sword")
         .hand(1, "Wooden Shield").turn(0))
    m = p.match()
    play(m, "equip Sharp Sword")
    m.apply("attack e5 infantry (+1 to its next attack with 1 star) e6 infantry")
    assert m.question["prompt"].startswith("P1 infantry at e5 attacks P2 infantry at e6 (1 star), 2 damage: answer")
    assert "P1: infantry at e5 attacks P2's infantry at e6 (1 star)" in m.messages_for(1)
    # the killer's prompt and the hand-over of a single map piece
    p = (Position(2).general(0, "Iron Warden", "e5").general(0, "Gold Maker", "a1")
         .general(1, "Moon Bow", "f5", hp=1, pieces=1).turn(0))
    m = p.match()
    play(m, "attack e5 Iron Warden f5 Moon Bow")
    assert m.question["prompt"] == "Which of your generals takes the map piece?"
    m = Position(2).general(0, "Iron Warden", "e5", pieces=1).general(0, "Gold Maker", "f5").turn(0).match()
    play(m, "hand over Iron Warden Gold Maker")
    assert m.messages_for(1)[-1] == "P1's Iron Warden hands its map piece to Gold Maker"
    # a dug token: "a map piece", "the Dragon Gold"
    m = Position(2).general(0, "Iron Warden", "e8").bury("f8", "Map piece").turn(0).match()
    play(m, "dig Iron Warden f8")
    assert "P1's Iron Warden digs up a map piece" in m.messages_for(1)
    m = Position(2).general(0, "Iron Warden", "e8").bury("f8", "Dragon Gold").turn(0).match()
    play(m, "dig Iron Warden f8")
    assert "P1's Iron Warden digs up the Dragon Gold" in m.messages_for(1)


def test_a_castle_with_units_in_it_stays_on_the_map_and_the_key_says_so():
    p = (Position(2).general(0, "Hawk Eye", "h11", pieces=2).soldier(0, "infantry", "h11", n=2)
         .soldier(0, "cavalry", "f11", n=3).soldier(0, "archer", "d11").soldier(0, "infantry", "d11"))
    m = p.match()
    rows = {int(line[:3]): line.split() for line in m.view(0)["board"].splitlines()[1:]}
    # before: `1A3*2` and `1c3`, the castle gone from the map
    assert [rows[11][i] for i in (4, 6, 8)] == ["1#+2", "1#c3", "1#A*2"]      # d11, f11, h11
    m = Position(2).general(0, "Hawk Eye", "h11").match()
    rows = {int(line[:3]): line.split() for line in m.view(0)["board"].splitlines()[1:]}
    assert [rows[11][i] for i in (4, 6, 8)] == ["#1I2", "#1C2", "1#A"]
    key = m.game.ir["boards"][0]["legend"]
    assert any(x.startswith("1#A+2: P1's units inside P1's castle") for x in key)
    # the castle's class, gone from the map under its units, is in the Units list (a player trial)
    units = next(v["value"] for v in m.view(0)["values"] if str(v["name"]).startswith("Units"))
    assert any(line.startswith("h11 P1 [archer castle 2hp]: Hawk Eye") for line in units), units
    assert any(x.startswith("1#A+2: P1's units inside P1's castle: the archer general and 2 soldiers (the castle's "
                            "class and health: see Units)") for x in key)
    # the key no longer reads `*2` as the pieces carried
    assert any(x.startswith("1A3*2: the same general carrying map pieces (* in place of +; how many: see Units), "
                            "with 2 soldiers") for x in key)
    # which cells touch, checked against the board's own neighbours
    touch = next(x for x in key if x.startswith("Each cell touches six"))
    assert "b3 touches a4, b4, a2, b2" in touch and "b4 touches b5, c5, b3, c3" in touch
    g = m.game.geometry
    assert sorted(g.names[c] for c in g.neighbours_of(g.names.index("b3"))) == ["a2", "a3", "a4", "b2", "b4", "c3"]
    assert sorted(g.names[c] for c in g.neighbours_of(g.names.index("b4"))) == ["a4", "b3", "b5", "c3", "c4", "c5"]


def _skills_line(m, p):
    return next(v["value"] for v in m.view(p)["values"] if v["name"] == "Attack skills you cannot use now")


def test_attack_skills_not_offered_say_why():
    # Hawk Eye with nobody in sight: Aimed Shot is not offered, and the screen says why
    p = Position(2).general(0, "Hawk Eye", "e5").coins(1, 0).turn(0)
    m = p.match()
    assert "skill Aimed Shot" not in legal(m)
    line = _skills_line(m, 0)
    assert "Aimed Shot: nothing for it to act on now" in line and "Hawk Dive: it costs 2 coins" in line
    assert m.refusal("skill Aimed Shot") == "attack skills you cannot use now: " + line    # typed anyway
    assert _skills_line(m, 1) == "all: it is not your turn"
    # after one attack skill, none more this turn
    m = Position(2).general(0, "Quicksilver", "e5", hp=1).turn(0).match()
    play(m, "skill Elixir")
    assert _skills_line(m, 0) == "all: one attack skill a turn, and you used it"
    # a general that attacked this turn: its skills, once
    p = (Position(2).general(0, "Iron Warden", "e5").soldier(1, "infantry", "e6").soldier(1, "infantry", "a1")
         .coins(2, 0).turn(0))
    m = p.match()
    assert _skills_line(m, 0) == "none"
    play(m, "attack e5 Iron Warden e6 infantry")
    assert _skills_line(m, 0) == "Iron Warden attacked, dug, handed over map pieces or was revived this turn"


def test_income_says_the_coin_and_soldiers_that_came_not_those_promised():
    """A rules lawyer: with the 30-coin supply empty (D25) each player read "P1 gets 1 coin, and from
    3 castles 3 equipment cards and a soldier each" and no coin came; a castle holding 5 soldiers
    gives none (D10, "if there is room"), and the line said "a soldier each" all the same."""
    m = Position(2).coins(15, 15).soldier(0, "infantry", "d11", n=5).events_top("Gold Vein").rolls((6, 1), (6, 1)).turn(1).match()
    play(m, "end turn")
    said = m.messages_for(1)
    assert var(m, "coins") == [15, 15] and units_at(m, "d11") == ["infantry"] * 5
    assert ("P1 gets no coin (the supply is empty), and from 3 castles 3 equipment cards and 2 soldiers "
            "(1 castle is full)") in said
    assert "P2 gets no coin (the supply is empty), and from 3 castles 3 equipment cards and 3 soldiers" in said
    m = Position(2).events_top("Gold Vein").rolls((6, 1), (6, 1)).turn(1).match()
    play(m, "end turn")
    assert "P1 gets 1 coin, and from 3 castles 3 equipment cards and 3 soldiers" in m.messages_for(0)


def test_an_event_says_the_coin_soldier_or_payment_it_could_not_give():
    """Gold Vein on a 6 printed "+1 coin" with the supply empty and nothing said none came; Festival
    promises a soldier in each castle, a full one gets none; Bandits' "lose 1 coin" with no coin."""
    m = (Position(2).coins(15, 15).soldier(0, "infantry", "d11", n=5).events_top("Gold Vein")
         .rolls((6, 6), (6, 2)).turn(1).match())
    play(m, "end turn")
    said = m.messages_for(1)
    at = said.index("P1 rolls 6: for P1, +1 coin")
    assert said[at + 1] == "P1 gets no coin: the supply is empty" and var(m, "coins") == [15, 15]
    m = Position(2).soldier(0, "infantry", "d11", n=4).events_top("Festival").rolls((6, 6), (6, 2)).turn(1).match()
    play(m, "end turn")                                    # income fills d11 to 5: Festival has no room there
    said = m.messages_for(1)
    at = said.index("P1 rolls 6: for P1, a soldier of its type in each of your castles")
    assert said[at + 1] == "P1 gets no infantry soldier at d11: it holds 5 soldiers"
    assert units_at(m, "d11") == ["infantry"] * 5 and units_at(m, "f11") == ["cavalry"] * 2
    m = Position(2).coins(0, 0).var("bank", None, 0).events_top("Bandits").rolls((6, 1), (6, 5)).turn(1).match()
    play(m, "end turn")
    said = m.messages_for(1)
    at = said.index("P1 rolls 1: for P1, lose 1 coin")
    assert said[at + 1] == "P1 has no coin to pay"


def test_the_units_list_says_two_archers_and_two_infantry():
    # a first hour at the terminal: "2 archer" beside "2 infantry" and "1 cavalry"
    m = (Position(2).soldier(0, "archer", "d5", n=2).soldier(0, "infantry", "e5", n=2)
         .soldier(0, "archer", "f5").match())
    units = next(v["value"] for v in m.view(0)["values"] if str(v["name"]).startswith("Units"))
    assert any(line.endswith(": 2 archers") for line in units), units
    assert any(line.endswith(": 2 infantry") for line in units) and any(line.endswith(": 1 archer") for line in units)


def test_soldiers_of_one_kind_on_one_cell_are_told_apart_in_the_actions():
    """A differential run: `move e4 infantry d4` moved a whole infantry and `move e4 infantry d4 (2)` a
    hurt one; `attack … f6 infantry` and `… (2)` hit one that dies and one that is only flipped. The
    text says what differs: hurt, a bonus waiting for its next attack, moved this turn."""
    m = (Position(2).soldier(0, "infantry", "e5").soldier(0, "infantry", "e5", hp=1)
         .soldier(1, "infantry", "f5").soldier(1, "infantry", "f5", hp=1).turn(0).match())
    texts = legal(m)
    assert not any(t.endswith(")") and t[-3:-1].isdigit() for t in texts), texts
    assert "move e5 infantry d5" in texts and "move e5 infantry (1 health left) d5" in texts
    for mine in ("infantry", "infantry (1 health left)"):
        for theirs in ("infantry", "infantry (1 health left)"):
            assert f"attack e5 {mine} f5 {theirs}" in texts, texts
    play(m, "move e5 infantry (1 health left) d5")
    assert units_at(m, "d5") == ["infantry"] and units_at(m, "e5") == ["infantry"]
    assert [hp(m, u) for u in m.state()["zones"]["here"][idx("d5")]] == [1]      # the hurt one moved
    assert not any(t.startswith("move e5 infantry (1 health left)") for t in legal(m))


def test_each_seat_is_told_its_edge_and_its_ally():
    """A browser trial: nothing said which edge a seat plays, nor (in the alliance) who its ally is."""
    def you(m, p):
        return [v["value"] for v in m.shown(p) if v["name"] == "You"]
    m = game.new_match(4, seed=2, options={"alliance": True})
    assert [you(m, p) for p in range(4)] == [[["P1, from the North edge, allied with P3"]],
                                             [["P2, from the South edge, allied with P4"]],
                                             [["P3, from the West edge, allied with P1"]],
                                             [["P4, from the East edge, allied with P2"]]]
    assert you(game.new_match(2, seed=2), 1) == [["P2, from the South edge"]]


def test_the_defence_question_says_the_damage_still_due():
    """A first hour at Dozen War: after a Wooden Shield (-1) the window asked again in the same words,
    and the player could not tell whether a second card was needed."""
    p = (Position(2).soldier(0, "infantry", "e5").soldier(1, "infantry", "e6").hand(0, "Sharp Sword")
         .hand(1, "Wooden Shield").turn(0))
    m = p.match()
    play(m, "equip Sharp Sword")
    m.apply("attack e5 infantry (+1 to its next attack with 1 star) e6 infantry")
    assert ", 2 damage: answer with a defence card" in m.question["prompt"]
    m.apply("Wooden Shield")
    assert ", 1 of its 2 damage left: answer with a defence card" in m.question["prompt"]
