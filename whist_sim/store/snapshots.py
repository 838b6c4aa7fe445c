"""``data/``, the view readers read: a link to an immutable snapshot of the committed units.

::

    data -> .snapshots/000042/data       the link every reader follows, swapped atomically
    .snapshots/000042/
        _manifest.json                   the units this snapshot holds (manifest.py)
        data/deals/task-00000042.parquet a hard link to .units/task-00000042/deals.parquet
        data/deals/batch-00001.parquet   a hard link to .units/batch-00001/deals.parquet
        data/seats/...                   one folder per table, nothing else in it
    .units/<unit>/<table>.parquet        the files, written once and never changed
    .staging/                            work in progress, never read

Why a link to a snapshot rather than files renamed into ``data/``: a rename
commits one file, and a commit adds a file to every table, a compaction removes
many task files and adds a batch; a reader globbing in between would count
rows twice, or see a unit in one table and not in another. Swapping one link
(``rename`` over it) changes every table at once.

Why the manifest sits beside the snapshot's ``data/`` and not in it: ``data/`` holds
table folders and nothing else, so any tool reads ``data/<table>`` or globs
``data/*/*.parquet`` without meeting a file that is not Parquet (Polars and DuckDB
refuse a folder with a JSON file in it). It still swaps with the files it describes:
the link names the snapshot, and the snapshot holds both. Runs written before this
(``data -> .snapshots/N`` with ``_manifest.json`` among the table folders)
are read as they are and moved to this layout by the next writer (``View.current``).

Why hard links: a snapshot is rebuilt at every commit, one entry per unit and
table, and on ext4 a hard link costs a directory entry where a symbolic link
costs an inode, 20 to 30 times more (1 ms against 30 ms for 64 units of five
tables, measured). The price: a copy that does not keep hard links (``cp -r``,
``rsync -a`` without ``-H``) stores the files twice; ``cp -a``, ``rsync -aH`` and
``tar`` do not.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from whist_sim.store.crash_points import crash_point
from whist_sim.store.errors import RunFolderError
from whist_sim.store.manifest import MANIFEST_FILE, Manifest

DATA_DIR = "data"
UNITS_DIR = ".units"
SNAPSHOTS_DIR = ".snapshots"
STAGING_DIR = ".staging"

_LINK = "data-link"
_SET_ASIDE = "data-set-aside"


def unit_file(run: Path, unit: str, table: str) -> Path:
    """Where a unit keeps its file of ``table``."""
    return run / UNITS_DIR / unit / f"{table}.parquet"


def snapshot_dir(run: Path, number: int) -> Path:
    return run / SNAPSHOTS_DIR / f"{number:06d}"


def build_snapshot(run: Path, manifest: Manifest, tables: Iterable[str], op: str) -> None:
    """Write snapshot ``manifest.snapshot``: the manifest, and beside it ``data/`` with a
    folder per table linking every unit's file; built in ``.staging/`` and renamed into
    ``.snapshots/`` whole."""
    stage = run / STAGING_DIR / f"snapshot-{manifest.snapshot:06d}"
    shutil.rmtree(stage, ignore_errors=True)
    (stage / DATA_DIR).mkdir(parents=True)
    units = os.path.join(run, UNITS_DIR)
    for index, table in enumerate(tables):
        folder = os.path.join(stage, DATA_DIR, table)
        os.mkdir(folder)
        for unit in manifest.units:  # strings, not Paths: this loop is a commit's main cost
            _link(f"{units}/{unit}/{table}.parquet", f"{folder}/{unit}.parquet",
                  f"../../../../{UNITS_DIR}/{unit}/{table}.parquet")
        if index == 0:
            crash_point(f"{op}:linking")
    (stage / MANIFEST_FILE).write_text(manifest.to_json())
    target = snapshot_dir(run, manifest.snapshot)
    shutil.rmtree(target, ignore_errors=True)  # one a killed writer built but never showed
    os.rename(stage, target)
    crash_point(f"{op}:snapshot")


NO_HARD_LINKS = {errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP}
"""Why a file system can refuse a hard link (some network and FUSE file systems): then
the snapshot holds a symbolic link instead, slower to make but read the same way."""


def _link(source: str, name: str, relative: str) -> None:
    try:
        os.link(source, name)
    except OSError as exc:
        if exc.errno not in NO_HARD_LINKS:
            raise
        os.symlink(relative, name)


def show(run: Path, number: int) -> None:
    """Point ``data`` at snapshot ``number`` in one atomic rename.

    A ``data`` that is a real folder (an older run's, or one a copy made by following
    links) is first moved aside; if the process dies in that instant, ``recover``
    finds the folder without ``data`` and finishes the job.
    """
    link = run / STAGING_DIR / _LINK
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    target = f"{SNAPSHOTS_DIR}/{number:06d}"
    if (run / target / DATA_DIR).is_dir():  # else a snapshot of the layout before (recover)
        target = f"{target}/{DATA_DIR}"
    os.symlink(target, link)
    data = run / DATA_DIR
    if data.is_symlink() or not data.exists():
        os.replace(link, data)
        return
    aside = run / STAGING_DIR / _SET_ASIDE
    shutil.rmtree(aside, ignore_errors=True)
    os.rename(data, aside)
    os.replace(link, data)
    shutil.rmtree(aside, ignore_errors=True)


def shown_snapshot(run: Path) -> int | None:
    """The number of the snapshot the ``data`` link names, read from disk; None when
    ``data`` is no such link."""
    try:
        target = Path(os.readlink(run / DATA_DIR))
    except OSError:
        return None
    parts = target.parts
    if len(parts) >= 2 and parts[0] == SNAPSHOTS_DIR and parts[1].isdigit():
        return int(parts[1])
    return None


def recover(run: Path) -> None:
    """Give back a ``data`` that ``show`` was replacing when its process died."""
    if os.path.lexists(run / DATA_DIR):
        return
    shown = [d for d in snapshot_numbers(run) if (snapshot_dir(run, d) / MANIFEST_FILE).exists()]
    if shown:
        show(run, max(shown))
    elif (run / STAGING_DIR / _SET_ASIDE).is_dir():
        os.rename(run / STAGING_DIR / _SET_ASIDE, run / DATA_DIR)


def snapshot_numbers(run: Path) -> list[int]:
    folder = run / SNAPSHOTS_DIR
    if not folder.is_dir():
        return []
    return sorted(int(d.name) for d in folder.iterdir() if d.name.isdigit())


def remove_snapshots(run: Path, keep: Collection[int]) -> None:
    """Remove every snapshot but those numbered in ``keep`` (removing one removes links,
    never unit files)."""
    for number in snapshot_numbers(run):
        if number not in keep:
            shutil.rmtree(snapshot_dir(run, number), ignore_errors=True)


def remove_units(run: Path, units: Iterable[str]) -> None:
    for unit in units:
        shutil.rmtree(run / UNITS_DIR / unit, ignore_errors=True)


def clear_staging(run: Path) -> None:
    """Drop whatever a killed writer left half made; nothing in ``.staging/`` is ever read."""
    shutil.rmtree(run / STAGING_DIR, ignore_errors=True)
    (run / STAGING_DIR).mkdir()


@dataclass(frozen=True)
class View:
    """What ``data/`` shows at one moment: its table folders (resolved, so a later swap
    does not move them), that snapshot's manifest and where it lies, and the file names in
    each table folder (None for a table folder that is missing)."""

    root: Path
    manifest: Manifest
    listing: Mapping[str, set[str] | None]
    manifest_file: Path
    """The manifest's path as users know it (under the run folder, links not resolved)."""
    current: bool = True
    """Whether the snapshot has today's layout (False: the manifest among the tables, or a
    ``data/`` folder a copy made by following the link): the next writer moves it on."""
    others: tuple[str, ...] = ()
    """Names at the top of ``data/`` that are not the run's tables (nor hidden)."""


def manifest_file(run: Path, root: Path) -> tuple[Path, Path, bool]:
    """Where the manifest of the snapshot whose tables are at ``root`` lies: its real path,
    the path users know it by, and whether the snapshot has today's layout. Raises
    FileNotFoundError when there is none (a writer removed the snapshot meanwhile)."""
    snapshots = (run / SNAPSHOTS_DIR).resolve()
    if root.name == DATA_DIR and root.parent.parent == snapshots:
        shown = run / SNAPSHOTS_DIR / root.parent.name / MANIFEST_FILE
        return root.parent / MANIFEST_FILE, shown, True
    if (root / MANIFEST_FILE).exists():  # snapshot 2: the manifest among the table folders
        return root / MANIFEST_FILE, run / DATA_DIR / MANIFEST_FILE, False
    if root == (run / DATA_DIR).resolve():  # a real data/ folder: a copy that followed links
        shown = [n for n in snapshot_numbers(run)
                 if (snapshot_dir(run, n) / MANIFEST_FILE).exists()]
        if shown:
            file = snapshot_dir(run, max(shown)) / MANIFEST_FILE
            return file, file, False
    raise FileNotFoundError(errno.ENOENT, "no manifest", str(root.parent / MANIFEST_FILE))


def read_view(run: Path, tables: Iterable[str]) -> View:
    """The snapshot ``data/`` shows now. Raises FileNotFoundError if it vanished while being
    read (a writer moved on and removed it): the caller reads again."""
    root = (run / DATA_DIR).resolve(strict=True)
    file, shown, current = manifest_file(run, root)
    try:
        manifest = Manifest.read(file, shown)
    except RunFolderError as exc:
        raise RunFolderError(
            f"{exc}; run whist-sim run --resume {run} to rebuild it from the records each"
            " unit keeps") from None
    tables = tuple(tables)
    listing: dict[str, set[str] | None] = {}
    for table in tables:
        try:
            listing[table] = {entry.name for entry in os.scandir(root / table)
                              if not hidden(entry.name)}
        except FileNotFoundError:
            listing[table] = None
    others = tuple(sorted(name for name in os.listdir(root)
                          if name not in tables and not hidden(name)
                          and (current or name != MANIFEST_FILE)))
    return View(root, manifest, listing, shown, current, others)


def hidden(name: str) -> bool:
    """Whether a file in ``data/`` is one that readers pass over and the check ignores: a
    name starting with a dot (Finder's ``.DS_Store``, an NFS client's ``.nfs000...``
    for a file still open when removed, an editor's swap file), unless it ends in
    ``.parquet``. Refusing the run for a ``.DS_Store`` made it unreadable once its
    folder was opened in the Finder; but Polars and DuckDB read a hidden
    ``.extra.parquet`` in ``data/seats`` (pyarrow's datasets do not), so that one is
    still a file the manifest does not name."""
    return name.startswith(".") and not name.endswith(".parquet")


def entry(view: View, table: str, unit: str) -> Path:
    """Where the snapshot keeps ``unit``'s file of ``table``."""
    return view.root / table / f"{unit}.parquet"
