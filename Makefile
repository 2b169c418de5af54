# Two commands do all the set-up on a fresh machine:
#   make demo   -> creates .venv if missing, runs the main job on the bundled example data
#   make test   -> creates .venv if missing, runs the whole test suite (slow studies excluded)
# The virtual environment is built with the Python named in .python-version (3.12, via pyenv)
# and pinned by requirements.lock, so every machine resolves the same versions.

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PYTEST_ARGS ?= -m "not slow" -n 2

.PHONY: demo test test-all lint format bench clean lock

$(STAMP): pyproject.toml requirements.lock
	@PY=$$(for c in python3.12 python3 python; do \
	    if command -v $$c >/dev/null 2>&1 && $$c -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then echo $$c; break; fi; \
	  done); \
	if [ -z "$$PY" ]; then echo "error: Python >= 3.12 not found (pyenv: 'pyenv install 3.12')" >&2; exit 2; fi; \
	if [ ! -x $(BIN)/python ]; then echo "creating $(VENV) with $$PY"; $$PY -m venv $(VENV); fi
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements.lock -e ".[test,dask,docs,mlflow]"
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/bayes-prc demo --force

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test-all: $(STAMP)
	$(BIN)/python -m pytest -n 2

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_empirical.py

lock:
	$(BIN)/python -m pip freeze --exclude-editable | grep -v '^-e' > requirements.lock

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
