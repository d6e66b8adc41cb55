"""The server's own notices about seats, declared as the engine declares its messages
(`judges.engine.messages`): a seat handed to a bot and back, the host's revocations and
invitations, a new player, an abandoned game. They are the bell's, not the game log's (``log=False``); the
service emits them (`GameService.seat_events`). A revocation's why is its one line."""

from __future__ import annotations

from typing import Any

from ...engine.messages import message

_SEAT: dict[str, Any] = {"player": "player", "by": "player", "why": "text"}

message("notification.seat_bot", "screen", log=False, player="player", reason="text")
message("notification.seat_back", "screen", log=False, player="player", reason="text")
message("notification.seat_revoked", "screen", log=False, **_SEAT)
message("notification.seat_reinvited", "screen", log=False, **_SEAT)
message("notification.seat_invited", "screen", log=False, **_SEAT)
message("notification.seat_uninvited", "screen", log=False, **_SEAT)
message("notification.seat_claimed", "screen", log=False, **_SEAT)
message("notification.game_abandoned", "screen", log=False, **_SEAT)  # server/community/paces.py
message("notification.game_closed", "screen", log=False, **_SEAT)  # server/community/moderation.py
for _why in ("away", "absent", "consent"):
    message(f"notification.seat_why.{_why}", "screen", log=False, player="player", voters="players")
