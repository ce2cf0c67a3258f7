"""The code paths another CPU would take, for ``make test``: the environment of its notebooks stage (every chapter
and the primer) and of its ``portable`` stage (the numerics-sensitive tests) (``book/reproducibility.md``, "Bit for bit, and to what tolerance").

NumPy picks its SIMD kernels (exp, log, expm1, pow, …) by CPU at run time, OpenBLAS picks its BLAS kernels by CPU,
and numba compiles for the host CPU. A result that holds only on this machine's code paths — a compiled kernel equal
to its numpy reference in the last bit, a headline number printed with one digit too many — would fail on a laptop
without AVX-512 or on an ARM machine, not here. The reduced environment (:func:`reduced_env`):

- ``NPY_DISABLE_CPU_FEATURES`` = every feature numpy dispatches at run time that this CPU has (:func:`reduced_env`):
  numpy falls back to its baseline kernels (x86-64: SSE4.2-class ``X86_V2``; libm for exp and log);
- ``NUMBA_CPU_NAME=generic``: numba compiles the kernels for a generic CPU of the architecture (no AVX, no FMA);
- ``OPENBLAS_CORETYPE=Nehalem`` on x86-64: OpenBLAS's SSE kernels instead of this CPU's (AVX-512 / AVX2 + FMA);

The notebooks stage executes every chapter and the primer in it (:func:`notebook_env`; ``DPCOMPENDIUM_NOTEBOOK_PATHS=
native`` keeps the caller's code paths) and compares their checked cells, as numbers
(:mod:`dpcompendium.book.nbcompare`), with the outputs recorded on a developer's native code paths
(``tools/record_headlines.py``): every chapter meets two CPUs' code paths in every ``make test``, at no extra cost.
The portable stage runs the tests marked ``numerics`` (collected from the test files that use the marker) in it. As a
pytest plugin (``-p portable``, ``tools/`` on ``PYTHONPATH``, in both stages) it marks the chapters' cells ``numerics``
and refuses to run when the reduction did not take effect (an unknown feature name makes numpy warn and ignore it)::

    python tools/portable.py            # the stage as make test runs it (tools/run_tests.py --only portable)
    python tools/portable.py --env      # the environment it sets, as shell assignments
"""

from __future__ import annotations

import functools
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: OpenBLAS's kernels for an SSE-only x86-64 CPU (accepted by every DYNAMIC_ARCH build on x86-64).
OPENBLAS_X86 = "Nehalem"


@functools.cache
def dispatched_features() -> list[str]:
    """The CPU features numpy dispatches at run time (beyond its build's baseline) that this CPU has."""
    code = (
        "import numpy as np\n"
        "try:\n from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f\n"
        "except ImportError:\n from numpy.core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f\n"
        "print(','.join(x for x in d if f.get(x)))"
    )
    env = {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return [x for x in out.stdout.strip().split(",") if x]


def reduced_env() -> dict[str, str]:
    """The environment of the stage: numpy's run-time dispatch off, numba and OpenBLAS for a generic CPU."""
    env = {"NPY_DISABLE_CPU_FEATURES": ",".join(dispatched_features()), "NUMBA_CPU_NAME": "generic"}
    if platform.machine().lower() in ("x86_64", "amd64"):
        env["OPENBLAS_CORETYPE"] = OPENBLAS_X86
    return env


def test_files() -> list[str]:
    """The test modules that hold tests marked ``numerics`` (collecting only those keeps the stage short)."""
    return sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "tests").glob("test_*.py")
        if "pytest.mark.numerics" in p.read_text(encoding="utf-8")
    )


#: ``native``: the notebooks stage runs on this machine's own code paths (to check them by hand: issue 44's runs);
#: ``baseline`` (the default): on the reduced ones of :func:`reduced_env`.
NOTEBOOK_PATHS_ENV = "DPCOMPENDIUM_NOTEBOOK_PATHS"


def notebook_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment the notebooks stage adds: :func:`reduced_env` by default, nothing when
    ``DPCOMPENDIUM_NOTEBOOK_PATHS=native`` (then the code paths are whatever the caller's environment sets)."""
    value = (os.environ if environ is None else environ).get(NOTEBOOK_PATHS_ENV, "baseline")
    if value not in ("baseline", "native"):
        raise ValueError(f"{NOTEBOOK_PATHS_ENV} must be 'baseline' or 'native', got {value!r}")
    return reduced_env() if value == "baseline" else {}


def command(python: str = sys.executable, *options: str) -> list[str]:
    """The stage's pytest command, with more pytest ``options`` (run with :func:`reduced_env` in the environment)."""
    cmd = [python, "-m", "pytest", "-p", "no:cacheprovider", "-p", "portable"]
    jobs = os.environ.get("DPCOMPENDIUM_TEST_JOBS", str(min(2, os.cpu_count() or 1)))
    cmd += ["-m", "numerics", "-n", jobs, "--dist", "loadfile"]
    return [*cmd, *options, *test_files()]


# ---- the pytest plugin


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to run unless every feature named in NPY_DISABLE_CPU_FEATURES is one numpy knows and has switched
    off."""
    wanted = [
        x for x in os.environ.get("NPY_DISABLE_CPU_FEATURES", "").replace(" ", ",").split(",") if x
    ]
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as f
    except ImportError:  # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_features__ as f
    unknown = [x for x in wanted if x not in f]  # numpy only warns about these, and ignores them
    if unknown:
        raise pytest.UsageError(f"portable: numpy knows no CPU feature {', '.join(unknown)}")
    still_on = [x for x in wanted if f.get(x)]
    if still_on:
        raise pytest.UsageError(f"portable: numpy still dispatches {', '.join(still_on)}")


def pytest_report_header(config: pytest.Config) -> str:
    shown = ("NPY_DISABLE_CPU_FEATURES", "NUMBA_CPU_NAME", "OPENBLAS_CORETYPE")
    return "portable: " + " ".join(f"{k}={os.environ.get(k, '')!r}" for k in shown)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:  # a chapter's cells belong to the stage
        if item.nodeid.split("::")[0].endswith(".ipynb"):
            item.add_marker(pytest.mark.numerics)


def main(argv: list[str]) -> int:
    env = reduced_env()
    if "--env" in argv:
        print(" ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()))
        return 0
    tools = os.pathsep.join(filter(None, [str(ROOT / "tools"), os.environ.get("PYTHONPATH")]))
    full = {
        **os.environ,
        **env,
        "PYTHONPATH": tools,
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",
    }
    return subprocess.call(command(), cwd=ROOT, env=full)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
