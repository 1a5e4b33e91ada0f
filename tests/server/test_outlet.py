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


class Transport:
    """What an outlet may do to the connection under it: cut it off."""

    def __init__(self) -> None:
        self.aborted = 0

    def abort(self) -> bool:
        self.aborted += 1
        return True


def test_a_client_too_far_behind_is_cut_off_at_once_not_closed_behind_its_backlog():
    """ "A client that stops reading is really closed (abort the transport)": a close frame
    would queue behind everything it is not reading."""

    async def body():
        socket, transport = Socket(), Transport()
        outlet = Outlet(socket.send_text, socket.close, abort=transport.abort)
        socket.full = asyncio.get_running_loop().create_future()
        for n in range(BACKLOG + 2):
            outlet.put(str(n).encode())
        assert transport.aborted == 1 and outlet.cut_off and outlet.done
        assert socket.closed_with is None  # no close frame waiting behind the stuck send
        outlet.put(b"late")
        assert transport.aborted == 1

    asyncio.run(body())


def test_a_send_stuck_for_the_stall_limit_cuts_the_client_off(monkeypatch):
    """A client that reads nothing at all is cut off after ``STALL_SECONDS`` even if too few
    messages come for its backlog to fill; one that drains in time is kept."""
    import tertulia.server.outlet as outlet_module

    monkeypatch.setattr(outlet_module, "STALL_SECONDS", 0.05)

    async def body():
        socket, transport = Socket(), Transport()
        outlet = Outlet(socket.send_text, socket.close, abort=transport.abort)
        socket.full = asyncio.get_running_loop().create_future()
        outlet.put(b"1")
        await asyncio.sleep(0.02)
        full, socket.full = socket.full, None
        full.set_result(None)  # it drained in time
        await asyncio.sleep(0.1)
        assert transport.aborted == 0 and socket.sent == ["1"]
        socket.full = asyncio.get_running_loop().create_future()
        outlet.put(b"2")
        await asyncio.sleep(0.1)
        assert transport.aborted == 1 and outlet.cut_off

    asyncio.run(body())


def test_closing_a_flooder_drops_its_answers_and_cuts_it_off_if_it_does_not_go(monkeypatch):
    import tertulia.server.outlet as outlet_module

    monkeypatch.setattr(outlet_module, "CLOSE_HANDSHAKE_SECONDS", 0.05)

    async def body():
        socket, transport = Socket(), Transport()
        outlet = Outlet(socket.send_text, socket.close, abort=transport.abort)
        outlet.close(1008)
        outlet.put(b"after")
        assert socket.closed_with == 1008 and socket.sent == []
        await asyncio.sleep(0.1)
        assert transport.aborted == 1  # the client had its chance to finish the handshake

    asyncio.run(body())


def test_closing_a_flooder_whose_socket_is_full_cuts_it_off_at_once():
    async def body():
        socket, transport = Socket(), Transport()
        outlet = Outlet(socket.send_text, socket.close, abort=transport.abort)
        socket.full = asyncio.get_running_loop().create_future()
        outlet.put(b"stuck")
        outlet.put(b"queued")
        outlet.close(1008)
        assert transport.aborted == 1 and socket.closed_with is None

    asyncio.run(body())
