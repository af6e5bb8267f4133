#!/bin/bash
# Run 21: run 20 found the persistent kernel without runs (dp_only) 2.5% slower than one
# block a tile (wide_v2), and stream-K winning back just that. Which part costs it: the
# cooperative launch (noncoop), the blocks' fixed share of the tiles instead of the
# hardware's hand-out as SMs free up, or the new k-loop's code (pertile: one block a tile
# with the new code)? And mixed: one block a whole tile, handed out by the hardware, then
# one block a run. Prediction: pertile = wide_v2 (0.989 at 4096), noncoop = step 6, and
# mixed = pertile + 2-3% (1.01-1.02 at 4096 and 8192). Variants: run21_variants.py;
# .gpu/wide_v2.cu as in run 20.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error|spill"
mkdir -p build/var
python3 plots/exploration/run21_variants.py build/var
cp .gpu/wide_v2.cu build/var/wide_v2.cu
sed -i 's#"../common/harness.h"#"../../common/harness.h"#' build/var/wide_v2.cu
for v in dp_only noncoop pertile mixed wide_v2; do
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 build/var/$v.cu build/libharness.a -lcublas -lcudart -o build/var/$v 2>&1 | grep -E "error") &
done; wait
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== builds $(( $(date +%s) - T0 ))s"
V="./step6 build/var/noncoop build/var/dp_only build/var/pertile build/var/mixed build/var/wide_v2"
for v in $V; do for shape in "2047 2052 1001" "2047 2050 3" "4097 2051 17" "1024 1024 1024"; do
  r=$($v $shape --beta 0.5 --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v: '$r' at $shape"
done; done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 2048 4096 8192; do for v in $V; do
  echo -n "$v,"; $v $n --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
echo "== total $(( $(date +%s) - T0 ))s"
