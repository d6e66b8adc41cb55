"""Screenshots of every moment (start, movement with a selection,
acquisitions, a battle with its dice, each window, elimination, final table, replay step 0) at
1400x900, 1280x720 (5 players) and 390x844, made by `bash scripts/screenshots.sh`
(tests/browser/gallery.py), with an index; the README's picture is one of them."""

from __future__ import annotations

from pathlib import Path

from browser import gallery
from browser.support import DOCS_SCREENSHOTS
from judges.protocol import protocol

ROOT = Path(__file__).resolve().parents[2]


def test_the_gallery_covers_every_moment_on_the_three_profiles():
    sizes = {(o["viewport"]["width"], o["viewport"]["height"], players) for _, o, players in gallery.PROFILES.values()}
    assert sizes == {(1400, 900, 3), (1280, 720, 5), (390, 844, 3)}
    assert any(o.get("has_touch") for _, o, _ in gallery.PROFILES.values())
    moments = set(gallery.MOMENTS)
    assert {"start", "movement", "acquisitions", "battle", "elimination", "final", "replay"} <= moments
    # each window of the game: every decision answered in a window (the protocol's list)
    windows = {d["name"] for d in protocol()["decisions"] if d["opens_window"]}
    assert windows, "the protocol names no window"
    assert {f"window-{kind}" for kind in windows} <= moments


def test_the_index_lists_every_picture_and_the_readme_shows_one_of_them():
    text = gallery.index()
    for profile in gallery.PROFILES:
        for moment in gallery.MOMENTS:
            assert f"`{gallery.file_name(profile, moment)}`" in text
    # the tracked index is the one the gallery writes, and the README's picture is in git
    assert (DOCS_SCREENSHOTS / "README.md").read_text() == text
    assert (DOCS_SCREENSHOTS / gallery.README_PICTURE).is_file()
    assert f"(docs/screenshots/{gallery.README_PICTURE})" in (ROOT / "README.md").read_text()


def test_the_gallery_makes_its_pictures(server, browser, tmp_path):
    # a small subset: a window and the replay at step 0, on the 5-player screen and the phone
    made = gallery.make(browser, server, tmp_path, ["laptop", "phone"], ["window-vote", "replay"])
    assert sorted(p.name for p in made) == [
        "laptop-replay.png",
        "laptop-window-vote.png",
        "phone-replay.png",
        "phone-window-vote.png",
    ]
    for path in made:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000
    assert (tmp_path / "README.md").read_text() == gallery.index()
