"""Checking what ``data/`` shows against its manifest: what is wrong, and the way out.

Four kinds of trouble, each with its own way out:

- a **damaged unit**: a unit's file has other bytes than were committed. Nothing
  whist-sim does leaves that (files are written aside and renamed whole), so it
  came from outside: a disk, an edit, a bad copy. Nothing repairs it behind the
  user's back: the message names the unit to remove, and ``--resume`` then plays
  its deals again.
- a **missing unit**: a unit's file in ``.units/`` is gone (removing a unit's folder
  there is how a user discards it). The run is incomplete; ``--resume`` plays the
  unit's tasks again by itself (there is nothing left to lose).
- a **damaged view**: ``data/`` shows a wrong copy of an intact unit file (in a copy
  of the run that did not keep hard links, say). Remove it; ``--resume`` restores it.
- an **incomplete view**: ``data/`` lacks a file the manifest lists, or shows one it
  does not. Other tools would read other rows than the run holds; ``--resume``
  rebuilds ``data/`` from the units, playing nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from whist_sim.store.errors import RunFolderError
from whist_sim.store.manifest import FileRecord, describe_tasks, file_problem
from whist_sim.store.snapshots import DATA_DIR, UNITS_DIR, View, entry, unit_file

NOT_A_TABLE = "is not one of the run's tables"
"""What an entry at the top of ``data/`` that is no table of the run is said to be."""
EXTRA_FILE = "is not in the manifest"
"""What a file in a table's folder that no unit of the snapshot holds is said to be."""

DAMAGED = "damaged unit"
MISSING = "missing unit"
VIEW_DAMAGED = "damaged view"
VIEW_INCOMPLETE = "incomplete view"
SEVERITY = (DAMAGED, VIEW_DAMAGED, MISSING, VIEW_INCOMPLETE)
"""The order problems are told in: what needs the user first."""


@dataclass(frozen=True)
class Problem:
    kind: str
    unit: str | None
    where: Path
    what: str


def foreign(problem: Problem) -> bool:
    """Whether ``problem`` is an entry at the top of ``data/`` that is not a table: perhaps
    a user's own file, which a rebuild of ``data/`` would remove with the old snapshot."""
    return problem.unit is None and problem.what.startswith(NOT_A_TABLE)


def check_view(
    run: Path, view: View, tables: Iterable[str], *, checksum: bool
) -> list[Problem]:
    """Check every unit file the manifest lists, and that ``data/`` shows exactly those
    files: row counts from the Parquet footers always, SHA-256 with ``checksum``.

    whist_sim's readers read the units' own files (``.units/``), which stay in place
    while a writer swaps snapshots; ``data/`` must show the very same files (hard
    links), or intact copies of them (a copy of the run that did not keep hard links).
    """
    problems: list[Problem] = []
    verdicts: dict[tuple[int, int], str | None] = {}

    def problem_of(path: Path, record: FileRecord) -> str | None:
        stat = path.stat()
        key = (stat.st_dev, stat.st_ino)  # a file shown under two names is read once
        if key not in verdicts:
            verdicts[key] = file_problem(path, record, checksum)
        return verdicts[key]

    units = view.manifest.units
    tables = tuple(tables)
    for name in view.others:
        problems.append(Problem(VIEW_INCOMPLETE, None, run / DATA_DIR / name,
                                f"{NOT_A_TABLE} ({', '.join(tables)})"))
    for table in tables:
        shown = view.listing.get(table)
        folder = run / DATA_DIR / table
        if shown is None:
            problems.append(Problem(VIEW_INCOMPLETE, None, folder, "is missing"))
            shown = set()
        for extra in sorted(shown - {f"{unit}.parquet" for unit in units}):
            problems.append(
                Problem(VIEW_INCOMPLETE, None, folder / extra, EXTRA_FILE))
        for unit, record in units.items():
            if table not in record.files:
                raise RunFolderError(
                    f"{view.manifest_file}: corrupt manifest (unit {unit} has no"
                    f" {table} file)")
            expected = record.files[table]
            where = folder / f"{unit}.parquet"
            stored = unit_file(run, unit, table)
            if not stored.exists():
                problems.append(Problem(MISSING, unit, stored, "is gone"))
                continue
            shown_file = entry(view, table, unit)
            if not shown_file.exists():
                problems.append(Problem(
                    VIEW_INCOMPLETE, unit, where, "is missing, though the unit's file is intact"))
                same = False
            else:
                same = os.path.samefile(shown_file, stored)
                if not same and (problem := problem_of(shown_file, expected)) is not None:
                    problems.append(Problem(VIEW_DAMAGED, unit, where, problem))
            if (problem := problem_of(stored, expected)) is not None:
                problems.append(Problem(DAMAGED, unit, where if same else stored, problem))
    return problems


def explain(run: Path, view: View, problems: list[Problem]) -> str:
    """One line: the most pressing problem, what to do about it, and how many more there are."""
    worst = min(problems, key=lambda p: SEVERITY.index(p.kind))
    same_kind = [p for p in problems if p.kind == worst.kind]
    others = len(problems) - len(same_kind)
    more = f" (and {others} more problem{'s' * (others != 1)})" if others else ""
    resume = f"whist-sim run --resume {run}"
    if worst.kind == MISSING:
        missing = sorted({p.unit for p in same_kind if p.unit})
        tasks = [t for unit in missing for t in view.manifest.units[unit].tasks]
        return (
            f"{run}: incomplete: {_units(missing)} holding {describe_tasks(tasks)}"
            f" {'is' if len(missing) == 1 else 'are'} missing ({worst.where} {worst.what});"
            f" run {resume} to play their deals again{more}"
        )
    if worst.kind == DAMAGED:
        assert worst.unit is not None
        tasks = view.manifest.units[worst.unit].tasks
        also = len(same_kind) - 1
        return (
            f"{worst.where}: {worst.what}; it belongs to unit {worst.unit}"
            f" ({describe_tasks(tasks)}): remove {run / UNITS_DIR / worst.unit} and run"
            f" {resume} to play its deals again"
            + (f" (and {also} more damaged file{'s' * (also != 1)})" if also else "") + more
        )
    if worst.kind == VIEW_DAMAGED:
        return (
            f"{worst.where}: {worst.what}; the unit's own file is intact: remove {worst.where}"
            f" and run {resume} to restore it{more}"
        )
    count = len(same_kind)
    if worst.what.startswith(NOT_A_TABLE):  # a user's file, perhaps: never removed here
        return (
            f"{worst.where}: {worst.what}{f' (and {count - 1} more like it)' if count > 1 else ''};"
            " data/ holds the run's tables and nothing else (a tool that reads all of data/"
            f" would read it too): move it out of {run}{more}"
        )
    return (
        f"{worst.where}: {worst.what}{f' (and {count - 1} more like it)' if count > 1 else ''};"
        f" data/ shows other rows than the run holds: run {resume} to rebuild data/ from"
        f" its units (that plays nothing again){more}"
    )


def _units(names: list[str]) -> str:
    return ("unit " if len(names) == 1 else "units ") + ", ".join(names)


def repaired(run: Path, view: View, problems: list[Problem]) -> list[str]:
    """What a writer's repair did about ``problems`` (missing units, an incomplete view),
    one line each, for the user to see before the run goes on."""
    notes = []
    missing = sorted({p.unit for p in problems if p.kind == MISSING and p.unit})
    if missing:
        first = next(p for p in problems if p.kind == MISSING)
        tasks = [t for unit in missing for t in view.manifest.units[unit].tasks]
        notes.append(
            f"{run}: incomplete: {_units(missing)} holding {describe_tasks(tasks)}"
            f" {'was' if len(missing) == 1 else 'were'} missing ({first.where} {first.what});"
            " playing their deals again")
    shown = [p for p in problems if p.kind == VIEW_INCOMPLETE]
    if shown:
        notes.append(f"{shown[0].where}: {shown[0].what}"
                     f"{f' (and {len(shown) - 1} more like it)' if len(shown) > 1 else ''};"
                     f" rebuilt {run / DATA_DIR} from the run's units{_dropped(shown)}")
    return notes


def _dropped(shown: list[Problem]) -> str:
    """The files added to a table's folder that the rebuild leaves behind with the old
    snapshot, which the writer removes as it closes: a note that said only "rebuilt data/"
    let a user's ``data/seats/notes.txt`` go without a word (a probe)."""
    extra = [str(p.where) for p in shown if p.what == EXTRA_FILE]
    if not extra:
        return ""
    verb, pronoun = ("is", "it") if len(extra) == 1 else ("are", "they")
    return (f"; {', '.join(extra)} {verb} not the run's: {pronoun} went with the old"
            " snapshot, which this session removes (keep files of your own outside data/)")
