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
	models-chain eval

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

# The steps that made the committed networks (models/README.md, "Reproducing"): each training
# capped by wall-clock minutes (HOURS, MINUTES) and most continuing from the network before.
HOURS ?= 1.5
MINUTES ?= 70
SPARSE = --lr 1e-3 --real-share 0.35 --threads 2 --select sum
models-chain: $(VENV)/.installed-dev $(TRAIN_VENV)/.installed
	$(BIN)/python -m models.synth.make_dataset build/synth
	$(BIN)/python -m models.identity_data build/identity
	$(TRAIN) -m models.train --data build/synth --hours $(HOURS)
	$(TRAIN) -m models.train --data build/synth --hours 1.0 --weights models/detector.pt
	$(BIN)/python -m models.synth.make_dataset build/synth --train 1500 --val 60 \
		--surfaces any --seed 7
	$(TRAIN) -m models.train --data build/synth --hours 1.2 --weights models/detector.pt
	$(BIN)/python -m models.synth.table_tiles build/synth --seed 11
	$(BIN)/python -m models.synth.subset build/synth build/synth-mix train-table:all \
		train-0-:2000 train-7-:700 val-table:all val-1-:100 val-8-:60
	$(TRAIN) -m models.train --data build/synth-mix --hours 0.7 --weights models/detector.pt
	$(BIN)/python -m models.synth.make_dataset build/synth --train 2500 --val 100 --seed 21 \
		--card-px 40 70 --pair-share 0.7
	$(BIN)/python -m models.synth.subset build/synth build/synth-pairs train-21-:all \
		train-0-:1500 train-7-:500 train-table:720 val-22-:all val-1-:100 val-8-:60 val-table:all
	$(TRAIN) -m models.train --data build/synth-pairs --hours 1.25 --weights models/detector.pt
	$(TRAIN) -m models.quantize
	$(TRAIN) -m models.train_identity --data build/identity --minutes $(MINUTES)
	$(TRAIN) -m models.train_identity --data build/identity --init models/identity.onnx \
		--lr 1e-3 --threads 2 --minutes 95
	$(TRAIN) -m models.train_identity --data build/identity --init build/identity/identity.pt \
		--lr 1e-3 --threads 2 --minutes 45 --real-share 0.5
	$(BIN)/python -m models.identity_data build/identity-table --videos 600 --val-videos 40
	$(TRAIN) -m models.train_identity --data build/identity-table \
		--init models/identity.onnx --lr 1e-3 --minutes 40 --real-share 0.35
	$(BIN)/python -m models.identity_data build/identity-sparse --videos 600 --val-videos 40 \
		--sparse-scenes 4000 --val-sparse-scenes 300
	$(TRAIN) -m models.train_identity --data build/identity-sparse --init models/identity.onnx \
		$(SPARSE) --minutes 40
	$(TRAIN) -m models.train_identity --data build/identity-sparse \
		--init build/identity-sparse/identity.pt $(SPARSE) --balance-background --minutes 13
	$(TRAIN) -m models.train_identity --data build/identity-sparse \
		--init build/identity-sparse/identity.pt $(SPARSE) --balance-background --minutes 40
	$(BIN)/python -m models.identity_data build/identity-pips --scenes 1500 --val-scenes 150 \
		--videos 300 --val-videos 20 --sparse-scenes 4000 --val-sparse-scenes 300
	$(TRAIN) -m models.train_identity --data build/identity-pips --init models/identity.onnx \
		$(SPARSE) --balance-background --minutes 45
	$(TRAIN) -m models.train_identity --data build/identity-pips \
		--init build/identity-pips/identity.pt $(SPARSE) --balance-background --minutes 30
	$(BIN)/python -m models.identity_data build/identity-112 --scenes 1500 --val-scenes 150 \
		--videos 300 --val-videos 20 --sparse-scenes 4000 --val-sparse-scenes 300
	$(TRAIN) -m models.train_identity --data build/identity-112 --init models/identity.onnx \
		$(SPARSE) --balance-background --minutes 60
	$(BIN)/python -m models.identity_data build/identity-mask --scenes 1500 --val-scenes 150 \
		--videos 300 --val-videos 20 --sparse-scenes 4000 --val-sparse-scenes 300
	$(TRAIN) -m models.train_identity --data build/identity-mask --init models/identity.onnx \
		$(SPARSE) --balance-background --minutes 70
	$(TRAIN) -m models.train_identity --data build/identity-mask \
		--init build/identity-mask/identity.pt $(SPARSE) --lr 5e-4 --balance-background --minutes 62
	$(BIN)/python -m models.identity_data build/identity-pairs --scenes 0 --val-scenes 0 \
		--pair-scenes 5000 --val-pair-scenes 400 --no-real
	$(TRAIN) -m models.train_identity --data build/identity-pairs build/identity-mask \
		--init build/identity-mask/identity.pt $(SPARSE) --lr 5e-4 --balance-background --minutes 90
	$(BIN)/python -m models.upright_data build/upright --pair-views 5000 --table-views 2000
	$(TRAIN) -m models.train_upright corners --data build/upright --minutes 30
	$(TRAIN) -m models.train_upright corners --data build/upright \
		--init build/upright/corners.pt --lr 1e-3 --minutes 38
	$(TRAIN) -m models.train_upright corners --data build/upright \
		--init build/upright/corners.pt --lr 5e-4 --minutes 40
	$(TRAIN) -m models.train_upright reader --data build/upright --minutes 30
	$(TRAIN) -m models.train_upright reader --data build/upright \
		--init build/upright/reader.pt --lr 1e-3 --corner-noise 2 --minutes 48
	$(BIN)/python -m models.upright_data build/upright-det --pair-views 4000 --table-views 1000 \
		--detector models/detector.onnx
	$(TRAIN) -m models.train_upright reader --data build/upright-det --init models/upright.onnx \
		--lr 5e-4 --minutes 35
	OUT=build/readers PY=$(TRAIN_VENV)/bin/python sh scripts/train-readers.sh
	cp build/readers/reader.onnx models/upright.onnx
	cp build/readers/corners.onnx models/corners.onnx

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
