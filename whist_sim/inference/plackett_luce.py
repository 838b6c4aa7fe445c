"""Plackett-Luce ratings from finishing orders, with ties and repeated entrants, on the Elo scale.

Why not Bradley-Terry on every pair of seats: at a table of n seats a
finishing order holds at most n - 1 choices ("who comes first of the n, then
first of the rest, ..."), not n(n - 1)/2 independent duels. Splitting it into
duels counts each order many times over, and where the score only tells the
winner from the rest (Knock-out Whist's net) every two losers become a drawn
duel, 15 of the 21 duels at seven seats, which pull the ratings together: a
6.5x difference in games won then reads as a gap of under 80 Elo points.
Plackett-Luce models the order itself: entrant k has a strength gamma_k, and
each place is filled by choosing one of the seats still unplaced with
probability proportional to its strength. At a table, the chance that a seat
finishes FIRST is its gamma over the sum of the table's gammas; with two seats
the model is Bradley-Terry.

What our data need that a library fit (``choix``) does not take directly:

- REPEATED ENTRANTS. A line-up such as A B A B seats one entrant twice. Each
  seat is an item of the order whose strength is its entrant's, so a set of
  seats still to be placed has total strength ``sum_k n_k * gamma_k`` with
  ``n_k`` the seats of entrant k in it.
- TIES. Equal places share a place: two Solo Whist defenders of one contract
  share a net, Minnesota partners always share the result, a forfeited
  Knock-out game leaves everyone but the forfeiter level. The treatment here
  is Breslow's (as in Cox regression): every member of a tied group counts as
  chosen from the same set, the seats not placed above the group, so a group
  of k seats is k choice events with one shared choice set. Why Breslow: the
  likelihood stays a product of "one chosen from a set" factors, which is
  exactly what Hunter's MM update needs, whereas the exact tied likelihood
  (a sum over every order of the group) grows factorially with the group and
  Efron's correction needs fractional choice sets. What it costs: a tie of
  k seats counts as k choices, so a tie carries more weight than one choice
  (a tie of two is a win each way, where ``stats.bradley_terry`` counts a
  drawn hand as half a win each way), and heavily tied data pull the
  strengths towards each other, as Breslow's approximation does in survival
  analysis. A choice set that holds a single entrant (the last seat, or the
  last tied group of one entrant's seats) says nothing about strengths and is
  dropped.
- A PRIOR. If an entrant always wins (or always loses) the maximum
  likelihood strength is infinite, and entrants that never met cannot be
  compared. ``prior`` adds, between every two entrants, that many virtual
  two-seat games ending level, each counted as half a win each way, which is
  the same prior as ``prior_draws`` in ``stats.bradley_terry`` (so with two
  seats and no ties the two fits agree exactly). It links every entrant to
  every other, which makes the maximum unique and finite (Hunter 2004,
  Assumption 1), and against thousands of orders it moves ratings by little.

UNDECIDED ORDERS. A game stopped by a forfeit has no winner and no order:
all it says is that the seat that forfeited did not win it. Ranking the
other seats as tied for first, as the game's score does, told the fit they
were level, and the Breslow tie counted each as a win: a Knock-out run in
which one entrant forfeited 133 of 300 games at three seats rated random
(which won 14% of its played games) at 93 beside heuristic's 181 (75%), and
predicted random 36% of first places (a probe). An order marked
``undecided`` is instead one event: the first place went to one of its
seats at place 1, chosen from all its seats, with probability
``sum over those seats of gamma / sum over all seats of gamma`` and nothing
said about the order among them. It is the marginal of the model for what
is known. Its ``log`` of a sum is bounded below by Jensen's inequality at
the current strengths, which splits the event's win among the group's
entrants in proportion to their current strengths (the EM step of a
grouped choice), so the MM update below keeps its form and its guarantee,
with those shares added to ``W``.

A TOP-K OPTION. One strength per entrant must explain every place of the
order. Where the places are won by different skills that fails: in Knock-out
Whist the first rounds knock players out mostly by the luck of a few cards,
while the last rounds, which decide the winner, reward play, so the full
order shows a much smaller gap than the games won do (measured on
``random`` against ``heuristic`` at four seats: a heuristic seat is chosen
first about 7 times as often as a random one, second 1.7 times, third 1.15
times). ``top = 1`` fits only who finished first (the multinomial logit of
the winner, a top-1 partial order), which is what a game such as Knock-out
Whist rewards; the default fits every place.

Fit: Hunter's MM algorithm (D. R. Hunter, "MM algorithms for generalized
Bradley-Terry models", Ann. Statist. 32, 2004, section 5). The log-likelihood
is ``sum_k W_k log gamma_k - sum_c T_c log(sum_k n_ck gamma_k)`` where W_k
counts the choice events entrant k won and T_c the events whose choice set has
composition c (seats per entrant); bounding each ``-log(sum)`` below by its
tangent gives the update ``gamma_k <- W_k / sum_c T_c n_ck / S_c`` (S_c the
set's total strength at the current gamma), which raises the likelihood at
every step and converges to the maximum (undecided orders add their shares
of a win to ``W`` afresh at each step). MM creeps where the entrants are far apart:
three entrants finishing in one order at each of 20,000 tables still moved 3e-9 a step
after 100,000 steps. SQUAREM (R. Varadhan and C. Roland, "Simple and globally convergent
methods for accelerating the convergence of any EM algorithm", Scand. J. Statist. 35,
2008) extrapolates along every two steps and keeps the jump where the MM step from it
moves less than before; that fit takes 52 steps, and the fixed point is MM's.
Those sufficient statistics are also
what makes the bootstrap fast: each deal index reduces to one row of W and
one of T, a resample is a matrix product of resampling counts with those
rows, and all resamples are fitted together as one array.

Scale and intervals follow ``stats.bradley_terry``: ``rating = 400 / ln 10 *
log(gamma)`` centred so the ratings average 0 (a gap of 400 means odds of 10
to 1 of finishing ahead in a two-seat order), and 95% percentile bootstrap
intervals over deal indices (every line-up and seating of a deal index shares
its cards, so they are resampled together) with a fixed seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from whist_sim.inference.fit_failure import FitDidNotConverge

ELO_PER_LOGIT = 400.0 / math.log(10.0)
"""Elo points per unit of log-strength: 400 = odds of 10 to 1 (as ``stats.ELO_PER_LOGIT``)."""

CONFIDENCE = 0.95
"""Level of the bootstrap intervals (as ``stats.CONFIDENCE``)."""

ORDER_COLUMNS = ("unit", "deal", "strategy", "place")
"""Columns :func:`plackett_luce` reads: one row per seat of a finishing order."""

UNDECIDED = "undecided"
"""An optional boolean column of the orders: true for every seat of an undecided order
(see the module docstring), which tells only that its winner was one of its seats at
place 1."""

TOLERANCE = 1e-10
"""The MM iterations stop once no log-strength moves by more than this."""

MAX_ITERATIONS = 100_000

RATING_SCHEMA = {"strategy": pl.String, "rating": pl.Float64, "rating_lo": pl.Float64,
                 "rating_hi": pl.Float64, "units": pl.Int64}


@dataclass(frozen=True)
class ChoiceCounts:
    """The sufficient statistics of a set of finishing orders, per resampling cluster.

    ``wins[d, k]``: choice events of cluster d won by entrant k.
    ``events[d, c]``: choice events of cluster d whose choice set has composition c
    (undecided orders' events included).
    ``compositions[c, k]``: seats of entrant k in choice sets of composition c.
    ``groups[d, g]``: undecided orders of cluster d whose winners' group (the seats at
    place 1) has composition g; whose win goes to which entrant the fit decides.
    ``members[g, k]``: seats of entrant k in winners' groups of composition g.
    """

    wins: np.ndarray
    events: np.ndarray
    compositions: np.ndarray
    groups: np.ndarray
    members: np.ndarray


def choice_counts(
    ranking: np.ndarray,
    entrant: np.ndarray,
    place: np.ndarray,
    cluster: np.ndarray,
    entrants: int,
    clusters: int,
    top: int | None = None,
    undecided: np.ndarray | None = None,
) -> ChoiceCounts:
    """Reduce finishing orders, given as flat arrays with one element per seat, to choice counts.

    ``ranking`` names the order a seat belongs to, ``entrant`` its entrant
    (0 .. entrants - 1), ``place`` its place (lower is better, equal places
    tie) and ``cluster`` its resampling cluster (0 .. clusters - 1, one per
    order). Each seat is one choice event (Breslow: a tied group's members are
    all chosen from the same set); its choice set is the seats of its order
    not placed above it. Events whose set holds a single entrant are dropped:
    they do not depend on the strengths. With ``top``, only the seats with
    fewer than ``top`` seats placed above them are choice events (a top-k
    partial order; ``top = 1``: only who finished first). ``undecided`` (a flag per seat,
    alike over an order) marks the orders that tell only that their winner was one of
    their seats at place 1: each is one event, whatever ``top``, counted in ``groups``.
    """
    ranking, entrant = np.asarray(ranking), np.asarray(entrant, dtype=np.int64)
    place, cluster = np.asarray(place), np.asarray(cluster, dtype=np.int64)
    flagged = (np.zeros(ranking.size, dtype=bool) if undecided is None
               else np.asarray(undecided, dtype=bool))
    sort = np.lexsort((place, ranking))
    ranking, entrant, place, cluster = ranking[sort], entrant[sort], place[sort], cluster[sort]
    flagged = flagged[sort]
    n = ranking.size
    starts_order = np.ones(n, dtype=bool)
    starts_order[1:] = ranking[1:] != ranking[:-1]
    starts_group = starts_order.copy()
    starts_group[1:] |= place[1:] != place[:-1]
    order_start = np.flatnonzero(starts_order)
    if n and np.any(np.maximum.reduceat(cluster, order_start)
                    != np.minimum.reduceat(cluster, order_start)):
        raise ValueError("a finishing order spans several deal indices; each must hold one")

    # seats per entrant from each seat to the end of its order: the set a seat is chosen from
    seats = np.zeros((n, entrants), dtype=np.int64)
    seats[np.arange(n), entrant] = 1
    from_here = np.cumsum(seats[::-1], axis=0)[::-1]
    order_end = np.append(order_start[1:], n)[np.cumsum(starts_order) - 1]
    beyond = np.vstack([from_here, np.zeros((1, entrants), dtype=np.int64)])[order_end]
    group_start = np.flatnonzero(starts_group)[np.cumsum(starts_group) - 1]
    choice_set = (from_here - beyond)[group_start]

    first_order_seat = order_start[np.cumsum(starts_order) - 1]
    if n and np.any(np.maximum.reduceat(flagged, order_start)
                    != np.minimum.reduceat(flagged, order_start)):
        raise ValueError("an order is undecided for some of its seats only; mark all or none")

    informative = ~flagged & ((choice_set > 0).sum(axis=1) > 1)
    if top is not None:
        informative &= group_start - first_order_seat < top
    sets, chosen, where = choice_set[informative], entrant[informative], cluster[informative]

    # an undecided order: one event, its place-1 seats (the first group) against all its seats
    leads = flagged & starts_order
    whole = choice_set[leads]
    padded = np.vstack([from_here, np.zeros((1, entrants), dtype=np.int64)])
    group_starts = np.flatnonzero(starts_group)
    in_group = padded[group_starts] - padded[np.append(group_starts[1:], n)]
    winners = in_group[(np.cumsum(starts_group) - 1)[leads]]
    open_question = ((whole > 0).sum(axis=1) > 1) & (winners.sum(axis=1) < whole.sum(axis=1))
    whole, winners, undecided_where = (whole[open_question], winners[open_question],
                                       cluster[leads][open_question])

    compositions, kind = np.unique(np.vstack([sets, whole]), axis=0, return_inverse=True)
    kind = kind.reshape(-1)
    members, group_kind = np.unique(winners.reshape(-1, entrants), axis=0,
                                    return_inverse=True)
    group_kind = group_kind.reshape(-1)
    wins = np.bincount(where * entrants + chosen, minlength=clusters * entrants)
    events = np.bincount(np.concatenate([where, undecided_where]) * len(compositions) + kind,
                         minlength=clusters * len(compositions))
    groups = np.bincount(undecided_where * len(members) + group_kind,
                         minlength=clusters * len(members))
    return ChoiceCounts(
        wins.reshape(clusters, entrants).astype(float),
        events.reshape(clusters, len(compositions)).astype(float),
        compositions.reshape(-1, entrants).astype(float),
        groups.reshape(clusters, len(members)).astype(float),
        members.reshape(-1, entrants).astype(float),
    )


def with_prior(wins: np.ndarray, events: np.ndarray, compositions: np.ndarray,
               prior: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Add ``prior`` virtual level two-seat games between every two entrants.

    A level two-seat game is, under Breslow, two choice events from the pair
    (each entrant chosen once); weighting each by one half makes it half a win
    each way, the ``prior_draws`` of ``stats.bradley_terry``. ``wins`` and
    ``events`` are (fits, entrants) and (fits, compositions) arrays.
    """
    k = wins.shape[1]
    a, b = np.triu_indices(k, 1)
    pairs = np.zeros((a.size, k))
    pairs[np.arange(a.size), a] = 1.0
    pairs[np.arange(a.size), b] = 1.0
    return (
        wins + prior / 2 * (k - 1),
        np.hstack([events, np.full((events.shape[0], a.size), float(prior))]),
        np.vstack([compositions, pairs]),
    )


def fit_log_strengths(wins: np.ndarray, events: np.ndarray, compositions: np.ndarray,
                      groups: np.ndarray | None = None,
                      members: np.ndarray | None = None) -> np.ndarray:
    """Maximum-likelihood log-strengths by Hunter's MM, for several data sets at once.

    ``wins`` (fits, entrants), ``events`` (fits, compositions) and
    ``compositions`` (compositions, entrants) as in :class:`ChoiceCounts`,
    one row per fit (the point estimate, or one bootstrap resample each);
    every entrant must have won some event (the prior sees to it).
    ``groups`` (fits, group compositions) and ``members`` (group compositions,
    entrants): the undecided orders, whose wins are shared out at each step.
    Returns (fits, entrants) log-strengths, each row averaging 0.
    """
    shared = groups is not None and members is not None and members.size > 0

    def mm_step(log_gamma: np.ndarray) -> np.ndarray:
        gamma = np.exp(log_gamma)
        totals = gamma @ compositions.T
        won = wins
        if shared:
            won = wins + gamma * ((groups / (gamma @ members.T)) @ members)
        updated = np.log(won / ((events / totals) @ compositions))
        return updated - updated.mean(axis=1, keepdims=True)

    log_gamma = np.zeros_like(wins)
    steps = 0
    while steps < MAX_ITERATIONS:
        first = mm_step(log_gamma)
        moved = np.abs(first - log_gamma).max(axis=1)
        if moved.max() < TOLERANCE:
            return first
        second = mm_step(first)
        steps += 2
        # SQUAREM (Varadhan and Roland, 2008, scheme S3): extrapolate along the two steps,
        # then one MM step from there; kept only where that step moves less than the
        # first did, else the two plain steps stand (which never lower the likelihood)
        r, v = first - log_gamma, second - 2 * first + log_gamma
        curvature = np.sqrt((v * v).sum(axis=1))
        alpha = np.minimum(-np.sqrt((r * r).sum(axis=1)) / np.where(curvature > 0, curvature,
                                                                    np.inf), -1.0)[:, None]
        jump = log_gamma - 2 * alpha * r + alpha * alpha * v
        jump -= jump.mean(axis=1, keepdims=True)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
            landed = mm_step(jump)
            steps += 1
            kept = (np.isfinite(landed).all(axis=1)
                    & (np.abs(landed - jump).max(axis=1) < moved))
        log_gamma = np.where(kept[:, None], landed, second)
    raise FitDidNotConverge(
        f"Plackett-Luce MM did not converge in {MAX_ITERATIONS:,} iterations"
        f" (last step {moved.max():.2e} in log-strength)"
    )


def plackett_luce(
    orders: pl.DataFrame,
    *,
    bootstrap: int = 200,
    seed: int = 0,
    prior: float = 1.0,
    top: int | None = None,
) -> pl.DataFrame:
    """Plackett-Luce ratings of each strategy from finishing orders, with 95% bootstrap intervals.

    ``orders`` has one row per seat of a finishing order: ``unit`` (the
    order: a hand or a game; any id), ``deal`` (its deal index, the cluster
    resampled by the bootstrap), ``strategy`` and ``place`` (1 best; equal
    places tie), and optionally ``undecided`` (true for every seat of an order that
    tells only that its winner was one of its seats at place 1: a game a forfeit
    stopped; see the module docstring). ``reports.finishing`` makes it from a run's
    tables.
    ``prior``: virtual level two-seat games between every two entrants
    (must be > 0; see the module docstring). ``top``: fit only the first
    ``top`` places of each order (see the module docstring); None: every place.

    Returns one row per entrant, best first: strategy, rating (Elo scale,
    averaging 0), rating_lo and rating_hi (95% percentile bootstrap over deal
    indices from ``bootstrap`` resamples drawn with ``seed``; null with fewer
    than two deal indices or no bootstrap), units (finishing orders the
    entrant appeared in). The fit is numerical, so this takes a collected
    frame.
    """
    missing = [c for c in ORDER_COLUMNS if c not in orders.columns]
    if missing:
        raise ValueError(f"finishing orders need columns {', '.join(ORDER_COLUMNS)};"
                         f" missing {', '.join(missing)}")
    if top is not None and top < 1:
        raise ValueError(f"top must be at least 1 (places fitted per order), got {top}")
    if not prior > 0:
        raise ValueError(f"prior must be > 0 (it keeps the ratings finite), got {prior}")
    columns = [*ORDER_COLUMNS, *([UNDECIDED] if UNDECIDED in orders.columns else [])]
    nulls = {c: n for c, n in orders.select(columns).null_count().row(0, named=True).items()
             if n}
    if nulls:
        raise ValueError(f"finishing orders with null values: {nulls}")
    names = sorted(set(orders["strategy"].to_list()))
    k = len(names)
    point = np.zeros(k)
    lo = hi = np.full(k, np.nan)
    if k >= 2:
        point, lo, hi = _fit(orders, names, bootstrap, seed, prior, top)
    units = orders.group_by("strategy").agg(pl.col("unit").n_unique().cast(pl.Int64)
                                            .alias("units"))
    return (
        pl.DataFrame({"strategy": names, "rating": point, "rating_lo": lo, "rating_hi": hi},
                     schema={c: t for c, t in RATING_SCHEMA.items() if c != "units"})
        .with_columns(pl.col("rating_lo", "rating_hi").fill_nan(None))
        .join(units, on="strategy", how="left")
        .sort(["rating", "strategy"], descending=[True, False])
    )


def _fit(orders: pl.DataFrame, names: list[str], bootstrap: int, seed: int, prior: float,
         top: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Point ratings and percentile bounds (NaN without a bootstrap) of entrants ``names``."""
    k = len(names)
    unit_ids = orders.select("unit").unique(maintain_order=True).with_row_index("ranking")
    rows = orders.join(unit_ids, on="unit", how="left")
    deals, cluster = np.unique(rows["deal"].to_numpy(), return_inverse=True)
    index = {name: i for i, name in enumerate(names)}
    counts = choice_counts(
        rows["ranking"].to_numpy(),
        rows["strategy"].replace_strict(index, return_dtype=pl.Int64).to_numpy(),
        rows["place"].to_numpy(),
        cluster.reshape(-1),
        k,
        deals.size,
        top,
        rows[UNDECIDED].to_numpy() if UNDECIDED in rows.columns else None,
    )

    def ratings(multiplicity: np.ndarray) -> np.ndarray:
        wins, events, compositions = with_prior(
            multiplicity @ counts.wins, multiplicity @ counts.events, counts.compositions, prior)
        return ELO_PER_LOGIT * fit_log_strengths(wins, events, compositions,
                                                 multiplicity @ counts.groups, counts.members)

    point = ratings(np.ones((1, deals.size)))[0]
    lo = hi = np.full(k, np.nan)
    if bootstrap > 0 and deals.size > 1:
        rng = np.random.default_rng(seed)
        # drawn one resample at a time, as stats.bradley_terry does, so both resample alike
        multiplicity = np.array([
            np.bincount(rng.integers(0, deals.size, deals.size), minlength=deals.size)
            for _ in range(bootstrap)
        ], dtype=float)
        draws = ratings(multiplicity)
        lo, hi = np.percentile(draws, [50 * (1 - CONFIDENCE), 50 * (1 + CONFIDENCE)], axis=0)
    return point, lo, hi


def strengths(ratings: pl.DataFrame) -> dict[str, float]:
    """Each strategy's gamma from its rating: ``10 ** (rating / 400)``."""
    return {row["strategy"]: 10.0 ** (row["rating"] / 400.0)
            for row in ratings.iter_rows(named=True)}


def predicted_win_share(ratings: pl.DataFrame, lineup: Sequence[str]) -> dict[str, float]:
    """Each entrant's predicted share of first places at a table seated by ``lineup``.

    Under Plackett-Luce a seat finishes first with probability its gamma over
    the sum of the table's gammas; an entrant holding several seats (A B A B)
    gets the sum over its seats. ``ratings`` is :func:`plackett_luce`'s
    output. Returns entrant -> share, in order of first appearance; the shares
    add up to 1.
    """
    gamma = strengths(ratings)
    unknown = sorted(set(lineup) - set(gamma))
    if unknown:
        raise KeyError(f"no rating for {', '.join(unknown)} (rated: {', '.join(sorted(gamma))})")
    total = sum(gamma[name] for name in lineup)
    shares: dict[str, float] = {}
    for name in lineup:
        shares[name] = shares.get(name, 0.0) + gamma[name] / total
    return shares
