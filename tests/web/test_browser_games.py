"""Whole games played in a real headless Chromium through clicks only: Regicide solo, Valgarð with
two browser seats (and an undo asked and accepted by clicks), a Smash Up and a Shadow Hunters match
with several browser seats and random bots in the others. Each page clicks one of the buttons its
seat is offered (a seeded choice), never the API. Screenshots of each table are saved (in
RULELANG_SCREENSHOTS too, when set: `RULELANG_SCREENSHOTS=docs/images` refreshes the documentation's).

Small player counts, bots without delay and seeds whose games end reasonably keep the CPU modest."""
from __future__ import annotations

import os
import random
import time

import pytest

from .conftest import ROOT, post, wait_until
from .test_browser import SHOTS, browser  # noqa: F401  (the one Chromium fixture, shared)

GAMES = ROOT / "games"
pytestmark = pytest.mark.slow


def save_shot(page, tmp_path, name):
    """A screenshot of the page's viewport, kept small (a palette PNG) where it is documented."""
    page.screenshot(path=str(tmp_path / f"{name}.png"))
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        target = os.path.join(SHOTS, f"{name}.png")
        page.screenshot(path=target)
        try:
            from PIL import Image
            Image.open(target).convert("RGB").quantize(colors=64).save(target, optimize=True)
        except ImportError:
            pass


def version_of(page) -> str | None:
    return page.get_attribute("body", "data-version")


def moved_on(page, version: int) -> None:
    """Until the page shows a position after `version`: a click returns before the server has
    handled it, and the page hears of the new position only once it has."""
    wait_until(page, "v => Number(document.body.dataset.version) > v", version)


def settle(served, pages, seconds=120.0) -> None:
    """Until the bots are done (a person is to act, or the game is over) and every page shows the
    match's position now."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        m = served.match
        bots_busy = served.bot_task is not None and not served.bot_task.done()
        if (m.is_over or m.current_player not in served.bots) and not bots_busy:
            v = served.version
            for p in pages:                    # at least v: a click may move the match on meanwhile
                wait_until(p, "v => Number(document.body.dataset.version) >= v", v)
            if served.version == v and all(version_of(p) == str(v) for p in pages):
                return
        time.sleep(0.02)
    raise AssertionError(f"the pages did not settle (version {served.version})")


def play_by_clicks(served, seats: dict, watchers: list, seed: int, cap: int) -> int:
    """Each person's page, when its seat is to act, clicks one of the buttons it is offered (an
    action, or an option of a question's dialog). The other seats' pages offer no button then.
    Returns the clicks made."""
    rng = random.Random(seed)
    pages = list(seats.values()) + watchers
    clicks = 0
    for _ in range(cap):
        settle(served, pages)
        if served.match.is_over:
            return clicks
        actor = served.match.current_player
        page = seats[actor]
        buttons = page.locator("#actions button.action:enabled, dialog#question[open] button.option:enabled")
        count = buttons.count()
        assert count == len(served.match.legal_actions()), "the page offers exactly its seat's actions"
        for other, p in seats.items():
            if other != actor:
                assert p.locator("#actions button.action, dialog#question[open] button.option").count() == 0
        before = served.version
        buttons.nth(rng.randrange(count)).click()
        armed = page.locator("#actions button[data-armed=yes]")
        if armed.count():                                    # (an action that reveals asks first; a
            page.wait_for_timeout(450)                       #  second click sooner is the same tap)
            armed.first.click()
        clicks += 1
        deadline = time.monotonic() + 60
        while served.version == before and time.monotonic() < deadline:
            time.sleep(0.01)
        assert served.version > before, page.inner_text("#error")
    raise AssertionError(f"the game did not end in {cap} clicks")


def outcome_shown(page, served):
    page.wait_for_selector("body[data-over=yes]")
    text = page.inner_text("#outcome")
    assert "Game over" in text
    if served.match.outcome.get("reason"):
        assert "Why: " + served.match.outcome["reason"] in text
    return text


def new_match(server, game, seats, seed, **more):
    code, body = post(server.url + "/api/matches", {"game": game, "players": len(seats), "seats": seats,
                                                    "seed": seed, **more})
    assert code == 200, body
    return body, server.server.matches[body["id"]]


def open_pages(browser, body, served, phone=()):
    """A browser context (a device) per person's link, and the spectator's."""
    seats, contexts = {}, []
    for link in body["links"]:
        seat = int(link["seat"][1:]) - 1
        size = {"width": 390, "height": 844} if seat in phone else {"width": 1100, "height": 820}
        ctx = browser.new_context(viewport=size)
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(link["url"])
        seats[seat] = page
    ctx = browser.new_context(viewport={"width": 1100, "height": 820})
    contexts.append(ctx)
    watcher = ctx.new_page()
    watcher.goto(body["spectator"]["url"])
    for page in list(seats.values()) + [watcher]:
        page.wait_for_selector("body[data-version]")
    return seats, watcher, contexts


def test_regicide_solo_played_to_the_end_by_clicks(serve, browser, tmp_path):
    server = serve([GAMES / "regicide.rules"], include_shipped=False)
    body, served = new_match(server, "regicide", ["human"], seed=3)
    seats, watcher, contexts = open_pages(browser, body, served)
    page = seats[0]
    assert page.locator("#zones .card:not(.back)").count() > 0      # its hand, face up
    save_shot(page, tmp_path, "serve-regicide")
    clicks = play_by_clicks(served, seats, [watcher], seed=1, cap=120)
    assert clicks == len([a for a in served.match.log]) and served.match.is_over
    text = outcome_shown(page, served)
    assert f"P1 (human): {served.match.outcome['results'][0]}" in text and "— you" in text
    outcome_shown(watcher, served)
    save_shot(page, tmp_path, "serve-regicide-end")
    for ctx in contexts:
        ctx.close()


def test_valgard_two_browser_seats_with_an_undo_asked_and_accepted(serve, browser, tmp_path):
    server = serve([GAMES / "valgard.rules"], include_shipped=False)
    body, served = new_match(server, "valgard", ["human", "human"], seed=3)
    seats, watcher, contexts = open_pages(browser, body, served, phone={1})
    p1, p2 = seats[0], seats[1]
    pages = [p1, p2, watcher]
    assert p1.locator("#undo").is_disabled()
    p1.click("#board g.cell[data-cell=d1]")                           # a click on a cell narrows...
    p1.click("#actions button.action >> text=place d1")               # ...to its action
    settle(served, pages)
    before = served.version
    p2.locator("#actions button.action").first.click()
    moved_on(p2, before)
    settle(served, pages)
    assert served.applied == 2
    p1.click("#undo")                                                  # P1 asks; P2 is asked
    p2.wait_for_selector("#undo-ask:not([hidden]) >> text=P1 asks to undo their last move (place d1) "
                         "and everything played since.")                # (which move: P2 reads it)
    assert "waiting for P2" in p1.inner_text("#undo-ask")
    save_shot(p2, tmp_path, "serve-undo-asked-phone")
    before = served.version
    p2.click("#undo-yes")
    moved_on(p1, before)
    settle(served, pages)
    assert served.applied == 0 and "your last move was undone" in p1.inner_text("#status")
    assert "P1's last move was undone" in p2.inner_text("#status")
    assert p1.locator("#board g.cell[data-cell=d1] text:not(.coord)").text_content() == ""
    clicks = play_by_clicks(served, seats, [watcher], seed=2, cap=200)
    assert clicks > 10
    outcome_shown(p1, served)
    outcome_shown(p2, served)
    save_shot(p1, tmp_path, "serve-valgard")
    for ctx in contexts:
        ctx.close()


@pytest.mark.parametrize("game, seats, seed, cap", [
    ("smash_up", ["random", "human", "random"], 5, 400),           # (seeds of shorter games: the suite's
    ("shadow_hunters", ["random", "human", "random", "random"], 8, 300),   # time, ~55 % and ~50 % less)
])
def test_a_card_game_with_browser_seats_and_bots_played_to_the_end(serve, browser, tmp_path, game, seats, seed, cap):
    server = serve([GAMES / f"{game}.rules"], include_shipped=False)
    body, served = new_match(server, game, seats, seed=seed)
    pages, watcher, contexts = open_pages(browser, body, served)
    humans = sorted(pages)
    settle(served, list(pages.values()) + [watcher])
    m = served.match
    for seat, page in pages.items():             # the page shows its own secrets and no other seat's
        mine = {c["label"] for z in m.view(seat)["zones"] for c in (z.get("cards") or []) if z.get("owner") == seat
                and z["visibility"] != "public"}
        text = page.inner_text("#zones")
        assert mine and all(label in text for label in mine)
        for other in range(m.players):
            if other != seat:
                hidden = {m.state()["components"][c]["label"] for c in m.visible_to(other) - m.visible_to(seat)}
                assert not any(label in text for label in hidden if label not in mine)
    save_shot(pages[humans[0]], tmp_path, f"serve-{game}")
    clicks = play_by_clicks(served, pages, [watcher], seed=seed, cap=cap)
    assert clicks > 5
    for page in list(pages.values()) + [watcher]:
        outcome_shown(page, served)
    save_shot(pages[humans[0]], tmp_path, f"serve-{game}-end")
    for ctx in contexts:
        ctx.close()


def test_a_large_board_on_a_phone_is_drawn_large_enough_to_read_and_scrolls_sideways(serve, browser):
    """Dozen War's board on a 390-pixel phone was drawn 364 pixels wide: its cell names about 4
    pixels high (a browser trial). It is now drawn at least 0.85 of its own size, in a frame that
    scrolls sideways; the page itself is never wider than the screen."""
    server = serve([GAMES / "dozen_war.rules"], include_shipped=False)
    body, served = new_match(server, "dozen_war", ["human", "human"], 5)
    seats, watcher, contexts = open_pages(browser, body, served, phone={0})
    page = seats[0]
    page.wait_for_selector("#board g.cell")
    width = page.evaluate("document.getElementById('board').getBoundingClientRect().width")
    drawn = page.evaluate("document.getElementById('board').viewBox.baseVal.width")
    assert width >= 0.85 * drawn - 1 and width > 390, (width, drawn)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("getComputedStyle(document.getElementById('board-wrap')).overflowX") == "auto"
    for ctx in contexts:
        ctx.close()
