"""The twelve minimum scenarios of the Dozen War digest (shared/rules/dozen_war.md), each from an exact
position (dw_helpers.Position) with exact results. Cells: column letter + row, row 1 at the bottom."""
from __future__ import annotations

from dw_helpers import Position, game, hp, idx, legal, play, units_at, var, where, winners


def moves(m, frm: str, unit: str) -> list[str]:
    pre = f"move {frm} {unit} "
    return sorted(a[len(pre):] for a in legal(m) if a.startswith(pre))


# ---- 1. capacity -----------------------------------------------------------------------------------
def test_1_a_sixth_soldier_or_a_second_general_cannot_enter():
    m = (Position(2).soldier(0, "infantry", "e5", n=5).soldier(0, "infantry", "e4")
         .general(0, "Shield Mother", "e5").general(0, "Iron Warden", "f5").turn(0).match())
    assert "e5" not in moves(m, "e4", "infantry")            # 5 soldiers there already
    assert "e5" not in moves(m, "f5", "Iron Warden")         # a general there already
    assert "f4" in moves(m, "e4", "infantry")


def test_1_no_unit_passes_through_a_full_cell_or_an_enemy_cell():
    # a1 touches only b1 and a2: b1 full of P1's soldiers, P2 on a2: the cavalry cannot move at all
    base = Position(2).soldier(0, "cavalry", "a1").soldier(0, "infantry", "b1", n=5).turn(0)
    m = base.match()
    assert "c1" in moves(m, "a1", "cavalry")                 # a1-a2-b2-c1, around the full cell
    assert "b1" not in moves(m, "a1", "cavalry")
    m = (Position(2).soldier(0, "cavalry", "a1").soldier(0, "infantry", "b1", n=5)
         .soldier(1, "infantry", "a2").turn(0).match())
    assert moves(m, "a1", "cavalry") == []


# ---- 2. cavalry paths and mountains ----------------------------------------------------------------
def test_2_cavalry_goes_around_a_mountain_never_through_it():
    # f8 is a mountain: g8 is 2 cells from e8 in a line through it, 3 around it; h8 would need 4
    m = Position(2).soldier(0, "cavalry", "e8").soldier(0, "infantry", "e7").turn(0).match()
    reach = moves(m, "e8", "cavalry")
    assert "g8" in reach and "h8" not in reach and "f8" not in reach


def test_2_generals_and_cavalry_never_stand_on_a_mountain_an_archer_there_shoots_4():
    m = (Position(2).soldier(0, "cavalry", "e8").general(0, "Iron Warden", "g8")
         .soldier(0, "archer", "f9").soldier(0, "infantry", "g7").turn(0).match())
    assert "f8" not in moves(m, "e8", "cavalry")
    assert "f8" not in moves(m, "g8", "Iron Warden")
    assert "f8" in moves(m, "f9", "archer")                  # a soldier may climb (not the volcano)
    assert "f6" not in moves(m, "g7", "infantry")            # the volcano: never
    m = Position(2).soldier(0, "archer", "f8").soldier(1, "infantry", "j8").soldier(0, "archer", "e7") \
        .soldier(1, "infantry", "i7").turn(0).match()
    assert "attack f8 archer j8 infantry" in legal(m)        # 4 cells east, from the mountain
    assert "attack e7 archer i7 infantry" not in legal(m)    # 4 cells on flat ground: out of range


# ---- 3. archers over units, not over mountains --------------------------------------------------------
def test_3_archer_shoots_over_an_enemy_soldier_not_over_a_mountain():
    m = (Position(2).soldier(0, "archer", "c5").soldier(1, "infantry", "d5").soldier(1, "archer", "f5")
         .soldier(0, "archer", "b6").soldier(1, "archer", "e6").turn(0).match())
    assert "attack c5 archer f5 archer" in legal(m)          # over the infantry at d5
    assert "attack b6 archer e6 archer" not in legal(m)      # d6 is a mountain
    play(m, "attack c5 archer f5 archer")
    assert units_at(m, "f5") == [] and units_at(m, "d5") == ["infantry"]


# ---- 4. cavalry splash --------------------------------------------------------------------------------
def test_4_a_kill_by_cavalry_hits_the_unit_behind_in_the_line():
    p = (Position(2).soldier(0, "cavalry", "e5").soldier(1, "archer", "f5").soldier(1, "infantry", "g5")
         .turn(0))
    behind = p.unit_at("g5")
    m = p.match()
    play(m, "attack e5 cavalry f5 archer")
    play(m, "pass")                                          # P2 does not block with the g5 infantry
    assert units_at(m, "f5") == []
    assert hp(m, behind) == 1                                # the same 1 damage, nothing protects it
    assert m.current_player == 0 and m.question is None


def test_4_no_splash_when_the_first_target_survives():
    p = (Position(2).soldier(0, "cavalry", "e5").soldier(1, "infantry", "f5").soldier(1, "archer", "g5")
         .turn(0))
    first = p.unit_at("f5")
    m = p.match()
    play(m, "attack e5 cavalry f5 infantry")
    assert hp(m, first) == 1
    assert units_at(m, "g5") == ["archer"]


# ---- 5. infantry takes the hit ------------------------------------------------------------------------
def test_5_infantry_takes_the_hit_for_an_archer_is_flipped_then_dies():
    p = (Position(2).soldier(0, "infantry", "e5").soldier(0, "cavalry", "e4").soldier(1, "archer", "f5")
         .soldier(1, "infantry", "g5").turn(0))
    archer, guard = p.unit_at("f5"), p.unit_at("g5")
    m = p.match()
    play(m, "attack e5 infantry f5 archer")
    assert m.question["chooser"] == 1
    play(m, "infantry at g5")                                # P2: the g5 infantry takes the hit
    assert hp(m, guard) == 1 and hp(m, archer) == 1           # flipped; the archer untouched
    play(m, "attack e4 cavalry f5 archer", "infantry at g5 (1 health left)")   # (flipped: said so)
    assert where(m, guard) is None and where(m, archer) == "f5"   # the blocker dies


# ---- 6. castles ---------------------------------------------------------------------------------------
def test_6_castle_with_soldiers_cannot_be_attacked_then_falls_in_two_hits():
    m = (Position(2).soldier(1, "archer", "d1").soldier(0, "archer", "c2").soldier(0, "infantry", "d2")
         .soldier(0, "cavalry", "e1").events_top("Gold Vein").turn(0).match())
    assert not any(a.startswith("siege") and a.endswith("d1") for a in legal(m))
    play(m, "attack c2 archer d1 archer")                    # empty it
    assert "siege d2 infantry d1" in legal(m)
    play(m, "siege d2 infantry d1")
    assert var(m, "razed") == [0, 0]
    play(m, "siege e1 cavalry d1")
    assert var(m, "razed") == [1, 0] and var(m, "coins") == [1, 0]
    scores = [v for v in m.view(0)["values"] if v["name"].startswith("Points")][0]["value"]
    assert scores == "P1 2 (0 skulls, 1 castle, 0 pieces); P2 0 (0 skulls, 0 castles, 0 pieces)"
    play(m, "end turn", "end turn")                          # round 2: income
    assert var(m, "round") == 2
    assert units_at(m, "d1") == []                           # the destroyed castle gives nothing
    assert units_at(m, "f1") == ["cavalry"] and units_at(m, "h1") == ["archer"]


# ---- 7. digging -----------------------------------------------------------------------------------------
def test_7_a_general_that_dug_cannot_move_or_attack():
    p = (Position(2).general(0, "Iron Warden", "e8").soldier(1, "infantry", "d8").bury("f8", "Map piece")
         .turn(0))
    g = p.unit_at("e8")
    m = p.match()
    assert "attack e8 Iron Warden d8 infantry" in legal(m)
    play(m, "dig Iron Warden f8")
    assert var(m, "pcs")[g] == 1
    assert [a for a in legal(m) if "Iron Warden" in a] == []


# ---- 8. income --------------------------------------------------------------------------------------------
def test_8_round_two_income_with_two_castles_round_one_nothing():
    fresh = Position(2).match()
    assert var(fresh, "coins") == [0, 0] and var(fresh, "round") == 1
    # a real match, drafted and set up, in its first round: no coin, no card, no new soldier
    real = game.new_match(2, 3, {"generals": "random"})
    while real.question:
        real.apply(real.legal_actions()[0])
    st = real.state()
    assert st["rounds"]["round"] == 1 and var(real, "coins") == [0, 0]
    assert [len(h) for h in st["zones"]["hand"]] == [0, 0]
    assert sorted(len(units_at(real, c)) for c in ("d1", "f1", "h1", "d11", "f11", "h11")) == [2] * 6
    m = (Position(2).castle("North archer castle", 0).events_top("Gold Vein").rolls((6, 1), (6, 1))
         .turn(1).match())
    assert [len(h) for h in m.state()["zones"]["hand"]] == [0, 0]
    play(m, "end turn")                                      # P2 was last: round 2 begins
    assert var(m, "round") == 2
    assert var(m, "coins") == [1, 1]
    assert [len(h) for h in m.state()["zones"]["hand"]] == [2, 3]
    assert units_at(m, "d11") == ["infantry"] and units_at(m, "f11") == ["cavalry"]
    assert units_at(m, "h11") == []


# ---- 9. the warp ---------------------------------------------------------------------------------------------
def test_9_warp_opens_at_round_four_and_a_warped_unit_moves_and_attacks():
    m = (Position(2).soldier(0, "infantry", "f5").soldier(0, "cavalry", "f11")
         .events_top("Gold Vein", "Gold Vein", "Armoury").rolls(*[(6, 1)] * 6).turn(1, rnd=2).match())
    play(m, "end turn")                                      # round 3
    assert var(m, "round") == 3 and var(m, "warp") is None
    assert "f6" not in moves(m, "f5", "infantry")            # still the volcano
    play(m, "end turn", "end turn")                          # round 4
    assert var(m, "round") == 4 and var(m, "warp") == idx("f6")
    play(m, "move f5 infantry f6")
    m2 = m
    play(m2, "warp f11 cavalry")
    assert sorted(units_at(m2, "f6")) == ["cavalry", "infantry"]
    assert any(a.startswith("move f6 cavalry") for a in legal(m2))


def test_9_warped_unit_attacks_at_once():
    m = (Position(2).soldier(0, "infantry", "f6").soldier(0, "cavalry", "f11").soldier(1, "archer", "g6")
         .var("warp", None, idx("f6")).var("mount", idx("f6"), False).turn(0, rnd=4).match())
    play(m, "warp f11 cavalry", "attack f6 cavalry g6 archer")
    assert units_at(m, "g6") == []


# ---- 10. the end -----------------------------------------------------------------------------------------------
def test_10_five_map_pieces_win_at_once():
    m = (Position(2).general(0, "Iron Warden", "e8", pieces=4).bury("f8", "Map piece").turn(0).match())
    play(m, "dig Iron Warden f8")
    assert m.is_over and winners(m) == [0]
    assert "5 map pieces" in m.outcome["reason"]


def test_10_after_the_seventh_event_score_with_ties_to_map_pieces():
    def after_events(shown: int, rnd: int):
        p = (Position(2).general(0, "Iron Warden", "e8").general(1, "Gold Maker", "e3", pieces=3)
             .soldier(0, "infantry", "d11").var("skulls", 0, 1).var("razed", 0, 1).turn(1, rnd=rnd))
        ev = p.st["zones"]["events"]
        p.st["zones"]["past"] = ev[-shown:]
        del ev[-shown:]
        return p.match()
    m = after_events(6, 7)                                   # the 6th event's round ends: the game goes on
    play(m, "end turn")
    assert m.question["prompt"].startswith("You hold the most map pieces: set the turn order")
    play(m, "P1")
    while m.question:                                        # (the 7th event's own questions)
        play(m, legal(m)[0])
    assert not m.is_over and var(m, "round") == 8 and len(m.state()["zones"]["past"]) == 7
    m = after_events(7, 8)
    play(m, "end turn")
    assert m.is_over
    assert m.outcome["scores"] == [3, 3]                     # 1 skull + 2 x 1 castle = 3 pieces
    assert winners(m) == [1]                                 # the tie goes to map pieces


# ---- 11. stars --------------------------------------------------------------------------------------------------
def test_11_a_two_star_defence_stops_a_two_star_attack_a_one_star_cannot_answer():
    p = (Position(2).general(0, "Hawk Eye", "e5").general(1, "Gold Maker", "h7").soldier(1, "infantry", "h5")
         .hand(1, "Wooden Shield").turn(0))
    target = p.unit_at("h5")
    m = p.match()
    play(m, "skill Aimed Shot")                              # 2 stars, 2 damage
    assert m.question["chooser"] == 1
    assert legal(m) == ["Golden Shield", "pass"]              # the 1-star Wooden Shield is not offered
    play(m, "Golden Shield")
    assert hp(m, target) == 2
    assert "the attack is stopped" in m.messages_for(0)


def test_11_a_one_star_defence_answers_a_plain_attack():
    p = (Position(2).soldier(0, "infantry", "g5").soldier(1, "infantry", "h5").hand(1, "Wooden Shield")
         .turn(0))
    target = p.unit_at("h5")
    m = p.match()
    play(m, "attack g5 infantry h5 infantry", "Wooden Shield")
    assert hp(m, target) == 2                                # 1 - 1 = no damage


# ---- 12. alliance ------------------------------------------------------------------------------------------------
def test_12_allies_never_share_a_cell_nor_enter_each_others_castles():
    m = (Position(4, options={"alliance": True}).soldier(0, "infantry", "b8").soldier(2, "infantry", "c8")
         .soldier(0, "cavalry", "b7").turn(0).match())
    assert "c8" not in moves(m, "b8", "infantry")            # P3 (ally) is there
    assert "a8" not in moves(m, "b8", "infantry")            # P3's West infantry castle
    assert not any(a.endswith(" a8") or a.endswith(" c8") for a in legal(m) if a.startswith("move b7"))
    assert not any(a.startswith("attack") for a in legal(m)) # never an ally
