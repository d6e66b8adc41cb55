"""The server's metrics, in Prometheus' text format (prometheus-client), for an operator's
dashboards and alerts (docs/operations.md, "Metrics").

Each process counts its own: the counters and the histogram below live in `COUNTERS`, a registry
of their own (never prometheus-client's global one), and are moved where the work is done (the
table actor, the bots' pool, the hints, the database threads, the mailer, the rate limiters,
the connection gate): one increment each, a few hundred nanoseconds. What can be read from the
service's state (the games in memory, the sockets open, the bots' queue) is read only when
the metrics are scraped (`Live`), so it costs nothing between scrapes.

They are served when a setting asks for them (judges/settings.py): `JUDGES_METRICS_PATH` (e.g.
`/metrics`) on the application's own port, `JUDGES_METRICS_PORT` on a listener of their own
(`JUDGES_METRICS_HOST`, default 127.0.0.1), or both. Neither is set by default.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import start_http_server
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import Response

if TYPE_CHECKING:
    from .table.service import GameService

log = logging.getLogger("judges.server")

# no `_created` series beside each counter (when the process first counted it): the process's own
# start time says as much, and they doubled what a scrape reads
disable_created_metrics()

COUNTERS = CollectorRegistry(auto_describe=True)

# seconds from an action's arrival to its acknowledgement (validated, applied, committed, and the
# sockets of this process handed their new views)
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

ACTIONS = Counter("judges_actions", "Actions committed by this process, by who chose them", ["by"], registry=COUNTERS)
ACTION_SECONDS = Histogram(
    "judges_action_seconds",
    "Seconds from a player's action arriving to its acknowledgement (committed and pushed)",
    buckets=LATENCY_BUCKETS,
    registry=COUNTERS,
)
ACTIONS_REFUSED = Counter(
    "judges_actions_refused", "Players' actions refused (by the rules or the server)", registry=COUNTERS
)
GAMES_CREATED = Counter("judges_games_created", "Games created by this process", registry=COUNTERS)
GAMES_FINISHED = Counter("judges_games_finished", "Games whose last action this process committed", registry=COUNTERS)
BOT_CPU = Counter(
    "judges_bot_cpu_seconds", "CPU seconds of the bots' pool's jobs (moves, hints)", ["job"], registry=COUNTERS
)
BOT_JOBS = Counter("judges_bot_jobs", "Jobs done by the bots' pool", ["job"], registry=COUNTERS)
BOT_WORKERS_LOST = Counter(
    "judges_bot_workers_lost", "Times a worker process of the bots' pool died mid-job", registry=COUNTERS
)
HINT_SEARCHES = Counter("judges_hint_searches", "Hint searches, by outcome", ["outcome"], registry=COUNTERS)
DATABASE_ERRORS = Counter(
    "judges_database_errors", "Database calls that failed (down, timed out, no free connection)", registry=COUNTERS
)
STALE_COPIES = Counter("judges_stale_copies", "In-memory copies of games lost after a failed commit", registry=COUNTERS)
STALE_RECOVERED = Counter(
    "judges_stale_copies_recovered", "Lost copies reloaded from the store by the recovery", registry=COUNTERS
)
MAILS = Counter("judges_mails", "Mails handed to the SMTP server, by outcome", ["outcome"], registry=COUNTERS)
RATE_LIMITED = Counter("judges_rate_limited", "Requests refused by a rate limit", ["limit"], registry=COUNTERS)
CONNECTIONS_REFUSED = Counter(
    "judges_connections_refused", "Connections refused by the bare server's caps", ["reason"], registry=COUNTERS
)

# the children moved on every action, looked up once (a `labels()` call costs three increments)
PLAYER_ACTIONS = ACTIONS.labels("player")
BOT_ACTIONS = ACTIONS.labels("bot")
# every label value shown from the start (at 0), so that a rate() has its series before the first event
for _job in ("bot", "hint"):
    BOT_CPU.labels(_job)
    BOT_JOBS.labels(_job)
for _outcome in ("found", "failed", "busy"):
    HINT_SEARCHES.labels(_outcome)
for _outcome in ("sent", "failed"):
    MAILS.labels(_outcome)
for _reason in ("busy", "address"):
    CONNECTIONS_REFUSED.labels(_reason)


class Live(Collector):
    """What is read from one service's state when the metrics are scraped. The listener of
    `JUDGES_METRICS_PORT` reads it from a thread of its own: every dict is copied in one step
    (`list(...)`, which the interpreter does without letting the event loop run) before it is
    walked."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def collect(self) -> Iterator[GaugeMetricFamily]:
        games = list(self.service.games.values())
        over = sum(1 for live in games if live.played.is_over)
        in_memory = GaugeMetricFamily("judges_games_in_memory", "Games held in this process's memory", labels=["state"])
        in_memory.add_metric(["running"], len(games) - over)
        in_memory.add_metric(["over"], over)
        yield in_memory
        players = spectators = 0
        for live in games:
            for (seat, _), group in list(live.groups.items()):
                if seat >= 0:
                    players += len(group.subscribers)
                else:
                    spectators += len(group.subscribers)
        sockets = GaugeMetricFamily("judges_sockets_open", "Websockets open on this process's games", labels=["role"])
        sockets.add_metric(["player"], players)
        sockets.add_metric(["spectator"], spectators)
        yield sockets
        pool = self.service.bot_pool
        yield GaugeMetricFamily("judges_bot_queue", "Jobs waiting for the bots' pool", value=pool.pending())
        yield GaugeMetricFamily("judges_bot_running", "Jobs running on the bots' pool", value=pool.running)
        yield GaugeMetricFamily("judges_bot_workers", "Workers of the bots' pool", value=pool.workers)


class _Counters(Collector):
    """`COUNTERS`, as one collector of an application's registry."""

    def collect(self) -> Iterable[Metric]:
        return COUNTERS.collect()


def registry_for(service: GameService) -> CollectorRegistry:
    """The metrics one application serves: the process's counters and its service's state."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Counters())
    registry.register(Live(service))
    return registry


def exposition(registry: CollectorRegistry) -> Response:
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})


def route(registry: CollectorRegistry) -> Any:
    """The endpoint of `JUDGES_METRICS_PATH`."""

    async def metrics(request: Request) -> Response:
        return exposition(registry)

    return metrics


class Listener:
    """The listener of `JUDGES_METRICS_PORT`: prometheus-client's own HTTP server, on a thread."""

    def __init__(self, registry: CollectorRegistry, host: str, port: int) -> None:
        self.registry, self.host, self.port = registry, host, port
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        try:
            self.server, self.thread = start_http_server(self.port, self.host, registry=self.registry)
        except OSError as exc:  # the site is served all the same; the scraper sees the target down
            log.error("the metrics are not served on %s:%s: %s", self.host, self.port, exc)

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None
