"""What a step says of itself: the words of `./stepN --describe`, read here and nowhere else."""
import re, subprocess

from . import Fail

# One tile of track_tiles=name:BMxBNxBK:WMxWN:TMxTN:threads:min_blocks,... and the names of its numbers.
TILE = re.compile(r"(\w+):(\d+)x(\d+)x(\d+):(\d+)x(\d+):(\d+)x(\d+):(\d+):(\d+)")
TILE_FIELDS = "bm bn bk wm wn tm tn threads min_blocks".split()


def describe(binary):
    """The key=value words of `BINARY --describe` as a dict; {} when the binary cannot run or fails."""
    try:
        p = subprocess.run([binary, "--describe"], capture_output=True, text=True, timeout=60)
    except OSError:
        return {}
    return dict(w.split("=", 1) for w in p.stdout.split() if "=" in w) if p.returncode == 0 else {}


def track_tiles(words, binary):
    """Step 6's track_tiles as {name: dict(bm=, bn=, bk=, wm=, ...)}, a tile by its name."""
    if not words.get("track_tiles"):
        raise Fail(f"{binary} --describe names no track_tiles: is it step 6?")
    tiles = [TILE.fullmatch(t) for t in words["track_tiles"].split(",")]
    if not all(tiles):
        raise Fail(f"{binary} --describe: track_tiles={words['track_tiles']} is not "
                   "name:BMxBNxBK:WMxWN:TMxTN:threads:min_blocks,...")
    return {t[1]: dict(zip(TILE_FIELDS, map(int, t.groups()[1:]))) for t in tiles}
