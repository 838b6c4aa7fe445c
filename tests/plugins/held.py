"""A strategy that holds a run mid-way, so a test can interrupt it at a known point.

A test that interrupts a run once a few tasks are committed raced the run: under load
(two test processes on two cores) the workers played all 90 tasks before the test saw
three, and the interrupted run ended ``complete``. ``Held`` plays as ``random`` does, and
when ``WHIST_SIM_HOLD_AFTER`` is set, once its process has begun that many seat-hands of
``Held`` entrants (a hand of two ``Held`` seats counts twice) it waits at its next first
decision of a hand for as long as the process lives: the run cannot finish, whatever the
load, until it is interrupted; a file named after the process's id in the folder
``WHIST_SIM_HOLD_NOTES`` says it holds. Unset (a resume, a reference run), it is
``random``, with the same rows.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from random import Random
from typing import Any

from strategies.random_play import RandomStrategy

HOLD_AFTER = "WHIST_SIM_HOLD_AFTER"
HOLD_NOTES = "WHIST_SIM_HOLD_NOTES"


class Held(RandomStrategy):
    """``random``, holding when asked to once its process has begun enough hands."""

    games = frozenset({"german_whist"})
    hands_begun = 0  # in this process: Ray reuses a worker's process across tasks

    def choose(self, view: Any, rng: Random) -> int:
        hold_after = os.environ.get(HOLD_AFTER)
        if hold_after and not view.tricks and len(view.trick) <= 1 and view.legal:
            Held.hands_begun += 1
            if Held.hands_begun > int(hold_after):
                Path(os.environ[HOLD_NOTES], str(os.getpid())).touch()
                while True:
                    time.sleep(0.05)  # until the run's interruption ends this process
        return super().choose(view, rng)
