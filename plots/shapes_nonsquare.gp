# shapes_nonsquare.gp - the named families of make shapes but the squares: skinny (M or N small),
# deep K (M = N small, K large), transformer layers, small K, matrix-vector (M = 1 or N = 1),
# tall and thin, tiny C (deep K) and primes; each step's ratio to cuBLAS at each shape, a row a
# shape, under a heading for its family (and its model, or which side is small). A dot right of
# the dashed line: faster than cuBLAS at that shape, in the same run. (The squares are drawn by
# shapes.gp, the random shapes by shapes_random.gp.)
# charts.py sets nrows (shapes and headings), head_rows and heads; a shape's row and its name
# are its data's 1st and 4th columns. The picture grows with the rows.
height = 170 + 19 * nrows
load plotdir."/style.gp"

set title chart_title("SGEMM FP32 at each family of shapes M x N x K, a row a shape: ratio to cuBLAS")
# The title centred on the picture, not on the plot beside the rows' names.
set title offset screen 0.5 - (0.36 + 0.96) / 2, 0
set xlabel "ratio to cuBLAS (same run; right of the dashed line: faster than cuBLAS)"
set lmargin at screen 0.36
set rmargin at screen 0.96
set xrange [0 : (rmax > 1.2 ? rmax : 1.2) * 1.06]
set xtics 0.5
set mxtics 2
set format x "%.1f×"
set yrange [nrows - 0.5 : -0.5]
set ytics scale 0
set grid xtics mxtics ytics ls 100, ls 100
# The key under the rows' names, left of the x axis's numbers and label.
set bmargin 5
set key at screen 0.012, screen 0.008 left bottom vertical
# A heading in the column of the rows' names, in a row of its own: no line crosses it.
do for [i = 1:words(head_rows)] {
    set label (100 + i) word(heads, i) at screen 0.012, first (word(head_rows, i) + 0) left font heading
}
set arrow 1 from 1, graph 0 to 1, graph 1 nohead back lc rgb cublas_color lw 2 dt cublas_dash
plot keyentry with lines lc rgb cublas_color lw 2 dt cublas_dash title "cuBLAS = 1× (same run)", \
     for [i = 1:nsteps] data index (i - 1) using 3:1:ytic(4) with points lt (word(linetypes, i) + 0) ps 0.9 * pts title columnheader(1), \
     for [i = 1:(note ne "")] keyentry with points pt 2 ps 1.2 * pts lc rgb fail_color title note
