# tools.mk - reading a step, included by the Makefile, which defines the variables they share
# (COURSE, SPILL_ARCHS, the steps', the build's, sm_number, tool_path, need_tool); scripts/course
# does the work.
#
#   make diff STEP=N [CODE=1]       what step N changed: a unified diff of step N-1's and step N's
#                                   kernel file, in which a line that only changed its indentation
#                                   is not a change; CODE=1 leaves the comments of both out
#   make sass STEP=N                build ./stepN, dump its SASS into build/stepN.sass, count per
#                                   kernel FFMA, loads and stores by width, spills, barriers, and the
#                                   FFMA share of the longest loop (no GPU needed); the header names
#                                   the binary, its architecture, the date and the commit
#   make spills [SPILL_ARCHS=...]   every step's device code compiled as `make ARCH=X` compiles it,
#                                   for each architecture X (steps 5 and 6 from sm_80 on): ptxas's
#                                   summary into build/spills/X/stepN.log, one table of them, and
#                                   a failure naming each kernel that spills or uses local memory
#   make profile STEP=N SIZE=4096 [ARGS="--stages 3"]   (GPU) ncu on the first launch of the step's
#                                   kernel (ARGS: more options for the step): the metrics into
#                                   build/profile_stepN_SIZE.txt and the terminal, under a line naming
#                                   the GPU, the date and the commit
#   make profile-all SIZE=4096      every step, then one table (step x metric), under the same line

SIZE      ?= 4096
# On PATH, in the toolkit, or (cuobjdump) where `make deps` put it: tool_path, in the Makefile;
# need_tool (there too) stops with the hint when one is missing.
NCU       ?= $(call tool_path,ncu)
CUOBJDUMP ?= $(call tool_path,cuobjdump)
NCU_HINT  := Nsight Compute (ncu) comes with the CUDA toolkit or as the nsight-compute package; run on the GPU machine or pass NCU=path
CUOBJDUMP_HINT := make deps installs it, with nvdisasm, from PyPI (nvidia-cuda-cuobjdump)

# Shell code that stops, saying how, unless STEP names one step that exists.
need_step = @if [ -z '$(and $(filter 1,$(words $(STEP))),$(filter step$(STEP),$(STEPS)))' ]; then \
  echo "$(1): STEP='$(STEP)' is not a step: make $(1) STEP=N, N one of: $(patsubst step%,%,$(STEPS))" >&2; exit 2; fi

.PHONY: diff sass spills profile profile-all unroll-profile exercise exercise-check exercise-mistakes exercise-solution

diff:
	$(call need_step,diff)
	@$(COURSE) diff '$(STEP)' $(if $(filter-out 0,$(CODE)),--code)

# make sass STEP=further: the going-further track's kernels, ./further's.
SASS_OF = $(if $(filter further,$(STEP)),further,step$(STEP))
sass:
ifneq ($(STEP),further)
	$(call need_step,sass)
endif
	$(call need_tool,$(CUOBJDUMP),sass,$(CUOBJDUMP_HINT))
	@$(MAKE) --no-print-directory $(SASS_OF)
	@$(CUOBJDUMP) --dump-sass ./$(SASS_OF) > $(BUILD)/$(SASS_OF).sass
	@$(COURSE) sass $(BUILD)/$(SASS_OF).sass --binary ./$(SASS_OF)

ifneq ($(filter spills,$(MAKECMDGOALS)),)
SPILL_BAD := $(foreach a,$(SPILL_ARCHS),$(if $(and $(call sm_number,$(a)),$(filter sm_$(call sm_number,$(a)),$(a))),,$(a)))
ifneq ($(strip $(SPILL_BAD)),)
$(error spills: SPILL_ARCHS holds '$(strip $(SPILL_BAD))': each must be sm_ and a number, e.g. sm_86)
endif
endif
# The logs of architecture $(1): every step it builds, and the track (cp.async ones from sm_80 on).
spill_logs = $(foreach s,$(STEP_SRCS) $(TRACK_SRC),$(if $(and $(filter $(notdir $(basename $(s))),$(CP_ASYNC_STEPS)),\
  $(shell [ '$(call sm_number,$(1))' -lt 80 ] && echo old)),,$(BUILD)/spills/$(1)/$(notdir $(basename $(s))).log))
SPILL_LOGS := $(foreach a,$(SPILL_ARCHS),$(call spill_logs,$(a)))
# The track, the long build, first for every architecture, so that make -j2 keeps both busy.
SPILL_ORDER := $(filter %/further.log,$(SPILL_LOGS)) $(filter-out %/further.log,$(SPILL_LOGS))
# Device code only (-cubin), with the build's flags and -Xptxas -v: one log per step and architecture.
define SPILL_RULE
$(BUILD)/spills/$(1)/$(notdir $(basename $(2))).log: $(2) $(call step_files,$(2),*.cuh) $(call step_files,$(2),*.h) common/harness.h \
  $(if $(filter $(TRACK_SRC),$(2)),step6_unroll/step6.cu) $(BUILD)/nvcommon.stamp
	@mkdir -p $$(dir $$@)
	@echo "spills: $(notdir $(basename $(2))) for $(1)"
	@cd $(dir $(2)) && $(NVCC) $(NVCOMMON) -Xptxas -v -gencode arch=compute_$(call sm_number,$(1)),code=$(1) -cubin \
	  -o $(CURDIR)/$$(basename $$@).cubin $(notdir $(2)) > $(CURDIR)/$$@.tmp 2>&1 || { cat $(CURDIR)/$$@.tmp >&2; exit 1; }
	@mv $$@.tmp $$@
endef
$(foreach a,$(SPILL_ARCHS),$(foreach s,$(STEP_SRCS) $(TRACK_SRC),$(eval $(call SPILL_RULE,$(a),$(s)))))

spills: $(SPILL_ORDER)
	@$(COURSE) spills $(SPILL_LOGS)

profile:
	$(call need_step,profile)
	$(call need_tool,$(NCU),profile,$(NCU_HINT))
	@$(MAKE) --no-print-directory step$(STEP)
	@$(COURSE) profile ./step$(STEP) '$(SIZE)' $(BUILD)/profile_step$(STEP)_$(SIZE) --ncu '$(NCU)' --args='$(ARGS)'

# make unroll-profile: the Nsight Compute figures step 6's lesson cites: step 5 at 2 and 3 stages,
# step 6 at 2 (step 5's loop) and 3 (unrolled, and with step 5's loop) and unrolled at 2 and 4
# stages, at 1024 and 4096, into step6_unroll/evidence/unroll_profile.txt (GPU, commit and date
# inside).
UNROLL_PROFILE = step6_unroll/evidence/unroll_profile.txt
# (FORCED_UNROLL_RUNS: the runs of make ablation that force step 6's unrolling, in the Makefile.)
UNROLL_PROFILE_RUNS = './step5 --stages 2' './step5 --stages 3' './step6 --stages 2' './step6 --stages 3' $(FORCED_UNROLL_RUNS)
unroll-profile: step5 step6
	$(call need_tool,$(NCU),unroll-profile,$(NCU_HINT))
	@mkdir -p $(dir $(UNROLL_PROFILE))
	@$(COURSE) profile-runs '$(UNROLL_PROFILE)' $(UNROLL_PROFILE_RUNS) --sizes '1024 4096' --ncu '$(NCU)'

profile-all:
	$(call need_tool,$(NCU),profile-all,$(NCU_HINT))
	@$(MAKE) --no-print-directory $(BUILT_STEPS)
	@for s in $(BUILT_STEPS); do \
	  $(COURSE) profile ./$$s '$(SIZE)' $(BUILD)/profile_$${s}_$(SIZE) --ncu '$(NCU)' || exit 1; echo; done
	@echo "profile-all: every step at M = N = K = $(SIZE), the first launch of its kernel:"; echo
	@$(COURSE) profile-table $(foreach s,$(BUILT_STEPS),$(BUILD)/profile_$(s)_$(SIZE).ncu.csv) | tee $(BUILD)/profile_all_$(SIZE).txt

# --- doing a step: make exercise, exercise-check, exercise-solution (scripts/course/exercise.py) ---
# The exercise of step N is its source with the regions its comments mark taken out: a TODO and an
# #error each, so that it builds only once every TODO is written. exercises/ is the learner's, and
# ignored by git; FORCE=1 writes an exercise over one there already.
EXERCISES = exercises
EXERCISE_BIN = $(BUILD)/exercises/step$(STEP)
exercise:
	$(call need_step,exercise)
	@$(COURSE) exercise '$(STEP)' --out '$(EXERCISES)' $(if $(filter-out 0,$(FORCE)),--force)

exercise-check:
	$(call need_step,exercise-check)
	@test -f '$(EXERCISES)/step$(STEP).cu' || \
	  { echo "exercise-check: there is no $(EXERCISES)/step$(STEP).cu: make exercise STEP=$(STEP) writes it" >&2; exit 2; }
	@$(MAKE) --no-print-directory step$(STEP) $(HARNESS_LIB)
	@mkdir -p $(BUILD)/exercises
	$(NVCC) $(NVFLAGS) -c '$(EXERCISES)/step$(STEP).cu' -o $(EXERCISE_BIN).o
	$(NVCC) $(EXERCISE_BIN).o $(call step_c_objs,$(wildcard step$(STEP)_*/step$(STEP).cu)) $(HARNESS_LIB) $(LDLIBS) -o $(EXERCISE_BIN)
	@$(COURSE) exercise-check '$(STEP)' '$(EXERCISE_BIN)' ./step$(STEP) --source '$(EXERCISES)/step$(STEP).cu'

# make exercise-mistakes STEP=N: the check of the check. Each typical mistake of step N's exercise
# (tests/data/exercise_mistakes.tsv) is made in the exercise with the step's lines written, built,
# and must be caught by exercise-check (GPU needed); the GPU suite runs the same for every step.
EXERCISE_MISTAKES = tests/data/exercise_mistakes.tsv
exercise-mistakes:
	$(call need_step,exercise-mistakes)
	@$(MAKE) --no-print-directory step$(STEP) $(HARNESS_LIB) $(call step_c_objs,$(wildcard step$(STEP)_*/step$(STEP).cu))
	@$(COURSE) exercise-mistakes '$(STEP)' '$(EXERCISE_MISTAKES)' ./step$(STEP) --objs '$(BUILD)' \
	  --out '$(BUILD)/mistakes' --build '$(NVCC) $(NVFLAGS) {src} {objs} $(HARNESS_LIB) $(LDLIBS) -o {out}'

exercise-solution:
	$(call need_step,exercise-solution)
	@diff -u '$(EXERCISES)/step$(STEP).cu' $(wildcard step$(STEP)_*/step$(STEP).cu) || true
