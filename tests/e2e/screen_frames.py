"""A shared screen's WebSocket frames, recorded in Chromium and read back as the pictures it
was sent (the whole `room` push, then each `patch` applied), to check that no secret ever
reached it (issue 29: "by construction, and checked ... through a whole match of each game").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tertulia.patches import apply

if TYPE_CHECKING:
    from playwright.sync_api import Page

# What a seat may hold and a screen never: per game, the view's fields that stay empty.
NEVER = {
    "pitacor": ("selection",),
    "haiclue": ("rack", "card", "my_clue", "my_draft", "my_guess"),
    "pinto": ("my_title",),
}


@dataclass
class ScreenFrames:
    """Every frame a page received (attach before it opens the screen)."""

    frames: list[str] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        page.on(
            "websocket", lambda ws: ws.on("framereceived", lambda p: self.frames.append(str(p)))
        )

    def pictures(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(frame index, {"room", "view", "events"}) for every push, as the page held it."""
        picture: dict[str, Any] | None = None
        for i, raw in enumerate(list(self.frames)):
            message = json.loads(raw)
            if message.get("type") == "room":
                picture = {
                    "room": message["room"],
                    "view": message["view"],
                    "version": message["version"],
                }
            elif message.get("type") == "patch" and picture is not None:
                if message["base"] != picture["version"]:
                    continue  # a patch the page would drop (and sync)
                picture = {
                    "room": apply(picture["room"], message["room"]),
                    "view": apply(picture["view"], message["view"]),
                    "version": message["version"],
                }
            else:
                continue
            yield i, {**picture, "events": message.get("events") or []}

    def check_no_seat_secrets(self) -> int:
        """Every picture is a spectator's: no field only a seat may hold has anything in it,
        a Pitacor target and its candidates only from its reveal on. Returns how many
        pictures were checked."""
        count = 0
        for i, picture in self.pictures():
            view = picture["view"]
            count += 1
            if view is None:
                continue
            where = f"frame {i} ({view.get('game')}, phase {view.get('phase')})"
            assert view.get("you", {}).get("role") == "spectator", f"{where}: {view.get('you')}"
            for name in NEVER.get(view.get("game"), ()):
                assert not view.get(name), f"{where}: the screen was sent {name}={view[name]!r}"
            if view.get("game") == "pitacor" and view.get("phase") not in ("reveal", "ended"):
                assert view.get("target") is None, f"{where}: the target before the reveal"
                assert not view.get("candidates"), f"{where}: the candidates before the reveal"
            if view.get("game") == "pinto":
                judged = {j.get("artist") for j in view.get("judged") or []}
                titles = view.get("titles") or {}
                assert set(titles) <= judged | {(view.get("judging") or {}).get("artist")}, where
        return count

    def words_shown(self, until: int) -> set[str]:
        """Every string value (not key) of the pictures of the frames before `until`."""
        found: set[str] = set()

        def walk(node: Any) -> None:
            if isinstance(node, str):
                found.update(node.split())
            elif isinstance(node, dict):
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        for i, picture in self.pictures():
            if i >= until:
                break
            walk(picture["view"])
            walk(picture["events"])
        return found

    def first_picture(self, test) -> int | None:
        """The index of the first frame whose picture passes `test`."""
        return next((i for i, picture in self.pictures() if test(picture)), None)

    def first(self, text: str) -> int | None:
        """The index of the first frame holding `text`."""
        return next((i for i, frame in enumerate(self.frames) if text in frame), None)

    def before(self, text: str, until: str) -> bool:
        """Does `text` reach the screen before the first frame holding `until`?"""
        seen = self.first(text)
        end = self.first(until)
        return seen is not None and (end is None or seen < end)
