"""Departures from the digest and the seed rulebook found by checking Dozen War rule by rule (issue 27),
each from an exact position (dw_helpers.Position). Cells: column letter + row, row 1 at the bottom;
f8 is a mountain between e8 and g8 (row 8), f6 the volcano / warp point."""
from __future__ import annotations

from dw_helpers import Position, hp, idx, legal, play, units_at, var, where, winners


def moves(m, frm: str, unit: str) -> list[str]:
    pre = f"move {frm} {unit} "
    return sorted(a[len(pre):] for a in legal(m) if a.startswith(pre))


def hand(m, p: int) -> list[str]:
    st = m.state()
    return sorted(st["components"][c]["label"] for c in st["zones"]["hand"][p])


def open_warp(p: Position) -> Position:
    return p.var("warp", None, idx("f6")).var("mount", idx("f6"), False)


# ---- 1. the warp respects a unit's state (D15, D20) -----------------------------------------------------
def test_a_unit_that_attacked_cannot_be_warped():
    m = (open_warp(Position(2).soldier(0, "infantry", "f6").soldier(0, "cavalry", "f11")
                   .soldier(1, "archer", "e10")).turn(0, rnd=4).match())
    assert "warp f11 cavalry" in legal(m)
    play(m, "attack f11 cavalry e10 archer")
    assert "warp f11 cavalry" not in legal(m)


def test_a_general_revived_this_turn_cannot_be_warped_nor_take_the_warp_token():
    p = (open_warp(Position(2).soldier(0, "infantry", "f5").general(0, "Iron Warden", None).coins(4, 0)
                   .bury("f6", "Map piece")).turn(0, rnd=4))
    warden = p.ids("Iron Warden", "Unit")[0]
    m = p.match()
    play(m, "move f5 infantry f6", "revive Iron Warden d11")
    assert not any(a.startswith("warp") for a in legal(m))
    assert var(m, "pcs")[warden] == 0 and where(m, warden) == "d11"


def test_a_soldier_that_moved_into_its_castle_may_warp_then_only_attack():
    m = (open_warp(Position(2).soldier(0, "infantry", "f5").soldier(0, "infantry", "f10")
                   .soldier(1, "archer", "g6")).turn(0, rnd=4).match())
    play(m, "move f5 infantry f6", "move f10 infantry f11", "warp f11 infantry (moved)")
    assert units_at(m, "f6") == ["infantry", "infantry"]
    assert moves(m, "f6", "infantry") == []                  # both infantry on f6 have moved
    assert "attack f6 infantry (moved) g6 archer" in legal(m)


# ---- 2. an ally's infantry takes a strike-back aimed at its ally (D29) -------------------------------------
def test_an_allys_infantry_takes_the_strike_back_for_its_ally():
    p = (Position(4, options={"alliance": True}).soldier(0, "cavalry", "g5").soldier(2, "infantry", "h5")
         .soldier(1, "archer", "f5").general(1, "Shield Mother", "e5").coins(0, 2, 0, 0).turn(0))
    cav, inf = p.unit_at("g5"), p.unit_at("h5")
    m = p.match()
    play(m, "attack g5 cavalry f5 archer", "Last Stand")
    assert m.question["chooser"] == 2 and m.question["prompt"] == "Let an infantry of yours take the blow struck back at your ally's P1 cavalry at g5?"
    play(m, "infantry at h5")
    assert hp(m, cav) == 1 and hp(m, inf) == 1


# ---- 3. only archers shoot over units (D8) ------------------------------------------------------------------
def test_lance_fire_flask_and_explosion_do_not_hit_over_a_unit():
    for general, skill in (("Storm Lancer", "Lance"), ("Fire Powder", "Fire Flask"), ("Fire Powder", "Explosion")):
        m = (Position(2).general(0, general, "e5").soldier(0, "infantry", "f5").soldier(1, "archer", "g5")
             .coins(2, 0).turn(0).match())
        assert f"skill {skill}" not in legal(m), skill       # g5 is behind P1's own infantry
    m = (Position(2).general(0, "Storm Lancer", "e5").soldier(1, "infantry", "f5").soldier(1, "archer", "g5")
         .turn(0).match())
    play(m, "skill Lance")                                   # only the first enemy: no question
    assert units_at(m, "f5") == ["infantry"] and hp(m, m.state()["zones"]["here"][idx("f5")][0]) == 1
    assert units_at(m, "g5") == ["archer"]


def test_an_archer_general_still_shoots_over_units():
    m = (Position(2).general(0, "Hawk Eye", "e5").soldier(0, "infantry", "f5").soldier(1, "infantry", "g5")
         .turn(0).match())
    play(m, "skill Aimed Shot")
    assert units_at(m, "g5") == []


# ---- 4. a stopped attack does nothing (D24) ---------------------------------------------------------------
def test_a_stopped_explosion_does_not_hurt_the_targets_cellmates():
    p = (Position(2).general(0, "Fire Powder", "e5").general(1, "Iron Warden", "g5")
         .soldier(1, "archer", "g5", n=2).hand(1, "Tower Shield").coins(2, 0).turn(0))
    warden = p.unit_at("g5", "Iron Warden")
    m = p.match()
    play(m, "skill Explosion", "P2 Iron Warden at g5", "Tower Shield")
    assert "the attack is stopped" in m.messages_for(0)
    assert hp(m, warden) == 3 and units_at(m, "g5") == ["Iron Warden", "archer", "archer"]


def test_a_defender_plays_no_more_defences_once_the_attack_is_stopped():
    p = (Position(2).soldier(0, "infantry", "g5").soldier(1, "infantry", "h5").general(1, "Gold Maker", "i5")
         .hand(1, "Iron Shield", "Wooden Shield").turn(0))
    m = p.match()
    play(m, "attack g5 infantry h5 infantry", "Iron Shield")
    assert m.question is None and m.current_player == 0      # asked again, `pass` was all it had
    assert hand(m, 1) == ["Wooden Shield"] and var(m, "def_skill_t")[1] == -1


# ---- 5. support skills are blocked by mountains (D14) -----------------------------------------------------
def test_support_skills_do_not_reach_through_a_mountain():
    m = Position(2).general(0, "Quicksilver", "e8").general(0, "Iron Warden", "g8", hp=1).turn(0).match()
    assert "skill Elixir" not in legal(m)
    m = Position(2).general(0, "Ash Hound", "e8").soldier(0, "cavalry", "g8").turn(0).match()
    assert "skill Hunt" not in legal(m)
    m = Position(2).general(0, "Moon Bow", "e8").soldier(0, "archer", "g8").turn(0).match()
    assert "skill Volley" not in legal(m)
    m = Position(2).general(0, "Storm Lancer", "e8").soldier(0, "cavalry", "h8").coins(2, 0).turn(0).match()
    play(m, "move h8 cavalry g8")
    assert "skill Thunder Charge" not in legal(m)
    # off the line, 2 away, nothing between: in reach
    m = Position(2).general(0, "Quicksilver", "e8").general(0, "Iron Warden", "f10", hp=1).turn(0).match()
    assert "skill Elixir" in legal(m)


# ---- 6. five map pieces win however they are reached (D26) -------------------------------------------------
def test_a_soldier_stepping_onto_lying_pieces_wins_with_five():
    m = (Position(2).general(0, "Iron Warden", "a5", pieces=4).soldier(0, "infantry", "d5")
         .var("ground", idx("e5"), 1).turn(0).match())
    play(m, "move d5 infantry e5")
    assert m.is_over and winners(m) == [0] and "5 map pieces" in m.outcome["reason"]


def test_a_soldier_raised_onto_lying_pieces_wins_with_five():
    m = (Position(2).general(0, "Iron Warden", "a5", pieces=4).var("ground", idx("d11"), 1)
         .hand(0, "War Banner").turn(0).match())
    play(m, "equip War Banner", "infantry castle")
    assert m.is_over and winners(m) == [0]


# ---- 7. the alliance card exchange is an exchange (D29) -----------------------------------------------------
def exchange_position() -> Position:
    p = Position(4, options={"alliance": True})
    for k in [c["label"] for c in p.comps if c["kind"] == "Castle"]:
        p.castle(k, 0)                                       # no income cards: the hands are exactly these
    return (p.soldier(0, "infantry", "e5").soldier(1, "infantry", "e7").soldier(2, "infantry", "e9")
            .soldier(3, "infantry", "e3").hand(0, "Sharp Sword").hand(2, "Iron Shield")
            .events_top("Gold Vein").rolls(*[(6, 1)] * 4).turn(3))


def test_allies_exchange_one_card_each():
    m = exchange_position().match()
    play(m, "end turn")                                      # round 2: income, then the exchange
    assert m.question["chooser"] == 0 and legal(m) == ["Sharp Sword", "pass"]
    play(m, "Sharp Sword")
    assert m.question["chooser"] == 2 and legal(m) == ["Iron Shield", "pass"]
    play(m, "Iron Shield")
    assert hand(m, 0) == ["Iron Shield"] and hand(m, 2) == ["Sharp Sword"]


def test_no_gift_when_the_ally_gives_nothing_back():
    m = exchange_position().match()
    play(m, "end turn", "Sharp Sword", "pass")
    assert hand(m, 0) == ["Sharp Sword"] and hand(m, 2) == ["Iron Shield"]
    assert m.current_player == 0 and m.question is None


def test_the_second_ally_may_offer_at_the_start_of_its_own_turn():
    """D29, "at the start of a turn allies may swap": an audit found one offer a round, by P1 or P2
    only; P3 and P4 could never start one."""
    m = exchange_position().match()
    play(m, "end turn", "pass")                              # P1 offers nothing at the start of its turn
    play(m, "end turn")                                      # P2's turn: P2's ally P4 holds nothing
    assert m.question is None and m.current_player == 1
    play(m, "end turn")                                      # P3's turn starts: P3 may offer its card
    assert m.question["chooser"] == 2 and legal(m) == ["Iron Shield", "pass"]
    play(m, "Iron Shield", "Sharp Sword")
    assert hand(m, 0) == ["Iron Shield"] and hand(m, 2) == ["Sharp Sword"]


def test_the_leader_in_map_pieces_reorders_the_turns_in_the_alliance_too():
    """D19 makes no exception for the alliance (an audit: the alliance never reordered)."""
    p = exchange_position()
    m = p.general(0, "Gold Maker", "c5", pieces=2).match()
    play(m, "end turn")                                      # P4 ends round 1: P1 leads in pieces
    assert m.question["chooser"] == 0 and m.question["prompt"].startswith("You hold the most map pieces")


# ---- 8. dig and hand-over do not exclude each other (D13, D20) ------------------------------------------------
def test_a_general_that_dug_may_hand_over_its_pieces():
    p = (Position(2).general(0, "Iron Warden", "e8").general(0, "Gold Maker", "d8").bury("f8", "Map piece")
         .turn(0))
    warden, maker = p.unit_at("e8"), p.unit_at("d8")
    m = p.match()
    play(m, "dig Iron Warden f8", "hand over Iron Warden Gold Maker")
    assert var(m, "pcs")[maker] == 1 and var(m, "pcs")[warden] == 0


def test_a_general_that_handed_over_may_dig():
    p = (Position(2).general(0, "Iron Warden", "e8", pieces=1).general(0, "Gold Maker", "d8")
         .bury("f8", "Map piece").turn(0))
    warden, maker = p.unit_at("e8"), p.unit_at("d8")
    m = p.match()
    play(m, "hand over Iron Warden Gold Maker", "dig Iron Warden f8")
    assert var(m, "pcs")[maker] == 1 and var(m, "pcs")[warden] == 1
    assert not any(a.startswith("attack e8") or a.startswith("move e8") for a in legal(m))


# ---- 9. a cavalry general passes a friendly general's cell (D9) ---------------------------------------------
def test_a_cavalry_general_passes_through_a_friendly_general_but_does_not_stop_there():
    # a1 touches only b1 and a2; P2 holds a2, P1's Iron Warden b1
    m = (Position(2).general(0, "Night Rider", "a1").general(0, "Iron Warden", "b1").soldier(1, "infantry", "a2")
         .turn(0).match())
    reach = moves(m, "a1", "Night Rider")
    assert "c1" in reach and "b2" in reach and "b1" not in reach


def test_a_cavalry_general_stops_in_a_cell_of_five_soldiers_but_does_not_pass_it():
    m = (Position(2).general(0, "Night Rider", "a1").soldier(0, "infantry", "b1", n=5)
         .soldier(1, "infantry", "a2").turn(0).match())
    assert moves(m, "a1", "Night Rider") == ["b1"]


# ---- 10. the open warp's token is taken only on its own cell (D4) ----------------------------------------------
def test_the_open_warps_token_is_not_dug_from_next_to_it():
    p = Position(2).general(0, "Iron Warden", "f5").bury("f6", "Map piece").turn(0, rnd=4)
    assert "dig Iron Warden f6" in legal(p.match())          # the volcano: dug like any mountain
    p = open_warp(p)
    warden = p.unit_at("f5")
    m = p.match()
    assert "dig Iron Warden f6" not in legal(m)
    play(m, "move f5 Iron Warden f6")
    assert var(m, "pcs")[warden] == 1


# ---- messages and readings ------------------------------------------------------------------------------------------
def test_an_infantry_general_blocking_is_named_as_the_general():
    p = (Position(2).soldier(0, "infantry", "g5").soldier(1, "archer", "f5").general(1, "Stone Breaker", "e5")
         .turn(0))
    breaker = p.unit_at("e5")
    m = p.match()
    play(m, "attack g5 infantry f5 archer", "Stone Breaker at e5")
    assert hp(m, breaker) == 2
    assert "P2's Stone Breaker at e5 takes the hit" in m.messages_for(0)


def test_an_infantry_general_does_not_guard_a_castle_an_infantry_soldier_does():
    # the South infantry castle d1 (P2), empty; P1 besieges it from d2
    p = Position(2).soldier(0, "infantry", "d2").general(1, "Iron Warden", "c2").turn(0)
    m = p.match()
    play(m, "siege d2 infantry d1")
    assert m.question is None and var(m, "chp")[p.ids("South infantry castle", "Castle")[0]] == 1
    p = Position(2).soldier(0, "infantry", "d2").soldier(1, "infantry", "c2").turn(0)
    m = p.match()
    play(m, "siege d2 infantry d1")
    assert m.question["chooser"] == 1 and legal(m) == ["infantry at c2", "pass"]
    # (two guards say where each stands: a trial read `infantry`, `infantry #2` with 3 at a7, 1 at b7)
    p = Position(2).soldier(0, "infantry", "d2").soldier(1, "infantry", "c2").soldier(1, "infantry", "c1").turn(0)
    m = p.match()
    play(m, "siege d2 infantry d1")
    assert sorted(legal(m)) == ["infantry at c1", "infantry at c2", "pass"], legal(m)
