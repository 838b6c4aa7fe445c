"""The error a ratings fit raises when it stops short of its maximum.

Both ratings fits iterate to a fixed point (Hunter's MM with SQUAREM for Plackett-Luce,
``choix``'s ILSR for Bradley-Terry) and give up after a fixed number of steps. No data
are known to need more, but ratings from a fit that stopped early would be numbers it
has not found, and a plain ``RuntimeError`` ended ``build_report`` with a traceback and
no report. This class lets a report say, in its ratings section, that the ratings could
not be fitted, and keep every other section.
"""

from __future__ import annotations


class FitDidNotConverge(RuntimeError):
    """A ratings fit that ran out of iterations; its text says which fit and how far."""
