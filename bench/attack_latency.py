"""An honest player's action latency while the server is attacked.

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
  full view (resync) 500 times a second;
- `idle`: 4,000 connections that send part of their headers and never finish them, from 100
  other loopback addresses (127.0.0.2 and on), reopened as the server closes them;
- `sockets`: the server's connections capped at 400 (`JUDGES_MAX_CONNECTIONS`, for both trees)
  and 450 spectator websockets open on four other games (2 per address and game): the
  websockets of busy tables;
- `hints`: 12 tables of a human and a greedy bot whose humans ask a hint, make a free step,
  ask again, take it back, ask again, as fast as they are answered (a refused hint: again
  0.25 s later, so that the attack is hints, not a flood of requests); beside it an honest table
  of a human and the default MCTS bot, whose answer time is timed (compare `bots-reference`).

    .venv/bin/python bench/attack_latency.py --seconds 20            # every attack in turn
    .venv/bin/python bench/attack_latency.py --attack bots --seconds 30
    .venv/bin/python bench/attack_latency.py --attack none,idle,sockets,hints --src OLD_TREE/src
    .venv/bin/python bench/attack_latency.py --attack none,bots-reference,bots,hints --threads

`--src` adds, for each attack, the same run against another tree's sources (e.g.
`git archive c203735 src | tar -x -C OLD_TREE`), the two side by side; `--threads`, the same
run with the bots' searches on the server's threads instead of its worker processes
(`JUDGES_BOT_PROCESSES=0`). Prints per attack the
honest actions answered (200) and refused, and p50/p95/p99/max in milliseconds of the answered
ones (CPU of this machine; docs/reliability.md), with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import selectors
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Protocol

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from judges.engine.rules import DECK_COPIES_MAX, RULE_MAXIMA  # noqa: E402
from server_process import Server  # noqa: E402


class StopSignal(Protocol):
    """A threading or a multiprocessing event: the attack runs until it is set."""

    def is_set(self) -> bool: ...
    def wait(self, timeout: float | None = None) -> bool: ...


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


def honest_game(base: str, seats: list[dict], patience: float = 60.0) -> tuple[str, list[str | None]]:
    """A new game with each human seat claimed; tried again while the server refuses (an attack
    under way), for `patience` seconds."""
    deadline = time.monotonic() + patience
    while True:
        try:
            return _new_game(base, seats)
        except (httpx.HTTPError, ValueError, KeyError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _new_game(base: str, seats: list[dict]) -> tuple[str, list[str | None]]:
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


def honest_seats(with_bot: bool) -> list[dict]:
    return [{"kind": "human"}, {"kind": "bot", "bot": "mcts"} if with_bot else {"kind": "human"}]


def play_honestly(
    base: str,
    seconds: float,
    bot_answers: list[float] | None = None,
    refused: list[int] | None = None,
    first: tuple[str, list[str | None]] | None = None,
) -> list[float]:
    """The honest player's POST latencies (answered 200); with `bot_answers`, seat 1 is the
    default MCTS bot and the time it takes to hand the turn back is recorded there; each request
    refused or failed adds to `refused`. `first`: the game to play first (made before the attack)."""
    refused = refused if refused is not None else []
    seats = honest_seats(bot_answers is not None)
    game, tokens = first or honest_game(base, seats)
    latencies: list[float] = []
    end = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=60) as client:
        while time.monotonic() < end:
            seat_views = {}
            try:
                for seat, token in enumerate(tokens):
                    if token:
                        answer = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": token})
                        answer.raise_for_status()
                        seat_views[seat] = answer.json()
            except httpx.HTTPError:  # refused (503) or the connection closed: counted, tried again
                refused.append(1)
                time.sleep(0.05)
                continue
            view = seat_views[0]
            if view.get("ending"):
                game, tokens = honest_game(base, seats)
                continue
            owing = [s for s in view["waiting_for"] if tokens[s]]
            if not owing:
                waited = time.monotonic()
                while time.monotonic() < end:  # the bot plays: how long until the human's turn
                    try:
                        view = client.get(f"/api/games/{game}/view", headers={"X-Seat-Token": tokens[0]}).json()
                    except (httpx.HTTPError, ValueError):
                        time.sleep(0.05)
                        continue
                    if view.get("ending") or any(tokens[s] for s in view.get("waiting_for", [])):
                        break
                    time.sleep(0.01)
                if bot_answers is not None:
                    bot_answers.append(time.monotonic() - waited)
                continue
            seat = owing[0]
            legal = seat_views[seat]["legal_actions"]
            action = next((a for a in legal if a["type"] == "end_turn"), legal[0])
            started = time.perf_counter()
            try:
                response = client.post(
                    f"/api/games/{game}/actions", headers={"X-Seat-Token": tokens[seat]}, json={"action": action}
                )
            except httpx.HTTPError:
                refused.append(1)
                time.sleep(0.05)
                continue
            if response.status_code == 200:
                latencies.append(time.perf_counter() - started)
            else:
                refused.append(1)
            time.sleep(0.05)
    return latencies


def attack_rules(base: str, stop: StopSignal) -> None:
    maximal = maximal_rules()
    with httpx.Client(base_url=base, timeout=60) as client:
        i = 0
        while not stop.is_set():
            rules = HOSTILE[i % len(HOSTILE)] if i % 2 else maximal
            seats = [{"kind": "human"}] * 6 if i % 2 == 0 else [{"kind": "human"}, {"kind": "human"}]
            client.post("/api/games", json={"seats": seats, "rules": rules})
            i += 1


def attack_bots(base: str, stop: StopSignal) -> None:
    with httpx.Client(base_url=base, timeout=60) as client:
        for _ in range(3):  # a human seat that never plays, and heavy bots that play for ever
            client.post(
                "/api/games",
                json={"seats": [{"kind": "human"}] + [{"kind": "bot", "bot": HEAVIEST_BOT}] * 3, "host_seat": 0},
            )
    stop.wait()


async def _spectators(base: str, game: str, token: str, stop: StopSignal) -> None:
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


IDLE_CONNECTIONS = 4000
IDLE_ADDRESSES = 100
PARTIAL = b"GET /api/world HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "  # headers never finished


def attack_idle(base: str, stop: StopSignal) -> None:
    """Keeps IDLE_CONNECTIONS connections open that never finish their headers."""
    port = int(base.rsplit(":", 1)[1])
    held = selectors.DefaultSelector()  # epoll: thousands of descriptors
    turn = 0
    while not stop.is_set():
        while len(held.get_map()) < IDLE_CONNECTIONS and not stop.is_set():
            s = socket.socket()
            try:
                s.bind((f"127.0.0.{2 + turn % IDLE_ADDRESSES}", 0))
                s.connect(("127.0.0.1", port))
                s.sendall(PARTIAL)
            except OSError:
                s.close()
                break
            turn += 1
            held.register(s, selectors.EVENT_READ)
        for key, _ in held.select(0.2):  # closed by the server (or answered): reopened next turn
            held.unregister(key.fileobj)
            key.fileobj.close()  # type: ignore[union-attr]
    for key in list(held.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    held.close()


async def _socket_flood(base: str, stop: StopSignal, count: int = 450) -> None:
    import websockets

    with httpx.Client(base_url=base, timeout=30) as client:
        games = [client.post("/api/games", json={"seats": [{"kind": "human"}] * 2}).json()["id"] for _ in range(4)]
    ws_base = base.replace("http", "ws")
    sockets = []
    for i in range(count):
        game = games[i % len(games)]
        address = f"127.0.0.{2 + i // (2 * len(games))}"
        try:
            sockets.append(
                await websockets.connect(f"{ws_base}/ws/games/{game}/spectate", local_addr=(address, 0), max_size=None)
            )
        except Exception:  # noqa: BLE001 - refused past a limit: counted below
            continue
    print(f"  websockets open: {len(sockets)}", file=sys.stderr)

    async def drain(ws) -> None:
        try:
            async for _ in ws:
                pass
        except Exception:  # noqa: BLE001
            pass

    drains = [asyncio.create_task(drain(ws)) for ws in sockets]
    while not stop.is_set():
        await asyncio.sleep(0.2)
    for ws in sockets:
        await ws.close()
    for task in drains:
        task.cancel()


def attack_sockets(base: str, stop: StopSignal) -> None:
    asyncio.run(_socket_flood(base, stop))


HINT_PACE = 0.25  # seconds an attacking seat waits after each refused hint (a search answers in ~2 s)


def _hint(client: httpx.Client, game: str, token: str) -> None:
    headers = {"X-Seat-Token": token}
    answer = client.post(f"/api/games/{game}/hint", headers=headers)
    if answer.status_code == 405:  # a tree where the hint is a GET
        answer = client.get(f"/api/games/{game}/hint", headers=headers)
    if answer.status_code != 200:  # refused at once: the seat asks again soon, not in a tight loop
        time.sleep(HINT_PACE)


def attack_hints(base: str, stop: StopSignal, tables: int = 12) -> None:
    """Humans asking hints around free steps and their Undo, as fast as they are answered."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    games = [honest_game(base, seats) for _ in range(tables)]

    def one(game: str, token: str) -> None:
        headers = {"X-Seat-Token": token}
        with httpx.Client(base_url=base, timeout=60) as client:
            while not stop.is_set():
                try:
                    view = client.get(f"/api/games/{game}/view", headers=headers).json()
                except (httpx.HTTPError, ValueError):
                    continue
                if view.get("ending") or 0 not in view.get("waiting_for", []):
                    time.sleep(0.05)
                    continue
                _hint(client, game, token)
                legal = view["legal_actions"]
                step = next((a for a in legal if a["type"] == "move"), None)
                if step is not None:
                    client.post(f"/api/games/{game}/actions", headers=headers, json={"action": step})
                    _hint(client, game, token)
                    client.post(f"/api/games/{game}/actions", headers=headers, json={"action": {"type": "undo"}})
                    _hint(client, game, token)
                done = next((a for a in legal if a["type"] == "end_turn"), legal[0])
                client.post(f"/api/games/{game}/actions", headers=headers, json={"action": done})

    threads = [threading.Thread(target=one, args=(g, t[0]), daemon=True) for g, t in games]
    for thread in threads:
        thread.start()
    stop.wait()
    for thread in threads:
        thread.join(30)


# Each attack, and the honest MCTS table beside the player, runs in its own process: in the
# player's process their threads would hold the interpreter's lock for up to its 5 ms switch
# interval at a time and the player's latency would measure the client, not the server.
CONTEXT = multiprocessing.get_context("fork")


def _run_spectators(base: str, game: str, token: str, stop) -> None:
    asyncio.run(_spectators(base, game, token, stop))


def _watch(base: str, seconds: float, first, answers) -> None:
    """The honest MCTS table, played in its own process; its bot's answer times sent back."""
    bot_answers: list[float] = []
    play_honestly(base, seconds, bot_answers, None, first)
    answers.put(bot_answers)


def run_attack(name: str, seconds: float, src: str | None = None, extra: dict[str, str] | None = None) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="judges-attack-"))
    env = {"JUDGES_CREATE_BURST": "100000", "JUDGES_CREATE_PER_MINUTE": "100000", "JUDGES_BOT_DELAY": "0.15"}
    env.update(extra or {})
    if name == "sockets":
        env["JUDGES_MAX_CONNECTIONS"] = "400"
    if src is not None:
        env["PYTHONPATH"] = str(Path(src).resolve())
    server = Server(f"sqlite:///{folder / 'games.db'}", folder / "server.log", env=env)
    stop = CONTEXT.Event()
    bot_answers: list[float] = []
    refused: list[int] = []
    try:
        if name == "spectators":
            game, tokens = honest_game(server.base, [{"kind": "human"}, {"kind": "human"}])
            attacker = CONTEXT.Process(target=_run_spectators, args=(server.base, game, tokens[1], stop), daemon=True)
        else:
            idle = lambda b, s: s.wait()  # noqa: E731
            target = {
                "none": idle,
                "bots-reference": idle,
                "rules": attack_rules,
                "bots": attack_bots,
                "idle": attack_idle,
                "sockets": attack_sockets,
                "hints": attack_hints,
            }[name]
            attacker = CONTEXT.Process(target=target, args=(server.base, stop), daemon=True)
        with_bot = name.startswith("bots") or name == "hints"  # an honest MCTS table beside the player
        mine = honest_game(server.base, honest_seats(False))  # made before the attack
        theirs = honest_game(server.base, honest_seats(True)) if with_bot else None
        attacker.start()
        time.sleep(5 if name in ("idle", "sockets", "hints") else 2)  # the attack under way
        watcher, answers = None, CONTEXT.Queue()
        if with_bot:
            watcher = CONTEXT.Process(target=_watch, args=(server.base, seconds, theirs, answers), daemon=True)
            watcher.start()
        latencies = play_honestly(server.base, seconds, refused=refused, first=mine)
        stop.set()
        if watcher is not None:
            bot_answers = answers.get(timeout=120)
            watcher.join(60)
        attacker.join(30)
        if attacker.is_alive():
            attacker.kill()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    out = {"attack": name, "honest_action_ms": percentiles(latencies), "refused": len(refused)}
    if name.startswith("bots") or name == "hints":
        out["honest_bot_answer_ms"] = percentiles(bot_answers)
    return out


ATTACKS = ["none", "rules", "bots-reference", "bots", "spectators", "idle", "sockets", "hints"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attack", default="all", help="all, or attacks separated by commas: " + ", ".join(ATTACKS))
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per attack")
    parser.add_argument("--src", default=None, help="another tree's src folder, run side by side (labelled 'old')")
    parser.add_argument(
        "--threads",
        action="store_true",
        help="also run each attack with the bots' searches on threads of the server (JUDGES_BOT_PROCESSES=0, "
        "labelled 'thread') beside the worker processes",
    )
    args = parser.parse_args()
    names = ATTACKS if args.attack == "all" else args.attack.split(",")
    trees: list[tuple[str, str | None, dict[str, str]]] = [("new", None, {})]
    if args.threads:
        trees.append(("thread", None, {"JUDGES_BOT_PROCESSES": "0"}))
    if args.src:
        trees.append(("old", args.src, {}))
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print(f"{'attack':<16}{'tree':<7}{'ok':>6}{'refused':>9}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}   (ms)")
    for name in names:
        for label, src, extra in trees:
            result = run_attack(name, args.seconds, src, extra)
            p = result["honest_action_ms"]
            row = "".join(f"{p.get(k, 0):>9.1f}" for k in ("p50", "p95", "p99", "max"))
            print(f"{name:<16}{label:<7}{p['n']:>6}{result['refused']:>9}{row}   load {os.getloadavg()[0]:.1f}")
            if "honest_bot_answer_ms" in result:
                b = result["honest_bot_answer_ms"]
                print(
                    f"{'  mcts seat':<16}{label:<7}{b['n']:>6}{'':>9}{b.get('p50', 0):>9.1f}{b.get('p95', 0):>9.1f}"
                    f"{b.get('p99', 0):>9.1f}{b.get('max', 0):>9.1f}   (the honest table's bot, turn handed back)"
                )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
