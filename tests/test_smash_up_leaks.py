"""Hidden information in Smash Up: over full random games, nothing a player is shown names a card
that player may not see.

What a player may see is worked out from `state()` alone (public zones, their own `owner` zones,
what was revealed to them and is still where it was revealed), independently of `view()`. Then
for every position and every player p, these may name only cards p may see:
- `view(p)` (every text in it),
- the legal actions when p is the one to act (a choice's options included),
- the messages p may read (`messages_for(p)`), each checked when it is written (a card played and
  named then may be shuffled away later: the message was no leak), against what p could see just
  before or just after the move that wrote it.
A card is "named" when its label appears and no card p may see has that label (copies share one).
"""
from __future__ import annotations

import functools
import json
import random
import re

import pytest

import rulelang
from shipped import shipped
from rulelang.engine.codegen.runtime import as_items

GAME = shipped("smash_up")


def may_see(state: dict, game_zones: dict, p: int) -> set[int]:
    seen: set[int] = set()
    for name, value in state["zones"].items():
        z = game_zones[name]
        if z["per"] == "player":
            for owner, items in enumerate(value):
                if z["visibility"] == "public" or (z["visibility"] == "owner" and owner == p):
                    seen.update(items)
        elif z["visibility"] == "public":
            seen.update(value)
    where = {}
    for name, value in state["zones"].items():
        if game_zones[name]["per"] == "player":
            for owner, items in enumerate(value):
                for c in items:
                    where[c] = [name, owner]
        else:
            for c in value:
                where[c] = [name, None]
    for key, entry in state.get("known", {}).items():
        c = int(key)
        if (entry["to"] == "all" or p in entry["to"]) and where.get(c) == entry["zone"]:
            seen.add(c)
    return seen


def strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from strings(v)


@functools.cache
def word(label: str) -> re.Pattern:
    """The label as a whole word."""
    return re.compile(r"(?<![A-Za-z])" + re.escape(label) + r"(?![A-Za-z])")


def leaks(texts, state: dict, seen: set[int]) -> list[str]:
    labels = [c["label"] for c in state["components"]]
    visible_labels = {labels[c] for c in seen}
    secret = {l for c, l in enumerate(labels) if c not in seen and l not in visible_labels}
    found = []
    for text in texts:
        for label in secret:
            if label in text and word(label).search(text):       # (the substring test first: fast)
                found.append(f"{label!r} in {text!r}")
    return found


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 3)])
def test_no_player_is_shown_a_card_they_may_not_see(players, seed, monkeypatch):
    zones = {z["name"]: z for z in GAME.ir["zones"]}
    m = GAME.new_match(players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    read = [0] * players
    before = [set() for _ in range(players)]
    # a card revealed during a move (`reveal`, to all or to p) may be named to p, even when it moves
    # on within the same move (Hoverbot's top card, drawn at once): recorded as the engine reveals it
    shown_to = [set() for _ in range(players)]
    reveal = GAME.lowerer.sh.ns["_reveal"]

    def recorded(match, what, to):
        for p in range(players):
            if to is None or p == to or (isinstance(to, list) and p in to):
                shown_to[p].update(as_items(what))
        return reveal(match, what, to)
    monkeypatch.setitem(GAME.lowerer.sh.ns, "_reveal", recorded)
    every = 1 if players == 2 else 3             # (a 4-player game: every third position, to save time)
    while not m.is_over and steps < 1500:
        if steps % every:
            m.apply(rng.choice(m.legal_actions()))
            steps += 1
            continue
        state = m.state()
        for p in range(players):
            seen = may_see(state, zones, p)
            view = m.view(p)
            texts = list(strings(view))
            if m.current_player == p:
                texts += [a.text for a in m.legal_actions()]
            found = leaks(texts, state, seen)
            mine = m.messages_for(p)
            found += leaks(mine[read[p]:], state, seen | before[p] | shown_to[p])
            read[p] = len(mine)
            before[p] = seen
            shown_to[p] = set()
            assert not found, f"P{p + 1} is shown {found[:3]} (step {steps})"
        m.apply(rng.choice(m.legal_actions()))
        steps += 1
    assert steps > 20


def test_a_paused_choice_shows_its_options_to_the_chooser_only():
    """Whenever a choice waits, every other player's view says who chooses but not the options."""
    checked = 0
    for seed in range(6):
        m = GAME.new_match(3, seed=seed)
        rng = random.Random(seed)
        while not m.is_over and checked < 50:
            q = m.question
            if q is not None:
                for p in range(3):
                    choice = m.view(p)["choice"]
                    assert choice["chooser"] == q["chooser"]
                    assert (choice["options"] is not None) == (p == q["chooser"])
                checked += 1
            m.apply(rng.choice(m.legal_actions()))
    assert checked > 0
    json.dumps(m.state())                      # a paused or finished match is plain data
