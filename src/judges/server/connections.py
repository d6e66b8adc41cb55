"""The bare server's connections (`judges serve`): what a client may hold open, so that idle or
slow connections never keep the players' requests out.

uvicorn's own cap (`limit_concurrency`) counts every open connection, websockets and
connections that never finished their headers included, and nothing times the latter out:
a few thousand idle connections, or the websockets of a thousand busy tables, answered 503 to
every request. Here the HTTP protocol and the websocket protocol of uvicorn are subclassed
(`Gate.protocols`) to keep their own accounts:

- **A request is read in time.** From the moment a connection opens (or its previous answer
  was sent) its next request, headers and body, must arrive whole within `read_seconds` (and
  up to half as long again, drawn for each connection: `read_deadline`); sending a byte now
  and then does not extend it. Past it the connection is closed.
- **HTTP connections** (`max_connections`, `JUDGES_MAX_CONNECTIONS`) and **websockets**
  (`max_sockets`, `JUDGES_MAX_SOCKETS`) are counted apart: the websockets of the tables never
  keep a request out.
- **Per client address** at most `connections_per_address` HTTP connections and
  `sockets_per_address` websockets (`JUDGES_CONNECTIONS_PER_ADDRESS`,
  `JUDGES_SOCKETS_PER_ADDRESS`; 0: no cap). A peer listed in `JUDGES_TRUSTED_PROXIES` is a
  proxy carrying many clients: it is not capped (the proxy caps them, docs/deploy.md).
- **An idle connection gives way.** A connection is idle while it waits for a request (not yet
  whole) or between two requests. A new connection over a cap closes the idle connection
  that waited longest (of the same address, for the address's cap): the oldest idle
  connections, those a slow or silent client holds, go first, never a request being served.
  Only when nothing is idle is the new connection refused: a request over the total answers
  503 `error.server_busy`, over its address's cap 429 `error.connections_per_address` (both
  with Retry-After, in the reader's language). A health probe (`/healthz`, `/readyz`:
  server/health.py) is never refused: it is answered, then its connection closed.
- **A request's line and headers** hold at most `max_header_bytes` (32 KiB: a
  browser's 180 cookies of this site, a seat's each, are ~13 KiB): past it the
  request answers 431 `error.headers_too_large` and its connection closes. uvicorn's httptools
  protocol keeps no bound of its own (h11's `h11_max_incomplete_event_size` is not read by it):
  a client's megabyte of cookies was parsed, kept and handed to the application.
- **A websocket over a cap** is accepted and told why (an `error` message,
  `error.sockets_full` or `error.sockets_per_address`), then closed with code 4503: the game's
  screen says so and follows the table by HTTP until a socket is free (web/static/js/connection.js).
"""

from __future__ import annotations

import asyncio
import ipaddress
import random
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import httptools
import msgspec
from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from ..i18n import gettext, negotiate_language, request_language
from ..settings import Settings
from . import metrics
from .errors import refusal, refusal_content
from .health import PROBE_PATHS
from .table import updates

encode_json = msgspec.json.Encoder().encode
FULL_CODE = 4503  # a websocket closed because the server holds as many as it may: try later
LINGER_SECONDS = 2.0  # a refused request's remaining bytes are read and dropped for this long
REFUSED_SECONDS = 1.0  # a connection refused may still send its request, for a clear answer
# A connection's time to send its request is `read_seconds` and up to this much of it again,
# drawn for each deadline: thousands of connections opened at once (a slowloris client) were
# all closed at the same moment, reopened at once and closed together again every
# `read_seconds`, 2,000 a second for two seconds in ten, while the players' requests waited.
# Drawn apart, their closing spreads out over the cycles and the event loop serves the
# players' requests in between.
READ_SPREAD = 0.5


def read_deadline(read_seconds: float) -> float:
    """The seconds a connection has from now to send its next request, whole."""
    return read_seconds * (1 + READ_SPREAD * random.random())


@dataclass(frozen=True)
class ConnectionLimits:
    max_connections: int = 4000  # open HTTP connections (websockets apart)
    connections_per_address: int = 64  # ... of one client address (0: no cap)
    max_sockets: int = 10_000  # open websockets
    sockets_per_address: int = 256  # ... of one client address (0: no cap)
    read_seconds: float = 10.0  # a request, headers and body, arrives whole within this
    max_header_bytes: int = 32 * 1024  # a request's line and headers (431 past it)
    trusted_proxies: tuple[str, ...] = ()  # peers not capped per address (they carry many clients)

    @classmethod
    def from_settings(cls, settings: Settings) -> ConnectionLimits:
        return cls(
            max_connections=settings.max_connections,
            connections_per_address=settings.connections_per_address,
            max_sockets=settings.max_sockets,
            sockets_per_address=settings.sockets_per_address,
            read_seconds=settings.request_read_seconds,
            trusted_proxies=settings.proxies,
        )


class Gate:
    """The accounts of one server's connections: HTTP connections by address and the idle ones
    in the order they became idle; websockets by address. Used by the protocols of `protocols`
    (one event loop: no locking)."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self._trusted_all = "*" in limits.trusted_proxies
        self._trusted = [ipaddress.ip_network(p, strict=False) for p in limits.trusted_proxies if p != "*"]
        self.http: dict[str, int] = {}  # address -> open HTTP connections
        self.idle: OrderedDict[Any, None] = OrderedDict()  # idle HTTP connections, longest idle first
        self.idle_by_address: dict[str, OrderedDict[Any, None]] = {}
        self.sockets: dict[str, int] = {}  # address -> open websockets
        self.http_total = 0
        self.sockets_total = 0
        self.evicted = 0  # idle connections closed to let another in (for the tests and the benches)
        self.refused = 0

    def capped(self, address: str) -> bool:
        """Whether the per-address caps apply to this peer (not to a trusted proxy)."""
        if self._trusted_all:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True
        return not any(ip in net for net in self._trusted)

    # --- HTTP connections ---

    def opened(self, conn: GuardedHttp) -> str | None:
        """A new HTTP connection: makes room by closing idle ones if need be; answers why it is
        refused ("busy", "address") or None."""
        address = conn.address
        per_address = self.limits.connections_per_address
        if per_address and self.capped(address) and self.http.get(address, 0) >= per_address:
            if not self._evict(self.idle_by_address.get(address)):
                return self._refuse("address")
        if self.http_total >= self.limits.max_connections and not self._evict(self.idle):
            return self._refuse("busy")
        self.http[address] = self.http.get(address, 0) + 1
        self.http_total += 1
        conn.counted = True
        self.set_idle(conn, True)
        return None

    def _refuse(self, why: str) -> str:
        self.refused += 1
        metrics.CONNECTIONS_REFUSED.labels(why).inc()
        return why

    def _evict(self, idle: OrderedDict[Any, None] | None) -> bool:
        """Closes the connection idle the longest of `idle`; False when none is idle."""
        if not idle:
            return False
        victim = next(iter(idle))
        self.closed(victim)  # counted out now: its transport closes in the next loop turn
        victim.evict()
        self.evicted += 1
        return True

    def set_idle(self, conn: GuardedHttp, idle: bool) -> None:
        """An HTTP connection now waits for a request (idle) or is being served."""
        if not conn.counted:
            return
        by_address = self.idle_by_address.setdefault(conn.address, OrderedDict())
        if idle:
            self.idle[conn] = None
            self.idle.move_to_end(conn)
            by_address[conn] = None
            by_address.move_to_end(conn)
        else:
            self.idle.pop(conn, None)
            by_address.pop(conn, None)
            if not by_address:
                del self.idle_by_address[conn.address]

    def closed(self, conn: GuardedHttp) -> None:
        """An HTTP connection gone (closed, evicted, or upgraded to a websocket)."""
        if not conn.counted:
            return
        self.set_idle(conn, False)
        conn.counted = False
        self.http_total -= 1
        left = self.http.get(conn.address, 1) - 1
        if left:
            self.http[conn.address] = left
        else:
            self.http.pop(conn.address, None)

    # --- websockets ---

    def socket_opened(self, address: str) -> str | None:
        per_address = self.limits.sockets_per_address
        if per_address and self.capped(address) and self.sockets.get(address, 0) >= per_address:
            return self._refuse("address")
        if self.sockets_total >= self.limits.max_sockets:
            return self._refuse("busy")
        self.sockets[address] = self.sockets.get(address, 0) + 1
        self.sockets_total += 1
        return None

    def socket_closed(self, address: str) -> None:
        self.sockets_total -= 1
        left = self.sockets.get(address, 1) - 1
        if left:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)

    def protocols(self) -> tuple[type[GuardedHttp], type[GuardedWebSocket]]:
        """uvicorn's `http` and `ws` protocol classes, keeping this gate's accounts."""
        gate = self

        class Http(GuardedHttp):
            pass

        class Socket(GuardedWebSocket):
            pass

        Http.gate = Socket.gate = gate
        Http.socket_class = Socket
        return Http, Socket


# --- the refusals ---------------------------------------------------------------------------


def busy_app(why: str) -> ASGIApp:
    """The answer to a request refused by the gate: JSON in the reader's language, then closed."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        if why == "address":
            response = refusal(request, 429, "error.connections_per_address", "too many connections from your address")
        else:
            response = refusal(request, 503, "error.server_busy", "the server holds as many connections as it may")
        response.headers["Retry-After"] = "1" if why == "address" else "2"
        response.headers["Connection"] = "close"
        await response(scope, receive, send)

    return app


HEADERS_TOO_LARGE = "error.headers_too_large"


async def headers_too_large_app(scope: Scope, receive: Receive, send: Send) -> None:
    """The answer to a request whose line and headers are over `max_header_bytes` (a websocket's
    handshake: closed before it is accepted, which the server answers 403)."""
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.close", "code": 1008})
        return
    response = refusal(Request(scope), 431, HEADERS_TOO_LARGE, "request headers too large")
    response.headers["Connection"] = "close"
    await response(scope, receive, send)


def socket_refusal(why: str) -> ASGIApp:
    """The answer to a websocket over a cap: accepted, told why, closed with FULL_CODE."""
    key = "error.sockets_per_address" if why == "address" else "error.sockets_full"

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        language = request_language(HTTPConnection(scope))
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": updates.error_message(key, gettext(language, key)).decode()})
        await send({"type": "websocket.close", "code": FULL_CODE, "reason": key})

    return app


# --- the protocols ----------------------------------------------------------------------------


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, accounted by its `gate` (see the module's docstring)."""

    gate: Gate
    socket_class: type[GuardedWebSocket]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.counted = False
        self.deadline: asyncio.TimerHandle | None = None
        self.address = self.client[0] if self.client else ""
        self.refusal: str | None = None
        self.headers_whole = False  # the current request's headers are in
        self.discarding = False  # refused: what the client still sends is read and dropped
        self.header_bytes = 0  # bytes received while they were not
        self.refusal = self.gate.opened(self)
        self.server_app = self.app  # the application, which a refused connection's probe still reaches
        self.limit_concurrency = None  # the gate's accounts replace uvicorn's
        # a refused connection gets a second to ask, then its answer (it holds a descriptor)
        self._arm(REFUSED_SECONDS if self.refusal is not None else read_deadline(self.gate.limits.read_seconds))

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self.deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        self.evict()

    def evict(self) -> None:
        """Closed by the gate: idle too long, or making room for another connection."""
        self.gate.closed(self)
        if not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.gate.closed(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # bytes received while a request's headers are not whole: past the bound after this
        # read, the request is refused before the parser keeps any more of them
        if self.discarding:
            return
        counting = not self.headers_whole
        if counting:
            self.header_bytes += len(data)
        super().data_received(data)
        if counting and not self.headers_whole and self.header_bytes > self.gate.limits.max_header_bytes:
            self._headers_too_large()

    def _headers_too_large(self) -> None:
        """A 431 in the language the headers read so far ask for, then the connection closed
        once the client has stopped sending (or after LINGER_SECONDS): closed with unread bytes,
        the kernel would reset the connection and the client lose the answer."""
        if self.transport.is_closing():
            return
        self.discarding = True
        self._arm(LINGER_SECONDS)
        asked = dict(self.headers).get(b"accept-language", b"").decode("latin-1")
        content = refusal_content(
            negotiate_language(accept_language=asked), HEADERS_TOO_LARGE, "request headers too large"
        )
        body = encode_json(content)
        head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
        head += b"content-length: %d\r\nconnection: close\r\n\r\n" % len(body)
        self.transport.write(head + body)
        self.transport.write_eof()

    def on_headers_complete(self) -> None:
        self.gate.set_idle(self, False)  # a request being served is never closed to make room
        self.headers_whole = True
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        self.header_bytes = 0
        probe = False
        if size > self.gate.limits.max_header_bytes:  # whole, in one read: answered by the application
            self.app = headers_too_large_app
        elif self.refusal is not None:
            # a health probe over the caps is answered all the same, then its connection closed
            probe = httptools.parse_url(self.url).path in PROBE_PATHS
            self.app = self.server_app if probe else busy_app(self.refusal)
        super().on_headers_complete()
        if (probe or self.app is headers_too_large_app) and self.cycle is not None:
            self.cycle.keep_alive = False

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.headers_whole = False  # what comes next is the next request's
        self._disarm()  # the whole request is in: no deadline while it is served

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:
            self.gate.set_idle(self, True)
            self._arm(read_deadline(self.gate.limits.read_seconds))

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self.gate.closed(self)  # now a websocket, counted as one
        self.ws_protocol_class = self.socket_class
        super().handle_websocket_upgrade()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, counted by its `gate`; one over a cap is told why."""

    gate: Gate

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.address = self.client[0] if self.client else ""
        refused = self.gate.socket_opened(self.address)
        self.counted = refused is None
        if refused is not None:
            self.app = socket_refusal(refused)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted:
            self.counted = False
            self.gate.socket_closed(self.address)
        super().connection_lost(exc)
