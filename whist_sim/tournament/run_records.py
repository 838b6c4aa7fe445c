"""run.json's records of what a run plays, and the digests that show they were edited.

A resume compares the run's config with run.json's own records of the run (its seed,
plan, game, variant, line-ups, entrants, play rules: ``runner``), so an edit of either
side is refused. Both sides are in the same file, though, and an edit made to both
alike passed: new params written into the config and the ``strategies`` record resumed
a run that mixed two parameter sets under one label, and a deal count cut in the
config and the plan made it "complete" with rows beyond its plan (a probe). So the
run's start also writes each record's digest (``records_sha256``); a resume refuses a
run.json whose records no longer match them. A guard against slips, not against
someone set on rewriting a run: they can rewrite the digests as well.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from whist_sim.store import RunFolderError

RECORDS = ("root_seed", "seat_seeding", "seating_orders", "deals_file_sha256", "plan", "game",
           "variant", "players", "lineups", "pairing_ids", "strategies", "play_rules")
"""The keys of run.json that say what the run plays, fixed when it starts. Of
``strategies`` only each entrant's ``use`` and ``params`` count: its code is checked
against its ``version`` and ``source`` by ``same_code``."""

DIGESTS = "records_sha256"
"""The key of run.json that holds each record's digest."""


def record_digests(meta: dict[str, Any]) -> dict[str, str]:
    """Each record of ``meta`` (run.json as a dict) that it has, by its SHA-256."""
    return {key: _digest(_record(meta, key)) for key in RECORDS if key in meta}


def check_records_unedited(path: Path, meta: dict[str, Any]) -> None:
    """Refuse a run.json (at ``path``) whose records differ from the digests written when
    the run started. A run started before the digests were kept has none: nothing to
    check."""
    kept = meta.get(DIGESTS)
    if kept is None:
        return
    if not isinstance(kept, dict):
        raise RunFolderError(
            f"{path}: corrupt ({DIGESTS} = {json.dumps(kept)}: not the table of digests"
            " written when the run started); restore run.json from a backup, or start a"
            " new run")
    now = record_digests(meta)
    edited = [key for key, digest in kept.items() if now.get(key) != digest]
    if edited:
        which = (f"record {edited[0]} is" if len(edited) == 1
                 else f"records {', '.join(edited)} are")
        raise RunFolderError(
            f"{path}: its {which} not what the run was started with (its digest in"
            f" {DIGESTS}, written then, differs): run.json was edited, its config too if"
            " that still agrees. A resumed run must play what it started: restore"
            " run.json from a backup, or start a new run with the new config")


SCHEMES = (1, 2)
"""The values ``seat_seeding`` and ``seating_orders`` take: 1, how runs started before the
key was kept play (and a run.json without it), 2, this version's."""


def recorded_scheme(meta: dict[str, Any], key: str, path: Path) -> int:
    """run.json's ``key`` (``seat_seeding``, ``seating_orders``): 1 where it is not kept (a
    run started before), else the number kept, refused with the file, key and allowed
    values where it is none of them ("abc" had ended a resume in a ValueError traceback,
    and a 7 played as a 2: a hostile reading)."""
    value = meta.get(key, 1)
    if isinstance(value, bool) or value not in SCHEMES:
        raise RunFolderError(
            f"{path}: {key} = {json.dumps(value)} is not a value this whist_sim knows;"
            f" allowed values: {', '.join(map(str, SCHEMES))} (run.json was edited, or"
            " written by a later whist_sim: restore it, or use the whist_sim version that"
            " started the run)")
    return int(value)


def _record(meta: dict[str, Any], key: str) -> Any:
    value = meta[key]
    if key == "strategies" and isinstance(value, dict):
        return {label: {"use": entry.get("use"), "params": entry.get("params")}
                if isinstance(entry, dict) else entry for label, entry in value.items()}
    return value


def _digest(value: Any) -> str:
    """The SHA-256 of ``value`` as run.json holds it (keys sorted, so order does not count)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
