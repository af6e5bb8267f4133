#!/bin/bash
# Run 28: where stream-K's runs lose their time. Run 23's version (commit 75675de; one
# block a whole tile, then one a run, the last piece adding the sums) cost about what a
# cut tile costs at 2048 (0.973 against 0.998), but much more at 4096 and 8192. At 2048 A
# and B fit in L2; at 4096 and 8192 they do not, and runs read them at different k at the
# same time. Test: 2048 x 2048 x 16384 has the same 128 tiles as 2048 (all of them in runs,
# 0.97 of a tile each) but A and B of 256 MiB. Prediction if L2 is the cause: the runs
# lose much more there than at 2048 x 2048 x 2048, and Nsight Compute shows a lower L2 hit
# rate and more DRAM traffic for them than for one block a tile (step 6 now).
# Needs .gpu/sk_75675de.cu: step6.cu at 75675de with the workspace helper common/ had then.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error|spill"
mkdir -p build/var
cp .gpu/sk_75675de.cu step6_unroll/zz_sk.cu
nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 step6_unroll/zz_sk.cu build/libharness.a -lcublas -lcudart -o build/var/sk 2>&1 | grep -E "error"
rm -f step6_unroll/zz_sk.cu
echo "== builds $(( $(date +%s) - T0 ))s"
for v in ./step6 build/var/sk; do
  r=$($v 2048 2048 16384 --beta 0.5 --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v: '$r'"
done
for shape in "2048 2048 2048" "2048 2048 16384" "4096 4096 4096"; do for v in ./step6 build/var/sk; do
  echo -n "$v,"; $v $shape --csv --reps 10 2>&1 | cut -d, -f2,3,4,7,8,10,11,12,13,15 | head -1
done; done
echo "== timing $(( $(date +%s) - T0 ))s"
for v in ./step6 build/var/sk; do
  ncu -k regex:sgemm_wide --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis $v 2048 2048 16384 --reps 1 --warmup 0 --no-check 2>&1 \
    | grep -E "Duration|L2 Hit Rate|DRAM Throughput|Memory Throughput|L1/TEX Hit|Mem Busy|Max Bandwidth|dram__bytes|Compute \(SM\)" | sed "s#^#$v: #"
done
echo "== total $(( $(date +%s) - T0 ))s"
