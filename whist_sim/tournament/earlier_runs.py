"""Unfinished runs of a config beside the folder a new run of it starts in.

After a Ctrl-C a newcomer ran the same command again: it started from nothing in a new
folder, with no word of the run it had stopped, whose "continue with" line had gone
by (a probe). ``whist-sim run`` without ``--out`` names such runs before it starts,
and how to go on with one instead. Only run.json is read (no table), so a results
folder of many runs is looked through in moments.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from whist_sim.store.folder import runs_under

MOST_NAMED = 3
"""Unfinished runs named at most (the most recently started first)."""


def unfinished_runs_of(config: Any, where: Path) -> list[tuple[Path, str]]:
    """The run folders directly under ``where`` whose run.json records ``config`` (a
    validated config, as a run records it) and a status other than complete: (folder,
    status), the most recently started first, at most ``MOST_NAMED``."""
    wanted = json.loads(json.dumps(config.model_dump(mode="json")))
    return [(folder, str(meta["status"])) for folder, meta in runs_under(where)
            if meta.get("config") == wanted
            and meta.get("status") not in (None, "complete")][:MOST_NAMED]
