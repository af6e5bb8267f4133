# shapes_random.gp - the random shapes of make shapes (M, N and K each drawn log-uniform in
# 1..16384, with the seed that the CSV's shape column names): each step's ratio to cuBLAS at
# each shape against its FLOPs, 2 M N K, a point a shape. A point above the dashed line:
# faster than cuBLAS at that shape, in the same run. Each step's key entry gives its geometric
# mean and its minimum ratio over the shapes (make shapes-summary prints the same).
# charts.py sets nshapes, seeds, xmin and xmax (FLOPs), rmin and rmax (ratios); a shape's
# FLOPs and ratio are its data's 1st and 3rd columns.
height = 640   # the key under the chart
load plotdir."/style.gp"

set title chart_title(sprintf("SGEMM FP32 at %d random shapes M x N x K (%s): ratio to cuBLAS", nshapes, seeds))
set xlabel "FLOPs of the shape, 2·M·N·K (M, N and K each log-uniform in 1..16384)"
set ylabel "ratio to cuBLAS (same run)"
set logscale xy
set xrange [10.0 ** floor(log10(xmin)) : 10.0 ** (floor(log10(xmax)) + 1)]
set yrange [rmin / 1.25 : rmax * 1.25]
# A tic each decade of FLOPs, named every third; ratios at 1, 2 and 5 times a power of 10.
set xtics ("1" 1, "" 10, "" 100, "10³" 1e3, "" 1e4, "" 1e5, "10⁶" 1e6, "" 1e7, "" 1e8, "10⁹" 1e9, "" 1e10, "" 1e11, \
           "10¹²" 1e12, "" 1e13, "" 1e14, "10¹⁵" 1e15)
set ytics ()
do for [e = -3:3] {
    do for [m in "1 2 5"] {
        v = (m + 0) * 10.0 ** e
        set ytics add (sprintf("%g×", v) v)
    }
}
set grid xtics ytics ls 100, ls 100
# The key under the chart from its left edge, one entry a line (a long one runs right), clear of every point.
set bmargin 4 + 1.3 * (nsteps + 1 + (note ne ""))
set key at screen 0.02, screen 0.012 left bottom vertical maxrows (nsteps + 1 + (note ne ""))
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead back lc rgb cublas_color lw 2 dt cublas_dash
plot keyentry with lines lc rgb cublas_color lw 2 dt cublas_dash title "cuBLAS = 1× (timed in the same run)", \
     for [i = 1:nsteps] data index (i - 1) using 1:3 with points lt (word(linetypes, i) + 0) ps 0.8 * pts title columnheader(1), \
     for [i = 1:(note ne "")] keyentry with points pt 2 ps 1.2 * pts lc rgb fail_color title note
