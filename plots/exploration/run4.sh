#!/bin/bash
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all GIT_COMMIT=$COMMIT 2>&1 | grep -E "error|spill"
mkdir -p build/var build/tune
pids=""
mk() { local name=$1 src=$2; shift 2
  sed "$@" -e 's|"../common/harness.h"|"../../common/harness.h"|' $src > build/var/$name.cu
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 build/var/$name.cu build/libharness.a -lcublas -lcudart -o build/var/$name -Xptxas -v 2>&1 | grep -E "spill|Used" | sed "s/^/$name: /" | sort -u | head -3) &
  pids="$pids $!"; }
mk s3e step3_registers/step3.cu -e 's/__launch_bounds__(THREADS)/__launch_bounds__(THREADS, 2)/' -e 's/^#pragma unroll$/#pragma unroll 1/'
mk s3f step3_registers/step3.cu -e 's/__launch_bounds__(THREADS)/__launch_bounds__(THREADS, 2)/' -e 's/^#pragma unroll$/#pragma unroll 2/'
mk s3g step3_registers/step3.cu -e 's/__launch_bounds__(THREADS)/__launch_bounds__(THREADS, 2)/' -e 's/^#pragma unroll$/#pragma unroll 4/'
mk s4k step4_vectorize/step4.cu -e 's/BM = 128, BN = 128, BK = 8;/BM = 128, BN = 128, BK = 16;/'
i=0
for cfg in "8 128 128 32 64 8 8" "16 128 128 32 64 8 8" "8 64 128 32 64 8 8" "16 64 128 32 64 8 8" "8 64 64 32 32 4 8" "16 64 64 32 32 4 8" "8 64 64 32 32 8 4" "16 64 64 32 32 8 4"; do
  i=$((i+1)); set -- $cfg
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DTUNE_BK=$1 -DTUNE_BM=$2 -DTUNE_BN=$3 -DTUNE_WM=$4 -DTUNE_WN=$5 -DTUNE_TM=$6 -DTUNE_TN=$7 step6_unroll/step6.cu build/libharness.a -lcublas -lcudart -o build/tune/t$i -Xptxas -warn-spills 2>&1 | grep -iE "spill|error" | head -2; echo "built t$i $cfg") &
  pids="$pids $!"
done
wait $pids
echo "== builds $(( $(date +%s) - T0 ))s"
for v in build/tune/t2 build/tune/t6; do for st in 1 2 3; do for shape in "129 127 33" "255 257 3" "100 100 1001" "33 65 17" "64 64 7"; do ./$v $shape --stages $st --beta 0.5 --reps 1 --warmup 0 --csv | cut -d, -f1-4,7,15 | tr '\n' ' '; done; echo; done; done
for n in 1024 2048 4096; do
  for v in step2 step3 build/var/s3e build/var/s3f build/var/s3g step4 build/var/s4k step5 step6; do
    echo -n "$v,"; ./$v $n --csv --reps 10 --warmup 100 | cut -d, -f1-4,7,10,12,13,15
  done
done
echo "== tune $(( $(date +%s) - T0 ))s"
for i in 1 2 3 4 5 6 7 8; do for n in 1024 2048 4096; do for st in 2 3; do echo -n "t$i,"; ./build/tune/t$i $n --stages $st --csv --reps 5 --warmup 50 --no-check | cut -d, -f1-4,7,10,12,13; done; done; done
for i in 1 2 3 4; do for st in 2 3; do echo -n "t$i,"; ./build/tune/t$i 8192 --stages $st --csv --reps 3 --warmup 50 --no-check | cut -d, -f1-4,7,10,12,13; done; done
echo "total $(( $(date +%s) - T0 ))s"
