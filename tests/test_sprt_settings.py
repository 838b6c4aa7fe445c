"""A sequential test's settings: every problem of the ones given is named at once."""

from __future__ import annotations

import pytest

from whist_sim.inference.settings import SprtError, SprtSettings


def test_every_problem_of_the_settings_is_named_at_once():
    with pytest.raises(SprtError) as raised:
        SprtSettings.parse("elo0=10 elo1=0 alpha=2 beta=0.7 bach=5")
    lines = str(raised.value).splitlines()
    assert any("unknown key 'bach'" in line for line in lines)
    assert any("alpha = 2 is not allowed" in line for line in lines)
    assert any("beta = 0.7 is not allowed" in line for line in lines)
    assert any("elo0 = 10 must be below elo1 = 0" in line for line in lines)


def test_a_value_that_is_no_number_is_not_blamed_twice():
    """``elo0=x`` is refused as no number; its pair is not then said to miss elo0."""
    with pytest.raises(SprtError) as raised:
        SprtSettings.parse("elo0=x elo1=0")
    assert "not a number" in str(raised.value) and "missing" not in str(raised.value)
