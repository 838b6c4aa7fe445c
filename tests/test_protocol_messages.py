"""Messages are built from the view only and read strictly, each problem named with what was
expected."""

from __future__ import annotations

import json
import random

import pytest

from whist_sim.cards import SUIT_NAMES
from whist_sim.games import make_game
from whist_sim.games.base import DealOutcome
from whist_sim.protocol import PROTOCOL_VERSION, ProtocolError
from whist_sim.protocol.messages import (
    BotHello,
    deal_message,
    decide_message,
    encode_line,
    parse_version,
    read_action,
    read_bot_hello,
    read_message,
    result_message,
    unsupported,
)
from whist_sim.protocol.seeding import rng_from_deal, seat_randomness

HELLO = {"type": "hello", "name": "b", "version": "1", "protocol": "1.0",
         "games": ["german_whist"]}


def following_view():
    """A German Whist view of the second player to a trick who holds the suit led."""
    game = make_game("german_whist")
    for seed in range(100):
        state = game.new_deal(seed, 0)
        state.apply(next(c for c in range(52) if state.legal >> c & 1))
        view = state.view(state.to_act)
        if view.legal != view.hand:
            return view
    raise AssertionError("no deal where the follower must follow suit")


def test_a_line_is_one_compact_json_object():
    line = encode_line({"type": "quit"})
    assert line == b'{"type":"quit"}\n'


def test_nan_never_goes_on_the_wire():
    with pytest.raises(ValueError):
        encode_line({"type": "result", "score": float("nan")})


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (b"QS please", "not JSON"),
        (b"\xff\xfe", "not UTF-8 (byte 0xff at position 0)"),
        (b'{"type":"action","action":"\xff\xfe"}', "not UTF-8 (byte 0xff at position 27)"),
        (b'["action", "QS"]', 'not a JSON object with a string "type"'),
        (b'{"action": "QS"}', 'not a JSON object with a string "type"'),
        (b'{"type": "action", "action": ' + b"7" * 5000 + b"}",
         "a number of more than 4,300 digits, which the engine does not read"),
        (b'{"type":"action","action":"8S","decision":NaN}', "not JSON (NaN is not a JSON value)"),
        (b'{"type":"action","action":"8S","decision":-Infinity}',
         "not JSON (-Infinity is not a JSON value)"),
    ],
    ids=["prose", "not utf-8", "json-like, not utf-8", "array", "no type",
         "a 5,000-digit number", "NaN", "-Infinity"],
)
def test_a_reply_that_is_not_a_typed_json_object_is_named(line, problem):
    with pytest.raises(ProtocolError) as caught:
        read_message(line, "bot", "decide")
    assert problem in caught.value.problem
    assert "replied" in caught.value.problem and "to decide" in caught.value.problem
    assert caught.value.expected


def test_a_long_bad_reply_is_quoted_cut_short():
    with pytest.raises(ProtocolError) as caught:
        read_message(b"x" * 100_000, "bot", "decide")
    assert len(str(caught.value)) < 600
    assert "100,000 characters" in str(caught.value)


def test_the_version_is_major_dot_minor():
    assert parse_version(PROTOCOL_VERSION) == (1, 0)
    for wrong in ("1", "1.0.0", "v1.0", 1.0, None):
        with pytest.raises(ProtocolError, match=r"MAJOR\.MINOR"):
            parse_version(wrong)


def test_a_bot_hello_is_read_with_its_games_and_variants():
    hello = read_bot_hello({**HELLO, "variants": {"german_whist": {"count": ["stage2"]}},
                            "unknown_field": 1})
    assert hello == BotHello("b", "1", (1, 0), frozenset({"german_whist"}),
                             {"german_whist": {"count": ("stage2",)}})


def test_a_newer_minor_version_is_accepted_and_another_major_refused():
    assert read_bot_hello({**HELLO, "protocol": "1.7"}).protocol == (1, 7)
    with pytest.raises(ProtocolError, match="different MAJOR version"):
        read_bot_hello({**HELLO, "protocol": "2.0"})


@pytest.mark.parametrize(
    ("change", "named"),
    [({"games": []}, "games"), ({"games": "german_whist"}, "games"), ({"name": ""}, "name"),
     ({"variants": {"german_whist": {"count": "all"}}}, "variants")],
)
def test_a_malformed_bot_hello_names_the_field(change, named):
    with pytest.raises(ProtocolError, match=named):
        read_bot_hello({**HELLO, **change})


def test_a_game_or_variant_the_bot_does_not_list_is_unsupported():
    hello = read_bot_hello({**HELLO, "variants": {"german_whist": {"open_stock": [1]}}})
    assert unsupported(hello, "german_whist", {"open_stock": 1}) is None
    assert "not solo_whist" in unsupported(hello, "solo_whist", {})
    assert "open_stock = 1 only, not 3" in unsupported(hello, "german_whist", {"open_stock": 3})


def test_an_action_reply_is_read_into_the_action_number():
    view = following_view()
    card = next(c for c in range(52) if view.legal >> c & 1)
    name = make_game("german_whist").action_str(card)
    assert read_action({"type": "action", "action": name}, view, 3) == card
    assert read_action({"type": "action", "action": name, "decision": 3}, view, 3) == card


def test_an_action_naming_a_card_not_held_says_so_and_lists_the_legal_ones():
    view = following_view()
    card = next(c for c in range(52) if not view.hand >> c & 1)
    name = make_game("german_whist").action_str(card)
    with pytest.raises(ProtocolError) as caught:
        read_action({"type": "action", "action": name}, view, 0)
    assert caught.value.problem == f"names a card not held: {name}"
    assert caught.value.expected.startswith("one of the legal actions: ")


def test_a_held_card_that_does_not_follow_suit_names_the_rule():
    """As the play loop names it for a strategy in process: an isolated strategy's refusal
    said only "not legal now" (a newcomer's probe)."""
    view = following_view()
    card = next(c for c in range(52) if view.hand >> c & 1 and not view.legal >> c & 1)
    name = make_game("german_whist").action_str(card)
    with pytest.raises(ProtocolError) as caught:
        read_action({"type": "action", "action": name}, view, 0)
    led = SUIT_NAMES[view.trick[0] // 13]
    assert caught.value.problem.startswith(f"names {name} but must follow {led} (holds ")
    assert caught.value.problem.endswith(") [rule: follow suit]")


def test_a_held_card_that_is_not_legal_in_another_phase_says_the_phase():
    """Taking a face-up card: a card of the hand is no choice there."""
    game = make_game("german_whist", {"open_stock": 2})
    state = game.new_deal(4, 0)
    while state.phase != "take":
        state.apply(next(c for c in range(52) if state.legal >> c & 1))
    view = state.view(state.to_act)
    card = next(c for c in range(52) if view.hand >> c & 1)
    name = game.action_str(card)
    with pytest.raises(ProtocolError, match=f"names {name}, which is not legal now .phase take"):
        read_action({"type": "action", "action": name}, view, 0)


@pytest.mark.parametrize("action", ["pass", "qs", 12, None])
def test_an_action_that_is_no_action_of_the_game_is_refused(action):
    with pytest.raises(ProtocolError, match="legal actions"):
        read_action({"type": "action", "action": action}, following_view(), 0)


def test_a_reply_to_another_decision_is_refused():
    with pytest.raises(ProtocolError, match="replied to decision 2 when decision 5 was asked"):
        read_action({"type": "action", "action": "AS", "decision": 2}, following_view(), 5)


@pytest.mark.parametrize("echoed", [5.0, True, "5"])
def test_a_decision_number_that_is_not_an_integer_is_refused(echoed):
    """A probe's bot: ``"decision": 1.0`` and ``true`` were taken for decision 1."""
    number = 1 if echoed is True else 5
    with pytest.raises(ProtocolError, match=f"replied to decision {echoed!r} when decision"):
        read_action({"type": "action", "action": "AS", "decision": echoed}, following_view(),
                    number)


def test_decide_carries_the_view_legal_and_clock_and_nothing_else():
    view = following_view()
    message = decide_message(view, 4, 250)
    assert set(message) == {"type", "decision", "clock", *view._fields}
    assert message["clock"] == {"remaining_ms": 250}
    json.dumps(message, allow_nan=False)


def test_deal_says_game_variant_table_seat_dealer_and_seed():
    view = following_view()
    seed, _ = seat_randomness(random.Random(99), exact=False)
    message = deal_message(view, seed=seed, hand=2, match={"hand": 2, "hands_won": [1, 1]})
    assert message["game"] == "german_whist" and message["players"] == 2
    assert message["seat"] == view.seat and message["dealer"] == view.dealer
    assert message["variant"] == view.variant.as_dict()
    assert "python_rng" not in message


def test_result_gives_the_seat_its_own_figures_and_the_tables_but_no_error_text():
    outcome = DealOutcome((5, 8), (0.0, 2.0), (-2.0, 2.0), ("forfeit", "win"), 0,
                          "seat 0 (x) crashed: secret stderr")
    message = result_message(1, outcome)
    assert (message["tricks"], message["net"], message["result"]) == (8, 2.0, "win")
    assert message["table"]["result"] == ["forfeit", "win"]
    assert message["forfeit_seat"] == 0
    assert "secret" not in json.dumps(message)


def test_the_exact_rng_continues_the_engines_stream():
    engine_side = random.Random(123456789)
    seed, state = seat_randomness(engine_side, exact=True)
    bot_side = rng_from_deal(json.loads(json.dumps({"seed": seed, "python_rng": state})))
    assert [bot_side.random() for _ in range(1000)] == [engine_side.random() for _ in range(1000)]


def test_the_seed_is_reproducible_and_does_not_reveal_the_generator():
    seed_a, _ = seat_randomness(random.Random(123456789), exact=False)
    seed_b, _ = seat_randomness(random.Random(123456789), exact=False)
    assert seed_a == seed_b and seed_a != "123456789"
    assert 0 <= int(seed_a) < 2**63
    assert rng_from_deal({"seed": seed_a}).random() == random.Random(int(seed_a)).random()


def test_a_reply_nested_too_deep_to_parse_is_the_bots_reply_error():
    """100,000 arrays deep: Python's JSON parser raised RecursionError, which was recorded
    as the strategy's own exception, without the bot's command (a probe's bot)."""
    line = '{"type": "action", "action": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(ProtocolError, match=r"to decide: JSON nested too deep to read;"
                       r" expected one flat JSON object per line from the bot"):
        read_message(line, "bot", "decide")
