#!/bin/bash
# Run 36: the last partial wave in a second launch (sgemm_wide_tail): sgemm_wide takes
# the whole waves of tiles, then one block a run takes an equal share of the left-over
# tiles' k-tiles (the pieces of a cut tile added in k order by the last to finish, from
# a workspace). sgemm_wide's own code is unchanged, but its loop is now a function shared
# with the tail kernel (wide_k_tiles), and its SASS differs in register names (897 of
# 1024 FFMAs with a reuse flag against 937). Against step 6 as committed (head2.cu).
# Prediction: 4096 +1 to +2% (116 tiles left over for 132 SMs: the wave is 12% idle,
# minus the end spread of the whole waves and the hand-over); 8192 -1 to +2% (68 left
# over, but the whole waves end over about 300 us); 2048 unchanged (no whole wave).
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error|spill|warning"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
cp .gpu/head2_step6.cu build/var/head2.cu
$NV build/var/head2.cu build/libharness.a -lcublas -lcudart -o build/var/head2 2>&1 | grep -E "error"
echo "== builds $(( $(date +%s) - T0 ))s"
for st in 1 2 3 4; do for shape in "2047 2052 1001" "2047 2050 1001" "2047 2052 3" "4097 2051 17" "3000 3000 5" "4096 4096 999" "2305 2560 4096" "8192 3000 257"; do
  r=$(./step6 $shape --beta 0.5 --stages $st --reps 2 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "step6 S$st: '$r' at $shape"
done; done
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool ./step6 2047 2050 1001 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | sed "s/^/$tool: /"
done
compute-sanitizer --tool memcheck ./step6 4097 2051 17 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "ERROR SUMMARY" | sed "s/^/memcheck 4097x2051x17: /"
echo "== checks $(( $(date +%s) - T0 ))s"
for round in 1 2; do
for n in 4096 8192 2048 3072 6144; do for v in ./step6 build/var/head2; do
  echo -n "$v,"; $v $n --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
echo "== timings round $round $(( $(date +%s) - T0 ))s"
done
LD_LIBRARY_PATH=.gpu/lib:/usr/local/cuda/lib64 .gpu/tests --filter 'gpu/!(largest*)' -j8 2>&1 | tail -2
echo "== total $(( $(date +%s) - T0 ))s"
