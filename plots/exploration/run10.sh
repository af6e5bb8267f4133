#!/bin/bash
# Run 10: split K for the sizes whose tiles do not fill the GPU (issue 10, lead 5).
# Step 6's kernel with SPLIT blocks a tile, launched as clusters of SPLIT, the partial
# tiles added up in rank order through distributed shared memory. Every tile shape x
# split below, built with -DTUNE_* (TUNE_SPLIT = blocks a tile), 3 stages, checked at an
# awkward shape at every stage count, then timed at 256 .. 2048 against cuBLAS.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
build() { # name [nvcc flags]
  local name=$1; shift
  ($NV "$@" step6_unroll/step6.cu build/libharness.a -lcublas -lcudart -o build/var/$name -Xptxas -v 2>&1 | grep -E "error|bytes spill stores" | grep -v " 0 bytes spill" | sed "s/^/$name: /" | sort -u | head -6) &
}
for c in "128 128 32 64 8 8" "64 128 32 64 8 8" "64 64 32 32 8 4" "32 64 32 64 8 8"; do
  set -- $c
  for sp in 1 2 4 8; do
    [ $1 = 32 ] && [ $sp = 1 ] && continue
    build s${sp}_$1x$2 -DTUNE_BK=8 -DTUNE_BM=$1 -DTUNE_BN=$2 -DTUNE_WM=$3 -DTUNE_WN=$4 -DTUNE_TM=$5 -DTUNE_TN=$6 -DTUNE_SPLIT=$sp
  done
done
wait
echo "== builds $(( $(date +%s) - T0 ))s"
for v in build/var/s*; do
  for st in 1 2 3; do for shape in "129 127 33" "1000 1001 1003" "64 64 4000"; do
    r=$(./$v $shape --beta 0.5 --reps 1 --warmup 0 --stages $st --csv 2>&1 | cut -d, -f15)
    [ "$r" = PASS ] || echo "$v S$st: '$r' at $shape"
  done; done
done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 256 512 1024 2048; do
  for v in step5 step6 build/var/s*; do
    echo -n "$v,"; ./$v $n --csv --reps 20 --warmup 100 2>&1 | cut -d, -f2,7,8,10,11,12,13,15 | head -1
  done
  echo "== $n $(( $(date +%s) - T0 ))s"
done
echo "== total $(( $(date +%s) - T0 ))s"
