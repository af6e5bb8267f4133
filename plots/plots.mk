# plots.mk - the measured results, their tables and charts (included by the Makefile). The work
# is scripts/course.py's; the pictures are plots/NAME.gp's (gnuplot).
#
#   make plots [SIZES="1024 4096"] [REPS=20] [RUN_ARGS=...]   on a GPU: every step at every size,
#                                 plots/results.csv, then the charts (where gnuplot is)
#   make results                  the runs and plots/results.csv only
#   make chart [CSV=x.csv] [OUT=dir]   plots/progression, plots/sizes and plots/peak (.png, .svg), no GPU;
#                                 CHART_DATA=dir keeps the data files gnuplot drew
#   make table [CSV=x.csv] [README=x.md]   the tables into README.md and the step READMEs
#   make sweep / sweep-chart      step 5 at every --stages S: plots/sweep.csv, its table and chart
#   make ablation / ablation-table   step 5, then step 6's core and each part of its going-further
#                                 track in turn, with and without unrolled stages: plots/ablation.csv
#   make shapes / shapes-chart    steps 5 and 6 at every square from 128 to 8192 by 128, skinny and
#                                 deep-K shapes and transformer layers (course.py's shape_list):
#                                 plots/shapes.csv, and the chart of the squares' ratio to cuBLAS
#
# A CSV is one run: written whole when the run completes, the old one kept until then.

SIZES   ?= 256 512 1024 2048 4096 8192
REPS    ?= 10
RUN_TIMEOUT ?= 900
PROGRESSION_SIZE ?= 4096
GNUPLOT ?= gnuplot
COURSE  = python3 scripts/course.py
# (Plain `=`: a CSV or OUT in the environment must not redirect them, only the command line.)
RESULTS     = plots/results.csv
CSV         = $(RESULTS)
OUT         = plots
README      = README.md
PLOT_CHARTS = progression sizes peak
# Every step, and step 6's core alone besides its whole track (its README row "step6_unroll (core)").
PLOT_STEPS  = $(addprefix ./,$(BUILT_STEPS)) $(if $(filter step6,$(BUILT_STEPS)),'./step6 --track core')
RUN_FLAGS   = --timeout '$(RUN_TIMEOUT)' --extra='$(RUN_ARGS)'
CHART       = $(COURSE) chart --gnuplot '$(GNUPLOT)' --size '$(PROGRESSION_SIZE)' $(if $(CHART_DATA),--keep-data '$(CHART_DATA)')

SWEEP_STEP  = ./step5
SWEEP_SIZES ?= 1024 2048 4096 8192
SWEEP_CSV   = plots/sweep.csv
# make ablation: what step 6's idea and each part of its going-further track are worth, in one
# run: step 5 as it is, step 6's core with its stage loop rolled and unrolled, each part of the
# track added in turn (the last is ./step6 itself), and the whole track with no loop unrolled
# and with every loop unrolled.
ABLATION_SIZES ?= 256 512 1024 2048 4096 8192
ABLATION_CSV = plots/ablation.csv
ABLATION_BUILD = step5 step6
ABLATION_RUNS = ./step5 './step6 --track core --unroll no' './step6 --track core' './step6 --track warp-tiles' \
                './step6 --track split-k' './step6 --track wide-tiles' ./step6 './step6 --unroll no' './step6 --unroll yes'
# The step READMEs `make table` fills: the course's own, unless the table goes to another README.
STEP_READMES = $(if $(filter README.md,$(README)),$(wildcard step[0-9]*_*/README.md))

SHAPES_CSV = plots/shapes.csv
SHAPES_STEPS = step5 step6
SHAPES_ONLY ?=

.PHONY: plots results chart table sweep sweep-chart ablation ablation-table shapes shapes-chart

# The GPU's FP32 FMA throughput first (./fma_peak), into plots/peak.csv: the ceiling the
# steps' GFLOPS are measured against, from the same run.
PEAK_CSV = $(dir $(RESULTS))peak.csv
results: $(BUILT_STEPS) fma_peak left-out
	@./fma_peak --csv > '$(PEAK_CSV).tmp' && mv '$(PEAK_CSV).tmp' '$(PEAK_CSV)' && echo "results: FMA peak into $(PEAK_CSV)" || \
	  { rm -f '$(PEAK_CSV).tmp'; echo "results: ./fma_peak failed: $(PEAK_CSV) left as it was" >&2; }
	@$(COURSE) run '$(RESULTS)' $(PLOT_STEPS) --sizes '$(SIZES)' --reps '$(REPS)' $(RUN_FLAGS)

# The GPU machine may have no gnuplot, nor a way to install it: then the CSV is the result,
# drawn elsewhere.
plots: results
	@$(MAKE) --no-print-directory need-gnuplot 2>/dev/null || true
	@$(CHART) '$(RESULTS)' '$(OUT)' $(PLOT_CHARTS) --optional plots

chart: need-gnuplot
	@$(CHART) '$(CSV)' '$(OUT)' $(PLOT_CHARTS)

table:
	@$(COURSE) table '$(CSV)' '$(README)' $(STEP_READMES) --sweep-csv '$(SWEEP_CSV)' --ablation-csv '$(ABLATION_CSV)'

sweep: $(patsubst ./%,%,$(SWEEP_STEP))
	@$(COURSE) sweep '$(SWEEP_STEP)' '$(SWEEP_CSV)' '$(OUT)' --sizes '$(SWEEP_SIZES)' --reps '$(REPS)' $(RUN_FLAGS) --gnuplot '$(GNUPLOT)'

sweep-chart: need-gnuplot
	@$(CHART) '$(SWEEP_CSV)' '$(OUT)' sweep

ablation: $(ABLATION_BUILD)
	@$(COURSE) ablation '$(ABLATION_CSV)' $(ABLATION_RUNS) --sizes '$(ABLATION_SIZES)' --reps '$(REPS)' $(RUN_FLAGS)

ablation-table:
	@$(COURSE) ablation-table '$(ABLATION_CSV)'

shapes: $(SHAPES_STEPS) fma_peak
	@./fma_peak
	@$(COURSE) shapes '$(SHAPES_CSV)' $(addprefix ./,$(SHAPES_STEPS)) --reps '$(REPS)' $(RUN_FLAGS) $(if $(SHAPES_ONLY),--only '$(SHAPES_ONLY)')
	@$(MAKE) --no-print-directory need-gnuplot 2>/dev/null || true
	@$(CHART) '$(SHAPES_CSV)' '$(OUT)' shapes --optional shapes

shapes-chart: need-gnuplot
	@$(CHART) '$(SHAPES_CSV)' '$(OUT)' shapes
