"""The game screen when the server holds all the live connections it may (server/connections.py):
the socket is refused with its reason (close code 4503), the screen says so in the reader's
language and follows the table by asking for its view every few seconds: the player still sees
the game and plays."""

from __future__ import annotations

import time

import pytest

from browser.play import new_game, open_host_seat, open_page, watch_console
from browser.support import serve, shot


@pytest.fixture(scope="module")
def full_server(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("full"), env={"JUDGES_MAX_SOCKETS": "0"}) as base:  # no socket at all
        yield base


@pytest.mark.parametrize("lang, size", [("es", (1400, 900)), ("en", (390, 844))])
def test_a_full_server_is_said_and_the_table_still_plays(full_server, browser, lang, size):
    page = open_page(browser, viewport={"width": size[0], "height": size[1]})
    errors = watch_console(page)
    data = new_game(full_server, seed=3)
    open_host_seat(page, full_server, data, f"?lang={lang}")
    words = {"es": "conexiones en vivo", "en": "live connections"}[lang]
    page.get_by_text(words).first.wait_for()  # the reason, in the reader's language
    page.locator("#actions .end-turn, #actions button.action").first.wait_for()  # the view, by HTTP
    shot(page, f"server-full-{lang}-{size[0]}x{size[1]}")
    seq = int(page.evaluate("document.body.dataset.seq"))
    page.locator("#actions button.action").first.click()
    deadline = time.time() + 15
    while int(page.evaluate("document.body.dataset.seq")) <= seq:  # the game moves on, on screen
        assert time.time() < deadline, "the screen never showed the game moving on"
        page.wait_for_timeout(100)
    assert not [e for e in errors if "4503" not in e and "WebSocket" not in e]
    page.context.close()
