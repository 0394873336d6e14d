"""What every answer of ``gamedb serve`` carries, and which requests it answers at all.

By DNS rebinding a page from anywhere could read answers from ``127.0.0.1``, naming its own host: only a ``Host``
naming what the server listens on is answered (:class:`HostRule`). Every answer carries :func:`hardening_headers`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def split_host(value: str) -> tuple[str, int | None] | None:
    """``Host`` header text as (host in lower case, port or None); None if it is not ``name[:port]`` or ``[v6][:port]``."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        host, rest = value[1:end], value[end + 1 :]
        if _address(host) is None:
            return None
    else:
        host, colon, port_text = value.partition(":")
        rest = colon + port_text
    if not rest:
        return (host, None) if host else None
    if not rest.startswith(":") or not rest[1:].isdigit() or len(rest) > 6:  # ":" and at most 5 digits
        return None
    return (host, int(rest[1:])) if host else None


@dataclass(frozen=True)
class HostRule:
    """The ``Host`` values a server bound to ``address``:``port`` answers, with that port: the address (a loopback one or
    localhost; every address: localhost, this machine's name or any IP, which cannot be rebound); ``--allow-host`` names with any."""

    address: str
    port: int
    names: frozenset[str]  # accepted with the bound port
    allowed: frozenset[str] = frozenset()  # --allow-host names, with any port
    any_address: bool = False  # bound to every address: any IP address too

    @classmethod
    def bound(cls, address: str, port: int, allow: Sequence[str] = ()) -> HostRule:
        address = address.lower()
        ip = _address(address)
        names = {address}
        if ip is not None and ip.is_unspecified:
            names = {"localhost", socket.gethostname().lower()}
        elif ip is not None and ip.is_loopback:
            names.add("localhost")
        allowed = frozenset(name.strip().lower().removeprefix("[").removesuffix("]") for name in allow)
        return cls(address, port, frozenset(names), allowed, ip is not None and ip.is_unspecified)

    def accepts(self, header: str | None) -> bool:
        if "*" in self.allowed:
            return True
        parsed = None if header is None else split_host(header)
        if parsed is None:
            return False
        host, port = parsed
        if host in self.allowed:
            return True
        if port != self.port and not (port is None and self.port == 80):
            return False
        return host in self.names or (self.any_address and _address(host) is not None)

    def shown(self) -> str:
        """The address to open: bound to every address (0.0.0.0 or ::, which a browser may not open), localhost."""
        if self.any_address:
            return f"localhost:{self.port}"
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"{host}:{self.port}"


def hardening_headers(csp: str) -> list[tuple[str, str]]:
    """What every answer says, unless the route set it (``csp`` is the page's policy, see :mod:`.app`)."""
    return [("X-Content-Type-Options", "nosniff"), ("Content-Security-Policy", csp), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer")]


class Hardened:
    """ASGI middleware around the whole application: ``headers`` on every answer (its own, the
    application's and the framework's 404 and 500), and a 400 for a ``Host`` that ``rule`` does not accept."""

    def __init__(self, app: ASGIApp, rule: HostRule | None, headers: Sequence[tuple[str, str]]):
        self.app, self.rule = app, rule
        self.headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        started = False

        async def send_hardened(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *((n, v) for n, v in self.headers if n not in present)]
            await send(message)

        if self.rule is not None:
            hosts = [value for name, value in scope.get("headers", []) if name == b"host"]
            header = hosts[0].decode("latin-1") if len(hosts) == 1 else None
            if not self.rule.accepts(header):
                what = f"Host {json.dumps(header[:100])} does not name this server" if header is not None else (
                    "no Host header" if not hosts else "more than one Host header")
                await _answer(send_hardened, 400, f"{what} ({self.rule.shown()}; gamedb serve --allow-host NAME accepts another name)")
                return
        try:
            await self.app(scope, receive, send_hardened)
        except asyncio.CancelledError:
            # the server is stopping and this answer took longer than it waits: a 503, not uvicorn's 500 and a traceback
            if not started:
                await _answer(send_hardened, 503, "the server is stopping")


async def _answer(send: Send, status: int, message: str) -> None:
    """A JSON answer ``{"error": message}`` that closes the connection."""
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
