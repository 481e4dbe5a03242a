"""Dozen War: digest rules (shared/rules/dozen_war.md) no other test checks directly — D12 (one soldier
on a mountain), D8 (the cavalry splash: the same cell first; none when the target stood on a mountain),
D19 (the same leader in map pieces is not asked to reorder again) and the content counts of D6, D13,
D22, D23 and D24.

Positions are built with dw_helpers (a real match's state edited, then `Match.from_state`). f8 is a
mountain, g8 is not; row 5 is clear of mountains."""
from __future__ import annotations

from collections import Counter

from dw_helpers import CLASSES, Position, game, hp, idx, legal, play, units_at, var, where


def moves(m, frm: str, unit: str) -> list[str]:
    pre = f"move {frm} {unit} "
    return sorted(a[len(pre):] for a in legal(m) if a.startswith(pre))


# ---- D12: one soldier on a mountain ------------------------------------------------------------------
def test_d12_only_one_soldier_may_stand_on_a_mountain():
    free = Position(2).soldier(0, "archer", "f9").turn(0).match()
    assert moves(free, "f9", "archer") == ["e10", "e8", "e9", "f10", "f8", "g9"]     # f8 free: it may climb
    taken = Position(2).soldier(0, "infantry", "f8").soldier(0, "archer", "f9").turn(0).match()
    assert moves(taken, "f9", "archer") == ["e10", "e8", "e9", "f10", "g9"]          # own infantry there: no
    taken = Position(2).soldier(0, "archer", "f8").soldier(0, "infantry", "f9").turn(0).match()
    assert "f8" not in moves(taken, "f9", "infantry")
    assert units_at(taken, "f8") == ["archer"]


# ---- D8: the cavalry splash ---------------------------------------------------------------------------
def test_d8_a_cavalry_kill_splashes_the_next_unit_in_the_same_cell_first():
    p = (Position(2).soldier(0, "cavalry", "e5").soldier(1, "archer", "f5", n=2).soldier(1, "archer", "g5")
         .turn(0))
    first, second = p.st["zones"]["here"][idx("f5")]
    behind = p.unit_at("g5")
    m = p.match()
    play(m, "attack e5 cavalry f5 archer")                   # P2's defence window ("pass") answered
    assert where(m, first) is None and where(m, second) is None     # the target and the one beside it
    assert units_at(m, "f5") == []
    assert units_at(m, "g5") == ["archer"] and hp(m, behind) == 1   # the next cell is spared
    assert m.current_player == 0 and m.question is None


def test_d8_no_splash_when_the_target_stood_on_a_mountain():
    p = Position(2).soldier(0, "cavalry", "e8").soldier(1, "archer", "f8").soldier(1, "archer", "g8").turn(0)
    target, behind = p.unit_at("f8"), p.unit_at("g8")
    m = p.match()
    play(m, "attack e8 cavalry f8 archer")
    assert where(m, target) is None                          # killed on the mountain
    assert where(m, behind) == "g8" and hp(m, behind) == 1   # next in the line (flat ground): untouched
    assert m.current_player == 0 and m.question is None


# ---- D19: the same leader is not asked again ------------------------------------------------------------
def test_d19_the_same_leader_with_nothing_changed_is_not_asked_to_reorder_again():
    m = (Position(3).general(2, "Gold Maker", "e5", pieces=2).general(0, "Iron Warden", "a1")
         .general(1, "Moon Bow", "k1").events_top("Gold Vein", "Gold Vein").turn(2).match())
    play(m, "end turn")                                      # P3 ends round 1: asked once
    assert m.question["chooser"] == 2
    assert m.question["prompt"] == "You hold the most map pieces: set the turn order, first to last"
    play(m, "P3", "P2")
    assert m.state()["rounds"]["order"] == [2, 1, 0] and var(m, "round") == 2
    for p in (2, 1, 0):                                      # round 2, in the new order
        assert m.state()["current"] == p and m.question is None
        play(m, "end turn")
    # round 2 is over: P3 still holds strictly the most (2 pieces), nothing changed — no question
    assert var(m, "round") == 3 and m.question is None
    assert m.state()["rounds"]["order"] == [2, 1, 0] and m.state()["current"] == 2
    assert var(m, "orderer") == 2


# ---- content: D6, D13, D22, D23, D24 ------------------------------------------------------------------
def _components():
    return game.new_match(2, seed=1, options={"generals": "random"}).state()["components"]


def test_d22_sixty_equipment_cards_thirteen_distinct_each_marked_with_1_to_3_stars():
    gear = [c for c in _components() if c["kind"] == "EquipmentCard"]
    assert len(gear) == 60
    assert len({c["label"] for c in gear}) == 13
    assert {c["fields"]["mode"] for c in gear} == {"attack", "defense", "both"}
    assert {c["fields"]["stars"] for c in gear} == {1, 2, 3}


def test_d23_forty_event_cards_twenty_distinct_each_with_two_outcomes():
    events = [c for c in _components() if c["kind"] == "Event"]
    assert len(events) == 40
    assert len({c["label"] for c in events}) == 20
    assert all(c["fields"]["low"] and c["fields"]["high"] for c in events)


def test_d6_d24_twelve_generals_three_per_class_with_thirty_six_skills():
    comps = _components()
    generals = [c for c in comps if c["kind"] == "Unit" and c["fields"]["general"]]
    assert len(generals) == 12 and len({c["label"] for c in generals}) == 12
    assert Counter(c["fields"]["cls"] for c in generals) == {k: 3 for k in CLASSES}
    skills = [c for c in comps if c["kind"] == "Skill"]
    assert len(skills) == 36 and len({c["label"] for c in skills}) == 36
    assert Counter(c["fields"]["of"] for c in skills) == {c["label"]: 3 for c in generals}
    assert Counter(c["fields"]["slot"] for c in skills) == {1: 12, 2: 12, 3: 12}
    assert {c["fields"]["mode"] for c in skills} <= {"attack", "defense", "both"}
    assert {c["fields"]["stars"] for c in skills} <= {1, 2, 3}


def test_d13_tokens_five_map_pieces_three_treasures_one_curse():
    tokens = [c for c in _components() if c["kind"] == "Token"]
    assert len(tokens) == 9
    assert Counter(c["label"] for c in tokens if c["fields"]["piece"]) == {"Map piece": 5}
    kinds = Counter(c["fields"]["does"].split(":")[0] for c in tokens if not c["fields"]["piece"])
    assert kinds == {"Treasure": 3, "Curse": 1}
    assert sorted(c["label"] for c in tokens if not c["fields"]["piece"]) == [
        "Cursed Idol", "Dragon Gold", "Old Armoury", "Spring of Life"]
