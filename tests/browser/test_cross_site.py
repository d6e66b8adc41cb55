"""Another site's page cannot use a player's cookies (docs/accounts.md, "Security"), in
Chromium: a signed-in player with a seat opens a page served from another origin that submits
a form to the game's server at once. Three such pages: another port of the same host (the same
site: the browser sends the SameSite=Lax cookies along, so only the server's check stands in
the way), the same with `Referrer-Policy: no-referrer` (Chromium then sends `Origin: null`,
as it did for the site's own pages when they were served so), and another host name
(`localhost` for `127.0.0.1`: another site). Each form is refused and changes nothing: the
seat is not handed to a bot, no seat is taken at an open table, no invitation is spent."""

from __future__ import annotations

import html
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, open_page
from browser.test_accounts_by_mail import sign_in, sign_up

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]


class Attacker:
    """Another origin's web server: `/` is a page whose form posts to `target` on load."""

    def __init__(self, no_referrer: bool) -> None:
        self.target = ""
        attacker = self

        class Page(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                meta = '<meta name="referrer" content="no-referrer">' if no_referrer else ""
                body = (
                    f"<!doctype html><html><head>{meta}</head><body>"
                    f'<form method="post" action="{html.escape(attacker.target)}">'
                    '<input name="password" value="owned by another site"></form>'
                    "<script>document.forms[0].submit()</script></body></html>"
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


ORIGINS = {
    "another port of the same host": ("127.0.0.1", False),
    "another port, Origin null": ("127.0.0.1", True),
    "another host name": ("localhost", False),
}


@pytest.mark.parametrize("host, no_referrer", ORIGINS.values(), ids=ORIGINS.keys())
def test_another_sites_form_with_the_players_cookies_is_refused(browser, server, host, no_referrer):
    attacker = Attacker(no_referrer)
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    name = "gideon" + secrets.token_hex(3)
    try:
        sign_up(page, server, name)
        page.click("#create-game")  # his game: the seat's cookie, and the seat bound to his account
        page.wait_for_selector("#link-list .own-seat")
        game_id = page.locator("#link-list .own-seat").get_attribute("href").rsplit("/", 1)[1]
        # a table with a free seat, and a stranger's invitation
        seats = [{**SEATS[0], "name": "Othniel"}, {"kind": "human", "name": "Abigail", "open": True}, SEATS[2]]
        open_table = httpx.post(server + "/api/games", json={"seats": seats}, timeout=HTTP_TIMEOUT).json()
        stranger = httpx.post(server + "/api/games", json={"seats": SEATS}, timeout=HTTP_TIMEOUT).json()
        invitation = stranger["seats"][1]["invitation"]
        # a second browser holds the account's session only (no seat cookie)
        elsewhere = open_page(browser, viewport={"width": 1400, "height": 900})
        sign_in(elsewhere, server, name)
        elsewhere.wait_for_selector("#signed-in:not([hidden])")

        targets = {
            "hand the seat to a bot": f"{server}/api/games/{game_id}/seat/away",
            "take a free seat": f"{server}/api/games/{open_table['id']}/join",
            "spend an invitation": invitation,
        }
        for browser_page in (page, elsewhere):
            for what, target in targets.items():
                attacker.target = target
                with browser_page.expect_response(lambda r, t=target: r.url == t) as answer:
                    browser_page.goto(f"http://{host}:{attacker.port}/")
                response = answer.value
                cookies = response.request.all_headers().get("cookie", "")
                if host == "127.0.0.1":  # the same site: the cookies went along, the check refused
                    assert "jk_session=" in cookies, what
                    assert response.status == 403, (what, response.status)
                else:  # another site: the browser kept its SameSite=Lax cookies
                    assert "jk_session=" not in cookies, what
                    assert response.status in (401, 403, 409), (what, response.status)
        # nothing changed
        view = page.evaluate(f"fetch('/api/games/{game_id}/view').then((r) => r.json())")
        assert view["seat"] == 0 and not view["seats"][0]["away"], view["seats"][0]
        lobby = httpx.get(server + "/api/lobby", timeout=HTTP_TIMEOUT).json()
        assert open_table["id"] in [g["id"] for g in lobby["open"]]
        code = invitation.rsplit("/", 1)[1]
        claimed = httpx.post(
            f"{server}/api/games/{stranger['id']}/claim", json={"invitation": code}, timeout=HTTP_TIMEOUT
        )
        assert claimed.status_code == 200  # the invitation was still open
        # and the player's own page still works: the same form from the site's own origin
        page.goto(f"{server}/games/{game_id}?lang=en")
        page.wait_for_selector("#board")
        elsewhere.context.close()
    finally:
        page.context.close()
        attacker.close()
