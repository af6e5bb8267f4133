#!/bin/bash
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all GIT_COMMIT=$COMMIT 2>&1 | grep -E "error|spill"
mkdir -p build/var build/tune
pids=""
# variants of steps 3-5 with 64x64 block tiles (64 threads)
for s in 3_registers/step3 4_vectorize/step4 5_pipeline/step5; do
  n=$(basename $s)
  sed -e 's/constexpr int BM = 128, BN = 128, BK = 8;/constexpr int BM = 64, BN = 64, BK = 8;/' -e 's/__launch_bounds__(THREADS, 2)/__launch_bounds__(THREADS, 8)/' -e 's|"../common/harness.h"|"../../common/harness.h"|' step$s.cu > build/var/${n}_64.cu
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 build/var/${n}_64.cu build/libharness.a -lcublas -lcudart -o build/var/${n}_64 -Xptxas -v 2>&1 | grep -E "spill|Used" | sed "s/^/$n: /" | sort -u | head -4) &
  pids="$pids $!"
done
i=0
for cfg in "128,128,32,64,8,8" "128,128,64,32,8,8" "64,128,32,64,8,8" "128,64,64,32,8,8" "64,64,32,32,4,8" "64,64,32,32,8,4" "64,64,32,64,8,8" "64,64,64,32,8,8"; do
  i=$((i+1))
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DTUNE_CONFIG=$cfg step6_unroll/step6.cu build/libharness.a -lcublas -lcudart -o build/tune/t$i -Xptxas -warn-spills 2>&1 | grep -i spill | head -2; echo "built t$i $cfg") &
  pids="$pids $!"
done
wait $pids
echo "== builds $(( $(date +%s) - T0 ))s"
for v in step3_64 step4_64 step5_64; do
  for shape in "7 13 5" "129 127 33" "255 257 3" "100 100 1001" "33 65 17"; do ./build/var/$v $shape --beta 0.5 --reps 1 --warmup 0 --csv | cut -d, -f1-4,14,15 | tr '\n' ' '; done; echo
done
echo "== variants"
for n in 1024 2048 4096; do
  for v in step2 step3 build/var/step3_64 step4 build/var/step4_64 step5 build/var/step5_64 step6; do
    echo -n "$v,"; ./$v $n --csv --reps 10 --warmup 100 | cut -d, -f1-4,7,10,12,13,15
  done
done
echo "== tune $(( $(date +%s) - T0 ))s"
for i in 1 2 3 4 5 6 7 8; do for n in 1024 2048 4096; do for st in 2 3; do echo -n "t$i,"; ./build/tune/t$i $n --stages $st --csv --reps 5 --warmup 50 --no-check | cut -d, -f1-4,7,10,12,13; done; done; done
for i in 1 2; do for st in 2 3; do echo -n "t$i,"; ./build/tune/t$i 8192 --stages $st --csv --reps 3 --warmup 50 --no-check | cut -d, -f1-4,7,10,12,13; done; done
echo "== cuBLAS math modes $(( $(date +%s) - T0 ))s"
sed -i 's/CUBLAS_PEDANTIC_MATH/CUBLAS_DEFAULT_MATH/' common/reference.c && make step4 GIT_COMMIT=default 2>&1 | grep -i error
for n in 1024 4096; do echo -n "default,"; ./step4 $n --csv --reps 10 | cut -d, -f1-4,11,12; done
sed -i 's/CUBLAS_DEFAULT_MATH/CUBLAS_PEDANTIC_MATH/' common/reference.c
echo "total $(( $(date +%s) - T0 ))s"
