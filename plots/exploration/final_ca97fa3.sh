#!/bin/bash
# The checks and the benchmark after the last kernel change of this session (commit
# ca97fa3ade): every step built, the GPU suite (without the 2^30 tests) and the
# command-line suite with a GPU, compute-sanitizer on step 6's wide kernel at 1-4
# stages, spills, `make plots`, and ./step6 4096's report for the README.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all GIT_COMMIT=ca97fa3ade 2>&1 | grep -E "error|spill|warning"
LD_LIBRARY_PATH=.gpu/lib:/usr/local/cuda/lib64 .gpu/tests --filter 'gpu/!(largest*)' -j8 2>&1 | tail -3
LD_LIBRARY_PATH=.gpu/lib:/usr/local/cuda/lib64 .gpu/tests --filter 'step_binaries/*' -j8 2>&1 | tail -1
echo "== suites $(( $(date +%s) - T0 ))s"
for st in 1 2 3 4; do
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool $tool ./step6 2047 2050 1001 --stages $st --reps 1 --warmup 0 --no-check 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | sed "s/^/S$st $tool: /"
  done
done
compute-sanitizer --tool memcheck ./step6 2047 2052 3 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "ERROR SUMMARY" | sed "s/^/K=3 memcheck: /"
cuobjdump --dump-sass ./step6 | grep -cE "LDL|STL" | sed "s/^/LDL or STL in step6: /"
echo "== sanitizer $(( $(date +%s) - T0 ))s"
make plots GIT_COMMIT=ca97fa3ade 2>&1 | tail -5
cp plots/results.csv $OUT/results.csv
./step6 4096 > $OUT/step6_4096.txt 2>&1; cat $OUT/step6_4096.txt
echo "== total $(( $(date +%s) - T0 ))s"
