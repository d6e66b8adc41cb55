"""Helpers of the browser tests: the server they run against, Chromium's options, screenshots.

The tests' screenshots land in a temporary folder (or in JUDGES_SCREENSHOTS_DIR), so that a
test run never rewrites a tracked file. The documentation's gallery is made by
`bash scripts/screenshots.sh` (tests/browser/gallery.py).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
DOCS_SCREENSHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve(folder: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """A real server (its own process, loopback only, its database in `folder`) that builds
    scenario positions and takes seeds; yields its address, which is also the one its mails'
    links name. `env` adds settings (JUDGES_*)."""
    port = _free_port()
    db = folder / "browser.db"
    output = open(folder / "server.log", "wb")  # a file: a pipe nobody reads would fill and stall the server
    env = {
        **os.environ,
        "JUDGES_BOT_DELAY": "0.02",
        "JUDGES_CREATE_BURST": "1000",
        "JUDGES_DATABASE_URL": f"sqlite:///{db}",
        "JUDGES_PUBLIC_URL": f"http://127.0.0.1:{port}",
        **(env or {}),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "judges.cli", "serve", "--port", str(port), "--allow-scenarios", "--allow-seeds"],
        env=env,
        cwd=ROOT,
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
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
    finally:
        process.terminate()
        process.wait(timeout=10)
        output.close()


def screenshots_dir() -> Path:
    chosen = os.environ.get("JUDGES_SCREENSHOTS_DIR")
    return Path(chosen) if chosen else Path(tempfile.gettempdir()) / "judges-screenshots"


def shot(page, name: str) -> Path:
    folder = screenshots_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    return path
