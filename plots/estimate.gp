# estimate.gp - the going-further plan's estimate of each shape's time (the kernel line's "est.")
# against the time measured (the median), a point a shape of make shapes, a colour a family; on
# the dashed line the two agree. going_further/tools.py (estimate-chart) sets nshapes, nfamilies,
# linetypes, summary, and tmin and tmax (microseconds, of both axes).
height = 720   # with the margins below, a square panel
load plotdir."/style.gp"
set linetype 10 lc rgb "#882255" lw 2 pt 12 ps 1.1 * pts   # make shapes has ten families
set linetype cycle 10

set title chart_title(sprintf("The going-further plan's estimate against the measured time at %d shapes", nshapes))
set xlabel "estimated time, µs (the kernel line's \"est.\")"
set ylabel "measured time, µs (median)"
set logscale xy
lo = 10.0 ** floor(log10(tmin))
hi = 10.0 ** ceil(log10(tmax))
set xrange [lo : hi]
set yrange [lo : hi]
set format xy "%g"
set grid xtics ytics ls 100, ls 100
# A square panel, the key to its right; the title centred on the picture, not the panel.
set lmargin at screen 0.11
set rmargin at screen 0.64
set tmargin at screen 0.86
set bmargin at screen 0.19
set title offset screen 0.5 - (0.11 + 0.64) / 2, 0
set key at screen 0.66, 0.86 left top
# Under the chart, what the key's numbers are, and the estimate over the measured time over every shape.
set label 1 "Key: a family of make shapes (its shapes): their median of estimated over measured time.\n" . \
            "Estimated over measured time, " . summary at screen 0.11, screen 0.06 left
set arrow 1 from lo, lo to hi, hi nohead back lc rgb cublas_color lw 2 dt cublas_dash
plot keyentry with lines lc rgb cublas_color lw 2 dt cublas_dash title "estimate = measured", \
     for [i = 1:nfamilies] data index (i - 1) using 1:2 with points lt (word(linetypes, i) + 0) ps 0.8 * pts title columnheader(1)
