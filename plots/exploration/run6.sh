#!/bin/bash
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 step6 step5 GIT_COMMIT=$COMMIT 2>&1 | grep -E "error|spill"
mkdir -p build/x
nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DTUNE_BK=16 -DTUNE_BM=128 -DTUNE_BN=128 -DTUNE_WM=32 -DTUNE_WN=64 -DTUNE_TM=8 -DTUNE_TN=8 step6_unroll/step6.cu build/libharness.a -lcublas -lcudart -o build/x/bk16 &
S="--section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis"
ncu $S -k regex:gemm -c 2 ./step6 4096 --reps 1 --warmup 0 --no-check > $OUT/ncu_step6_cublas.txt 2>&1
echo "== step6+cublas $(( $(date +%s) - T0 ))s"
ncu $S -k regex:^sgemm_ -c 1 ./step5 4096 --reps 1 --warmup 0 --no-check > $OUT/ncu_step5.txt 2>&1
wait
for st in 2 3; do ncu $S -k regex:^sgemm_ -c 1 ./build/x/bk16 4096 --stages $st --reps 1 --warmup 0 --no-check > $OUT/ncu_bk16_s$st.txt 2>&1; done
echo "== done $(( $(date +%s) - T0 ))s"
grep -E "Warp Cycles Per Issued|Stall|Issue Slots|Issued Warp|No Eligible|Active Warps|Eligible Warps|Registers Per|Block Size|Grid Size|Shared Memory Config|Dynamic Shared|Achieved Occ|Function Name|sgemm|gemm|Executed Ipc|Theoretical Occ" $OUT/ncu_step6_cublas.txt | head -80
