"""A connection's outlet: pushes leave at once and in order; a slow client queues alone and is
closed when it falls too far behind; a dead socket takes nothing more."""

from __future__ import annotations

import asyncio

from tertulia.server.outlet import BACKLOG, TRY_AGAIN_LATER, Outlet


class Socket:
    """A WebSocket as the outlet sees it; ``full`` makes every send wait until it is emptied."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.full: asyncio.Future[None] | None = None
        self.broken = False

    async def send_text(self, text: str) -> None:
        if self.full is not None:
            await self.full
        if self.broken:
            raise ConnectionResetError("gone")
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed_with = code


def test_a_push_is_written_before_put_returns():
    async def body():
        socket = Socket()
        outlet = Outlet(socket.send_text, socket.close)
        outlet.put(b'{"n":1}')
        outlet.put(b'{"n":2}')
        assert socket.sent == ['{"n":1}', '{"n":2}']  # no turn of the loop needed

    asyncio.run(body())


def test_a_full_socket_queues_its_messages_and_sends_them_in_order_when_it_drains():
    async def body():
        socket = Socket()
        outlet = Outlet(socket.send_text, socket.close)
        socket.full = asyncio.get_running_loop().create_future()
        for n in range(5):
            outlet.put(str(n).encode())
        assert socket.sent == []
        full, socket.full = socket.full, None
        full.set_result(None)
        await asyncio.sleep(0)
        assert socket.sent == ["0", "1", "2", "3", "4"]
        outlet.put(b"5")  # drained: straight out again
        assert socket.sent[-1] == "5"

    asyncio.run(body())


def test_a_client_too_far_behind_is_closed_with_try_again_later():
    async def body():
        socket = Socket()
        outlet = Outlet(socket.send_text, socket.close)
        socket.full = asyncio.get_running_loop().create_future()
        for n in range(BACKLOG + 2):  # one in flight, BACKLOG waiting, one too many
            outlet.put(str(n).encode())
        full, socket.full = socket.full, None
        full.set_result(None)
        await asyncio.sleep(0)
        assert socket.closed_with == TRY_AGAIN_LATER
        assert socket.sent == ["0"]  # the rest was dropped: the client reconnects for a fresh view
        outlet.put(b"late")
        assert socket.sent == ["0"]

    asyncio.run(body())


def test_a_dead_socket_takes_nothing_more_and_raises_nothing():
    async def body():
        socket = Socket()
        outlet = Outlet(socket.send_text, socket.close)
        socket.broken = True
        outlet.put(b"1")  # the reader notices the closed socket; the sender must not crash
        socket.broken = False
        outlet.put(b"2")
        assert socket.sent == [] and outlet.done

    asyncio.run(body())
