"""Build a run's report: analyses, PNG figures, CSV tables, ``report.md`` and ``report.html``.

``build_report(run)`` reads the run folder only (``run.json`` and the Parquet
tables, through ``RunFolder`` and its lazy ``scan``), asks each section module
for its sections, lays them out as a page (``page``: contents, tables capped at
``page.MAX_ROWS`` rows with their CSV beside them) and writes it from the
Jinja2 templates (``render``) into ``<run>/report/``.

This module only decides the order of the sections. Each section lives in a
module of its own that reads the columns it needs and returns
:class:`~whist_sim.reports.document.Section` objects: the run summary
(``run_section``), the verdict, standings, head to head, ratings, seats,
points per hand, forfeits and time per decision, then the game's own sections.
A game adds its sections by registering a builder in :data:`GAME_SECTIONS`
(game name -> function of the open run and the report folder), as German,
Solo, Minnesota and Knock-out Whist do. Each section collects its own queries:
a few more passes over a column or two of the Parquet files than one combined
plan would make, for sections that can be read, tested and changed one by one.

Memory: every section reads the run a range of deal indices at a time
(``chunks.DealRanges``, about ``chunks.CHUNK_HANDS`` hands a range) and keeps only
partial results: counts, sums and per-range moments (the generic and German Whist
sections), the verdict's values as NumPy arrays, rows per duplicate set or deal
index (the Solo, Minnesota and Knock-out Whist sections). So a German Whist
report's peak memory hardly grows with the run (411 MiB at 100,000 hands, 465 MiB
at 1,000,000, measured under load by ``benchmarks/large_run.py --report``). The
finishing-order ratings of tables of three or more seats (``ratings_section``)
still read every hand's finishing order at once: the Plackett-Luce fit takes them
all.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from whist_sim.inference.fit_failure import FitDidNotConverge
from whist_sim.reports import render
from whist_sim.reports.bradley_terry_section import bradley_terry_section
from whist_sim.reports.comparisons import SEAT_COMPARED
from whist_sim.reports.decision_time_section import decision_time_section
from whist_sim.reports.document import Section
from whist_sim.reports.forfeits_section import forfeits_section
from whist_sim.reports.german_whist_section import german_whist_sections
from whist_sim.reports.head_to_head_section import head_to_head_section
from whist_sim.reports.knockout_whist_section import knockout_whist_sections
from whist_sim.reports.minnesota_whist_section import minnesota_whist_sections
from whist_sim.reports.page import TABLES_DIR, layout
from whist_sim.reports.points_section import points_section
from whist_sim.reports.ratings_section import leading_ratings, multiplayer_ratings_section
from whist_sim.reports.run_facts import RunFacts
from whist_sim.reports.run_section import run_section
from whist_sim.reports.seat_section import seat_section
from whist_sim.reports.solo_whist_section import solo_whist_sections
from whist_sim.reports.standings_section import standings_section
from whist_sim.reports.stats import bradley_terry
from whist_sim.reports.verdict_section import verdict_section
from whist_sim.store import RunFolder, RunFolderError, run_part_holding

REPORT_DIR = "report"


class ReportError(RunFolderError, ValueError):
    """A report folder that cannot be made where it was asked to be (a file there, or
    above it). A RunFolderError, as every folder problem ``build_report`` names is (and
    reports import nothing of the games, where ``WhistSimError`` lives)."""


@dataclass(frozen=True)
class ReportPaths:
    """Where a report was written."""

    folder: Path
    markdown: Path
    html: Path
    images: dict[str, Path]
    """Figure name -> PNG path, all inside ``folder``."""
    tables: list[Path] = field(default_factory=list)
    """Every table of the report, whole, as CSV (``folder/tables/``)."""


SectionBuilder = Callable[[RunFolder, Path], list[Section]]
GenericBuilder = Callable[[RunFolder, Path, RunFacts], list[Section]]


def _ratings(folder: RunFolder, out: Path, facts: RunFacts) -> list[Section]:
    if facts.two:
        return bradley_terry_section(folder, out, facts)
    return multiplayer_ratings_section(folder, out)


GENERIC_SECTIONS: tuple[GenericBuilder, ...] = (
    standings_section,
    head_to_head_section,
    _ratings,
    seat_section,
    points_section,
    forfeits_section,
    decision_time_section,
)
"""The sections of every game, in page order, after the verdict and the run summary."""

GAME_SECTIONS: dict[str, SectionBuilder] = {
    "german_whist": german_whist_sections,
    "solo_whist": solo_whist_sections,
    "minnesota_whist": minnesota_whist_sections,
    "knockout_whist": knockout_whist_sections,
}
"""Game name -> builder of its own report sections, appended after the generic ones."""


def report_sections(folder: RunFolder, out: Path) -> list[Section]:
    """Every section of the run's report, in page order; figures are drawn into ``out``."""
    facts = RunFacts.of(folder)
    summaries = facts.pair_summaries() if facts.game in SEAT_COMPARED or facts.two else None
    sections = [*verdict_section(folder, out, _ratings_order(folder, facts),
                                 ranges=facts.chunks, summaries=summaries),
                run_section(folder, folder.meta(), facts.chunks)]
    for builder in GENERIC_SECTIONS:
        sections += builder(folder, out, facts)
    game_sections = GAME_SECTIONS.get(facts.game)
    if game_sections is not None:
        sections += game_sections(folder, out)
    else:
        sections.append(Section(facts.game, [f"No game-specific analyses for {facts.game} yet."]))
    return sections


def _ratings_order(folder: RunFolder, facts: RunFacts) -> dict[str, float]:
    """Each entrant's rating in the report's ratings, best first: Bradley-Terry at two
    seats, else the finishing-order ratings the section leads with. The ratings, not only
    their order, so the verdict claims no order between entrants the ratings tie."""
    leading = leading_ratings(folder)
    if leading is None:
        try:
            leading = bradley_terry(facts.pair_summaries().blocks, bootstrap=0)
        except FitDidNotConverge:  # the ratings section says so; no claim from them
            return {}
    ordered = leading.sort("rating", descending=True)
    return dict(zip(ordered["strategy"].to_list(), ordered["rating"].to_list(), strict=True))


def build_report(run: Path | str, out: Path | str | None = None) -> ReportPaths:
    """Analyse run folder ``run`` and write its report (default ``<run>/report/``).

    Raises ``RunFolderError`` (one line) if the folder is missing, corrupt or has
    no results yet, and ``ReportError`` if ``out`` cannot be the report's folder.
    """
    chosen = None if out is None else _report_folder(out)
    folder = RunFolder.open(run)
    out = chosen or folder.path / REPORT_DIR
    out.mkdir(parents=True, exist_ok=True)
    # built whole in a folder of its own, then moved into place: a Ctrl-C or a full disk
    # halfway through had left new figures beside an earlier build's text and tables (an
    # operator's probe: "this run is not finished" over the finished run's plots)
    staging = Path(tempfile.mkdtemp(prefix=".building-", dir=out))
    try:
        sections = report_sections(folder, staging)
        page = layout(f"Report: {folder.path.name} ({folder.meta()['game']})", sections,
                      staging)
        render.write_tables(page, staging)
        (staging / "report.md").write_text(render.markdown(page), encoding="utf-8")
        (staging / "report.html").write_text(render.html(page), encoding="utf-8")
        built = _move_into(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    images = {image.stem: out / image.relative_to(staging)
              for section in sections for image in section.images}
    tables = [path for path in built if path.parent == out / TABLES_DIR]
    return ReportPaths(out, out / "report.md", out / "report.html", images, tables)


def _move_into(staging: Path, out: Path) -> list[Path]:
    """Every file built in ``staging`` moved to the same place under ``out`` (replacing
    an earlier build's, file by file: ``out`` may hold other things), the text last, and
    an earlier build's tables that this one has not made removed. The paths moved."""
    built = sorted((path for path in staging.rglob("*") if path.is_file()),
                   key=lambda path: path.suffix in (".md", ".html"))
    moved = []
    for path in built:
        target = out / path.relative_to(staging)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
        moved.append(target)
    for stale in set((out / TABLES_DIR).glob("*.csv")) - set(moved):
        stale.unlink()
    return moved


def _report_folder(out: Path | str) -> Path:
    """``out`` as the report's folder, checked before the run is read: a file there (or
    above it) made ``mkdir`` raise a bare ``FileExistsError: [Errno 17]``."""
    if not isinstance(out, str | os.PathLike):
        raise ReportError(f"out = {out!r} is not a folder's path; give a str or a pathlib.Path,"
                          " or None for RUN/report")
    out = Path(out)
    part = run_part_holding(out)
    if part is not None:
        raise ReportError(f"out = {str(out)!r} lies in {part}, a run's own folder whose every"
                          " file its manifest names; write the report elsewhere (by default"
                          " RUN/report)")
    if out.exists() and not out.is_dir():
        raise ReportError(f"out = {str(out)!r} is a file, not a folder; the report is a folder"
                          " (report.md, report.html, figures and tables): choose another out")
    above = next((parent for parent in out.parents if parent.exists()), None)
    if above is not None and not above.is_dir():
        raise ReportError(f"out = {str(out)!r}: {above} is a file, so no folder can be made"
                          " under it; choose another out")
    return out
