"""drawing - what the course's figures are drawn with (scripts/figures.py): a canvas that writes
the same shapes as SVG and as PNG (canvas.py), its lettering (font.py) and its PNG encoder (png.py).
Python's standard library only."""
