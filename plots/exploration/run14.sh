#!/bin/bash
# Run 14: the lean k-tile of lean6.cu (issue 10, leads 1-3): 128 accumulators a thread,
# one block of 256 threads per SM, 2 stages switched by XOR, the partial k-tile first so
# the main loop has no K check. Static (its SASS, 128 x 256, t 8 x 16): 1121
# instructions, FFMA 91.3%, 33 integer, 2 branches per k-tile; step 6's loop: 86.2%.
# Prediction: 0.97-1.01 of cuBLAS at 4096 and 8192 (the public kernel of that shape
# and FFMA share: 1.006), against step 6's 0.92-0.93.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill"
mkdir -p build/var
for c in "128 256 8" "128 256 16" "256 128 16" "256 128 8"; do
  set -- $c
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DLEAN_BM=$1 -DLEAN_BN=$2 -DLEAN_TM=$3 -Xptxas -v \
     plots/exploration/lean6.cu build/libharness.a -lcublas -lcudart -o build/var/lean_$1x$2_t$3 2>&1 \
     | grep -E "error|Used|bytes spill" | grep -v " 0 bytes spill" | sed "s/^/lean_$1x$2_t$3: /") &
done
wait
echo "== builds $(( $(date +%s) - T0 ))s"
for v in build/var/lean_*; do
  for shape in "129 127 33" "1000 1001 1003" "300 5000 17" "4097 260 9" "1 1 1" "257 255 8" "64 64 4000"; do
    for beta in 0 0.5; do
      r=$(./$v $shape --beta $beta --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15)
      [ "$r" = PASS ] || echo "$v: '$r' at $shape beta $beta"
    done
  done
  r=$(./$v 515 517 519 --inputs integers --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v: integers '$r'"
  r=$(./$v 515 517 519 --inputs nonfinite --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v: nonfinite '$r'"
done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 1024 2048 4096 8192; do
  for v in step6 build/var/lean_*; do
    echo -n "$v,"; ./$v $n --csv --reps 10 --warmup 200 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
  done
  echo "== $n $(( $(date +%s) - T0 ))s"
done
echo "== total $(( $(date +%s) - T0 ))s"
