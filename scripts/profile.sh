#!/bin/sh
# profile.sh - Nsight Compute on a step's own kernel: the metrics that explain each step.
# `make profile STEP=N SIZE=4096` and `make profile-all SIZE=4096` run it (on the GPU machine):
#
#   scripts/profile.sh check                       is ncu there? (one clear error if not)
#   scripts/profile.sh run ./stepN SIZE OUTBASE    profile, write OUTBASE.ncu.csv (what ncu
#                                                  printed) and OUTBASE.txt (the metrics, as
#                                                  also shown on the terminal)
#   scripts/profile.sh table OUTBASE.ncu.csv...    one row per step, one column per metric
#
# The run is `ncu --csv --page raw --print-units base --metrics ... -k regex:^sgemm_ -c 1
# ./stepN SIZE --reps 1 --warmup 0 --no-check`: only the first launch of the step's own
# kernel is profiled (the kernels are all named sgemm_*; cuBLAS's and the L2 flush's are
# not), once, without the check, which would add the reference's launches.
#
# Environment: NCU (default ncu).
set -u

me=profile
here=$(cd "$(dirname "$0")" && pwd)
ncu=${NCU:-ncu}
# Time; memory traffic (DRAM, L2); shared-memory bank conflicts; occupancy; how busy the
# issue slots and the FMA pipe are; registers and the occupancy they allow.
metrics=gpu__time_duration.sum
metrics=$metrics,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics=$metrics,lts__t_bytes.sum
metrics=$metrics,lts__throughput.avg.pct_of_peak_sustained_elapsed
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active
metrics=$metrics,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics=$metrics,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
metrics=$metrics,launch__registers_per_thread
metrics=$metrics,launch__occupancy_limit_registers

usage() {
    echo "usage: $0 check | run ./stepN SIZE OUTBASE | table OUTBASE.ncu.csv..." >&2
    exit 2
}

check() {
    if ! command -v "$ncu" >/dev/null 2>&1; then
        echo "$me: ncu (Nsight Compute) is not installed here, or not on PATH: it comes with the CUDA toolkit (\$CUDA_HOME/bin/ncu) or as the nsight-compute package; run on the GPU machine, or pass NCU=/path/to/ncu" >&2
        exit 2
    fi
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
check)
    check
    ;;
run)
    [ $# -eq 3 ] || usage
    step=$1 size=$2 out=$3
    case $size in
    '' | *[!0-9]* | 0*) echo "$me: SIZE '$size' is not a positive whole number" >&2; exit 2 ;;
    esac
    check
    [ -x "$step" ] || { echo "$me: $step is not an executable step (make builds it)" >&2; exit 2; }
    mkdir -p "$(dirname "$out")" || exit 1
    name=$(basename "$step")
    echo "$me: $name at M = N = K = $size: ncu on the first launch of its sgemm_ kernel (the GPU's counters; this takes a while)"
    "$ncu" --csv --page raw --print-units base --metrics "$metrics" -k "regex:^sgemm_" -c 1 \
        "$step" "$size" --reps 1 --warmup 0 --no-check > "$out.ncu.csv" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "$me: ncu exited $rc; the end of what it said ($out.ncu.csv):" >&2
        tail -n 15 "$out.ncu.csv" | sed 's/^/    /' >&2
        if grep -q ERR_NVGPUCTRPERM "$out.ncu.csv"; then
            echo "$me: the GPU's counters are reserved to root here: run as root, or see https://developer.nvidia.com/ERR_NVGPUCTRPERM" >&2
        fi
        exit 1
    fi
    {
        echo "$name, M = N = K = $size ($step $size --reps 1 --warmup 0 --no-check under ncu)"
        awk -v metrics="$metrics" -f "$here/ncu_metrics.awk" "$out.ncu.csv"
    } > "$out.txt" || { cat "$out.txt"; exit 1; }
    cat "$out.txt"
    echo "$me: wrote $out.txt (and what ncu printed: $out.ncu.csv)"
    ;;
table)
    [ $# -ge 1 ] || usage
    awk -v metrics="$metrics" -v mode=table -f "$here/ncu_metrics.awk" "$@"
    ;;
*)
    usage
    ;;
esac
