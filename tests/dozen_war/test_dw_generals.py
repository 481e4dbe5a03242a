"""Each general's three skills (games/dozen_war/generals.rules), from exact positions. Row 5 has no
mountain, so its cells are used for lines (b5 c5 d5 … going east)."""
from __future__ import annotations

from dw_helpers import Position, hp, legal, play, units_at, var, where


def stopped(m) -> bool:
    return "the attack is stopped" in m.messages_for(0)


# ---- infantry -----------------------------------------------------------------------------------------------
def test_iron_warden():
    # Hold the Line (defence 1*): stops an attack on a unit within 1; not on one 2 away
    p = (Position(2).general(0, "Iron Warden", "e5").soldier(0, "archer", "f5").soldier(0, "archer", "c5")
         .soldier(1, "infantry", "g5").soldier(1, "infantry", "b5").turn(1))
    near_archer, far_archer = p.unit_at("f5"), p.unit_at("c5")
    m = p.match()
    play(m, "attack g5 infantry f5 archer", "Hold the Line")
    assert stopped(m) and where(m, near_archer) == "f5"
    play(m, "attack b5 infantry c5 archer")                  # 2 away: no question (defence used anyway)
    assert where(m, far_archer) is None
    # Shield Bash (attack 1*, fist): 2 damage to an adjacent enemy; the Warden may not attack after
    m = Position(2).general(0, "Iron Warden", "e5").soldier(1, "infantry", "f5").turn(0).match()
    play(m, "skill Shield Bash")
    assert units_at(m, "f5") == []
    assert not any("Iron Warden" in a for a in legal(m) if a.startswith("attack") or a.startswith("move"))
    # Fortress (defence 3*, 2 coins): within 2, against a 3-star skill
    p = (Position(2).general(0, "Iron Warden", "e5").soldier(0, "infantry", "g5").coins(2, 2)
         .general(1, "Stone Breaker", "h5").turn(1))
    guarded = p.unit_at("g5")
    m = p.match()
    play(m, "skill Earthquake", "Fortress")
    assert stopped(m) and hp(m, guarded) == 2 and var(m, "coins") == [0, 0]


def test_stone_breaker():
    m = Position(2).general(0, "Stone Breaker", "e5").soldier(1, "infantry", "f5").turn(0).match()
    play(m, "skill Crushing Blow")                           # 2 damage: the infantry dies
    assert units_at(m, "f5") == []
    m = Position(2).general(0, "Stone Breaker", "e5").turn(0).match()
    play(m, "skill Call to Arms")
    assert units_at(m, "e5") == ["Stone Breaker", "infantry"]
    m = (Position(2).general(0, "Stone Breaker", "e5").soldier(1, "archer", "f5").soldier(1, "archer", "d5")
         .soldier(1, "archer", "g5").coins(2, 0).turn(0).match())
    play(m, "skill Earthquake")                              # 1 to every enemy around
    assert units_at(m, "f5") == [] and units_at(m, "d5") == [] and units_at(m, "g5") == ["archer"]
    assert var(m, "coins") == [0, 0]


def test_shield_mother():
    p = Position(2).general(0, "Shield Mother", "e5").soldier(0, "infantry", "f5", hp=1).turn(0)
    inf = p.unit_at("f5")
    m = p.match()
    play(m, "skill Mend")
    assert hp(m, inf) == 2
    # Brace as an attack: +1 to a unit within 1 (its attack then carries 2 stars)
    p = (Position(2).general(0, "Shield Mother", "e5").soldier(0, "infantry", "f5").soldier(1, "infantry", "g5")
         .turn(0))
    m = p.match()
    play(m, "skill Brace", "infantry at f5", "attack f5 infantry (+1 to its next attack with 2 stars) g5 infantry")
    assert units_at(m, "g5") == []
    # Brace as a defence: -1 damage; Last Stand: stop and strike back 1
    p = (Position(2).general(0, "Shield Mother", "e5").soldier(0, "infantry", "f5").soldier(1, "cavalry", "g5")
         .soldier(1, "cavalry", "g4").coins(2, 0).turn(1))
    inf = p.unit_at("f5")
    m = p.match()
    play(m, "attack g5 cavalry f5 infantry", "Brace")
    assert hp(m, inf) == 2
    m = p.match()
    play(m, "attack g5 cavalry f5 infantry", "Last Stand")
    assert hp(m, inf) == 2 and units_at(m, "g5") == []       # struck back: the cavalry dies


# ---- cavalry ---------------------------------------------------------------------------------------------------
def test_night_rider():
    m = Position(2).general(0, "Night Rider", "b5").turn(0).match()
    play(m, "move b5 Night Rider e5", "skill Second Wind", "move e5 Night Rider h5")
    m = (Position(2).general(0, "Night Rider", "e5").soldier(1, "archer", "f5").soldier(1, "archer", "g5")
         .turn(0).match())
    play(m, "skill Trample")                                 # kills f5, the splash kills g5
    assert units_at(m, "f5") == [] and units_at(m, "g5") == []
    p = (Position(2).general(0, "Night Rider", "e5").soldier(1, "infantry", "f5").soldier(1, "infantry", "g5")
         .coins(2, 0).turn(0))
    behind = p.unit_at("g5")
    m = p.match()
    play(m, "skill Shadow Raid", "pass")                     # 2 damage kills the infantry; P2 passes the block
    assert units_at(m, "f5") == [] and hp(m, behind) == 0 and where(m, behind) is None


def test_storm_lancer():
    m = Position(2).general(0, "Storm Lancer", "e5").soldier(1, "archer", "g5").turn(0).match()
    play(m, "skill Lance")                                   # 2 cells in a line
    assert units_at(m, "g5") == []
    # a fist skill is the general's attack (D24), and a cavalry general's attack that kills splashes
    # (D8): the infantry next in the line takes 1 (a rules audit: Lance had lost its splash)
    p = Position(2).general(0, "Storm Lancer", "e5").soldier(1, "archer", "g5").soldier(1, "infantry", "h5").turn(0)
    behind = p.unit_at("h5")
    m = p.match()
    play(m, "skill Lance", "pass")                           # (P2's infantry does not block for the archer)
    assert units_at(m, "g5") == [] and hp(m, behind) == 1
    assert not any(a.startswith("attack e5 Storm Lancer") for a in legal(m))    # (the skill was its attack)
    p = (Position(2).general(0, "Storm Lancer", "e5").soldier(0, "archer", "d5").soldier(1, "infantry", "f5")
         .soldier(1, "infantry", "c5").turn(1))
    m = p.match()
    play(m, "attack f5 infantry e5 Storm Lancer", "Evade")
    assert stopped(m)
    play(m, "attack c5 infantry d5 archer")                  # Evade protects only himself
    assert units_at(m, "d5") == []
    m = (Position(2).general(0, "Storm Lancer", "e5").soldier(0, "cavalry", "g5").coins(2, 0).turn(0).match())
    play(m, "move g5 cavalry f7")
    assert not any(a.startswith("move f7 cavalry") for a in legal(m))
    said = len(m.messages_for(1))
    play(m, "skill Thunder Charge")
    assert any(a.startswith("move f7 cavalry") for a in legal(m))
    # (a first hour: a cavalry's second move read as breaking D20, and the 2 coins went unsaid)
    assert m.messages_for(1)[said:] == ["P1: Storm Lancer uses Thunder Charge (2 coins)",
                                        "may move again: cavalry at f7"]


def test_ash_hound():
    m = (Position(2).general(0, "Ash Hound", "e5").soldier(0, "cavalry", "f5").soldier(1, "infantry", "g5")
         .turn(0).match())
    play(m, "skill Hunt", "attack f5 cavalry (+1 to its next attack with 1 star) g5 infantry")   # 2 damage
    assert units_at(m, "g5") == []
    p = (Position(2).general(0, "Ash Hound", "e5").soldier(0, "infantry", "f5").soldier(1, "archer", "g5")
         .turn(1))
    inf = p.unit_at("f5")
    m = p.match()
    play(m, "attack g5 archer f5 infantry", "Bite Back")     # not stopped, but struck back
    assert hp(m, inf) == 1 and units_at(m, "g5") == []
    m = Position(2).general(0, "Ash Hound", "e5").coins(2, 0).turn(0).match()
    play(m, "skill Pack Call")
    assert units_at(m, "d11") == ["cavalry"] and units_at(m, "f11") == ["cavalry"] and units_at(m, "h11") == ["cavalry"]


# ---- archers ---------------------------------------------------------------------------------------------------
def test_sky_arrow():
    p = (Position(2).general(0, "Sky Arrow", "e5").soldier(0, "archer", "f5").soldier(1, "infantry", "g5")
         .turn(1))
    m = p.match()
    play(m, "attack g5 infantry f5 archer", "Camouflage")
    assert stopped(m) and units_at(m, "f5") == ["archer"]
    m = (Position(2).general(0, "Sky Arrow", "e5").soldier(1, "archer", "f5").soldier(1, "archer", "h5")
         .soldier(1, "archer", "i5").turn(0).match())
    play(m, "skill Piercing Shot")                           # one direction has enemies: asked no question
    assert units_at(m, "f5") == [] and units_at(m, "h5") == [] and units_at(m, "i5") == ["archer"]
    m = (Position(2).general(0, "Sky Arrow", "e5").soldier(1, "archer", "g5").soldier(1, "archer", "c5")
         .soldier(1, "archer", "e7").coins(2, 0).turn(0).match())
    play(m, "skill Rain of Arrows")
    assert units_at(m, "g5") == [] and units_at(m, "c5") == [] and units_at(m, "e7") == ["archer"]


def test_moon_bow():
    m = Position(2).general(0, "Moon Bow", "a5").soldier(1, "archer", "f5").turn(0).match()
    play(m, "skill Long Shot")                               # 5 cells east
    assert units_at(m, "f5") == []
    m = (Position(2).general(0, "Moon Bow", "e5").soldier(0, "archer", "f5").soldier(1, "infantry", "g5")
         .turn(0).match())
    play(m, "skill Volley", "attack f5 archer (+1 to its next attack with 2 stars) g5 infantry")
    assert units_at(m, "g5") == []
    p = (Position(2).general(0, "Moon Bow", "b5").soldier(0, "archer", "e5").soldier(1, "infantry", "f5")
         .coins(2, 0).turn(1))
    m = p.match()
    play(m, "attack f5 infantry e5 archer", "Moonlight")     # 3 away
    assert stopped(m) and var(m, "coins") == [0, 0]


def test_hawk_eye():
    m = Position(2).general(0, "Hawk Eye", "e5").turn(0).match()
    play(m, "skill Spotter")
    assert len(m.state()["zones"]["hand"][0]) == 1
    p = Position(2).general(0, "Hawk Eye", "e5").soldier(1, "infantry", "h5").turn(0)
    m = p.match()
    play(m, "skill Aimed Shot")
    assert units_at(m, "h5") == []
    m = (Position(2).general(0, "Hawk Eye", "a5").soldier(1, "infantry", "e5").coins(2, 0).turn(0).match())
    play(m, "skill Hawk Dive")                               # 2 damage, 4 away
    assert units_at(m, "e5") == []
    p = (Position(2).general(0, "Hawk Eye", "b5").soldier(0, "archer", "e5").soldier(1, "infantry", "f5")
         .coins(2, 0).turn(1))
    m = p.match()
    play(m, "attack f5 infantry e5 archer", "Hawk Dive")     # as a defence, 3 away
    assert stopped(m)


# ---- alchemists ------------------------------------------------------------------------------------------------
def test_gold_maker():
    m = Position(2).general(0, "Gold Maker", "e5").turn(0).match()
    play(m, "skill Transmute")
    assert var(m, "coins") == [1, 0]
    p = (Position(2).general(0, "Gold Maker", "e5").soldier(0, "archer", "g5").soldier(1, "infantry", "h5")
         .turn(1))
    m = p.match()
    play(m, "attack h5 infantry g5 archer", "Golden Shield")
    assert stopped(m)
    m = Position(2).general(0, "Gold Maker", "e5").coins(2, 0).turn(0).match()
    play(m, "skill Midas Touch")
    assert len(m.state()["zones"]["hand"][0]) == 3 and var(m, "coins") == [0, 0]


def test_fire_powder():
    m = Position(2).general(0, "Fire Powder", "e5").soldier(1, "archer", "g5").turn(0).match()
    play(m, "skill Fire Flask")
    assert units_at(m, "g5") == []
    p = (Position(2).general(0, "Fire Powder", "e5").soldier(0, "infantry", "g5").soldier(1, "infantry", "h5")
         .turn(1))
    inf = p.unit_at("g5")
    m = p.match()
    play(m, "attack h5 infantry g5 infantry", "Smoke")
    assert hp(m, inf) == 2
    p = (Position(2).general(0, "Fire Powder", "e5").general(1, "Iron Warden", "g5")
         .soldier(1, "archer", "g5", n=2).coins(2, 0).turn(0))
    warden = p.unit_at("g5", "Iron Warden")
    m = p.match()
    play(m, "skill Explosion", "P2 Iron Warden at g5")
    if m.question:                                           # P2 may put an archer... no: only infantry block
        play(m, "pass")
    assert hp(m, warden) == 1 and units_at(m, "g5") == ["Iron Warden"]


def test_quicksilver():
    p = Position(2).general(0, "Quicksilver", "e5").general(0, "Iron Warden", "f5", hp=1).turn(0)
    warden = p.unit_at("f5")
    m = p.match()
    play(m, "skill Elixir")
    assert hp(m, warden) == 3
    p = (Position(2).general(0, "Quicksilver", "e5").soldier(1, "archer", "f5").turn(1))
    qs = p.unit_at("e5")
    m = p.match()
    play(m, "attack f5 archer e5 Quicksilver", "Mirror")
    assert stopped(m) and hp(m, qs) == 3 and units_at(m, "f5") == []
    m = (Position(2).general(0, "Quicksilver", "e5").general(0, "Iron Warden", None).coins(2, 0).turn(0).match())
    play(m, "skill Philosopher's Stone")
    assert "Iron Warden" in units_at(m, "d11") + units_at(m, "f11") + units_at(m, "h11") or m.question


def test_attack_skills_with_nothing_to_act_on_are_not_offered():
    """A rules audit: Thunder Charge (no cavalry near had moved) and Pack Call (every castle full)
    were paid for and did nothing; Hunt and Volley boosted a unit that had attacked already."""
    def refused(m, skill):
        return f"skill {skill}" not in legal(m) and f"{skill}: nothing for it to act on now" in m.refusal(f"skill {skill}")
    m = Position(2).general(0, "Storm Lancer", "e6").soldier(0, "cavalry", "e5").coins(2, 0).turn(0).match()
    assert refused(m, "Thunder Charge")
    play(m, "move e5 cavalry f5")                       # moved, not attacked: it may move again
    play(m, "skill Thunder Charge")
    assert "move f5 cavalry e5" in legal(m) and var(m, "coins")[0] == 0
    m = Position(2).general(0, "Ash Hound", "e6").soldier(0, "cavalry", "e5").soldier(1, "infantry", "e4").turn(0).match()
    assert "skill Hunt" in legal(m)
    play(m, "attack e5 cavalry e4 infantry")
    assert refused(m, "Hunt")
    m = Position(2).general(0, "Moon Bow", "e6").soldier(0, "archer", "e5").soldier(1, "infantry", "e4").turn(0).match()
    assert "skill Volley" in legal(m)
    play(m, "attack e5 archer e4 infantry")
    assert refused(m, "Volley")
    full = (Position(2).general(0, "Ash Hound", "e6").soldier(0, "infantry", "d11", n=5)
            .soldier(0, "cavalry", "f11", n=5).soldier(0, "archer", "h11", n=4).coins(2, 0).turn(0))
    m = full.match()
    assert "skill Pack Call" in legal(m)                # one castle has room
    play(m, "skill Pack Call")
    assert len(units_at(m, "h11")) == 5 and var(m, "coins")[0] == 0
    m = (Position(2).general(0, "Ash Hound", "e6").soldier(0, "infantry", "d11", n=5)
         .soldier(0, "cavalry", "f11", n=5).soldier(0, "archer", "h11", n=5).coins(2, 0).turn(0).match())
    assert refused(m, "Pack Call")


def test_a_target_choice_tells_a_hurt_unit_from_a_whole_one_of_its_kind():
    """A rules audit: two P2 infantry on f5, one hurt, read `P2 infantry at f5` and `P2 infantry at f5 #2` in
    every target choice (Shield Bash, Bomb, the charge…): the attacker could not tell which the blow kills."""
    p = (Position(2).general(0, "Iron Warden", "e5").soldier(1, "infantry", "f5").soldier(1, "infantry", "f5", hp=1)
         .hand(0, "Bomb").turn(0))
    for move in ("skill Shield Bash", "equip Bomb"):
        m = p.match()
        play(m, move)
        assert sorted(m.question["options"]) == ["P2 infantry at f5", "P2 infantry at f5 (1 health left)"], move
        assert hp(m, m.option_components(0)["P2 infantry at f5 (1 health left)"]) == 1
