# plots.mk - the measured results and their charts (included by the Makefile).
#
#   make plots                    on a GPU machine: every step and cuBLAS at every size,
#                                 plots/results.csv, then the charts (if gnuplot is there)
#   make plots SIZES="1024 4096" REPS=20     (RUN_ARGS="..." adds options to every run)
#   make results                  the runs and plots/results.csv only
#   make chart                    the charts from plots/results.csv (no GPU needed)
#   make chart CSV=x.csv OUT=dir  from another CSV, into another directory
#   make table                    the results table into README.md, between its markers
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
PLOT_STEPS  = $(addprefix ./,$(STEPS))

.PHONY: plots results chart table

results: $(STEPS)
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
	@sh plots/table.sh '$(CSV)' '$(README)'
