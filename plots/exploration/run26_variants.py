#!/usr/bin/env python3
"""Writes run 26's variants of step6.cu into the folder given (default build/var):
  l2_128 / l2_256  every cp.async with the L2 prefetch hint .L2::128B / .L2::256B
  group4 / group16 rasterization groups of 4 or 16 tile rows (8 in step 6)
  stages4          the wide kernel built for 4 stages too (--stages 4)
Exploration only."""
import os, sys
out = sys.argv[1] if len(sys.argv) > 1 else "build/var"
base = open("step6_unroll/step6.cu").read()

def variant(name, *subs):
    s = base
    for old, new in subs:
        assert old in s, (name, old[:70])
        s = s.replace(old, new)
    s = s.replace('#include "../common/harness.h"', '#include "' + os.path.relpath("common/harness.h", out) + '"')
    open(os.path.join(out, name + ".cu"), "w").write(s)

for size in ("128", "256"):
    variant("l2_" + size, ("cp.async.ca.shared.global [", "cp.async.ca.shared.global.L2::%sB [" % size),
            ("cp.async.cg.shared.global [", "cp.async.cg.shared.global.L2::%sB [" % size))
variant("group4", ("constexpr int GROUP_M = 8;", "constexpr int GROUP_M = 4;"))
variant("group16", ("constexpr int GROUP_M = 8;", "constexpr int GROUP_M = 16;"))
variant("stages4", ("constexpr int MAX_STAGES = 3;", "constexpr int MAX_STAGES = 4;"),
        ("    case 3: return launch_wide<wide, 3>(g, stream);",
         "    case 3: return launch_wide<wide, 3>(g, stream);\n    case 4: return launch_wide<wide, 4>(g, stream);"))
