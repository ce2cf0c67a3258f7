"""pytest plugin (``-p nbcapture``, with ``tools/`` on ``PYTHONPATH``): keep what nbval executed.

nbval executes every chapter once and compares its headline cells with their stored outputs. This plugin collects the
outputs nbval received for every code cell and, when every cell of a notebook has passed, writes the executed notebook
and its record (wall time, peak kernel memory, key) to the execution store (``_build/.execution``, see
:mod:`dpcompendium.book.execution`). The book build then reuses that execution instead of executing the chapter again, so
in ``make test`` each chapter is executed exactly once. A notebook with a failing or skipped cell is not stored, nor
one during whose run the library's inputs changed (its key is the inputs' digest as it starts).

It also starts each chapter's kernel again when the kernel dies before it answers (:class:`RetryingKernel`): a
project CI run on a fresh clone lost all 30 cells of one chapter to "Kernel died before replying to kernel_info", a
kernel that never started (two kernels were starting at the same moment on the two test workers; jupyter_client
picks each kernel's five TCP ports by binding port 0 and letting it go, which two processes can race for). nbval
sends the kernel's stderr to ``/dev/null``; here it goes to a file, and its tail is in the error if every attempt
fails.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat
import nbval.kernel
import nbval.plugin
import pytest

from dpcompendium.book.execution import (
    DEFAULT_INPUTS,
    DEFAULT_STORE,
    _kernel_pid,
    chapter_key,
    inputs_digest,
    kernel_peak_memory_mib,
    make_record,
    store_execution,
)
from dpcompendium.core.paths import repo_root

_STATE: dict[str, dict[str, Any]] = {}

#: How many times a chapter's kernel is started before its cells are reported as errors.
KERNEL_START_ATTEMPTS = 3


class RetryingKernel(nbval.kernel.RunningKernel):
    """nbval's kernel, started up to :data:`KERNEL_START_ATTEMPTS` times when it dies before answering.

    Only the start is retried: a kernel that dies while a cell runs fails that cell, as before.
    """

    def __init__(self, kernel_name: str, cwd: str | None = None, startup_timeout: int = 60) -> None:
        errors: list[str] = []
        for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
            with tempfile.TemporaryFile("w+", prefix="nbval-kernel-", suffix=".log") as log:
                try:
                    self.km, self.kc = nbval.kernel.start_new_kernel(
                        startup_timeout=startup_timeout,
                        kernel_name=kernel_name,
                        stderr=log,
                        cwd=cwd,
                    )
                    self._ensure_iopub_up()
                except RuntimeError as exc:
                    log.seek(0)
                    tail = log.read().strip().splitlines()[-5:]
                    errors.append(
                        f"attempt {attempt}: {exc}"
                        + (f" (kernel stderr: {' | '.join(tail)})" if tail else "")
                    )
                    self._discard()
                    time.sleep(0.5 * attempt)
                    continue
            if errors:
                print(
                    f"nbcapture: kernel started on attempt {attempt} after: {'; '.join(errors)}",
                    flush=True,
                )
            return
        raise RuntimeError(
            f"the kernel {kernel_name!r} did not start in {KERNEL_START_ATTEMPTS} attempts: {'; '.join(errors)}"
        )

    def _discard(self) -> None:
        """Stop what a failed start left (``start_new_kernel`` already stops a kernel that did not answer)."""
        kc, km = self.__dict__.pop("kc", None), self.__dict__.pop("km", None)
        with contextlib.suppress(Exception):
            if kc is not None:
                kc.stop_channels()
            if km is not None and km.is_alive():
                km.shutdown_kernel(now=True)


nbval.plugin.RunningKernel = RetryingKernel


def _is_cell(item: pytest.Item) -> bool:
    return type(item).__name__ == "IPyNbCell"


def _state(item: pytest.Item) -> dict[str, Any]:
    st = _STATE.get(item.parent.nodeid)
    if st is None:
        # the inputs' digest as the chapter starts: an execution is stored under the key of the code it ran
        st = _STATE[item.parent.nodeid] = {
            "t0": time.perf_counter(),
            "outputs": {},
            "ok": True,
            "peak": None,
            "digest": inputs_digest(repo_root(), DEFAULT_INPUTS),
        }
    return st


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if not _is_cell(item):
        return
    report = outcome.get_result()
    st = _state(item)
    if report.failed or report.skipped:
        st["ok"] = False
    elif call.when == "call":
        st["outputs"][id(item.cell)] = list(item.test_outputs or [])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    if _is_cell(item) and (nextitem is None or nextitem.parent is not item.parent):
        # The last cell of this notebook: its kernel is still alive here (nbval stops it in the teardown below).
        st = _state(item)
        kernel = getattr(item.parent, "kernel", None)
        st["peak"] = kernel_peak_memory_mib(_kernel_pid(getattr(kernel, "km", None)))
        _store(item.parent, st)
    yield


def _store(parent: pytest.Collector, st: dict[str, Any]) -> None:
    wall = time.perf_counter() - st["t0"]
    nb: nbformat.NotebookNode = parent.nb
    code = [c for c in nb.cells if c.cell_type == "code"]
    if not st["ok"] or any(id(c) not in st["outputs"] for c in code):
        return
    notebook = Path(str(parent.fspath))
    root = repo_root()
    source = nbformat.read(notebook, as_version=4)
    src_code = [c for c in source.cells if c.cell_type == "code"]
    if [c.source for c in src_code] != [c.source for c in code]:
        return  # the file changed while it was being tested
    for count, (cell, ran) in enumerate(zip(src_code, code, strict=True), start=1):
        cell.outputs = [nbformat.from_dict(dict(o)) for o in st["outputs"][id(ran)]]
        for out in cell.outputs:
            if out.get("output_type") == "execute_result":
                out["execution_count"] = count
        cell.execution_count = count
    digest = inputs_digest(root, DEFAULT_INPUTS)
    if digest != st.get("digest", digest):
        # the library changed while the chapter ran (a developer editing src/ during make notebooks): the execution
        # ran the old code, and storing it under the new code's key would let the book show the old code's pages
        return
    key = chapter_key(notebook, digest)
    record = make_record(root, notebook, key, wall, st["peak"], executor="nbval (make test)")
    store_execution(root / DEFAULT_STORE, notebook.stem, source, record)
