"""A leak scan over whole random games of the four shipped games with hidden information (Regicide,
Smash Up, Shadow Hunters, Dozen War), played through every seat's websocket: every message each seat
and the spectator receive is scanned for components that reader cannot see —

- names: the label of any component the reader has never been able to see (nor any of that name),
  unless the engine's own words to that reader name it (`log_for`: the moves played are public, so
  "equip <card>" tells everyone that card; `messages_for`);
- ids: every component the message names (in the zones, a zone's `of`, the components' values, the
  components an action involves) must be one the engine lets the reader see now (`visible_to`, and
  what `view` itself shows; for the spectator: what anyone at the table may see, `visible_to_all`);
- counts: a zone the rules keep `internal` (not even its count is shown) never appears.

The seats play at random (a seeded choice among the actions their page lists, now and then one of
their out-of-turn actions), so the readers' positions and the engine's are the same when scanned."""
from __future__ import annotations

import asyncio
import json
import random

import pytest

from .conftest import ROOT, without_card_names
from .test_server import connect, make

GAMES = ROOT / "games"
pytestmark = pytest.mark.slow


def _ids_in_view(view: dict) -> set:
    ids = set()
    for z in view["zones"]:
        for c in (z.get("cards") or []) + (z.get("known") or []):
            ids.add(c["id"])
        if z.get("of") and z["of"].get("id") is not None:
            ids.add(z["of"]["id"])
    return ids


def _around(raw: str, word: str) -> str:
    at = raw.index(word)
    return raw[max(0, at - 300):at + 100]


def named_ids(msg: dict) -> set:
    """The component ids a state message names."""
    if msg.get("type") != "state":
        return set()
    view = msg["view"]
    ids = _ids_in_view(view) | {int(k) for k in view.get("component_values", {})}
    for a in msg["actions"] + msg["out_of_turn"]:
        ids.update(a["comps"])
    ids.update(cid for _, cid in msg.get("names", []))      # (the card names the page makes tips of)
    return ids


@pytest.mark.parametrize("game, players, seed", [("regicide", 2, 21), ("smash_up", 2, 34),
                                                 ("shadow_hunters", 4, 23), ("dozen_war", 2, 39)])
def test_no_message_tells_a_reader_of_a_component_it_cannot_see(serve, game, players, seed):
    server = serve([GAMES / f"{game}.rules"], include_shipped=False)
    body = make(server, game, ["human"] * players, seed=seed)
    served = server.server.matches[body["id"]]
    server.server.rate = server.server.burst = 10 ** 6      # random seats play faster than people
    match = served.match
    internal = {z["name"] for z in match.game.ir["zones"] if z.get("internal")}
    comps = match.state()["components"]
    labels = {c: comps[c]["label"] for c in range(len(comps))}
    everything = set(labels.values())
    # the rules text of every component is the rulebook, public to all ("If you are Allie, Bob, …"):
    # it is taken out of a message before the names in it are looked for (as JSON writes it)
    # and so is an enum value's (a faction offered to draft: "… Invader ×2, Scout ×3 …", its cards)
    texts = {t for c in range(len(comps)) for p in range(players) if (t := match.rules_text(c, p))}
    texts |= {v["about"] for values in (match.game.ir.get("enums") or {}).values() for v in values
              if isinstance(v, dict) and v.get("about")}
    rulebook = sorted({json.dumps(t, ensure_ascii=ascii)[1:-1] for t in texts for ascii in (True, False)},
                      key=len, reverse=True)

    async def play():
        readers = [await connect(link["url"]) for link in body["links"]] + [await connect(body["spectator"]["url"])]
        for r in readers:                       # (the server's limit is lifted: a seat need not wait for it)
            r.rate = r.burst = r.allowance = 10 ** 6
        ever = [set() for _ in range(players + 1)]       # the labels each reader has been able to see
        scanned = [0] * (players + 1)
        rng = random.Random(seed)
        messages = 0

        def words(r) -> str:
            if r < players:
                return "\n".join(match.log_for(r) + match.messages_for(r))
            return "\n".join(match.log_for(None) + [x["text"] for x in match.message_log() if x["to"] is None])

        def scan():
            nonlocal messages
            now = [match.visible_to(p) for p in range(players)]
            public = match.visible_to_all()
            for r, reader in enumerate(readers):
                allowed = now[r] | _ids_in_view(match.view(r)) if r < players else public
                ever[r] |= {labels[c] for c in allowed}
                said = words(r)
                ever[r] |= {label for label in everything - ever[r] if label in said}
                hidden = everything - ever[r]
                who = f"P{r + 1}" if r < players else "the spectator"
                for raw in reader.raw[scanned[r]:]:
                    raw = without_card_names(raw)
                    msg = json.loads(raw)
                    messages += 1
                    assert not named_ids(msg) - allowed, f"{who} was sent ids {named_ids(msg) - allowed}"
                    text = raw
                    for passage in rulebook:
                        if passage in text:
                            text = text.replace(passage, "\0")
                    leaked = sorted(label for label in hidden if label in text)
                    if leaked:                           # a hidden name inside a known one ("Smoke Bomb")
                        rest = text
                        for label in sorted(ever[r], key=len, reverse=True):
                            rest = rest.replace(label, "\0")
                        leaked = sorted(label for label in leaked if label in rest)
                    assert not leaked, f"{who} was sent the names {leaked}: {_around(raw, leaked[0])}"
                    if msg["type"] == "state":
                        zones = {z["name"] for z in msg["view"]["zones"]}
                        assert not zones & internal, f"{who} was sent internal zones {zones & internal}"
                scanned[r] = len(reader.raw)

        scan()
        for _ in range(1500):
            if match.is_over:
                break
            seats = readers[:players]
            acting = next(i for i, s in enumerate(seats) if s.state["actions"])
            out = [i for i, s in enumerate(seats) if s.state["out_of_turn"]]
            if out and rng.random() < 0.03:
                i = rng.choice(out)
                text = rng.choice(seats[i].state["out_of_turn"])["text"]
            else:
                i, text = acting, rng.choice(seats[acting].state["actions"])["text"]
            await seats[i].act(text)
            version = seats[i].state["version"] + 1
            answer = await seats[i].until(lambda m: m["type"] == "error" or m["version"] == version)
            assert answer["type"] == "state", f"P{i + 1} `{text}`: {answer['message']}"
            for s in readers:
                if s.state["version"] != version:
                    await s.until(lambda m: m["type"] == "state" and m["version"] == version)
            scan()
        assert match.is_over, "the random game did not end"
        assert messages >= (players + 1) * len(match.log)
    asyncio.run(play())
