"""Exact open-card ("double-dummy") solving of trick-taking positions.

``solve`` gives the tricks side 0 takes with best play by every seat, ``best_move``
the card that achieves it, ``takes_at_least`` whether they reach a given count (one
zero-window test, cheaper than the exact count), ``solve_fast`` and
``takes_at_least_fast`` the same from a numba-compiled copy of the search (imported on
first use: numba is slow to import and compile); see docs/solver.md.
"""

from collections.abc import Sequence

from whist_sim.solver.inputs import OBJECTIVES, SolverInputError
from whist_sim.solver.search import Search, best_move, solve, takes_at_least

__all__ = ["OBJECTIVES", "Search", "SolverInputError", "best_move", "solve", "solve_fast",
           "takes_at_least", "takes_at_least_fast"]


def solve_fast(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
               objective: str = "most", trick: Sequence[int] = ()) -> int:
    """``solve``, compiled with numba (``whist_sim.solver.fast``)."""
    from whist_sim.solver.fast import solve_fast as compiled

    return compiled(hands, leader, trump, sides, objective, trick)


def takes_at_least_fast(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
                        objective: str, trick: Sequence[int], target: int) -> bool:
    """``takes_at_least``, compiled with numba (``whist_sim.solver.fast``)."""
    from whist_sim.solver.fast import takes_at_least_fast as compiled

    return compiled(hands, leader, trump, sides, objective, trick, target)
