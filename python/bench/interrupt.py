"""How long the calls of python/tests/test_interrupt.py run uninterrupted,
and how soon Ctrl-C stops each (the test's own scenario, repeated).

    PYTHONPATH=<the built module> python python/bench/interrupt.py [--runs 3]

Prints per family the uninterrupted seconds (median of the runs) and, from
the interrupted runs, the delay from SIGINT to KeyboardInterrupt and the
process's CPU seconds over the quiet half second after it.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from test_interrupt import CALLS, HARNESS  # noqa: E402

TIMED = """
def interrupted(call):
    start = time.perf_counter()
    call()
    print("finished", time.perf_counter() - start)
"""


def run(code):
    path = os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=path))
    if out.returncode != 0:
        sys.exit(f"the scenario failed:\n{out.stderr}")
    return out.stdout.split()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=3)
    runs = p.parse_args().runs
    for family in sorted(CALLS):
        whole = [float(run(HARNESS + TIMED + CALLS[family])[1]) for _ in range(runs)]
        stops = [run(HARNESS + CALLS[family]) for _ in range(runs)]
        delays = [float(s[1]) for s in stops if s[0] == "interrupted"]
        busy = [float(s[2]) for s in stops if s[0] == "interrupted"]
        print(f"{family}: uninterrupted {statistics.median(whole):.2f} s "
              f"(runs {', '.join(f'{w:.2f}' for w in whole)}); "
              f"interrupted {len(delays)}/{runs}, SIGINT to KeyboardInterrupt "
              f"max {max(delays, default=float('nan')) * 1e3:.0f} ms, "
              f"CPU after max {max(busy, default=float('nan')):.3f} s")


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"({time.perf_counter() - start:.0f} s)")
