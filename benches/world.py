#!/usr/bin/env python3
"""A world of moving bodies: a pose update plus an all-pairs query against
rebuilding, and against trimesh's CollisionManager (python-fcl).

100 bodies: 50 copies of the low-res Stanford bunny (3,674 triangles,
scaled to about 1 unit; one shared tree) and 50 boxes, at random poses in
a cube of edge 6 (a few dozen colliding pairs). Each repetition moves
every body a small random step (0.05 units, 0.05 rad), then asks for every
colliding pair. Timed, median of REPS repetitions, one sitting:

- `update`: `World.set_poses` of all 100 bodies (the broad phase re-sorted
  by insertion sort) + `colliding_pairs()`;
- `rebuild, trees shared`: a new `World` with the same trees (`add_mesh`
  of the shared `ObbTree`, `add_box`: the 50 box sizes get their trees
  built again) + `colliding_pairs()`;
- `rebuild, trees built`: a new `World` from the meshes (each body's tree
  built again, as a manager that rebuilds would) + `colliding_pairs()`;
- `trimesh CollisionManager`: `set_transform` of all 100 +
  `in_collision_internal(return_names=True)` (FCL's dynamic AABB tree;
  skipped without trimesh and python-fcl).

Then the same for 10,000 boxes of edge 0.2 (one shared tree) in a cube of
edge 20, each moved 0.02 a step: where the insertion sort and the sweep
dominate.

It checks that the world moved 50 times answers as a world built at its
last poses, and compares the pairs with FCL's (which may differ where a
body lies wholly inside another — FCL reports those, bvtool's surface
queries do not — or within 1e-6 of touching; each difference is printed
with its distance).

Run: `python benches/world.py` with the extension built and BVTOOL_MODELS
(or ../shared/models). Times include the Python calls (about 1 µs each).
"""

import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import bvtool

REPS = 50
N = 100
ROOT = Path(__file__).resolve().parents[1]
MODELS = Path(os.environ.get("BVTOOL_MODELS", ROOT.parent / "shared" / "models"))


def matrix(q, t):
    x, y, z, w = q / np.linalg.norm(q)
    m = np.eye(4)
    m[:3, :3] = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                 [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                 [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    m[:3, 3] = t
    return m


def median_ms(f):
    times = []
    for _ in range(REPS):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return 1e3 * statistics.median(times)


def main():
    bunny = bvtool.load_mesh(str(MODELS / "obj" / "stanford-bunny.obj"))
    v = np.asarray(bunny.vertices)
    v = (v - v.mean(axis=0)) / np.ptp(v, axis=0).max()
    mesh = bvtool.Mesh(v, np.asarray(bunny.triangles))
    tree = bvtool.ObbTree(mesh)
    rng = np.random.default_rng(1)
    sizes = [tuple(0.3 + 0.7 * rng.random(3)) for _ in range(N // 2)]
    q = rng.normal(size=(N, 4))
    t = rng.random((N, 3)) * 6.0
    names = [f"b{i}" for i in range(N)]

    start = np.array([matrix(q[i], t[i]) for i in range(N)])

    def build(shared):
        w = bvtool.World()
        for i in range(N):
            if i % 2 == 0:
                w.add_mesh(names[i], tree if shared else mesh, start[i])
            else:
                w.add_box(names[i], sizes[i // 2], start[i])
        return w

    world = build(True)

    def step():
        q[:] += rng.normal(size=q.shape) * 0.025
        t[:] += rng.normal(size=t.shape) * 0.05
        return np.array([matrix(q[i], t[i]) for i in range(N)])

    poses = [step() for _ in range(REPS)]
    k = iter(range(10**9))

    def update():
        world.set_poses(names, poses[next(k) % REPS])
        return world.colliding_pairs()

    upd = median_ms(update)
    pairs = world.colliding_pairs()
    # The world moved incrementally answers as one built at its poses.
    fresh = bvtool.World()
    for i in range(N):
        p = world.pose(i)
        if i % 2 == 0:
            fresh.add_mesh(names[i], tree, p)
        else:
            fresh.add_box(names[i], sizes[i // 2], p)
    assert fresh.colliding_pairs() == pairs
    shared = median_ms(lambda: build(True).colliding_pairs())
    built = median_ms(lambda: build(False).colliding_pairs())
    print(f"{N} bodies (50 bunnies of {tree.triangle_count} triangles, 50 boxes), "
          f"{len(pairs)} colliding pairs at the last pose; median of {REPS}, ms")
    print(f"  update (set_poses + colliding_pairs)      {upd:8.3f}")
    print(f"  rebuild, trees shared + colliding_pairs   {shared:8.3f}")
    print(f"  rebuild, trees built + colliding_pairs    {built:8.3f}")
    try:
        import trimesh
        import fcl  # noqa: F401
    except ImportError:
        print("  trimesh CollisionManager: skipped (no trimesh/python-fcl)")
        return
    tm = trimesh.Trimesh(v, np.asarray(bunny.triangles), process=False)
    manager = trimesh.collision.CollisionManager()
    for i in range(N):
        obj = tm if i % 2 == 0 else trimesh.creation.box(extents=sizes[i // 2])
        manager.add_object(names[i], obj, transform=matrix(q[i], t[i]))
    k2 = iter(range(10**9))

    def fcl_update():
        p = poses[next(k2) % REPS]
        for i in range(N):
            manager.set_transform(names[i], p[i])
        return manager.in_collision_internal(return_names=True)

    f = median_ms(fcl_update)
    print(f"  trimesh CollisionManager (python-fcl)     {f:8.3f}")
    world.set_poses(names, poses[0])
    for i in range(N):
        manager.set_transform(names[i], poses[0][i])
    ours = set(world.colliding_pairs())
    theirs = {tuple(sorted(p, key=lambda s: int(s[1:]))) for p in
              manager.in_collision_internal(return_names=True)[1]}
    for a, b in sorted(ours ^ theirs):
        d = world.distance([a], [b]).distance
        who = "bvtool" if (a, b) in ours else "FCL"
        print(f"  differs: {a}-{b} reported by {who} only (surface distance {d:.3e})")
    print(f"  colliding pairs: bvtool {len(ours)}, FCL {len(theirs)}, both {len(ours & theirs)}")


def many():
    n = 10_000
    rng = np.random.default_rng(2)
    names = [f"c{i}" for i in range(n)]
    start = np.zeros((n, 7))
    start[:, :3] = rng.random((n, 3)) * 20.0
    start[:, 6] = 1.0
    steps = []
    p = start.copy()
    for _ in range(REPS):
        p = p.copy()
        p[:, :3] += rng.normal(size=(n, 3)) * 0.02
        steps.append(p)
    world = bvtool.World()
    for i in range(n):
        world.add_box(names[i], (0.2, 0.2, 0.2), start[i])
    k = iter(range(10**9))

    def update():
        world.set_poses(names, steps[next(k) % REPS])
        return world.colliding_pairs()

    def rebuild():
        w = bvtool.World()
        p = steps[0]
        for i in range(n):
            w.add_box(names[i], (0.2, 0.2, 0.2), p[i])
        return w.colliding_pairs()

    upd = median_ms(update)
    reb = median_ms(rebuild)
    print(f"{n} boxes, {len(world.colliding_pairs())} colliding pairs; median of {REPS}, ms")
    print(f"  update (set_poses + colliding_pairs)      {upd:8.3f}")
    print(f"  rebuild + colliding_pairs                 {reb:8.3f}")


if __name__ == "__main__":
    main()
    sys.exit(many())
