#!/bin/sh
# The models' recipe (models/recipe.toml) on a lent GPU machine: 16 cores render, the GPU trains.
# Its image has torch, onnx, onnxruntime and OpenCV but no network: the wheels it lacks travel in
# .whl/ (ultralytics, ultralytics-thop, ultralytics-platform, polars, resvg-py, pillow; for
# Python 3.12, downloaded with `pip download --no-deps --only-binary=:all: --python-version
# 3.12`), and in .whl/fonts the TrueType fonts of Debian's fonts-dejavu-core (the renderer's
# index fonts, models/synth/cards.py FONTS), put in place when the image lacks them. The
# evaluation runs afterwards on this machine (models.eval), not there. What comes back to $OUT:
# the four networks, the detector's weights, run.json (the recipe's hash, each step's seconds)
# and the steps' logs.
#
#   OUT=/tmp/out sh scripts/recipe-on-gpu.sh [SCALE] [--resume]
#
# --resume goes on with the run a command before left in /tmp/recipe on the same warm machine
# (a command stopped at its time limit keeps its finished steps and the trainings' checkpoints),
# or, on a fresh machine, with the run a CPU began and carried in models/recipe-carry.tar.gz
# (models/recipe_carry.py).
set -eu
: "${OUT:?where the results go}"
scale=${1:-1}
resume=${2:-}
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl
fonts=/usr/share/fonts/truetype/dejavu
if [ ! -f "$fonts/DejaVuSerif.ttf" ]; then
    mkdir -p "$fonts" && cp .whl/fonts/*.ttf "$fonts"/
fi
export PYTHONPATH="/tmp/site" ORT_DISABLE_TELEMETRY=1 PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
carried=models/recipe-carry.tar.gz
if [ "$resume" = "--resume" ] && [ ! -f /tmp/recipe/run-options.json ] && [ -f "$carried" ]; then
    python3 -m models.recipe_carry unpack "$carried" --build /tmp/recipe
fi
status=0
python3 -m models.recipe --device cuda --jobs "$(nproc)" --train-python python3 \
    --skip eval --scale "$scale" --build /tmp/recipe $resume || status=$?
cp /tmp/recipe/models/*.onnx /tmp/recipe/models/detector.pt /tmp/recipe/models/run.json \
    "$OUT"/ 2>/dev/null || true
tar czf "$OUT/logs.tgz" -C /tmp/recipe logs
exit "$status"
