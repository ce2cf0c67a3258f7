"""The kernels of this environment start quietly, whoever starts them (dpcompendium.book.kernels)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from dpcompendium.book import kernels


def test_the_environment_has_the_kernel_config():
    """make venv writes the kernel config IPython reads from the environment (<prefix>/etc/ipython)."""
    path = Path(sys.prefix) / kernels.KERNEL_CONFIG
    assert path.is_file(), (
        f"no {path}: run make venv (python -m dpcompendium.book.kernels writes it)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        assert path.read_text() == kernels.install_kernel_config(tmp).read_text()


def test_a_kernel_started_over_tcp_prints_no_tcp_warning():
    """A plain jupyter_client KernelManager (TCP, as otter and JupyterLab start kernels): the kernel's stderr has
    no "running over TCP without encryption" (ipykernel logs it at every TCP start without the config)."""
    from jupyter_client.manager import KernelManager

    with tempfile.TemporaryFile() as err:
        km = KernelManager(kernel_name="python3")
        assert km.transport == "tcp"
        km.start_kernel(stderr=err)
        try:
            kc = km.client()
            kc.start_channels()
            kc.wait_for_ready(timeout=120)
            kc.stop_channels()
        finally:
            km.shutdown_kernel(now=True)
        err.seek(0)
        text = err.read().decode()
    assert kernels.TCP_WARNING not in text, text


def test_the_filter_drops_that_message_only():
    import logging

    f = kernels.NoTcpWarning()
    rec = logging.LogRecord(
        "k", logging.WARNING, "", 0, kernels.TCP_WARNING + ". All …", None, None
    )
    assert not f.filter(rec)
    assert f.filter(logging.LogRecord("k", logging.WARNING, "", 0, "other", None, None))
