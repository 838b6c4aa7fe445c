"""Reports on a run folder: Polars analyses, matplotlib figures, Markdown and HTML.

``build_report(run)`` writes a whole report; the analyses (``analyses``,
``german_whist``) are LazyFrame -> LazyFrame functions usable on their own.
"""

from whist_sim.reports.build import ReportPaths, build_report

__all__ = ["ReportPaths", "build_report"]
