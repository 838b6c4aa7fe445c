"""The ``whist-sim`` command line: thin Typer wrappers over library functions.

Each command parses its arguments, calls the Python function of the same job
(``run_tournament``, ``resume_tournament``, ``build_report``, ``replay_deal``,
``check_strategy``) and turns whist_sim's errors into one red line and exit code 2.
So do file-system errors (a full disk, a read-only one, a file where a folder
should be): they name the path, and a run stopped by one keeps every task it
committed, to be continued with ``--resume``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from whist_sim.cli_numbers import decimal, whole_number
from whist_sim.games.base import WhistSimError
from whist_sim.tournament.entrant_text import ConfigError

app = typer.Typer(
    help="Simulate whist-family card games and compare strategies.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _fail(exc: Exception | str) -> None:
    """Say what failed and exit with status 2. A config's error names each of its problems
    on a line of its own, and each is an ``error:`` line (the second read as a note on the
    first, and a script grepping ``^error:`` counted one)."""
    lines = str(exc).split("\n") if isinstance(exc, ConfigError) else [str(exc)]
    for line in lines:
        typer.secho(f"error: {line}", fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


_OS_REASONS = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENOTDIR: "a file stands where a folder is needed",
    errno.EISDIR: "is a folder, not a file",
}


def _os_error_line(exc: OSError, run: Path | None = None, address: str | None = None,
                   report: bool = False) -> str:
    """One line for a file-system error: the path, what went wrong (with the error's notes:
    the room a run a full disk stopped was estimated to need), and, if a run folder was
    already written, that its committed tasks are kept and how to continue it."""
    path = exc.filename if exc.filename is not None else (run or "")
    reason = _OS_REASONS.get(exc.errno or 0, exc.strerror or str(exc))
    notes = [" ".join(str(note).split()) for note in getattr(exc, "__notes__", ())]
    if notes:
        reason += f" ({'; '.join(notes)})"
    line = f"{path}: {reason}" if path != "" else reason
    if isinstance(exc, FileNotFoundError) and f"{os.sep}.units{os.sep}" in f"{path} {exc}":
        # Polars names the file only in its text: a unit a running run's compaction folded
        line += ("; a file of a run still being written went away while it was read (a"
                 " compaction folds task files into a batch): run the command again")
    if run is not None and (run / "run.json").is_file():
        line += (f"; every task committed so far is kept in {run}: fix that and continue"
                 f" with: {_resume_command(run, address, report)}")
    return line


def _new_folder(stem: str) -> Path:
    """``results/<stem>-<time>``, or with ``-2``, ``-3`` ... where a run started in the same
    second has it (the second run was refused, told to resume the first's folder).

    The folder is made here, empty, so that the name is taken as it is chosen: two runs
    started together (``&``) both found it free, and the second was refused when it came
    to write there (a newcomer's probe). ``_drop_if_unused`` takes it away again if the
    command ends before writing into it."""
    base = Path("results") / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder, n = base, 1
    while True:
        try:
            folder.mkdir(parents=True)
            return folder
        except FileExistsError:
            n += 1
            folder = base.with_name(f"{base.name}-{n}")


def _drop_if_unused(folder: Path | None) -> None:
    """Remove a default folder ``_new_folder`` made if nothing was written into it (the
    command was refused, or stopped, first); a folder with anything in it stays."""
    if folder is not None:
        with contextlib.suppress(OSError):  # not empty (the run's), or gone
            folder.rmdir()


def _name_unfinished_runs(config: Any, where: Path) -> None:
    """Say which runs of ``config`` under ``where`` are unfinished, and how to go on with
    one instead of starting anew (``earlier_runs``)."""
    from whist_sim.tournament.earlier_runs import unfinished_runs_of

    for folder, status in unfinished_runs_of(config, where):
        typer.echo(f"note: {folder} holds an unfinished run of this config (status {status});"
                   " this command starts a new one. To go on with that one instead:"
                   f" whist-sim run --resume {folder}", err=True)


def _check_out(out: Path) -> None:
    """Refuse an ``--out`` that cannot become a run folder before any work starts: a file,
    or a place where nothing may be written (a read-only disk, a folder without write
    permission); otherwise the run would sample and start Ray first."""
    if out.exists() and not out.is_dir():
        _fail(f"--out {out}: is a file, not a folder; choose another --out")
    existing = out
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        _fail(f"--out {out}: {existing} is a file, so no folder can be made under it")
    if not os.access(existing, os.W_OK | os.X_OK):
        _fail(f"--out {out}: cannot write in {existing} (a read-only file system, or no"
              " permission); choose another --out")
    try:  # as root, access() says yes where the file system still refuses (/proc, say)
        os.rmdir(tempfile.mkdtemp(prefix=".whist-sim-out-", dir=existing))
    except OSError as exc:
        _fail(f"--out {out}: no folder can be made in {existing}"
              f" ({exc.strerror or exc}); choose another --out")


def _check_run_options(workers: int | None, address: str | None, ctx: typer.Context
                       ) -> str | None:
    """``--workers`` in range and ``--address`` well formed, before the config is read;
    ``ctx`` says whether the address came from ``RAY_ADDRESS`` (a bad one in the
    environment was reported as a bad ``--address`` nobody had typed: a probe).

    Returns the address to hand the run: ``--address``'s, or None when it came from
    ``RAY_ADDRESS``, which the run then reads itself, so that a cluster it cannot join
    is named as ``RAY_ADDRESS`` there too (it said "--address", a second probe)."""
    from whist_sim.tournament.cluster import check_workers, parse_address

    source = ctx.get_parameter_source("address")
    where = "RAY_ADDRESS" if source is not None and source.name == "ENVIRONMENT" else "--address"
    try:
        check_workers(workers, "--workers")
        if address:
            parse_address(address, where)
    except WhistSimError as exc:
        _fail(exc)
    if address and workers == 0:  # said, not silently dropped
        _warn([f"--workers 0 plays in this process: the Ray address {address} (--address or"
               " RAY_ADDRESS) is not used"])
    return None if where == "RAY_ADDRESS" or workers == 0 else address  # said once, here


ConfigArg = Annotated[
    Path | None, typer.Argument(help="TOML config, e.g. configs/quickstart.toml")
]
OutOpt = Annotated[Path | None, typer.Option(help="run folder (default results/<config>-<time>)")]
ResumeOpt = Annotated[Path | None, typer.Option(help="continue the stopped run in this folder")]
WorkersOpt = Annotated[
    int | None,
    typer.Option(parser=whole_number("a number of workers, 0..100,000"),
                 help="Ray workers (default: all CPUs; small runs of built-ins play in"
                      " process); 0 plays in this process, without Ray"),
]
AddressOpt = Annotated[
    str | None,
    typer.Option(envvar="RAY_ADDRESS", help="join this Ray cluster instead of starting one"),
]
ReportOpt = Annotated[bool, typer.Option("--report/--no-report", help="write the report after")]
ProgressOpt = Annotated[bool, typer.Option(
    "--progress/--no-progress",
    help="show progress and live standings on stderr (a bar on a terminal; into a log,"
         " a plain line every few seconds)")]


@app.command()
def run(
    ctx: typer.Context,
    config: ConfigArg = None,
    out: OutOpt = None,
    resume: ResumeOpt = None,
    workers: WorkersOpt = None,
    address: AddressOpt = None,
    deals: Annotated[int | None, typer.Option(
        parser=whole_number("a number of deal indices"),
        help="override tournament.deals")] = None,
    seed: Annotated[int | None, typer.Option(
        parser=whole_number("a seed, a whole number from 0"),
        help="override tournament.seed")] = None,
    on_error: Annotated[str | None, typer.Option(
        "--on-error", help="override tournament.on_error: forfeit or abort; with --resume,"
        " from this session on (finishes a run a strategy aborted, its failing hands"
        " forfeited)")] = None,
    report: ReportOpt = False,
    progress: ProgressOpt = True,
) -> None:
    """Play a tournament (round robin or gauntlet), in process or on Ray; write Parquet."""
    from whist_sim.tournament.cluster import stop_on_sigterm
    from whist_sim.tournament.config import load_config
    from whist_sim.tournament.runner import resume_tournament, run_tournament

    stop_on_sigterm()  # a scheduler's stop is a Ctrl-C: the run kept, and resumable

    given_address = _check_run_options(workers, address, ctx)
    folder = resume
    made = None
    try:
        if resume is not None:
            if config is not None:
                raise WhistSimError("give either a config or --resume RUN, not both")
            ignored = [name for name, value in (("--deals", deals), ("--seed", seed),
                                                ("--out", out)) if value is not None]
            if ignored:  # they were dropped without a word: the run went on as planned
                raise WhistSimError(
                    f"{', '.join(ignored)} cannot go with --resume: a run resumes with its own"
                    f" plan, seed and folder ({resume}); start a new run to change them")
            summary = resume_tournament(resume, workers=workers, address=given_address,
                                        progress=progress, on_error=on_error)
        else:
            if config is None:
                raise WhistSimError("give a config, e.g. whist-sim run configs/quickstart.toml")
            given = {"tournament.deals": deals, "tournament.seed": seed,
                     "tournament.on_error": on_error}
            overrides = {key: value for key, value in given.items() if value is not None}
            try:
                loaded = load_config(config, overrides)
            except WhistSimError as exc:  # a value of the command line, not of the file
                named = [f"--{key.split('.')[1].replace('_', '-')} {value}"
                         for key, value in overrides.items() if f"{key} = " in str(exc)]
                if not named:
                    raise
                raise WhistSimError(f"{exc} (given on the command line: {', '.join(named)})"
                                    ) from None
            _warn(loaded.warnings)
            if out is None:
                folder = made = _new_folder(config.stem)
                _name_unfinished_runs(loaded, folder.parent)
            else:
                folder = out
            _check_out(folder)
            summary = run_tournament(loaded, folder, workers=workers,
                                     address=given_address, progress=progress)
    except WhistSimError as exc:
        _fail(exc)
        return
    except OSError as exc:
        _fail(_os_error_line(exc, folder, address, report))
        return
    except KeyboardInterrupt:
        _interrupted(folder, address, report)
    except Exception as exc:
        if not type(exc).__module__.startswith("ray."):
            raise
        _cluster_lost(exc, folder, address, report)
    finally:
        _drop_if_unused(made)
    _finish(summary, report, address)


def _sprt_items(text: str) -> list[str]:
    """The key=value items of one ``--sprt``, separated by spaces or commas (a decimal takes
    a point); none is refused: ``--sprt ""``, an empty shell variable as often as not, ran
    silently at the defaults. The items of every ``--sprt`` given are read together (the
    last one alone was read: ``--sprt elo0=0 --sprt elo1=5`` said "elo0 is missing"); a
    key given twice is refused by ``parse_settings``."""
    if ";" in text:  # read as elo0 = "0;elo1=10", "not a finite number" (a newcomer's probe)
        example = " ".join(text.replace(",", " ").replace(";", " ").split())
        raise WhistSimError(f"--sprt {text!r}: separate its settings by spaces or commas, not"
                            f" ';' (e.g. --sprt '{example}')")
    items = text.replace(",", " ").split()
    if not items:
        raise WhistSimError(
            f"--sprt {text!r} gives no settings; give at least one, e.g. --sprt 'elo0=0"
            " elo1=10' (the defaults: elo0=0 elo1=10 alpha=0.05 beta=0.05 batch=20), or leave"
            " --sprt out to play a fixed number of deals")
    return items


UNKNOWN_SPRT_KEY = "duel: unknown key 'sprt."
"""How a duel config's error names an unknown ``--sprt`` key."""


def _as_options(text: str) -> str:
    """A duel config's error in the words of the command line: "duel: sprt.batch = 0"
    was given as ``--sprt "batch=0"``, "duel: variant.count" as ``--variant count=...``;
    each line of an error that names several problems."""
    from whist_sim.tournament.config import OR_A_LIST

    lines = []
    for line in text.split("\n"):
        for said, option in _OPTION_WORDS:
            if line.startswith(said):
                line = option + line[len(said):]
                break
        if line.startswith("--players "):  # one table size, not tournament.players' list
            line = line.replace(OR_A_LIST, "")
        lines.append(line)
    return "\n".join(lines)


DUEL_OPTIONS = {"deals": "--max-deals", "time_limit": "--time-limit", "seed": "--seed",
                "players": "--players", "game": "--game"}
"""The duel's options by the config key each sets: a probe's ``--time-limit 0`` was refused
as "duel: tournament.time_limit = 0.0", a key the command line never showed."""

_OPTION_WORDS = (
    ("duel: sprt.", "--sprt "), ("duel: sprt: ", "--sprt: "), ("duel: variant.", "--variant "),
    ("duel: strategies[0] ", "A "), ("duel: strategies[1] ", "B "),  # as the help names them
    *((f"duel: tournament.{key} = ", f"{option} ") for key, option in DUEL_OPTIONS.items()),
    ("duel: max_deals = ", "--max-deals "),  # duel_config's own check of its argument
    (UNKNOWN_SPRT_KEY, "--sprt: unknown key '"),  # given as --sprt "bacth=3"
)
"""How a duel config's error begins, and the command line's words for it (``_as_options``)."""


def _resume_command(folder: Path | str, address: str | None, report: bool = False) -> str:
    """The command that continues a run, on the cluster it was played on and with the
    report it was asked for: without ``--address`` it resumed on an embedded Ray on the
    driver's machine, without ``--report`` it ended with no report (probes)."""
    return (f"whist-sim run --resume {folder}" + (f" --address {address}" if address else "")
            + (" --report" if report else ""))


def _cluster_lost(exc: Exception, folder: Path | None, address: str | None = None,
                  report: bool = False) -> None:
    """Ray failed under the run (its raylet or the cluster died): one line saying so, what
    is kept and how to go on, instead of Ray's traceback; exit 2. The runner has recorded
    the run as failed; its committed tasks are in the folder, and --resume plays the rest
    once Ray (or the cluster) is back."""
    first = (str(exc).strip().splitlines() or [""])[0][:300]
    where = f" -> {folder}" if folder is not None else ""
    typer.secho(f"error: Ray failed during the run ({type(exc).__name__}: {first}); every task"
                f" committed so far is kept{where}", fg=typer.colors.RED, err=True)
    if folder is not None:
        typer.echo(f"continue with: {_resume_command(folder, address, report)} (once the"
                   " cluster is back)", err=True)
    raise typer.Exit(2)


def _warn(lines: list[str]) -> None:
    """What validation found that does not stop the run (a bot that failed its handshake
    plays on, forfeiting, until benched), one line each on stderr before the run starts."""
    for line in lines:
        typer.echo(f"warning: {line}", err=True)


INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl-C or a scheduler's SIGTERM: 128 + SIGINT, as a
shell reports a command Ctrl-C stopped (and as ``report`` exits), so a script can tell a
stopped run (resumable) from one that failed or was refused (2)."""


def _interrupted(folder: Path | None, address: str | None = None, report: bool = False
                 ) -> None:
    """A Ctrl-C that reached the command: one before the run began, or a second one while
    the runner was stopping after the first (which the runner itself turns into a stopped
    run). Says what is kept and how to go on, and exits 130, as a stopped run does."""
    from whist_sim.store import RunFolder, RunFolderError

    status = None
    if folder is not None:
        try:
            status = RunFolder(Path(folder)).meta().get("status")
        except (RunFolderError, OSError):
            status = None
    if status is None:
        typer.echo("interrupted before the run began: nothing was played", err=True)
    elif status == "complete":
        typer.echo(f"interrupted after the run completed -> {folder}; its report: whist-sim"
                   f" report {folder}")
    else:
        typer.echo(f"interrupted: every task committed so far is kept -> {folder}")
        typer.echo(f"continue with: {_resume_command(folder, address, report)}")
    raise typer.Exit(INTERRUPTED)


def _finish(summary, report: bool, address: str | None = None) -> None:
    """The closing lines of a run: what was played, the standings, the verdict."""
    where = ("in process" if summary.where == "in process" else
             f"on {summary.workers} Ray {'worker' if summary.workers == 1 else 'workers'}")
    if summary.status == "complete" and summary.tasks_run == 0:  # a resume of a finished run
        # read "complete: 0 matches (0 hands) in 0.0 s" (a newcomer's probe)
        typer.echo("complete: nothing was left to play, every task was committed already"
                   f" -> {summary.path}")
    else:
        typer.echo(f"{summary.status}: {summary.matches:,} matches ({summary.hands:,} hands)"
                   f" in {summary.wall_seconds:.1f} s {where} -> {summary.path}")
    for line in summary.standings:
        typer.echo(f"  {line}")
    verdict = summary.verdict_text()
    if verdict:
        typer.echo(f"verdict: {verdict}")
    reasons = summary.forfeit_lines()
    for line in reasons:
        typer.echo(f"forfeits: {line}")
    if reasons:
        typer.echo("  every reason: the deals table's error column (docs/results.md), and the"
                   " report's Forfeits section")
    if summary.status != "complete":
        typer.echo(f"continue with: {_resume_command(summary.path, address, report)}")
        raise typer.Exit(INTERRUPTED)  # a session that returns ends complete or interrupted
    if report:
        _report(summary.path, None)


@app.command()
def duel(
    ctx: typer.Context,
    a: Annotated[str, typer.Argument(help="strategy A, e.g. pimc or 'pimc(worlds=40)'")],
    b: Annotated[str, typer.Argument(help="strategy B, the one A is measured against")],
    game: Annotated[str, typer.Option(help="german_whist, solo_whist, minnesota_whist or"
                                           " knockout_whist")],
    variant: Annotated[list[str] | None, typer.Option(
        help="a rule setting key=value; repeat for more (--variant count=all)")] = None,
    sprt: Annotated[list[str] | None, typer.Option(
        help="stop when a sequential test decides: 'elo0=0 elo1=10 alpha=0.05 beta=0.05'"
             " (Solo, Minnesota: also net0/net1 in points per hand, skewness=-1.5 the pairs'"
             " skewness if known; batch=N pairs per look); settings are separated by spaces"
             " or commas ('elo0=0,elo1=10'), or given in several --sprt; at least one is"
             " needed (the defaults: elo0=0 elo1=10 alpha=0.05 beta=0.05 batch=20)"
    )] = None,
    max_deals: Annotated[int | None, typer.Option(
        parser=whole_number("a number of deal indices"),
        help="deal indices to play at most (default 20,000 with --sprt, else 1,000)")] = None,
    players: Annotated[int | None, typer.Option(
        parser=whole_number("a table size, 2..7"),
        help="table size (Knock-out Whist; default 2, A against B alone)",
        show_default=False)] = None,
    seed: Annotated[int, typer.Option(
        parser=whole_number("a seed, a whole number from 0"), help="root seed")] = 0,
    time_limit: Annotated[float, typer.Option(
        parser=decimal("seconds per decision, e.g. 0.5"),
        help="seconds per decision")] = 10.0,
    out: Annotated[Path | None, typer.Option(
        help="run folder (default results/duel-<time>)")] = None,
    workers: WorkersOpt = None,
    address: AddressOpt = None,
    report: ReportOpt = False,
    progress: ProgressOpt = True,
) -> None:
    """Is A stronger than B? Play duplicate pairs until a test decides, and say so."""
    from whist_sim.tournament.cluster import stop_on_sigterm
    from whist_sim.tournament.duel import duel_config, parse_settings, run_duel

    stop_on_sigterm()
    given_address = _check_run_options(workers, address, ctx)
    folder = out
    made = None
    try:
        if out is None:
            folder = made = _new_folder("duel")
        sprt_table = None if sprt is None else parse_settings(
            [item for text in sprt for item in _sprt_items(text)], "--sprt")
        try:
            config = duel_config(a, b, game, variant=parse_settings(variant or [], game=game),
                                 sprt=sprt_table, max_deals=max_deals, players=players,
                                 seed=seed, time_limit=time_limit)
        except ConfigError as exc:  # each problem still its own error line (``_fail``)
            raise ConfigError(_as_options(str(exc))) from None
        except WhistSimError as exc:
            raise WhistSimError(_as_options(str(exc))) from None
        _warn([_as_options(line) for line in config.warnings])
        _check_out(folder)
        summary = run_duel(config, folder, workers=workers, address=given_address,
                           progress=progress)
    except WhistSimError as exc:
        _fail(exc)
        return
    except OSError as exc:
        _fail(_os_error_line(exc, folder, address, report))
        return
    except KeyboardInterrupt:
        _interrupted(folder, address, report)
    except Exception as exc:
        if not type(exc).__module__.startswith("ray."):
            raise
        _cluster_lost(exc, folder, address, report)
    finally:
        _drop_if_unused(made)
    _finish(summary, report, address)


@app.command("report")
def report_command(
    run: Annotated[Path, typer.Argument(help="run folder")],
    out: Annotated[Path | None, typer.Option(help="report folder (default RUN/report)")] = None,
) -> None:
    """Write report.md and report.html with plots for a run."""
    _report(run, out)


def _report(run: Path, out: Path | None) -> None:
    from whist_sim.reports.build import build_report

    if out is not None and out.exists() and not out.is_dir():  # "afile: File exists"
        _fail(f"--out {out}: is a file, not a folder; the report is a folder (report.md,"
              " report.html, figures and tables): choose another --out")
        return
    target = out if out is not None else run / "report"
    try:
        paths = build_report(run, out)
    except WhistSimError as exc:
        _fail(exc)
        return
    except OSError as exc:  # a full disk names no file: the report's folder then
        _fail(_os_error_line(exc) if exc.filename is not None
              else f"{target}: {_os_error_line(exc)}")
        return
    except KeyboardInterrupt:
        typer.secho(f"interrupted: the report was not written ({target} keeps any earlier"
                    f" one whole); write it with: whist-sim report {run}"
                    + (f" --out {out}" if out is not None else ""), err=True)
        raise typer.Exit(INTERRUPTED) from None
    typer.echo(f"report: {paths.markdown}\n        {paths.html}")


@app.command()
def replay(
    run: Annotated[Path, typer.Argument(help="run folder")],
    deal: Annotated[str, typer.Argument(help="deal key (pairing-deal-rotation-hand): 0-12-1-0")],
) -> None:
    """Print a recorded deal trick by trick."""
    from whist_sim.replay import replay_deal

    try:
        typer.echo(replay_deal(run, deal).text)
    except WhistSimError as exc:
        _fail(exc)
    except OSError as exc:
        _fail(_os_error_line(exc))


deals_app = typer.Typer(help="Deal sets: fixed deals to play instead of seeded ones.",
                        no_args_is_help=True)
app.add_typer(deals_app, name="deals")


@deals_app.command("export")
def deals_export(
    run: Annotated[Path, typer.Argument(help="run folder")],
    out: Annotated[Path, typer.Option(help="the deal set to write (Parquet)")],
    players: Annotated[int | None, typer.Option(
        parser=whole_number("a table size, 2..7"),
        help="Knock-out Whist runs at several table sizes: the size to export")] = None,
    partial: Annotated[bool, typer.Option(
        "--partial", help="export the deals of a run that did not complete")] = False,
) -> None:
    """Write a run's deals as a deal set, for tournament.deals_file."""
    from whist_sim.deal_sets import export_deal_set

    try:
        path = export_deal_set(run, out, players=players, partial=partial)
    except WhistSimError as exc:
        _fail(exc)
        return
    except OSError as exc:
        _fail(_os_error_line(exc))
        return
    typer.echo(f"deal set: {path}")


@app.command()
def strategies() -> None:
    """List the registered strategies and the games they play."""
    from whist_sim.strategy import available_strategies, claimed_games, resolve_strategy

    found = sorted(available_strategies().items())
    width = max((len(name) for name, _ in found), default=0)
    for name, target in found:
        try:
            games = ", ".join(sorted(claimed_games(resolve_strategy(name), name) or ()))
        except WhistSimError as exc:  # a name two distributions register, a broken plug-in
            typer.echo(f"{name:{width}s} {target}  [cannot be used: {exc}]")
            continue
        typer.echo(f"{name:{width}s} {target}  [{games}]")


@app.command()
def check(
    strategy: Annotated[str, typer.Argument(
        help="entry-point name or package.module:Class, with parameters as for duel"
             " (policy(callable='pkg.mod:act')), or process (a bot: give --command)")],
    deals: Annotated[int, typer.Option(parser=whole_number("a number of deals"),
                                       help="deals per game and variant")] = 20,
    command: Annotated[str | None, typer.Option(
        help="process: the bot's command line, e.g. './simple_bot --fast'")] = None,
    isolate: Annotated[bool, typer.Option(
        "--isolate/--in-process", help="check the strategy in a process of its own, behind"
        " the bot protocol, as isolate = true plays it")] = False,
    game: Annotated[list[str] | None, typer.Option(
        help="check only this game (repeat for several; default: every game it claims)",
        show_default=False)] = None,
    time_limit: Annotated[float | None, typer.Option(
        parser=decimal("seconds per decision, e.g. 0.5"),
        help="seconds each decision may take, as the tournament's time_limit (default: 10 s,"
             " a tournament's default, so a strategy that loops fails as too slow; give"
             " more for a strategy meant for a longer limit)", show_default=False)] = None,
    players: Annotated[int | None, typer.Option(
        parser=whole_number("a table size"),
        help="check Knock-out Whist at this table size only (default: 2, 4 and 7), for a"
             " policy trained at one; the other games play at their own size",
        show_default=False)] = None,
) -> None:
    """Check a strategy plug-in or a bot against every game it claims to support."""
    from whist_sim.checking import (
        CHECK_DEALS_ALLOWED,
        CHECK_TIME_LIMIT,
        MAX_CHECK_DEALS,
        StrategyCheckError,
        check_entrant,
    )
    from whist_sim.tournament.config import TIME_LIMITS, number_in

    _refuse_a_run_folder(strategy)
    # The option named as typed, as duel's: "time_limit = -1.0 ... or None for no limit"
    # named the Python argument and a value the command line cannot give (a probe).
    if not 1 <= deals <= MAX_CHECK_DEALS:
        _fail(f"--deals {deals}: not allowed; {CHECK_DEALS_ALLOWED}")
    if time_limit is not None:
        try:
            number_in(time_limit, *TIME_LIMITS, more=" (seconds per decision; default 10)")
        except ValueError as exc:
            _fail(f"--time-limit {time_limit!r}: {exc}")
    try:
        report = check_entrant(strategy, deals=deals, command=command, isolate=isolate,
                               games=game or None, players=players,
                               time_limit=CHECK_TIME_LIMIT if time_limit is None else time_limit)
    except StrategyCheckError as exc:  # it ran and broke a rule: the verdict, then why
        typer.secho(f"failed: {strategy} does not pass the check: {exc}", fg=typer.colors.RED,
                    err=True)
        raise typer.Exit(1) from None
    except WhistSimError as exc:
        _fail(exc)
        return
    typer.echo(report.verdict)
    if report.call_lines:
        typer.echo("what it chose where a call was among its choices:")
        for line in report.call_lines:
            typer.echo(f"  {line}")
    for note in report.notes:
        typer.secho(f"note: {note}", fg=typer.colors.YELLOW)


def _refuse_a_run_folder(strategy: str) -> None:
    """``whist-sim check RUN`` said "unknown strategy 'RUN'" and listed the strategies,
    leaving a reader who wanted a run's files checked with no way on (a probe): a run
    folder is named as one, with the commands that check its files."""
    if (Path(strategy) / "run.json").is_file():
        _fail(f"{strategy}: is a run folder, and whist-sim check checks a strategy (an"
              " entry-point name, package.module:Class or process); a run's files are"
              f" checked against its manifest by whist-sim report {strategy}, whist-sim"
              f" replay {strategy} DEAL_KEY, whist-sim run --resume {strategy} (which"
              " repairs what it can), or whist_sim.store.RunFolder.open(RUN) in Python")


def _in_process_asked(argv: list[str]) -> bool:
    """``--workers 0``: no Ray will start, so the driver needs no bind shim."""
    pairs = zip(argv, [*argv[1:], ""], strict=True)
    return any(a == "--workers=0" or (a == "--workers" and b == "0") for a, b in pairs)


def main() -> None:
    """The ``whist-sim`` console script.

    An embedded run restarts itself once with the loopback bind shim preloaded
    (see ``whist_sim.tournament.loopback``), so that the driver's own Ray ports
    stay on 127.0.0.2 like those of the processes it starts. Before that, a different
    copy of whist_sim or of its strategies in the folder it runs from stops it
    (``other_copies``): the processes it starts would import that copy.
    """
    from whist_sim.tournament.cluster import EMBEDDED_HOST
    from whist_sim.tournament.loopback import HOST_VARIABLE, loopback_environment

    argv = sys.argv[1:]
    if argv and argv != ["--help"]:  # before the restart below, which would import that copy
        from whist_sim.other_copies import other_copies

        copies = other_copies(Path.cwd())
        for line in copies:
            typer.secho(f"error: {line}", fg=typer.colors.RED, err=True)
        if copies:
            raise SystemExit(2)
    embedded = (
        argv[:1] in (["run"], ["duel"])
        and "--address" not in argv
        and not os.environ.get("RAY_ADDRESS")
        and not _in_process_asked(argv)
    )
    if embedded and HOST_VARIABLE not in os.environ:
        extra = loopback_environment(EMBEDDED_HOST)
        if extra:
            command = [sys.executable, "-m", "whist_sim", *argv]
            os.execve(sys.executable, command, {**os.environ, **extra})
    # plug-ins (module:Class, policy callables) are found in the current folder as under
    # `python -m whist_sim`, which the embedded run above becomes, and as Ray's workers
    # find them: every command alike, not only the ones that restart
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    app(prog_name="whist-sim")
