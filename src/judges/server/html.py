"""The server's HTML pages: the templates of web/templates, rendered in the reader's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from ..i18n import LANGUAGES, gettext

WEB = Path(__file__).resolve().parent.parent / "web"
templates = Environment(loader=FileSystemLoader(WEB / "templates"), autoescape=select_autoescape(["html"]))


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
