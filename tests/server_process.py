"""A real server process for tests: `python -m judges.cli serve` on a free loopback port, its
output in a log file; stopped, or killed with SIGKILL, by the test."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`python -m judges.cli serve --allow-seeds` on a free port; `env` is added to the
    environment (JUDGES_BOT_DELAY is 0 unless given)."""

    def __init__(self, db_url: str, log: Path, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log_path = log
        self.log = open(log, "wb")
        environment = {**os.environ, "JUDGES_DATABASE_URL": db_url, "JUDGES_BOT_DELAY": "0", **(env or {})}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "judges.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--allow-seeds",
            ],
            env=environment,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            cwd=log.parent,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited ({self.process.returncode}):\n{self.output()}")
            try:
                if httpx.get(f"{self.base}/api/world", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise AssertionError(f"the server did not answer within 60 s:\n{self.output()}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self, tail: int | None = 4000) -> str:
        """The server's output (its last `tail` characters; None: all of it)."""
        if not self.log.closed:
            self.log.flush()
        text = self.log_path.read_text(errors="replace")
        return text if tail is None else text[-tail:]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self.log.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(15)
        self.log.close()
