"""The game contract's shared tools: seeded randomness, ranking, copying, settings schema,
players coming and going, and the fields of a game's state they rely on."""

from __future__ import annotations

import enum
import importlib
import sys
import typing
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tertulia.games import GAMES, base
from tertulia.games.base import (
    Drop,
    Extend,
    Join,
    Leave,
    Player,
    Return,
    Rng,
    RuleError,
    Timeout,
    apply_with,
    clone,
    decode_action,
    rank,
    settings_schema,
)
from tertulia.games.pitacor.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
import tiny_game  # the example of docs/adding-a-game.md

# The shipped games and the example: the example is built with the same tools.
EVERY_GAME = {**GAMES, tiny_game.NAME: tiny_game}


def test_same_seed_draws_the_same_numbers_so_replays_are_exact():
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.below(1000) for _ in range(50)] == [b.below(1000) for _ in range(50)]
    assert Rng.from_seed(43).below(10**9) != Rng.from_seed(42).below(10**9)


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=10**6))
def test_below_stays_in_range(seed: int, n: int):
    rng = Rng.from_seed(seed)
    assert all(0 <= rng.below(n) < n for _ in range(20))


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(st.integers(min_value=0, max_value=2**32), st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(seed: int, items: list[int]):
    shuffled = list(items)
    Rng.from_seed(seed).shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(
    st.integers(min_value=0, max_value=2**64 - 1),
    st.lists(st.integers(), max_size=600),
    st.integers(min_value=1, max_value=10**6),
)
def test_shuffle_draws_exactly_what_below_draws_so_saved_matches_replay_the_same(
    seed: int, items: list[int], n: int
):
    """Fisher–Yates with ``j = below(i + 1)`` from the last item down: the written-out
    shuffle must give the same order and leave the generator where those calls would."""
    expected, reference = list(items), Rng.from_seed(seed)
    for i in range(len(expected) - 1, 0, -1):
        j = reference.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    shuffled, rng = list(items), Rng.from_seed(seed)
    rng.shuffle(shuffled)
    assert shuffled == expected
    assert rng.below(n) == reference.below(n)


def test_rng_state_survives_a_copy_of_the_state():
    rng = Rng.from_seed(5)
    rng.below(10)
    copy = clone(rng)
    assert copy.below(10**6) == rng.below(10**6)


def test_tie_is_a_shared_victory_with_shared_places():
    ranking = rank([("a", "Ana", 10), ("b", "Bo", 12), ("c", "Cy", 12), ("d", "Di", 3)])
    assert [(p.seat, p.place, p.winner) for p in ranking] == [
        ("b", 1, True),
        ("c", 1, True),
        ("a", 3, False),
        ("d", 4, False),
    ]


def test_a_winner_named_by_the_rules_stands_first():
    ranking = rank([("a", "Ana", 25), ("b", "Bo", 26)], winners=["a"])
    assert ranking[0].seat == "a" and ranking[0].winner
    assert not ranking[1].winner


def test_a_tiebreak_orders_equal_scores_and_only_a_tie_in_both_is_shared():
    ranking = rank(
        [("a", "Ana", 5), ("b", "Bo", 5), ("c", "Cy", 5), ("d", "Di", 2)],
        tiebreak={"a": 1, "b": 3, "c": 3, "d": 9},
    )
    assert [(p.seat, p.place, p.winner) for p in ranking] == [
        ("b", 1, True),
        ("c", 1, True),
        ("a", 3, False),
        ("d", 4, False),
    ]


def test_rule_error_carries_code_message_and_params():
    error = RuleError("clue.color_name", "'reddish' is a form of a colour name.", word="reddish")
    assert error.as_dict() == {
        "code": "clue.color_name",
        "message": "'reddish' is a form of a colour name.",
        "params": {"word": "reddish"},
    }


def test_settings_schema_has_defaults_bounds_labels_and_advanced_part():
    schema = settings_schema(Settings)
    props = schema["$defs"]["Settings"]["properties"]
    goal = props["goal"]
    assert goal["default"] == 25 and goal["minimum"] == 1 and goal["x-advanced"] is True
    assert goal["x-label"] == "settings.pitacor.goal"
    assert props["guess_mode"]["x-advanced"] is False
    assert set(props) == set(Settings.__struct_fields__)


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
_ACTION_KEYS = st.sampled_from(["type", "cell", "index", "text", "seat", "until", "x"])
_ACTION_TYPES = st.sampled_from(
    [
        *["select_cell", "confirm", "give_clue", "choose_target", "pass_clue"],
        *["timeout", "extend", "add", "nope", 3],
    ]
)


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(
    st.sampled_from(sorted(EVERY_GAME)),
    st.dictionaries(_ACTION_KEYS, _JSON_VALUES, max_size=4),
    _ACTION_TYPES,
)
def test_an_action_is_decoded_exactly_as_msgspec_convert_would(game, raw, kind):
    """The fast path must accept, refuse and word its refusals like ``msgspec.convert``:
    a player's "action.malformed" message comes from here."""
    raw = {**raw, "type": kind} if kind != 3 or raw else raw
    action_type = EVERY_GAME[game].Action

    def outcome(decode):
        try:
            return "ok", decode(raw)
        except msgspec.ValidationError as error:
            return "refused", str(error)

    assert outcome(lambda r: decode_action(action_type, r)) == outcome(
        lambda r: msgspec.convert(r, action_type)
    )


def _started(game: str, deadline: float | None = 1030.0):
    """A match of ``game`` at 1000.0 with as few players as it takes, its clock due at
    ``deadline`` (None: nothing timed)."""
    module = EVERY_GAME[game]
    players = [Player(f"p{i}", f"P{i}") for i in range(module.MIN_PLAYERS)]
    state = module.start(module.Settings(), players, 7, 1000.0)
    return module, msgspec.structs.replace(state, deadline=deadline)


@pytest.mark.parametrize("game", sorted(EVERY_GAME))
def test_the_room_may_move_a_deadline_later_and_nothing_else_changes(game):
    """After a restart the room gives a clock the downtime ate a grace (``Extend``): the
    deadline moves, the clock stays what it was for, and clients are told."""
    module, state = _started(game)
    moved, events = module.apply(state, None, Extend(1100.0), 1090.0)
    assert module.deadline(moved) == 1100.0
    assert msgspec.structs.replace(moved, deadline=1030.0) == state
    assert [(e.kind, e.data) for e in events] == [("clock.extended", {"until": 1100.0})]


@pytest.mark.parametrize("game", sorted(EVERY_GAME))
def test_an_extension_never_moves_a_deadline_earlier_nor_starts_a_clock(game):
    module, state = _started(game)
    assert module.apply(state, None, Extend(1010.0), 1005.0) == (state, [])
    module, untimed = _started(game, deadline=None)
    assert module.apply(untimed, None, Extend(1100.0), 1005.0) == (untimed, [])


@pytest.mark.parametrize("game", sorted(EVERY_GAME))
def test_only_the_room_may_extend_a_clock(game):
    module, state = _started(game)
    with pytest.raises(RuleError) as refused:
        module.apply(state, "p0", Extend(2000.0), 1005.0)
    assert refused.value.code == "action.room_only"


def test_a_game_judges_text_only_in_actions_it_handles():
    """``apply_with(judging=...)`` names handlers that take ``judge_text``; naming an action
    the game does not handle is a mistake caught at import, not on the first replay."""
    with pytest.raises(ValueError, match="judging"):
        apply_with({Timeout: lambda *args: None}, {}, None, judging={Join})


def _seats(module) -> base.Seating:
    if hasattr(module, "SEATS"):  # a game in one file (the example)
        return module.SEATS
    return importlib.import_module(f"{module.__name__}.rules").SEATS


def _assert_fields(cls: type, protocol: type) -> None:
    """``cls`` declares every field ``protocol`` names, with its type (what a type checker
    would verify; ``Any`` and the read-only ``phase`` are checked by the caller)."""
    have = typing.get_type_hints(cls)
    for name, wanted in typing.get_type_hints(protocol).items():
        assert name in have, f"{cls.__qualname__} has no {name}"
        if wanted is not typing.Any:
            assert have[name] == wanted, f"{cls.__qualname__}.{name}: {have[name]}"


@pytest.mark.parametrize("game", sorted(EVERY_GAME))
def test_a_games_state_and_players_have_the_fields_the_shared_tools_use(game):
    module, state = _started(game)
    seats = _seats(module)
    _assert_fields(type(state), base.TimedState)
    _assert_fields(type(seats.players(state)[0]), base.Scored)
    phase = typing.get_type_hints(type(state))["phase"]
    assert issubclass(phase, enum.Enum) and seats.ended in phase
    assert type(state.clock)["NONE"] is not None  # set_clock and finish_match stop it so
    assert seats.find(state, "p0") is seats.players(state)[0] and seats.find(state, None) is None


@pytest.mark.parametrize("game", sorted(EVERY_GAME))
@pytest.mark.parametrize("action", [Drop, Return, Leave])
def test_a_room_action_naming_a_seat_the_match_never_had_is_refused(game, action):
    module, state = _started(game)
    with pytest.raises(RuleError) as refused:
        module.apply(state, None, action("ghost"), 1001.0)
    assert refused.value.code == "seat.unknown"


@pytest.mark.parametrize("game", sorted(EVERY_GAME))
def test_dropping_twice_or_coming_back_when_here_is_no_news(game):
    module, state = _started(game)
    assert module.apply(state, None, Return("p1"), 1001.0)[1] == []
    state, events = module.apply(state, None, Drop("p1"), 1001.0)
    assert events[0].kind == "player.dropped"
    assert "player.dropped" not in [
        e.kind for e in module.apply(state, None, Drop("p1"), 1002.0)[1]
    ]


@pytest.mark.parametrize("game", sorted(EVERY_GAME))
def test_a_leave_that_leaves_too_few_players_ends_the_match(game):
    module, state = _started(game)  # as few players as the game takes
    state, events = module.apply(state, None, Leave("p0"), 1001.0)
    assert [e.kind for e in events] == ["player.left", "match.ended"]
    assert module.outcome(state).reason == "too_few_players" and module.deadline(state) is None
    later = module.apply(state, None, Leave("p1"), 1002.0)[1]  # over already: just told
    assert [e.kind for e in later] == ["player.left"]


# Every name games, the rooms and the tests reach as ``base.X``; base.py gathers them from
# the modules of shared tools beside it, so a game imports ``base`` and nothing else.
SHARED_NAMES = """
    ALREADY_SEATED EARLY_TIMEOUT MATCH_FULL MATCH_OVER NOT_A_PLAYER NOT_YOUR_TURN ROOM_ONLY
    SYSTEM_ACTIONS TOO_FEW_PLAYERS UNKNOWN_SEAT WRONG_PHASE Action Bot Drop Event Extend Game
    Handler Host Join Leave Level M MatchState Outcome P Placing Player Return Rng RuleError Scored
    Seat SeatedPlayer Seating SystemAction T TimedState Timeout apply_with check_and_apply
    clone deadline decode_action extend finish_match first_turn ignore is_here is_playing
    outcome podium rank rank_leavers_last require_players seat_view set_clock setting
    settings_schema you
""".split()


def test_base_gives_every_shared_name_and_says_so():
    assert sorted(base.__all__) == sorted(SHARED_NAMES)
    assert all(hasattr(base, name) for name in SHARED_NAMES)


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(seed=st.integers(min_value=0, max_value=2**62), count=st.integers(1, 12))
def test_with_no_newcomer_the_first_turn_is_drawn_exactly_as_before(seed: int, count: int):
    """``first_turn`` ("a first-timer is never the first clue giver or artist"): with nobody
    new it draws what ``rng.below`` did, so matches dealt before replay as they were dealt."""
    seats = [f"p{i}" for i in range(count)]
    assert base.first_turn(seats, set(), Rng.from_seed(seed)) == Rng.from_seed(seed).below(count)
    assert base.first_turn(seats, set(), None) == 0


def test_the_first_turn_is_never_a_newcomers_unless_everyone_is_new():
    seats = ["a", "b", "c", "d"]
    starts = {base.first_turn(seats, {"a", "c"}, Rng.from_seed(seed)) for seed in range(40)}
    assert starts == {1, 3}
    assert base.first_turn(seats, {"a"}, None) == 1  # the host's order: the first not new
    assert {base.first_turn(seats, set(seats), Rng.from_seed(s)) for s in range(40)} == {0, 1, 2, 3}


def _state_before(output: int) -> int:
    """The generator state whose next draw (``next64``) is ``output``: SplitMix64's mix is a
    bijection, undone step by step."""
    mask = (1 << 64) - 1
    x = output
    x ^= (x >> 31) ^ (x >> 62)
    x = (x * pow(0x94D049BB133111EB, -1, 1 << 64)) & mask
    x ^= (x >> 27) ^ (x >> 54)
    x = (x * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & mask
    x ^= (x >> 30) ^ (x >> 60)
    return (x - 0x9E3779B97F4A7C15) & mask


def test_a_shuffle_whose_draw_below_rejects_draws_again_as_below_does():
    """``below(3)`` rejects the draw 2^64 - 1 (past the largest multiple of 3) and draws again;
    the shuffle, which makes its draws all at once, must notice and do the same."""
    state = _state_before((1 << 64) - 1)
    assert Rng(state).next64() == (1 << 64) - 1
    expected, reference = ["a", "b", "c"], Rng(state)
    for i in range(2, 0, -1):
        j = reference.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    shuffled, rng = ["a", "b", "c"], Rng(state)
    rng.shuffle(shuffled)
    assert shuffled == expected and rng.state == reference.state
