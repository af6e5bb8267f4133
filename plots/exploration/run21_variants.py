#!/usr/bin/env python3
"""Writes variants of step6.cu's sgemm_wide for run 21 into the folder given (default build/var):
  dp_only   the persistent kernel without runs: the left-over tiles make a last partial wave
  noncoop   as step 6, launched without the cooperative attribute
  pertile   one block a tile, no runs (as before stream-K, with the new k-loop)
  mixed     one block a whole tile, then one block a run: the hardware hands out the whole
            tiles as SMs free up, and the runs come last (no cooperative launch)
Exploration only."""
import os, sys
out = sys.argv[1] if len(sys.argv) > 1 else "build/var"
base = open("step6_unroll/step6.cu").read()

def variant(name, *subs):
    s = base
    for old, new in subs:
        assert old in s, (name, old[:70])
        s = s.replace(old, new, 1)
    s = s.replace('#include "../common/harness.h"', '#include "' + os.path.relpath("common/harness.h", out) + '"')
    open(os.path.join(out, name + ".cu"), "w").write(s)

NO_LEFT = ("    long long left = tiles % sms;", "    long long left = 0;")
NO_COOP = ("    config.numAttrs = 1;", "    config.numAttrs = 0;")
variant("dp_only", NO_LEFT)
variant("noncoop", NO_COOP)
variant("pertile", NO_LEFT, NO_COOP,
        ("    config.gridDim = dim3(work.whole_tiles > 0 ? sms : work.runs);",
         "    config.gridDim = dim3(work.whole_tiles);"))
variant("mixed", NO_COOP,
        ("    int run = blockIdx.x, next_whole = blockIdx.x;",
         "    int run = (int)blockIdx.x - work.whole_tiles, next_whole = blockIdx.x;"),
        ("    long long at = run < work.runs ? work.run_begin(run) : 0, end = run < work.runs ? work.run_begin(run + 1) : 0;",
         "    bool has_run = run >= 0 && run < work.runs;\n"
         "    long long at = has_run ? work.run_begin(run) : 0, end = has_run ? work.run_begin(run + 1) : 0;"),
        ("    config.gridDim = dim3(work.whole_tiles > 0 ? sms : work.runs);",
         "    config.gridDim = dim3(work.whole_tiles + work.runs);"))
