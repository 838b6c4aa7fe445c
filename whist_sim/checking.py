"""``check_strategy``: the conformance check a strategy plug-in should pass before a tournament.

For every game the strategy claims and every variant setting listed in
``CHECK_VARIANTS``, it plays a few deals against ``random`` with the strategy in
each seat, stopping at the first failure (``on_error="abort"``), and checks that:

- every action is legal (the engine raises otherwise) and the strategy never raises;
- the same seed gives the same actions twice, the second time played by a copy of
  the strategy as built (determinism: randomness must come from the ``rng`` argument,
  not the global ``random`` module, and choices must not depend on state kept between
  calls or from earlier deals);
- the strategy never changes the view it is given;
- every decision ends within the time limit (``CHECK_TIME_LIMIT`` unless told
  otherwise), so a strategy that loops is reported as too slow, naming the seat and
  the decision, rather than hanging the check.

A failure raises ``StrategyCheckError`` naming the game, variant, seed, seat and
problem; success returns a ``CheckReport``. Like PettingZoo's ``api_test``, it is
meant to be run by plug-in authors in their own tests::

    from whist_sim.checking import check_strategy

    def test_my_strategy_conforms():
        check_strategy("my_package.my_module:MyStrategy")
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import shlex
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from whist_sim.budget import DecisionTimeout, is_alarm
from whist_sim.games import GAMES, make_game
from whist_sim.games.base import Game, RuleError, VariantError, WhistSimError
from whist_sim.play import PlayedDeal, StrategyFailure, play_deal, play_match
from whist_sim.raised import raised_text
from whist_sim.strategy import (
    StrategyError,
    build_strategy,
    built_in_spec,
    claimed_games,
    resolve_strategy,
)

CHECK_VARIANTS: dict[str, tuple[Mapping[str, Any], ...]] = {
    "german_whist": (
        {},  # count = "stage2", open_stock = 1: the defaults
        {"count": "all"},
        {"count": "weighted"},
        {"open_stock": 3},
        {"trumps": "none"},
        {"race_to": 7},
        {"match": "best_of_3"},
    ),
    "solo_whist": (
        {},
        {"payments": "classic", "stake": 2},
        {"prop_and_cop": False},
        {"upcard": False},
        {"overtricks": True},
        {"play_out": True},
        {"session_hands": 3},
    ),
    "minnesota_whist": (
        {},
        {"scoring": "pagat"},
        {"bid": "spoken"},
        {"target": 5},
    ),
    "knockout_whist": (
        {},
        {"tie_break": "nearest_left"},
        {"dogs_life": "first_round"},
        {"dogs_life": "first_knockout"},
    ),
}
"""Variant settings checked per game; a game not listed is checked under its defaults."""

MAX_CHECK_DEALS = 10_000
"""Deals a check plays at most per variant and seat (each twice): ten thousand is minutes
for a quick strategy over every variant, far past what finds a broken rule (20 by
default). ``check random --deals 100000000000`` was taken, and played without a word until
it was stopped (a newcomer's probe)."""

CHECK_DEALS_ALLOWED = f"allowed values: whole numbers from 1 to {MAX_CHECK_DEALS:,}"

CHECK_TIME_LIMIT = 10.0
"""Seconds a decision may take in a check unless told otherwise: a tournament's default
``time_limit``, so that what passes keeps a default run's limit. Without a default, a
strategy that looped in one decision kept ``whist-sim check`` silent for ever; a search
meant for a longer limit is checked with that limit (``time_limit``, ``--time-limit``)."""

SAME_BID_NOTE_FROM = 10
"""Bidding turns from which one and the same bid (not a pass) at every turn is noted: fewer
can happen by chance to a strategy that bids by its cards."""

CALLS_FROM = 52
"""The first action number that is not a card: every game numbers its calls from here."""

PASS_CALL = 52
"""A pass in every game with an auction (``solo_whist.PASS``, ``minnesota_whist.PASS``)."""

OPPONENT_PASSES = 0.8
"""How often the check's random opponents pass in an auction where they may: often
enough for the strategy's own bids to stand, and so for the phases after an auction it
wins (naming trumps) to be checked."""

TABLE_SIZES: dict[str, tuple[int, ...]] = {"knockout_whist": (2, 4, 7)}
"""Table sizes checked for games that have a choice (others: their only size)."""


class StrategyCheckError(WhistSimError, AssertionError):
    """A strategy failed ``check_strategy``; the message names game, variant, seed and problem."""


class CheckArgumentError(WhistSimError, ValueError):
    """``check_strategy`` was asked for something it cannot check (no deals, a game the
    strategy does not claim): bad input, not a verdict on the strategy."""


@dataclass(frozen=True)
class CheckReport:
    """What ``check_strategy`` checked, all of which passed."""

    strategy: str
    """The strategy as given (spec) or its class name."""
    games: tuple[str, ...]
    """Games checked."""
    variants: int
    """Variant settings checked, over all games."""
    deals: int
    """Distinct deals (matches, under a match variant) checked; each was played twice."""
    decisions: int
    """Decisions the strategy made, over both plays of every deal."""
    not_played: tuple[str, ...] = ()
    """Settings not checked because the bot's ``hello`` says it does not play them."""
    calls: tuple[tuple[tuple[str, str], tuple[tuple[str, int], ...]], ...] = ()
    """Per (game, phase), what the strategy chose where a call was among two or more legal
    actions (a bid, a trump named, a knock), each with how often, most often first: a
    card-only plug-in that takes the highest action bids abundance declared every Solo Whist
    hand, which plays by the rules and so passes, and this is where its author sees it."""
    unasked: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Per game, the phases its random opponents were asked in and it never was: code the
    check never ran. A strategy that forgot Solo Whist's ``"trump"`` phase passed, as every
    Abundance it bid was overcalled (a probe), and then forfeited each one it won in a duel."""

    @property
    def call_lines(self) -> tuple[str, ...]:
        """One line per game and phase: each call made, how often and its share."""
        lines = []
        for (game, phase), made in self.calls:
            total = sum(count for _, count in made)
            shown = ", ".join(f"{name} {count:,} ({_share(count, total)})" for name, count in made)
            lines.append(f"{game}, {phase}: {shown}")
        return tuple(lines)

    @property
    def notes(self) -> tuple[str, ...]:
        """What passed but looks like a mistake: one bid other than a pass at every bidding
        turn (``SAME_BID_NOTE_FROM`` or more), the mark of a strategy written for the cards
        alone answering an auction as if its calls were cards."""
        notes = []
        for (game, phase), made in self.calls:
            if phase != "bid" or len(made) != 1:
                continue
            (name, count), = made
            if name != "pass" and count >= SAME_BID_NOTE_FROM:
                notes.append(
                    f"in {game} it bid {name} at every one of its {count:,} bidding turns;"
                    f" if it is not meant to bid, answer {game}.PASS (52) when view.phase =="
                    f" \"bid\" (docs/writing-a-strategy.md, \"The other games' views and"
                    " actions\")")
        for game, phases in self.unasked:
            for phase in phases:
                notes.append(
                    f"in {game} it was never asked a {phase!r} decision (its opponents were),"
                    f" so the check did not run its code for view.phase == {phase!r}: make"
                    " sure choose() answers it with an action from view.legal"
                    " (docs/writing-a-strategy.md, \"The other games' views and actions\")")
        return tuple(notes)

    @property
    def verdict(self) -> str:
        """The one line ``whist-sim check`` prints: what passed, over how much play."""
        skipped = ""
        if self.not_played:
            skipped = (f"; not checked, as its hello lists other variants:"
                       f" {'; '.join(self.not_played)}")
        return (f"passed: {self.strategy} plays {', '.join(self.games)} by the rules:"
                f" {self.deals:,} matches under {self.variants} variant settings (every seat),"
                f" each played twice with the same actions, {self.decisions:,} decisions"
                + skipped)

    def __str__(self) -> str:
        return self.verdict


def check_strategy(
    strategy_or_spec: Any,
    games: Iterable[str] | None = None,
    deals: int = 20,
    seed: int = 0,
    params: Mapping[str, Any] | None = None,
    time_limit: float | None = CHECK_TIME_LIMIT,
    players: int | None = None,
) -> CheckReport:
    """Check a strategy (instance, class, entry-point name or ``"module:Class"``, built
    with ``params`` when given: ``check_strategy("policy", params={"callable": ...})``).

    ``games`` narrows the check to some of the games the strategy claims; ``deals`` is
    the number of deals (or matches, for match variants) per variant and seat; deal
    seeds are ``seed, seed + 1, ...``, a new one for every deal checked, in the order
    played. (The same seeds again for every variant and seat dealt the same hands
    again, and a bot's process is never dealt a hand it has seen: checking the isolated
    heuristic started a process for nearly every deal and took 2.5 minutes.)
    ``time_limit``: seconds each decision must take at most, as a tournament's
    ``time_limit`` (default ``CHECK_TIME_LIMIT``, a tournament's default; None: no
    limit, and a strategy that loops is waited on for ever), so a strategy that is slow
    per decision fails here rather than forfeiting in the tournament.
    ``players``: the one table size to check a game played at several (Knock-out Whist;
    by default ``TABLE_SIZES``'s), for a policy whose observation has one table's size;
    the other games play at their own size.
    """
    if not isinstance(deals, int) or isinstance(deals, bool) or not (
            1 <= deals <= MAX_CHECK_DEALS):
        raise CheckArgumentError(f"deals = {deals!r} is not allowed; {CHECK_DEALS_ALLOWED}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise CheckArgumentError(f"seed = {seed!r} is not allowed; allowed values: whole numbers")
    from whist_sim.tournament.config import TIME_LIMITS

    low, high = TIME_LIMITS  # a tournament's: what passes here plays there (a probe: 5,000 s
    # and 0.0001 s passed the check, and the second then failed every strategy)
    if time_limit is not None and (isinstance(time_limit, bool)
                                   or not isinstance(time_limit, int | float)
                                   or not low <= time_limit <= high):
        raise CheckArgumentError(f"time_limit = {time_limit!r} is not allowed; allowed values:"
                                 f" {low:g} to {high:g} seconds a decision, as a tournament's"
                                 " time_limit, or None for no limit")
    name, claimed = _describe(strategy_or_spec)
    if isinstance(strategy_or_spec, str) and params:  # named as a config names the entry:
        # "policy" alone did not say which of several policies checked one after another
        shown = ", ".join(f"{key}={value!r}" for key, value in sorted(params.items()))
        name = f"{name}({shown})"
    checked = _games_to_check(name, claimed, games)
    table_sizes = _table_sizes(checked, players)
    variants = played = 0
    decisions = [0]
    hello = _bot_hello(strategy_or_spec)
    not_played: list[str] = []
    calls: list[tuple[tuple[str, str], tuple[tuple[str, int], ...]]] = []
    unasked: list[tuple[str, tuple[str, ...]]] = []
    for game_name in checked:
        watched = _Watched(_build(strategy_or_spec, game_name, params), decisions)
        opponent = _PhasesAsked(build_strategy(built_in_spec("random"), None, game_name))
        sizes = table_sizes.get(game_name, (None,))
        for settings in CHECK_VARIANTS.get(game_name, ({},)):
            if hello is not None and _refuses(hello, make_game(game_name, settings, sizes[0])):
                not_played.append(f"{game_name} ({_settings_str(settings)})")
                continue
            variants += 1
            for size in sizes:
                game = make_game(game_name, settings, size)
                label = f"{game_name} ({_settings_str(settings)}, {game.players} players)"
                for seat in range(game.players):
                    for _ in range(deals):
                        _check_deal(watched, opponent, game, seat, seed + played, name, label,
                                    time_limit)
                        played += 1
        calls += _calls_made(make_game(game_name, None, sizes[0]), watched.calls)
        if missed := tuple(phase for phase in opponent.phases if phase not in watched.phases):
            unasked.append((game_name, missed))
    if not variants:
        raise StrategyCheckError(
            f"{name}: nothing to check: its hello lists variants of"
            f" {', '.join(checked)} that none of the checked settings has (not played:"
            f" {'; '.join(not_played)}); list a checked setting's values in hello.variants")
    return CheckReport(name, tuple(checked), variants, played, decisions[0], tuple(not_played),
                       tuple(calls), tuple(unasked))


def _share(count: int, total: int) -> str:
    """A call's share of its phase: a whole percent, or one decimal under 1% (2 cops in 910
    bids read "0%", as if none had been made)."""
    share = count / total
    if 0 < share < 0.0005:  # 2 abundances in 8,312 bids read "0.0%" (a probe)
        return "<0.1%"
    return f"{share:.1%}" if share < 0.01 else f"{share:.0%}"


def _calls_made(game: Game, calls: Mapping[tuple[str, int], int]
                ) -> list[tuple[tuple[str, str], tuple[tuple[str, int], ...]]]:
    """``CheckReport.calls`` for one game from the watched strategy's tally of (phase,
    action): actions named by the game, cards together as "a card" (a Knock-out dog's
    choice is a card or the knock), per phase in the order first met, most made first."""
    by_phase: dict[str, dict[str, int]] = {}
    for (phase, action), count in calls.items():
        name = game.action_str(action) if action >= CALLS_FROM else "a card"
        made = by_phase.setdefault(phase, {})
        made[name] = made.get(name, 0) + count
    return [((game.name, phase), tuple(sorted(made.items(), key=lambda item: -item[1])))
            for phase, made in by_phase.items()]


def _table_sizes(checked: Iterable[str], players: int | None) -> dict[str, tuple[int, ...]]:
    """The table sizes to check each game at: ``TABLE_SIZES``, or only ``players`` for the
    games played at several (refused, with the sizes allowed, where it is not one)."""
    if players is None:
        return TABLE_SIZES
    checked = list(checked)
    if isinstance(players, bool) or not isinstance(players, int):
        raise CheckArgumentError(f"players = {players!r} is not allowed; allowed values:"
                                 " whole numbers (a table size)")
    choice = [name for name in checked if name in TABLE_SIZES]
    if not choice:
        raise CheckArgumentError(
            f"players = {players} applies only to the games played at several table sizes"
            f" ({', '.join(TABLE_SIZES)}); none is checked here:"
            f" {', '.join(checked)} {'is' if len(checked) == 1 else 'are'} played at one")
    for name in choice:
        try:
            make_game(name, None, players)
        except VariantError as exc:
            raise CheckArgumentError(f"players = {players}: {exc}") from None
    return {name: (players,) for name in choice}


def check_entrant(
    spec: str, *, deals: int = 20, command: str | None = None, isolate: bool = False,
    games: Iterable[str] | None = None, time_limit: float | None = CHECK_TIME_LIMIT,
    players: int | None = None,
) -> CheckReport:
    """``check_strategy`` for a config entry: a strategy in process (``spec``), the same in a
    process of its own (``isolate``), or a bot program (``spec = "process"`` with its
    ``command`` line). ``spec`` may carry parameters as ``whist-sim duel`` writes them,
    ``policy(callable='pkg.mod:act')``. A bot is started and greeted first; it is ended
    afterwards. ``games``: only these of the games it claims (a policy trained for one
    game, say). ``time_limit``: as ``check_strategy``'s (default ``CHECK_TIME_LIMIT``); a
    bot is given the share of it a tournament gives (``tournament.bots.BOT_TIME_SHARE``).
    ``players``: as ``check_strategy``'s."""
    if spec != "process":
        if command is not None:
            raise CheckArgumentError(
                f"command = {command!r} goes with the strategy process (a bot program), not"
                f" {spec!r} (--command; check_entrant's command)")
        from whist_sim.tournament.entrant_text import parse_entrant

        # parameters are written as for whist-sim duel; a bad spec is refused here, in
        # this process, whether or not the strategy is to run isolated
        entrant = parse_entrant(spec, "strategy")
        if not isolate:
            report = check_strategy(entrant["use"], games, deals=deals,
                                    params=entrant["params"], time_limit=time_limit,
                                    players=players)
            return dataclasses.replace(report, strategy=spec)  # named as it was asked for
        cls = resolve_strategy(entrant["use"])
        argv = [sys.executable, "-m", "whist_sim.protocol", spec]
        # its hello names the first game to check, so the process builds the strategy
        # then and a bad parameter is refused in one line, as in process (it had failed
        # at the first decision, with the serving process's traceback)
        first_game = _games_to_check(spec, claimed_games(cls, spec), games)[0]
    else:
        try:
            argv = shlex.split(command or "")
        except ValueError as exc:  # an unclosed quote
            raise CheckArgumentError(f"--command {command!r}: {exc}; write the bot's command"
                                     " line as a shell would read it") from None
        if not argv:
            raise CheckArgumentError(
                f"command = {command!r}: process needs the bot's command line (--command;"
                " check_entrant's command), e.g. --command './simple_bot --fast'")
        first_game = None
    from whist_sim.protocol import BotError, ProcessStrategy
    from whist_sim.protocol.client import not_served
    from whist_sim.tournament.bots import BOT_TIME_SHARE

    # the bot's share of the limit, and the limit the user gave, which its timeout names
    # (it said "within 0.95 s ... the time limit of 0.95 s" of a check run with 1 s)
    limits = {} if time_limit is None else {
        "time_limit": max(0.001, time_limit * BOT_TIME_SHARE), "run_limit": time_limit}
    with ProcessStrategy(argv, label=spec if spec != "process" else None, game=first_game,
                         **limits) as bot:
        try:
            bot.start()
        except BotError as exc:
            reason = not_served(exc) if spec != "process" else None
            if reason is not None:  # cannot be built: refused as in process
                raise StrategyError(reason) from None
            raise StrategyCheckError(str(exc)) from None
        return check_strategy(bot, games, deals=deals, time_limit=time_limit, players=players)


def _reported_illegal(cause: BaseException | None) -> str:
    """The rules' refusal an isolated strategy's client reported (in process the same choice
    raises RuleError), or "" for any other failure: a check said "it failed" of one and
    "it played an illegal action" of the other (a probe)."""
    from whist_sim.protocol.errors import BotIllegalAction
    from whist_sim.protocol.messages import ILLEGAL_ACTION

    if not isinstance(cause, BotIllegalAction):
        return ""
    return cause.message.split(ILLEGAL_ACTION, 1)[-1]


def _bot_hello(strategy: Any) -> Any:
    """A bot's ``hello`` (the games and variants it says it plays), or None for any
    other strategy: ``check`` plays a bot only the settings its hello lists."""
    hello = getattr(strategy, "hello", None)
    if hello is None:
        return None
    from whist_sim.protocol.messages import BotHello

    return hello if isinstance(hello, BotHello) else None


def _refuses(hello: Any, game: Game) -> bool:
    """Whether a bot's ``hello`` leaves out ``game``'s variant."""
    from whist_sim.protocol.messages import unsupported

    return unsupported(hello, game.name, game.variant.as_dict()) is not None


def _describe(strategy_or_spec: Any) -> tuple[str, frozenset[str] | None]:
    """A name for messages and the games the strategy says it plays."""
    if isinstance(strategy_or_spec, str):
        cls = resolve_strategy(strategy_or_spec)
        return strategy_or_spec, claimed_games(cls, strategy_or_spec)
    if isinstance(strategy_or_spec, type):
        return strategy_or_spec.__name__, claimed_games(strategy_or_spec)
    if not callable(getattr(strategy_or_spec, "choose", None)):
        raise StrategyCheckError(
            f"{strategy_or_spec!r} is not a strategy: it has no choose(view, rng) method"
        )
    cls = type(strategy_or_spec)
    name = getattr(strategy_or_spec, "entrant", None) or cls.__name__  # a bot says its own
    return name, claimed_games(strategy_or_spec, name)


def _games_to_check(name: str, claimed: frozenset[str] | None, games: Iterable[str] | None
                    ) -> list[str]:
    """The games the strategy claims that whist_sim knows, narrowed to ``games`` if given."""
    if not claimed:  # as a config refuses it (an empty set: Strategy's default, inherited)
        raise StrategyCheckError(
            f"strategy {name!r} names no games: give its class a games attribute, the games"
            f" it plays, e.g. games = frozenset({{'german_whist'}}); known games:"
            f" {', '.join(sorted(GAMES))}")
    known = claimed & set(GAMES)
    unknown = sorted(claimed - set(GAMES))
    if known and unknown:  # a misspelt game left the strategy out of it without a word
        raise StrategyCheckError(
            f"strategy {name!r} claims {', '.join(map(repr, unknown))}, which"
            f" {'is not a game' if len(unknown) == 1 else 'are not games'} whist_sim knows"
            f" (a misspelling?); known games: {', '.join(sorted(GAMES))}")
    if not known:
        raise StrategyCheckError(
            f"strategy {name!r} claims no game whist_sim knows: its games attribute is"
            f" {sorted(claimed)}; known games: {', '.join(sorted(GAMES))}"
        )
    if games is None:
        return sorted(known)
    wanted = [games] if isinstance(games, str) else list(games)
    if not wanted:
        raise CheckArgumentError(
            f"games = []: nothing to check; allowed values (the games {name!r} plays):"
            f" {', '.join(sorted(known))}, or None for all of them")
    for game in wanted:
        if game not in GAMES:  # a misspelt game is no fault of the strategy's
            raise CheckArgumentError(
                f"game {game!r} is not a game whist_sim knows; allowed values:"
                f" {', '.join(sorted(GAMES))}")
        if game not in known:
            raise CheckArgumentError(
                f"game {game!r}: strategy {name!r} cannot be checked on it; allowed values"
                f" (the games it plays): {', '.join(sorted(known))}"
            )
    return wanted


def _build(strategy_or_spec: Any, game: str, params: Mapping[str, Any] | None = None) -> Any:
    """The strategy to check, built for ``game`` with ``params``: a name or a class alike
    (a class's refusal of a parameter had come out as its raw ValueError), never an
    instance, which is built already (its ``params`` had been ignored without a word)."""
    if isinstance(strategy_or_spec, str):
        return build_strategy(strategy_or_spec, params, game)
    if isinstance(strategy_or_spec, type):
        try:
            return strategy_or_spec(**(params or {}))
        except Exception as exc:
            shown = ", ".join(f"{key}={value!r}" for key, value in sorted((params or {}).items()))
            raise StrategyError(f"strategy {strategy_or_spec.__name__}({shown}) cannot be built"
                                f" for {game}: {raised_text(exc)}") from None
    if params:
        raise CheckArgumentError(
            f"params = {dict(params)!r} apply to a strategy given by name or class; this one"
            f" is an instance ({type(strategy_or_spec).__name__}), built already: build it with"
            " them, or pass its class")
    return strategy_or_spec


class _ViewMutated(Exception):
    """Raised inside the play loop when the strategy changed its view."""


class _RaisedBase(Exception):
    """A strategy under check raised a BaseException that is not an Exception (other than
    ``SystemExit`` and ``GeneratorExit``, which the play loop forfeits): in a tournament in
    process it would end the whole command, so the check fails with it, in one line,
    instead of ending with a traceback."""


LISTENING_HOOKS = ("ready_seats", "begin_deal", "end_deal")
"""What the play loop calls, besides ``choose``, on a strategy that has it (``play``)."""


class _Watched:
    """Wraps the strategy under check: counts its decisions and checks it leaves the view alone.

    The view is pickled before and after the call (about ten times cheaper than a deep
    copy); a view that cannot be pickled is deep-copied instead.
    """

    def __init__(self, strategy: Any, decisions: list[int]) -> None:
        self.strategy = strategy
        self.pristine = _pristine_copy(strategy)
        """The strategy as built, before any decision: a deal's second play is by a copy
        of it (``fresh``). None for a bot, or what cannot be copied."""
        self.decisions = decisions
        self.view: Any = None
        """The view of the decision asked last (the one running, if one runs)."""
        self.calls: dict[tuple[str, int], int] = {}
        """(phase, action) -> times chosen, at decisions with a call among two or more
        legal actions (``CheckReport.calls``)."""
        self.phases: set[str] = set()
        """The phases it was asked in (``CheckReport.unasked``)."""
        # the play loop's calls around decisions reach the strategy as in a tournament: a
        # bot's ready_seats starts its processes outside every decision's time (without
        # it, each fresh process started inside a decision, and `check --isolate
        # --time-limit 1` failed a strategy taking 1 ms as "too slow" on a loaded machine)
        for hook in LISTENING_HOOKS:
            method = getattr(strategy, hook, None)
            if callable(method):
                setattr(self, hook, method)

    def fresh(self) -> _Watched:
        """This watcher around a copy of the strategy as it was built, its counts shared:
        a deal played again by the same object showed nothing of state kept since earlier
        deals once that state had stopped changing (a style settled at the first hand ever
        seen), while in a run it made the rows depend on the task size (a probe). Itself
        where there is no copy: a bot is a process, which its protocol keeps from seeing a
        deal twice."""
        if self.pristine is None:
            return self
        twin = copy.copy(self)  # the counters are shared, not copied
        twin.strategy = copy.deepcopy(self.pristine)
        twin.view = None
        for hook in LISTENING_HOOKS:
            method = getattr(twin.strategy, hook, None)
            if callable(method):
                setattr(twin, hook, method)
        return twin

    def choose(self, view: Any, rng: Any) -> Any:
        self.view = view  # the decision a time-out names
        before = _snapshot(view)
        try:
            action = self.strategy.choose(view, rng)
        except (Exception, SystemExit, GeneratorExit, KeyboardInterrupt):
            raise
        except BaseException as exc:
            if is_alarm(exc):  # the decision clock's own: it must reach the clock
                raise
            raise _RaisedBase(raised_text(exc)) from None
        self.decisions[0] += 1
        self.phases.add(str(getattr(view, "phase", "")))
        if _snapshot(view) != before:
            raise _ViewMutated(_what_changed(before, view))
        legal = getattr(view, "legal", 0)
        if (isinstance(legal, int) and legal >> CALLS_FROM and legal & (legal - 1)
                and isinstance(action, int)):  # a choice, not a forced pass
            key = (str(getattr(view, "phase", "")), action)
            self.calls[key] = self.calls.get(key, 0) + 1
        return action


class _PhasesAsked:
    """Wraps the random opponent: the phases it was asked in, in the order first met, which
    the strategy under check should have met too (``CheckReport.unasked``). Read from play,
    not from a list per game, so a variant a bot's hello leaves out names no phase.

    In an auction it passes more often than chance (``OPPONENT_PASSES``): choosing among
    the legal calls at random it overcalled nearly every bid, so a strategy that bids
    Abundance on strong hands alone never had its bid stand, and its code for naming
    trumps never ran (a probe's plug-in had none, and passed; heuristic, simulation_bidder
    and pimc were never asked to name trumps in a check either)."""

    def __init__(self, strategy: Any) -> None:
        self.strategy = strategy
        self.phases: dict[str, None] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.strategy, name)

    def choose(self, view: Any, rng: Any) -> Any:
        self.phases.setdefault(str(getattr(view, "phase", "")), None)
        legal = getattr(view, "legal", 0)
        if (getattr(view, "phase", "") == "bid" and isinstance(legal, int)
                and legal >> PASS_CALL & 1 and rng.random() < OPPONENT_PASSES):
            return PASS_CALL
        return self.strategy.choose(view, rng)


def _pristine_copy(strategy: Any) -> Any:
    """A deep copy of ``strategy`` to play deals again from, or None: for a bot or an
    isolated strategy (a process, behind the protocol), or one that cannot be copied (it
    holds a lock or an open file, say), whose deals are played twice by the one object."""
    if _bot_hello(strategy) is not None or type(strategy).__module__.startswith(
            "whist_sim.protocol"):
        return None
    try:
        return copy.deepcopy(strategy)
    except Exception:
        return None


def _snapshot(view: Any) -> Any:
    try:
        return pickle.dumps(view, pickle.HIGHEST_PROTOCOL)
    except Exception:
        return copy.deepcopy(view)


def _what_changed(before: Any, view: Any) -> str:
    """Name the fields of the view that differ from the snapshot taken before the call."""
    if isinstance(before, bytes):
        before = pickle.loads(before)
    fields = getattr(view, "_fields", None)
    if fields:
        changed = [f for f in fields if getattr(before, f) != getattr(view, f)]
        if changed:
            return f"it mutated the view it was given (changed: {', '.join(changed)})"
    return "it mutated the view it was given"


def _check_deal(watched: _Watched, opponent: Any, game: Game, seat: int, deal_seed: int,
                name: str, label: str, time_limit: float | None = None) -> None:
    """Play one deal (or match) twice with the strategy in ``seat``, the second time by a
    copy of it as built (``_Watched.fresh``); raise on any problem."""
    dealer = deal_seed % game.players
    where = f"strategy {name!r} in {label}, seed {deal_seed}, seat {seat}"
    runs = []
    for player in (watched, watched.fresh()):
        seats = [opponent] * game.players
        seats[seat] = player
        try:
            if getattr(game.variant, "match", "single") != "single":
                played, _result = play_match(game, seats, deal_seed, on_error="abort",
                                             time_limit=time_limit)
            else:  # play_match readies a bot's processes before each hand; play_deal not
                if (ready_seats := getattr(player, "ready_seats", None)) is not None:
                    ready_seats([seat])
                played = [play_deal(game, seats, deal_seed, dealer, on_error="abort",
                                    time_limit=time_limit)]
        except StrategyFailure as exc:
            if exc.seat != seat:  # the random opponent cannot fail: the engine is at fault
                raise
            cause = exc.__cause__
            if isinstance(cause, _ViewMutated):
                problem = str(cause)
            elif isinstance(cause, _RaisedBase):
                problem = (f"it raised {cause}, a BaseException that is not an Exception:"
                           " played in process it would end the whole tournament; raise an"
                           " Exception (or return an action)")
            elif isinstance(cause, RuleError):
                problem = f"it played an illegal action: {cause}"
            elif refusal := _reported_illegal(cause):
                problem = f"it played an illegal action (isolated): {refusal}"
            elif _too_slow(cause):
                limit = "its time limit" if time_limit is None else f"{time_limit:g} s"
                problem = (f"it is too slow: {_decision_name(player.view)} took longer than"
                           f" {limit} ({exc})")
            else:
                problem = f"it failed: {exc}"
            raise StrategyCheckError(f"{where}: {problem}") from exc
        runs.append(played)
    difference = _first_difference(game, runs[0], runs[1])
    if difference:
        raise StrategyCheckError(
            f"{where}: it is not deterministic: the same seed gave different actions"
            f" ({difference}){_played_by(watched)}. {_repeatable_advice(watched.strategy)}"
        )


def _played_by(watched: _Watched) -> str:
    """Who played the two runs a difference is between: the strategy as used so far, then a
    fresh copy of it, when there is one."""
    if watched.pristine is None:
        return ""
    return (", first by the strategy as the earlier deals left it, then by a copy of it as"
            " built: randomness not drawn from rng, or state kept from earlier deals")


STRATEGY_RANDOMNESS_ADVICE = (
    "Draw randomness only from the rng argument (not the global random module) and keep"
    " no state between calls that changes choices")
"""How a strategy makes its choices repeatable: its ``choose(view, rng)`` has the
generator to draw from."""


def _repeatable_advice(strategy: Any) -> str:
    """The end of the non-determinism message: the strategy's own ``randomness_advice``
    when it has one, else ``STRATEGY_RANDOMNESS_ADVICE``.

    A strategy whose author writes no ``choose`` (the built-in ``policy``, which calls a
    function of one argument) would be told to use an rng argument it does not have; it
    says instead how its author gets one. Read as stored (``inspect.getattr_static``), never
    run: a plug-in's property that raised SystemExit ended the check with its own word and
    no verdict (a hostile probe of this very lookup)."""
    advice = inspect.getattr_static(strategy, "randomness_advice", None)
    return advice if isinstance(advice, str) and advice else STRATEGY_RANDOMNESS_ADVICE


def _too_slow(cause: BaseException | None) -> bool:
    """Whether a strategy's failure is its decision running out of time: the play loop's
    alarm, or a bot's own reply timeout (which fires first, at its share of the limit)."""
    from whist_sim.protocol.errors import BotTimeout  # the bot machinery only if asked

    return isinstance(cause, DecisionTimeout | BotTimeout)


def _decision_name(view: Any) -> str:
    """Which decision ran out of time, from its view ("its play decision after 4 tricks"):
    every game's view has a phase and the tricks played."""
    phase = getattr(view, "phase", None)
    tricks = len(getattr(view, "tricks", ()))
    kind = f"{phase} " if isinstance(phase, str) else ""
    return f"its {kind}decision after {tricks} trick{'' if tricks == 1 else 's'}"


def _first_difference(game: Game, first: Sequence[PlayedDeal], second: Sequence[PlayedDeal]
                      ) -> str | None:
    """Describe the first action that differs between two plays of the same seed, if any."""
    if len(first) != len(second):
        return f"the match lasted {len(first)} hands, then {len(second)}"
    for hand, (a, b) in enumerate(zip(first, second, strict=True)):
        log_a, log_b = a.state.log, b.state.log
        for index, (x, y) in enumerate(zip(log_a, log_b, strict=False)):
            if x != y:
                return (
                    f"hand {hand + 1}, action {index + 1}: seat {x[0]} {x[1]}"
                    f" {game.action_str(x[2])}, then seat {y[0]} {y[1]} {game.action_str(y[2])}"
                )
        if len(log_a) != len(log_b):
            return f"hand {hand + 1} lasted {len(log_a)} actions, then {len(log_b)}"
    return None


def _settings_str(settings: Mapping[str, Any]) -> str:
    if not settings:
        return "default variant"
    return ", ".join(f"{key} = {value!r}" for key, value in settings.items())
