"""Time of impact against discrete checking, per motion.

For three corpus pairs (a KUKA iiwa link pair, the low-res bunny against
itself, the Robotiq 2F-85 driver/follower), 100 random motions each (B's
centre swept about A's within about both sizes, half turning at most 0.3
rad, half any amount), it times:

- `tree.time_of_impact` (certified: the first contact within tol = 1e-6,
  or none anywhere on the motion), one motion at a time, one thread;
- discrete checking at 100 equally spaced poses (MoveIt's 1 % segment; not
  certified), `tree.collide` pose by pose until the first contact, one
  thread.

and prints the median per motion of each (µs), for all motions and for the
motions whose start is far from contact (distance at t = 0 larger than the
motion's largest displacement of B: one distance call), with the median
number of distance calls, and counts the motions where the 100 samples miss
a contact that time_of_impact finds (confirmed by collide at its t).

Run: `python benches/motion.py` with the extension built
(`maturin develop --release -m python/Cargo.toml`) and BVTOOL_MODELS (or
../shared/models).
"""

import os
import statistics
import time
from pathlib import Path

import numpy as np
from scipy.spatial.transform import Rotation, Slerp

import bvtool

ROOT = Path(__file__).resolve().parents[1]
MODELS = Path(os.environ.get("BVTOOL_MODELS", ROOT.parent / "shared" / "models"))
PAIRS = [
    ("obj/pybullet/kuka_iiwa/meshes/link_1.obj", "obj/pybullet/kuka_iiwa/meshes/link_2.obj"),
    ("obj/stanford-bunny.obj", "obj/stanford-bunny.obj"),
    ("stl/mujoco_menagerie/robotiq_2f85/assets/driver.stl", "stl/mujoco_menagerie/robotiq_2f85/assets/follower.stl"),
]
N, SAMPLES = 100, 100


def motions(rng, a, b):
    (amin, amax), (bmin, bmax) = [(m.vertices.min(0), m.vertices.max(0)) for m in (a, b)]
    centre = (amin + amax) / 2 - (bmin + bmax) / 2
    reach = 0.6 * (np.linalg.norm(amax - amin) + np.linalg.norm(bmax - bmin))
    t0 = centre + rng.uniform(-reach, reach, (N, 3))
    t1 = centre + rng.uniform(-reach, reach, (N, 3))
    r0 = Rotation.random(N, random_state=int(rng.integers(1 << 30)))
    scale = np.where(np.arange(N) % 2 == 0, 0.3, np.pi)
    axis = rng.normal(size=(N, 3))
    axis /= np.linalg.norm(axis, axis=1)[:, None]
    r1 = r0 * Rotation.from_rotvec(axis * (rng.uniform(0, 1, N) * scale)[:, None])
    return t0, t1, r0, r1


def main():
    rng = np.random.default_rng(38)
    for fa, fb in PAIRS:
        a, b = bvtool.load_mesh(str(MODELS / fa)), bvtool.load_mesh(str(MODELS / fb))
        ta, tb = bvtool.ObbTree(a), bvtool.ObbTree(b)
        t0, t1, r0, r1 = motions(rng, a, b)
        ts = np.linspace(0, 1, SAMPLES)
        ccd, disc, calls, far, misses, hits = [], [], [], [], 0, 0
        for i in range(N):
            p0 = np.hstack([t0[i], r0[i].as_quat()])
            p1 = np.hstack([t1[i], r1[i].as_quat()])
            reps = []
            for _ in range(3):
                s = time.perf_counter()
                got = ta.time_of_impact(tb, p0, p1)
                reps.append(time.perf_counter() - s)
            ccd.append(min(reps) * 1e6)
            calls.append(got.distance_calls)
            slerp = Slerp([0, 1], Rotation.from_quat([r0[i].as_quat(), r1[i].as_quat()]))
            poses = np.hstack([t0[i] + ts[:, None] * (t1[i] - t0[i]), slerp(ts).as_quat()])
            reps, found = [], False
            for _ in range(3):
                s = time.perf_counter()
                found = False
                for p in poses:
                    if ta.collide(tb, p).intersecting:
                        found = True
                        break
                reps.append(time.perf_counter() - s)
            disc.append(min(reps) * 1e6)
            if got.distance_calls == 1:
                far.append(i)
            if got.hit:
                hits += 1
                misses += not found
            assert got.status != "undecided", (fa, i, got)
        med = statistics.median
        print(f"{Path(fa).name} / {Path(fb).name} ({len(a.triangles)} / {len(b.triangles)} triangles): "
              f"{hits} of {N} motions hit; time_of_impact median {med(ccd):.0f} µs "
              f"({med(calls)} distance calls, max {max(calls)}), discrete at {SAMPLES} poses {med(disc):.0f} µs; "
              f"{len(far)} far motions: {med([ccd[i] for i in far]) if far else float('nan'):.0f} µs vs "
              f"{med([disc[i] for i in far]) if far else float('nan'):.0f} µs; "
              f"contacts the {SAMPLES} samples miss: {misses}")


if __name__ == "__main__":
    main()
