"""Rooms: the lobby, the seats, the host, chat, clocks and the game a room is playing.

No HTTP in here. A room is one asyncio task (``room.py``) that takes messages from a bounded
inbox one at a time — the single writer — and turns each into a log record; the record is
folded into the room's model (``model.py``, pure: the same fold rebuilds a room from its log
after a restart), persisted, and only then sent to every connection as that seat's view.
``manager.py`` keeps the rooms (codes, public list, idle closing, restoring on start); the
connections a room talks to are ``Peer`` objects handed in by the server.
"""
