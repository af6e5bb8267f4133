#!/usr/bin/env python3
"""Run 34: writes a variant of step6.cu (argv[1] -> argv[2]) whose sgemm_wide issues part q
of a whole k-tile's copies at slice q below slice argv[3] and at slice q + 1 from it on,
so that slice argv[3] carries none (step 6: parts at slices 0 to 5, none at 6; run 32's
sp1: none at 0, 1.2% slower). Exploration only."""
import sys
src, out, skip = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = open(src).read()
i = s.index('sgemm_wide(int m')
head, tail = s[:i], s[i:]
old = '''                if (p < copy_plan<CFG>::PARTS && copy)
                    copy_part(smem + smem_pipe_write, p);
                if (p == copy_plan<CFG>::PARTS - 1) {'''
new = f'''                constexpr int SKIP = {skip};
                static_assert(copy_plan<CFG>::PARTS + 1 < BK, "the parts and the skipped slice fit");
                if (p != SKIP && (p < SKIP ? p : p - 1) < copy_plan<CFG>::PARTS && copy)
                    copy_part(smem + smem_pipe_write, p < SKIP ? p : p - 1);
                if (p == copy_plan<CFG>::PARTS) {{'''
assert tail.count(old) == 1
s = head + tail.replace(old, new)
s = s.replace('"../common/harness.h"', '"../../common/harness.h"')   # built from build/var
open(out, 'w').write(s)
