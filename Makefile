# dpcompendium — two commands do all set-up on a fresh machine with Python 3.11:
#   make book   create .venv from the lock, execute every chapter at its default parameters, build _build/html
#   make test   create .venv from the lock; unit + property tests, every chapter under nbval, the book with warnings
#               as errors, a check of the built HTML in headless Chromium, and the numerics-sensitive tests again on
#               another CPU's code paths (the base); then the integration stage:
#               chapters rerun at other parameters, documented commands, a Dask cluster (tools/run_tests.py)
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LOCK   := requirements-lock.txt
PIP    := $(BIN)/python -m pip --disable-pip-version-check

# The shared data folder sits beside the clone (as in CI); use it as the data cache when present.
SHARED_DATA := $(abspath ../shared/data)
ifneq ($(wildcard $(SHARED_DATA)/.),)
export DPCOMPENDIUM_DATA_DIR ?= $(SHARED_DATA)
endif
# Plain Python processes draw no windows; the book build gives its kernels the inline backend itself.
export MPLBACKEND ?= Agg
export PYTHONHASHSEED := 0
# One BLAS/OpenMP thread per process: make test and make book run several processes at once on the machine's
# cores (two chapters, two test workers, a Dask cluster); threaded BLAS on top of that oversubscribes the cores.
export OMP_NUM_THREADS ?= 1
export OPENBLAS_NUM_THREADS ?= 1
export MKL_NUM_THREADS ?= 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# Python keeps the bytecode of what it imports (its default: __pycache__ in .venv and src/, ignored by git). Some
# machines set PYTHONDONTWRITEBYTECODE=1 (this project's CI machine does); then each of make test's ~100 Python
# processes (chapter kernels, test workers, the book build, Dask workers) compiles numpy, scipy, pandas, sklearn,
# matplotlib and Sphinx from source again: measured here, a chapter's imports take 8.7 s from source, 2.7 s from
# bytecode.
unexport PYTHONDONTWRITEBYTECODE
# Never let a test or a chapter reach the network for data (the Pages workflow sets DPCOMPENDIUM_OFFLINE=0).
export DPCOMPENDIUM_OFFLINE ?= 1
# Jupyter looks for the kernel inside .venv, not in the user's folders.
export JUPYTER_PLATFORM_DIRS := 1
# The book's Chinese figures need the CJK font (fonts-noto-cjk): under make a missing font is an error, not the
# Chinese figures skipped with a notice (what a notebook run in Jupyter on a machine without the font does).
export DPCOMPENDIUM_REQUIRE_CJK_FONT ?= 1

.PHONY: help venv book pdf test unit notebooks book-strict browser zh portable integration fuzz lint format bench lock env clean
help:
	@echo "make book   - create .venv from the lock, execute every chapter, build _build/html"
	@echo "make test   - create .venv from the lock, run all tests: the base (unit, nbval, strict book build, browser, portable),"
	@echo "              then the integration stage (chapters at other parameters, documented commands, Dask)"
	@echo "make unit | notebooks | book-strict | browser | portable | integration   - one stage of make test"
	@echo "              (portable: numerics tests and the portable chapters' headline cells with numpy's SIMD dispatch reduced)"
	@echo "make pdf    - the book as PDF (_build/pdf/dpcompendium.pdf, the Library reference dpcompendium-api.pdf, one PDF per chapter) with Debian's chromium"
	@echo "make fuzz   - run every chapter with FUZZ_EXAMPLES (30) random valid parameter sets each (FUZZ_K=<id>: one chapter)"
	@echo "make lint | format | bench | lock | clean"

# The virtual environment, from the hash-pinned lock only (no resolver, no unpinned download). It is made without pip
# (ensurepip takes ~7 s): the machine's pip puts uv, itself pinned by hash in the lock, into it, and uv installs the
# lock and the project ~10x faster than pip. If the machine's Python has no pip, or uv fails, pip is bootstrapped into
# the venv and installs everything.
$(STAMP): $(LOCK) pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else "make: the lock is for Python 3.11; set PYTHON=/path/to/python3.11 (found %d.%d)" % sys.version_info[:2])'
	$(PYTHON) -m venv --without-pip $(VENV)
	awk '/^uv==/{p=1; print; next} p && /^ +--hash/{print; next} {p=0}' $(LOCK) > $(VENV)/uv-requirement.txt
	$(PYTHON) -m pip --disable-pip-version-check --python $(BIN)/python install --quiet --require-hashes --no-deps \
	    -r $(VENV)/uv-requirement.txt \
	  && $(BIN)/uv pip install --quiet --python $(BIN)/python --require-hashes --no-deps -r $(LOCK) \
	  && $(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps --no-build-isolation -e . \
	  || { $(BIN)/python -m ensurepip --default-pip >/dev/null \
	       && $(PIP) install --quiet --require-hashes --no-deps -r $(LOCK) \
	       && $(PIP) install --quiet --no-deps --no-build-isolation -e . ; }
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (dpcompendium)" >/dev/null
	touch $(STAMP)

# The kernels of this environment do not print ipykernel's "running over TCP without encryption" warning when
# another program (otter, JupyterLab) starts them (dpcompendium.book.kernels).
KERNEL_CONFIG := $(VENV)/etc/ipython/ipython_kernel_config.py
$(KERNEL_CONFIG): $(STAMP) src/dpcompendium/book/kernels.py
	$(BIN)/python -m dpcompendium.book.kernels

venv: $(STAMP) $(KERNEL_CONFIG)

book: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/dpcompendium book

# Both editions: the book stage builds the English book and the Chinese one (_build/html/zh_CN, from the same
# executions, warnings as errors); the zh stage checks the Chinese one (tests/test_book_zh.py, the browser checks on its
# pages). TEST_ARGS=--english-only leaves the Chinese edition out.
# TEST_ARGS=--pdf (what .ci/run passes): after the integration stage, the pdf stage prints the book to PDF and checks
# it (tests/test_book_pdf.py); its time is printed apart and its tests are counted in the closing line.
TEST_ARGS ?=
test: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/python tools/run_tests.py --units $(TEST_ARGS)

# The PDF of the book and of each chapter (dpcompendium.pdf: the built HTML printed by /usr/bin/chromium, after
# MathJax; the glossary's Chinese terms need a CJK font, Debian's fonts-noto-cjk). Builds the book first (a no-op
# for the chapters whose execution is current).
pdf: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/dpcompendium book
	$(BIN)/python -m dpcompendium.book.pdf

# One stage of make test each, run as make test runs it (tools/run_tests.py --only STAGE).
unit notebooks browser zh portable integration: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/python tools/run_tests.py --only $@

book-strict: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/python tools/run_tests.py --only book

# Property-based runs of the chapters: FUZZ_EXAMPLES random valid parameter sets per chapter, at the fuzz size of
# the [fuzz] table of each chapter's manifest (make test runs a fixed edge set per chapter instead); then the
# `extended` tests: every parameter set that ever failed, every documented command not run by make test, the
# extremes fuzz (tests/test_extremes.py: every parameter at the smallest and largest values it allows; the values just
# outside and extreme ones are refused up front, in the base of make test) and the edge fuzz (tests/test_edge_fuzz.py:
# every range's ends, every list at length one, combined pairwise). The summary counts the runs of each kind per chapter.
FUZZ_EXAMPLES ?= 30
FUZZ_K ?=
FUZZ_LOG ?= _build/fuzz.jsonl
fuzz: $(STAMP) $(KERNEL_CONFIG)
	@mkdir -p $(dir $(FUZZ_LOG)) && rm -f $(FUZZ_LOG)
	DPCOMPENDIUM_FUZZ_LOG=$(abspath $(FUZZ_LOG)) DPCOMPENDIUM_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) DPCOMPENDIUM_FUZZ_RANDOM=1 \
	  $(BIN)/python -m pytest -p no:cacheprovider -m fuzz tests/test_chapter_fuzz.py -v \
	  -k "every_valid_parameter_set $(if $(FUZZ_K),and ($(FUZZ_K)))"; status=$$?; \
	  DPCOMPENDIUM_FUZZ_LOG=$(abspath $(FUZZ_LOG)) \
	  $(BIN)/python -m pytest -p no:cacheprovider -m extended -n 2 tests $(if $(FUZZ_K),-k "$(FUZZ_K)") || status=1; \
	  $(BIN)/python tools/fuzz_summary.py $(FUZZ_LOG); exit $$status

# Notebooks and the primer: ruff format at 88 characters, the width of the book's code box (notebooks/ruff.toml,
# book/ruff.toml).
lint: $(STAMP)
	$(BIN)/ruff check src tests notebooks tools benchmarks book/primer.ipynb
	$(BIN)/ruff format --check src tests notebooks tools benchmarks book/primer.ipynb
	$(BIN)/python -m pytest -q tests/test_env_lock.py

format: $(STAMP)
	$(BIN)/ruff check --fix src tests notebooks tools benchmarks book/primer.ipynb
	$(BIN)/ruff format src tests notebooks tools benchmarks book/primer.ipynb

# Wall-time budgets: pytest-benchmark over benchmarks/ (files bench_*.py).
# Each chapter's wall time at its defaults and the last make test's stage times, in speed units measured in the same
# run (tools/bench.py; BENCH_ARGS="mwem --cells 8" for one chapter's profile); then the library's micro-benchmarks.
BENCH_ARGS ?=
bench: $(STAMP) $(KERNEL_CONFIG)
	$(BIN)/python tools/bench.py $(BENCH_ARGS)
	$(BIN)/python -m pytest benchmarks -o python_files="bench_*.py" -p no:cacheprovider --benchmark-only \
	  --benchmark-columns=min,mean,max,rounds --benchmark-sort=name --benchmark-group-by=module

# Regenerate the lock (needs uv and the network), then environment.yml from it.
lock:
	uv pip compile pyproject.toml --extra book --extra test --extra dev --extra dask --python-version 3.11 \
	  --generate-hashes --no-header -o $(LOCK)
	$(MAKE) env

env:
	$(PYTHON) tools/sync_environment.py

clean:
	rm -rf _build results .pytest_cache .jupyter_cache
