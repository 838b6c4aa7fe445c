"""The one error every part of the run folder raises."""

from __future__ import annotations

from whist_sim.games.base import WhistSimError


class RunFolderError(WhistSimError):
    """A run folder that is missing, incomplete, corrupt or being written by another process."""
