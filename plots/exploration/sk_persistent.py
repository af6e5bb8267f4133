#!/usr/bin/env python3
"""Writes run 30's sk_persistent.cu (argv[1]) from this repository's history: step6.cu as at
commit 75675de (stream-K: whole tiles one block each, then one block a run, the last piece
of a cut tile adding the others' sums from global memory), with the workspace helper that
common/device.c had then, changed after run 29's timeline: the grid is one block per SM and
each block takes the same number of whole tiles (b, b + grid, ...), so the runs start
together; and no runs where the tiles are fewer than the SMs. Run it here (it needs git);
run30.sh reads the result from .gpu/. Exploration only, not a step of the course."""
import subprocess, sys

def show(path):
    return subprocess.run(["git", "show", "75675de:" + path], check=True, capture_output=True, text=True).stdout

s = show("step6_unroll/step6.cu")
device_c = show("common/device.c")
workspace = device_c[device_c.index("void *harness_workspace("):]
workspace = "static " + workspace[:workspace.index("\n}\n") + 3]

def sub(old, new):
    global s
    assert s.count(old) == 1, old[:70]
    s = s.replace(old, new)

sub("namespace cg = cooperative_groups;\n",
    "namespace cg = cooperative_groups;\n\n// (the workspace helper that common/ had at 75675de)\n" + workspace)
sub('''    if ((int)blockIdx.x < work.whole_tiles) {   // a whole tile
        int2 origin = tile_origin<CFG>(blockIdx.x, m, n);
        float acc[CFG::TM][CFG::TN] = {};
        wide_k_tiles<CFG, K_PIPE_MAX, VEC>(acc, smem, m, n, k, a, b, origin, 0, k_tiles, a_off, b_off);
        store_tile<CFG, VEC>(acc, a_off, b_off, m, n, alpha, beta, c, origin.x, origin.y);
        return;
    }
    // A run: a piece in each left-over tile it crosses (t counts those tiles).
    int run = (int)blockIdx.x - work.whole_tiles;''', '''    // Persistent: block b takes whole tiles b, b + grid, ... (the same number for every
    // block, so all of them reach their runs at nearly the same time), then run b.
    for (int tile = blockIdx.x; tile < work.whole_tiles; tile += gridDim.x) {
        int2 origin = tile_origin<CFG>(tile, m, n);
        float acc[CFG::TM][CFG::TN] = {};
        wide_k_tiles<CFG, K_PIPE_MAX, VEC>(acc, smem, m, n, k, a, b, origin, 0, k_tiles, a_off, b_off);
        store_tile<CFG, VEC>(acc, a_off, b_off, m, n, alpha, beta, c, origin.x, origin.y);
    }
    // A run: a piece in each left-over tile it crosses (t counts those tiles).
    int run = blockIdx.x;
    if (run >= work.runs)
        return;''')
sub("    long long left = tiles % sms;", '''    // Runs only after whole waves: with fewer tiles than SMs (2048: 128 of them), a cut
    // tile's hand-over costs more than the balance saves (run 29).
    long long left = tiles >= sms ? tiles % sms : 0;''')
sub('''    kernel<<<work.whole_tiles + work.runs, CFG::THREADS, smem, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b,
                                                                         g->beta, g->c, work, slots, arrived);''',
    '''    unsigned grid = left > 0 ? (unsigned)sms : (unsigned)tiles;   // persistent only with runs
    kernel<<<grid, CFG::THREADS, smem, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c, work, slots,
                                                 arrived);''')
open(sys.argv[1], "w").write("/* sk_persistent - written by plots/exploration/sk_persistent.py (run 30). */\n" + s)
