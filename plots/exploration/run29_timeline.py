#!/usr/bin/env python3
"""Run 29: writes a copy of a step-6 source (argv[1]) to argv[2] whose sgemm_wide stamps each
block's start and end (%globaltimer, after a barrier) and SM (%smid), and whose launch_wide,
at its 4th call (a timed launch), waits for the kernel and prints to stderr when the
blocks of whole tiles and of runs started and ended, relative to the first start, and the
spread of the SMs' last end times. Exploration only."""
import sys
src, out = sys.argv[1], sys.argv[2]
s = open(src).read()

def once(old, new):
    global s
    assert s.count(old) >= 1, old[:60]
    s = s.replace(old, new, 1)

helpers = r'''
// (exploration: run 29's timeline of sgemm_wide's blocks)
__device__ unsigned long long timeline_at[1 << 16][2];
__device__ unsigned timeline_sm[1 << 16];
__device__ __forceinline__ void timeline_stamp(int which)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long t;
        unsigned sm;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        timeline_at[blockIdx.x][which] = t;
        timeline_sm[blockIdx.x] = sm;
    }
}
static int timeline_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}
static void timeline_report(int blocks, int whole, int sms, cudaStream_t stream)
{
    static int calls;
    if (++calls != 4 || blocks > (1 << 16))
        return;
    static unsigned long long at[1 << 16][2];
    static unsigned sm[1 << 16];
    cudaStreamSynchronize(stream);
    cudaMemcpyFromSymbol(at, timeline_at, sizeof(at[0]) * blocks);
    cudaMemcpyFromSymbol(sm, timeline_sm, sizeof(sm[0]) * blocks);
    unsigned long long t0 = at[0][0];
    for (int i = 0; i < blocks; i++)
        t0 = at[i][0] < t0 ? at[i][0] : t0;
    static double ends[1 << 16], last[1024], starts[1 << 16], lens[1 << 16];
    for (int i = 0; i < 1024; i++)
        last[i] = 0;
    double span = 0;
    for (int i = 0; i < blocks; i++) {
        ends[i] = (at[i][1] - t0) / 1e3;
        starts[i] = (at[i][0] - t0) / 1e3;
        lens[i] = ends[i] - starts[i];
        span = ends[i] > span ? ends[i] : span;
        if (sm[i] < 1024 && ends[i] > last[sm[i]])
            last[sm[i]] = ends[i];
    }
    fprintf(stderr, "timeline: %d blocks (%d whole tiles, %d runs), span %.1f us\n", blocks, whole, blocks - whole, span);
    if (whole > 0) {
        qsort(ends, whole, sizeof(double), timeline_cmp);
        int w = whole < sms ? whole : sms;
        fprintf(stderr, "timeline: whole tiles' last %d ends: first %.1f, median %.1f, last %.1f us\n", w,
                ends[whole - w], ends[whole - w / 2], ends[whole - 1]);
        qsort(lens, whole, sizeof(double), timeline_cmp);
        fprintf(stderr, "timeline: whole tile durations: min %.1f, median %.1f, max %.1f us\n", lens[0], lens[whole / 2],
                lens[whole - 1]);
    }
    if (blocks > whole) {
        int r = blocks - whole;
        qsort(starts + whole, r, sizeof(double), timeline_cmp);
        qsort(ends + whole, r, sizeof(double), timeline_cmp);
        qsort(lens + whole, r, sizeof(double), timeline_cmp);
        fprintf(stderr, "timeline: runs start %.1f .. %.1f, end %.1f .. %.1f, last %.1f us; durations %.1f / %.1f / %.1f us\n",
                starts[whole], starts[blocks - 1], ends[whole], ends[whole + r / 2], ends[blocks - 1], lens[whole],
                lens[whole + r / 2], lens[blocks - 1]);
    }
    qsort(last, 1024, sizeof(double), timeline_cmp);
    int used = 0;
    while (used < 1024 && last[1023 - used] > 0)
        used++;
    fprintf(stderr, "timeline: SMs' last ends (%d SMs): first %.1f, median %.1f, last %.1f us\n", used, last[1024 - used],
            last[1024 - used / 2], last[1023]);
}
'''
once('namespace cg = cooperative_groups;\n', 'namespace cg = cooperative_groups;\n' + helpers)
i = s.index('\nsgemm_wide(')
j = s.index('\n}\n', i)
body = s[i:j]
body = body.replace('    extern __shared__ __align__(16) float smem[];\n',
                    '    extern __shared__ __align__(16) float smem[];\n    timeline_stamp(0);\n', 1)
body = body.replace('        return;\n    }\n    // A run:', '        timeline_stamp(1);\n        return;\n    }\n    // A run:', 1)
s = s[:i] + body + '\n    timeline_stamp(1);' + s[j:]
if 'kernel<<<grid, CFG::THREADS, smem, stream>>>' in s:   # sk_persistent.py's output
    once('                                                 arrived);\n',
         '                                                 arrived);\n'
         '    timeline_report((int)grid, (int)grid, sms, stream);   // persistent: one line per block\n')
elif 'wide_schedule work' in s:
    once('                                                                         g->beta, g->c, work, slots, arrived);\n',
         '                                                                         g->beta, g->c, work, slots, arrived);\n'
         '    timeline_report(work.whole_tiles + work.runs, work.whole_tiles, sms, stream);\n')
else:
    once('    kernel<<<tiles, CFG::THREADS, smem, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);\n',
         '    kernel<<<tiles, CFG::THREADS, smem, stream>>>(g->m, g->n, g->k, g->alpha, g->a, g->b, g->beta, g->c);\n'
         '    { cudaError_t e; timeline_report((int)tiles, (int)tiles, harness_sm_count(&e), stream); }\n')
open(out, 'w').write(s)
