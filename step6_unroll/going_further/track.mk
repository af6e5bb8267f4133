# track.mk - the going-further track's make targets, included by the Makefile, whose settings
# they share with plots/plots.mk (REPS, RUN_FLAGS, ABLATION_BUILD, ABLATION_SIZES, SHAPES_SEED,
# SHAPES_ONLY, TRACK_CSV, TRACK_SHAPES_CSV). The work is the track's tools.py, beside this file (TRACK_TOOLS, in
# the Makefile), and scripts/course's runs; every CSV goes to plots/, as the course's do.
#
#   make track-ablation / track-table   step 6's core, then each part of its going-further track in
#                                 turn, with and without unrolled stages: plots/track.csv and its
#                                 table (the table alone, no GPU)
#   make track-shapes             the track's last part off and on at the skinny and deep-K shapes:
#                                 plots/track_shapes.csv
#   make plan-costs               the constants of step 6's estimate, measured: plan_costs.h
#   make plan-check [RESUME=1]    step 6's choices against their runners-up: plots/plan_check.csv
#
# make table (plots.mk) writes the tables of track.csv and track_shapes.csv into the track's lesson.

# make track-ablation: what each part of step 6's going-further track is worth, in one run: the
# core, each part added in turn (the last is ./step6 itself), and the whole track with no loop
# unrolled and with every loop unrolled; each at step 6's default stages.
TRACK_RUNS = './step6 --track core' './step6 --track warp-tiles' './step6 --track split-k' \
             './step6 --track wide-tiles' ./step6 './step6 --unroll no' './step6 --unroll yes'
# make track-shapes: the track's last part (the last wave in runs of k-tiles, K in parts) off and
# on, at the shapes it was made for: make shapes' skinny and deep-K families.
TRACK_SHAPES_RUNS = './step6 --track wide-tiles' ./step6

.PHONY: track-ablation track-table track-shapes plan-costs plan-check

track-ablation: $(ABLATION_BUILD)
	@$(COURSE) run '$(TRACK_CSV)' $(TRACK_RUNS) --sizes '$(ABLATION_SIZES)' --reps '$(REPS)' $(RUN_FLAGS)
	@echo; $(TRACK_TOOLS) track-table '$(TRACK_CSV)'

track-table:
	@$(TRACK_TOOLS) track-table '$(TRACK_CSV)'

track-shapes: step6
	@$(COURSE) shapes '$(TRACK_SHAPES_CSV)' $(TRACK_SHAPES_RUNS) --only 'skinny,deep K' --reps '$(REPS)' $(RUN_FLAGS)

# make plan-costs: the constants of step 6's estimate, measured on this GPU into plan_costs.h
# (then make step6 builds them in).
PLAN_COSTS = step6_unroll/going_further/plan_costs.h

plan-costs: step6
	@$(TRACK_TOOLS) plan-costs ./step6 '$(PLAN_COSTS)' --reps '$(REPS)'
	@echo "plan-costs: make step6 builds them in"

# make plan-check: step 6's choice and its runner-up (--plan) at each shape of make shapes (SHAPES_ONLY,
# SHAPES_SEED): how often the choice was the faster, how close the estimates came. The CSV is written after
# each shape; RESUME=1 keeps the rows of a run cut short (same GPU and commit) and measures the rest.
PLAN_CHECK_CSV = plots/plan_check.csv

plan-check: step6
	@$(TRACK_TOOLS) plan-check ./step6 '$(PLAN_CHECK_CSV)' --reps '$(REPS)' --seed '$(SHAPES_SEED)' $(if $(SHAPES_ONLY),--only '$(SHAPES_ONLY)') \
	  $(if $(RESUME),--resume)
