"""Keep an embedded Ray's listening sockets on a loopback address.

Ray 2.x advertises the node address it is given but opens its gRPC ports on
every interface. whist_sim compiles a tiny ``bind()`` shim (``loopback_bind.c``,
with the machine's C compiler, once, into a cache folder) and preloads it into
the processes of an embedded Ray, so "any address" becomes 127.0.0.2. Where no
compiler is found (or not on Linux) the shim is skipped and Ray's default
binding applies; ``shim_library()`` says which.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).with_name("loopback_bind.c")
HOST_VARIABLE = "WHIST_SIM_BIND_HOST"


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "whist_sim"


def shim_library() -> Path | None:
    """The compiled shim, building it on first use; None where it cannot be built."""
    if not sys.platform.startswith("linux") or not SOURCE.exists():
        return None
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    library = _cache_dir() / f"loopback_bind-{digest}.so"
    if library.exists():
        return library
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    library.parent.mkdir(parents=True, exist_ok=True)
    partial = library.with_suffix(f".{os.getpid()}.tmp")
    result = subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(partial), str(SOURCE), "-ldl"],
        capture_output=True,
    )
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        return None
    os.replace(partial, library)  # atomic: concurrent builders never see half a file
    return library


def loopback_environment(host: str) -> dict[str, str]:
    """Environment variables that make child processes bind to ``host`` (empty if no shim)."""
    library = shim_library()
    if library is None:
        return {}
    preload = os.environ.get("LD_PRELOAD", "")
    if str(library) not in preload.split(":"):
        preload = f"{library}:{preload}" if preload else str(library)
    return {"LD_PRELOAD": preload, HOST_VARIABLE: host}


@contextlib.contextmanager
def processes_bound_to(host: str) -> Iterator[bool]:
    """Within the block, processes started from here bind their "any" sockets to ``host``.

    Yields whether the shim is in use. The environment is restored afterwards.
    """
    changes = loopback_environment(host)
    saved = {key: os.environ.get(key) for key in changes}
    os.environ.update(changes)
    try:
        yield bool(changes)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
