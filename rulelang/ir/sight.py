"""Which action parameters may hold a card their actor cannot see, read from the IR alone.

An action whose parameters may hold such a card has its texts made with that card named by its
place (`hand slot 2`) at each listing; the others keep their labels and the engine's interned
texts. The code generator asks this of each action, and the interop adapters of the whole game
(a text action space needs labels)."""
from __future__ import annotations

import json

_ME = {"k": "builtin", "n": "me"}


def surely_seen(ir: dict, e: dict, env: dict | None = None, depth: int = 0, memo: dict | None = None) -> bool:
    """Does the domain `e` of an action's parameter yield only components its actor sees, wherever
    they lie? Decided from the rules alone, and only for what is plainly so: a public zone (not one
    showing only its top), the actor's own `owner` zone (`hand[me]`), a filter of such a list, two
    such lists joined (the players too), or a def whose body is one (its parameters read as its
    call gives them). Anything else (a hidden zone, another player's hand, a variable holding
    components) may name a card the actor cannot see. `env`: a def's parameters -> the
    expressions its call passed. `memo`: each def's answer for the arguments it was given (a def
    summing 12 calls of the next, 7 deep, was 35 million calls)."""
    env = env or {}
    memo = {} if memo is None else memo
    k = e.get("k")
    if k == "zone":
        z = next((z for z in ir["zones"] if z["name"] == e["n"]), None)
        if z is None:
            return False
        if z["visibility"] == "public":
            return not z.get("top")
        index = e.get("i")
        if isinstance(index, dict) and index.get("k") == "local":
            index = env.get(index["n"], index)
        return z["visibility"] == "owner" and index == _ME
    if k == "builtin" and e.get("n") in ("players", "others"):      # (players, not cards)
        return True
    if k == "bin" and e.get("op") == "+":
        return surely_seen(ir, e["l"], env, depth, memo) and surely_seen(ir, e["r"], env, depth, memo)
    if k == "comp":                            # [x for x in L where …]: what L holds
        loop = {"k": "local", "n": e.get("v")}
        if e.get("x") == {"k": "bin", "op": "-", "l": {"k": "lit", "v": -1}, "r": loop}:
            # (-1 - p: the players of a union `Card or player`, over the players)
            return e["in"] in ({"k": "builtin", "n": "players"}, {"k": "builtin", "n": "others"})
        return e.get("x") == loop and surely_seen(ir, e["in"], env, depth, memo)
    if k == "def" and depth < 8:
        d = ir["defs"].get(e["n"])
        if d is None:
            return False
        args = e.get("a") or []
        inner = {name: (env.get(a["n"], a) if a.get("k") == "local" else a)
                 for name, a in zip(d["params"] or [], args)}
        key = (e["n"], depth, json.dumps(inner, sort_keys=True, default=str))
        if key not in memo:
            memo[key] = surely_seen(ir, d["body"], inner, depth + 1, memo)
        return memo[key]
    return False


def names_by_place(ir: dict, action: dict) -> bool:
    """Is a card this action may take as an argument named by its place (`hand slot 2`) when its
    actor cannot see it? Where the game has `others` zones, for every action with a component
    parameter; elsewhere for those whose parameters may hold a card the actor cannot see
    (`surely_seen`). Such an action's texts are made afresh at each listing."""
    comps = [p for p in action["params"] if p.get("show") in ("comp", "comp_or_player")]
    if not comps:
        return False
    if any(z["visibility"] == "others" for z in ir["zones"]):
        return True
    return not all(surely_seen(ir, p["domain"]) for p in comps)
