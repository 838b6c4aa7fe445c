"""``LazyModule``: a heuristic's compiled path, imported on its first decision.

Each heuristic keeps its numba path in a module of its own (``*_heuristic_compiled``),
which imports numba (about a second): importing it only when the first decision asks
keeps numba out of every process that never plays that heuristic compiled.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class LazyModule:
    """The module ``name``, imported on the first ``load()``; read ``module or load()``
    per decision (an attribute read, where an ``import`` statement costs about half a
    microsecond)."""

    __slots__ = ("module", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.module: ModuleType | None = None

    def load(self) -> ModuleType:
        self.module = importlib.import_module(self.name)
        return self.module
