"""Statistics of strategy comparisons: is A stronger than B, and by how much?

The duel's test (``settings``, ``pair_models``, ``estimate``, ``sprt``) turns the
values of duplicate pairs (one deal under every seat rotation) into an estimate, a
sequential test (Wald's SPRT in the generalised form fishtest uses) and sample
sizes; it plays no cards, the driver hands it numbers. ``docs/statistics.md``
explains the models and their assumptions.
"""

from whist_sim.inference.estimate import Estimate
from whist_sim.inference.pair_models import (
    CategoricalPairModel,
    NetPairModel,
    PairModel,
    categorical_llr,
    knockout_model,
    model_for,
    net_model,
    normal_llr,
    pentanomial_model,
    tilted_distribution,
)
from whist_sim.inference.settings import SprtError, SprtSettings
from whist_sim.inference.sprt import (
    Verdict,
    fixed_sample_pairs,
    fixed_verdict,
    needs_spread,
    pairs_to_separate,
    sequential_verdict,
    short_maximum_warning,
)

__all__ = [
    "CategoricalPairModel",
    "Estimate",
    "NetPairModel",
    "PairModel",
    "SprtError",
    "SprtSettings",
    "Verdict",
    "categorical_llr",
    "fixed_sample_pairs",
    "fixed_verdict",
    "knockout_model",
    "model_for",
    "needs_spread",
    "net_model",
    "normal_llr",
    "pairs_to_separate",
    "pentanomial_model",
    "sequential_verdict",
    "short_maximum_warning",
    "tilted_distribution",
]
