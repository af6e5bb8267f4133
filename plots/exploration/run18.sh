#!/bin/bash
# Run 18: step 6's sgemm_wide (0.954 at 4096, run 17) is 3% behind lean6.cu (0.987, run 15).
# wide_v2.py writes a variant whose whole-k-tile copies use source sizes worked out once,
# and whose two-stage ring steps by an XOR: 36-38 integer instructions a k-tile in its
# SASS, against 42 (lean6.cu: 37). Prediction: +1% to +3% at 2048..8192. lean6.cu in
# serpentine order (run 15's leanserp_128x256_t16) is timed in the same run, as the reference.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill"
mkdir -p build/var
python3 plots/exploration/wide_v2.py build/var/wide_v2.cu
nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 build/var/wide_v2.cu build/libharness.a -lcublas -lcudart \
     -o build/var/wide_v2 -Xptxas -v 2>&1 | grep -E "error|bytes spill stores" | grep -v " 0 bytes spill"
SERP='s/acc\[i\]\[j\] += \(a[_a-z]*\)\[\(p % 2\)\]\[i\] \* \(b[_a-z]*\)\[p % 2\]\[j\];/{ int jj = (i \& 1) ? TN - 1 - j : j; acc[i][jj] += \1[\2][i] * \3[\2][jj]; }/'
sed "$SERP" plots/exploration/lean6.cu > build/var/lean6_serp.cu
nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DLEAN_TM=16 build/var/lean6_serp.cu build/libharness.a -lcublas -lcudart \
     -o build/var/leanserp_t16 2>&1 | grep -E "error"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
echo "== builds $(( $(date +%s) - T0 ))s"
for st in 1 2 3; do for shape in "2047 2050 1001" "2047 2052 3" "2047 2052 1001" "4097 2051 17"; do
  r=$(./build/var/wide_v2 $shape --beta 0.5 --stages $st --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15)
  [ "$r" = PASS ] || echo "wide_v2 S$st: '$r' at $shape"
done; done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 2048 4096 8192; do for v in ./step6 build/var/wide_v2 build/var/leanserp_t16; do for st in 2 3; do
  opt="--stages $st"; [ $v = build/var/leanserp_t16 ] && { [ $st = 3 ] && continue; opt=; }
  echo -n "$v S$st,"; $v $n $opt --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done; done
echo "== total $(( $(date +%s) - T0 ))s"
