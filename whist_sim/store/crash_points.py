"""Named moments of a commit or a compaction at which a test can kill the writer.

A run folder promises that a writer killed at any moment leaves only committed
states behind. "Any moment" is tested, not argued: the writer passes through the
points below, and a test that sets ``WHIST_SIM_KILL_AT`` to one of them (``NAME``,
or ``NAME#N`` for its N-th pass) gets the process killed there with SIGKILL, exactly
as ``kill -9`` would. Unset (always, outside tests) a point costs one dictionary lookup.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

KILL_AT = "WHIST_SIM_KILL_AT"

CRASH_POINTS = (
    "commit:staging",      # some of the task's files written, in .staging/
    "commit:staged",       # every file written, the unit not yet in .units/
    "commit:unit",         # the unit in .units/, no snapshot names it yet
    "commit:linking",      # the new snapshot half built, in .staging/
    "commit:snapshot",     # the new snapshot in .snapshots/, data/ still shows the old one
    "commit:swapped",      # data/ shows the new snapshot, the old one not yet removed
    "commit:done",         # the commit finished
    "compact:staging",     # part of the batch written, in .staging/
    "compact:staged",      # the batch written, not yet in .units/
    "compact:unit",        # the batch in .units/, no snapshot names it yet
    "compact:linking",
    "compact:snapshot",
    "compact:swapped",     # data/ shows the batch instead of its tasks
    "compact:done",        # the compaction finished (its tasks retired, kept for readers)
)
"""Every point, in the order a commit and then a compaction pass them."""

_passes: Counter[str] = Counter()


def crash_point(name: str) -> None:
    """Die here, like ``kill -9``, if ``WHIST_SIM_KILL_AT`` names this point (and pass)."""
    wanted = os.environ.get(KILL_AT)
    if not wanted:
        return
    point, _, nth = wanted.partition("#")
    if point != name:
        return
    _passes[name] += 1
    if _passes[name] == int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)
