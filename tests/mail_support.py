"""A real local SMTP server for the tests (aiosmtpd) that keeps every mail it receives."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message

from aiosmtpd.controller import Controller


class Mailbox:
    """aiosmtpd's handler: keeps every message it receives."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.recipients: list[str] = []  # every envelope recipient, whatever the headers say
        self.url = ""  # the server's JUDGES_SMTP_URL, once it listens

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        self.messages.append(message_from_bytes(envelope.content))
        self.recipients += envelope.rcpt_tos
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if m["To"] == address]

    def wait_for(self, address: str, count: int = 1, timeout: float = 60.0) -> list[Message]:
        """The mails to `address`, once there are `count` of them."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            mails = self.to(address)
            if len(mails) >= count:
                return mails
            time.sleep(0.05)
        raise AssertionError(f"{address} received {len(self.to(address))} mails, not {count}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def smtp_server() -> Iterator[Mailbox]:
    """A listening SMTP server on a free loopback port; its mailbox."""
    box = Mailbox()
    port = free_port()
    # aiosmtpd waits 1 s for its thread to listen by default: a loaded machine takes longer
    controller = Controller(box, hostname="127.0.0.1", port=port, ready_timeout=30)
    controller.start()
    box.url = f"smtp://127.0.0.1:{port}"
    try:
        yield box
    finally:
        controller.stop()


def links_in(message: Message, base: str) -> list[str]:
    """The addresses under `base` a mail's text holds."""
    return re.findall(re.escape(base) + r"/\S+", message.get_payload(decode=True).decode())
