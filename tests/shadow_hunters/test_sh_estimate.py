"""Shadow Hunters' `estimate` (for search bots): a Shadow's or a Hunter's is 50 + (its foes' mean
wounds − its own side's mean wounds) / 2, a Neutral's 75 − its own wounds / 2 (wounds: damage as a
share of HP, 100 for the dead)."""
from __future__ import annotations

from sh_helpers import Position


def test_the_estimate_weighs_foes_wounds_against_ones_own_side():
    # Vampire (Shadow, 13 HP), Emi (Hunter, 10), Franklin (Hunter, 12), Allie (Neutral, 8)
    m = (Position(["Vampire", "Emi", "Franklin", "Allie"]).damage(1, 5).damage(2, 6).damage(3, 4)
         .turn(0).match())
    # Shadow: foes at 50 and 50, own side at 0 -> 75; Hunters: foe at 0, side at 50 -> 25; Allie: 75 - 25
    assert [m.estimate(p) for p in range(4)] == [0.75, 0.25, 0.25, 0.5]


def test_the_dead_count_as_fully_wounded():
    m = Position(["Vampire", "Emi", "Franklin", "Allie"]).dead(1).turn(0).match()
    # Shadow: foes 100 and 0 -> 50, side 0 -> 75; Hunters: foe 0, side (100 + 0) / 2 -> 25
    assert [m.estimate(p) for p in range(4)] == [0.75, 0.25, 0.25, 0.75]
