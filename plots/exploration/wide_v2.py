#!/usr/bin/env python3
"""Writes build/var/wide_v2.cu: step6.cu with sgemm_wide's whole-k-tile copies issued from
source sizes worked out once (no row or column check in the loop), and the two-stage ring
stepped by an XOR. Exploration only (run 18)."""
import sys
src = open("step6_unroll/step6.cu").read()
def sub(old, new):
    global src
    assert old in src, old[:60]
    src = src.replace(old, new, 1)
sub('''    int k_copied = 0;   // k-tiles copied so far
    auto copy_next = [&](float *stage, int depth) {
        load_tile<CFG, VEC>(stage, stage + CFG::A_STAGE, plan, n, depth, 0);
        plan.a_src += depth;
        plan.b_src += (size_t)depth * n;
        k_copied++;
    };''', '''    int k_copied = 0;   // k-tiles copied so far
    auto copy_next = [&](float *stage, int depth) {
        load_tile<CFG, VEC>(stage, stage + CFG::A_STAGE, plan, n, depth, 0);
        plan.a_src += depth;
        plan.b_src += (size_t)depth * n;
        k_copied++;
    };
    using P = copy_plan<CFG>;
    int a_bytes[P::A_ROW_PASSES], b_bytes[4];
#pragma unroll
    for (int rp = 0; rp < P::A_ROW_PASSES; rp++)
        a_bytes[rp] = rp * P::A_ROWS_PER_PASS < plan.a_rows ? 4 : 0;
#pragma unroll
    for (int j = 0; j < 4; j++)
        b_bytes[j] = VEC ? (plan.b_cols > 0 ? 16 : 0) : (j < plan.b_cols ? 4 : 0);
    auto copy_whole = [&](float *stage) {
#pragma unroll
        for (int rp = 0; rp < P::A_ROW_PASSES; rp++) {
            unsigned d = (unsigned)__cvta_generic_to_shared(&stage[plan.a_dst + rp * P::A_ROWS_PER_PASS]);
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\\n" ::"r"(d), "l"(plan.a_src + rp * plan.a_pass), "r"(a_bytes[rp]) : "memory");
        }
#pragma unroll
        for (int i = 0; i < P::B_PASSES; i++) {
            const float *s = plan.b_src + (size_t)i * P::B_ROWS_PER_PASS * n;
            float *dst = &stage[CFG::A_STAGE + plan.b_dst + i * P::B_ROWS_PER_PASS * CFG::BN];
            if (VEC) {
                unsigned d = (unsigned)__cvta_generic_to_shared(dst);
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\\n" ::"r"(d), "l"(s), "r"(b_bytes[0]) : "memory");
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    unsigned d = (unsigned)__cvta_generic_to_shared(dst + j);
                    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\\n" ::"r"(d), "l"(s + j), "r"(b_bytes[j]) : "memory");
                }
            }
        }
        plan.a_src += BK;
        plan.b_src += (size_t)BK * n;
        k_copied++;
    };''')
sub('''                        copy_next(smem + smem_pipe_write, BK);   // whole: no K check left''',
    '''                        copy_whole(smem + smem_pipe_write);''')
sub('''        auto next_stage = [](int offset) { return offset + STAGE == K_PIPE_MAX * STAGE ? 0 : offset + STAGE; };''',
    '''        auto next_stage = [](int offset) {
            if constexpr (K_PIPE_MAX == 2)
                return offset ^ STAGE;
            else
                return offset + STAGE == K_PIPE_MAX * STAGE ? 0 : offset + STAGE;
        };''')
src = src.replace('#include "../common/harness.h"', '#include "../../common/harness.h"')
open(sys.argv[1] if len(sys.argv) > 1 else "build/var/wide_v2.cu", "w").write(src)
