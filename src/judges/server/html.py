"""The server's HTML pages: the templates of web/templates, rendered in the reader's language.

Errors met while browsing answer a page, not JSON: a bad game address, a spent
invitation, the replay of a game still running, an unknown address. The page is in the
reader's language (`?lang=`, the `lang` cookie, Accept-Language) and leads back home. The JSON
API (`/api/...`), the websockets and the static files keep their JSON errors; the exception
handlers of server/errors.py ask `wants_page` and answer `error_page` for the rest."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..i18n import LANGUAGES, catalog, gettext, request_language

WEB = Path(__file__).resolve().parent.parent / "web"
templates = Environment(loader=FileSystemLoader(WEB / "templates"), autoescape=select_autoescape(["html"]))
# Where errors stay JSON (or plain): the API, the websockets, the files, the schema.
MACHINE_PREFIXES = ("/api/", "/ws/", "/static/", "/docs", "/redoc", "/openapi.json")
GENERIC = "ui.error_page"  # the text of an error whose key has no words


def page(template: str, request: Request, language: str, **values: Any) -> HTMLResponse:
    """A page in the reader's language; an explicit ?lang= is remembered in a cookie."""
    response = HTMLResponse(
        templates.get_template(template).render(
            lang=language, t=lambda key, **p: gettext(language, key, **p), languages=LANGUAGES, **values
        )
    )
    if request.query_params.get("lang"):
        response.set_cookie("lang", language, max_age=365 * 86400, samesite="lax")
    return response


def wants_page(request: Request) -> bool:
    """Whether an error met by this request answers a page: an address a browser opens."""
    path = request.url.path
    return not any(path == p.rstrip("/") or path.startswith(p) for p in MACHINE_PREFIXES)


def error_page(
    request: Request,
    status: int,
    key: str,
    params: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """The error `key` (a message key; its words filled from `params`) as a page with the
    status code `status`, a link home, and `data-error` naming the key for tests and tools."""
    language = request_language(request)
    text = gettext(language, key, **dict(params or {})) if key in catalog(language) else gettext(language, GENERIC)
    body = templates.get_template("error.html").render(
        lang=language,
        t=lambda k, **p: gettext(language, k, **p),
        languages=LANGUAGES,
        error=key,
        status=status,
        text=text,
    )
    return HTMLResponse(body, status_code=status, headers=dict(headers or {}) or None)


def no_screen_page(
    request: Request, language: str, live: Any, seat: int | None = None, invitation: str | None = None
) -> HTMLResponse | None:
    """The page a screen's address (the table's, watch, replay and invitation pages) answers for
    a table whose game has no screen here (no `screen` capability, games/served.py): the game's
    name, that it is played through the API, and the table's API routes; `seat`: the reader's
    seat (the table's page), `invitation`: the code an invitation's page shows the claim with.
    200: the site's own links (a new table's, a mail's, My games', the lobby's) lead there. None
    for a game with a screen."""
    if "screen" in live.served.capabilities:
        return None
    return page(
        "no_screen.html",
        request,
        language,
        game=live.kind,
        game_title=live.kit.title(language),
        game_id=live.id,
        seat=seat,
        seat_name=live.seats[seat]["name"] if seat is not None else None,
        over=live.played.is_over and "replay" in live.served.capabilities,
        invitation=invitation,
    )
