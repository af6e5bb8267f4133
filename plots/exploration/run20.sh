#!/bin/bash
# Run 20: why stream-K gained nothing in run 19 (4096: 0.989, as wide_v2 without it;
# 2048: 0.952, below wide_v2's 0.995, though every SM then has 0.97 of a tile to do instead
# of 1). Hypothesis: the GPU is power-bound here, so SMs left idle in a last partial wave
# let the busy ones clock higher, and filling them only lowers the clock. Measured: the SM
# clock of each kernel (Nsight Compute, clocks not locked), and the clock, power and
# power-cap flag sampled by nvidia-smi while each binary runs 8192; timed against
# dp_only (the same persistent kernel with no runs: the left-over tiles as a last partial
# wave) and wide_v2 (run 18, one block a tile). Needs .gpu/wide_v2.cu (wide_v2.py applied
# to step6.cu at 30581cf).
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 2>&1 | grep -E "error|spill"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
sed 's/    long long left = tiles % sms;/    long long left = 0;/' step6_unroll/step6.cu > step6_unroll/dp_only.cu
grep -c 'long long left = 0;' step6_unroll/dp_only.cu
$NV step6_unroll/dp_only.cu build/libharness.a -lcublas -lcudart -o build/var/dp_only 2>&1 | grep -E "error"
rm -f step6_unroll/dp_only.cu
cp .gpu/wide_v2.cu step6_unroll/wide_v2.cu
$NV step6_unroll/wide_v2.cu build/libharness.a -lcublas -lcudart -o build/var/wide_v2 2>&1 | grep -E "error"
rm -f step6_unroll/wide_v2.cu
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
echo "== builds $(( $(date +%s) - T0 ))s"
for v in ./step6 build/var/dp_only build/var/wide_v2; do
  r=$($v 2047 2052 1001 --beta 0.5 --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v: '$r'"
done
for n in 2048 4096 8192; do for v in ./step6 build/var/dp_only build/var/wide_v2; do
  echo -n "$v,"; $v $n --csv --reps 10 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
done; done
echo "== timing $(( $(date +%s) - T0 ))s"
for v in ./step6 build/var/dp_only build/var/wide_v2; do
  nvidia-smi --query-gpu=clocks.sm,power.draw,clocks_event_reasons.sw_power_cap,clocks_event_reasons.hw_slowdown,temperature.gpu --format=csv,noheader,nounits -lms 20 > /tmp/smi.csv &
  P=$!; sleep 0.5
  $v 8192 --csv --reps 40 --no-check > /dev/null 2>&1
  kill $P; wait $P 2>/dev/null
  echo -n "$v 8192 smi (clock MHz, W, power-capped share, samples): "
  awk -F', ' '$2+0 > 300 { c += $1; p += $2; cap += ($3 ~ /Active/); k++ } END { printf "%.0f %.0f %.2f %d\n", c/k, p/k, cap/k, k }' /tmp/smi.csv
done
echo "== smi $(( $(date +%s) - T0 ))s"
for v in ./step6 build/var/dp_only build/var/wide_v2; do for n in 2048 4096; do
  ncu --clock-control none --section SpeedOfLight $v $n --reps 1 --warmup 0 --no-check 2>&1 \
    | grep -E "^  [a-zA-Z_0-9]+.*\(|SM Frequency|Duration|Compute \(SM\) Throughput" | sed "s#^#$v $n: #"
done; done
echo "== total $(( $(date +%s) - T0 ))s"
