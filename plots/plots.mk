# plots.mk - the measured results and their charts (included by the Makefile).
#
#   make plots                    on a GPU machine: every step and cuBLAS at every size,
#                                 plots/results.csv, then the charts (if gnuplot is there)
#   make plots SIZES="1024 4096" REPS=20     (RUN_ARGS="..." adds options to every run)
#   make results                  the runs and plots/results.csv only
#   make chart                    the charts from plots/results.csv (no GPU needed)
#   make chart CSV=x.csv OUT=dir  from another CSV, into another directory
#   make table                    the results table into README.md, between its markers, and
#                                 each step's own table (and the sweep and tune tables) into
#                                 the step READMEs that have markers for them
#   make sweep                    on a GPU machine: step 5 at every pipeline depth S and size,
#                                 plots/sweep.csv, its table, then plots/sweep.{png,svg}
#   make sweep-chart              plots/sweep.{png,svg} from plots/sweep.csv (no GPU needed)
#   make tune                     on a GPU machine (make -j8 tune builds in parallel): step 6
#                                 built once per tile configuration, each run at every size
#                                 and S, plots/tune.csv, its table
#   make tune-table               that table from plots/tune.csv (no GPU needed)
#
# The charts: plots/progression.{png,svg} (each step's GFLOPS at 4096, bars labelled with
# the ratio to cuBLAS) and plots/sizes.{png,svg} (GFLOPS against size). A chart is
# plots/NAME.awk (its data, from the CSV) and plots/NAME.gp (its picture, loading
# plots/style.gp); adding NAME to PLOT_CHARTS renders it.

SIZES   ?= 256 512 1024 2048 4096 8192
REPS    ?= 10
# The size the progression chart shows.
PROGRESSION_SIZE ?= 4096
GNUPLOT ?= gnuplot
# What `make results` writes; what `make chart` and `make table` read; where charts go.
# (Plain `=`: a CSV or OUT in the environment must not redirect them, only the command line.)
RESULTS     = plots/results.csv
CSV         = $(RESULTS)
OUT         = plots
README      = README.md
PLOT_CHARTS = progression sizes
# The binaries `make results` runs: every step.
PLOT_STEPS  = $(addprefix ./,$(BUILT_STEPS))

# The stage sweep: the step, its sizes, its CSV (REPS as above).
SWEEP_STEP  = ./step5
SWEEP_SIZES ?= 1024 2048 4096 8192
SWEEP_CSV   = plots/sweep.csv
# The tile-shape sweep of step 6: each configuration "BK BM BN WM WN TM TN" is built into
# build/tune/NAME/step6 (NAME like bk8_128x128_w32x64_t8x8) with -DTUNE_BK=.. -DTUNE_BM=..
# and run at every size and stage count with --no-check --reps TUNE_REPS.
TUNE_CONFIGS ?= "8 128 128 32 64 8 8" "8 128 128 64 32 8 8" "8 64 128 32 64 8 8" "8 128 64 64 32 8 8" \
                "8 64 64 32 32 4 8" "8 64 64 32 32 8 4" "16 128 128 32 64 8 8" "16 64 128 32 64 8 8"
TUNE_SIZES  ?= 1024 2048 4096 8192
TUNE_REPS   ?= 5
TUNE_CSV    = plots/tune.csv
TUNE_DIR    = $(BUILD)/tune
TUNE_SRC    = $(firstword $(wildcard step6_*/step6.cu))
# The step READMEs `make table` fills (those without markers are skipped, with a note):
# the course's own, unless the table goes to another README (README=...).
STEP_READMES = $(if $(filter README.md,$(README)),$(wildcard step[0-9]*_*/README.md))

.PHONY: plots results chart table sweep sweep-chart tune tune-build tune-table

results: $(BUILT_STEPS) left-out
	@SIZES='$(SIZES)' REPS='$(REPS)' sh plots/run.sh '$(RESULTS)' $(PLOT_STEPS)

# The GPU machine may have no gnuplot: then the CSV is the result, rendered elsewhere.
plots: results
	@if command -v '$(GNUPLOT)' >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory chart CSV='$(RESULTS)'; \
	else \
	  echo "plots: gnuplot is not installed here: $(RESULTS) is written, the charts are not."; \
	  echo "plots: to draw them, take $(RESULTS) (commit it, or copy it) to a machine with"; \
	  echo "plots: gnuplot (make deps installs it) and run there, with no GPU needed:"; \
	  echo "plots:     make chart$(if $(filter-out plots/results.csv,$(RESULTS)), CSV=$(RESULTS))"; \
	  echo "plots:     make table$(if $(filter-out plots/results.csv,$(RESULTS)), CSV=$(RESULTS))     # the README's results table"; \
	fi

chart:
	@GNUPLOT='$(GNUPLOT)' PROGRESSION_SIZE='$(PROGRESSION_SIZE)' sh plots/chart.sh '$(CSV)' '$(OUT)' $(PLOT_CHARTS)

table:
	@SWEEP_CSV='$(SWEEP_CSV)' TUNE_CSV='$(TUNE_CSV)' sh plots/table.sh '$(CSV)' '$(README)' $(STEP_READMES)

# --- the stage sweep (step 5) ---------------------------------------------------------
sweep: $(patsubst ./%,%,$(SWEEP_STEP))
	@SWEEP_SIZES='$(SWEEP_SIZES)' REPS='$(REPS)' GNUPLOT='$(GNUPLOT)' sh plots/sweep.sh '$(SWEEP_STEP)' '$(SWEEP_CSV)' '$(OUT)'

sweep-chart:
	@GNUPLOT='$(GNUPLOT)' CHART_SOURCE='`make sweep` on a GPU machine writes plots/sweep.csv (or pass SWEEP_CSV=path)' \
	  CHART_TARGET='make sweep-chart' sh plots/chart.sh '$(SWEEP_CSV)' '$(OUT)' sweep

# --- the tile-shape sweep (step 6) ----------------------------------------------------
# "bk8_128x128_w32x64_t8x8" -> -DTUNE_BK=8 -DTUNE_BM=128 -DTUNE_BN=128 -DTUNE_WM=32 ...
tune_params = $(subst _, ,$(subst x, ,$(subst _t,_,$(subst _w,_,$(patsubst bk%,%,$(1))))))
tune_flags  = $(join -DTUNE_BK= -DTUNE_BM= -DTUNE_BN= -DTUNE_WM= -DTUNE_WN= -DTUNE_TM= -DTUNE_TN=,$(call tune_params,$(1)))

$(TUNE_DIR)/%/step6: $(TUNE_SRC) $(HARNESS_LIB) common/harness.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) $(call tune_flags,$*) $(TUNE_SRC) $(HARNESS_LIB) $(LDLIBS) -o $@

# The names come from plots/tune.sh, which also rejects a malformed configuration.
tune-build: $(HARNESS_LIB)
	@names=$$(sh plots/tune.sh names $(TUNE_CONFIGS)) || exit 2; \
	  $(MAKE) --no-print-directory $$(for n in $$names; do printf ' $(TUNE_DIR)/%s/step6' "$$n"; done)

tune: tune-build
	@TUNE_SIZES='$(TUNE_SIZES)' TUNE_REPS='$(TUNE_REPS)' sh plots/tune.sh run '$(TUNE_CSV)' '$(TUNE_DIR)' $(TUNE_CONFIGS)

tune-table:
	@sh plots/tune.sh table '$(TUNE_CSV)'
