"""The check that a resumed run plays the code it started with.

run.json records each entrant's version and where its code came from (the module's
file and its SHA-256; a bot's command and the SHA-256 of every file it names; the
installed distribution that supplies it, at its version). A run
resumed after a plug-in was edited would otherwise play its remaining tasks with the
new code beside rows of the old, one run mixing two behaviours under one label (a
newcomer probe: a plug-in's mean net 1.86 before the edit, 0.85 after, no warning).
Nothing here reads a strategy's results; only what run.json and the current config say
of the code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
                " Resuming would mix results of two versions of it in one run; restore"
                f" {_what_to_restore(change, then)} to continue, or start a new run"
                " (whist-sim run CONFIG --out NEW_FOLDER)"
            )


def _what_to_restore(change: str, then: Mapping[str, Any]) -> str:
    """What the refusal asks the reader to put back: the file a parameter names when it
    is that file that changed (a retrained checkpoint is data, and "restore its code"
    sent the reader to the policy's module: a probe's finding), else its code."""
    before = then.get("source")
    if change.startswith(DISTRIBUTION_CHANGED) and isinstance(before, Mapping):
        name, version = before["distribution"], before["distribution_version"]
        return f"{name} {version} (pip install '{name}=={version}')"
    files = before.get("parameter_files") if isinstance(before, Mapping) else None
    for key, record in (files.items() if isinstance(files, Mapping) else ()):
        named = f"the file of its parameter {key} ("
        if change.startswith(named) and isinstance(record, Mapping):
            return f"{named}{record.get('file')})"
    return "its code"


DISTRIBUTION_CHANGED = "the distribution that supplies it"
"""How the refusal begins when the installed distribution's version changed."""


def _first_change(then: Mapping[str, Any], version: str, source: Mapping[str, Any]
                  ) -> str | None:
    """What differs first, as a clause of the refusal; None when nothing does.

    ``source`` is ``strategy_source``'s for a strategy played in the workers' processes
    (its module's ``file`` and ``sha256``), ``ProcessStrategy.source``'s for an entrant
    in a process of its own (``sha256``: every file its command names, by the command's
    part), with, for an isolated Python strategy, its module's ``plugin_file`` and
    ``plugin_sha256`` (``strategy.isolated_source``)."""
    recorded_version = then.get("version")
    if recorded_version is not None and str(recorded_version) != str(version):
        return f"its version is {version!r}, the run was played with {recorded_version!r}"
    before = then.get("source") or {}
    if not isinstance(before, Mapping):
        return None
    change = _distribution_change(before, source)
    if change is not None:
        return change
    digest_then, digest_now = before.get("sha256"), source.get("sha256")
    if isinstance(digest_then, str) and isinstance(digest_now, str) and digest_then != digest_now:
        return _file_changed(f"its module {source.get('file') or before.get('file')}",
                             digest_now, digest_then)
    if isinstance(digest_then, Mapping) and isinstance(digest_now, Mapping):
        for part, digest in digest_then.items():
            if part in digest_now and digest_now[part] != digest:
                return _file_changed(f"{part!r} of its command", digest_now[part], digest)
    plugin_then, plugin_now = before.get("plugin_sha256"), source.get("plugin_sha256")
    if plugin_then and plugin_now and plugin_then != plugin_now:
        return _file_changed(f"its module {source.get('plugin_file')}", plugin_now, plugin_then)
    for key in ("helpers", "plugin_helpers"):
        change = _helper_change(before.get(key), source.get(key))
        if change is not None:
            return change
    return _parameter_change(before, source)


def _distribution_change(before: Mapping[str, Any], source: Mapping[str, Any]) -> str | None:
    """How the installed distribution that supplies the entrant (``strategy_source``'s
    ``distribution`` and ``distribution_version``) differs from the one recorded: its
    version, or another distribution. An upgrade may change what a strategy does with
    its module's file unchanged (a module it imports only while playing, a data file, a
    compiled extension). Not compared where either side has none: a module imported from
    a path, or a bot, whose files are compared instead."""
    name_then, name_now = before.get("distribution"), source.get("distribution")
    version_then = before.get("distribution_version")
    version_now = source.get("distribution_version")
    if not (name_then and name_now and version_then and version_now):
        return None
    if (name_then, str(version_then)) == (name_now, str(version_now)):
        return None
    if name_now == name_then:
        return (f"{DISTRIBUTION_CHANGED}, {name_now}, is at version {str(version_now)!r},"
                f" the run was played with {str(version_then)!r}")
    return (f"{DISTRIBUTION_CHANGED} is now {name_now} {str(version_now)!r}, the run was"
            f" played with {name_then} {str(version_then)!r}")


def _parameter_change(before: Mapping[str, Any], source: Mapping[str, Any]) -> str | None:
    """How the code and files the entrant's parameters name (``parameter_sources``)
    differ from what the run recorded: a policy's module or its helpers, a weights file
    edited, or no longer there."""
    modules_then, modules_now = before.get("parameter_modules"), source.get("parameter_modules")
    if isinstance(modules_then, Mapping) and isinstance(modules_now, Mapping):
        for key, then in modules_then.items():
            now = modules_now.get(key)
            if not isinstance(then, Mapping) or not isinstance(now, Mapping):
                continue
            if then.get("sha256") != now.get("sha256"):
                return _file_changed(f"the module of its parameter {key} ({now.get('file')})",
                                     str(now.get("sha256")), str(then.get("sha256")))
            change = _helper_change(then.get("helpers"), now.get("helpers"))
            if change is not None:
                return f"{change} (through its parameter {key})"
    return _record_change(before.get("parameter_files"), source.get("parameter_files"),
                          lambda key, file: f"the file of its parameter {key} ({file})",
                          "is no longer found")


def _helper_change(then: Any, now: Any) -> str | None:
    """How the helper modules recorded (``helper_modules``) differ from today's: one
    edited, or one no longer found where the run found it. A run recorded before helpers
    were (``then`` None) is not compared."""
    return _record_change(then, now, lambda module, file: f"its helper module {module} ({file})",
                          "is no longer imported from where the run found it")


def _record_change(then: Any, now: Any, named: Callable[[str, Any], str], gone: str
                   ) -> str | None:
    """The first of the files recorded ``then`` (by key, each its ``file`` and ``sha256``)
    that ``now`` lacks (``gone``) or holds with another digest, as a clause; None when
    none differs, or when nothing was recorded (a run from an older whist_sim)."""
    if not isinstance(then, Mapping) or not isinstance(now, Mapping):
        return None
    for key, record in then.items():
        if not isinstance(record, Mapping):
            continue
        current = now.get(key)
        if not isinstance(current, Mapping):
            return f"{named(key, record.get('file'))} {gone}"
        if current.get("sha256") != record.get("sha256"):
            return _file_changed(named(key, current.get("file")), str(current.get("sha256")),
                                 str(record.get("sha256")))
    return None


def _file_changed(what: str, now: str, then: str) -> str:
    return (f"{what} is not the file the run was played with (SHA-256 {now[:12]}...,"
            f" recorded {then[:12]}...)")
