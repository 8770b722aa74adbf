"""Play in the browser: ``python -m agents.play ENV_ID --web [--port P] [--host H] --opponents ...``.

A local server (the standard library's ``ThreadingHTTPServer``, bound to 127.0.0.1 by default) serves one
static page that shows the board from the person's seat (the game's SVG drawing), enters a move in the
stages of terminal play (buttons, or clicks on the board's hexes, sockets and spaces), narrates every move,
and at the end offers a new game and the game's replay page.

- :mod:`agents.web.staging`: the stages of the legal actions as data (:func:`stage_tree`).
- :mod:`agents.web.session`: :class:`WebGame`, the games behind the page, and the checks of each move.
- :mod:`agents.web.server`: the HTTP routes and the checks of each request (origin, host, body).
- :mod:`agents.web.page`: the page.
"""

from __future__ import annotations

from typing import Any

from .server import MAX_BODY, make_server, serve_forever, stopped, url_of
from .session import WebError, WebGame
from .staging import stage_tree

__all__ = ["MAX_BODY", "WebError", "WebGame", "make_server", "run", "serve_forever", "stage_tree", "url_of"]


def run(env: Any, agents: list, seat: int, seed: int, pieces: Any, host: str, port: int, out=print) -> int:
    """Serve games of ``env`` until Ctrl-C or SIGTERM (see :class:`WebGame` for the arguments); prints the URL.
    Either signal closes the server, says which stopped it and removes an unused temporary log folder
    (:func:`~monolith_envs.core.interrupt.stop_on_signals`, as the other long commands).

    Returns:
        130 after Ctrl-C, 143 after SIGTERM.

    Raises:
        OSError: ``host:port`` cannot be listened on.
    """
    from monolith_envs.core.interrupt import stop_on_signals

    with stop_on_signals():  # the first signal raises Interrupted; a second one cannot cut the clean-up short
        try:
            web = WebGame(env, agents, seat, seed, pieces)
            try:
                server = make_server(web, host, port)
                out(f"{web.raw.env_id}: open {url_of(server)} in a browser (Ctrl-C stops the server); "
                    f"finished games' logs go to {web.log_dir}")
                if getattr(server, "wildcard", False):
                    out(f"listening on every address: from another machine, open http://<this machine's IP "
                        f"address>:{server.server_address[1]}/ (anyone who can reach it can play your moves)")
                return serve_forever(server, out)
            finally:
                web.close()  # an unused temporary log folder is not left behind (also when the port is taken)
        except KeyboardInterrupt as e:  # before the server was listening
            return stopped(e, out)
