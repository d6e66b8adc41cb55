"""Wall time of POST /api/games/{id}/hint at the server's default limits: 20 hints in 3-player
games (a human seat beside a greedy and an MCTS seat), each hint then played (docs/bots.md,
"Hints").

    PYTHONPATH=src python bench/hint_api_time.py
"""

from __future__ import annotations

import tempfile
import time

from fastapi.testclient import TestClient

from judges.server.app import create_app
from judges.settings import Settings

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "mcts"}]


def main() -> None:
    times: list[float] = []
    with (
        tempfile.TemporaryDirectory() as folder,
        TestClient(create_app(f"sqlite:///{folder}/g.db", allow_seeds=True, settings=Settings(bot_delay=0))) as c,
    ):
        for seed in range(1, 6):
            data = c.post("/api/games", json={"seats": SEATS, "seed": seed}).json()
            game_id = data["id"]
            headers = {"X-Seat-Token": data.get("token") or data["seats"][0]["token"]}
            for _ in range(4):
                end = time.time() + 60
                while time.time() < end:
                    if 0 in c.get(f"/api/games/{game_id}/view", headers=headers).json()["waiting_for"]:
                        break
                    time.sleep(0.05)
                start = time.perf_counter()
                hint = c.post(f"/api/games/{game_id}/hint", headers=headers)
                times.append(time.perf_counter() - start)
                assert hint.status_code == 200, hint.text
                action = {"action": hint.json()["action"]}
                played = c.post(f"/api/games/{game_id}/actions", json=action, headers=headers)
                assert played.status_code == 200, played.text
                # one hint per decision: the rest of a turn is ended, so that the next hint is searched
                legal = c.get(f"/api/games/{game_id}/view", headers=headers).json()["legal_actions"]
                if any(a["type"] == "end_turn" for a in legal):
                    c.post(f"/api/games/{game_id}/actions", json={"action": {"type": "end_turn"}}, headers=headers)
    times.sort()
    print(f"{len(times)} hints via the API: median {times[len(times) // 2]:.3f} s, longest {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
