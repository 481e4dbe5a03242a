"""Extra minions granted by a card go where the rules let a minion go, and come from where they may
(an audit: Disguise offered a minion Block the Path or Overrun keeps off its base, and picking it
spent the extra play in silence; Disguise and Hidden Ninja ignored They're Coming to Get You)."""
from __future__ import annotations

from test_bases import Position, answer, labels, legal, options, zone


def test_disguise_offers_no_minion_block_the_path_keeps_off_that_base():
    pos = (Position(factions="ninjas+aliens,tricksters+dinosaurs").bases("Jungle Oasis", "Tar Pits", "Tortuga")
           .minions(0, "Jungle Oasis", "Ninja Acolyte"))
    bp = pos.action_on_base("Block the Path", 1, "Jungle Oasis")
    pos.st["vars"]["named"][bp] = "aliens"
    pos.hand(0, "Disguise", "Invader", "Shinobi")
    m = pos.match()
    assert "play Invader on Tar Pits" in legal(m)      # (Invader may go elsewhere)
    answer(m, "act Disguise")
    assert m.question["prompt"] == "play an extra minion" and options(m) == ["Shinobi", "pass"]
    answer(m, "Shinobi")
    assert zone(m, "hand", 0) == ["Invader", "Ninja Acolyte"]


def test_disguise_offers_only_pass_under_another_players_overrun():
    pos = (Position(factions="ninjas+aliens,zombies+dinosaurs").bases("Jungle Oasis", "Tar Pits", "Tortuga")
           .minions(0, "Jungle Oasis", "Ninja Acolyte"))
    pos.action_on_base("Overrun", 1, "Jungle Oasis")
    pos.hand(0, "Disguise", "Invader")
    m = pos.match()
    answer(m, "act Disguise")
    assert options(m) == ["pass"]


def test_disguise_plays_from_the_discard_pile_onto_its_players_theyre_coming_to_get_you():
    pos = (Position(factions="ninjas+zombies,aliens+dinosaurs").bases("Jungle Oasis", "Tar Pits", "Tortuga")
           .minions(0, "Jungle Oasis", "Ninja Acolyte"))
    pos.action_on_base("They're Coming to Get You", 0, "Jungle Oasis")
    pos.hand(0, "Disguise").discard(0, "Walker", "Grave Digger")
    m = pos.match()
    answer(m, "act Disguise")
    assert options(m) == ["Walker (discard pile)", "Grave Digger (discard pile)", "pass"]
    answer(m, "Walker (discard pile)")
    assert "Walker" in labels(m, m.state()["zones"]["field"]) and "Walker" not in zone(m, "discard", 0)


def test_hidden_ninja_in_its_players_turn_plays_from_the_discard_pile_onto_theyre_coming_to_get_you():
    pos = (Position(factions="ninjas+zombies,aliens+dinosaurs").bases("Jungle Oasis", "Tar Pits", "Tortuga")
           .minions(0, "Jungle Oasis", "Ninja Master").minions(1, "Jungle Oasis", "King Rex"))
    pos.action_on_base("They're Coming to Get You", 0, "Jungle Oasis")
    pos.hand(0, "Hidden Ninja").discard(0, "Walker")
    m = pos.match()
    answer(m, "done")
    assert options(m) == ["Hidden Ninja", "pass"]
    answer(m, "Hidden Ninja")
    assert options(m) == ["Walker (discard pile)"]
