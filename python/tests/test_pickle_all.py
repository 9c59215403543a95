"""Every public class of the module pickles (and deep-copies) to an equal
object: one example of each is made here, pickled, and compared field by
field (floats and arrays bit for bit); a class without an example fails the
test, so a new class cannot be forgotten. A pickled World answers bit for
bit as the original over many random poses; corrupted pickles of a World
or a Scene raise ValueError."""

import copy
import inspect
import pickle
import struct

import numpy as np
import pytest

import bvtool
from mp_tasks import poses, small_world, tetra_grid, world_answers
from test_pickle import torus
from test_robot_acm import URDF

# Two tetrahedra that cross, and a third apart (an OBJ of three objects).
OBJ = """o a
v 0 0 0
v 1 0 0
v 0 1 0
v 0 0 1
f 1 2 3
f 1 2 4
f 1 3 4
f 2 3 4
o b
v 0.2 0.2 0.2
v 1.2 0.2 0.2
v 0.2 1.2 0.2
v 0.2 0.2 1.2
f 5 6 7
f 5 6 8
f 5 7 8
f 6 7 8
o c
v 3 0 0
v 4 0 0
v 3 1 0
v 3 0 1
f 9 10 11
f 9 10 12
f 9 11 12
f 10 11 12
"""


def examples(tmp_path):
    """One object of every public class, by class name."""
    obj = tmp_path / "three.obj"
    obj.write_text(OBJ)
    urdf = tmp_path / "boxes.urdf"
    urdf.write_text(URDF)
    mesh = torus()
    tree = bvtool.ObbTree(mesh)
    pose = bvtool.Pose((0.3, 0.1, 0.0), (0.0, 0.0, 0.6, 0.8))
    scene = bvtool.load(obj)
    fit = bvtool.fit(mesh, shapes="capsule,cylinder,hull:16,best,kdop18,decompose")
    dec = bvtool.decompose(mesh, max_hulls=4, max_vertices=16, resolution=24)
    clashes = bvtool.clash(obj, all_pairs=True, clearance=0.05)
    crossing = bvtool.load_mesh(obj)
    world = small_world(4)
    near = (np.r_[0.75, 0, 0], np.r_[0, 0, 0, 1.0])
    cube = bvtool.Convex.box((0, 0, 0), (1, 1, 1))
    ex = {
        "Mesh": mesh,
        "Scene": scene,
        "Instance": scene.instances[1],
        "TriangleSource": crossing.source(5),
        "Pose": pose,
        "ObbTree": tree,
        "Collision": tree.collide(tree, near, mode="all"),
        "Distance": tree.distance(tree, ((3.0, 0.1, 0.2), (0, 0, 0.6, 0.8))),
        "SignedDistance": tree.distance(tree, near, signed=True),
        "Convex": bvtool.Convex.cylinder((0.1, 0, 0), (0, 1, 1), 0.5, 1.0),
        "ConvexDistance": bvtool.convex_distance(cube, cube, ((0.5, 0.5, 1.8), (0, 0, 0, 1))),
        "Clearance": tree.within(tree, ((2.8, 0, 0), (0, 0, 0, 1)), 0.2, mode="all"),
        "Impact": tree.time_of_impact(tree, ((3.0, 0, 0), (0, 0, 0, 1)), ((0.5, 0, 0), (0, 0, 0, 1))),
        "Fit": fit,
        "Aabb": fit.aabb,
        "Obb": fit.obb,
        "Sphere": fit.sphere,
        "Round": fit.capsule,
        "BudgetHull": fit.hull_budget,
        "Kdop": fit.kdops[1],
        "Decomposition": dec,
        "ConvexPart": dec.parts[0],
        "Clashes": clashes,
        "Clash": clashes.clashes[0],
        "Severity": clashes.clashes[0].severity,
        "Part": clashes.parts[1],
        "TrianglePair": clashes.clashes[0].pairs[0],
        "SelfIntersections": bvtool.self_intersections(crossing),
        "Robot": bvtool.Robot(str(urdf)),
        "World": world,
        "WorldDistance": world.distance(range(0, len(world), 2), range(1, len(world), 2)),
    }
    assert ex["Impact"].hit and ex["SignedDistance"].depth > 0 and len(ex["SelfIntersections"]) > 0
    return ex


def public_classes():
    return {
        name: c
        for name, c in vars(bvtool.bvtool).items()
        if inspect.isclass(c) and not issubclass(c, BaseException) and not name.startswith("_")
    }


def same(x, y, path="", seen=None):
    """x and y equal: floats and arrays bit for bit, bvtool objects field by
    field (their public, non-callable attributes), recursively."""
    seen = set() if seen is None else seen
    assert type(x) is type(y), (path, type(x), type(y))
    if isinstance(x, float):
        assert struct.pack("<d", x) == struct.pack("<d", y), path
    elif isinstance(x, np.ndarray):
        assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), path
    elif isinstance(x, (list, tuple)):
        assert len(x) == len(y), path
        for k, (a, b) in enumerate(zip(x, y)):
            same(a, b, f"{path}[{k}]", seen)
    elif isinstance(x, dict):
        assert x.keys() == y.keys(), path
        for k in x:
            same(x[k], y[k], f"{path}[{k!r}]", seen)
    elif type(x).__module__.startswith("bvtool"):
        if type(x).__repr__ is not object.__repr__:
            assert repr(x) == repr(y), path
        if id(x) in seen:
            return
        seen.add(id(x))
        for name in dir(x):
            if name.startswith("_"):
                continue
            a = getattr(x, name)
            if callable(a) and not inspect.isclass(a):
                continue
            same(a, getattr(y, name), f"{path}.{name}", seen)
    else:
        assert x == y, (path, x, y)


def test_every_public_class_pickles_equal(tmp_path):
    ex = examples(tmp_path)
    missing = sorted(set(public_classes()) - set(ex))
    assert not missing, f"classes without a pickling example (add one): {missing}"
    for name, x in ex.items():
        assert type(x).__name__ == name
        for protocol in (2, pickle.HIGHEST_PROTOCOL):
            same(x, pickle.loads(pickle.dumps(x, protocol)), name)
        same(x, copy.deepcopy(x), name)


def test_unpickled_world_answers_bit_for_bit():
    w = small_world(7)
    w.add_sphere("ball", 0.7)
    w.add_sphere("ball2", 0.7, ((2, 2, 2), (0, 0, 0, 1)))
    w.add_capsule("cap", 0.3, 1.0)
    w2 = pickle.loads(pickle.dumps(w, pickle.HIGHEST_PROTOCOL))
    w3 = copy.deepcopy(w)
    assert w2.names == w.names and w2.tessellation_tolerance == w.tessellation_tolerance > 0
    # Shared trees pickle once: the grid's 8 bodies share one, the two
    # balls one; 4 boxes of their own sizes and the capsule.
    assert len(w.__reduce__()[1][0]) == 1 + 4 + 1 + 1
    rng = np.random.default_rng(2)
    meets = 0
    for round_ in range(40):
        p = poses(len(w), seed=round_)
        p[:, :3] *= rng.uniform(0.4, 1.2)
        for x in (w, w2, w3):
            x.set_poses(list(range(len(w))), p)
        want = world_answers(w)
        meets += len(want[0]) > 0
        assert world_answers(w2) == want and world_answers(w3) == want, round_
        assert w2.collide_one("ball") == w.collide_one("ball")
    assert meets > 10
    # The copies are independent: moving one moves no other.
    w3.set_pose("ball", ((50, 0, 0), (0, 0, 0, 1)))
    assert w.pose("ball").translation.tolist() != w3.pose("ball").translation.tolist()


def test_corrupted_world_and_scene_pickles_raise_value_error(tmp_path):
    w = small_world(1)
    ctor, (trees, bodies, allowed, prims) = w.__reduce__()
    bad_tree = bytearray(trees[0])
    bad_tree[500] ^= 8
    cases = [
        ([bytes(bad_tree)] + trees[1:], bodies, allowed, prims),
        (trees, [(bodies[0][0], bodies[0][1], [(99, bodies[0][2][0][1])])] + bodies[1:], allowed, prims),
        (trees, bodies + [bodies[0]], allowed, prims),
        (trees, bodies, allowed + [(0, 999)], prims),
        (trees, [(bodies[0][0], ((0.0, 0, 0), (0.0, 0, 0, 3)), bodies[0][2])] + bodies[1:], allowed, prims),
        (trees, bodies, allowed, [("box", [1.0, 1.0, 1.0], 0)]),
        (trees, bodies, allowed, [("cone", [1.0], 0)]),
    ]
    for k, args in enumerate(cases):
        with pytest.raises(ValueError):
            ctor(*args)
    obj = tmp_path / "three.obj"
    obj.write_text(OBJ)
    s = bvtool.load(obj)
    ctor, args = s.__reduce__()
    path, fmt, skipped, ext, meshes, inst = args
    for bad in (
        (path, "ply", skipped, ext, meshes, inst),
        (path, fmt, skipped, ext, meshes, [inst[0][:7] + (5,)]),
        (path, fmt, skipped, ext, meshes, [inst[0][:6] + ((np.nan,) * 16,) + (0,)]),
    ):
        with pytest.raises(ValueError):
            ctor(*bad)


def test_world_pickles_after_removes():
    """World.remove: indices shift, names stay; a world after removals
    pickles and answers as one built afresh from the survivors."""
    w = small_world(11)
    w.add_sphere("ball", 0.7)
    rng = np.random.default_rng(4)
    for round_ in range(5):
        w.remove(int(rng.integers(len(w))))
        w.remove(w.names[-1])
        w2 = pickle.loads(pickle.dumps(w, pickle.HIGHEST_PROTOCOL))
        assert w2.names == w.names
        p = poses(len(w), seed=round_)
        p[:, :3] *= 0.6
        for x in (w, w2):
            x.set_poses(list(range(len(w))), p)
        assert world_answers(w2) == world_answers(w), round_
    assert len(w) == 13 - 10
