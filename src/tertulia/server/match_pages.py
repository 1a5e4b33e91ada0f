"""A finished match's page (issue 31): ``/m/<id>``, the client's shell, and
``/api/matches/<id>``, the match as JSON (docs/protocol.md, "Match pages"). Both serve every
match from the store (in a cluster, the log every node shares), whichever room or node it
was played in; the page itself is built by ``rooms/match_page.py``.

A page's id is unguessable (96 bits, ``rooms/codes.py``); looking one up that is no kept
match costs the address one of the misses room codes cost (``guard.py``), so probing for
private matches is as slow as probing for private rooms.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..rooms.codes import is_match_id
from .gate import LIMIT_KEY
from .guard import codes_run_out

log = logging.getLogger("tertulia.server")


def match_routes(state: Any, index: Path) -> list[Route]:
    """The routes of match pages, on the app's ``state`` (its guard and rooms); ``index``:
    the client's shell."""

    async def match_shell(request: Request) -> Response:
        """A match's page: the client's shell (it asks ``/api/matches/<id>`` for the match).
        A private match's page, and any id that is not a public match, tells search engines
        not to index it. Finding out costs what the JSON's lookup does (an id that is no
        kept match is a miss: the shell is no free probe); once the address has no misses
        left the id is not looked up, and the shell says noindex."""
        key = request.scope.get(LIMIT_KEY, "")
        public_id = request.path_params["id"]
        public = False
        if state.guard.may_look_up_codes(key):
            try:
                built = await state.rooms.match_page(public_id) if is_match_id(public_id) else None
            except Exception:  # the shell is served whatever the store says
                log.exception("could not look up match %s", public_id)
            else:
                if built is None:
                    state.guard.code_missed(key)
                public = built is not None and built[1]
        headers = {"Cache-Control": "no-cache"}
        if not public:
            headers["X-Robots-Tag"] = "noindex"
        return FileResponse(index, headers=headers)

    async def match_info(request: Request) -> Response:
        """A finished match's page as JSON (docs/protocol.md, "Match pages"). An id that is no
        kept match costs the address one of its misses, as a room code does, and once they
        run out every id is refused, found or not (429)."""
        key = request.scope.get(LIMIT_KEY, "")
        if not state.guard.may_look_up_codes(key):
            refusal = codes_run_out()
            return JSONResponse(
                {"error": refusal.code, "message": refusal.message}, status_code=429
            )
        public_id = request.path_params["id"]
        try:
            built = await state.rooms.match_page(public_id) if is_match_id(public_id) else None
        except Exception:
            log.exception("could not build the page of match %s", public_id)
            return JSONResponse(
                {"error": "server.store", "message": "That match can't be shown now."},
                status_code=503,
            )
        if built is None:
            state.guard.code_missed(key)
            return JSONResponse(
                {"error": "match.unknown", "message": "There is no match with that id."},
                status_code=404,
            )
        body, public = built
        headers = {"Cache-Control": "no-cache"}
        if not public:
            headers["X-Robots-Tag"] = "noindex"
        return Response(body, media_type="application/json", headers=headers)

    return [Route("/m/{id}", match_shell), Route("/api/matches/{id}", match_info)]
