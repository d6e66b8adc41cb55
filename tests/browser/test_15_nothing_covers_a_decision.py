"""§ 15 What the player sees — nothing covers a decision:

- the phase track is never cut ("Inco…", "An…"): each of the seven phases shows its whole name
  at 1280 px and wider, in English, Spanish and Portuguese, beside whom the game waits for;
- a battle's dice never lie on an open decision window or on the final table (three battles at
  once, a window opening with them, the game ending right after), at 1280×720 and on a phone;
- the home page's help text sits in the form, under its field, over none of its controls."""

from __future__ import annotations

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, TIMEOUT, open_host_seat, open_page, watch_console
from browser.support import shot
from judges.i18n import catalog

TRUNCATED = "(n) => n.scrollWidth > n.clientWidth + 1"


@pytest.mark.parametrize("width", [1280, 1400])
@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
def test_the_phase_track_is_never_cut(server, browser, lang, width):
    # Six seats, two of them human: seat 1's page waits for seat 0 (a long name beside the track).
    seats = [{"kind": "human", "name": "Bartolomeu Zebedeu"}, {"kind": "human", "name": "Gideon"}]
    seats += [{"kind": "bot", "bot": "greedy"}] * 4
    data = httpx.post(server + "/api/games", json={"seats": seats, "seed": 5}, timeout=HTTP_TIMEOUT).json()
    page = open_page(browser, viewport={"width": width, "height": 720})
    errors = watch_console(page)
    page.goto(data["seats"][1]["invitation"] + f"?lang={lang}")
    page.click("#take-seat")
    page.wait_for_url(f"**/games/{data['id']}*")
    page.wait_for_function("() => document.querySelector('#waiting').textContent.includes('Bartolomeu')")
    words = catalog(lang)
    phases = page.locator("#phases li")
    assert phases.count() == 7
    shown = [phases.nth(i).inner_text().strip() for i in range(7)]
    names = ("announcements", "intrigue", "income", "acquisitions", "movement", "combat", "victory")
    assert shown == [words[f"phase.{p}"] for p in names]
    cut = [phases.nth(i).inner_text() for i in range(7) if phases.nth(i).evaluate(TRUNCATED)]
    assert not cut, f"phases cut short: {cut}"
    # each inside the window, none under its neighbours in the bar
    boxes = page.evaluate(
        """() => {
      const box = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
      const others = '#round, #waiting, #wrath, .tools, .topbar .title';
      return {phases: [...document.querySelectorAll('#phases li')].map(box),
              others: [...document.querySelectorAll(others)].map(box), width: innerWidth};
    }"""
    )
    for left, top, right, bottom in boxes["phases"]:
        assert 0 <= left and right <= boxes["width"]
        for o in boxes["others"]:
            apart = min(right, o[2]) - max(left, o[0]) <= 0.5 or min(bottom, o[3]) - max(top, o[1]) <= 0.5
            assert apart, (o, left, right)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, f"phase-track-{width}-{lang}")
    assert errors == []
    page.context.close()


# Seat 0's three armies stand on three enemy settlements when its Movement turn ends: the Combat
# phase fights three battles at once and opens a Plunder window for each conquest; the game ends
# with the round (round_limit 1).
THREE_BATTLES = {
    "phase": "movement",
    "clear_board": True,
    "settlements": {
        "Hazor": {"owner": 0, "troops": 2},
        "Hebron": {"owner": 1, "troops": 1},
        "Gibeah": {"owner": 1, "troops": 1},
        "Shechem": {"owner": 2, "troops": 1},
        "Arad": {"owner": 1, "troops": 2},
        "Tamar": {"owner": 2, "troops": 2},
    },
    "generals": [
        {"id": 10, "owner": 0, "at": "Hebron", "army": 6},
        {"id": 13, "owner": 0, "at": "Gibeah", "army": 6},
        {"id": 14, "owner": 0, "at": "Shechem", "army": 6},
        {"id": 11, "owner": 1, "at": "Arad"},
        {"id": 12, "owner": 2, "at": "Tamar"},
    ],
}

# Every frame: how much of the dice box lies on the open window's decision or the final table,
# and whether the box was shown while a window was open (else the test would prove nothing).
WATCH = """(() => {
  window.__dice = {overlaps: [], withWindow: 0, frames: 0, behind: 0};
  const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const look = () => {
    const box = document.querySelector('.battle-overlay');
    if (box && box.getBoundingClientRect().width) {
      const b = box.getBoundingClientRect(), modal = document.querySelector('#modal');
      window.__dice.frames++;
      const open = modal && !modal.hidden;
      const decisions = [...document.querySelectorAll('#modal:not([hidden]) #modal-body, [data-panel=final]')];
      for (const d of decisions) {
        const a = area(b, d.getBoundingClientRect());
        if (a > 1) window.__dice.overlaps.push([d.id || d.dataset.panel, Math.round(a)]);
      }
      if (open) {
        window.__dice.withWindow++;
        // the box is seen, not dimmed behind the window's veil
        const hit = document.elementFromPoint(b.left + b.width / 2, b.top + Math.min(b.height / 2, 12));
        if (!hit || !box.contains(hit)) window.__dice.behind++;
      }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})()"""


@pytest.mark.parametrize(
    "viewport, lang",
    [({"width": 1280, "height": 720}, "es"), ({"width": 390, "height": 844}, "en")],
    ids=["1280x720-es", "390x844-en"],
)
def test_a_battles_dice_never_cover_a_window_or_the_final_table(server, browser, viewport, lang):
    data = httpx.post(
        server + "/api/games",
        json={
            "seats": [{"kind": "human", "name": "Deborah"}, {"kind": "bot"}, {"kind": "bot"}],
            "seed": 3,
            "round_limit": 1,
            "position": THREE_BATTLES,
        },
        timeout=HTTP_TIMEOUT,
    ).json()
    page = open_page(browser, viewport=viewport)
    errors = watch_console(page)
    page.add_init_script(WATCH)
    open_host_seat(page, server, data, f"?lang={lang}")
    page.locator("#actions .end-turn").click()
    windows = 0
    while page.evaluate("document.body.dataset.over") != "true":
        page.wait_for_function(
            """() => document.body.dataset.over === 'true'
                 || !!document.querySelector('#modal:not([hidden]) .options button')""",
            timeout=TIMEOUT,
        )
        if page.evaluate("document.body.dataset.over") == "true":
            break
        if windows == 0:
            page.wait_for_function("() => window.__dice.withWindow > 0", timeout=10_000)
            page.wait_for_timeout(700)  # the dice have rolled
            shot(page, f"battle-dice-with-window-{viewport['width']}-{lang}")
        page.wait_for_timeout(300)  # the dice show a while with the window open
        before = page.evaluate("document.body.dataset.seq")
        page.locator("#modal:not([hidden]) .options button").first.click()
        page.wait_for_function(f"() => document.body.dataset.seq !== '{before}'")
        windows += 1
    page.locator("[data-panel=final]").wait_for()
    page.wait_for_timeout(1500)  # the dice still showing (if they are) beside the final table
    seen = page.evaluate("window.__dice")
    assert windows >= 1 and seen["frames"] > 0 and seen["withWindow"] > 0, seen
    assert seen["overlaps"] == [], f"the dice lay on a decision: {seen['overlaps'][:5]}"
    assert seen["behind"] == 0, seen
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(
    "viewport", [{"width": 1400, "height": 900}, {"width": 390, "height": 844}], ids=["desktop", "phone"]
)
@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_home_pages_help_text_stays_in_the_form(server, browser, lang, viewport):
    page = open_page(browser, viewport=viewport)
    errors = watch_console(page)
    page.goto(f"{server}/?lang={lang}")
    page.locator(".seat-row").nth(3).wait_for()
    hint = page.locator("#new-game .hint")
    assert hint.inner_text().strip() == catalog(lang)["ui.takeover_help"]
    found = hint.evaluate(
        """(hint) => {
      const h = hint.getBoundingClientRect();
      const area = (a) => Math.max(0, Math.min(a.right, h.right) - Math.max(a.left, h.left))
        * Math.max(0, Math.min(a.bottom, h.bottom) - Math.max(a.top, h.top));
      const controls = ['input', 'select', 'button', 'label', 'h2'].map((c) => '#new-game ' + c).join(', ');
      const others = [...document.querySelectorAll(controls)].filter((n) => !n.contains(hint) && !hint.contains(n));
      const field = document.querySelector('#takeover-bot').getBoundingClientRect();
      const form = hint.closest('form').getBoundingClientRect();
      const covered = others.filter((n) => area(n.getBoundingClientRect()) > 1);
      return {covered: covered.map((n) => n.id || n.className || n.tagName),
              below: h.top >= field.bottom - 1, inForm: form.bottom >= h.bottom};
    }"""
    )
    assert found["covered"] == [], f"the help text lies on {found['covered']}"
    assert found["below"] and found["inForm"], found
    shot(page, f"home-help-{lang}-{viewport['width']}")
    assert errors == []
    page.context.close()
