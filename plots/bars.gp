# bars.gp - what the bar charts share (progression.gp, peak.gp): a bar a step at one size, on
# style.gp's look; each chart loads it first, then sets its own title, y axis and labels.
load plotdir."/style.gp"

set xrange [-0.6:nsteps - 0.4]
set xtics scale 0
set bmargin 5
set boxwidth 0.62
set style fill solid 0.85 noborder
set key top left
