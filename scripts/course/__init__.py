"""The course's tooling, a module per job; `python3 scripts/course -h` lists its commands (__main__.py)."""
import sys


class Fail(Exception):
    """One line for stderr, and the exit code: 2 for bad input, 1 when the runs or a tool failed."""

    def __init__(self, message, code=2):
        super().__init__(message)
        self.code = code


def main(commands, ap):
    """Runs the command the arguments name (commands: its name to its function); a Fail is one line on stderr,
    "COMMAND: what is wrong", and its exit code."""
    a = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)   # progress and errors in the order they happen
    try:
        return commands[a.cmd](a) or 0
    except Fail as e:
        print(f"{a.cmd}: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print(f"\n{a.cmd}: interrupted; every CSV is left as it was", file=sys.stderr)
        return 130
