"""The bytes a game costs, measured in Chromium through its network log (CDP Network
events): a whole 4-player game played by clicking transfers at most 2 MB, and a click on a
Fast 3G profile is answered on the screen in under 300 ms.

What is counted: every HTTP answer's `encodedDataLength` (headers and body as they came over
the wire, compressed) and every websocket frame's payload both ways (as Chromium reports it:
after permessage-deflate's inflation, so an upper bound when the socket compresses). The game
runs on a server of its own with the default bot delay (0.15 s), so that the screen draws
the steps one by one as a player would see them, not a few coalesced views.

MEASURED TEST: `test_29_9_a_click_on_fast_3g_is_answered_within_300_ms` is the one test of the
suite that asserts a duration, because the issue's "done when" asks for that bound. It prints
the figures (docs/performance.md, "The screen's bytes"); a loaded machine can make it fail."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import httpx
import pytest

from browser.play import HTTP_TIMEOUT, TIMEOUT, open_host_seat, open_page, play_to_the_end, watch_console
from browser.support import ROOT, _free_port
from judges.settings import Settings

BUDGET = 2 * 1000 * 1000  # bytes for a whole game
CLICK_BOUND = 300  # ms
# Chrome DevTools' "Fast 3G" preset (front_end/core/sdk/NetworkManager.ts): 150 ms RTT and
# 1.6 Mbit/s down / 750 kbit/s up, with DevTools' request-level adjustments (latency x3.75,
# throughput x0.9).
FAST_3G = {
    "offline": False,
    "latency": 150 * 3.75,
    "downloadThroughput": 1.6 * 1000 * 1000 / 8 * 0.9,
    "uploadThroughput": 750 * 1000 / 8 * 0.9,
}
FOUR = [{"kind": "human", "name": "Deborah"}] + [{"kind": "bot", "bot": "greedy"}] * 3


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory):
    """A server whose bots take the default pause between their actions."""
    port = _free_port()
    folder = tmp_path_factory.mktemp("paced")
    output = open(folder / "server.log", "wb")
    env = {**os.environ, "JUDGES_CREATE_BURST": "1000", "JUDGES_DATABASE_URL": f"sqlite:///{folder / 'paced.db'}"}
    env.pop("JUDGES_BOT_DELAY", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "judges.cli", "serve", "--port", str(port), "--allow-seeds"],
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


class NetworkLog:
    """What Chromium's network log says came and went (CDP Network events)."""

    def __init__(self, page) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.http = 0
        self.http_by_path: dict[str, int] = {}
        self.ws_in = self.ws_out = 0
        self.frames_in = 0
        self.urls: dict[str, str] = {}
        self.cdp.on("Network.requestWillBeSent", self._request)
        self.cdp.on("Network.loadingFinished", self._finished)
        self.cdp.on("Network.webSocketFrameReceived", self._frame_in)
        self.cdp.on("Network.webSocketFrameSent", self._frame_out)
        self.cdp.send("Network.enable")

    def _request(self, event) -> None:
        self.urls[event["requestId"]] = event["request"]["url"]

    def _finished(self, event) -> None:
        size = int(event["encodedDataLength"])
        self.http += size
        url = self.urls.get(event["requestId"], "?").split("?")[0]
        path = "/".join(part if len(part) < 12 else "*" for part in url.split("/")[3:])
        self.http_by_path[path] = self.http_by_path.get(path, 0) + size

    @staticmethod
    def _size(event) -> int:
        return len(event["response"]["payloadData"].encode())

    def _frame_in(self, event) -> None:
        self.ws_in += self._size(event)
        self.frames_in += 1

    def _frame_out(self, event) -> None:
        self.ws_out += self._size(event)

    @property
    def total(self) -> int:
        return self.http + self.ws_in + self.ws_out


@pytest.mark.timeout(1800)  # a whole game at the bots' default pace: minutes
def test_29_9_a_whole_four_player_game_transfers_at_most_2_mb(paced_server, browser):
    assert Settings.model_fields["bot_delay"].default > 0.1  # the default pace (a test run's own server may be faster)
    response = httpx.post(paced_server + "/api/games", json={"seats": FOUR, "seed": 11}, timeout=HTTP_TIMEOUT)
    data = response.json()
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    log = NetworkLog(page)
    open_host_seat(page, paced_server, data)
    done = play_to_the_end(page)
    page.locator("[data-panel='final']").wait_for()
    steps = int(page.evaluate("document.body.dataset.seq"))
    print(
        f"\n[measured] a whole 4-player game ({steps} steps, {done}): {log.total / 1e6:.2f} MB "
        f"(HTTP {log.http / 1e6:.2f} MB, websocket in {log.ws_in / 1e6:.2f} MB in {log.frames_in} frames, "
        f"out {log.ws_out / 1e6:.3f} MB); HTTP by path: "
        + ", ".join(f"{p} {n / 1e3:.0f} kB" for p, n in sorted(log.http_by_path.items(), key=lambda kv: -kv[1])[:8])
    )
    assert steps > 100 and done["turns"] > 0  # a whole game, played on the screen
    assert log.total <= BUDGET
    assert errors == []
    page.context.close()


CLICK_AND_WAIT = """(target) => new Promise((resolve) => {
  const before = document.body.dataset.seq;
  const watch = new MutationObserver(() => {
    if (document.body.dataset.seq !== before) { watch.disconnect(); resolve(performance.now() - start); }
  });
  watch.observe(document.body, {attributes: true, attributeFilter: ["data-seq"]});
  const start = performance.now();
  target.click();
})"""

# The seat may act, and the answer to its last click has come (a click while it is on its
# way is dropped by the screen: on Fast 3G the answer may come after the next views did).
SEAT_CAN_ACT = """() => document.body.dataset.over === 'true'
  || (document.body.dataset.sending !== 'true'
      && (!document.querySelector('#modal').hidden || !!document.querySelector('#actions:not([hidden]) .end-turn')))"""


def test_29_9_a_click_on_fast_3g_is_answered_within_300_ms(paced_server, browser):
    """MEASURED: from a click (a window's choice or End turn) to the screen's next step drawn,
    on Chrome's Fast 3G profile; the median of 7 clicks."""
    response = httpx.post(paced_server + "/api/games", json={"seats": FOUR, "seed": 5}, timeout=HTTP_TIMEOUT)
    data = response.json()
    page = open_page(browser, viewport={"width": 1400, "height": 900})
    errors = watch_console(page)
    log = NetworkLog(page)
    open_host_seat(page, paced_server, data)
    page.wait_for_function("() => document.body.dataset.seq !== undefined")
    log.cdp.send("Network.emulateNetworkConditions", FAST_3G)
    times = []
    while len(times) < 7:
        page.wait_for_function(SEAT_CAN_ACT, timeout=TIMEOUT)
        if page.evaluate("document.body.dataset.over") == "true":
            break
        if not page.locator("#modal").is_hidden():
            target = page.locator("#modal:not([hidden]) .options button").first
        else:
            target = page.locator("#actions:not([hidden]) .end-turn")
        times.append(target.evaluate(CLICK_AND_WAIT))
    median = statistics.median(times)
    print(f"\n[measured] click to screen on Fast 3G: median {median:.0f} ms, each {[round(t) for t in times]}")
    assert len(times) == 7
    assert median < CLICK_BOUND
    assert errors == []
    page.context.close()


APPLY_ALL = """async ([messages, probes]) => {
  const {applyUpdate} = await import('/static/js/connection.js');
  let view = null;
  const seen = [];
  messages.forEach((message, i) => {
    view = applyUpdate(view, message);
    if (probes.includes(i)) seen.push(JSON.stringify(view));
  });
  return seen;
}"""


def test_29_9_the_screen_applies_a_deltas_edits_as_the_server_reference_does(server, page):
    """The screen's `applyUpdate` (web/static/js/connection.js) against `updates.apply_update`:
    over 300 steps of a 4-player game, the views it builds from the deltas' edits are the full
    views the server would send."""
    import json

    import msgspec

    from judges.bots import make_bot
    from judges.engine import Game, Options
    from judges.server.games.judges import wire
    from judges.server.table import updates

    game = Game.new(Options(players=4, seed=21))
    seats = [{"name": f"P{i}", "kind": "bot", "bot": "greedy"} for i in range(4)]
    bots = [make_bot("greedy", 21 + i) for i in range(4)]
    table = wire.Table(turn_timer=None, takeover_bot="greedy", hints=False)
    messages, fulls, before = [], [], None
    while not game.is_over and len(messages) < 300:
        shared = wire.public("g", game, seats, table, 50)
        parts = wire.parts(wire.view(shared, 0, "en"), shared)
        fulls.append(msgspec.json.decode(updates.full_message(parts, len(messages), b"[]"))["view"])
        if before is None:
            messages.append(msgspec.json.decode(updates.full_message(parts, 0, b"[]")))
        else:
            names = updates.changed(before, parts)
            messages.append(msgspec.json.decode(updates.delta_message(names, parts, len(messages), b"[]", before, {})))
        before = parts
        seat = game.waiting_for()[0]
        game.apply(bots[seat].choose(seat, game.legal_actions(seat), lambda: game.view(seat)))
    patched = [m for m in messages if m.get("patch")]
    assert len(patched) > len(messages) / 2  # most steps travel as edits
    page.goto(server + "/")
    probes = list(range(0, len(messages), 25)) + [len(messages) - 1]
    seen = page.evaluate(APPLY_ALL, [messages, probes])
    assert [json.loads(v) for v in seen] == [fulls[i] for i in probes]
