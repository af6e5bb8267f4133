#!/bin/bash
# Run 9: what a step-5 candidate needs, taken apart. Step 6's kernel with its stage loop not
# unrolled (s6r, run 8's candidate), BK 16, at S = 1..3: as it is; without rasterization
# groups (plain); without warp tiling (warp tiles one 16-row band of 128 or 64 columns, the
# thread mapping of step 5: nw). And step 5 as it is with BK 16 and shared memory past
# 48 KiB asked for, at S = 2..4. Every size 1024..8192.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
build() { # name [nvcc flags]
  local name=$1; shift
  ($NV "$@" build/var/$name.cu build/libharness.a -lcublas -lcudart -o build/var/$name -Xptxas -v 2>&1 | grep -E "error|bytes spill stores|Used" | grep -v " 0 bytes spill" | sed "s/^/$name: /" | sort -u | head -6) &
}
V=plots/exploration/run8_variants.py
for c in "s6r 128 128 32 64" "s6r 64 128 32 64" "s6r_plain 128 128 32 64" "s6r_plain 64 128 32 64" "s6r 128 128 16 128" "s6r 64 128 16 128"; do
  set -- $c; kind=$1; n=${kind}_bk16_$2x$3_w$4x$5; [ $kind = s6r ] && kind=step6r || kind=step6r_plain
  python3 $V $kind $n && build $n -DTUNE_BK=16 -DTUNE_BM=$2 -DTUNE_BN=$3 -DTUNE_WM=$4 -DTUNE_WN=$5 -DTUNE_TM=8 -DTUNE_TN=8
done
for c in "128 128 16" "64 128 16"; do set -- $c; n=s5big_$1x$2_k$3; python3 $V step5_big $n $1 $2 $3 && build $n; done
wait
echo "== builds $(( $(date +%s) - T0 ))s"
for v in build/var/s6r* build/var/s5big*; do case $v in *.cu) continue;; esac
  for st in 1 2 3; do r=$(./$v 129 127 33 --beta 0.5 --reps 1 --warmup 0 --stages $st --csv 2>&1 | cut -d, -f15); [ "$r" = PASS ] || echo "$v S$st: '$r' at 129x127x33"; done
done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 1024 2048 4096 8192; do
  chk=""; [ $n = 8192 ] && chk=--no-check
  for v in step4 step5 step6 build/var/s6r* build/var/s5big*; do
    case $v in *.cu) continue;; esac
    case $v in *s6r*) sts="1 2 3";; *s5big*) sts="2 3 4";; step4) sts=0;; *) sts=3;; esac
    for st in $sts; do
      opt=""; [ $st != 0 ] && opt="--stages $st"
      echo -n "$v S$st,"; ./$v $n $opt --csv --reps 5 --warmup 100 $chk 2>&1 | cut -d, -f2,7,10,12,13,15 | head -1
    done
  done
  echo "== $n $(( $(date +%s) - T0 ))s"
done
echo "== total $(( $(date +%s) - T0 ))s"
