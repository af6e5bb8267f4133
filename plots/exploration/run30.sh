#!/bin/bash
# Run 30 (prepared, not yet run): stream-K whose runs start together. Run 29's timeline: at
# 8192 the blocks of the last whole wave end over 334 us, since the hardware hands whole
# tiles out as SMs free up and some SMs do one more than others; at 2048 (no whole waves)
# a cut tile's hand-over costs more than the balance saves. sk_persistent.cu: one block per
# SM, block b takes whole tiles b, b + grid, ... (the same number each), then its run; no
# runs where the tiles are fewer than the SMs. sk_persistent.py writes it from 75675de into
# .gpu/sk_persistent.cu, here, before the call (the GPU machine's copy has no history).
# Its SASS: both k-loops with 0 FFMAs reading three operands from one register bank, 1138
# and 1136 instructions (step 6: 1127), but 4 S2R/S2UR each (the compiler recomputes copy
# addresses from the thread index; step 6's loop has none). Prediction: 4096 and 8192
# +1.5-2.5% over step 6 (0.990 / 0.994), 2048 unchanged. Then the timeline of both
# (run29_timeline.py; for sk_persistent every block is one line: its whole tiles and its run).
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error|spill"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
sed 's#"../common/harness.h"#"../../common/harness.h"#' .gpu/sk_persistent.cu > build/var/skp.cu
python3 plots/exploration/run29_timeline.py build/var/skp.cu build/var/skp_tl.cu
python3 plots/exploration/run29_timeline.py step6_unroll/step6.cu build/var/now_tl.cu
sed -i 's#"../common/harness.h"#"../../common/harness.h"#' build/var/now_tl.cu
for v in skp skp_tl now_tl; do ($NV build/var/$v.cu build/libharness.a -lcublas -lcudart -o build/var/$v 2>&1 | grep -E "error") & done; wait
echo "== builds $(( $(date +%s) - T0 ))s"
for st in 1 2 3; do for shape in "2047 2052 1001" "2047 2050 1001" "2047 2052 3" "4097 2051 17" "3000 3000 5" "1536 2816 64" "2048 2048 2048"; do
  r=$(./build/var/skp $shape --beta 0.5 --stages $st --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "skp S$st: '$r' at $shape"
done; done
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool ./build/var/skp 2047 2050 1001 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | sed "s/^/$tool: /"
done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 2048 4096 8192; do for v in ./step6 build/var/skp; do
  echo -n "$v,"; $v $n --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
for n in 4096 8192; do for v in build/var/now_tl build/var/skp_tl; do
  echo "-- $v $n"; $v $n --csv --reps 5 --warmup 0 2>&1 | awk -F, '/^timeline/ { print; next } { print $2","$7","$8","$10","$11","$12","$13","$15 }'
done; done
echo "== total $(( $(date +%s) - T0 ))s"
