# The course's one entry point. `make help` lists the targets.
#
#   make step0 && ./step0 1024     build one step, run it
#   make test                      the Criterion suite (GPU tests skip without a GPU)

NVCC      ?= nvcc
CC        ?= gcc
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(shell command -v $(NVCC) 2>/dev/null))
# The GPU's architecture when one is present (e.g. sm_90 on an H100), else sm_90.
# Override with `make ARCH=sm_86`.
ARCH      ?= $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .' | sed -n 's/^\([0-9][0-9]*\)$$/sm_\1/p')
ifeq ($(strip $(ARCH)),)
override ARCH := sm_90
endif
SM        := $(patsubst sm_%,%,$(ARCH))
GIT_COMMIT ?= $(shell git describe --always --dirty --abbrev=10 2>/dev/null || echo unknown)

CFLAGS    := -std=c11 -O2 -Wall -Wextra -Werror=implicit-function-declaration -I$(CUDA_HOME)/include
NVFLAGS   := -O3 -std=c++17 -lineinfo -gencode arch=compute_$(SM),code=[sm_$(SM),compute_$(SM)] \
             -Xcompiler -Wall,-Wextra -Xptxas -warn-spills,-warn-lmem-usage
LDLIBS    := -L$(CUDA_HOME)/lib64 -lcublas -lcudart

BUILD     := build
HARNESS_SRC := $(wildcard common/*.c)
HARNESS_OBJ := $(patsubst common/%.c,$(BUILD)/common/%.o,$(HARNESS_SRC))
HARNESS_LIB := $(BUILD)/libharness.a

STEP_SRCS := $(sort $(wildcard step[0-9]_*/step[0-9].cu))
STEPS     := $(notdir $(basename $(STEP_SRCS)))

.PHONY: all test clean deps help memcheck sanitize $(STEPS)
all: $(STEPS)

# --- the harness ---------------------------------------------------------------------
# The commit is baked into the CSV rows; the stamp changes only when the commit does.
$(BUILD)/commit.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(GIT_COMMIT)' | cmp -s - $@ || echo '$(GIT_COMMIT)' > $@
FORCE:

$(BUILD)/common/report.o: $(BUILD)/commit.stamp
$(BUILD)/common/report.o: CFLAGS += -DGIT_COMMIT='"$(GIT_COMMIT)"'
$(BUILD)/common/%.o: common/%.c $(wildcard common/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(HARNESS_LIB): $(HARNESS_OBJ)
	ar rcs $@ $^

# --- the steps: `make step3` builds ./step3 from step3_registers/step3.cu --------------
define STEP_RULE
$(1): $(2) $(HARNESS_LIB) common/harness.h
	$(NVCC) $(NVFLAGS) $(2) $(HARNESS_LIB) $(LDLIBS) -o $(1)
endef
$(foreach s,$(STEP_SRCS),$(eval $(call STEP_RULE,$(notdir $(basename $(s))),$(s))))

# --- tests ------------------------------------------------------------------------------
TEST_SRCS := $(wildcard tests/*.c)
$(BUILD)/tests: $(TEST_SRCS) $(wildcard tests/*.h) $(HARNESS_LIB)
	$(CC) $(CFLAGS) -D_GNU_SOURCE -Icommon $(TEST_SRCS) $(HARNESS_LIB) -lcriterion $(LDLIBS) -lm -o $@

test: $(STEPS) $(BUILD)/tests
	./$(BUILD)/tests

# compute-sanitizer on every step at an awkward size (needs a GPU).
SAN_SIZE ?= 129 127 33
memcheck: $(STEPS)
	@for s in $(STEPS); do echo "== $$s: memcheck at $(SAN_SIZE)"; \
	  compute-sanitizer --tool memcheck --error-exitcode 9 ./$$s $(SAN_SIZE) --beta 0.5 --reps 1 --warmup 0 || exit 1; done
sanitize: $(STEPS)
	@for s in $(STEPS); do for t in memcheck racecheck synccheck; do echo "== $$s: $$t at $(SAN_SIZE)"; \
	  compute-sanitizer --tool $$t --error-exitcode 9 ./$$s $(SAN_SIZE) --beta 0.5 --reps 1 --warmup 0 || exit 1; done; done

# --- plots: make plots, make chart, make table, make sweep, make tune (plots/plots.mk) --
-include plots/plots.mk
# --- reading a step: make diff, make sass, make profile (scripts/tools.mk) ------------
-include scripts/tools.mk

# --- housekeeping -----------------------------------------------------------------------
deps:
	@missing=""; \
	  [ -f /usr/include/criterion/criterion.h ] || missing="$$missing libcriterion-dev"; \
	  command -v gnuplot >/dev/null || missing="$$missing gnuplot-nox"; \
	  if [ -z "$$missing" ]; then echo "deps: gnuplot and Criterion are installed"; \
	  elif [ "$$(id -u)" = 0 ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	  else echo "deps: run: sudo apt-get install -y$$missing"; exit 1; fi

clean:
	rm -rf $(BUILD) $(STEPS)

help:
	@echo "make stepN          build ./stepN (steps: $(STEPS))"
	@echo "make / make all     build every step"
	@echo "make test           the Criterion suite (GPU tests skip without a GPU)"
	@echo "make memcheck       compute-sanitizer memcheck on every step at $(SAN_SIZE)"
	@echo "make sanitize       memcheck, racecheck and synccheck on every step"
	@echo "make plots          (GPU) every step at every size: plots/results.csv, then the charts"
	@echo "make chart          the charts from plots/results.csv (no GPU)"
	@echo "make table          the measured tables into README.md and the step READMEs"
	@echo "make sweep          (GPU) step 5 at every --stages S: plots/sweep.csv, its table and chart"
	@echo "make sweep-chart    plots/sweep.{png,svg} from plots/sweep.csv (no GPU)"
	@echo "make tune           (GPU) step 6 built per tile shape (make -j8 tune): plots/tune.csv, its table"
	@echo "make tune-table     the tile-shape table from plots/tune.csv (no GPU)"
	@echo "make diff STEP=N    what step N changed in the kernel file (diff -u from step N-1)"
	@echo "make sass STEP=N    build stepN, dump its SASS to build/stepN.sass, count what matters per kernel"
	@echo "make profile STEP=N [SIZE=4096]   (GPU) Nsight Compute metrics of the step's kernel"
	@echo "make profile-all [SIZE=4096]      (GPU) every step profiled, one table step x metric"
	@echo "make deps           install gnuplot and Criterion (Debian/Ubuntu)"
	@echo "make clean          remove build outputs"
	@echo "ARCH=$(ARCH) (override: make ARCH=sm_86)"
