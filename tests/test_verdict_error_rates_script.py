"""benchmarks/verdict_error_rates.py, the script behind docs/statistics.md's simulated
error rates, runs every subcommand and prints a well-formed table (at a tiny size)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "verdict_error_rates.py"
RATE = re.compile(r"(-?[\d.]+)% \(\+-([\d.]+)\)")


def _script():
    spec = importlib.util.spec_from_file_location("verdict_error_rates", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("command", "rows", "extra"), [
    ("maximum", 3, []),
    ("maximum-knockout", 6, []),
    ("limits", 2, ["--cells=-2.5@5/30,4@0/100"]),
    ("wide", 5, []),
    ("stretch", 2, []),
    ("few", 3, []),
    ("holm", 2, []),
    ("alike", 4, []),
    ("alike-shares", 4, []),
])
def test_each_subcommand_prints_a_table_of_rates(command, rows, extra, capsys):
    _script().main([command, "--runs", "40", "--seed", "3", *extra])
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("|")))
    assert set(lines[header + 1]) <= set("|-")
    body = [line for line in lines[header + 2:] if line.startswith("|")]
    assert len(body) == rows, out
    columns = lines[header].count("|")
    for line in body:
        assert line.count("|") == columns, line
        rates = RATE.findall(line)
        assert rates, line
        for rate, error in rates:
            assert 0 <= float(rate) <= 100 and 0 <= float(error) <= 50, line
    assert out.rstrip().endswith("seed 3)")


def test_the_rare_loss_mix_has_the_skewness_asked_for():
    script = _script()
    for skewness in (-1.5, -2.5, -3.0, -4.0, 2.5):
        support, chances = script.rare_loss_mix(skewness)
        assert script.moments(support, chances)[2] == pytest.approx(skewness, abs=1e-6)
        assert abs(support).max() == (9 if abs(skewness) < 3 else 15)


def test_knockout_shares_have_the_mean_asked_for_and_their_own_spread():
    """The Knock-out duels of ``maximum-knockout`` draw shares of two games at each
    truth's Luce mean: beta-binomial ones as tests/test_sprt.py's, and duplicate-like ones
    whose spread at 1/2 is a real near-equal duel's (about 0.26)."""
    script = _script()
    grid = np.array([0.0, 0.5, 1.0])
    for mean in (0.5, 0.5072, 0.5144):
        over = script.beta_binomial_shares(2, mean)
        duplicate = script.tilted_shares(script.DUPLICATE_LIKE_SHARES, grid, mean)
        for chances in (over, duplicate):
            assert chances.sum() == pytest.approx(1.0)
            assert script.moments(grid, chances)[0] == pytest.approx(mean, abs=1e-9)
    assert script.moments(grid, script.beta_binomial_shares(2, 0.5))[1] == pytest.approx(
        0.395, abs=1e-3)
    assert script.moments(grid, script.DUPLICATE_LIKE_SHARES)[1] == pytest.approx(
        0.255, abs=1e-3)
