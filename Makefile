# dpcompendium — two commands do all set-up on a fresh machine:
#   make book   build the executed HTML book in _build/html
#   make test   unit + property tests, every chapter under nbval, the book with warnings as errors, a browser check
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LOCK   := requirements-lock.txt

# The shared data folder sits beside the clone (as in CI); use it as the data cache when present.
SHARED_DATA := $(abspath ../shared/data)
ifneq ($(wildcard $(SHARED_DATA)/SHA256SUMS),)
export DPCOMPENDIUM_DATA_DIR ?= $(SHARED_DATA)
endif
export MPLBACKEND := Agg
export PYTHONHASHSEED := 0
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# Never let a test or a chapter reach the network for data.
export DPCOMPENDIUM_OFFLINE ?= 1

.PHONY: help venv book test unit notebooks book-strict browser lint lock clean
help:
	@echo "make book   - create .venv from the lock, execute every chapter, build _build/html"
	@echo "make test   - create .venv from the lock, run all tests (unit, nbval, strict book build, browser)"

$(STAMP): $(LOCK) pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (dpcompendium)" >/dev/null
	touch $(STAMP)

venv: $(STAMP)

book: $(STAMP)
	$(BIN)/dpcompendium book

test: $(STAMP)
	$(BIN)/python tools/run_tests.py

unit: $(STAMP)
	$(BIN)/python -m pytest tests -m "not book" -n 2

notebooks: $(STAMP)
	$(BIN)/python -m pytest --nbval-lax -p no:cacheprovider notebooks

book-strict: $(STAMP)
	$(BIN)/dpcompendium book --strict

browser: $(STAMP)
	$(BIN)/python -m pytest -m book tests/test_book_browser.py

lint: $(STAMP)
	$(BIN)/ruff check src tests notebooks tools
	$(BIN)/ruff format --check src tests tools

lock:
	uv pip compile pyproject.toml --extra book --extra test --extra dev --python-version 3.11 \
	  --generate-hashes --no-header -o $(LOCK)
	$(BIN)/python tools/sync_environment.py

clean:
	rm -rf _build results .pytest_cache
