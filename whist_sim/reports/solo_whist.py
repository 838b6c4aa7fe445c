"""Solo Whist analyses: is bidding profitable, contract by contract, and who wins sessions.

Inputs are the run's tables (``RunFolder.scan``): ``seats``, ``deals``,
``matches`` and Solo Whist's own ``contracts`` (one row per hand) and ``bids``
(one row per call). Each function is LazyFrames in, one LazyFrame out; the
caller collects. Forfeited hands are left out of everything except the
session balances (a forfeit's payment is a penalty, not the result of a
contract; the generic Forfeits section counts them).

Words used throughout:
- a SEAT-HAND is one seat of one hand: the unit a strategy is "dealt". In a
  line-up such as A B A B a strategy holds two seats of every hand.
- the DECLARER SIDE of a contract is the declarer and, in Prop and Cop, the
  Cop partner. A strategy "won" a contract in the auction when it held a seat
  of the declarer side; for Prop and Cop each partner's seat counts once, so
  ``won``, ``made`` and the units are per declarer-side seat (each partner of
  a Prop and Cop wins or loses 2 units at the default stake, a soloist 9).
- a call counts as a bid for the contract it names; ``prop`` and ``cop`` both
  count for Prop and Cop.
- DEFENCE is a seat on the other side of a contract declared by ANOTHER
  strategy. A seat defending a contract whose declarer side holds the same
  strategy (line-up A B A B) is paid by, or pays, its own strategy's declarer,
  who also settles with the other defenders, so it does not cancel out (random's
  was +156 units per 100 seat-hands in a probe). It is kept apart, the third of
  the ROLES whose units add up to the net.
- a DUPLICATE SET is a (pairing, deal) played under every distinct seating:
  the unit of inference (the generic sections call it a duplicate pair).

Intervals (95%), and what they are over:
- every rate and mean: the bidding table's rates (bid rate per seat-hand,
  auctions won per bid, make rate per contract won), the make rate by hand
  strength, the contract mix, mean units (per contract played, per 100
  seat-hands, per defence), the throw-in rate and session results: pooled ratios
  over DEAL
  INDICES with a cluster standard error (``stats.ratio_aggs``,
  ``analyses.cluster_ratio_of``). Every line-up and seating of a deal index is
  dealt its cards, so its auctions and contracts are not independent: a probe
  measured Wilson intervals over seat-hands 1.6-1.7 times too narrow for the bid
  rates of A B C A line-ups, where a strategy holds each seat's cards twice, and
  1.2-1.4 times for the make rates.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from whist_sim.reports.analyses import (
    PAIR,
    cluster_ratio_of,
    cluster_ratio_parts,
    deal_totals,
)
from whist_sim.reports.stats import (
    ratio_aggs,
    with_rate_bounds,
    with_ratio_interval,
)
from whist_sim.vocabulary import SOLO_CALL_CONTRACT, SOLO_CONTRACTS, SOLO_MISERES

CONTRACT_NAMES = SOLO_CONTRACTS
"""Contracts lowest first, as the auction ranks them (``whist_sim.vocabulary``: the reports
read the run's rows, never the game module)."""

MISERES = tuple(name for name in CONTRACT_NAMES if name in SOLO_MISERES)

ALL = "all"
"""The ``contract`` of rows pooled over every contract."""

CONTRACT_LEVEL = {**{name: level for level, name in enumerate(CONTRACT_NAMES)},
                  ALL: len(CONTRACT_NAMES)}
"""Contract -> 0 (Prop and Cop) .. 6 (Abundance Declared), ``all`` last: for sorting."""

CALL_CONTRACT = SOLO_CALL_CONTRACT
"""Auction call -> the contract it bids for (a pass bids for nothing)."""

DECLARER_SIDE = ("declarer", "partner")

STRENGTH_MEASURE = {name: ("high_cards" if name in MISERES else "sure_tricks")
                    for name in CONTRACT_NAMES}
"""Hand-strength measure per contract: ``declarer_sure_tricks`` (under the contract's
trump) for contracts that must take tricks, ``declarer_high_cards`` (aces, kings and
queens: the danger) for misères, whose hands are strong when they have FEW of them."""

UNBEATABLE = CONTRACT_NAMES[-1]
"""The contract no call outbids (Abundance Declared): every bid of it wins the auction, so
its won per bid is 1 by the rules, shown without an interval (it had read
``1.000 [0.981, 1.000]``, as if chance had a part in it)."""

_LEVEL = pl.col("contract").replace_strict(CONTRACT_LEVEL, return_dtype=pl.Int8,
                                          default=None)


def played_keys(deals: pl.LazyFrame) -> pl.LazyFrame:
    """``deal_key`` of every hand that was not forfeited."""
    return deals.filter(pl.col("status") != "forfeit").select("deal_key")


def seat_outcomes(
    seats: pl.LazyFrame, contracts: pl.LazyFrame, deals: pl.LazyFrame
) -> pl.LazyFrame:
    """One row per seat per hand not forfeited: the contract and how this seat fared.

    Columns: deal_key, pairing, deal, rotation, hand, seat, strategy, units
    (the seat's net units in the hand), contract (null for a throw-in), side
    ("declarer", "partner", "defender", or null for a throw-in), made,
    declarer_strategy, partner_strategy, own_contract (the seat was on the
    declarer side), defends_other (the seat defended and the declarer side
    holds no seat of its strategy), defends_own (the seat defended and the
    declarer side holds a seat of its strategy), strength (the declarer's hand strength,
    see STRENGTH_MEASURE) and measure (its name).
    """
    seat = pl.col("seat").cast(pl.Int16)
    side = (
        pl.when(pl.col("contract").is_null()).then(pl.lit(None, pl.String))
        .when(seat == pl.col("declarer").cast(pl.Int16)).then(pl.lit("declarer"))
        .when(seat == pl.col("partner").cast(pl.Int16)).then(pl.lit("partner"))
        .otherwise(pl.lit("defender"))
    )
    same = (pl.col("strategy") == pl.col("declarer_strategy")) | (
        pl.col("strategy") == pl.col("partner_strategy")
    ).fill_null(False)
    return (
        seats.select("deal_key", *PAIR, "rotation", "hand", "seat", "strategy",
                     pl.col("net").cast(pl.Float64).alias("units"))
        .join(played_keys(deals), on="deal_key", how="semi")
        .join(
            contracts.select("deal_key", "contract", "declarer", "partner", "made",
                             "declarer_strategy", "partner_strategy", "declarer_sure_tricks",
                             "declarer_high_cards"),
            on="deal_key",
        )
        .with_columns(
            side=side,
            measure=pl.col("contract").replace_strict(STRENGTH_MEASURE, default=None,
                                                      return_dtype=pl.String),
        )
        .with_columns(
            own_contract=pl.col("side").is_in(list(DECLARER_SIDE)).fill_null(False),
            defends_other=((pl.col("side") == "defender") & ~same).fill_null(False),
            defends_own=((pl.col("side") == "defender") & same).fill_null(False),
            strength=pl.when(pl.col("measure") == "high_cards")
            .then(pl.col("declarer_high_cards"))
            .otherwise(pl.col("declarer_sure_tricks")).cast(pl.Int64),
        )
        .select("deal_key", *PAIR, "rotation", "hand", "seat", "strategy", "units",
                "contract", "side", "made", "declarer_strategy", "partner_strategy",
                "own_contract", "defends_other", "defends_own", "strength", "measure")
    )


def _with_all(frame: pl.LazyFrame) -> pl.LazyFrame:
    """``frame`` plus a copy of its rows with ``contract`` set to ``all``."""
    return pl.concat([frame, frame.with_columns(contract=pl.lit(ALL))])


def _per_set_hands(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """Seat-hands of each strategy in each duplicate set, crossed with every contract and all."""
    contracts = pl.LazyFrame({"contract": [*CONTRACT_NAMES, ALL]})
    return (
        outcomes.group_by([*PAIR, "strategy"])
        .agg(pl.len().cast(pl.Int64).alias("seat_hands"))
        .join(contracts, how="cross")
    )


def bidding(bids: pl.LazyFrame, outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy and contract: how often it was bid, won in the auction and made, and
    what it paid, with 95% intervals. A ``contract == "all"`` row pools every contract.

    ``bids`` is the ``bids`` table; ``outcomes`` is :func:`seat_outcomes` (it also
    decides which hands count: bids of forfeited hands are left out).

    Columns: strategy, contract, level (ladder order, ``all`` last),
    seat_hands (auctions the strategy sat in), bids (seat-hands in which it bid
    the contract; for ``all``, in which it made any bid), bid_rate (bids /
    seat_hands), won (declarer-side seats it held), won_rate (won / bids: 1 by the
    rules for ``UNBEATABLE``, whose bounds are null),
    made, make_rate (made / won) — each rate with ``_lo``/``_hi``, the 95%
    interval of a pooled ratio over deal indices (below), cut at 0 and 1, or
    Wilson's over the deal indices where they show no spread —
    units (total units of its declarer-side seats), units_per_contract (units
    / won) and units_per_100 (100 * units / seat_hands), each with a 95%
    t-interval over deal indices (pooled ratio, cluster standard error: every
    line-up of a deal index is dealt its cards), sets (duplicate sets it sat
    in) and deals (their deal indices). Rows only for contracts it bid or won.
    """
    return bidding_of(bidding_sets(bids, outcomes))


def bidding_sets(bids: pl.LazyFrame, outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """What :func:`bidding` pools, per duplicate set, strategy and contract (unsorted; the
    sets of a run's ranges of deal indices, one under the other, are the whole run's)."""
    bid_rows = (
        bids.join(outcomes.select("deal_key", "seat", "strategy"),
                  on=["deal_key", "seat", "strategy"], how="semi")
        .with_columns(contract=pl.col("call").replace_strict(CALL_CONTRACT, default=None))
        .filter(pl.col("contract").is_not_null())
        .select(*PAIR, "deal_key", "seat", "strategy", "contract")
        .unique()
    )
    per_set_bids = (
        pl.concat([bid_rows, bid_rows.with_columns(contract=pl.lit(ALL)).unique()])
        .group_by([*PAIR, "strategy", "contract"])
        .agg(pl.len().cast(pl.Int64).alias("bids"))
    )
    per_set_won = (
        _with_all(outcomes.filter(pl.col("own_contract")))
        .group_by([*PAIR, "strategy", "contract"])
        .agg(
            pl.len().cast(pl.Int64).alias("won"),
            pl.col("made").cast(pl.Int64).sum().alias("made"),
            pl.col("units").sum(),
        )
    )
    keys = [*PAIR, "strategy", "contract"]
    return (
        _per_set_hands(outcomes)
        .join(per_set_bids, on=keys, how="left")
        .join(per_set_won, on=keys, how="left")
        .with_columns(pl.col("bids", "won", "made").fill_null(0), pl.col("units").fill_null(0.0))
    )


_BIDDING_RATES = ("bid_rate", "won_rate", "make_rate")


def _where(column: str, count: str) -> pl.Expr:
    """``column`` of the deal indices where ``count`` is not 0: a ratio's units are those
    that hold some of its denominator."""
    return pl.col(column).filter(pl.col(count) > 0)


def bidding_of(per_set: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`bidding` from :func:`bidding_sets` of the run or of its ranges."""
    keys = ["strategy", "contract"]
    return (
        deal_totals(per_set, keys, ("seat_hands", "bids", "won", "made", "units"))
        .group_by(keys)
        .agg(
            pl.col("seat_hands").sum(),
            pl.col("bids").sum(),
            pl.col("won").sum(),
            pl.col("made").sum(),
            pl.col("units").sum(),
            pl.col("sets").sum(),
            pl.len().cast(pl.Int64).alias("deals"),
            *ratio_aggs("bid_rate", pl.col("bids"), pl.col("seat_hands")),
            *ratio_aggs("won_rate", _where("won", "bids"), _where("bids", "bids")),
            *ratio_aggs("make_rate", _where("made", "won"), _where("won", "won")),
            *ratio_aggs("units_per_contract", _where("units", "won"), _where("won", "won")),
            *ratio_aggs("units_per_100", pl.col("units"), pl.col("seat_hands")),
        )
        .filter((pl.col("bids") > 0) | (pl.col("won") > 0))
        .with_columns(
            *[e for rate in _BIDDING_RATES for e in with_ratio_interval(rate)],
            *with_ratio_interval("units_per_contract"),
            *with_ratio_interval("units_per_100", scale=100.0),
            level=_LEVEL,
        )
        .with_columns(*[e for rate in _BIDDING_RATES for e in with_rate_bounds(rate)])
        .with_columns(*[pl.when(pl.col("contract") == UNBEATABLE).then(None)
                        .otherwise(pl.col(bound)).alias(bound)
                        for bound in ("won_rate_lo", "won_rate_hi")])
        .select(
            "strategy", "contract", "level", "seat_hands",
            "bids", "bid_rate", "bid_rate_lo", "bid_rate_hi",
            "won", "won_rate", "won_rate_lo", "won_rate_hi",
            "made", "make_rate", "make_rate_lo", "make_rate_hi",
            "units", "units_per_contract", "units_per_contract_lo", "units_per_contract_hi",
            "units_per_100", "units_per_100_lo", "units_per_100_hi", "sets", "deals",
        )
        .sort(["strategy", "level"])
    )


def defence(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy and contract defended: units lost when it was made, won when it failed.

    Only contracts declared by another strategy count (see the module notes).
    A ``contract == "all"`` row pools every contract. ``outcomes`` is
    :func:`seat_outcomes`.

    Columns: strategy, contract, level, seat_hands, defended (defending
    seats), made_against (of those, contracts made), units_lost (units paid
    on them, a positive number), defeated, units_won, units (won minus lost),
    units_per_defence (units / defended) and units_per_100 (100 * units /
    seat_hands), each with a 95% t-interval over deal indices (pooled
    ratio, cluster standard error), sets and deals (deal indices).
    """
    return defence_of(defence_sets(outcomes))


def defence_sets(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """What :func:`defence` pools, per duplicate set, strategy and contract (unsorted)."""
    defending = outcomes.filter(pl.col("defends_other"))
    per_set_def = (
        _with_all(defending)
        .group_by([*PAIR, "strategy", "contract"])
        .agg(
            pl.len().cast(pl.Int64).alias("defended"),
            pl.col("made").cast(pl.Int64).sum().alias("made_against"),
            (-pl.col("units").filter(pl.col("made"))).sum().alias("units_lost"),
            pl.col("units").filter(~pl.col("made")).sum().alias("units_won"),
        )
    )
    keys = [*PAIR, "strategy", "contract"]
    return (
        _per_set_hands(outcomes)
        .join(per_set_def, on=keys, how="left")
        .with_columns(
            pl.col("defended", "made_against").fill_null(0),
            pl.col("units_lost", "units_won").fill_null(0.0),
        )
        .with_columns(units=pl.col("units_won") - pl.col("units_lost"))
    )


def defence_of(per_set: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`defence` from :func:`defence_sets` of the run or of its ranges."""
    keys = ["strategy", "contract"]
    totals = ("seat_hands", "defended", "made_against", "units_lost", "units_won", "units")
    return (
        deal_totals(per_set, keys, totals)
        .group_by(keys)
        .agg(
            *[pl.col(column).sum() for column in totals],
            pl.col("sets").sum(),
            pl.len().cast(pl.Int64).alias("deals"),
            *ratio_aggs("units_per_defence", pl.col("units").filter(pl.col("defended") > 0),
                        pl.col("defended").filter(pl.col("defended") > 0)),
            *ratio_aggs("units_per_100", pl.col("units"), pl.col("seat_hands")),
        )
        .filter(pl.col("defended") > 0)
        .with_columns(
            level=_LEVEL,
            defeated=pl.col("defended") - pl.col("made_against"),
        )
        .with_columns(
            *with_ratio_interval("units_per_defence"),
            *with_ratio_interval("units_per_100", scale=100.0),
        )
        .select(
            "strategy", "contract", "level", "seat_hands", "defended", "made_against",
            "units_lost", "defeated", "units_won", "units",
            "units_per_defence", "units_per_defence_lo", "units_per_defence_hi",
            "units_per_100", "units_per_100_lo", "units_per_100_hi", "sets", "deals",
        )
        .sort(["strategy", "level"])
    )


ROLES = {
    "declaring": "own_contract",
    "defending_others": "defends_other",
    "defending_own": "defends_own",
}
"""The roles of a seat in a hand with a contract, each a flag of :func:`seat_outcomes`: on
the declarer side, defending another strategy's contract, defending a contract its own
strategy declared. Every seat of a contract has exactly one, and a throw-in pays nobody,
so the units of the three add up to the strategy's net."""


def net_by_role(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: its net units per 100 seat-hands, and the part of it from each of the
    :data:`ROLES`, which add up to the net (forfeited hands left out, as everywhere here).

    The defence table leaves out the seats that defend their own strategy's contract,
    and those do not cancel: a declarer settles with all three defenders, so where one
    defender is of its strategy, the declaring units count a payment that this term
    counts back. Without it declaring and defending did not add up to the net, which
    the report claimed they did (a probe: random's was +156 per 100 seat-hands).

    Columns: strategy, seat_hands, and ``<role>_per_100`` for every role and for
    ``net``, each with a 95% t-interval over deal indices (pooled ratio, cluster
    standard error), sets and deals.
    """
    return net_by_role_of(net_by_role_sets(outcomes))


_NET_PARTS = (*ROLES, "net")


def net_by_role_sets(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """Seat-hands and units of each role and in all, per duplicate set and strategy
    (unsorted): what :func:`net_by_role_of` pools."""
    return outcomes.group_by([*PAIR, "strategy"]).agg(
        pl.len().cast(pl.Int64).alias("seat_hands"),
        *[pl.col("units").filter(pl.col(flag)).sum().alias(f"{role}_units")
          for role, flag in ROLES.items()],
        pl.col("units").sum().alias("net_units"),
    )


def net_by_role_of(per_set: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`net_by_role` from :func:`net_by_role_sets` of the run or of its ranges."""
    units = [f"{part}_units" for part in _NET_PARTS]
    return (
        deal_totals(per_set, ["strategy"], ("seat_hands", *units))
        .group_by("strategy")
        .agg(
            pl.col("seat_hands").sum(),
            pl.col("sets").sum(),
            pl.len().cast(pl.Int64).alias("deals"),
            *[e for part in _NET_PARTS
              for e in ratio_aggs(f"{part}_per_100", pl.col(f"{part}_units"),
                                  pl.col("seat_hands"))],
        )
        .with_columns(*[e for part in _NET_PARTS
                        for e in with_ratio_interval(f"{part}_per_100", scale=100.0)])
        .select("strategy", "seat_hands",
                *[f"{part}_per_100{end}" for part in _NET_PARTS for end in ("", "_lo", "_hi")],
                "sets", "deals")
        .sort("strategy")
    )


def make_rate_by_strength(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """Per contract, declaring strategy and hand strength: how often the contract was made.

    One row per (contract, strategy, strength) that occurred; each contract
    counts once, under its declarer (for Prop and Cop: the proposer, and the
    strength of the proposer's hand alone). Strength is ``declarer_sure_tricks``
    (tricks certain under the contract's trump: top sequences, plus long
    trumps) for contracts that must take tricks, and ``declarer_high_cards``
    (aces, kings and queens held) for Misère and Spread Misère, where fewer
    is better; ``measure`` names it.

    Columns: contract, level, measure, strategy, strength, contracts, made,
    make_rate with its 95% interval (_lo/_hi): a pooled ratio over deal indices
    (cluster standard error; Wilson's over the deal indices where they show no
    spread; none from a single deal index), since every line-up of a deal index
    is dealt its cards and a strategy may declare on them in several.
    """
    return make_rate_of(make_rate_counts(outcomes))


_STRENGTH = ["contract", "measure", "strategy", "strength"]


def make_rate_counts(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """Contracts declared and made per contract, measure, strategy and strength (unsorted):
    what :func:`make_rate_of` adds up."""
    return (
        outcomes.filter(pl.col("side") == "declarer")
        .group_by([*_STRENGTH, "deal"])
        .agg(
            pl.len().cast(pl.Int64).alias("contracts"),
            pl.col("made").cast(pl.Int64).sum().alias("made"),
        )
    )


def make_rate_of(counts: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`make_rate_by_strength` from :func:`make_rate_counts` of the run or its ranges."""
    return (
        deal_totals(counts, _STRENGTH, ("contracts", "made"))
        .group_by(_STRENGTH)
        .agg(pl.col("contracts", "made").sum(),
             *ratio_aggs("make_rate", pl.col("made"), pl.col("contracts")))
        .with_columns(*with_ratio_interval("make_rate"), level=_LEVEL)
        .with_columns(*with_rate_bounds("make_rate"))
        .select("contract", "level", "measure", "strategy", "strength", "contracts", "made",
                "make_rate", "make_rate_lo", "make_rate_hi")
        .sort(["level", "strategy", "strength"])
    )


def make_rate_overall_of(counts: pl.LazyFrame) -> pl.LazyFrame:
    """Per contract, measure and declaring strategy, over every strength: contracts, made
    and the make rate with its 95% interval over deal indices, as
    :func:`make_rate_of` gives it per strength (from :func:`make_rate_counts`)."""
    keys = ["contract", "measure", "strategy"]
    return (
        deal_totals(counts, keys, ("contracts", "made"))
        .group_by(keys)
        .agg(pl.col("contracts", "made").sum(),
             *ratio_aggs("make_rate", pl.col("made"), pl.col("contracts")))
        .with_columns(*with_ratio_interval("make_rate"))
        .with_columns(*with_rate_bounds("make_rate"))
        .select(*keys, "contracts", "made", "make_rate", "make_rate_lo", "make_rate_hi")
    )


def contract_mix(outcomes: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: which contracts it won in the auction, as shares of all it won.

    Columns: strategy, contract, level, won (declarer-side seats), total (all
    it won), share (won / total) with its 95% interval, a pooled ratio over the
    deal indices in which it won a contract (cluster standard error, as for
    :func:`make_rate_by_strength`), seat_hands and per_100 (contracts of this
    kind won per 100 seat-hands). ``outcomes`` is :func:`seat_outcomes`.
    """
    return contract_mix_of(*contract_mix_counts(outcomes))


def contract_mix_counts(outcomes: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Contracts won per strategy, contract and deal index, and seat-hands per strategy
    (unsorted): what :func:`contract_mix_of` adds up."""
    hands = outcomes.group_by("strategy").agg(pl.len().cast(pl.Int64).alias("seat_hands"))
    won = (outcomes.filter(pl.col("own_contract")).group_by(["strategy", "contract", "deal"])
           .agg(pl.len().cast(pl.Int64).alias("won")))
    return won, hands


def contract_mix_of(won: pl.LazyFrame, hands: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`contract_mix` from :func:`contract_mix_counts` of the run or of its ranges."""
    hands = hands.group_by("strategy").agg(pl.col("seat_hands").sum())
    per_deal = won.group_by(["strategy", "contract", "deal"]).agg(pl.col("won").sum())
    totals = per_deal.group_by(["strategy", "deal"]).agg(pl.col("won").sum().alias("total"))
    # every kind the strategy won anywhere, at every deal index where it won any (0 there
    # if not that kind): the units of each share's ratio
    grid = (totals.join(per_deal.select("strategy", "contract").unique(), on="strategy")
            .join(per_deal, on=["strategy", "contract", "deal"], how="left")
            .with_columns(pl.col("won").fill_null(0)))
    return (
        grid.group_by(["strategy", "contract"])
        .agg(pl.col("won", "total").sum(),
             *ratio_aggs("share", pl.col("won"), pl.col("total")))
        .with_columns(*with_ratio_interval("share"), level=_LEVEL)
        .with_columns(*with_rate_bounds("share"))
        .join(hands, on="strategy")
        .with_columns(per_100=100 * pl.col("won") / pl.col("seat_hands"))
        .select("strategy", "contract", "level", "won", "total", "share", "share_lo",
                "share_hi", "seat_hands", "per_100")
        .sort(["strategy", "level"])
    )


def throw_ins(contracts: pl.LazyFrame, deals: pl.LazyFrame,
              lineups: Mapping[int, str] | None = None) -> pl.LazyFrame:
    """Per line-up and over all: the share of hands thrown in (all passed, or a Prop not copped).

    Columns: pairing (null for the pooled row), lineup (``lineups``' text of the pairing:
    its line-up as run.json lists it, ``lineup_texts``; without, the seats' strategies in
    seating 0 of its set, which at three seats or more differ from deal to deal), or
    "all line-ups"), hands, throw_ins, throw_in_rate with a
    95% t-interval over deal indices (pooled ratio, cluster standard error:
    every line-up and seating of a deal index is dealt the same cards; bounds
    clipped to [0, 1], or Wilson's over the deal indices where they show no
    spread), sets and deals (deal indices; one set per deal index in a line-up's
    row). Forfeited hands are left out.
    """
    return throw_ins_of(throw_in_sets(contracts, deals, lineups))


def lineup_texts(meta: Mapping[str, Any]) -> dict[int, str] | None:
    """Each pairing's line-up as run.json lists it (``lineups`` by ``pairing_ids``), its
    entrants joined by spaces: one text per line-up whatever order a deal seated it in."""
    lineups, ids = meta.get("lineups"), meta.get("pairing_ids")
    if not isinstance(lineups, list) or not isinstance(ids, list) or len(ids) != len(lineups):
        return None
    return {int(pairing): " ".join(map(str, lineup))
            for pairing, lineup in zip(ids, lineups, strict=True)}


def throw_in_sets(contracts: pl.LazyFrame, deals: pl.LazyFrame,
                  lineups: Mapping[int, str] | None = None) -> pl.LazyFrame:
    """Hands, throw-ins and line-up per duplicate set (unsorted): what :func:`throw_ins_of`
    pools; ``lineups`` as :func:`throw_ins`'."""
    seated = pl.col("strategies").sort_by("rotation").first().list.join(" ")
    return (
        contracts.select("deal_key", "contract")
        .join(
            deals.filter(pl.col("status") != "forfeit").select(
                "deal_key", pl.col("pairing").cast(pl.Int64), "deal", "rotation", "strategies"
            ),
            on="deal_key",
        )
        .group_by(PAIR)
        .agg(
            pl.len().cast(pl.Int64).alias("hands"),
            pl.col("contract").is_null().sum().cast(pl.Int64).alias("throw_ins"),
            # the line-up as listed: seating 0 of a deal is in that deal's seating order,
            # and one line-up read as several
            (seated if lineups is None else pl.col("pairing").first().replace_strict(
                lineups, return_dtype=pl.String)).alias("lineup"),
        )
    )


def throw_ins_of(per_set: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`throw_ins` from :func:`throw_in_sets` of the run or of its ranges."""
    def summary(frame: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
        return (
            deal_totals(frame, keys, ("hands", "throw_ins"))
            .group_by(keys)
            .agg(
                pl.col("hands").sum(),
                pl.col("throw_ins").sum(),
                pl.col("sets").sum(),
                pl.len().cast(pl.Int64).alias("deals"),
                *ratio_aggs("throw_in_rate", pl.col("throw_ins"), pl.col("hands")),
            )
            .with_columns(*with_ratio_interval("throw_in_rate"))
            .with_columns(*with_rate_bounds("throw_in_rate"))
            .select(*keys, "hands", "throw_ins", "throw_in_rate", "throw_in_rate_lo",
                    "throw_in_rate_hi", "sets", "deals")
        )

    by_lineup = summary(per_set, ["pairing", "lineup"]).sort("pairing")
    pooled = summary(per_set.with_columns(pairing=pl.lit(None, pl.Int64),
                                          lineup=pl.lit("all line-ups")),
                     ["pairing", "lineup"])
    return pl.concat([by_lineup, pooled])


def session_results(matches: pl.LazyFrame) -> pl.LazyFrame:
    """Per strategy: session balances (distribution and mean) and session-win rate.

    A session is a match: ``session_hands`` hands (or first to ``target``);
    ``matches.points`` is the seat's balance at the end, ``result`` "win" for
    the sole top balance and "draw" when tied for top. One row of ``matches``
    is a SESSION-SEAT.

    Columns: strategy, sessions (session-seats), deals (deal indices), pairs
    (duplicate sets), balance, win_rate, draw_rate (each per session-seat: the
    strategy's totals over its session-seats, with the 95% interval of a ratio
    over deal indices, ``analyses.cluster_ratio_of``: _lo/_hi, the rates'
    bounds cut at 0 and 1; every line-up and seating of a deal index plays its
    cards), and
    the distribution of balances over session-seats: balance_min, balance_p05,
    balance_q1, balance_median, balance_q3, balance_p95, balance_max
    (descriptive, no interval). With four seats an even share of sessions won is
    1/4 of the sessions with a single winner: less than 1/4 per seat where sessions
    are tied for top (the report says how much less).
    """
    return session_results_of(*session_parts(matches))


_SESSION_MEANS = {"balance": "balance", "win": "win_rate", "draw": "draw_rate"}


def session_parts(matches: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """What :func:`session_results_of` combines: ``analyses.cluster_ratio_parts`` of each
    strategy's totals per deal index (balances, sessions won and drawn, over its
    session-seats there), and every session-seat's (strategy, balance) for the quantiles.

    Totals, not a mean of per-set means: with three entrants at four seats a strategy
    holds two seats of one line-up and one of the others, and a mean of set means
    weighed each of its two-seat sessions half (a probe measured mean balances 5-10% off
    the mean per session-seat, the interval missing it)."""
    flagged = matches.with_columns(
        balance=pl.col("points").cast(pl.Float64),
        win=(pl.col("result") == "win").cast(pl.Float64),
        draw=(pl.col("result") == "draw").cast(pl.Float64),
    )
    per_deal = flagged.group_by(["deal", "strategy"]).agg(
        pl.len().alias("hands"), *[pl.col(column).sum() for column in _SESSION_MEANS],
        pl.col("pairing").n_unique().cast(pl.Int64).alias("pairs"),
    )
    return (cluster_ratio_parts(per_deal, ["strategy"], list(_SESSION_MEANS), sums=("pairs",),
                                units="deals"),
            flagged.select("strategy", "balance"))


def session_results_of(parts: pl.LazyFrame, balances: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`session_results` from :func:`session_parts` of the run or of its ranges."""
    flagged = balances
    means = cluster_ratio_of(parts, ["strategy"], _SESSION_MEANS, sums=("pairs",),
                             units="deals", rates=("win_rate", "draw_rate")).select(
        "strategy", "hands", "deals", "pairs",
        *[c for name in _SESSION_MEANS.values() for c in (name, f"{name}_lo", f"{name}_hi")])
    quantiles = flagged.group_by("strategy").agg(
        pl.col("balance").min().alias("balance_min"),
        pl.col("balance").quantile(0.05, "linear").alias("balance_p05"),
        pl.col("balance").quantile(0.25, "linear").alias("balance_q1"),
        pl.col("balance").median().alias("balance_median"),
        pl.col("balance").quantile(0.75, "linear").alias("balance_q3"),
        pl.col("balance").quantile(0.95, "linear").alias("balance_p95"),
        pl.col("balance").max().alias("balance_max"),
    )
    return (
        means.rename({"hands": "sessions"})
        .join(quantiles, on="strategy")
        .sort(["balance", "strategy"], descending=[True, False])
    )
