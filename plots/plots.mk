# plots.mk - the measured results, their tables and charts (included by the Makefile). The work
# is scripts/course.py's; the pictures are plots/NAME.gp's (gnuplot).
#
#   make plots [SIZES="1024 4096"] [REPS=20] [RUN_ARGS=...]   on a GPU: every step at every size,
#                                 plots/results.csv, then the charts (where gnuplot is)
#   make results                  the runs and plots/results.csv only
#   make chart [CSV=x.csv] [OUT=dir]   plots/progression and plots/sizes (.png, .svg), no GPU;
#                                 CHART_DATA=dir keeps the data files gnuplot drew
#   make table [CSV=x.csv] [README=x.md]   the tables into README.md and the step READMEs
#   make sweep / sweep-chart      step 5 at every --stages S: plots/sweep.csv, its table and chart
#   make tune / tune-table        step 6 built per tile shape (make -j8 tune): plots/tune.csv, its table
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
PLOT_CHARTS = progression sizes
PLOT_STEPS  = $(addprefix ./,$(BUILT_STEPS))
RUN_FLAGS   = --reps '$(REPS)' --timeout '$(RUN_TIMEOUT)' --extra='$(RUN_ARGS)'

SWEEP_STEP  = ./step5
SWEEP_SIZES ?= 1024 2048 4096 8192
SWEEP_CSV   = plots/sweep.csv
# Each tile configuration "BK BM BN WM WN TM TN" of step 6 is built into build/tune/NAME/step6
# (NAME like bk8_128x128_w32x64_t8x8, with -DTUNE_BK=8 -DTUNE_BM=128 ...) and run at every size
# and stage count with --reps TUNE_REPS, each run checked against cuBLAS like any other.
TUNE_CONFIGS ?= "8 128 128 32 64 8 8" "8 128 128 64 32 8 8" "8 64 128 32 64 8 8" "8 128 64 64 32 8 8" \
                "8 64 64 32 32 4 8" "8 64 64 32 32 8 4" "16 128 128 32 64 8 8" "16 64 128 32 64 8 8"
TUNE_SIZES  ?= 1024 2048 4096 8192
TUNE_REPS   ?= 5
TUNE_CSV    = plots/tune.csv
TUNE_DIR    = $(BUILD)/tune
TUNE_SRC    = $(firstword $(wildcard step6_*/step6.cu))
# The step READMEs `make table` fills: the course's own, unless the table goes to another README.
STEP_READMES = $(if $(filter README.md,$(README)),$(wildcard step[0-9]*_*/README.md))

.PHONY: plots results chart table sweep sweep-chart tune tune-build tune-table

results: $(BUILT_STEPS) left-out
	@$(COURSE) run '$(RESULTS)' $(PLOT_STEPS) --sizes '$(SIZES)' $(RUN_FLAGS)

# The GPU machine may have no gnuplot: then the CSV is the result, drawn elsewhere.
plots: results
	@$(COURSE) chart '$(RESULTS)' '$(OUT)' $(PLOT_CHARTS) --size '$(PROGRESSION_SIZE)' --gnuplot '$(GNUPLOT)' --optional plots

chart:
	@$(COURSE) chart '$(CSV)' '$(OUT)' $(PLOT_CHARTS) --size '$(PROGRESSION_SIZE)' --gnuplot '$(GNUPLOT)' \
	  $(if $(CHART_DATA),--keep-data '$(CHART_DATA)')

table:
	@$(COURSE) table '$(CSV)' '$(README)' $(STEP_READMES) --sweep-csv '$(SWEEP_CSV)' --tune-csv '$(TUNE_CSV)'

sweep: $(patsubst ./%,%,$(SWEEP_STEP))
	@$(COURSE) sweep '$(SWEEP_STEP)' '$(SWEEP_CSV)' '$(OUT)' --sizes '$(SWEEP_SIZES)' $(RUN_FLAGS) --gnuplot '$(GNUPLOT)'

sweep-chart:
	@$(COURSE) chart '$(SWEEP_CSV)' '$(OUT)' sweep --gnuplot '$(GNUPLOT)' $(if $(CHART_DATA),--keep-data '$(CHART_DATA)')

# "bk8_128x128_w32x64_t8x8" -> -DTUNE_BK=8 -DTUNE_BM=128 -DTUNE_BN=128 -DTUNE_WM=32 ...
tune_params = $(subst _, ,$(subst x, ,$(subst _t,_,$(subst _w,_,$(patsubst bk%,%,$(1))))))
tune_flags  = $(join -DTUNE_BK= -DTUNE_BM= -DTUNE_BN= -DTUNE_WM= -DTUNE_WN= -DTUNE_TM= -DTUNE_TN=,$(call tune_params,$(1)))

$(TUNE_DIR)/%/step6: $(TUNE_SRC) $(HARNESS_LIB) common/harness.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) $(call tune_flags,$*) $(TUNE_SRC) $(HARNESS_LIB) $(LDLIBS) -o $@

tune-build: $(HARNESS_LIB)
	@names=$$($(COURSE) tune names $(TUNE_CONFIGS)) || exit 2; \
	  $(MAKE) --no-print-directory $$(for n in $$names; do printf ' $(TUNE_DIR)/%s/step6' "$$n"; done)

tune: tune-build
	@$(COURSE) tune run '$(TUNE_CSV)' '$(TUNE_DIR)' $(TUNE_CONFIGS) --sizes '$(TUNE_SIZES)' --reps '$(TUNE_REPS)' \
	  --timeout '$(RUN_TIMEOUT)' --extra='$(RUN_ARGS)'

tune-table:
	@$(COURSE) tune table '$(TUNE_CSV)'
