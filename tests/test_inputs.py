"""Inputs that pass validation must not do damage: every value has a range, plans are
lazy, addresses and paths fail in one line, strategies are what they claim to be.

Each rule is one test (parametrised over the values that break it); every refusal
is a single line naming the file, the key and the allowed values. No test here
starts Ray or opens a connection outside 127.0.0.0/8.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.tournament_helpers import assert_same_rows, quick_config, run_rows, write_config
from whist_sim.cli import app
from whist_sim.store import RunFolder
from whist_sim.strategy import StrategyError, build_strategy, is_built_in, strategy_source
from whist_sim.tournament import runner as runner_module
from whist_sim.tournament.cluster import ClusterError, parse_address, probe_gcs
from whist_sim.tournament.config import (
    MAX_DEALS_PER_TASK,
    ConfigError,
    load_config,
    validate_config,
)
from whist_sim.tournament.schedule import Plan, SeatedGames, TaskQueue, lineups, seatings

ROOT = Path(__file__).resolve().parents[1]
cli = CliRunner()

BASE = """
[tournament]
game = "{game}"
deals = 4
deals_per_task = 2
{tournament}

[variant]
{variant}

{sprt}

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"
"""


def _config_text(game: str = "german_whist", tournament: str = "", variant: str = "",
                 sprt: str = "") -> str:
    return BASE.format(game=game, tournament=tournament, variant=variant, sprt=sprt)


def _refusal(tmp_path: Path, body: str) -> str:
    """The one-line ConfigError that loading ``body`` from a file gives."""
    path = write_config(tmp_path, body)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "\n" not in message, message
    assert str(path) in message, message
    return message


def _assert_names(message: str, *fragments: str) -> None:
    for fragment in fragments:
        assert fragment in message, message


# -- every config value has a range ---------------------------------------------------------

DEALS = "whole numbers 1..1,000,000,000"
SEEDS = "whole numbers 0..9,223,372,036,854,775,807"
SECONDS = "numbers 0.001..3,600"
TASK_SIZES = "whole numbers 1..10,000, or 'auto'"


@pytest.mark.parametrize(
    ("line", "key", "allowed"),
    [
        ("seed = -1", "tournament.seed = -1", SEEDS),
        ("seed = 2.0", "tournament.seed = 2.0", SEEDS),
        ("time_limit = 1e20", "tournament.time_limit = 1e+20", SECONDS),
        ("time_limit = inf", "tournament.time_limit = inf", SECONDS),
        ("time_limit = nan", "tournament.time_limit = nan", SECONDS),
        ("time_limit = 0", "tournament.time_limit = 0", SECONDS),
        ("time_limit = 3601", "tournament.time_limit = 3601", SECONDS),
        ('time_limit = "5"', 'tournament.time_limit = "5"', SECONDS),
        ("bench_after = true", "tournament.bench_after = true", DEALS),
        ("players = 3", "tournament.players = 3", "allowed values: 2"),
        ('players = "2"', 'tournament.players = "2"', "a table size (a whole number)"),
        ("players = []", "tournament.players = []", "a list of distinct sizes"),
        ("memory_limit = [1]", "tournament.memory_limit = [1]", 'a size such as "2 GiB"'),
        ('memory_limit = "1 KiB"', 'tournament.memory_limit = "1 KiB"',
         "sizes from 256 MiB to 1 TiB"),
        ("memory_limit = 1e3", "tournament.memory_limit = 1000.0", "sizes from 256 MiB"),
        ("memory_limit = 2.5", "tournament.memory_limit = 2.5", "a whole number of bytes"),
        ("clock = 5", "tournament.clock = 5", "not a table (a whole number); write it as a"
                                              " section, [tournament.clock]"),
        ("clock = 60", "tournament.clock = 60", "its keys: base, increment, per"),
        ("clock = { increment = 1 }", "missing key 'tournament.clock.base'",
         "(seconds on each seat's clock, 0.001..86,400; e.g. clock = { base = 60,"),
        ('output_limit = "2 GiB"', 'tournament.output_limit = "2 GiB"',
         "sizes from 0 bytes to 1 GiB"),
        (f'output_limit = "{"9" * 400} TiB"', 'tournament.output_limit = "999',
         'a size such as "2 GiB"'),
    ],
)
def test_tournament_keys_are_refused_out_of_range_naming_file_key_and_range(
    tmp_path, line, key, allowed
):
    _assert_names(_refusal(tmp_path, _config_text(tournament=line)), key, allowed)


def test_a_size_written_as_a_whole_decimal_is_a_number_of_bytes(tmp_path):
    """TOML writes 2e9 as a float; it was refused as "not a number of bytes"."""
    config = load_config(write_config(tmp_path, _config_text(tournament="memory_limit = 2e9")))
    assert config.tournament.memory_limit == 2_000_000_000


def test_a_config_of_one_entrant_says_to_add_one(tmp_path):
    body = quick_config(deals=2)
    one = body[:body.index("[[strategies]]", body.index("[[strategies]]") + 1)]
    _assert_names(_refusal(tmp_path, one), "strategies: 1 given; at least 2 are needed",
                  "add a [[strategies]] entry")


@pytest.mark.parametrize(("cut", "key", "allowed"), [
    ("strategies", "missing key 'strategies'", "add a [[strategies]] entry"),
    ("game", "missing key 'tournament.game'", "allowed values: german_whist, knockout_whist"),
    # "registered strategies:" and a built-in: an installed plug-in may come first
    ("use", "missing key 'strategies[0].use'", "registered strategies: "),
])
def test_a_missing_key_says_what_it_takes(tmp_path, cut, key, allowed):
    """A probe: a config with no [[strategies]] said only "missing key 'strategies'" (an
    empty list said "at least 2 are needed ... add a [[strategies]] entry"), and a missing
    game or use named no allowed value."""
    body = _config_text()
    if cut == "strategies":
        body = body[:body.index("[[strategies]]")]
    elif cut == "game":
        body = body.replace('game = "german_whist"\n', "", 1)
    else:
        body = body.replace('use = "random"', 'label = "r"', 1)
    message = _refusal(tmp_path, body)
    _assert_names(message, key, allowed)
    if cut == "use":  # a plug-in installed beside the built-ins broke a fixed list (a probe)
        assert "heuristic" in message.split("registered strategies: ", 1)[1]


def _config_without(key: str, line: str) -> str:
    """The base config with its own ``key`` line replaced by ``line``."""
    base = _config_text()
    own = next(text for text in base.splitlines() if text.startswith(f"{key} = "))
    return base.replace(own, line, 1)


@pytest.mark.parametrize(
    ("line", "key"),
    [("deals = 0", "tournament.deals = 0"),
     ("deals = 1_000_000_001", "tournament.deals = 1000000001"),
     ('deals = "12"', 'tournament.deals = "12"'),
     ("deals = 1.5", "tournament.deals = 1.5"), ("deals = true", "tournament.deals = true")],
)
def test_deals_out_of_range_is_one_line(tmp_path, line, key):
    message = _refusal(tmp_path, _config_without("deals", line))
    _assert_names(message, key, DEALS)


@pytest.mark.parametrize(
    ("line", "key"),
    [("deals_per_task = 0", "tournament.deals_per_task = 0"),
     ("deals_per_task = 10_001", "tournament.deals_per_task = 10001"),
     ('deals_per_task = "big"', 'tournament.deals_per_task = "big"')],
)
def test_task_size_out_of_range_is_one_line(tmp_path, line, key):
    _assert_names(_refusal(tmp_path, _config_without("deals_per_task", line)), key, TASK_SIZES)


@pytest.mark.parametrize("players", ["8", "1", "[4, 9]"])
def test_table_sizes_outside_the_game_are_refused_with_the_range(tmp_path, players):
    body = _config_text(game="knockout_whist", tournament=f"players = {players}")
    _assert_names(_refusal(tmp_path, body), f"tournament.players = {players}",
                  "knockout_whist is played by 2..7 players", "allowed values: whole numbers 2..7")


@pytest.mark.parametrize("batch", ["0", "100_001", "2.5", '"20"'])
def test_sprt_batch_is_bounded(tmp_path, batch):
    body = _config_text(sprt=f"[sprt]\nbatch = {batch}")
    _assert_names(_refusal(tmp_path, body), "sprt.batch = ", "whole numbers 1..100,000")


@pytest.mark.parametrize(("line", "key"), [
    ('elo0 = 0\nelo1 = "10"', 'sprt.elo1 = "10"'),
    ("elo0 = 0\nelo1 = true", "sprt.elo1 = true"),
    ('alpha = "0.05"', 'sprt.alpha = "0.05"'),
])
def test_sprt_numbers_are_numbers_as_written(tmp_path, line, key):
    """A text or true was read as its number: elo1 = true ran the test at elo1 = 1."""
    body = _config_text(sprt=f"[sprt]\n{line}")
    _assert_names(_refusal(tmp_path, body), key, "not a finite number")


@pytest.mark.parametrize(
    ("game", "setting", "key", "allowed"),
    [
        # German Whist
        ("german_whist", "open_stock = 0", "variant.open_stock = 0", "whole numbers 1..26"),
        ("german_whist", "open_stock = 3.0", "variant.open_stock = 3.0", "whole numbers 1..26"),
        ("german_whist", 'open_stock = "3"', 'variant.open_stock = "3"', "whole numbers 1..26"),
        ("german_whist", "race_to = 14", "variant.race_to = 14", "whole numbers 1..13"),
        ("german_whist", 'count = "all"\nrace_to = 27', "variant.race_to = 27", "1..26"),
        # a bool as the config spells it: `true`, not Python's `True` (a probe)
        ("german_whist", "race_to = true", "variant.race_to = true", "whole numbers 1..13"),
        ("german_whist", 'match = ["single"]', 'variant.match = ["single"]', '"best_of_99"'),
        ("german_whist", "match = 3", "variant.match = 3", '"best_of_99"'),
        ("german_whist", 'match = "best_of_4"', 'variant.match = "best_of_4"', '"best_of_99"'),
        ("german_whist", 'match = "best_of_101"', 'variant.match = "best_of_101"',
         "odd numbers"),
        ("german_whist", 'match = "best_of_03"', 'variant.match = "best_of_03"', '"best_of_3"'),
        ("german_whist", 'count = ["all"]', 'variant.count = ["all"]', '"stage2", "all"'),
        ("german_whist", "trumps = true", "variant.trumps = true", '"upcard", "none"'),
        # Solo Whist
        ("solo_whist", "stake = 1e300", "variant.stake = 1e+300", "a number > 0 and <= 1,000,000"),
        ("solo_whist", "stake = 9223372036854775807", "variant.stake = 9223372036854775807",
         "a number > 0 and <= 1,000,000"),
        ("solo_whist", "stake = inf", "variant.stake = inf", "a number > 0 and <= 1,000,000"),
        ("solo_whist", "stake = 0", "variant.stake = 0", "a number > 0 and <= 1,000,000"),
        ("solo_whist", 'stake = "1"', 'variant.stake = "1"', "a number > 0 and <= 1,000,000"),
        ("solo_whist", "session_hands = 1_000_000_000", "variant.session_hands = 1000000000",
         "whole numbers 1..1,000"),
        ("solo_whist", "session_hands = 0", "variant.session_hands = 0", "whole numbers 1..1,000"),
        ("solo_whist", "session_hands = 2.5", "variant.session_hands = 2.5",
         "whole numbers 1..1,000"),
        ("solo_whist", "session_hands = 20\ntarget = inf", "variant.target = inf",
         "a number > 0 and <= 1,000,000,000, or leave it out (off)"),
        ("solo_whist", "session_hands = 20\ntarget = 1e10", "variant.target = 10000000000.0",
         "a number > 0 and <= 1,000,000,000"),
        ("solo_whist", "upcard = 1", "variant.upcard = 1", "true, false"),
        ("solo_whist", "session_hands = 4\ntarget = true", "variant.target = true",
         "a number > 0 and <= 1,000,000,000, or leave it out (off)"),
        ("solo_whist", "stake = false", "variant.stake = false", "a number > 0"),
        ("solo_whist", 'play_out = "yes"', 'variant.play_out = "yes"', "true, false"),
        ("solo_whist", "payments = 1", "variant.payments = 1", '"default", "classic"'),
        # Minnesota Whist
        ("minnesota_whist", "target = 0", "variant.target = 0", "whole numbers 1..1,000"),
        ("minnesota_whist", "target = 1001", "variant.target = 1001", "whole numbers 1..1,000"),
        ("minnesota_whist", "target = 13.0", "variant.target = 13.0", "whole numbers 1..1,000"),
        ("minnesota_whist", 'target = "13"', 'variant.target = "13"', "whole numbers 1..1,000"),
        ("minnesota_whist", 'scoring = ["pagat"]', 'variant.scoring = ["pagat"]', '"pagat"'),
        ("minnesota_whist", "bid = 1", "variant.bid = 1", '"cards", "spoken"'),
        ("minnesota_whist", "target = true", "variant.target = true", "whole numbers 1..1,000"),
        # Knock-out Whist
        ("knockout_whist", "tie_break = 1", "variant.tie_break = 1", '"cut", "nearest_left"'),
        ("knockout_whist", "dogs_life = true", "variant.dogs_life = true",
         '"off", "first_round", "first_knockout"'),
    ],
)
def test_variant_keys_are_refused_out_of_range_naming_file_key_and_range(
    tmp_path, game, setting, key, allowed
):
    players = "players = 4" if game == "knockout_whist" else ""
    body = _config_text(game=game, tournament=players, variant=setting)
    _assert_names(_refusal(tmp_path, body), key, "is not allowed; allowed values:", allowed)


@pytest.mark.parametrize(
    ("game", "setting"),
    [("german_whist", 'match = "best_of_99"'), ("german_whist", "open_stock = 26"),
     ("solo_whist", "stake = 1_000_000\nsession_hands = 1000\ntarget = 1e9"),
     ("solo_whist", "stake = 0.5"), ("minnesota_whist", "target = 1000")],
)
def test_the_bounds_themselves_are_allowed(tmp_path, game, setting):
    config = load_config(write_config(tmp_path, _config_text(game=game, variant=setting)))
    assert config.game().variant is not None


def test_the_largest_stake_and_session_fit_arrow(tmp_path):
    """The Arrow traceback of a huge stake cannot come back: the largest allowed stake,
    a whole number, over a session of hands, writes its rows."""
    from tests.tournament_helpers import make_run_without_ray

    body = _config_text(game="solo_whist", variant="stake = 1_000_000\nsession_hands = 3")
    run = make_run_without_ray(tmp_path, body, per_task=2)
    totals = RunFolder.open(run).scan("matches").collect()["points"]
    assert totals.abs().max() < 2**53


# -- plans are lazy -------------------------------------------------------------------------


def test_seated_games_of_a_task_are_counted_without_listing_the_plan():
    seats = lineups(["a", "b", "c"], 4) + lineups(["a", "b"], 4) + [("a", "b", "c", "d")]
    plan = Plan(len(seats), deals=23, deals_per_task=7)
    counted = SeatedGames(plan, seats)
    by_items = [sum(len(seatings(seats[p])) for p, _ in plan.task_items(t))
                for t in range(plan.tasks)]
    assert [counted[t] for t in range(plan.tasks)] == by_items
    assert counted.total() == sum(by_items)
    assert counted.of_tasks({1, 3, 10**9}) == by_items[1] + by_items[3]


def test_task_queue_takes_pending_tasks_in_order_without_a_list():
    queue = TaskQueue(10**12, done={0, 2})  # a list of these would not fit in memory
    assert queue.first() == 1
    assert [queue.take() for _ in range(3)] == [1, 3, 4]
    queue.clear()
    assert not queue and queue.first() is None


def test_auto_task_size_is_bounded_and_arithmetic(tmp_path):
    config = load_config(write_config(tmp_path, _config_text().replace(
        "deals = 4", "deals = 1_000_000_000")))
    started = time.perf_counter()
    size = runner_module._auto_task_size(config, 3, 8, per_item=1e-9)
    assert time.perf_counter() - started < 5  # a loop over a billion deals takes minutes
    assert 1 <= size <= MAX_DEALS_PER_TASK


BILLION = """
[tournament]
game = "german_whist"
deals = 1_000_000_000
deals_per_task = 5
seed = 3

[[strategies]]
use = "random"

[[strategies]]
use = "heuristic"

[[strategies]]
use = "random"
label = "random_b"
"""

COUNTING_RUN = """
import sys
from whist_sim.store import RunFolder

name_units = RunFolder.name_units

def counted(self, units):
    name_units(self, units)
    for record in units.values():
        for task in record.tasks:
            print("committed", task, flush=True)

RunFolder.name_units = counted
sys.argv = ["whist-sim", "run", {config!r}, "--workers", "0", "--out", {out!r}, "--no-progress"]
from whist_sim.cli import main
main()
"""

MAX_GROWTH_KB = 64 * 1024  # what a plan of 10**9 deals may add to the driver's peak


def _peak_rss_kb(pid: int) -> int:
    """The process's peak resident memory so far (``VmHWM``, kB).

    Not ``ru_maxrss`` of the reaped child: Linux carries a process's peak across
    ``execve``, and a child spawned (vfork) from this test process starts with the
    test process's own peak, hundreds of MB late in a test session.
    """
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmHWM in /proc/{pid}/status")


TWO_ENTRANTS = BILLION[:BILLION.index('[[strategies]]\nuse = "random"\nlabel')]


def _driver_after_three_commits(folder: Path, body: str) -> tuple[int, float]:
    """Run ``body`` in process in a child driver until it has committed three tasks: its
    peak resident memory then (kB) and the seconds it took."""
    folder.mkdir()
    config = write_config(folder, body)
    script = COUNTING_RUN.format(config=str(config), out=str(folder / "run"))
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    committed = 0
    timer = threading.Timer(120, child.kill)  # a hang fails the test, not the suite
    timer.start()
    try:
        for line in child.stdout:
            committed += line.startswith("committed")
            if committed == 3:
                break
        peak_kb = _peak_rss_kb(child.pid) if committed == 3 else 0
    finally:
        timer.cancel()
        child.kill()
        child.wait()
        child.stdout.close()
    assert committed == 3, f"the run in {folder} did not commit three tasks in 120 s"
    return peak_kb, time.perf_counter() - started


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
@pytest.mark.slow
@pytest.mark.parametrize(("body", "lineups"), [(BILLION, 3), (TWO_ENTRANTS, 1)],
                         ids=["round robin", "two entrants (a verdict)"])
def test_a_billion_deals_plan_and_start_in_small_memory(tmp_path, body, lineups):
    """The driver of a 10**9-deal run validates, plans, and commits tasks in process with
    its peak memory no higher than a 1,000-deal run's, far below what a list of its
    6 * 10**8 tasks would take (the old driver passed 1.5 GB within 5 s and was killed at
    3 GB). Two entrants too: their verdict's pair values took 8 bytes per planned deal
    before the first hand (8 GB).

    Measured against the small run, not against a fixed figure: a clean clone's first
    run compiles the numba kernels (none are cached yet), which took its peak from 357 MB
    to 423 MB, past the 400 MB this test once asserted. The small run goes first, so it
    is the one that compiles."""
    small_kb, _ = _driver_after_three_commits(
        tmp_path / "small", body.replace("deals = 1_000_000_000", "deals = 1_000"))
    peak_kb, seconds = _driver_after_three_commits(tmp_path / "billion", body)
    assert peak_kb < small_kb + MAX_GROWTH_KB, (
        f"peak RSS {peak_kb / 1024:.0f} MB, {small_kb / 1024:.0f} MB at 1,000 deals")
    assert seconds < 60
    plan = json.loads((tmp_path / "billion" / "run" / "run.json").read_text())["plan"]
    assert plan["tasks"] == lineups * 10**9 // 5


# -- --address ------------------------------------------------------------------------------

ACCEPTED = "accepted: HOST:PORT"


@pytest.mark.parametrize(
    "address", ["notanaddress", "ray://127.0.0.9:10001", "127.0.0.9:0", "127.0.0.9:70000",
                "127.0.0.9:port", "127.0.0.9", "auto", "1.2.3:6379", "[nothex]:6379"],
)
def test_a_malformed_address_is_refused_in_one_line_with_the_accepted_forms(tmp_path, address):
    config = write_config(tmp_path, quick_config(deals=2))
    started = time.perf_counter()
    result = cli.invoke(app, ["run", str(config), "--address", address, "--out",
                              str(tmp_path / "out"), "--no-progress"])
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output, result.output
    _assert_names(result.output, address, ACCEPTED)
    assert time.perf_counter() - started < 5
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("address", "named"), [
    ("ray://127.0.0.9:10001", "ray:// addresses (the Ray client) are not supported"),
    ("http://127.0.0.9:8265", "http:// addresses (Ray's dashboard and job submission)"),
    ("auto", "leave the address out (an embedded run)"),
    ("local", "leave the address out (an embedded run)"),
])
def test_an_address_of_another_kind_says_what_it_points_at(address, named):
    """http:// was called "the Ray client", and auto/local gave no word of the embedded run
    that does what they ask (a cluster probe)."""
    with pytest.raises(ClusterError) as refused:
        parse_address(address, "--address")
    assert named in str(refused.value) and ACCEPTED in str(refused.value)


def test_well_formed_addresses_parse():
    assert parse_address("127.0.0.9:6379") == ("127.0.0.9", 6379)
    assert parse_address("head.example.org:6379") == ("head.example.org", 6379)
    assert parse_address("[::1]:6380") == ("::1", 6380)


def _free_port(host: str = "127.0.0.9") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_an_address_where_nothing_listens_fails_fast_in_one_line(tmp_path):
    """A fresh process (no Ray yet, as on the command line): it refuses in seconds,
    where Ray alone retried for minutes."""
    config = write_config(tmp_path, quick_config(deals=2))
    address = f"127.0.0.9:{_free_port()}"
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "run", str(config), "--address", address,
         "--out", str(tmp_path / "out"), "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "RAY_ADDRESS": ""},
    )
    assert time.perf_counter() - started < 30
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    _assert_names(result.stderr, address, "no Ray cluster there")


@pytest.mark.slow
def test_an_address_from_ray_address_where_nothing_listens_is_named_ray_address(tmp_path):
    """The address came from the environment, yet the error named "--address", an option
    nobody had typed (a cluster probe)."""
    config = write_config(tmp_path, quick_config(deals=2))
    address = f"127.0.0.9:{_free_port()}"
    result = subprocess.run(
        [sys.executable, "-m", "whist_sim", "run", str(config),
         "--out", str(tmp_path / "out"), "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "RAY_ADDRESS": address},
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    _assert_names(result.stderr, f"RAY_ADDRESS {address}", "no Ray cluster there")
    assert "--address" not in result.stderr.split("continue with")[0], result.stderr


class _Listener:
    """A TCP server on 127.0.0.9 that accepts and answers each connection with ``reply``
    (nothing: it stays silent)."""

    def __init__(self, reply: bytes = b"") -> None:
        self.socket = socket.create_server(("127.0.0.9", 0))
        self.address = f"127.0.0.9:{self.socket.getsockname()[1]}"
        self.reply = reply
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.socket.accept()
            except OSError:
                return
            self.held.append(conn)
            if self.reply:
                conn.sendall(self.reply)

    def close(self) -> None:
        self.socket.close()
        for conn in self.held:
            conn.close()


@pytest.mark.parametrize(
    ("reply", "fragment"),
    [(b"", "no answer within 0.5 s"),
     (b"HTTP/1.1 400 Bad Request\r\n\r\n", "not a Ray cluster's GCS")],
)
def test_an_address_where_something_else_listens_is_refused(reply, fragment):
    listener = _Listener(reply)
    try:
        started = time.perf_counter()
        with pytest.raises(ClusterError, match=fragment) as caught:
            probe_gcs(listener.address, timeout=0.5)
        assert time.perf_counter() - started < 5
        assert listener.address in str(caught.value)
    finally:
        listener.close()


def test_a_grpc_server_passes_the_probe():
    """What Ray's GCS answers first: an HTTP/2 SETTINGS frame (type 4)."""
    listener = _Listener(bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))
    try:
        probe_gcs(listener.address, timeout=2)
    finally:
        listener.close()


def test_workers_out_of_range_is_one_line(tmp_path):
    config = write_config(tmp_path, quick_config(deals=2))
    result = cli.invoke(app, ["run", str(config), "--workers", "-1"])
    assert result.exit_code == 2
    _assert_names(result.output, "--workers -1", "whole numbers 0..100,000",
                  "or leave it out")


@pytest.mark.parametrize("workers", [-1, 100_001, 2.5, True])
def test_workers_out_of_range_from_python_are_refused_before_ray_starts(tmp_path, workers):
    """From a notebook: run_tournament(workers=-1) once reached Ray, which refused a
    negative number of CPUs in its own words after starting."""
    from whist_sim.tournament.config import load_config
    from whist_sim.tournament.runner import resume_tournament, run_tournament

    config = load_config(write_config(tmp_path, quick_config(deals=2)))
    with pytest.raises(ClusterError, match=f"workers = {workers!r}: allowed values: whole"
                                           r" numbers 0\.\.100,000 .*or None"):
        run_tournament(config, tmp_path / "run", workers=workers, progress=False)
    assert not (tmp_path / "run").exists()
    with pytest.raises(ClusterError, match=f"workers = {workers!r}"):
        resume_tournament(tmp_path / "run", workers=workers, progress=False)


# -- file-system errors ---------------------------------------------------------------------


@pytest.mark.parametrize(("game", "tournament", "variant", "meant"), [
    ("german_whist", 'format = "roundrobin"', "", "round_robin"),
    ("german_whist", 'on_error = "forfiet"', "", "forfeit"),
    ("german_whist", "", 'count = "Stage2"', "stage2"),
    ("solo_whist", "", 'payments = "clasic"', "classic"),
])
def test_a_value_one_slip_from_an_allowed_one_is_named(tmp_path, game, tournament, variant,
                                                        meant):
    """Keys one slip from a real one were named ("did you mean 'trumps'?"), values not:
    ``format = "roundrobin"`` and ``count = "Stage2"`` listed the allowed values and left
    the reader to spot the slip (a newcomer's probe)."""
    message = _refusal(tmp_path, _config_text(game, tournament, variant))
    assert f"(did you mean {meant!r}?)" in message, message
    assert "allowed values:" in message


def test_a_strategy_name_in_other_capitals_is_named():
    """``use = "Random"`` got "did you mean 'random'?" and ``use = "HEURISTIC"`` nothing:
    a slip of case in a longer word is past difflib's cutoff (a newcomer's probe)."""
    from whist_sim.games.base import did_you_mean

    assert did_you_mean("HEURISTIC", ["heuristic", "random"]) == " (did you mean 'heuristic'?)"
    assert did_you_mean("Stage2", ["stage2", "all"]) == " (did you mean 'stage2'?)"
    assert did_you_mean("xyz", ["heuristic", "random"]) == ""


def test_a_config_path_that_is_a_folder(tmp_path):
    with pytest.raises(ConfigError, match="is a folder; give a config file"):
        load_config(tmp_path)


def test_a_config_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('[tournament]\ngame = "german_whist" # caf\xe9\n'.encode("latin-1"))
    with pytest.raises(ConfigError, match=r"not UTF-8 text \(byte 0xe9"):
        load_config(path)


def test_a_config_saved_with_a_byte_order_mark_is_read(tmp_path):
    """A config saved by an editor that starts UTF-8 files with a byte-order mark (Windows
    Notepad) was refused as "not valid TOML (Invalid statement (at line 1, column 1))",
    naming nothing a reader could see in the file (a newcomer's probe)."""
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + quick_config(deals=3).encode())
    assert load_config(path).tournament.deals == 3


def test_an_unreadable_config(tmp_path, monkeypatch):
    """Simulated: as root, permission bits do not stop a read."""
    path = write_config(tmp_path, quick_config())

    def refuse(self, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_text", refuse)
    with pytest.raises(ConfigError, match=r"cannot read the config \(Permission denied\)") as err:
        load_config(path)
    assert str(path) in str(err.value)


def test_a_deals_file_that_is_a_folder(tmp_path):
    (tmp_path / "deals").mkdir()
    body = _config_text(tournament='deals_file = "deals"').replace("deals = 4\n", "", 1)
    _assert_names(_refusal(tmp_path, body), "tournament.deals_file", "is a folder")


def _cli_run(config: Path, out: Path) -> object:
    return cli.invoke(app, ["run", str(config), "--workers", "0", "--out", str(out),
                            "--no-progress"])


def _assert_one_line(result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output, result.output
    _assert_names(result.output, *fragments)


def test_an_out_that_is_a_file(tmp_path):
    config = write_config(tmp_path, quick_config(deals=2))
    (tmp_path / "taken").write_text("")
    _assert_one_line(_cli_run(config, tmp_path / "taken"), str(tmp_path / "taken"),
                     "is a file, not a folder")
    _assert_one_line(_cli_run(config, tmp_path / "taken" / "run"), "is a file")


def test_an_out_where_nothing_may_be_written(tmp_path, monkeypatch):
    config = write_config(tmp_path, quick_config(deals=2))
    real_access = os.access  # the config stays readable; the folder --out goes in does not
    monkeypatch.setattr(os, "access",
                        lambda path, mode: Path(path) != tmp_path and real_access(path, mode))
    _assert_one_line(_cli_run(config, tmp_path / "out"), str(tmp_path / "out"),
                     "read-only file system, or no permission")


def test_an_out_on_a_read_only_file_system(tmp_path, monkeypatch):
    """Simulated: creating the run folder fails as on a read-only mount."""
    config = write_config(tmp_path, quick_config(deals=2))
    out = tmp_path / "out"

    def read_only(cls, path, meta):
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(RunFolder, "create", classmethod(read_only))
    _assert_one_line(_cli_run(config, out), str(out), "the file system is read-only")


@pytest.mark.slow
def test_no_space_left_mid_run_keeps_every_committed_task(tmp_path, monkeypatch):
    """Simulated: the third snapshot naming tasks finds the disk full. The command fails in
    one line naming the run and how to continue; the two tasks committed stay; the resumed
    run equals an uninterrupted one."""
    config = write_config(tmp_path, quick_config(deals=12, per_task=3))
    out = tmp_path / "out"
    name_units = RunFolder.name_units
    commits = []

    def full_disk(self, units):
        if len(commits) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(self.path / "manifest"))
        name_units(self, units)
        commits.extend(task for record in units.values() for task in record.tasks)

    monkeypatch.setattr(RunFolder, "name_units", full_disk)
    _assert_one_line(_cli_run(config, out), "no space left on the device",
                     f"whist-sim run --resume {out}")
    monkeypatch.setattr(RunFolder, "name_units", name_units)
    assert RunFolder.open(out).completed_tasks() == set(commits)
    resumed = cli.invoke(app, ["run", "--resume", str(out), "--workers", "0", "--no-progress"])
    assert resumed.exit_code == 0, resumed.output
    clean = _cli_run(config, tmp_path / "clean")
    assert clean.exit_code == 0, clean.output
    assert_same_rows(run_rows(out), run_rows(tmp_path / "clean"))


# -- strategies -----------------------------------------------------------------------------


def _plugin(tmp_path: Path, monkeypatch, module: str, source: str) -> str:
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    (folder / f"{module}.py").write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(sys.modules, module, raising=False)
    return module


IMPOSTOR = """
from strategies.random_play import RandomStrategy


class Impostor(RandomStrategy):
    version = "666"
"""


@pytest.fixture
def impostor(tmp_path, monkeypatch):
    """An installed distribution ``fakeplug`` whose entry point is named ``heuristic``."""
    module = _plugin(tmp_path, monkeypatch, "fakeplug_impostor", IMPOSTOR)
    info = tmp_path / "plugins" / "fakeplug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        f"[whist_sim.strategies]\nheuristic = {module}:Impostor\n")
    return f"{module}:Impostor"


def test_a_plugin_may_not_take_a_built_in_name(tmp_path, impostor):
    message = _refusal(tmp_path, _config_text())
    _assert_names(message, "strategies[1]", "'heuristic' is registered by whist-sim",
                  "fakeplug 1.0", "may not replace a built-in", f'use = "{impostor}"',
                  'use = "strategies.heuristic:Heuristic"')
    assert not is_built_in("heuristic")  # and never plays in process on its own


def test_a_plugin_with_a_built_in_name_reaches_no_search_strategy_unnamed(tmp_path, impostor):
    """The search strategies roll out with whist_sim's own heuristic, and ``check`` plays
    against its own random: a plug-in registering ``heuristic`` made every pimc, solver
    and ismcts decision raise (the registry refuses to guess), in runs that never named
    the plug-in."""
    from whist_sim.checking import check_entrant
    from whist_sim.games import make_game
    from whist_sim.play import play_deal
    from whist_sim.search import policy
    from whist_sim.strategy import build_strategy

    game = make_game("german_whist")
    # uncached (the caches, shared by every search model, may hold a policy already)
    assert policy.default_policy_class.__wrapped__(game.name).__module__.startswith("strategies.")
    assert type(policy.default_policy.__wrapped__(game.name)).__module__.startswith("strategies.")
    searcher = build_strategy("pimc", {"worlds": 2}, game.name)
    played = play_deal(game, [searcher, build_strategy("random", {}, game.name)], 3,
                       on_error="abort")
    assert played.outcome.error is None
    assert check_entrant("solver", deals=1, games=["german_whist"]).decisions > 0


def test_the_plugin_and_the_built_in_both_work_by_full_name(tmp_path, impostor):
    body = _config_text().replace('use = "heuristic"', f'use = "{impostor}"').replace(
        'use = "random"', 'use = "strategies.heuristic:Heuristic"')
    config = load_config(write_config(tmp_path, body))
    assert config.strategy_versions()[impostor] == "666"
    sources = config.strategy_sources()
    assert sources["strategies.heuristic:Heuristic"]["distribution"] == "whist-sim"
    assert sources[impostor]["class"] == impostor


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("class NoChoose:\n    games = frozenset({'german_whist'})\n",
         "has no choose method of its own"),
        ("from whist_sim.strategy import Strategy\n"
         "class Inherits(Strategy):\n    games = frozenset({'german_whist'})\n",
         "has no choose method of its own"),
        ("class NoChoose:\n    games = frozenset({'german_whist'})\n    choose = 5\n",
         "has no choose method of its own"),
        ("class NoChoose:\n    games = frozenset({'german_whist'})\n"
         "    def choose(self, view):\n        return 0\n",
         "cannot be called as choose(view, rng)"),
    ],
)
def test_a_class_without_a_usable_choose_is_refused_at_validation(
    tmp_path, monkeypatch, source, fragment
):
    module = _plugin(tmp_path, monkeypatch, f"nochoose_{abs(hash(source))}", source)
    name = source.split("class ", 1)[1].split("(", 1)[0].split(":", 1)[0]
    body = _config_text().replace('use = "heuristic"', f'use = "{module}:{name}"')
    _assert_names(_refusal(tmp_path, body), "strategies[1]", fragment)


@pytest.mark.parametrize(("body", "fragment"), [
    ("self.x = 1 + 'a'", "building it raised TypeError: unsupported operand type(s) for +"),
    ("raise RuntimeError('no model file')", "building it raised RuntimeError: no model file"),
])
def test_a_constructor_that_fails_is_named_with_its_error_and_where(
        tmp_path, monkeypatch, body, fragment):
    """A plug-in's constructor that raised read as Python's bare words ("unsupported operand
    type(s) for +"), with no type and no place, unlike a decision's forfeit."""
    source = ("class Broken:\n    games = frozenset({'german_whist'})\n"
              f"    def __init__(self):\n        {body}\n"
              "    def choose(self, view, rng):\n        return 0\n")
    module = _plugin(tmp_path, monkeypatch, f"broken_ctor_{abs(hash(body))}", source)
    config = _config_text().replace('use = "heuristic"', f'use = "{module}:Broken"')
    _assert_names(_refusal(tmp_path, config), "strategies[1]", fragment, f"{module}.py:4)")


@pytest.mark.parametrize("source", [
    "class NoGames:\n    def choose(self, view, rng):\n        return 0\n",
    "from whist_sim.strategy import Strategy\n"
    "class NoGames(Strategy):\n    def choose(self, view, rng):\n        return 0\n",
], ids=["plain class", "Strategy subclass"])
def test_a_class_that_names_no_games_is_refused_by_run_and_check_alike(tmp_path, monkeypatch,
                                                                      source):
    """The docs promise a strategy is never asked to play a game it does not name; a class
    without ``games`` was entered in any game by a run, while ``check`` said its games
    attribute (which it did not have) was [] (a docs probe). A subclass of Strategy
    inherits its empty ``games``: a run said "does not play german_whist; it supports: "
    with nothing after it (a newcomer's probe). Both now say what the class lacks."""
    from whist_sim.checking import StrategyCheckError, check_entrant

    # a module of its own per case: the first one imported would stay in sys.modules
    name = "sub_no_games_mod" if "(Strategy)" in source else "no_games_mod"
    module = _plugin(tmp_path, monkeypatch, name, source)
    body = _config_text().replace('use = "heuristic"', f'use = "{module}:NoGames"')
    _assert_names(_refusal(tmp_path, body), "strategies[1]", "names no games",
                  "games = frozenset(", "known games: german_whist")
    with pytest.raises(StrategyCheckError, match="names no games"):
        check_entrant(f"{module}:NoGames", deals=1)


@pytest.mark.parametrize(
    ("spec", "source", "fragment"),
    [("broken_import_mod:X", "raise RuntimeError('plug-in bug')",
      "raised RuntimeError: plug-in bug"),
     ("not_a_class_mod:X", "X = 5", "not a class"),
     # said "names no games", of a function (a newcomer's probe)
     ("function_mod:rank", "def rank(view, rng):\n    return 0",
      "is a function, not a class; a strategy is a class with choose(self, view, rng)"),
     ("not_a_class_mod:", "X = 5", "is not package.module:Class"),
     (":X", "X = 5", "is not package.module:Class")],
)
def test_a_broken_module_class_reference_is_one_line(tmp_path, monkeypatch, spec, source,
                                                     fragment):
    module = spec.split(":")[0] or "unused_mod"
    _plugin(tmp_path, monkeypatch, module, source)
    body = _config_text().replace('use = "heuristic"', f'use = "{spec}"')
    _assert_names(_refusal(tmp_path, body), "strategies[1]", fragment)


def test_run_json_records_where_each_strategy_was_loaded_from(tmp_path, monkeypatch):
    module = _plugin(tmp_path, monkeypatch, "local_bot", IMPOSTOR)
    body = quick_config(deals=2, per_task=2).replace(
        'use = "random"\nlabel = "random_b"', f'use = "{module}:Impostor"\nlabel = "local"')
    config = validate_config(__import__("tomllib").loads(body))
    summary = runner_module.run_tournament(config, tmp_path / "run", workers=0, progress=False)
    recorded = json.loads((summary.path / "run.json").read_text())["strategies"]
    built_in = recorded["heuristic"]["source"]
    assert built_in["distribution"] == "whist-sim" and built_in["distribution_version"]
    assert built_in["module"] == "strategies.german_heuristic"
    assert built_in["sha256"] == hashlib.sha256(Path(built_in["file"]).read_bytes()).hexdigest()
    local = recorded["local"]["source"]
    assert local["distribution"] is None and local["distribution_version"] is None
    assert local["class"] == f"{module}:Impostor"
    assert local["file"] == str((tmp_path / "plugins" / f"{module}.py").resolve())
    assert local["sha256"] == hashlib.sha256(Path(local["file"]).read_bytes()).hexdigest()
    assert strategy_source("random", "german_whist")["module"] == "strategies.random_play"



def test_overrides_take_plain_tournament_keys_and_name_the_forms_otherwise(tmp_path):
    from tests.tournament_helpers import quick_config
    from whist_sim.tournament.config import ConfigError, load_config

    path = tmp_path / "c.toml"
    path.write_text(quick_config(deals=12))
    assert load_config(path, {"deals": 5}).tournament.deals == 5
    assert load_config(path, {"tournament.deals": 6}).tournament.deals == 6
    with pytest.raises(ConfigError, match=r"override 'count'.*section\.key.*variant\.count"):
        load_config(path, {"count": "all"})


def test_a_plugin_whose_own_import_is_missing_says_the_plugin_was_found(tmp_path, monkeypatch):
    """Its file is there; a package it imports is not installed: the error says which."""
    from whist_sim.strategy import StrategyError, strategy_class

    (tmp_path / "plugin_needs_a_dependency.py").write_text(
        "import not_installed_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(StrategyError) as refused:
        strategy_class("plugin_needs_a_dependency:Mine", "german_whist")
    assert str(refused.value) == (
        "strategy 'plugin_needs_a_dependency:Mine': 'plugin_needs_a_dependency' was found, but"
        " it imports 'not_installed_dependency_xyz', which is not installed here (No module"
        " named 'not_installed_dependency_xyz'); install it into the environment whist-sim"
        " runs in")
    with pytest.raises(StrategyError, match=r"cannot import 'plugin_absent_xyz' \(No module"):
        strategy_class("plugin_absent_xyz:Mine", "german_whist")


def test_a_plugin_whose_import_of_a_name_fails_says_the_plugin_was_found(tmp_path,
                                                                        monkeypatch):
    """A plug-in author's probe: a name it imports that does not exist read "cannot import
    the plug-in; it must be in the folder whist-sim runs from", though it was there."""
    from whist_sim.strategy import StrategyError, strategy_class

    (tmp_path / "plugin_imports_a_missing_name.py").write_text(
        "from whist_sim.cards import no_such_helper_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(StrategyError, match=r"'plugin_imports_a_missing_name' was found, but"
                       r" importing it raised ImportError: cannot import name"
                       r" 'no_such_helper_xyz' from 'whist_sim\.cards'"):
        strategy_class("plugin_imports_a_missing_name:Mine", "german_whist")


@pytest.mark.parametrize(("module", "source", "raised"), [
    # it said "(plugin_syntax_xyz.py, line 2)": no folder, where the author had several
    # copies of the file
    ("plugin_syntax_xyz", "import random\nclass Mine(object)\n    pass\n",
     "SyntaxError: expected ':'"),
    ("plugin_divides_xyz", "x = 1\ny = x / 0\n", "ZeroDivisionError: division by zero"),
], ids=["syntax error", "error as it is imported"])
def test_a_plugin_that_cannot_be_imported_names_its_file_and_line(tmp_path, monkeypatch,
                                                                   module, source, raised):
    from whist_sim.strategy import StrategyError, strategy_class

    path = tmp_path / f"{module}.py"
    path.write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(StrategyError) as refused:
        strategy_class(f"{module}:Mine", "german_whist")
    assert str(refused.value).endswith(f"raised {raised} (at {path}:2)")


def test_a_constructor_argument_left_out_says_where_to_give_it(tmp_path, monkeypatch):
    from whist_sim.strategy import StrategyError, build_strategy

    (tmp_path / "plugin_needs_depth_xyz.py").write_text(
        "class Mine:\n    games = frozenset({'german_whist'})\n"
        "    def __init__(self, depth):\n        self.depth = depth\n"
        "    def choose(self, view, rng):\n        return 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(StrategyError) as refused:
        build_strategy("plugin_needs_depth_xyz:Mine", {}, "german_whist")
    assert str(refused.value).endswith(
        "missing 1 required positional argument: 'depth'; give depth in the entry's params,"
        " e.g. params = { depth = ... }")


# -- a newcomer's slips: each refusal says where the key or class goes ----------------------


@pytest.mark.parametrize(("spec", "spelled"), [
    ("mybot/greedy.py", "mybot.greedy:ClassName"),
    ("mybot.greedy", "mybot.greedy:ClassName"),
    ("mybot.greedy.Greedy", "mybot.greedy:Greedy"),
    ("mybot/greedy.py:Greedy", "mybot.greedy:Greedy"),
    ("mybot.py:HighCard", "mybot:HighCard"),  # read "'mybot' is not a package" (a probe)
])
def test_a_file_path_or_dotted_name_in_use_is_spelled_as_module_class(tmp_path, spec, spelled):
    """``use`` given as a file path or a dotted name was refused as an unknown strategy
    (or "not package.module:Class, e.g. mypackage.bots:MyBot"), never showing the
    newcomer the module:Class spelling of what they wrote."""
    body = _config_text().replace('use = "heuristic"', f'use = "{spec}"')
    _assert_names(_refusal(tmp_path, body), "strategies[1]", repr(spec), spelled)


@pytest.mark.parametrize("program", ["./nonexist_bot", "bots/mybot.sh"])
def test_a_bot_program_given_to_check_is_told_how_a_bot_is_checked(tmp_path, monkeypatch,
                                                                    program):
    """`whist-sim check ./nonexist_bot` was told to spell it "nonexist_bot:ClassName", a
    Python class, where a program is checked as `process --command` (a newcomer's probe)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mybot.sh").write_text("#!/bin/sh\n")
    result = cli.invoke(app, ["check", program], terminal_width=400)
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert (f"a bot program is entered as use = \"process\" with command = [\"{program}\"],"
            f" and checked with whist-sim check process --command {program}") in text, text
    assert ":ClassName" not in text


def test_a_config_file_given_to_check_is_told_to_run_it(tmp_path):
    """`whist-sim check quickstart.toml` was told how to spell a module:Class,
    "quickstart.toml:ClassName": a config is not a strategy, and run names its problems."""
    config = write_config(tmp_path, _config_text())
    result = cli.invoke(app, ["check", str(config)])
    assert result.exit_code == 2, result.output
    assert "a config file is not a strategy" in result.output, result.output
    assert f"whist-sim run {config}" in result.output.replace("\n", ""), result.output
    assert ":ClassName" not in result.output, result.output


@pytest.mark.parametrize(("body", "fragment"), [
    (_config_text(tournament='trumps = "none"'),
     "'trumps' is a rule of the game: it belongs under [variant]"),
    (_config_text(tournament="workers = 0"), "--workers is an option of the command"),
    (_config_text(variant="deals = 50"), "'deals' belongs under [tournament], not [variant]"),
    (_config_text().replace('use = "random"', 'use = "random"\ntime_limit = 1.0', 1),
     "'time_limit' belongs under [tournament]"),
    (_config_text().replace('use = "heuristic"', 'use = "heuristic"\ncontest_margin = 0.5', 1),
     "params = { contest_margin = ... }"),
])
def test_a_key_in_the_wrong_section_is_told_where_it_belongs(tmp_path, body, fragment):
    """A right key in the wrong table was refused with the wrong table's allowed keys only
    (``variant: unknown key 'deals'; allowed keys: count, match, ...``): a newcomer's probe
    was left to guess where it goes."""
    _assert_names(_refusal(tmp_path, body), fragment)


def test_an_unknown_strategy_names_the_bot_entry_as_a_config_writes_it():
    """"(or process, a bot program ...)" read as an ordinary word (a newcomer's probe): the
    choices name it as the key a config writes, use = "process"."""
    with pytest.raises(StrategyError) as caught:
        build_strategy("no_such_bot", None, "german_whist")
    assert 'or use = "process" with a command for a bot program in any language' in str(
        caught.value)


def test_each_problem_of_a_config_is_its_own_error_line(tmp_path):
    """A config with several problems named them all, but only the first line began
    `error:`: the others read as notes on it, and a script grepping `^error:` counted one."""
    body = _config_text(tournament="workers = 2").replace(
        "deals = 4", "deals = -3")
    result = cli.invoke(app, ["run", str(write_config(tmp_path, body)),
                              "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 2, result.output
    assert all(line.startswith("error: ") for line in lines), result.output
    assert not (tmp_path / "run").exists()
