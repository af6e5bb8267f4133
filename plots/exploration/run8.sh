#!/bin/bash
# Run 8: can step 3 beat step 2 at 1024 (smaller thread tiles, full unroll)? Step 4 with
# 4x8 and 8x4 thread tiles and BK = 16; step 6's kernel with its stage loop not unrolled
# (a candidate for step 5) at BK 8 and 16. Every size 1024..8192. Writes the log to stdout.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
build() { # name [nvcc flags]
  local name=$1; shift
  ($NV "$@" build/var/$name.cu build/libharness.a -lcublas -lcudart -o build/var/$name -Xptxas -v 2>&1 | grep -E "error|bytes spill stores|Used" | grep -v " 0 bytes spill" | sed "s/^/$name: /" | sort -u | head -4) &
}
V=plots/exploration/run8_variants.py
for c in 128,128,8,8,8,2,2 64,64,4,8,16,2,4 64,64,4,8,16,0,4 64,64,8,4,16,2,4 64,64,8,4,16,0,4 64,64,4,8,32,2,4 64,64,4,8,32,0,4 64,64,4,4,16,0,2 32,64,4,4,16,0,4 64,32,4,4,16,0,4 64,128,8,8,16,0,1; do
  IFS=, read bm bn tm tn bk u mb <<< "$c"; n=s3_${bm}x${bn}_t${tm}x${tn}_k${bk}_u${u}_b${mb}
  python3 $V step3 $n $bm $bn $tm $tn $bk $u $mb && build $n
done
for c in 128,128,8,8,16 64,128,8,8,16 64,64,4,8,16 64,64,8,4,16 64,64,4,8,32 128,64,8,4,16 64,128,4,8,16; do
  IFS=, read bm bn tm tn bk <<< "$c"; n=s4_${bm}x${bn}_t${tm}x${tn}_k$bk
  python3 $V step4 $n $bm $bn $tm $tn $bk && build $n
done
for c in "8 128 128 32 64 8 8" "16 128 128 32 64 8 8" "8 64 128 32 64 8 8" "16 64 128 32 64 8 8"; do
  set -- $c; n=s6r_bk$1_$2x$3
  python3 $V step6r $n && build $n -DTUNE_BK=$1 -DTUNE_BM=$2 -DTUNE_BN=$3 -DTUNE_WM=$4 -DTUNE_WN=$5 -DTUNE_TM=$6 -DTUNE_TN=$7
done
wait
echo "== builds $(( $(date +%s) - T0 ))s"
for v in build/var/s*; do case $v in *.cu) continue;; esac
  for st in "" 2; do
    case $v in *s6r_*) ;; *) [ -n "$st" ] && continue;; esac
    r=$(./$v 129 127 33 --beta 0.5 --reps 1 --warmup 0 ${st:+--stages $st} --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v: '$r' at 129x127x33"
  done
done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 1024 2048 4096 8192; do
  chk=""; [ $n = 8192 ] && chk=--no-check
  for v in step2 step3 step4 step5 step6 build/var/s*; do
    case $v in *.cu) continue;; esac
    case $v in *s6r_*) sts="2 3";; step5|step6) sts=3;; *) sts=0;; esac
    for st in $sts; do
      opt=""; [ $st != 0 ] && opt="--stages $st"
      echo -n "$v S$st,"; ./$v $n $opt --csv --reps 5 --warmup 100 $chk 2>&1 | cut -d, -f2,7,10,12,13,15 | head -1
    done
  done
  echo "== $n $(( $(date +%s) - T0 ))s"
done
echo "== total $(( $(date +%s) - T0 ))s"
