# track.mk - the going-further track's make targets, included by the Makefile, whose settings
# they share with plots/plots.mk (REPS, RUN_FLAGS, ABLATION_SIZES, SHAPES_SEED, SHAPES_ONLY,
# TRACK_CSV, TRACK_SHAPES_CSV). The work is the track's tools.py, beside this file (TRACK_TOOLS, in
# the Makefile), and scripts/course's runs; every CSV goes to plots/, as the course's do.
#
#   make track-ablation / track-table   step 6, then each part of the going-further track in turn
#                                 (./further --part PART: the track's program, `make further`), with
#                                 and without unrolled stages: plots/track.csv and its table (the
#                                 table alone, no GPU)
#   make track-shapes             the track's last part off and on at the skinny and deep-K shapes:
#                                 plots/track_shapes.csv
#   make plan-costs               the constants of the track's estimate, measured: plan_costs.h
#   make plan-check [RESUME=1]    the plan's choices against their runners-up: plots/plan_check.csv
#   make estimate-chart           the plan's estimate against the measured time at each shape of
#                                 plots/shapes.csv (SHAPES_CSV): plots/estimate.png and .svg, no GPU
#                                 (make shapes and make shapes-chart draw it too)
#
# make table (plots.mk) writes the tables of track.csv and track_shapes.csv into the track's lesson.

# make track-ablation: what each part of the going-further track is worth, in one run: step 6 as it
# is (the track's start, the "before" of its first chapter), each part added in turn (the last is
# ./further itself), and the whole track with no loop unrolled and with every loop unrolled;
# each at the default stages.
TRACK_BUILD = step6 further
TRACK_RUNS = ./step6 './further --part warp-tiles' './further --part split-k' \
             './further --part wide-tiles' './further --part stream-k' ./further \
             './further --unroll no' './further --unroll yes'
# make track-shapes: the track's last part (the last wave in runs of k-tiles, K in parts) off and
# on, at the shapes it was made for: make shapes' skinny and deep-K families.
TRACK_SHAPES_RUNS = './further --part stream-k' ./further

.PHONY: track-ablation track-table track-shapes plan-costs plan-check estimate-chart

track-ablation: $(TRACK_BUILD)
	@$(COURSE) run '$(TRACK_CSV)' $(TRACK_RUNS) --sizes '$(ABLATION_SIZES)' --reps '$(REPS)' $(RUN_FLAGS)
	@echo; $(TRACK_TOOLS) track-table '$(TRACK_CSV)'

track-table:
	@$(TRACK_TOOLS) track-table '$(TRACK_CSV)'

track-shapes: further
	@$(COURSE) shapes '$(TRACK_SHAPES_CSV)' $(TRACK_SHAPES_RUNS) --only 'skinny,deep K' --reps '$(REPS)' $(RUN_FLAGS)

# make plan-costs: the constants of the track's estimate, measured on this GPU into plan_costs.h
# (then make further builds them in).
PLAN_COSTS = going_further/plan_costs.h

plan-costs: further
	@$(TRACK_TOOLS) plan-costs ./further '$(PLAN_COSTS)' --reps '$(REPS)'
	@echo "plan-costs: make further builds them in"

# make plan-check: the plan's choice and its runner-up (--plan) at each shape of make shapes (SHAPES_ONLY,
# SHAPES_SEED): how often the choice was the faster, how close the estimates came. The CSV is written after
# each shape; RESUME=1 keeps the rows of a run cut short (same GPU and commit) and measures the rest.
PLAN_CHECK_CSV = plots/plan_check.csv

plan-check: further
	@$(TRACK_TOOLS) plan-check ./further '$(PLAN_CHECK_CSV)' --reps '$(REPS)' --seed '$(SHAPES_SEED)' $(if $(SHAPES_ONLY),--only '$(SHAPES_ONLY)') \
	  $(if $(RESUME),--resume)

# make estimate-chart: one point a shape of make shapes, the plan's estimate against the time measured.
# make shapes and make shapes-chart run ESTIMATE_CHART --optional: a CSV without the track gets a note.
ESTIMATE_CHART = $(TRACK_TOOLS) estimate-chart '$(SHAPES_CSV)' '$(OUT)' --gnuplot '$(GNUPLOT)' \
                 $(if $(CHART_DATA),--keep-data '$(CHART_DATA)')

estimate-chart: need-gnuplot
	@$(ESTIMATE_CHART)
