"""Browser tests: a real server (its own process, loopback only) and Debian's Chromium
driven by Playwright. Chromium comes from scripts/setup-browser.sh."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from browser.play import TIMEOUT

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    port = _free_port()
    folder = tmp_path_factory.mktemp("db")
    db = folder / "browser.db"
    output = open(folder / "server.log", "wb")  # a file: a pipe nobody reads would fill and stall the server
    env = {
        **os.environ,
        "JUDGES_BOT_DELAY": "0.02",
        "JUDGES_CREATE_BURST": "1000",
        "JUDGES_DATABASE_URL": f"sqlite:///{db}",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "judges.cli", "serve", "--port", str(port), "--allow-scenarios", "--allow-seeds"],
        env=env,
        cwd=ROOT,
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if httpx.get(base + "/api/world", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        process.kill()
        raise RuntimeError("the server did not start: " + (folder / "server.log").read_text()[-2000:])
    yield base
    process.terminate()
    process.wait(timeout=10)
    output.close()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup-browser.sh (as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-sync",
                "--disable-quic",
            ],
        )
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(TIMEOUT)  # a heavily loaded machine is slow, never stuck
    pg = context.new_page()
    yield pg
    context.close()
