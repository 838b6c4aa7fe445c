"""Without the loopback shim an embedded Ray's ports listen on every interface: whist_sim
says so in one warning line that names the risk, the reason and the fix."""

from __future__ import annotations

import os
import stat

import pytest

from whist_sim.tournament import loopback
from whist_sim.tournament.loopback import (
    HOST_VARIABLE,
    processes_bound_to,
    shim_library,
    shim_problem,
)


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """A cache folder with no shim built yet, so every call decides afresh."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def _one_line(captured: str) -> str:
    lines = [line for line in captured.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


def test_no_compiler_warns_with_the_risk_and_the_fix(empty_cache, monkeypatch, capsys):
    monkeypatch.setattr(loopback.sys, "platform", "linux")
    monkeypatch.setattr(loopback.shutil, "which", lambda name: None)
    assert shim_library() is None
    assert "no C compiler" in shim_problem()
    before = {key: os.environ.get(key) for key in ("LD_PRELOAD", HOST_VARIABLE)}
    with processes_bound_to("127.0.0.2") as bound:
        assert bound is False
    assert {key: os.environ.get(key) for key in ("LD_PRELOAD", HOST_VARIABLE)} == before
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("warning:")
    assert "every network interface" in line and "loopback only" in line  # the risk
    assert "no C compiler (cc or gcc)" in line  # the reason
    assert "apt-get install gcc" in line and "--workers 0" in line  # the fix


def test_a_failing_compiler_is_named_with_its_first_message(empty_cache, monkeypatch, capsys):
    broken = empty_cache / "cc"
    broken.write_text("#!/bin/sh\necho 'cc: fatal error: no input files' >&2\nexit 1\n")
    broken.chmod(broken.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(loopback.sys, "platform", "linux")
    monkeypatch.setattr(loopback.shutil, "which", lambda name: str(broken))
    assert shim_library() is None
    assert shim_problem() == (
        f"{broken} could not build the loopback shim (cc: fatal error: no input files)")
    with processes_bound_to("127.0.0.2"):
        pass
    line = _one_line(capsys.readouterr().err)
    assert "could not build the loopback shim (cc: fatal error: no input files)" in line
    assert not list((empty_cache / "cache").rglob("*.tmp")), "a failed build leaves no partial file"


def test_other_systems_are_told_the_shim_is_linux_only(empty_cache, monkeypatch, capsys):
    monkeypatch.setattr(loopback.sys, "platform", "darwin")
    assert shim_library() is None
    with processes_bound_to("127.0.0.2") as bound:
        assert bound is False
    line = _one_line(capsys.readouterr().err)
    assert "works on Linux only, and this is darwin" in line
    assert "firewall" in line and "--workers 0" in line


NO_COMPILER = loopback.shutil.which("cc") is None and loopback.shutil.which("gcc") is None


@pytest.mark.skipif(not loopback.sys.platform.startswith("linux") or NO_COMPILER,
                    reason="needs Linux and a C compiler to build the shim")
def test_with_the_shim_built_nothing_is_printed(empty_cache, capsys):
    assert shim_library() is not None and shim_problem() is None
    with processes_bound_to("127.0.0.2") as bound:
        assert bound is True
        assert os.environ[HOST_VARIABLE] == "127.0.0.2"
    assert capsys.readouterr().err == ""
