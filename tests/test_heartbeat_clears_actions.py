"""The heartbeat keeps no action of an earlier hand: a bot that opens the supervisor's
descriptor through /proc must not find the rest of the last hand behind the current one."""

from whist_sim.tournament.sandbox import HEADER, Heartbeat


def _record_hand(beat: Heartbeat, hand: int, actions: list[int]) -> None:
    beat.hand_started(hand)
    for action in actions:
        beat.deciding(0)
        beat.decided(action)


def test_a_new_hand_leaves_no_action_of_the_last_one() -> None:
    beat = Heartbeat.create()
    try:
        beat.match_started(0, 0, 0)
        _record_hand(beat, 0, list(range(1, 53)))
        _record_hand(beat, 1, [7, 9])
        assert list(beat.slots[HEADER:HEADER + 60]) == [7, 9] + [0] * 58
    finally:
        beat.close()


def test_reset_leaves_no_action_of_the_last_hand() -> None:
    beat = Heartbeat.create()
    try:
        beat.match_started(0, 0, 0)
        _record_hand(beat, 0, [5, 6, 7])
        beat.reset()
        assert list(beat.slots[HEADER:HEADER + 3]) == [0, 0, 0]
    finally:
        beat.close()
