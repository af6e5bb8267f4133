#!/bin/bash
# Run 29: when do the blocks start and end? Run 28 found stream-K's runs cheap when K is
# large, yet at 4096 they gained 0.3% in one run and lost 2% in another. Hypothesis: the
# blocks of the last whole wave end at different times, so the runs start staggered, and
# the last run ends late. Both step 6 (one block a tile) and run 23's stream-K code
# (75675de) with block timestamps (run29_timeline.py): the spread of the last wave's ends,
# the runs' starts and ends, the SMs' last ends. Needs .gpu/sk_75675de.cu (as run 28).
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error"
mkdir -p build/var
python3 plots/exploration/run29_timeline.py .gpu/sk_75675de.cu step6_unroll/zz_tl_sk.cu
python3 plots/exploration/run29_timeline.py step6_unroll/step6.cu step6_unroll/zz_tl_now.cu
for f in zz_tl_sk zz_tl_now; do (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 step6_unroll/$f.cu build/libharness.a -lcublas -lcudart -o build/var/$f 2>&1 | grep -E "error") & done; wait
rm -f step6_unroll/zz_tl_*.cu
echo "== builds $(( $(date +%s) - T0 ))s"
for n in 2048 4096 8192; do for v in build/var/zz_tl_now build/var/zz_tl_sk; do
  echo "-- $v $n"; $v $n --csv --reps 5 --warmup 0 2>&1 | awk -F, '/^timeline/ { print; next } { print $2","$7","$8","$10","$11","$12","$13","$15 }'
done; done
echo "== total $(( $(date +%s) - T0 ))s"
