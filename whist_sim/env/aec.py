"""The PettingZoo AEC environment over any whist_sim game: one hand per episode.

An episode is one hand as the engine plays it (a hand of German Whist, one auction
and its play in Solo Whist, one bidding and 13 tricks in Minnesota Whist, a whole
Knock-out Whist game, whose rounds depend on each other: docs/glossary.md). Matches,
sessions and games to a target are a tournament's business, not an episode's: their
bookkeeping (``Game.new_match``) is left out.

Agents are ``player_0`` ... ``player_{n-1}``, one per seat. ``reset(seed)`` draws the
deal's seed and its dealer from the environment's generator (``options`` may fix
them: ``{"deal_seed": s, "dealer": d}``, how ``benchmarks/env_steps.py`` plays the
same deals as ``play_deal``). Rewards are 0 after every step but the last, which
gives every seat the hand's result as the rules score it (``reward = "net"``, the
default: the zero-sum form standings add up; ``"score"``: the rules' own score).

Why no per-step work beyond the engine's: ``step`` applies the action and reads
whose turn it is; observations are encoded only when ``observe`` (or ``last``) asks,
from ``state.view(seat)``, never from the state.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from whist_sim.cards import SUITS, card_str, cards_str
from whist_sim.env.encoders import ACTIONS, encoder_for, layout_for
from whist_sim.games import make_game
from whist_sim.games.base import Game, RuleError, VariantError, WhistSimError, describe_action
from whist_sim.games.knockout_whist import DOG, IN, OUT, ROUNDS
from whist_sim.rng import DEAL_SEEDS, DEAL_SEEDS_SAID

REWARDS = ("net", "score")
RENDER_MODES = ("human", "ansi")


class EnvError(WhistSimError, ValueError):
    """A call the environment cannot serve: a step after the end, bad options."""


class IllegalActionError(EnvError):
    """An action outside the acting seat's action mask. Names the seat, the action and
    the allowed ones; the hand is left as it was (PettingZoo's own classic games raise
    too; wrap the environment in ``pettingzoo.utils.TerminateIllegalWrapper`` to end the
    episode with a penalty instead)."""

    def __init__(self, agent: str, action: Any, allowed: list[str], message: str) -> None:
        super().__init__(message)
        self.agent = agent
        self.action = action
        self.allowed = allowed


class UnknownAgentError(WhistSimError, KeyError):
    """An agent name that is not at the table (a KeyError, as a dict lookup would raise)."""

    def __str__(self) -> str:  # KeyError quotes its message; this one reads as a sentence
        return str(self.args[0])


RESET_OPTIONS = ("deal_seed", "dealer")
"""The keys ``reset(options=...)`` reads."""

PETTINGZOO_OPTIONS = frozenset({"options"})
"""Keys PettingZoo's own tests pass to ``reset`` to see that it takes ``options``
(``api_test`` and ``parallel_test``: ``options={"options": 1}``): ignored without a word."""


def reset_options(options: Any) -> Mapping[str, Any]:
    """``reset``'s ``options`` as a mapping (None: no options), or an EnvError if it is
    none; an unknown key is ignored with a warning naming it and the known keys.

    A list raised "'list' object has no attribute 'get'", and a misspelt key
    (``deal-seed``) was dropped without a word, so the hand was not the one asked for.
    A warning rather than an error: wrappers and test suites pass keys of their own.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise EnvError(
            f"options = {options!r} is not a mapping; give a dict of the keys"
            f" {', '.join(RESET_OPTIONS)} (e.g. {{'deal_seed': 3, 'dealer': 0}}), or None"
        )
    unknown = [key for key in options
               if key not in RESET_OPTIONS and key not in PETTINGZOO_OPTIONS]
    if unknown:
        shown = ", ".join(map(repr, unknown))
        logger.warn("%s", f"reset(options=...): unknown key{'s' * (len(unknown) > 1)} {shown}"
                    f" ignored; known keys: {', '.join(RESET_OPTIONS)}", stacklevel=3)
    return options


def _agents(env: WhistEnv, max_iter: float) -> Iterator[str]:
    if max_iter >= UNCOUNTED:  # the default: no count kept (a big int's decrement a step)
        while env.agents:
            yield env.agent_selection
        return
    while env.agents and max_iter > 0:  # PettingZoo's AECIterator, as a generator
        max_iter -= 1
        yield env.agent_selection


UNCOUNTED = 2**63
"""``agent_iter``'s default ``max_iter`` (PettingZoo's): a bound no hand comes near, so the
iterator keeps no count at or above it."""


class _AgentIterable:
    """What ``agent_iter`` returns: iterable again and again, as PettingZoo's is (a bare
    generator yielded nothing the second time), each pass a generator (which resumes for
    less than PettingZoo's iterator's method call, once per step of a learner's loop)."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: WhistEnv, max_iter: float) -> None:
        self.env, self.max_iter = env, max_iter

    def __iter__(self) -> Iterator[str]:
        return _agents(self.env, self.max_iter)


def _warn_of_match_keys(game: Game) -> None:
    """Name the variant keys set away from their defaults that set a match's length
    (``Variant.match_keys``): an episode is one hand, so they do nothing here, and
    ``session_hands = 5`` built without a word (an RL probe)."""
    variant = game.variant
    keys = type(variant).match_keys
    if not keys:
        return
    defaults = type(variant)()
    given = [key for key in keys if getattr(variant, key) != getattr(defaults, key)]
    if given:
        many = len(given) > 1
        logger.warn("%s", f"variant {', '.join(given)}: {'these set' if many else 'it sets'}"
                    " how long a match lasts, and an episode is one hand, so"
                    f" {'they do' if many else 'it does'} nothing here (a tournament plays"
                    " the whole match; docs/environment.md)")


class WhistEnv(AECEnv):
    """One whist_sim game under one variant as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "name": "whist_v0",
                "is_parallelizable": False}

    def __init__(self, game: str | Game, variant: dict[str, Any] | None = None,
                 players: int | None = None, render_mode: str | None = None,
                 reward: str = "net") -> None:
        super().__init__()
        if isinstance(game, Game):
            if variant is not None or players is not None:
                raise EnvError("give variant and players to make_game, or a game name here")
            self.game = game
        else:
            self.game = make_game(game, variant, players)
        _warn_of_match_keys(self.game)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise EnvError(f"render_mode = {render_mode!r} is not allowed; allowed values:"
                           f" {', '.join(RENDER_MODES)} (or None)")
        if reward not in REWARDS:
            raise EnvError(f"reward = {reward!r} is not allowed; allowed values:"
                           f" {', '.join(REWARDS)}")
        self.metadata = {**self.metadata, "name": f"{self.game.name}_v0"}
        self.render_mode = render_mode
        self.reward_kind = reward
        n = self.game.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.layout = layout = layout_for(self.game)
        self.num_actions = ACTIONS[self.game.name]
        low, high = layout.bounds()
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(low, high, (layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(self.num_actions)
                               for agent in self.possible_agents}
        self.observation_spaces = self._observation_spaces  # PettingZoo's optional dicts
        self.action_spaces = self._action_spaces
        self._encoders = self._new_encoders()
        self._np_random, _ = seeding.np_random(None)
        self.state_: Any = None
        self._live = False
        """From reset() until the hand's last action: steps take actions, not None."""
        self.agents = []

    def __getstate__(self) -> dict[str, Any]:
        """All but the encoders, whose compiled entry points do not pickle (a vector of
        environments in subprocesses, a saved snapshot); they are made again on load and
        catch up with the hand from the next view's completed tricks."""
        state = self.__dict__.copy()
        del state["_encoders"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._encoders = self._new_encoders()

    def __copy__(self) -> WhistEnv:
        """A deep copy, as ``copy.deepcopy`` and pickling give: an environment of its own
        that plays on as the original from where it stands.

        The default shallow copy shared the hand in play, the generator and the reward
        dicts with the original: stepping one moved the other's hand on, and the other's
        next step was refused as outside a mask it had just read (a probe's finding). No
        use of a half-shared environment was found worth that confusion."""
        return copy.deepcopy(self)

    def _new_encoders(self) -> list[Any]:
        first = encoder_for(self.game, compiled=True)
        return [first] + [encoder_for(self.game, True, first.history)
                          for _ in range(1, self.game.players)]

    # -- spaces ------------------------------------------------------------------------
    def _known(self, agent: Any) -> int:
        seat = self.agent_seat.get(agent)
        if seat is None:
            raise UnknownAgentError(
                f"{agent!r} is not at this {self.game.name} table; agents:"
                f" {', '.join(self.possible_agents)}"
            )
        return seat

    def observation_space(self, agent: str) -> spaces.Space:
        self._known(agent)
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        self._known(agent)
        return self._action_spaces[agent]

    # -- the episode -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new hand. ``options``: ``deal_seed`` and ``dealer`` fix its cards instead of
        drawing them from the generator; other keys are ignored with a warning (but for
        the one PettingZoo's api_test passes, see ``reset_options``).

        ``seed`` and every option are checked before the generator is seeded or drawn
        from: a refused reset leaves the generator, and the hand, as they were (a bad
        dealer drew a deal seed first, so the next hands were not the seed's)."""
        if seed is not None and (isinstance(seed, bool | np.bool_)
                                 or not isinstance(seed, int | np.integer) or seed < 0):
            # gymnasium's own error escaped EnvError, and True was seed 1
            raise EnvError(f"reset(seed = {seed!r}) is not allowed; allowed values: whole"
                           " numbers >= 0 (a Python or NumPy integer), or None for a"
                           " fresh generator")
        deal_seed, dealer = self._checked_options(reset_options(options))
        if seed is not None:
            self._np_random, _ = seeding.np_random(int(seed))
        if deal_seed is None:  # the seed first, then the dealer: the order a seed's hands
            # have always been drawn in
            deal_seed = int(self._np_random.integers(0, 2**63))
        if dealer is None:
            dealer = int(self._np_random.integers(self.game.players))
        self.state_ = self.game.new_deal(int(deal_seed), dealer)
        self.deal_seed = int(deal_seed)
        for encoder in self._encoders:
            encoder.reset()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.state_.to_act]
        self._live = True

    def _checked_options(self, options: Mapping[str, Any]) -> tuple[int | None, int | None]:
        """``options``' deal seed and dealer (None where not given), or an EnvError naming
        the option, its value and the values allowed."""
        deal_seed = options.get("deal_seed")
        if deal_seed is not None:
            if isinstance(deal_seed, bool | np.bool_) or not isinstance(deal_seed,
                                                                         int | np.integer):
                raise EnvError(f"options deal_seed = {deal_seed!r} is not a whole number;"
                               f" allowed values: {DEAL_SEEDS_SAID}, or None to draw one")
            if int(deal_seed) not in DEAL_SEEDS:
                raise EnvError(
                    f"options deal_seed = {deal_seed!r} is out of range; allowed values:"
                    f" {DEAL_SEEDS_SAID} (the engine reads a seed modulo 2**64: -1 dealt"
                    " 2**64 - 1's cards)")
            deal_seed = int(deal_seed)
        dealer = options.get("dealer")
        if dealer is not None:
            try:
                dealer = self.game.checked_dealer(dealer)
            except VariantError:  # the game's words name no option: say which one it was
                raise EnvError(
                    f"options dealer = {dealer!r} is not a seat of this {self.game.name}"
                    f" table; allowed values: {', '.join(map(str, range(self.game.players)))}"
                    " (a Python or NumPy integer), or None to draw the dealer") from None
        return deal_seed, dealer

    def agent_iter(self, max_iter: float = 2**63) -> Iterable[str]:
        """PettingZoo's ``agent_iter``: the agent to act, until no agent is left or
        ``max_iter`` were given (``_AgentIterable``: PettingZoo's rule, a float too)."""
        return _AgentIterable(self, max_iter)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._known(agent)
        if self.state_ is None:
            raise EnvError("observe() before reset(): call reset() first")
        observation, mask = self._encoders[seat].encode(self.state_.view(seat))
        return {"observation": observation, "action_mask": mask}

    def state(self) -> np.ndarray:
        """PettingZoo's global state (for a centralised critic): not given, on purpose."""
        raise NotImplementedError(
            f"{self.metadata['name']}: state() is not given: the global state of a card game"
            " holds every seat's hidden cards, and an agent trained on it learns to play"
            " with them; observe(agent) gives one seat's view, the only thing a policy sees"
            " in a tournament (a critic that needs more can concatenate every seat's"
            " observe(agent))")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``: the acting agent's observation (as ``observe`` gives
        it), cumulative reward, termination, truncation and info. The observation is
        built here rather than through ``observe``: this runs at every step of every
        learner's loop, and the two calls it saves cost about a tenth of an engine step.
        The reward, termination and truncation are read from the dicts even while the hand
        is played: a wrapper (TerminateIllegalWrapper) writes a penalty and a termination
        into them mid-hand."""
        try:
            agent = self.agent_selection
        except AttributeError:  # set by reset(): free on the path every step takes
            raise EnvError("last() before reset(): call reset() first") from None
        if not observe:
            observation = None
        else:
            seat = self.agent_seat.get(agent)
            state = self.state_
            if seat is None or state is None:
                observation = self.observe(agent)  # raises the error that says why
            else:
                obs, mask = self._encoders[seat].encode(state.view(seat))
                observation = {"observation": obs, "action_mask": mask}
        try:
            return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                    self.truncations[agent], self.infos[agent])
        except KeyError:  # every agent has stepped out of the hand
            raise EnvError("last() with no agent left: the hand is over and every agent has"
                           " stepped out; call reset() for a new one") from None

    def step(self, action: Any) -> None:
        if self._live:  # the hand is being played: every step but the agents' last ones
            state = self.state_
            if action.__class__ is not int:
                action = self._as_action(self.agent_selection, action)
            # the acting agent's cumulative reward would be reset here, but it is 0.0
            # until the hand ends: rewards come only with the last action (_end)
            try:
                state.apply(action)  # checks the action against the legal ones first
            except RuleError as broken:  # refused before anything changed
                self._refuse(self.agent_selection, state.to_act, action, broken)
            seat = state.to_act
            if seat >= 0:
                self.agent_selection = self.possible_agents[seat]
            else:
                self._end()
            if self.render_mode == "human":
                self.render()
            return
        if not self.agents:
            raise EnvError(
                f"step({action!r}) with no agent left: the"
                " hand is over and every agent"
                " has stepped out (or reset() was never called); call reset() for a new one"
            )
        agent = self.agent_selection  # the hand is over: every agent left is terminated
        if action is not None:
            raise EnvError(
                f"{agent} (seat {self.agent_seat[agent]}): the hand is"
                f" over, so the only valid action is None, not {action!r} (PettingZoo:"
                " each agent steps out with None once terminated)"
            )
        self._was_dead_step(action)

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's step out of a terminated agent; also what ``TerminateIllegalWrapper``
        calls on the environment once it has ended a hand mid-play: from then on the hand
        takes no more actions (it went on taking them, stepped directly)."""
        self._live = False
        super()._was_dead_step(action)

    def _end(self) -> None:
        self._live = False
        outcome = self.state_.outcome()
        values = outcome.net if self.reward_kind == "net" else outcome.score
        for agent, seat in self.agent_seat.items():
            self.rewards[agent] = float(values[seat])
            self.terminations[agent] = True
            self.infos[agent] = {"result": outcome.result[seat], "tricks": outcome.tricks[seat]}
        self._accumulate_rewards()
        # the agents step out in seat order from seat 0 (each steps with None)
        self.agent_selection = self.possible_agents[0]

    def _as_action(self, agent: str, action: Any) -> int:
        """Python and NumPy integers (0-d arrays too); anything else is refused as not an
        action at all (a float is not read as the card it rounds to)."""
        if action is not None and not isinstance(action, bool | np.bool_):
            try:
                return operator.index(action)
            except TypeError:
                pass
        allowed, shown = self._allowed()
        raise IllegalActionError(
            agent, action, allowed, f"{agent} (seat {self.state_.to_act}): action {action!r} is"
            f" not an action: this environment's actions are whole numbers"
            f" 0..{self.num_actions - 1} (a Python or NumPy integer; None only once the hand is"
            f" over); allowed: {shown}")

    def _allowed(self) -> tuple[list[str], str]:
        """The legal actions' names, and the numbers with their names as an error shows
        them: ``6 (8S), 7 (9S)``."""
        legal = self.state_.legal
        numbers = [a for a in range(self.num_actions) if legal >> a & 1]
        names = [describe_action(self.game.action_str, a) for a in numbers]
        return names, ", ".join(f"{n} ({a})" for n, a in zip(numbers, names, strict=True))

    def _refuse(self, agent: str, seat: int, action: Any,
                broken: RuleError | None = None) -> Any:
        """Raise the IllegalActionError for ``action``; ``broken``: the rules' own
        refusal of it, whose reason (the rule it breaks) ends the message."""
        allowed, listed = self._allowed()
        if isinstance(action, int) and not 0 <= action < self.num_actions:
            # 65 in Solo Whist read as "outside the action mask", as if a card of the game
            raise IllegalActionError(
                agent, action, allowed,
                f"{agent} (seat {seat}): action {action!r} is not one of this environment's"
                f" actions (0..{self.num_actions - 1}, action_space(agent) is"
                f" Discrete({self.num_actions})); allowed now: {listed}") from broken
        if isinstance(action, int):
            shown = f"{action} ({describe_action(self.game.action_str, action)})"
        else:
            shown = repr(action)
        raise IllegalActionError(
            agent, action, allowed,
            f"{agent} (seat {seat}) may not take action {shown} in phase"
            f" {self.state_.phase!r}: it is outside the action mask; allowed: {listed}"
            # the rules' reason, without their list of what is legal: ``allowed`` says it
            + (f" ({broken.message} [rule: {broken.rule}])" if broken is not None else "")
        ) from broken

    # -- rendering ---------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            logger.warn("render() called without a render_mode; pass render_mode='ansi' or"
                        " 'human' to the environment")
            return None
        text = self.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def text(self) -> str:
        """The hand as one seat at the table would describe it: trump, the auction while
        it lasts, the stock (German Whist) or the round and who is still in (Knock-out
        Whist), then the trick in progress (who played what), the last completed trick,
        and who does what next.

        Before the first trick (an auction, a trump to name, cards laid face down) no trick
        line is shown: "trick 1: (no card yet)" and "trump none" during Solo Whist's
        auction read as if the play had begun without trumps (a probe's finding)."""
        state = self.state_
        if state is None:
            return f"{self.game.title}: no hand yet (call reset())"
        view = state.view(max(state.to_act, 0))
        phase = getattr(view, "phase", "")
        over = state.to_act < 0
        players = self.game.players
        lines = [f"{self.game.title}, {'over' if over else phase}; {_trump_text(view, over)}"]
        lines += _auction_lines(view, self.game, over)
        lines += _stock_lines(view, over)
        lines += _round_lines(view)
        played = _trick_text(_current_trick(view, players))
        if played or (phase == PLAY_PHASE and not over):  # no trick before the play, or after
            lines.append(f"trick {len(view.tricks) + 1}: {played or '(no card yet)'}")
        if view.tricks:
            last = view.tricks[-1]
            lines.append(f"last trick: {_trick_text(_completed_trick(view, players))};"
                         f" won by seat {last.winner}")
        if not over:
            lines.append(f"seat {state.to_act} {_decision(view)}")
        else:
            outcome = state.outcome()
            lines.append("over: " + ", ".join(
                f"seat {s} {r} {n:+g}" for s, (r, n) in enumerate(zip(outcome.result,
                                                                      outcome.net, strict=True))))
        return "\n".join(lines)

    def close(self) -> None:
        pass


PLAY_PHASE = "play"
"""The phase in which tricks are played, in every game."""

TAKE_PHASE = "take"
"""German Whist's open stock: the trick's winner chooses a face-up card."""

DECISIONS = {
    "play": "to play",
    "bid": "to call",
    "lay": "to lay a card face down",
    "trump": "to name trumps",
    "take": "to take a face-up card",
}
"""What the seat to act does, by phase, as ``render`` says it ("seat 3 to call")."""

BEFORE_PLAY = frozenset({"bid", "lay", "trump"})
"""Phases in which trumps may be still unknown: an auction, cards laid face down (Minnesota
Whist), a trump to name (Solo Whist's declarer, Knock-out Whist's round winner)."""


def _trump_text(view: Any, over: bool) -> str:
    """Trump as the table knows it: a suit, no trumps, or not yet known (during an
    auction no trump has been fixed, and "trump none" read as a no-trump hand). A Solo
    Whist hand thrown in (every seat passed, or a Prop stood uncopped) had no contract
    and no play: "no trumps" read as a no-trump contract played out."""
    trump = getattr(view, "trump", None)
    if trump is None:
        return "no trumps"  # Minnesota Whist: never any
    if trump >= 0:
        return f"trump {SUITS[trump]}"
    if over and getattr(view, "contract", 0) < 0:
        return "thrown in (no contract, no play)"
    if getattr(view, "phase", "") in BEFORE_PLAY and not over:
        upcard = getattr(view, "upcard", -1)
        turned = f" (upcard {card_str(upcard)})" if upcard >= 0 else ""
        return f"trump not yet known{turned}"
    return "no trumps"


def _auction_lines(view: Any, game: Game, over: bool) -> list[str]:
    """The bidding as the table saw it: the calls so far (Solo Whist, Minnesota Whist's
    spoken bidding; "none yet" while it is still to come), cards laid face down and
    those turned up, and the kind of hand it made (Minnesota Whist's cards bidding)."""
    lines = []
    phase = getattr(view, "phase", "")
    calls = getattr(view, "bids", None) or getattr(view, "calls", None)
    if calls:
        lines.append("calls: " + ", ".join(f"seat {s} {game.action_str(c)}" for s, c in calls))
    elif phase == "bid" and not over:
        lines.append("calls: none yet")
    laid = getattr(view, "laid_count", None)
    if laid is not None and phase == "lay" and not over:
        lines.append(f"laid face down: {laid} of {game.players} cards")
    turned = getattr(view, "turned", ())
    if turned:
        lines.append("turned up: " + ", ".join(f"seat {s} {card_str(c)}" for s, c in turned))
    grander = getattr(view, "grander", None)
    if grander is not None and phase not in BEFORE_PLAY:
        lines.append(f"grand (play high), granded by seat {grander}" if grander >= 0
                     else "null (play low): no one granded")
    return lines


KNOCK_TEXT = "knock"
"""A dog's pass in a trick line, as its action is named ("seat 0: knock")."""

SEAT_GROUPS = ((IN, "in"), (DOG, "on a dog's life"), (OUT, "out"))
"""Knock-out Whist's seat statuses, in the order and words the seats line gives them."""


def _decision(view: Any) -> str:
    """What the seat to act does; taking a face-up card (German Whist's open stock) says
    which cards it may take: "to take a face-up card" alone left them out (a probe's
    finding)."""
    phase = getattr(view, "phase", "")
    decision = DECISIONS.get(phase, "to act")
    if phase == TAKE_PHASE:
        return f"{decision}: {cards_str(view.faceup)}"
    return decision


def _stock_lines(view: Any, over: bool) -> list[str]:
    """German Whist's stock as the table sees it: the face-up card the trick is played for
    (or the row the winner chooses from, ``open_stock`` > 1) and how many cards lie face
    down; in stage 2, that it is used up. Other games have no stock (no ``faceup``)."""
    faceup = getattr(view, "faceup", None)
    if faceup is None or over:
        return []
    if not faceup:
        return ["stock: used up (stage 2: no more drawing)"]
    prize = "the trick's prize" if len(faceup) == 1 else "the trick's winner takes one"
    return [f"stock: {cards_str(faceup)} face up ({prize}), {view.facedown_left} face down"]


def _round_lines(view: Any) -> list[str]:
    """Knock-out Whist's round: its number and the cards each seat was dealt for it (a dog
    gets one), then who is in, who plays on a dog's life and who is out. Other games play
    one round (no ``status``)."""
    status = getattr(view, "status", None)
    if status is None:
        return []
    dealt = view.cards_dealt
    round_line = f"round {view.round} of {ROUNDS}: {dealt} card{'s' * (dealt != 1)} each"
    if DOG in status:
        round_line += ", 1 for a dog"
    groups = [(name, [seat for seat, now in enumerate(status) if now == kind])
              for kind, name in SEAT_GROUPS]
    return [round_line, "; ".join(f"{name}: {_seats_text(seats)}"
                                  for name, seats in groups if seats)]


def _seats_text(seats: list[int]) -> str:
    """``seat 0``, or ``seats 1, 2``."""
    return f"seat{'s' * (len(seats) > 1)} {', '.join(map(str, seats))}"


def _trick_text(entries: list[tuple[int, str]]) -> str:
    """A trick's line as the table saw it played: ``seat 0: 4S, seat 1: AH``."""
    return ", ".join(f"seat {seat}: {what}" for seat, what in entries)


def _current_trick(view: Any, players: int) -> list[tuple[int, str]]:
    """The trick in progress in play order: each seat that has had its turn, with its card
    (or Knock-out Whist's knock)."""
    seats = getattr(view, "trick_seats", None)
    if seats is None:  # every seat plays to every trick, in turn from the leader
        return _in_turn(view.leader, view.trick, players)
    if view.phase != PLAY_PHASE:  # a trump to name (no trick yet this round), or the end
        return []
    return _with_knocks(view, players, len(view.tricks), seats, view.trick, view.seat)


def _completed_trick(view: Any, players: int) -> list[tuple[int, str]]:
    """The last completed trick in play order, each card with the seat that played it."""
    last = view.tricks[-1]
    trick_players = getattr(view, "trick_players", None)
    if trick_players is None:
        return _in_turn(last.leader, last.cards, players)
    return _with_knocks(view, players, len(view.tricks) - 1, trick_players[-1], last.cards)


def _in_turn(leader: int, cards: tuple[int, ...], players: int) -> list[tuple[int, str]]:
    """A trick every seat plays to, in turn from its leader."""
    return [((leader + i) % players, card_str(card)) for i, card in enumerate(cards)]


def _with_knocks(view: Any, players: int, index: int, seats: tuple[int, ...],
                 cards: tuple[int, ...], to_act: int | None = None) -> list[tuple[int, str]]:
    """Knock-out Whist's trick ``index`` of the round in play order, a dog that knocked
    beside the cards played: the view lists only the seats that played (``seats``), so a
    knock is read from the rules. A dog is asked at its turn in every trick until it has
    played its one card, and either plays or knocks; ``to_act``: the seat whose turn it
    is in a trick in progress (None: the trick is complete), where the turns so far end.

    A played card is placed by its seat, never by the statuses: at the end of the game
    they are the round's outcome (a seat knocked out by it played to its tricks)."""
    played = dict(zip(seats, map(card_str, cards), strict=True))
    spent = {seat for earlier in view.trick_players[:index] for seat in earlier}
    leader = view.tricks[index].leader if index < len(view.tricks) else view.leader
    entries = []
    for seat in ((leader + k) % players for k in range(players)):
        if seat == to_act:
            break
        if seat in played:
            entries.append((seat, played[seat]))
        elif view.status[seat] == DOG and seat not in spent:
            entries.append((seat, KNOCK_TEXT))
    return entries
