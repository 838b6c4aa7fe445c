"""Fixed deal sets: a Parquet file of dealt hands that a tournament plays instead of shuffles.

A benchmark kept for every experiment, or real hands replayed, are a set of
deals whose cards are fixed. The file has one row per (deal, hand): the deal
index (0..N-1, as a run numbers its deals), the hand within the match, the
dealer and each seat's cards in the notation of the ``deals`` table, with the
stock and turned card where the game has them, and optionally the seed of what
the cards leave to chance. ``docs/deal-sets.md`` describes every column.

Why everything is checked at load: a tournament plays thousands of matches on
many workers, and a bad row found in the middle of it would waste the run. So
``load_deal_set`` refuses the file (one line naming the file, the row and the
problem) before anything is played, and it checks each row's cards by building
the deal through the game's own ``deal_from_record``, the very call play makes,
so validation and play cannot disagree.

``export_deal_set`` writes such a file from any run folder's ``deals`` table, so a
run's deals become a set that later runs (other strategies, other seeds) replay.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from whist_sim.cards import parse_card, parse_cards
from whist_sim.games import as_game, make_game
from whist_sim.games.base import DealState, Game, VariantError, WhistSimError, closest
from whist_sim.play import DealSource, hand_seed
from whist_sim.store import RunFolder, run_part_holding
from whist_sim.store.lock import shown_status

SCHEMA = pa.schema(
    {
        "deal": pa.int64(),
        "hand": pa.int16(),
        "dealer": pa.int8(),
        "hands": pa.list_(pa.string()),
        "stock": pa.string(),
        "upcard": pa.string(),
        "seed": pa.int64(),
        "game": pa.string(),
        "variant": pa.string(),
    }
)
"""The columns ``export_deal_set`` writes, in order."""

REQUIRED = ("deal", "hand", "dealer", "hands", "game")
"""Columns a file must have; ``stock``, ``upcard``, ``seed`` and ``variant`` may be left
out (all null), so a hand-written Minnesota set needs only the five."""

KINDS = {
    "deal": "integers (the deal index, int64)",
    "hand": "integers (the hand number within the match, int16)",
    "dealer": "integers (the dealer's seat, int8)",
    "hands": "lists of strings (each seat's cards in notation, list<string>)",
    "stock": "strings (German Whist's stock in notation, top first) or nulls",
    "upcard": "strings (a card in notation) or nulls",
    "seed": "integers (int64) or nulls",
    "game": "strings (the game's name, e.g. 'german_whist')",
    "variant": "strings (the variant as JSON) or nulls",
}
"""What each column must hold, as the error for a mistyped column says it."""

DEAL_FIELDS = ("dealer", "hands", "stock", "upcard", "seed")
"""The fields a row's deal is built from; two runs' rows for one (deal, hand) must agree."""

INT64 = range(-(2**63), 2**63)
SHOWN_GAPS = 5


class DealSetError(WhistSimError, ValueError):
    """A deal set that cannot be played or written: one line naming the file, row and problem.

    ``problems`` holds every problem found (the message shows the first and how many
    more), so a tool can list them all.
    """

    def __init__(self, message: str, problems: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems) or (message,)

    def __reduce__(self):  # picklable, so the error survives a trip through Ray
        return (type(self), (str(self), self.problems))


class DealRow(NamedTuple):
    """One row of a deal set: the cards of hand ``hand`` of deal ``deal``, as the file has them."""

    row: int
    """0-based row of the file (for messages)."""
    deal: int
    hand: int
    dealer: int
    hands: tuple[str, ...]
    """Each seat's cards in notation, seat order."""
    stock: str | None
    upcard: str | None
    seed: int | None
    """None: the seed derives from the run's seed, as without a file."""

    def record(self) -> dict[str, Any]:
        """The mapping ``Game.deal_from_record`` reads."""
        return {"dealer": self.dealer, "hands": list(self.hands), "stock": self.stock,
                "upcard": self.upcard, "seed": self.seed}

    @property
    def where(self) -> str:
        return f"row {self.row} (deal {self.deal}, hand {self.hand})"


@dataclass(frozen=True)
class DealSet:
    """A validated deal set in memory: plain Python data, cheap to pickle to workers.

    Every row was checked against ``game`` (the name) at ``players`` seats; only a
    game of that name and table size may play it (``source`` checks).
    """

    path: str
    """The file it was read from, as given (for messages)."""
    game: str
    players: int
    deals: int
    """Number of deal indices: the file holds deals 0..deals - 1."""
    by_deal: Mapping[int, Mapping[int, DealRow]]
    """For each deal index held, its rows by hand number (hand 0 is always there). All of
    the file's deals, or those of one task (:meth:`only`)."""

    @property
    def row_count(self) -> int:
        """Number of rows held, one per (deal, hand)."""
        return sum(len(hands) for hands in self.by_deal.values())

    def only(self, deals: Iterable[int]) -> DealSet:
        """The same set holding only ``deals``: what one task ships to its worker."""
        wanted = {d: self.by_deal[d] for d in deals if d in self.by_deal}
        return DealSet(self.path, self.game, self.players, self.deals, wanted)

    def repeated_deals(self) -> list[tuple[int, int]]:
        """(earlier, later) for each deal whose first hand deals exactly the cards of an
        earlier deal's (every seat's hand, the stock in order, the turned card), however
        the file spells them: their results are not independent, so a test or an interval
        that counts them as two deals claims more evidence than the set holds."""
        first_seen: dict[tuple[Any, ...], int] = {}
        repeats = []
        for deal in sorted(self.by_deal):
            row = self.by_deal[deal].get(0)
            if row is None:
                continue
            key = (tuple(parse_cards(cards) for cards in row.hands),
                   None if row.stock is None else tuple(parse_card(card)
                                                        for card in row.stock.split()),
                   None if row.upcard is None else parse_card(row.upcard))
            if key in first_seen:
                repeats.append((first_seen[key], deal))
            else:
                first_seen[key] = deal
        return repeats

    def row(self, deal: int, hand: int) -> DealRow | None:
        """The row for hand ``hand`` of deal ``deal``, or None if the set holds none."""
        rows = self.by_deal.get(deal)
        return None if rows is None else rows.get(hand)

    def record(self, deal: int, hand: int) -> dict[str, Any] | None:
        """What ``Game.deal_from_record`` reads for that hand, or None if the file has none."""
        row = self.row(deal, hand)
        return None if row is None else row.record()

    def source(self, game: Game, deal: int, match_seed: int) -> DealSource:
        """The ``DealSource`` that ``play_match`` takes to play deal ``deal`` from this set.

        A hand the file holds is built from its cards; its seed is the row's, or
        ``hand_seed(match_seed, hand)`` when the row's is null (exactly the seed the
        hand would have without a file). A hand the file does not hold (a game to 13
        that runs longer than any recorded one) is dealt from its seed as usual.
        """
        if game.name != self.game or game.players != self.players:
            raise DealSetError(
                f"{self.path}: a deal set of {self.game} at {self.players} seats cannot be"
                f" played as {game.name} at {game.players} seats"
            )
        if deal not in self.by_deal:
            raise DealSetError(
                f"{self.path}: holds deals 0..{self.deals - 1}; there is no deal {deal}"
                if not 0 <= deal < self.deals else
                f"{self.path}: deal {deal} was not shipped with this task"
            )
        rows = self.by_deal[deal]
        path = self.path

        def deal_hand(
            hand: int, dealer: int, context: Mapping[str, Any]
        ) -> tuple[DealState, int] | None:
            row = rows.get(hand)
            if row is None:
                return None
            if row.dealer != dealer:  # checked at load; the match must agree with the game
                raise DealSetError(
                    f"{path}: {row.where}: dealer {row.dealer}, but the match gives hand"
                    f" {hand} to seat {dealer}"
                )
            seed = hand_seed(match_seed, hand) if row.seed is None else row.seed
            try:
                state = game.deal_from_record(row.record(), dealer, seed, **context)
            except VariantError as exc:
                raise DealSetError(f"{path}: {row.where}: {exc}") from None
            return state, seed

        return deal_hand


def file_digest(path: Path | str) -> str:
    """SHA-256 of a file, read a megabyte at a time: run.json keeps a deal set's, so a resume
    knows the cards are the same, and those of the files an entrant's parameters name."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# -- loading -------------------------------------------------------------------------------

def load_deal_set(path: Path | str, game: Game | str) -> DealSet:
    """Read and check the deal set at ``path`` for a run of ``game`` (its variant and seats;
    a name: its default variant and table).

    Refused, each as one line naming the file (and the row, 0-based, with its deal and
    hand) and the problem: a missing file, a folder, a file that is not Parquet or is
    corrupt, a missing or mistyped column, a game other than ``game``'s, a deal index
    that is negative or leaves a gap (deal indices run 0..N-1, each with a hand 0), a
    (deal, hand) given twice, a hand no match of this variant reaches, a dealer other
    than the one the match gives that hand, and any row whose cards are not a legal deal
    of the game and variant. Every row is checked; the error shows the first problem and
    keeps them all in ``DealSetError.problems``.

    Other columns (``trump``, notes) are ignored: trump follows from the cards, the
    variant and the play. ``variant`` is informative and not compared: the same cards
    serve every variant of the game whose rules accept them.
    """
    game = as_game(game)
    shown = str(path)
    if not isinstance(path, str | os.PathLike):
        raise DealSetError(f"path = {path!r} is not a file's path; give a str or a"
                           " pathlib.Path")
    file = Path(path)
    if file.is_dir():
        raise DealSetError(
            f"{shown}: is a folder; a deal set is one Parquet file"
            " (write one with: whist-sim deals export RUN --out FILE)"
        )
    if not file.exists():
        raise DealSetError(f"{shown}: no such file")
    try:
        # Arrow's own file, not a Python one: Arrow's threads reading a Python file object
        # left the process to abort at exit about one time in two ("terminate called
        # without an active exception", pyarrow 26), after the work was done
        with pa.OSFile(str(file)) as handle:
            table = pq.read_table(handle)
    except (OSError, pa.ArrowException) as exc:
        repeated = _repeated_column(_column_names(file))
        if repeated:
            raise DealSetError(f"{shown}: {repeated}") from None
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DealSetError(f"{shown}: not a readable Parquet file ({detail})") from None
    return validate_deal_set(table, game, shown)


def _column_names(file: Path) -> list[str]:
    """The column names a Parquet file's footer lists, or none if even that is unreadable:
    a file with a name given twice has a readable footer, but Arrow refuses to read its
    table with a message about field references that does not say what is wrong."""
    try:
        with pa.OSFile(str(file)) as handle:
            return list(pq.read_schema(handle).names)
    except (OSError, pa.ArrowException):
        return []


def _repeated_column(names: Sequence[str]) -> str | None:
    """What is wrong with a set whose columns repeat a name, or None if none repeats."""
    for name in dict.fromkeys(names):
        count = names.count(name)
        if count > 1:
            return f"column {name!r} appears {count} times; each column may appear once"
    return None


def validate_deal_set(table: pa.Table, game: Game, where: str) -> DealSet:
    """The ``DealSet`` that ``table`` (a deal set's columns) holds for ``game``, or a
    DealSetError whose lines start with ``where`` (the file name)."""
    _check_columns(table, where)
    if table.num_rows == 0:
        raise DealSetError(f"{where}: holds no deals (no rows)")
    columns = {
        name: table.column(name).to_pylist() if name in table.column_names
        else [None] * table.num_rows
        for name in SCHEMA.names
    }
    problems: list[str] = []
    by_deal: dict[int, dict[int, DealRow]] = {}
    for index in range(table.num_rows):
        values = {name: columns[name][index] for name in SCHEMA.names}
        try:
            row = _checked_row(index, values, game, by_deal)
        except _RowProblem as problem:
            problems.append(f"{where}: {problem}")
            continue
        by_deal.setdefault(row.deal, {})[row.hand] = row
    if not problems:
        gaps = _gaps({deal for deal, hands in by_deal.items() if 0 in hands}, max(by_deal))
        if gaps:
            problems.append(f"{where}: {gaps}")
    if problems:
        more = len(problems) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        if RUN_TABLE_COLUMNS.issubset(table.column_names):
            tail += RUN_TABLE_HINT
        raise DealSetError(problems[0] + tail, problems)
    return DealSet(where, game.name, game.players, len(by_deal), by_deal)


RUN_TABLE_COLUMNS = frozenset({"run_id", "pairing", "rotation"})
RUN_TABLE_HINT = ("; this is a run's deals table (it has run_id, pairing and rotation), not a"
                  " deal set: write one with: whist-sim deals export RUN --out FILE")
"""Said of a run's own data/deals file given as a set: it holds each deal once per line-up
and rotation, and "repeats row 0" alone did not say that export folds them into one."""


class _RowProblem(Exception):
    """What is wrong with one row, already prefixed with the row and its deal and hand."""


def _checked_row(
    index: int, values: Mapping[str, Any], game: Game, seen: Mapping[int, Mapping[int, DealRow]]
) -> DealRow:
    deal, hand = values["deal"], values["hand"]
    where = f"row {index}" if deal is None or hand is None else (
        f"row {index} (deal {deal}, hand {hand})")

    def problem(text: str) -> _RowProblem:
        return _RowProblem(f"{where}: {text}")

    for name in REQUIRED:
        if values[name] is None:
            raise problem(f"{name} is null; every row needs {name}")
    if values["game"] != game.name:
        raise problem(f"game {values['game']!r} is not this run's game, {game.name!r}")
    if deal < 0:
        raise problem(f"deal {deal} is negative; deal indices run 0..N-1")
    if hand < 0:
        raise problem(f"hand {hand} is negative; a match's hands are numbered 0, 1, ...")
    earlier = seen.get(deal, {}).get(hand)
    if earlier is not None:
        raise problem(f"repeats row {earlier.row}; each (deal, hand) may appear once")
    expected = game.hand_dealer(hand)
    if expected is None:
        raise problem(f"hand {hand} is never played: {_hands_played(game, hand)}"
                      f"{_dealt_under(values.get('variant'), game)}")
    if values["dealer"] != expected:
        raise problem(
            f"dealer {values['dealer']}, but the match gives hand {hand} to seat {expected}"
        )
    seed = values["seed"]
    if seed is not None and seed not in INT64:
        raise problem(f"seed {seed} does not fit in int64")
    row = DealRow(index, deal, hand, expected, tuple(values["hands"]), values["stock"],
                  values["upcard"], seed)
    try:
        game.deal_from_record(row.record(), expected, 0 if seed is None else seed)
    except VariantError as exc:
        raise problem(str(exc)) from None
    return row


def _dealt_under(variant_json: Any, game: Game) -> str:
    """Where a row says the variant it was dealt under and it differs from the run's in a
    key: which, as a hint (a set exported from a run of 20-hand Solo sessions read, under
    one-hand sessions, only that hand 1 is never played)."""
    try:
        dealt = json.loads(variant_json) if isinstance(variant_json, str) else None
    except ValueError:
        return ""
    if not isinstance(dealt, dict):
        return ""
    playing = game.variant.as_dict()
    differ = [f"{key} = {json.dumps(value)}" for key, value in sorted(dealt.items())
              if key in playing and playing[key] != value]
    if not differ:
        return ""
    return (f"; the set was dealt under {', '.join(differ)} (its variant column): give the"
            " run the same variant")


def _hands_played(game: Game, unplayed: int) -> str:
    """Which hand numbers a match of ``game`` reaches, in words, given that hand
    ``unplayed`` is not one of them (so the count ends below it)."""
    last = 0
    while last + 1 < unplayed and game.hand_dealer(last + 1) is not None:
        last += 1
    if last == 0:
        return f"a {game.title} match under this variant is one hand (hand 0)"
    return f"a {game.title} match under this variant has hands 0..{last}"


def _gaps(opened: set[int], top: int) -> str | None:
    """What is wrong with deal indices up to ``top`` of which ``opened`` have a hand 0,
    or None if they run 0..top, each with a hand 0."""
    count = top + 1 - len(opened)  # every opened deal lies in 0..top
    if count == 0:
        return None
    first = itertools.islice((d for d in range(top + 1) if d not in opened), SHOWN_GAPS)
    listed = ", ".join(map(str, first))
    if count > SHOWN_GAPS:
        listed += f", ... ({count} in all)"
    which = f"deal {listed} has" if count == 1 else f"deals {listed} have"
    return (
        f"deal indices must run 0..N-1, each with a hand 0; they run up to {top} but"
        f" {which} no hand 0"
    )


def _check_columns(table: pa.Table, where: str) -> None:
    repeated = _repeated_column(table.column_names)
    if repeated:
        raise DealSetError(f"{where}: {repeated}")
    names = set(table.column_names)
    misnamed = _misnamed_column(table.column_names)
    if misnamed:
        raise DealSetError(f"{where}: {misnamed}")
    for name in REQUIRED:
        if name not in names:
            raise DealSetError(
                f"{where}: no column {name!r}; a deal set has columns"
                f" {', '.join(REQUIRED)} (required) and stock, upcard, seed, variant (optional)"
            )
    for name in SCHEMA.names:
        dtype = table.schema.field(name).type if name in names else None
        if dtype is not None and not _fits(name, dtype):
            raise DealSetError(
                f"{where}: column {name!r} is {dtype}; it must hold {KINDS[name]}"
                + (FLOATS_FROM_PANDAS.format(name=name) if pa.types.is_floating(dtype)
                   and pa.types.is_integer(SCHEMA.field(name).type) else "")
            )


def _misnamed_column(names: Sequence[str]) -> str | None:
    """The problem with a column one slip away from a deal set's column the file lacks
    (``Seed`` for ``seed``), or None. Other columns are notes and are passed over, but a
    misspelt ``seed`` was passed over too, and every hand was played from the seed it has
    without a file, with no word (a probe)."""
    absent = [name for name in SCHEMA.names if name not in names]
    for column in names:
        if column in SCHEMA.names:
            continue
        near = next((name for name in absent if name == column.lower()), None)
        near = near or closest(column, absent)
        if near:
            return (f"column {column!r} is not read (did you mean {near!r}?); a deal set has"
                    f" columns {', '.join(REQUIRED)} (required) and stock, upcard, seed,"
                    f" variant (optional): rename it {near!r}")
    return None


FLOATS_FROM_PANDAS = (
    " (pandas turns a column of whole numbers with a missing value into floats, which"
    " cannot hold every seed exactly: give the column pandas' nullable integer type,"
    " df[{name!r}] = df[{name!r}].astype('Int64'), before to_parquet)")
"""What a whole-number column read as floats adds to its error: a probe nulled one seed in
pandas and read only "column 'seed' is double", while docs/deal-sets.md says files from
pandas and null seeds are both accepted."""


def _fits(name: str, dtype: pa.DataType) -> bool:
    """Whether a column of type ``dtype`` can hold what column ``name`` means.

    Any integer width, and plain, large or view strings, are accepted: files written
    by pandas or Polars differ there and mean the same. A column of nulls only
    (type null) passes here and each row's null is refused where it matters.
    """
    if pa.types.is_null(dtype):
        return True
    if pa.types.is_dictionary(dtype):
        dtype = dtype.value_type
    if name in ("deal", "hand", "dealer", "seed"):
        return pa.types.is_integer(dtype)
    if name == "hands":
        return (
            pa.types.is_list(dtype) or pa.types.is_large_list(dtype)
            or pa.types.is_fixed_size_list(dtype)
        ) and _is_string(dtype.value_type)
    return _is_string(dtype)


def _is_string(dtype: pa.DataType) -> bool:
    return (
        pa.types.is_string(dtype) or pa.types.is_large_string(dtype)
        or pa.types.is_string_view(dtype) or pa.types.is_null(dtype)
    )


# -- exporting ---------------------------------------------------------------------------

def export_deal_set(run: Path | str, out: Path | str, *, players: int | None = None,
                    partial: bool = False) -> Path:
    """Write the deals of run folder ``run`` as a deal set at ``out``; return ``out``.

    One row per (deal, hand) of the run's ``deals`` table: the line-ups and seat
    rotations that played a deal share its cards, so they are written once (after
    checking they agree). The rows keep the run's seeds, so replaying the set plays
    each hand exactly as the run did. ``players`` picks one table size of a Knock-out
    run that played several (a deal set holds one size). The file is checked like
    ``load_deal_set`` checks it, then written to a temporary file beside ``out`` and
    renamed, so ``out`` is never half-written; an existing file at ``out`` is replaced.

    Refused, in one line: an ``out`` that is a folder or whose folder does not exist,
    a run folder that cannot be read, a run that did not complete (a stopped run's deals
    are a prefix of its plan, and exported quietly they made a smaller set with no hint
    of it; ``partial=True`` exports them anyway), a run whose deal indices have gaps
    (resume it first), and a run whose rows for one (deal, hand) disagree.
    """
    if not isinstance(out, str | os.PathLike):
        raise DealSetError(f"out = {out!r} is not a file's path; give a str or a pathlib.Path")
    if not isinstance(partial, bool):
        # any truthy text ("no") exported a stopped run that the caller meant to refuse
        raise DealSetError(f"partial = {partial!r} is not true or false; give partial=True"
                           " or partial=False")
    target = Path(out)
    part = run_part_holding(target)
    if part is not None:
        raise DealSetError(f"{out}: lies in {part}, a run's own folder whose every file its"
                           " manifest names; write the deal set elsewhere")
    if target.is_dir():
        raise DealSetError(f"{out}: is a folder; --out names the deal set file to write")
    if not target.parent.is_dir():
        raise DealSetError(f"{out}: no folder {str(target.parent)!r} to write it in")
    folder = RunFolder.open(run)
    meta = folder.meta()
    status = meta.get("status")
    if status != "complete" and not partial:
        planned = (meta.get("plan") or {}).get("deals")
        of = f" of the {planned:,} it planned" if isinstance(planned, int) else ""
        raise DealSetError(
            f"{run}: the run is {shown_status(Path(run), str(status))}, not complete: its"
            " deals are only those played"
            f"{of}; finish it with whist-sim run --resume {run}, or export what it has"
            " with --partial")
    rows = (
        folder.scan("deals")
        .select("pairing", "rotation", "deal", "hand", *DEAL_FIELDS, "game", "variant")
        .collect()
    )
    rows = _one_table_size(rows, run, players)
    distinct = rows.drop("pairing", "rotation").unique().sort("deal", "hand")
    _check_agreement(rows, distinct, run)
    opened = set(distinct.filter(pl.col("hand") == 0)["deal"].to_list())
    gaps = _gaps(opened, distinct["deal"].max())
    if gaps:
        raise DealSetError(
            f"{run}: {gaps} (was the run stopped? finish it with whist-sim run --resume"
            f" {run} before exporting)"
        )
    table = distinct.select(SCHEMA.names).to_arrow().cast(SCHEMA)
    first = distinct.row(0, named=True)
    game = make_game(first["game"], json.loads(first["variant"]), len(first["hands"]))
    validate_deal_set(table, game, f"{run} (deals table)")
    temporary = target.parent / f".{target.name}.{os.getpid()}.tmp"
    try:
        pq.write_table(table, temporary, compression="zstd")
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return target


def _one_table_size(rows: pl.DataFrame, run: Path | str, players: int | None) -> pl.DataFrame:
    """The rows of one table size: the run's only one, or ``players``."""
    sizes = sorted(set(rows["hands"].list.len().to_list()))
    if players is None:
        if len(sizes) > 1:
            shown = ", ".join(map(str, sizes))
            raise DealSetError(
                f"{run}: plays tables of {shown} players; a deal set holds one table size:"
                f" choose one with --players ({shown}; players= in Python)"
            )
        return rows
    if isinstance(players, bool) or not isinstance(players, int) or players not in sizes:
        shown = f"{players!r} (not a whole number)" if not isinstance(players, int) else players
        raise DealSetError(
            f"{run}: has no table of {shown} players; its tables seat"
            f" {', '.join(map(str, sizes))}"
        )
    return rows.filter(pl.col("hands").list.len() == players)


def _check_agreement(rows: pl.DataFrame, distinct: pl.DataFrame, run: Path | str) -> None:
    """Every line-up and rotation of a (deal, hand) was dealt the same cards and seed."""
    repeated = distinct.filter(pl.struct("deal", "hand").is_duplicated())
    if repeated.height == 0:
        return
    deal, hand = repeated["deal"][0], repeated["hand"][0]
    played = rows.filter((pl.col("deal") == deal) & (pl.col("hand") == hand))
    first = played.row(0, named=True)
    for other in played.iter_rows(named=True):
        differs = [name for name in (*DEAL_FIELDS, "game", "variant")
                   if other[name] != first[name]]
        if differs:
            raise DealSetError(
                f"{run}: deal {deal}, hand {hand} differs ({', '.join(differs)}) between"
                f" pairing {first['pairing']} rotation {first['rotation']} and pairing"
                f" {other['pairing']} rotation {other['rotation']}; the run's rows disagree,"
                " so no deal set is written"
            )
