"""docs/environment.md says what the environments do: its layout tables are the layouts'
own, field by field, and its action-space table states the sizes the spaces have."""

from __future__ import annotations

import re
from pathlib import Path

from whist_sim.env import ACTIONS
from whist_sim.env.docs import TABLES, table_key, tables, with_tables

PAGE = Path(__file__).resolve().parents[1] / "docs" / "environment.md"


def test_the_layout_tables_on_the_page_are_the_layouts():
    text = PAGE.read_text(encoding="utf-8")
    assert with_tables(text) == text, (
        "docs/environment.md differs from the layouts: run python -m whist_sim.env.docs")


def test_the_page_shows_every_game_and_every_field():
    text = PAGE.read_text(encoding="utf-8")
    generated = tables()
    for game, players in TABLES:
        table = generated[table_key(game, players)]
        assert table in text
        fields = re.findall(r"\| `(\w+)` \|", table)
        assert len(fields) > 10 and len(set(fields)) == len(fields)


def test_the_action_space_sizes_on_the_page_are_the_spaces():
    text = PAGE.read_text(encoding="utf-8")
    for game, size in ACTIONS.items():
        title = game.replace("_whist", "").replace("knockout", "knock-out").title()
        row = re.search(rf"^\| {title} Whist \| +(\d+) \|", text, re.MULTILINE | re.IGNORECASE)
        assert row is not None, game
        assert int(row[1]) == size


def test_a_stale_table_is_rewritten():
    text = PAGE.read_text(encoding="utf-8")
    stale = text.replace("| own hand |", "| own cards |", 1)
    assert stale != text and with_tables(stale) == text


def test_every_python_block_of_the_page_runs_as_written():
    """In order, in one namespace, as a reader pastes them: two of them did not (a block
    used ``seat`` it never set, another ``np`` it never imported; a newcomer probe)."""
    namespace: dict[str, object] = {}
    for number, block in enumerate(re.findall(r"```python\n(.*?)```", PAGE.read_text(),
                                              re.DOTALL)):
        exec(compile(block, f"{PAGE.name}, python block {number + 1}", "exec"), namespace)


def test_the_table_writer_rewrites_a_page_with_markers_and_refuses_anything_else(
        tmp_path, capsys):
    """``--help`` was read as a path (a traceback), and any existing file given would have
    been written over with itself passed through the table rewriter."""
    import pytest

    from whist_sim.env.docs import main

    with pytest.raises(SystemExit) as helped:
        main(["--help"])
    assert helped.value.code == 0 and "layout tables" in capsys.readouterr().out
    notes = tmp_path / "notes.md"
    notes.write_text("# my notes\n", encoding="utf-8")
    assert main([str(notes)]) == 2
    assert notes.read_text(encoding="utf-8") == "# my notes\n"
    assert "has no layout tables" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.md")]) == 2
    assert "cannot be read" in capsys.readouterr().err
    page = tmp_path / "environment.md"
    page.write_text(PAGE.read_text(encoding="utf-8"), encoding="utf-8")
    assert main([str(page)]) == 0
    assert page.read_text(encoding="utf-8") == PAGE.read_text(encoding="utf-8")


def test_the_render_examples_on_the_page_are_what_render_prints(capsys):
    """The page's German Whist example prints the text block under it, and its Knock-out
    Whist picture is a real table's: the deal and the play the env tests step through
    (the knock of ``test_render_shows_a_dogs_knock_in_the_trick_and_in_the_last_trick``)."""
    import numpy as np

    from whist_sim.env import german_whist_v0, knockout_whist_v0

    text = PAGE.read_text(encoding="utf-8")
    german, knockout = re.findall(r"```text\n(.*?)```", text, re.DOTALL)[:2]
    block = re.search(r"```python\n(from whist_sim.cards import parse_card.*?)```", text,
                      re.DOTALL)
    assert block is not None
    exec(compile(block[1], f"{PAGE.name}, the render example", "exec"),
         {"german_whist_v0": german_whist_v0})  # imported by the page's first block
    assert capsys.readouterr().out == german
    table = knockout_whist_v0({"dogs_life": "first_round"}, players=3, render_mode="ansi")
    table.reset(options={"deal_seed": 14, "dealer": 0})
    while table.render() + "\n" != knockout:
        assert table.state_.to_act >= 0, "the game ended before the page's picture"
        legal = np.flatnonzero(table.observe(table.agent_selection)["action_mask"])
        table.step(52 if 52 in legal else int(legal[0]))
