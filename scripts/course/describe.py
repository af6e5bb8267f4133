"""What a step says of itself: the words of `./stepN --describe`, read here and nowhere else."""
import subprocess

from . import Fail


def describe(binary):
    """The key=value words of `BINARY --describe` as a dict; {} when the binary cannot run or fails."""
    try:
        p = subprocess.run([binary, "--describe"], capture_output=True, text=True, timeout=60)
    except OSError:
        return {}
    return dict(w.split("=", 1) for w in p.stdout.split() if "=" in w) if p.returncode == 0 else {}


def track_tiles(words, binary):
    """Step 6's track_tiles=name:BMxBNxBK:WMxWN:TMxTN:threads:min_blocks,... as {name: dict(bm=, bn=, bk=, ...)}."""
    if not words.get("track_tiles"):
        raise Fail(f"{binary} --describe names no track_tiles: is it step 6?")
    tiles = {}
    for item in words["track_tiles"].split(","):
        p = item.split(":")
        try:
            (bm, bn, bk), (wm, wn), (tm, tn) = (map(int, x.split("x")) for x in p[1:4])
            tiles[p[0]] = dict(bm=bm, bn=bn, bk=bk, wm=wm, wn=wn, tm=tm, tn=tn, threads=int(p[4]), min_blocks=int(p[5]))
        except (ValueError, IndexError):
            raise Fail(f"{binary} --describe: track_tiles={words['track_tiles']} is not "
                       "name:BMxBNxBK:WMxWN:TMxTN:threads:min_blocks,...")
    return tiles
