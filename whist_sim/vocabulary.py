"""Names a game writes into a run and the reports read back: the words both layers share.

Why a module of its own: the reports read a run's tables only, never the game
modules (``reports`` -> ``store``; ``games`` know nothing of reports). Yet to
sort Solo Whist's contracts up the auction ladder, or to tell a misère from a
contract that must take tricks, a report needs facts the run's rows do not
carry (a ``contracts`` row names its contract, not its rank in the ladder).
Those facts live here, below both layers, as plain strings that either layer
may import. The game's own contract table (``games.solo_whist.CONTRACTS``)
must name the same contracts in the same order, with the same misères;
``tests/test_solo_report.py`` checks that it does.
"""

from __future__ import annotations

SOLO_CONTRACTS: tuple[str, ...] = (
    "prop_and_cop",
    "solo",
    "misere",
    "abundance",
    "royal_abundance",
    "spread_misere",
    "abundance_declared",
)
"""Solo Whist's contracts lowest first, as the auction ranks them and as the ``contract``
column of the ``contracts`` and ``deals`` tables names them."""

SOLO_MISERES: frozenset[str] = frozenset({"misere", "spread_misere"})
"""The Solo Whist contracts that must take no trick."""

SOLO_CALL_CONTRACT: dict[str, str] = {
    "prop": "prop_and_cop",
    "cop": "prop_and_cop",
    **{name: name for name in SOLO_CONTRACTS if name != "prop_and_cop"},
}
"""A call of the ``bids`` table -> the contract it bids for (``pass`` bids for nothing)."""
