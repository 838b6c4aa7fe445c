"""Write a laid-out report as Markdown and HTML, from Jinja2 templates, and its tables as CSV.

Why templates: the page's markup and style sit in ``templates/`` where they can
be read and changed as HTML and CSS, apart from the analyses; Jinja2 escapes
every cell and heading of the HTML by default, so a strategy label such as
``<b>`` prints as text. The Markdown comes from a template of its own (no
escaping there; its table cells are made safe by :func:`markdown_cell`).

What goes on the page (anchors, the 25-row cap, CSV links, figure sizes) is
decided in ``page``; the templates only print it.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path, PurePosixPath

import polars as pl
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from whist_sim.reports.document import Section
from whist_sim.reports.page import Page, PageTable, layout

_CODE = re.compile(r"`([^`]+)`")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")
_STRONG = re.compile(r"(?<![\w*])\*\*(?=\S)([^*]+?)(?<=\S)\*\*(?![\w*])")


def markdown_cell(text: str) -> str:
    """A table cell on one line, its pipes escaped so they do not split the cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def markdown_rule(header: Sequence[str]) -> str:
    """The line under a Markdown table's header: ``|---|---|``."""
    return "|" + "|".join("---" for _ in header) + "|"


def inline_html(text: str) -> Markup:
    """Prose as HTML: escaped, then `code` spans, **strong** and *emphasis* as the Markdown
    reads them (an unfinished run's verdict opened with its asterisks on the page)."""
    escaped = _CODE.sub(r"<code>\1</code>", str(escape(text)))
    return Markup(_EMPHASIS.sub(r"<em>\1</em>", _STRONG.sub(r"<strong>\1</strong>", escaped)))


def table_links(table: PageTable) -> list[tuple[str, str]]:
    """The line under a table: (text, CSV path) pairs, the file named after the text."""
    if table.cut:
        links = [(f"first {len(table.rows)} of {table.total} rows shown; all {table.total}"
                  " rows:", table.csv)]
    else:
        links = [("CSV:", table.csv)]
    if table.details_csv:
        links.append((f"the whole table behind it, all {table.details_total} rows:",
                      table.details_csv))
    return links


@cache
def environment() -> Environment:
    """The templates of ``whist_sim/reports/templates``; HTML ones escape by default."""
    env = Environment(
        loader=PackageLoader("whist_sim.reports", "templates"),
        autoescape=select_autoescape(enabled_extensions=("html.jinja",),
                                     default_for_string=False, default=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=StrictUndefined,
    )
    env.filters.update(md_cell=markdown_cell, md_rule=markdown_rule, inline=inline_html,
                       links=table_links, basename=lambda path: PurePosixPath(path).name)
    return env


def markdown(page: Page) -> str:
    text = environment().get_template("report.md.jinja").render(page=page)
    return re.sub(r"\n{3,}", "\n\n", text)


def html(page: Page) -> str:
    return environment().get_template("report.html.jinja").render(page=page)


def render_markdown(title: str, sections: Sequence[Section], out: Path) -> str:
    """The report as Markdown; figure and CSV links are relative to ``out``."""
    return markdown(layout(title, list(sections), out))


def render_html(title: str, sections: Sequence[Section], out: Path) -> str:
    """The report as one HTML page (inline CSS); links are relative to ``out``."""
    return html(layout(title, list(sections), out))


FORMULA_START = r"(?s)^[=+\-@\t\r]."
"""A first character that makes a spreadsheet read a CSV cell as a formula (OWASP's list,
"CSV injection"), with something after it: ``-`` alone, a table's "no next entrant", is
text to any spreadsheet."""

PLAIN_NUMBER = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"
"""A number written as digits, which a spreadsheet reads as that number, not a formula."""


def spreadsheet_text(text: str) -> str:
    """``text`` as a CSV cell a spreadsheet shows and does not run: a leading apostrophe
    where it would start a formula.

    Why: a cell can hold words a strategy chose (its label, its program file's name, its
    error), and a strategy is untrusted code; ``=HYPERLINK(...)`` opened in a spreadsheet
    would be a live link, or worse. A number (``-3``) is left as it is."""
    if re.match(FORMULA_START, text) and not re.fullmatch(PLAIN_NUMBER, text):
        return "'" + text
    return text


def _spreadsheet_columns(frame: pl.DataFrame) -> pl.DataFrame | None:
    """:func:`spreadsheet_text` over every text column and every column's name of
    ``frame`` (a grid's columns are named after entrants), a NaN made empty (no value, as a
    missing one); None where two names would then be alike (entrants ``=x`` and ``'=x``),
    for the table to be written as the page prints it."""
    names = [spreadsheet_text(name) for name in frame.columns]
    if len(set(names)) < len(names):
        return None
    guarded = [
        pl.when(pl.col(name).str.contains(FORMULA_START)
                & ~pl.col(name).str.contains(PLAIN_NUMBER))
        .then(pl.lit("'") + pl.col(name)).otherwise(pl.col(name)).alias(name)
        for name, dtype in frame.schema.items() if dtype == pl.String]
    return (frame.with_columns(pl.selectors.float().fill_nan(None), *guarded)
            .rename(dict(zip(frame.columns, names, strict=True))))


def write_tables(page: Page, out: Path) -> list[Path]:
    """Every table of ``page`` whole, as CSV (header first) under ``out``; the paths written.

    Row for row the page's table, so what the page cuts short continues in the file. A
    table with numbers behind it (``Table.data``) is written from them: full precision,
    an interval as three columns (``win_rate``, ``win_rate_lo``, ``win_rate_hi``), named
    as the analysis names them, for a script or a spreadsheet to read as numbers. Any
    other is written with the cells as the page prints them ("0.512 [0.498, 0.526]"),
    but for whole numbers, which the page alone groups by thousands (``page.grouped``).
    Either way a text cell that would start a spreadsheet formula is written with a
    leading apostrophe (:func:`spreadsheet_text`).
    """
    written = []
    for relative, table in page.files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        data = None if table.data is None else _spreadsheet_columns(table.data)
        if data is not None:
            data.write_csv(path)
        else:
            with path.open("w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow([spreadsheet_text(title) for title in table.header])
                writer.writerows([spreadsheet_text(cell) if isinstance(cell, str) else cell
                                  for cell in row] for row in table.rows)
        written.append(path)
    return written
