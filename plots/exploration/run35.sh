#!/bin/bash
# Run 35: the stage-unrolled kernels (256 to 1024) with their copies in groups
# (unrolled_groups.py): u1 A's four row passes at slice 0 and B's at slice 1, u2 B's at
# slice 2. In step 6 B's source pointer is advanced 2 instructions after its copy (a
# long-scoreboard wait, as in sgemm_wide before run 32); in u1 and u2 62-69 later. These
# kernels run 2 to 4 blocks an SM, so a wait costs less. Prediction: +0-2% at 256-1024.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error|warning"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
python3 plots/exploration/unrolled_groups.py step6_unroll/step6.cu build/var/u1.cu 0,0,0,0,1,1
python3 plots/exploration/unrolled_groups.py step6_unroll/step6.cu build/var/u2.cu 0,0,0,0,2,2
for v in u1 u2; do ($NV build/var/$v.cu build/libharness.a -lcublas -lcudart -o build/var/$v 2>&1 | grep -E "error") & done; wait
echo "== builds $(( $(date +%s) - T0 ))s"
for v in u1 u2; do for st in 2 3 4; do for shape in "129 127 33" "1000 1000 600" "1024 1024 1024" "511 513 1001" "256 256 4096" "300 200 1000" "1500 1500 1500"; do
  r=$(./build/var/$v $shape --beta 0.5 --stages $st --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v S$st: '$r' at $shape"
done; done; done
echo "== checks $(( $(date +%s) - T0 ))s"
for round in 1 2; do
for n in 256 512 1024 1500; do for v in ./step6 build/var/u1 build/var/u2; do
  echo -n "$v,"; $v $n --csv --reps 20 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
echo "== timings round $round $(( $(date +%s) - T0 ))s"
done
