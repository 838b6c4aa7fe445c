"""An entrant's name fits the figures it labels, however long.

An entrant without a label is named after its parameters, so names such as
``policy(weights='runs/ppo/final_weights.npz')`` are ordinary. Printed whole on one
line they took the head-to-head heat map's room (matplotlib: "axes sizes collapsed to
zero", cells too small for their figures) and ran into each other under a bar chart.
Tick labels are wrapped onto lines; the tables print the names whole.
"""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from whist_sim.reports import figures, plots

LONG = ["policy(weights='runs/ppo/final_weights.npz')",
        "heuristic(aggression=0.75, keep_trumps=true)", "heuristic", "random"]


@pytest.fixture
def drawn(monkeypatch) -> list[Figure]:
    """The figures the plots save, kept for their layout to be read."""
    kept: list[Figure] = []
    save = plots.save
    monkeypatch.setattr(plots, "save", lambda fig, path: (kept.append(fig), save(fig, path))[1])
    return kept


def _boxes_apart(labels) -> None:
    shown = [label for label in labels if label.get_text()]
    renderer = FigureCanvasAgg(shown[0].figure).get_renderer()
    boxes = [label.get_window_extent(renderer) for label in shown]
    for one, other in itertools.combinations(boxes, 2):
        assert not one.overlaps(other), (one, other)


def _inside(fig: Figure, labels) -> None:
    renderer = FigureCanvasAgg(fig).get_renderer()
    frame = fig.bbox
    for label in labels:
        box = label.get_window_extent(renderer)
        named = label.get_text() if hasattr(label, "get_text") else label
        assert box.x0 >= frame.x0 - 1 and box.x1 <= frame.x1 + 1, named
        assert box.y0 >= frame.y0 - 1 and box.y1 <= frame.y1 + 1, named


def test_a_name_is_wrapped_after_its_punctuation_and_kept_whole():
    name = LONG[0]
    lines = figures.wrapped(name, 20).split("\n")
    assert all(len(line) <= 20 for line in lines)
    assert "".join(lines) == name
    assert lines[0] == "policy(weights="
    assert figures.wrapped("heuristic", 20) == "heuristic"
    assert figures.wrapped("a" * 45, 20).split("\n") == ["a" * 20, "a" * 20, "a" * 5]
    spaced = figures.wrapped("pimc(worlds=40, depth=3, rollouts=200)", 16).split("\n")
    assert " ".join(spaced) == "pimc(worlds=40, depth=3, rollouts=200)"


@given(name=st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=80),
       width=st.integers(min_value=6, max_value=30))
def test_a_wrapped_name_keeps_every_character_in_order_on_lines_no_longer_than_asked(
    name, width
):
    lines = figures.wrapped(name, width).split("\n")
    assert all(len(line) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == name.replace(" ", "")
    assert len(lines) == 1 or all(line.strip() for line in lines)


@pytest.mark.parametrize("count", [2, 4])
def test_long_names_leave_the_head_to_head_cells_room_for_their_figures(
    tmp_path: Path, drawn, count
):
    names = LONG[:count]
    h2h = pl.DataFrame([(a, b, 0.5) for a in names for b in names if a != b],
                       schema=["strategy", "opponent", "share"], orient="row")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "constrained_layout not applied" among them
        plots.plot_head_to_head(h2h, tmp_path / "h.png")
    [fig] = drawn
    ax = fig.axes[0]
    renderer = FigureCanvasAgg(fig).get_renderer()
    cell = ax.get_window_extent(renderer).width / count
    widest = max(text.get_window_extent(renderer).width for text in ax.texts)
    assert cell >= 1.5 * widest, (cell, widest)
    _inside(fig, [*ax.get_xticklabels(), *ax.get_yticklabels()])
    assert fig.get_figwidth() <= figures.WIDTH


def test_long_names_under_the_dealer_figure_do_not_run_into_each_other(tmp_path: Path,
                                                                         drawn):
    dealer = pl.DataFrame([
        {"strategy": name, "players": 2, "position": position, "role": role,
         "hands": 10, "wins": 5, "win_rate": 0.5, "win_rate_lo": 0.3, "win_rate_hi": 0.7}
        for name in LONG for position, role in ((0, "dealer"), (1, "non-dealer"))])
    plots.plot_dealer(dealer, tmp_path / "d.png")
    [fig] = drawn
    _boxes_apart(fig.axes[0].get_xticklabels())
    _inside(fig, fig.axes[0].get_xticklabels())


def test_long_names_under_the_contract_mix_do_not_run_into_each_other(tmp_path: Path,
                                                                        drawn):
    mix = pl.DataFrame([{"strategy": name, "contract": "solo", "level": 2, "share": 1.0}
                        for name in LONG])
    plots.plot_contract_mix(mix, tmp_path / "m.png")
    [fig] = drawn
    _boxes_apart(fig.axes[0].get_xticklabels())
    _inside(fig, fig.axes[0].get_xticklabels())


def _titles_apart(fig: Figure) -> None:
    titles = [ax.title for ax in fig.axes if ax.get_visible() and ax.get_title()]
    _boxes_apart(titles)
    _inside(fig, titles)


def _units(names: list[str]) -> pl.DataFrame:
    """Declarer-side units of ``names``, the last losing a hundred times the others', so
    that it is drawn apart with the panels' titles naming the strategies."""
    rows = []
    for k, name in enumerate(names):
        scale = 100.0 if k == len(names) - 1 else 1.0
        for contract, level in (("solo", 1), ("abundance", 3)):
            rows.append({"strategy": name, "contract": contract, "level": level,
                         **{f"units_per_contract{end}": value * scale
                            for end, value in (("", 5.0), ("_lo", 4.0), ("_hi", 6.0))},
                         **{f"units_per_100{end}": value * scale
                            for end, value in (("", 9.0), ("_lo", 8.0), ("_hi", 10.0))}})
    return pl.DataFrame(rows)


def test_long_names_in_the_units_panels_titles_do_not_run_into_each_other(tmp_path: Path,
                                                                            drawn):
    plots.plot_units_per_contract(_units(LONG), tmp_path / "u.png")
    [fig] = drawn
    _titles_apart(fig)


def test_long_names_in_the_grand_value_panels_titles_do_not_run_into_each_other(
    tmp_path: Path, drawn
):
    rows = [{"strategy": name, "choice": choice, "hcp": 8, "hcp_hi": 9, "seats": 4,
             "sets": 1, "deal_indices": 4,
             **{f"{measure}{end}": value for measure in ("points", "net")
                for end, value in (("", 1.0), ("_lo", 0.0), ("_hi", 2.0))}}
            for name in LONG[:2] for choice in ("grand", "pass")]
    plots.plot_grand_value_by_hcp(pl.DataFrame(rows), tmp_path / "g.png")
    [fig] = drawn
    _titles_apart(fig)


def test_a_make_rate_panel_of_one_strength_names_whole_strengths_only(tmp_path: Path,
                                                                        drawn):
    """A contract declared at one strength only had its axis ticked 1.900, 1.925, ...
    2.100, the labels running into each other."""
    rates = pl.DataFrame([{"contract": "misere", "level": 2, "measure": "high_cards",
                           "strategy": "a", "strength": 2, "contracts": 3, "made": 1,
                           "make_rate": 0.33, "make_rate_lo": 0.1, "make_rate_hi": 0.7}])
    plots.plot_make_rate_by_strength(rates, tmp_path / "m.png")
    [fig] = drawn
    ax = fig.axes[0]
    ticks = [tick for tick in ax.get_xticks() if ax.get_xlim()[0] <= tick <= ax.get_xlim()[1]]
    assert ticks and all(float(tick).is_integer() for tick in ticks), ticks
    assert 2 in ticks


def test_a_shared_legend_of_long_names_keeps_every_entry_inside_the_figure(tmp_path: Path):
    fig = figures.new_figure(4.5, 5.5)
    axes = figures.grid(fig, 2, 2)
    for ax in axes:
        for k, name in enumerate(LONG):
            ax.plot([0, 1], [k, k], label=name)
    figures.shared_legend(fig, axes, "Win rate by seat")
    figures.save(fig, tmp_path / "legend.png")
    [legend] = fig.legends
    assert [text.get_text().replace("\n", "") for text in legend.get_texts()] == LONG
    _inside(fig, [legend])


def test_long_names_leave_the_ratings_axis_and_its_label_inside_the_figure(tmp_path: Path,
                                                                            drawn):
    ratings = pl.DataFrame({"strategy": LONG, "rating": [100.0, 50.0, -50.0, -100.0],
                            "rating_lo": [50.0, 0.0, -100.0, -150.0],
                            "rating_hi": [150.0, 100.0, 0.0, -50.0]})
    plots.plot_ratings(ratings, tmp_path / "r.png")
    [fig] = drawn
    ax = fig.axes[0]
    _inside(fig, [*ax.get_yticklabels(), ax.xaxis.label])


def test_the_knockout_table_size_legend_stands_beside_the_bars_not_on_them(tmp_path: Path,
                                                                            drawn):
    """Inside the axes, a legend of four long names and the fair share covered the top of
    the leading entrant's bar and its interval."""
    results = pl.DataFrame([{"strategy": name, "table": "2", "win_rate": rate,
                             "win_rate_lo": rate - 0.15, "win_rate_hi": rate + 0.15}
                            for name, rate in zip(LONG, (0.7, 0.7, 0.3, 0.3), strict=True)])
    plots.plot_win_rate_by_table(results, tmp_path / "t.png")
    [fig] = drawn
    ax = fig.axes[0]
    legend = ax.get_legend()
    renderer = FigureCanvasAgg(fig).get_renderer()
    assert legend.get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1
    _inside(fig, [legend])
