"""A picture rebuilt from patches is exactly the whole picture, for every game and every kind
of change a room goes through.

docs/protocol.md: "Applying them gives exactly the picture a `room` push would carry, key
order included." A client holds the first whole ``room`` push of its connection and applies
every ``patch`` after it; whenever it asks again (``sync``) it must get, at the same version,
exactly what it already holds — the room (seats, host, ``online``, settings…) and its seat's
game view alike.

The state machine below drives a real room on a real store with random sessions: people
joining as players or spectators, second tabs, connections closing, drop graces running out,
resumes, leaves, kicks, nickname changes, chat, the host's lobby decisions (games, settings,
order, computer players), matches started and ended, game moves and clocks running out. After
every step each connection's picture — its first whole push with every patch since applied,
as a browser does it — must equal the whole picture a ``sync`` would send it at the version
it holds; every so often a connection really asks (``sync``), and what it is sent must equal
what it held.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import tempfile
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tertulia import patches
from tertulia import protocol as p
from tertulia.bots.base import DecisionRunner
from tertulia.games import GAMES
from tertulia.games.base import RuleError
from tertulia.rooms import commands
from tertulia.rooms.config import RoomConfig
from tertulia.rooms.inbox import ClockRanOut, GraceOver
from tertulia.rooms.manager import ManagerConfig, RoomManager
from tertulia.rooms.reactions import REACTIONS
from tertulia.rooms.views import game_view, lobby_view
from tertulia.store.sqlite import SQLiteStore

# Clocks never run on their own here (every grace and game clock is huge): the machine says
# when one runs out, so an example replays exactly.
_FOREVER = 10_000.0
_ids = itertools.count(1)


class _QuietBots(DecisionRunner):
    """Computer players that sit and never move: their seats change the room's picture (seats,
    levels, stand-ins) without a worker process or the sentence encoder."""

    async def decide(self, *args: Any, **kwargs: Any) -> None:
        return None


def _json(raw: Any) -> Any:
    return msgspec.json.decode(raw) if isinstance(raw, msgspec.Raw | bytes) else raw


class Connection:
    """One browser tab as the room sees it: it keeps the picture as a browser does (the last
    whole push, every patch since applied) and every answer it is sent."""

    def __init__(self, player: str) -> None:
        self.player = player
        self.version: int | None = None
        self.picture: dict[str, Any] = {}
        self.answers: dict[int, p.Ack | p.Error] = {}
        self.last_whole: p.RoomUpdate | None = None
        self.kicked = False
        self.reactions: list[p.Reaction] = []

    def send(self, message: p.ServerMessage) -> None:
        if isinstance(message, p.RoomUpdate):
            self.version = message.version
            self.picture = {"room": _json(message.room), "view": _json(message.view)}
            self.last_whole = message
        elif isinstance(message, p.RoomPatch):
            assert message.base == self.version, "a patch that does not fit what it holds"
            self.version = message.version
            self.picture = {
                "room": patches.apply(self.picture["room"], _json(message.room)),
                "view": patches.apply(self.picture["view"], _json(message.view)),
            }
        elif isinstance(message, (p.Ack, p.Error)) and message.re is not None:
            self.answers[message.re] = message
        elif isinstance(message, p.Notice) and message.code == "room.kicked":
            self.kicked = True
        elif isinstance(message, p.Reaction):
            self.reactions.append(message)


# Moves per game, from what the seat's view shows: mostly the move its phase asks of it, some
# at random (most of those are refused, which changes nothing: a property too), so matches go
# through their phases, reveals and podiums.
_CLUES = ["ocean", "banana", "grass", "cherry", "sky", "lemon", "coal", "snow"]
_TITLES = ["a ship", "a parrot", "treasure", "a map", "an anchor"]


def _pitacor(view: dict[str, Any], me: str, pick: Any) -> list[dict[str, Any]]:
    phase, giving = view.get("phase"), view.get("giver") == me
    cell = f"{pick(list('ABCDEFGHIJKLMNOP'))}{pick(range(1, 31))}"
    if phase == "choose" and giving:
        return [{"type": "choose_target", "index": pick(range(4))}]
    if phase in ("clue1", "clue2") and giving:
        return [{"type": "give_clue", "text": pick(_CLUES)}, {"type": "pass_clue"}]
    if phase in ("guess1", "guess2"):
        return [{"type": "select_cell", "cell": cell}] * 2 + [{"type": "confirm"}]
    return [{"type": "next_round"}, {"type": "select_cell", "cell": cell}]


def _haiclue(view: dict[str, Any], me: str, pick: Any) -> list[dict[str, Any]]:
    rack = [t["word"] if isinstance(t, dict) else t for t in view.get("rack") or []]
    words = list(dict.fromkeys(pick(rack) for _ in range(4))) if rack else ["x", "y"]
    colour = pick(["red", "yellow", "green", "blue"])
    return {
        "build": [
            {"type": "submit_clue", "words": words},
            {"type": "submit_clue", "words": words[:1], "draft": True},
        ],
        "guess": [{"type": "guess", "colour": colour}],
        "reveal": [{"type": "ready"}],
    }.get(view.get("phase"), [{"type": "ready"}])


def _pinto(view: dict[str, Any], me: str, pick: Any) -> list[dict[str, Any]]:
    others = [pl["id"] for pl in view.get("players", []) if pl["id"] != me] or [me]
    points = [pick(range(0, 900)) for _ in range(4)]
    stroke = {"colour": "#1d1d1f", "size": 5, "points": points}
    if view.get("phase") == "create":
        return [
            {"type": "set_title", "text": pick(_TITLES)},
            {"type": "reveal_drawing", "strokes": [stroke]},
            {"type": "interpret", "artist": pick(others), "text": pick(_TITLES)},
        ]
    return [
        {"type": "accept_marks"},
        {"type": "accept_marks"},
        {"type": "dispute_mark", "seat": pick(others)},
        {"type": "vote_mark", "seat": pick(others), "right": pick([True, False])},
    ]


def _one_of(data: st.DataObject, options: Any) -> Any:
    """One of ``options``, which the room's state decides (its seats, a rack): the draw is a
    plain number, so that hypothesis replays and shrinks an example the same way whatever the
    state gives (the room deals with seeds of its own)."""
    options = list(options)
    return options[data.draw(st.integers(min_value=0, max_value=10**6)) % len(options)]


def _shuffled(data: st.DataObject, items: list[str]) -> list[str]:
    """``items`` in an order drawn as a plain number (see ``_one_of``)."""
    random.Random(data.draw(st.integers(min_value=0, max_value=2**32))).shuffle(items)
    return items


def _move(view: dict[str, Any], me: str, pick: Any) -> dict[str, Any]:
    moves = {"pitacor": _pitacor, "haiclue": _haiclue, "pinto": _pinto}[view["game"]]
    return pick(moves(view, me, pick))


class _Seeds:
    """The matches' seeds drawn from a fixed sequence, not the system's randomness: the same
    example deals the same racks and targets again, so hypothesis replays it as it ran."""

    def __init__(self) -> None:
        self._rng = random.Random(7)

    def randbits(self, bits: int) -> int:
        return self._rng.getrandbits(bits)


class RoomPictures(RuleBasedStateMachine):
    """Random sessions in one room; every connection's patched picture checked after each."""

    def __init__(self) -> None:
        super().__init__()
        self._system_secrets, commands.secrets = commands.secrets, _Seeds()
        self.loop = asyncio.new_event_loop()
        self.folder = tempfile.TemporaryDirectory()
        self.conns: list[Connection] = []
        self.players = itertools.count()
        self.syncs = 0

        async def open_room() -> None:
            self.store = SQLiteStore(Path(self.folder.name) / "pictures.sqlite3")
            room = RoomConfig(
                drop_grace_seconds=_FOREVER, host_grace_seconds=_FOREVER, bot_delay=(0, 0)
            )
            self.manager = RoomManager(
                self.store, GAMES, ManagerConfig(room=room), bot_runner=_QuietBots()
            )
            await self.manager.start()

        self._run(open_room())

    def _run(self, work: Any) -> Any:
        return self.loop.run_until_complete(work)

    def teardown(self) -> None:
        async def close() -> None:
            await self.manager.shutdown()
            await self.store.close()

        try:
            self._run(close())
        finally:
            self.loop.close()
            self.folder.cleanup()
            commands.secrets = self._system_secrets

    # ------------------------------------------------------------------ helpers

    async def _settled(self) -> None:
        """Until the room has handled everything it was given (and told everyone)."""
        for _ in range(2000):
            await asyncio.sleep(0)
            if not self.room.inbox.busy:
                await asyncio.sleep(0)
                if not self.room.inbox.busy:
                    return
            await asyncio.sleep(0.001)
        raise AssertionError("the room never settled")

    def _in_the_loop(self, step: Any) -> None:
        """``step()`` inside the event loop (a room is only ever called from it), then settle."""

        async def go() -> None:
            step()
            await self._settled()

        self._run(go())

    def _ask(self, conn: Connection, message: Any) -> p.Ack | p.Error:
        self._in_the_loop(lambda: self.room.submit(conn, message))
        assert message.id in conn.answers, f"no answer to {message!r}"
        return conn.answers[message.id]

    def _attach(
        self, conn: Connection, nickname: str, resume: bool = False, screen: bool = False
    ) -> bool:
        async def attach() -> bool:
            try:
                await self.room.attach(conn, nickname, next(_ids), resume=resume, screen=screen)
            except RuleError:
                return False
            await self._settled()
            return True

        if self._run(attach()):
            self.conns.append(conn)
            return True
        return False

    def _seated(self) -> list[str]:
        return [s.player for s in self.room.model.seats if s.bot is None]

    def _host(self) -> Connection | None:
        return next((c for c in self.conns if c.player == self.room.model.host), None)

    def _forget_gone(self) -> None:
        """Connections the room let go of (their player left or was removed) get nothing more."""
        here = set(self.room.peers)
        self.conns = [c for c in self.conns if c in here]

    # ------------------------------------------------------------------ the room

    @initialize(
        game=st.sampled_from(sorted(GAMES)),
        public=st.booleans(),
        others=st.integers(min_value=1, max_value=5),
    )
    def open(self, game: str, public: bool, others: int) -> None:
        self.room = self._run(self.manager.create(game, public))
        assert self._attach(Connection(f"p{next(self.players)}"), "Host")
        for _ in range(others):
            self.someone_joins()

    @rule()
    def someone_joins(self) -> None:
        player = f"p{next(self.players)}"
        self._attach(Connection(player), f"N{player}")

    @rule()
    def a_shared_screen_opens(self) -> None:
        """A TV: no seat, the picture a spectator sees (checked by the invariant below)."""
        self._attach(Connection(f"screen-{next(self.players)}"), "", screen=True)

    @precondition(lambda self: self.conns)
    @rule(data=st.data(), kind=st.sampled_from([*REACTIONS, "nope"]))
    def someone_reacts(self, data: st.DataObject, kind: str) -> None:
        """A reaction reaches every connection (screens too), and changes nothing: no
        version, no record."""
        conn = _one_of(data, self.conns)
        version, seq = self.room.version, self.room.seq
        before = {id(c): len(c.reactions) for c in self.conns}
        answer = self._ask(conn, p.React(next(_ids), kind=kind))
        assert (self.room.version, self.room.seq) == (version, seq)
        got = [len(c.reactions) - before[id(c)] for c in self.conns]
        if isinstance(answer, p.Ack):
            assert got == [1] * len(self.conns)
            assert self.conns[0].reactions[-1] == p.Reaction(conn.player, kind)
        else:
            assert answer.code in ("reaction.unknown", "reaction.not_now", "room.not_in")
            assert got == [0] * len(self.conns)

    @precondition(lambda self: self._seated())
    @rule(data=st.data(), resume=st.booleans())
    def a_seated_player_opens_another_tab(self, data: st.DataObject, resume: bool) -> None:
        player = _one_of(data, self._seated())
        self._attach(Connection(player), "again", resume=resume)

    @precondition(lambda self: self.conns)
    @rule(data=st.data())
    def a_connection_closes(self, data: st.DataObject) -> None:
        conn = _one_of(data, self.conns)
        self.conns.remove(conn)
        self._in_the_loop(lambda: self.room.detach(conn))

    @precondition(lambda self: self._seated())
    @rule(data=st.data())
    def a_drop_grace_runs_out(self, data: st.DataObject) -> None:
        player = _one_of(data, self._seated())
        self._in_the_loop(lambda: self.room.inbox.put(GraceOver(player)))

    @precondition(lambda self: self.room.model.match is not None)
    @rule()
    def the_game_clock_runs_out(self) -> None:
        deadline = self.room.game.deadline(self.room.model.match)
        if deadline is not None:
            self._in_the_loop(lambda: self.room.inbox.put(ClockRanOut(deadline)))

    @precondition(lambda self: self.conns)
    @rule(data=st.data(), times=st.integers(min_value=1, max_value=8))
    def players_move(self, data: st.DataObject, times: int) -> None:
        for _ in range(times):
            conn = _one_of(data, self.conns)
            view = conn.picture.get("view")
            if not view:
                continue
            pick = lambda options: _one_of(data, list(options))  # noqa: E731
            self._ask(conn, p.Act(next(_ids), action=_move(view, conn.player, pick)))

    @precondition(lambda self: self.conns)
    @rule(data=st.data(), kind=st.sampled_from(["chat", "nickname", "leave"] + ["chat"] * 3))
    def a_player_speaks_or_leaves(self, data: st.DataObject, kind: str) -> None:
        conn = _one_of(data, self.conns)
        if kind == "chat":
            self._ask(conn, p.Chat(next(_ids), text="hi"))
        elif kind == "nickname":
            self._ask(conn, p.SetNickname(next(_ids), nickname=f"M{next(self.players)}"))
        else:
            self._ask(conn, p.LeaveRoom(next(_ids)))
        self._forget_gone()

    @precondition(lambda self: self._host() is not None)
    @rule(
        data=st.data(),
        kind=st.sampled_from(
            [
                *["start"] * 4,
                *["rematch"] * 2,
                "game",
                "settings",
                "defaults",
                "reorder",
                "kick",
                "add_bot",
                "remove_bot",
                "stand_in",
                "end_stand_in",
            ]
        ),
    )
    def the_host_decides(self, data: st.DataObject, kind: str) -> None:
        host = self._host()
        assert host is not None
        model = self.room.model
        someone = _one_of(data, [s.player for s in model.seats])
        game = _one_of(data, sorted(GAMES))
        message: Any = {
            "start": lambda: p.StartMatch(next(_ids)),
            "rematch": lambda: p.Rematch(next(_ids)),
            "game": lambda: p.ChooseGame(next(_ids), game=game),
            "settings": lambda: p.UpdateSettings(next(_ids), settings={}),
            "defaults": lambda: p.RestoreDefaults(next(_ids)),
            "reorder": lambda: p.Reorder(
                next(_ids), order=_shuffled(data, [s.player for s in model.seats])
            ),
            "kick": lambda: p.Kick(next(_ids), player=someone),
            "add_bot": lambda: p.AddBot(next(_ids), level="good", language="en"),
            "remove_bot": lambda: p.RemoveBot(next(_ids), player=someone),
            "stand_in": lambda: p.StandIn(next(_ids), player=someone, level="good", language="en"),
            "end_stand_in": lambda: p.EndStandIn(next(_ids), player=someone),
        }[kind]()
        self._ask(host, message)
        self._forget_gone()

    @precondition(lambda self: self.conns)
    @rule(data=st.data())
    def a_connection_asks_for_the_whole_picture(self, data: st.DataObject) -> None:
        conn = _one_of(data, self.conns)
        held, version = conn.picture, conn.version
        answer = self._ask(conn, p.Sync(next(_ids)))
        assert isinstance(answer, p.Ack)
        whole = conn.last_whole
        assert whole is not None and whole.version >= version  # (chat lines since: see below)
        assert {"room": _json(whole.room), "view": _json(whole.view)} == held
        self.syncs += 1

    # ------------------------------------------------------------------ the property

    @invariant()
    def every_picture_is_the_whole_picture_at_its_version(self) -> None:
        if not hasattr(self, "room"):
            return
        model = self.room.model
        for conn in self.conns:
            # (A chat line is a change too, told as a ``chat`` message: the pictures'
            # version lags it, and the next patch says so in its ``base``.)
            assert conn.version is not None and conn.version <= self.room.version
            whole = {
                "room": _json(msgspec.json.encode(lobby_view(model))),
                "view": _json(msgspec.json.encode(game_view(model, conn.player))),
            }
            # Key order too: what the client renders is compared byte for byte.
            assert msgspec.json.encode(conn.picture) == msgspec.json.encode(whole), conn.player
            if conn.player.startswith("screen-") and model.match is not None:
                # A shared screen sees exactly what a spectator sees: never a seat's secret.
                spectator = self.room.game.view(model.match, None)
                assert conn.picture["view"] == _json(msgspec.json.encode(spectator))


RoomPictures.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_a_picture_rebuilt_from_patches_is_the_whole_picture = RoomPictures.TestCase
