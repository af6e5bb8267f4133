#!/usr/bin/env python3
"""Run 35: writes a variant of step6.cu (argv[1] -> argv[2]) whose stage-unrolled kernel
issues a whole k-tile's copies in groups over a few slices instead of all at slice 0:
argv[3] names the slice of each part, A's row passes first, then B's (e.g. "0,0,0,0,1,1":
A at slice 0, B at slice 1; parts past the list go to its last slice). Spreading one part
a slice, as sgemm_wide does since run 32, spilled at 128 registers. Exploration only."""
import sys
src, out, slices = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split(',')]
s = open(src).read()
i = s.index('sgemm_unrolled(int m')
j = s.index('sgemm_wide(int m')
head, body, tail = s[:i], s[i:j], s[j:]
old = '''                    if (p == 0) {
                        // The copy of tile k_tile + K_PIPE_MAX - 1, into the stage freed
                        // at the last barrier (all at once: spread over the slices, as
                        // in sgemm_wide, it cost registers and spilled at 128).
                        int k_tile_next = k_tile + K_PIPE_MAX - 1;
                        if (k_tile_next < k_tile_count)
                            copy_whole(a_stages + smem_pipe_write * CFG::A_STAGE,
                                       b_stages + smem_pipe_write * CFG::B_STAGE);
                        cp_async_commit();
                    }'''
table = ', '.join(str(x) for x in slices)
new = f'''                    {{
                        constexpr int SLICE_OF[] = {{{table}}};
                        constexpr int N = sizeof(SLICE_OF) / sizeof(int);
                        constexpr int LAST = SLICE_OF[N - 1];
                        static_assert(LAST < BK - 1, "committed before the wait");
                        bool copy = k_tile + K_PIPE_MAX - 1 < k_tile_count;
#pragma unroll
                        for (int q = 0; q < copy_plan<CFG>::PARTS; q++)
                            if (p == (q < N ? SLICE_OF[q] : LAST) && copy)
                                load_whole_part<CFG, VEC>(a_stages + smem_pipe_write * CFG::A_STAGE,
                                                          b_stages + smem_pipe_write * CFG::B_STAGE, plan, size, n, q);
                        if (p == LAST) {{
                            if (copy) {{
                                plan.a_src += BK;
                                plan.b_src += (size_t)BK * n;
                            }}
                            cp_async_commit();
                        }}
                    }}'''
assert body.count(old) == 1
s = head + body.replace(old, new) + tail
s = s.replace('"../common/harness.h"', '"../../common/harness.h"')   # built from build/var
open(out, 'w').write(s)
