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


# What a value may be made of and still tell nobody anything: the position's public parts, the
# options, literals, and who is asking. Anything not listed (a hidden zone's cards, a secret
# variable, a roll, a builtin not named here) makes a value that may carry a secret.
_PLAIN_KINDS = frozenset({"lit", "option", "bin", "un", "if", "text", "list", "range", "flat", "local",
                          "comp", "attr"})
_PUBLIC_BUILTINS = frozenset({"me", "players", "others", "current", "player_count", "round_count",
                              "turn_count"})
_PURE_CALLS = frozenset({"rows", "cols", "max", "min", "abs", "sum", "all", "any", "first", "last",
                         "size", "count", "empty"})
_MEASURES = frozenset({"size", "count", "empty"})


def surely_public(ir: dict, e, depth: int = 0) -> bool:
    """Is `e` made only of what every player may know (public zones and variables, the sizes of
    counted zones, options, literals, `me`)? Then two players whose values differ only by it (a
    `show "You play" = if me == 0 then "light" else "dark"`) can each work out the other's value: a
    shared terminal need not be handed over for it. Decided for what is plainly so; anything else
    counts as possibly secret."""
    if isinstance(e, list):
        return all(surely_public(ir, x, depth) for x in e)
    if not isinstance(e, dict):
        return True
    k = e.get("k")
    if k is None:                               # (an inner record: a comprehension's parts)
        return all(surely_public(ir, v, depth) for v in e.values())
    if k == "builtin":
        return e.get("n") in _PUBLIC_BUILTINS
    if k == "var":                              # (a public variable holding a component may point at
        var = next((v for v in ir["vars"] if v["name"] == e.get("n")), None)     # one that lies hidden:
        return (var is not None and var.get("visibility") == "public"      # its fields and label are no
                and "comp" not in str(var.get("type", "")).split(":")          # public thing — a leak scan)
                and surely_public(ir, e.get("i"), depth))
    if k == "zone":
        z = next((z for z in ir["zones"] if z["name"] == e.get("n")), None)
        return (z is not None and z["visibility"] == "public" and not z.get("top")
                and surely_public(ir, e.get("i"), depth))
    if k == "call":
        f, args = e.get("f"), e.get("a") or []
        if f not in _PURE_CALLS:
            return False
        if f in _MEASURES and args and isinstance(args[0], dict) and args[0].get("k") == "zone":
            z = next((z for z in ir["zones"] if z["name"] == args[0].get("n")), None)
            return (z is not None and not z.get("uncounted") and surely_public(ir, args[0].get("i"), depth)
                    and surely_public(ir, args[1:], depth))
        return surely_public(ir, args, depth)
    if k == "def":
        d = ir["defs"].get(e.get("n"))
        return (d is not None and depth < 8 and surely_public(ir, e.get("a"), depth)
                and surely_public(ir, d["body"], depth + 1))
    if k not in _PLAIN_KINDS:
        return False
    return all(surely_public(ir, v, depth) for key, v in e.items() if key != "k" and isinstance(v, (dict, list)))
