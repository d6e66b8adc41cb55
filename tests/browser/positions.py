"""Scenario positions the browser tests start games from (docs/scenarios.md; the test server
runs with --allow-scenarios). Seat 0 is the human (Deborah), seats 1 and 2 greedy bots."""

from __future__ import annotations

from judges.server.games.judges.kit import TRIBES

# The names a test game's seats carry: the creator's, and the bots' (tribes).
PLAYER_NAMES = ("Deborah", "Ehud", "Gideon", *TRIBES)

HOLDINGS = {
    "Hazor": {"owner": 0, "troops": 2},
    "Hebron": {"owner": 1, "troops": 2},
    "Shechem": {"owner": 2, "troops": 2},
}
BOTS_GENERALS = [{"id": 11, "owner": 1, "at": "Hebron"}, {"id": 12, "owner": 2, "at": "Shechem"}]

ELECTION = {  # two judges stand: an election opens at once (players 0 and 1 vote)
    "clear_board": True,
    "settlements": {**HOLDINGS, "Kedesh": {"owner": 0, "troops": 1}},
    "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, *BOTS_GENERALS],
    "titles": {"Naphtali": {"holder": 10}, "Judah": {"holder": 11}},
}

# Seat 0 holds nothing at the Victory Check: eliminated at once; the two others play on.
ELIMINATION = {
    "phase": "victory",
    "clear_board": True,
    "settlements": {"Hebron": {"owner": 1, "troops": 2}, "Shechem": {"owner": 2, "troops": 2}},
    "generals": BOTS_GENERALS,
}

# Seat 0's last general is a captive and it holds no settlement: it still plays its Movement
# turn, and the Victory Check of this round eliminates it (§ 14).
LAST_TURN = {
    "phase": "movement",
    "clear_board": True,
    "settlements": {"Hebron": {"owner": 1, "troops": 2}, "Shechem": {"owner": 2, "troops": 2}},
    "generals": [{"id": 10, "owner": 0, "at": "Hebron", "captor": 1}, *BOTS_GENERALS],
}

# No King; Naphtali's title is vacant and belongs to seat 0, whose free general 10 may take it:
# the ⚖ Appoint Judge window opens at the Announcements.
APPOINT = {
    "clear_board": True,
    "settlements": HOLDINGS,
    "generals": [{"id": 10, "owner": 0, "at": "Hazor"}, *BOTS_GENERALS],
    "titles": {"Naphtali": {"owner": 0}},
}

# Seat 0's general 10 carries a prophet; two events wait: 👁 Foresee opens at the Announcements.
FORESEE = {
    "clear_board": True,
    "settlements": HOLDINGS,
    "generals": [{"id": 10, "owner": 0, "at": "Hazor", "prophet": True}, *BOTS_GENERALS],
    "events_area": ["famine", "plague"],
}

# No King; Naphtali's vacant title belongs to seat 0, who has no general at all: nobody can take
# it (its owner may appoint any of his own generals, captives too, since issue 33: he has none),
# so it is deferred.
DEFERRED = {
    "clear_board": True,
    "settlements": HOLDINGS,
    "generals": BOTS_GENERALS,
    "titles": {"Naphtali": {"owner": 0}},
}

# Seat 0's general 10 stands with an army of 4 on Hebron, seat 1's settlement: once the Movement
# turns are over, the Combat phase fights for it.
BATTLE = {
    "phase": "movement",
    "clear_board": True,
    "settlements": {**HOLDINGS, "Hebron": {"owner": 1, "troops": 1}},
    "generals": [{"id": 10, "owner": 0, "at": "Hebron", "army": 4}, *BOTS_GENERALS],
}
