#!/usr/bin/env python3
"""Run 33: writes a variant of step6.cu (argv[1] -> argv[2]) whose sgemm_wide issues G
parts of a whole k-tile's copies a slice (argv[3]; step 6 issues 1 a slice since run 32,
6 at slice 0 before), in reverse order (B's passes first) when argv[4] is "rev".
Exploration only."""
import sys
src, out, g = sys.argv[1], sys.argv[2], int(sys.argv[3])
rev = len(sys.argv) > 4 and sys.argv[4] == "rev"
s = open(src).read()
i = s.index('sgemm_wide(int m')
head, tail = s[:i], s[i:]
old = '''                if (p < copy_plan<CFG>::PARTS && copy)
                    copy_part(smem + smem_pipe_write, p);
                if (p == copy_plan<CFG>::PARTS - 1) {'''
q = "copy_plan<CFG>::PARTS - 1 - (p * G + j)" if rev else "p * G + j"
new = f'''                constexpr int G = {g};
#pragma unroll
                for (int j = 0; j < G; j++)
                    if (p * G + j < copy_plan<CFG>::PARTS && copy)
                        copy_part(smem + smem_pipe_write, {q});
                if (p == (copy_plan<CFG>::PARTS - 1) / G) {{'''
assert tail.count(old) == 1
s = head + tail.replace(old, new)
s = s.replace('"../common/harness.h"', '"../../common/harness.h"')   # built from build/var
open(out, 'w').write(s)
