# progression.gp - the course in one picture: each step's TFLOPS at one size, a bar each,
# labelled with its ratio to cuBLAS measured in the same run; cuBLAS as a dashed line.
load plotdir."/bars.gp"

set title chart_title(sprintf("SGEMM FP32, M = N = K = %d: each step against cuBLAS", size))
set ylabel "TFLOPS (FP32, higher is better)"
set yrange [0:ymax]
set format y "%.0f"

# A tall bar carries its label inside, under the cuBLAS line; a short one above it.
tall(y) = y > ymax * 0.3
text(y, ratio) = sprintf("%.1f\n%s", y, ratio)
plot cublas with lines lc rgb cublas_color lw 2 dt cublas_dash title sprintf("cuBLAS: %.1f TFLOPS (median of the runs at %d)", cublas, size), \
     data using 1:2:4 with boxes lc variable title "each step: TFLOPS, and its speed as a share of cuBLAS's", \
     data using 1:(tall($2) ? $2 : NaN):(text($2, strcol(3))) with labels center offset 0,-1.5 tc rgb "white" font bold notitle, \
     data using 1:(tall($2) ? NaN : $2):(text($2, strcol(3))) with labels center offset 0,1.5 font small notitle, \
     data using 1:(ymax * 0.03):(strcol(5) eq "PASS" ? "" : strcol(5)) with labels center tc rgb fail_color font small notitle
