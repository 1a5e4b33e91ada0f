"""A connection's outlet: pushes leave at once and in order; a slow client queues alone and is
closed when it falls too far behind; a dead socket takes nothing more."""

from __future__ import annotations

import asyncio

from tertulia.server.outlet import BACKLOG, DIRECT_BYTES, TRY_AGAIN_LATER, Outlet


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


class Straight:
    """A socket's way to write a small message at once (``TertuliaWebSocket.write_uncompressed``);
    ``takes`` False: it cannot now (closing, or its buffer full)."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.takes = True

    def __call__(self, data: bytes) -> bool:
        if self.takes:
            self.written.append(data)
        return self.takes


def test_a_small_message_is_written_straight_and_a_large_one_sent_the_asgi_way():
    async def body():
        socket, straight = Socket(), Straight()
        outlet = Outlet(socket.send_text, socket.close, write_now=straight)
        small, large = b"s" * DIRECT_BYTES, b"L" * (DIRECT_BYTES + 1)
        outlet.put(small)
        outlet.put(large)
        assert straight.written == [small]
        assert socket.sent == [large.decode()]

    asyncio.run(body())


def test_a_message_the_socket_cannot_take_straight_goes_the_asgi_way():
    async def body():
        socket, straight = Socket(), Straight()
        outlet = Outlet(socket.send_text, socket.close, write_now=straight)
        straight.takes = False
        outlet.put(b"1")
        assert socket.sent == ["1"]

    asyncio.run(body())


def test_while_a_send_waits_small_messages_queue_behind_it_in_order():
    """Written straight, a small message would overtake the one waiting for the socket."""

    async def body():
        socket, straight = Socket(), Straight()
        outlet = Outlet(socket.send_text, socket.close, write_now=straight)
        socket.full = asyncio.get_running_loop().create_future()
        outlet.put(b"L" * (DIRECT_BYTES + 1))  # waits
        outlet.put(b"2")
        outlet.put(b"3")
        assert straight.written == [] and socket.sent == []
        full, socket.full = socket.full, None
        full.set_result(None)
        await asyncio.sleep(0)
        assert socket.sent == ["L" * (DIRECT_BYTES + 1), "2", "3"]
        outlet.put(b"4")  # drained: straight out again
        assert straight.written == [b"4"]

    asyncio.run(body())


def test_nothing_is_written_straight_once_the_outlet_is_closed():
    async def body():
        socket, straight = Socket(), Straight()
        outlet = Outlet(socket.send_text, socket.close, write_now=straight)
        outlet.close(1000)
        outlet.put(b"late")
        assert straight.written == [] and socket.closed_with == 1000

    asyncio.run(body())
