"""A run's logs: what each entrant printed, capped, and long errors kept whole, once.

Layout, inside the run folder (outside ``data/``, so no table read ever sees it):

- ``logs/output/<entrant>.log``: what the entrant printed through Python, in the
  order tasks were committed; ``logs/output/(process).log``: what the supervised
  processes printed below Python, where no entrant is known. Each file stops at
  ``output_limit`` bytes for the whole run (its last line says so), whatever the
  strategy prints: a strategy printing 8 MB per decision cannot fill a disk.
- ``logs/errors/<digest>.txt``: the full text of an error too long for the
  ``deals.error`` column, whose cut text names this file. Written once per
  distinct text.

The driver alone writes here (``runner``), as tasks are committed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

LOGS_DIR = "logs"
DEFAULT_OUTPUT_LIMIT = 4 << 20
"""Bytes of printed output kept per entrant for a whole run (``tournament.output_limit``)."""

TRUNCATED = (
    "\n[output limit of {limit:,} bytes reached: the rest of this run's output is dropped]\n"
)


class RunLogs:
    """The ``logs/`` folder of one run."""

    def __init__(self, run: Path, output_limit: int = DEFAULT_OUTPUT_LIMIT) -> None:
        self.folder = run / LOGS_DIR
        self.output_limit = output_limit

    def add_output(self, output: Mapping[str, str]) -> None:
        """Append each entrant's printed text, up to the run's limit per entrant."""
        if not output:
            return
        folder = self.folder / "output"
        folder.mkdir(parents=True, exist_ok=True)
        for label, text in output.items():
            path = folder / f"{_file_name(label)}.log"
            used = path.stat().st_size if path.exists() else 0
            if used >= self.output_limit:
                continue
            data = text.encode("utf-8", "replace")
            room = self.output_limit - used
            with open(path, "ab") as handle:
                if len(data) <= room:
                    handle.write(data)
                else:
                    note = TRUNCATED.format(limit=self.output_limit).encode()
                    handle.write(data[:max(0, room - len(note))] + note)

    def add_errors(self, errors: Mapping[str, str]) -> None:
        """Keep each long error's full text once, under the name the table cites."""
        if not errors:
            return
        folder = self.folder / "errors"
        folder.mkdir(parents=True, exist_ok=True)
        for digest, text in errors.items():
            path = folder / f"{digest}.txt"
            if not path.exists():
                partial = path.with_suffix(".partial")
                partial.write_text(text, encoding="utf-8", errors="replace")
                partial.replace(path)


def _file_name(label: str) -> str:
    """An entrant's label as a file name (labels such as ``pimc(worlds=40)`` are kept
    readable; only path separators and NUL are replaced)."""
    return label.replace("/", "_").replace("\\", "_").replace("\0", "_")
