"""Helpers of the browser tests."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# The documentation's screenshots are refreshed on request (JUDGES_SCREENSHOTS=1): a plain
# test run writes them to a temporary folder and leaves the checkout clean.
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREENSHOTS = DOCS_SCREENSHOTS if os.environ.get("JUDGES_SCREENSHOTS") else \
    Path(tempfile.gettempdir()) / "judges-screenshots"


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
