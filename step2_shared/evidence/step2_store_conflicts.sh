#!/bin/bash
# Step 2's shared-memory store "bank conflicts" (6,671,636 in plots/profile.txt), although
# every warp-wide store of its copy writes 32 consecutive words (no address conflict).
# Question: are they extra passes of the stores through the L1/shared banks while L1 is
# busy with the global loads' data (fills), as step 2's lesson argues?
#
# Prediction, if so: (1) conflicts = store wavefronts - store instructions (they are real
# extra passes); (2) the count differs from run to run (it depends on timing, not on
# addresses); (3) with the global loads not cached in L1 (-Xptxas -dlcm=cg) it falls
# towards 0, while the store instructions stay 67,108,864 at 4096.
#
# Run from the repository root on a machine with a GPU and Nsight Compute (ncu); writes
# one ncu output per build and run to $OUT (default build/x) and prints the lines it picks out:
#   OUT=/some/dir bash step2_shared/evidence/step2_store_conflicts.sh
set -u
export PATH=$PATH:/usr/local/cuda/bin
OUT=${OUT:-build/x}
mkdir -p "$OUT" build/x
make -s step2 >/dev/null || exit 1
# The same kernel, global loads cached in L2 only (the Makefile's flags otherwise), for the
# GPU present as the Makefile detects it (sm_90, an H100 or H200, when none answers).
SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -cd 0-9)
SM=${SM:-90}
nvcc -O3 -std=c++17 -lineinfo -gencode arch=compute_$SM,code=sm_$SM -Xptxas -dlcm=cg \
    step2_shared/step2.cu build/libharness.a -lcublas -lcudart -o build/x/step2_cg || exit 1
M=smsp__sass_inst_executed_op_shared_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_shared_ld.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
M=$M,l1tex__t_sector_hit_rate.pct,lts__t_bytes.sum,gpu__time_duration.sum
for bin in ./step2 ./build/x/step2_cg; do
  for run in 1 2 3; do
    name=$(basename $bin)_run$run
    ncu --metrics $M -k regex:^sgemm_ -c 1 $bin 4096 --reps 1 --warmup 0 --no-check \
        > "$OUT/$name.txt" 2>&1
    echo "== $name"; grep -E "sass_inst|wavefronts|conflicts|hit_rate|lts__t_bytes|duration|ERROR" "$OUT/$name.txt"
  done
done
