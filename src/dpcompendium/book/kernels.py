"""The Jupyter kernel manager that ``dpcompendium run`` and the book's executions start chapters with.

Two messages of the kernel reach the terminal of every run and say nothing about the chapter:

- jupyter_client connects to a kernel over TCP on localhost by default, and ipykernel then logs at every start
  "Kernel is running over TCP without encryption ... Use IPC transport ...". The kernel runs on this machine, so the
  chapters run over IPC: Unix domain sockets in a private temporary folder of their own (jupyter_client's default
  would put them in the kernel's working folder, the notebooks' folder, where two kernels started at once collide),
  removed when the kernel stops. Nothing listens on a port, and nothing is logged. Windows has no IPC transport in
  ZeroMQ: there the default TCP transport (and its warning) stays.
- jupyter_client interrupts a kernel (SIGINT) before asking it to shut down, and ipykernel then often logs
  "KeyboardInterrupt caught in kernel." The notebook has finished (or stopped at its failing cell) when the kernel
  is shut down, so there is nothing to interrupt: the shutdown request alone is sent, and jupyter_client still
  terminates, then kills, a kernel that does not stop within its ``shutdown_wait_time``.

Kernels that other programs start (otter-grader's ``otter assign`` and ``otter run``, JupyterLab) come over TCP, and
each printed the TCP warning (three times in the coursework page's grading commands). ``make venv`` writes
:data:`KERNEL_CONFIG` into the environment (``python -m dpcompendium.book.kernels``): IPython reads it in every
kernel this environment starts, and its logging filter (:class:`NoTcpWarning`) drops that one message — the kernels
run on this machine, on localhost — and nothing else.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["KERNEL_CONFIG", "NoTcpWarning", "install_kernel_config", "kernel_manager_class"]

#: The kernel configuration file IPython reads from the environment (``<prefix>/etc/ipython``, IPython's
#: ``ENV_CONFIG_DIRS``), relative to the environment's prefix.
KERNEL_CONFIG = Path("etc") / "ipython" / "ipython_kernel_config.py"
#: What the kernel logs at start-up over TCP (ipykernel's kernelapp), dropped by :class:`NoTcpWarning`.
TCP_WARNING = "Kernel is running over TCP without encryption"

_CONFIG = """# Written by `python -m dpcompendium.book.kernels` (make venv): see dpcompendium.book.kernels.
c = get_config()  # noqa: F821
c.IPKernelApp.logging_config = {
    "filters": {"no_tcp_warning": {"()": "dpcompendium.book.kernels.NoTcpWarning"}},
    "handlers": {"console": {"filters": ["no_tcp_warning"]}},
}
"""


class NoTcpWarning(logging.Filter):
    """Drop the kernel's "running over TCP without encryption" warning (``TCP_WARNING``), keep every other record."""

    def filter(self, record: logging.LogRecord) -> bool:
        return TCP_WARNING not in record.getMessage()


def install_kernel_config(prefix: str | Path = sys.prefix) -> Path:
    """Write :data:`KERNEL_CONFIG` under ``prefix`` (the virtual environment); returns its path."""
    path = Path(prefix) / KERNEL_CONFIG
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_CONFIG, encoding="utf-8")
    return path


def kernel_manager_class() -> Any:
    """An ``AsyncKernelManager`` subclass (IPC transport except on Windows; no interrupt at shutdown), for
    nbclient's and papermill's ``kernel_manager_class``."""
    from jupyter_client.manager import AsyncKernelManager

    class QuietKernelManager(AsyncKernelManager):  # type: ignore[misc]
        def __init__(self, **kwargs: Any) -> None:
            self._ipc_dir: str | None = None
            if os.name != "nt" and "transport" not in kwargs:
                kwargs["transport"] = "ipc"
            super().__init__(**kwargs)

        async def _async_pre_start_kernel(self, **kw: Any) -> Any:
            if self.transport == "ipc" and self._ipc_dir is None:
                # sockets <dir>/kernel-1 … kernel-5, made when the kernel starts: a short absolute path (Unix
                # sockets allow ~100 bytes), never the working folder
                self._ipc_dir = tempfile.mkdtemp(prefix="dpc-kernel-")
                self.ip = str(Path(self._ipc_dir) / "kernel")
            return await super()._async_pre_start_kernel(**kw)

        async def _async_cleanup_resources(self, restart: bool = False) -> None:
            await super()._async_cleanup_resources(restart=restart)
            if self._ipc_dir and not restart:
                shutil.rmtree(self._ipc_dir, ignore_errors=True)
                self._ipc_dir = None

        async def _async_interrupt_kernel(self) -> None:
            # shutting_down is set by shutdown_kernel before it interrupts: the notebook has finished
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

    return QuietKernelManager


if __name__ == "__main__":  # make venv
    install_kernel_config()
