"""Time per configuration of the Panda's distances (bvtool's Python
module, a batch on every core with the GIL released): self-distance
(`Robot.distance`), every pair's (`distance(q, per_pair=True)`) and the
distance to a world of 24 bodies (`Robot.world_distance`), next to
self-collision and world collision; best of 3 runs each.

    PYTHONPATH=<built bvtool> python benches/robot_distances.py [--configs 2000]

The world: 24 bodies within the arm's reach (0.25 to 0.8 m from the base's
axis, heights 0 to 1 m, random orientations; boxes 0.1 x 0.2 x 0.05 m,
spheres r 0.06 m, capsules r 0.04 m length 0.2 m), seeded."""

import argparse
import os
import time
from pathlib import Path

import numpy as np

import bvtool


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--configs", type=int, default=2000)
    args = ap.parse_args()
    models = Path(os.environ.get("BVTOOL_MODELS", "/work/shared/models"))
    pkg = models / "urdf" / "example-robot-data" / "robots" / "panda_description"
    robot = bvtool.Robot(str(pkg / "urdf" / "panda.urdf"), srdf=str(pkg / "srdf" / "panda.srdf"))
    rng = np.random.default_rng(39)
    lims = np.array([l if l is not None else (-np.pi, np.pi) for l in robot.joint_limits])
    qs = lims[:, 0] + (lims[:, 1] - lims[:, 0]) * rng.random((args.configs, robot.dof))
    world = bvtool.World()
    for k in range(24):
        a, r = rng.uniform(0, 2 * np.pi), rng.uniform(0.25, 0.8)
        q = rng.normal(size=4)
        pose = [r * np.cos(a), r * np.sin(a), rng.uniform(0, 1), *(q / np.linalg.norm(q))]
        [
            lambda: world.add_box(f"body {k}", (0.1, 0.2, 0.05), pose),
            lambda: world.add_sphere(f"body {k}", 0.06, pose),
            lambda: world.add_capsule(f"body {k}", 0.04, 0.2, pose),
        ][k % 3]()
    runs = {
        "self_collision": lambda: robot.self_collision(qs),
        "distance (self)": lambda: robot.distance(qs),
        "distance per_pair": lambda: robot.distance(qs, per_pair=True),
        "world_collision": lambda: robot.world_collision(qs, world),
        "world_distance": lambda: robot.world_distance(qs, world),
    }
    print(f"Panda (SRDF), {len(robot.pairs)} link pairs, {args.configs} configurations, {os.cpu_count()} cores")
    for name, f in runs.items():
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            f()
            best = min(best, time.perf_counter() - t)
        print(f"{name:20s} {best * 1e6 / args.configs:8.1f} us a configuration")
    d = robot.world_distance(qs, world)["distance"]
    print(f"world distance 0 at {(d == 0).sum()} of {args.configs}; median {np.median(d):.4f} m")


if __name__ == "__main__":
    main()
