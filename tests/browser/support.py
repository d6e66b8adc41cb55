"""Helpers of the browser tests."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# The screenshots of docs/ are refreshed only on request (JUDGES_SCREENSHOTS=1): a test run
# leaves the checkout as it found it.
SCREENSHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    if os.environ.get("JUDGES_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "judges-screenshots"
)


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
