#!/bin/bash
# Run 33: step 6 with sgemm_wide's copies spread one part a slice (as run 32's sp0; its
# SASS is the same), against step 6 as it was (head.cu, from the commit before), at every
# size the course shows; the GPU suite and the command-line suite on it; and three more
# variants of the spread (group_copies.py): 2 parts a slice (g2: 1141 instructions, 9
# dummy shared loads instead of 18), 3 a slice (g3: 1133, but the last group dense
# again), and one a slice in reverse order (r1: B first). Prediction: step 6 as run 32's
# sp0 (1.025 / 1.017 / 1.022 at 2048 / 4096 / 8192), unchanged (+-1%) from 256 to 1024,
# where the unrolled kernels' SASS differs from head.cu's only in register names and
# order; g2 +0.5% over sp0 if the dummy loads and recomputed addresses cost issue slots.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill|warning"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
cp .gpu/head_step6.cu build/var/head.cu
for v in "g2 2" "g3 3" "r1 1 rev"; do set -- $v; python3 plots/exploration/group_copies.py step6_unroll/step6.cu build/var/$1.cu $2 ${3:-}; done
for v in head g2 g3 r1; do ($NV build/var/$v.cu build/libharness.a -lcublas -lcudart -o build/var/$v 2>&1 | grep -E "error") & done; wait
echo "== builds $(( $(date +%s) - T0 ))s"
for v in g2 g3 r1; do for st in 1 2 3 4; do for shape in "2047 2052 1001" "2047 2050 1001" "2047 2052 3" "4097 2051 17" "3000 3000 5" "2048 2048 2048"; do
  r=$(./build/var/$v $shape --beta 0.5 --stages $st --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v S$st: '$r' at $shape"
done; done; done
echo "== variant checks $(( $(date +%s) - T0 ))s"
LD_LIBRARY_PATH=.gpu/lib:/usr/local/cuda/lib64 .gpu/tests --filter 'gpu/!(largest*)' -j8 2>&1 | tail -3
LD_LIBRARY_PATH=.gpu/lib:/usr/local/cuda/lib64 .gpu/tests --filter 'step_binaries/*' -j8 2>&1 | tail -1
compute-sanitizer --tool memcheck ./step6 2047 2050 1001 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "ERROR SUMMARY" | sed "s/^/memcheck: /"
compute-sanitizer --tool racecheck ./step6 2047 2050 1001 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "RACECHECK SUMMARY" | sed "s/^/racecheck: /"
echo "== suites $(( $(date +%s) - T0 ))s"
for round in 1 2; do
for n in 256 512 1024; do for v in ./step6 build/var/head; do
  echo -n "$v,"; $v $n --csv --reps 20 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
for n in 2048 4096 8192; do for v in ./step6 build/var/head build/var/g2 build/var/g3 build/var/r1; do
  echo -n "$v,"; $v $n --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
echo "== timings round $round $(( $(date +%s) - T0 ))s"
done
