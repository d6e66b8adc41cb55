"""Helpers of the browser tests.

Screenshots land in a temporary folder by default, so that a test run never rewrites a
tracked file. `bash scripts/screenshots.sh` regenerates the documentation's pictures in
`docs/screenshots/` by setting JUDGES_SCREENSHOTS_DIR.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def screenshots_dir() -> Path:
    chosen = os.environ.get("JUDGES_SCREENSHOTS_DIR")
    return Path(chosen) if chosen else Path(tempfile.gettempdir()) / "judges-screenshots"


def shot(page, name: str) -> Path:
    folder = screenshots_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    return path
