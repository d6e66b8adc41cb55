"""The accounts' flows end to end in Chromium (docs/accounts.md), against a real server that
mails through a real local SMTP server: sign up, sign out, sign in; a forgotten password by
the link of the mail received; the "your turn" notice's link; an invitation claimed signed in.
Each link is taken from the mail the SMTP server received and opened in a browser that has
never seen the site, as a player's phone would. Chromium, unlike the server tests' client,
sends Origin and fetch metadata: these flows pass the server's same-origin check as a real
browser meets it. The other half, another site's page posting with the player's cookies, is
tests/browser/test_cross_site.py."""

from __future__ import annotations

import secrets

import pytest

from browser.play import open_page, wait_for_the_seat, watch_console
from browser.support import serve, shot
from mail_support import links_in, smtp_server

PASSWORD = "a long secret"


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory):
    """A server whose mails reach a local SMTP server at once: a paced decision is mailed after
    about a second without a sign of life from its player (JUDGES_NOTICE_DELAY_MINUTES,
    JUDGES_ABSENT_AFTER), the upkeep runs twice a second."""
    with smtp_server() as box:
        env = {
            "JUDGES_SMTP_URL": box.url,
            "JUDGES_NOTICE_DELAY_MINUTES": "0.02",
            "JUDGES_ABSENT_AFTER": "2",
            "JUDGES_UPKEEP_SECONDS": "0.5",
            "JUDGES_UPKEEP_SCAN_SECONDS": "1",
        }
        with serve(tmp_path_factory.mktemp("mail"), env) as base:
            yield base, box


def a_name(prefix: str) -> str:
    return prefix + secrets.token_hex(3)


def account_form(page, name: str, password: str = PASSWORD, email: str | None = None) -> None:
    form = page.locator("#account-form")
    form.wait_for()
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(password)
    if email:
        form.locator("input[name=email]").fill(email)


def sign_up(page, base: str, name: str, email: str | None = None, lang: str = "en", mailbox=None) -> None:
    """Signs up; with an address and the mailbox, confirms the address by the link mailed to it
    (nothing else is mailed to it before) and takes that mail out of the mailbox."""
    page.goto(f"{base}/?lang={lang}")
    account_form(page, name, email=email)
    page.click("#sign-up")
    page.wait_for_selector("#signed-in:not([hidden])")
    if email and mailbox is not None:
        (mail,) = mailbox.wait_for(email)
        mailbox.messages.remove(mail)
        (link,) = links_in(mail, base)
        page.goto(link)
        assert email in page.locator("#link").inner_text()
        page.click("#use-link")
        page.wait_for_url(base + "/")
        page.wait_for_selector("#signed-in:not([hidden])")  # confirming changed no session


def sign_in(page, base: str, name: str, password: str = PASSWORD) -> None:
    page.goto(f"{base}/?lang=en")
    account_form(page, name, password)
    page.click("#sign-in")


def me(page, base: str) -> str | None:
    """The account the browser is signed in to, asked from the page itself (its own fetch)."""
    account = page.evaluate("fetch('/api/me').then((r) => r.json()).then((d) => d.account)")
    return account["name"] if account else None


def test_sign_up_sign_out_and_sign_in_again(browser, mail_server):
    base, _ = mail_server
    name = a_name("ruth")
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    sign_up(page, base, name, f"{name}@example.org")
    assert name in page.locator("#account-name").inner_text() and me(page, base) == name
    session = next(c["value"] for c in page.context.cookies() if c["name"] == "jk_session")
    page.click("#sign-out")
    page.wait_for_selector("#account-form:not([hidden])")
    assert me(page, base) is None
    page.reload()
    page.wait_for_selector("#account-form:not([hidden])")  # signed out on the server too
    # the session's cookie, copied before signing out, no longer works
    stolen = open_page(browser)
    stolen.context.add_cookies([{"name": "jk_session", "value": session, "url": base}])
    stolen.goto(base + "/?lang=en")
    assert me(stolen, base) is None
    stolen.context.close()
    sign_in(page, base, name, "not the password")
    page.wait_for_selector("#account-error:not([hidden])")
    assert me(page, base) is None
    sign_in(page, base, name)
    page.wait_for_selector("#signed-in:not([hidden])")
    assert me(page, base) == name
    assert errors == [] or all("401" in e for e in errors), errors  # the wrong password's answer
    page.context.close()


def test_an_address_is_confirmed_by_its_link_before_anything_else_is_mailed(browser, mail_server):
    base, mailbox = mail_server
    name = a_name("orpah")
    address = f"{name}@example.org"
    desk = open_page(browser, viewport={"width": 1400, "height": 900})
    sign_up(desk, base, name, address)
    (mail,) = mailbox.wait_for(address)
    assert "confirm" in mail["Subject"]
    # a forgotten password before the address is confirmed: nothing is mailed
    phone = open_page(browser, viewport={"width": 390, "height": 844})
    errors = watch_console(phone)
    phone.goto(base + "/?lang=en")
    phone.locator("#account-form input[name=name]").fill(name)
    phone.click("#send-reset")
    phone.wait_for_selector("#reset-sent:not([hidden])")
    (link,) = links_in(mail, base)
    desk.goto(link)  # opening it shows its button and confirms nothing
    shot(desk, "mail-verify-1400")
    phone.goto(link)  # the mail opened on the phone, never signed in
    assert address in phone.locator("#link").inner_text()
    shot(phone, "mail-verify-390")
    phone.click("#use-link")
    phone.wait_for_url(base + "/")
    phone.wait_for_selector("#account-form:not([hidden])")  # confirming signs nobody in
    assert len(mailbox.to(address)) == 1
    assert (phone.goto(link) or pytest.fail("no answer")).status == 404  # once
    desk.goto(base + "/?lang=en")
    desk.wait_for_selector("#signed-in:not([hidden])")
    assert desk.evaluate("fetch('/api/me').then((r) => r.json())")["account"]["email_verified"] is True
    shot(desk, "mail-verified-1400")
    phone.goto(base + "/?lang=en")
    phone.locator("#account-form input[name=name]").fill(name)
    phone.click("#send-reset")
    phone.wait_for_selector("#reset-sent:not([hidden])")
    mailbox.wait_for(address, 2)  # now the reset link comes
    assert [e for e in errors if "404" not in e] == [], errors
    desk.context.close()
    phone.context.close()


def test_a_forgotten_password_is_set_again_from_the_mailed_link(browser, mail_server):
    base, mailbox = mail_server
    name = a_name("naomi")
    address = f"{name}@example.org"
    first = open_page(browser, viewport={"width": 1400, "height": 900})
    sign_up(first, base, name, address, mailbox=mailbox)
    # another browser, never signed in: the player forgot his password
    phone = open_page(browser, viewport={"width": 390, "height": 844})
    errors = watch_console(phone)
    phone.goto(base + "/?lang=en")
    phone.locator("#account-form input[name=name]").fill(name)
    phone.click("#send-reset")
    phone.wait_for_selector("#reset-sent:not([hidden])")
    (mail,) = mailbox.wait_for(address)
    (link,) = links_in(mail, base)
    phone.goto(link)
    phone.locator("#link input[name=password]").fill("a new secret")
    shot(phone, "mail-reset-390")
    phone.click("#use-link")
    phone.wait_for_url(base + "/")
    phone.wait_for_selector("#signed-in:not([hidden])")
    assert me(phone, base) == name
    # every browser signed in before is signed out; the old password no longer opens the account
    first.reload()
    first.wait_for_selector("#account-form:not([hidden])")
    sign_in(first, base, name)
    first.wait_for_selector("#account-error:not([hidden])")
    sign_in(first, base, name, "a new secret")
    first.wait_for_selector("#signed-in:not([hidden])")
    # the link is spent
    again = phone.goto(link)
    assert again is not None and again.status == 404
    assert [e for e in errors if "404" not in e] == [], errors
    first.context.close()
    phone.context.close()


def test_the_turn_notice_link_opens_the_seat_in_a_new_browser(browser, mail_server):
    base, mailbox = mail_server
    name = a_name("deborah")
    address = f"{name}@example.org"
    desk = open_page(browser, viewport={"width": 1400, "height": 900})
    sign_up(desk, base, name, address, mailbox=mailbox)
    desk.select_option("#pace", "24")
    desk.click("#create-game")
    desk.wait_for_selector("#link-list .own-seat")
    game_id = desk.locator("#link-list .own-seat").get_attribute("href").rsplit("/", 1)[1]
    desk.context.close()  # the player leaves: his decision waits, and he is mailed
    (mail,) = mailbox.wait_for(address)
    (link,) = links_in(mail, base)
    phone = open_page(browser, viewport={"width": 390, "height": 844})
    errors = watch_console(phone)
    phone.goto(link)
    shot(phone, "mail-notice-390")
    phone.click("#use-link")
    phone.wait_for_url(f"{base}/games/{game_id}")
    phone.wait_for_selector("#board")
    wait_for_the_seat(phone)  # his seat, his decision: the bar's buttons or a window
    assert me(phone, base) == name
    assert errors == [], errors
    phone.context.close()


def test_an_invitation_claimed_signed_in_follows_the_account(browser, mail_server):
    import httpx

    base, _ = mail_server
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "bot": "greedy"}]
    created = httpx.post(base + "/api/games", json={"seats": seats}, timeout=60)
    assert created.status_code == 201, created.text
    data = created.json()
    invitation = next(s["invitation"] for s in data["seats"] if "invitation" in s)
    name = a_name("boaz")
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    sign_up(page, base, name)
    page.goto(invitation)
    page.click("#take-seat")
    page.wait_for_url(f"{base}/games/{data['id']}")
    page.wait_for_selector("#board")
    # another browser signed in to the account opens the same seat: it is the account's
    other = open_page(browser, viewport={"width": 390, "height": 844})
    sign_in(other, base, name)
    row = other.locator(f"#my-running tr[data-my-game='{data['id']}']")
    row.wait_for()
    row.locator("a.play").click()
    other.wait_for_url(f"{base}/games/{data['id']}*")
    other.wait_for_selector("#board")
    assert other.locator("#app").get_attribute("data-seat") == "1"
    assert errors == [], errors
    page.context.close()
    other.context.close()
