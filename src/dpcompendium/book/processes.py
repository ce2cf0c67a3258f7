"""Every process a command starts ends with it: interrupts (SIGINT, SIGTERM) and the run's process tree.

:func:`guard` wraps one command (``run``, ``audit``, ``check``, ``book``):

- this process becomes a *child subreaper* (Linux ``prctl``), so that a worker orphaned by its parent (a joblib/loky
  worker of a chapter's kernel that ended first, a Dask worker of a closed nanny) is re-parented to it instead of to
  init, and stays in its process tree;
- SIGINT and SIGTERM raise :class:`Interrupted` (a ``BaseException``: no ``except Exception`` of a library swallows
  it) once; a second signal during the clean-up is ignored;
- when the command ends — normally, by an error or by a signal — every process still in its tree is ended
  (:func:`end_descendants`: SIGTERM, then SIGKILL after a grace period; the process groups they led too; when the
  command runs in a caller's process, as in the tests, only on a signal: the caller owns its pools);
- an interrupt ends the command with one line, ``interrupted; nothing written to …`` (the target the command set
  with :func:`set_target`), and the shell's exit code ``128 + signal`` (130 for SIGINT, 143 for SIGTERM).

:func:`critical` defers the signals while a few renames must happen together (``run``'s swap of the results).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import shutil
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

__all__ = [
    "Interrupted",
    "critical",
    "end_descendants",
    "guard",
    "remove_on_interrupt",
    "set_target",
]

_PR_SET_CHILD_SUBREAPER = 36
_state: dict[str, Any] = {
    "remove": None,
    "hard_exit": False,
    "target": None,
    "signum": None,
    "stderr": None,
    "keep": frozenset(),
}


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


def _own_trackers() -> frozenset[int]:
    """This process's own resource trackers (multiprocessing's, loky's), as they are now: ended while this
    process still runs its clean-up, one is started again, and prints a KeyError for every semaphore that the
    clean-up unregisters; they are ended last (:func:`guard`)."""
    import psutil

    found = set()
    for p in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            if "resource_tracker" in " ".join(p.cmdline()):
                found.add(p.pid)
    return frozenset(found)


def end_descendants(
    grace: float = 3.0, keep: frozenset[int] | None = None, *, now: bool = False
) -> int:
    """End every process in this process's tree but ``keep`` (default: those there when :func:`guard` started):
    SIGTERM to each (and to the process groups they lead, other than this one's), SIGKILL to those alive after
    ``grace`` seconds; reap them. ``now``: SIGKILL at once (after an interrupt: a process given time to clean up
    — a worker's resource tracker — prints its complaints to the terminal). Returns how many there were."""
    import psutil

    if keep is None:
        keep = _state.get("keep", frozenset()) | _state.get("trackers", frozenset())
    procs = [p for p in _tree() if p.pid not in keep]
    if not procs:
        return 0
    own_group = os.getpgrp()
    groups = set()
    for p in procs:
        with contextlib.suppress(psutil.Error, OSError):
            if os.getpgid(p.pid) == p.pid and p.pid != own_group:
                groups.add(p.pid)
    first = signal.SIGKILL if now else signal.SIGTERM
    for p in procs:
        with contextlib.suppress(psutil.Error):
            p.send_signal(first)
    for g in groups:
        with contextlib.suppress(OSError):
            os.killpg(g, first)
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


def remove_on_interrupt(path: Any) -> None:
    """A folder to delete if the command is interrupted (``run``'s staging folder); ``None``: none any more."""
    _state["remove"] = path


def _message() -> str:
    target = _state["target"]
    where = f" to {target}" if target is not None else ""
    return f"dpcompendium: interrupted; nothing written{where}"


def _handler(signum: int, _frame: Any) -> None:
    if _state["signum"] is not None:  # already ending: let the clean-up finish
        return
    _state["signum"] = signum
    if _state["hard_exit"]:
        # the program itself: end its processes, delete its staging folder, say so, and leave now — the
        # clean-up of libraries whose processes are gone (a Dask cluster's, loky's semaphores) only prints noise
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        logging.disable(logging.CRITICAL)
        terminal = os.dup(
            2
        )  # this process's other threads (a Dask nanny, warnings) now write to /dev/null
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        end_descendants(grace=1.0, keep=_state["keep"], now=True)
        if _state["remove"] is not None:
            shutil.rmtree(_state["remove"], ignore_errors=True)
        os.write(terminal, (_message() + "\n").encode())
        os._exit(128 + signum)
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


def guard(command, args, *, hard_exit: bool = False) -> int:
    """Run ``command(args)`` with the interrupt handlers installed; end its processes whatever happens; on a
    signal, print one line and return ``128 + signum`` — or, with ``hard_exit`` (the ``dpcompendium`` program
    itself), leave from the signal handler with that status (``os._exit``, after ending the processes and deleting
    the folder of :func:`remove_on_interrupt`): the clean-up of libraries whose processes are gone (a Dask
    cluster's close, loky's semaphores) would print tracebacks of its own."""
    _state.update(
        target=None,
        signum=None,
        stderr=None,
        trackers=frozenset(),
        remove=None,
        hard_exit=hard_exit,
    )
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
            if (
                hard_exit
            ):  # the program: nothing it started outlives it (a caller in-process owns its pools)
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
        if hard_exit:
            end_descendants(
                grace=1.0, keep=_state["keep"], now=True
            )  # the trackers too: nothing runs after
            os._exit(128 + signum)
        return 128 + signum
    finally:
        _become_subreaper(False)
        for s, h in old.items():
            signal.signal(s, h)
