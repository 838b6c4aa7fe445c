"""Lay a report's sections out as a page: anchors, contents, capped tables, CSV links.

The templates (``render``) only print what this module decides, so every rule
of the page's shape lives here, in one place, testable without a browser:

- every section gets an anchor, made as GitHub makes heading anchors, so the
  table of contents links work in ``report.md`` on GitHub and in
  ``report.html`` alike;
- no table shows more than :data:`MAX_ROWS` rows: a page of 130-row tables is
  one nobody reads (a Solo report once ran to 16,000 px). Every table is
  written whole as CSV beside the report (:data:`TABLES_DIR`), and a table cut
  short says so and links its file ("first 25 of 130 rows; all 130 rows:
  solo_make_rate.csv");
- figures carry their pixel size, read from the PNG, so the browser reserves
  their room before they load and never has to guess a scale.
"""

from __future__ import annotations

import hashlib
import re
import struct
from dataclasses import dataclass
from pathlib import Path

from whist_sim.reports.document import Section, Table

MAX_ROWS = 25
"""Rows a table may show on the page; the rest are in its CSV."""

TABLES_DIR = "tables"
"""Folder of the report's CSV files, inside the report folder."""

LONG_CELL = 40
"""Cells longer than this (an error message, a strategy's params) may wrap; shorter ones,
numbers and intervals, never break across lines."""


@dataclass(frozen=True)
class PageTable:
    """A table as the page shows it."""

    caption: str
    header: list[str]
    rows: list[list[str]]
    """At most :data:`MAX_ROWS` rows: the first ones of the whole table."""
    total: int
    """Rows of the whole table (its CSV)."""
    csv: str
    """Its CSV, relative to the report folder."""
    details_csv: str | None
    """The CSV of the longer table it condenses, if any (relative to the report folder)."""
    details_total: int
    numeric: list[bool]
    """Per column: whether it holds numbers (right-aligned so digits line up); the key
    column and text columns are left-aligned."""

    @property
    def cut(self) -> bool:
        return self.total > len(self.rows)

    @property
    def csv_name(self) -> str:
        return Path(self.csv).name

    @property
    def details_name(self) -> str:
        return Path(self.details_csv).name if self.details_csv else ""

    def wraps(self, cell: str) -> bool:
        """Whether a cell may break across lines (long text), or must stay on one."""
        return len(cell) > LONG_CELL


@dataclass(frozen=True)
class PageFigure:
    src: str
    """Relative to the report folder."""
    alt: str
    width: int | None
    height: int | None


@dataclass(frozen=True)
class PageSection:
    title: str
    anchor: str
    paragraphs: list[str]
    tables: list[PageTable]
    figures: list[PageFigure]


@dataclass(frozen=True)
class Page:
    title: str
    sections: list[PageSection]
    files: dict[str, Table]
    """CSV path (relative to the report folder) -> the whole table to write there."""
    guide: str = ""
    """The line under the title that says where the report is explained (``GUIDE``)."""


GUIDE = ("How to read this report: `docs/reading-a-report.md` in whist_sim's repository"
         " explains every section, table and figure, and `docs/glossary.md` the words it"
         " uses (hand, pair, deal index, net, Elo). Numbers in brackets are 95% intervals.")
"""Printed under the report's title: a newcomer met "Holm's step-down test", "Bradley-Terry"
and "deal indices" with no word of where they are explained (a probe)."""


def anchor(title: str, taken: set[str] | None = None) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to
    hyphens; ``-1``, ``-2`` ... after a repeat (``taken`` collects those used)."""
    base = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
    name, count = base, 0
    while taken is not None and name in taken:
        count += 1
        name = f"{base}-{count}"
    if taken is not None:
        taken.add(name)
    return name


STEM_LENGTH = 48
"""Longest file name made from a caption (a whole caption as a name would not fit a line)."""

_NUMBER = re.compile(r"^[-+−]?\.?\d")


_WHOLE_NUMBER = re.compile(r"(?<![^\s\[(])([-+−]?)(\d{4,})((?:\.\d+)?)(?![\w.:\-]|,\d)")
"""A number of four digits or more before its point, standing alone in a cell: at its
start or after a space or an opening bracket, and not followed by more of a word, a
number or a key (``0-1045-1-0``, a date, a time); a comma may follow, as in an interval."""


def grouped(cell: str) -> str:
    """A numeric cell as the page shows it: whole numbers grouped by thousands, ``8,240``,
    as the report's prose writes them (tables printed "8240" beside the Run section's
    "8,240", a probe). Only the page: the CSV keeps the digits alone, which a spreadsheet
    reads as a number."""
    return _WHOLE_NUMBER.sub(
        lambda m: f"{m.group(1)}{int(m.group(2)):,}{m.group(3)}", cell)


def file_stem(text: str) -> str:
    """Words of ``text`` as a file name: lower case, runs of other characters to ``_``; a
    longer one than :data:`STEM_LENGTH` is cut after the last whole word that leaves room
    for ``_`` and six hex digits of the whole name's SHA-1, so names that differ only past
    the cut stay apart (two strategies' tables, ``..._simulation_bidder_worlds_8`` and
    ``_6``, were one name and a ``_2``, by the order of the tables: a probe), and the same
    table has the same name in every report."""
    stem = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "table"
    if len(stem) > STEM_LENGTH:
        digest = hashlib.sha1(stem.encode()).hexdigest()[:6]
        stem = f"{stem[:STEM_LENGTH - 6].rsplit('_', 1)[0]}_{digest}"
    return stem


def numeric_columns(header: list[str], rows: list[list[str]]) -> list[bool]:
    """Columns whose every cell is a number, an interval, a share or a dash (not all dashes);
    never the first, the key column."""
    flags = []
    for i in range(len(header)):
        cells = [row[i] for row in rows if row[i] not in ("—", "")]
        flags.append(i > 0 and bool(cells) and all(_NUMBER.match(c) for c in cells))
    return flags


def layout(title: str, sections: list[Section], out: Path) -> Page:
    """The page of ``sections``: anchors, tables cut to :data:`MAX_ROWS` with their CSV
    paths, figures with their sizes. ``out`` is the report folder (figures lie inside)."""
    anchors: set[str] = set()
    stems: set[str] = set()
    files: dict[str, Table] = {}

    def csv_path(table: Table, section: Section) -> str:
        stem = file_stem(table.name or f"{section.title} {table.caption}")
        unique, count = stem, 1
        while unique in stems:
            count += 1
            unique = f"{stem}_{count}"
        stems.add(unique)
        path = f"{TABLES_DIR}/{unique}.csv"
        files[path] = table
        return path

    laid = []
    for section in sections:
        tables = []
        for table in section.tables:
            csv = csv_path(table, section)
            details = csv_path(table.details, section) if table.details is not None else None
            numeric = numeric_columns(table.header, table.rows)
            tables.append(PageTable(
                caption=table.caption, header=list(table.header),
                rows=[[grouped(cell) if number else cell
                       for cell, number in zip(row, numeric, strict=True)]
                      for row in table.rows[:MAX_ROWS]],
                total=len(table.rows), csv=csv, details_csv=details,
                details_total=len(table.details.rows) if table.details is not None else 0,
                numeric=numeric,
            ))
        figures = [_figure(image, section.title, out) for image in section.images]
        laid.append(PageSection(section.title, anchor(section.title, anchors),
                                list(section.paragraphs), tables, figures))
    return Page(title, laid, files, GUIDE)


def _figure(image: Path, alt: str, out: Path) -> PageFigure:
    try:
        src = image.relative_to(out).as_posix()
    except ValueError:
        src = image.as_posix()
    width, height = png_size(image)
    return PageFigure(src, alt, width, height)


def png_size(path: Path) -> tuple[int | None, int | None]:
    """Width and height in pixels from a PNG's header; (None, None) if it is not one."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(24)
    except OSError:
        return None, None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None, None
    width, height = struct.unpack(">II", head[16:24])
    return width, height
