"""The check that a resumed run plays the code it started with.

run.json records each entrant's version and where its code came from (the module's
file and its SHA-256; a bot's command and the SHA-256 of every file it names). A run
resumed after a plug-in was edited would otherwise play its remaining tasks with the
new code beside rows of the old, one run mixing two behaviours under one label (a
newcomer probe: a plug-in's mean net 1.86 before the edit, 0.85 after, no warning).
Nothing here reads a strategy's results; only what run.json and the current config say
of the code.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from whist_sim.store import RunFolderError


def check_same_code(run_json: Path, recorded: Mapping[str, Any],
                    versions: Mapping[str, str], sources: Mapping[str, Mapping[str, Any]]
                    ) -> None:
    """Refuse (``RunFolderError``) when an entrant's version or code differs from what
    run.json ``recorded`` under ``"strategies"``; ``versions`` and ``sources``: the
    current config's (``TournamentConfig.strategy_versions`` and ``strategy_sources``).
    A field run.json does not hold (a run from an older whist_sim) is not compared."""
    for name, then in recorded.items():
        if not isinstance(then, Mapping) or name not in versions:
            continue
        change = _first_change(then, versions[name], sources.get(name) or {})
        if change is not None:
            raise RunFolderError(
                f"{run_json}: strategy {name!r} changed since the run started: {change}."
                " Resuming would mix results of two versions of it in one run; restore its"
                " code to continue, or start a new run (whist-sim run CONFIG --out NEW_FOLDER)"
            )


def _first_change(then: Mapping[str, Any], version: str, source: Mapping[str, Any]
                  ) -> str | None:
    """What differs first, as a clause of the refusal; None when nothing does."""
    recorded_version = then.get("version")
    if recorded_version is not None and str(recorded_version) != str(version):
        return f"its version is {version!r}, the run was played with {recorded_version!r}"
    before = then.get("source") or {}
    if not isinstance(before, Mapping):
        return None
    if before.get("sha256") and source.get("sha256") and before["sha256"] != source["sha256"]:
        return (f"its module {source.get('file') or before.get('file')} is not the file the"
                f" run was played with (SHA-256 {source['sha256'][:12]}..., recorded"
                f" {before['sha256'][:12]}...)")
    files_then, files_now = before.get("files") or {}, source.get("files") or {}
    if isinstance(files_then, Mapping) and isinstance(files_now, Mapping):
        for part, digest in files_then.items():
            if part in files_now and files_now[part] != digest:
                return (f"{part!r} of its command is not the file the run was played with"
                        f" (SHA-256 {files_now[part][:12]}..., recorded {digest[:12]}...)")
    return None
