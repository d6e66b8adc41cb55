"""Sending e-mail (the notices and forgotten passwords) through an SMTP server.

`JUDGES_SMTP_URL`: `smtp://host:port` (plain), `smtp://host:port?starttls=1` (upgraded with
STARTTLS), or `smtps://host:port` (TLS from the start); `user:password@` before the host logs
in. Unset: the server sends no mail (notices are then only shown on the page). `JUDGES_MAIL_FROM`:
the sender's address (default `judges@localhost`).
"""

from __future__ import annotations

import re
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

from ...settings import Settings
from .. import metrics

SMTP_URL_ENV = "JUDGES_SMTP_URL"
DEFAULT_FROM = "judges@localhost"
TIMEOUT = 20.0  # seconds: a stalled mail server never holds a thread for long


class MailError(Exception):
    """The mail was not sent (the SMTP server refused it, or could not be reached)."""


# An address is one mailbox `local@domain`: the local part a dot-atom of RFC 5322 (no quotes,
# spaces, commas, angle brackets or comments: nothing that could name a second recipient), the
# domain two or more DNS labels (an internationalized one in its IDNA form), the top one not
# numeric; 254 characters at most (RFC 5321).
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL = re.compile(rf"{_ATOM}(?:\.{_ATOM})*")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


def clean_email(text: str | None) -> str | None:
    """The one e-mail address `text` is (its domain in lower case), or None if it is not
    exactly one plain address."""
    address = (text or "").strip()
    if len(address) > 254 or address.count("@") != 1:
        return None
    local, domain = address.split("@")
    if not 0 < len(local) <= 64 or not _LOCAL.fullmatch(local):
        return None
    try:
        domain = domain.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None
    labels = domain.split(".")
    if len(labels) < 2 or labels[-1].isdigit() or not all(_LABEL.fullmatch(label) for label in labels):
        return None
    return f"{local}@{domain}"


@dataclass(frozen=True)
class Mailer:
    host: str
    port: int
    tls: bool = False
    starttls: bool = False
    user: str | None = None
    password: str | None = None
    sender: str = DEFAULT_FROM

    @classmethod
    def from_url(cls, url: str, sender: str | None = None) -> Mailer:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"{SMTP_URL_ENV} must be smtp://host:port or smtps://host:port")
        query = parse_qs(parts.query)
        tls = parts.scheme == "smtps"
        return cls(
            host=parts.hostname,
            port=parts.port or (465 if tls else 25),
            tls=tls,
            starttls=query.get("starttls", ["0"])[0] in ("1", "true", "yes"),
            user=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            sender=sender or DEFAULT_FROM,
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> Mailer | None:
        url = settings.smtp_url
        return cls.from_url(url, settings.mail_from) if url else None

    def send(self, to: str, subject: str, body: str) -> None:
        """Sends one plain-text mail to one address (blocking: call it off the event loop)."""
        address = clean_email(to)
        if address is None:
            raise MailError(f"not one e-mail address: {to[:80]!r}")
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = address
        message["Subject"] = subject
        message.set_content(body)
        try:
            smtp: smtplib.SMTP
            if self.tls:
                smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT, context=ssl.create_default_context())
            else:
                smtp = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
            with smtp:
                if self.starttls:
                    smtp.starttls(context=ssl.create_default_context())
                if self.user:
                    smtp.login(self.user, self.password or "")
                smtp.send_message(message, to_addrs=[address])  # the one recipient, whatever the headers say
        except (OSError, smtplib.SMTPException) as exc:
            metrics.MAILS.labels("failed").inc()
            raise MailError(str(exc)) from exc
        metrics.MAILS.labels("sent").inc()
