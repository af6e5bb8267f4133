#!/bin/bash
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all GIT_COMMIT=$COMMIT 2>&1 | grep -E "error|spill"
mkdir -p build/var build/tune
pids=""
mk() { # name source sed-expr...
  local name=$1 src=$2; shift 2
  sed "$@" -e 's|"../common/harness.h"|"../../common/harness.h"|' $src > build/var/$name.cu
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 build/var/$name.cu build/libharness.a -lcublas -lcudart -o build/var/$name -Xptxas -v 2>&1 | grep -E "spill|Used" | sed "s/^/$name: /" | sort -u | head -3) &
  pids="$pids $!"
}
mk s3b step3_registers/step3.cu -e 's/BM = 128, BN = 128/BM = 64, BN = 64/' -e 's/__launch_bounds__(THREADS)/__launch_bounds__(THREADS, 8)/'
mk s3c step3_registers/step3.cu -e 's/BM = 128, BN = 128/BM = 128, BN = 64/' -e 's/__launch_bounds__(THREADS)/__launch_bounds__(THREADS, 4)/'
mk s3d step3_registers/step3.cu -e 's/__launch_bounds__(THREADS)/__launch_bounds__(THREADS, 2)/'
mk s4c step4_vectorize/step4.cu -e 's/BM = 128, BN = 128/BM = 128, BN = 64/' -e 's/__launch_bounds__(THREADS)/__launch_bounds__(THREADS, 4)/'
mk s5c step5_pipeline/step5.cu -e 's/BM = 128, BN = 128/BM = 128, BN = 64/' -e 's/__launch_bounds__(THREADS, 2)/__launch_bounds__(THREADS, 4)/'
i=0
for cfg in "8 128 128 32 64 8 8" "8 128 128 64 32 8 8" "8 64 128 32 64 8 8" "8 128 64 64 32 8 8" "8 64 64 32 32 4 8" "8 64 64 32 32 8 4" "16 128 128 32 64 8 8" "16 64 64 32 32 4 8" "16 64 128 32 64 8 8"; do
  i=$((i+1)); set -- $cfg
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DTUNE_BK=$1 -DTUNE_BM=$2 -DTUNE_BN=$3 -DTUNE_WM=$4 -DTUNE_WN=$5 -DTUNE_TM=$6 -DTUNE_TN=$7 step6_unroll/step6.cu build/libharness.a -lcublas -lcudart -o build/tune/t$i -Xptxas -warn-spills 2>&1 | grep -iE "spill|error" | head -2; echo "built t$i $cfg") &
  pids="$pids $!"
done
wait $pids
echo "== builds $(( $(date +%s) - T0 ))s"
for st in 1 2 3; do for shape in "7 13 5" "129 127 33" "255 257 3" "100 100 1001" "33 65 17" "1000 1 1000" "64 64 7"; do ./step6 $shape --stages $st --beta 0.5 --reps 1 --warmup 0 --csv | cut -d, -f1-4,7,14,15 | tr '\n' ' '; done; echo; done
compute-sanitizer --tool memcheck --error-exitcode 9 ./step6 129 127 33 --stages 3 --reps 1 --warmup 0 | tail -3
compute-sanitizer --tool memcheck --error-exitcode 9 ./step6 255 257 3 --stages 2 --reps 1 --warmup 0 | tail -2
compute-sanitizer --tool memcheck --error-exitcode 9 ./step6 33 65 17 --stages 3 --reps 1 --warmup 0 | tail -2
echo "== sanitizer done $(( $(date +%s) - T0 ))s"
for n in 1024 2048 4096; do
  for v in step2 step3 build/var/s3b build/var/s3c build/var/s3d step4 build/var/s4c step5 build/var/s5c step6; do
    echo -n "$v,"; ./$v $n --csv --reps 10 --warmup 100 | cut -d, -f1-4,7,10,12,13,15
  done
done
echo "== tune $(( $(date +%s) - T0 ))s"
for i in 1 2 3 4 5 6 7 8 9; do for n in 1024 2048 4096; do for st in 2 3; do echo -n "t$i,"; ./build/tune/t$i $n --stages $st --csv --reps 5 --warmup 50 --no-check | cut -d, -f1-4,7,10,12,13; done; done; done
for i in 1 2 7; do for st in 2 3; do echo -n "t$i,"; ./build/tune/t$i 8192 --stages $st --csv --reps 3 --warmup 50 --no-check | cut -d, -f1-4,7,10,12,13; done; done
echo "total $(( $(date +%s) - T0 ))s"
