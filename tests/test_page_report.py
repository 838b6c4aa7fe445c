"""The shape of every game's report page, without a browser: the rules a reader relies on.

Each game's report is built from the small hand-built run of its own report tests,
with the page's row cap lowered to a few rows so that the fixtures' tables run past
it. Then, in ``report.html`` and ``report.md``: a table of contents that links every
section; no table showing more rows than the cap; under every table a link to its
CSV, which holds the whole table (every row, the shown rows first: the page's cells, or
the numbers behind them); no empty header cell; every CSV of the report linked; figures
no wider than the page.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests import test_knockout_report, test_minnesota_report, test_reports, test_solo_report
from tests.report_fixtures import folder_with_rows
from whist_sim.reports import page
from whist_sim.reports.build import ReportPaths, build_report
from whist_sim.reports.document import Section, Table
from whist_sim.reports.page import png_size
from whist_sim.store import RunFolder

CAP = 4
"""Rows the page may show in these tests: small, so the fixtures' tables are cut."""

PAGE_WIDTH = 1100
"""Widest figure, in pixels, that shows unshrunk in the report's column at 1,200 px."""


def german(path: Path) -> RunFolder:
    return folder_with_rows(path, test_reports.META, test_reports.GAME,
                            test_reports.hand_built_rows())


FIXTURES = {
    "german_whist": german,
    "solo_whist": test_solo_report.make_folder,
    "minnesota_whist": test_minnesota_report.make_folder,
    "knockout_whist": test_knockout_report.make_folder,
}


@dataclass
class HtmlTable:
    header_rows: list[list[str]] = field(default_factory=list)
    body_rows: list[list[str]] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    note: str = ""


class PageReader(HTMLParser):
    """The parts of report.html these tests check: contents links, section ids, tables with
    the CSV links under them, images."""

    def __init__(self) -> None:
        super().__init__()
        self.contents: list[str] = []
        self.section_ids: list[str] = []
        self.tables: list[HtmlTable] = []
        self.images: list[str] = []
        self._in = {"nav": False, "thead": False, "tbody": False, "files": False}
        self._row: list[str] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "nav":
            self._in["nav"] = True
        elif tag == "a" and self._in["nav"]:
            self.contents.append(str(attr["href"]))
        elif tag == "section":
            self.section_ids.append(str(attr["id"]))
        elif tag == "table":
            self.tables.append(HtmlTable())
        elif tag in ("thead", "tbody"):
            self._in[tag] = True
        elif tag == "tr":
            self._row = []
        elif tag in ("th", "td"):
            self._cell = []
        elif tag == "p" and attr.get("class") == "table-files":
            self._in["files"] = True
        elif tag == "a" and self._in["files"]:
            self.tables[-1].links.append(str(attr["href"]))
        elif tag == "img":
            self.images.append(str(attr["src"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self._in["nav"] = False
        elif tag in ("thead", "tbody"):
            self._in[tag] = False
        elif tag in ("th", "td") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            rows = self.tables[-1].header_rows if self._in["thead"] else self.tables[-1].body_rows
            rows.append(self._row)
            self._row = None
        elif tag == "p":
            self._in["files"] = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        elif self._in["files"]:
            self.tables[-1].note += data


def shows(written: str, printed: str) -> bool:
    """Whether the page's cell ``printed`` shows the CSV's ``written``: the same text, or
    the same number at the page's decimals, or an empty (missing) number as a dash."""
    written = written.replace(",", "")
    if written == printed or (written == "" and printed == "—"):
        return True
    try:
        decimals = len(printed.partition(".")[2])
        return float(printed) == round(float(written), decimals)
    except ValueError:
        return False


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.fixture(scope="module", params=sorted(FIXTURES))
def report(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> ReportPaths:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(page, "MAX_ROWS", CAP)
        folder = FIXTURES[request.param](tmp_path_factory.mktemp(request.param) / "run")
        return build_report(folder.path)


@pytest.fixture(scope="module")
def html_page(report: ReportPaths) -> PageReader:
    reader = PageReader()
    reader.feed(report.html.read_text(encoding="utf-8"))
    return reader


def test_the_contents_link_every_section(report: ReportPaths, html_page: PageReader):
    assert html_page.section_ids, "no section"
    assert html_page.contents == [f"#{anchor}" for anchor in html_page.section_ids]
    markdown = report.markdown.read_text(encoding="utf-8")
    contents = markdown.split("**Contents**", 1)[1].split("\n## ", 1)[0]
    links = re.findall(r"\]\(#([^)]+)\)", contents)
    assert links == html_page.section_ids
    assert len(re.findall(r"^## ", markdown, flags=re.M)) == len(links)


def test_no_table_shows_more_rows_than_the_cap(report: ReportPaths, html_page: PageReader):
    assert html_page.tables
    assert max(len(t.body_rows) for t in html_page.tables) <= CAP
    markdown = report.markdown.read_text(encoding="utf-8")
    for block in re.split(r"\n\s*\n", markdown):
        lines = [line for line in block.splitlines() if line.startswith("|")]
        if lines:
            assert len(lines) - 2 <= CAP, lines[0]  # header and rule, then the rows


def test_some_table_is_cut_and_says_where_the_rest_is(html_page: PageReader):
    cut = [t for t in html_page.tables if re.search(rf"first {CAP} of \d+ rows", t.note)]
    assert cut, "the fixture has no table longer than the cap: the test would prove nothing"


def test_every_table_links_its_whole_csv(report: ReportPaths, html_page: PageReader):
    for table in html_page.tables:
        assert table.links, table.header_rows
        whole = read_csv(report.folder / table.links[0])
        # the page groups a numeric column's whole numbers by thousands; the CSV does not
        shown = [[cell.replace(",", "") for cell in row] for row in table.body_rows]
        # row for row: the key column's cells as shown, whatever else the CSV holds
        assert [row[0] for row in whole[1:len(shown) + 1]] == [row[0] for row in shown]
        if whole[0] == table.header_rows[0]:  # one column per column of the page
            for written, row in zip(whole[1:], shown, strict=False):
                assert all(map(shows, written, row)), (written, row)
        shown, total = len(table.body_rows), len(whole) - 1
        if total > shown:
            assert f"first {shown} of {total} rows" in table.note
        else:
            assert shown == total
        for details in table.links[1:]:  # the longer table a condensed one stands for
            assert len(read_csv(report.folder / details)) > 1


def test_every_csv_of_the_report_is_linked(report: ReportPaths, html_page: PageReader):
    linked = {link for table in html_page.tables for link in table.links}
    written = {path.relative_to(report.folder).as_posix() for path in report.tables}
    on_disk = {path.relative_to(report.folder).as_posix()
               for path in (report.folder / page.TABLES_DIR).glob("*.csv")}
    assert linked == written == on_disk


def test_no_header_row_is_empty(report: ReportPaths, html_page: PageReader):
    for table in html_page.tables:
        assert len(table.header_rows) == 1
        assert all(cell for cell in table.header_rows[0]), table.header_rows[0]
    markdown = report.markdown.read_text(encoding="utf-8")
    for block in re.split(r"\n\s*\n", markdown):
        lines = [line for line in block.splitlines() if line.startswith("|")]
        if lines:
            cells = [c.strip() for c in lines[0].strip().strip("|").split(" | ")]
            assert all(cells), lines[0]


def test_figures_fit_the_page(report: ReportPaths, html_page: PageReader):
    assert html_page.images
    for src in html_page.images:
        width, _ = png_size(report.folder / src)
        assert width is not None and width <= PAGE_WIDTH, (src, width)


# -- the layout rules on their own ---------------------------------------------------------------


def test_a_long_table_is_cut_at_the_real_cap_and_kept_whole_for_its_csv(tmp_path: Path):
    rows = [[f"s{i}", str(i)] for i in range(130)]
    laid = page.layout("T", [Section("Make rate", [], [Table(["strategy", "n"], rows, "Long")])],
                       tmp_path)
    (table,) = laid.sections[0].tables
    assert len(table.rows) == page.MAX_ROWS <= 25 and table.total == 130 and table.cut
    assert laid.files[table.csv].rows == rows


def test_the_page_groups_whole_numbers_by_thousands_and_the_csv_keeps_the_digits(
        tmp_path: Path):
    """Tables printed "8240" beside the Run section's "8,240" (a probe): a numeric column's
    whole numbers of four digits or more are grouped on the page, where they are read; the
    CSV keeps the digits alone, which a spreadsheet reads as a number. A key column, a
    text column and a deal key are left as they are."""
    rows = [["2026", "8240", "0-1045-1-0", "8240 · 0.250 [0.100, 0.400]"],
            ["b", "999", "1045-0-0-0", "-12345.50 [-20000.25, 3.00]"],
            ["c", "1234567", "tie 5000", "+1500"]]
    header = ["strategy", "hands", "deal key", "cell"]
    laid = page.layout("T", [Section("S", [], [Table(header, rows, "Counts")])], tmp_path)
    (table,) = laid.sections[0].tables
    assert table.rows == [
        ["2026", "8,240", "0-1045-1-0", "8,240 · 0.250 [0.100, 0.400]"],
        ["b", "999", "1045-0-0-0", "-12,345.50 [-20,000.25, 3.00]"],
        ["c", "1,234,567", "tie 5000", "+1,500"]]
    assert laid.files[table.csv].rows == rows


def test_a_table_may_not_have_an_empty_header_cell():
    with pytest.raises(ValueError, match="header cell 1 of 2 is empty"):
        Table(["", "value"], [["a", "1"]], "Settings")


def test_csv_names_are_unique_and_short(tmp_path: Path):
    long = "Reading a gap: the chance to finish ahead of one seat rated gap lower, and more"
    sections = [Section("Ratings", [], [Table(["a"], [["1"]], long), Table(["a"], [["2"]], long)])]
    names = list(page.layout("T", sections, tmp_path).files)
    assert len(set(names)) == 2
    assert all(len(Path(name).stem) <= page.STEM_LENGTH + 2 for name in names)


def test_a_table_that_would_pass_the_cap_is_split_by_strategy_not_cut():
    import polars as pl

    from whist_sim.reports.document import column, tables_by

    df = pl.DataFrame({"strategy": ["a"] * 20 + ["b"] * 20, "n": list(range(40))})
    columns = [("strategy", column("strategy")), ("n", column("n"))]
    assert [t.caption for t in tables_by(df.head(20), "strategy", columns, "Bids", "bids")] == [
        "Bids"]
    split = tables_by(df, "strategy", columns, "Bids", "bids", limit=25)
    assert [(t.caption, t.name, len(t.rows)) for t in split] == [
        ("Bids: a", "bids_a", 20), ("Bids: b", "bids_b", 20)]
    # the whole table keeps its name, as a CSV of its own under the first part: a Solo
    # run's bidding CSV was solo_whist_bidding.csv in one run and one file per strategy in
    # another, where the docs promise names stable from run to run (a statistician's probe)
    whole = split[0].details
    assert whole is not None and whole.name == "bids" and len(whole.rows) == 40
    assert split[1].details is None


def test_strong_prose_is_bold_on_the_html_page_as_in_the_markdown():
    """An unfinished run's verdict opened with "**This run is not finished**", asterisks
    and all, on report.html (seen in a screenshot): the page rendered `code` and
    *emphasis* only."""
    from whist_sim.reports.render import inline_html

    shown = str(inline_html("**This run is not finished** (see *why*, `--resume`)"))
    assert shown == ("<strong>This run is not finished</strong> (see <em>why</em>,"
                     " <code>--resume</code>)")
    assert str(inline_html("2 * 3 ** 2")) == "2 * 3 ** 2"  # arithmetic is no markup


def test_the_report_opens_by_saying_where_it_is_explained(tmp_path: Path):
    """A newcomer met "Holm's step-down test", "Bradley-Terry" and "deal indices" with no
    word of where they are explained, in report.md or report.html (a probe)."""
    from whist_sim.reports.render import render_html, render_markdown

    sections = [Section("Standings", ["A paragraph."], [Table(["a"], [["1"]], "T")])]
    markdown = render_markdown("Report", sections, tmp_path)
    assert markdown.startswith(f"# Report\n\n{page.GUIDE}\n\n**Contents**")
    html = render_html("Report", sections, tmp_path)
    assert "<code>docs/reading-a-report.md</code>" in html
    assert html.index("docs/reading-a-report.md") < html.index("Contents")


def test_names_cut_to_length_keep_what_told_them_apart():
    """Per-strategy CSVs were named by cutting at the last whole word, so
    `..._simulation_bidder_worlds_8` and `..._simulation_bidder_worlds_6` became one name and
    a `_2` told them apart by the order of the tables (a bidding probe). A cut name ends in
    a digest of the whole, the same in every report of the run."""
    one = page.file_stem("solo_whist_declarer_units_simulation_bidder(worlds=8)")
    other = page.file_stem("solo_whist_declarer_units_simulation_bidder(worlds=6)")
    assert one != other
    assert len(one) <= page.STEM_LENGTH and len(other) <= page.STEM_LENGTH
    assert one.startswith("solo_whist_declarer_units_simulation")
    assert page.file_stem("solo_whist_bidding_heuristic") == "solo_whist_bidding_heuristic"
