"""Play deals and matches: ask each seat's strategy, apply its choice, nothing more.

The loop hands a strategy ``state.view(seat)`` (never the state) and the seat's
seeded generator. A strategy that raises, returns an illegal action or exceeds
its time budget forfeits the deal (``on_error="forfeit"``) or stops everything
(``on_error="abort"``, raising ``StrategyFailure``).

A deal is normally shuffled from its seed; a match may instead take some of its
hands from a ``DealSource`` (a fixed deal set, see ``whist_sim.deal_sets``), which
hands over the built deal and the seed for everything the cards leave to chance.
"""

from __future__ import annotations

import inspect
import math
import operator
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MethodType
from typing import Any

from whist_sim.budget import (
    ChessClock,
    ClockLeft,
    DecisionClock,
    DecisionTimeout,
    TimeControl,
    _AlarmRang,
    decision_clock,
)
from whist_sim.games import GAMES, as_game
from whist_sim.games.base import DealOutcome, DealState, Game, RuleError, WhistSimError
from whist_sim.raised import raised_at, raised_text
from whist_sim.rng import (
    DEAL_SEEDS,
    DEAL_SEEDS_SAID,
    LazyRandom,
    derive_seed,
    seat_seed_hash,
    seed_of_hash,
    splitmix64,
)
from whist_sim.strategy import UNIFORM_CHOOSERS, StrategyError

ON_ERROR = ("forfeit", "abort")
_SECONDS = (float, int)
_GAME_TYPES = frozenset(GAMES.values())


class StrategyFailure(WhistSimError, RuntimeError):
    """A strategy failed and ``on_error = "abort"`` asked to stop."""

    hand = 0
    """The hand of its match it stopped in (``play_match`` sets it)."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.message = message

    def __reduce__(self):  # so Ray can carry it from a worker back to the driver
        return (type(self), (self.seat, self.message))


DealSource = Callable[[int, int, Mapping[str, Any]], tuple[DealState, int] | None]
"""Where a match's hands come from when not from their seeds: called with (hand number,
dealer the match gives that hand, the match's ``deal_context()``), it returns the deal,
built and not yet played, and the seed of the strategies' generators for it (recorded as
the hand's seed), or None to deal that hand from its seed as usual."""


class SeatFailure(Exception):
    """A seat's strategy failed in a way recorded outside the play loop: its process died,
    ran out of memory or time under a supervisor, or raised what may not be caught in
    process (``SystemExit``, ``KeyboardInterrupt``). The message says what happened to
    which entrant ("(pimc) process died: SIGKILL"); the forfeit names the seat."""


class SatOut(SeatFailure):
    """The seat's entrant is benched (``tournament.bench_after``): it forfeits unasked, so
    its forfeit names no phase of the deal."""


class TableBenched(SatOut):
    """Every entrant at the table is benched (``tournament.bench_after``): the deal is
    forfeited by every seat (``DealState.forfeit_by_every_seat``), and so is the match.
    Its message holds ``EVERY_SEAT_FORFEITS``, by which a replay knows such a deal."""


EVERY_SEAT_FORFEITS = "so is every entrant at this table: every seat forfeits"


@dataclass
class PlayedDeal:
    """A finished deal: its seed, dealer, final state (for logs and records) and outcome."""

    seed: int
    dealer: int
    state: DealState
    outcome: DealOutcome
    seconds: list[float] = field(default_factory=list)
    """The time of each decision, in order, where measured (``timed``, or under a time limit
    or clock): one per chosen action of the log, then the failed decision's if the deal was
    forfeited in a decision that was timed. Empty for a deal played in compiled code
    (``DealState.play_uniformly``)."""


SEAT_SEEDING = 2
"""How a seat's generator seed derives from its deal's seed, as run.json records it.

2 (runs started by this version on): one-way, a BLAKE2b hash (``derive_seed``), so
the generator a strategy holds, whose state an isolated strategy or a bot is sent
(docs/protocol.md, "Randomness"), says nothing of the deal's seed and so nothing of
the other hands. 1: a SplitMix64 step, cheaper but invertible; runs started before
version 2 resume with it, so their rows stay what they were."""


def seat_generators(deal_seed: int, players: int, seeding: int = SEAT_SEEDING
                    ) -> list[LazyRandom]:
    """Each seat's generator for a deal, seeded at its first draw with ``seat_seed``.

    Under seeding 2 what a generator keeps until then is the BLAKE2b hash of its seat's
    text, not yet finished: the deal's seed cannot be read back from it (the seed as an
    attribute of the generator a strategy is handed let ``vars(rng)`` rebuild every
    hidden card). About half a microsecond a seat beside keeping the seed."""
    if seeding == 2:
        return [LazyRandom(seed_of_hash, seat_seed_hash(deal_seed, seat))
                for seat in range(players)]
    return [LazyRandom(seat_seed, deal_seed, seat, seeding) for seat in range(players)]


def seat_seed(deal_seed: int, seat: int, seeding: int = SEAT_SEEDING) -> int:
    """Seed of the generator the strategy in ``seat`` gets for this deal (see SEAT_SEEDING)."""
    if seeding == 1:
        return splitmix64(deal_seed ^ (0xA5A5_0000 + seat))
    return derive_seed(deal_seed, "seat", seat)


def play_deal(
    game: Game,
    strategies: Sequence[Any],
    seed: int,
    dealer: int = 0,
    *,
    time_limit: float | None = None,
    on_error: str = "forfeit",
    context: dict[str, Any] | None = None,
    dealt: DealState | None = None,
    seat_seeding: int = SEAT_SEEDING,
    time_control: TimeControl | None = None,
    chess_clock: ChessClock | None = None,
    timed: bool = False,
    clock: DecisionClock | None = None,
) -> PlayedDeal:
    """Play one deal of ``game`` with ``strategies[seat]`` in each seat.

    ``dealt``: a deal already built (``game.deal_from_record``) to play instead of
    shuffling ``seed``; ``seed`` still seeds each seat's generator and is recorded.
    ``seat_seeding``: how those generators are seeded (``SEAT_SEEDING``).
    ``time_control``: chess clocks on top of ``time_limit``; a match's clocks
    (``per = "match"``) come in ``chess_clock``, a deal's are made here.
    ``timed``: measure each decision (``PlayedDeal.seconds``) even without a time limit
    (under one, decisions are always measured). ``clock``: the decision clock of a caller
    that plays many deals under the same limit (``decision_clock``), so its alarm is set
    up once, not per deal; without it a deal under a limit opens its own.

    A deal whose every seat chooses as ``strategy.chooses_uniformly`` states (``random``),
    with no chess clock, is played in compiled code where the game has it (German Whist,
    ``DealState.play_uniformly``) once the process is ready for it
    (``COMPILED_AFTER_DEALS``): the same actions and final state as this loop's, its
    decisions not timed (``seconds`` empty, even with ``timed``: each takes nanoseconds,
    and no strategy code runs that a time limit would have to stop). So none of them is
    forfeited on time, where the loop's ``random`` could be under a limit of a
    millisecond on a machine that stalls the process that long: the one way the two can
    differ, as any time forfeit differs from one machine's load to another's.
    """
    try:
        usual = (seed.__class__ is int and (seed in DEAL_SEEDS or dealt is not None)
                 and len(strategies) == game.players
                 and (time_limit is None
                      or (time_limit.__class__ in _SECONDS and time_limit > 0))
                 and on_error in ON_ERROR)
    except (AttributeError, TypeError):  # a game that is not one, strategies that are not
        usual = False
    if not usual:  # one test a deal on the common path; the reason, when it fails
        game, seed = _checked_arguments(game, strategies, seed, time_limit, on_error,
                                        shuffled=dealt is None)
    state = game.new_deal(seed, dealer, **(context or {})) if dealt is None else dealt
    choosers = _choosers(game, strategies)
    if (state.compiled_uniform_play and chess_clock is None and time_control is None
            and _all_uniform(choosers) and compiled_play_ready() and state.play_uniformly(
                [seat_seed(seed, seat, seat_seeding) for seat in range(game.players)])):
        return PlayedDeal(seed, dealer, state, state.outcome(), [])  # decisions not timed
    # each seat's generator is seeded at its first draw (most strategies never draw)
    rngs = seat_generators(seed, game.players, seat_seeding)
    if chess_clock is None and time_control is not None:
        chess_clock = ChessClock(time_control, game.players)
    seconds: list[float] = []
    try:
        if time_limit is None and chess_clock is None:
            if timed:
                _play_timed(state, choosers, rngs, seconds)
            else:
                seat = state.to_act
                while seat >= 0:
                    state.apply(choosers[seat](state.view(seat), rngs[seat]))
                    seat = state.to_act
        elif clock is not None:
            clock.check()
            _play_limited(state, choosers, rngs, seconds, time_limit, chess_clock, clock)
        else:
            with decision_clock(math.inf if time_limit is None else time_limit) as own:
                _play_limited(state, choosers, rngs, seconds, time_limit, chess_clock, own)
    except (Exception, SystemExit, GeneratorExit) as exc:  # a strategy's failure: its forfeit
        # (sys.exit in a strategy too: it would end a whole in-process tournament, and
        # end `whist-sim check` with status 0 and no word; Ctrl-C still stops the run;
        # GeneratorExit, which no strategy's caller here is, ended `check` in a traceback)
        seat = state.to_act
        message = _describe(seat, exc, getattr(strategies[seat], "label", None), state.phase)
        if on_error == "abort":
            raise StrategyFailure(seat, message) from exc
        ended = (state.forfeit_by_every_seat(seat, message) if isinstance(exc, TableBenched)
                 else state.forfeit(seat, message))
        return PlayedDeal(seed, dealer, state, ended, seconds)
    return PlayedDeal(seed, dealer, state, state.outcome(), seconds)


COMPILED_AFTER_DEALS = 5_000
"""Deals of uniform seats only (``random``) a process plays through the loop before it plays
them compiled (``DealState.play_uniformly``), unless numba is loaded already (the compiled
heuristics, the environment and long runs' recorders load it). Loading numba and the
kernel from numba's disk cache costs a process about 0.4 s once (compiling it, the first
time on a machine, about 2.4 s); the compiled loop saves some 75 microseconds a German
Whist hand, so it pays from about 6,000 hands on: a notebook's few deals never wait for
numba, a long run gains from its first task or so. The actions are the same either way;
only ``actions.seconds`` differs (measured in the loop, null compiled)."""

use_compiled_play: bool | None = None
"""Force compiled uniform play on (True) or off (False); None: ``compiled_play_ready``
decides. For tests and benchmarks."""

_uniform_deals = [0]
"""Deals of uniform seats only this process has been asked to play (``compiled_play_ready``)."""


def compiled_play_ready() -> bool:
    """Whether a deal of uniform seats only is played compiled now (``COMPILED_AFTER_DEALS``)."""
    if use_compiled_play is not None:
        return use_compiled_play
    if "numba" in sys.modules:
        return True
    _uniform_deals[0] += 1
    return _uniform_deals[0] > COMPILED_AFTER_DEALS


def _all_uniform(choosers: list[Any]) -> bool:
    """Whether every seat's ``choose`` is a bound method of a function
    ``strategy.chooses_uniformly`` marked (an entrant under a supervisor holds a wrapper,
    not it). Only a true bound method is read: a proxy that forwards ``__func__`` (a
    tracing or fault-injecting wrapper) was taken for ``random`` and never called, and
    reading an attribute of a strategy's object runs its code outside any decision
    (one that raised SystemExit ended the run; one that slept ignored the time limit)."""
    for choose in choosers:
        if choose.__class__ is not MethodType or choose.__func__ not in UNIFORM_CHOOSERS:
            return False
    return True


def _choosers(game: Game, strategies: Sequence[Any]) -> list[Any]:
    """Each seat's ``choose``, once every seat holds a strategy built to play ``game``.

    Refused here, before the first card: what has no ``choose``, a strategy's class
    (its ``choose`` is there, unbound, and failed as "missing 1 required positional
    argument: 'rng'"), and a strategy whose ``games`` leaves ``game`` out (it read a view
    it did not know, and the seat forfeited with an AttributeError from inside it).
    A strategy that declares no ``games``, or none yet (a bot's come with its hello, and
    it checks the game itself), is taken as it is: the protocol is ``choose``.
    """
    try:
        choosers = [strategy.choose for strategy in strategies]
    except AttributeError:
        seat = next(i for i, s in enumerate(strategies) if not hasattr(s, "choose"))
        raise TypeError(
            f"strategies[{seat}] = {strategies[seat]!r} is not a strategy: it has no"
            " choose(view, rng) method (build one with whist_sim.strategy.build_strategy)"
        ) from None
    name = game.name
    for seat, strategy in enumerate(strategies):
        if isinstance(strategy, type) or not _plays(strategy, name):
            raise StrategyError(_unfit(seat, strategy, name))
    return choosers


def _plays(strategy: Any, game: str) -> bool:
    """Whether ``strategy`` may play ``game`` by its ``games`` (none declared, or an empty
    set, as a bot's before its hello: it may)."""
    games = getattr(strategy, "games", None)
    if isinstance(games, str):  # it would claim its substrings ("solo" in "solo_whist")
        return False
    try:
        return not games or game in games
    except TypeError:  # games = 5: no set of names at all
        return False


def _unfit(seat: int, strategy: Any, game: str) -> str:
    """Why the strategy in ``seat`` cannot play ``game``, and how to seat one that can."""
    build = f"whist_sim.strategy.build_strategy(name, params, {game!r})"
    if isinstance(strategy, type):
        return (f"seat {seat}: {strategy.__module__}:{strategy.__qualname__} is a strategy"
                f" class, not an instance; build it with {strategy.__name__}(...) or {build}")
    games = strategy.games
    who = getattr(strategy, "label", None) or (
        f"{type(strategy).__module__}:{type(strategy).__qualname__}")
    if isinstance(games, str):
        return (f"seat {seat}: strategy {who}: its games attribute is the text {games!r};"
                f" write a set of game names, e.g. games = frozenset({{{games!r}}})")
    shown = ", ".join(sorted(map(str, games))) if isinstance(games, Iterable) else repr(games)
    return (f"seat {seat}: strategy {who} plays {shown}, not {game}; seat a"
            f" strategy that plays {game} ({build} checks that it does)")


def _checked_arguments(game: Any, strategies: Sequence[Any], seed: Any,
                       time_limit: Any = None, on_error: Any = "forfeit",
                       shuffled: bool = False) -> tuple[Game, int]:
    """``play_deal``'s game (a name is its default variant) and seed as an int, or the error
    that says what is wrong with them, the number of strategies, the time limit or
    ``on_error`` (a NumPy integer is a seed; a bool, a float or text is not, nor, if the
    seed is ``shuffled`` into a deal, a number outside ``DEAL_SEEDS``: a deal set's
    given deal may have any int64 seed, and a match's seed is only hashed)."""
    game = as_game(game)
    if not isinstance(strategies, Sequence) or isinstance(strategies, str):
        raise ValueError(f"strategies = {strategies!r} is not a list of strategies, one a seat:"
                         f" give {game.players}, e.g. [RandomStrategy()] * {game.players}")
    if len(strategies) != game.players:
        raise ValueError(
            f"{game.name} is played by {game.players} players here: give one strategy a seat,"
            f" {game.players}, not {len(strategies)}"
        )
    if on_error not in ON_ERROR:
        raise ValueError(f"on_error = {on_error!r} is not allowed; allowed values:"
                         f" {', '.join(map(repr, ON_ERROR))}")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, int | float)
        or not time_limit > 0
    ):
        raise ValueError(f"time_limit = {time_limit!r} is not allowed; allowed values: seconds"
                         " > 0 a decision, or None for no limit")
    try:
        if isinstance(seed, bool):
            raise TypeError
        seed = operator.index(seed)
    except TypeError:
        raise TypeError(f"seed = {seed!r} is not a whole number") from None
    if shuffled and seed not in DEAL_SEEDS:
        raise ValueError(f"seed = {seed!r} is out of range; allowed values: {DEAL_SEEDS_SAID}"
                         " (the shuffle reads a seed modulo 2**64: -1 would deal the cards"
                         " of 2**64 - 1)")
    return game, seed


def _play_timed(state: DealState, choosers: list[Any], rngs: list[Any],
                seconds: list[float]) -> None:
    """The play loop, each decision's time appended to ``seconds`` (a raising one's too)."""
    now = time.perf_counter
    append = seconds.append
    seat = state.to_act
    while seat >= 0:
        view = state.view(seat)
        started = now()
        try:
            action = choosers[seat](view, rngs[seat])
        finally:
            append(now() - started)
        state.apply(action)
        seat = state.to_act


def _play_limited(
    state: DealState, choosers: list[Any], rngs: list[Any], seconds: list[float],
    limit: float | None, chess: ChessClock | None, clock: DecisionClock,
) -> None:
    """The play loop under a limit per decision and/or chess clocks: each decision within
    its budget (the seat's time left, within the limit), measured into ``seconds``; with
    clocks its time is taken off the seat's clock and the increment added.

    The alarm is ``clock``'s (see ``DecisionClock``): a decision writes its deadline, and
    the timer is only set when that deadline comes before the one it is set for.
    """
    ceiling = math.inf if limit is None else limit
    if chess is not None:
        _play_on_the_clock(state, choosers, rngs, seconds, ceiling, chess, clock)
        return
    now = time.perf_counter
    append = seconds.append
    inf = math.inf
    seat = state.to_act
    started = budget = ceiling
    try:
        while seat >= 0:
            view = state.view(seat)
            started = now()
            deadline = clock.deadline = started + budget
            if deadline < clock.armed:
                clock.start(started, budget)
            try:
                action = choosers[seat](view, rngs[seat])
            finally:
                spent = now() - started
                clock.deadline = inf
                append(spent)
            if spent > budget:
                raise clock.overran(seat, spent, budget)
            state.apply(action)
            seat = state.to_act
    except _AlarmRang:
        raise clock.stopped(seat, started, budget) from None


def _play_on_the_clock(
    state: DealState, choosers: list[Any], rngs: list[Any], seconds: list[float],
    ceiling: float, chess: ChessClock, clock: DecisionClock,
) -> None:
    """``_play_limited`` with chess clocks: the budget is the seat's time left, within the
    limit; a decision's time is taken off its clock and the increment added."""
    now = time.perf_counter
    seat = state.to_act
    budget = started = ceiling
    try:
        while seat >= 0:
            budget = chess.budget(seat, ceiling)
            view = state.view(seat)
            started = now()
            deadline = clock.deadline = started + budget
            if deadline < clock.armed:
                clock.start(started, budget)
            ClockLeft.seconds = chess.remaining[seat]
            try:
                action = choosers[seat](view, rngs[seat])
            finally:
                spent = now() - started
                clock.deadline = math.inf
                ClockLeft.seconds = math.inf
                seconds.append(spent)
            if spent > budget:
                overrun = (chess.flag_fell(seat, spent) if budget < ceiling  # the clock ran out
                           else clock.overran(seat, spent, budget))  # or the limit did
                chess.spend(seat, spent)
                raise overrun
            chess.charge(seat, spent)
            state.apply(action)
            seat = state.to_act
    except _AlarmRang:
        timeout = clock.stopped(seat, started, budget)
        spent = now() - started
        if budget < ceiling:
            timeout = chess.flag_fell(seat, spent)
        chess.spend(seat, spent)
        raise timeout from None


def _describe(seat: int, exc: BaseException, label: str | None = None,
              phase: str | None = None) -> str:
    """The forfeit's error text: the seat, the strategy (its label, where the loop knows it),
    what went wrong and, for a raise, a timeout or a process's failure, in which phase of
    the deal (a Solo plug-in's author read "raised KeyError" and had to find out it was
    naming trumps). An illegal action's text says the phase by what it names as legal; a
    benched seat's (``SatOut``) was asked nothing."""
    named = f" ({label})" if label else ""
    during = "" if phase is None else f" [phase {phase}]"
    if isinstance(exc, (RuleError, DecisionTimeout)):
        text = f"{type(exc).__name__}: {exc}" + (f" [strategy {label}]" if label else "")
        return text if isinstance(exc, RuleError) else text + during
    if isinstance(exc, SeatFailure):
        text = f"seat {seat} {exc}"
        if isinstance(exc, SatOut):
            return text
        first, newline, rest = text.partition("\n")  # a bot's stderr follows its first line
        return f"{first}{during}{newline}{rest}"
    return f"seat {seat}{named} strategy raised {raised_text(exc)}{raised_at(exc)}{during}"


def _seats_to_ready(strategies: Sequence[Any]) -> list[tuple[Callable[..., Any], list[int]]]:
    """Each strategy's ``ready_seats`` with the seats it holds (an entrant seated twice
    is one strategy object, asked once for both seats)."""
    found: dict[int, tuple[Callable[..., Any], list[int]]] = {}
    for seat, strategy in enumerate(strategies):
        method = getattr(strategy, "ready_seats", None)
        if callable(method):
            found.setdefault(id(strategy), (method, []))[1].append(seat)
    return list(found.values())


def _listening(strategies: Sequence[Any], method: str) -> list[Callable[..., Any]]:
    """The bound ``method`` of each strategy that has one, once per strategy object (an
    entrant seated twice hears once). Bots behind the protocol listen: ``begin_deal``
    (the hand's number and the match state) and ``end_deal`` (how it ended)."""
    found: dict[int, Callable[..., Any]] = {}
    for strategy in strategies:
        bound = getattr(strategy, method, None)
        if callable(bound):
            found.setdefault(id(strategy), bound)
    return list(found.values())


def deal_identity(seed: int) -> int:
    """Which deal is played, as a number that does not give its cards away: a one-way hash
    of its seed (a match's hand seed, from which a deal set's deal is drawn too), the same
    wherever the deal is played (every seating, line-up and, in Knock-out Whist, table
    size). ``begin_deal(deal=...)`` hears it, so that a bot's processes are never given a
    deal one of them has played (``ProcessStrategy``)."""
    return derive_seed(seed, "deal identity")


def takes_deal(method: Callable[..., Any]) -> bool:
    """Whether a ``begin_deal`` takes ``deal`` (a bot's does; a plug-in's may not)."""
    try:
        parameters = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):  # no signature to read: called as it always was
        return False
    return any(p.name == "deal" or p.kind is inspect.Parameter.VAR_KEYWORD
               for p in parameters)


def hand_seed(match_seed: int, hand: int) -> int:
    """Seed of hand ``hand`` of a match: the same for every pairing that plays it."""
    return derive_seed(match_seed, "hand", hand)


def play_match(
    game: Game,
    strategies: Sequence[Any],
    match_seed: int,
    *,
    time_limit: float | None = None,
    on_error: str = "forfeit",
    deal_source: DealSource | None = None,
    seat_seeding: int = SEAT_SEEDING,
    time_control: TimeControl | None = None,
    timed: bool = False,
    clock: DecisionClock | None = None,
) -> tuple[list[PlayedDeal], dict[str, tuple]]:
    """Play deals until the game's match rules say the match is decided.

    Hand ``h`` is shuffled from ``hand_seed(match_seed, h)``, unless ``deal_source``
    gives that hand (then its deal and seed are played; see ``DealSource``). The
    source is asked once per hand, never per decision. A strategy with ``begin_deal``
    or ``end_deal`` hears of each hand before it and of its outcome after; one with
    ``ready_seats`` is given its seats before each hand, to start what playing them needs
    (a bot's processes) outside every decision's time limit. ``timed`` and ``clock`` are
    ``play_deal``'s, for every hand.
    """
    if match_seed.__class__ is not int or game.__class__ not in _GAME_TYPES:
        game, match_seed = _checked_arguments(game, strategies, match_seed, time_limit,
                                              on_error)
    match = game.new_match()
    played: list[PlayedDeal] = []
    begin = [(method, takes_deal(method)) for method in _listening(strategies, "begin_deal")]
    end = _listening(strategies, "end_deal")
    ready = _seats_to_ready(strategies)
    match_clock = (ChessClock(time_control, game.players)
                   if time_control is not None and time_control.per == "match" else None)
    while (dealer := match.next_dealer()) is not None:
        hand = len(played)
        for ready_seats, seats in ready:  # a bot's processes start here, not in a decision
            ready_seats(seats)
        if begin:  # the match's hand, whatever the seating, line-up or table size
            identity = deal_identity(hand_seed(match_seed, hand))
            for begin_deal, with_deal in begin:
                if with_deal:
                    begin_deal(hand=hand, match=match, deal=identity)
                else:
                    begin_deal(hand=hand, match=match)
        context = match.deal_context()
        given = None if deal_source is None else deal_source(hand, dealer, context)
        if given is None:
            seed, dealt = hand_seed(match_seed, hand), None
        else:
            dealt, seed = given
        try:
            deal = play_deal(
                game,
                strategies,
                seed,
                dealer,
                time_limit=time_limit,
                on_error=on_error,
                context=context,
                dealt=dealt,
                seat_seeding=seat_seeding,
                time_control=time_control,
                chess_clock=match_clock,
                timed=timed,
                clock=clock,
            )
        except StrategyFailure as exc:
            exc.hand = hand  # the match's hand it stopped in, for the caller's deal key
            raise
        for end_deal in end:
            end_deal(deal.outcome)
        match.record(deal.outcome)
        played.append(deal)
        results = deal.outcome.result
        if results[0] == "forfeit" and all(result == "forfeit" for result in results):
            break  # no one at the table plays: the match ends (a tie left it dealing for ever)
    return played, match.result()
