# Two set-up commands (README): `make play` and `make test`. Each builds .venv when needed.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	@$(PYTHON) -c "import sys; assert sys.version_info >= (3, 11), sys.version" || { echo "kraton needs Python 3.11 or newer"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	@# The editable install leaves the project's own modules uncompiled; where bytecode is not
	@# written on import (PYTHONDONTWRITEBYTECODE) every command would compile them again.
	$(BIN)/python -m compileall -q core analysis puzzles tui
	@touch $(STAMP)

.PHONY: install play test lint bench clean
install: $(STAMP)

play: $(STAMP)
	$(BIN)/kraton play

# One pytest worker per core (pytest-xdist): the suite is CPU-bound solver and engine work, and
# CI's two cores halve it (README, "Set-up").
test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n auto

lint: $(STAMP)
	$(BIN)/ruff check core analysis puzzles tui tests benchmarks
	$(BIN)/mypy core analysis puzzles tui tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache .benchmarks
