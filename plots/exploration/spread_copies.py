#!/usr/bin/env python3
"""Run 32: writes a variant of step6.cu (argv[1] -> argv[2]) whose sgemm_wide issues its
whole-k-tile copies one row pass a slice (A's four passes, then B's two), from slice
argv[3] on, instead of all six at slice 0. Run 31's stall samples: at slice 0, right
after the barrier, both warps of a scheduler run the same dense block of address
arithmetic and copies at once, and wait on it (long scoreboard, fixed-latency waits,
dispatch). Exploration only. It applies to step6.cu as at 77366ef: since d23dc3b step 6
has load_whole_part itself, and issues its parts as this script's slice 0 does."""
import sys
src, out, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = open(src).read()
part_fn = r'''
// One part q of load_whole_tile: q < A_ROW_PASSES * A_K_PASSES is a row pass of A, the rest B's passes.
template <typename CFG, bool VEC>
__device__ __forceinline__ void load_whole_part(float *a_stage, float *b_stage, const copy_plan<CFG> &plan,
                                                const whole_copies<CFG, VEC> &size, int n, int q)
{
    using P = copy_plan<CFG>;
    constexpr int A_PARTS = P::A_K_PASSES * P::A_ROW_PASSES;
    if (q < A_PARTS) {
        int kp = q / P::A_ROW_PASSES, rp = q % P::A_ROW_PASSES;
        cp_async_4(&a_stage[plan.a_dst + kp * 8 * (CFG::BM + A_PAD) + rp * P::A_ROWS_PER_PASS],
                   plan.a_src + rp * plan.a_pass + kp * 8, size.a_bytes[rp]);
    } else if (q < A_PARTS + P::B_PASSES) {
        int i = q - A_PARTS;
        const float *src = plan.b_src + (size_t)i * P::B_ROWS_PER_PASS * n;
        float *dst = &b_stage[plan.b_dst + i * P::B_ROWS_PER_PASS * CFG::BN];
        if (VEC) {
            cp_async_16(dst, src, size.b_bytes[0]);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                cp_async_4(dst + j, src + j, size.b_bytes[j]);
        }
    }
}
'''
anchor = '// Slice p of one stage into registers'
s = s.replace(anchor, part_fn + '\n' + anchor, 1)
i = s.index('sgemm_wide(int m')
head, tail = s[:i], s[i:]
old = '''                if (p == 0) {
                    if (k_copied < k_tile_count)
                        copy_whole(smem + smem_pipe_write);
                    cp_async_commit();
                }'''
new = f'''                {{
                    using P = copy_plan<CFG>;
                    constexpr int PARTS = P::A_K_PASSES * P::A_ROW_PASSES + P::B_PASSES;
                    static_assert({first} + PARTS <= BK, "parts fit the slices");
                    if (p >= {first} && p < {first} + PARTS && k_copied < k_tile_count)
                        load_whole_part<CFG, VEC>(smem + smem_pipe_write, smem + smem_pipe_write + CFG::A_STAGE, plan, size, n, p - {first});
                    if (p == {first} + PARTS - 1) {{
                        if (k_copied < k_tile_count) {{
                            plan.a_src += BK;
                            plan.b_src += (size_t)BK * n;
                            k_copied++;
                        }}
                        cp_async_commit();
                    }}
                }}'''
assert tail.count(old) == 1
tail = tail.replace(old, new)
s = head + tail
s = s.replace('"../common/harness.h"', '"../../common/harness.h"')   # built from build/var
open(out, 'w').write(s)
