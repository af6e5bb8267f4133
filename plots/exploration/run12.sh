#!/bin/bash
# Run 12: run 11 showed the cause: with clusters of 4, Nsight Compute's "Max Active
# Clusters" is 62 for 128x128 tiles (248 blocks resident, 256 launched at 1024) and 124
# for 64x128 (496 of 512): the last clusters wait for a second wave. Here: the cluster
# scheduling policy "load balancing" in place of the default "spread" (may pack a
# cluster's blocks onto fewer SMs), the largest shared-memory carveout, and BK 16 for
# the short K shares; the same ncu sections, and times at 512 and 1024.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 build/libharness.a 2>&1 | grep -E "error"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -I step6_unroll"
sed -e 's|^    cudaLaunchAttribute cluster;|    cudaLaunchAttribute attrs[2];\n    cudaLaunchAttribute \&cluster = attrs[0];\n    attrs[1].id = cudaLaunchAttributeClusterSchedulingPolicyPreference;\n    attrs[1].val.clusterSchedulingPolicyPreference = cudaClusterSchedulingPolicyLoadBalancing;|' \
    -e 's|config.attrs = &cluster;|config.attrs = attrs;|' -e 's|config.numAttrs = SPLIT > 1 ? 1 : 0;|config.numAttrs = SPLIT > 1 ? 2 : 0;|' \
    step6_unroll/step6.cu > build/var/lb.cu
sed 's|^    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);|    cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100);\n&|' \
    step6_unroll/step6.cu > build/var/carve.cu
grep -c 'LoadBalancing\|attrs = attrs\|? 2 : 0' build/var/lb.cu; grep -c PreferredSharedMemoryCarveout build/var/carve.cu
build() { # name src [nvcc flags]
  local name=$1 src=$2; shift 2
  ($NV "$@" $src build/libharness.a -lcublas -lcudart -o build/var/$name 2>&1 | grep -E "error" | sed "s/^/$name: /") &
}
flags() { echo "-DTUNE_BK=$1 -DTUNE_BM=$3 -DTUNE_BN=$4 -DTUNE_WM=$5 -DTUNE_WN=$6 -DTUNE_TM=$7 -DTUNE_TN=$8 -DTUNE_SPLIT=$2"; }
for c in "8 4 128 128 32 64 8 8" "8 4 64 128 32 64 8 8" "8 4 64 64 32 32 8 4" "8 8 64 64 32 32 8 4" "8 8 64 128 32 64 8 8" \
         "16 4 64 128 32 64 8 8" "16 8 64 64 32 32 8 4" "16 4 128 128 32 64 8 8" "16 2 64 128 32 64 8 8"; do
  set -- $c; n=$2_$3x$4_bk$1
  build lb$n build/var/lb.cu $(flags $c)
  [ $1 = 16 ] && build s$n step6_unroll/step6.cu $(flags $c)
done
build c4_128x128_bk8 build/var/carve.cu $(flags 8 4 128 128 32 64 8 8)
wait
echo "== builds $(( $(date +%s) - T0 ))s"
for v in build/var/*bk*; do
  r=$(./$v 129 127 33 --beta 0.5 --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v: '$r' at 129x127x33"
  r=$(./$v 1000 1001 1003 --beta 0.5 --reps 1 --warmup 0 --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v: '$r' at 1000x1001x1003"
done
for n in 256 512 1024; do
  for v in step6 build/var/*bk*; do
    echo -n "$v,"; ./$v $n --csv --reps 20 --warmup 100 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
  done
done
echo "== timing $(( $(date +%s) - T0 ))s"
for v in lb4_128x128_bk8 lb4_64x128_bk8 lb8_64x64_bk8 c4_128x128_bk8; do
  echo "== ncu $v 1024"
  ncu --section LaunchStats --section Occupancy --section SpeedOfLight -k regex:sgemm -c 1 \
      ./build/var/$v 1024 --reps 1 --warmup 0 --no-check 2>&1 | grep -E "Cluster|Block Limit|Occupancy|Waves|Duration|Shared Memory Config|Grid Size|Compute \(SM\)"
done
echo "== total $(( $(date +%s) - T0 ))s"
