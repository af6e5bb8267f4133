#!/usr/bin/env python3
"""Run 8's variants of steps 3, 4 and 6, written into build/var (see run8.sh).

step3 NAME BM BN TM TN BK UNROLL MINB : step 3 with other tiles, its slice loop unrolled
    by UNROLL (0: fully) and __launch_bounds__(THREADS, MINB).
step4 NAME BM BN TM TN BK : step 4 with a thread tile of TM/4 x TN/4 float4 pieces (the
    8x8 code generalized: bands of THREADS_M*4 rows, THREADS_N*4 columns).
step6r NAME : step 6 with its stage loop not unrolled (run-time stage indices), built with
    the TUNE_ defines run8.sh passes: a candidate for step 5.
"""
import re
import sys


def sub(s, old, new, count=1):
    if old not in s:
        sys.exit(f"run8_variants: pattern not found: {old[:60]!r}")
    return s.replace(old, new, count)


def step3(name, bm, bn, tm, tn, bk, unroll, minb):
    s = open("step3_registers/step3.cu").read()
    s = re.sub(r"constexpr int BM = 128, BN = 128, BK = 8;", f"constexpr int BM = {bm}, BN = {bn}, BK = {bk};", s)
    s = re.sub(r"constexpr int TM = 8, TN = 8;", f"constexpr int TM = {tm}, TN = {tn};", s)
    s = sub(s, "#pragma unroll 2", "#pragma unroll" if unroll == "0" else f"#pragma unroll {unroll}")
    s = sub(s, "__launch_bounds__(THREADS, 2)", f"__launch_bounds__(THREADS, {minb})")
    return s


def step4(name, bm, bn, tm, tn, bk):
    s = open("step4_vectorize/step4.cu").read()
    s = sub(s, "constexpr int BM = 128, BN = 128, BK = 8;", f"constexpr int BM = {bm}, BN = {bn}, BK = {bk};")
    s = sub(s, "constexpr int TM = 8, TN = 8;", f"constexpr int TM = {tm}, TN = {tn};")
    s = sub(s, 'static_assert(TM == 8 && TN == 8, "a thread\'s tile is two 4-wide halves in each direction");',
            'static_assert(TM % 4 == 0 && TN % 4 == 0, "float4 pieces");')
    s = sub(s, """            *reinterpret_cast<float4 *>(&a_frag[0]) = *reinterpret_cast<const float4 *>(&a_tile[p][ty * 4]);
            *reinterpret_cast<float4 *>(&a_frag[4]) = *reinterpret_cast<const float4 *>(&a_tile[p][BM / 2 + ty * 4]);
            *reinterpret_cast<float4 *>(&b_frag[0]) = *reinterpret_cast<const float4 *>(&b_tile[p][tx * 4]);
            *reinterpret_cast<float4 *>(&b_frag[4]) = *reinterpret_cast<const float4 *>(&b_tile[p][BN / 2 + tx * 4]);""",
            """#pragma unroll
            for (int i4 = 0; i4 < TM / 4; i4++)
                *reinterpret_cast<float4 *>(&a_frag[4 * i4]) = *reinterpret_cast<const float4 *>(&a_tile[p][i4 * THREADS_M * 4 + ty * 4]);
#pragma unroll
            for (int j4 = 0; j4 < TN / 4; j4++)
                *reinterpret_cast<float4 *>(&b_frag[4 * j4]) = *reinterpret_cast<const float4 *>(&b_tile[p][j4 * THREADS_N * 4 + tx * 4]);""")
    s = sub(s, "int row = tile_row + (i < 4 ? ty * 4 + i : BM / 2 + ty * 4 + i - 4);",
            "int row = tile_row + (i / 4) * THREADS_M * 4 + ty * 4 + i % 4;")
    s = sub(s, "for (int half = 0; half < 2; half++) {\n            int col = tile_col + half * (BN / 2) + tx * 4;",
            "for (int half = 0; half < TN / 4; half++) {\n            int col = tile_col + half * THREADS_N * 4 + tx * 4;")
    return s


def step6r(name):
    s = open("step6_unroll/step6.cu").read()
    s = sub(s, "#pragma unroll\n            for (int pipe = 0; pipe < K_PIPE_MAX; pipe++) {",
            "#pragma unroll 1\n            for (int pipe = 0; pipe < K_PIPE_MAX; pipe++) {")
    return s


def step6r_plain(name):
    """step6r with tiles in plain row-major order: no rasterization groups."""
    s = step6r(name)
    return sub(s, "    int group = blockIdx.x / (GROUP_M * tiles_n);",
               "    return make_int2(blockIdx.x / tiles_n * CFG::BM, blockIdx.x % tiles_n * CFG::BN);\n"
               "    int group = blockIdx.x / (GROUP_M * tiles_n);")


def step5_big(name, bm, bn, bk):
    """step 5 as it is, with other tiles, and shared memory past 48 KiB asked for."""
    s = open("step5_pipeline/step5.cu").read()
    s = sub(s, "constexpr int BM = 128, BN = 128, BK = 8;", f"constexpr int BM = {bm}, BN = {bn}, BK = {bk};")
    for vec in ("true", "false"):
        s = sub(s, f"        sgemm_pipelined<K_PIPE_MAX, {vec}><<<",
                f"        cudaFuncSetAttribute(sgemm_pipelined<K_PIPE_MAX, {vec}>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),\n"
                f"        sgemm_pipelined<K_PIPE_MAX, {vec}><<<")
    return s


kind, name, *args = sys.argv[1:]
src = {"step3": step3, "step4": step4, "step6r": step6r, "step6r_plain": step6r_plain,
       "step5_big": step5_big}[kind](name, *args)
src = src.replace('"../common/harness.h"', '"../../common/harness.h"')
open(f"build/var/{name}.cu", "w").write(src)
