"""Where tasks run: an embedded Ray on loopback, or an existing cluster.

The embedded Ray advertises 127.0.0.2 rather than 127.0.0.1, because Ray
rewrites 127.0.0.1 to the host's network address, and it keeps Ray's token
authentication on (the default for local clusters since Ray 2.5x). Ray's core
processes open their gRPC ports on every interface whatever address they
advertise (Ray offers no bind setting), so the embedded Ray is started with a
small bind shim preloaded (``loopback.py``) that keeps those ports on 127.0.0.2.
docs/cluster.md says how to run on a real cluster.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import ray

from whist_sim.tournament.loopback import processes_bound_to

EMBEDDED_HOST = "127.0.0.2"
"""Ray rewrites 127.0.0.1 to the host's address; another loopback address is kept."""


@contextlib.contextmanager
def ray_session(address: str | None, workers: int | None) -> Iterator[int]:
    """Join ``address`` (or RAY_ADDRESS), or start Ray embedded on loopback; yield CPU slots.

    If Ray is already initialised in this process (a notebook, a test session),
    that Ray is used and left running.
    """
    address = address or os.environ.get("RAY_ADDRESS") or None
    started_here = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False, logging_level="ERROR")
        else:
            # Ray's processes inherit the environment when ray.init starts them (and the
            # raylet passes it on to every worker), so the bind shim covers them all.
            with processes_bound_to(EMBEDDED_HOST):
                ray.init(
                    _node_ip_address=EMBEDDED_HOST,
                    num_cpus=workers or os.cpu_count() or 1,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level="ERROR",
                    runtime_env={"env_vars": {"PYTHONPATH": _python_path()}},
                )
        started_here = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield min(cpus, workers) if workers else cpus
    finally:
        if started_here:
            ray.shutdown()


def _python_path() -> str:
    """Let workers import strategies given as ``module:Class`` from the working directory."""
    parts = [os.getcwd(), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return os.pathsep.join(parts)
