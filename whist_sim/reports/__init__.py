"""Reports on a run folder: Polars analyses, matplotlib figures, Markdown and HTML.

``build_report(run)`` writes a whole report; the analyses (``analyses``,
``german_whist``) are LazyFrame -> LazyFrame functions usable on their own.

``build_report`` is loaded on first use: it brings matplotlib (about 0.3 s), which the
driver of a run does not need for the live standings it takes from ``analyses``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ReportPaths", "build_report"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from whist_sim.reports import build

        return getattr(build, name)
    raise AttributeError(f"module 'whist_sim.reports' has no attribute {name!r}")
