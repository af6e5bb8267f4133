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
RUN_FLAGS   = --timeout '$(RUN_TIMEOUT)' --extra='$(RUN_ARGS)'
CHART       = $(COURSE) chart --gnuplot '$(GNUPLOT)' --size '$(PROGRESSION_SIZE)' $(if $(CHART_DATA),--keep-data '$(CHART_DATA)')

SWEEP_STEP  = ./step5
SWEEP_SIZES ?= 1024 2048 4096 8192
SWEEP_CSV   = plots/sweep.csv
# Each tile configuration of step 6, named bkBK_BMxBN_wWMxWN_tTMxTN (BK, then the block, warp and
# thread tiles), is built into build/tune/NAME/step6 (bk8_128x128_w32x64_t8x8: -DTUNE_BK=8
# -DTUNE_BM=128 -DTUNE_BN=128 ...) and run at every size and stage count with --reps TUNE_REPS,
# each run checked against cuBLAS like any other.
TUNE_CONFIGS ?= bk8_128x128_w32x64_t8x8 bk8_128x128_w64x32_t8x8 bk8_64x128_w32x64_t8x8 bk8_128x64_w64x32_t8x8 \
                bk8_64x64_w32x32_t4x8 bk8_64x64_w32x32_t8x4 bk16_128x128_w32x64_t8x8 bk16_64x128_w32x64_t8x8
TUNE_SIZES  ?= 1024 2048 4096 8192
TUNE_REPS   ?= 5
TUNE_CSV    = plots/tune.csv
TUNE_DIR    = $(BUILD)/tune
TUNE_SRC    = $(firstword $(wildcard step6_*/step6.cu))
# The step READMEs `make table` fills: the course's own, unless the table goes to another README.
STEP_READMES = $(if $(filter README.md,$(README)),$(wildcard step[0-9]*_*/README.md))

.PHONY: plots results chart table sweep sweep-chart tune tune-build tune-table

results: $(BUILT_STEPS) left-out
	@$(COURSE) run '$(RESULTS)' $(PLOT_STEPS) --sizes '$(SIZES)' --reps '$(REPS)' $(RUN_FLAGS)

# The GPU machine may have no gnuplot: then the CSV is the result, drawn elsewhere.
plots: results
	@$(CHART) '$(RESULTS)' '$(OUT)' $(PLOT_CHARTS) --optional plots

chart:
	@$(CHART) '$(CSV)' '$(OUT)' $(PLOT_CHARTS)

table:
	@$(COURSE) table '$(CSV)' '$(README)' $(STEP_READMES) --sweep-csv '$(SWEEP_CSV)' --tune-csv '$(TUNE_CSV)'

sweep: $(patsubst ./%,%,$(SWEEP_STEP))
	@$(COURSE) sweep '$(SWEEP_STEP)' '$(SWEEP_CSV)' '$(OUT)' --sizes '$(SWEEP_SIZES)' --reps '$(REPS)' $(RUN_FLAGS) --gnuplot '$(GNUPLOT)'

sweep-chart:
	@$(CHART) '$(SWEEP_CSV)' '$(OUT)' sweep

# "bk8_128x128_w32x64_t8x8" -> -DTUNE_BK=8 -DTUNE_BM=128 -DTUNE_BN=128 -DTUNE_WM=32 ...
tune_params = $(subst _, ,$(subst x, ,$(subst _t,_,$(subst _w,_,$(patsubst bk%,%,$(1))))))
tune_flags  = $(join -DTUNE_BK= -DTUNE_BM= -DTUNE_BN= -DTUNE_WM= -DTUNE_WN= -DTUNE_TM= -DTUNE_TN=,$(call tune_params,$(1)))

$(TUNE_DIR)/%/step6: $(TUNE_SRC) $(HARNESS_LIB) common/harness.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) $(call tune_flags,$*) $(TUNE_SRC) $(HARNESS_LIB) $(LDLIBS) -o $@

# (A recipe line with $(MAKE) in it runs under make -n too: the names are checked there as well.)
tune-build: $(HARNESS_LIB)
	@bad=$$(printf '%s\n' $(TUNE_CONFIGS) | grep -Evx '$(subst N,[1-9][0-9]*,bkN_NxN_wNxN_tNxN)'); [ -n '$(TUNE_CONFIGS)' ] && [ -z "$$bad" ] || \
	  { echo "tune-build: TUNE_CONFIGS needs names bkBK_BMxBN_wWMxWN_tTMxTN of 7 positive whole numbers, not:" $$bad >&2; exit 2; }; \
	  $(MAKE) --no-print-directory $(foreach n,$(TUNE_CONFIGS),$(TUNE_DIR)/$(n)/step6)

tune: tune-build
	@$(COURSE) tune '$(TUNE_CSV)' '$(TUNE_DIR)' $(TUNE_CONFIGS) --sizes '$(TUNE_SIZES)' --reps '$(TUNE_REPS)' $(RUN_FLAGS)

tune-table:
	@$(COURSE) tune-table '$(TUNE_CSV)'
