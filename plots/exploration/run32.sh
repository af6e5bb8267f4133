#!/bin/bash
# Run 32: sgemm_wide's copies spread over the slices (spread_copies.py), from the stall
# samples of run 31: at 4096 the wide kernel issues on 87.2% of cycles against 91.1% for
# cuBLAS; its extra not-issued samples are long-scoreboard waits on the copy block at
# slice 0 (a MOV and an IADD3 that overwrite a copy's address 3 and 8 instructions after
# it), fixed-latency waits, dispatch and math-pipe stalls in the same block, while cuBLAS
# spreads its copies between FFMAs at the end of its k-tile. Variants: first slice 0, 1, 2
# (one row pass a slice, A's 4 then B's 2). Prediction: +1 to +3% at 4096 and 8192 if
# the stalls go with the dense block; then Nsight Compute's samples of the best guess.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error|spill"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
for f in 0 1 2; do
  python3 plots/exploration/spread_copies.py step6_unroll/step6.cu build/var/sp$f.cu $f
  ($NV build/var/sp$f.cu build/libharness.a -lcublas -lcudart -o build/var/sp$f 2>&1 | grep -E "error") &
done; wait
echo "== builds $(( $(date +%s) - T0 ))s"
for v in sp0 sp1 sp2; do for st in 1 2 3 4; do for shape in "2047 2052 1001" "2047 2050 1001" "2047 2052 3" "4097 2051 17" "3000 3000 5" "2048 2048 2048"; do
  r=$(./build/var/$v $shape --beta 0.5 --stages $st --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v S$st: '$r' at $shape"
done; done; done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 4096 8192 2048; do for st in 3 4; do for v in ./step6 build/var/sp0 build/var/sp1 build/var/sp2; do
  echo -n "$v,"; $v $n --stages $st --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done; done
echo "== timings $(( $(date +%s) - T0 ))s"
S="--section WarpStateStats --section SchedulerStats --section SourceCounters"
ncu $S -k regex:sgemm_wide -c 1 -o $OUT/prof_sp1 ./build/var/sp1 4096 --stages 3 --reps 1 --warmup 0 --no-check > $OUT/ncu_run.txt 2>&1
ncu -i $OUT/prof_sp1.ncu-rep > $OUT/ncu_sp1.txt 2>&1
ncu -i $OUT/prof_sp1.ncu-rep --page source --csv --print-source sass > $OUT/src_sp1.csv 2>&1
rm -f $OUT/prof_sp1.ncu-rep
grep -E "One or More|Issued Warp|No Eligible" $OUT/ncu_sp1.txt
echo "== total $(( $(date +%s) - T0 ))s"
