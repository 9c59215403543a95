"""bvtool's convex signed distance against coal's GJK/EPA, in one sitting:
for each pair of shape kinds, 1,000 random overlapping poses (the shapes and
poses of python/tests/test_convex.py), how many answers agree within 1e-9 of
the scale, how many coal reports deeper than a separating translation that
is checked from the shapes' own support formulas, and the median time per
query of each (one Python call each, one thread).

    PYTHONPATH=<bvtool package> python benches/convex_peers.py [--poses N]

Needs coal (the peers venv, ../shared/peers/setup.sh)."""

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python" / "tests"))
import coal  # noqa: E402
from scipy.spatial.transform import Rotation  # noqa: E402

import bvtool  # noqa: E402
from test_convex import PAIRS, compare_with_coal, random_shape  # noqa: E402


def timing(kinds, poses, seed):
    rng = np.random.default_rng(seed)
    req = coal.DistanceRequest()
    req.gjk_tolerance = 1e-12
    req.epa_tolerance = 1e-12
    req.epa_max_iterations = 1000
    ours, theirs = [], []
    for _ in range(poses):
        (a, ca, _, sa), (b, cb, _, sb) = random_shape(kinds[0], rng), random_shape(kinds[1], rng)
        t = rng.uniform(-1, 1, 3) * 0.6 * (sa + sb)
        rot = Rotation.random(random_state=rng.integers(2**31))
        pose = (t, rot.as_quat())
        tb = coal.Transform3s(rot.as_matrix(), t)
        res = coal.DistanceResult()
        start = time.perf_counter()
        bvtool.convex_distance(a, b, pose)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        coal.distance(ca, coal.Transform3s(), cb, tb, req, res)
        theirs.append(time.perf_counter() - start)
    return statistics.median(ours) * 1e6, statistics.median(theirs) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--poses", type=int, default=1000)
    args = ap.parse_args()
    print("| pair | agree within 1e-9 | coal deeper than a checked separating move | bvtool µs | coal µs |")
    print("|---|---|---|---|---|")
    for k, kinds in enumerate(PAIRS):
        rows = compare_with_coal(kinds, args.poses, k)
        agree = sum(abs(th - ours.distance) <= 1e-9 * s for th, ours, _, s in rows)
        deeper = sum(-th > ours.depth and abs(th - ours.distance) > 1e-9 * s for th, ours, _, s in rows)
        us, them = timing(kinds, args.poses, 100 + k)
        print(f"| {'-'.join(kinds)} | {agree} | {deeper} | {us:.1f} | {them:.1f} |")


if __name__ == "__main__":
    main()
