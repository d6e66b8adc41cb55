"""/learn, the guided first game, runs from its first lesson to the court's
table, and from the court's lessons to the real game against easy bots, in each language, by
clicking only what the guide rings (or its Next); the course is left and resumed half-way; the
round's table's final screen shows the review of the player's costliest decisions; in Spanish
and Portuguese no English word shows, at every step (the check of the screen's language test).
At every step the guide shows no line of no words ("null") and lies over no button of the
bottom bar, at 1400x900 and on a phone (390x844); the court's lessons (succession, a Judge
appointed, a discard, a captive, the Ark) read in every language at both sizes. Screenshots:
`31-lesson-<lang>-<w>x<h>.png`, `31-court-<step>-<lang>-<w>x<h>.png`,
`31-course-<lang>-<w>x<h>.png`."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser.play import open_page, watch_console
from browser.support import shot
from browser.test_screen_languages import check_no_english
from judges.server.advice.learn import lessons_payload

# What the guide shows now: the step, its counter, what it rings, whether Next is offered.
SIGNATURE = """() => {
  const g = document.querySelector('#learn-guide');
  if (!g || g.hidden) return 'none';
  const text = g.querySelector('.learn-text'), step = g.querySelector('.learn-step');
  const t = document.querySelector('.learn-target');
  const next = g.querySelector('.learn-next');
  return [location.pathname, text ? text.dataset.step : '', step ? step.textContent : '',
          t ? t.tagName + (t.dataset.settlement || t.dataset.general || t.id || '') + t.textContent.slice(0, 60) : '',
          next ? next.dataset.learn : ''].join('|');
}"""


# What is wrong with the guide on screen: a line of no words ("null"), or the guide lying over a
# button of the bottom bar (the buttons that reopen a decision's window).
GUIDE_FAULTS = """() => {
  const g = document.querySelector('#learn-guide');
  if (!g || g.hidden) return [];
  const faults = g.innerText.split('\\n').map((line) => line.trim())
    .filter((line) => /\\b(null|undefined|NaN)\\b|\\[object Object\\]/.test(line))
    .map((line) => 'a line of no words: ' + line);
  const box = g.getBoundingClientRect();
  for (const b of document.querySelectorAll('#bottombar:not([hidden]) button')) {
    const r = b.getBoundingClientRect();
    if (!r.width) continue;
    if (r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom)
      faults.push('the guide covers the button ' + b.textContent.trim());
  }
  return faults;
}"""


def guide_moves_on(page, before: str) -> None:
    page.wait_for_function(f"(before) => ({SIGNATURE})() !== before && ({SIGNATURE})() !== 'none'", arg=before)


def follow_the_guide(page, lang: str, seen: set[str], stop_at: str | None = None) -> str:
    """Clicks what the guide rings until it offers the real game (or reaches lesson `stop_at`)."""
    for _ in range(300):
        page.locator("#learn-guide:not([hidden]) .learn-text").wait_for()
        if lang != "en":
            check_no_english(page, lang, "lesson")
        before = page.evaluate(SIGNATURE)
        try:  # the guide moves above a bar that has just appeared within a frame or two
            page.wait_for_function(f"() => ({GUIDE_FAULTS})().length === 0", timeout=3000)
        except PlaywrightTimeout:
            pass
        assert page.evaluate(GUIDE_FAULTS) == [], before
        key, offered = before.split("|")[1], before.split("|")[-1]
        seen.add(key)
        if stop_at and key.startswith(stop_at):
            return key
        if offered == "real":
            return "real"
        try:  # the control of the step read, not of a later one (the guide may move on meanwhile)
            if offered:
                next_of_step = f"#learn-guide .learn-text[data-step='{key}'] ~ .learn-buttons .learn-next"
                page.locator(next_of_step).click(timeout=5000)
            else:
                page.locator(f".learn-target[data-learn-step='{key}']").first.click(timeout=5000)
        except PlaywrightTimeout:
            continue
        guide_moves_on(page, before)
    raise AssertionError(f"the course did not end; steps seen: {sorted(seen)}")


@pytest.mark.parametrize(
    "lang, size", [("en", (1400, 900)), ("es", (1400, 900)), ("pt_BR", (390, 844))], ids=["en", "es", "pt_BR-phone"]
)
def test_learn_runs_from_the_first_lesson_to_the_court(server, browser, lang, size):
    page = open_page(browser, viewport={"width": size[0], "height": size[1]})
    errors = watch_console(page)
    page.goto(f"{server}/learn?lang={lang}")
    if lang != "en":
        check_no_english(page, lang, "the course's page")
    links = page.locator("#lessons .manual-ref")
    assert links.count() == len(lessons_payload(lang)["lessons"])
    assert all(f"/manual/{lang}/" in (links.nth(i).get_attribute("href") or "") for i in range(links.count()))
    page.click("#learn-start")
    page.wait_for_url("**/games/**")
    seen: set[str] = set()
    follow_the_guide(page, lang, seen, stop_at="learn.acquisitions")
    page.locator(".learn-target").first.wait_for()
    shot(page, f"31-lesson-{lang}-{size[0]}x{size[1]}")
    # leave the course half-way and resume it from its page
    page.goto(f"{server}/learn?lang={lang}")
    assert page.locator("#lessons li.done").count() >= 5  # the Announcements' lessons, Intrigue, Income
    page.click("#learn-resume")
    page.wait_for_url("**/games/**")
    assert follow_the_guide(page, lang, seen, stop_at="learn.victory") == "learn.victory.table"
    # the round's table is over: the review of the seat's costliest decisions, under the final table
    page.locator("[data-panel='final'] [data-panel='review'][data-ready='true'] h3").wait_for()
    if lang != "en":
        check_no_english(page, lang, "the review after the game")
    # on to the court's table (its lessons to the real game: the test below)
    assert follow_the_guide(page, lang, seen, stop_at="learn.succession") == "learn.succession.choose"
    lessons = lessons_payload(lang)["lessons"]
    before_court = {s["key"] for lesson in lessons if lesson["game"] != "court" for s in lesson["steps"]}
    assert before_court <= seen, sorted(before_court - seen)
    assert errors == []
    page.context.close()


COURT_SHOTS = (
    "learn.succession.choose",
    "learn.discard.card",
    "learn.captives.execute",
    "learn.ark.carry",
    "learn.ark.points",
)


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
@pytest.mark.parametrize("size", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_court_lessons_play_through_in_every_language_and_size(server, browser, lang, size):
    """The course resumed at its court (its first lesson there): the guide's steps to the end,
    a screenshot of each of the court's windows and moments."""
    page = open_page(browser, viewport={"width": size[0], "height": size[1]})
    errors = watch_console(page)
    lessons = lessons_payload(lang)["lessons"]
    first = next(i for i, lesson in enumerate(lessons) if lesson["game"] == "court")
    page.goto(f"{server}/learn?lang={lang}")
    progress = {"lesson": first, "step": 0, "games": {}, "done": [x["id"] for x in lessons[:first]], "started": True}
    page.evaluate("(p) => localStorage.setItem('jk-learn', JSON.stringify(p))", progress)
    page.reload()
    page.locator("#learn-resume").wait_for()
    shot(page, f"31-course-{lang}-{size[0]}x{size[1]}")
    page.click("#learn-resume")
    page.wait_for_url("**/games/**")
    seen: set[str] = set()
    for key in COURT_SHOTS:
        assert follow_the_guide(page, lang, seen, stop_at=key) == key
        page.locator(f".learn-target[data-learn-step='{key}']").first.wait_for()
        shot(page, f"31-court-{key.split('.', 1)[1]}-{lang}-{size[0]}x{size[1]}")
    assert follow_the_guide(page, lang, seen) == "real"
    court = {s["key"] for lesson in lessons[first:] for s in lesson["steps"]}
    assert court <= seen, sorted(court - seen)
    winners = page.evaluate(
        "fetch(location.pathname.replace('/games/', '/api/games/') + '/view').then(r => r.json()).then(v => v.winners)"
    )
    assert winners == [0]  # King, Judge and Tabernacle: three points
    # the course's end: a real game against two easy bots, with no guide
    course_table = page.url
    page.locator("#learn-guide [data-learn='real']").click()
    page.wait_for_url(lambda url: url != course_table and "/games/" in url)
    page.wait_for_function("() => document.body.dataset.seq !== undefined")
    assert page.locator("#learn-guide").count() == 0
    seats = page.evaluate(
        "fetch(location.pathname.replace('/games/', '/api/games/') + '/view').then(r => r.json()).then(v => v.seats)"
    )
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
    assert errors == []
    page.context.close()
