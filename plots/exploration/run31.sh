#!/bin/bash
# Run 31: three questions for 4096 and 8192 (step 6: 0.990 / 0.994 of cuBLAS).
# 1. Run 30 as prepared (run30.sh: the persistent stream-K grid whose runs start together).
#    Prediction there: +1.5-2.5% at 4096 and 8192.
# 2. Where the wide kernel's issue slots go: Nsight Compute's warp states, scheduler and
#    per-instruction stall samples of sgemm_wide (3 stages) and of cuBLAS's kernel at 4096.
#    cuBLAS issued on 90.7% of cycles in run 6's profile (its loop: 88.7% FFMA); the wide
#    loop is 90.9% FFMA, so at 0.990 it should issue on about 87.5%. Prediction: the barrier
#    and the wait for the copies (DEPBAR) hold most of the missing 3%.
# 3. BK = 16 for the wide kernel (a barrier and a copy round every 16 k, not 8; the loop
#    twice as long, about 35 KiB): -DTUNE_BK=16 builds every kernel of step 6 that way.
#    Prediction: +0.5-1% if the barrier costs what question 2 predicts, less if the longer
#    loop misses the instruction cache.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
bash plots/exploration/run30.sh 2>&1 | sed 's/^/run30: /'
echo "== run 30 done $(( $(date +%s) - T0 ))s"
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
$NV -DTUNE_BK=16 step6_unroll/step6.cu build/libharness.a -lcublas -lcudart -o build/var/bk16 2>&1 | grep -E "error"
for st in 3 4; do for shape in "2047 2052 1001" "2047 2050 1001" "2047 2052 3" "4097 2051 17" "3000 3000 5" "2048 2048 2048"; do
  r=$(./build/var/bk16 $shape --beta 0.5 --stages $st --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "bk16 S$st: '$r' at $shape"
done; done
echo "== bk16 built and checked $(( $(date +%s) - T0 ))s"
for n in 2048 4096 8192; do for st in 3 4; do for v in ./step6 build/var/bk16; do
  echo -n "$v,"; $v $n --stages $st --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done; done
echo "== timings $(( $(date +%s) - T0 ))s"
S="--section WarpStateStats --section SchedulerStats --section SourceCounters --section LaunchStats"
ncu $S -k regex:gemm -c 2 -o $OUT/prof_wide_cublas ./step6 4096 --stages 3 --reps 1 --warmup 0 --no-check > $OUT/ncu_run.txt 2>&1
ncu -i $OUT/prof_wide_cublas.ncu-rep > $OUT/ncu_wide_cublas.txt 2>&1
ncu -i $OUT/prof_wide_cublas.ncu-rep --page source --csv --print-source sass -k regex:sgemm_wide > $OUT/src_wide.csv 2>&1 \
  || ncu -i $OUT/prof_wide_cublas.ncu-rep --page source --csv > $OUT/src_wide.csv 2>&1
ncu -i $OUT/prof_wide_cublas.ncu-rep --page source --csv --print-source sass -k regex:xmma > $OUT/src_cublas.csv 2>&1
ls -la $OUT; head -c 600 $OUT/src_wide.csv; echo
grep -E "Warp Cycles Per Issued|Stall|Issued Warp|No Eligible|Active Warps|Eligible Warps|One or More|gemm|Duration" $OUT/ncu_wide_cublas.txt | head -80
echo "== total $(( $(date +%s) - T0 ))s"
