"""Memory after a soak (issue 27, point 5): whole matches of real games for a long while, rooms
opening and closing, then a drain — and what the server still holds after it.

**The server** runs as in production, in a process of its own: ``python -m tertulia serve`` on
a temporary SQLite file, with the example game of docs/adding-a-game.md installed beside the
shipped ones (the package copied and the example copied over it, as its page says and
tests/server/package_copy.py does), a short idle time (``--idle-minutes``) so that
housekeeping closes every room soon after its last player goes, and a short drop grace.

**Load generators** run in processes of their own (their memory is not the server's). Each
keeps ``--tables`` rooms going at once: a table opens a room, plays it, lets it go and opens
the next until its phase ends, tiny and Pitacor in turn. One room's life: 2–4 new players
(fresh identities) connect from a loopback address of the room's own and look at the room
list; the host opens the room, the others join, the host sets the settings; one to three
whole matches, a rematch between two — moves chosen from each seat's view: tiny adds 1–3 on
its turn, Pitacor plays with the project's computer player (``pitacor_player``) — with chat
lines; between matches a player may join, leave, be kicked or rename; during a match a
player's connection may drop and come back (``resume``, sometimes after the drop grace, so the
room saw a drop), a latecomer may join (a spectator in tiny, a guesser in Pitacor), a player
may leave. Then everyone leaves the room, or everyone just closes the tab, or they walk away
in the middle of the last match (its clocks run on). Every room is closed by housekeeping.

**Phases.** A warm-up (``--warmup-minutes``), then a drain: the generators close everything
and the run waits until ``/healthz`` says 0 rooms and 0 connections. The server's RSS there is
the level "after warm-up". Then a report (SIGUSR1: live objects of tertulia's classes at that
point) and SIGUSR2: the server traces allocations from there on (tracemalloc). Then
``--rounds`` soak rounds (``--minutes`` in all), each followed by a drain and a report: RSS as
drained, after a full collection and after ``malloc_trim``; live objects of tertulia's classes
(none of a room's may be left: ``PER_ROOM``); and the 20 source lines holding the most of what
was allocated since the warm-up and still lives. Several rounds tell a leak (what is held
grows round after round) from the allocator keeping its high-water mark (it plateaus).

RSS is sampled every ``--sample`` seconds from /proc, the server's and its store writer's
apart, with ``/healthz``'s counts. The server's log is kept with ``--log``, everything with
``--json``.

    .venv/bin/python benchmarks/soak.py --minutes 30 --rounds 3     # ~40 minutes
    .venv/bin/python benchmarks/soak.py --minutes 2 --warmup-minutes 1 --rounds 2   # a look

``--rev`` serves ``src/`` (and the example) as of a commit; without it, this checkout's as it
is. The generators use this checkout's ``tertulia.client`` and bots either way.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import (
    HERE,
    HOST,
    cpu_self,
    free_port,
    get_json,
    loopback_address,
    proc_cpu,
    raise_nofile,
    tree,
    wait_healthy,
)

ROOT = HERE.parent
ROOM_BLOCK = 20  # generator w's rooms connect from 127.(20 + w).y.z, one address per room
MATCH_SECONDS = 240.0  # a match not over by then is given up (counted "stuck")
CUT_AFTER = 60.0  # seconds after its phase's end a room still playing is cut short
DRAIN_SLACK = 180.0  # beyond the idle time and a housekeeping period
NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gil", "Hal")
CHAT = ("hi!", "good luck", "nice one", "gg", "again?", "hmm", "ha")

# Objects that belong to one room or one connection: after a drain, none may be alive. (A
# server's own objects — its manager, limits, games' boards and settings — stay.)
PER_ROOM = re.compile(
    r"^tertulia\.("
    r"rooms\.(room\.Room$|room_data\.|fanout\.|commit\.|inbox\.|clocks\.|bot_driver\.|records\.)"
    r"|server\.(session|outlet|held)\.|server\.gate\.Line$"
    r"|games\.[a-z]\w*\.(state\.\w+|State)$|games\._seating\.SeatedPlayer$"
    r")"
)


# ---------------------------------------------------------------------------- the games


def pitacor_player() -> Callable[[dict[str, Any], random.Random], dict[str, Any] | None]:
    """Pitacor's moves, chosen by the project's computer player from the seat's view (what
    the seat's browser gets). The one place that says where that player lives: bots are
    moving into their game's folder."""
    from tertulia.bots.base import Level, bot_for

    decide = bot_for("pitacor")
    levels = list(Level)
    return lambda view, rng: decide(view, language="en", level=rng.choice(levels), rng=rng)


def tiny_player(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    return {"type": "add", "amount": rng.randint(1, 3)} if view["you"]["to_do"] == "add" else None


@dataclass
class Game:
    name: str
    players: tuple[int, int]  # how many a room starts with, at most
    most: int  # the game's maximum
    least: int  # the game's minimum
    settings: dict[str, Any]
    decide: Callable[[dict[str, Any], random.Random], dict[str, Any] | None]


def games() -> dict[str, Game]:
    return {
        # The example game: a whole match is a few moves; turns are timed (30 s), so every
        # move sets a clock and cancels the last.
        "tiny": Game("tiny", (2, 3), 3, 2, {"target": 10}, tiny_player),
        # A short Pitacor match (a goal of 3 points: a round or two) with its clocks on and a
        # 2-second reveal, which the server's clock ends.
        "pitacor": Game(
            "pitacor", (3, 4), 10, 3, {"goal": 3, "reveal_seconds": 2}, pitacor_player()
        ),
    }


# ---------------------------------------------------------------------------- generator side


class Context:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.url = spec["url"]
        self.end = spec["end"]
        self.worker = spec["worker"]
        self.think = spec["think"]
        self.drop_grace = spec["drop_grace"]
        self.rng = random.Random(spec["seed"])
        self.games = games()
        self.order = [self.games[name] for name in spec["games"]]
        self.counts: Counter[str] = Counter()
        self._rooms = 0

    @property
    def over(self) -> bool:
        return time.monotonic() >= self.end

    def next_address(self) -> str:
        self._rooms += 1
        return loopback_address(ROOM_BLOCK + self.worker, self._rooms % (250 * 256))

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] += n

    async def pause(self) -> None:
        low, high = self.think
        await asyncio.sleep(self.rng.uniform(low, high))


class Player:
    """One person: a nickname, an identity (the token their browser keeps) and a connection."""

    def __init__(self, ctx: Context, address: str, nickname: str) -> None:
        self.ctx = ctx
        self.address = address
        self.nickname = nickname
        self.token: str | None = None
        self.client: Any = None
        self.plan: str | None = None  # during a match: "reconnect" or "leave", some time

    async def connect(self) -> None:
        from tertulia.client import Client

        self.client = await Client.connect(
            self.ctx.url, token=self.token, local_addr=(self.address, 0), open_timeout=30
        )
        self.token = self.client.token

    async def reconnect(self, code: str) -> None:
        """The connection drops (a phone's network); the page reconnects by itself and
        resumes its seat — sometimes after the drop grace, so the room saw a drop."""
        await self.close()
        long = self.ctx.rng.random() < 0.4
        await asyncio.sleep(self.ctx.drop_grace + 1.0 if long else self.ctx.rng.uniform(0.1, 0.5))
        await self.connect()
        await self.client.join_room(code, self.nickname, resume=True)
        self.ctx.count("resumes_after_a_drop" if long else "resumes")

    async def say(self, text: str) -> None:
        from tertulia.client import ClientError

        try:
            await self.client.say(text)
            self.ctx.count("chat lines")
        except ClientError as error:  # too fast, or not now (tiny: not on your turn)
            self.ctx.count(f"chat refused: {error.code}")

    async def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.client.close(), 10)


class Table:
    """One room's life (see the module's docstring)."""

    def __init__(self, ctx: Context, game: Game) -> None:
        self.ctx = ctx
        self.game = game
        self.address = ctx.next_address()
        self.players: list[Player] = []
        self.everyone: list[Player] = []  # whoever connected, to close them all at the end
        self.code = ""
        self._names = iter(range(1, 10_000))

    def newcomer(self) -> Player:
        player = Player(self.ctx, self.address, f"{self.ctx.rng.choice(NAMES)}{next(self._names)}")
        self.everyone.append(player)
        return player

    async def play(self) -> None:
        ctx, rng, game = self.ctx, self.ctx.rng, self.game
        try:
            for _ in range(rng.randint(*game.players)):
                player = self.newcomer()
                await player.connect()
                await player.client.request("list_rooms")  # the home page asks
                self.players.append(player)
            host = self.players[0]
            self.code = await host.client.create_room(game.name, host.nickname, rng.random() < 0.3)
            ctx.count(f"rooms: {game.name}")
            for player in self.players[1:]:
                await player.client.join_room(self.code, player.nickname)
            await host.client.request("update_settings", settings=game.settings)
            await rng.choice(self.players).say(rng.choice(CHAT))
            matches = rng.choice((1, 2, 2, 3))
            for number in range(matches):
                if number:
                    await host.client.request("rematch")
                    ctx.count("rematches")
                    await self.between_matches()
                await host.client.request("start_match")
                walk_away = number == matches - 1 and rng.random() < 0.2
                if not await self.match(walk_away):
                    return
                ctx.count(f"matches: {game.name}")
                if ctx.over:
                    break
            await asyncio.sleep(rng.uniform(0, 2))  # the podium
            if rng.random() < 0.5:  # everyone leaves the room (the host first: hosting passes)
                for player in list(self.players):
                    await player.client.request("leave_room")
                    ctx.count("leaves")
                ctx.count("rooms left by everyone")
            else:
                ctx.count("rooms whose tabs were closed")
        finally:
            await asyncio.gather(*(p.close() for p in self.everyone))

    async def between_matches(self) -> None:
        ctx, rng, game = self.ctx, self.ctx.rng, self.game
        host = self.players[0]
        others = self.players[1:]
        if others and len(self.players) > game.least and rng.random() < 0.3:
            leaving = rng.choice(others)
            if rng.random() < 0.25:
                await host.client.request("kick", player=leaving.client.player)
                ctx.count("kicks")
            else:
                await leaving.client.request("leave_room")
                ctx.count("leaves")
            self.players.remove(leaving)
            await leaving.close()
        if len(self.players) < min(game.most, game.players[1] + 1) and rng.random() < 0.4:
            joining = self.newcomer()
            await joining.connect()
            await joining.client.join_room(self.code, joining.nickname)
            self.players.append(joining)
            ctx.count("joins")
        if rng.random() < 0.2:
            player = rng.choice(self.players)
            player.nickname = f"{player.nickname}x"
            await player.client.request("set_nickname", nickname=player.nickname)
            ctx.count("renames")

    async def match(self, walk_away: bool) -> bool:
        """Play a whole match (True), or walk away in its middle (False)."""
        ctx, rng = self.ctx, self.ctx.rng
        if len(self.players) > 1 and rng.random() < 0.35:
            rng.choice(self.players[1:]).plan = "reconnect"
        if len(self.players) > self.game.least and rng.random() < 0.1:
            rng.choice(self.players[1:]).plan = "leave"
        seats = [asyncio.create_task(self.seat(p)) for p in self.players]
        if rng.random() < 0.25:
            seats.append(asyncio.create_task(self.latecomer()))
        try:
            if walk_away:
                await asyncio.sleep(rng.uniform(1, 10))
                ctx.count("matches walked away from")
                return False
            results = await asyncio.wait_for(asyncio.gather(*seats), MATCH_SECONDS)
            if "stuck" in results:
                ctx.count("matches stuck")
                return False
            return True
        except TimeoutError:
            ctx.count("matches stuck")
            return False
        finally:
            for task in seats:
                task.cancel()
            await asyncio.gather(*seats, return_exceptions=True)
            for player in self.players:
                player.plan = None

    async def latecomer(self) -> str:
        from tertulia.client import ClientError

        await asyncio.sleep(self.ctx.rng.uniform(0.5, 4))
        player = self.newcomer()
        await player.connect()
        try:
            await player.client.join_room(self.code, player.nickname)
        except ClientError as error:  # full, for one
            self.ctx.count(f"joins refused: {error.code}")
            return "ended"
        self.players.append(player)
        self.ctx.count("joins mid-match")
        return await self.seat(player)

    async def seat(self, player: Player) -> str:
        """One seat's side of a match: wait for a new picture, decide, act; until it ends."""
        from tertulia.client import ClientError

        ctx, rng = self.ctx, self.ctx.rng
        seen: int | None = None
        refused = 0
        while True:
            try:
                push = await player.client.wait_for(
                    lambda p, seen=seen: p["version"] != seen, timeout=MATCH_SECONDS
                )
            except TimeoutError:
                return "stuck"
            seen = push["version"]
            if push["room"]["status"] != "playing":
                return "ended"
            if player.plan is not None and rng.random() < 0.15:
                plan, player.plan = player.plan, None
                if plan == "reconnect":
                    await player.reconnect(self.code)
                    seen = None
                    continue
                await player.client.request("leave_room")
                ctx.count("leaves mid-match")
                self.players.remove(player)
                await player.close()
                return "left"
            if rng.random() < 0.03:
                await player.say(rng.choice(CHAT))
            view = push["view"]
            action = self.game.decide(view, rng) if view is not None else None
            if action is None:
                continue
            await ctx.pause()
            try:
                await player.client.act(action)
                ctx.count("moves")
                refused = 0
            except ClientError as error:  # the picture moved on meanwhile: look again
                ctx.count(f"moves refused: {error.code}")
                refused += 1
                if refused < 3:
                    seen = None


async def _table(ctx: Context, index: int) -> None:
    await asyncio.sleep(ctx.rng.uniform(0, 3))  # not every table at once
    turn = index + ctx.worker  # the generators start on different games
    while not ctx.over:
        game = ctx.order[turn % len(ctx.order)]
        turn += 1
        try:
            await Table(ctx, game).play()
        except Exception as error:
            code = getattr(error, "code", None)
            ctx.count(f"rooms failed: {type(error).__name__}{f' {code}' if code else ''}")
            await asyncio.sleep(1)


async def _worker(spec: dict[str, Any]) -> Counter[str]:
    ctx = Context(spec)
    tables = [asyncio.create_task(_table(ctx, i)) for i in range(spec["tables"])]
    # A table finishes the room it is in when the phase ends; one still at it CUT_AFTER
    # seconds later (a match waiting on its clocks) is cut short: its players close the tab.
    _, late = await asyncio.wait(tables, timeout=max(0.0, ctx.end - time.monotonic()) + CUT_AFTER)
    for task in late:
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    ctx.count("rooms cut short at the end of a phase", len(late))
    ctx.count("_generator_cpu_seconds", round(cpu_self()))
    return ctx.counts


def worker_main(spec: dict[str, Any], pipe: Any) -> None:
    raise_nofile()
    sys.path.insert(0, str(ROOT / "src"))  # this checkout's client and bots
    try:
        counts = asyncio.run(_worker(spec))
        pipe.send(("done", dict(counts)))
    except BaseException as error:
        with contextlib.suppress(Exception):
            pipe.send(("failed", repr(error)))
        raise


# ---------------------------------------------------------------------------- the server


def served_tree(rev: str | None, workdir: Path) -> tuple[Path, str]:
    """A package to serve: ``src/tertulia`` with the example game installed (copied over it,
    as docs/adding-a-game.md says), this checkout's or as of ``rev``. Returns the folder for
    PYTHONPATH and what it is."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True)
        return done.stdout.decode().strip()

    if rev is None:
        package = workdir / "served"
        shutil.copytree(ROOT / "src" / "tertulia", package / "tertulia", ignore=ignore)
        example = ROOT / "docs" / "examples" / "tiny"
        dirty = git("status", "--porcelain", "--", "src", "docs/examples")
        what = f"src/ at {git('rev-parse', '--short=12', 'HEAD')}"
        what += " with uncommitted changes" if dirty else ""
    else:
        commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
        checkout = workdir / "checkout"
        checkout.mkdir()
        archive = subprocess.run(
            ["git", "archive", commit, "src", "docs/examples/tiny"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(checkout)], input=archive, check=True)
        package = checkout / "src"
        example = checkout / "docs" / "examples" / "tiny"
        what = f"src/ as of {commit[:12]} ({rev})"
    shutil.copytree(example, package / "tertulia", ignore=ignore, dirs_exist_ok=True)
    return package, what + ", the example game installed"


def status_of(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (bytes) of one process; empty if it is gone."""
    found: dict[str, int] = {}
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:", "RssAnon:")):
                found[line.split(":")[0]] = int(line.split()[1]) * 1024
    return found


def command_of(pid: int) -> str:
    with contextlib.suppress(OSError), open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().replace(b"\0", b" ").decode(errors="replace")
    return ""


class Server:
    def __init__(self, args: argparse.Namespace, package: Path, workdir: Path) -> None:
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.log_path = workdir / "server.log"
        command = [
            sys.executable, "-m", "tertulia", "serve", "--host", HOST, "--port", str(self.port),
            "--db", str(workdir / "soak.sqlite3"), "--idle-minutes", str(args.idle_minutes),
            "--drop-grace", str(args.drop_grace),
        ]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(package), "PYTHONUNBUFFERED": "1"}
        env.pop("PYTHONTRACEMALLOC", None)  # traced from the warm-up's drain on (SIGUSR2)
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=workdir
            )
        wait_healthy(self.base, self.process, timeout=60)

    def health(self) -> dict[str, Any]:
        try:
            return get_json(f"{self.base}/healthz")
        except OSError:
            return {}

    def memory(self) -> dict[str, int]:
        """RSS of the server and of its store writer, apart (and of any other child)."""
        server = status_of(self.process.pid)
        found = {
            "server": server.get("VmRSS", 0),
            "server_anon": server.get("RssAnon", 0),
            "server_hwm": server.get("VmHWM", 0),
        }
        found["writer"] = found["writer_anon"] = found["others"] = 0
        for child in tree(self.process.pid)[1:]:
            status = status_of(child)
            if "tertulia.store.writer" in command_of(child):
                found["writer"] += status.get("VmRSS", 0)
                found["writer_anon"] += status.get("RssAnon", 0)
            else:
                found["others"] += status.get("VmRSS", 0)
        return found

    def lines(self, message: str) -> list[dict[str, Any]]:
        found = []
        with open(self.log_path, "rb") as log:
            for raw in log:
                if raw.startswith(b"{") and message.encode() in raw:
                    with contextlib.suppress(ValueError):
                        line = json.loads(raw)
                        if line.get("msg", "").startswith(message):
                            found.append(line)
        return found

    def report(self, timeout: float = 300.0) -> dict[str, Any]:
        """SIGUSR1, and the report it logs."""
        before = len(self.lines("memory report"))
        self.process.send_signal(signal.SIGUSR1)
        end = time.monotonic() + timeout
        while len(found := self.lines("memory report")) <= before:
            if time.monotonic() > end or self.process.poll() is not None:
                raise RuntimeError("the server logged no memory report")
            time.sleep(0.5)
        return found[-1]["memory"]

    def trace(self) -> None:
        before = len(self.lines("memory: tracing"))
        self.process.send_signal(signal.SIGUSR2)
        end = time.monotonic() + 60
        while len(self.lines("memory: tracing")) <= before:
            if time.monotonic() > end:
                raise RuntimeError("the server did not start tracing")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


class Sampler(threading.Thread):
    """Every ``every`` seconds: the server's and its writer's RSS, and /healthz's counts."""

    def __init__(self, server: Server, every: float) -> None:
        super().__init__(daemon=True)
        self.server, self.every = server, every
        self.phase = "start"
        self.samples: list[dict[str, Any]] = []
        self.began = time.monotonic()
        self._halt = threading.Event()

    def take(self) -> dict[str, Any]:
        health = self.server.health()
        sample = {
            "t": round(time.monotonic() - self.began, 1),
            "phase": self.phase,
            **self.server.memory(),
            "rooms": health.get("rooms"),
            "connections": health.get("connections"),
        }
        self.samples.append(sample)
        return sample

    def run(self) -> None:
        while not self._halt.wait(self.every):
            self.take()

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=30)

    def peak(self, phase: str) -> dict[str, Any]:
        mine = [s for s in self.samples if s["phase"] == phase] or [{"server": 0, "writer": 0}]
        return {key: max(s[key] for s in mine) for key in ("server", "writer")}


# ---------------------------------------------------------------------------- the run


def mib(value: float | None) -> str:
    return "?" if value is None else f"{value / 2**20:.1f}"


def load_phase(
    args: argparse.Namespace, server: Server, sampler: Sampler, name: str, minutes: float, seed: int
) -> dict[str, int]:
    """Generators play for ``minutes``, then close everything; their counts."""
    sampler.phase = name
    cpu, load = proc_cpu(server.process.pid), os.getloadavg()[0]
    context = mp.get_context("spawn")
    end = time.monotonic() + minutes * 60
    workers = []
    for w in range(args.workers):
        mine, theirs = context.Pipe()
        spec = {
            "url": f"ws://{HOST}:{server.port}/ws", "end": end, "worker": w,
            "tables": args.tables, "think": args.think, "drop_grace": args.drop_grace,
            "seed": seed * 100 + w, "games": args.games,
        }  # fmt: skip
        process = context.Process(target=worker_main, args=(spec, theirs), daemon=True)
        process.start()
        workers.append((process, mine))
    began = time.monotonic()
    for minute in range(1, int(minutes) + 1):
        time.sleep(max(0.0, min(began + 60 * minute, end) - time.monotonic()))
        s = sampler.take()
        print(
            f"  {name}, {minute:3d} min: server {mib(s['server'])} MiB, writer "
            f"{mib(s['writer'])} MiB, {s['rooms']} rooms, {s['connections']} connections",
            flush=True,
        )
    time.sleep(max(0.0, end - time.monotonic()))
    under_load = sampler.take()
    counts: Counter[str] = Counter()
    for process, pipe in workers:
        if not pipe.poll(CUT_AFTER + 120):
            process.terminate()
            counts["generators that did not finish"] += 1
            continue
        what, info = pipe.recv()
        if what != "done":
            raise RuntimeError(f"a generator failed: {info}")
        counts.update(info)
        process.join(timeout=30)
    counts["_rss_under_load"] = under_load["server"]
    counts["_writer_under_load"] = under_load["writer"]
    counts["_server_cpu_seconds"] = round(proc_cpu(server.process.pid) - cpu)
    counts["_seconds"] = round(time.monotonic() - began)
    counts["_load_average"] = f"{load:.1f} → {os.getloadavg()[0]:.1f}"  # type: ignore[assignment]
    return dict(counts)


def drain(args: argparse.Namespace, server: Server, sampler: Sampler, name: str) -> dict:
    """Wait for 0 rooms and 0 connections, let the server settle, read its memory."""
    sampler.phase = name
    began = time.monotonic()
    limit = args.idle_minutes * 60 + 30 + DRAIN_SLACK
    while True:
        health = server.health()
        if health.get("rooms") == 0 and health.get("connections") == 0:
            break
        if time.monotonic() - began > limit:
            raise RuntimeError(f"{name}: still {health} after {limit:.0f} s")
        time.sleep(2.0)
    time.sleep(args.settle)
    sample = sampler.take()
    print(
        f"{name}: drained in {time.monotonic() - began:.0f} s; server {mib(sample['server'])} "
        f"MiB, writer {mib(sample['writer'])} MiB",
        flush=True,
    )
    return sample


def per_room_left(objects: dict[str, int]) -> dict[str, int]:
    return {name: n for name, n in objects.items() if PER_ROOM.match(name) and n}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="soak, all rounds together")
    parser.add_argument("--rounds", type=int, default=3, help="drains (and reports) in the soak")
    parser.add_argument("--warmup-minutes", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=2, help="generator processes")
    parser.add_argument("--tables", type=int, default=6, help="rooms at once per generator")
    parser.add_argument("--think", default="0.1-0.5", help="seconds before a move, MIN-MAX")
    parser.add_argument("--games", default="tiny,pitacor")
    parser.add_argument("--idle-minutes", type=float, default=0.5, help="the server's")
    parser.add_argument("--drop-grace", type=float, default=2.0, help="the server's")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds after a drain")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--rev", help="serve src/ as of this commit (default: as it is)")
    parser.add_argument("--log", type=Path, help="keep the server's log here")
    parser.add_argument("--json", type=Path, help="write every sample and report here")
    parser.add_argument(
        "--max-growth",
        type=float,
        default=0.10,
        help="the RSS check: drained after the soak at most this much above after warm-up",
    )
    parser.add_argument(
        "--no-trace",
        action="store_true",
        help="no tracemalloc (SIGUSR2): RSS untouched by tracing's own memory, and the "
        "pymalloc figures, which tracing hides",
    )
    args = parser.parse_args()
    low, _, high = args.think.partition("-")
    args.think = (float(low), float(high or low))
    args.games = args.games.split(",")
    raise_nofile()
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    with tempfile.TemporaryDirectory(prefix="tertulia-soak-") as tmp:
        workdir = Path(tmp)
        package, served = served_tree(args.rev, workdir)
        print(f"serving {served}", flush=True)
        server = Server(args, package, workdir)
        sampler = Sampler(server, args.sample)
        sampler.start()
        result: dict[str, Any] = {"served": served, "started": started, "args": vars(args)}
        try:
            result.update(run(args, server, sampler))
        finally:
            try:
                sampler.stop()
            finally:
                server.stop()  # whatever went wrong: no server left behind
            result["samples"] = sampler.samples
            if args.log is not None:
                shutil.copyfile(server.log_path, args.log)
            if args.json is not None:
                args.json.write_text(json.dumps(result, indent=1, default=str))
    return 0 if result.get("passed") else 1


def run(args: argparse.Namespace, server: Server, sampler: Sampler) -> dict[str, Any]:
    time.sleep(2.0)
    start = sampler.take()
    print(f"idle at start: server {mib(start['server'])} MiB, writer {mib(start['writer'])} MiB")
    start["report"] = server.report()  # what the server holds before any room
    phases: list[dict[str, Any]] = []
    counts = load_phase(args, server, sampler, "warm-up", args.warmup_minutes, seed=0)
    warm = drain(args, server, sampler, "after warm-up")
    warm_report = server.report()
    if not args.no_trace:
        server.trace()
    phases.append(
        {
            "name": "warm-up",
            "counts": counts,
            "peak": sampler.peak("warm-up"),
            "drained": warm,
            "report": warm_report,
        }
    )
    for r in range(1, args.rounds + 1):
        name = f"round {r}"
        counts = load_phase(args, server, sampler, name, args.minutes / args.rounds, seed=r)
        drained = drain(args, server, sampler, f"after {name}")
        phases.append(
            {
                "name": name,
                "counts": counts,
                "peak": sampler.peak(name),
                "drained": drained,
                "report": server.report(),
            }
        )
    return summarize(args, start, phases)


def summarize(args: argparse.Namespace, start: dict, phases: list[dict]) -> dict[str, Any]:
    warm = phases[0]
    base = warm["drained"]["server"]
    print(
        f"\nserver RSS (MiB; store writer apart): idle at start {mib(start['server'])} "
        f"(writer {mib(start['writer'])})"
    )
    print(
        "phase      | rooms | matches | peak under load | drained | vs after warm-up "
        "| after gc | after trim | writer drained | CPU server / generators | load average"
    )
    for phase in phases:
        counts, report, drained = phase["counts"], phase["report"], phase["drained"]
        rooms = sum(n for k, n in counts.items() if k.startswith("rooms: "))
        matches = sum(n for k, n in counts.items() if k.startswith("matches: "))
        peak = phase["peak"]["server"]
        seconds = max(1, counts["_seconds"])
        print(
            f"{phase['name']:10} | {rooms:5} | {matches:7} | {mib(peak):>15} | "
            f"{mib(drained['server']):>7} | {100 * (drained['server'] / base - 1):+15.1f}% | "
            f"{mib(report['rss_after_gc']):>8} | {mib(report['rss_after_trim']):>10} | "
            f"{mib(drained['writer']):>14} | {counts['_server_cpu_seconds'] / seconds:.2f} / "
            f"{counts['_generator_cpu_seconds'] / seconds:.2f} s/s | {counts['_load_average']}"
        )
    print(
        "\nwhere a drained server's memory is (MiB; from each report, after its collection and "
        "trim; anonymous: RssAnon before the report)"
        "\nphase      | RSS | anonymous | pymalloc arenas | in use | free in them "
        "| malloc in use | malloc free | traced alive"
    )
    for phase in [{"name": "at start", "report": start["report"], "drained": start}, *phases]:
        report, drained = phase["report"], phase["drained"]
        py = report["pymalloc"] or {}
        c = report["malloc"] or {}
        traced = (report["tracemalloc"] or {}).get("traced")
        print(
            f"{phase['name']:10} | {mib(report['rss_after_trim'])} | "
            f"{mib(drained['server_anon'])} | {py.get('arenas', '?')} | "
            f"{mib(py.get('in_use'))} | {mib(py.get('free'))} | {mib(c.get('in_use'))} | "
            f"{mib(c.get('free'))} | {mib(traced)}"
        )
    last = phases[-1]
    totals: Counter[str] = Counter()
    for phase in phases[1:]:
        totals.update({k: v for k, v in phase["counts"].items() if not k.startswith("_")})
    print("\nwhat the soak's rounds did:")
    for key, value in sorted(totals.items()):
        print(f"  {key}: {value}")
    left = per_room_left(last["report"]["tertulia_objects"])
    before = warm["report"]["tertulia_objects"]
    grew = {
        name: (before.get(name, 0), n)
        for name, n in last["report"]["tertulia_objects"].items()
        if n > before.get(name, 0)
    }
    print(f"\nlive tertulia objects after the last drain ({last['name']}), by class:")
    for name, n in last["report"]["tertulia_objects"].items():
        mark = " <- a room's or a connection's" if PER_ROOM.match(name) else ""
        print(f"  {n:7} {name} (after warm-up: {before.get(name, 0)}){mark}")
    print("grew since warm-up:", ", ".join(f"{k} {a}→{b}" for k, (a, b) in grew.items()) or "none")
    traced = last["report"]["tracemalloc"]
    if traced is not None:
        print(
            f"\ntracemalloc, since the warm-up's drain: {mib(traced['traced'])} MiB traced and "
            f"alive (tracing itself {mib(traced['overhead'])} MiB); top {len(traced['top'])}:"
        )
        for entry in traced["top"]:
            print(f"  {entry['size'] / 1024:9.1f} KiB {entry['count']:7} blocks  {entry['where']}")
    growth = last["drained"]["server"] / base - 1
    checks = {
        "no object of a room or a connection is left after the drain": not left,
        f"RSS after the drain within {100 * args.max_growth:.0f} % of after warm-up "
        f"({100 * growth:+.1f} %)": growth <= args.max_growth,
    }
    print()
    for check, ok in checks.items():
        print(f"{'PASS' if ok else 'FAIL'}: {check}")
    if left:
        print(f"  left: {left}")
    return {"phases": phases, "start": start, "checks": checks, "passed": all(checks.values())}


if __name__ == "__main__":
    sys.exit(main())
