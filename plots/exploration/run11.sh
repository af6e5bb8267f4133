#!/bin/bash
# Run 11: why split K gained little at 1024 in run 10 (s4_128x128 slower than s2_128x128).
# Hypothesis: fewer blocks per SM are resident than registers allow (the shared-memory
# carveout, or where clusters can be placed), so the extra blocks run as a second wave.
# Nsight Compute's launch and occupancy sections on three split variants at 1024, and the
# same variants built to ask for the largest shared-memory carveout, timed at 512 and 1024.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 build/libharness.a 2>&1 | grep -E "error"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
sed 's|^    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);|    cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100);\n&|' \
  step6_unroll/step6.cu > build/var/carve.cu
grep -c PreferredSharedMemoryCarveout build/var/carve.cu
build() { # name src [nvcc flags]
  local name=$1 src=$2; shift 2
  ($NV "$@" $src build/libharness.a -lcublas -lcudart -o build/var/$name 2>&1 | grep -E "error" | sed "s/^/$name: /") &
}
for c in "2 64 128 32 64 8 8" "4 64 128 32 64 8 8" "2 128 128 32 64 8 8" "4 128 128 32 64 8 8" "8 64 64 32 32 8 4" "4 64 64 32 32 8 4"; do
  set -- $c
  f="-DTUNE_BK=8 -DTUNE_BM=$2 -DTUNE_BN=$3 -DTUNE_WM=$4 -DTUNE_WN=$5 -DTUNE_TM=$6 -DTUNE_TN=$7 -DTUNE_SPLIT=$1"
  build s$1_$2x$3 step6_unroll/step6.cu $f
  build c$1_$2x$3 build/var/carve.cu $f
done
wait
echo "== builds $(( $(date +%s) - T0 ))s"
for n in 512 1024; do
  for v in build/var/[sc][248]_*; do
    echo -n "$v,"; ./$v $n --csv --reps 20 --warmup 100 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
  done
done
echo "== timing $(( $(date +%s) - T0 ))s"
for v in s2_128x128 s4_128x128 c4_128x128 s4_64x128 c4_64x128; do
  echo "== ncu $v 1024"
  ncu --section LaunchStats --section Occupancy --section SpeedOfLight -k regex:sgemm -c 1 \
      ./build/var/$v 1024 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "Cluster|Block Limit|Occupancy|Waves|Duration|Shared Memory Config|Registers Per|Grid Size|SM Busy|Compute \(SM\)|Memory Throughput|Dynamic Shared|Driver Shared"
done
echo "== total $(( $(date +%s) - T0 ))s"
