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

MOST_NAMED = 3
"""Unfinished runs named at most (the most recently started first)."""


def unfinished_runs_of(config: Any, where: Path) -> list[tuple[Path, str]]:
    """The run folders directly under ``where`` whose run.json records ``config`` (a
    validated config, as a run records it) and a status other than complete: (folder,
    status), the most recently started first, at most ``MOST_NAMED``."""
    wanted = json.loads(json.dumps(config.model_dump(mode="json")))
    found = []
    try:
        folders = [path for path in where.iterdir() if path.is_dir()]
    except OSError:  # no results folder yet: nothing to name
        return []
    for folder in folders:
        try:
            meta = json.loads((folder / "run.json").read_text())
        except (OSError, ValueError):
            continue
        if (isinstance(meta, dict) and meta.get("config") == wanted
                and meta.get("status") not in (None, "complete")):
            found.append((str(meta.get("started") or ""), folder, str(meta["status"])))
    found.sort(key=lambda item: item[0], reverse=True)
    return [(folder, status) for _, folder, status in found[:MOST_NAMED]]
