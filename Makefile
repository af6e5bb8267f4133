# The course's one entry point. `make help` lists the targets.
#
#   make step0 && ./step0 1024     build one step, run it
#   make test                      the Criterion suite (GPU tests skip without a GPU)

NVCC      ?= nvcc
# make's built-in CC is cc: gcc unless CC is set on the command line or in the environment.
ifeq ($(origin CC),default)
CC        := gcc
endif
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC) 2>/dev/null))
# The GPU's architecture when one is present (e.g. sm_90 on an H100), else sm_90.
# Override with `make ARCH=sm_86`.
ARCH      ?= $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .' | sed -n 's/^\([0-9][0-9]*\)$$/sm_\1/p')
ifeq ($(strip $(ARCH)),)
override ARCH := sm_90
endif
SM        := $(patsubst sm_%,%,$(ARCH))
# The architectures a learner may build for: Turing (steps 0-4), Ampere, Ada, Hopper, Blackwell
# (make spills compiles every step for each).
SPILL_ARCHS ?= sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120
GIT_COMMIT ?= $(shell git describe --always --dirty --abbrev=10 2>/dev/null || echo unknown)
# Asked once, when make starts: the commit stamp and the binaries then name the same tree, even
# if a file is edited while a long build runs.
GIT_COMMIT := $(GIT_COMMIT)

CFLAGS    := -std=c11 -O2 -Wall -Wextra -Werror=implicit-function-declaration -I$(CUDA_HOME)/include
# NVCOMMON: what every build of a step's code uses (make spills too); NVFLAGS adds ARCH. A
# program's step_info names only the fields it sets (designated initializers), the others zero:
# gcc before 13 warns of that in C++ (-Wmissing-field-initializers), which says nothing here.
NVCOMMON  := -O3 -std=c++17 -lineinfo -Xcompiler -Wall,-Wextra,-Wno-missing-field-initializers \
             -Xptxas -warn-spills,-warn-lmem-usage
NVFLAGS   := $(NVCOMMON) -gencode arch=compute_$(SM),code=[sm_$(SM),compute_$(SM)]
LDLIBS    := -L$(CUDA_HOME)/lib64 -lcublas -lcudart -ldl -lpthread

BUILD     := build
HARNESS_SRC := $(wildcard common/*.c)
HARNESS_OBJ := $(patsubst common/%.c,$(BUILD)/common/%.o,$(HARNESS_SRC))
HARNESS_LIB := $(BUILD)/libharness.a

STEP_SRCS := $(sort $(wildcard step[0-9]_*/step[0-9].cu))
STEPS     := $(notdir $(basename $(STEP_SRCS)))
# The going-further track, a program of its own after step 6, built on step6.cu: `make further`
# builds ./further from going_further/further.cu (a binary cannot share its folder's name).
# BUILT_STEPS below counts it among the programs every target builds and runs.
TRACK_SRC := going_further/further.cu
TRACK     := $(notdir $(basename $(TRACK_SRC)))
# Steps 5 and 6 and the track copy with cp.async, which needs compute capability 8.0 (sm_80) or
# newer: for an older ARCH they are left out of `make all`, `make test` and `make plots`.
CP_ASYNC_STEPS := step5 step6 further
# The number of an architecture (sm_86: 86); make spills (scripts/tools.mk) uses it too.
sm_number = $(shell echo '$(1)' | tr -cd 0-9)
SM_NUMBER := $(call sm_number,$(SM))
ifeq ($(shell [ '$(SM_NUMBER)' -ge 80 ] 2>/dev/null && echo yes),yes)
LEFT_OUT  :=
else
LEFT_OUT  := $(filter $(CP_ASYNC_STEPS),$(STEPS) $(TRACK))
endif
# The programs built for ARCH: the steps, then the track.
BUILT_STEPS := $(filter-out $(LEFT_OUT),$(STEPS) $(TRACK))

# Tools of the toolkit, found on PATH or in $(CUDA_HOME)/bin; cuobjdump and nvdisasm may
# instead come from PyPI into $(DEPS_DIR) (`make deps`), for toolkits that ship without them.
DEPS_DIR   := .deps
PIP_BIN    := $(DEPS_DIR)/python/nvidia/cu13/bin
DISASM_VERSION ?= 13.2.86
tool_path = $(or $(shell command -v $(1) 2>/dev/null),$(wildcard $(CUDA_HOME)/bin/$(1)),$(wildcard $(PIP_BIN)/$(1)),$(1))
COMPUTE_SANITIZER ?= $(call tool_path,compute-sanitizer)
# Shared by plots/plots.mk, scripts/tools.mk and the going-further track's track.mk: gnuplot draws
# the charts, and the course's tooling (scripts/course/, Python's standard library) does their work,
# the track's own tools (going_further/tools.py) the track's.
GNUPLOT   ?= gnuplot
COURSE    := python3 scripts/course
TRACK_TOOLS := python3 going_further/tools.py
# What more than one of them uses: each run's repetitions and options (RUN_ARGS: more options for
# every run), the ablation's sizes (make ablation, make track-ablation) and binaries, make shapes'
# seed and families (make shapes, make plan-check), the track's CSVs (its targets make them, make
# table reads them), and the runs that force step 6's unrolling (make ablation, make
# unroll-profile).
REPS      ?= 10
RUN_TIMEOUT ?= 900
RUN_FLAGS  = --timeout '$(RUN_TIMEOUT)' --extra='$(RUN_ARGS)'
ABLATION_SIZES ?= 256 512 1024 2048 4096 8192
ABLATION_BUILD = step5 step6
SHAPES_SEED ?= 1
SHAPES_ONLY ?=
TRACK_CSV  = plots/track.csv
TRACK_SHAPES_CSV = plots/track_shapes.csv
FORCED_UNROLL_RUNS = './step6 --stages 3 --unroll no' './step6 --stages 2 --unroll yes' './step6 --stages 4 --unroll yes'
# Stops, saying what is missing and where it comes from, unless tool $(1) can be run.
need_tool = @command -v '$(1)' >/dev/null 2>&1 || { echo "$(2): $(1) is not installed here: $(3)" >&2; exit 2; }

.PHONY: all test clean deps help memcheck sanitize FORCE
all: $(BUILT_STEPS) fma_peak left-out

# Binaries of the left-out steps from an earlier build for another ARCH would be run by
# `make test` and `make plots`: remove them, saying why.
.PHONY: left-out
left-out:
ifneq ($(LEFT_OUT),)
	@echo "ARCH=$(ARCH) is older than sm_80: $(LEFT_OUT) need compute capability 8.0 (cp.async) and are not built"
	@rm -f $(LEFT_OUT)
endif

# --- what a build depends on besides its sources ------------------------------------------
# The commit (baked into the CSV rows) and the compiler flags, each in a stamp file that is
# rewritten only when it changes: a second `make` compiles nothing, a new ARCH recompiles.
stamp = @mkdir -p $(BUILD); echo '$(1)' | cmp -s - $@ || echo '$(1)' > $@
FORCE:
$(BUILD)/commit.stamp: FORCE
	$(call stamp,$(GIT_COMMIT))
$(BUILD)/cflags.stamp: FORCE
	$(call stamp,$(CC) $(CFLAGS))
$(BUILD)/nvflags.stamp: FORCE
	$(call stamp,$(NVCC) $(NVFLAGS))
$(BUILD)/nvcommon.stamp: FORCE
	$(call stamp,$(NVCC) $(NVCOMMON))

# --- the harness ---------------------------------------------------------------------
# device.o knows the architecture the steps are built for, to refuse a GPU that cannot run it.
$(BUILD)/common/device.o: $(BUILD)/nvflags.stamp
$(BUILD)/common/device.o: CFLAGS += -DBUILT_SM=$(SM_NUMBER)
$(BUILD)/common/args.o: $(BUILD)/commit.stamp
$(BUILD)/common/args.o: CFLAGS += -DGIT_COMMIT='"$(GIT_COMMIT)"'
$(BUILD)/common/%.o: common/%.c $(wildcard common/*.h) $(BUILD)/cflags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(HARNESS_LIB): $(HARNESS_OBJ)
	ar rcs $@ $^

# --- the steps: `make step3` builds ./step3 from step3_registers/step3.cu --------------
# (and `make further` ./further from going_further/further.cu)
# The kernel file is compiled once; a change in the harness only relinks. A program's folder
# may hold more beside it: headers the kernel file includes (*.cuh, *.h) and plain C (the
# track's launch plan, *.c), compiled and linked with it. The plan's measured costs
# (plan_costs.h) are read by its C alone: new ones from make plan-costs recompile the plan
# and relink, not the kernels.
step_files = $(wildcard $(addprefix $(dir $(1)),$(2) */$(2)))
step_c_objs = $(patsubst %.c,$(BUILD)/%.o,$(call step_files,$(1),*.c))
define STEP_RULE
$(BUILD)/$(1).o: $(2) $(call step_files,$(2),*.cuh) $(filter-out %/plan_costs.h,$(call step_files,$(2),*.h)) common/harness.h \
  $(BUILD)/nvflags.stamp
	@mkdir -p $(BUILD)
	$(NVCC) $(NVFLAGS) -c $(2) -o $$@
$(1): $(BUILD)/$(1).o $(call step_c_objs,$(2)) $(HARNESS_LIB)
	$(NVCC) $$< $(call step_c_objs,$(2)) $(HARNESS_LIB) $(LDLIBS) -o $$@
endef
$(BUILD)/going_further/%.o: going_further/%.c $(wildcard going_further/*.h) common/fit.h $(BUILD)/cflags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(foreach s,$(STEP_SRCS) $(TRACK_SRC),$(if $(filter $(notdir $(basename $(s))),$(LEFT_OUT)),,\
  $(eval $(call STEP_RULE,$(notdir $(basename $(s))),$(s)))))
# The track includes step6.cu whole.
$(BUILD)/further.o: step6_unroll/step6.cu
ifneq ($(LEFT_OUT),)
.PHONY: $(LEFT_OUT)
$(LEFT_OUT):
	@echo "$@: needs compute capability 8.0 or newer (cp.async), and ARCH=$(ARCH) is older: build it with ARCH=sm_80 or later" >&2; exit 2
endif

# --- the FP32 FMA ceiling (peak/fma_peak.cu): not a step; make plots measures it first ---
fma_peak: $(BUILD)/fma_peak.o $(HARNESS_LIB)
	$(NVCC) $< $(HARNESS_LIB) $(LDLIBS) -o $@
$(BUILD)/fma_peak.o: peak/fma_peak.cu $(wildcard common/*.h) $(BUILD)/nvflags.stamp
	@mkdir -p $(BUILD)
	$(NVCC) $(NVFLAGS) -c $< -o $@

# --- tests ------------------------------------------------------------------------------
# The tests link the track's launch plan, to check it without a GPU and to know, with one,
# which kernel ./further must pick (BUILT_SM: the architecture the steps' code is built for).
TEST_SRCS := $(wildcard tests/*.c)
PLAN_SRC  := going_further/plan.c
$(BUILD)/tests: $(TEST_SRCS) $(wildcard tests/*.h) $(PLAN_SRC) $(wildcard going_further/*.h) $(HARNESS_LIB) $(BUILD)/nvflags.stamp
	@$(MAKE) --no-print-directory need-criterion
	$(CC) $(CFLAGS) -D_GNU_SOURCE -DBUILT_SM=$(SM_NUMBER) -Icommon $(addprefix -I,$(dir $(PLAN_SRC))) $(TEST_SRCS) \
	  $(PLAN_SRC) $(HARNESS_LIB) -lcriterion $(LDLIBS) -lm -o $@

# What the suite needs besides the steps, installed when missing (need-*, below): Criterion,
# gnuplot (the chart tests), the disassembler (the SASS tests) and rsvg-convert (the figure tests).
test: need-criterion need-gnuplot need-disassembler need-rsvg $(BUILT_STEPS) fma_peak left-out $(BUILD)/tests
	./$(BUILD)/tests

# compute-sanitizer on every step at an awkward size (needs a GPU); memcheck also counts device
# memory left allocated at exit.
SAN_SIZE ?= 129 127 33
SAN_HINT := it ships with the CUDA toolkit ($(CUDA_HOME)/bin), and needs a GPU to run
memcheck: $(BUILT_STEPS)
	$(call need_tool,$(COMPUTE_SANITIZER),memcheck,$(SAN_HINT))
	@for s in $(BUILT_STEPS); do echo "== $$s: memcheck at $(SAN_SIZE)"; \
	  '$(COMPUTE_SANITIZER)' --tool memcheck --leak-check full --error-exitcode 9 \
	    ./$$s $(SAN_SIZE) --beta 0.5 --reps 1 --warmup 0 || exit 1; done
sanitize: $(BUILT_STEPS)
	$(call need_tool,$(COMPUTE_SANITIZER),sanitize,$(SAN_HINT))
	@for s in $(BUILT_STEPS); do for t in memcheck racecheck synccheck; do echo "== $$s: $$t at $(SAN_SIZE)"; \
	  '$(COMPUTE_SANITIZER)' --tool $$t $$([ $$t = memcheck ] && echo --leak-check full) --error-exitcode 9 \
	    ./$$s $(SAN_SIZE) --beta 0.5 --reps 1 --warmup 0 || exit 1; done; done

# --- plots: make plots, make chart, make table, make sweep, make ablation (plots/plots.mk)
include plots/plots.mk
# --- the going-further track: make track-ablation, make track-shapes, make plan-costs, make plan-check
# (going_further/track.mk, beside the track)
include going_further/track.mk
# --- reading a step: make diff, make sass, make spills, make profile (scripts/tools.mk)
include scripts/tools.mk

# --- figures: each lesson's picture, drawn from what ./step1 .. ./step6 and ./further --describe say (no GPU):
# scripts/figures.py writes the SVG, rsvg-convert renders its PNG. FIGURES_OUT=dir writes the
# lesson folders there.
FIGURE_STEPS := $(filter step1 step2 step3 step4 step5 step6 further,$(BUILT_STEPS))
.PHONY: figures
figures: need-rsvg $(FIGURE_STEPS) left-out
	python3 scripts/figures.py $(if $(FIGURES_OUT),--out '$(FIGURES_OUT)')

# --- housekeeping -----------------------------------------------------------------------
# What the targets need, installed when missing: Criterion (make test), gnuplot (make chart,
# make plots) and rsvg-convert (make figures) from apt where we are root, else one line with the
# command to run; cuobjdump and nvdisasm (the SASS tests, make sass) from PyPI into $(DEPS_DIR)
# when the toolkit has none (pip --target: nothing outside this folder changes). make deps: all four.
.PHONY: need-criterion need-gnuplot need-disassembler need-rsvg
APT_GET ?= apt-get
apt_install = if [ "$$(id -u)" = 0 ] && command -v $(APT_GET) >/dev/null; then \
	  echo "$(1): installing $(2) (apt-get install $(3))"; \
	  ($(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq $(3) >/dev/null) || \
	  { echo "$(1): apt-get could not install $(3): run: sudo apt-get install -y $(3)" >&2; exit 2; }; \
	else echo "$(1): $(2) is not installed: run: sudo apt-get install -y $(3) (or make deps as root)" >&2; exit 2; fi
need-criterion:
	@printf '#include <criterion/criterion.h>\n' | $(CC) $(CFLAGS) -E -x c - >/dev/null 2>&1 || \
	  { $(call apt_install,test,Criterion,libcriterion-dev); }
need-gnuplot:
	@command -v $(GNUPLOT) >/dev/null 2>&1 || { $(call apt_install,chart,gnuplot,gnuplot-nox); }
# rsvg-convert renders the figures' PNGs from their SVGs (make figures), in the font they name.
need-rsvg:
	@command -v rsvg-convert >/dev/null 2>&1 || { $(call apt_install,figures,rsvg-convert,librsvg2-bin fonts-dejavu-core); }
need-disassembler:
	@if [ -x '$(call tool_path,cuobjdump)' ] && [ -x '$(call tool_path,nvdisasm)' ]; then :; else \
	  echo "deps: this CUDA toolkit has no cuobjdump or nvdisasm: installing them from PyPI into $(DEPS_DIR)/python"; \
	  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target $(DEPS_DIR)/python \
	    nvidia-cuda-cuobjdump==$(DISASM_VERSION) nvidia-cuda-nvdisasm==$(DISASM_VERSION) && \
	  [ -x $(PIP_BIN)/cuobjdump ] && [ -x $(PIP_BIN)/nvdisasm ] || \
	  { echo "deps: cuobjdump and nvdisasm could not be installed: run: python3 -m pip install --target $(DEPS_DIR)/python nvidia-cuda-cuobjdump==$(DISASM_VERSION) nvidia-cuda-nvdisasm==$(DISASM_VERSION)" >&2; exit 2; }; \
	fi

deps: need-criterion need-gnuplot need-disassembler need-rsvg
	@echo "deps: Criterion, gnuplot, rsvg-convert, cuobjdump and nvdisasm are installed"

clean:
	rm -rf $(BUILD) $(STEPS) further fma_peak
# `make clean` keeps $(DEPS_DIR): it holds tools, not build outputs.

help:
	@echo "make stepN          build ./stepN (steps: $(STEPS))"
	@echo "make further        build ./further, the going-further track (going_further/README.md)"
	@echo "make / make all     build every step and the track"
	@echo "make test           the Criterion suite (GPU tests skip without a GPU)"
	@echo "make memcheck       compute-sanitizer memcheck on every step at $(SAN_SIZE)"
	@echo "make sanitize       memcheck, racecheck and synccheck on every step"
	@echo "make plots          (GPU) every step at every size (plots/results.csv), the sweep, the ablation and the track in the same run, then the charts"
	@echo "make chart          the charts from plots/results.csv and plots/peak.csv (no GPU)"
	@echo "make figures        each lesson's figure (.svg, .png) from the steps' --describe (no GPU)"
	@echo "make table          the measured tables into docs/measurements.md and the lessons"
	@echo "make sweep          (GPU) step 5 at every --stages S: plots/sweep.csv, its table and chart"
	@echo "make sweep-chart    plots/sweep.{png,svg} from plots/sweep.csv (no GPU)"
	@echo "make ablation       (GPU) step 6 against step 5 at every stage count: plots/ablation.csv, its table"
	@echo "make ablation-table the table from plots/ablation.csv (no GPU)"
	@echo "make track-ablation (GPU) step 6, then ./further part by part (the going-further track): plots/track.csv"
	@echo "make track-table    the table from plots/track.csv (no GPU)"
	@echo "make track-shapes   (GPU) the track's last part off and on at skinny and deep-K shapes: plots/track_shapes.csv"
	@echo "make plan-costs     (GPU) the costs of the track's estimated plan, measured: going_further/plan_costs.h (then make further)"
	@echo "make plan-check     (GPU) the track's choice and its runner-up (--plan) at every shape of make shapes: plots/plan_check.csv"
	@echo "make shapes         (GPU) step 5 and the track at every square 128..8192 by 128, skinny, deep-K, layer, small-K,"
	@echo "                    matrix-vector, tall-and-thin, tiny-C and prime shapes and 100 random ones (SHAPES_SEED=1):"
	@echo "                    plots/shapes.csv, its summary, plots/shapes{,_nonsquare,_random}.{png,svg}"
	@echo "make shapes-chart   the charts from plots/shapes.csv (no GPU)"
	@echo "make estimate-chart the track's estimated against measured time at each shape of plots/shapes.csv (no GPU)"
	@echo "make shapes-summary from plots/shapes.csv, each step's geometric mean and minimum ratio to cuBLAS by family,"
	@echo "                    and the track's estimate over its measured time (no GPU)"
	@echo "make diff STEP=N    what step N changed in the kernel file (diff -u from step N-1, indentation alone is no change);"
	@echo "                    CODE=1: code only, no comments"
	@echo "make exercise STEP=N  step N with the lines of its idea taken out: exercises/stepN.cu (FORCE=1 writes"
	@echo "                    over yours); make exercise-check STEP=N checks yours at awkward shapes and against"
	@echo "                    the step's speed; make exercise-solution STEP=N shows the step's own lines;"
	@echo "                    make exercise-mistakes STEP=N checks the check on the step's typical mistakes (GPU)"
	@echo "make sass STEP=N    build stepN, dump its SASS to build/stepN.sass, count what matters per kernel"
	@echo "                    (STEP=further: the going-further track's kernels)"
	@echo "make spills         every step compiled for each of $(SPILL_ARCHS): fails if a kernel spills"
	@echo "                    or uses local memory (make -j2 spills: two at a time)"
	@echo "make profile STEP=N [SIZE=4096] [ARGS=\"--stages 3\"]   (GPU) Nsight Compute metrics of the step's kernel"
	@echo "make profile-all [SIZE=4096]      (GPU) every step profiled, one table step x metric"
	@echo "make unroll-profile (GPU) the Nsight Compute figures step 6's lesson cites: step6_unroll/evidence/unroll_profile.txt"
	@echo "make deps           install gnuplot, Criterion and rsvg-convert (Debian/Ubuntu), and cuobjdump and nvdisasm"
	@echo "                    (PyPI, into $(DEPS_DIR)/) when the CUDA toolkit lacks them"
	@echo "make clean          remove build outputs"
	@echo "ARCH=$(ARCH) (override: make ARCH=sm_86)$(if $(LEFT_OUT),; $(LEFT_OUT) need sm_80 or newer and are left out)"
