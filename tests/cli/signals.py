"""Helpers for the interrupt tests: start a real command, wait until it works, signal it, and check that it
and every process it started are gone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _stat(pid: int) -> tuple[str, int] | None:
    """``(state, ppid)`` of a live process, ``None`` when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (children, grandchildren, ...), from ``/proc``."""
    parent: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = _stat(int(name))
            if st is not None and st[0] != "Z":
                parent[int(name)] = st[1]
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier and p not in found}
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    """The processes of ``pids`` that still run (a zombie waiting for its reaper counts as gone)."""
    return {p for p in pids if (st := _stat(p)) is not None and st[0] != "Z"}


class Command:
    """A command run as ``python -m ...`` in the checkout, in its own session (its own process group), with
    stdout and stderr collected by reader threads as they come."""

    def __init__(self, args: list[str], env: dict | None = None):
        full_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
        self.proc = subprocess.Popen([sys.executable, "-m", *args], cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=full_env, start_new_session=True)
        self.out: list[str] = []
        self.err: list[str] = []
        self._threads = [threading.Thread(target=self._read, args=(s, buf), daemon=True)
                         for s, buf in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for t in self._threads:
            t.start()

    @staticmethod
    def _read(stream, buf: list[str]) -> None:
        for line in stream:
            buf.append(line)

    def wait_for(self, ready, timeout: float = 180.0) -> None:
        """Poll until ``ready(self)`` is true; fail if the command ends first or ``timeout`` passes."""
        end = time.monotonic() + timeout
        while not ready(self):
            if self.proc.poll() is not None:
                raise AssertionError(f"the command ended early ({self.proc.returncode}):\n{self.text()}")
            if time.monotonic() > end:
                self.kill()
                raise AssertionError(f"not ready after {timeout} s:\n{self.text()}")
            time.sleep(0.1)

    def signal(self, sig: int, group: bool = False, timeout: float = 90.0) -> tuple[int, set[int]]:
        """Send ``sig`` (to the whole process group, as a terminal's Ctrl-C does, with ``group``); return the
        exit status and the processes that ran below the command just before."""
        below = descendants(self.proc.pid)
        if group:
            os.killpg(self.proc.pid, sig)
        else:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"still running {timeout} s after {signal.Signals(sig).name}:\n{self.text()}") from None
        for t in self._threads:
            t.join(timeout=10)
        return code, below

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def stdout(self) -> str:
        return "".join(self.out)

    def stderr(self) -> str:
        return "".join(self.err)

    def text(self) -> str:
        return f"--- stdout\n{self.stdout()[-3000:]}\n--- stderr\n{self.stderr()[-3000:]}"


def wait_gone(pids: set[int], timeout: float = 30.0) -> set[int]:
    """Wait until none of ``pids`` runs; return those still running after ``timeout``."""
    end = time.monotonic() + timeout
    while alive(pids) and time.monotonic() < end:
        time.sleep(0.2)
    return alive(pids)
