"""Undo in a served match, over real websockets: a seat asks to take back its last decision (and
everything played since), every other person's seat must accept (bots accept), and no undo goes
back past chance or hidden information a person saw — the terminal's rules (play/repl.py)."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

from .conftest import ROOT, SMALL, get
from .test_server import connect, make

DICE = Path(__file__).resolve().parent / "dice.rules"
VALGARD = ROOT / "games" / "valgard.rules"


async def state_at(seats, version):
    for s in seats:
        if s.state["version"] != version:
            await s.until(lambda m: m["type"] == "state" and m["version"] == version)


async def ask(seat, kind="undo", **more):
    await seat.ws.send(json.dumps({"type": kind, "version": seat.state["version"], **more}))


async def said(seat) -> str:
    return (await seat.until(lambda m: m["type"] == "error"))["message"]


def test_an_undo_asks_the_other_person_and_is_done_only_when_accepted(serve, tmp_path):
    store = tmp_path / "s.sqlite"
    server = serve([DICE], store=store, include_shipped=False)
    body = make(server, "dice", ["human", "human"], seed=3)
    served = server.server.matches[body["id"]]

    async def play():
        p1, p2 = [await connect(link["url"]) for link in body["links"]]
        watcher = await connect(body["spectator"]["url"])
        everyone = [p1, p2, watcher]
        assert p1.state["can_undo"] is False and p1.state["undo_why"] == "you have no move to undo"
        await p1.act("step")
        await state_at(everyone, 1)
        await p2.act("step")
        await state_at(everyone, 2)
        assert p1.state["can_undo"] and p2.state["can_undo"]
        assert watcher.state["can_undo"] is False

        await ask(p1)                                   # P1 asks: P2 is asked, nothing changes yet
        await state_at(everyone, 2)
        await p2.until(lambda m: m["type"] == "state" and m["undo"])
        assert p2.state["undo"] == {"by": "P1", "mine": False, "move": "step", "waiting": ["P2"], "to_answer": True,
                                    "hides": []}
        await p1.until(lambda m: m["type"] == "state" and m["undo"])
        assert p1.state["undo"]["mine"] and not p1.state["undo"]["to_answer"]
        assert served.match.log == ["step", "step"]
        await p1.act("step")                            # no move while it is asked
        assert await said(p1) == "P1 has asked to undo their last move: that is answered first"
        await ask(p2)
        assert await said(p2) == "P1 has already asked to undo: answer that first"
        await ask(p1, "answer_undo", accept=True)
        assert await said(p1) == "you asked for it: the others answer"
        await ask(watcher, "answer_undo", accept=True)
        assert await said(watcher) == "a spectator cannot ask or answer an undo"

        await ask(p2, "answer_undo", accept=False)      # declined: the match as it was
        await p1.until(lambda m: m["type"] == "state" and m["undo"] is None)
        assert p1.state["notice"] == "P2 declined to undo your move"        # (each reads their own as `you`)
        await p2.until(lambda m: m["type"] == "state" and m["undo"] is None)
        assert p2.state["notice"] == "you declined to undo P1's move"
        assert served.match.log == ["step", "step"] and served.version == 2

        await ask(p1)
        await p2.until(lambda m: m["type"] == "state" and m["undo"])
        await ask(p2, "answer_undo", accept=True)       # accepted: back to before P1's last move
        await state_at(everyone, 3)
        assert served.match.log == [] and served.applied == 0
        for s, notice in zip(everyone, ["your last move was undone", "P1's last move was undone", "P1's last move was undone"]):
            assert s.state["undo"] is None and s.state["notice"] == notice + " (2 actions taken back)"
            assert s.state["log"] == []
        assert p1.state["actions"] and p2.state["actions"] == []
        await p1.act("step")                            # play on from there
        await state_at(everyone, 4)
        assert served.match.log == ["step"]
        for s in everyone:
            await s.ws.close()
    asyncio.run(play())

    saved = server.server.store.get(body["id"])         # the store forgot the undone moves
    assert saved["actions"] == ["step"] and saved["version"] == 4
    server.stop()
    again = serve([DICE], store=store, include_shipped=False)
    code, raw = get(body["links"][1]["url"].replace(server.url, again.url).replace("/play/", "/api/play/"))
    after = json.loads(raw)
    assert code == 200 and after["version"] == 4 and after["log"] == ["P1: step"] and after["can_undo"] is False


def test_no_undo_past_chance(serve):
    server = serve([DICE], include_shipped=False)
    body = make(server, "dice", ["human", "human"], seed=3)
    served = server.server.matches[body["id"]]

    async def play():
        p1, p2 = [await connect(link["url"]) for link in body["links"]]
        await p1.act("step")
        await state_at([p1, p2], 1)
        await p2.act("roll")                            # P2's roll: P1's step is no longer undoable either
        await state_at([p1, p2], 2)
        why = "cannot undo: since your last move a die was rolled, and undoing would let it be played again knowing it"
        assert (p1.state["can_undo"], p1.state["undo_why"]) == (False, why)
        assert (p2.state["can_undo"], p2.state["undo_why"]) == (False, why)
        await ask(p1)
        assert await said(p1) == why
        assert served.undo is None and served.match.log == ["step", "roll"]
    asyncio.run(play())


def test_no_undo_past_a_card_another_seat_showed_a_person(serve):
    """Showing one's own card does not stop its chooser's undo (the others saw it and must accept:
    only the chooser loses), as at the terminal; a card another seat showed since does."""
    server = serve([SMALL], include_shipped=False)
    body = make(server, "small", ["human", "human"], seed=5)
    served = server.server.matches[body["id"]]

    async def play():
        seats = [await connect(link["url"]) for link in body["links"]]
        first = served.match.current_player
        second = 1 - first
        await seats[first].act(seats[first].state["actions"][0]["text"])     # a card from a hidden hand
        await state_at(seats, 1)
        assert seats[first].state["can_undo"] and seats[first].state["undo_why"] is None
        await seats[second].act(seats[second].state["actions"][0]["text"])   # shows the first a card
        await state_at(seats, 2)
        why = ("cannot undo: since your last move you have seen a card that was hidden from you, "
               "and undoing would let it be played again knowing it")
        assert seats[first].state["undo_why"] == why
        await ask(seats[first])
        assert await said(seats[first]) == why
        chooser = served.match.current_player            # the trick's winner: "take a bonus point?"
        assert [a["text"] for a in seats[chooser].state["actions"]] == ["yes", "no"]
        await seats[chooser].act("yes")
        await state_at(seats, 3)
        assert seats[chooser].state["can_undo"], seats[chooser].state["undo_why"]
        await ask(seats[chooser])
        other = 1 - chooser
        await seats[other].until(lambda m: m["type"] == "state" and m["undo"])
        await ask(seats[other], "answer_undo", accept=True)
        await state_at(seats, 4)
        assert len(served.match.log) == 2 and served.match.question is not None
        assert [a["text"] for a in seats[chooser].state["actions"]] == ["yes", "no"]
    asyncio.run(play())


def test_bots_accept_an_undo_at_once_and_wait_while_one_is_asked(serve):
    server = serve([VALGARD], include_shipped=False)
    body = make(server, "valgard", ["human", "random"], seed=2)
    served = server.server.matches[body["id"]]

    async def play():
        p1 = await connect(body["links"][0]["url"])
        await p1.act("place d1")
        await p1.until(lambda m: m["type"] == "state" and m["version"] == 2 and m["actions"])
        bot_move = served.match.log[1]
        await ask(p1)                                   # no other person: done at once
        await p1.until(lambda m: m["type"] == "state" and m["version"] == 3)
        assert served.match.log == [] and p1.state["notice"] == "your last move was undone (2 actions taken back)"
        await p1.act("place d1")                        # the bot plays again from there
        await p1.until(lambda m: m["type"] == "state" and m["version"] == 5 and m["actions"])
        assert served.match.log[0] == "place d1" and len(served.match.log) == 2
        # asked again, the bot answers as it did: its seed is the position's, not the version's (else a
        # person could undo and ask until its answers told its hidden cards — a new author's Liar's Dice)
        assert served.match.log[1] == bot_move
        return bot_move
    asyncio.run(play())
    body = make(server, "valgard", ["human", "ismcts:30"], seed=2)     # a search too (seeded in a worker)
    served = server.server.matches[body["id"]]

    async def search():
        p1 = await connect(body["links"][0]["url"])
        moves = []
        for version in (2, 5, 8):
            await p1.act("place d1")
            await p1.until(lambda m: m["type"] == "state" and m["version"] == version and m["actions"])
            moves.append(served.match.log[1])
            await ask(p1)
            await p1.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
        assert len(set(moves)) == 1, moves
    asyncio.run(search())


def test_no_undo_past_an_outcome_that_depended_on_a_hidden_card(tmp_path):
    """The server judges as the terminal does (play/repl.py `hidden_outcome`): a move whose outcome,
    played again in the worlds the person might imagine, is not always the same may not be undone.
    Judged when an undo is asked (the replays cost more than the rest of a move), then remembered."""
    import rulelang
    from rulelang.web.server import Entry, Served
    from tests.test_frontends import POKE
    path = tmp_path / "poke.rules"
    path.write_text(POKE, encoding="utf-8")
    game = rulelang.load(str(path))
    for action, refused in (("poke", True), ("count", False)):
        m = game.new_match(2, seed=1)
        served = Served("x", Entry("poke", str(path), game), m, ["human", "random"], {}, 1)
        served.play(action, 0)
        assert served.undo_target(0, judge_hidden=False) == (0, None)    # (a page is told it may ask)
        target, why = served.undo_target(0)                               # (asked: the move replayed)
        assert (why is not None) == refused, (action, why)
        if refused:
            assert "what happened told you about what was hidden from you" in why, why
            assert served.undo_target(0, judge_hidden=False) == (None, why)   # (and the page told so)


def test_an_undo_asked_past_a_hidden_outcome_is_refused_over_the_socket(serve, tmp_path):
    """The page may offer the undo (the move is judged only when asked); asked, it is refused in
    words, nothing is undone, and the next position tells the page why."""
    from tests.test_frontends import POKE
    path = tmp_path / "poke.rules"
    path.write_text(POKE, encoding="utf-8")
    server = serve([path], include_shipped=False)
    body = make(server, "poke", ["human", "human"], seed=1)
    served = server.server.matches[body["id"]]

    async def play():
        p1, p2 = [await connect(link["url"]) for link in body["links"]]
        await p1.act("poke")
        await state_at([p1, p2], 1)
        assert p1.state["can_undo"] and p1.state["undo_why"] is None
        await ask(p1)
        why = ("cannot undo: since your last move what happened told you about what was hidden from you, "
               "and undoing would let it be played again knowing it")
        assert await said(p1) == why
        await p1.until(lambda m: m["type"] == "state" and m["undo_why"] == why and not m["can_undo"])
        assert served.undo is None and len(served.match.log) == 1
    asyncio.run(play())


def test_asking_twice_tells_the_asker_it_is_already_asked(serve):
    """A double tap on Undo: the second ask is told, in the asker's words, that the others are
    answering (it read "P1 has already asked to undo: answer that first", to P1)."""
    server = serve([DICE], include_shipped=False)
    body = make(server, "dice", ["human", "human"], seed=3)

    async def play():
        p1, p2 = [await connect(link["url"]) for link in body["links"]]
        await p1.act("step")
        await state_at([p1, p2], 1)
        await ask(p1)
        await ask(p1)
        assert await said(p1) == "you have already asked to undo: the others are answering"
        asked = await p2.until(lambda m: m["type"] == "state" and m["undo"])
        assert asked["undo"]["move"] == "step"              # (which move: the page says it)
    asyncio.run(play())


def test_no_undo_past_a_reveal_of_secret_answers(tmp_path):
    """As at the terminal (play/repl.py `answers_revealed`): the last answer to a simultaneous
    step shows every answer; neither person may undo back past it and answer again knowing."""
    import rulelang
    from rulelang.web.server import Entry, Served
    from tests.test_frontends import RPS
    path = tmp_path / "rps.rules"
    path.write_text(RPS, encoding="utf-8")
    game = rulelang.load(str(path))
    m = game.new_match(2, seed=1)
    served = Served("x", Entry("rps", str(path), game), m, ["human", "human"], {}, 1)
    served.play("throw R", 0)
    target, why = served.undo_target(0)                       # (sealed: asking would tell P2 it came)
    assert target is None and "sealed" in why, why
    served.play("throw S", 1)
    for seat in (0, 1):
        target, why = served.undo_target(seat)
        assert target is None and "the secret answers were revealed" in why, why


def test_the_move_an_undo_names_is_an_answer_with_its_question(tmp_path):
    """A browser trial: "P2 asks to undo their last move (Shield Mother at h2)" read as a move to
    h2; it was the answer to a skill's question."""
    import rulelang
    from rulelang.web.server import Entry, Served
    path = tmp_path / "ask.rules"
    path.write_text('game "Ask" { players 2  var got: int = 0  turn { step s { action pick { '
                    'choose x in [1, 2] prompt "which one?" { got = x }  if got == 3 { finish draw "x" }  end turn '
                    '} } } }', encoding="utf-8")
    game = rulelang.load(str(path))
    served = Served("x", Entry("ask", str(path), game), game.new_match(2, seed=1), ["human", "human"], {}, 1)
    served.play("pick", 0)
    served.play("2", 0)
    assert [served.move_read(i, 1) for i in range(2)] == ["pick", "2 — the answer to “which one?”"]


SHOW = """game "Show" {
  players 2
  kind Card { label card }
  card Card "Ace" { }
  card Card "Two" { }
  card Card "Six" { }
  zone hand: set per player, owner
  zone deck: pile, hidden
  setup { create cards Card in deck  move [c for c in deck where c.card == "Ace"] to hand[0]
          move [c for c in deck where c.card == "Two"] to hand[1] }
  turn { step s {
    action show(c in hand[me]) { reveal c  end turn }
    action wait { end turn }
    action stop { finish draw }
  } }
}
"""


def test_an_undo_of_ones_own_reveal_tells_the_others_what_goes_back_out_of_sight(tmp_path):
    """A browser trial: P2 undid their own reveal, P1 accepted, and P1's page lost the character it
    had seen, untold. The undo's question names what the answering seat would no longer see."""
    import rulelang
    from rulelang.web.server import Entry, Served
    path = tmp_path / "show.rules"
    path.write_text(SHOW, encoding="utf-8")
    game = rulelang.load(str(path))
    served = Served("x", Entry("show", str(path), game), game.new_match(2, seed=1), ["human", "human"], {}, 1)
    served.play("wait", 0)
    served.play("show Two", 1)
    back_to, why = served.undo_target(1)
    assert why is None and back_to == 1
    assert served.hidden_by_undo(back_to) == {0: ["Two"], 1: []}
    served.play("wait", 0)                               # (P1's own move since: nothing of P1's goes)
    back_to, why = served.undo_target(1)
    assert why is None and served.hidden_by_undo(back_to) == {0: ["Two"], 1: []}


def test_an_undo_the_store_refuses_leaves_the_match_and_the_store_as_they_were(serve, tmp_path, monkeypatch, capfd):
    """A review: an undo the store refused (another program held it locked) was done in memory alone,
    with a traceback; the store's transaction was left open, and every later write — matches made,
    moves — went into it and was lost when the server stopped."""
    import sqlite3
    store = tmp_path / "s.sqlite"
    server = serve([DICE], store=store, include_shipped=False)
    body = make(server, "dice", ["human", "human"], seed=3)
    served = server.server.matches[body["id"]]
    real = server.server.store.undo

    def locked(*args):
        blocker = sqlite3.connect(str(store), timeout=0)
        blocker.execute("BEGIN EXCLUSIVE")           # (another program holds it: the real store's write fails)
        server.server.store.db.execute("PRAGMA busy_timeout = 0")
        try:
            real(*args)
        finally:
            blocker.rollback()
            blocker.close()
    monkeypatch.setattr(server.server.store, "undo", locked)

    async def play():
        p1, p2 = [await connect(link["url"]) for link in body["links"]]
        await p1.act("step")
        await state_at([p1, p2], 1)
        await p2.act("step")
        await state_at([p1, p2], 2)
        await ask(p2)
        await p1.until(lambda m: m["type"] == "state" and m["undo"])
        await ask(p1, "answer_undo", accept=True)
        await p1.until(lambda m: m["type"] == "state" and m["undo"] is None)
        assert p1.state["notice"].startswith("cannot undo: the server could not save it (database is locked)")
        assert served.match.log == ["step", "step"] and p1.state["version"] == 2
        await p2.until(lambda m: m["type"] == "state" and m["undo"] is None)
        mover = p1 if p1.state["actions"] else p2
        await mover.act("step")                      # play goes on, and is kept
        await state_at([p1, p2], 3)
    asyncio.run(play())
    assert not server.server.store.db.in_transaction
    server.stop()
    again = serve([DICE], store=store, include_shipped=False)
    code, raw = get(body["links"][0]["url"].replace(server.url, again.url).replace("/play/", "/api/play/"))
    assert code == 200 and json.loads(raw)["log_length"] == 3
    err = capfd.readouterr().err
    assert "an undo could not be saved: database is locked" in err and "Traceback" not in err
