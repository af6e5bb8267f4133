#!/bin/bash
# Run 27: step 6 with a fourth stage (run 26: the wide kernel at 4 stages 1.002 / 0.995 /
# 1.000 at 2048 / 4096 / 8192, against 0.996 / 0.990 / 0.994 at 3). Are 4 stages also the
# better default for the other choices (256 .. 1024)? Prediction: within 1% of 3 stages
# there. Then the GPU suite (now 1 to 4 stages for every choice) and compute-sanitizer on
# every choice at 4 stages. Needs the test binary, built where Criterion is, in
# $TESTS/tests with its libraries in $TESTS/lib.
set -u
TESTS=${TESTS:?the folder of the test binary and its libraries}
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill|warning"
echo "== build $(( $(date +%s) - T0 ))s; LDL/STL in step6: $(cuobjdump --dump-sass ./step6 | grep -cE 'LDL|STL')"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for n in 256 512 1024 2048 4096 8192; do for st in 3 4; do
  echo -n "step6 S$st,"; ./step6 $n --stages $st --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
for shape in "1500 1500 1500" "1000 1000 600" "500 500 300"; do for st in 3 4; do
  echo -n "step6 S$st,"; ./step6 $shape --stages $st --csv --reps 10 2>&1 | cut -d, -f2,3,4,7,8,10,11,12,13,15 | head -1
done; done
echo "== timing $(( $(date +%s) - T0 ))s"
LD_LIBRARY_PATH=$TESTS/lib:/usr/local/cuda/lib64 $TESTS/tests --filter 'gpu/!(largest*)' -j8 2>&1 | tail -3
LD_LIBRARY_PATH=$TESTS/lib:/usr/local/cuda/lib64 $TESTS/tests --filter 'step_binaries/*' -j8 2>&1 | tail -1
echo "== gpu suite $(( $(date +%s) - T0 ))s"
for tool in memcheck racecheck synccheck; do
  stages="4"
  for shape in "129 127 33" "1024" "2047 2050 101" "1500 1498 33" "1100 1000 200" "1000 1000 300" "1000 998 600" "65 130 33" "500 498 100" "500 500 300" "200 250 300"; do
    for st in $stages; do
      r=$(compute-sanitizer --tool $tool --error-exitcode 9 ./step6 $shape --stages $st --reps 1 --warmup 0 --beta 0.5 2>&1)
      rc=$?; echo "$r" | grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" || rc=8
      [ $rc = 0 ] || { echo "$tool step6 $shape S$st: rc $rc"; echo "$r" | tail -5; }
    done
  done
  echo "== $tool done $(( $(date +%s) - T0 ))s"
done
echo "== total $(( $(date +%s) - T0 ))s"
