#!/bin/bash
# The checks and the benchmark after the last kernel change of this session (commit
# 77315053f4: the last partial wave of wide tiles in runs, sgemm_wide_tail): every step
# built, the GPU suite (without the 2^30 tests of every step) and the command-line suite
# with a GPU, compute-sanitizer on the runs' kernel (a cut tile's pieces added from the
# workspace), step 6 at M = 2^30 and N = 2^30 (8 and 4 tiles left over, one k-tile each),
# spills, step 6 and the commit before the runs (head2.cu) at 3072 and 6144, `make plots`,
# and ./step6 4096's report for the README.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all GIT_COMMIT=77315053f4 2>&1 | grep -E "error|spill|warning"
LD_LIBRARY_PATH=.gpu/lib:/usr/local/cuda/lib64 .gpu/tests --filter 'gpu/!(largest*)' -j8 2>&1 | tail -3
LD_LIBRARY_PATH=.gpu/lib:/usr/local/cuda/lib64 .gpu/tests --filter 'step_binaries/*' -j8 2>&1 | tail -1
echo "== suites $(( $(date +%s) - T0 ))s"
for st in 1 3; do
  compute-sanitizer --tool memcheck ./step6 2047 2498 1001 --stages $st --reps 1 --warmup 0 --no-check 2>&1 | grep -E "ERROR SUMMARY" | sed "s/^/S$st memcheck: /"
done
compute-sanitizer --tool racecheck ./step6 2047 2498 1001 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "RACECHECK SUMMARY" | sed "s/^/racecheck: /"
compute-sanitizer --tool synccheck ./step6 2047 2500 1001 --stages 4 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "ERROR SUMMARY" | sed "s/^/S4 synccheck: /"
compute-sanitizer --tool memcheck ./step6 2047 2500 3 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "ERROR SUMMARY" | sed "s/^/K=3 memcheck: /"
for shape in "1073741824 1 1" "1 1073741824 1"; do
  ./step6 $shape --reps 1 --warmup 0 2>&1 | grep -E "kernel|check|repeat|guards" | sed "s/^/$shape: /"
done
cuobjdump --dump-sass ./step6 | grep -cE "LDL|STL" | sed "s/^/LDL or STL in step6: /"
echo "== sanitizer and 2^30 $(( $(date +%s) - T0 ))s"
mkdir -p build/var && cp .gpu/head2_step6.cu build/var/head2.cu
nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 build/var/head2.cu build/libharness.a -lcublas -lcudart -o build/var/head2
for n in 3072 6144 1500; do for v in ./step6 build/var/head2; do
  echo -n "$v,"; $v $n --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
make plots GIT_COMMIT=77315053f4 2>&1 | tail -3
cp plots/results.csv $OUT/results.csv
./step6 4096 > $OUT/step6_4096.txt 2>&1; cat $OUT/step6_4096.txt
echo "== total $(( $(date +%s) - T0 ))s"
