"""A run planned in one place: what ``dpcompendium run`` checks before a kernel starts, and the plan it runs.

Each check raises a one-line ``ValueError`` (the CLI prints it and exits with 2) or returns what the run will use:

- :func:`check_out_dir`: ``--out`` must be a writable directory, or a folder that can be created in an existing,
  writable directory (a missing parent, a file on the path, an unwritable or virtual folder are refused);
- :func:`check_memory`: a chapter's manifest may declare ``[resources] memory_bytes``, an expression over its
  parameters in the syntax of ``# require:`` lines estimating the bytes the run allocates at its peak; a parameter
  set whose estimate exceeds :data:`MEMORY_SHARE` of the memory available is refused with the estimate;
- :func:`cap_n_jobs`: ``n_jobs`` above the cores available to this process is capped to them, with a notice (more
  workers than cores add processes and memory, never speed; the tables do not depend on ``n_jobs``).

:func:`preflight` runs all three after :func:`dpcompendium.book.contract.validate_parameters` and returns the run's
:class:`RunPlan` (the values, the data it reads, resources, folder, workers, language); :func:`plan_run` adds the
checks of the command line (``--lang``, ``--pdf``, an earlier run's results, the data files present). ``dpcompendium
run`` executes the plan, the fuzz accepts a parameter set when :func:`preflight` plans it
(:func:`dpcompendium.book.fuzz.extreme_cases` times it), and the rerun page shows the plan's values and command.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.messages import EDITIONS
from .contract import (
    Chapter,
    _require_names,
    required_datasets,
    safe_eval,
    validate_parameters,
)

__all__ = [
    "MEMORY_SHARE",
    "PAGE_LANGUAGES",
    "RunPlan",
    "available_memory",
    "cap_n_jobs",
    "check_lang",
    "check_memory",
    "check_out_dir",
    "cores",
    "format_bytes",
    "memory_estimate",
    "missing_data",
    "plan_run",
    "preflight",
    "run_command",
    "yaml_value",
]

#: The languages of a rerun's page: English and the book's other editions.
PAGE_LANGUAGES: tuple[str, ...] = ("en", *EDITIONS)

#: Share of the available memory a run may be estimated to need.
MEMORY_SHARE = 0.8


def cores() -> int:
    """CPU cores this process may run on (:func:`dpcompendium.core.parallel.cpu_cores`)."""
    from ..core.parallel import cpu_cores

    return cpu_cores()


def available_memory() -> int:
    """Bytes of memory available to a new process without swapping (``MemAvailable``; psutil elsewhere)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    import psutil  # pragma: no cover

    return int(psutil.virtual_memory().available)  # pragma: no cover


def format_bytes(n: float) -> str:
    """``n`` bytes with a binary unit and 3 significant digits (``407 TiB``)."""
    if not math.isfinite(n):
        return "more bytes than a float can count"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if abs(n) < 1024 or unit == "EiB":
            return f"{n:.3g} {unit}"
        n /= 1024
    raise AssertionError  # pragma: no cover


def check_out_dir(out: str | os.PathLike, option: str = "--out") -> Path:
    """The resolved results folder ``out``, refused in one line unless it is a writable directory or a folder
    that can be created in an existing, writable directory. Creates nothing."""
    raw = str(out)
    if not raw.strip():
        raise ValueError(f"{option} must name a folder, got {raw!r}")
    path = Path(out).expanduser()
    try:
        path = path.resolve()
    except (OSError, RuntimeError) as exc:
        raise ValueError(f"{option} cannot be resolved, got {raw!r} ({exc})") from None
    if path.exists():
        if not path.is_dir():
            raise ValueError(f"{option} must be a directory, got {raw!r} (a file)")
        where = path
    else:
        parent = path.parent
        if not parent.exists():
            raise ValueError(
                f"{option} must be in an existing folder, got {raw!r} ({parent} does not exist)"
            )
        if not parent.is_dir():
            raise ValueError(
                f"{option} must be in a folder, got {raw!r} ({parent} is not a directory)"
            )
        where = parent
    if not os.access(where, os.W_OK | os.X_OK) or _virtual(where):
        raise ValueError(f"{option} must be writable, got {raw!r} ({where} is not writable)")
    return path


def _virtual(path: Path) -> bool:
    """True for the kernel's virtual file systems (/proc, /sys), where a folder can never be made."""
    return any(path == Path(p) or Path(p) in path.parents for p in ("/proc", "/sys"))


def memory_estimate(chapter: Chapter, values: dict[str, Any]) -> float | None:
    """Bytes the run allocates at its peak by the chapter's manifest (``[resources] memory_bytes``, evaluated on
    the defaults overridden by ``values``), or None where the manifest gives no estimate."""
    manifest = chapter.manifest
    expr = manifest.resources.get("memory_bytes") if manifest is not None else None
    if not expr:
        return None
    merged = {**chapter.defaults, **values}
    try:
        need = float(safe_eval(expr, merged))
    except OverflowError:
        return math.inf
    return need if math.isfinite(need) else math.inf


def check_memory(chapter: Chapter, values: dict[str, Any], available: int | None = None) -> None:
    """Refuse (one-line ``ValueError``) a parameter set whose memory estimate exceeds :data:`MEMORY_SHARE` of
    ``available`` (default: the memory available now), naming the estimate and the parameters it depends on."""
    need = memory_estimate(chapter, values)
    if need is None:
        return
    have = available_memory() if available is None else int(available)
    if need <= MEMORY_SHARE * have:
        return
    expr = chapter.manifest.resources["memory_bytes"]
    merged = {**chapter.defaults, **values}
    names = [n for n in _require_names(expr) if n in merged]
    changed = [n for n in names if n in values] or names
    shown = ", ".join(f"{n} = {_short(merged[n])}" for n in changed)
    raise ValueError(
        f"parameters {shown} need about {format_bytes(need)} of memory (estimate of chapter "
        f"{chapter.id}), {format_bytes(have)} available: lower {' or '.join(changed)}"
    )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def cap_n_jobs(chapter: Chapter, values: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """``values`` with ``n_jobs`` capped to :func:`cores` (a new dict), and the notice to print (None: unchanged)."""
    if "n_jobs" not in chapter.parameters:
        return values, None
    n = values.get("n_jobs", chapter.defaults["n_jobs"])
    limit = cores()
    if not isinstance(n, int) or n <= limit:
        return values, None
    return (
        {**values, "n_jobs": limit},
        f"n_jobs {n} capped to {limit}, the cores this run may use: more worker processes than cores "
        "add processes and memory, not speed (the results do not depend on n_jobs)",
    )


@dataclass
class RunPlan:
    """The plan of a run, made in one place (:func:`preflight`, :func:`plan_run`) and read by ``dpcompendium run``,
    the fuzz (:func:`dpcompendium.book.fuzz.parameter_strategy`, the extremes) and the rerun page
    (:func:`dpcompendium.book.rerun_page.write_page`): the chapter; the values given with ``-p`` (validated,
    ``n_jobs`` capped); the results folder ``out`` (None: not planned to write) and the run's folder in it
    (:attr:`dest`); notices to print; the memory estimate; the files of the data registry the run reads
    (:func:`~dpcompendium.book.contract.required_datasets`); its worker processes (``n_jobs``; None for a chapter
    without it); and the language of its page."""

    chapter: Chapter
    values: dict[str, Any]
    out: Path | None
    notices: list[str] = field(default_factory=list)
    memory_bytes: float | None = None
    datasets: list[str] = field(default_factory=list)
    workers: int | None = None
    lang: str = "en"

    @property
    def run_values(self) -> dict[str, Any]:
        """Every parameter the kernel runs with: the chapter's defaults overridden by ``values``."""
        return {**self.chapter.defaults, **self.values}

    @property
    def changed(self) -> dict[str, Any]:
        """The values that differ from the chapter's defaults (``output_dir`` left out), in the notebook's order."""
        defaults = self.chapter.defaults
        return {
            name: value
            for name, value in self.run_values.items()
            if name != "output_dir" and value != defaults[name]
        }

    @property
    def dest(self) -> Path | None:
        """The run's results folder, ``out/<chapter id>`` (None without ``out``)."""
        return None if self.out is None else self.out / self.chapter.id

    @property
    def failed_notebook(self) -> Path | None:
        """Where a failed run keeps its executed notebook, ``out/<chapter id>.failed.ipynb``."""
        return None if self.out is None else self.out / f"{self.chapter.id}.failed.ipynb"

    @property
    def figure_languages(self) -> str:
        """The languages the kernel draws its figures in besides English: the page's (``""``: English only)."""
        return "" if self.lang == "en" else self.lang

    def command(self, values: dict[str, Any] | None = None) -> str:
        """The command line of this run: ``dpcompendium run <id>`` with ``-p NAME VALUE`` for each value of
        ``values`` (default: :attr:`changed`), each value as YAML flow (what ``-p`` reads), quoted for a shell."""
        return run_command(self.chapter.id, self.changed if values is None else values)


def run_command(chapter_id: str, values: dict[str, Any]) -> str:
    """``dpcompendium run <chapter_id> -p NAME VALUE ...`` for ``values``: each value written as ``-p`` reads it
    (YAML flow: ``[0.5, 1.0]``, ``heights``, ``1e-07``), quoted for a POSIX shell where it needs it."""
    import shlex

    words = ["dpcompendium", "run", chapter_id]
    for name, value in values.items():
        words += ["-p", name, shlex.quote(yaml_value(value))]
    return " ".join(words)


def yaml_value(value: Any) -> str:
    """``value`` as a ``-p`` value: a YAML flow scalar or list that :class:`dpcompendium.book.cliutil.YamlLoader`
    reads back as ``value`` (strings unquoted where YAML keeps them strings)."""
    import json

    import yaml

    from .cliutil import YamlLoader

    if isinstance(value, list):
        return "[" + ", ".join(yaml_value(v) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    if isinstance(value, bool) or value is None or isinstance(value, int | float):
        text = json.dumps(value) if not isinstance(value, float) else repr(value)
    else:
        text = str(value)
    odd = isinstance(value, str) and ("," in text or text != text.strip() or not text)
    if odd or yaml.load(text, Loader=YamlLoader) != value:
        text = json.dumps(value)
    return text


def preflight(
    chapter: Chapter, values: dict[str, Any], out: str | os.PathLike | None = None, lang: str = "en"
) -> RunPlan:
    """Every check of ``dpcompendium run`` that depends on the chapter and its values, before a kernel starts: the
    contract (:func:`~dpcompendium.book.contract.validate_parameters`: types, ranges, ``# require:`` lines), the
    output folder, the memory estimate and the cap of ``n_jobs``. Raises a one-line ``ValueError``; returns the
    run's plan (:class:`RunPlan`)."""
    validate_parameters(chapter, values)
    path = check_out_dir(out) if out is not None else None
    check_memory(chapter, values)
    capped, notice = cap_n_jobs(chapter, values)
    merged = {**chapter.defaults, **capped}
    return RunPlan(
        chapter,
        capped,
        path,
        [notice] if notice else [],
        memory_estimate(chapter, capped),
        required_datasets(chapter, capped),
        merged.get("n_jobs"),
        lang,
    )


def check_lang(lang: str, option: str = "--lang") -> str:
    """``lang`` if it is a language of the rerun page (:data:`PAGE_LANGUAGES`) whose figures this machine can draw
    (the CJK font for Chinese), else a one-line ``ValueError``."""
    from ..core.messages import CJK_EDITIONS

    if lang not in PAGE_LANGUAGES:
        raise ValueError(f"{option} must be one of {', '.join(PAGE_LANGUAGES)}, got {lang!r}")
    if lang in CJK_EDITIONS:  # the page's figures are drawn in Chinese: the font is needed
        from ..core.plotting import CJK_FONT, CJK_FONT_HINT, cjk_font_available

        if not cjk_font_available():
            raise ValueError(
                f"{option} {lang} draws the figures in Chinese and needs the font {CJK_FONT}, which this "
                f"machine does not have: {CJK_FONT_HINT}"
            )
    return lang


def missing_data(names: list[str]) -> str | None:
    """One line naming the files of ``names`` not usable in the data cache and how to get them, or None."""
    from ..core import data

    root, _ = data.cache_dir_source()
    bad = [(n, st) for n in names if (st := data.status(n, root)) != "present"]
    if not bad:
        return None
    shown = ", ".join(f"{data.registry()[n].file} ({st})" for n, st in bad)
    return (
        f"data not in the data cache {root}: {shown}; get it with 'dpcompendium data fetch "
        f"{' '.join(n for n, _ in bad)}' or set DPCOMPENDIUM_DATA_DIR to a folder that holds it (dpcompendium data)"
    )


def plan_run(
    chapter_id: str,
    values: dict[str, Any],
    out: str | os.PathLike,
    *,
    lang: str = "en",
    overwrite: bool = False,
    page: bool = True,
    pdf: bool = False,
    chromium: str | os.PathLike | None = None,
) -> RunPlan:
    """The plan of ``dpcompendium run``, every refusal made before anything runs or is written, in the order a
    user meets them: the options (``--lang``, ``--pdf`` with ``--no-page``, Chromium for ``--pdf``), the chapter,
    :func:`preflight` (the contract, ``--out``, memory, workers), the results of an earlier run in ``out/<id>``
    (refused without ``overwrite``), then the data files the run reads. ``chromium``: the browser ``pdf`` prints
    with (``dpcompendium.book.pdf.CHROMIUM``). Raises a one-line ``ValueError``."""
    from .contract import get_chapter

    check_lang(lang)
    if pdf and not page:
        raise ValueError("--pdf prints the rerun's page: it cannot be combined with --no-page")
    if pdf and not (
        chromium is not None and os.access(chromium, os.X_OK)
    ):  # the PDF needs Chromium
        raise ValueError(f"--pdf needs Chromium at {chromium} (apt-get install chromium)")
    chapter = get_chapter(chapter_id)
    plan = preflight(chapter, values, out, lang)
    if plan.dest is not None and plan.dest.exists() and not overwrite:
        raise ValueError(
            f"{plan.dest} holds the results of an earlier run of {chapter.id}: add --overwrite to replace them, "
            "or choose another --out"
        )
    missing = missing_data(plan.datasets)
    if missing:
        raise ValueError(f"chapter {chapter.id} needs {missing}")
    return plan
