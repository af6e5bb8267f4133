#!/bin/sh
# sass.sh - what the compiler made of a step's kernels, with no GPU. `make sass STEP=N` runs it:
#
#   scripts/sass.sh ./step6 build/step6.sass
#
# Dumps the SASS (cuobjdump --dump-sass) into the file, then prints per kernel the
# instruction counts that matter here (scripts/sass_summary.awk: FFMA, loads and stores by
# width, spills, barriers, the FFMA share of the longest loop), with the kernel names
# demangled when c++filt is there.
#
# Environment: CUOBJDUMP (default cuobjdump; the Makefile passes the one it finds, also the
# one `make deps` installs into .deps/ when the toolkit has none).
set -u

me=sass
if [ $# -ne 2 ]; then
    echo "usage: $0 ./stepN OUT.sass" >&2
    exit 2
fi
step=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
cuobjdump=${CUOBJDUMP:-cuobjdump}

command -v "$cuobjdump" >/dev/null 2>&1 || {
    echo "$me: cuobjdump is not installed here (not on PATH, not in the CUDA toolkit's bin, not in .deps/): \`make deps\` installs it, with nvdisasm, from PyPI (nvidia-cuda-cuobjdump)" >&2
    exit 2
}
[ -x "$step" ] || { echo "$me: $step is not an executable step (make builds it)" >&2; exit 2; }
mkdir -p "$(dirname "$out")" || exit 1
"$cuobjdump" --dump-sass "$step" > "$out" || { echo "$me: cuobjdump --dump-sass $step failed" >&2; exit 1; }

echo "$me: $(basename "$step"): the SASS of each kernel, counted (static counts: instructions in the code, not executed)"
echo
if command -v c++filt >/dev/null 2>&1; then
    awk -f "$here/sass_summary.awk" "$out" | c++filt
else
    awk -f "$here/sass_summary.awk" "$out"
fi || exit 1
echo
echo "$me: the whole listing is in $out"
