"""What a program says of itself: the words of `./stepN --describe` and `./further --describe`, read here and
nowhere else (the course's commands, the track's tools and figures.py all read it through these functions)."""
import subprocess
from types import SimpleNamespace as Record

from . import Fail


def describe(binary):
    """The key=value words of `BINARY --describe` as a dict, with the binary under `_binary`; {} when the
    binary cannot run or fails."""
    try:
        p = subprocess.run([binary, "--describe"], capture_output=True, text=True, timeout=60)
    except OSError:
        return {}
    if p.returncode != 0:
        return {}
    return dict([w.split("=", 1) for w in p.stdout.split() if "=" in w], _binary=binary)


def need(words, key):
    """The value of key=, which must be there."""
    if not words.get(key):
        raise Fail(f"{words.get('_binary', 'the step')} --describe gives no {key}= (it is needed here): "
                   "rebuild it (make)")
    return words[key]


def records(words, key, form):
    """key=item,item,... as records, each item in the form `form` (BMxBNxBK:TMxTN:piece:a_pad): its numbers
    named by the form's words in lower case (bm, bn, ...); a word `name` stays a word."""
    names = [w.lower() for part in form.split(":") for w in part.split("x")]
    out = []
    for item in need(words, key).split(","):
        values = [v for part in item.split(":") for v in part.split("x")]
        try:
            if len(values) != len(names):
                raise ValueError
            out.append(Record(**{n: v if n == "name" else int(v) for n, v in zip(names, values)}))
        except ValueError:
            raise Fail(f"{words.get('_binary', 'the step')} --describe: {key}={words[key]} is not {form},...")
    return out


def track_tiles(words):
    """The track's tiles (./further --describe: track_tiles=) as records by name (bm, bn, bk, wm, wn, tm, tn,
    threads, min_blocks)."""
    return {t.name: t for t in records(words, "track_tiles", "name:BMxBNxBK:WMxWN:TMxTN:threads:min_blocks")}
