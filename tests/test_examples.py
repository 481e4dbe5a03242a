"""The example games in examples/ (written by a new author from the docs alone): they lint clean,
and their rules hold in seeded random games — follow suit and the trick's scoring in Oh Hell, a
challenge's loser in Liar's Dice."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.rules"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_example_lints_clean(path, capsys):
    assert main(["lint", str(path)]) == 0
    assert "clean" in capsys.readouterr().out


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _zone(view, name, owner=None):
    return next(z for z in view["zones"] if z["name"] == name and (owner is None or z.get("owner") == owner))


def _value(view, name):
    return next(v for v in view["values"] if v["name"] == name)


def test_oh_hell_follows_suit_and_scores_tricks_and_exact_bids():
    game = rulelang.load(str(ROOT / "examples" / "oh_hell.rules"))
    hands = 0
    for seed in range(6):
        m = game.new_match(4, seed=seed, options={"most": 3})
        rng = random.Random(seed)
        scores, played = [0] * 4, []
        while not m.is_over:
            seat = m.current_player
            view = m.view(seat)
            legal = [str(a) for a in m.legal_actions()]
            trick = [c["label"] for c in _zone(view, "trick")["cards"]]
            chosen = rng.choice(legal)
            if legal[0].startswith("play"):
                held = [c["label"] for c in _zone(view, "hand", seat)["cards"]]
                led = trick[0][-1] if trick else None
                following = [c for c in held if led is not None and c.endswith(led)]
                assert sorted(legal) == sorted("play " + c for c in (following or held))
                played = (played if trick else []) + [(seat, chosen.split(" ", 1)[1])]
            bids, tricks = _value(view, "bid")["per_player"], _value(view, "tricks")["per_player"]
            trumps = _value(view, "Trumps")["value"]
            m.apply(chosen)
            after = _value(m.view(seat), "score")["per_player"]
            if after != scores:              # a hand was scored: 1 a trick, 10 more for the exact bid
                hands += 1
                # the hand's last trick, worked out here: the highest trump, else the highest of the suit led
                power = {c: (2 if c[-1] == trumps else 1 if c[-1] == played[0][1][-1] else 0, RANKS.index(c[:-1]))
                         for _, c in played}
                taken = list(tricks)
                taken[max(played, key=lambda x: power[x[1]])[0]] += 1
                assert after == [scores[p] + taken[p] + (10 if taken[p] == bids[p] else 0) for p in range(4)]
                scores = after
        results = m.outcome["results"]
        assert all(results[p] != "lose" for p in range(4) if scores[p] == max(scores))
        assert all(results[p] == "lose" for p in range(4) if scores[p] < max(scores))
    assert hands == 6 * 3


def test_liars_dice_a_challenge_costs_the_wrong_side_one_die():
    game = rulelang.load(str(ROOT / "examples" / "liars_dice.rules"))
    calls = 0
    for seed in range(8):
        m = game.new_match(3, seed=seed, options={"dice": 3})
        rng = random.Random(seed)
        while not m.is_over:
            legal = m.legal_actions()
            texts = [str(a) for a in legal]
            if "liar" in texts and rng.random() < 0.4 and min(_value(m.view(0), "left")["per_player"]) > 1:
                # (no player can go out on this call: every cup is still on the table once lifted)
                caller, view = m.current_player, m.view(None) if False else m.view(m.current_player)
                n, f = _value(view, "bid_n")["value"], _value(view, "bid_f")["value"]
                bidder = _value(view, "bidder")["value"]
                left = list(_value(view, "left")["per_player"])
                m.apply("liar")
                calls += 1
                shown = m.view(caller)                     # every cup lifted
                faces = [int(c["label"]) for z in shown["zones"] if z["name"] == "cup" for c in (z["cards"] or z.get("known") or [])]
                assert len(faces) == sum(left)
                got = sum(1 for d in faces if d == f or (f != 1 and d == 1))
                loser = caller if got >= n else bidder
                now = _value(m.view(caller), "left")["per_player"]
                assert now == [x - (1 if p == loser else 0) for p, x in enumerate(left)]
            else:
                m.apply(rng.choice([a for a, t in zip(legal, texts) if t != "liar"] or legal))
        assert m.outcome["results"].count("win") == 1
    assert calls >= 8


def test_oh_hell_s_bots_never_imagine_a_played_card_back_in_a_hand():
    """A new author's Bridge trial: the tricks taken lay in a `hidden` pile, so the search bots'
    copies dealt cards every seat had seen played back into the others' hands (62 % of copies)."""
    game = rulelang.load(str(ROOT / "examples" / "oh_hell.rules"))
    m = game.new_match(4, seed=3, options={"most": 8})
    rng = random.Random(3)
    checked, played, held_before = 0, set(), None
    while not m.is_over and checked < 40:
        view = m.view(0)
        held = sum(_zone(view, "hand", p)["count"] for p in range(4))
        if held_before is not None and held > held_before:
            played = set()                                   # (a new hand dealt)
        held_before = held
        played |= {c["label"] for name in ("last_trick", "trick") for c in _zone(view, name)["cards"]}
        if played and m.current_player == 0 and m.question is None:
            for k in range(4):
                copy = m.determinized(0, seed=k)
                for seat in (1, 2, 3):
                    imagined = {c["label"] for c in _zone(copy.view(seat), "hand", seat)["cards"]}
                    assert not imagined & played, (sorted(imagined & played), seat)
                checked += 1
        m.apply(rng.choice(m.legal_actions()))
    assert checked >= 20
