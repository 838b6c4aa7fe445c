"""whist_sim: simulate whist-family card games and compare strategies at scale."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("whist-sim")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
