"""Who may see a zone's components and who may count them: the one place the visibilities are read.

`public`: everyone; `hidden`: nobody (its size is seen); `owner`: its owner (the others see its size);
`others`: every player but its owner (its owner sees its size: the hand of a game where you see
every hand but your own). A zone marked `uncounted` hides its size too from whoever cannot see
what is in it."""
from __future__ import annotations


def sees(vis: str, owner: int | None, player: int) -> bool:
    """May `player` see the components of a zone of this visibility owned by `owner` (None: no owner)?"""
    if vis == "public":
        return True
    if vis == "owner":
        return owner == player
    if vis == "others":
        return owner is not None and owner != player
    return False


def counts(z: dict, owner: int | None, player: int) -> bool:
    """May `player` know how many components the zone holds?"""
    return not z.get("uncounted") or sees(z["visibility"], owner, player)


def has_others(game) -> bool:
    """Does the game have a zone seen by everyone but its owner? (Then an action or a choice names
    a component its chooser cannot see by its place, not by its label: codegen.effects.slot_text.)"""
    found = game.__dict__.get("_has_others")
    if found is None:
        found = game._has_others = any(z["visibility"] == "others" for z in game.ir["zones"])
    return found


def has_secrets(game) -> bool:
    """Does the game have a zone some player cannot see into (hidden, owner, others, a pile that
    shows only its top)? Then a choice's options that are components are checked one by one: one
    its chooser cannot see is named by its place (codegen.effects._options)."""
    found = game.__dict__.get("_has_secrets")
    if found is None:
        found = game._has_secrets = any(z["visibility"] != "public" or z.get("top") for z in game.ir["zones"])
    return found
