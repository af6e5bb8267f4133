#!/usr/bin/env python3
"""The SASS figures step 6's lesson quotes for this session's changes, counted from
listings this script builds (run it from the repository root; it needs nvcc and
cuobjdump on PATH, and git): the main k-loop (the backward branch of at least 256
instructions with the largest FFMA share) of sgemm_wide and sgemm_wide_tail at 3 stages, B in 16-byte pieces, for
  now        step6.cu as it is;
  before     step6.cu at 77366ef, its copies all at slice 0;
  shared     step6.cu with sgemm_wide calling wide_k_tiles (run 36);
and the stage-unrolled kernels' loops and spills, now and with one copy part a slice
(unrolled_groups.py 0,1,2,3,4,5). Prints, per loop: instructions, FFMA, integer
instructions (IADD3 IMAD LEA LOP3 ISETP MOV SEL SHF), constant loads (LDC), thread-index
reads (S2R), never-executed shared loads (@!PT LDS), FFMAs with a reuse flag.
Exploration only."""
import os, re, subprocess, sys

OUT = "build/loops"
os.makedirs(OUT, exist_ok=True)
INT = ("IADD3", "IMAD", "LEA", "LOP3", "ISETP", "MOV", "SEL", "SHF")


def build(name, source):
    cu = f"{OUT}/{name}.cu"
    open(cu, "w").write(source.replace('"../common/harness.h"', '"../../common/harness.h"'))
    log = subprocess.run(["nvcc", "-O3", "-std=c++17", "-gencode", "arch=compute_90,code=sm_90", "-cubin",
                          "-Xptxas", "-v", "-o", f"{OUT}/{name}.cubin", cu], capture_output=True, text=True, check=True).stderr
    sass = subprocess.run(["cuobjdump", "--dump-sass", f"{OUT}/{name}.cubin"], capture_output=True, text=True,
                          check=True).stdout
    return sass, log


def functions(sass):
    out, cur = {}, None
    for line in sass.split("\n"):
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if cur is not None and m:
            cur.append((int(m.group(1), 16), m.group(2).strip()))
    return out


def opcode(text):
    words = text.split()
    return (words[1] if words[0].startswith("@") else words[0]).split(".")[0]


def main_loop(ins):
    best = None
    for addr, text in ins:
        m = re.search(r"BRA.*?0x([0-9a-f]+)", text)
        if m and int(m.group(1), 16) < addr:
            body = [t for a, t in ins if int(m.group(1), 16) <= a <= addr]
            share = sum(opcode(t) == "FFMA" for t in body) / len(body)
            if len(body) >= 256 and (best is None or share > best[0]):
                best = (share, body)
    return best[1]


def describe(label, body):
    ops = [opcode(t) for t in body]
    ffma = ops.count("FFMA")
    print(f"  {label:58s} {len(body):5d} instr, FFMA {ffma} ({100 * ffma / len(body):.1f}%), "
          f"integer {sum(o in INT for o in ops)}, LDC {ops.count('LDC')}, S2R {ops.count('S2R')}, "
          f"never-executed LDS {sum(t.startswith('@!PT LDS') for t in body)}, "
          f"FFMA with a reuse flag {sum(opcode(t) == 'FFMA' and '.reuse' in t for t in body)}")


def spills(log):
    kernels, name = {}, None
    for line in log.split("\n"):
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            name = m.group(1)
        m = re.search(r"(\d+) bytes spill stores", line)
        if m and name:
            kernels[name] = int(m.group(1))
    return sorted(n for n, b in kernels.items() if b > 0)


now = open("step6_unroll/step6.cu").read()
before = subprocess.run(["git", "show", "77366ef:step6_unroll/step6.cu"], capture_output=True, text=True, check=True).stdout
head = now[:now.index("template <typename CFG, int K_PIPE_MAX, bool VEC>\n__global__ void __launch_bounds__(CFG::THREADS, 1)\nsgemm_wide(")]
rest = now[len(head):]
end = rest.index("\n}\n") + 3
shared = head + '''template <typename CFG, int K_PIPE_MAX, bool VEC>
__device__ __forceinline__ void wide_k_tiles(float (&acc)[CFG::TM][CFG::TN], float *smem, copy_plan<CFG> &plan,
                                             int n, int k_tile_count, int k_first, int a_off, int b_off);
''' + '''template <typename CFG, int K_PIPE_MAX, bool VEC>
__global__ void __launch_bounds__(CFG::THREADS, 1)
sgemm_wide(int m, int n, int k, float alpha, const float *a, const float *b, float beta, float *c)
{
    extern __shared__ __align__(16) float smem[];
    int2 origin = tile_origin<CFG>(blockIdx.x, m, n);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int warp_row = warp / CFG::WARPS_N * CFG::WM, warp_col = warp % CFG::WARPS_N * CFG::WN;
    int a_off = warp_row + lane / CFG::LANES_N * 4, b_off = warp_col + lane % CFG::LANES_N * 4;
    copy_plan<CFG> plan(a, b, m, n, k, origin.x, origin.y);
    int k_tile_count = (k + BK - 1) / BK, k_first = k - (k_tile_count - 1) * BK;   // 1 .. BK
    float acc[CFG::TM][CFG::TN] = {};
    wide_k_tiles<CFG, K_PIPE_MAX, VEC>(acc, smem, plan, n, k_tile_count, k_first, a_off, b_off);
    store_tile<CFG, VEC>(acc, a_off, b_off, m, n, alpha, beta, c, origin.x, origin.y);
}
''' + rest[end:]
subprocess.run([sys.executable, "plots/exploration/unrolled_groups.py", "step6_unroll/step6.cu", f"{OUT}/spread_src.cu",
                "0,1,2,3,4,5"], check=True)
spread = open(f"{OUT}/spread_src.cu").read().replace('"../../common/harness.h"', '"../common/harness.h"')

WIDE = r"^_Z10sgemm_wideI11tile_configILi128ELi256ELi64ELi64ELi16ELi8EELi3ELb1E"
TAIL = r"^_Z15sgemm_wide_tailI11tile_configILi128ELi256ELi64ELi64ELi16ELi8EELi3ELb1E"
UNROLLED = [("128x128, K whole", r"Li128ELi128ELi32ELi64ELi8ELi8EELi3ELi1ELb1E"),
            ("64x128, K split in 4", r"Li64ELi128ELi32ELi64ELi8ELi8EELi3ELi4ELb1E"),
            ("64x64, K split in 8", r"Li64ELi64ELi32ELi32ELi8ELi4EELi3ELi8ELb1E")]
results = {}
for name, source in (("now", now), ("before", before), ("shared", shared), ("spread", spread)):
    sass, log = build(name, source)
    results[name] = (functions(sass), log)
    fns = results[name][0]
    print(f"{name}:")
    for label, pattern in (("sgemm_wide, 3 stages", WIDE), ("sgemm_wide_tail, 3 stages", TAIL)):
        hits = [f for f in fns if re.search(pattern, f)]
        if hits:
            describe(label, main_loop(fns[hits[0]]))
    if name in ("now", "spread"):
        for label, pattern in UNROLLED:
            hit = [f for f in fns if f.startswith("_Z14sgemm_unrolled") and re.search(pattern, f)][0]
            describe("sgemm_unrolled " + label + ", 3 stages", main_loop(fns[hit]))
        bad = spills(log)
        print(f"  kernels that spill: {len(bad)}" + "".join(f"\n    {k}" for k in bad))
