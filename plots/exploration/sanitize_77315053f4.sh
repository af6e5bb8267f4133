#!/bin/bash
# compute-sanitizer (memcheck, racecheck, synccheck) at commit 77315053f4 on every choice
# of sgemm_wide: K whole (1600 x 2500, 130 tiles: one wave) and the last partial wave in
# runs (2047 x 2500, 160 tiles: a cut tile's pieces added from the workspace), B in
# 16-byte and 4-byte pieces, 3 stages; memcheck also at 1, 2 and 4 stages on the runs;
# and 129 x 127 x 33 and 1024 (the stage-unrolled kernels, unchanged this session).
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 GIT_COMMIT=77315053f4 2>&1 | grep -E "error|spill|warning"
run() {   # tool, stages, shape...
  local tool=$1 st=$2; shift 2
  compute-sanitizer --tool $tool ./step6 "$@" --stages $st --reps 1 --warmup 0 --no-check 2>&1 |
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | sed "s/^/$* S$st $tool: /"
}
for shape in "129 127 33" "1024 1024 1024" "1600 2500 1001" "1600 2498 1001" "2047 2500 1001" "2047 2498 1001"; do
  for tool in memcheck racecheck synccheck; do run $tool 3 $shape; done
  echo "== $shape $(( $(date +%s) - T0 ))s"
done
for st in 1 2 4; do run memcheck $st 2047 2500 1001; done
echo "== total $(( $(date +%s) - T0 ))s"
