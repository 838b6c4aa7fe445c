"""Keep an embedded Ray's listening sockets on a loopback address.

Ray 2.x advertises the node address it is given but opens its gRPC ports on
every interface. whist_sim compiles a tiny ``bind()`` shim (``loopback_bind.c``,
with the machine's C compiler, once, into a cache folder) and preloads it into
the processes of an embedded Ray, so "any address" becomes 127.0.0.2. Where no
compiler is found, the compiler fails, or the system is not Linux, the shim is
skipped and Ray's default binding applies (every interface, token authentication
still on): ``shim_library()`` says which, ``shim_problem()`` why, and an embedded
Ray started without the shim says so in one warning line on stderr, naming the
risk and the fix (``processes_bound_to``).
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
    return _build_shim()[0]


def shim_problem() -> str | None:
    """Why the shim cannot be used here (None when it can), in words for a warning."""
    return _build_shim()[1]


def _build_shim() -> tuple[Path | None, str | None]:
    """The shim's path, or None and the reason it could not be built."""
    if not sys.platform.startswith("linux"):
        return None, f"the loopback shim works on Linux only, and this is {sys.platform}"
    if not SOURCE.exists():
        return None, f"the shim's source {SOURCE} is missing from the installation"
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    library = _cache_dir() / f"loopback_bind-{digest}.so"
    if library.exists():
        return library, None
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None, "no C compiler (cc or gcc) was found to build the loopback shim"
    try:
        library.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return None, f"the shim's cache folder {library.parent} cannot be made ({exc.strerror})"
    partial = library.with_suffix(f".{os.getpid()}.tmp")
    result = subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(partial), str(SOURCE), "-ldl"],
        capture_output=True, text=True,
    )
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        first = (result.stderr.strip().splitlines() or ["no message"])[0]
        return None, f"{compiler} could not build the loopback shim ({first})"
    os.replace(partial, library)  # atomic: concurrent builders never see half a file
    return library, None


def unbound_warning(problem: str) -> str:
    """The one warning line for an embedded Ray started without the shim: the risk and
    the fix."""
    if sys.platform.startswith("linux"):
        fix = ("install a C compiler (Debian/Ubuntu: sudo apt-get install gcc) and run again,"
               " or play in this process with --workers 0")
    else:
        fix = "keep this machine behind a firewall, or play in this process with --workers 0"
    return (f"warning: the embedded Ray's ports listen on every network interface, not on"
            f" loopback only (Ray's token authentication still applies): {problem}; to fix"
            f" it, {fix}")


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

    Yields whether the shim is in use; without it, prints ``unbound_warning`` (one line,
    stderr), since the ports then listen on every interface. The environment is restored
    afterwards.
    """
    changes = loopback_environment(host)
    if not changes:
        print(unbound_warning(shim_problem() or "the loopback shim is not available"),
              file=sys.stderr)
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
