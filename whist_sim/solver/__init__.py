"""Exact open-card ("double-dummy") solving of trick-taking positions.

``solve`` gives the tricks side 0 takes with best play by every seat, ``best_move``
the card that achieves it, ``solve_fast`` the same value from a numba-compiled copy of
the search (imported on first use: numba is slow to import and compile); see
docs/solver.md.
"""

from collections.abc import Sequence

from whist_sim.solver.inputs import OBJECTIVES, SolverInputError
from whist_sim.solver.search import Search, best_move, solve

__all__ = ["OBJECTIVES", "Search", "SolverInputError", "best_move", "solve", "solve_fast"]


def solve_fast(hands: Sequence[int], leader: int, trump: int, sides: Sequence[int],
               objective: str = "most", trick: Sequence[int] = ()) -> int:
    """``solve``, compiled with numba (``whist_sim.solver.fast``)."""
    from whist_sim.solver.fast import solve_fast as compiled

    return compiled(hands, leader, trump, sides, objective, trick)
