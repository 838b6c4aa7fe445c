"""Plackett-Luce ratings from finishing orders: the fit, intervals, ties, the report section.

Simulated orders come from known strengths by the Gumbel trick: sorting seats
by log-strength plus standard Gumbel noise draws a Plackett-Luce order.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import optimize

from tests.tournament_helpers import make_run_without_ray
from whist_sim.inference.plackett_luce import (
    CONFIDENCE,
    ELO_PER_LOGIT,
    plackett_luce,
    predicted_win_share,
)
from whist_sim.reports import analyses, finishing, stats
from whist_sim.reports.ratings_section import (
    TITLE,
    _reading_text,
    _sweep_text,
    _unplaced,
    multiplayer_ratings_section,
    predicted_vs_observed,
    swept_entrants,
)
from whist_sim.store import RunFolder

NAMES = ("A", "B", "C", "D", "E")
LINEUPS = ((0, 1, 0, 1), (0, 1, 2, 3), (1, 2, 3, 4), (0, 2, 4, 2), (4, 3, 4, 3), (0, 4, 0, 4))
"""Four-seat line-ups of entrants A..E, with repeats as a schedule makes them."""


def simulate_orders(rng: np.random.Generator, log_strength: np.ndarray, tables: int,
                    tables_per_deal: int = 3,
                    lineups: tuple[tuple[int, ...], ...] = LINEUPS) -> pl.DataFrame:
    """Finishing orders at random line-ups drawn from Plackett-Luce with ``log_strength``."""
    seats = np.array(lineups)[rng.integers(0, len(lineups), tables)]
    score = log_strength[seats] + rng.gumbel(size=seats.shape)
    place = (-score).argsort(axis=1).argsort(axis=1) + 1
    n = seats.shape[1]
    return pl.DataFrame({
        "unit": np.repeat(np.arange(tables), n),
        "deal": np.repeat(np.arange(tables) // tables_per_deal, n),
        "strategy": np.array(NAMES)[seats.ravel()],
        "place": place.ravel(),
    })


def centred_elo(log_strength: np.ndarray) -> dict[str, float]:
    elo = ELO_PER_LOGIT * (log_strength - log_strength.mean())
    return dict(zip(NAMES, elo, strict=False))


def orders_frame(orders: list[list[tuple[str, int]]], deals: list[int] | None = None
                 ) -> pl.DataFrame:
    """Finishing orders written by hand: one list of (strategy, place) per order."""
    deals = deals or list(range(len(orders)))
    return pl.DataFrame(
        [{"unit": u, "deal": deals[u], "strategy": s, "place": p}
         for u, order in enumerate(orders) for s, p in order],
        schema={"unit": pl.Int64, "deal": pl.Int64, "strategy": pl.String, "place": pl.Int64},
    )


def ratings_of(ratings: pl.DataFrame) -> dict[str, float]:
    return dict(ratings.select("strategy", "rating").iter_rows())


# -- the fit --------------------------------------------------------------------------------


def test_the_scale_and_level_are_those_of_the_bradley_terry_ratings():
    assert ELO_PER_LOGIT == stats.ELO_PER_LOGIT
    assert CONFIDENCE == stats.CONFIDENCE


def test_the_fit_recovers_known_strengths_at_four_seat_tables():
    log_strength = np.array([0.9, 0.4, 0.0, -0.3, -1.0])
    orders = simulate_orders(np.random.default_rng(1), log_strength, tables=4000)
    ratings = plackett_luce(orders, bootstrap=0)
    assert ratings["strategy"].to_list() == list(NAMES)
    true = centred_elo(log_strength)
    for name, rating in ratings_of(ratings).items():
        assert rating == pytest.approx(true[name], abs=20), name
    assert sum(ratings_of(ratings).values()) == pytest.approx(0, abs=1e-9)


def breslow_log_likelihood(theta: np.ndarray, orders: list[list[tuple[int, int]]],
                           prior: float) -> float:
    """The tied Plackett-Luce log-likelihood written out seat by seat, as the docstring states."""
    total = 0.0
    for order in orders:
        for _, place in order:
            chosen_from = [e for e, p in order if p >= place]
            if len(set(chosen_from)) > 1:
                chosen = [e for e, p in order if p == place]
                total += sum(theta[e] for e in chosen) / len(chosen) \
                    - math.log(sum(math.exp(theta[e]) for e in chosen_from))
    for a, b in itertools.combinations(range(len(theta)), 2):
        pair = math.log(math.exp(theta[a]) + math.exp(theta[b]))
        total += prior / 2 * (theta[a] - pair) + prior / 2 * (theta[b] - pair)
    return total


def test_the_fit_maximises_the_tied_likelihood_with_repeated_entrants():
    names = ("A", "B", "C")
    hand_made = [
        [(0, 1), (1, 2), (0, 3), (1, 4)],   # A B A B, all places apart
        [(0, 1), (1, 2), (0, 2), (1, 2)],   # A first, the rest tied
        [(1, 1), (1, 1), (0, 2), (2, 3)],   # B B tie for first
        [(2, 1), (0, 2), (1, 3), (2, 4)],
        [(0, 1), (0, 1), (2, 1), (1, 1)],   # everyone level
        [(2, 1), (1, 1), (0, 3)],           # a three-seat table
        [(1, 1), (0, 2), (2, 2), (0, 4)],
    ]
    frame = orders_frame([[(names[e], p) for e, p in order] for order in hand_made])
    ratings = ratings_of(plackett_luce(frame, bootstrap=0, prior=0.5))

    best = optimize.minimize(lambda t: -breslow_log_likelihood(np.append(t, 0.0), hand_made,
                                                              0.5), np.zeros(2), tol=1e-12)
    theta = np.append(best.x, 0.0)
    expected = ELO_PER_LOGIT * (theta - theta.mean())
    for name, value in zip(names, expected, strict=True):
        assert ratings[name] == pytest.approx(value, abs=0.01), name


def undecided_log_likelihood(theta: np.ndarray, orders: list[list[tuple[int, int]]]) -> float:
    """An undecided order written out: the log-chance that the winner was one of its seats
    at place 1, chosen from all its seats."""
    total = 0.0
    for order in orders:
        best = min(p for _, p in order)
        total += math.log(sum(math.exp(theta[e]) for e, p in order if p == best)) \
            - math.log(sum(math.exp(theta[e]) for e, _ in order))
    return total


def test_an_undecided_order_counts_only_that_its_winner_was_among_its_first_seats():
    names = ("A", "B", "C")
    decided = [
        [(0, 1), (1, 2), (2, 3)],
        [(1, 1), (0, 2), (2, 3)],
        [(2, 1), (0, 2), (1, 3)],
        [(0, 1), (2, 2), (1, 2)],
        [(0, 1), (1, 2), (0, 3), (2, 4)],
    ]
    undecided = [
        [(0, 1), (1, 1), (2, 3)],           # C forfeited: A or B would have won
        [(0, 1), (1, 1), (2, 3)],
        [(1, 1), (2, 1), (0, 3)],           # A forfeited
        [(0, 1), (0, 1), (1, 3)],           # B forfeited against A A: A won, as good as
        [(2, 1), (0, 1), (1, 1), (0, 4)],   # A A B C, one A forfeited
    ]
    frame = pl.concat([
        orders_frame([[(names[e], p) for e, p in order] for order in decided + undecided])
        .with_columns(undecided=pl.col("unit") >= len(decided)),
    ])
    ratings = ratings_of(plackett_luce(frame, bootstrap=0, prior=0.5))

    def minus_log_likelihood(t: np.ndarray) -> float:
        theta = np.append(t, 0.0)
        return -(breslow_log_likelihood(theta, decided, 0.5)
                 + undecided_log_likelihood(theta, undecided))

    best = optimize.minimize(minus_log_likelihood, np.zeros(2), tol=1e-12)
    theta = np.append(best.x, 0.0)
    expected = ELO_PER_LOGIT * (theta - theta.mean())
    for name, value in zip(names, expected, strict=True):
        assert ratings[name] == pytest.approx(value, abs=0.01), name


def test_games_stopped_by_forfeits_leave_the_others_gap_as_it_was():
    """Known strengths at three seats; C forfeits a third of the games at random. Marked
    undecided, they count against C alone: the `who wins` fit keeps A's and B's gap where
    the played games put it (at one line-up it splits the others' wins as they fell), the
    every-place fit moves it by a little, as C's lower strength is spread over the places
    it did reach (measured: 19 to 21 points over three seeds). Ranked as a tie for first,
    they pulled A and B together by 90 to 120 points (a probe of a real run)."""
    log_strength = np.array([1.2, 0.0, -0.3, 0.0, 0.0])
    rng = np.random.default_rng(11)
    orders = simulate_orders(rng, log_strength, tables=6000, lineups=((0, 1, 2),))
    stopped = pl.Series(np.repeat(rng.random(6000) < 1 / 3, 3))
    forfeited = orders.with_columns(
        undecided=stopped,
        place=pl.when(stopped).then(pl.when(pl.col("strategy") == "C").then(3).otherwise(1))
        .otherwise(pl.col("place")))
    true_gap = ELO_PER_LOGIT * (log_strength[0] - log_strength[1])
    for top in (None, 1):
        played = ratings_of(plackett_luce(orders.filter(~stopped), bootstrap=0, top=top))
        fitted = ratings_of(plackett_luce(forfeited, bootstrap=0, top=top))
        tied = ratings_of(plackett_luce(forfeited.drop("undecided"), bootstrap=0, top=top))
        assert played["A"] - played["B"] == pytest.approx(true_gap, abs=25), top
        assert fitted["A"] - fitted["B"] == pytest.approx(
            played["A"] - played["B"], abs=2 if top == 1 else 30), top
        assert fitted["B"] - fitted["C"] > played["B"] - played["C"], top
        assert tied["A"] - tied["B"] < true_gap - 60, top


def test_a_decided_order_with_an_undecided_flag_is_what_it_was():
    orders = simulate_orders(np.random.default_rng(5), np.array([0.5, 0.0, -0.5, 0, 0]),
                             tables=300, lineups=((0, 1, 2),))
    plain = plackett_luce(orders, bootstrap=20)
    flagged = plackett_luce(orders.with_columns(undecided=pl.lit(False)), bootstrap=20)
    assert flagged.equals(plain)


def test_symmetric_tied_orders_give_equal_ratings():
    frame = orders_frame([
        [("A", 1), ("B", 1), ("A", 2), ("B", 2)],
        [("A", 1), ("B", 2), ("A", 2), ("B", 1)],
        [("A", 1), ("B", 1), ("A", 1), ("B", 1)],
        [("B", 1), ("A", 2), ("B", 3), ("A", 3)],
        [("A", 1), ("B", 2), ("A", 3), ("B", 3)],
    ])
    ratings = ratings_of(plackett_luce(frame, bootstrap=50))
    assert ratings["A"] == pytest.approx(0, abs=1e-6)
    assert ratings["B"] == pytest.approx(0, abs=1e-6)


def test_a_strategy_that_always_wins_gets_a_finite_rating():
    rng = np.random.default_rng(3)
    orders = [[("champion", 1)] + [(name, 2 + int(rng.integers(0, 3))) for name in "xyz"]
              for _ in range(200)]
    ratings = plackett_luce(orders_frame(orders, [u // 2 for u in range(200)]), bootstrap=50)
    assert ratings["strategy"][0] == "champion"
    for column in ("rating", "rating_lo", "rating_hi"):
        assert ratings[column].is_finite().all(), column
    assert ratings["rating"][0] > 400  # far ahead, yet finite: the prior's doing


@pytest.mark.parametrize("tables", [20_000, 200_000])
def test_three_entrants_always_finishing_in_one_order_are_rated(tables):
    """Found by a probe: A first, B second and C third at every one of 20,000 tables, and
    Hunter's MM crept towards the far-apart maximum, still moving 3e-9 a step after
    100,000 steps; the fit raised "did not converge" and the report with it."""
    frame = pl.DataFrame({"unit": np.repeat(np.arange(tables), 3),
                          "deal": np.repeat(np.arange(tables), 3),
                          "strategy": np.tile(["A", "B", "C"], tables),
                          "place": np.tile([1, 2, 3], tables)})
    ratings = ratings_of(plackett_luce(frame, bootstrap=20))

    def log_likelihood(theta: np.ndarray) -> float:  # the orders' Breslow terms, counted
        a, b, c = theta
        orders = tables * (a - np.logaddexp.reduce(theta) + b - np.logaddexp(b, c))
        prior = sum(0.5 * (x - np.logaddexp(x, y)) + 0.5 * (y - np.logaddexp(x, y))
                    for x, y in itertools.combinations(theta, 2))
        return float(orders + prior)

    best = optimize.minimize(lambda t: -log_likelihood(np.append(t, 0.0)), np.zeros(2),
                             method="Nelder-Mead",
                             options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20_000})
    theta = np.append(best.x, 0.0)
    expected = ELO_PER_LOGIT * (theta - theta.mean())
    for name, value in zip("ABC", expected, strict=True):
        assert ratings[name] == pytest.approx(value, abs=0.05), name


def test_an_entrant_never_ahead_of_another_is_named_even_when_its_interval_has_width():
    """A probe's case: three entrants, one (C) last in every order it shared. Its rating is
    the prior's doing, yet the centred scale gives it the others' spread as width."""
    rng = np.random.default_rng(5)
    orders = []
    for _ in range(120):
        a_first = bool(rng.integers(0, 2))
        orders.append([("A", 1 if a_first else 2), ("B", 2 if a_first else 1), ("C", 3),
                       ("C", 3)])
    frame = orders_frame(orders, [u // 2 for u in range(120)])
    ratings = plackett_luce(frame, bootstrap=50)
    c = ratings.filter(pl.col("strategy") == "C").row(0, named=True)
    assert c["rating_hi"] - c["rating_lo"] >= 0.5  # the old width test missed it
    assert swept_entrants(frame) == {"never_ahead": ["C"], "never_behind": []}
    [text] = _sweep_text(frame, ratings)
    assert text.startswith("C never finished ahead of another entrant's seat")
    assert '"at most this much" and every gap to it' in text
    reading = _reading_text(ratings, "solo_whist", [4], _unplaced(frame))
    assert reading.endswith("These are lower bounds: C's rating is held by the prior alone"
                            " (above), so the true gap may be larger.")


@pytest.mark.parametrize(("game", "sizes"), [("minnesota_whist", [4]), ("solo_whist", [4])])
def test_the_gap_read_out_is_the_difference_of_the_ratings_as_shown(game, sizes):
    """394.4 and -717.6 are shown as 394 and -718: the gap is 1112, not 1111 (a probe; and
    Solo's 62.6 and -125.4, shown 63 and -125, read 187 for 188)."""
    for high, low, shown in ((394.4, -717.6, "1112"), (62.6, -125.4, "188")):
        ratings = pl.DataFrame({"strategy": ["h", "r"], "rating": [high, low]})
        reading = _reading_text(ratings, game, sizes)
        assert f"h is rated {shown} points above r" in reading


def test_the_gap_is_read_at_a_table_of_more_than_two_seats():
    """Knock-out Whist at `players = [2, 3, 5]` read the gap "at a table of 2 with one h
    seat and 1 r seats", repeating the two-seat chance (a probe); a run of two-seat
    tables only has no larger table to read it at."""
    ratings = pl.DataFrame({"strategy": ["h", "r"], "rating": [164.0, -91.0]})
    reading = _reading_text(ratings, "knockout_whist", [2, 3, 5])
    assert "at a table of 3 with one h seat and 2 r seats" in reading
    only_two = _reading_text(ratings, "knockout_whist", [2])
    assert "at a table of" not in only_two and only_two.endswith("%.")


def test_a_tie_is_neither_ahead_nor_behind_and_top_limits_the_places_read():
    frame = orders_frame([[("A", 1), ("B", 2), ("C", 3)], [("A", 1), ("C", 2), ("B", 2)]])
    # C tied B once and trailed it once: never ahead; B was ahead of C once
    assert swept_entrants(frame) == {"never_ahead": ["C"], "never_behind": ["A"]}
    # who wins (top 1): B and C were ahead of each other only from second place
    assert swept_entrants(frame, top=1) == {"never_ahead": ["B", "C"], "never_behind": ["A"]}
    level = orders_frame([[("A", 1), ("B", 1)], [("A", 2), ("B", 2)]])
    assert swept_entrants(level) == {"never_ahead": ["A", "B"], "never_behind": ["A", "B"]}


def test_first_place_shared_in_a_game_a_forfeit_stopped_is_not_a_win():
    """C forfeited both undecided games; B shared their first place with A and never won a
    game outright, so the fit's shares of those wins do not place it: B is never ahead
    (as C, which won nothing). A, first alone in one of them, is ahead of C."""
    frame = orders_frame([
        [("A", 1), ("B", 2), ("C", 3)],
        [("A", 1), ("B", 1), ("C", 3)],
        [("A", 1), ("A", 1), ("C", 3)],
        [("B", 1), ("A", 1), ("C", 3)],
    ]).with_columns(undecided=pl.col("unit") > 0)
    assert swept_entrants(frame, top=1) == {"never_ahead": ["B", "C"], "never_behind": ["A"]}
    assert swept_entrants(frame.with_columns(undecided=False), top=1) == {
        "never_ahead": ["C"], "never_behind": ["A"]}


def test_entrants_that_beat_and_lose_to_others_get_no_warning():
    rng = np.random.default_rng(7)
    frame = simulate_orders(rng, np.array([0.3, 0.0, -0.2, 0.1, -0.1]), 300)
    assert swept_entrants(frame) == {"never_ahead": [], "never_behind": []}
    assert _sweep_text(frame, plackett_luce(frame, bootstrap=50)) == []


def test_two_seat_orders_agree_with_bradley_terry():
    rng = np.random.default_rng(5)
    strength = {"solver": 0.6, "heuristic": 0.2, "random": -0.8}
    rows = []
    for deal in range(300):
        for pairing, (a, b) in enumerate(itertools.combinations(sorted(strength), 2)):
            for rotation in (0, 1):
                a_wins = rng.random() < 1 / (1 + math.exp(strength[b] - strength[a]))
                key = f"{pairing}-{deal}-{rotation}-0"
                for seat, name in enumerate((a, b) if rotation == 0 else (b, a)):
                    won = a_wins == (name == a)
                    rows.append({"deal_key": key, "pairing": pairing, "deal": deal,
                                 "rotation": rotation, "seat": seat, "strategy": name,
                                 "net": 2.0 if won else -2.0,
                                 "result": "win" if won else "loss"})
    seats = pl.LazyFrame(rows)
    pl_ratings = plackett_luce(finishing.german_whist_orders(seats).collect())
    bt_ratings = stats.bradley_terry(analyses.pairwise_results(seats).collect())
    joined = pl_ratings.join(bt_ratings, on="strategy", suffix="_bt")
    for row in joined.iter_rows(named=True):
        # the same model, the same prior and the same resamples: equal up to convergence
        for column in ("rating", "rating_lo", "rating_hi"):
            assert row[column] == pytest.approx(row[f"{column}_bt"], abs=0.05), row
        assert row["units"] == row["hands"]


def test_top_one_fits_the_share_of_first_places():
    orders = simulate_orders(np.random.default_rng(7), np.array([1.0, 0.0, 0.0, 0.0, 0.0]),
                             tables=3000, lineups=((0, 1, 0, 1),))
    winners = orders.filter(pl.col("place") == 1)["strategy"].value_counts()
    observed = dict(winners.iter_rows())["A"] / orders["unit"].n_unique()
    ratings = plackett_luce(orders, bootstrap=0, top=1)
    assert predicted_win_share(ratings, ["A", "B", "A", "B"])["A"] == pytest.approx(
        observed, abs=0.002)


def test_intervals_need_two_deal_indices_and_a_bootstrap():
    frame = orders_frame([[("A", 1), ("B", 2)], [("B", 1), ("A", 2)], [("A", 1), ("B", 2)]])
    one_deal = plackett_luce(frame.with_columns(deal=pl.lit(0, pl.Int64)))
    no_bootstrap = plackett_luce(frame, bootstrap=0)
    for ratings in (one_deal, no_bootstrap):
        assert ratings["rating_lo"].is_null().all() and ratings["rating_hi"].is_null().all()
    assert plackett_luce(frame)["rating_lo"].is_not_null().all()
    assert dict(plackett_luce(frame).select("strategy", "units").iter_rows()) == {"A": 3, "B": 3}


def test_bad_orders_are_refused_naming_the_problem():
    frame = orders_frame([[("A", 1), ("B", 2)]])
    with pytest.raises(ValueError, match="missing place"):
        plackett_luce(frame.drop("place"))
    with pytest.raises(ValueError, match="prior must be > 0"):
        plackett_luce(frame, prior=0)
    with pytest.raises(ValueError, match="spans several deal indices"):
        plackett_luce(frame.with_columns(deal=pl.Series([0, 1])))
    with pytest.raises(ValueError, match="undecided for some of its seats only"):
        plackett_luce(frame.with_columns(undecided=pl.Series([True, False])))


@pytest.mark.slow
def test_bootstrap_intervals_cover_the_true_strengths_95_percent_of_the_time():
    # Measured with these settings: 0.944 of 800 intervals (200 simulations x 4 entrants);
    # other seeds gave 0.938 to 0.944. 600 tables in 200 deal indices of three tables each.
    rng = np.random.default_rng(2026)
    log_strength = np.array([0.6, 0.1, -0.2, -0.5])
    lineups = ((0, 1, 0, 1), (0, 1, 2, 3), (1, 2, 3, 1), (2, 3, 2, 3), (0, 3, 0, 3))
    true = ELO_PER_LOGIT * (log_strength - log_strength.mean())
    covered = []
    for _ in range(200):
        orders = simulate_orders(rng, log_strength, tables=600, tables_per_deal=3,
                                 lineups=lineups)
        ratings = plackett_luce(orders, bootstrap=200, seed=int(rng.integers(1 << 31)))
        for row in ratings.iter_rows(named=True):
            value = true[NAMES.index(row["strategy"])]
            covered.append(row["rating_lo"] <= value <= row["rating_hi"])
    assert 0.90 <= np.mean(covered) <= 0.99, np.mean(covered)


def test_predicted_win_share_adds_up_over_seats_and_to_one():
    ratings = pl.DataFrame({"strategy": ["A", "B"], "rating": [400.0 / 2, -400.0 / 2]})
    shares = predicted_win_share(ratings, ["A", "B", "A", "B"])
    assert shares == pytest.approx({"A": 10 / 11, "B": 1 / 11})
    assert sum(predicted_win_share(ratings, ["B", "B", "A"]).values()) == pytest.approx(1)
    with pytest.raises(KeyError, match="no rating for C"):
        predicted_win_share(ratings, ["A", "C"])


# -- finishing orders, game by game ---------------------------------------------------------


def seat_rows(deal_key: str, nets: list[float], **extra: list) -> list[dict]:
    pairing, deal, rotation, _ = (int(x) for x in deal_key.split("-"))
    return [{"deal_key": deal_key, "pairing": pairing, "deal": deal, "rotation": rotation,
             "seat": seat, "strategy": f"s{seat}", "net": net,
             **{name: values[seat] for name, values in extra.items()}}
            for seat, net in enumerate(nets)]


def places(orders: pl.LazyFrame) -> dict[tuple[str, str], int]:
    return {(row["unit"], row["strategy"]): row["place"] for row in orders.collect().to_dicts()}


def solo_seat_rows(deal_key: str, nets: list[float], **extra: list) -> list[dict]:
    """A Solo hand's seats with the results their nets give (the top balance wins)."""
    results = ["win" if net > 0 else "draw" if net == 0 else "loss" for net in nets]
    return seat_rows(deal_key, nets, **{"result": results, **extra})


def test_solo_whist_orders_a_hand_by_net_and_ties_a_side():
    seats = pl.LazyFrame(solo_seat_rows("0-3-0-0", [9.0, -3.0, -3.0, -3.0])
                         + solo_seat_rows("0-3-1-0", [0.0, 0.0, 0.0, 0.0])
                         + solo_seat_rows("0-4-0-1", [2.0, -2.0, 2.0, -2.0]))
    orders = finishing.solo_whist_orders(seats)
    assert orders.collect_schema().names() == list(finishing.ORDER_COLUMNS)
    got = places(orders)
    assert [got["0-3-0-0", f"s{s}"] for s in range(4)] == [1, 2, 2, 2]
    assert [got["0-3-1-0", f"s{s}"] for s in range(4)] == [1, 1, 1, 1]
    assert [got["0-4-0-1", f"s{s}"] for s in range(4)] == [1, 3, 1, 3]
    assert orders.collect()["players"].unique().to_list() == [4]
    assert orders.collect().filter(pl.col("unit") == "0-4-0-1")["deal"].to_list() == [4] * 4
    assert not orders.collect()["undecided"].any()


def test_a_forfeited_solo_hand_is_undecided_with_the_forfeiting_seat_last():
    """B forfeits at A B A B: A's seats did not tie by playing level, and B's other seat,
    paid by the forfeit as A's are, is left out, as the verdict and head to head leave it:
    the order says only that the forfeiting seat did not win."""
    seats = pl.LazyFrame(solo_seat_rows(
        "0-5-0-0", [9.0, -27.0, 9.0, 9.0], strategy=["A", "B", "A", "B"],
        result=["win", "forfeit", "win", "win"]))
    orders = finishing.solo_whist_orders(seats).collect()
    assert orders.select("strategy", "place").rows() == [("A", 1), ("B", 4), ("A", 1)]
    assert orders["undecided"].all() and orders["players"].to_list() == [4, 4, 4]


def test_german_whist_orders_a_hand_by_net():
    seats = pl.LazyFrame(seat_rows("1-0-0-0", [-3.0, 3.0]) + seat_rows("1-0-1-0", [0.0, 0.0]))
    got = places(finishing.german_whist_orders(seats))
    assert (got["1-0-0-0", "s0"], got["1-0-0-0", "s1"]) == (2, 1)
    assert (got["1-0-1-0", "s0"], got["1-0-1-0", "s1"]) == (1, 1)


def test_minnesota_whist_orders_a_game_with_partners_tied():
    def game(rotation: int, results: list[str]) -> list[dict]:
        return [{"pairing": 0, "deal": 7, "rotation": rotation, "seat": seat,
                 "strategy": f"s{seat}", "hands_played": 5, "hands_won": 2,
                 "points": 13.0 if r == "win" else 8.0, "result": r}
                for seat, r in enumerate(results)]

    matches = pl.LazyFrame(game(0, ["win", "loss", "win", "loss"])
                           + game(1, ["draw", "draw", "draw", "draw"]))
    got = places(finishing.minnesota_whist_orders(matches))
    assert [got["0-7-0", f"s{s}"] for s in range(4)] == [1, 2, 1, 2]
    assert [got["0-7-1", f"s{s}"] for s in range(4)] == [1, 1, 1, 1]


def test_knockout_whist_orders_a_game_by_placing_and_a_forfeiter_last():
    seats = pl.LazyFrame(
        seat_rows("0-2-0-0", [3.0, -1.0, -1.0, -1.0], placing=[1, 2, 2, 4],
                  result=["win", "loss", "loss", "loss"])
        + seat_rows("0-2-1-0", [1.0, -3.0, 1.0, 1.0], placing=[None] * 4,
                    result=["draw", "forfeit", "draw", "draw"]))
    orders = finishing.knockout_whist_orders(seats)
    assert orders.collect_schema().names() == list(finishing.ORDER_COLUMNS)
    got = places(orders)
    assert [got["0-2-0-0", f"s{s}"] for s in range(4)] == [1, 2, 2, 4]
    assert [got["0-2-1-0", f"s{s}"] for s in range(4)] == [1, 4, 1, 1]
    undecided = dict(orders.group_by("unit").agg(pl.col("undecided").all()).collect()
                     .iter_rows())
    assert undecided == {"0-2-0-0": False, "0-2-1-0": True}


def test_a_table_of_benched_entrants_tells_the_fit_nothing():
    """Every seat forfeits where every entrant at the table was benched: all are last, so
    the undecided game's winner is among no seat, and the ratings are what they were."""
    played = seat_rows("0-1-0-0", [2.0, -1.0, -1.0], placing=[1, 2, 3],
                       result=["win", "loss", "loss"])
    benched = seat_rows("0-2-0-0", [0.0] * 3, placing=[None] * 3, result=["forfeit"] * 3)
    orders = finishing.knockout_whist_orders(pl.LazyFrame(played + benched)).collect()
    assert orders.filter(pl.col("unit") == "0-2-0-0")["place"].to_list() == [3, 3, 3]
    alone = finishing.knockout_whist_orders(pl.LazyFrame(played)).collect()
    assert plackett_luce(orders, bootstrap=0)["rating"].to_list() == pytest.approx(
        plackett_luce(alone, bootstrap=0)["rating"].to_list())


def test_observed_win_share_counts_a_forfeited_game_lost_by_its_forfeiter_alone():
    """As the verdict's share of games won: the seat that forfeited lost the game; the
    others, stopped before it had a winner, are left out."""
    def game(key: str, strategies: list[str], placing: list,
             results: list[str] | None = None) -> list[dict]:
        return [{**row, "strategy": name} for row, name in zip(seat_rows(
            key, [0.0] * len(strategies), placing=placing,
            result=results or ["win" if p == 1 else "loss" for p in placing]),
            strategies, strict=True)]

    seats = pl.LazyFrame(
        game("0-0-0-0", ["h", "r", "h", "r"], [1, 2, 3, 4])
        + game("0-1-0-0", ["h", "r", "h", "r"], [2, 1, 3, 3])
        + game("0-2-0-0", ["h", "r", "h", "r"], [None] * 4,
               ["draw", "forfeit", "draw", "draw"])
        + game("1-0-0-0", ["h", "r", "r"], [3, 1, 2]))
    shares = {(r["strategy"], r["players"]): r
              for r in finishing.observed_win_share(seats).collect().to_dicts()}
    assert (shares["h", 4]["games"], shares["h", 4]["wins"]) == (4, 1)
    assert (shares["r", 4]["games"], shares["r", 4]["wins"]) == (5, 1)
    assert shares["r", 4]["win_share"] == pytest.approx(0.2)
    assert shares["r", 3]["win_share"] == pytest.approx(0.5)
    assert shares["h", 3]["fair_share"] == pytest.approx(1 / 3)
    lineups = finishing.lineup_games(seats).collect().to_dicts()
    assert lineups == [
        {"players": 3, "lineup": ["h", "r", "r"], "strategy": "h", "seat_games": 1},
        {"players": 3, "lineup": ["h", "r", "r"], "strategy": "r", "seat_games": 2},
        {"players": 4, "lineup": ["h", "h", "r", "r"], "strategy": "h", "seat_games": 4},
        {"players": 4, "lineup": ["h", "h", "r", "r"], "strategy": "r", "seat_games": 5}]


def knockout_seats(orders: pl.DataFrame, stopped: pl.Series, forfeiting: pl.Expr
                   ) -> pl.DataFrame:
    """Knock-out seat rows from simulated ``orders`` (one table a deal index), the games
    flagged ``stopped`` forfeited by their seats where ``forfeiting`` holds."""
    return orders.select(
        pl.format("0-{}-0-0", "unit").alias("deal_key"), "deal", "strategy",
        pl.when(stopped).then(None).otherwise(pl.col("place")).alias("placing"),
        pl.when(stopped & forfeiting).then(pl.lit("forfeit"))
        .when(stopped).then(pl.lit("draw"))
        .when(pl.col("place") == 1).then(pl.lit("win")).otherwise(pl.lit("loss"))
        .alias("result"))


def who_wins_shares(seats: pl.DataFrame) -> pl.DataFrame:
    """The `who wins` fit's predicted share beside the observed one, as the section sets
    them."""
    observed, lineups = pl.collect_all([finishing.observed_win_share(seats.lazy()),
                                        finishing.lineup_games(seats.lazy())])
    fit = plackett_luce(finishing.knockout_whist_orders(seats.lazy()).collect(), bootstrap=0,
                        top=1)
    return predicted_vs_observed(fit, observed, lineups)


def test_the_who_wins_fit_predicts_the_verdicts_share_of_a_forfeiter():
    """C forfeits a third of its games at one line-up: the `who wins` fit counts them lost
    by C alone, so its predicted share is C's share of every game it sat in (the verdict's),
    and A's and B's split the rest as their wins fell."""
    rng = np.random.default_rng(4)
    orders = simulate_orders(rng, np.array([1.0, 0.0, -0.2, 0.0, 0.0]), tables=3000,
                             tables_per_deal=1, lineups=((0, 1, 2),))
    stopped = pl.Series(np.repeat(rng.random(3000) < 1 / 3, 3))
    seats = knockout_seats(orders, stopped, pl.col("strategy") == "C")
    shares = {row["strategy"]: row for row in who_wins_shares(seats).iter_rows(named=True)}
    c = shares["C"]
    assert c["games"] == 3000 and c["wins"] == (seats["placing"] == 1).filter(
        seats["strategy"] == "C").sum()
    assert c["predicted"] == pytest.approx(c["win_share"], abs=0.002)
    a, b = shares["A"], shares["B"]
    assert a["predicted"] / b["predicted"] == pytest.approx(a["wins"] / b["wins"], rel=0.01)


def test_a_forfeiter_holding_two_seats_is_predicted_the_verdicts_share_too():
    """B, holding two seats of A B A B, forfeits a third of the games from its first seat:
    its other seat is left out of the stopped game's order as the verdict leaves it out of
    the share, so the fit predicts B close to what it won of its counted seat-games
    (measured over seeds 8-10: 0.005 below it, as a stopped game is a choice among three
    seats where the prediction is at four). Ranked last with the forfeiter, that seat
    counted each forfeit twice: 0.025 below (a probe's run: 0.017 predicted, 0.025 won)."""
    rng = np.random.default_rng(8)
    orders = simulate_orders(rng, np.array([0.5, 0.0, 0.0, 0.0, 0.0]), tables=3000,
                             tables_per_deal=1, lineups=((0, 1, 0, 1),))
    stopped = pl.Series(np.repeat(rng.random(3000) < 1 / 3, 4))
    first_b_seat = pl.lit(pl.Series(np.tile([False, True, False, False], 3000)))
    b = who_wins_shares(knockout_seats(orders, stopped, first_b_seat)).filter(
        pl.col("strategy") == "B").row(0, named=True)
    assert b["games"] == 2 * 3000 - int(stopped.sum()) // 4
    assert b["predicted"] == pytest.approx(b["win_share"], abs=0.01)


# -- real runs and the report section -------------------------------------------------------

KNOCKOUT = """
[tournament]
game = "knockout_whist"
deals = {deals}
seed = 7
players = {players}
[[strategies]]
use = "random"
[[strategies]]
use = "heuristic"
"""


@pytest.fixture(scope="module")
def knockout_run(tmp_path_factory: pytest.TempPathFactory) -> RunFolder:
    """300 games of random against heuristic at four seats (A B A B), each in two seatings."""
    run = make_run_without_ray(tmp_path_factory.mktemp("knockout"),
                               KNOCKOUT.format(deals=300, players=4), per_task=50)
    return RunFolder.open(run)


def test_knockout_ratings_of_who_wins_agree_with_the_games_won(knockout_run: RunFolder):
    seats = knockout_run.scan("seats")
    orders = finishing.knockout_whist_orders(seats).collect()
    observed, lineups = pl.collect_all(
        [finishing.observed_win_share(seats), finishing.lineup_games(seats)])
    winners = predicted_vs_observed(plackett_luce(orders, top=1), observed, lineups)
    # Measured: heuristic predicted 0.438, won 0.438 of its player-games [0.425, 0.452];
    # random 0.062 and 0.062. With one line-up the fit of who wins nearly reproduces the
    # shares by construction; the two-size test below is the harder check.
    for row in winners.iter_rows(named=True):
        assert row["predicted"] == pytest.approx(row["win_share"], abs=0.02), row
    # Every place shows a smaller gap: the early rounds knock players out by luck more than
    # by play (measured: the full order predicts 0.347 for heuristic, 0.153 for random).
    whole = predicted_vs_observed(plackett_luce(orders), observed, lineups)
    best = whole.filter(pl.col("strategy") == "heuristic").row(0, named=True)
    assert best["fair_share"] < best["predicted"] < best["win_share"]


@pytest.mark.slow
def test_one_strength_predicts_the_games_won_at_two_table_sizes(tmp_path: Path):
    folder = RunFolder.open(make_run_without_ray(
        tmp_path, KNOCKOUT.format(deals=100, players="[4, 7]"), per_task=50))
    seats = folder.scan("seats")
    orders = finishing.knockout_whist_orders(seats).collect()
    observed, lineups = pl.collect_all(
        [finishing.observed_win_share(seats), finishing.lineup_games(seats)])
    shares = predicted_vs_observed(plackett_luce(orders, top=1), observed, lineups)
    # Measured: at 4 seats heuristic 0.419 predicted, 0.438 [0.413, 0.462] won; random 0.081,
    # 0.063 [0.038, 0.087]; at 7 seats heuristic 0.238 and 0.237, random 0.047 and 0.049.
    assert sorted(shares["players"].unique().to_list()) == [4, 7]
    for row in shares.iter_rows(named=True):
        assert row["win_share_lo"] <= row["predicted"] <= row["win_share_hi"], row


SOLO = """
[tournament]
game = "solo_whist"
deals = 6
seed = 3
[variant]
session_hands = 3
[[strategies]]
use = "random"
[[strategies]]
use = "heuristic"
"""

MINNESOTA = """
[tournament]
game = "minnesota_whist"
deals = 8
seed = 5
[[strategies]]
use = "random"
[[strategies]]
use = "heuristic"
"""


def ratings_table(section_tables: list, caption: str) -> dict[str, list[str]]:
    table = next(t for t in section_tables if t.caption.startswith(caption))
    return {row[0]: row for row in table.rows}


@pytest.mark.parametrize(("game", "config", "units"), [
    ("solo_whist", SOLO, "hands"),
    ("minnesota_whist", MINNESOTA, "games"),
])
def test_the_section_rates_each_strategy_of_a_real_run(tmp_path: Path, game: str, config: str,
                                                      units: str):
    folder = RunFolder.open(make_run_without_ray(tmp_path, config))
    [section] = multiplayer_ratings_section(folder, tmp_path)
    assert section.title == TITLE
    rows = ratings_table(section.tables, "Plackett-Luce ratings")
    assert set(rows) == {"random", "heuristic"}
    table = next(t for t in section.tables if t.caption.startswith("Plackett-Luce ratings"))
    assert table.header[-1] == units
    orders = (finishing.solo_whist_orders(folder.scan("seats")) if game == "solo_whist"
              else finishing.minnesota_whist_orders(folder.scan("matches")))
    played = orders.select(pl.col("unit").n_unique()).collect().item()
    assert {int(row[2]) for row in rows.values()} == {played}  # both sit at every table
    ratings = [float(row[1].split(" ")[0]) for row in rows.values()]
    assert sum(ratings) == pytest.approx(0, abs=1)


def test_the_knockout_section_sets_predicted_beside_observed(knockout_run: RunFolder,
                                                             tmp_path: Path):
    [section] = multiplayer_ratings_section(knockout_run, tmp_path)
    table = next(t for t in section.tables if t.caption.startswith("Knock-out Whist"))
    observed = finishing.observed_win_share(knockout_run.scan("seats")).collect()
    assert len(table.rows) == observed.height
    col = {name: i for i, name in enumerate(table.header)}
    for row in table.rows:
        truth = observed.filter(pl.col("strategy") == row[col["strategy"]]).row(0, named=True)
        assert row[col["observed [95% CI]"]].startswith(f"{truth['win_share']:.3f}")
        assert float(row[col["fair share"]]) == pytest.approx(0.25)
        assert float(row[col["predicted (who wins)"]]) == pytest.approx(truth["win_share"],
                                                                        abs=0.02)


def test_other_games_get_no_section(tmp_path: Path):
    body = KNOCKOUT.format(deals=1, players=2).replace("knockout_whist", "german_whist") \
        .replace("players = 2\n", "")
    folder = RunFolder.open(make_run_without_ray(tmp_path, body))
    assert multiplayer_ratings_section(folder, tmp_path) == []


def test_the_ties_are_counted_over_the_orders_a_forfeit_did_not_stop():
    """A probe: "Of 200 games, 30 (15.0%) had a tie" counted over every game, where 127 were
    stopped by a forfeit and have no order: 30 of the 73 played out had one."""
    from whist_sim.reports.ratings_section import _ties_text

    played = [[1, 2, 2], [1, 2, 3], [1, 1, 3], [1, 2, 3]]
    orders = pl.DataFrame({
        "unit": [u for u in range(6) for _ in range(3)],
        "place": [p for order in played for p in order] + [1, 1, 3] * 2,
        "undecided": [False] * 12 + [True] * 6,
    })
    assert _ties_text(orders, "games").startswith(
        "Of 6 games, 2 (33.3%) were stopped by a forfeit and have no order, so no tie: each"
        " is one event of the fit, as said above. Of the 4 played out, 2 (50.0%) had a tie"
        " somewhere in the order, 1 (25.0%) several seats tied for first, and 0 (0.0%)"
        " every seat level.")
    stopped = orders.filter(pl.col("undecided"))
    assert _ties_text(stopped, "games") == (
        "Every one of the 2 games was stopped by a forfeit: none has an order, and each is"
        " one event of the fit, as said above.")


def test_the_tie_count_groups_thousands_as_every_other_count_does():
    """A probe: a Knock-out run of 1,440 games read "Of 1440 games, 1376 (95.6%) had a tie"
    where its Run section read "1,440"."""
    from whist_sim.reports.ratings_section import _ties_text

    orders = pl.DataFrame({"unit": [u for u in range(1440) for _ in range(2)],
                           "place": [1, 1] * 1376 + [1, 2] * 64})
    text = _ties_text(orders, "games")
    assert text.startswith("Of 1,440 games, 1,376 (95.6%) had a tie somewhere"), text
