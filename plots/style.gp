# style.gp - the look every chart shares; each chart script loads it first (a bar chart through
# bars.gp). Before it, scripts/course/charts.py (make chart) sets: fmt ("png" or "svg"), outfile,
# data (the chart's data file: tab-separated, NaN where a run failed, never drawn), plotdir, the
# run's device, dates, cuda and commits, and the chart's own variables. A chart may set height first.
if (!exists("height")) height = 560
# SVG at a blog column's 900 px; PNG at 1600 px for high-resolution screens, scaled alike.
if (fmt eq "svg") {
    set terminal svg size 900,height dynamic font "sans-serif,13" linewidth 1.2 background rgb "white"
} else {
    set terminal pngcairo size 1600,height * 16 / 9 font "Sans,19" linewidth 2.1 background rgb "white"
}
set output outfile
# The font sizes of labels and titles, for either picture.
small = sprintf(",%d", fmt eq "svg" ? 11 : 18)
large = sprintf(",%d", fmt eq "svg" ? 14 : 23)
bold = sprintf("Sans:Bold,%d", fmt eq "svg" ? 11 : 18)
heading = sprintf("Sans:Bold,%d", fmt eq "svg" ? 13 : 19)   # bold at the text's size
# (In an SVG, charts.py's render writes "Sans:Bold" as a bold sans-serif: gnuplot's svg
# terminal takes the name as a font family.)
set encoding utf8
set termoption noenhanced    # names such as step0_naive print as written
set datafile separator "\t"

# One colour and one marker per series, the same in every chart (charts.py's linetype): step n
# draws in linetype n % 9 + 1, the going-further track (./further, its rows going_further) in 8,
# the track run with options (a part of it: ./further --part P) in 9. Okabe-Ito's colours
# (colour-blind safe), a brown and a purple; no two linetypes share a marker. cuBLAS, the
# yardstick, in black.
colors = "#0072B2 #E69F00 #009E73 #CC79A7 #D55E00 #56B4E9 #7A5C2E #6A3D9A #999999"
#         step 0: ●  1: ■  2: ▲  3: ▼  4: ◆  5: ⬟  6: □  the track: ○  a part of it: △
points = "7 5 9 11 13 15 4 6 8"
# pts scales a marker to the picture: gnuplot's PNG markers are smaller for their width than its SVG ones.
pts = fmt eq "svg" ? 1.0 : 1.8
do for [i = 1:9] {
    set linetype i lc rgb word(colors, i) lw 2 pt (word(points, i) + 0) ps 1.1 * pts
}
set linetype cycle 9
cublas_color = "#000000"
# Dashes short enough that a key's sample shows two (a PNG's dash type 2 is long, an SVG's is not).
cublas_dash = fmt eq "svg" ? 2 : "- "
fail_color = "#C00000"

set border 3 lc rgb "#444444"
set tics nomirror out scale 0.6 textcolor rgb "#222222"
set style line 100 lc rgb "#DDDDDD" lw 1 dt 1
set grid ytics ls 100, ls 100
set key noopaque reverse Left samplen 4 spacing 1.15 textcolor rgb "#222222"
set title font large textcolor rgb "#111111"
# The title: what the chart shows, then a line naming the run.
chart_title(what) = what . "\n" . sprintf("%s, %s (CUDA %s, commit %s)", device, dates, cuda, commits)

# Two panels, one x axis: TFLOPS above, the ratio to cuBLAS (1× = as fast) below; the key to
# the right of both, wide enough for "step6_unroll (unroll=yes)". `@top_panel`, plot,
# `@ratio_panel`, plot.
# The title is centred on the picture (its lines may be wider than the panels).
panels = "set multiplot; set grid xtics ytics ls 100, ls 100; set lmargin at screen 0.09; set rmargin at screen 0.68; set key at screen 0.70, 0.84 left top; set title offset screen 0.5 - (0.09 + 0.68) / 2, 0"
top_panel = "set tmargin at screen 0.86; set bmargin at screen 0.49; set format x ''; unset xlabel"
# cuBLAS's 1× is named outside the panel, to the right of its line's end: on no line or point.
ratio_panel = "unset title; unset key; unset logscale y; set ytics autofreq; set label 1 'cuBLAS = 1×' at graph 1, first 1 offset char 1,0 left; set tmargin at screen 0.45; set bmargin at screen 0.11; set format x '%g'; set format y '%.1f×'; set ylabel 'ratio to cuBLAS (same run)'"
