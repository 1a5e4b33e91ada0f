"""Where a room is best owned (``cluster/placement.py``): the rules a node follows before it
hands a room to the node its players are on. The cluster test beside this one
(``test_follow_players.py``) plays them through real nodes."""

from __future__ import annotations

from collections import Counter

from tertulia.cli import build_parser
from tertulia.cluster.placement import Placement, leading_node
from tertulia.server.config import Config


def test_a_room_leads_to_the_node_with_more_of_its_connections_than_its_owner() -> None:
    assert leading_node(1, Counter({"b": 2})) == "b"
    assert leading_node(0, Counter({"b": 1})) == "b"
    assert leading_node(2, Counter({"b": 2})) is None  # a tie stays where it is
    assert leading_node(1, Counter()) is None
    assert leading_node(1, Counter({"b": 3, "c": 4})) == "c"
    assert leading_node(1, Counter({"c": 3, "b": 3})) == "b"  # on a tie, the first by name


def _room(between_matches: bool = True, here: int = 1, **elsewhere: int):
    return (between_matches, here, Counter(elsewhere))


def test_a_room_moves_once_the_same_node_has_led_for_two_beats_in_a_row() -> None:
    """Players coming in one by one must not make a room go back and forth."""
    placement = Placement(4.0)
    live = {"b", "c"}
    assert placement.moves({"ROOM": _room(b=2)}, live) == {}
    assert placement.moves({"ROOM": _room(b=2)}, live) == {"ROOM": "b"}
    # Led by b, then by c: c has led for one beat only.
    placement = Placement(4.0)
    assert placement.moves({"ROOM": _room(b=2)}, live) == {}
    assert placement.moves({"ROOM": _room(b=2, c=3)}, live) == {}
    assert placement.moves({"ROOM": _room(b=2, c=3)}, live) == {"ROOM": "c"}
    # A beat without a leader starts the count again.
    placement = Placement(4.0)
    assert placement.moves({"ROOM": _room(b=2)}, live) == {}
    assert placement.moves({"ROOM": _room(here=2, b=2)}, live) == {}
    assert placement.moves({"ROOM": _room(b=2)}, live) == {}


def test_a_room_never_moves_during_a_match_nor_to_a_node_that_is_not_live() -> None:
    placement = Placement(4.0)
    for _ in range(3):
        assert placement.moves({"ROOM": _room(between_matches=False, b=5)}, {"b"}) == {}
        assert placement.moves({"ROOM": _room(b=5)}, {"c"}) == {}
    # The match over: two beats, and it goes.
    assert placement.moves({"ROOM": _room(b=5)}, {"b"}) == {}
    assert placement.moves({"ROOM": _room(b=5)}, {"b"}) == {"ROOM": "b"}


def test_a_room_handed_to_a_node_is_left_to_it_for_a_while() -> None:
    """Every other node whose connections were in it (its former owner too) leaves the free
    lease to the heir rather than racing it; if nobody takes it meanwhile, anyone may. The
    heir itself is never held back, and what is over is forgotten."""
    now = [100.0]
    placement = Placement(8.0, clock=lambda: now[0])
    assert not placement.held("ROOM")
    placement.hold("ROOM")
    assert placement.held("ROOM") and not placement.held("OTHER")
    now[0] += 7.9
    assert placement.held("ROOM")
    now[0] += 0.2
    assert not placement.held("ROOM")
    placement.hold("ROOM")
    placement.release("ROOM")  # handed to this node after all
    assert not placement.held("ROOM")
    placement.hold("ROOM")
    now[0] += 9
    placement.moves({}, set())
    assert placement._held == {}  # not kept for the life of the process


def test_rooms_follow_their_players_only_when_the_operator_says_so() -> None:
    """Off by default (a proxy that does not route by room gains nothing from moves); on with
    ``serve --rooms-follow-players`` or ``TERTULIA_ROOMS_FOLLOW_PLAYERS=1``."""
    assert not Config.from_env({}).rooms_follow_players
    assert Config.from_env({"TERTULIA_ROOMS_FOLLOW_PLAYERS": "1"}).rooms_follow_players
    assert not Config.from_env({"TERTULIA_ROOMS_FOLLOW_PLAYERS": "0"}).rooms_follow_players
    args = build_parser().parse_args(["serve", "--rooms-follow-players"])
    assert args.rooms_follow_players is True
    assert build_parser().parse_args(["serve"]).rooms_follow_players is None
