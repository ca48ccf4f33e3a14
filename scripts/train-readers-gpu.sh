#!/bin/sh
# The corner regressor and the upright reader trained on as `make models` does last, but on a
# lent GPU machine (16 cores, one GPU) inside one device command: the worker's views rendered
# with 16 processes, then both networks trained at once on the GPU from the committed ones, the
# batches augmented by loader processes. What it writes to $OUT comes back: the two exported
# networks, their weights and logs. models/README.md, "The readers trained on a GPU".
#
#   OUT=build/gpu PY=.venv-train/bin/python PAIR=40 TABLE=20 JOBS=2 LOADERS=1 DEVICE=cpu \
#       BUDGET_S=150 sh scripts/train-readers-gpu.sh       # the same steps, small, on the CPU
set -eu
: "${OUT:?where the results go}" "${PY:=python3}" "${PAIR:=8000}" "${TABLE:=1600}"
: "${JOBS:=16}" "${LOADERS:=7}" "${DEVICE:=cuda}" "${BUDGET_S:=540}" "${LR:=5e-4}"
export ORT_DISABLE_TELEMETRY=1 PYTHONPATH=".${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
start=$(date +%s)
data=build/upright-gpu
mkdir -p "$OUT"
"$PY" -c "import torch, cv2, onnxruntime; print('torch', torch.__version__, \
torch.cuda.is_available(), 'cv2', cv2.__version__, 'ort', onnxruntime.__version__)"
"$PY" -m models.upright_data "$data" --pair-views "$PAIR" --table-views "$TABLE" --jobs "$JOBS" \
    --detector models/detector.onnx
# What is left of the budget, less a minute and a quarter for the last validation and export.
minutes=$(echo "$start $(date +%s) $BUDGET_S" | awk '{printf "%.2f", ($3 - ($2 - $1) - 75) / 60}')
echo "data in $(($(date +%s) - start)) s; training for $minutes minutes"
pids=""
for network in reader corners; do
    init=models/corners.onnx
    [ $network = reader ] && init=models/upright.onnx
    "$PY" -m models.train_upright "$network" --data "$data" --init "$init" --lr "$LR" \
        --minutes "$minutes" --device "$DEVICE" --loaders "$LOADERS" --threads 1 \
        --score-steps 500 --out "$OUT/$network.onnx" >"$OUT/$network.log" 2>&1 &
    pids="$pids $!"
done
status=0
for pid in $pids; do wait "$pid" || status=1; done
cp "$data/reader.pt" "$data/corners.pt" "$OUT/" || status=1
tail -n 3 "$OUT/reader.log" "$OUT/corners.log"
echo "done in $(($(date +%s) - start)) s"
exit $status
