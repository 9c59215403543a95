"""Time of impact against discrete checking and python-fcl, per motion, and
(`--oracle`) its certificate against dense exact sampling.

Pairs (`--pairs`, names or `all`; default kuka, bunny, robotiq):

- kuka: KUKA iiwa link_1 / link_2 (pybullet), adjacent arm links;
- bunny: the low-res Stanford bunny against itself;
- robotiq: the Robotiq 2F-85 driver / follower, a gripper's linkage parts;
- engine: the 2CylinderEngine glTF scene flattened (121,496 triangles),
  against itself;
- spider: assimp's spider (thin legs: wires) against itself.

For each pair, `--motions` random motions (default 100; seeded per pair):
B's centre swept about A's within about both sizes, even-numbered motions
turning at most 0.3 rad, odd ones up to a half turn. B moves relative to A
(A at identity): translation linear, rotation at constant angular velocity
about B's origin along the shortest arc (scipy's `Slerp` of the two
quaternions gives the same rotation). Per motion, one thread, it times:

- `tree.time_of_impact` (certified: the first contact within tol = 1e-6,
  or none anywhere on the motion), min of 3 runs, with the default
  `rel_err` 0.5 and with exact distances (`rel_err=0`);
- discrete checking at 100 equally spaced poses (MoveIt's 1 % segment; not
  certified), `tree.collide` pose by pose until the first contact, min of 3;
- with python-fcl installed, `fcl.continuousCollide` (BVHModel meshes,
  `CCDM_LINEAR`, default request) with the naive solver (min of 3; with the
  default request it checks 10 poses, t = k/9) on every motion and with
  conservative advancement (CA, one run) on the first `--fcl-ca` motions of
  each pair (default all), in `--processes` worker processes (default 1).
  CCDM_LINEAR is bvtool's motion when B's reference point is its origin,
  but python-fcl's path leaves that point uninitialised (see
  `zero_reference_points`): it is zeroed before each call unless
  `--fcl-as-is`, and the naive solver's first contact is compared with
  bvtool's `collide` at the same 10 poses to check that the motions agree;

and prints the median per motion of each (µs), over all motions and over
the "far" ones (certified free with at most one distance call: most by
the per-node swept test alone).

`--oracle` checks every answer against bvtool's exact discrete `collide` at
`--samples` (default 10⁴) equally spaced poses (`collide_batch`), the first
contact refined by bisection between the last free and first colliding
sample to 1e-12 (exact `collide` at each step), and counts: "free" answers
where the oracle finds contact; oracle contacts before `free_until`; "hit"
answers whose oracle first contact is within [t − tol, t], later than t
(samples that missed a thin early contact; t then confirmed by exact
`collide` at t), or absent (likewise confirmed); every hit's contact
confirmed by `collide` at the reported pose and at scipy's pose at t;
"undecided" answers, each explained by the least distance over the motion
(`tree.least_distance`).

`--thin N` adds N linear motions of a thin blade (1e-3 thick, 2 × 1) past
a thin pin (1e-3 × 1e-3 × 2) at 100 units per path (built here with numpy),
each contact interval computed in closed form (two boxes: B's centre in
their Minkowski sum, a box) and shorter than 2e-5 of the path: every
contact must be found ("hit", t within tol of the interval's start,
confirmed by `collide`), every free one certified free; the oracle's misses
and python-fcl's are counted.

python-fcl disagreements are explained by exact checks: a miss (bvtool hit,
fcl free) by bvtool's `collide` at t (true; the meeting triangles), the
naive solver's by bvtool's `collide` at the same 10 poses it samples (all
free: the contact lies between them), CA's by python-fcl's own `collide` at
a colliding pose of the motion; a false contact (bvtool certified free, fcl
contact at its time of contact) by bvtool's exact distance at that pose
(positive: no contact there), the certified least distance over the motion
(positive lower bound: no contact anywhere) and python-fcl's own `collide`
and `distance` at that pose. `--details FILE` writes one JSON line per
disagreement and per undecided answer.

Run: `python benches/motion.py` (the speed table, 3 pairs × 100 motions),
or the certification sweep `python benches/motion.py --pairs all
--motions 1000 --oracle --thin 1000 --fcl-ca 200 --processes 2`, with the
extension built (`maturin develop --release -m python/Cargo.toml`) and
BVTOOL_MODELS (or ../shared/models).
"""

import argparse
import ctypes
import json
import multiprocessing
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
PAIRS = {
    "kuka": ("obj/pybullet/kuka_iiwa/meshes/link_1.obj", "obj/pybullet/kuka_iiwa/meshes/link_2.obj"),
    "bunny": ("obj/stanford-bunny.obj", "obj/stanford-bunny.obj"),
    "robotiq": ("stl/mujoco_menagerie/robotiq_2f85/assets/driver.stl",
                "stl/mujoco_menagerie/robotiq_2f85/assets/follower.stl"),
    "engine": ("gltf/2CylinderEngine/glTF-Binary/2CylinderEngine.glb",) * 2,
    "spider": ("obj/assimp/spider.obj",) * 2,
}
DEFAULT_PAIRS = ["kuka", "bunny", "robotiq"]
TOL = 1e-6
DISCRETE = 100
# The naive solver's poses with python-fcl's default request: FCL samples
# min(num_max_iterations = 10, ceil(1 / toc_err = 1e-4)) = 10 times i / 9.
NAIVE_TS = np.linspace(0.0, 1.0, 10)
med = statistics.median


def motions(rng, a, b, n):
    """n motions as (n, 7) rows (x, y, z, qx, qy, qz, qw) at t = 0 and 1."""
    (amin, amax), (bmin, bmax) = [(m.vertices.min(0), m.vertices.max(0)) for m in (a, b)]
    centre = (amin + amax) / 2 - (bmin + bmax) / 2
    reach = 0.6 * (np.linalg.norm(amax - amin) + np.linalg.norm(bmax - bmin))
    t0 = centre + rng.uniform(-reach, reach, (n, 3))
    t1 = centre + rng.uniform(-reach, reach, (n, 3))
    r0 = Rotation.random(n, random_state=int(rng.integers(1 << 30)))
    scale = np.where(np.arange(n) % 2 == 0, 0.3, np.pi)
    axis = rng.normal(size=(n, 3))
    axis /= np.linalg.norm(axis, axis=1)[:, None]
    r1 = r0 * Rotation.from_rotvec(axis * (rng.uniform(0, 1, n) * scale)[:, None])
    return np.hstack([t0, r0.as_quat()]), np.hstack([t1, r1.as_quat()])


def poses_at(p0, p1, ts):
    """The motion's poses at times ts (scipy: linear translation, Slerp)."""
    ts = np.atleast_1d(np.asarray(ts, float))
    slerp = Slerp([0, 1], Rotation.from_quat([p0[3:], p1[3:]]))
    return np.hstack([p0[:3] + ts[:, None] * (p1[:3] - p0[:3]), slerp(ts).as_quat()])


def best_of(f, reps=3):
    """(least seconds over reps runs, f's last result)."""
    best = float("inf")
    for _ in range(reps):
        s = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - s)
    return best, out


def discrete(ta, tb, poses):
    """Whether tree.collide finds contact at one of poses, first to last."""
    for p in poses:
        if ta.collide(tb, p).intersecting:
            return True
    return False


def oracle(ta, tb, p0, p1, samples):
    """(first contact refined to 1e-12 or None, sample times, contact per sample)."""
    ts = np.linspace(0.0, 1.0, samples)
    meets = ta.collide_batch(tb, poses_at(p0, p1, ts))
    if not meets.any():
        return None, ts, meets
    k = int(np.argmax(meets))
    if k == 0:
        return 0.0, ts, meets
    lo, hi = ts[k - 1], ts[k]
    while hi - lo > 1e-12:
        mid = 0.5 * (lo + hi)
        if ta.collide(tb, poses_at(p0, p1, mid)[0]).intersecting:
            hi = mid
        else:
            lo = mid
    return hi, ts, meets


def box(half):
    """An axis-aligned box centred at the origin: (vertices, triangles)."""
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float) * half
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    tris = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return corners, np.array(tris, np.uint32)


THIN_W = 5e-4  # half thickness: the blade is 1e-3 thick, the pin 1e-3 × 1e-3
PIN, BLADE = np.array([THIN_W, THIN_W, 1.0]), np.array([THIN_W, 1.0, 0.5])


def thin_motions(rng, n):
    """n linear motions of the blade, 100 units along x (crossing x = 0 at a
    random time in [0.05, 0.95]) past the pin at the origin, with each one's
    exact contact interval [lo, hi] (lo > hi: none): B's centre inside the
    Minkowski sum of the two boxes (half extents PIN + BLADE), a slab test
    per axis. Contact lasts at most 4·THIN_W / 100 = 2e-5 of the path."""
    x0 = -100.0 * rng.uniform(0.05, 0.95, n)
    c0 = np.column_stack([x0, rng.uniform(-1.8, 1.8, (n, 2))])
    c1 = np.column_stack([x0 + 100.0, rng.uniform(-1.8, 1.8, (n, 2))])
    h = PIN + BLADE
    lo, hi = np.zeros(n), np.ones(n)
    for k in range(3):
        d = c1[:, k] - c0[:, k]
        with np.errstate(divide="ignore", invalid="ignore"):
            ta, tb = (-h[k] - c0[:, k]) / d, (h[k] - c0[:, k]) / d
        inside = np.abs(c0[:, k]) <= h[k]
        lo = np.maximum(lo, np.where(d == 0, np.where(inside, 0.0, np.inf), np.minimum(ta, tb)))
        hi = np.minimum(hi, np.where(d == 0, np.where(inside, 1.0, -np.inf), np.maximum(ta, tb)))
    q = np.tile([0.0, 0.0, 0.0, 1.0], (n, 1))
    return np.hstack([c0, q]), np.hstack([c1, q]), lo, hi


# python-fcl ------------------------------------------------------------------

def fcl_model(vertices, triangles):
    m = fcl.BVHModel()
    m.beginModel(len(vertices), len(triangles))
    m.addSubModel(np.asarray(vertices, float), np.asarray(triangles, np.int64))
    m.endModel()
    return m


def fcl_tf(p):
    return fcl.Transform(np.array([p[6], p[3], p[4], p[5]]), np.array(p[:3]))


# python-fcl's CCDM_LINEAR is fcl::InterpMotion(tf_beg, tf_end) (FCL 0.7.0,
# continuous_collision-inl.h): at time t, B's rotation is
# AngleAxis(t·θ, u)·R0 with (u, θ ∈ [0, π]) the angle-axis of R1·R0ᵀ, and
# B's point `reference_p` (in B's frame) moves on the straight line from
# tf_beg·p to tf_end·p. With p = 0 that is bvtool's motion. But that
# constructor never sets reference_p (an Eigen vector, left uninitialised),
# so p is whatever the heap held there. Before each call we hand glibc's
# per-thread cache 7 zeroed free chunks of sizeof(InterpMotion<double>) =
# 496 bytes (the most recently freed chunk of a size is reused first), so
# both motions' reference points are 0 (`--fcl-as-is` does not); the
# naive solver's first contact against bvtool's at its own 10 poses checks it.
try:
    _LIBC = ctypes.CDLL(None)
    _LIBC.malloc.restype, _LIBC.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    _LIBC.free.argtypes = [ctypes.c_void_p]
except (OSError, AttributeError):  # not glibc: python-fcl as it is
    _LIBC = None
INTERP_MOTION_BYTES = 496


def zero_reference_points():
    if _LIBC is not None:
        chunks = [_LIBC.malloc(INTERP_MOTION_BYTES) for _ in range(7)]
        for c in chunks:
            ctypes.memset(c, 0, INTERP_MOTION_BYTES)
        for c in chunks:
            _LIBC.free(c)


FCL_AS_IS = False  # --fcl-as-is: leave the reference points as the heap has them


def fcl_ccd(models, p0, p1, solver):
    """python-fcl's continuousCollide of B from p0 to p1 against A at identity
    (CCDM_LINEAR, the default request otherwise): (is_collide,
    time_of_contact, seconds taken, the zeroing left out)."""
    start = time.perf_counter()
    ma, mb = models
    a, b = fcl.CollisionObject(ma, fcl.Transform()), fcl.CollisionObject(mb, fcl_tf(p0))
    req = fcl.ContinuousCollisionRequest(ccd_motion_type=fcl.CCDMotionType.CCDM_LINEAR, ccd_solver_type=solver)
    res, tf0, tf1 = fcl.ContinuousCollisionResult(), fcl.Transform(), fcl_tf(p1)
    made = time.perf_counter()
    if not FCL_AS_IS:
        zero_reference_points()
    s = time.perf_counter()
    fcl.continuousCollide(a, tf0, b, tf1, req, res)
    return bool(res.is_collide), float(res.time_of_contact), time.perf_counter() - s + made - start


def fcl_collide(models, pose):
    ma, mb = models
    a, b = fcl.CollisionObject(ma, fcl.Transform()), fcl.CollisionObject(mb, fcl_tf(pose))
    return bool(fcl.collide(a, b, fcl.CollisionRequest(), fcl.CollisionResult()))


def fcl_distance(models, pose):
    ma, mb = models
    a, b = fcl.CollisionObject(ma, fcl.Transform()), fcl.CollisionObject(mb, fcl_tf(pose))
    return float(fcl.distance(a, b, fcl.DistanceRequest(), fcl.DistanceResult()))


_WORKER = {}


def _ca_init(va, fa, vb, fb):
    _WORKER["models"] = (fcl_model(va, fa), fcl_model(vb, fb))


def _ca_one(motion):
    hit, toc, s = fcl_ccd(_WORKER["models"], motion[0], motion[1], fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT)
    return hit, toc, s * 1e6


def fcl_ca_all(a, b, p0, p1, processes):
    """CA on every motion, in worker processes: [(hit, toc, µs)]."""
    args = (a.vertices, a.triangles, b.vertices, b.triangles)
    jobs = list(zip(p0, p1))
    if processes <= 1:
        _ca_init(*args)
        return [_ca_one(j) for j in jobs]
    with multiprocessing.get_context("fork").Pool(processes, _ca_init, args) as pool:
        return pool.map(_ca_one, jobs, chunksize=1)


# one pair ----------------------------------------------------------------------

def speed_bound(mesh_b, p0, p1):
    """M = |T1 − T0| + θ·ρ: no point of B moves faster (algorithms.md)."""
    theta = (Rotation.from_quat(p0[3:]).inv() * Rotation.from_quat(p1[3:])).magnitude()
    return np.linalg.norm(p1[:3] - p0[:3]) + theta * np.linalg.norm(mesh_b.vertices, axis=1).max()


def explain_fcl(ta, tb, b, models, p0, p1, rec, name, hit, toc):
    """Exact checks of one python-fcl disagreement with time_of_impact."""
    out = {"fcl": name, "fcl_toc": toc}
    if rec["status"] == "hit":  # a miss: fcl says free
        out["kind"] = "miss"
        at_t = ta.collide(tb, poses_at(p0, p1, rec["t"])[0], mode="all")
        out["collide_at_t"] = bool(at_t.intersecting)
        out["pairs_at_t"] = int(len(at_t.pairs))
        out["triangles_at_t"] = [int(x) for x in at_t.pairs[0]] if len(at_t.pairs) else None
        if name == "naive":  # bvtool at the naive solver's own 10 poses
            out["bvtool_at_fcl_samples"] = int(ta.collide_batch(tb, poses_at(p0, p1, NAIVE_TS)).sum())
        else:  # fcl's own discrete collide at a colliding pose of the motion:
            # the oracle's first colliding sample (past the first touch), else t
            at = rec.get("oracle_first_sample")
            out["fcl_collide_at_contact"] = fcl_collide(models, poses_at(p0, p1, rec["t"] if at is None else at)[0])
    else:  # a false contact: bvtool certified free
        out["kind"] = "false contact"
        pose = poses_at(p0, p1, toc)[0]
        d = ta.distance(tb, pose)
        out["distance_at_toc"] = float(d.distance)
        out["rounding_bound"] = float(d.rounding_bound)
        least = ta.least_distance(tb, [p0, p1])
        out["least_distance"], out["least_lower"] = float(least["distance"]), float(least["lower"])
        out["speed_bound"] = float(speed_bound(b, p0, p1))
        out["fcl_collide_at_toc"] = fcl_collide(models, pose)
        out["fcl_distance_at_toc"] = fcl_distance(models, pose)
    return out


def run_pair(name, files, args, rng, details):
    if name == "thin":
        (va, fa), (vb, fb) = box(PIN), box(BLADE)
        a, b = bvtool.Mesh(va, fa), bvtool.Mesh(vb, fb)
        p0, p1, lo, hi = thin_motions(rng, args.thin)
    else:
        a, b = [bvtool.load_mesh(str(MODELS / f)) for f in files]
        p0, p1 = motions(rng, a, b, args.motions)
    ta, tb = bvtool.ObbTree(a), bvtool.ObbTree(b)
    n = len(p0)
    models = (fcl_model(a.vertices, a.triangles), fcl_model(b.vertices, b.triangles)) if fcl else None
    recs = []
    for i in range(n):
        rec = {"motion": i}
        us, got = best_of(lambda: ta.time_of_impact(tb, p0[i], p1[i], tol=TOL))
        rec.update(status=got.status, t=got.t, free_until=got.free_until, calls=got.distance_calls, us=us * 1e6)
        if got.hit:
            rec["collide_at_pose"] = ta.collide(tb, got.pose).intersecting
            rec["collide_at_t"] = ta.collide(tb, poses_at(p0[i], p1[i], got.t)[0]).intersecting
        us, rel = best_of(lambda: ta.time_of_impact(tb, p0[i], p1[i], tol=TOL, rel_err=0.0))
        rec.update(us_exact=us * 1e6, calls_exact=rel.distance_calls, status_exact=rel.status)
        poses = poses_at(p0[i], p1[i], np.linspace(0, 1, DISCRETE))
        us, rec["discrete"] = best_of(lambda: discrete(ta, tb, poses))
        rec["us_discrete"] = us * 1e6
        if models:
            # bvtool at the naive solver's own poses (t = k/9): the same first
            # contact if python-fcl interpolates the motion as bvtool does.
            at = ta.collide_batch(tb, poses_at(p0[i], p1[i], NAIVE_TS))
            runs = [fcl_ccd(models, p0[i], p1[i], fcl.CCDSolverType.CCDC_NAIVE) for _ in range(3)]
            h, toc = runs[-1][:2]
            same = h == at.any() and (not h or abs(toc - NAIVE_TS[np.argmax(at)]) < 1e-12)
            rec.update(naive=h, naive_toc=toc, us_naive=min(r[2] for r in runs) * 1e6, naive_same=same)
        if args.oracle:
            c, ts, meets = oracle(ta, tb, p0[i], p1[i], args.samples)
            rec["oracle"] = c
            rec["oracle_first_sample"] = float(ts[np.argmax(meets)]) if meets.any() else None
            rec["oracle_before_free"] = bool(meets[ts < got.free_until].any()) or (c is not None and c < got.free_until)
        recs.append(rec)
    if models and args.fcl_ca != 0:
        k = n if args.fcl_ca < 0 else min(n, args.fcl_ca)
        for rec, (h, toc, us) in zip(recs, fcl_ca_all(a, b, p0[:k], p1[:k], args.processes)):
            rec.update(ca=h, ca_toc=toc, us_ca=us)
    if name == "thin":
        for rec, l, h in zip(recs, lo, hi):
            rec["lo"], rec["hi"] = float(l), float(h)
    # Disagreements and undecided answers, explained by exact checks.
    for rec in recs:
        i = rec["motion"]
        if rec["status"] == "undecided":
            least = ta.least_distance(tb, [p0[i], p1[i]])
            details.append({"pair": name, "motion": i, "kind": "undecided", "free_until": rec["free_until"],
                            "calls": rec["calls"], "least_distance": float(least["distance"]),
                            "least_lower": float(least["lower"]), "oracle": rec.get("oracle")})
            rec["least"] = (float(least["lower"]), float(least["distance"]))
        for solver in ("naive", "ca"):
            if solver not in rec or rec["status"] == "undecided":
                continue
            if (rec["status"] == "hit") != rec[solver]:
                ex = explain_fcl(ta, tb, b, models, p0[i], p1[i], rec, solver, rec[solver], rec[solver + "_toc"])
                rec[solver + "_why"] = ex
                details.append({"pair": name, "motion": i, "t": rec["t"], **ex})
    return a, b, recs


# tables ------------------------------------------------------------------------

def fmt_us(xs):
    return f"{med(xs):,.0f}" if xs else "–"


def speed_row(label, recs):
    far = [r for r in recs if r["status"] == "free" and r["calls"] <= 1]
    hits = sum(r["status"] == "hit" for r in recs)
    cells = [label, f"{len(recs):,}", f"{hits:,}",
             f"{fmt_us([r['us'] for r in recs])} ({med([r['calls'] for r in recs]):g} calls, max {max(r['calls'] for r in recs):,})",
             f"{fmt_us([r['us_exact'] for r in recs])} ({med([r['calls_exact'] for r in recs]):g} calls)",
             fmt_us([r["us_discrete"] for r in recs]),
             f"{len(far):,}: {fmt_us([r['us'] for r in far])} / {fmt_us([r['us_discrete'] for r in far])}"]
    if "naive" in recs[0]:
        ca = [r for r in recs if "ca" in r]
        cells += [fmt_us([r["us_naive"] for r in recs]),
                  f"{fmt_us([r['us_ca'] for r in ca])} ({len(ca):,} motions)" if ca else "–"]
    return "| " + " | ".join(cells) + " |"


def oracle_row(label, recs):
    hit = [r for r in recs if r["status"] == "hit"]
    free = [r for r in recs if r["status"] == "free"]
    und = [r for r in recs if r["status"] == "undecided"]
    within = [r for r in hit if r["oracle"] is not None and r["t"] - TOL - 1e-12 <= r["oracle"] <= r["t"] + 1e-12]
    later = [r for r in hit if r["oracle"] is not None and r["oracle"] > r["t"] + 1e-12]
    none = [r for r in hit if r["oracle"] is None]
    cert = sum(r["t"] - TOL <= r["free_until"] <= r["t"] for r in hit)
    confirmed = lambda rs: f"{len(rs)} ({sum(r['collide_at_t'] for r in rs)} confirmed)"  # noqa: E731
    cells = [label, f"{len(hit):,} / {len(free):,} / {len(und)}",
             str(sum(r["oracle"] is not None for r in free)),
             str(sum(r["oracle_before_free"] for r in recs)),
             f"{len(within):,}", confirmed(later), confirmed(none),
             f"{sum(r['collide_at_pose'] for r in hit):,} / {sum(r['collide_at_t'] for r in hit):,} / {cert:,}"]
    return "| " + " | ".join(cells) + " |"


def fcl_rows(label, recs):
    rows = []
    for solver, title in (("naive", "naive (10 poses)"), ("ca", "conservative advancement")):
        rs = [r for r in recs if solver in r and r["status"] != "undecided"]
        if not rs:
            continue
        hits = [r for r in rs if r["status"] == "hit"]
        miss = [r[solver + "_why"] for r in hits if not r[solver]]
        false = [r[solver + "_why"] for r in rs if r["status"] == "free" and r[solver]]
        m = f"{len(miss)} of {len(hits):,}"
        if miss:
            m += f": collide at t true in {sum(x['collide_at_t'] for x in miss)}"
            if solver == "naive":
                m += f"; bvtool finds no contact at the 10 sampled poses in {sum(x['bvtool_at_fcl_samples'] == 0 for x in miss)}"
            else:
                m += f"; fcl's own collide finds the contact in {sum(x['fcl_collide_at_contact'] for x in miss)}"
        if solver == "naive":
            m += f" (same first contact as bvtool at its 10 poses: {sum(r['naive_same'] for r in rs):,} of {len(rs):,} motions)"
        f = f"{len(false)} of {len(rs) - len(hits):,}"
        if false:
            pos = sum(x["distance_at_toc"] > x["rounding_bound"] for x in false)
            low = sum(x["least_lower"] > 0 for x in false)
            f += (f": bvtool distance at fcl's toc > 0 in {pos} (median {med([x['distance_at_toc'] for x in false]):.3g},"
                  f" median / speed bound {med([x['distance_at_toc'] / x['speed_bound'] for x in false]):.2g});"
                  f" least distance over the motion certified > 0 in {low} (min lower bound"
                  f" {min(x['least_lower'] for x in false):.3g}); fcl's own collide at toc true in"
                  f" {sum(x['fcl_collide_at_toc'] for x in false)}, its own distance there > 0 in"
                  f" {sum(x['fcl_distance_at_toc'] > 0 for x in false)}")
        rows.append(f"| {label} | {title} | {len(rs):,} | {m} | {f} |")
    return rows


def thin_summary(recs):
    hits = [r for r in recs if r["hi"] - r["lo"] > 1e-7]
    frees = [r for r in recs if r["lo"] - r["hi"] > 1e-7]
    ok = [r for r in hits if r["status"] == "hit" and r["collide_at_pose"] and r["lo"] - 1e-9 <= r["t"] <= r["lo"] + TOL + 1e-9
          and r["free_until"] <= r["lo"] + 1e-9]
    lines = [f"thin blade past thin pin: {len(recs):,} motions, {len(hits):,} with contact (lasting "
             f"{min(r['hi'] - r['lo'] for r in hits):.3g}–{max(r['hi'] - r['lo'] for r in hits):.3g} of the path), "
             f"{len(frees):,} without; time_of_impact found {len(ok):,} of {len(hits):,} (hit, t within tol of the "
             f"interval's start, collide true at t), certified {sum(r['status'] == 'free' for r in frees):,} of "
             f"{len(frees):,} free; undecided {sum(r['status'] == 'undecided' for r in recs)}"]
    if "oracle" in recs[0]:
        lines.append(f"    the {ORACLE_SAMPLES:,}-sample oracle misses {sum(r['oracle'] is None for r in hits):,} of "
                     f"{len(hits):,} contacts, and sees none of the {len(frees):,} free motions touch: "
                     f"{sum(r['oracle'] is None for r in frees) == len(frees)}")
    lines.append(f"    discrete at {DISCRETE} poses misses {sum(not r['discrete'] for r in hits):,} of {len(hits):,}")
    for solver, title in (("naive", "naive"), ("ca", "CA")):
        rs = [r for r in hits if solver in r]
        if rs:
            fr = [r for r in frees if solver in r]
            lines.append(f"    python-fcl {title}: misses {sum(not r[solver] for r in rs):,} of {len(rs):,} contacts, "
                         f"false contacts {sum(r[solver] for r in fr):,} of {len(fr):,}")
    return lines


ORACLE_SAMPLES = 10_000


def main():
    global ORACLE_SAMPLES, FCL_AS_IS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", default=",".join(DEFAULT_PAIRS), help="comma-separated names, or all")
    ap.add_argument("--motions", type=int, default=100)
    ap.add_argument("--oracle", action="store_true")
    ap.add_argument("--samples", type=int, default=ORACLE_SAMPLES)
    ap.add_argument("--thin", type=int, default=0, help="thin blade / pin motions (0: none)")
    ap.add_argument("--fcl-ca", type=int, default=-1, help="CA on the first N motions per pair (-1: all, 0: none)")
    ap.add_argument("--processes", type=int, default=1, help="worker processes for python-fcl CA")
    ap.add_argument("--fcl-as-is", action="store_true", help="python-fcl's reference points not zeroed")
    ap.add_argument("--details", help="write one JSON line per disagreement / undecided answer here")
    args = ap.parse_args()
    ORACLE_SAMPLES, FCL_AS_IS = args.samples, args.fcl_as_is
    names = list(PAIRS) if args.pairs == "all" else args.pairs.split(",")
    jobs = [(k, PAIRS[k]) for k in names] + ([("thin", None)] if args.thin else [])
    speed, orc, fcls, thin, details, differ = [], [], [], [], [], 0
    for name, files in jobs:
        s = time.time()
        rng = np.random.default_rng([38, (list(PAIRS) + ["thin"]).index(name)])
        a, b, recs = run_pair(name, files, args, rng, details)
        label = (f"{Path(files[0]).stem} / {Path(files[1]).stem} ({len(a.triangles):,} / {len(b.triangles):,})"
                 if files else f"thin blade / pin ({len(a.triangles)} / {len(b.triangles)})")
        print(f"{label}: {len(recs):,} motions in {time.time() - s:.0f} s", flush=True)
        speed.append(speed_row(label, recs))
        differ += sum(r["status"] != r["status_exact"] for r in recs)
        if args.oracle:
            orc.append(oracle_row(label, recs))
        fcls += fcl_rows(label, recs) if name != "thin" else []
        if name == "thin":
            thin = thin_summary(recs)
    fcl_cols = " python-fcl naive | python-fcl CA |" if fcl else ""
    print(f"\nmedian µs per motion, one thread (time_of_impact and discrete: min of 3 runs; tol {TOL:g})\n")
    print("| pair (triangles) | motions | hits | time_of_impact | exact distances (rel_err 0) | discrete, "
          f"{DISCRETE} poses | far motions: time_of_impact / discrete |{fcl_cols}")
    print("|---" * (7 + 2 * bool(fcl)) + "|")
    print("\n".join(speed))
    print(f"\nstatus with rel_err 0 differs from rel_err 0.5 in {differ} motions")
    if orc:
        print(f"\noracle: exact collide at {args.samples:,} samples, the first contact bisected to 1e-12\n")
        print("| pair | hit / free / undecided | free, oracle contact | oracle contact before free_until | "
              "oracle first contact in [t − tol, t] | oracle later than t (t confirmed by collide) | "
              "oracle none (t confirmed) | hits: collide at pose / at scipy pose / t − tol ≤ free_until ≤ t |")
        print("|---" * 8 + "|")
        print("\n".join(orc))
    if fcls:
        print("\npython-fcl continuousCollide (CCDM_LINEAR) against time_of_impact, exact checks\n")
        print("| pair | solver | motions | misses (bvtool hit) | false contacts (bvtool certified free) |")
        print("|---" * 5 + "|")
        print("\n".join(fcls))
    for line in thin:
        print(line)
    und = [d for d in details if d["kind"] == "undecided"]
    for d in und:
        print(f"undecided: {d['pair']} motion {d['motion']}: free until {d['free_until']:.9f} after "
              f"{d['calls']:,} distance calls; least distance over the motion in "
              f"[{d['least_lower']:.3g}, {d['least_distance']:.3g}]; oracle contact {d['oracle']}")
    if args.details:
        with open(args.details, "w") as f:
            for d in details:
                f.write(json.dumps(d, default=float) + "\n")


if __name__ == "__main__":
    main()
