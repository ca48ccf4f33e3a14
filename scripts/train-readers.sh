#!/bin/sh
# The last step of `make models`: the corner regressor and the upright reader trained on from the
# committed ones, at once, on the views the worker reads of 6,000 pair views and 1,200 tables
# (models/README.md, "The readers trained on a GPU"). Made to fit one command on a lent GPU
# machine (16 cores, one GPU: the views rendered by 16 processes, the batches augmented by
# loader processes, the two trainings inside BUDGET_S seconds in all); on a CPU it runs the same
# steps, far fewer training steps in its budget. Writes reader.onnx, corners.onnx, their
# weights (.pt) and logs to $OUT.
#
#   OUT=build/readers sh scripts/train-readers.sh
#   OUT=build/gpu PY=.venv-train/bin/python PAIR=40 TABLE=20 BUDGET_S=150 \
#       sh scripts/train-readers.sh                           # the same steps, small
set -eu
: "${OUT:?where the results go}" "${PY:=python3}" "${PAIR:=6000}" "${TABLE:=1200}" "${LR:=5e-4}"
export ORT_DISABLE_TELEMETRY=1 PYTHONPATH=".${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
start=$(date +%s)
cores=$(nproc)
: "${DEVICE:=$("$PY" -c "import torch; print('cuda' if torch.cuda.is_available() else 'cpu')")}"
if [ "$DEVICE" = cpu ]; then
    : "${LOADERS:=0}" "${BUDGET_S:=14400}"
else
    : "${LOADERS:=$((cores / 2 - 1))}" "${BUDGET_S:=490}"
fi
data=build/upright-readers
mkdir -p "$OUT"
"$PY" -c "import torch, cv2, onnxruntime; print('torch', torch.__version__, \
torch.cuda.is_available(), 'cv2', cv2.__version__, 'ort', onnxruntime.__version__)"
"$PY" -m models.upright_data "$data" --pair-views "$PAIR" --table-views "$TABLE" \
    --jobs "$cores" --detector models/detector.onnx
# What is left of the budget, less a minute and a quarter for the last validation and export.
minutes=$(echo "$start $(date +%s) $BUDGET_S" | awk '{printf "%.2f", ($3 - ($2 - $1) - 75) / 60}')
echo "data in $(($(date +%s) - start)) s; training on $DEVICE for $minutes minutes"
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
