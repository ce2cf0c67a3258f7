"""Data before the run: each chapter's declared datasets (``CHAPTER_DATASETS``), ``dpcompendium run`` stopping on a
missing or corrupted file before any cell runs, ``dpcompendium data`` (list and fetch), the ``../shared/data``
fallback of the data cache, and the kernels' IPC transport."""

from __future__ import annotations

import asyncio
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _chapter_ids import DP_MEAN, FEDERATED_PCA, HIERA, HISTOGRAMS, MWEM, PRIVACY_AUDIT

from dpcompendium.book import cli
from dpcompendium.book.contract import (
    CHAPTER_DATASETS,
    CHAPTER_IDS,
    _require_names,
    get_chapter,
    required_datasets,
)
from dpcompendium.core import data

BIN = Path(sys.executable).with_name("dpcompendium")
SHARED = data.shared_data_dir()
needs_shared = pytest.mark.skipif(
    SHARED is None, reason="../shared/data is not beside this checkout"
)


def test_every_chapter_declares_registered_datasets_with_valid_conditions():
    assert set(CHAPTER_DATASETS) == set(CHAPTER_IDS)
    reg = data.registry()
    for cid, entries in CHAPTER_DATASETS.items():
        ch = get_chapter(cid)
        for name, cond in entries:
            assert name in reg, (cid, name)
            # every condition is over the chapter's own parameters (never skipped for an unknown name)
            assert not cond or set(_require_names(cond)) <= set(ch.parameters), (cid, cond)
    # the histograms chapter's DPBench names are data.load_dpbench's
    for name, cond in CHAPTER_DATASETS[HISTOGRAMS]:
        alias = cond.split('"')[1]
        assert name == f"dpbench-1d-{data.DPBENCH_ALIASES[alias]}"
    assert required_datasets(get_chapter(DP_MEAN)) == ["adult"]
    assert required_datasets(get_chapter(DP_MEAN), {"datasets": ["heights"]}) == []
    assert required_datasets(get_chapter(HISTOGRAMS), {"datasets": ["PATENT"]}) == [
        "dpbench-1d-PATENT.n4096"
    ]
    assert required_datasets(get_chapter(PRIVACY_AUDIT)) == []


def test_missing_dataset_stops_run_before_any_cell(tmp_path, monkeypatch, capsys):
    """An empty data cache: `dpcompendium run CHAPTER` (MWEM) stops with one line naming both files and the command that gets
    them, in well under 3 s, before papermill starts a kernel, with nothing written."""
    import papermill

    started = []
    monkeypatch.setattr(papermill, "execute_notebook", lambda *a, **k: started.append(a))
    monkeypatch.setenv("DPCOMPENDIUM_DATA_DIR", str(tmp_path / "empty"))
    out = tmp_path / "results"
    t0 = time.perf_counter()
    code = cli.main(["run", MWEM, "-p", "epsilons", "[0.5, 2]", "--out", str(out)])
    elapsed = time.perf_counter() - t0
    err = capsys.readouterr().err
    assert code == 2 and not started and not out.exists()
    assert err.count("\n") == 1 and elapsed < 3.0
    assert "dpbench/1D/ADULTFRANK.n4096.npy (missing)" in err
    assert "dpbench/2D/Adult_2D_256_256.npy (missing)" in err
    assert "dpcompendium data fetch dpbench-1d-ADULTFRANK.n4096 dpbench-2d-Adult_2D_256_256" in err
    # parameters that do not select the missing file run past the check (the averages chapter without adult-age)
    monkeypatch.setattr(cli, "_fail", lambda message, code=2: pytest.fail(message))
    assert (
        cli._missing_data(required_datasets(get_chapter(DP_MEAN), {"datasets": ["heights"]}))
        is None
    )


def test_missing_dataset_stops_the_command_cheaply(tmp_path):
    """The installed command, from a cold start: the check costs under 3 s of CPU (wall time on this shared machine
    depends on its load) and the one-line error names the corrupted file."""
    (tmp_path / "uci-adult").mkdir()
    (tmp_path / "uci-adult" / "adult.data").write_text("not the real file\n")
    env = {**os.environ, "DPCOMPENDIUM_DATA_DIR": str(tmp_path)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [str(BIN), "run", HIERA, "--out", str(tmp_path / "out")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode == 2 and cpu < 3.0, (proc.returncode, cpu, proc.stderr)
    assert "uci-adult/adult.data (hash mismatch)" in proc.stderr and proc.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


@needs_shared
def test_data_list_shows_present_missing_and_mismatch(tmp_path, monkeypatch, capsys):
    reg = data.registry()
    shutil.copytree(SHARED / "uci-adult", tmp_path / "uci-adult")
    bad = tmp_path / reg["dpbench-1d-HEPTH.n4096"].file
    bad.parent.mkdir(parents=True)
    bad.write_bytes((SHARED / reg["dpbench-1d-HEPTH.n4096"].file).read_bytes() + b"\0")
    monkeypatch.setenv("DPCOMPENDIUM_DATA_DIR", str(tmp_path))
    assert cli.main(["data"]) == 0
    shown = capsys.readouterr().out
    assert cli.main(["data", "list"]) == 0 and capsys.readouterr().out == shown
    lines = {line.split()[0]: line.split()[1:] for line in shown.splitlines()[1:-2]}
    assert set(lines) == set(reg)
    assert lines["adult"][0] == "present" and f"{FEDERATED_PCA}," in lines["adult"]
    assert lines["dpbench-1d-HEPTH.n4096"][:2] == ["hash", "mismatch"]
    assert lines["dpbench-2d-twitter_256_256"][0] == "missing"
    assert f"data cache: {tmp_path} (DPCOMPENDIUM_DATA_DIR)" in shown
    assert (
        f"{len(reg)} registered files: 1 present, {len(reg) - 2} missing, 1 hash mismatch" in shown
    )


def test_data_fetch_offline_prints_url_and_target(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DPCOMPENDIUM_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DPCOMPENDIUM_OFFLINE", "1")
    assert cli.main(["data", "fetch", "adult", "dpbench-2d-Loan_2D_256_256"]) == 1
    err = capsys.readouterr().err
    for name in ("adult", "dpbench-2d-Loan_2D_256_256"):
        info = data.registry()[name]
        target = tmp_path / info.file
        assert f"{name}: {target.name}  from {info.url}  into {target.parent}/" in err
    assert not any(tmp_path.iterdir())  # nothing downloaded, no folder made
    assert cli.main(["data", "fetch", "nope"]) == 2
    assert "name must be a registered dataset, got 'nope'" in capsys.readouterr().err


def test_data_fetch_without_network_prints_url_and_target(tmp_path, monkeypatch, capsys):
    """Downloads allowed but the network fails (pooch raises): the same instructions, naming the failure."""
    import pooch

    def no_network(**kwargs):
        raise ConnectionError("no route to host")

    monkeypatch.setenv("DPCOMPENDIUM_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DPCOMPENDIUM_OFFLINE", "0")
    monkeypatch.setattr(pooch, "retrieve", no_network)
    assert cli.main(["data", "fetch", "adult"]) == 1
    err = capsys.readouterr().err
    info = data.registry()["adult"]
    assert f"adult: adult.data  from {info.url}  into {tmp_path / 'uci-adult'}/" in err
    assert "could not download uci-adult/adult.data" in err and "ConnectionError" in err


@needs_shared
def test_data_fetch_verifies_and_replaces_a_corrupted_copy(tmp_path, monkeypatch, capsys):
    """A present file is left alone; a corrupted one is downloaded again (here from the shared folder, through
    pooch's own retrieve with the registered hash) and verified."""
    import pooch

    reg = data.registry()
    shutil.copytree(SHARED / "uci-adult", tmp_path / "uci-adult")
    target = tmp_path / reg["dpbench-1d-bids"].file
    target.parent.mkdir(parents=True)
    target.write_bytes(b"corrupted")
    real_retrieve = pooch.retrieve

    def copy_from_shared(
        url, output_file, pooch_obj
    ):  # a pooch downloader: the shared folder is the "network"
        info = next(i for i in reg.values() if i.url == url)
        Path(output_file).write_bytes((SHARED / info.file).read_bytes())

    def from_shared(**kwargs):
        return real_retrieve(**kwargs, downloader=copy_from_shared)

    monkeypatch.setenv("DPCOMPENDIUM_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DPCOMPENDIUM_OFFLINE", "0")
    monkeypatch.setattr(pooch, "retrieve", from_shared)
    assert cli.main(["data", "fetch", "adult", "dpbench-1d-bids"]) == 0
    out = capsys.readouterr().out
    assert f"adult: present in {tmp_path}" in out
    assert "dpbench-1d-bids: fetched" in out and data.status("dpbench-1d-bids") == "present"


@needs_shared
def test_cache_dir_falls_back_to_shared_data_beside_the_repository(monkeypatch):
    monkeypatch.delenv("DPCOMPENDIUM_DATA_DIR", raising=False)
    root, source = data.cache_dir_source()
    assert root == SHARED and source.startswith("../shared/data")


def test_chapters_run_over_ipc(monkeypatch, tmp_path):
    """The kernel of `dpcompendium run` (and of the book's executions) uses the IPC transport, so ipykernel does not
    warn "running over TCP without encryption", and is not interrupted at shutdown (tests/test_cli.py checks that a
    run prints neither line)."""
    import papermill

    from dpcompendium.book.kernels import kernel_manager_class

    seen = {}

    def fake_execute(*args, **kwargs):
        seen.update(kwargs)
        raise RuntimeError("stop here")

    monkeypatch.setattr(papermill, "execute_notebook", fake_execute)
    assert cli.main(["run", PRIVACY_AUDIT, "--out", str(tmp_path)]) == 1
    km = seen["kernel_manager_class"](kernel_name="python3")
    assert km.transport == ("tcp" if os.name == "nt" else "ipc")
    if os.name != "nt":
        # sockets in a private folder, never the notebooks' (two kernels there would collide)
        assert km._ipc_dir is None  # nothing made before the kernel starts
        asyncio.run(
            km._async_pre_start_kernel()
        )  # up to the connection file, without launching the kernel
        ipc = Path(km.ip)
        assert ipc.is_absolute() and ipc.parent.is_dir() and ipc.parent != Path.cwd()
        assert ipc.parent.name.startswith("dpc-kernel-")
        asyncio.run(km._async_cleanup_resources())
        assert not ipc.parent.exists()
    assert issubclass(seen["kernel_manager_class"], kernel_manager_class().__mro__[1])
    # a finished notebook is shut down without SIGINT (no "KeyboardInterrupt caught in kernel")
    km.shutting_down = True
    signals = []
    km._async_signal_kernel = lambda sig: signals.append(sig)
    asyncio.run(km._async_interrupt_kernel())
    assert signals == []
