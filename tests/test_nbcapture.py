"""tools/nbcapture.py: a chapter's kernel that dies before it answers is started again, and a kernel that never
starts is an error that says why (its stderr), after :data:`KERNEL_START_ATTEMPTS` attempts."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def nbcapture(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    mod = importlib.import_module("nbcapture")
    monkeypatch.setattr(mod.time, "sleep", lambda s: None)
    return mod


class _Client:
    def stop_channels(self):
        pass


class _Manager:
    def is_alive(self):
        return False


def _starts(fail: int, calls: list[dict]):
    """A ``start_new_kernel`` whose first ``fail`` calls die as a kernel that never bound its ports does."""

    def start(**kwargs):
        calls.append(kwargs)
        if len(calls) <= fail:
            kwargs["stderr"].write(
                "zmq.error.ZMQError: Address already in use (addr='tcp://127.0.0.1:51234')\n"
            )
            kwargs["stderr"].flush()
            raise RuntimeError("Kernel died before replying to kernel_info")
        return _Manager(), _Client()

    return start


@pytest.mark.parametrize("fail", [0, 1, 2])
def test_a_kernel_that_dies_at_start_is_started_again(nbcapture, monkeypatch, capsys, fail):
    calls: list[dict] = []
    monkeypatch.setattr(nbcapture.nbval.kernel, "start_new_kernel", _starts(fail, calls))
    monkeypatch.setattr(nbcapture.RetryingKernel, "_ensure_iopub_up", lambda self: None)
    kernel = nbcapture.RetryingKernel("python3", cwd=str(ROOT))
    assert len(calls) == fail + 1
    assert isinstance(kernel.km, _Manager)
    out = capsys.readouterr().out
    assert ("Address already in use" in out) == (fail > 0)
    assert all(c["cwd"] == str(ROOT) and c["kernel_name"] == "python3" for c in calls)


def test_a_kernel_that_never_starts_is_an_error_with_its_stderr(nbcapture, monkeypatch):
    calls: list[dict] = []
    monkeypatch.setattr(nbcapture.nbval.kernel, "start_new_kernel", _starts(99, calls))
    with pytest.raises(RuntimeError, match=r"did not start in 3 attempts.*Address already in use"):
        nbcapture.RetryingKernel("python3")
    assert len(calls) == nbcapture.KERNEL_START_ATTEMPTS


def test_nbval_uses_the_retrying_kernel(nbcapture):
    assert nbcapture.nbval.plugin.RunningKernel is nbcapture.RetryingKernel


@pytest.mark.skipif(sys.platform != "linux", reason="a real kernel on this machine")
def test_a_real_kernel_starts_and_answers(nbcapture):
    kernel = nbcapture.RetryingKernel("python3", cwd=str(ROOT))
    try:
        assert kernel.is_alive()
    finally:
        kernel.stop()


def _parent(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    path = tmp_path / "chapter.ipynb"
    nbformat.write(nb, path)

    class Parent:
        fspath = str(path)

    Parent.nb = nbformat.read(path, as_version=4)
    return Parent()


@pytest.mark.parametrize("changed", [False, True])
def test_an_execution_is_stored_under_the_key_of_the_code_it_ran(
    nbcapture, monkeypatch, tmp_path, changed
):
    """The inputs' digest is taken as the chapter starts: if the library changed while it ran, the execution is not
    stored (it ran the old code; under the new key the book would show the old code's pages)."""
    parent = _parent(tmp_path)
    stored: list[tuple] = []
    monkeypatch.setattr(
        nbcapture, "inputs_digest", lambda root, inputs: "new" if changed else "old"
    )
    monkeypatch.setattr(nbcapture, "make_record", lambda *a, **k: {"key": a[2]})
    monkeypatch.setattr(nbcapture, "store_execution", lambda *a: stored.append(a))
    cell = parent.nb.cells[0]
    st = {"t0": 0.0, "outputs": {id(cell): []}, "ok": True, "peak": None, "digest": "old"}
    nbcapture._store(parent, st)
    assert len(stored) == (0 if changed else 1)
    if not changed:
        assert stored[0][3]["key"] == nbcapture.chapter_key(tmp_path / "chapter.ipynb", "old")
