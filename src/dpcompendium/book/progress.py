"""Progress and time estimates of long commands, on a terminal only; a time limit for calls of user code.

- :func:`enabled`: bars are drawn when standard error is a terminal and the environment is not CI (``CI`` set) nor
  ``DPCOMPENDIUM_PROGRESS=0``; ``DPCOMPENDIUM_PROGRESS=1`` forces them (tests);
- :func:`progress_bar`: papermill's cell bar (the chapter, cells executed out of all, tqdm's estimate of the time
  left) for ``dpcompendium run``, on a terminal or with ``-v``;
- :class:`CallMeter`: a wrapper around a user's function (``dpcompendium audit``, ``check``) that counts the
  samples its calls produce (``size`` of a vectorized call, else one), shows them against the expected total with
  the time left, and stops the command (:class:`TooLong`, raised in the calling thread) as soon as the calls so far
  predict more than a limit — after the first call, or while a first call is still running once its elapsed time
  alone predicts it. It is a layer around the function: the audit engine is not changed.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import inspect
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = [
    "DEFAULT_LIMIT_S",
    "MIN_EVIDENCE_SHARE",
    "CallMeter",
    "TooLong",
    "enabled",
    "format_seconds",
    "progress_bar",
]

#: An audit or check predicted to take longer than this stops (``--time-limit``).
DEFAULT_LIMIT_S = 1800.0
#: The prediction stops a command only once the calls measured so far took this share of the limit (1.8 s of a
#: 30-minute limit): an extrapolation from one short first call is dominated by its warm-up.
MIN_EVIDENCE_SHARE = 0.001


def enabled(stream: Any = None) -> bool:
    """Whether to draw progress bars on ``stream`` (default standard error)."""
    flag = os.environ.get("DPCOMPENDIUM_PROGRESS", "").strip()
    if flag in ("0", "1"):
        return flag == "1"
    if os.environ.get("CI"):
        return False
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def progress_bar(what: str, *, force: bool = False) -> bool | dict[str, Any]:
    """papermill's ``progress_bar`` argument: a tqdm bar on standard error, ``what`` (the chapter) and the cells
    executed out of all with the time left — on a terminal (:func:`enabled`), or anywhere with ``force``
    (``dpcompendium run -v``: then in plain characters, and kept at the end) — else False. Its width is the
    terminal's, 100 columns where the terminal reports none (tqdm draws nothing at width 0)."""
    import shutil

    on_terminal = enabled()
    if not (on_terminal or force):
        return False
    columns = shutil.get_terminal_size((100, 24)).columns or 100
    return {
        "desc": what,
        "unit": "cell",
        "file": sys.stderr,
        "leave": not on_terminal,
        "ncols": columns,
        "ascii": not on_terminal,
    }


def format_seconds(s: float) -> str:
    """``s`` seconds as ``42 s``, ``12 min``, ``3.4 h`` or ``5.1 days``."""
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.0f} min"
    if s < 86400 * 2:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.1f} days"


class TooLong(BaseException):  # a stop: no ``except Exception`` keeps it
    """The calls so far predict more than the limit: ``predicted_s`` seconds for ``total`` samples."""

    def __init__(
        self, predicted_s: float | None = None, total: int = 0, done: int = 0, limit_s: float = 0.0
    ):
        # without arguments: raised by the watchdog thread into the calling one (CallMeter fills the numbers in)
        super().__init__(*(() if predicted_s is None else (f"predicted {predicted_s:.0f} s",)))
        self.predicted_s, self.total, self.done, self.limit_s = predicted_s, total, done, limit_s


class CallMeter:
    """Count and time the calls of a user's function; show progress; stop when the prediction exceeds a limit.

    ``total`` is the number of samples the command is expected to draw (each vectorized call counts its ``size``,
    any other call one). Use :meth:`wrap` on the function, then ``with meter:`` around the work.
    """

    def __init__(
        self, what: str, total: int, *, limit_s: float | None = DEFAULT_LIMIT_S, unit="sample"
    ):
        self.what, self.total, self.limit_s, self.unit = what, max(1, int(total)), limit_s, unit
        self.done = 0
        self.spent = 0.0  # seconds inside the function
        self._call_start: float | None = None
        self._call_units = 1
        self._main = threading.get_ident()
        self._stop = threading.Event()
        self._bar = None
        self._fired = False
        self.started = time.perf_counter()

    # ---- the prediction
    def predicted_s(self) -> float | None:
        """Seconds the whole work would take at the rate measured so far (a running call counts), or None."""
        spent, done = self.spent, self.done
        if self._call_start is not None:
            running = time.perf_counter() - self._call_start
            if (
                done == 0 or running > spent
            ):  # the running call already says more than the finished ones
                spent, done = spent + running, done + (self._call_units if done else 1)
        if spent <= 0 or done <= 0:
            return None
        return spent / done * self.total

    def evidence_s(self) -> float:
        """Seconds of calls measured so far, a running call included."""
        running = 0.0 if self._call_start is None else time.perf_counter() - self._call_start
        return self.spent + running

    def _check(self, from_watchdog: bool = False) -> None:
        pred = self.predicted_s()
        if pred is not None and self._bar is not None:
            left = max(0.0, pred - self.spent)
            self._bar.set_postfix_str(f"about {format_seconds(left)} left", refresh=True)
        if self.limit_s is None or pred is None or pred <= self.limit_s or self._fired:
            return
        if self.evidence_s() < self.limit_s * MIN_EVIDENCE_SHARE:
            # too little measured to extrapolate: a first call's warm-up on a loaded machine (80 ms for 64 samples
            # predicted 42 min against 30 in a clean clone's run) is not the rate of the calls that follow
            return
        self._fired = True
        exc = TooLong(pred, self.total, self.done, self.limit_s)
        if not from_watchdog:
            raise exc
        self._exc = exc  # raised in the calling thread as soon as it runs Python code again
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(self._main), ctypes.py_object(TooLong)
        )

    # ---- the wrapper
    def wrap(self, func: Callable) -> Callable:
        """``func`` counted and timed (same name and signature, for the engine's inspection); pickled — shipped
        to a pool's or a cluster's worker — it is ``func`` itself, unmetered."""
        return _Metered(self, func)

    def _call(self, func: Callable, args: tuple, kwargs: dict) -> Any:
        if threading.get_ident() != self._main:  # a thread of a pool: not metered
            return func(*args, **kwargs)
        units = int(kwargs.get("size", 1) or 1)
        self._call_units, self._call_start = units, time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            self.spent += time.perf_counter() - self._call_start
            self._call_start = None
            self.done += units
            if self._bar is not None:
                if self.done > self._bar.total:
                    self._bar.total = self.done
                self._bar.update(units)
            self._check()

    def _watch(self) -> None:
        while not self._stop.wait(1.0):
            if self._call_start is not None:
                self._check(from_watchdog=True)
            if self._bar is not None:
                self._bar.refresh()

    def __enter__(self) -> CallMeter:
        if enabled():
            from tqdm import tqdm

            self._bar = tqdm(
                total=self.total, desc=self.what, unit=self.unit, file=sys.stderr, leave=False,
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} {unit}s "
                "[{elapsed}<{remaining}{postfix}]",
            )  # fmt: skip
            self._bar.set_postfix_str("estimating the time left", refresh=True)
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self._stop.set()
        if self._bar is not None:
            self._bar.close()
        if exc_type is TooLong and exc is not None and exc.predicted_s is None:
            # raised by the watchdog (an exception class, without its numbers): give it this meter's numbers
            raise self._exc from None


class _Metered:
    """A user's function seen through a :class:`CallMeter` (:meth:`CallMeter.wrap`)."""

    def __init__(self, meter: CallMeter, func: Callable):
        functools.update_wrapper(self, func)
        self._meter, self._func = meter, func
        with contextlib.suppress(TypeError, ValueError):  # a builtin without a signature keeps none
            self.__signature__ = inspect.signature(func)

    def __call__(self, *args, **kwargs):
        return self._meter._call(self._func, args, kwargs)

    def __reduce__(self):
        return _identity, (self._func,)


def _identity(func: Callable) -> Callable:
    return func


def too_long_message(exc: TooLong, what: str, shorten: str) -> str:
    """One line: how long the command would take, the limit, and how to shorten it."""
    first = (
        f"its first {exc.done:,} samples" if exc.done > 1 else "its first call" if exc.done else
        "its first call, still running,"
    )  # fmt: skip
    return (
        f"{what} stopped: {first} predict{'s' if exc.done <= 1 else ''} it would take about "
        f"{format_seconds(exc.predicted_s)} for {exc.total:,} samples, more than the limit of "
        f"{format_seconds(exc.limit_s)} (--time-limit); {shorten}"
    )
