"""bvtool.World against the pairwise check without its broad phase: every
body pair tested with bvtool's own ObbTree.collide / within / distance at
the pair's relative pose, over random pose updates of 30 bodies; and
against trimesh's CollisionManager (python-fcl) when it is importable."""

import os

import numpy as np
import pytest

import bvtool


def icosphere(k):
    """An icosphere of radius 1 made here (no dependency)."""
    g = (1 + 5**0.5) / 2
    v = [[-1, g, 0], [1, g, 0], [-1, -g, 0], [1, -g, 0], [0, -1, g], [0, 1, g],
         [0, -1, -g], [0, 1, -g], [g, 0, -1], [g, 0, 1], [-g, 0, -1], [-g, 0, 1]]
    f = [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4],
         [11, 10, 2], [10, 7, 6], [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8],
         [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]]
    v = [np.array(p, float) / np.linalg.norm(p) for p in v]
    for _ in range(k):
        mid, nf = {}, []
        def m(a, b):
            key = (min(a, b), max(a, b))
            if key not in mid:
                p = v[a] + v[b]
                v.append(p / np.linalg.norm(p))
                mid[key] = len(v) - 1
            return mid[key]
        for a, b, c in f:
            ab, bc, ca = m(a, b), m(b, c), m(c, a)
            nf += [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
        f = nf
    return np.array(v), np.array(f, np.uint32)


def box(size):
    h = np.asarray(size, float) / 2
    v = np.array([[(-1) ** (1 - (i & 1)), (-1) ** (1 - ((i >> 1) & 1)), (-1) ** (1 - ((i >> 2) & 1))]
                  for i in range(8)], float) * h
    q = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]
    f = [[a, b, c] for a, b, c, d in q] + [[a, c, d] for a, b, c, d in q]
    return v, np.array(f, np.uint32)


def random_matrix(rng, size):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    x, y, z, w = q
    r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    m = np.eye(4)
    m[:3, :3] = r
    m[:3, 3] = rng.random(3) * size
    return m


def make_world(rng, n):
    ball = bvtool.ObbTree(bvtool.Mesh(*icosphere(2)))
    world, trees, meshes = bvtool.World(), [], []
    for i in range(n):
        name = f"b{i}"
        m = random_matrix(rng, 4.0)
        if i % 2 == 0:
            world.add_mesh(name, ball, m)
            trees.append(ball)
            meshes.append(icosphere(2))
        else:
            size = (0.5 + rng.random(), 0.4, 0.3 + rng.random())
            world.add_box(name, size, m)
            meshes.append(box(size))
            trees.append(bvtool.ObbTree(bvtool.Mesh(*meshes[-1])))
    return world, trees, meshes


def relative(world, a, b):
    ma, mb = world.pose(a).matrix, world.pose(b).matrix
    return np.linalg.inv(ma) @ mb


def test_world_equals_the_pairwise_check_over_random_updates():
    rng = np.random.default_rng(39)
    n = 30
    world, trees, meshes = make_world(rng, n)
    world.allow("b0", "b1")
    world.allow(5, 2)
    allowed = {(0, 1), (2, 5)}
    hits_seen = 0
    for round_ in range(15):
        mats = np.array([random_matrix(rng, 4.0) for _ in range(n)])
        world.set_poses(list(range(n)), mats)
        want, near, far, least = set(), set(), set(), np.inf
        ga, gb = list(range(0, n, 3)), [i for i in range(n) if i % 3]
        for a in range(n):
            for b in range(a + 1, n):
                if (a, b) in allowed:
                    continue
                pose = relative(world, a, b)
                hit = trees[a].collide(trees[b], pose).intersecting
                # Bodies are solids: surfaces apart, one inside the other
                # (a vertex of it inside the other, by winding number).
                back = np.linalg.inv(pose)
                nested = not hit and bool(
                    trees[a].contains(meshes[b][0][:1] @ pose[:3, :3].T + pose[:3, 3])[0]
                    or trees[b].contains(meshes[a][0][:1] @ back[:3, :3].T + back[:3, 3])[0]
                )
                if hit or nested:
                    want.add((f"b{a}", f"b{b}"))
                d = 0.0 if nested else trees[a].distance(trees[b], pose).distance
                if abs(d - 0.1) > 1e-9:
                    (near if d <= 0.1 else far).add((f"b{a}", f"b{b}"))
                if (a in ga) != (b in ga):
                    least = min(least, d)
        got = set(world.colliding_pairs())
        assert got == want, round_
        within = set(world.within(0.1))
        assert near <= within and not (within & far) and want <= within
        w = world.distance([f"b{i}" for i in ga], gb)
        assert abs(w.distance - least) <= 2 * w.rounding_bound + 1e-12
        assert w.bodies[0] in {f"b{i}" for i in ga}
        others = sorted(int((set(p) - {"b3"}).pop()[1:]) for p in want if "b3" in p)
        assert world.collide_one("b3") == [f"b{i}" for i in others]
        hits_seen += len(want)
    assert hits_seen > 10


def test_world_agrees_with_trimesh_collision_manager():
    trimesh = pytest.importorskip("trimesh")
    pytest.importorskip("fcl")
    rng = np.random.default_rng(7)
    n = 25
    world, trees, meshes = make_world(rng, n)
    manager = trimesh.collision.CollisionManager()
    for i, (v, f) in enumerate(meshes):
        manager.add_object(f"b{i}", trimesh.Trimesh(v, f, process=False), transform=world.pose(i).matrix)

    agree = 0
    for _ in range(10):
        mats = np.array([random_matrix(rng, 4.0) for _ in range(n)])
        world.set_poses([f"b{i}" for i in range(n)], mats)
        for i in range(n):
            manager.set_transform(f"b{i}", mats[i])
        _, names = manager.in_collision_internal(return_names=True)
        fcl_pairs = {tuple(sorted(p, key=lambda s: int(s[1:]))) for p in names}
        ours = set(world.colliding_pairs())
        # Bodies are solids for both (a body wholly inside another
        # collides); where they differ the pair is within 1e-6 of touching.
        for a, b in ours ^ fcl_pairs:
            assert world.distance([a], [b]).distance <= 1e-6, (a, b)
        agree += len(ours & fcl_pairs)
    assert agree > 5


def test_bad_input_is_a_value_error():
    world = bvtool.World()
    world.add_sphere("s", 1.0)
    world.add_capsule("c", 0.5, 1.0, (np.array([3.0, 0, 0]), np.array([0, 0, 0, 1.0])))
    world.add_cylinder("y", 0.5, 1.0, [5.0, 0, 0, 0, 0, 0, 1])
    assert 0 < world.tessellation_tolerance < 0.01
    assert world.names == ["s", "c", "y"] and len(world) == 3
    with pytest.raises(ValueError):
        world.add_sphere("s", 1.0)
    with pytest.raises(ValueError):
        world.add_sphere("t", -1.0)
    with pytest.raises(ValueError):
        world.set_pose("nobody", np.eye(4))
    with pytest.raises(ValueError):
        world.set_pose("s", [np.nan, 0, 0, 0, 0, 0, 1])
    with pytest.raises(ValueError):
        world.within(np.nan)
    with pytest.raises(ValueError):
        world.set_poses(["s", "c"], [np.eye(4)])
    assert world.colliding_pairs() == []
    world.set_pose("c", [1.2, 0, 0, 0, 0, 0, 1])
    assert world.colliding_pairs() == [("s", "c")]
    assert world.collide_one("c") == ["s"]


def test_robot_world_collision(models):
    urdf = models / "urdf" / "example-robot-data" / "robots" / "panda_description" / "urdf" / "panda.urdf"
    robot = bvtool.Robot(str(urdf))
    world = bvtool.World()
    # A thin plate across the arm's column at z = 0.3, and a box far away.
    world.add_box("plate", (4.0, 4.0, 0.001), [0, 0, 0.3, 0, 0, 0, 1])
    world.add_box("far", (0.1, 0.1, 0.1), [10.0, 0, 0, 0, 0, 0, 1])
    rng = np.random.default_rng(3)
    lims = np.array([l if l is not None else (-np.pi, np.pi) for l in robot.joint_limits])
    qs = lims[:, 0] + (lims[:, 1] - lims[:, 0]) * rng.random((40, robot.dof))
    qs[0] = np.clip(0.0, lims[:, 0], lims[:, 1])
    batch = robot.world_collision(qs, world)
    assert len(batch) == 40
    for q, pairs in zip(qs, batch):
        one = robot.world_collision(q, world)
        assert np.array_equal(one, pairs) and pairs.shape[1:] == (2,)
        assert set(pairs[:, 1].tolist()) <= {0}
    # The plate cuts the standing arm's column: some link touches it.
    assert len(batch[0]) > 0
    # Moved away, nothing touches; a box holding the whole arm touches no
    # triangle, but bodies are solids: every link with a shape lies in it.
    world.set_pose("plate", [0, 0, -5.0, 0, 0, 0, 1])
    assert all(len(p) == 0 for p in robot.world_collision(qs, world))
    world.add_box("room", (10.0, 10.0, 10.0))
    inside = robot.world_collision(qs, world)
    assert len(inside[0]) > 5
    assert all(np.array_equal(p, inside[0]) and set(p[:, 1].tolist()) == {2} for p in inside)


FORK_SCENARIO = """
import multiprocessing as mp, os, sys
import numpy as np  # its own threads (BLAS) are not bvtool's

def others():  # the threads not named bvtool-N (the pool's)
    names = [open(f"/proc/self/task/{t}/comm").read().strip() for t in os.listdir("/proc/self/task")]
    return sorted(n for n in names if not n.startswith("bvtool-"))

before = others()
import bvtool
from mp_tasks import small_world, world_answers, world_and_robot_in_child

urdf = sys.argv[1]
# The parent builds and queries a World (and a Robot) before forking: the
# case that used to hang a forked child (rayon's global pool).
expected = world_answers(small_world(3))
robot = bvtool.Robot(urdf)
qs = np.random.default_rng(1).uniform(-2.5, 2.5, (64, robot.dof))
want_robot = robot.self_collision(qs).tolist()
assert expected[0] and expected[1], "the world has colliding pairs"
# Every thread the calls started is a bvtool-N worker: no global pool
# (whose workers would stay; a short-lived helper thread may take a moment
# to end).
import time
for _ in range(50):
    if others() == before:
        break
    time.sleep(0.02)
assert others() == before, (before, others())
with mp.get_context("fork").Pool(2) as pool:
    got = [r.get(timeout=50) for r in [pool.apply_async(world_and_robot_in_child, ((3, urdf, qs),)) for _ in range(4)]]
for world, hits, pid in got:
    assert world == expected and hits == want_robot and pid != os.getpid()
print("ok", len(got))
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc and fork")
def test_forked_children_of_a_parent_that_queried_a_world(tmp_path):
    from test_processes import run_script
    from test_robot_acm import URDF

    urdf = tmp_path / "boxes.urdf"
    urdf.write_text(URDF)
    out = run_script(f"import sys; sys.argv = ['x', {str(urdf)!r}]\n" + FORK_SCENARIO)
    assert out.split() == ["ok", "4"]
