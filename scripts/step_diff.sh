#!/bin/sh
# step_diff.sh - what step N changed: the diff of step N-1's kernel file and step N's.
# `make diff STEP=N` runs it:
#
#   scripts/step_diff.sh 5        diff -u step4_*/step4.cu step5_*/step5.cu
#
# Exits 0 whether or not the files differ (diff's 1 is the expected answer), 2 when N is
# not a step that has one before it.
set -u

me=diff
steps=$(ls -d step[0-9]*_*/ 2>/dev/null | sed -n 's|^step\([0-9]*\)_.*|\1|p' | sort -n | tr '\n' ' ' | sed 's/ $//')
if [ $# -ne 1 ]; then
    echo "usage: $0 N   (make diff STEP=N; steps: $steps)" >&2
    exit 2
fi
n=$1
case $n in
'' | *[!0-9]*) echo "$me: STEP='$n' is not a step number: make diff STEP=N, N one of: $steps" >&2; exit 2 ;;
esac
# The kernel file of step $1, or nothing.
src() {
    for f in step"$1"_*/step"$1".cu; do
        [ -f "$f" ] && { echo "$f"; return; }
    done
}
new=$(src "$n")
if [ -z "$new" ]; then
    echo "$me: there is no step $n (no step${n}_*/step$n.cu); steps: $steps" >&2
    exit 2
fi
if [ "$n" -eq 0 ]; then
    echo "$me: step 0 is the first step: there is nothing before it to compare with (try STEP=1)" >&2
    exit 2
fi
old=$(src $((n - 1)))
if [ -z "$old" ]; then
    echo "$me: there is no step $((n - 1)) (no step$((n - 1))_*/step$((n - 1)).cu) to compare step $n with" >&2
    exit 2
fi
diff -u "$old" "$new"
rc=$?
[ "$rc" -le 1 ] || exit 2
exit 0
