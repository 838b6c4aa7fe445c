"""The compiled readings of a task's log (``trick_kernels``) give the NumPy readings' rows.

The same tasks, with forfeits and partial tricks, every game whose tricks are read off
the log and every German variant whose facts are read by arrays, recorded once each way:
the ``tricks`` tables must be equal, and so every other table (they do not depend on it).
"""

from __future__ import annotations

import polars as pl
import pytest

from tests.test_recording import _spec
from whist_sim.tournament import recording
from whist_sim.tournament.worker import play_task

CASES = [
    ("german_whist", {}, ("random", "heuristic")),
    ("german_whist", {"trumps": "none"}, ("heuristic", "random")),
    ("german_whist", {"race_to": 5}, ("random", "random")),
    ("german_whist", {"count": "weighted"}, ("tests.plugins.faulty:RaisesOnTrick5", "random")),
    ("solo_whist", {}, ("tests.test_recording:RaisesSometimes", "heuristic")),
    ("minnesota_whist", {}, ("random", "tests.test_recording:RaisesSometimes")),
]


@pytest.mark.parametrize(("game", "variant", "uses"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2][0]}" for c in CASES])
def test_compiled_readings_equal_the_numpy_readings(monkeypatch, game, variant, uses):
    spec = _spec(game, variant, None, uses)
    monkeypatch.setattr(recording, "use_compiled", True)
    compiled = play_task(spec).tables
    monkeypatch.setattr(recording, "use_compiled", False)
    reference = play_task(spec).tables
    assert pl.from_arrow(reference["tricks"]).height > 0
    for table in reference:
        a, b = pl.from_arrow(compiled[table]), pl.from_arrow(reference[table])
        if table == "actions":
            a, b = a.drop("seconds"), b.drop("seconds")
        assert compiled[table].schema == reference[table].schema, table
        assert a.equals(b), table


def test_a_process_switches_to_the_kernels_after_enough_hands(monkeypatch):
    """Short runs never wait for numba (here: as if it were not loaded); a long one
    switches once it has recorded enough hands."""
    monkeypatch.setattr(recording, "_recorded", [0])
    monkeypatch.delitem(recording.sys.modules, "numba", raising=False)
    half = recording.COMPILED_AFTER_HANDS // 2
    assert not recording.compiled_readings(half)
    assert recording.compiled_readings(half)
