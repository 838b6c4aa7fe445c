"""A trained policy plays in tournaments: use = "policy" with callable = "module:function".

The policies here are tiny NumPy linear scorers over the observation (fixed random
weights, nothing trained): what is tested is the way in, not strength. A policy that
cannot be imported is refused when the config is read, naming the file and the key;
one that returns a masked action forfeits its deal with the reason.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from strategies.policy import PolicyStrategy
from tests.tournament_helpers import write_config
from whist_sim.checking import CheckArgumentError, StrategyCheckError, check_strategy
from whist_sim.store import RunFolder
from whist_sim.tournament.config import ConfigError, load_config
from whist_sim.tournament.runner import run_tournament

ROOT = Path(__file__).resolve().parents[1]
HERE = "tests.test_policy"


@functools.cache
def _weights(size: int, actions: int) -> np.ndarray:
    return np.random.default_rng(7).normal(size=(actions, size)).astype(np.float32)


def linear_policy(observation: dict[str, np.ndarray]) -> int:
    """A linear scorer: one weight row per action, the best legal action by score."""
    x, mask = observation["observation"], observation["action_mask"]
    scores = _weights(len(x), len(mask)) @ x
    return int(np.argmax(np.where(mask == 1, scores, -np.inf)))


def masked_policy(observation: dict[str, np.ndarray]) -> int:
    """Always an action the mask forbids."""
    return int(np.flatnonzero(observation["action_mask"] == 0)[0])


def broken_import() -> None:
    """Referenced under a module name that does not exist."""


class CallableClass:
    """A policy's class: its instances are policies, the class itself is not one."""

    def __call__(self, observation: dict[str, np.ndarray]) -> int:
        return int(np.flatnonzero(observation["action_mask"])[0])


CONFIG = """
[tournament]
game = "{game}"
deals = {deals}
seed = 5
deals_per_task = 4
{extra}

[[strategies]]
use = "policy"
callable = "{callable}"

[[strategies]]
use = "random"
"""


def _run(tmp_path: Path, game: str, callable_: str, deals: int = 4, extra: str = "") -> Path:
    body = CONFIG.format(game=game, deals=deals, callable=callable_, extra=extra)
    config = load_config(write_config(tmp_path, body, f"{game}.toml"))
    summary = run_tournament(config, tmp_path / f"run-{game}", workers=0, progress=False)
    assert summary.status == "complete", summary
    return summary.path


@pytest.mark.parametrize("game,extra", [
    ("german_whist", ""), ("solo_whist", ""), ("minnesota_whist", ""),
    ("knockout_whist", "players = 3"),
])
def test_a_linear_policy_plays_a_tournament_by_the_rules(tmp_path, game, extra):
    run = _run(tmp_path, game, f"{HERE}:linear_policy", extra=extra)
    seats = RunFolder.open(run).scan("seats").collect()
    ours = seats.filter(pl.col("strategy").str.starts_with("policy"))
    assert ours.height > 0
    assert ours.filter(pl.col("result") == "forfeit").height == 0
    assert ours["strategy"][0] == f"policy(callable='{HERE}:linear_policy')"


def test_a_masked_action_forfeits_the_deal_with_the_reason(tmp_path):
    run = _run(tmp_path, "german_whist", f"{HERE}:masked_policy", deals=2)
    deals = RunFolder.open(run).scan("deals").collect()
    errors = deals.filter(pl.col("error").is_not_null())["error"].to_list()
    assert errors and len(errors) == deals.height
    assert all("action mask does not allow" in e and "allowed:" in e for e in errors), errors[0]


@pytest.mark.parametrize("entry,fragment", [
    ('use = "policy"', 'needs callable = "package.module:function"'),
    ('use = "policy"\ncallable = "no_such_module_xyz:act"',
     "callable = 'no_such_module_xyz:act': cannot import module 'no_such_module_xyz'"),
    (f'use = "policy"\ncallable = "{HERE}:nothing_here"', "has no 'nothing_here'"),
    (f'use = "policy"\ncallable = "{HERE}:linear_polcy"',
     "has no 'linear_polcy' (did you mean 'linear_policy'?)"),
    (f'use = "policy"\ncallable = "{HERE}:CallableClass"',
     f"names the class CallableClass, not a policy: a policy is a function from the"
     f" observation dict to an action. Name an instance (e.g. act = CallableClass() in its"
     f' module, then callable = "{HERE}:act")'),
    (f'use = "polcy"\ncallable = "{HERE}:linear_policy"',
     "this entry has use = 'polcy' (did you mean 'policy'?)"),
    ('use = "polcy"', "unknown strategy 'polcy' (did you mean 'policy'?)"),
    (f'use = "policy"\ncallable = "{HERE}:HERE"', "not a function"),
    (f'use = "policy"\ncallable = "{HERE}:broken_import"', "cannot be called with one argument"),
    ('use = "policy"\ncallable = "not a reference"', "is not package.module:function"),
    (f'use = "random"\ncallable = "{HERE}:linear_policy"', "callable applies only to use"),
])
def test_a_policy_that_cannot_be_used_is_refused_naming_file_and_key(tmp_path, entry, fragment):
    body = f'[tournament]\ngame = "german_whist"\ndeals = 2\n\n[[strategies]]\n{entry}\n' \
           '\n[[strategies]]\nuse = "random"\n'
    path = write_config(tmp_path, body, "bad.toml")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert fragment in message
    assert str(path) in message and "strategies[0]" in message


def test_two_policies_are_two_entrants(tmp_path):
    second = f'\n[[strategies]]\nuse = "policy"\ncallable = "{HERE}:masked_policy"\n'
    body = CONFIG.format(game="german_whist", deals=2, callable=f"{HERE}:linear_policy",
                         extra="") + second
    config = load_config(write_config(tmp_path, body))
    assert len(set(config.labels())) == 3


def test_the_policy_passes_check_strategy():
    report = check_strategy("policy", deals=2, params={"callable": f"{HERE}:linear_policy"})
    assert set(report.games) == {"german_whist", "solo_whist", "minnesota_whist",
                                 "knockout_whist"}
    assert report.decisions > 0


@pytest.mark.slow
def test_the_policy_passes_whist_sim_check():
    done = subprocess.run(
        [sys.executable, "-m", "whist_sim", "check", f"policy(callable='{HERE}:linear_policy')",
         "--deals", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(
        f"passed: policy(callable='{HERE}:linear_policy') plays german_whist, knockout_whist,")


def test_whist_sim_check_of_a_policy_without_its_callable_says_what_it_needs():
    done = subprocess.run(
        [sys.executable, "-m", "whist_sim", "check", "policy", "--deals", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert 'needs callable = "package.module:function"' in done.stderr


def returns_none(observation: dict[str, np.ndarray]) -> None:
    return None


def returns_float(observation: dict[str, np.ndarray]) -> float:
    return float(np.flatnonzero(observation["action_mask"])[0])


def returns_true(observation: dict[str, np.ndarray]) -> bool:
    return True


def returns_text(observation: dict[str, np.ndarray]) -> str:
    return "AS"


def returns_negative(observation: dict[str, np.ndarray]) -> int:
    return -1


def returns_numpy_int(observation: dict[str, np.ndarray]) -> np.int64:
    return np.flatnonzero(observation["action_mask"])[0]


@pytest.mark.parametrize(("name", "reason"), [
    ("returns_none", "returned None, which is not an action"),
    ("returns_float", r"returned \d+\.0, which is not an action: a policy returns a whole"),
    ("returns_true", "returned True, which is not an action"),
    ("returns_text", "which is not an action"),
    ("returns_negative", r"returned -1, which is not one of the game's actions \(0\.\.51\)"),
])
def test_a_policy_answer_that_is_not_an_allowed_action_is_a_rule_error(name, reason):
    """None, a float (even of a legal card), a bool, text or a negative number is not an
    action: the seat forfeits with what the policy returned, why it is refused (not an
    action at all, or none of the game's) and the actions allowed."""
    from whist_sim.games import make_game
    from whist_sim.games.base import RuleError
    from whist_sim.rng import strategy_rng

    state = make_game("german_whist").new_deal(3, 0)
    strategy = PolicyStrategy(callable=f"{HERE}:{name}")
    with pytest.raises(RuleError, match=reason) as refused:
        strategy.choose(state.view(state.to_act), strategy_rng(1))
    assert "; allowed: " in str(refused.value)


def test_a_numpy_integer_answer_is_an_action():
    from whist_sim.games import make_game
    from whist_sim.rng import strategy_rng

    state = make_game("german_whist").new_deal(3, 0)
    action = PolicyStrategy(callable=f"{HERE}:returns_numpy_int").choose(
        state.view(state.to_act), strategy_rng(1))
    assert type(action) is int and state.legal >> action & 1


def sampling_policy(observation: dict[str, np.ndarray], rng) -> int:
    """Uniform over the mask, drawn from the seat's generator as the built-in ``random``
    draws (the n-th allowed action, lowest first)."""
    allowed = np.flatnonzero(observation["action_mask"])
    return int(allowed[int(rng.random() * len(allowed))])


def sampling_with_default(observation: dict[str, np.ndarray], rng=None) -> int:
    """A second parameter with a default: called with the observation alone."""
    assert rng is None
    return int(np.flatnonzero(observation["action_mask"])[0])


def needs_three(observation, rng, extra) -> int:
    return 0


def scorer(weights_seed: int, temperature: float = 1.0):
    """A factory: the linear scorer of ``weights_seed``'s random weights."""
    def act(observation: dict[str, np.ndarray]) -> int:
        x, mask = observation["observation"], observation["action_mask"]
        w = np.random.default_rng(weights_seed).normal(size=(len(mask), len(x)))
        return int(np.argmax(np.where(mask == 1, w @ x / temperature, -np.inf)))
    return act


def failing_factory(weights: str):
    with open(weights, "rb") as file:
        return file.read


def not_a_factory(weights: str) -> int:
    return 3


@pytest.mark.parametrize("game,players", [("german_whist", None), ("solo_whist", None),
                                          ("minnesota_whist", None), ("knockout_whist", 3)])
def test_a_policy_of_two_parameters_draws_from_the_seats_own_generator(game, players):
    """Drawing as ``random`` does from the generator it is handed, the policy plays
    exactly the hands ``random`` plays: the generator is the seat's, seeded by the deal
    and the seat, so a sampling policy is reproducible however a run is split."""
    from strategies.random_play import RandomStrategy
    from whist_sim.games import make_game
    from whist_sim.play import play_deal

    table = make_game(game, None, players)
    sampling = PolicyStrategy(callable=f"{HERE}:sampling_policy")
    assert sampling.with_generator
    for seed in range(6):
        ours = play_deal(table, [sampling] + [RandomStrategy()] * (table.players - 1), seed)
        theirs = play_deal(table, [RandomStrategy()] * table.players, seed)
        assert ours.state.log == theirs.state.log
        assert ours.outcome == theirs.outcome


def test_a_second_parameter_with_a_default_is_not_handed_the_generator():
    from whist_sim.games import make_game
    from whist_sim.rng import strategy_rng

    state = make_game("german_whist").new_deal(3, 0)
    strategy = PolicyStrategy(callable=f"{HERE}:sampling_with_default")
    assert not strategy.with_generator
    assert state.legal >> strategy.choose(state.view(state.to_act), strategy_rng(1)) & 1


def test_parameters_make_the_callable_a_factory_and_each_set_an_entrant(tmp_path):
    """Two checkpoints of one policy (here two seeds of random weights) are two entries:
    the factory is called with each entry's parameters, which are in the names."""
    body = f"""
[tournament]
game = "german_whist"
deals = 4
seed = 5
deals_per_task = 4

[[strategies]]
use = "policy"
callable = "{HERE}:scorer"
params = {{ weights_seed = 1 }}

[[strategies]]
use = "policy"
callable = "{HERE}:scorer"
params = {{ weights_seed = 2, temperature = 0.5 }}
"""
    config = load_config(write_config(tmp_path, body))
    first = f"policy(callable='{HERE}:scorer', weights_seed=1)"
    second = f"policy(callable='{HERE}:scorer', temperature=0.5, weights_seed=2)"
    assert config.labels() == [first, second]
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    assert summary.status == "complete"
    seats = RunFolder.open(summary.path).scan("seats").collect()
    assert set(seats["strategy"]) == {first, second}
    assert seats.filter(pl.col("result") == "forfeit").height == 0


@pytest.mark.parametrize("entry,fragment", [
    (f'callable = "{HERE}:scorer"\nparams = {{ weights_seed = 1, seed = 1 }}',
     "cannot take them (it takes no parameter seed)"),
    (f'callable = "{HERE}:failing_factory"\nparams = {{ weights = "no/such/file.npz" }}',
     "raised FileNotFoundError"),
    (f'callable = "{HERE}:not_a_factory"\nparams = {{ weights = "a.npz" }}',
     "returned int 3, not a function"),
    # "the policy(observation, rng, extra)" read as a function named policy (a probe)
    (f'callable = "{HERE}:needs_three"', "the function needs_three(observation, rng, extra)"
                                         " cannot be called with one argument"),
    # the policy itself given a weights file: bind's "missing a required argument:
    # 'observation'" hid the parameter it does not take (a probe's finding)
    (f'callable = "{HERE}:linear_policy"\nparams = {{ weights = "a.npz" }}',
     "takes no parameter weights"),
])
def test_a_factory_or_policy_that_cannot_be_used_is_refused_naming_file_and_key(
        tmp_path, entry, fragment):
    body = f'[tournament]\ngame = "german_whist"\ndeals = 2\n\n[[strategies]]\n' \
           f'use = "policy"\n{entry}\n\n[[strategies]]\nuse = "random"\n'
    path = write_config(tmp_path, body, "bad.toml")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert fragment in message, message
    assert str(path) in message and "strategies[0]" in message


def test_whist_sim_check_of_a_one_game_policy_checks_the_game_it_is_given():
    """A policy trained for one game is checked on that game alone with --game; a game it
    cannot be checked on, or no deals, is an error that says so, not a traceback."""
    base = [sys.executable, "-m", "whist_sim", "check", f"policy(callable='{HERE}:linear_policy')"]
    done = subprocess.run([*base, "--deals", "1", "--game", "german_whist"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(  # named as it was asked for, the callable with it
        f"passed: policy(callable='{HERE}:linear_policy') plays german_whist by the rules:")
    for extra, fragment in ((["--game", "german"], "game 'german' is not a game whist_sim knows"),
                            (["--deals", "0"], "--deals 0: not allowed")):
        done = subprocess.run([*base, *extra], cwd=ROOT, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.startswith("error: ") and fragment in done.stderr, done.stderr


def exiting_factory(weights: str):
    raise SystemExit(3)


def test_a_factory_that_exits_is_refused_not_obeyed(tmp_path):
    """A factory (or a module) that calls sys.exit while the config is read is refused
    with the reason; it does not end the process."""
    body = f'[tournament]\ngame = "german_whist"\ndeals = 2\n\n[[strategies]]\n' \
           f'use = "policy"\ncallable = "{HERE}:exiting_factory"\n' \
           'params = { weights = "a.npz" }\n\n[[strategies]]\nuse = "random"\n'
    path = write_config(tmp_path, body, "bad.toml")
    with pytest.raises(ConfigError, match=r"with parameters weights='a\.npz' raised SystemExit: 3"):
        load_config(path)


def test_a_policy_whose_own_import_is_missing_says_the_module_was_found(tmp_path, monkeypatch):
    """A dependency it needs is not installed: "cannot import module 'needsdep'" had sent
    its author looking for a file that was there."""
    (tmp_path / "policy_needs_a_dependency.py").write_text(
        "import not_installed_dependency_xyz\n\ndef act(observation):\n    return 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    body = ('[tournament]\ngame = "german_whist"\ndeals = 2\n\n[[strategies]]\nuse = "policy"\n'
            'callable = "policy_needs_a_dependency:act"\n\n[[strategies]]\nuse = "random"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(write_config(tmp_path, body, "bad.toml"))
    message = str(caught.value)
    assert ("'policy_needs_a_dependency' was found, but it imports"
            " 'not_installed_dependency_xyz', which is not installed here") in message
    assert "cannot import module" not in message


def four_player_policy(observation: dict) -> int:
    """A policy trained at a table of four: its weights fit that observation's size only."""
    if observation["observation"].shape != (459,):
        raise ValueError(f"trained for 4 players, got shape {observation['observation'].shape}")
    return int(np.flatnonzero(observation["action_mask"])[0])


def test_a_knockout_policy_for_one_table_size_is_checked_at_that_size():
    """The check plays Knock-out at 2, 4 and 7 players; a policy trained at 4 failed at 2
    with no way to say its size (an RL user's probe)."""
    params = {"callable": f"{HERE}:four_player_policy"}
    with pytest.raises(StrategyCheckError, match="2 players"):
        check_strategy("policy", ["knockout_whist"], deals=1, params=params)
    report = check_strategy("policy", ["knockout_whist"], deals=1, params=params, players=4)
    assert report.games == ("knockout_whist",) and report.deals > 0
    with pytest.raises(CheckArgumentError, match=r"players = 9: knockout_whist is played by"
                                                 r" 2\.\.7 players, not 9"):
        check_strategy("policy", ["knockout_whist"], deals=1, params=params, players=9)
    with pytest.raises(CheckArgumentError, match="none is checked here: german_whist is played"
                                                 " at one"):
        check_strategy("policy", ["german_whist"], deals=1, params=params, players=4)


def test_an_isolated_policys_masked_action_is_one_reason_without_a_library_traceback(tmp_path):
    """The forfeit of an isolated policy that returned a masked action gave the reason, then
    "last lines of the bot's stderr:" with the traceback of whist_sim's own refusal, which
    said the reason again in lines of library code."""
    import polars as pl

    from whist_sim.tournament.config import validate_config
    from whist_sim.tournament.runner import run_tournament

    config = validate_config({
        # a task size of its own: no timing sample, whose deals would start the policy's
        # processes again and again (each forfeit ends one)
        "tournament": {"game": "german_whist", "deals": 1, "seed": 2**40,
                       "deals_per_task": 1},
        "strategies": [{"use": "policy", "callable": f"{HERE}:returns_negative",
                        "isolate": True}, {"use": "random"}],
    })
    summary = run_tournament(config, tmp_path / "run", workers=0, progress=False)
    errors = pl.read_parquet(summary.path / "data" / "deals")["error"].drop_nulls()
    assert len(errors) == 2  # both seatings forfeit at the policy's first decision
    for error in errors:
        assert "policy tests.test_policy:returns_negative returned -1, which is not one of" \
               " the game's actions (0..51); allowed: " in error
        assert "Traceback" not in error and "last lines of the bot's stderr" not in error


def test_check_names_a_masked_action_an_illegal_action_isolated_as_in_process():
    """Isolated, a policy's masked action read "it failed: ... reported an error ...:
    strategy raised RuleError: ..." where in process it read "it played an illegal action"
    (a probe)."""
    from whist_sim.checking import StrategyCheckError, check_entrant

    spec = f"policy(callable='{HERE}:masked_policy')"
    with pytest.raises(StrategyCheckError) as in_process:
        check_entrant(spec, deals=1, games=["german_whist"])
    with pytest.raises(StrategyCheckError) as isolated:
        check_entrant(spec, isolate=True, deals=1, games=["german_whist"])
    reason = str(in_process.value).split("it played an illegal action: ", 1)[1]
    assert str(isolated.value).endswith(f"it played an illegal action (isolated): {reason}")


def global_numpy_policy(observation: dict[str, np.ndarray]) -> int:
    """Samples from NumPy's global generator: a different hand each time a seed is played."""
    return int(np.random.choice(np.flatnonzero(observation["action_mask"])))


def global_numpy_policy_with_rng(observation: dict[str, np.ndarray], rng) -> int:
    """Has the seat's generator, and still samples from NumPy's global one."""
    return global_numpy_policy(observation)


def test_a_non_deterministic_one_parameter_policy_is_told_to_take_a_second_parameter_rng():
    """A probe's policy of one parameter calling np.random.choice was told to draw "from
    the rng argument", which it does not have."""
    with pytest.raises(StrategyCheckError) as caught:
        check_strategy("policy", games=["solo_whist"], deals=2,
                       params={"callable": f"{HERE}:global_numpy_policy"})
    message = str(caught.value)
    assert "it is not deterministic" in message
    assert (f"The policy {HERE}:global_numpy_policy takes one parameter, so it has no"
            " generator to draw from: to sample, give it a second parameter rng (no default)"
            in message)
    assert "rng argument" not in message


def test_a_non_deterministic_two_parameter_policy_is_told_to_draw_from_its_second_parameter():
    with pytest.raises(StrategyCheckError) as caught:
        check_strategy("policy", games=["german_whist"], deals=2,
                       params={"callable": f"{HERE}:global_numpy_policy_with_rng"})
    message = str(caught.value)
    assert ("Draw randomness only from the policy's second parameter, the seat's generator"
            in message)


def _refusal(tmp_path: Path, entry: str) -> str:
    """What ``whist-sim run config.toml`` prints for a config of ``entry`` (TOML lines)
    against random, run from the config's folder."""
    body = f'[tournament]\ngame = "german_whist"\ndeals = 2\n\n[[strategies]]\n{entry}\n' \
           '\n[[strategies]]\nuse = "random"\n'
    write_config(tmp_path, body)
    with pytest.raises(ConfigError) as caught:
        load_config(Path("config.toml"))
    return f"error: {caught.value}"


def test_a_refused_policy_is_named_with_its_callable_as_results_name_it(tmp_path, monkeypatch):
    """The entry was named strategies[0] (policy), and with a factory's parameter
    (policy(weights='nope.npz')): the callable, the policy the refusal is about, was
    left out of the name results give the entrant."""
    monkeypatch.chdir(tmp_path)
    plain = _refusal(tmp_path, 'use = "policy"\ncallable = "my_package.policies:act"')
    assert plain.startswith(
        "error: config.toml: strategies[0] (policy(callable='my_package.policies:act')):"
        " strategy 'policy': callable = 'my_package.policies:act': cannot import module")
    factory = _refusal(tmp_path, f'use = "policy"\ncallable = "{HERE}:failing_factory"\n'
                                 'params = { weights = "nope.npz" }')
    assert factory.startswith(
        f"error: config.toml: strategies[0] (policy(callable='{HERE}:failing_factory',"
        " weights='nope.npz')): strategy 'policy'")


def test_the_refusal_docs_environment_md_shows_is_the_one_printed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    printed = _refusal(tmp_path, 'use = "policy"\ncallable = "my_package.policies:act"')
    page = (ROOT / "docs" / "environment.md").read_text(encoding="utf-8")
    assert f"$ python -m whist_sim run config.toml --workers 0\n{printed}\n" in page
