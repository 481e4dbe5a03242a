"""Visibility `others` (every player but the owner sees a zone: a co-operative game where you see
every hand but your own) and `uncounted` (its size is hidden too), on small invented games.

Exact positions first; then a leak scan over random games of the hand game: what the owner is
shown (their view, the action texts and choice options offered to them, messages, the log, the
terminal's transcript) never depends on, nor names, the cards of their own hand."""
from __future__ import annotations

import io
import random
import re

import pytest

import rulelang
from rulelang.play.repl import render_zone, run_repl
from rulelang.play.screen import changes

# Lanterns: co-operative; light each colour's lanterns 1, 2, 3 in order. You hold your cards facing
# the others: you see every hand but yours. Every card's label is unique (R1a, R1b…) so that a
# label in a text names exactly one card.
LANTERNS = """
game "Lanterns" {
  players 2..4
  enum Colour { red "R", blue "B", gold "G" }
  kind Card { colour: Colour  rank: int  copy: text  label text(colour) + text(rank) + copy }
  zone deck: pile, hidden
  zone hand: set per player, others
  zone lit: pile per Colour, public
  zone discard: pile, public
  var clues: int = 3
  var lives: int = 3
  var told: text = "" per player, others      # what the others last told you … seen by the others
  setup {
    for c in Colour { for r in 1..3 { create Card(colour: c, rank: r, copy: "a") in deck
                                      create Card(colour: c, rank: r, copy: "b") in deck } }
    shuffle deck
    for p in players { repeat 3 { move top(deck) to hand[p] } }
  }
  proc draw(p) { if size(deck) > 0 { move top(deck) to hand[p] } }
  turn {
    step act {
      action play(c in hand[me]) {
        if c.rank == size(lit[c.colour]) + 1 { move c to lit[c.colour]  log text(me) + " lights " + text(c) }
        else { move c to discard  lives -= 1  log text(me) + " fumbles " + text(c) }
        draw(me)
        end turn
      }
      action drop(c in hand[me]) as "drop " + text(c) require clues < 3 {
        move c to discard  clues += 1  draw(me)  end turn
      }
      action tell(p in others, col in Colour) require clues > 0 {
        clues -= 1
        told[p] = text(col) + " at " + text([i + 1 for i in 0..size(hand[p]) - 1 where hand[p][i].colour == col])
        log text(me) + " tells " + text(p) + ": " + told[p]
        end turn
      }
      action swap {
        choose c in hand[me] prompt "put which back?" as "back " + text(c) {
          move c to bottom of deck  draw(me)
        }
        end turn
      }
    }
  }
  when lives == 0 { finish lose "the lanterns went out" }
  when all(size(lit[c]) == 3 for c in Colour) { finish win "every lantern is lit" }
  when size(deck) == 0 and all(size(hand[p]) < 3 for p in players) { finish lose "the deck ran out" }
}
"""


@pytest.fixture(scope="module")
def lanterns():
    return rulelang.Game(rulelang.compile_source(LANTERNS, "lanterns.rules"))


def hand_zone(view, owner):
    return next(z for z in view["zones"] if z["name"] == "hand" and z["owner"] == owner)


def test_the_owner_sees_how_many_the_others_see_what(lanterns):
    m = lanterns.new_match(3, seed=5)
    hands = [[m.labels[c] for c in m.Z[lanterns.zone_slot["hand"]][p]] for p in range(3)]
    v0 = m.view(0)
    mine = hand_zone(v0, 0)
    assert mine["visibility"] == "others" and mine["count"] == 3 and mine["cards"] is None
    assert [c["label"] for c in hand_zone(v0, 1)["cards"]] == hands[1]
    assert [c["label"] for c in hand_zone(v0, 2)["cards"]] == hands[2]
    assert [c["label"] for c in hand_zone(m.view(1), 0)["cards"]] == hands[0]
    assert m.visible_to(0).isdisjoint(m.Z[lanterns.zone_slot["hand"]][0])
    assert render_zone(mine) == "hand (P1): 3 cards, hidden"
    # a per-player variable seen by the others: P2's entry is shown to P1 and P3, not to P2
    m.apply("tell P2 R")
    told = next(x for x in m.view(0)["values"] if x["name"] == "told")["per_player"]
    assert told[1] is not None and next(x for x in m.view(1)["values"] if x["name"] == "told")["per_player"][1] is None


def test_actions_and_choices_name_the_owners_cards_by_their_place(lanterns):
    m = lanterns.new_match(3, seed=5)
    hand0 = list(m.Z[lanterns.zone_slot["hand"]][0])
    assert [a.text for a in m.legal_actions()] == [
        "play hand slot 1", "play hand slot 2", "play hand slot 3",
        "tell P2 R", "tell P2 B", "tell P2 G", "tell P3 R", "tell P3 B", "tell P3 G", "swap"]
    m.apply("play hand slot 2")                   # exactly the second card of P1's hand
    played = hand0[1]
    assert m.where[played] in (m.Z[lanterns.zone_slot["discard"]], *m.Z[lanterns.zone_slot["lit"]])
    assert m.messages_for(1)[-1].endswith(m.labels[played])     # named once it is face up: by the rules
    # P2 acts: the rules' `as` words would name P2's own card: P2 reads its place instead; the
    # others' cards (seen) keep their names
    m.apply("tell P3 B")
    m.apply("tell P1 R")
    assert m.current == 0 and m.V[lanterns.var_slot["clues"]] == 1
    m.apply("swap")
    q = m.view(0)["choice"]
    assert q["prompt"] == "put which back?" and q["options"] == ["hand slot 1", "hand slot 2", "hand slot 3"]
    assert m.view(1)["choice"]["options"] is None
    back = m.Z[lanterns.zone_slot["hand"]][0][2]
    m.apply("hand slot 3")
    assert m.Z[lanterns.zone_slot["deck"]][0] == back
    assert m.log_for(0)[-1] == "hand slot 3"
    texts = [a.text for a in m.legal_actions()]          # P2 (clues 1): drop is legal now
    assert "drop hand slot 1" in texts and not any(m.labels[c] in t for t in texts
                                                   for c in m.Z[lanterns.zone_slot["hand"]][1])


def test_the_rules_as_words_are_kept_for_cards_the_actor_sees():
    src = LANTERNS.replace("zone hand: set per player, others", "zone hand: set per player, others\n"
                           "  zone spare: set per player, public")
    src = src.replace('action swap {', 'action toss(c in spare[me]) as "toss " + text(c) { move c to discard  end turn }\n'
                      '      action swap {')
    src = src.replace("shuffle deck\n", "shuffle deck\n    move top(deck) to spare[0]\n")
    g = rulelang.Game(rulelang.compile_source(src, "x.rules"))
    m = g.new_match(2, seed=1)
    spare = m.Z[g.zone_slot["spare"]][0][0]
    assert "toss " + m.labels[spare] in [a.text for a in m.legal_actions()]


def test_uncounted_hides_the_size_from_who_cannot_see_into_it():
    src = LANTERNS.replace("zone hand: set per player, others", "zone hand: set per player, owner, uncounted")
    g = rulelang.Game(rulelang.compile_source(src, "x.rules"))
    m = g.new_match(3, seed=2)
    before = m.view(1)
    theirs, mine = hand_zone(before, 0), hand_zone(before, 1)
    assert theirs["count"] is None and theirs["cards"] is None and theirs["uncounted"]
    assert mine["count"] == 3 and len(mine["cards"]) == 3
    assert render_zone(theirs) == "hand (P1): hidden, how many is not known"
    m.apply(next(a for a in m.legal_actions() if a.text.startswith("play")))
    assert not any("hand (P1)" in line for line in changes(before, m.view(1), "", lambda p: f"P{p + 1}"))
    # `others, uncounted`: the owner does not know how many either; the others see them all
    src = LANTERNS.replace("zone hand: set per player, others", "zone hand: set per player, others, uncounted")
    m = rulelang.Game(rulelang.compile_source(src, "x.rules")).new_match(3, seed=2)
    assert hand_zone(m.view(0), 0)["count"] is None and hand_zone(m.view(1), 0)["count"] == 3


def test_checker_and_linter():
    bad = LANTERNS.replace("zone discard: pile, public", "zone discard: pile, public, uncounted\n"
                           "  zone mine: set, others")
    with pytest.raises(rulelang.RuleError) as err:
        rulelang.compile_source(bad, "x.rules")
    text = " ".join(d.message for d in err.value.diagnostics)
    assert "zone `discard` is `uncounted` but public" in text
    assert "zone `mine` is seen by the `others` (all but its owner) but is not declared `per player`" in text
    leaky = LANTERNS.replace("action play(c in hand[me]) {", "action play(c in hand[me]) require c.rank > 0 {")
    leaky = leaky.replace('zone discard: pile, public', 'zone discard: pile, public\n'
                          '  zone held: set per player, owner, uncounted\n'
                          '  show "held" = text(size(held[0]))')
    _, diags = rulelang.check_source(leaky, "x.rules")
    codes = sorted({d.code for d in diags if d.code in ("W230", "W231")})
    assert codes == ["W230", "W231"]


def _views_match(real, copy, p):
    a, b = real.view(p), copy.view(p)
    assert a == b, f"P{p + 1}'s view depends on what they cannot see"
    if real.current_player == p:
        assert [x.text for x in real.legal_actions()] == [x.text for x in copy.legal_actions()]
    assert real.messages_for(p) == copy.messages_for(p) and real.log_for(p) == copy.log_for(p)


def test_leak_scan_the_owner_never_learns_their_own_cards(lanterns):
    """Over random games: every seat's view, offered actions (texts), choice options, messages and
    log are the same in every world that differs only in what that seat cannot see (its own hand
    and the deck dealt again: `determinized`), and no text shown to a seat names a card it has not
    seen (labels are unique)."""
    decisions = 0
    slot = lanterns.zone_slot

    def may_see(m, p):            # worked out from the zones alone, not from the engine's visibility
        out = set(m.Z[slot["discard"]]) | {c for z in m.Z[slot["lit"]] for c in z}
        return out | {c for q, z in enumerate(m.Z[slot["hand"]]) if q != p for c in z}
    for seed in range(12):
        m = lanterns.new_match(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        ever_seen = [may_see(m, p) for p in range(m.players)]
        while not m.is_over:
            for p in range(m.players):
                copy = m.determinized(p, seed * 1000 + decisions)
                _views_match(m, copy, p)
                never = [m.labels[c] for c in range(len(m.labels)) if c not in ever_seen[p]]
                shown = repr(m.view(p)) + repr(m.messages_for(p)) + repr(m.log_for(p))
                if m.current_player == p:
                    shown += repr([a.text for a in m.legal_actions()])
                for label in never:
                    assert not re.search(r"\b" + label + r"\b", shown), (seed, p, label)
            m.apply(rng.choice(m.legal_actions()))
            for p in range(m.players):
                ever_seen[p] |= may_see(m, p)
            decisions += 1
    assert decisions > 100


def test_leak_scan_at_the_terminal(lanterns):
    """P1 plays at the terminal against two bots: the transcript never names a card P1 had not seen
    by the end (the game replayed from its log tells which those are)."""
    for seed in range(4):
        m = lanterns.new_match(3, seed=seed)
        rng = random.Random(seed)
        answers = "".join(rng.choice(["1\n", "2\n", "3\n", "4\n", "10\n", "log\n", "hand\n", "board\n"])
                          for _ in range(80)) + "quit\n"
        out = io.StringIO()
        run_repl(lanterns, 3, seed, {}, {1: "random", 2: "random"}, io.StringIO(answers), out, "lanterns.rules",
                 match=m)
        text = out.getvalue()
        seen, again = set(), lanterns.new_match(3, seed=seed)      # replay the game: what P1 saw when
        slot = lanterns.zone_slot
        for text_played in m.log + [None]:
            seen |= set(again.Z[slot["discard"]]) | {c for z in again.Z[slot["lit"]] for c in z}
            seen |= set(again.Z[slot["hand"]][1]) | set(again.Z[slot["hand"]][2])
            if text_played is not None:
                again.apply(text_played)
        assert again.state() == m.state()
        never = set(range(len(m.labels))) - seen
        assert "hand slot" in text
        for c in never:
            assert not re.search(r"\b" + m.labels[c] + r"\b", text), (seed, m.labels[c])


def test_reveal_to_others_and_to_the_owner_keep_working():
    src = LANTERNS.replace('''      action swap {''', '''      action flash(c in hand[me]) { reveal c to [me]  end turn }
      action swap {''')
    owner_src = src.replace("zone hand: set per player, others", "zone hand: set per player, owner").replace(
        "reveal c to [me]", "reveal c to others")
    g = rulelang.Game(rulelang.compile_source(owner_src, "x.rules"))
    m = g.new_match(3, seed=3)
    c = m.Z[g.zone_slot["hand"]][0][0]
    m.apply("flash " + m.labels[c])                       # an owner hand: shown to the others
    assert [k["id"] for k in hand_zone(m.view(1), 0)["known"]] == [c] and "known" not in hand_zone(m.view(2), 1)
    g = rulelang.Game(rulelang.compile_source(src, "x.rules"))
    m = g.new_match(3, seed=3)
    c = m.Z[g.zone_slot["hand"]][0][0]
    m.apply("flash hand slot 1")                          # an `others` hand: its owner is shown one
    assert [k["label"] for k in hand_zone(m.view(0), 0)["known"]] == [m.labels[c]]
    assert m.current == 1 and "known" not in hand_zone(m.view(1), 1)


POINT = """
game "Point" {
  players 2
  kind Card { rank: int  label text(rank) }
  zone deck: pile, hidden
  zone hand: pile per player, others
  zone table: pile, public
  setup { for r in 1..6 { create Card(rank: r) in deck }  shuffle deck  for p in players { move top(deck, 2) to hand[p] } }
  turn { step act {
    action point(c in hand[next(me)]) { end turn }
    action lay(c in hand[next(me)]) { move c to table  end turn }
    action stop { finish draw }
  } }
}
"""


def test_an_action_naming_a_card_of_its_holders_hand_is_not_read_to_the_holder():
    """A new author's Hanabi: `point(c in hand[next(me)])` (P1 sees P2's hand) read `point 1` to
    P2 — in the log, on P2's screen — though P2 may never see their own cards. The action's
    text is the others' alone; once the card lies face up (`lay`) everyone reads it."""
    game = rulelang.Game(rulelang.compile_source(POINT, "point.rules"))
    m = game.new_match(2, 1)
    pointed = next(a for a in m.legal_actions() if a.text.startswith("point"))
    m.apply(pointed)
    assert m.log_for(0) == [pointed.text] and m.log_for(1) == m.log_for(None) == ["(a secret choice)"]
    laid = next(a for a in m.legal_actions() if a.text.startswith("lay"))
    m.apply(laid)
    assert m.log_for(0)[1] == m.log_for(1)[1] == laid.text
    out = io.StringIO()
    run_repl(game, 2, 1, {}, {}, io.StringIO(f"{pointed.text}\n\nquit\n"), out, "point.rules")
    text = out.getvalue()
    seat_two = text.partition("Pass the terminal to P2")[2]
    assert "P1 plays: (a secret choice)" in seat_two and pointed.text not in seat_two   # (labels are unique)
    assert f"P1 plays: {pointed.text}" in text.partition("Pass the terminal to P2")[0]


def test_an_any_time_action_naming_a_card_of_its_holders_hand_is_not_read_to_the_holder():
    """A leak scan: `anytime action nudge(c in hand[next(me)])` read `P2: nudge card 4` to P3,
    the card's holder, though an ordinary action on the same hand read "(a secret choice)"."""
    source = POINT.replace("players 2", "players 3").replace(
        "  turn { step act {", "  anytime action nudge(c in hand[next(me)]) { }\n  turn { step act {")
    game = rulelang.Game(rulelang.compile_source(source, "nudge.rules"))
    m = game.new_match(3, 1)
    nudge = m.interrupts(1)[0]
    m.apply(nudge)
    assert m.log_for(1) == m.log_for(0) == [nudge.text] and m.log_for(2) == m.log_for(None) == ["P2: (a secret choice)"]


def test_a_card_every_seat_but_no_spectator_sees_is_not_named_to_the_spectator():
    """A leak scan: `take(c in hand[next(me)])` moves P2's card into P1's `others` hand: each seat
    may now know it (P1 named it, P2 sees P1's hand), but a spectator sees neither hand, and
    its log read `take B3a`."""
    source = POINT.replace("    action stop { finish draw }",
                           "    action take(c in hand[next(me)]) { move c to hand[me]  end turn }\n"
                           "    action stop { finish draw }")
    game = rulelang.Game(rulelang.compile_source(source, "take.rules"))
    m = game.new_match(2, 1)
    take = next(a for a in m.legal_actions() if a.text.startswith("take"))
    m.apply(take)
    assert m.log_for(0) == m.log_for(1) == [take.text] and m.log_for(None) == ["(a secret choice)"]
