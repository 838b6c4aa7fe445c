"""``cached_njit``: numba's ``njit`` cached on disk, for every compiled hot loop of the project.

Importing this module imports numba (about a second), so modules that only sometimes
need a compiled path import theirs on first use.
"""

from __future__ import annotations

from numba import njit


def cached_njit(**options):
    """``njit`` cached on disk, or, where no cache folder is writable, compiled per process.

    numba writes the cache next to the compiled module (``__pycache__``, ignored by git),
    else in ``NUMBA_CACHE_DIR`` or the user's cache folder; with none of them writable it
    refuses ``cache=True`` outright, so a read-only install falls back to compiling.
    ``error_model="numpy"`` drops the zero-division checks of ``//`` and ``%``.
    """

    def wrap(function):
        try:
            return njit(cache=True, error_model="numpy", **options)(function)
        except RuntimeError:
            return njit(error_model="numpy", **options)(function)

    return wrap
