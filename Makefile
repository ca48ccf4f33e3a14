# Feltwatch: `make demo` runs the main job, `make test` the whole test suite.
# Both create .venv on first use and install the pinned versions of constraints.txt.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check --quiet
export ORT_DISABLE_TELEMETRY := 1

# Engine modules compiled with mypyc (part of mypy, in the dev extra) for `make test` and
# `make bench`; everything runs as plain Python too (`make uncompile`, and `make demo`).
COMPILED := engine/hand.py engine/pots.py engine/settlement.py engine/session.py \
	engine/codec.py engine/ranking.py $(filter-out engine/rules/__init__.py \
	engine/rules/catalogue.py engine/rules/coverage.py engine/rules/entry.py, \
	$(wildcard engine/rules/*.py))

# Training (`make models`) has its own venv: torch + ultralytics (the `train` extra) and the
# run-time libraries the data scripts use, except the headless OpenCV (ultralytics brings the
# desktop build; the two must not share a venv). Never part of `make test` or CI.
TRAIN_VENV := .venv-train
TRAIN := PYTHONPATH=. $(TRAIN_VENV)/bin/python
# (quoted for the shell: `paho-mqtt>=2` is not a redirection)
TRAIN_PACKAGES = $(shell $(PYTHON) -c 'import shlex, tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print(shlex.join(p["optional-dependencies"]["train"] + [d for d in p["dependencies"] if "opencv" not in d]))')

.PHONY: demo test lint servers bench lock clean compile uncompile models models-resume models-carry \
	eval

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Feltwatch needs Python 3.11, found " + sys.version.split()[0]'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-run: $(BIN)/python pyproject.toml constraints.txt
	$(PIP) install -c constraints.txt -e .
	touch $@

$(VENV)/.installed-dev: $(BIN)/python pyproject.toml constraints.txt
	$(PIP) install -c constraints.txt -e '.[dev]'
	touch $@ $(VENV)/.installed-run

# The simulated table played by the real appliance (`feltwatch demo --help`: hands, seed, speed).
demo: $(VENV)/.installed-run
	$(BIN)/feltwatch demo --stay

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# pytest exits 5 when it collected no test: make treats every non-zero exit as a failure.
# The suite runs on the plain Python engine, then again on the compiled one.
test: lint uncompile servers
	$(BIN)/python -m pytest
	$(MAKE) --no-print-directory compile
	$(BIN)/python -m pytest --ignore=tests/vision --ignore=tests/models --ignore=tests/e2e  # the compiled engine

# Debian's chromium, mosquitto and postgresql for the tests (they start their own servers).
servers:
	sh scripts/install-test-servers.sh

bench: compile
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/devices.py
	$(BIN)/python bench/vision.py

$(TRAIN_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/python -m pip --disable-pip-version-check --quiet install $(TRAIN_PACKAGES)
	touch $@

# The vision models from nothing by one recipe (models/recipe.toml, models/README.md): renders
# into build/recipe, trains a fixed number of steps, evaluates, then installs the networks in
# models/. DEVICE=cuda trains on a GPU (scripts/recipe-on-gpu.sh runs it on a lent machine).
# models-resume goes on with a stopped run in build/recipe (finished steps are not run again,
# trainings go on from their last checkpoint), or, where build/recipe holds none, with the run
# carried in $(CARRIED) (models/recipe_carry.py; models-carry packs the stopped run there).
DEVICE ?= cpu
CARRIED := models/recipe-carry.tar.gz
models: $(VENV)/.installed-dev $(TRAIN_VENV)/.installed
	$(BIN)/python -m models.recipe --device $(DEVICE) --install

models-resume: $(VENV)/.installed-dev $(TRAIN_VENV)/.installed
	if [ ! -f build/recipe/run-options.json ] && [ -f $(CARRIED) ]; then \
		$(BIN)/python -m models.recipe_carry unpack $(CARRIED); fi
	$(BIN)/python -m models.recipe --device $(DEVICE) --install --resume

models-carry: $(VENV)/.installed-dev
	$(BIN)/python -m models.recipe_carry pack $(CARRIED)

# The models' accuracy on the real test photos and on rendered 1080p tables (models/README.md).
eval: $(VENV)/.installed-dev
	$(BIN)/python -m models.eval --json build/eval.json

compile: $(VENV)/.installed-dev
	@echo "mypyc: compiling $(words $(COMPILED)) engine modules"
	@$(BIN)/python scripts/compile_engine.py $(COMPILED) > build-mypyc.log 2>&1 \
		|| (cat build-mypyc.log; exit 1)
	@rm -f build-mypyc.log

uncompile:
	@find engine -name '*.so' -delete
	@rm -f *__mypyc*.so

# Re-pin every dependency (run after changing pyproject.toml, then commit constraints.txt).
lock:
	rm -rf .venv-lock && $(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip --disable-pip-version-check --quiet install -e '.[dev]'
	.venv-lock/bin/python -m pip freeze --exclude-editable | grep -v '^-e ' > constraints.txt
	rm -rf .venv-lock

clean: uncompile
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
