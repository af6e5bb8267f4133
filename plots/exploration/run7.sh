#!/bin/bash
# Run 7: the ladder at small sizes (issue: every step faster than the one before at 1024..8192).
# Steps 3, 4 and 5 rebuilt with other block tiles (BM x BN), thread tiles (TM x TN) and
# k-tile depths (BK), by editing their constants; each run at 1024, 2048, 4096 and 8192
# next to steps 2 and 6 as they are. Also: the example output of ./step6 4096 and
# compute-sanitizer memcheck on every step. Writes $OUT/run7.log.
set -u
export PATH=$PATH:/usr/local/cuda/bin
T0=$(date +%s)
make -j16 all 2>&1 | grep -E "error|spill"
mkdir -p build/var
NV="nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90"
mk() { # name source BM BN TM TN BK
  local name=$1 src=$2 bm=$3 bn=$4 tm=$5 tn=$6 bk=$7
  sed -e "s/constexpr int BM = 128, BN = 128, BK = 8;/constexpr int BM = $bm, BN = $bn, BK = $bk;/" \
      -e "s/constexpr int BM = 128, BN = 128, BK = 8; *\/\/.*/constexpr int BM = $bm, BN = $bn, BK = $bk;/" \
      -e "s/constexpr int TM = 8, TN = 8;/constexpr int TM = $tm, TN = $tn;/" \
      -e 's|"../common/harness.h"|"../../common/harness.h"|' $src > build/var/$name.cu
  grep -q "BM = $bm, BN = $bn, BK = $bk" build/var/$name.cu || echo "$name: the BM/BN/BK edit did not apply"
  ($NV build/var/$name.cu build/libharness.a -lcublas -lcudart -o build/var/$name -Xptxas -v 2>&1 | grep -E "error|spill stores|registers" | grep -v " 0 bytes spill" | sed "s/^/$name: /" | sort -u | head -3) &
}
S3="128,128,8,8,8 128,128,8,8,16 64,128,8,8,8 64,128,8,8,16 64,128,8,8,32 128,64,8,8,16 64,64,8,8,16 64,64,8,8,32 64,64,4,8,16 64,64,4,8,32 64,64,8,4,16 64,64,4,4,16 32,64,4,4,32"
S45="128,128,8 128,128,16 64,128,8 64,128,16 64,128,32 128,64,16 64,64,16 64,64,32"
for c in $S3; do IFS=, read bm bn tm tn bk <<< "$c"; mk s3_${bm}x${bn}_t${tm}x${tn}_k$bk step3_registers/step3.cu $bm $bn $tm $tn $bk; done
for c in $S45; do IFS=, read bm bn bk <<< "$c"
  mk s4_${bm}x${bn}_k$bk step4_vectorize/step4.cu $bm $bn 8 8 $bk
  mk s5_${bm}x${bn}_k$bk step5_pipeline/step5.cu $bm $bn 8 8 $bk; done
wait
echo "== builds $(( $(date +%s) - T0 ))s"
# Correctness of each variant at an awkward shape first.
for v in build/var/s*[0-9]; do [ -x $v ] || continue; r=$(./$v 129 127 33 --beta 0.5 --reps 1 --warmup 0 --csv | cut -d, -f15); [ "$r" = PASS ] || echo "$v: $r at 129x127x33"; done
echo "== checks $(( $(date +%s) - T0 ))s"
for n in 1024 2048 4096 8192; do
  chk=""; [ $n = 8192 ] && chk=--no-check
  for v in step2 step3 step4 step5 step6 build/var/s3_* build/var/s4_* build/var/s5_*; do
    case $v in *.cu) continue;; esac
    st=""; case $v in *s5_*|step5|step6) st="--stages 3";; esac
    echo -n "$v,"; ./$v $n $st --csv --reps 5 --warmup 100 $chk 2>&1 | cut -d, -f2,7,10,12,13,15 | head -1
    case $v in *s5_*) echo -n "$v S2,"; ./$v $n --stages 2 --csv --reps 5 --warmup 100 $chk 2>&1 | cut -d, -f2,7,10,12,13,15 | head -1;; esac
  done
  echo "== $n $(( $(date +%s) - T0 ))s"
done
./step6 4096 > $OUT/example-output.txt 2>&1
make memcheck 2>&1 | grep -E "==|ERROR SUMMARY" > $OUT/memcheck.txt
echo "== total $(( $(date +%s) - T0 ))s"
