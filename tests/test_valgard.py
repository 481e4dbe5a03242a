"""Valgarð (games/valgard.rules) against its rules digest (shared/rules/valgard.md).

Every scenario builds its exact position through the public API (`state()` edited, then
`Match.from_state`), plays the actions as texts and checks the exact result. Positions are
given as {cell: piece}: "L" a light Warrior, "LL" a light Valkyrie, "D" / "DD" the dark
ones; runes as {socket: "L" or "D"}.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import rulelang
from playouts import record_playout

RULES = Path(__file__).resolve().parent.parent / "games" / "valgard.rules"
GAME = rulelang.load(str(RULES))
GEO = GAME.geometry
LIGHT, DARK = 0, 1
COLS = "abcdefg"


def row(r: int) -> list[str]:
    return [f"{c}{r}" for c in COLS]


def build(board=None, *, dead=(), runes=None, reserve=None, current=LIGHT, turn=1, options=None,
          seed=0) -> rulelang.Match:
    """A match at step `act` in exactly the given position.

    `reserve` is (light, dark); None (the default) means every warrior of that player not on
    the board or in a socket.
    Warriors neither placed nor in reserve go to `fallen`.
    """
    m = GAME.new_match(players=2, seed=seed, options=options)
    data = m.state()
    owners = [c["fields"]["owner"] for c in data["components"]]
    free = [[c for c, o in enumerate(owners) if o == p] for p in (LIGHT, DARK)]

    def take(p: int) -> int:
        if not free[p]:
            raise ValueError(f"player {p} has only 12 warriors")
        return free[p].pop(0)

    stack = [[] for _ in range(GEO.size)]
    for name, piece in (board or {}).items():
        cell = GEO.by_name[name]
        assert GEO.kinds[cell] == "octagon" and piece in ("L", "LL", "D", "DD"), (name, piece)
        p = LIGHT if piece[0] == "L" else DARK
        stack[cell] = [take(p) for _ in piece]
    for name, who in (runes or {}).items():
        cell = GEO.by_name[name]
        assert GEO.kinds[cell] == "socket" and who in ("L", "D"), (name, who)
        stack[cell] = [take(LIGHT if who == "L" else DARK)]
    counts = [len(free[p]) if n is None else n for p, n in enumerate(reserve or (None, None))]
    reserves = [[take(p) for _ in range(counts[p])] for p in (LIGHT, DARK)]
    data["zones"] = {"stack": stack, "reserve": reserves, "fallen": free[LIGHT] + free[DARK]}
    data["vars"]["dead"] = [name in dead for name in GEO.names]
    data["step"] = "act"
    data["current"] = data["actor"] = current
    data["turn"] = turn
    return rulelang.Match.from_state(GAME, data)


def legal(m) -> list[str]:
    return sorted(str(a) for a in m.legal_actions())


def verb(m, word: str) -> list[str]:
    return [a for a in legal(m) if a.split()[0] == word]


def moves_from(m, cell: str) -> list[str]:
    return [a for a in legal(m) if a.split()[0] != "deploy" and a.split()[1] == cell]


def deploys(cells) -> list[str]:
    return [f"deploy {c}" for c in cells]


def pieces(m) -> dict:
    """{cell name: "L"/"LL"/"D"/"DD"} for octagons and runes on sockets."""
    data = m.state()
    owner = [c["fields"]["owner"] for c in data["components"]]
    out = {}
    for cell, ids in enumerate(data["zones"]["stack"]):
        if ids:
            out[GEO.names[cell]] = "".join("LD"[owner[c]] for c in ids)
    return out


def stack_ids(m, name: str) -> list[int]:
    return list(m.state()["zones"]["stack"][GEO.by_name[name]])


def dead_cells(m) -> set[str]:
    return {GEO.names[c] for c, d in enumerate(m.state()["vars"]["dead"]) if d}


def reserve(m) -> tuple[int, int]:
    r = m.state()["zones"]["reserve"]
    return len(r[LIGHT]), len(r[DARK])


def fallen(m) -> list[int]:
    return list(m.state()["zones"]["fallen"])


def owner_of(m, c: int) -> int:
    return m.state()["components"][c]["fields"]["owner"]


def target(action: str):
    return action.split()[-1]


def play_random(m, rng, limit=10_000) -> list[str]:
    texts = []
    while not m.is_over and len(texts) < limit:
        t = str(rng.choice(m.legal_actions()))
        m.apply(t)
        texts.append(t)
    return texts


def mustered(seed=0, options=None, order=("a1", "a7", "b1", "b7", "c1", "c7")) -> rulelang.Match:
    m = GAME.new_match(players=2, seed=seed, options=options)
    for t in order:
        m.apply(f"place {t}")
    return m


# ---------------------------------------------------------------------------
# The 7 digest scenarios
# ---------------------------------------------------------------------------

def test_s1_muster_three_each_on_the_home_row_then_light_plays():
    m = mustered(order=("d1", "d7", "a1", "g7", "g1", "a7"))
    assert pieces(m) == {"d1": "L", "a1": "L", "g1": "L", "d7": "D", "g7": "D", "a7": "D"}
    assert reserve(m) == (9, 9)
    assert m.current_player == LIGHT and m.state()["current"] == LIGHT
    assert m.state()["step"] == "act" and m.state()["turn"] == 1
    assert verb(m, "deploy") == deploys(["b1", "c1", "e1", "f1"])


@pytest.mark.parametrize("seed", range(6))
def test_s1_any_muster_ends_with_three_on_each_home_row(seed):
    rng = random.Random(seed)
    m = GAME.new_match(players=2, seed=seed)
    for _ in range(6):
        assert m.state()["step"] == "muster"
        m.apply(rng.choice(m.legal_actions()))
    on_board = pieces(m)
    assert sorted(v for v in on_board.values()) == ["D", "D", "D", "L", "L", "L"]
    assert all(int(c[1]) == (1 if v == "L" else 7) for c, v in on_board.items())
    assert reserve(m) == (9, 9) and m.current_player == LIGHT and m.state()["step"] == "act"


def test_s2_warrior_cannot_move_into_a_valkyrie():
    m = build({"c3": "L", "c4": "DD", "e3": "DD"}, reserve=(0, None))
    assert legal(m) == sorted(["march c3 b3", "march c3 d3", "march c3 c2",
                               "charge c3 a3", "charge c3 c1",           # c5: c4 occupied; e3: a Valkyrie
                               "rune c3 bc23", "rune c3 cd23"])          # bc34, cd34 touch c4
    before = m.state()
    for bad in ("march c3 c4", "charge c3 e3"):
        with pytest.raises(rulelang.IllegalAction):
            m.apply(bad)
        assert m.state() == before


@pytest.mark.parametrize("how, start, dest", [("march", "d3", "d4"), ("charge", "d2", "d4")])
def test_s2_valkyrie_captures_a_warrior(how, start, dest):
    m = build({start: "LL", dest: "D", "a7": "D"})
    attackers = stack_ids(m, start)
    victim = stack_ids(m, dest)
    assert f"{how} {start} {dest}" in legal(m)
    m.apply(f"{how} {start} {dest}")
    assert pieces(m) == {dest: "LL", "a7": "D"}
    assert stack_ids(m, dest) == attackers                 # the whole Valkyrie, in order
    assert reserve(m) == (10, 11)
    assert set(victim) <= set(m.state()["zones"]["reserve"][DARK])
    assert fallen(m) == [] and m.current_player == DARK


@pytest.mark.parametrize("how, start", [("march", "d3"), ("charge", "d2")])
def test_s2_valkyrie_onto_valkyrie_removes_both_defenders(how, start):
    m = build({start: "LL", "d4": "DD", "a7": "D"})
    victims = stack_ids(m, "d4")
    assert reserve(m) == (10, 9)
    m.apply(f"{how} {start} d4")
    assert pieces(m) == {"d4": "LL", "a7": "D"}
    assert reserve(m) == (10, 11)                          # both defenders back to the reserve
    assert set(victims) <= set(m.state()["zones"]["reserve"][DARK])
    assert fallen(m) == []


def test_s3_charge_blocked_by_occupied_or_dead_first_octagon():
    # west: c4 friendly; north: d5 enemy; east: e4 dead; south: d3 empty and living
    m = build({"d4": "L", "c4": "L", "d5": "D"}, dead=["e4"], reserve=(0, 10))
    assert moves_from(m, "d4") == sorted(["charge d4 d2", "march d4 d3", "march d4 d5", "rally d4 c4",
                                          "rune d4 de34"])    # de34 partly dead: still allowed (V17)
    for bad in ("charge d4 b4", "charge d4 d6", "charge d4 f4"):
        assert bad not in legal(m)
        with pytest.raises(rulelang.IllegalAction):
            m.apply(bad)


def test_s3_control_all_four_charges_when_clear():
    m = build({"d4": "L"}, reserve=(0, 12))
    assert verb(m, "charge") == ["charge d4 b4", "charge d4 d2", "charge d4 d6", "charge d4 f4"]


def test_s3_charge_second_octagon_dead_is_illegal():
    m = build({"d4": "L"}, dead=["d6", "b4"], reserve=(0, 12))
    assert verb(m, "charge") == ["charge d4 d2", "charge d4 f4"]


@pytest.mark.parametrize("blocker", ["D", "L"])
def test_s4_rune_with_c3_occupied_is_illegal(blocker):
    m = build({"b2": "L", "c3": blocker}, reserve=(0, 11))
    runes = [a for a in verb(m, "rune") if a.split()[1] == "b2"]
    assert runes == ["rune b2 ab12", "rune b2 ab23", "rune b2 bc12"]
    with pytest.raises(rulelang.IllegalAction):
        m.apply("rune b2 bc23")


def test_s4_rune_kills_four_octagons_and_nothing_enters_them():
    m = build({"b2": "L", "a3": "L", "d2": "L", "c4": "D", "d3": "D"})
    caster = stack_ids(m, "b2")
    assert "rune b2 bc23" in legal(m)
    assert reserve(m) == (9, 10)
    m.apply("rune b2 bc23")
    killed = {"b2", "c2", "b3", "c3"}
    assert dead_cells(m) == killed
    assert pieces(m) == {"bc23": "L", "a3": "L", "d2": "L", "c4": "D", "d3": "D"}
    assert stack_ids(m, "bc23") == caster
    assert reserve(m) == (9, 10)                           # the sacrifice does not go back
    assert m.current_player == DARK
    assert legal(m) == sorted(deploys(row(7)) + [
        "march c4 c5", "march c4 b4", "march c4 d4", "charge c4 c6", "charge c4 a4", "charge c4 e4",
        "rune c4 bc34", "rune c4 bc45", "rune c4 cd45",          # bc34 touches dead b3, c3 (V17)
        "march d3 d4", "march d3 e3", "march d3 d2", "charge d3 d5", "charge d3 f3", "rune d3 de34"])
    assert not {target(a) for a in legal(m)} & killed
    m.apply("march c4 c5")
    assert legal(m) == sorted(deploys(row(1)) + [
        "march a3 a4", "march a3 a2", "charge a3 a5", "charge a3 a1", "rune a3 ab23", "rune a3 ab34",
        "march d2 d1", "march d2 d3", "march d2 e2", "charge d2 f2", "rune d2 cd12", "rune d2 de12"])
    assert not {target(a) for a in legal(m)} & killed
    view = m.view(LIGHT)
    assert view["cells"]["bc23"] == {"stack": ["L"]}
    assert all(view["cells"][c] == {"dead": True} for c in killed)
    lines = view["board"].splitlines()
    assert lines[-3].split() == ["2", ".", "x", "x", "L", ".", ".", "."]
    assert lines[-4].split() == ["·", "◆", "·", "·", "·", "·"]
    assert lines[-5].split() == ["3", "L", "x", "x", "D", ".", ".", "."]


def test_s4_rune_on_the_home_row_stops_deploys_there():
    m = build({"b1": "L", "g7": "D"})
    m.apply("rune b1 bc12")
    assert dead_cells(m) == {"b1", "c1", "b2", "c2"}
    m.apply("march g7 g6")
    assert verb(m, "deploy") == deploys(["a1", "d1", "e1", "f1", "g1"])


def test_s5_dead_home_row_no_pieces_loses_with_a_full_reserve():
    m = build({"d5": "D"}, dead=row(1), current=DARK)
    assert reserve(m) == (12, 11)
    assert not m.is_over
    m.apply("march d5 d4")
    assert m.is_over and m.current_player is None
    assert m.outcome["results"] == ["lose", "win"]
    assert m.outcome["reason"] == ("P1 cannot move at the start of their turn: no piece of theirs is left on the "
                                   "board, and they cannot deploy (every octagon of their home row is dead or taken)")
    assert m.legal_actions() == []
    with pytest.raises(rulelang.IllegalAction):
        m.apply("deploy a1")


def test_s5_mirror_dark_home_row_dead_dark_loses():
    m = build({"d4": "L"}, dead=row(7), current=LIGHT)
    m.apply("march d4 d5")
    assert m.is_over and m.outcome["results"] == ["win", "lose"]


def test_s6_hardcore_captured_warriors_leave_the_game():
    m = build({"d3": "L", "d4": "D", "f3": "LL", "f4": "DD"}, options={"hardcore": True})
    assert reserve(m) == (9, 9)
    w = stack_ids(m, "d4")
    m.apply("march d3 d4")
    assert reserve(m) == (9, 9) and fallen(m) == w
    m.apply("deploy a7")
    vv = stack_ids(m, "f4")
    m.apply("march f3 f4")
    assert reserve(m) == (9, 8)                            # only dark's own deploy left its reserve
    assert fallen(m) == w + vv
    assert pieces(m) == {"d4": "L", "f4": "LL", "a7": "D"}


def test_s6_without_hardcore_they_come_back():
    m = build({"d3": "L", "d4": "D"})
    m.apply("march d3 d4")
    assert fallen(m) == [] and reserve(m) == (11, 12)


def test_s7_valkyrie_cannot_rally_third_warrior_cannot_join():
    m = build({"c3": "LL", "c2": "L", "c4": "L", "d4": "L", "c1": "L", "g7": "D"})
    assert verb(m, "rally") == ["rally c1 c2", "rally c2 c1", "rally c4 d4", "rally d4 c4"]
    assert not [a for a in legal(m) if a.split()[1] == "c3" and a.split()[0] == "rally"]
    for bad in ("rally c2 c3", "rally c4 c3", "rally c3 c4", "rally c3 c2", "march c2 c3", "deploy c1"):
        with pytest.raises(rulelang.IllegalAction):
            m.apply(bad)
    for a in legal(m):                                     # nothing ever makes a stack of 3
        twin = m.clone()
        twin.apply(a)
        assert max(len(s) for s in twin.state()["zones"]["stack"]) <= 2


def test_s7_valkyrie_cannot_rally_onto_a_valkyrie():
    m = build({"c3": "LL", "c4": "LL"}, reserve=(0, 12))
    assert verb(m, "rally") == []
    assert "march c3 c4" not in legal(m)


# ---------------------------------------------------------------------------
# Board (V1–V4)
# ---------------------------------------------------------------------------

def test_v2_v3_board_is_7x7_octagons_with_36_sockets():
    octs = [c for c in range(GEO.size) if GEO.kinds[c] == "octagon"]
    socks = [c for c in range(GEO.size) if GEO.kinds[c] == "socket"]
    assert len(octs) == 49 and len(socks) == 36
    assert {GEO.names[c] for c in octs} == {f"{c}{r}" for c in COLS for r in range(1, 8)}
    assert {GEO.names[s] for s in socks} == {f"{a}{b}{r}{r + 1}" for a, b in zip(COLS, COLS[1:])
                                             for r in range(1, 7)}


def test_v3_orthogonal_adjacency_and_corners():
    n = lambda name, kind=None: sorted(GEO.names[c] for c in GEO.neighbours_of(GEO.by_name[name], kind))
    assert n("d4") == ["c4", "d3", "d5", "e4"]
    assert n("a1") == ["a2", "b1"]
    assert n("a4") == ["a3", "a5", "b4"]
    assert n("d4", "socket") == ["cd34", "cd45", "de34", "de45"]
    assert n("a1", "socket") == ["ab12"]
    assert n("d1", "socket") == ["cd12", "de12"]
    for s in range(GEO.size):
        if GEO.kinds[s] == "socket":
            assert len(GEO.neighbours_of(s, "octagon")) == 4
    assert n("bc23", "octagon") == ["b2", "b3", "c2", "c3"]


def test_v3_march_is_orthogonal_only():
    m = build({"d4": "L"}, reserve=(0, 12))
    assert verb(m, "march") == ["march d4 c4", "march d4 d3", "march d4 d5", "march d4 e4"]


def test_v4_home_rows():
    m = GAME.new_match(players=2, seed=0)
    assert legal(m) == [f"place {c}" for c in row(1)]
    m.apply("place a1")
    assert legal(m) == [f"place {c}" for c in row(7)]
    m = build({"a4": "D"}, current=DARK)
    assert verb(m, "deploy") == deploys(row(7))


# ---------------------------------------------------------------------------
# Setup (V5–V7)
# ---------------------------------------------------------------------------

def test_v5_v6_twelve_warriors_each_all_in_reserve():
    m = GAME.new_match(players=2, seed=0)
    data = m.state()
    owners = [c["fields"]["owner"] for c in data["components"]]
    assert owners.count(LIGHT) == 12 and owners.count(DARK) == 12 and len(owners) == 24
    assert {c["kind"] for c in data["components"]} == {"Warrior"}
    assert reserve(m) == (12, 12) and pieces(m) == {} and fallen(m) == []
    assert all(owner_of(m, c) == p for p in (0, 1) for c in data["zones"]["reserve"][p])


def test_v7_muster_alternates_light_first_on_own_empty_home_row():
    m = GAME.new_match(players=2, seed=0)
    data = m.state()
    assert data["step"] == "muster" and data["turn"] == 0 and data["vars"]["musterer"] == LIGHT
    taken = {LIGHT: [], DARK: []}
    order = ["d1", "d7", "a1", "g7", "g1", "a7"]
    for i, cell in enumerate(order):
        p = i % 2
        assert m.current_player == p and m.state()["vars"]["musterer"] == p
        assert m.state()["step"] == "muster" and m.state()["turn"] == 0
        home = row(1) if p == LIGHT else row(7)
        assert legal(m) == sorted(f"place {c}" for c in home if c not in taken[p])
        other = order[i - 1] if i else "d7"
        with pytest.raises(rulelang.IllegalAction):
            m.apply(f"place {other}")
        with pytest.raises(rulelang.IllegalAction):
            m.apply(f"deploy {cell}")
        m.apply(f"place {cell}")
        taken[p].append(cell)
        assert reserve(m)[p] == 11 - i // 2
    assert m.state()["step"] == "act" and m.current_player == LIGHT and m.state()["turn"] == 1
    assert reserve(m) == (9, 9)
    assert "place b1" not in legal(m)


# ---------------------------------------------------------------------------
# Actions (V8–V12)
# ---------------------------------------------------------------------------

def test_v8_deploy_only_on_empty_living_home_octagons():
    m = build({"d1": "L", "e1": "D", "g7": "D"}, dead=["a1", "b1"])
    assert verb(m, "deploy") == deploys(["c1", "f1", "g1"])
    w = m.state()["zones"]["reserve"][LIGHT][-1]
    m.apply("deploy c1")
    assert stack_ids(m, "c1") == [w] and reserve(m) == (10, 10)


def test_v8_no_deploy_with_an_empty_reserve_or_a_full_home_row():
    m = build({"d4": "L"}, reserve=(0, 12))
    assert verb(m, "deploy") == []
    m = build({c: "L" for c in row(1)})
    assert verb(m, "deploy") == []


def test_v9_march_targets():
    m = build({"d4": "L", "d5": "D", "c4": "L", "e4": "DD"}, dead=["d3"], reserve=(0, 9))
    assert [a for a in moves_from(m, "d4") if a.startswith("march")] == ["march d4 d5"]
    m = build({"a1": "L"}, reserve=(0, 12))
    assert verb(m, "march") == ["march a1 a2", "march a1 b1"]
    m.apply("march a1 a2")
    assert pieces(m) == {"a2": "L"}


def test_v10_charge_may_end_in_a_capture():
    m = build({"d2": "L", "d4": "D"})
    victim = stack_ids(m, "d4")
    m.apply("charge d2 d4")
    assert pieces(m) == {"d4": "L"} and reserve(m) == (11, 12)
    assert set(victim) <= set(m.state()["zones"]["reserve"][DARK])


@pytest.mark.parametrize("at_d4, legal_charge", [("L", False), ("LL", False), ("D", True), ("DD", False)])
def test_v10_v17_charge_never_onto_a_friend_nor_a_warrior_into_a_valkyrie(at_d4, legal_charge):
    m = build({"d2": "L", "d4": at_d4})
    assert ("charge d2 d4" in legal(m)) is legal_charge


def test_v10_charge_stays_on_the_board():
    m = build({"a1": "L", "g6": "L"}, reserve=(0, 12))
    assert verb(m, "charge") == ["charge a1 a3", "charge a1 c1", "charge g6 e6", "charge g6 g4"]


def test_v11_rally_makes_a_valkyrie_that_moves_as_one():
    m = build({"c4": "L", "d4": "L", "d5": "D", "a7": "D"})
    bottom, top = stack_ids(m, "d4"), stack_ids(m, "c4")
    assert "rally d5 d4" not in legal(m)                   # not onto an enemy (that is a capture)
    m.apply("rally c4 d4")
    assert pieces(m) == {"d4": "LL", "d5": "D", "a7": "D"}
    assert stack_ids(m, "d4") == bottom + top
    m.apply("march a7 a6")
    acts = legal(m)
    assert "rune d4 de45" not in acts and not verb(m, "rune")   # a Valkyrie casts no rune
    assert not verb(m, "rally")
    m.apply("march d4 d5")                                 # Valkyrie takes the Warrior, as a whole
    assert pieces(m) == {"d5": "LL", "a6": "D"} and stack_ids(m, "d5") == bottom + top


def test_v11_no_rally_onto_a_dead_octagon():
    m = build({"c4": "L"}, dead=["d4"], reserve=(0, 12))
    assert verb(m, "rally") == []


def test_v12_only_single_warriors_cast_runes():
    m = build({"d4": "LL"}, reserve=(0, 12))
    assert verb(m, "rune") == []
    m = build({"d4": "L"}, reserve=(0, 12))
    assert verb(m, "rune") == ["rune d4 cd34", "rune d4 cd45", "rune d4 de34", "rune d4 de45"]


def test_v12_socket_must_be_empty():
    m = build({"d4": "L"}, runes={"cd34": "D"}, reserve=(0, 11))
    assert verb(m, "rune") == ["rune d4 cd45", "rune d4 de34", "rune d4 de45"]


def test_v12_any_piece_on_the_other_octagons_blocks():
    m = build({"d4": "L", "e5": "L", "c3": "D"}, reserve=(0, 11))
    assert [a for a in verb(m, "rune") if a.split()[1] == "d4"] == ["rune d4 cd45", "rune d4 de34"]


def test_v12_v17_rune_on_a_partly_dead_socket():
    m = build({"b2": "L"}, dead=["b3", "c3"], reserve=(0, 12))
    assert "rune b2 bc23" in legal(m)
    m.apply("rune b2 bc23")
    assert dead_cells(m) == {"b2", "c2", "b3", "c3"}


def test_v12_the_sacrificed_warrior_never_returns():
    m = build({"b2": "L", "e4": "L", "f4": "D", "f6": "D"})
    caster = stack_ids(m, "b2")
    m.apply("rune b2 bc23")
    rng = random.Random(5)
    play_random(m, rng)
    assert m.is_over
    assert stack_ids(m, "bc23") == caster
    assert caster[0] not in m.state()["zones"]["reserve"][LIGHT] + fallen(m)


def test_v12_dead_land_blocks_charges_passing_through():
    m = build({"a2": "L", "a4": "D"}, runes={"bc23": "D"}, dead=["b2", "c2", "b3", "c3"], reserve=(0, 10))
    assert "charge a2 c2" not in legal(m)
    m = build({"a3": "L"}, dead=["b3"], reserve=(0, 12))
    assert "charge a3 c3" not in legal(m)


# ---------------------------------------------------------------------------
# Clash (V13, V14)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("attacker, defender, allowed", [
    ("L", "D", True), ("L", "DD", False), ("LL", "D", True), ("LL", "DD", True)])
@pytest.mark.parametrize("hardcore", [False, True])
def test_v13_v14_clash_table(attacker, defender, allowed, hardcore):
    m = build({"d3": attacker, "d4": defender, "a7": "D"}, options={"hardcore": hardcore})
    assert ("march d3 d4" in legal(m)) is allowed
    assert ("charge d2 d4" in legal(m)) is False            # no piece on d2: a control
    if not allowed:
        with pytest.raises(rulelang.IllegalAction):
            m.apply("march d3 d4")
        return
    before = reserve(m)
    atk, dfn = stack_ids(m, "d3"), stack_ids(m, "d4")
    m.apply("march d3 d4")
    assert stack_ids(m, "d4") == atk and stack_ids(m, "d3") == []
    if hardcore:
        assert reserve(m) == before and fallen(m) == dfn
    else:
        assert reserve(m) == (before[0], before[1] + len(defender)) and fallen(m) == []
        assert m.state()["zones"]["reserve"][DARK][-len(dfn):] == dfn


def test_v14_hardcore_default_is_off():
    assert GAME.new_match(players=2, seed=0).state()["options"]["hardcore"] is False


# ---------------------------------------------------------------------------
# End (V15, V16)
# ---------------------------------------------------------------------------

def test_v15_annihilated_with_an_empty_reserve_loses():
    m = build({"d5": "D"}, reserve=(0, 11), current=DARK)
    m.apply("march d5 d4")
    assert m.is_over and m.outcome["results"] == ["lose", "win"]
    assert m.outcome["reason"] == ("P1 cannot move at the start of their turn: no piece of theirs is left on the "
                                   "board, and they cannot deploy (their reserve is empty)")


def test_v15_stalemate_by_runes_loses():
    # a light Valkyrie walled in by dead land: no march, charge, rally, rune; no reserve
    m = build({"d4": "LL", "g7": "D"}, dead=["d3", "d5", "c4", "e4"], reserve=(0, 11), current=DARK)
    m.apply("march g7 g6")
    assert m.is_over and m.outcome["results"] == ["lose", "win"]
    assert m.outcome["reason"] == ("P1 cannot move at the start of their turn: every piece of theirs is hemmed in, "
                                   "and they cannot deploy (their reserve is empty)")


def test_how_to_win_and_socket_names_are_said():
    from rulelang.play.repl import rulebook
    legend = " ".join(GAME.ir["boards"][0]["legend"])
    assert "bc12 is where b1, c1, b2 and c2 meet" in legend
    # …which is what the board says of that socket
    assert sorted(GEO.names[c] for c in GEO.neighbours_of(GEO.by_name["bc12"], "octagon")) == ["b1", "b2", "c1", "c2"]
    book = rulebook(GAME)
    assert "You win when your opponent cannot move at the start of their turn" in book
    assert "A socket is named by the two columns and the two rows it sits between" in book


def test_v15_a_rune_is_still_an_action():
    m = build({"d4": "L", "g7": "D"}, dead=["d3", "d5", "c4", "e4"], reserve=(0, 11), current=DARK)
    m.apply("march g7 g6")
    assert not m.is_over
    assert legal(m) == ["rune d4 cd34", "rune d4 cd45", "rune d4 de34", "rune d4 de45"]


def test_v16_draw_exactly_when_turn_5_would_begin():
    m = mustered(options={"turn_limit": 4})
    rng = random.Random(1)
    for turn in range(1, 5):
        assert not m.is_over and m.state()["turn"] == turn
        m.apply(rng.choice(m.legal_actions()))
    assert m.is_over and m.outcome["results"] == ["draw", "draw"]
    assert m.legal_actions() == []


def test_v16_muster_placements_do_not_count():
    m = GAME.new_match(players=2, seed=0, options={"turn_limit": 1})
    for t in ("a1", "a7", "b1", "b7", "c1"):
        m.apply(f"place {t}")
        assert not m.is_over
    m.apply("place c7")
    assert not m.is_over and m.state()["turn"] == 1
    m.apply("deploy d1")
    assert m.is_over and m.outcome["results"] == ["draw", "draw"]


def test_v16_the_last_turn_draws_even_when_the_next_player_would_be_stuck():
    # light takes dark's last piece on the board, dark's reserve is empty: on any other turn dark,
    # stuck, loses; on the last turn the limit comes first (V16's decision) and it is a draw
    for turn, results in ((300, ["draw", "draw"]), (299, ["win", "lose"])):
        m = build({"d4": "L", "d5": "D"}, reserve=(11, 0), turn=turn, options={"hardcore": True})
        m.apply("march d4 d5")
        assert m.outcome["results"] == results, (turn, m.outcome)


def test_v16_default_limit_is_300():
    m = GAME.new_match(players=2, seed=0)
    assert m.state()["options"]["turn_limit"] == 300
    m = build({"a1": "L", "g7": "D"}, turn=300)
    m.apply("march a1 a2")
    assert m.is_over and m.outcome["results"] == ["draw", "draw"]
    m = build({"a1": "L", "g7": "D"}, turn=299)
    m.apply("march a1 a2")
    assert not m.is_over and m.state()["turn"] == 300


# ---------------------------------------------------------------------------
# V17 clarifications (the ones not covered above)
# ---------------------------------------------------------------------------

def test_v17_valkyrie_moves_as_a_whole_and_never_splits():
    m = build({"d4": "LL"}, reserve=(0, 12))
    ids = stack_ids(m, "d4")
    assert sorted({a.split()[0] for a in legal(m)}) == ["charge", "march"]
    m.apply("charge d4 d6")
    assert pieces(m) == {"d6": "LL"} and stack_ids(m, "d6") == ids


# ---------------------------------------------------------------------------
# State, restore, determinism, whole games
# ---------------------------------------------------------------------------

def test_v15_restored_stuck_position_is_lost_not_live():
    m = build({"d5": "D"}, dead=row(1), current=LIGHT)         # scenario 5, light already to move
    assert m.is_over and m.outcome["results"] == ["lose", "win"]


def test_v5_restore_rejects_a_stack_over_capacity():
    data = build({"c3": "LL"}).state()
    data["zones"]["stack"][GEO.by_name["c3"]].append(data["zones"]["reserve"][LIGHT].pop())
    with pytest.raises(rulelang.StateError):
        rulelang.Match.from_state(GAME, data)


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    m = build({"c3": "L", "c4": "DD", "d4": "D"})
    before, acts = m.state(), legal(m)
    for bad in ("march c3 c4", "march c3 c5", "march d4 d3", "charge c3 c5", "rally c3 d3", "rune c3 cd34",
                "place a1", "deploy a7", "deploy c3", "rune c3 bc34", "", "hello", "march c3"):
        with pytest.raises(rulelang.IllegalAction):
            m.apply(bad)
        assert m.state() == before and legal(m) == acts


ORTHO = ((0, 1), (0, -1), (1, 0), (-1, 0))


def oracle(data) -> list[str]:
    """The digest's legal actions at step `act`, computed independently of the engine."""
    me = data["actor"]
    owner = [c["fields"]["owner"] for c in data["components"]]
    stack, dead = data["zones"]["stack"], data["vars"]["dead"]

    def at(c, r):
        return GEO.by_name.get(f"{COLS[c - 1]}{r}") if 1 <= c <= 7 and 1 <= r <= 7 else None

    def height(x):
        return len(stack[x])

    def side(x):
        return owner[stack[x][-1]] if stack[x] else None

    def enter(x, y):                                       # V9, V10, V13
        if dead[y]:
            return False
        if not stack[y]:
            return True
        return side(y) != me and not (height(x) == 1 and height(y) == 2)

    out = []
    home = 1 if me == LIGHT else 7
    if data["zones"]["reserve"][me]:
        out += [f"deploy {c}{home}" for c in COLS if not dead[at(COLS.index(c) + 1, home)]
                and not stack[at(COLS.index(c) + 1, home)]]
    for x in range(GEO.size):
        if GEO.kinds[x] != "octagon" or side(x) != me:
            continue
        name, c, r = GEO.names[x], GEO.cols[x], GEO.rows[x]
        for dc, dr in ORTHO:
            y = at(c + dc, r + dr)
            if y is None:
                continue
            if enter(x, y):
                out.append(f"march {name} {GEO.names[y]}")
            if height(x) == 1 and not dead[y] and side(y) == me and height(y) == 1:
                out.append(f"rally {name} {GEO.names[y]}")
            z = at(c + 2 * dc, r + 2 * dr)
            if z is not None and not dead[y] and not stack[y] and enter(x, z):
                out.append(f"charge {name} {GEO.names[z]}")
        if height(x) == 1:
            for sc in (c - 1, c):
                for sr in (r - 1, r):
                    if not (1 <= sc < 7 and 1 <= sr < 7):
                        continue
                    s = GEO.by_name[f"{COLS[sc - 1]}{COLS[sc]}{sr}{sr + 1}"]
                    around = [at(sc + i, sr + j) for i in (0, 1) for j in (0, 1)]
                    if not stack[s] and all(o == x or not stack[o] for o in around):
                        out.append(f"rune {name} {GEO.names[s]}")
    return sorted(out)


@pytest.mark.parametrize("seed", range(4))
def test_legal_actions_match_an_independent_oracle_over_random_games(seed):
    m = GAME.new_match(players=2, seed=seed, options={"hardcore": seed % 2 == 1})
    rng = random.Random(100 + seed)
    checked = 0
    while not m.is_over:
        data = m.state()
        if data["step"] == "act":
            assert legal(m) == oracle(data), data["log"]
            checked += 1
        before = (reserve(m), len(fallen(m)), sum(len(s) for s in data["zones"]["stack"]))
        t = rng.choice(legal(m))
        m.apply(t)
        after = (reserve(m), len(fallen(m)), sum(len(s) for s in m.state()["zones"]["stack"]))
        assert sum(before[0]) + before[1] + before[2] == sum(after[0]) + after[1] + after[2] == 24
    assert checked > 10


@pytest.mark.parametrize("seed", [3, 4])
def test_same_seed_same_actions_same_state(seed):
    texts, states = record_playout(GAME.new_match(players=2, seed=seed), random.Random(seed))
    m = GAME.new_match(players=2, seed=seed)
    assert m.state() == states[0]
    for t, want in zip(texts, states[1:]):
        m.apply(t)
        assert m.state() == want
    assert m.log == texts
    assert json.loads(json.dumps(states[-1])) == states[-1]


@pytest.mark.parametrize("seed", [7, 8])
def test_restored_match_continues_identically(seed):
    m = GAME.new_match(players=2, seed=seed, options={"hardcore": seed % 2 == 0})
    rng = random.Random(seed)
    record_playout(m, rng, limit=20)
    twin = rulelang.Match.from_state(GAME, json.loads(json.dumps(m.state())))
    assert twin.state() == m.state()
    while not m.is_over:
        assert legal(twin) == legal(m)
        t = rng.choice(legal(m))
        m.apply(t)
        twin.apply(t)
    assert twin.state() == m.state() and twin.outcome == m.outcome


@pytest.mark.parametrize("seed, hardcore", [(1, False), (2, True), (3, False)])
def test_random_game_finishes_with_a_legal_outcome(seed, hardcore):
    m = GAME.new_match(players=2, seed=seed, options={"hardcore": hardcore})
    texts = play_random(m, random.Random(seed))
    assert m.is_over and len(texts) <= 6 + 300
    assert m.outcome["results"] in (["win", "lose"], ["lose", "win"], ["draw", "draw"])
    data = m.state()
    ids = [c for s in data["zones"]["stack"] for c in s] + data["zones"]["reserve"][0] \
        + data["zones"]["reserve"][1] + data["zones"]["fallen"]
    assert sorted(ids) == list(range(24))
    assert max(len(s) for s in data["zones"]["stack"]) <= 2
    if not hardcore:
        assert data["zones"]["fallen"] == []
    for cell, s in enumerate(data["zones"]["stack"]):   # nothing stands on dead land
        if s and GEO.kinds[cell] == "octagon":
            assert not data["vars"]["dead"][cell]
