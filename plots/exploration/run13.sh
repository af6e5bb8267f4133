#!/bin/bash
# Run 13: step 6 with split K chosen by plan_launch. The GPU suite (every kernel choice
# at every stage count, the awkward shapes, NaN/Inf, same bits twice), compute-sanitizer
# on each choice, the SASS for spills, and the times at 256 .. 4096 against cuBLAS.
# Needs the test binary, built where Criterion is, in $TESTS/tests with its libraries in $TESTS/lib.
set -u
TESTS=${TESTS:?the folder of the test binary and its libraries}
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill|warning"
echo "== build $(( $(date +%s) - T0 ))s"
cuobjdump --dump-sass ./step6 | grep -cE "LDL|STL" | sed 's/^/LDL+STL in step6: /'
for n in 256 512 1024 2048 4096; do
  for v in step5 step6; do
    echo -n "$v,"; ./$v $n --csv --reps 20 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
  done
done
./step6 4096 > $OUT/step6_4096.txt 2>&1; ./step6 1024 > $OUT/step6_1024.txt 2>&1
echo "== timing $(( $(date +%s) - T0 ))s"
LD_LIBRARY_PATH=$TESTS/lib:/usr/local/cuda/lib64 $TESTS/tests --filter 'gpu/!(largest*)' -j8 2>&1 | tail -4
echo "== gpu suite $(( $(date +%s) - T0 ))s"
for tool in memcheck racecheck synccheck; do
  for shape in "129 127 33" "1024" "1000 1000 600" "1000 1000 300" "1100 1000 200" "500 498 100" "500 500 300" "200 250 300" "65 130 33" "2047 2050 101"; do
    for st in 1 3; do
      r=$(compute-sanitizer --tool $tool --error-exitcode 9 ./step6 $shape --stages $st --reps 1 --warmup 0 --beta 0.5 2>&1)
      rc=$?; echo "$r" | grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" || rc=8
      [ $rc = 0 ] || { echo "$tool step6 $shape S$st: rc $rc"; echo "$r" | tail -5; }
    done
  done
  echo "== $tool done $(( $(date +%s) - T0 ))s"
done
echo "== total $(( $(date +%s) - T0 ))s"
