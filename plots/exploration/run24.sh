#!/bin/bash
# Run 24: step 6 with whole-k-tile copies whose sizes are worked out once in both kernels:
# the wide one (wide_v2 of run 18) and the stage-unrolled one (128x128, 64x128, 64x64 with
# split K), whose share's partial k-tile is now copied first. Loops: 1781 -> 1724
# instructions (128x128), 1835 -> 1746 (64x128, split 2), 983 -> 925 (64x64, split 8).
# Prediction: 1024 +2-4% (1.13 -> 1.15-1.17), 2048..8192 0.99-1.00 (wide), 256/512 +2-5%.
# Then the GPU suite and compute-sanitizer on every choice. Needs the test binary, built
# where Criterion is, in $TESTS/tests with its libraries in $TESTS/lib.
set -u
TESTS=${TESTS:?the folder of the test binary and its libraries}
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill|warning"
echo "== build $(( $(date +%s) - T0 ))s; LDL/STL in step6: $(cuobjdump --dump-sass ./step6 | grep -cE 'LDL|STL')"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
for n in 256 512 1024 2048 4096 8192; do for v in step5 step6; do
  echo -n "$v,"; ./$v $n --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
echo "== timing $(( $(date +%s) - T0 ))s"
LD_LIBRARY_PATH=$TESTS/lib:/usr/local/cuda/lib64 $TESTS/tests --filter 'gpu/!(largest*)' -j8 2>&1 | tail -3
LD_LIBRARY_PATH=$TESTS/lib:/usr/local/cuda/lib64 $TESTS/tests --filter 'step_binaries/*' -j8 2>&1 | tail -1
echo "== gpu suite $(( $(date +%s) - T0 ))s"
for tool in memcheck racecheck synccheck; do
  stages="1 3"; [ $tool = memcheck ] && stages="1 2 3"
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
