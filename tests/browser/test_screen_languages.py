"""§ 15 Languages: every moment of the screen's gallery (lobby, invitation, the game with a
decision window and the bell, the final table, an eliminated player's message, a spectator's
view, a replay) read in Spanish and in Portuguese shows no English word.

The visible text of each moment is collected (the page's text, the board's labels and
tooltips, and the title/aria-label/placeholder/alt attributes of every element) and checked
against `english_only_words`: the English catalog's words that the other language's catalog
never uses, plus a few common English words a hard-coded string would carry. A message key
shown raw (a missing translation) fails too. Screenshots: `<moment>-<lang>.png`."""

from __future__ import annotations

import re

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, bots_finish_game, new_game, open_host_seat, open_page, watch_console
from browser.positions import ELECTION, ELIMINATION, PLAYER_NAMES
from browser.support import shot
from judges.i18n import catalog

LANGUAGES = ["es", "pt_BR"]
WORD = re.compile(r"[^\W\d_]{3,}")
FIELD = re.compile(r"\{[^}]*\}|https?://\S+")  # format fields; addresses (an invitation's link) are no words
# Words a hard-coded English string would carry although no catalog text is made of them alone.
COMMON_ENGLISH = {"the", "and", "you", "your", "with", "from", "this", "that", "for", "not", "none", "game", "seat"}
COMMON_ENGLISH |= {"turn", "round", "player", "players", "join", "watch", "replay", "vote", "bot", "free", "greedy"}
COMMON_ENGLISH |= {"random", "loading", "error", "close", "cancel", "open", "score", "points", "winner", "board"}


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(FIELD.sub(" ", text))}


# Texts a translation keeps exactly as in English: proper names, and words the same in Spanish
# and Portuguese. Any other text equal to its English one is no evidence that its words are
# Spanish or Portuguese (a translation broken by copying the English must still be caught).
SAME_AS_ENGLISH_PREFIXES = ("place.", "kingdom.", "ui.language_name.")
SAME_AS_ENGLISH = {"ui.manual", "manual.title", "ui.error", "ui.bot", "ui.general", "item.general"}


def english_only_words(lang: str) -> set[str]:
    """Words of the English catalog (and common English words) that `lang`'s catalog never uses."""
    en, other = catalog("en"), catalog(lang)
    theirs: set[str] = set()
    for key, text in other.items():
        if text != en.get(key) or key in SAME_AS_ENGLISH or key.startswith(SAME_AS_ENGLISH_PREFIXES):
            theirs |= words(text)
    ours = words(" ".join(en.values())) | COMMON_ENGLISH
    return ours - theirs - {n.lower() for n in PLAYER_NAMES}


KEY = re.compile(r"\b(?:" + "|".join(sorted({k.split(".")[0] for k in catalog("en")})) + r")\.[a-z_]+(?:\.[a-z_]+)*\b")

COLLECT = """() => {
  const parts = [document.title, document.body.innerText];
  for (const n of document.querySelectorAll('svg text, svg title, option')) parts.push(n.textContent);
  for (const a of ['title', 'aria-label', 'placeholder', 'alt', 'data-hint'])
    for (const n of document.querySelectorAll(`[${a}]`)) parts.push(n.getAttribute(a));
  return parts.join('\\n');
}"""


def check_no_english(page, lang: str, moment: str) -> None:
    text = page.evaluate(COLLECT)
    leaked = words(text) & english_only_words(lang)
    raw_keys = set(KEY.findall(text))
    assert not leaked and not raw_keys, (
        f"{moment} in {lang}: English words {sorted(leaked)}, raw keys {sorted(raw_keys)}"
    )


@pytest.fixture(scope="module")
def finished_game(server):
    """A short game the bots played to its end (the creator's seat handed to a bot)."""
    return bots_finish_game(server)[0]


def test_the_english_word_list_catches_an_english_sentence():
    # the check itself can fail: an English sentence of the catalog is caught in either language
    for lang in LANGUAGES:
        assert {"players", "your", "turn", "tabernacle", "greedy"} <= english_only_words(lang), lang
        found = words(catalog("en")["ui.your_turn"] + " " + catalog("en")["ui.players"]) & english_only_words(lang)
        assert found, lang
        assert not words(" ".join(catalog(lang)[k] for k in ("ui.your_turn", "ui.players"))) & english_only_words(lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_and_an_invitation_show_no_english_word(server, browser, lang):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    open_table = httpx.post(
        server + "/api/games",
        json={
            "seats": [{"kind": "human", "name": "Ehud"}, {"kind": "human", "open": True}, {"kind": "bot"}],
            "seed": 4,
        },
        timeout=HTTP_TIMEOUT,
    ).json()
    new_game(server, seed=5)  # a running game to watch
    page.goto(f"{server}/?lang={lang}")
    page.locator(f"[data-open-game='{open_table['id']}']").wait_for()
    page.locator("#running-games tr").first.wait_for()
    page.locator(".seat-row").nth(3).wait_for()
    check_no_english(page, lang, "lobby")
    shot(page, f"home-lobby-{lang}")
    # the creator's links after creating a game from the form
    page.select_option(".seat-row:nth-child(2) .seat-kind", "human")
    page.click("#create-game")
    page.locator(".own-seat").wait_for()
    check_no_english(page, lang, "invitation links")
    invitation = page.locator(".seat-link").first.get_attribute("href")
    # the invited player opens it in their own browser (the creator's holds a seat already)
    guest = open_page(browser, viewport={"width": 1400, "height": 900})
    guest_errors = watch_console(guest)
    guest.goto(f"{invitation}?lang={lang}")
    guest.locator("#take-seat").wait_for()
    check_no_english(guest, lang, "invitation")
    assert errors == [] and guest_errors == []
    page.context.close()
    guest.context.close()


@pytest.mark.parametrize(
    "viewport", [{"width": 1400, "height": 900}, {"width": 390, "height": 844}], ids=["desktop", "phone"]
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_with_a_decision_window_and_the_bell_show_no_english_word(server, browser, lang, viewport):
    page = open_page(browser, viewport=viewport)
    errors = watch_console(page)
    data = new_game(server, seed=3, position=ELECTION)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#modal:not([hidden])").wait_for()
    check_no_english(page, lang, "vote window")
    suffix = "" if viewport["width"] > 900 else "-phone"
    shot(page, f"vote-window-{lang}{suffix}")
    page.locator("#modal .options button").first.click()
    page.wait_for_function("() => document.querySelector('[data-panel=log]').innerText.length > 40")
    page.wait_for_function("() => document.querySelector('#unread').textContent !== ''")
    page.click("#bell")
    page.locator("#bell-panel details.note").first.wait_for()
    for summary in page.locator("#bell-panel details.note summary").all()[:4]:
        summary.click()
    check_no_english(page, lang, "game and bell")
    shot(page, f"game-{lang}{suffix}")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_final_table_and_the_replay_show_no_english_word(server, browser, finished_game, lang):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    open_host_seat(page, server, finished_game, f"?lang={lang}")
    page.locator("[data-panel='final']").wait_for()
    check_no_english(page, lang, "final table")
    shot(page, f"final-{lang}")
    page.goto(f"{server}/games/{finished_game['id']}/replay?lang={lang}")
    page.locator(".replay-where").wait_for()
    page.click("#replay-first")
    page.wait_for_selector(".replay-where[data-step='0']")
    check_no_english(page, lang, "replay (first step)")
    page.click("#replay-last")
    page.locator("[data-panel='final']").wait_for()
    check_no_english(page, lang, "replay (last step)")
    shot(page, f"replay-{lang}")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_elimination_message_and_the_spectator_view_show_no_english_word(server, browser, lang):
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    data = new_game(server, position=ELIMINATION, seed=8)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("[data-eliminated='true']").wait_for()
    check_no_english(page, lang, "eliminated")
    shot(page, f"eliminated-{lang}")
    running = new_game(server, seed=5)
    page.goto(f"{server}/games/{running['id']}/watch?lang={lang}")
    page.locator(".spectating").wait_for()
    page.wait_for_function("() => document.body.dataset.seq !== undefined")
    check_no_english(page, lang, "spectator")
    shot(page, f"spectator-{lang}")
    assert errors == []
    page.context.close()
