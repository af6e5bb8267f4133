# style.gp - the look every chart shares. Each chart script loads it first:
#
#     load plotdir."/style.gp"
#
# plots/chart.sh sets, before the chart script runs:
#   fmt       "png" or "svg"        outfile   where this rendering goes
#   device, dates, cuda, commits    the run's identity, from the CSV's rows
#   plotdir   this directory        data      the chart's data file (written by its .awk)
#
# and the chart's own variables, from its .awk program.

# --- terminal: 900 px wide, the width of a blog column; a chart may set height first --
if (!exists("height")) height = 560
if (fmt eq "svg") {
    set terminal svg size 900,height dynamic font "sans-serif,13" linewidth 1.2 background rgb "white"
} else {
    set terminal pngcairo size 900,height font "Sans,11" linewidth 1.2 background rgb "white"
}
set output outfile
set encoding utf8
# Names (step0_naive, device names) are printed as written, never as sub/superscripts.
set termoption noenhanced

# --- data files: tab-separated, NaN where a run failed (never drawn) --------------------
set datafile separator "\t"

# --- colours: one per step number, the same in every chart (Okabe-Ito, colour-blind safe)
set linetype 1 lc rgb "#0072B2" lw 2 pt 7 ps 1.0
set linetype 2 lc rgb "#E69F00" lw 2 pt 5 ps 1.0
set linetype 3 lc rgb "#009E73" lw 2 pt 9 ps 1.2
set linetype 4 lc rgb "#CC79A7" lw 2 pt 11 ps 1.2
set linetype 5 lc rgb "#D55E00" lw 2 pt 13 ps 1.2
set linetype 6 lc rgb "#56B4E9" lw 2 pt 7 ps 1.0
set linetype 7 lc rgb "#7A5C2E" lw 2 pt 5 ps 1.0
set linetype 8 lc rgb "#6A3D9A" lw 2 pt 9 ps 1.2
set linetype 9 lc rgb "#999999" lw 2 pt 11 ps 1.2
set linetype cycle 9
# Step n draws in linetype n % 9 + 1 (the .awk programs pick it); cuBLAS, the yardstick,
# in black.
cublas_color = "#000000"
fail_color = "#C00000"
# A ratio to cuBLAS: two decimals, or two significant digits below 0.1 (0.0061, not 0.01).
ratio_text(r) = r < 0.1 ? sprintf("%.2g×", r) : sprintf("%.2f×", r)

# --- frame, grid, key -----------------------------------------------------------------
set border 3 lc rgb "#444444"
set tics nomirror out scale 0.6 textcolor rgb "#222222"
set style line 100 lc rgb "#DDDDDD" lw 1 dt 1
set grid ytics ls 100, ls 100
set key noopaque reverse Left samplen 4 spacing 1.15 textcolor rgb "#222222"

# --- title: what the chart shows, then the device and the date of the runs ------------
# chart_title("SGEMM at M = N = K = 4096") gives two lines, the second naming the run.
run_line = sprintf("%s, %s (CUDA %s, commit %s)", device, dates, cuda, commits)
chart_title(what) = what."\n".run_line
set title font ",14" textcolor rgb "#111111"
