"""The small records the engine keeps in a match (and a window's options), declared once with
named fields.

Each is a `typing.NamedTuple`: a tuple still (equal to, and hashed like, the plain tuple of its
fields; indexed and unpacked as before), so saves, clones, the replay check and the universe's
keys treat it as they treated the tuple it replaces, and a reader names the field it wants.
`state()` writes those it saves as the JSON it always wrote (saves.py): the format is unchanged.
Records the generated code builds or reads stay plain tuples (docs/engine.md, "Records")."""
from __future__ import annotations

from typing import Any, NamedTuple


class Trigger(NamedTuple):
    """A triggered ability waiting for the effect running now to end (`Match.trig`)."""
    proc: Any                   # the ability's compiled procedure
    args: tuple                 # its arguments (its card first, when it has one)
    controller: int             # the seat it runs for (`me`)
    source: int | None          # its card, or None for the rules' own trigger
    label: str                  # how a player is shown it ("Card: on event")
    shows: tuple = ()           # how its event's arguments read (comp/player/plain: `event_shows`)


class Cut(NamedTuple):
    """Where a determinized copy's replay leaves the real world (`Match.cuts`, see `sampler`)."""
    at: int                     # the question (index among the answers) it is made at
    mapping: dict               # real component -> the unseen one the copy deals in its place
    seen: set                   # the components the copy's player saw: they alone stay `known`
    seed: int                   # the copy's own generator from there on


class Grant(NamedTuple):
    """A timed modifier (`modify D(args) += E until turn_end`) kept until the turn ends (`Match.grants`)."""
    def_index: int              # the def it adds to (index in the IR's defs)
    args: list                  # the def's arguments it applies to
    amount: int                 # what it adds


class Revealed(NamedTuple):
    """Where a component was revealed and to whom (`Match.known`): known while it stays there."""
    zone: list                  # [zone name, owner seat or None]
    to: list | str              # the seats it was shown to, or "all"


class Created(NamedTuple):
    """How one component was created (`Match.created`, beside the bulk creations, `Batch`)."""
    kind: str
    row: Any                    # its field values, in column order
    label: str
    origin: tuple | None        # (zone slot, index in its family or None) it was made in


class Checkpoint(NamedTuple):
    """What a failed action is rebuilt from (`Match.ckpt`), and in a game that may pause the
    position before an action, when it is needed (pausing.Rebuilt)."""
    base: Any                   # a copy of an earlier position, or (SETUP, tape): the match new_match made
    played: int                 # the log's length then: the actions after it are replayed (a game
                                # that may pause replays `Match.inputs` instead)


class OpenDecision(NamedTuple):
    """A simultaneous decision open now (`Match.simul`, simultaneous.py): kept apart from the log."""
    step: str
    seats: tuple                # the seats asked, in order (ints)
    answers: tuple              # each seat's committed answer (an action's text), or None


class Response(NamedTuple):
    """A response a player may give in a window (effects._responses): what runs if they choose it."""
    ability: Any                # the response's entry (its procedure, arity, label)
    args: tuple                 # its arguments (the card first, for a card's response)
    card: int | None            # the card whose response it is, or None for the player's own
