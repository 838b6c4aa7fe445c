"""The action log kept as ints (``games.action_log``): codes read back as the entries logged.

The engines append codes; ``state.log`` decodes them; the recorder reads a task's codes
as columns (``log_fields``). Each reading must give back exactly the entries logged, in
any process.
"""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from whist_sim.games import make_game
from whist_sim.games.action_log import (
    LOG_ACTIONS,
    LOG_PHASES,
    LOG_SEATS,
    decode_log,
    encode_log,
    log_codes,
    log_fields,
)
from whist_sim.play import play_deal
from whist_sim.tournament.recording import log_columns

entries = st.lists(st.tuples(st.integers(0, LOG_SEATS - 1), st.sampled_from(LOG_PHASES[:8]),
                             st.integers(0, LOG_ACTIONS - 1), st.booleans()), max_size=60)


@given(entries)
def test_codes_decode_to_the_entries_encoded(log):
    assert decode_log(encode_log(log)) == log


@given(entries)
def test_log_fields_are_the_entries_fields_in_order(log):
    seats, phases, names, actions, chosen = log_fields(encode_log(log))
    read = list(zip(seats.tolist(), [names[p] for p in phases.tolist()], actions.tolist(),
                    chosen.tolist(), strict=True))
    assert read == log


def test_an_engine_table_codes_its_seat_phase_action_and_chosen_flag():
    table = log_codes("take", False)
    assert decode_log([table[1][51], table[0][0]]) == [(1, "take", 51, False),
                                                       (0, "take", 0, False)]


def test_a_phase_no_game_has_gets_a_code_of_its_own():
    log = [(2, "a new phase", 60, False), (0, "play", 7, True)]
    seats, phases, names, actions, chosen = log_columns(encode_log(log))
    assert [names.to_pylist()[p] for p in phases.tolist()] == ["a new phase", "play"]
    assert (seats.tolist(), actions.tolist(), chosen.tolist()) == ([2, 0], [60, 7],
                                                                   [False, True])
    assert decode_log(encode_log(log)) == log


@pytest.mark.parametrize(("entry", "field"), [((8, "play", 0, True), "seats 0..7"),
                                              ((0, "play", 128, True), "actions 0..127")])
def test_an_entry_no_code_can_hold_is_refused_by_name(entry, field):
    with pytest.raises(ValueError, match=field) as raised:
        encode_log([entry])
    assert repr(entry) in str(raised.value)


@pytest.mark.parametrize("game", ["german_whist", "solo_whist", "minnesota_whist",
                                  "knockout_whist"])
def test_a_states_log_reads_its_codes_and_is_not_changed_through_the_list(game):
    from strategies.random_play import RandomStrategy

    played = make_game(game).players
    state = play_deal(make_game(game), [RandomStrategy()] * played, 7).state
    log = state.log
    assert len(log) == len(state.codes) > 0
    assert log == decode_log(state.codes)
    log.append((0, "play", 0, True))
    assert len(state.log) == len(state.codes)  # a copy: the state is as it was
    state.log = log[:3]
    assert state.log == log[:3] and state.codes == encode_log(log[:3])


def test_a_state_pickled_to_another_process_reads_the_same_log():
    """Codes are numbered in a fixed phase order, so a fresh process, which makes its
    tables in whatever order its imports run, reads the same entries."""
    from strategies.random_play import RandomStrategy

    state = play_deal(make_game("knockout_whist", None, 3), [RandomStrategy()] * 3, 11).state
    script = ("import pickle, sys; state = pickle.load(sys.stdin.buffer);"
              " print(repr(state.log))")
    shown = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(state),
                           capture_output=True, check=True).stdout.decode()
    assert shown.strip() == repr(state.log)
