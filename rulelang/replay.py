"""Replaying a saved match: the same rules, seed and actions must give the same position.

A save file (`save FILE` in the REPL) holds the seed, the options and the state, whose log is
every action taken. Replaying it from a new match shows the game move by move and proves the
save is what those moves give — the determinism the engine promises, checked on real games.
"""
from __future__ import annotations

import json

import rulelang
from rulelang.closures import player_text
from rulelang.errors import IllegalAction, StateError


def read(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except OSError as error:
        raise StateError(f"cannot read {path}: {error.strerror}") from None
    except (ValueError, UnicodeDecodeError):
        raise StateError(f"{path} is not a rulelang save file") from None
    state = data.get("state") if isinstance(data, dict) else None
    if not (isinstance(state, dict) and isinstance(state.get("log"), list) and isinstance(data.get("seed"), int)
            and isinstance(data.get("players"), int) and isinstance(data.get("options"), dict)):
        raise StateError(f"{path} is not a rulelang save file")
    return data


def replay(data: dict, rules: str | None = None, out=print) -> bool:
    """Replay a save's actions on a new match; True when the saved position is reproduced."""
    path = rules or data.get("game")
    if not path:
        raise StateError("the save does not say which rule file it is for: give it with --rules")
    game = rulelang.load(path)
    match = game.new_match(data["players"], data["seed"], data["options"])
    out(f"{game.name}: {data['players']} players, seed {data['seed']}")
    for n, text in enumerate(data["state"]["log"], 1):
        actor = match.current_player
        try:
            match.apply(text)
        except IllegalAction:
            out(f"action {n}, `{text}`, is not legal at that point: the save does not come from these rules")
            return False
        out(f"{n:>4}. {player_text(actor)}: {text}")
    if match.is_over:
        out("outcome: " + ", ".join(f"{player_text(p)} {r}" for p, r in enumerate(match.outcome["results"])))
    if match.state() != data["state"]:
        out("the replayed position differs from the saved one")
        return False
    out(f"replayed {len(data['state']['log'])} actions: the saved position is reproduced exactly")
    return True
