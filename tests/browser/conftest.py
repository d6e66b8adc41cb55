"""Browser tests: a real server (its own process, loopback only) and Debian's Chromium
driven by Playwright. Chromium comes from scripts/setup-browser.sh."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser.play import TIMEOUT
from browser.support import CHROMIUM, CHROMIUM_ARGS, serve


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("db")) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup-browser.sh (as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(TIMEOUT)  # a heavily loaded machine is slow, never stuck
    pg = context.new_page()
    yield pg
    context.close()
