"""Shared fixtures: one embedded Ray a test process, on a loopback address.

The suite runs in one process a core (pytest-xdist, pyproject.toml): each process that
runs a test on Ray starts a Ray of its own, on 127.0.0.2 like every embedded run; Ray
gives each its own ports."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def ray_cluster():
    """An embedded Ray (127.0.0.2, 2 CPUs) shared by this process's tournament tests."""
    from whist_sim.tournament.cluster import ray_session

    os.chdir(ROOT)  # workers import tests.plugins from the repository root
    with ray_session(None, 2) as slots:
        yield slots


def pytest_collection_modifyitems(config, items):
    """A test on the embedded Ray is ``slow``: starting Ray alone takes 10-30 s on 2 cores,
    so ``pytest -m "not slow"`` (the quick subset, README) never starts it."""
    for item in items:
        if "ray_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
