"""Every process a command starts ends with it: interrupts (SIGINT, SIGTERM) and the run's process tree.

:func:`guard` wraps one command (``run``, ``audit``, ``check``, ``book``):

- this process becomes a *child subreaper* (Linux ``prctl``), so that a worker orphaned by its parent (a joblib/loky
  worker of a chapter's kernel that ended first, a Dask worker of a closed nanny) is re-parented to it instead of to
  init, and stays in its process tree;
- SIGINT and SIGTERM raise :class:`Interrupted` (a ``BaseException``: no ``except Exception`` of a library swallows
  it) once; a second signal during the clean-up is ignored;
- when the command ends — normally, by an error or by a signal — every process still in its tree is ended
  (:func:`end_descendants`: SIGTERM, then SIGKILL after a grace period; the process groups they led too);
- an interrupt ends the command with one line, ``interrupted; nothing written to …`` (the target the command set
  with :func:`set_target`), and the shell's exit code ``128 + signal`` (130 for SIGINT, 143 for SIGTERM).

:func:`critical` defers the signals while a few renames must happen together (``run``'s swap of the results).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["Interrupted", "critical", "end_descendants", "guard", "set_target"]

_PR_SET_CHILD_SUBREAPER = 36
_state: dict[str, Any] = {"target": None, "signum": None, "stderr": None, "keep": frozenset()}


class Interrupted(BaseException):  # a signal, as KeyboardInterrupt
    """Raised by :func:`guard`'s handlers on SIGINT/SIGTERM; ``signum`` is the signal."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def set_target(path: Any) -> None:
    """What the interrupted command would have written (named by the ``interrupted; nothing written to`` line)."""
    _state["target"] = path


def _become_subreaper(on: bool = True) -> None:
    if not sys.platform.startswith("linux"):  # pragma: no cover
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no prctl: orphans go to init
        pass


def _tree() -> list:
    import psutil

    try:
        return psutil.Process().children(recursive=True)
    except psutil.Error:  # pragma: no cover
        return []


def end_descendants(grace: float = 3.0, keep: frozenset[int] | None = None) -> int:
    """End every process in this process's tree but ``keep`` (default: those there when :func:`guard` started):
    SIGTERM to each (and to the process groups they lead, other than this one's), SIGKILL to those alive after
    ``grace`` seconds; reap them. Returns how many there were."""
    import psutil

    keep = _state.get("keep", frozenset()) if keep is None else keep
    procs = [p for p in _tree() if p.pid not in keep]
    if not procs:
        return 0
    own_group = os.getpgrp()
    groups = set()
    for p in procs:
        with contextlib.suppress(psutil.Error, OSError):
            if os.getpgid(p.pid) == p.pid and p.pid != own_group:
                groups.add(p.pid)
    for p in procs:
        with contextlib.suppress(psutil.Error):
            p.terminate()
    for g in groups:
        with contextlib.suppress(OSError):
            os.killpg(g, signal.SIGTERM)
    _, alive = psutil.wait_procs(procs, timeout=grace)
    for p in alive:
        with contextlib.suppress(psutil.Error):
            p.kill()
    for g in groups:
        with contextlib.suppress(OSError):
            os.killpg(g, signal.SIGKILL)
    psutil.wait_procs(alive, timeout=grace)
    # orphans re-parented to this subreaper while the others ended
    rest = [p for p in _tree() if p.pid not in keep and p.pid not in {q.pid for q in procs}]
    for p in rest:
        with contextlib.suppress(psutil.Error):
            p.kill()
    psutil.wait_procs(rest, timeout=grace)
    return len(procs) + len(rest)


def _handler(signum: int, _frame: Any) -> None:
    if _state["signum"] is not None:  # already ending: let the clean-up finish
        return
    _state["signum"] = signum
    # From here on the command is ending: what its libraries say while they are torn down (a kernel's or a Dask
    # worker's loss, tracebacks of threads, warnings) is noise; the one line goes to the saved stream.
    _state["stderr"] = sys.stderr
    logging.disable(logging.CRITICAL)
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - kept open until the process exits
    with critical():
        end_descendants(
            grace=1.0
        )  # the kernel and its workers first, so that no clean-up waits for them
    raise Interrupted(signum)


@contextlib.contextmanager
def critical() -> Iterator[None]:
    """Defer SIGINT and SIGTERM inside the block (they are delivered when it ends)."""
    mask = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, mask)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def guard(command, args) -> int:
    """Run ``command(args)`` with the interrupt handlers installed; end its processes whatever happens; on a
    signal, print one line and return ``128 + signum``."""
    _state.update(target=None, signum=None, stderr=None)
    _state["keep"] = frozenset(
        p.pid for p in _tree()
    )  # a caller's own processes (a test's cluster) stay
    _become_subreaper()
    old = {}
    if threading.current_thread() is threading.main_thread():
        old = {s: signal.signal(s, _handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            return command(args)
        finally:
            with critical():
                end_descendants()
    except BaseException as exc:
        signum = exc.signum if isinstance(exc, Interrupted) else _state["signum"]
        if signum is None:
            raise
        target = _state["target"]
        where = f" to {target}" if target is not None else ""
        stream = _state["stderr"] or sys.stderr
        print(f"dpcompendium: interrupted; nothing written{where}", file=stream, flush=True)
        return 128 + signum
    finally:
        _become_subreaper(False)
        for s, h in old.items():
            signal.signal(s, h)
