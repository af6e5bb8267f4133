#!/bin/bash
# Run 16: run 15 found the serpentine FFMA order worth +10% in lean6.cu's 16 x 8 thread
# tiles (0.898 -> 0.987 at 4096) and +2% in step 6's 8 x 8. Does step 6's own kernel
# (stage loop unrolled, copy plan, K checks in the loop), now in serpentine order, reach
# the same with 128 accumulators a thread, one block of 256 threads per SM? Block tiles
# 128 x 256 and 256 x 128, thread tiles 16 x 8 and 8 x 16, 2 and 3 stages, against
# lean6.cu in serpentine order and step 6 as it is.
# Prediction: 0.95-0.99 at 4096 (run 5, without serpentine: 0.873-0.876).
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
SERP='s/acc\[i\]\[j\] += \(a[_a-z]*\)\[\(p % 2\)\]\[i\] \* \(b[_a-z]*\)\[p % 2\]\[j\];/{ int jj = (i \& 1) ? TN - 1 - j : j; acc[i][jj] += \1[\2][i] * \3[\2][jj]; }/'
sed "$SERP" plots/exploration/lean6.cu > plots/exploration/lean6_serp.cu
b() { local name=$1; shift; ($NV "$@" build/libharness.a -lcublas -lcudart -o build/var/$name -Xptxas -v 2>&1 | grep -E "error|bytes spill stores" | grep -v " 0 bytes spill" | sed "s/^/$name: /") & }
b leanserp_128x256_t16 -DLEAN_TM=16 plots/exploration/lean6_serp.cu
b leanserp_256x128_t16 -DLEAN_BM=256 -DLEAN_BN=128 -DLEAN_TM=16 plots/exploration/lean6_serp.cu
for c in "128 256 64 64 16 8" "128 256 64 64 8 16" "256 128 64 64 16 8" "256 128 64 64 8 16"; do
  set -- $c
  b s6_$1x$2_t$5x$6 -DTUNE_BK=8 -DTUNE_BM=$1 -DTUNE_BN=$2 -DTUNE_WM=$3 -DTUNE_WN=$4 -DTUNE_TM=$5 -DTUNE_TN=$6 step6_unroll/step6.cu
done
wait
rm -f plots/exploration/lean6_serp.cu
echo "== builds $(( $(date +%s) - T0 ))s"
for v in build/var/s6_*; do
  for st in 1 2 3; do for shape in "129 127 33" "1000 1001 1003" "300 5000 17"; do
    r=$(./$v $shape --beta 0.5 --stages $st --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v S$st: '$r' at $shape"
  done; done
done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 2048 4096 8192; do
  for v in step6 build/var/*; do
    case $v in *s6_*) sts="2 3";; *) sts=0;; esac
    for st in $sts; do
      opt=""; [ $st != 0 ] && opt="--stages $st"
      echo -n "$v,"; ./$v $n $opt --csv --reps 10 --warmup 200 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
    done
  done
  echo "== $n $(( $(date +%s) - T0 ))s"
done
echo "== total $(( $(date +%s) - T0 ))s"
