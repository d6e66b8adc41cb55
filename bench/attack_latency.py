"""An honest player's action latency while the server is attacked (issue 34, items 1, 2, 4).

Starts `judges serve` (SQLite in a temporary folder) and plays an honest two-seat game by
HTTP (end the turn when legal, else the first legal action), timing each POST of an action,
during one attack at a time:

- `none`: no attack (the reference);
- `rules`: clients post hostile rules (`free_draw` 30,000,000, `start_cards` 100,000 ...) and
  tables at every rule's maximum (RULE_MAXIMA), as fast as they are answered;
- `bots`: three tables whose bots search with the largest budget the server allows, and one
  honest table of a human and the default MCTS bot, whose answer time is timed too
  (`bots-reference`: that honest table alone, for comparison);
- `spectators`: 300 spectator sockets on the honest game, and one of its seats asking for a
  full view (resync) 500 times a second.

    .venv/bin/python bench/attack_latency.py --seconds 20            # every attack in turn
    .venv/bin/python bench/attack_latency.py --attack bots --seconds 30

Prints p50/p95/p99/max in milliseconds per attack (CPU of this machine; docs/reliability.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from judges.engine.rules import DECK_COPIES_MAX, RULE_MAXIMA  # noqa: E402
from server_process import Server  # noqa: E402

HOSTILE = [{"free_draw": 30_000_000}, {"start_cards": 100_000}, {"free_draw": 10**12}, {"max_battle_rounds": 10**9}]
HEAVIEST_BOT = "mcts:128:2"  # 256 rollout-rounds: the server's MAX_MCTS_BUDGET


def maximal_rules() -> dict:
    rules = {k: v for k, v in RULE_MAXIMA.items() if not k.endswith("_die") and not k.endswith("_min")}
    rules.update(min_players=2, default_wave_pairs=1, start_cards=5, deck={})
    from judges.engine import DEFAULT_RULES

    rules["deck"] = {card: DECK_COPIES_MAX for card in DEFAULT_RULES.deck}
    rules["start_cards"] = 10
    return rules


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {"n": len(values), "p50": at(0.50), "p95": at(0.95), "p99": at(0.99), "max": ordered[-1] * 1000}


def honest_game(base: str, seats: list[dict]) -> tuple[str, list[str | None]]:
    with httpx.Client(base_url=base, timeout=30) as client:
        data = client.post("/api/games", json={"seats": seats}).json()
        tokens: list[str | None] = [None] * len(seats)
        tokens[data["seat"]] = data["token"]
        for seat in data["seats"]:
            if "invitation" in seat:
                code = seat["invitation"].rstrip("/").rsplit("/", 1)[1]
                client.cookies.clear()  # another player, another browser: one seat each
                answer = client.post(f"/api/games/{data['id']}/claim", json={"invitation": code})
                tokens[seat["seat"]] = answer.json()["token"]
        return data["id"], tokens


def play_honestly(base: str, seconds: float, bot_answers: list[float] | None = None) -> list[float]:
    """The honest player's POST latencies; with `bot_answers`, seat 1 is the default MCTS bot and
    the time it takes to hand the turn back is recorded there."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "mcts"} if bot_answers is not None else {"kind": "human"}]
    game, tokens = honest_game(base, seats)
    latencies: list[float] = []
    end = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=60) as client:
        while time.monotonic() < end:
            seat_views = {}
            for seat, token in enumerate(tokens):
                if token:
                    seat_views[seat] = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": token}).json()
            view = seat_views[0]
            if view.get("ending"):
                game, tokens = honest_game(base, seats)
                continue
            owing = [s for s in view["waiting_for"] if tokens[s]]
            if not owing:
                waited = time.monotonic()
                while time.monotonic() < end:  # the bot plays: how long until the human's turn
                    view = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": tokens[0]}).json()
                    if view.get("ending") or any(tokens[s] for s in view["waiting_for"]):
                        break
                    time.sleep(0.01)
                if bot_answers is not None:
                    bot_answers.append(time.monotonic() - waited)
                continue
            seat = owing[0]
            legal = seat_views[seat]["legal_actions"]
            action = next((a for a in legal if a["type"] == "end_turn"), legal[0])
            started = time.perf_counter()
            response = client.post(
                f"/api/games/{game}/actions", headers={"X-Seat-Token": tokens[seat]}, json={"action": action}
            )
            latencies.append(time.perf_counter() - started)
            if response.status_code != 200:
                print("honest action refused:", response.status_code, response.text[:200], file=sys.stderr)
            time.sleep(0.05)
    return latencies


def attack_rules(base: str, stop: threading.Event) -> None:
    maximal = maximal_rules()
    with httpx.Client(base_url=base, timeout=60) as client:
        i = 0
        while not stop.is_set():
            rules = HOSTILE[i % len(HOSTILE)] if i % 2 else maximal
            seats = [{"kind": "human"}] * 6 if i % 2 == 0 else [{"kind": "human"}, {"kind": "human"}]
            client.post("/api/games", json={"seats": seats, "rules": rules})
            i += 1


def attack_bots(base: str, stop: threading.Event) -> None:
    with httpx.Client(base_url=base, timeout=60) as client:
        for _ in range(3):  # a human seat that never plays, and heavy bots that play for ever
            client.post(
                "/api/games",
                json={"seats": [{"kind": "human"}] + [{"kind": "bot", "bot": HEAVIEST_BOT}] * 3, "host_seat": 0},
            )
    stop.wait()


async def _spectators(base: str, game: str, token: str, stop: threading.Event) -> None:
    import websockets

    ws_base = base.replace("http", "ws")
    sockets = []
    for _ in range(300):
        try:
            sockets.append(await websockets.connect(f"{ws_base}/ws/games/{game}/spectate", max_size=None))
        except Exception:  # noqa: BLE001 - refused past the server's limits: that is the point
            break
    print(f"  spectator sockets open: {len(sockets)}", file=sys.stderr)

    async def drain(ws) -> None:
        try:
            async for _ in ws:
                pass
        except Exception:  # noqa: BLE001
            pass

    drains = [asyncio.create_task(drain(ws)) for ws in sockets]
    seat = await websockets.connect(
        f"{ws_base}/ws/games/{game}", additional_headers={"X-Seat-Token": token}, max_size=None
    )
    drains.append(asyncio.create_task(drain(seat)))
    while not stop.is_set():
        try:
            await seat.send(json.dumps({"type": "resync"}))
        except Exception:  # noqa: BLE001 - closed by the server's limit
            break
        await asyncio.sleep(1 / 500)
    for ws in [*sockets, seat]:
        await ws.close()
    for task in drains:
        task.cancel()


def run_attack(name: str, seconds: float) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="judges-attack-"))
    env = {"JUDGES_CREATE_BURST": "100000", "JUDGES_CREATE_PER_MINUTE": "100000", "JUDGES_BOT_DELAY": "0.15"}
    server = Server(f"sqlite:///{folder / 'games.db'}", folder / "server.log", env=env)
    stop = threading.Event()
    bot_answers: list[float] = []
    try:
        if name == "spectators":
            game, tokens = honest_game(server.base, [{"kind": "human"}, {"kind": "human"}])
            thread = threading.Thread(
                target=lambda: asyncio.run(_spectators(server.base, game, tokens[1], stop)), daemon=True
            )
        else:
            idle = lambda b, s: s.wait()  # noqa: E731
            target = {"none": idle, "bots-reference": idle, "rules": attack_rules, "bots": attack_bots}[name]
            thread = threading.Thread(target=target, args=(server.base, stop), daemon=True)
        thread.start()
        time.sleep(2)  # the attack under way
        watcher = None
        if name.startswith("bots"):  # an honest table of a human and the default MCTS bot, beside the player
            watcher = threading.Thread(target=play_honestly, args=(server.base, seconds, bot_answers), daemon=True)
            watcher.start()
        latencies = play_honestly(server.base, seconds)
        stop.set()
        thread.join(30)
        if watcher is not None:
            watcher.join(60)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    out = {"attack": name, "honest_action_ms": percentiles(latencies)}
    if name.startswith("bots"):
        out["honest_bot_answer_ms"] = percentiles(bot_answers)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--attack", choices=["none", "rules", "bots", "bots-reference", "spectators", "all"], default="all"
    )
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per attack")
    args = parser.parse_args()
    names = ["none", "rules", "bots-reference", "bots", "spectators"] if args.attack == "all" else [args.attack]
    print(f"{'attack':<12}{'actions':>8}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}   (ms)")
    for name in names:
        result = run_attack(name, args.seconds)
        p = result["honest_action_ms"]
        row = "".join(f"{p.get(k, 0):>9.1f}" for k in ("p50", "p95", "p99", "max"))
        print(f"{name:<12}{p['n']:>8}{row}")
        if "honest_bot_answer_ms" in result:
            b = result["honest_bot_answer_ms"]
            print(
                f"{'  mcts seat':<12}{b['n']:>8}{b.get('p50', 0):>9.1f}{b.get('p95', 0):>9.1f}"
                f"{b.get('p99', 0):>9.1f}{b.get('max', 0):>9.1f}   (the honest table's bot, turn handed back)"
            )
        sys.stdout.flush()


if __name__ == "__main__":
    main()
