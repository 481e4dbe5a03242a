"""Rules beyond the twelve scenarios: the draft (D18), tokens (D4, D13), looting map pieces, hand-over
and revival (D20), events (D23), the turn order (D19), elimination (D26) and the alliance (D28–D30)."""
from __future__ import annotations

from dw_helpers import Position, game, hp, idx, legal, play, units_at, var, where, winners


def test_draft_bans_then_two_picks_then_a_banned_general_each():
    m = game.new_match(2, seed=5, options={"generals": "draft"})
    q = m.question
    assert q["chooser"] == 1 and q["prompt"] == "Ban a general (banned ones are picked last)"       # bans in order 2-1
    play(m, "Iron Warden")
    assert m.question["chooser"] == 0
    play(m, "Gold Maker")
    order = []
    while m.question and m.question["prompt"].startswith("Pick"):
        order.append(m.question["chooser"])
        m.apply(legal(m)[0])
    assert order[:4] == [0, 1, 1, 0] and len(order) == 5     # 1-2, 2-1, then by the die (the last: forced)
    rolls = {x.split(" ")[0]: int(x.split(" ")[2]) for x in m.messages_for(0) if x.endswith("(highest first, ties to the lower seat)")}
    assert sorted(rolls) == ["P1", "P2"]                       # the die that orders the third pick is told
    assert order[4] == (0 if rolls["P1"] >= rolls["P2"] else 1)
    st = m.state()
    owned = [sorted(st["components"][g]["label"] for g in st["zones"]["fallen"][p]) for p in range(2)]
    assert sum(len(o) for o in owned) == 6
    assert "Iron Warden" in owned[0] + owned[1] and "Gold Maker" in owned[0] + owned[1]


def test_random_deal_gives_three_generals_each_and_setup_places_them():
    m = game.new_match(4, seed=2, options={"generals": "random"})
    while m.question:
        m.apply(legal(m)[0])
    st = m.state()
    for p in range(4):
        gens = [u for u in st["vars"]["army"][p] if st["components"][u]["fields"]["general"]]
        assert len(gens) == 3 and len(st["vars"]["army"][p]) == 6   # a general and a soldier per castle


def test_tokens_treasure_curse_and_the_warp_token():
    m = Position(2).general(0, "Iron Warden", "e8").bury("f8", "Dragon Gold").turn(0).match()
    play(m, "dig Iron Warden f8")
    assert var(m, "coins") == [3, 0]
    p = Position(2).general(0, "Iron Warden", "e8").bury("f8", "Cursed Idol").turn(0)
    g = p.unit_at("e8")
    m = p.match()
    play(m, "dig Iron Warden f8")
    assert hp(m, g) == 1
    # the volcano's token stays on the warp cell: the first general to enter takes it
    p = (Position(2).general(0, "Iron Warden", "f5").bury("f6", "Map piece").var("warp", None, idx("f6"))
         .var("mount", idx("f6"), False).turn(0, rnd=4))
    g = p.unit_at("f5")
    m = p.match()
    play(m, "move f5 Iron Warden f6")
    assert var(m, "pcs")[g] == 1
    # (taken, not dug: D4's token goes to the general entering, D13's dig limits do not follow — a
    # differential run read "P1's Iron Warden digs up a map piece")
    assert "P1's Iron Warden picks up a map piece" in m.messages_for(1), m.messages_for(1)


def test_killing_a_general_gives_a_skull_a_coin_and_its_map_pieces():
    p = (Position(2).general(0, "Iron Warden", "e5").general(0, "Gold Maker", "a1")
         .general(1, "Moon Bow", "f5", hp=1, pieces=2).turn(0))
    warden, maker = p.unit_at("e5"), p.unit_at("a1")
    m = p.match()
    play(m, "attack e5 Iron Warden f5 Moon Bow")
    assert m.question["prompt"] == "Which of your generals takes the 2 map pieces?"
    play(m, "Gold Maker")
    assert var(m, "skulls") == [1, 0] and var(m, "coins") == [1, 0]
    assert var(m, "pcs")[maker] == 2 and var(m, "pcs")[warden] == 0
    assert m.state()["zones"]["fallen"][1] == [p.ids("Moon Bow", "Unit")[0]]


def test_hand_over_then_no_attack_and_revive_for_four_coins():
    p = (Position(2).general(0, "Iron Warden", "e5", pieces=1).general(0, "Gold Maker", "f5")
         .general(0, "Moon Bow", None).soldier(1, "infantry", "d5").coins(4, 0).turn(0))
    warden, maker = p.unit_at("e5"), p.unit_at("f5")
    m = p.match()
    play(m, "hand over Iron Warden Gold Maker")
    assert var(m, "pcs")[maker] == 1 and var(m, "pcs")[warden] == 0
    assert "attack e5 Iron Warden d5 infantry" not in legal(m)
    assert any(a.startswith("move e5 Iron Warden") for a in legal(m))
    play(m, "revive Moon Bow d11")
    assert var(m, "coins") == [0, 0] and "Moon Bow" in units_at(m, "d11")


def test_hand_over_needs_a_taker_that_has_not_attacked_or_used_a_skill():
    # D20: "between two adjacent own generals that have not attacked or used a skill"
    p = (Position(2).general(0, "Iron Warden", "e5", pieces=1).general(0, "Gold Maker", "f5")
         .soldier(1, "infantry", "g5").turn(0))
    m = p.match()
    assert "hand over Iron Warden Gold Maker" in legal(m)
    play(m, "attack f5 Gold Maker g5 infantry")
    assert "hand over Iron Warden Gold Maker" not in legal(m)
    m = Position(2).general(0, "Iron Warden", "e5", pieces=1).general(0, "Hawk Eye", "f5").turn(0).match()
    assert "hand over Iron Warden Hawk Eye" in legal(m)
    play(m, "skill Spotter")
    assert "hand over Iron Warden Hawk Eye" not in legal(m)


def test_event_outcome_by_die_per_player():
    # Tax Collector: 1-3 pay 1 coin, 4-6 gain 1; P1 rolls 2, P2 rolls 5
    m = (Position(2).coins(1, 1).events_top("Tax Collector").rolls((6, 2), (6, 5)).turn(1).match())
    play(m, "end turn")
    assert var(m, "coins") == [1, 3]                         # income +1 each, then -1 / +1
    assert m.state()["components"][m.state()["zones"]["past"][-1]]["label"] == "Tax Collector"


def test_regional_event_touches_only_its_region():
    # Plague in the North (1-3): each soldier of yours in rows 7-11 takes 1 damage
    p = (Position(2).soldier(0, "archer", "e9").soldier(0, "archer", "e5").events_top("Plague in the North")
         .rolls((6, 1), (6, 1)).turn(1))
    north, south = p.unit_at("e9"), p.unit_at("e5")
    m = p.match()
    play(m, "end turn")
    assert where(m, north) is None and where(m, south) == "e5"


def test_the_leader_in_map_pieces_reorders_the_turns():
    m = (Position(3).general(2, "Gold Maker", "e5", pieces=2).general(0, "Iron Warden", "a1")
         .general(1, "Moon Bow", "k1").events_top("Gold Vein").turn(2).match())
    play(m, "end turn")                                      # P3 ends round 1
    assert m.question["chooser"] == 2 and m.question["prompt"] == "You hold the most map pieces: set the turn order, first to last"
    play(m, "P3", "P2")                                      # P1 is last: no question
    assert m.state()["rounds"]["order"] == [2, 1, 0]
    assert m.state()["current"] == 2 and var(m, "round") == 2


def test_a_player_with_nothing_left_is_out_and_the_last_one_wins():
    p = (Position(2).soldier(0, "infantry", "e5").soldier(1, "archer", "f5").turn(0))
    for k in ("South infantry castle", "South cavalry castle", "South archer castle"):
        p.castle(k, 0)
    m = p.match()
    play(m, "attack e5 infantry f5 archer")
    assert m.is_over and winners(m) == [0]
    assert m.state()["rounds"]["eliminated"] == [1]


def test_alliance_infantry_and_defence_for_an_ally_and_a_shared_win():
    p = (Position(4, options={"alliance": True}).soldier(0, "archer", "e5").soldier(2, "infantry", "e4")
         .soldier(1, "infantry", "f5").hand(2, "Iron Shield").turn(1))
    arch, inf = p.unit_at("e5"), p.unit_at("e4")
    m = p.match()
    play(m, "attack f5 infantry e5 archer")
    assert m.question["chooser"] == 2 and legal(m) == ["Iron Shield", "pass"]   # P3 defends its ally
    play(m, "pass")
    assert m.question["chooser"] == 2                         # P3's infantry may take the hit
    play(m, "infantry at e4")
    assert hp(m, inf) == 1 and hp(m, arch) == 1
    # a team's map pieces count together: 3 + 1 dug = 4? no: 2 + 2 + 1 = 5 wins for P1 and P3
    m = (Position(4, options={"alliance": True}).general(0, "Iron Warden", "e8", pieces=2)
         .general(2, "Gold Maker", "a1", pieces=2).bury("f8", "Map piece").turn(0).match())
    play(m, "dig Iron Warden f8")
    assert m.is_over and winners(m) == [0, 2]


def test_look_alike_units_offered_in_a_choice_say_their_health():
    """A first hour in the browser: "Let an infantry take the hit" offered `infantry at d9` and
    `infantry at d9 #2`, one of them hurt — the one that dies taking the hit (D8: "even at 1
    health"). A unit that is hurt (or has a bonus to its next attack) says so."""
    p = (Position(2).soldier(0, "archer", "e5").soldier(0, "infantry", "e4").soldier(0, "infantry", "e4", hp=1)
         .soldier(1, "infantry", "f5").turn(1))
    m = p.match()
    play(m, "attack f5 infantry e5 archer")
    assert m.question["prompt"].startswith("Let an infantry take the hit"), m.question["prompt"]
    assert sorted(legal(m)) == ["infantry at e4", "infantry at e4 (1 health left)", "pass"], legal(m)


def test_an_ally_offered_a_card_is_told_which_and_the_others_are_not():
    """A browser trial: "P3 offers you a card (shown to you alone)" named no card — it lay in the
    offerer's hand row, under the dialog. The prompt cannot name it: every player reads a prompt."""
    m = (Position(4, options={"alliance": True}).general(0, "Iron Warden", "e8").general(1, "Hawk Eye", "b2")
         .general(2, "Sky Arrow", "f3").general(3, "Night Rider", "j9")
         .hand(0, "Fire Arrow").hand(2, "Iron Shield").turn(1)).match()
    play(m, "end turn", "Iron Shield")                       # P3's turn: P3 offers its card to P1
    assert m.question["chooser"] == 0 and "Iron Shield" not in m.question["prompt"]
    assert m.messages_for(0)[-1] == "P3 offers you Iron Shield"
    assert not any("Iron Shield" in x for p in (1, 3) for x in m.messages_for(p))


def test_the_alliance_screen_names_the_teams_with_their_points_and_pieces():
    """Nothing at the table said who was allied (a browser trial): the Players line names the
    teams first, with what the end counts (their players' points, their map pieces)."""
    m = (Position(4, options={"alliance": True}).general(0, "Iron Warden", "e8", pieces=2)
         .general(2, "Gold Maker", "a1", pieces=1).turn(0).match())
    players = next(x["value"] for x in m.shown(1) if x["name"] == "Players")
    assert players.startswith("teams (points and map pieces count together) P1 + P3 3 (3 map pieces), "
                              "P2 + P4 0 (0 map pieces) · P1: 2 points, 2 pieces")
    alone = Position(2).general(0, "Iron Warden", "e8", pieces=2).turn(0).match()
    assert next(x["value"] for x in alone.shown(0) if x["name"] == "Players").startswith("P1: 2 points, 2 pieces")


def test_a_strike_back_may_be_taken_by_the_attackers_infantry_but_not_defended():
    p = (Position(2).general(0, "Shield Mother", "e5").soldier(0, "archer", "f5").soldier(1, "cavalry", "g5")
         .soldier(1, "infantry", "h5").hand(1, "Iron Shield").coins(2, 0).turn(1))
    cav, inf = p.unit_at("g5"), p.unit_at("h5")
    m = p.match()
    play(m, "attack g5 cavalry f5 archer", "Last Stand")
    assert m.question["chooser"] == 1 and m.question["prompt"] == "Let an infantry take the blow struck back at P2 cavalry at g5?"
    assert legal(m) == ["infantry at h5", "pass"]            # no Iron Shield against a strike back
    play(m, "infantry at h5")
    assert hp(m, cav) == 1 and hp(m, inf) == 1


def test_an_alliance_team_with_one_player_out_is_scored_on_the_other():
    """D26 + D30: P1 is out, its ally P3 holds 5 points; P2 + P4 hold 1. The team P1 + P3 is scored
    on P3 and wins (it used to score nothing, its first seat being out, and lose: DW audit)."""
    p = Position(4, options={"alliance": True})
    for k in ("North infantry castle", "North cavalry castle", "North archer castle"):
        p.castle(k, 0)                                   # P1: no castle, no unit: out
    p.general(2, "Iron Warden", "e5", pieces=1).general(1, "Gold Maker", "a1").general(3, "Moon Bow", "k1")
    p.var("skulls", None, [0, 1, 2, 0]).var("razed", None, [0, 0, 1, 0])
    st = p.st
    st["rounds"]["eliminated"] = [0]
    for e in [i for i, c in enumerate(p.comps) if c["kind"] == "Event"][:6]:   # 6 events past, the 7th next
        st["zones"]["events"].remove(e)
        st["zones"]["past"].append(e)
    m = p.turn(3, rnd=7).match()
    play(m, "end turn")
    while not m.is_over:
        if m.question is not None:
            m.apply(legal(m)[-1])
        else:
            play(m, "end turn")
    assert m.outcome["results"] == ["win", "lose", "win", "lose"]
    assert "P1 + P3 5 (1 map piece), P2 + P4 1 (0 map pieces)" in m.outcome["reason"]


def test_d26_a_player_who_is_out_no_longer_defends_an_ally():
    """An audit: P3, out (its last soldier killed), still stopped an attack on its ally P1 with the
    Iron Shield left in its hand. Out is out (D26): only P1 is asked, and the archer dies."""
    p = Position(4, options={"alliance": True})
    for k in ("West infantry castle", "West cavalry castle", "West archer castle"):
        p.castle(k, 0)                                      # P3 holds no castle
    p.soldier(2, "archer", "c5")                            # P3's last unit
    p.soldier(1, "infantry", "d5").soldier(1, "cavalry", "f5").soldier(0, "archer", "e5")
    p.general(0, "Iron Warden", "a1").general(1, "Gold Maker", "k1", hp=1).general(3, "Moon Bow", "k11")
    p.hand(2, "Iron Shield")
    archer = p.unit_at("e5")
    m = p.turn(1).match()
    m.apply("attack d5 infantry c5 archer")
    while m.question is not None:
        m.apply("pass")
    assert m.state()["rounds"]["eliminated"] == [2]
    m.apply("attack f5 cavalry e5 archer")
    asked = []
    while m.question is not None:
        asked.append(m.question["chooser"])
        m.apply("pass")
    assert asked == [0] and where(m, archer) is None


def test_d26_a_player_put_out_at_the_start_of_a_round_does_not_take_its_first_turn():
    """3 players; P1 has no castle and one soldier, and plays first. Round 2's event, Desertion,
    takes that soldier (P1 rolls 1): P1 is out, and the round's first turn is P2's, not P1's."""
    p = Position(3).soldier(0, "infantry", "e5").general(1, "Gold Maker", "a1").general(2, "Moon Bow", "k1")
    for k in ("North infantry castle", "North cavalry castle", "North archer castle"):
        p.castle(k, 0)
    m = p.events_top("Desertion").rolls((6, 1), (6, 6), (6, 6)).turn(2).match()
    m.apply("end turn")                                     # P3 ends round 1
    assert m.state()["rounds"]["eliminated"] == [0] and m.state()["rounds"]["round"] == 2
    assert m.current == 1 and "end turn" in legal(m) and any(a.startswith("move a1 Gold Maker") for a in legal(m))


def test_an_alliance_starting_map_piece_may_go_to_a_general_of_either_player_of_the_team():
    """D28: "each alliance starts with 1 map piece (held by a general of one of its players)". An
    audit: only P1's (P2's) own three generals were offered, so P3 and P4 could never carry it."""
    m = game.new_match(4, seed=3, options={"alliance": True, "generals": "random"})
    asked = {}
    while m.question is not None and m.state()["rounds"]["round"] == 0:
        q = m.question
        if "starting map piece" in (q.get("prompt") or ""):
            asked[q["chooser"]] = (q["prompt"], list(q["options"]))
        m.apply(m.legal_actions()[-1])                   # (the last general offered: P3's, P4's)
    st = m.state()
    generals = {p: [st["components"][u]["label"] for u in st["vars"]["army"][p]
                    if st["components"][u]["fields"]["general"]] for p in range(4)}
    assert sorted(asked) == [0, 1]
    for chooser, (prompt, options) in asked.items():
        assert prompt == "Which general of your team carries its starting map piece?"
        assert sorted(options) == sorted(generals[chooser] + generals[chooser + 2])
    carriers = {p for p in range(4) for u in st["vars"]["army"][p] if st["vars"]["pcs"][u] > 0}
    assert carriers == {2, 3}                            # (P3's and P4's generals carry them)


def test_a_player_put_out_in_their_own_turn_is_out_at_once():
    """D26, an audit: P1's last unit killed by a strike back in P1's own turn left P1 to type
    `end turn` after "P1 is out". The turn passes at once."""
    p = (Position(3).soldier(0, "cavalry", "e5").soldier(1, "infantry", "f5").general(1, "Gold Maker", "a1")
         .general(2, "Moon Bow", "k1").hand(1, "Spiked Armour").turn(0))
    for k in ("North infantry castle", "North cavalry castle", "North archer castle"):
        p.castle(k, 0)
    m = p.match()
    play(m, "attack e5 cavalry f5 infantry", "Spiked Armour")
    while m.question:
        m.apply(m.legal_actions()[-1])
    assert m.state()["rounds"]["eliminated"] == [0] and not m.is_over
    assert m.current_player == 1                            # P2 plays on: P1 types nothing more


def test_healers_heal_infantry_generals_too_as_the_card_says():
    # Healers (4-6): "your infantry, generals too, heal fully"; an archer stays hurt
    p = (Position(2).general(0, "Iron Warden", "e5", hp=1).soldier(0, "infantry", "e6", hp=1)
         .soldier(0, "archer", "e7", hp=1).events_top("Healers").rolls((6, 6), (6, 1)).turn(1))
    general, infantry, archer = p.unit_at("e5"), p.unit_at("e6"), p.unit_at("e7")
    m = p.match()
    play(m, "end turn")
    assert (hp(m, general), hp(m, infantry), hp(m, archer)) == (3, 2, 1)
    healers = m.state()["zones"]["past"][-1]
    assert "your infantry, generals too, heal fully" in m.rules_text(healers)
