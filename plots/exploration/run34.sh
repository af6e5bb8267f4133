#!/bin/bash
# Run 34: where in the k-tile the spread copies go (skip_slice.py: the six parts at
# slices 0-6 but one; step 6 skips slice 6, run 32's sp1 skipped slice 0 and was 1.2%
# slower at 4096), against step 6 (1.016-1.017 at 4096 in run 33, target 1.02); then
# Nsight Compute's stall samples of step 6's wide kernel at 4096 for the lesson (run 31:
# 87.2% of cycles issued before the spread; sp1 in run 32: 90.7%). Prediction: the
# placements differ by under 1%, since every one keeps the copies apart.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error|spill|warning"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
for k in 1 2 3 4 5; do python3 plots/exploration/skip_slice.py step6_unroll/step6.cu build/var/sk$k.cu $k; done
for k in 1 2 3 4 5; do ($NV build/var/sk$k.cu build/libharness.a -lcublas -lcudart -o build/var/sk$k 2>&1 | grep -E "error") & done; wait
echo "== builds $(( $(date +%s) - T0 ))s"
for k in 1 2 3 4 5; do for st in 2 3; do for shape in "2047 2052 1001" "2047 2050 1001" "4097 2051 17" "2048 2048 2048"; do
  r=$(./build/var/sk$k $shape --beta 0.5 --stages $st --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "sk$k S$st: '$r' at $shape"
done; done; done
echo "== checks $(( $(date +%s) - T0 ))s"
for round in 1 2; do
for n in 4096 8192 2048; do for v in ./step6 build/var/sk1 build/var/sk2 build/var/sk3 build/var/sk4 build/var/sk5; do
  echo -n "$v,"; $v $n --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
echo "== timings round $round $(( $(date +%s) - T0 ))s"
done
S="--section WarpStateStats --section SchedulerStats --section SourceCounters"
ncu $S -k regex:sgemm_wide -c 1 -o $OUT/prof_step6 ./step6 4096 --reps 1 --warmup 0 --no-check > $OUT/ncu_run.txt 2>&1
ncu -i $OUT/prof_step6.ncu-rep > $OUT/ncu_step6.txt 2>&1
ncu -i $OUT/prof_step6.ncu-rep --page source --csv --print-source sass > $OUT/src_step6.csv 2>&1
rm -f $OUT/prof_step6.ncu-rep
grep -E "One or More|Issued Warp|No Eligible" $OUT/ncu_step6.txt
echo "== total $(( $(date +%s) - T0 ))s"
