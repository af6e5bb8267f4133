# sass_summary.awk - what the compiler made of each kernel, from `cuobjdump --dump-sass`.
# `make sass STEP=N` runs it on build/stepN.sass:
#
#   cuobjdump --dump-sass ./step6 > build/step6.sass
#   awk -f scripts/sass_summary.awk build/step6.sass
#
# Per kernel (each "Function : _Z..." of the dump): the count of FFMA; of global loads by
# width (LDG.E, LDG.E.64, LDG.E.128) and stores (STG); of cp.async copies (LDGSTS, by
# width and .BYPASS); of shared loads (LDS, LDS.64, LDS.128) and stores (STS); of local
# memory accesses (LDL, STL: register spills); of barriers (BAR); and the FFMA share of the
# kernel's longest loop: the instructions from the target of a backward branch (BRA to a
# lower address) to that branch, the largest such span. The counts are static: the
# instructions in the code, not how often they run. Other variants (LDG.E.128.CONSTANT ...)
# are listed after the usual widths.

function flush(    i, n, cls, line, v, share) {
    if (fn == "")
        return
    nkernels++
    printf "[%d] %s%s\n", nkernels, fn, (arch != "" ? "  (" arch ")" : "")
    printf "    %d instructions: FFMA %d (%s), BAR %d, LDL %d, STL %d%s\n", ninst, count["FFMA"], pct(count["FFMA"], ninst),
        count["BAR"], count["LDL"], count["STL"],
        (count["LDL"] + count["STL"] > 0 ? "  <- local memory: spills?" : "")
    printf "    global  %s | %s | %s\n", widths("LDG", "LDG.E LDG.E.64 LDG.E.128"), widths("STG", "STG.E STG.E.64 STG.E.128"),
        widths("LDGSTS", "")
    printf "    shared  %s | %s\n", widths("LDS", "LDS LDS.64 LDS.128"), widths("STS", "STS STS.64 STS.128")
    if (loop_to > loop_from) {
        n = 0
        f = 0
        for (i = 1; i <= ninst; i++)
            if (addr[i] >= loop_from && addr[i] <= loop_to) {
                n++
                if (op[i] == "FFMA")
                    f++
            }
        printf "    longest loop 0x%04x-0x%04x: %d instructions, FFMA %d (%s)\n", loop_from, loop_to, n, f, pct(f, n)
    } else {
        print "    no loop (no backward branch)"
    }
    fn = ""
}

function pct(a, b) {
    return b > 0 ? sprintf("%.1f%%", 100 * a / b) : "–"
}

# "LDG.E 32, LDG.E.64 0, LDG.E.128 8": the usual widths of class `cls` (listed in `usual`,
# shown even at 0), then every other variant of it that occurs.
function widths(cls, usual,    list, n, i, out, v, seen) {
    out = ""
    n = split(usual, list, " ")
    for (i = 1; i <= n; i++) {
        out = out (out == "" ? "" : ", ") list[i] " " (list[i] in variant ? variant[list[i]] : 0)
        seen[list[i]] = 1
    }
    for (i = 1; i <= nvar; i++) {
        v = var_order[i]
        if (var_class[v] == cls && !(v in seen))
            out = out (out == "" ? "" : ", ") v " " variant[v]
    }
    return out == "" ? cls " 0" : out
}

function hex(s,    i, c, v) {
    v = 0
    s = tolower(s)
    sub(/^0x/, "", s)
    for (i = 1; i <= length(s); i++) {
        c = index("0123456789abcdef", substr(s, i, 1))
        if (c == 0)
            return -1
        v = v * 16 + c - 1
    }
    return v
}

function reset() {
    ninst = 0
    nvar = 0
    loop_from = loop_to = -1
    split("", count)
    split("", variant)
    split("", var_class)
    split("", var_order)
    split("", addr)
    split("", op)
    count["FFMA"] = count["BAR"] = count["LDL"] = count["STL"] = 0
}

BEGIN { nkernels = 0; fn = ""; arch = "" }

/^[ \t]*code for sm_[0-9a-z]+/ { arch = $3 }

/^[ \t]*Function[ \t]*:/ {
    flush()
    reset()
    fn = $0
    sub(/^[ \t]*Function[ \t]*:[ \t]*/, "", fn)
    sub(/[ \t\r]+$/, "", fn)
    next
}

# An instruction: "/*0a30*/  @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;  /* 0x... */"
fn != "" && /^[ \t]*\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]+\*\// {
    line = $0
    match(line, /\/\*[0-9a-f]+\*\//)
    a = hex(substr(line, RSTART + 2, RLENGTH - 4))
    text = substr(line, RSTART + RLENGTH)
    sub(/;.*/, "", text)
    n = split(text, w, " ")
    k = 1
    if (k <= n && substr(w[k], 1, 1) == "@")
        k++
    if (k > n)
        next
    opcode = w[k]
    cls = opcode
    sub(/\..*/, "", cls)
    ninst++
    addr[ninst] = a
    op[ninst] = cls
    if (cls in count)
        count[cls]++
    if (cls == "LDG" || cls == "STG" || cls == "LDGSTS" || cls == "LDS" || cls == "STS") {
        if (!(opcode in variant)) {
            var_order[++nvar] = opcode
            var_class[opcode] = cls
        }
        variant[opcode]++
    }
    # A backward branch closes a loop; the largest span is the kernel's main loop.
    if (cls == "BRA" && k < n) {
        t = hex(w[n])
        if (t >= 0 && t < a && (loop_to < 0 || a - t > loop_to - loop_from)) {
            loop_from = t
            loop_to = a
        }
    }
}

END {
    flush()
    if (nkernels == 0) {
        printf "sass: %s: no kernel (no \"Function :\" line): is it the output of cuobjdump --dump-sass?\n", FILENAME > "/dev/stderr"
        exit 2
    }
}
