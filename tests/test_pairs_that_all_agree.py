"""Net-margin pairs that all agree, read against the game's largest net.

A normal model has no spread to scale such pairs by: a Solo entrant that forfeited every
hand, the same margin in every pair, was never decided however long the duel, and the
report advised a longer run. A pair value lies within the variant's ``largest_net`` of 0,
and that bound alone limits how often n pairs can all lie beyond a mean they do not
have: these tests hold the duel's test, its fixed-sample twin and the verdict's
comparison to it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.inference.estimate import summarise
from whist_sim.inference.pair_models import FLAT_SPEND, flat_llr, model_for
from whist_sim.inference.settings import SprtError, SprtSettings
from whist_sim.inference.sprt import (
    fixed_verdict,
    flat_net_bounds,
    flat_pairs_needed,
    sequential_verdict,
)
from whist_sim.reports.multiplicity import p_value

SOLO = 24.0
"""Solo Whist's largest net by default: a forfeit, three times Abundance Declared's 8."""


def _solo(largest: float | None = SOLO):
    return model_for("solo_whist", 4, 2, 4, largest_net=largest)


@settings(max_examples=200, deadline=None)
@given(largest=st.floats(1.0, 100.0), share=st.floats(0.05, 0.95),
       mean0=st.floats(-0.5, 0.5))
def test_pairs_all_beyond_h0_accept_h1_no_more_often_than_alpha_allows(largest, share,
                                                                       mean0):
    """The worst distribution for a bound: values at -M and at c only, with mean
    ``mean0`` (H0's edge). n pairs all at c come with chance ((M + mean0) / (M + c))^n,
    and the test accepts H1 only once that is at most half alpha / (1 - beta), Wald's
    rate: the half of alpha such pairs spend (``FLAT_SPEND``)."""
    mean0 = mean0 * largest
    c = mean0 + share * (largest - mean0)
    s = SprtSettings.parse(f"net0={mean0!r} net1={c!r}")
    chance = (largest + mean0) / (largest + c)
    rate = FLAT_SPEND * s.alpha / (1 - s.beta)
    for n in range(2, 800):
        if flat_llr(n, c, largest, mean0, c) >= s.upper:  # H1's mean c: against H0 only
            assert chance**n <= rate * (1 + 1e-9)
            assert n == 2 or chance ** (n - 1) > rate * (1 - 1e-9)  # and no later
            break
    else:
        pytest.fail(f"{n} pairs at {c} never accepted H1")


def test_the_bounds_of_pairs_all_alike_hold_at_the_worst_distribution():
    """The one-sided lower bound of n pairs all at c is the mean at which they come with
    chance alpha (the half such pairs spend); the upper, mirrored, with chance beta."""
    lower, upper = flat_net_bounds(16.0, 10, SOLO, 0.05, 0.05)
    assert ((SOLO + lower) / (SOLO + 16.0)) ** 10 == pytest.approx(0.025)
    assert ((SOLO - upper) / (SOLO - 16.0)) ** 10 == pytest.approx(0.025)
    assert lower < 16.0 < upper <= SOLO


def test_a_duel_whose_pairs_all_agree_now_decides():
    """+16 units in every pair (a forfeiting B): decided for A within a handful of pairs,
    and no sooner than the bound allows."""
    s = SprtSettings.parse("elo0=0 elo1=5")
    needed = flat_pairs_needed(16.0, SOLO, 0.0, 0.0, s.alpha, s.beta)
    assert needed == 8  # (24 / 40)^8 = 0.017 <= 2.5%, (24 / 40)^7 = 0.028 is not
    assert sequential_verdict(_solo(), s, [16.0] * 8, finished=False).decision == "H1"
    assert sequential_verdict(_solo(), s, [16.0] * 7, finished=False).decision == "continue"
    assert fixed_verdict(_solo(), s, [16.0] * 8).decision == "H1"
    assert fixed_verdict(_solo(), s, [16.0] * 7).decision == "inconclusive"
    decided = sequential_verdict(_solo(), s, [-8.0] * 13, finished=False)
    assert decided.decision == "H0" and decided.as_dict()["largest_net"] == SOLO
    assert sequential_verdict(_solo(), s, [-8.0, -7.0] * 7, finished=False).as_dict()[
        "largest_net"] is None  # pairs that differ are the normal model's
    assert sequential_verdict(_solo(), s, [-8.0] * 12, finished=False).decision == "continue"


def test_without_a_bound_pairs_that_all_agree_still_move_no_test():
    s = SprtSettings.parse("elo0=0 elo1=5")
    assert sequential_verdict(_solo(None), s, [16.0] * 500, finished=True).decision == (
        "inconclusive")


def test_in_normalised_elo_pairs_all_at_zero_tell_nothing_but_within_net_bounds_they_do():
    """Two strategies that end every hand alike: in normalised Elo, H1's mean shrinks
    with an sd the pairs do not show, so no number of pairs at 0 tells against it; with
    hypotheses in points (net0, net1) they do."""
    elo = SprtSettings.parse("elo0=0 elo1=5")
    assert _solo().llr(np.zeros(10_000), elo) == 0.0
    net = SprtSettings.parse("net0=0 net1=1")
    needed = flat_pairs_needed(0.0, SOLO, 0.0, 1.0, net.alpha, net.beta)
    assert needed == math.floor(math.log(net.beta / 2) / math.log(23 / 24)) + 1 == 87
    assert fixed_verdict(_solo(), net, np.zeros(87)).decision == "H0"
    assert fixed_verdict(_solo(), net, np.zeros(86)).decision == "inconclusive"
    # Wald's bound, log(beta / (1 - alpha)), a little inside log(beta): one pair sooner
    assert sequential_verdict(_solo(), net, np.zeros(86), finished=False).decision == "H0"
    assert sequential_verdict(_solo(), net, np.zeros(85), finished=False).decision == (
        "continue")


def test_the_verdicts_comparison_of_deals_all_alike_is_tested_against_the_bound():
    """Two-sided: twice the chance of n deals all at 16 under a mean of 0, at half the
    level (``FLAT_SPEND``)."""
    assert p_value(np.full(12, 16.0), 0.0, False, SOLO) == pytest.approx(4 * 0.6**12)
    assert p_value(np.full(3, 16.0), 0.0, False, SOLO) == pytest.approx(4 * 0.6**3)
    assert math.isnan(p_value(np.full(12, 16.0), 0.0, False))  # no bound: no test


def test_pairs_that_agree_to_the_last_bit_have_no_spread():
    """0.1 three times has a mean of 0.10000000000000002 and an sd of 1.7e-17 in
    floating point, which read as a spread: they agree, and their sd is 0."""
    estimate = model_for("solo_whist", 4, 2, 4, largest_net=2.4).estimate([0.1] * 3)
    assert estimate.sd == 0.0 and estimate.mean == 0.1
    assert summarise([0.1, 0.1], fair_mean=0.0, elo_of=lambda m, s: 0.0, unit="u",
                     mean_unit="u").sd == 0.0


@pytest.mark.parametrize(("hypotheses", "said"), [
    ("net0=30 net1=40", "net0 = 30 and net1 = 40"),
    ("net0=0 net1=24", "net1 = 24"),
    ("net0=-25 net1=0", "net0 = -25"),
    ("net0=-24.0000001 net1=0", "net0 = -24.0000001"),  # not "-24", read as the end
])
def test_hypotheses_no_pair_value_can_reach_are_refused(hypotheses, said):
    """A mean net margin lies within the largest net of 0; net1 = 40 in Solo Whist, where
    no seat wins more than 24 units a hand, asks for an entrant no play can make. The
    fixed-sample test read pairs that all agreed as H0 at once, the SPRT never moved,
    and its duel ended "inconclusive": the two disagreed on one question (a review)."""
    with pytest.raises(SprtError) as refused:
        SprtSettings.parse(hypotheses).check_model(_solo(), "duel: --sprt")
    message = str(refused.value)
    for fragment in ("duel: --sprt", said, "24 units", "between -24 and 24"):
        assert fragment in message, message


def test_hypotheses_within_the_largest_net_or_without_one_are_taken():
    SprtSettings.parse("net0=-23.5 net1=23.5").check_model(_solo(), "duel")
    SprtSettings.parse("net0=30 net1=40").check_model(_solo(None), "duel")
    SprtSettings.parse("elo0=0 elo1=5").check_model(_solo(), "duel")


@pytest.mark.parametrize(("hypotheses", "value", "pairs", "decision"), [
    ("net0=0 net1=20", 0.25, 3, "H0"),      # far nearer H0's mean than H1's
    ("net0=20 net1=23", 22, 8, "H0"),       # above H0's, yet H1's at 23 of 24 is far off
    ("net0=0 net1=2", 1, 90, "H0"),         # both readings cross; against H1 the stronger
    ("net0=-1 net1=1", 0, 200, "inconclusive"),  # midway: as far from either
])
def test_pairs_all_between_the_hypotheses_are_read_against_both(hypotheses, value, pairs,
                                                                decision):
    """Pairs all at a value above H0's mean and below H1's tell against both. The SPRT
    read them against H0 only: 3 pairs at 0.25 units with net0 = 0, net1 = 20 stayed
    "inconclusive" where the fixed-sample test accepted H0, 90 at 1 with net0 = 0,
    net1 = 2 accepted H1 where it accepted H0, and two entrants that always tie, 200
    pairs at 0, were "stronger by at least 1" with net0 = -1, net1 = 1 (a review)."""
    s = SprtSettings.parse(hypotheses)
    x = [value] * pairs
    assert sequential_verdict(_solo(), s, x, finished=True).decision == decision
    assert fixed_verdict(_solo(), s, x).decision == decision


@settings(max_examples=300, deadline=None)
@given(low=st.floats(-0.95, 0.9), gap=st.floats(0.01, 0.9), value=st.floats(-1.0, 1.0),
       pairs=st.integers(2, 400), alpha=st.floats(0.01, 0.3), beta=st.floats(0.01, 0.3))
def test_the_sprt_and_the_fixed_sample_test_never_contradict_each_other_on_pairs_alike(
        low, gap, value, pairs, alpha, beta):
    """On pairs that all agree, read against the largest net, one test's H1 is never the
    other's H0, whatever the hypotheses (within the bound) and the error rates."""
    net0 = low * SOLO
    net1 = min(net0 + gap * SOLO, 0.95 * SOLO)
    s = SprtSettings.parse(f"net0={net0!r} net1={net1!r} alpha={alpha!r} beta={beta!r}")
    x = [value * SOLO] * pairs
    decisions = {sequential_verdict(_solo(), s, x, finished=True).decision,
                 fixed_verdict(_solo(), s, x).decision}
    assert decisions != {"H0", "H1"}


@pytest.mark.parametrize(("pairs", "where"), [(20, "take in both"), (200, "lie between")])
def test_pairs_midway_between_symmetric_hypotheses_are_said_never_to_decide(pairs, where):
    """Pairs all at 0 with net0 = -1, net1 = 1 tell against both alike: no number of them
    decides. The fixed-sample test's text said "more pairs are needed, beyond the 87 a
    fixed-sample test of these hypotheses needs, ..., as the pairs are skewed and the
    skewness guard widened their bounds" (a review)."""
    s = SprtSettings.parse("net0=-1 net1=1")
    assert flat_pairs_needed(0.0, SOLO, -1.0, 1.0, s.alpha, s.beta) == math.inf
    text = fixed_verdict(_solo(), s, [0.0] * pairs).text("A", "B")
    assert where in text
    assert ("pairs all at this margin tell against the two alike, so no number of them"
            " decides between them") in text
    assert "more pairs are needed" not in text and "skewness guard" not in text


def test_pairs_between_the_hypotheses_need_the_fewer_of_the_two_sides():
    """Pairs all at 1 with net0 = 0, net1 = 2: against H1 (M - 1) / (M - 2) a pair, 83
    pairs at half of 5%; against H0 (M + 1) / M, 91."""
    assert flat_pairs_needed(1.0, SOLO, 0.0, 2.0, 0.05, 0.05) == 83
    assert flat_pairs_needed(1.0, SOLO, 0.0, 20.0, 0.05, 0.05) < 83
    x = [1.0] * 82
    s = SprtSettings.parse("net0=0 net1=2")
    assert fixed_verdict(_solo(), s, x).decision == "inconclusive"
    assert fixed_verdict(_solo(), s, [*x, 1.0]).decision == "H0"
