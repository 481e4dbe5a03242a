"""Dozen War: the digest's decisions on seats, tokens, health and reach (D2, D4, D5, D7, D16, D27,
D28), each checked on real matches; the reach against a path search of this file's own."""
from __future__ import annotations

import pytest

from dw_helpers import Position, game, idx, legal, name, play

G = game.geometry
MOUNTAINS = {"f6", "c9", "i9", "c3", "i3", "f8", "d6", "h6", "f4"}
SOUTH_CASTLES = {"d1", "f1", "h1"}


def fresh(players: int, seed: int = 3, **options):
    m = game.new_match(players, seed=seed, options={"generals": "random", **options})
    while m.question is not None:
        m.apply(m.legal_actions()[0])
    return m


def castles(m) -> dict:
    """{label: (owner, cell)} of every castle."""
    st = m.state()
    comps = st["components"]
    out = {}
    for k in st["zones"]["keep"]:
        f = comps[k]["fields"]
        out[comps[k]["label"]] = (st["vars"]["castle_owner"][k], chr(ord("a") + f["col"] - 1) + str(f["row"]))
    return out


def test_d2_seats_and_castles():
    two, three, four = castles(fresh(2)), castles(fresh(3)), castles(fresh(4))
    assert {k.split()[0] for k in two} == {"North", "South"}
    assert two["North infantry castle"][0] == 0 and two["South archer castle"][0] == 1
    assert {k.split()[0] for k in three} == {"North", "South", "East"}      # no West seat for 3
    want = {"North": [("infantry", "d11"), ("cavalry", "f11"), ("archer", "h11")],
            "South": [("infantry", "d1"), ("cavalry", "f1"), ("archer", "h1")],
            "West": [("infantry", "a8"), ("cavalry", "a6"), ("archer", "a4")],
            "East": [("infantry", "k8"), ("cavalry", "k6"), ("archer", "k4")]}
    assert {label: cell for label, (_, cell) in four.items()} == {
        f"{side} {cls} castle": cell for side, row in want.items() for cls, cell in row}


def test_d5_d16_each_castle_starts_with_its_general_and_a_soldier_of_its_class_at_full_health():
    m = fresh(2)
    st = m.state()
    comps, hp = st["components"], st["vars"]["hp"]
    for label, (_, cell) in castles(m).items():
        units = [comps[u]["fields"] for u in st["zones"]["here"][idx(cell)]]
        assert sorted(u["general"] for u in units) == [False, True], label
        assert next(u for u in units if not u["general"])["cls"] == label.split()[1]
    health = {}
    for units in st["zones"]["here"]:
        for u in units:
            f = comps[u]["fields"]
            health.setdefault("general" if f["general"] else f["cls"], set()).add(hp[u])
    assert health == {"general": {3}, "infantry": {2}, "cavalry": {1}, "archer": {1}}


@pytest.mark.parametrize("players, options, tokens, held", [
    (2, {}, 9, 0), (4, {}, 9, 0), (3, {}, 6, 3), (4, {"alliance": True}, 7, 2)])
def test_d4_d27_d28_tokens_lie_one_under_a_mountain_and_the_rest_start_in_hand(players, options, tokens, held):
    m = fresh(players, seed=1, **options)
    st = m.state()
    buried = {name(c): [st["components"][t]["label"] for t in ts] for c, ts in enumerate(st["zones"]["buried"]) if ts}
    carried = [sum(st["vars"]["pcs"][u] for u in st["vars"]["army"][p]) for p in range(players)]
    assert len(buried) == tokens and set(buried) <= MOUNTAINS and all(len(v) == 1 for v in buried.values())
    assert sum(carried) == held
    assert sum(v.count("Map piece") for v in buried.values()) + held == 5      # five map pieces in all
    if players == 3:
        assert carried == [1, 1, 1]
    if options:                                                             # one piece per team
        assert carried[0] + carried[2] == 1 and carried[1] + carried[3] == 1


def within(cell: str, steps: int) -> list[str]:
    """The cells `steps` moves from `cell` over free cells (no mountain, no enemy castle)."""
    barred = MOUNTAINS | SOUTH_CASTLES
    seen, frontier = {cell}, [cell]
    for _ in range(steps):
        frontier = [G.names[x] for c in frontier for x in G.neighbours_of(G.by_name[c])
                    if G.names[x] not in barred and G.names[x] not in seen and not seen.add(G.names[x])]
    return sorted(seen - {cell})


def destinations(m, frm: str, unit: str) -> list[str]:
    head = f"move {frm} {unit} "
    return sorted(a[len(head):] for a in legal(m) if a.startswith(head))


@pytest.mark.parametrize("unit, steps", [("infantry", 1), ("archer", 1), ("cavalry", 3)])
def test_d7_a_soldier_moves_as_far_as_its_class_allows(unit, steps):
    m = Position(2).soldier(0, unit, "e2").soldier(1, "infantry", "k11").turn(0).match()
    assert destinations(m, "e2", unit) == within("e2", steps)


@pytest.mark.parametrize("general, steps", [("Iron Warden", 1), ("Night Rider", 3), ("Sky Arrow", 1),
                                            ("Gold Maker", 1)])
def test_d7_a_general_moves_as_far_as_its_class_allows(general, steps):
    m = Position(2).general(0, general, "e2").soldier(1, "infantry", "k11").turn(0).match()
    assert destinations(m, "e2", general) == within("e2", steps)


@pytest.mark.parametrize("unit, targets", [("infantry", ["c3"]), ("cavalry", ["c3"]), ("archer", ["c3", "d2", "e2"])])
def test_d7_only_an_archer_reaches_past_the_cells_around_it(unit, targets):
    m = (Position(2).soldier(0, unit, "b2").soldier(1, "archer", "d2").soldier(1, "archer", "c3")
         .soldier(1, "archer", "e2").turn(0).match())
    assert sorted(a.split()[-2] for a in legal(m) if a.startswith(f"attack b2 {unit}")) == targets
    if unit == "archer":                     # three cells in a line, not four
        far = Position(2).soldier(0, "archer", "b2").soldier(1, "archer", "f2").turn(0).match()
        assert not any(a.startswith("attack b2 archer") for a in legal(far))


def test_two_soldiers_alike_but_for_a_turn_gone_by_are_one_choice():
    """A first hour at the terminal: two infantry in one cell, one of them moved some turns ago,
    were two choices of each move (`move d5 infantry e5` and `… (2)`): the turn marks of turns gone
    by told them apart. They are let go at each turn's start."""
    m = Position(2).soldier(0, "infantry", "d5", n=2).soldier(1, "infantry", "h5").turn(0).match()
    play(m, "move d5 infantry e5", "end turn", "end turn", "move e5 infantry d5", "end turn", "end turn")
    moves = [a for a in legal(m) if a.startswith("move d5 infantry")]
    assert "move d5 infantry e5" in moves and not any(a.endswith(")") for a in moves), moves


def test_a_boost_is_for_the_attack_action_not_a_generals_fist_skill():
    """Decided (games/dozen_war.md; an audit asked): a Sharp Sword on Iron Warden, then his Shield Bash
    (a fist skill: his attack, D24) does the 2 damage its text says; the +1 is then lost, as he may
    not attack after it."""
    from dw_helpers import hp, var
    pos = Position(2).general(0, "Iron Warden", "e5").general(1, "Gold Maker", "f5").hand(0, "Sharp Sword").turn(0)
    target = pos.unit_at("f5")
    m = pos.match()
    play(m, "equip Sharp Sword")                # (he is the one unit that may take it: not asked)
    assert var(m, "boost_n")[pos.unit_at("e5")] == 1
    play(m, "skill Shield Bash")
    while m.question is not None and "pass" in m.question["options"]:
        m.apply("pass")
    assert hp(m, target) == 1
    assert not any(a.startswith("attack e5") for a in legal(m))
