"""The server's errors and how they are answered: every refusal is JSON with a message key
(`key`), an English `message`, its `params` and the `text` in the reader's language; a client's
mistake is never a 500. An address a browser opens (not the API's) answers a page instead
(server/html.py, `error_page`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..engine import RuleError
from ..i18n import DEFAULT_LANGUAGE, catalog, gettext, label, render_error, request_language
from .html import error_page, wants_page

RETRY_AFTER = 2  # seconds: what a 503 tells the client to wait


class ServiceError(Exception):
    """A client's mistake, with the HTTP status it deserves and a message key. `words` names the
    params that are a vocabulary's values (param -> the vocabulary's key prefix): the text shows
    their words in the reader's language, the params keep the values."""

    def __init__(
        self,
        status: int,
        key: str,
        message: str,
        headers: dict[str, str] | None = None,
        words: dict[str, str] | None = None,
        **params: Any,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.key = key
        self.message = message
        self.headers = headers
        self.words = words or {}
        self.params = params

    def text_params(self, lang: str) -> dict[str, Any]:
        """The params the text of the key is filled from, in `lang`."""
        words = {name: label(lang, prefix, self.params[name]) for name, prefix in self.words.items()}
        return {"detail": self.message, **self.params, **words}

    def to_dict(self) -> dict:
        return {"error": "ServiceError", "key": self.key, "message": self.message, "params": self.params}


class StoreUnavailable(ServiceError):
    """The database did not answer in time (down, locked, every connection busy): 503."""

    def __init__(self) -> None:
        super().__init__(
            503,
            "error.store_busy",
            "the game's database is not answering; try again in a moment",
            headers={"Retry-After": str(RETRY_AFTER)},
        )


def refusal(request: Request, status: int, key: str, message: str, **params: Any) -> JSONResponse:
    """A refusal made before any route (a middleware's), in the shape of a ServiceError's."""
    return JSONResponse(status_code=status, content=refusal_content(request_language(request), key, message, **params))


def refusal_content(language: str, key: str, message: str, **params: Any) -> dict[str, Any]:
    """The JSON body of a refusal made outside the routes, in the shape of a ServiceError's."""
    text = gettext(language, key, **params)
    return {"error": "ServiceError", "key": key, "message": message, "params": params, "text": text}


def game_refusal_text(error: dict[str, Any], lang: str) -> str | None:
    """A refusal whose key is a hosted game's own (Rome's "rome.error.*": its catalogs, not the
    server's), in `lang` (the game's default language if it has not this one); None for a key
    of the server's catalogs."""
    key = str(error.get("key") or "")
    if key in catalog(lang) or key in catalog(DEFAULT_LANGUAGE):
        return None
    from ..games.registry import SERVED

    for served in SERVED.values():
        if key in served.catalog(served.languages[0]):
            return served.render_error(error, lang if lang in served.languages else served.languages[0])
    return None


def refusal_body(exc: ServiceError | RuleError, lang: str) -> tuple[int, dict[str, Any]]:
    """A refused request's status and JSON body (its key, message, params and `text` in `lang`):
    the HTTP answer's, and a websocket's refused action's (server/routes/live.py)."""
    body = exc.to_dict()
    text = game_refusal_text(body, lang)
    if isinstance(exc, ServiceError):
        body["text"] = text if text is not None else gettext(lang, exc.key, **exc.text_params(lang))
        return exc.status, body
    body["text"] = text if text is not None else render_error(body, lang)
    return 422, body


async def service_error(request: Request, exc: ServiceError) -> Response:
    if wants_page(request):  # a browser's address: a page in its language (server/html.py)
        return error_page(request, exc.status, exc.key, exc.text_params(request_language(request)), exc.headers)
    status, body = refusal_body(exc, request_language(request))
    return JSONResponse(status_code=status, content=body, headers=exc.headers)


async def rule_error(request: Request, exc: RuleError) -> JSONResponse:
    status, body = refusal_body(exc, request_language(request))
    return JSONResponse(status_code=status, content=body)


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    # Starlette's own refusals (a body that is not JSON, an unknown path, a wrong method)
    # answer in the same shape as every other error: a key and a message.
    if wants_page(request):
        return error_page(request, exc.status_code, f"error.http_{exc.status_code}", None, exc.headers)
    return JSONResponse(
        status_code=exc.status_code,
        headers=getattr(exc, "headers", None),
        content={"error": "HTTPException", "key": f"error.http_{exc.status_code}", "message": str(exc.detail)},
    )


def invalid_request_body(errors: Sequence[Any], lang: str) -> dict[str, Any]:
    """The 422 body of a request whose fields are not valid (pydantic's `errors()`): the HTTP
    answer's, and a websocket's action's (server/routes/live.py)."""
    return {
        "error": "RequestValidationError",
        "key": "error.request",
        "message": "the request is not valid",
        "text": gettext(lang, "error.request"),
        # where and why, not the input echoed back (it may be large, or not encodable)
        "detail": [
            {"loc": [str(part)[:100] for part in e.get("loc", ())], "msg": str(e.get("msg", ""))[:200]}
            for e in errors[:20]
        ],
    }


async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    return JSONResponse(status_code=422, content=invalid_request_body(exc.errors(), request_language(request)))


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ServiceError, service_error)  # type: ignore[arg-type]
    app.add_exception_handler(RuleError, rule_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, validation_error)  # type: ignore[arg-type]
