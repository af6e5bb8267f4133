#!/bin/bash
# Run 26: small leads at 2048..8192 for the wide kernel (0.997 / 0.990 / 0.995 in run 24):
# the L2 prefetch hint on the copies (cuBLAS's LDGSTS carry .LTC128B), rasterization groups
# of 4 or 16 tile rows, and a fourth stage. Prediction: each within +-1%. Variants:
# run26_variants.py.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error|spill"
mkdir -p build/var
python3 plots/exploration/run26_variants.py build/var
V="l2_128 l2_256 group4 group16 stages4"
for v in $V; do (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 build/var/$v.cu build/libharness.a -lcublas -lcudart -o build/var/$v 2>&1 | grep -E "error") & done; wait
echo "== builds $(( $(date +%s) - T0 ))s"
for v in $V; do r=$(./build/var/$v 2047 2050 1001 --beta 0.5 --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v: '$r'"; done
r=$(./build/var/stages4 2047 2052 1001 --stages 4 --beta 0.5 --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "stages4 S4: '$r'"
for n in 2048 4096 8192; do
  for v in ./step6 build/var/l2_128 build/var/l2_256 build/var/group4 build/var/group16 "build/var/stages4 --stages 4"; do
    echo -n "$v,"; $v $n --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
  done
done
echo "== total $(( $(date +%s) - T0 ))s"
