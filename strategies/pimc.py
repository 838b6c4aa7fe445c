"""``pimc``: Perfect Information Monte Carlo for every game (``whist_sim.search.pimc``).

Each decision samples ``worlds`` deals consistent with the seat's view and values
every candidate action in each: by the open-card solver once no hand holds more than
``exact_cards`` cards (and the rest of the deal is a two-sided contest), otherwise by
playing the deal out with the heuristics (this strategy hands its game's ``heuristic``
to the search as the roll-out policy). The best average is played.

Bidding decisions (Solo Whist calls and Abundance trumps, the Minnesota laid card,
Knock-out trump) are the same simulation with ``bid_worlds`` worlds: each call is
valued by the units (points, survival) it brings over sampled deals, the rest of
the auction and the play following the heuristics.

Parameters:
- ``worlds`` (budget, >= 1): sampled worlds per card-play decision. Default: 100 in
  German Whist, 40 in Minnesota Whist, 32 in Solo Whist (``WORLDS``), 20 in Knock-out
  Whist.
- ``bid_worlds`` (>= 1): sampled worlds per bidding decision.
- ``budget_candidates`` (>= 1): a decision among more candidate actions than this
  gets ``worlds`` worlds for this many of them in all (the race spends them, see
  ``whist_sim.search.pimc.evaluate``). Default: 8 in German Whist
  (``BUDGET_CANDIDATES``), no cap in the others.
- ``exact_cards`` (>= 0): solve exactly once every hand holds at most this many cards
  (0 never). Default: 13 in German Whist (all of stage 2, which the compiled solver
  takes in about a millisecond), 8 in Solo Whist (``EXACT_CARDS``), 6 in the others.
- ``bidding``: ``"simulation"`` (as above) or ``"heuristic"`` (bid like the
  ``heuristic``, to measure the card play alone).
- ``incumbent``: start from the heuristic's choice and play another action only when
  its average gain over it, paired world by world, is clearly positive (see
  ``confidence``); false plays the best average however slim.
- ``confidence`` (>= 0): how many standard errors that gain must exceed in card play;
  ``bid_confidence`` the same for bidding decisions.
- ``min_make`` (0..1): a call that leads to this seat declaring is made only if the
  roll-outs made the contract at least this often (Solo Whist; 0 bids on expected
  units alone, which takes on contracts that fail one time in five or six).
- ``fit_calls``: ``"always"`` (default) draws the worlds of every decision among
  those in which every other seat's calls are the heuristic's with its hand (Solo
  Whist: a proposer holds a proposer's hand, a seat that passed a weak one);
  ``"bidding"`` does so in bidding decisions only (card play then draws uniform
  worlds); ``"never"`` draws every world uniformly. Games without such a sampler
  ignore it.
- ``compiled``: use the numba-compiled solver (compiled, or loaded from numba's disk
  cache, when the strategy is built unless ``exact_cards = 0``: never in a decision)
  rather than the pure Python one; both give the same values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from random import Random
from typing import Any, ClassVar

from whist_sim.games import GAMES
from whist_sim.games.base import as_toml
from whist_sim.search.model import BIDDING_PHASES
from whist_sim.search.params import (
    exact_cards_for,
    flag,
    for_game,
    non_negative_number,
    solver_function,
    whole_number,
)
from whist_sim.search.pimc import evaluate
from whist_sim.search.policy import default_policy_for
from whist_sim.strategy import Strategy

BIDDING = ("simulation", "heuristic")
EXACT_CARDS = {"solo_whist": 8}
"""Default ``exact_cards`` where it is not 6 (German Whist: 13, see ``exact_cards_for``).

Solo Whist: 8 rather than 6 made 2 more of the same 406 contracts over 600 seeds and
gained +0.023 units a deal, at the same median decision time (about 24 ms); in
Minnesota Whist 8 did no better than 6 (60 seeds)."""
WORLDS = {"minnesota_whist": 40, "solo_whist": 32, "german_whist": 100}
"""Default ``worlds`` where it is not 20, each measured (docs/strategies.md).

Minnesota Whist: 40 rather than 20 won +0.164 points a deal more (95% CI +0.023 ..
+0.305) on the same 1,000 single deals (``search_strength.py minnesota-deals``, seeds
1000-1499). Solo Whist, with its card-play worlds fitted to the auction (the default
``fit_calls``), over the same 600 seeds: 32 worlds +0.261 units a deal and 92.12% of
contracts made, 40 worlds +0.280 and 93.10%; 32 because 40 took a median of 54-57 ms
a decision in later runs on this machine (46 ms in the first), over the 50 ms allowed,
and 32 took 42 ms in the same conditions. (With uniform card-play worlds: +0.198,
+0.225 and +0.2496 with 20, 32 and 40.) Minnesota decides in a median of about 23 ms.
German Whist: 100 since version 8, whose roll-outs through stage 1 run compiled
(``whist_sim.search.german_rollout``; a whole hand about 2.5 times faster at the same
worlds). Over the same 400 seeds (200-599) against ``solver``: 32, 64 and 100 worlds won
58.88%, 59.50% and 63.88% of hands; seed by seed 100 gained +5.00 points over 32 (95% CI
+1.64 .. +8.36) and +4.38 over 64 (+0.89 .. +7.86); on seeds 0-199, 56.50%, 57.25% and
60.25%. With 100 worlds the slowest of the speed benchmark's 20 hands took 1.59 to 2.79
s in eight runs (target 2 s: at the limit; 64 worlds 1.04 s in one run), 1.09 to 1.68 s
in seven once the solver's search loop ran without numba's reference counts; a cap of 6
candidates instead of 8 won 59.75% of the same 1,200 hands, not 62.67%. Version 7
(Python roll-outs) took 32: over seeds 0-199, 20, 32 and 40 worlds won 54.50%, 56.50%
and 55.00%, and version 5 (margin-valued roll-outs, no cap) 53.00%, 56.50% and 60.50%
with 16, 20 and 40 worlds, but 40 took about twice the time a hand."""
BUDGET_CANDIDATES = {"german_whist": 8}
"""Default ``budget_candidates`` where there is one (elsewhere no cap).

German Whist: a stage-1 lead has up to a dozen candidate cards, and every roll-out ends
in a 13-card stage-2 solve, so the slowest whole hands of ``pimc`` against ``solver``
took 2.1 and 2.5 s in two runs of ``benchmarks/search_speed.py`` on a slow day of this
machine (target: at most 2 s), three quarters of it in the solver. Capped at 8
candidates' worth of worlds, 1.6 and 1.2 s in the same two runs. It costs a little
strength, within the noise: over the same 200 seeds ``pimc`` (version 6, 20 worlds)
won 55.25% of hands against ``solver`` (56.50% uncapped), and 59.75% against
``solver`` with ``stage1_tricks = 0`` (62.00% uncapped)."""
FIT_CALLS = ("never", "bidding", "always")


def share(name: str, value: Any) -> float:
    """``value`` as a float if it is a number from 0 to 1, else ValueError naming the whole
    range: -0.1 and true were told "a finite number >= 0", as if 2 were allowed (a probe)."""
    try:
        number = non_negative_number(name, value)
    except ValueError:
        number = math.nan
    if not 0 <= number <= 1:
        raise ValueError(f"parameter {name!r} must be a number from 0 to 1, not {as_toml(value)}")
    return number


class Pimc(Strategy):
    """Samples worlds, values each action exactly or by roll-out, plays the best average."""

    games = frozenset(GAMES)
    version = "8"
    game_parameters: ClassVar[Mapping[str, frozenset[str]]] = {
        **dict.fromkeys(("bid_worlds", "bidding", "bid_confidence"),
                        frozenset({"solo_whist", "minnesota_whist", "knockout_whist"})),
        **dict.fromkeys(("min_make", "fit_calls"), frozenset({"solo_whist"})),
    }
    """Parameters that do something in some games only (``strategy.build_strategy``
    refuses them elsewhere): the bidding's in the games with bidding decisions (German
    Whist has none), ``min_make`` and ``fit_calls`` in Solo Whist's auction only."""

    def __init__(self, worlds: int | None = None, bid_worlds: int = 40,
                 exact_cards: int | None = None, bidding: str = "simulation",
                 incumbent: bool = True,
                 confidence: float = 1.0, bid_confidence: float = 1.0,
                 min_make: float = 0.8, fit_calls: str = "always",
                 budget_candidates: int | None = None, compiled: bool = True) -> None:
        if worlds is not None:
            worlds = whole_number("worlds", worlds, 1)
        self.worlds = worlds
        self.bid_worlds = whole_number("bid_worlds", bid_worlds, 1)
        if exact_cards is not None:
            exact_cards = whole_number("exact_cards", exact_cards, 0)
        self.exact_cards = exact_cards
        if bidding not in BIDDING:
            raise ValueError(
                f"parameter 'bidding' must be one of {', '.join(BIDDING)}, not {as_toml(bidding)}"
            )
        self.bidding = bidding
        self.incumbent = flag("incumbent", incumbent)
        self.confidence = non_negative_number("confidence", confidence)
        self.bid_confidence = non_negative_number("bid_confidence", bid_confidence)
        self.min_make = share("min_make", min_make)
        if fit_calls not in FIT_CALLS:
            raise ValueError(
                f"parameter 'fit_calls' must be one of {', '.join(FIT_CALLS)}, not"
                f" {as_toml(fit_calls)}"
            )
        self.fit_calls = fit_calls
        if budget_candidates is not None:
            budget_candidates = whole_number("budget_candidates", budget_candidates, 1)
        self.budget_candidates = budget_candidates
        self.compiled = flag("compiled", compiled)
        self._solve = solver_function(compiled, exact_cards)

    def choose(self, view: Any, rng: Random) -> int:
        if view.legal & (view.legal - 1) == 0:  # one legal action: nothing to weigh
            return view.legal.bit_length() - 1
        bidding = view.phase in BIDDING_PHASES
        heuristic = default_policy_for(view)
        if bidding and self.bidding == "heuristic":
            return heuristic.choose(view, rng)
        exact_cards = exact_cards_for(view, self.exact_cards, elsewhere=6, by_game=EXACT_CARDS)
        incumbent = None
        if self.incumbent:
            incumbent = heuristic.choose(view, rng)
        return evaluate(
            view,
            rng,
            worlds=self.bid_worlds if bidding else for_game(view, self.worlds, 20, WORLDS),
            exact_cards=0 if bidding else exact_cards,
            solve=self._solve,
            incumbent=incumbent,
            confidence=self.bid_confidence if bidding else self.confidence,
            min_make=self.min_make if bidding else 0.0,
            fit_calls=self.fit_calls == "always" or (bidding and self.fit_calls == "bidding"),
            budget_candidates=None if bidding else for_game(
                view, self.budget_candidates, None, BUDGET_CANDIDATES),
            policy=heuristic,
        ).action
