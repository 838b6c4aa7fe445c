"""The report section "Run": what was played, as ``run.json`` and the results record it."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import polars as pl

from whist_sim.budget import TimeControl
from whist_sim.reports.chunks import DealRanges
from whist_sim.reports.document import Section, Table
from whist_sim.reports.run_facts import PARTNERSHIP_GAMES, seating_period
from whist_sim.store import RUN_FILE, RunFolder
from whist_sim.store.lock import shown_status
from whist_sim.tournament.bench import BOT_BENCH_AFTER, benched_after
from whist_sim.tournament.run_records import recorded_scheme
from whist_sim.tournament.schedule import neighbour_period

TITLE = "Run"


def run_section(folder: RunFolder, meta: dict[str, Any],
                ranges: DealRanges | None = None) -> Section:
    """Settings (one setting per row, named in the header so no row is blank) and entrants.

    ``ranges``: the run in ranges of deal indices, read one at a time (None: made here).
    """
    facts = deal_facts(ranges if ranges is not None else DealRanges.of(folder))
    config = meta["config"] if isinstance(meta["config"], dict) else {}
    tournament = config.get("tournament") if isinstance(config.get("tournament"), dict) else {}
    rows = [
        ["run folder", str(folder.path)],
        ["game", f"{meta['game']} (rules version {facts['version']})"],
        ["variant", variant_text(facts["variant"])],
        # a killed run still says running in run.json: name it as the Verdict does
        ["status", shown_status(folder.path, str(meta["status"]))],
        ["root seed", str(meta["root_seed"])],
        ["format", _format_text(tournament, meta)],
        *_time_rows(tournament, config, meta),
        *_containment_rows(tournament, config),
        [_deals_label(config), _count(tournament.get("deals", "—"))],
        *_test_rows(config, meta),
        ["line-ups played", _count(facts["pairings"])],
        *seating_rows(meta, facts["deal_indices"], facts.get("last_deal"),
                      folder.path / RUN_FILE),
        ["deals played (deal indices)", _count(facts["deal_indices"])],
        ["matches played (line-up, deal, seating)", _count(facts["matches"])],
        ["hands played", _count(facts["hands"])],
        ["forfeited hands", _count(facts["forfeited"])],
    ]
    for key in ("created", "started", "finished", "git_commit", "whist_sim_version"):
        if key in meta:
            rows.append([key.replace("_", " "), str(meta[key])])
    return Section(
        TITLE,
        ["What was played: the run's settings as `run.json` records them, and what the"
         " tables hold (the variant is read from the results, with every default filled in)."],
        [Table(["setting", "value"], rows, "Settings", "run_settings"),
         Table(["label", "strategy", "params", "version"], strategy_rows(meta), "Entrants",
               "run_entrants")],
    )


def _time_rows(tournament: dict[str, Any], config: dict[str, Any],
               meta: dict[str, Any]) -> list[list[str]]:
    """The time limit, the chess clock, ``bench_after`` and who was benched: a run whose
    entrants lost on time or sat out said nowhere under what rules (a probe). Runs whose
    ``run.json`` has no such key (older ones) show no row for it."""
    rows = []
    if "time_limit" in tournament:
        limit = tournament["time_limit"]
        rows.append(["time limit per decision", "none" if limit is None else f"{limit:g} s"])
    if "clock" in tournament:
        clock = tournament["clock"]
        rows.append(["chess clock", "none" if not isinstance(clock, dict) else
                     TimeControl(float(clock.get("base", 0)), float(clock.get("increment", 0)),
                                 str(clock.get("per", "deal"))).describe()])
    if "bench_after" in tournament:
        after = tournament["bench_after"]
        rows.append(["bench after", f"{after:,} forfeits" if isinstance(after, int)
                     else f"never, but after {BOT_BENCH_AFTER} for isolated entrants and bots"
                     if _has_isolated(config)
                     else "never"])
    benched = meta.get("benched")
    if isinstance(benched, dict) and benched:
        rows.append(["benched", "; ".join(f"{label} ({benched_after(record)})"
                                          for label, record in benched.items())])
    return rows


def _has_isolated(config: dict[str, Any]) -> bool:
    """Whether the recorded config has a bot or an isolated entrant."""
    return any(isinstance(s, dict) and (s.get("isolate") or s.get("use") == "process")
               for s in config.get("strategies") or [])


def _containment_rows(tournament: dict[str, Any], config: dict[str, Any]) -> list[list[str]]:
    """Whether bots and isolated entrants ran contained (``tournament.contain_bots``): an
    uncontained bot could have read the root seed and rebuilt every deal, which a reader
    weighing its results must know. No row without such an entrant, or for a run started
    before the setting existed."""
    if not _has_isolated(config) or "contain_bots" not in tournament:
        return []
    rows = [["bots contained", "yes: each in namespaces of its own, the config and the run"
             " hidden from it (tournament.contain_bots)" if tournament["contain_bots"] is True
             else "no: they ran as your user and could read the config's root seed"
             " (tournament.contain_bots = false)"]]
    if "pause_bots" in tournament:  # a run started before the setting existed: no row
        rows.append(["bots paused between decisions", "yes: stopped from each reply to the"
                     " engine's next message, so each computed on its own time only"
                     " (tournament.pause_bots)" if tournament["pause_bots"] is True
                     else "no: a bot could compute while other seats decided, on their"
                     " time and their cores (tournament.pause_bots = false)"])
    return rows


def seating_rows(meta: dict[str, Any], deal_indices: int, last_deal: Any = None,
                 path: Path | str = RUN_FILE) -> list[list[str]]:
    """How a deal at a table of three or more seated its line-up (``seating_orders``), and
    whether the deal indices played make whole cycles of its orders: a report read the same
    whether the config's order seated every deal (runs started before seating orders, where
    at three seats the seat after a weak player could reverse a ranking) or deals cycled
    through the orders, and said nowhere that 10 deals at five distinct seats (a cycle of
    24) leave some neighbours more often than others (a probe). No row for two seats or
    partnerships, which have one order. ``last_deal``: the highest deal index played
    (None: taken to be ``deal_indices - 1``); the balance is said of deal indices 0 on.
    ``path``: run.json's, which an unknown ``seating_orders``' error names."""
    lineups = meta.get("lineups")
    if (meta.get("game") in PARTNERSHIP_GAMES or not isinstance(lineups, list)
            or max((len(lineup) for lineup in lineups if isinstance(lineup, list)),
                   default=0) < 3):
        return []
    if recorded_scheme(meta, "seating_orders", Path(path)) < 2:
        return [["seating orders",
                 "the config's order in every deal (a run started before seating orders)"]]
    period = seating_period(meta, path)
    if period == 1:
        return [["seating orders", "one order per line-up (its pattern has no other)"]]
    even = neighbour_period(tuple(map(str, lineup)) for lineup in lineups
                            if isinstance(lineup, list))
    whole, rest = divmod(deal_indices, period)
    if last_deal is not None and last_deal != deal_indices - 1:
        played = ("not the first ones (a run that stopped with later deals committed), so"
                  " read who sat beside whom from the seats table")
    elif not rest:
        played = f"{whole:,} whole cycle{'' if whole == 1 else 's'}"
    elif deal_indices % even == 0:
        played = ("not a whole number of cycles, but each entrant had each other on its"
                  " left equally often")
    else:
        played = ("not a whole number of cycles, so not every entrant sat beside every other"
                  " equally often")
    neighbours = f", neighbours even every {even:,}" if even < period else ""
    return [["seating orders",
             "each deal in turn through its line-up's circular orders, each followed by its"
             f" mirror: a cycle of {period:,} deals{neighbours}; the {deal_indices:,} deal"
             f" indices played are {played}"]]


def _count(value: Any) -> str:
    """A count as the report's text writes it, 5,900 (the table wrote 5900 beside it)."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _format_text(tournament: dict[str, Any], meta: dict[str, Any]) -> str:
    """"round robin", a duel, or the gauntlet's candidates: a gauntlet plays only the
    line-ups with a candidate, and its report said nowhere that it was one. A run that
    ends in a verdict between two entrants (``run.json``'s ``verdict``) is a duel, A
    against B, whether ``whist-sim duel`` or a config of two made it: it was called a
    round robin (a probe)."""
    if tournament.get("format") == "gauntlet":
        candidates = ", ".join(map(str, tournament.get("candidates") or []))
        return f"gauntlet (candidates: {candidates}; only line-ups with a candidate played)"
    verdict = meta.get("verdict")
    if isinstance(verdict, dict):
        who = f"A = {verdict.get('a', '—')} against B = {verdict.get('b', '—')}"
        if verdict.get("sequential"):
            return (f"duel ({who}): a sequential test (SPRT), played in batches until it"
                    " decides or reaches its maximum")
        return f"duel ({who}): every deal played, then a fixed-sample test"
    return "round robin"


def _deals_label(config: dict[str, Any]) -> str:
    """The row of ``tournament.deals``: a sequential test's maximum, which it may stop
    short of (a duel's 20,000 read as the deals per line-up played), else the deals."""
    if isinstance(config.get("sprt"), dict):
        return "deals per line-up, at most (the SPRT's maximum; config)"
    return "deals per line-up (config)"


def _test_rows(config: dict[str, Any], meta: dict[str, Any]) -> list[list[str]]:
    """The settings of a duel's test or any ``[sprt]`` run: its hypotheses and error
    rates as the verdict recorded them (the defaults written in), else as the config's
    ``[sprt]`` gave them, and a sequential test's batch. The Run section listed none of
    them, and a verdict at alpha 0.01 read as one at 0.2 (a probe)."""
    sprt = config.get("sprt") if isinstance(config.get("sprt"), dict) else None
    verdict = meta.get("verdict") if isinstance(meta.get("verdict"), dict) else None
    if sprt is None and verdict is None:
        return []
    recorded = (verdict or {}).get("settings")
    settings = recorded if isinstance(recorded, dict) else _config_settings(sprt or {})
    rows = [["test", "sequential (SPRT)" if sprt is not None
             else "fixed-sample, at the default hypotheses"]]
    rows += [[f"test: {key}", f"{value:g}" if isinstance(value, int | float) else str(value)]
             for key, value in sorted(settings.items(), key=_in_test_order)
             if value is not None]
    if sprt is not None:
        rows.append(["test: batch (pairs between two looks)", _count(sprt.get("batch", "—"))])
    return rows


TEST_KEYS = ("elo0", "elo1", "net0", "net1", "alpha", "beta", "skewness")
"""The test's settings in the order ``--sprt`` and docs/duels.md give them (run.json keeps
its keys sorted, which put alpha before the hypotheses)."""


def _in_test_order(item: tuple[str, Any]) -> int:
    return TEST_KEYS.index(item[0]) if item[0] in TEST_KEYS else len(TEST_KEYS)


def _config_settings(sprt: dict[str, Any]) -> dict[str, Any]:
    """A config's ``[sprt]`` as the test reads it, the default hypotheses written in."""
    from whist_sim.inference import SprtError, SprtSettings

    given = {k: v for k, v in sprt.items() if k != "batch" and v is not None}
    try:
        return dict(SprtSettings.from_mapping(given).as_dict())
    except SprtError:  # a hand-edited run.json: show what it says
        return given


def deal_facts(ranges: DealRanges) -> dict[str, Any]:
    """What the deals table holds: hands, deal indices, matches, line-ups, variants, rules
    versions and forfeited hands, counted range by range (deal indices, and so matches, of
    different ranges differ: their counts add up)."""
    parts = ranges.collect(lambda scan: scan("deals").select(
        pl.len().cast(pl.Int64).alias("hands"),
        pl.col("deal").n_unique().cast(pl.Int64).alias("deal_indices"),
        pl.col("deal").max().cast(pl.Int64).alias("last_deal"),
        pl.struct("pairing", "deal", "rotation").n_unique().cast(pl.Int64).alias("matches"),
        pl.col("pairing").unique().implode().alias("pairings"),
        pl.col("variant").unique().implode().alias("variants"),
        pl.col("game_version").unique().implode().alias("versions"),
        (pl.col("status") == "forfeit").sum().cast(pl.Int64).alias("forfeited"),
    ))

    def union(column: str) -> pl.Series:
        return parts[column].explode().drop_nulls().unique().sort()

    return {
        "hands": int(parts["hands"].sum()),
        "deal_indices": int(parts["deal_indices"].sum()),
        "last_deal": parts["last_deal"].max(),
        "matches": int(parts["matches"].sum()),
        "pairings": union("pairings").len(),
        "variant": " / ".join(union("variants").to_list()),
        "version": ", ".join(str(v) for v in union("versions").to_list()),
        "forfeited": int(parts["forfeited"].sum()),
    }


def variant_text(variant: str | None) -> str:
    """The variant's JSON as ``key = value`` pairs; "defaults" when it sets nothing."""
    if not variant:
        return "—"
    try:
        parsed = json.loads(variant)
    except json.JSONDecodeError:
        return variant
    return ", ".join(f"{k} = {_value_text(k, v, parsed)}" for k, v in parsed.items()) or (
        "defaults")


def _value_text(key: str, value: Any, variant: dict[str, Any]) -> str:
    """One variant value as the run played it. A null is a key left out whose meaning
    follows from others: off, but for Solo Whist's ``play_out`` under ``overtricks = true``,
    which plays every trick (``play_out = off`` was shown of a run that played out every
    hand: a probe)."""
    if value is None:
        implied = key == "play_out" and variant.get("overtricks") is True
        return "on (overtricks implies it)" if implied else "off"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))  # Solo's default stake read `stake = 1.0` (a probe)
    return str(value)


def strategy_rows(meta: dict[str, Any]) -> list[list[str]]:
    """Entrants from ``run.json``: its ``strategies`` map (label -> use, params, version).

    Runs that lack the map (older run folders) fall back on the config's entries.
    """
    entries: dict[str, dict[str, Any]] = {}
    config = meta.get("config")
    recorded = meta.get("strategies")
    if isinstance(config, dict) and not isinstance(recorded, dict):
        for entry in config.get("strategies") or []:
            if isinstance(entry, dict) and "use" in entry:
                label = entry.get("label") or entry["use"]
                entries[label] = {"use": entry["use"], "params": entry.get("params") or {}}
    if isinstance(recorded, dict):
        for label, info in recorded.items():
            if isinstance(info, dict):
                entries.setdefault(label, {}).update(info)
            else:
                entries.setdefault(label, {})["version"] = info
    return [
        [label, _strategy_text(info),
         json.dumps(info.get("params", {}), sort_keys=True), str(info.get("version", "—"))]
        for label, info in entries.items()
    ]


def _strategy_text(info: dict[str, Any]) -> str:
    """What an entrant plays: its ``use``, and for an entrant in a process of its own (a
    bot) the command run.json records, which ``process`` alone left out (a probe)."""
    use = str(info.get("use", "—"))
    source = info.get("source")
    command = source.get("command") if isinstance(source, dict) else None
    if isinstance(command, list) and command:
        return f"{use}: {shlex.join(str(part) for part in command)}"
    return use
