"""A window answered first (`order first`) at a networked table: every seat asked is offered the
question at once, and the first answer the server receives is the one that counts."""
from __future__ import annotations

import asyncio

from .conftest import ROOT
from .test_server import connect, make


def test_the_first_answer_received_takes_the_right_to_respond(serve):
    server = serve([ROOT / "tests" / "games" / "harbour.rules"], include_shipped=False)
    body = make(server, "harbour", ["human"] * 3, seed=2)
    served = server.server.matches[body["id"]]

    async def race():
        seats = [await connect(link["url"]) for link in body["links"]]
        await seats[0].act("smuggle")
        for s in seats[1:]:
            await s.until(lambda m: m["type"] == "state" and m["version"] == 1)
        # P2 is asked (seat order), P3 may answer the same question out of turn; P1 neither
        assert [a["text"] for a in seats[1].state["actions"]] == ["challenge", "pass"]
        assert [a["text"] for a in seats[2].state["out_of_turn"]] == ["P3: challenge", "P3: pass"]
        assert seats[2].state["actions"] == [] and seats[0].state["out_of_turn"] == []
        await seats[2].act("P3: challenge")                 # P3's answer arrives first
        await seats[2].until(lambda m: m["type"] == "state" and m["version"] == 2)
        await seats[1].act("challenge", version=1)          # P2's, sent on the question it saw, comes second
        assert (await seats[1].until(lambda m: m["type"] == "error"))["message"]
        lives = served.match.state()["vars"]["lives"]
        assert served.match.log == ["smuggle", "P3: challenge"] and lives[1] == 2 and sorted(lives) == [1, 2, 2]
    asyncio.run(race())
