"""Time of impact against discrete checking, per motion.

For three corpus pairs (a KUKA iiwa link pair, the low-res bunny against
itself, the Robotiq 2F-85 driver/follower), 100 random motions each (B's
centre swept about A's within about both sizes, half turning at most 0.3
rad, half any amount), it times:

- `tree.time_of_impact` (certified: the first contact within tol = 1e-6,
  or none anywhere on the motion), one motion at a time, one thread, with
  the default `rel_err` 0.5 and with exact distances (`rel_err=0`);
- discrete checking at 100 equally spaced poses (MoveIt's 1 % segment; not
  certified), `tree.collide` pose by pose until the first contact, one
  thread.

- with python-fcl installed, `fcl.continuousCollide` on the same motions
  (BVHModel meshes, `CCDM_LINEAR`: translation linear, rotation about the
  origin at constant angular velocity), with the naive solver (its own
  sampling) and with conservative advancement.

and prints the median per motion of each (µs), for all motions and for the
motions certified free in one distance call (far from contact), with the
median number of distance calls, counts the motions where the 100 samples miss a contact
that time_of_impact finds (confirmed by collide at its t), and python-fcl's
misses (free where time_of_impact finds a contact it confirms by collide)
and false contacts (where time_of_impact certifies none).

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

try:
    import fcl
except ImportError:  # python-fcl is optional
    fcl = None

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


def fcl_model(mesh):
    m = fcl.BVHModel()
    m.beginModel(len(mesh.vertices), len(mesh.triangles))
    m.addSubModel(np.asarray(mesh.vertices, float), np.asarray(mesh.triangles, np.int64))
    m.endModel()
    return m


def fcl_toc(ma, mb, p0, p1, solver):
    """Whether python-fcl's continuousCollide finds a contact as B moves
    from p0 to p1 (rows x, y, z, qx, qy, qz, qw) against A at identity."""
    tf = lambda p: fcl.Transform(np.array([p[6], p[3], p[4], p[5]]), np.array(p[:3]))  # noqa: E731
    a = fcl.CollisionObject(ma, fcl.Transform())
    b = fcl.CollisionObject(mb, tf(p0))
    req = fcl.ContinuousCollisionRequest(ccd_motion_type=fcl.CCDMotionType.CCDM_LINEAR, ccd_solver_type=solver)
    res = fcl.ContinuousCollisionResult()
    fcl.continuousCollide(a, fcl.Transform(), b, tf(p1), req, res)
    return bool(res.is_collide)


def main():
    rng = np.random.default_rng(38)
    for fa, fb in PAIRS:
        a, b = bvtool.load_mesh(str(MODELS / fa)), bvtool.load_mesh(str(MODELS / fb))
        ta, tb = bvtool.ObbTree(a), bvtool.ObbTree(b)
        t0, t1, r0, r1 = motions(rng, a, b)
        ts = np.linspace(0, 1, SAMPLES)
        ccd, disc, calls, far, misses, hits = [], [], [], [], 0, 0
        ccd_rel, calls_rel = [], []
        if fcl is not None:
            fa_obj, fb_obj = fcl_model(a), fcl_model(b)
            fcl_solvers = [("naive", fcl.CCDSolverType.CCDC_NAIVE),
                           ("CA", fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT)]
            fcl_us = {n: [] for n, _ in fcl_solvers}
            fcl_miss = {n: 0 for n, _ in fcl_solvers}
            fcl_false = {n: 0 for n, _ in fcl_solvers}
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
            reps = []
            for _ in range(3):
                s = time.perf_counter()
                rel = ta.time_of_impact(tb, p0, p1, rel_err=0.0)
                reps.append(time.perf_counter() - s)
            ccd_rel.append(min(reps) * 1e6)
            calls_rel.append(rel.distance_calls)
            assert rel.status == got.status, (fa, i, got, rel)
            if fcl is not None:
                for name, solver in fcl_solvers:
                    s = time.perf_counter()
                    hit = fcl_toc(fa_obj, fb_obj, p0, p1, solver)
                    fcl_us[name].append((time.perf_counter() - s) * 1e6)
                    if got.status == "hit" and not hit:
                        fcl_miss[name] += 1
                    if got.status == "free" and hit:
                        fcl_false[name] += 1
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
            if got.status == "free" and got.distance_calls == 1:
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
              f"contacts the {SAMPLES} samples miss: {misses}; "
              f"exact distances (rel_err 0): median {med(ccd_rel):.0f} µs ({med(calls_rel)} calls)", flush=True)
        if fcl is not None:
            for name, _ in fcl_solvers:
                print(f"    python-fcl continuousCollide ({name}, CCDM_LINEAR): median {med(fcl_us[name]):.0f} µs, "
                      f"misses {fcl_miss[name]} of {hits} contacts, false contacts {fcl_false[name]}", flush=True)


if __name__ == "__main__":
    main()
