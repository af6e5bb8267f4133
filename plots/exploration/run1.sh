#!/bin/bash
# An exploratory run on the GPU machine (run from the repository root with COMMIT and OUT set).
set -u
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all GIT_COMMIT=$COMMIT 2>&1 | grep -E "error|warning|spill" ; ls step?
mkdir -p build/tune
i=0
for cfg in "128,128,32,64,8,8" "128,128,64,32,8,8" "64,128,32,64,8,8" "128,64,64,32,8,8" "64,64,32,32,4,8" "64,64,32,32,8,4"; do
  i=$((i+1))
  (nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -DTUNE_CONFIG=$cfg step6_unroll/step6.cu build/libharness.a -lcublas -lcudart -o build/tune/t$i -Xptxas -warn-spills 2>&1 | grep -i spill | head -2; echo "built t$i $cfg") &
done
echo "build done $(( $(date +%s) - T0 ))s"
echo "== quick correctness"
for s in step0 step1 step2 step3 step4 step5 step6; do
  for shape in "1 1 1" "7 13 5" "129 127 33" "255 257 3" "1000 1 1000" "100 100 1001" "33 65 17" "512 512 512"; do
    ./$s $shape --alpha 0.7 --beta -1.3 --reps 1 --warmup 0 --csv | cut -d, -f1-4,14,15 | tr '\n' ' '
  done; echo
done
for s in step5 step6; do for st in 1 2 3 4; do ./$s 129 127 33 --stages $st --beta 0.5 --reps 1 --warmup 0 --csv 2>&1| cut -d, -f1,7,14,15 | tr '\n' ' '; ./$s 255 257 3 --stages $st --reps 1 --warmup 0 --csv 2>&1| cut -d, -f1,7,14,15; done; done
for s in step0 step3 step4 step5 step6; do ./$s 256 --inputs integers --alpha 1 --beta 2 --reps 1 --warmup 0 --csv | cut -d, -f1,14,15; done
echo "== bench $(( $(date +%s) - T0 ))s"
./step0 1024 --csv-header --reps 5 | tee $OUT/bench.csv
for s in step1 step2 step3 step4 step5 step6; do for n in 1024 2048 4096; do ./$s $n --csv --reps 10 | tee -a $OUT/bench.csv; done; done
for s in step4 step5 step6; do ./$s 8192 --csv --reps 5 | tee -a $OUT/bench.csv; done
./step4 4096 4096 4092 --csv --reps 10 | tee -a $OUT/bench.csv
./step4 4096 4096 4095 --csv --reps 10 | tee -a $OUT/bench.csv
echo "== sweep step5 $(( $(date +%s) - T0 ))s"
for n in 1024 2048 4096 8192; do for st in 1 2 3 4; do ./step5 $n --stages $st --csv --reps 5 | tee -a $OUT/sweep.csv; done; done
for n in 1024 4096; do for st in 1 2 3; do ./step6 $n --stages $st --csv --reps 5 | tee -a $OUT/sweep.csv; done; done
wait
echo "== tune $(( $(date +%s) - T0 ))s"
for i in 1 2 3 4 5 6; do for n in 1024 2048 4096; do for st in 2 3; do echo -n "t$i,"; ./build/tune/t$i $n --stages $st --csv --reps 5 --no-check | tee -a $OUT/tune.csv; done; done; done
for i in 1 2; do for st in 2 3; do echo -n "t$i,"; ./build/tune/t$i 8192 --stages $st --csv --reps 3 --no-check; done; done | tee -a $OUT/tune.csv
echo "== pedantic vs default cuBLAS $(( $(date +%s) - T0 ))s"
sed -i 's/CUBLAS_PEDANTIC_MATH/CUBLAS_DEFAULT_MATH/' common/reference.c && make step4 GIT_COMMIT=default 2>&1 | grep -i error
for n in 1024 4096; do ./step4 $n --csv --reps 10 | cut -d, -f1-4,11,12; done
sed -i 's/CUBLAS_DEFAULT_MATH/CUBLAS_PEDANTIC_MATH/' common/reference.c
cuobjdump --dump-sass step6 > $OUT/step6.sass; cuobjdump --dump-sass step5 > $OUT/step5.sass
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
echo "total $(( $(date +%s) - T0 ))s"
