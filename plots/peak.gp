# peak.gp - the course against the hardware's limit: each step's GFLOPS at the largest size
# as a share of the GPU's FP32 FMA peak (./fma_peak, measured in the same run), a bar each,
# labelled with its ratio to cuBLAS; cuBLAS's share as a dashed line.
load plotdir."/bars.gp"

set title chart_title(sprintf("SGEMM FP32, M = N = K = %d: each step against the FP32 FMA peak (%.1f TFLOPS)", size, peak_tflops))
set ylabel "share of the FMA peak, % (higher is better)"
set yrange [0:132]
set ytics 0, 20, 100
set format y "%.0f%%"

tall(y) = y > 30
text(y, ratio) = sprintf(y < 10 ? "%.1f%%\n%s" : "%.0f%%\n%s", y, ratio)
plot 100 with lines lc rgb "#888888" lw 1.5 dt 1 title sprintf("the FMA peak, %.1f TFLOPS: an FFMA on every FP32 lane every cycle (./fma_peak, same run)", peak_tflops), \
     cublas with lines lc rgb cublas_color lw 2 dt cublas_dash title sprintf("cuBLAS: %.0f%% of the peak (median of the runs at %d)", cublas, size), \
     data using 1:2:4 with boxes lc variable title "each step: its share of the peak, and its speed as a share of cuBLAS's", \
     data using 1:(tall($2) ? $2 : NaN):(text($2, strcol(3))) with labels center offset 0,-1.5 tc rgb "white" font bold notitle, \
     data using 1:(tall($2) ? NaN : $2):(text($2, strcol(3))) with labels center offset 0,1.5 font small notitle, \
     data using 1:(3.5):(strcol(5) eq "PASS" ? "" : strcol(5)) with labels center tc rgb fail_color font small notitle
