"""A panel's scale is one a reader can read, whatever the values.

Entrants that never declared a Solo contract have 0 units per 100 seat-hands, exactly,
with no interval. ``figures.focus`` gave that panel a scale of ±6e-8, printed as
``1e-8`` over ticks from -6 to 6: a scale for floating-point dust where there was none.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from whist_sim.reports import figures, plots


def test_a_panel_of_one_value_without_an_interval_keeps_a_readable_scale():
    fig = figures.new_figure(3, 4)
    ax = fig.subplots()
    ax.bar([0, 1], [0.0, 0.0])
    cut = figures.focus(ax, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    low, high = ax.get_ylim()
    assert not cut
    assert low <= 0.0 <= high
    assert high - low >= 0.01, (low, high)


def test_entrants_that_never_declared_get_a_units_panel_of_a_readable_scale(
    tmp_path: Path, monkeypatch
):
    rows = []
    for name, scale in (("quiet", 0.0), ("quiet_b", 0.0), ("wild", 100.0)):
        for contract, level in (("solo", 1), ("all", 9)):
            rows.append({"strategy": name, "contract": contract, "level": level,
                         "units_per_contract": None if scale == 0 else -9.0 * scale,
                         "units_per_contract_lo": None, "units_per_contract_hi": None,
                         "units_per_100": -5.0 * scale, "units_per_100_lo": -6.0 * scale,
                         "units_per_100_hi": -4.0 * scale})
    drawn = []
    save = plots.save
    monkeypatch.setattr(plots, "save", lambda fig, path: (drawn.append(fig), save(fig, path))[1])
    plots.plot_units_per_contract(pl.DataFrame(rows), tmp_path / "units.png")
    [fig] = drawn
    quiet_per_100 = fig.axes[2]  # the second row's first panel: the entrants on one scale
    low, high = quiet_per_100.get_ylim()
    assert high - low >= 0.01, (low, high)


def test_an_entrant_without_bars_in_one_panel_keeps_its_colour_in_the_legend(
    tmp_path: Path, monkeypatch
):
    """Entrants that never declared have no units per contract (no bars in that panel):
    the legend took its entry for the second of them from that empty panel and drew it
    in the default blue, the first entrant's colour."""
    from matplotlib.colors import to_rgba

    rows = [{"strategy": name, "contract": "solo", "level": 1,
             "units_per_contract": None, "units_per_contract_lo": None,
             "units_per_contract_hi": None, "units_per_100": 0.0, "units_per_100_lo": 0.0,
             "units_per_100_hi": 0.0} for name in ("a", "b")]
    drawn = []
    save = plots.save
    monkeypatch.setattr(plots, "save", lambda fig, path: (drawn.append(fig), save(fig, path))[1])
    plots.plot_units_per_contract(pl.DataFrame(rows), tmp_path / "units.png")
    [legend] = drawn[0].legends
    shown = {text.get_text(): handle.get_facecolor() for text, handle
             in zip(legend.get_texts(), legend.legend_handles, strict=True)}
    assert list(shown) == ["a", "b"]
    assert shown["a"] == to_rgba("C0") and shown["b"] == to_rgba("C1")
