"""Muting and reporting from the table's chat (server/community/moderation.py, docs/accounts.md "Muting and
reporting"), in Chromium, on a server of the test's own (its database is the one `judges admin
grant` names): two players signed in to their accounts; Ada mutes Bo from the chat's settings and
Bo's messages leave her screen, and her chat as the server gives it (not hidden by the page); she
unmutes him and they are back. Bo reports Ada's message, and Ada herself, each with a reason; an operator reads it on
/admin with the message, hides it, dismisses the other, and the acts are in the audit log. An operator bans a player
from /admin (his open table shows the takeover bot, his next sign-in is refused) and closes his table (each player's
bell says so). Screenshots at 1400x900 and 390x844 (tests/browser/support.py)."""

from __future__ import annotations

import secrets

from typer.testing import CliRunner

from browser.play import claim_invitation, open_page, watch_console
from browser.support import serve, shot
from judges.cli import app as cli
from judges.i18n import catalog

CHAT = "[data-panel='chat']"
BOX = f"{CHAT} textarea.chat-text:not([data-report-reason])"
PASSWORD = "a long secret"


def sign_up(page, base: str, name: str) -> None:
    page.goto(base + "/?lang=en")
    status = page.evaluate(
        """([name, password]) => fetch("/api/accounts", {method: "POST", headers: {"Content-Type": "application/json"},
             body: JSON.stringify({name, password})}).then((r) => r.status)""",
        [name, PASSWORD],
    )
    assert status == 201


def send(page, text: str) -> None:
    page.fill(BOX, text)
    page.press(BOX, "Enter")


def message(page, text: str):
    return page.locator(f"{CHAT} [data-chat-message]", has_text=text)


def server_chat(page, game_id: str) -> list[str]:
    """The chat as the server gives this browser's seat."""
    return page.evaluate(
        "(gid) => fetch(`/api/games/${gid}/chat`).then((r) => r.json()).then((d) => d.messages.map((m) => m.text))",
        game_id,
    )


def test_muting_and_reporting_from_the_tables_chat(browser, tmp_path):
    suffix = secrets.token_hex(2)
    ada_name, bo_name, op_name = f"Ada{suffix}", f"Bo{suffix}", f"Op{suffix}"
    with serve(tmp_path) as base:
        ada = open_page(browser, viewport={"width": 1400, "height": 900})
        bo = open_page(browser, viewport={"width": 390, "height": 844})
        errors = watch_console(ada) + watch_console(bo)
        sign_up(ada, base, ada_name)
        seats = [
            {"kind": "human", "name": ada_name},
            {"kind": "human", "name": bo_name},
            {"kind": "bot", "bot": "greedy"},
        ]
        data = ada.evaluate(
            """(seats) => fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
                 body: JSON.stringify({seats, seed: 4})}).then((r) => r.json())""",
            seats,
        )
        game_id = data["id"]
        ada.goto(data["link"])
        sign_up(bo, base, bo_name)
        claim_invitation(bo, base, data, 1)
        bo.locator("#panel-tabs [data-tab='chat']").click()  # on a phone the chat is a tab
        for page in (ada, bo):
            page.locator(f"{CHAT} .chat-empty").wait_for()

        send(bo, "Bo says hello")
        message(ada, "Bo says hello").wait_for()

        # Ada mutes Bo: his message leaves her screen and the chat the server gives her
        ada.locator("#chat-settings summary").click()
        ada.locator("#chat-settings [data-mute='1']").click()
        ada.locator("#chat-settings [data-mute='1'][aria-pressed='true']").wait_for()
        message(ada, "Bo says hello").wait_for(state="detached")
        assert ada.evaluate("Object.keys(localStorage).filter((k) => k.includes('-mute-'))") == []  # not this browser's
        send(bo, "Bo again, muted")
        message(bo, "Bo again, muted").wait_for()
        send(ada, "Ada speaks: you are all fools")
        message(bo, "Ada speaks").wait_for()
        message(ada, "Ada speaks").wait_for()
        assert server_chat(ada, game_id) == ["Ada speaks: you are all fools"]
        assert message(ada, "Bo again").count() == 0
        shot(ada, "moderation-muted-1400")

        # unmuted: Bo's messages are back
        ada.locator("#chat-settings [data-mute='1']").click()
        message(ada, "Bo again, muted").wait_for()
        assert server_chat(ada, game_id) == ["Bo says hello", "Bo again, muted", "Ada speaks: you are all fools"]

        # Bo reports Ada's message with a reason
        mine = message(bo, "Bo says hello")
        assert mine.locator("[data-report]").count() == 0  # one's own message has no report button
        message(bo, "Ada speaks").locator("[data-report]").click()
        form = bo.locator("#chat-report")
        form.wait_for()
        form.locator("[data-report-reason]").fill("insults the table")
        shot(bo, "moderation-report-390")
        form.locator("[data-report-send]").click()
        form.wait_for(state="hidden")
        bo.locator("#toast:not([hidden])").wait_for()
        # and Ada herself, from the chat's settings
        bo.locator("#chat-settings summary").click()
        bo.locator("#chat-settings [data-report-seat='0']").wait_for()
        shot(bo, "moderation-settings-390")
        bo.locator("#chat-settings [data-report-seat='0']").click()
        form.wait_for()
        form.locator("[data-report-reason]").fill("insults everyone, every game")
        form.locator("[data-report-send]").click()
        form.wait_for(state="hidden")

        # an operator reads it with the message, hides the message; the act is logged
        op = open_page(browser, viewport={"width": 1400, "height": 900})
        errors += watch_console(op)
        sign_up(op, base, op_name)
        granted = CliRunner().invoke(
            cli, ["admin", "grant", op_name, "--database", f"sqlite:///{tmp_path / 'browser.db'}"]
        )
        assert granted.exit_code == 0, granted.output
        op.goto(base + "/admin?lang=en")
        assert op.locator("article[data-report]").count() == 2
        report = op.locator("article[data-report]").first
        assert "insults the table" in report.inner_text() and "you are all fools" in report.inner_text()
        shot(op, "moderation-admin-1400")
        report.locator("input[name=reason]").fill("an insult")
        report.locator("[data-act='hide']").click()
        op.wait_for_function("() => document.querySelectorAll('article[data-report]').length === 1")
        player = op.locator("article[data-report]").first
        assert "insults everyone, every game" in player.inner_text() and ada_name in player.inner_text()
        player.locator("input[name=reason]").fill("the message is hidden already")
        player.locator("[data-act='dismiss']").click()
        op.locator("#no-reports").wait_for()
        assert "an insult" in op.locator("[data-audit='hide']").inner_text()
        op.set_viewport_size({"width": 390, "height": 844})
        shot(op, "moderation-admin-390")
        message(bo, "Ada speaks").wait_for(state="detached")  # hidden from everyone
        message(ada, "Ada speaks").wait_for(state="detached")
        assert not [e for e in errors if "favicon" not in e], errors
        for page in (ada, bo, op):
            page.context.close()


def test_an_operator_bans_a_player_and_closes_his_table_from_the_admin_page(browser, tmp_path):
    """From /admin an operator bans Bo by name: the takeover bot plays his seat on his open
    table, which says so while he is banned (no "Take my seat back"), and his next sign-in is
    refused with the reason why. Then, from Ada's report, the
    operator closes the table: each player's bell says an operator closed it, and the table says
    the game is over with no move to make."""
    words = catalog("en")
    suffix = secrets.token_hex(2)
    ada_name, bo_name, op_name = f"Ada{suffix}", f"Bo{suffix}", f"Op{suffix}"
    with serve(tmp_path) as base:
        ada = open_page(browser, viewport={"width": 1400, "height": 900})
        bo = open_page(browser, viewport={"width": 390, "height": 844})
        op = open_page(browser, viewport={"width": 1400, "height": 900})
        errors = watch_console(ada) + watch_console(bo) + watch_console(op)
        sign_up(ada, base, ada_name)
        seats = [
            {"kind": "human", "name": ada_name},
            {"kind": "human", "name": bo_name},
            {"kind": "bot", "bot": "greedy"},
        ]
        data = ada.evaluate(
            """(seats) => fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
                 body: JSON.stringify({seats, seed: 4})}).then((r) => r.json())""",
            seats,
        )
        game_id = data["id"]
        ada.goto(data["link"])
        sign_up(bo, base, bo_name)
        claim_invitation(bo, base, data, 1)
        reported = ada.evaluate(
            """(gid) => fetch("/api/reports", {method: "POST", headers: {"Content-Type": "application/json"},
                 body: JSON.stringify({game: gid, seat: 1, reason: "spoils the game on purpose"})})
                 .then((r) => r.status)""",
            game_id,
        )
        assert reported == 201
        bo.locator("#players [data-seat='1']").wait_for()  # his table, his seat his own
        assert bo.locator("#banner [data-away='true']").count() == 0

        sign_up(op, base, op_name)
        granted = CliRunner().invoke(
            cli, ["admin", "grant", op_name, "--database", f"sqlite:///{tmp_path / 'browser.db'}"]
        )
        assert granted.exit_code == 0, granted.output
        op.goto(base + "/admin?lang=en")

        # the ban, by name: Bo's open table shows the takeover bot in his seat
        acts = op.locator("[data-panel='account-acts'] form")
        acts.locator("input[name=name]").fill(bo_name)
        acts.locator("input[name=reason]").fill("spoils every game he joins")
        acts.locator("[data-act='ban']").click()
        op.locator("[data-audit='ban']").wait_for()
        assert "spoils every game he joins" in op.locator("[data-audit='ban']").inner_text()
        bo.locator("#banner [data-away='true']").wait_for()
        # his table says the bot holds his seat while he is banned, with no button to take it back
        held = bo.locator("#banner .sanction-message[data-sanction='ban']")
        held.wait_for()
        assert words["ui.sanction_banned_help"] in held.inner_text()
        assert words["ui.take_back"] not in bo.locator("body").inner_text()
        assert bo.locator("#seat-control").is_hidden()
        shot(bo, "moderation-banned-table-390")
        bo.set_viewport_size({"width": 1400, "height": 900})
        shot(bo, "moderation-banned-table-1400")
        bo.set_viewport_size({"width": 390, "height": 844})
        # his next sign-in is refused, saying why
        bo.goto(base + "/?lang=en")
        form = bo.locator("#account-form")
        form.wait_for()
        form.locator("input[name=name]").fill(bo_name)
        form.locator("input[name=password]").fill(PASSWORD)
        form.locator("#sign-in").click()
        bo.locator("#account-error:not([hidden])").wait_for()
        assert bo.locator("#account-error").inner_text() == words["error.account_banned"]
        assert bo.locator("#signed-in").is_hidden()
        shot(bo, "moderation-banned-sign-in-390")

        # the table closed from Ada's report: each player's bell says so
        report = op.locator("article[data-report]").first
        assert "spoils the game on purpose" in report.inner_text()
        report.locator("input[name=reason]").fill("the table cannot go on")
        report.locator("[data-act='close']").click()
        op.locator("[data-audit='close']").wait_for()
        shot(op, "moderation-closed-admin-1400")
        bo.goto(data["link"])
        for page in (ada, bo):
            page.locator("#bell").click()
            note = page.locator("#bell-panel .note[data-key='notification.game_closed']")
            note.wait_for()
            assert words["notification.game_closed"] in note.inner_text()
            page.locator("#bell").click()
            # the table says the game is over, closed, and offers no move nor seat control
            ended = page.locator("#banner .ended-message[data-ending='closed']")
            ended.wait_for()
            assert words["ui.table_closed"] in ended.inner_text()
            assert page.locator("#waiting").inner_text() == words["ui.game_over"]
            assert page.locator("#actions").is_hidden() and page.locator("#seat-control").is_hidden()
            assert page.locator("button.action:visible").count() == 0
        shot(ada, "moderation-closed-table-1400")
        shot(bo, "moderation-closed-table-390")
        view = ada.evaluate(f"fetch('/api/games/{game_id}/view').then((r) => r.json())")
        assert view["seats"][1]["away"]
        assert not [e for e in errors if "favicon" not in e], errors
        for page in (ada, bo, op):
            page.context.close()
