#!/bin/bash
# Step 0 at 4096: is it the L1 that holds it back? plots/profile.txt rules out DRAM (5.1%
# busy), L2 bandwidth (34.0%), the FMA pipe (1.0%) and instruction issue (4.9%), with 97.4%
# of warp slots filled. Step 0's lesson estimates that each SM looks up about one cache
# line per clock (every warp-wide load of A touches 32 lines).
#
# Prediction, if so: L1/TEX throughput near its peak in SpeedOfLight, the L1 global-load
# table with about 32 sectors per request for A, warps stalled mostly on "LG throttle" or
# "long scoreboard", and the SM clock under ncu (sm__cycles_elapsed.avg.per_second)
# turning the lesson's 1.45 billion lines per second per SM into lines per cycle.
#
# Run from the repository root on a machine with a GPU and Nsight Compute (ncu); writes
# ncu's whole output to $OUT/step0_l1.txt (default build/x) and prints the lines it picks out:
#   OUT=/some/dir bash step0_naive/evidence/step0_l1.sh
set -u
export PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-build/x}
mkdir -p "$OUT"
make -s step0 >/dev/null || exit 1
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats"
ncu $S --metrics sm__cycles_elapsed.avg.per_second -k regex:^sgemm_ -c 1 \
    ./step0 4096 --reps 1 --warmup 0 --no-check > "$OUT/step0_l1.txt" 2>&1
grep -E "L1/TEX|Throughput|Hit Rate|Sectors|Stall|Warp Cycles|cycles_elapsed|ERROR" "$OUT/step0_l1.txt" | head -60
