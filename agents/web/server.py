"""The local web server of ``python -m agents.play ENV --web``: the standard library's ``ThreadingHTTPServer``.

Routes (everything else is a 404; any other method a 405):

- ``GET /`` the page (:mod:`agents.web.page`); ``GET /api/state`` the game as :meth:`WebGame.view` JSON;
  ``GET /replay/<game id>.html`` a finished game's replay page.
- ``POST /api/action`` ``{"game_id": str, "action": int, "decision": int (optional)}`` plays the person's
  move (with ``decision``, only if the game is still at that decision: a second tab or a repeated request
  never plays a move chosen in an older position); ``POST /api/new``
  ``{"game_id": str}`` starts the next game.  Both answer with the new state.

Every request is checked before anything else: its one ``Host`` header must name this server on a local name
(``127.0.0.1``, ``localhost``, ``[::1]`` or the ``--host`` it was started with; on a server listening on every
address, ``--host 0.0.0.0`` or ``::`` or another spelling of them such as ``0``, also any IP address) and its
port, which blocks DNS rebinding (it needs a host name); an ``Origin`` header, when sent, must be this server's
own origin, and ``Sec-Fetch-Site: cross-site`` is refused.  A POST must be ``application/json`` (UTF-8, the
only ``charset`` taken) with a ``Content-Length`` of at most
:data:`MAX_BODY` bytes, a JSON object with exactly the expected keys.  Every refusal is a 4xx JSON answer
``{"error": "..."}`` and changes nothing in the game.  At most :data:`MAX_CONNECTIONS` connections are
served at once (each holds a thread), at most :data:`MAX_PER_CLIENT` from one address of another machine and
:data:`LOOPBACK_RESERVE` of them kept for this machine; one more gets a 503 JSON answer and is closed.  A
request must arrive whole (its line, headers and body) within :data:`REQUEST_DEADLINE` seconds, however
slowly its bytes come: then the reading side of its connection is shut, a request cut in its body gets a 408
JSON answer, and the connection closes.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from monolith_envs.core.replay import unique_keys

from .page import PAGE
from .session import WebError, WebGame

__all__ = ["MAX_BODY", "REQUEST_DEADLINE", "make_server", "serve_forever", "stopped", "url_of"]

#: largest POST body accepted, in bytes
MAX_BODY = 4096
_LOCAL = ("127.0.0.1", "localhost", "[::1]")
_PAGE_CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
             "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
_REPLAY = re.compile(r"/replay/([0-9a-f]{16})\.html")
_DIGITS = re.compile(r"[0-9]+")


def _host_name(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _no_constant(name: str) -> Any:
    """``parse_constant`` of a request body: ``NaN``, ``Infinity`` and ``-Infinity`` are not JSON numbers."""
    raise ValueError(f"{name} is not a JSON number")


#: JSON's names for the Python types ``json.loads`` gives, for error messages
_JSON_TYPES = {list: "array", str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}
#: what writing to a browser that closed its connection raises (not an agent's own connection errors)
_CLIENT_GONE = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    server_version = "monolith-envs-play"
    sys_version = ""
    timeout = 15  # seconds one read may wait (REQUEST_DEADLINE bounds the whole request)

    def handle_one_request(self) -> None:
        """One request, with the clock of :data:`REQUEST_DEADLINE` running from the wait for its first byte
        until it has arrived whole (the methods stop it; ``finally`` stops it for a request cut short)."""
        self.server.clock_started(self.connection)
        try:
            super().handle_one_request()
        finally:
            self.server.arrived(self.connection)

    def parse_request(self) -> bool:
        """The base class's parse, then an HTTP/0.9 request (``GET /`` with no version), which it would answer
        with a bare body and no status line, refused with a 505 JSON answer as an unknown version is."""
        if not super().parse_request():
            return False
        if self.request_version == "HTTP/0.9":
            self.send_error(505, "Invalid HTTP version", "HTTP/0.9 is not served; send HTTP/1.0 or 1.1")
            return False
        return True

    def _late(self) -> bool:
        """Answer 408 and return True when the request's deadline passed before it arrived whole."""
        if not self.server.late(self.connection):
            return False
        self._error(408, f"the request did not arrive whole within {REQUEST_DEADLINE:g} s")
        return True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        if self.server.verbose:
            super().log_message(format, *args)

    # ------------------------------------------------------------------ answers
    def _send(self, status: int, body: bytes, ctype: str, csp: str | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        if csp:
            self.send_header("Content-Security-Policy", csp)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data, separators=(",", ":")).encode(), "application/json; charset=utf-8")

    def _error(self, status: int, message: str) -> None:
        self.close_connection = True
        self._json(status, {"error": message})

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's own refusals (a request line it cannot parse, an unknown method, a URI or header
        block too long) as the same JSON error as every other refusal, not its HTML page."""
        if self.request_version == "HTTP/0.9":  # an unparsable request line: still answer with a status line
            self.request_version = "HTTP/1.0"
        short = self.responses.get(code, ("error",))[0]
        text = f"{message or short}" + (f": {explain}" if explain else "")
        if code == 501 and self.command:
            text = (f"method {self.command[:20]!r} is not supported: GET the page and state, POST the moves")
        self._error(code, text[:300])

    # ------------------------------------------------------------------ checks
    def _allowed_hosts(self) -> set[str]:
        port = self.server.server_address[1]
        return {f"{h}:{port}" for h in self.server.host_names}

    def _ip_host(self, host: str) -> bool:
        """``host`` is ``<IP address>:<this port>``: on a server listening on every address
        (``--host 0.0.0.0`` or ``::``), how another machine names it.  An address is never a name that DNS
        rebinding can point elsewhere, so it is safe to accept."""
        name, sep, port = host.rpartition(":")
        if not self.server.wildcard or not sep or port != str(self.server.server_address[1]):
            return False
        try:
            ipaddress.ip_address(name[1:-1] if name.startswith("[") and name.endswith("]") else name)
        except ValueError:
            return False
        return not (":" in name and not name.startswith("["))

    def _check_origin(self) -> str | None:
        """Why this request is refused (another site, another Host), or None."""
        if len(self.headers.get_all("Host") or []) > 1:  # which one a proxy or the checks would read is unclear
            return "refused: more than one Host header"
        host = (self.headers.get("Host") or "").strip().lower()
        if host not in self._allowed_hosts() and not self._ip_host(host):
            port = self.server.server_address[1]
            also = " or this machine's IP address" if self.server.wildcard else ""
            return f"refused: Host {host[:80]!r} is not this server (use http://127.0.0.1:{port}/{also})"
        origin = self.headers.get("Origin")
        own = {f"http://{h}" for h in self._allowed_hosts() | {host}}
        if origin is not None and origin.strip().lower() not in own:
            return f"refused: requests from the origin {origin[:80]!r} are not accepted, only from this page"
        if (self.headers.get("Sec-Fetch-Site") or "").lower() == "cross-site":
            return "refused: a cross-site request"
        return None

    def _body(self, keys: dict[str, str], optional: dict[str, str] | None = None) -> dict | None:
        """The JSON object of a POST with exactly ``keys`` (name -> what it is) and any of ``optional``;
        answers the error itself and returns None when the body is refused."""
        ctype, _, params = (self.headers.get("Content-Type") or "").partition(";")
        ctype = ctype.strip().lower()
        if ctype != "application/json":
            self._error(415, f"the body must be application/json, got {ctype or 'no Content-Type'!r}")
            return None
        charset = next((v.strip().strip('"').lower() for k, _, v in (p.partition("=") for p in params.split(";"))
                        if k.strip().lower() == "charset"), "utf-8")
        if charset not in ("utf-8", "utf8"):  # the body is read as UTF-8, JSON's own encoding (RFC 8259)
            self._error(415, f"the body must be UTF-8 JSON, got charset {charset[:40]!r}")
            return None
        length = (self.headers.get("Content-Length") or "").strip()
        if _DIGITS.fullmatch(length) is None:  # ASCII digits only: str.isdigit() also takes '²' and '٣'
            self._error(411, "a Content-Length header (a byte count) is required")
            return None
        if len(length) > 9 or int(length) > MAX_BODY:  # no int() of a huge digit string
            shown = length if len(length) <= 20 else length[:20] + "..."
            self._error(413, f"the body is {shown} bytes; at most {MAX_BODY} are accepted")
            return None
        try:
            raw = self.rfile.read(int(length))
        except OSError:
            self._error(408, f"the body did not arrive: {length} bytes were announced")
            return None
        self.server.arrived(self.connection)
        if len(raw) < int(length):  # (a whole body is served even if the deadline passed as it arrived)
            if not self._late():
                self._error(408, f"the body ended after {len(raw)} of the {length} bytes announced")
            return None
        try:
            data = json.loads(raw.decode("utf-8"), object_pairs_hook=unique_keys,  # as episode logs are read
                              parse_constant=_no_constant)
        except RecursionError:
            self._error(400, "the body is not valid UTF-8 JSON: nested too deeply")
            return None
        except (UnicodeDecodeError, ValueError) as e:
            self._error(400, f"the body is not valid UTF-8 JSON: {str(e)[:120]}")
            return None
        optional = optional or {}
        want = ", ".join(f"{k!r} ({v})" for k, v in keys.items())
        if optional:
            want += " and optionally " + ", ".join(f"{k!r} ({v})" for k, v in optional.items())
        if not isinstance(data, dict) or not set(keys) <= set(data) <= set(keys) | set(optional):
            if isinstance(data, dict):
                names = sorted(map(str, data))
                got = ("an object with the keys " + ", ".join(map(repr, names[:10])) + (", ..." if names[10:] else "")
                       if names else "an empty object")
            else:
                got = f"a JSON {_JSON_TYPES.get(type(data), type(data).__name__)}"
            self._error(400, f"the body must be a JSON object with exactly the keys {want}; got {got}")
            return None
        return data

    # ------------------------------------------------------------------ methods
    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        self.server.arrived(self.connection)
        if self._late():
            return
        why = self._check_origin()
        if why:
            self._error(403, why)
            return
        path = self.path.split("?", 1)[0]
        web: WebGame = self.server.web
        try:
            if path in ("/", "/index.html"):
                self._send(200, PAGE.encode(), "text/html; charset=utf-8", _PAGE_CSP)
            elif path == "/api/state":
                self._json(200, web.view())
            elif (m := _REPLAY.fullmatch(path)) is not None:
                page = web.replay_page(m.group(1))
                self._send(200, page.read_bytes(), "text/html; charset=utf-8", _PAGE_CSP)
            elif path == "/favicon.ico":
                self._send(204, b"", "text/plain")
            else:
                self._error(404, f"no page {path[:80]!r} here: the game is at /")
        except WebError as e:
            self._error(e.status, str(e))
        except _CLIENT_GONE:  # the browser left before the answer (a closed tab): nothing to answer
            self.close_connection = True
        except Exception as e:  # noqa: BLE001 - an agent or a page that fails: one JSON line, not a traceback
            self._error(500, f"the server failed: {type(e).__name__}: {str(e)[:300]}")

    do_HEAD = do_GET

    def do_POST(self) -> None:  # noqa: N802
        if self._late():  # its headers were cut short (the clock runs on while its body arrives)
            return
        why = self._check_origin()
        if why:
            self._error(403, why)
            return
        path = self.path.split("?", 1)[0]
        web: WebGame = self.server.web
        try:
            if path == "/api/action":
                data = self._body({"game_id": "string", "action": "integer"},
                                  {"decision": "integer, the decision number the move was chosen at"})
                if data is not None:
                    self._json(200, web.play(data["game_id"], data["action"], data.get("decision")))
            elif path == "/api/new":
                data = self._body({"game_id": "string"})
                if data is not None:
                    self._json(200, web.new_game(data["game_id"]))
            else:
                self._error(404, f"no action {path[:80]!r} here: POST /api/action or /api/new")
        except WebError as e:
            self._error(e.status, str(e))
        except _CLIENT_GONE:  # the browser left before the answer: the move itself was played
            self.close_connection = True
        except Exception as e:  # noqa: BLE001
            self._error(500, f"the server failed: {type(e).__name__}: {str(e)[:300]}")

    def _refuse(self) -> None:
        self._error(405, f"method {self.command} is not allowed: GET the page and state, POST the moves")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse


#: connections served at once; one more is answered 503 and closed (each holds a thread: with ``--host
#: 0.0.0.0`` other machines could open thousands of idle ones)
MAX_CONNECTIONS = 64
#: connections one client address may hold at once (a loopback client is not limited this way)
MAX_PER_CLIENT = 16
#: connections kept for loopback clients: other machines get at most ``MAX_CONNECTIONS - LOOPBACK_RESERVE``
LOOPBACK_RESERVE = 8
#: seconds a request may take to arrive whole (line, headers, body), counted from the wait for its first byte
#: and checked 4 times a second: the handler's ``timeout`` bounds one read, so without it a byte every few
#: seconds would hold a thread for hours (and a few such clients every connection of other machines)
REQUEST_DEADLINE = 30.0


def _client_ip(client_address: Any) -> str:
    """The address a connection came from, as the connection caps count it (``""`` when the socket gave none)."""
    return str(client_address[0]) if client_address else ""


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, addr: tuple[str, int], web: WebGame, verbose: bool = False):
        import threading

        self.web, self.verbose = web, verbose
        self._open, self._open_lock = 0, threading.Lock()
        self._per_client: dict[str, int] = {}
        # connections whose request is arriving -> the monotonic time it must have arrived by; those past it
        self._arriving: dict[socket.socket, float] = {}
        self._past_deadline: set[socket.socket] = set()
        self._reaper: threading.Thread | None = None
        self._reaper_stop = threading.Event()
        super().__init__(addr, _Handler)
        bound = addr[0].strip("[]")
        # every address (by what the socket is bound to, so "", "0", "0x0" and "::0" count as "0.0.0.0" and "::"
        # do): other machines name it by IP address
        self.wildcard = ipaddress.ip_address(str(self.server_address[0]).split("%")[0]).is_unspecified
        extra = () if self.wildcard else (_host_name(bound).lower(),)
        self.host_names = set(_LOCAL + extra)

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection on its own thread, or answer 503 and close it: with :data:`MAX_CONNECTIONS`
        already open, or for a client of another machine, with :data:`MAX_PER_CLIENT` of its own open or all
        but the :data:`LOOPBACK_RESERVE` slots taken."""
        ip = _client_ip(client_address)
        try:
            local = ipaddress.ip_address(ip.split("%")[0]).is_loopback
        except ValueError:
            local = False
        with self._open_lock:
            mine = self._per_client.get(ip, 0)
            if local:
                why = "" if self._open < MAX_CONNECTIONS else f"{MAX_CONNECTIONS} connections, the most it takes"
            elif mine >= MAX_PER_CLIENT:
                why = f"{MAX_PER_CLIENT} connections from {ip}, the most one address may hold"
            elif self._open >= MAX_CONNECTIONS - LOOPBACK_RESERVE:
                why = f"{MAX_CONNECTIONS - LOOPBACK_RESERVE} connections from other machines, the most it takes"
            else:
                why = ""
            if not why:
                self._open += 1
                self._per_client[ip] = mine + 1
        if why:
            busy = json.dumps({"error": f"the server is serving {why}; try again when one has closed"}).encode()
            try:
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                                b"Content-Length: " + str(len(busy)).encode() + b"\r\nConnection: close\r\n\r\n"
                                + busy)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # the thread did not start: the connection is not open
            self._closed(ip)
            raise

    def _closed(self, ip: str) -> None:
        """A connection from ``ip`` ended: it no longer counts against the caps."""
        with self._open_lock:
            self._open -= 1
            left = self._per_client.get(ip, 1) - 1
            if left > 0:
                self._per_client[ip] = left
            else:
                self._per_client.pop(ip, None)

    # ------------------------------------------------------------------ the request deadline
    def clock_started(self, conn: socket.socket) -> None:
        """``conn`` waits for a request: it must arrive whole within :data:`REQUEST_DEADLINE` seconds."""
        with self._open_lock:
            self._past_deadline.discard(conn)
            self._arriving[conn] = time.monotonic() + REQUEST_DEADLINE
            if self._reaper is None:
                self._reaper = threading.Thread(target=self._reap, name="request-deadline", daemon=True)
                self._reaper.start()

    def arrived(self, conn: socket.socket) -> None:
        """``conn``'s request has arrived (or ended): its clock stops."""
        with self._open_lock:
            self._arriving.pop(conn, None)

    def late(self, conn: socket.socket) -> bool:
        """Whether ``conn``'s request passed its deadline, so the reading side of ``conn`` was shut."""
        with self._open_lock:
            return conn in self._past_deadline

    def _reap(self) -> None:
        """Shut the reading side of every connection whose request is past its deadline (a read waiting on
        it returns what has arrived), until the server closes."""
        while not self._reaper_stop.wait(min(0.25, REQUEST_DEADLINE / 4)):
            now = time.monotonic()
            with self._open_lock:
                past = [c for c, t in self._arriving.items() if t <= now]
                for c in past:
                    del self._arriving[c]
                    self._past_deadline.add(c)
            for c in past:
                try:
                    c.shutdown(socket.SHUT_RD)
                except OSError:  # already closed by its client
                    pass

    def server_close(self) -> None:
        self._reaper_stop.set()
        super().server_close()

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._open_lock:  # (handle_one_request stopped its clock)
                self._past_deadline.discard(request)
            self._closed(_client_ip(client_address))

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that closed its connection mid-answer is not an error to print; anything else is printed
        as the standard library does."""
        import sys

        if isinstance(sys.exc_info()[1], _CLIENT_GONE):
            return
        super().handle_error(request, client_address)


class _Server6(_Server):
    address_family = socket.AF_INET6


def make_server(web: WebGame, host: str = "127.0.0.1", port: int = 0, verbose: bool = False) -> ThreadingHTTPServer:
    """A server for ``web`` listening on ``host:port`` (port 0: a free port; ``server.server_address`` has it).

    Raises:
        OSError: the address cannot be listened on (in use, not an address of this machine).
    """
    cls = _Server6 if ":" in host.strip("[]") else _Server
    return cls((host.strip("[]"), port), web, verbose)


def url_of(server: ThreadingHTTPServer) -> str:
    """The address to open in a browser, e.g. ``http://127.0.0.1:8000/``."""
    host, port = server.server_address[:2]
    name = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else _host_name(host)
    return f"http://{name}:{port}/"


def serve_forever(server: ThreadingHTTPServer, out=print) -> int:
    """Serve until Ctrl-C or SIGTERM (:class:`~monolith_envs.core.interrupt.Interrupted`, raised where
    :func:`~monolith_envs.core.interrupt.stop_on_signals` is on, as in :func:`agents.web.run`); closes the
    server, says what stopped it and returns the exit status of the interrupt (130, or 143 for SIGTERM)."""
    try:
        server.serve_forever()
    except KeyboardInterrupt as e:
        return stopped(e, out)
    finally:
        server.server_close()
    return 0


def stopped(e: KeyboardInterrupt, out=print) -> int:
    """Say that ``e`` (Ctrl-C, or an :class:`~monolith_envs.core.interrupt.Interrupted` of SIGINT or SIGTERM)
    stopped the server; its exit status: 130 for Ctrl-C, 143 for SIGTERM."""
    code = getattr(e, "exit_code", 130)
    out(f"\nstopped ({'Ctrl-C' if code == 130 else getattr(e, 'name', 'a signal')})")
    return code
