"""Who may use the web board: the Host, Origin and token checks of ``connect6 gui``.

A page on any web site can open a WebSocket to ``ws://127.0.0.1:8066/ws``
and a page whose name resolves to 127.0.0.1 (DNS rebinding) can also read
the board's HTTP answers.  :class:`AccessPolicy` says which requests are
the board's own:

* **Host**: the ``Host`` header names an address the board serves, with the
  port it listens on: the ``--host`` address (for the default 127.0.0.1, also
  ``localhost`` and ``[::1]``), plus each ``--allow-host`` name (``name``
  for any port, ``name:port`` for one).  Otherwise HTTP 400.
* **Origin**: a request a browser sends from a page (it carries ``Origin``)
  must come from the board's own origin (the scheme-less ``host:port`` of the
  request) or from an ``--allow-origin``.  Otherwise HTTP 403, and a
  WebSocket is closed with code 1008 (policy violation) and the reason.
  A client that is not a browser sends no ``Origin`` and is let through (it
  could send any value anyway); the Host check and the token still apply.
* **Token**: when set (``connect6 gui --host`` with a non-local address),
  every request carries it: ``?token=...`` in the URL (the printed one), or
  the cookie the board sets on the first such visit (so the page's own
  requests and its WebSocket need nothing more).

>>> p = AccessPolicy.for_host("127.0.0.1")
>>> p.host_problem("localhost:8066", 8066) is None
True
>>> p.host_problem("evil.example.com:8066", 8066)[:58]
"the Host header 'evil.example.com:8066' is not this board'"
>>> p.origin_problem("http://localhost:8066", "localhost:8066") is None
True
>>> p.origin_problem("http://evil.example.com", "localhost:8066")[:42]
"the Origin 'http://evil.example.com' is no"
"""
from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
import socket
import urllib.parse
from http.cookies import SimpleCookie
from typing import Any, Awaitable, Callable, Dict, FrozenSet, Iterable, List, Optional, Tuple

__all__ = ["AccessPolicy", "AccessGuard", "LOCAL_NAMES", "WILDCARD_HOSTS", "is_local_host", "parse_host",
           "new_token", "POLICY_VIOLATION"]

#: names of this machine's loopback address, accepted together for a local --host
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
#: --host values that listen on every address of the machine
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
#: WebSocket close code for a refused connection (RFC 6455: policy violation)
POLICY_VIOLATION = 1008
_DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}
#: one dot-separated part of a host name (RFC 1123; "_" as some local names have it)
_LABEL_RE = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?", re.ASCII)

Scope = Dict[str, Any]
Receive = Callable[[], Awaitable[Dict[str, Any]]]
Send = Callable[[Dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def is_local_host(host: str) -> bool:
    """Whether ``--host`` keeps the board on this machine (a loopback address)."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def parse_host(value: str) -> Tuple[str, Optional[int]]:
    """``("name", port)`` of a Host header or an ``--allow-host`` value (port None when absent).

    >>> parse_host("[::1]:8066"), parse_host("Example.COM."), parse_host("10.0.0.2:80")
    (('::1', 8066), ('example.com', None), ('10.0.0.2', 80))
    """
    text = value.strip()
    port: Optional[str] = None
    if text.startswith("["):
        name, _, rest = text[1:].partition("]")
        if rest.startswith(":"):
            port = rest[1:]
        elif rest:
            raise ValueError(f"bad host {value!r}: expected [address] or [address]:port")
    elif text.count(":") == 1:
        name, port = text.split(":")
    else:
        name = text   # a name, or a bare IPv6 address
    name = name.lower().rstrip(".")
    if not name:
        raise ValueError(f"bad host {value!r}: no name")
    if ":" in name or text.startswith("["):     # only an IPv6 address has colons or brackets
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            raise ValueError(f"bad host {value!r}: {name!r} is not an IPv6 address") from None
    elif len(name) > 253 or not all(_LABEL_RE.fullmatch(label) for label in name.split(".")):
        raise ValueError(f"bad host {value!r}: a host is a name of letters, digits and hyphens "
                         "between dots, or an IP address")
    if port is None or port == "":
        return name, None
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad host {value!r}: the port must be 1..65535")
    return name, int(port)


def _origin_key(origin: str) -> Optional[str]:
    """``scheme://name:port`` of an Origin value, with the default port filled in (None if unusable)."""
    try:
        parts = urllib.parse.urlsplit(origin.strip().lower())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return None
        port = parts.port or _DEFAULT_PORTS[parts.scheme]
    except ValueError:                  # http://[::1 (an unclosed bracket), a port out of range
        return None
    name = parts.hostname.rstrip(".")
    shown = f"[{name}]" if ":" in name else name
    return f"{parts.scheme}://{shown}:{port}"


def new_token() -> str:
    """A fresh random token for the printed URL."""
    return secrets.token_urlsafe(24)


def _machine_names() -> FrozenSet[str]:
    """The names and addresses of this machine, for a --host that listens on all of them."""
    names = {socket.gethostname().lower(), socket.getfqdn().lower()}
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            names.add(str(info[4][0]).lower())
    except OSError:
        pass
    return frozenset(n for n in names if n)


class AccessPolicy:
    """The hosts, origins and token a board accepts (see the module docstring)."""

    def __init__(self, names: Iterable[str], allow_hosts: Iterable[str] = (), allow_origins: Iterable[str] = (),
                 token: Optional[str] = None):
        self.names = frozenset(parse_host(n)[0] for n in names)   # served with the board's own port
        self.extra_hosts: List[Tuple[str, Optional[int]]] = []
        for h in allow_hosts:
            try:
                self.extra_hosts.append(parse_host(h))
            except ValueError as exc:
                raise ValueError(f"--allow-host: {exc}") from None
        self.origins: Dict[str, str] = {}
        for origin in allow_origins:
            key = _origin_key(origin)
            if key is None:
                raise ValueError(f"--allow-origin {origin!r}: expected an origin like http://example.com:8066")
            self.origins[key] = origin
        if token is not None and not token:
            raise ValueError("the token must not be empty")
        self.token = token

    @classmethod
    def for_host(cls, host: str, allow_hosts: Iterable[str] = (), allow_origins: Iterable[str] = (),
                 token: Optional[str] = None) -> "AccessPolicy":
        """The policy of a board listening on ``host`` (``connect6 gui --host``)."""
        if is_local_host(host):
            names: Iterable[str] = LOCAL_NAMES
        elif host.strip("[]") in WILDCARD_HOSTS:
            names = LOCAL_NAMES + tuple(_machine_names())
        else:
            names = (host.strip("[]"),)
        return cls(names, allow_hosts, allow_origins, token)

    def served(self, port: Optional[int]) -> str:
        """The hosts in words, for the refusal texts."""
        shown = [f"[{n}]" if ":" in n else n for n in sorted(self.names)]
        out = [f"{n}:{port}" if port else n for n in shown[:6]] + (["..."] if len(shown) > 6 else [])
        out += [n if p is None else f"{n}:{p}" for n, p in self.extra_hosts]
        return ", ".join(out)

    def host_problem(self, host: Optional[str], port: Optional[int], default_port: int = 80) -> Optional[str]:
        """Why a request with this Host header (to a board on ``port``) is refused; None when it is not."""
        if not host:
            return "the request has no Host header"
        try:
            name, asked = parse_host(host)
        except ValueError:
            return f"the Host header {host[:60]!r} is not a host name"
        asked = asked or default_port
        if name in self.names and (asked == port or port is None):
            return None
        if any(name == n and (p is None or p == asked) for n, p in self.extra_hosts):
            return None
        return (f"the Host header {host[:60]!r} is not this board's address ({self.served(port)}); "
                f"start connect6 gui with --allow-host {name} to serve it")

    def origin_problem(self, origin: Optional[str], host: str, scheme: str = "http") -> Optional[str]:
        """Why a request from a page of ``origin`` (None: not a browser) to ``host`` over ``scheme``
        (http or https) is refused; None when it is not."""
        if origin is None:
            return None
        key = _origin_key(origin)
        if key is not None and (key in self.origins or key == self._own_origin(host, scheme)):
            return None
        return (f"the Origin {origin[:60]!r} is not this board's page; start connect6 gui with "
                f"--allow-origin ORIGIN to let another page use it")

    @staticmethod
    def _own_origin(host: str, scheme: str) -> str:
        """The origin of the board's page as its requests name it (Host header and scheme)."""
        name, port = parse_host(host)
        shown = f"[{name}]" if ":" in name else name
        return f"{scheme}://{shown}:{port or _DEFAULT_PORTS[scheme]}"

    def token_ok(self, given: Optional[str]) -> bool:
        return self.token is None or (given is not None and hmac.compare_digest(given.encode(), self.token.encode()))


def _headers(scope: Scope) -> Dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


class AccessGuard:
    """ASGI middleware applying an :class:`AccessPolicy` to every HTTP request and WebSocket."""

    def __init__(self, app: ASGIApp, policy: AccessPolicy):
        self.app, self.policy = app, policy
        # no other page may frame the board (clickjacking), but its own and the allowed origins
        ancestors = " ".join(["'self'", *sorted(policy.origins)])
        self.framing = [(b"content-security-policy", f"frame-ancestors {ancestors}".encode("latin-1"))]
        if not policy.origins:
            self.framing.append((b"x-frame-options", b"SAMEORIGIN"))

    def cookie_name(self, port: Optional[int]) -> str:
        return f"connect6_token_{port or 0}"   # cookies ignore ports: one name per board

    def _problem(self, scope: Scope) -> Tuple[Optional[str], int, bool]:
        """(why refused or None, HTTP status, whether the token came in the query)."""
        headers = _headers(scope)
        port = (scope.get("server") or (None, None))[1]
        problem = self.policy.host_problem(headers.get("host"), port,
                                           _DEFAULT_PORTS.get(str(scope.get("scheme")), 80))
        if problem is not None:
            return problem, 400, False
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        problem = self.policy.origin_problem(headers.get("origin"), headers["host"], scheme)
        if problem is not None:
            return problem, 403, False
        if self.policy.token is None:
            return None, 200, False
        query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if self.policy.token_ok((query.get("token") or [None])[0]):
            return None, 200, True
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(headers.get("cookie", ""))
        except Exception:   # a malformed cookie header is as good as none
            pass
        morsel = jar.get(self.cookie_name(port))
        if self.policy.token_ok(morsel.value if morsel else None):
            return None, 200, False
        why = "a wrong token" if query.get("token") or morsel else "no token"
        return (f"this board needs its token and the request has {why}: open the URL with ?token= "
                f"that connect6 gui printed"), 403, False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        problem, status, token_in_query = self._problem(scope)
        if problem is not None:
            if scope["type"] == "http":
                await _refuse_http(send, status, problem)
            else:
                await _refuse_websocket(receive, send, problem)
            return
        if scope["type"] == "http":
            extra = list(self.framing)
            if token_in_query:
                port = (scope.get("server") or (None, None))[1]
                extra.append((b"set-cookie", (f"{self.cookie_name(port)}={self.policy.token}; Path=/; HttpOnly; "
                                              "SameSite=Strict").encode("latin-1")))
            send = _adding_headers(send, extra)
        await self.app(scope, receive, send)


def _adding_headers(send: Send, extra: List[Tuple[bytes, bytes]]) -> Send:
    """``send`` with ``extra`` headers added to the response's start."""
    async def wrapped(message: Dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message = dict(message, headers=list(message.get("headers", [])) + extra)
        await send(message)
    return wrapped


async def _refuse_http(send: Send, status: int, problem: str) -> None:
    body = f"connect6 gui refused this request: {problem}\n".encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _refuse_websocket(receive: Receive, send: Send, problem: str) -> None:
    """Accept, then close at once with code 1008 and the reason (at most 123 bytes), so the page can say why."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": short_reason(problem)})


def short_reason(text: str) -> str:
    """A WebSocket close reason: at most 123 bytes of UTF-8."""
    data = text.encode("utf-8")
    if len(data) <= 123:
        return text
    return data[:120].decode("utf-8", "ignore") + "..."
