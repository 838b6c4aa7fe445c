"""Where tasks run: an embedded Ray on loopback, or an existing cluster.

The embedded Ray advertises 127.0.0.2 rather than 127.0.0.1, because Ray
rewrites 127.0.0.1 to the host's network address, and it keeps Ray's token
authentication on (the default for local clusters since Ray 2.5x). Ray's core
processes open their gRPC ports on every interface whatever address they
advertise (Ray offers no bind setting), so the embedded Ray is started with a
small bind shim preloaded (``loopback.py``) that keeps those ports on 127.0.0.2.
docs/cluster.md says how to run on a real cluster.

Joining a cluster, the address is checked before Ray is asked: it must be
``HOST:PORT`` (``parse_address``), and something at that port must answer as a
Ray head's GCS does, a gRPC (HTTP/2) server (``probe_gcs``). Without these checks
a typo or a stopped cluster left ``ray.init`` retrying for minutes with nothing
but Ray's C++ warnings on the console.

Ray is imported only when a session starts, so checking an address (the command
line does it before reading the config) costs nothing.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import signal
import socket
import tempfile
import threading
from collections.abc import Iterator
from typing import Any

from whist_sim.games.base import WhistSimError
from whist_sim.tournament.loopback import processes_bound_to

EMBEDDED_HOST = "127.0.0.2"
"""Ray rewrites 127.0.0.1 to the host's address; another loopback address is kept."""

ACCEPTED_ADDRESSES = (
    "HOST:PORT of the cluster's head node, the GCS port given to `ray start --head --port`"
    " (6379 by default): e.g. 10.0.0.5:6379, head.example.org:6379 or [fd00::5]:6379"
)
"""What ``--address`` and ``RAY_ADDRESS`` accept, for messages."""

SCHEMES = {
    "ray": "the Ray client",
    "http": "Ray's dashboard and job submission",
    "https": "Ray's dashboard and job submission",
}
"""What an address with a scheme points at, as a refusal names it: ``http://`` is not the
Ray client, which an earlier message said it was (a probe)."""

PROBE_SECONDS = 5.0
"""How long the head's GCS port has to accept a connection, and then to answer."""

JOIN_ATTEMPTS = "1"
"""Ray's attempts at reaching the GCS when joining (``RAY_gcs_server_port_wait_time_s``;
Ray's default is 20, about a second apart, each waiting for the GCS). The probe has
already found it listening, so one attempt is enough and a wrong port fails in
seconds rather than minutes. A ``RAY_gcs_server_port_wait_time_s`` that is set wins."""

_WAIT_VARIABLE = "RAY_gcs_server_port_wait_time_s"

_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
"""The HTTP/2 client preface and an empty SETTINGS frame: a gRPC server answers with a
SETTINGS frame of its own (frame type 4, the fourth byte of its 9-byte header)."""

_HOST_NAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?"
)


class ClusterError(WhistSimError):
    """A Ray address that is malformed, or where no Ray cluster answers; a number of
    workers out of range."""


MAX_WORKERS = 100_000
"""The most workers a run may ask for: far more CPUs than any cluster has; the runner keeps
two tasks per worker in flight, so an absurd count would submit the whole plan at once."""


def check_workers(workers: int | None, where: str = "workers =") -> None:
    """A ClusterError naming ``where`` unless ``workers`` is None or 0..``MAX_WORKERS``
    (0 plays in the calling process, without Ray)."""
    if workers is None:
        return
    if isinstance(workers, bool) or not isinstance(workers, int) or not (
            0 <= workers <= MAX_WORKERS):
        unset = "leave it out" if where.startswith("--") else "None"
        raise ClusterError(
            f"{where} {workers!r}: allowed values: whole numbers 0..{MAX_WORKERS:,}"
            f" (0 plays in this process, without Ray), or {unset} to decide by the run's size"
        )


def parse_address(address: str, where: str = "--address") -> tuple[str, int]:
    """(host, port) of a ``HOST:PORT`` address, or a ClusterError naming ``where``, the
    address and the accepted forms.

    Ray's other forms are refused: ``ray://`` (the Ray client, which this runner does
    not use: tasks and their Arrow results go through the driver's own Ray session),
    and ``auto``/``local`` (which find or start a cluster on this machine, where an
    embedded run, without ``--address``, does the same with loopback-only ports).
    """
    text = address.strip()
    if "://" in text:
        scheme = text.split("://", 1)[0]
        raise ClusterError(
            f"{where} {address!r}: {scheme}:// addresses"
            f" ({SCHEMES.get(scheme.lower(), 'a URL')}) are not supported;"
            f" accepted: {ACCEPTED_ADDRESSES}"
        )
    if text.lower() in ("auto", "local"):  # Ray's own words for "find or start one here"
        raise ClusterError(
            f"{where} {address!r} is not an address; for a Ray of this run's own on this"
            f" machine leave the address out (an embedded run); accepted: {ACCEPTED_ADDRESSES}")
    bracketed = re.fullmatch(r"\[([^\]]+)\]:([0-9]{1,5})", text)
    plain = re.fullmatch(r"([^:\[\]\s/]+):([0-9]{1,5})", text)
    found = bracketed or plain
    if found is None:
        raise ClusterError(f"{where} {address!r} is not an address; accepted: {ACCEPTED_ADDRESSES}")
    host, port = found[1], int(found[2])
    if not _valid_host(host, ipv6=bracketed is not None):
        raise ClusterError(
            f"{where} {address!r}: {host!r} is not a host name or IP address;"
            f" accepted: {ACCEPTED_ADDRESSES}"
        )
    if not 1 <= port <= 65535:
        raise ClusterError(
            f"{where} {address!r}: port {port} is out of range (1..65535);"
            f" accepted: {ACCEPTED_ADDRESSES}"
        )
    return host, port


def _valid_host(host: str, ipv6: bool) -> bool:
    if ipv6:
        try:
            return ipaddress.ip_address(host).version == 6
        except ValueError:
            return False
    if re.fullmatch(r"[0-9.]+", host):  # looks numeric: must be a whole IPv4 address
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return False
        return True
    return _HOST_NAME.fullmatch(host) is not None


def probe_gcs(address: str, where: str = "--address", timeout: float = PROBE_SECONDS) -> None:
    """Raise ClusterError unless something at ``address`` accepts a connection within
    ``timeout`` seconds and answers as a gRPC server (a Ray head's GCS) does.

    With Ray's TLS on (``RAY_USE_TLS``) the port speaks TLS first, so only the
    connection is checked.
    """
    host, port = parse_address(address, where)
    tls = os.environ.get("RAY_USE_TLS", "").lower() in ("1", "true")
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            if tls:
                return
            conn.settimeout(timeout)
            conn.sendall(_HTTP2_PREFACE)
            answer = _read_up_to(conn, 9)
    except socket.gaierror as exc:
        raise ClusterError(f"{where} {address}: cannot resolve {host!r} ({exc.strerror})") from None
    except ConnectionRefusedError:
        raise ClusterError(
            f"{where} {address}: no Ray cluster there (connection refused: nothing listens on"
            f" port {port}); start one with `ray start --head --port={port}` or check the"
            " address"
        ) from None
    except TimeoutError:
        raise ClusterError(
            f"{where} {address}: no answer within {timeout:g} s; is the head node up, and"
            " is the port open to this machine?"
        ) from None
    except OSError as exc:
        raise ClusterError(f"{where} {address}: cannot connect ({exc.strerror or exc})") from None
    if len(answer) < 9 or answer[3] != 4:
        raise ClusterError(
            f"{where} {address}: something listens there but it is not a Ray cluster's GCS"
            " (no gRPC answer); give the port of `ray start --head --port` (6379 by default)"
        )


def _read_up_to(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


@contextlib.contextmanager
def ray_session(address: str | None, workers: int | None) -> Iterator[int]:
    """Join ``address`` (or RAY_ADDRESS), or start Ray embedded on loopback; yield CPU slots.

    If Ray is already initialised in this process (a notebook, a test session),
    that Ray is used and left running.
    """
    import ray

    where = "--address" if address else "RAY_ADDRESS"
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address:
        parse_address(address, where)
    started_here = False
    on_main_thread = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGTERM) if on_main_thread else None
    if not ray.is_initialized():
        if address:
            _join(address, where)
        else:
            _start_embedded(workers)
        started_here = True
    stop_on_sigterm()  # after ray.init, whose own handler it replaces
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield min(cpus, workers) if workers else cpus
    finally:
        if on_main_thread and started_here:
            # the run is stopping already: a second SIGTERM waits for Ray's shutdown,
            # which ends Ray's processes (it went to Ray's handler, which exited at once)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        try:
            if started_here:
                ray.shutdown()
        finally:
            if on_main_thread:
                signal.signal(signal.SIGTERM, before)


def _start_embedded(workers: int | None) -> None:
    """``ray.init`` of a Ray of this run's own, bound to ``EMBEDDED_HOST``; a failure to
    start (its temporary folder's disk full, say) is one line, not Ray's traceback."""
    import ray

    already = set(_descendants(os.getpid()))  # not this start's: never ended here
    try:
        # Ray's processes inherit the environment when ray.init starts them (and the
        # raylet passes it on to every worker), so the bind shim covers them all.
        with processes_bound_to(EMBEDDED_HOST):
            ray.init(
                # "local": a new Ray of this run's own, even where `ray start` left a
                # cluster running on this machine, which Ray would otherwise join
                # (and refuse, as a join takes no num_cpus: a traceback)
                address="local",
                _node_ip_address=EMBEDDED_HOST,
                num_cpus=workers or os.cpu_count() or 1,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="ERROR",
                runtime_env={"env_vars": {"PYTHONPATH": _python_path()}},
            )
    except SystemExit as exc:
        # Ray's own SIGTERM handler, in place while ray.init runs, exits with the signal's
        # number: a stop before the run began, as Ctrl-C then is
        with contextlib.suppress(Exception):
            ray.shutdown()
        _end_rays_processes(already)
        if exc.code in (signal.SIGTERM, signal.SIGINT):
            raise KeyboardInterrupt from None
        raise
    except KeyboardInterrupt:
        with contextlib.suppress(Exception):
            ray.shutdown()
        _end_rays_processes(already)
        raise
    except Exception as exc:
        with contextlib.suppress(Exception):
            ray.shutdown()
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        folder = os.environ.get("RAY_TMPDIR") or tempfile.gettempdir()
        raise ClusterError(
            f"Ray could not start on {EMBEDDED_HOST} ({first}); check the room left on the"
            f" disk of Ray's temporary folder ({folder}/ray) and the file size limit"
            " (ulimit -f), or play in this process with --workers 0") from None


def _end_rays_processes(already: set[int]) -> None:
    """End the Ray processes this process started, when ``ray.init`` was stopped midway:
    ``ray.shutdown`` knows only a node that finished starting, and Ray's agents outlived
    the command by a minute or more (an operator's probe, Ctrl-C during the start). Only
    this process's own descendants whose command is Ray's and that were not there before
    the start (``already``: a Ray of a test session, say) are ended (Linux: read from
    /proc; elsewhere nothing is)."""
    for pid in _descendants(os.getpid()):
        if pid in already:
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ")
            if b"ray" in command:
                os.kill(pid, signal.SIGKILL)


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid``, children first, as /proc lists them."""
    found, waiting = [], [pid]
    while waiting:
        parent = waiting.pop()
        with contextlib.suppress(OSError, ValueError):
            for thread in os.listdir(f"/proc/{parent}/task"):
                with open(f"/proc/{parent}/task/{thread}/children") as handle:
                    children = [int(word) for word in handle.read().split()]
                found += children
                waiting += children
    return found


def _terminated(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def stop_on_sigterm() -> Any:
    """Make SIGTERM (what a scheduler, systemd or ``docker stop`` sends) stop a run as Ctrl-C
    does: every committed task kept, the run recorded ``interrupted``, the resume line
    printed. Ray's own handler for it printed a crash report and left the run
    ``running``. Returns the handler it replaced (None off the main thread, where
    signals cannot be handled, and nothing is changed)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _terminated)


def _join(address: str, where: str) -> None:
    """``ray.init`` on an existing cluster, once the probe has found its GCS answering;
    Ray's own failures (authentication, versions) become one line too."""
    import ray

    probe_gcs(address, where)
    previous = os.environ.get(_WAIT_VARIABLE)
    os.environ.setdefault(_WAIT_VARIABLE, JOIN_ATTEMPTS)
    try:
        ray.init(address=address, log_to_driver=False, logging_level="ERROR")
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        hint = ("" if os.environ.get("RAY_AUTH_MODE") == "token" else
                "; a cluster started with RAY_AUTH_MODE=token refuses a driver without it:"
                " set RAY_AUTH_MODE=token here too, with the head's ~/.ray/auth_token"
                " (docs/cluster.md)")
        raise ClusterError(
            f"{where} {address}: cannot join the Ray cluster ({first}){hint}") from None
    finally:
        if previous is None:
            os.environ.pop(_WAIT_VARIABLE, None)


def _python_path() -> str:
    """Let workers import strategies given as ``module:Class`` from the working directory."""
    parts = [os.getcwd(), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return os.pathsep.join(parts)
