#!/bin/bash
# Run 17: step 6 with wide tiles (128x256, 16x8 a thread, the lean loop of run 15) for the
# sizes whose 128x256 tiles fill 9 SMs in 10. Prediction: 0.98-0.99 of cuBLAS from 2048 up
# (lean6.cu in serpentine order: 0.993 / 0.987 / 0.992). Stages 1-3 timed to choose the
# default. Then the GPU suite (every choice at every stage count), compute-sanitizer on
# the wide kernel, and M = 2^30 and N = 2^30 through it. Needs the test binary, built where Criterion is, in $TESTS/tests with its libraries in $TESTS/lib.
set -u
TESTS=${TESTS:?the folder of the test binary and its libraries}
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill|warning"
echo "== build $(( $(date +%s) - T0 ))s; LDL/STL in step6: $(cuobjdump --dump-sass ./step6 | grep -cE 'LDL|STL')"
for n in 1024 2048 4096 8192; do
  for st in 1 2 3; do
    echo -n "step6 S$st,"; ./step6 $n --stages $st --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
  done
done
echo "== timing $(( $(date +%s) - T0 ))s"
env LD_LIBRARY_PATH=$TESTS/lib:/usr/local/cuda/lib64 $TESTS/tests --filter 'gpu/!(largest*)' -j8 2>&1 | grep -E 'FAIL|Synthesis|differs|does not' | head -20
echo "== gpu suite $(( $(date +%s) - T0 ))s"
for tool in memcheck racecheck synccheck; do for shape in "2047 2050 33" "2047 2052 3" "2047 2052 17"; do for st in 1 2 3; do
  r=$(compute-sanitizer --tool $tool --error-exitcode 9 ./step6 $shape --stages $st --reps 1 --warmup 0 --beta 0.5 2>&1); rc=$?
  echo "$r" | grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" || rc=8; [ $rc = 0 ] || { echo "$tool $shape S$st rc $rc"; echo "$r" | tail -4; }
done; done; echo "== $tool $(( $(date +%s) - T0 ))s"; done
for shape in "1073741824 1 1" "1 1073741824 1"; do
  ./step6 $shape --reps 1 --warmup 0 2>&1 | grep -E "kernel|check|repeat|guards"
done
echo "== total $(( $(date +%s) - T0 ))s"
