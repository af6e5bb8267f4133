# tools.mk - reading a step: its diff and its SASS (no GPU needed), its profile (on the GPU
# machine, with Nsight Compute). Included by the Makefile.
#
#   make diff STEP=N                what step N changed: diff -u of step N-1's and step N's kernel file
#   make sass STEP=N                build ./stepN, dump its SASS into build/stepN.sass, count per kernel
#                                   FFMA, loads and stores by width, spills, barriers, and the FFMA
#                                   share of the longest loop
#   make profile STEP=N SIZE=4096   ncu on the first launch of the step's kernel; the metrics into
#                                   build/profile_stepN_SIZE.txt and the terminal
#   make profile-all SIZE=4096      every step, then one table (step x metric)

SIZE      ?= 4096
# On PATH, in the toolkit, or (cuobjdump) where `make deps` put it: tool_path, in the Makefile.
NCU       ?= $(call tool_path,ncu)
CUOBJDUMP ?= $(call tool_path,cuobjdump)

# Shell code that stops, saying how, unless STEP names one step that exists.
need_step = @if [ -z '$(and $(filter 1,$(words $(STEP))),$(filter step$(STEP),$(STEPS)))' ]; then \
  echo "$(1): STEP='$(STEP)' is not a step: make $(1) STEP=N, N one of: $(patsubst step%,%,$(STEPS))" >&2; exit 2; fi

.PHONY: diff sass profile profile-all

diff:
	@sh scripts/step_diff.sh '$(STEP)'

sass:
	$(call need_step,sass)
	@$(MAKE) --no-print-directory step$(STEP)
	@CUOBJDUMP='$(CUOBJDUMP)' sh scripts/sass.sh ./step$(STEP) $(BUILD)/step$(STEP).sass

profile:
	$(call need_step,profile)
	@NCU='$(NCU)' sh scripts/profile.sh check
	@$(MAKE) --no-print-directory step$(STEP)
	@NCU='$(NCU)' sh scripts/profile.sh run ./step$(STEP) '$(SIZE)' $(BUILD)/profile_step$(STEP)_$(SIZE)

profile-all:
	@NCU='$(NCU)' sh scripts/profile.sh check
	@$(MAKE) --no-print-directory $(BUILT_STEPS)
	@for s in $(BUILT_STEPS); do \
	  NCU='$(NCU)' sh scripts/profile.sh run ./$$s '$(SIZE)' $(BUILD)/profile_$${s}_$(SIZE) || exit 1; echo; done
	@echo "profile-all: every step at M = N = K = $(SIZE), the first launch of its kernel:"; echo
	@sh scripts/profile.sh table $(foreach s,$(BUILT_STEPS),$(BUILD)/profile_$(s)_$(SIZE).ncu.csv) | tee $(BUILD)/profile_all_$(SIZE).txt
