"""Pushes as patches, in the browser: web/js/patch.js undoes exactly what the server's
``patches.diff`` writes, and a tab that misses a patch asks for the whole picture again
(``sync``) and shows the room as it is."""

from __future__ import annotations

import json
import random

from e2e_actions import SOCKET, create_room, join_room
from playwright.sync_api import expect

from tertulia.patches import diff


def _random_json(rng: random.Random, depth: int = 0):
    """JSON whose numbers survive JavaScript as they are (no 1.0: JavaScript writes 1), and
    whose keys are not array indices (JavaScript puts those first in an object)."""
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, -3, 2.5, 7])
    if kind == 3:
        return rng.choice(["", "a", "ñ/~", "x y"])
    if kind in (4, 5):
        keys = rng.sample(["a", "b", "c/d", "e~f", "g"], rng.randrange(5))
        return {k: _random_json(rng, depth + 1) for k in keys}
    return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]


def test_the_browser_applies_every_patch_the_server_writes_exactly(player):
    """The same property as tests/test_patches.py, on the browser's side of the wire."""
    page = player()
    rng = random.Random(20261201)
    cases = []
    for _ in range(300):
        old, new = _random_json(rng), _random_json(rng)
        if rng.random() < 0.5 and isinstance(old, (dict, list)):
            new = json.loads(json.dumps(old))  # a small change to a copy: the common case
            if isinstance(new, dict):
                new[rng.choice(["a", "z"])] = _random_json(rng)
            else:
                new.append(_random_json(rng))
        cases.append([old, diff(old, new), new])
    results = page.evaluate(
        """async (cases) => {
            const { applyPatch } = await import("/static/js/patch.js");
            return cases.map(([old, ops]) => JSON.stringify(applyPatch(old, ops)));
        }""",
        cases,
    )
    for (_old, _ops, new), result in zip(cases, results, strict=True):
        assert json.loads(result) == new and list(_keys(json.loads(result))) == list(_keys(new))


def _keys(value):
    """Every object's keys in order, depth first (the order a screen walks them in)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def test_a_tab_that_missed_a_patch_asks_for_the_whole_room_and_shows_it(player):
    """ "a client whose version does not match asks for (or is sent) the full view"."""
    ana, bo = player(), player()
    code = create_room(ana, "Ana")
    dropped, asked = [], []

    def route(ws) -> None:
        server = ws.connect_to_server()

        def to_page(message) -> None:
            if '"type":"patch"' in message and not dropped and "goal" in message:
                dropped.append(message)  # lost on the way
                return
            ws.send(message)

        def to_server(message) -> None:
            if '"type":"sync"' in message or '"type": "sync"' in message:
                asked.append(message)
            server.send(message)

        server.on_message(to_page)
        ws.on_message(to_server)

    bo.route_web_socket(SOCKET, route)
    bo.reload()
    join_room(bo, "Bo", code)
    ana.locator("details.advanced summary").click()
    bo.locator("details.advanced summary").click()
    for goal in ("15", "20"):
        ana.locator("#setting-goal").fill(goal)
        ana.locator("#setting-goal").press("Enter")
        expect(ana.locator("#setting-goal")).to_have_value(goal)
    expect(bo.locator("[data-field=goal] dd")).to_have_text("20")
    assert dropped and asked, "the patch was not dropped, or the tab did not ask again"
    ana.locator("#setting-guess_mode").select_option("turns")  # and patches fit again
    expect(bo.locator("[data-field=guess_mode] dd")).to_have_text("In turns")
