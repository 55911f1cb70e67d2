"""The bench driver's HTTP/1.1 client: one keep-alive socket, requests written as bytes, answers
parsed by httptools (the C parser uvicorn uses), bodies read by Content-Length or chunked.

``http.client`` spends about 200 µs of the driver's CPU per round trip on this machine (header
objects, ``email.parser``), more than the servers it measures spend answering. A sequential
client's calls/s is ``1 / (driver + server + wake-ups)``, so a heavy driver hides the
differences between servers. This client does the same exchange for a fraction of that; every
answer is still read whole and checked by the caller.
"""

from __future__ import annotations

import socket
from typing import Any

import httptools


class Answer:
    """One HTTP answer: status, the headers the driver reads, the body."""

    __slots__ = ("status", "headers", "body", "done")

    def __init__(self) -> None:
        self.status = 0
        self.headers: dict[bytes, bytes] = {}
        self.body = bytearray()
        self.done = False

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers[name.lower()] = value

    def on_body(self, body: bytes) -> None:
        self.body += body

    def on_message_complete(self) -> None:
        self.done = True

    def header(self, name: str) -> str | None:
        value = self.headers.get(name.encode())
        return value.decode("latin-1") if value is not None else None


class WireHttp:
    """POSTs on one keep-alive connection to ``127.0.0.1:port``."""

    def __init__(self, port: int, path: str = "/mcp", timeout: float = 30.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()

    def post(self, body: bytes, headers: dict[str, str]) -> Answer:
        lines = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.sock.sendall(
            self.head + f"{lines}Content-Length: {len(body)}\r\n\r\n".encode("latin-1") + body
        )
        answer = Answer()
        parser: Any = httptools.HttpResponseParser(answer)
        while not answer.done:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the server closed the connection mid-answer")
            parser.feed_data(data)
        answer.status = parser.get_status_code()
        return answer

    def close(self) -> None:
        self.sock.close()
