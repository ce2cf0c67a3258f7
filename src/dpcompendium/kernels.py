"""The Jupyter kernel manager that ``dpcompendium run`` and the book's executions start chapters with.

jupyter_client connects to a kernel over TCP on localhost by default, and ipykernel then logs, at every start,
"Kernel is running over TCP without encryption ... Use IPC transport ...". The kernel runs on this machine, so the
chapters are run over IPC (Unix domain sockets beside the connection file in Jupyter's runtime folder, removed when
the kernel stops): nothing listens on a port, and a rerun prints only what matters. Windows has no IPC transport in
ZeroMQ: there the default TCP transport (and its warning) stays.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["kernel_manager_class"]


def kernel_manager_class() -> Any:
    """An ``AsyncKernelManager`` subclass whose transport is IPC (TCP on Windows), for nbclient/papermill's
    ``kernel_manager_class``."""
    from jupyter_client.manager import AsyncKernelManager

    class IPCKernelManager(AsyncKernelManager):  # type: ignore[misc]
        def __init__(self, **kwargs: Any) -> None:
            if os.name != "nt":
                kwargs.setdefault("transport", "ipc")
            super().__init__(**kwargs)

    return IPCKernelManager
