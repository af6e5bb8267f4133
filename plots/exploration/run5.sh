#!/bin/bash
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 GIT_COMMIT=$COMMIT 2>&1 | grep -E "error|spill"
mkdir -p build/tune; pids=""; i=0
for cfg in "8 128 256 32 128 8 16" "8 256 128 64 64 16 8" "16 128 256 32 128 8 16" "8 128 128 64 64 16 8" "16 256 128 64 64 16 8"; do
  i=$((i+1)); set -- $cfg
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DTUNE_BK=$1 -DTUNE_BM=$2 -DTUNE_BN=$3 -DTUNE_WM=$4 -DTUNE_WN=$5 -DTUNE_TM=$6 -DTUNE_TN=$7 step6_unroll/step6.cu build/libharness.a -lcublas -lcudart -o build/tune/x$i 2>&1 | grep -iE "spill|error" | head -2; echo "built x$i $cfg") &
  pids="$pids $!"
done
wait $pids
echo "== builds $(( $(date +%s) - T0 ))s"
for i in 1 2 3 4 5; do ./build/tune/x$i 255 257 33 --beta 0.5 --reps 1 --warmup 0 --csv | cut -d, -f1-4,15 ; done
for n in 2048 4096 8192; do
  echo -n "step6,"; ./step6 $n --csv --reps 5 --warmup 50 --no-check | cut -d, -f1-4,7,10,12,13
  for i in 1 2 3 4 5; do for st in 2 3; do echo -n "x$i,"; ./build/tune/x$i $n --stages $st --csv --reps 5 --warmup 50 --no-check | cut -d, -f1-4,7,10,12,13; done; done
done
echo "total $(( $(date +%s) - T0 ))s"
