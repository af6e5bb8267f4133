# plots.mk - the measured results, their tables and charts, included by the Makefile, which
# defines the variables they share (COURSE, TRACK_TOOLS, GNUPLOT, the steps'). The work is
# scripts/course's, and the going-further track's tools.py's where it is the track's (its tables
# in make table, its plan's estimate in make shapes-summary); the pictures are plots/NAME.gp's
# (gnuplot). The track's own targets (make track-ablation, track-shapes, plan-costs, plan-check)
# are in its track.mk, beside it (going_further/).
#
#   make plots [SIZES="1024 4096"] [REPS=20] [RUN_ARGS=...]   on a GPU, in one run: every step and
#                                 the going-further track at every size (plots/results.csv), then
#                                 every other table a lesson shows (PLOTS_ALSO: the sweep, the
#                                 ablation, the track and its shapes), then the charts (where
#                                 gnuplot is)
#   make results                  the runs and plots/results.csv only
#   make chart [CSV=x.csv] [OUT=dir]   plots/progression, plots/sizes and plots/peak (.png, .svg), no GPU;
#                                 CHART_DATA=dir keeps the data files gnuplot drew
#   make table [CSV=x.csv] [README=x.md]   the tables into docs/measurements.md and the step READMEs,
#                                 the track's into its lesson (TRACK_README, from TRACK_CSV and
#                                 TRACK_SHAPES_CSV: track.mk)
#   make sweep / sweep-chart      step 5 at every --stages S: plots/sweep.csv, its table and chart
#   make ablation / ablation-table   step 6 against step 5 as it is, at every stage count both
#                                 take, and step 6's unrolling forced on and off: plots/ablation.csv
#   make shapes [SHAPES_SEED=1] [SHAPES_ONLY=family,...]   step 5 and the track (./further) at every shape of
#                                 shape_list (scripts/course/runs.py): every square from 128 to 8192
#                                 by 128; skinny, deep-K, transformer-layer, small-K, matrix-vector,
#                                 tall-and-thin, tiny-C and prime shapes; 100 random shapes drawn
#                                 with SHAPES_SEED.
#                                 plots/shapes.csv, a summary of each family (as shapes-summary), and
#                                 the charts (as shapes-chart)
#   make shapes-chart             the charts of plots/shapes.csv: the squares' ratio to cuBLAS
#                                 (plots/shapes), the other named families' (plots/shapes_nonsquare)
#                                 and the random shapes' against their FLOPs (plots/shapes_random,
#                                 drawn when the CSV has random rows that passed), no GPU; and the
#                                 track's estimate against its measured time (make estimate-chart)
#   make shapes-summary           each step's geometric mean and minimum ratio to cuBLAS over each
#                                 family of plots/shapes.csv, and over every shape (PASS rows), and
#                                 the track's estimate over its measured time; no GPU
#
# A CSV is one run: written whole when the run completes, the old one kept until then.

SIZES   ?= 256 512 1024 2048 4096 8192
PROGRESSION_SIZE ?= 4096
# (Plain `=`: a CSV or OUT in the environment must not redirect them, only the command line.)
RESULTS     = plots/results.csv
CSV         = $(RESULTS)
OUT         = plots
README      = docs/measurements.md
PLOT_CHARTS = progression sizes peak
# Every program built (BUILT_STEPS): the steps, then the going-further track (its row after step 6's).
PLOT_STEPS  = $(addprefix ./,$(BUILT_STEPS))
CHART       = $(COURSE) chart --gnuplot '$(GNUPLOT)' --size '$(PROGRESSION_SIZE)' $(if $(CHART_DATA),--keep-data '$(CHART_DATA)')

SWEEP_STEP  = ./step5
SWEEP_SIZES ?= 1024 2048 4096 8192
SWEEP_CSV   = plots/sweep.csv
# make ablation: what step 6's idea is worth against step 5 as the learner has it, in one run:
# both at every stage count they share from 2 (at 1 stage both run step 5's control, the same
# code), then step 6 with its unrolling forced: off at 3 stages (the 8-deep k-tiles in step
# 5's loop: the unrolling alone), on at 2 and 4 (the loops that do not fit: step6_unroll/README.md).
ABLATION_CSV = plots/ablation.csv
ABLATION_RUNS = $(foreach s,2 3 4,'./step5 --stages $(s)' './step6 --stages $(s)') $(FORCED_UNROLL_RUNS)
# The step READMEs `make table` fills: the course's own, unless the table goes to another README;
# the going-further track's lesson too, whose tables the track's tools fill.
STEP_READMES = $(if $(filter docs/measurements.md,$(README)),$(wildcard step[0-9]*_*/README.md))
TRACK_README = $(if $(filter docs/measurements.md,$(README)),$(wildcard going_further/*.md))

SHAPES_CSV = plots/shapes.csv
SHAPES_STEPS = step5 further
# A chart whose family the CSV lacks (the random shapes, in a CSV from before them) is left out with a note.
SHAPES_CHARTS = shapes shapes_nonsquare shapes_random

.PHONY: plots results chart table sweep sweep-chart ablation ablation-table shapes shapes-chart shapes-summary

# The GPU's FP32 FMA throughput first (./fma_peak), into plots/peak.csv: the ceiling the
# steps' GFLOPS are measured against, from the same run.
PEAK_CSV = $(dir $(RESULTS))peak.csv
results: $(BUILT_STEPS) fma_peak left-out
	@./fma_peak --csv > '$(PEAK_CSV).tmp' && mv '$(PEAK_CSV).tmp' '$(PEAK_CSV)' && echo "results: FMA peak into $(PEAK_CSV)" || \
	  { rm -f '$(PEAK_CSV).tmp'; echo "results: ./fma_peak failed: $(PEAK_CSV) left as it was" >&2; }
	@$(COURSE) run '$(RESULTS)' $(PLOT_STEPS) --sizes '$(SIZES)' --reps '$(REPS)' $(RUN_FLAGS)

# Every table the lessons show comes from one run of make plots, on one GPU at one commit: the
# steps, then the runs of the other tables (PLOTS_ALSO= runs the steps alone). The GPU machine
# may have no gnuplot, nor a way to install it: then the CSVs are the result, drawn elsewhere.
PLOTS_ALSO = sweep ablation track-ablation track-shapes
plots: results
	@$(foreach t,$(PLOTS_ALSO),$(MAKE) --no-print-directory $(t) &&) true
	@$(MAKE) --no-print-directory need-gnuplot 2>/dev/null || true
	@$(CHART) '$(RESULTS)' '$(OUT)' $(PLOT_CHARTS) --optional plots

chart: need-gnuplot
	@$(CHART) '$(CSV)' '$(OUT)' $(PLOT_CHARTS)

table:
	@$(COURSE) table '$(CSV)' '$(README)' $(STEP_READMES) --sweep-csv '$(SWEEP_CSV)' --ablation-csv '$(ABLATION_CSV)'
	@$(if $(TRACK_README),$(TRACK_TOOLS) table $(foreach f,$(TRACK_README),'$(f)') --track-csv '$(TRACK_CSV)' --track-shapes-csv '$(TRACK_SHAPES_CSV)')

sweep: $(patsubst ./%,%,$(SWEEP_STEP))
	@$(COURSE) sweep '$(SWEEP_STEP)' '$(SWEEP_CSV)' '$(OUT)' --sizes '$(SWEEP_SIZES)' --reps '$(REPS)' $(RUN_FLAGS) --gnuplot '$(GNUPLOT)'

sweep-chart: need-gnuplot
	@$(CHART) '$(SWEEP_CSV)' '$(OUT)' sweep

ablation: $(ABLATION_BUILD)
	@$(COURSE) run '$(ABLATION_CSV)' $(ABLATION_RUNS) --sizes '$(ABLATION_SIZES)' --reps '$(REPS)' $(RUN_FLAGS)
	@echo; $(COURSE) ablation-table '$(ABLATION_CSV)'

ablation-table:
	@$(COURSE) ablation-table '$(ABLATION_CSV)'

shapes: $(SHAPES_STEPS) fma_peak
	@./fma_peak
	@$(COURSE) shapes '$(SHAPES_CSV)' $(addprefix ./,$(SHAPES_STEPS)) --reps '$(REPS)' --seed '$(SHAPES_SEED)' $(RUN_FLAGS) $(if $(SHAPES_ONLY),--only '$(SHAPES_ONLY)')
	@$(TRACK_TOOLS) estimate-summary '$(SHAPES_CSV)'
	@$(MAKE) --no-print-directory need-gnuplot 2>/dev/null || true
	@$(CHART) '$(SHAPES_CSV)' '$(OUT)' $(SHAPES_CHARTS) --optional shapes
	@$(ESTIMATE_CHART) --optional

shapes-chart: need-gnuplot
	@$(CHART) '$(SHAPES_CSV)' '$(OUT)' $(SHAPES_CHARTS)
	@$(ESTIMATE_CHART) --optional

shapes-summary:
	@$(COURSE) shapes-summary '$(SHAPES_CSV)'
	@$(TRACK_TOOLS) estimate-summary '$(SHAPES_CSV)'
