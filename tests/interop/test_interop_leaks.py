"""No observation of seat p changes when something p cannot see changes.

Two ways of changing what p cannot see: `Match.determinized(p, seed)` (every unseen component
dealt again, fresh luck), and a hand-made swap of two unseen components of different labels in a
restored `state()`. For each, p's observation vector, p's view text, p's OpenSpiel information
state and (when p acts) p's action mask must be identical; and to show the checks can fail, the
changed match must really differ, and a seat that does see the swapped cards must notice.
"""
from __future__ import annotations

import json

import pytest

from interop_helpers import GAMES, HIDDEN, game, positions
from rulelang import Match
from rulelang.interop import Interface

PLAYERS = dict(GAMES)


def seen_by(interface, match, p) -> tuple:
    """Everything the interfaces give seat p."""
    legal = [str(a) for _, a in interface.legal(match)] if match.current_player == p else None
    recall = json.dumps({"view": match.view(p), "messages": match.messages_for(p)}, sort_keys=True)
    return interface.observe(match, p).tobytes(), interface.view_text(match, p), recall, legal


@pytest.mark.parametrize("name", HIDDEN)
def test_what_a_seat_cannot_see_does_not_reach_its_observations(name):
    players = PLAYERS[name]
    interface = Interface(game(name), players)
    changed = 0
    for m in positions(game(name), players, seeds=range(2), actions=60, every=6):
        for p in range(players):
            other = m.determinized(p, 1234 + p)
            changed += other._state()["zones"] != m.state()["zones"]   # (a paused copy is not saved: state() refuses)
            assert seen_by(interface, other, p) == seen_by(interface, m, p)
    assert changed > 0


def unseen_pair(match, p):
    """Two components of one kind and different labels, each in a zone p cannot see and not
    revealed to p: ((zone, owner, index), (zone, owner, index)), or None. A pair across two zones
    with another seat's hand (an `owner` zone) among them comes first, then across zones, then
    within one."""
    data = match.state()
    comps = data["components"]
    unseen = []
    for e in match.view(p)["zones"]:
        if e["cards"] is not None or "key" in e or "of" in e:
            continue
        held = data["zones"][e["name"]]
        items = held if e["owner"] is None else held[e["owner"]]
        known = {c["id"] for c in e.get("known") or []}
        unseen += [(e["name"], e["owner"], i, e["visibility"]) for i, c in enumerate(items) if c not in known]

    def comp(place):
        name, owner, i, _ = place
        held = data["zones"][name]
        return comps[(held if owner is None else held[owner])[i]]
    pairs = [(x, y) for x in unseen for y in unseen if x < y and comp(x)["kind"] == comp(y)["kind"]
             and comp(x)["label"] != comp(y)["label"]]
    pairs.sort(key=lambda xy: (xy[0][:2] == xy[1][:2], "owner" not in (xy[0][3], xy[1][3])))
    return pairs[0] if pairs else None


def swapped(match, pair):
    data = match.state()

    def items(place):
        held = data["zones"][place[0]]
        return held if place[1] is None else held[place[1]]
    (x, y) = pair
    a, b = items(x), items(y)
    a[x[2]], b[y[2]] = b[y[2]], a[x[2]]
    return Match.from_state(match.game, data)


@pytest.mark.parametrize("name", HIDDEN)
def test_swapping_two_unseen_components_changes_nothing_the_seat_observes(name):
    players = PLAYERS[name]
    interface = Interface(game(name), players)
    swaps, noticed = 0, 0
    for m in positions(game(name), players, seeds=range(2), actions=60, every=6):
        if m.question is not None:            # (a paused effect replays from its base: swap only settled positions)
            continue
        for p in range(players):
            where = unseen_pair(m, p)
            if where is None:
                continue
            other = swapped(m, where)
            swaps += 1
            assert other.state() != m.state()
            assert seen_by(interface, other, p) == seen_by(interface, m, p)
            for owner in {x[1] for x in where if x[3] == "owner"} - {p}:     # an owner sees its hand change
                noticed += interface.observe(other, owner).tobytes() != interface.observe(m, owner).tobytes()
    assert swaps > 0 and noticed > 0
