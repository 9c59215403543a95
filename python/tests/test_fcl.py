"""python-fcl (FCL's OBBRSS trees) against bvtool on the manifest's pairs
that make sense to collide, both run here on the same arrays and poses.

FCL decides triangle pairs in floating point; bvtool exactly. So the two
may differ only at poses where the meshes nearly touch: each disagreement
must be one where the other library's own distance says the surfaces are
within 1e-6 of the pair's size."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import bvtool
from conftest import random_poses

fcl = pytest.importorskip("fcl")

MANIFEST_PAIRS = [
    ("obj/pybullet/duck.obj", "obj/pybullet/teddy2_VHACD_CHs.obj"),
    ("obj/pybullet/duck.obj", "obj/pybullet/duck_vhacd.obj"),
    (
        "obj/mujoco_menagerie/kuka_iiwa_14/assets/link_2_orange.obj",
        "obj/mujoco_menagerie/kuka_iiwa_14/assets/link_2_grey.obj",
    ),
    ("obj/pybullet/kuka_iiwa/meshes/link_1.obj", "obj/pybullet/kuka_iiwa/meshes/link_2.obj"),
    (
        "obj/mujoco_menagerie/shadow_hand/assets/palm.obj",
        "obj/mujoco_menagerie/shadow_hand/assets/f_proximal.obj",
    ),
    (
        "obj/mujoco_menagerie/universal_robots_ur5e/assets/upperarm_1.obj",
        "obj/mujoco_menagerie/universal_robots_ur5e/assets/forearm_2.obj",
    ),
    (
        "stl/mujoco_menagerie/robotiq_2f85/assets/driver.stl",
        "stl/mujoco_menagerie/robotiq_2f85/assets/follower.stl",
    ),
    ("gltf/Duck/glTF-Binary/Duck.glb", "obj/pybullet/duck.obj"),
]


def fcl_object(mesh):
    m = fcl.BVHModel()
    m.beginModel(mesh.vertex_count, mesh.triangle_count)
    m.addSubModel(np.array(mesh.vertices), np.array(mesh.triangles, dtype=np.int64))
    m.endModel()
    return fcl.CollisionObject(m, fcl.Transform())


def fcl_place(obj, row):
    # scipy reads quaternions (x, y, z, w), as bvtool does: an independent
    # conversion to the matrix FCL is given.
    obj.setTransform(fcl.Transform(Rotation.from_quat(row[3:]).as_matrix(), row[:3]))


def fcl_distance(a, b):
    return fcl.distance(a, b, fcl.DistanceRequest(), fcl.DistanceResult())


@pytest.mark.parametrize("a, b", MANIFEST_PAIRS)
def test_fcl_agrees_on_the_manifest_pairs(models, a, b):
    ma, mb = bvtool.load_mesh(models / a), bvtool.load_mesh(models / b)
    ta, tb = bvtool.ObbTree(ma), bvtool.ObbTree(mb)
    fa, fb = fcl_object(ma), fcl_object(mb)
    (la, ha), (lb, hb) = ma.aabb, mb.aabb
    size = max(np.linalg.norm(ha - la), np.linalg.norm(hb - lb))
    rows = random_poses(np.random.default_rng(5), 60, 0.6 * size)
    # Native placement first: most manifest pairs overlap as they are.
    rows[0] = [0, 0, 0, 0, 0, 0, 1]
    for r in rows[1:]:
        r[:3] += (la + ha) / 2 - Rotation.from_quat(r[3:]).apply((lb + hb) / 2)
    ours = ta.collide_batch(tb, rows)
    near = 1e-6 * size
    agree = 0
    for r, hit in zip(rows, ours):
        fcl_place(fb, r)
        theirs = fcl.collide(fa, fb, fcl.CollisionRequest(), fcl.CollisionResult()) > 0
        if theirs == hit:
            agree += 1
        elif hit:
            # FCL missed a contact bvtool found: FCL's own distance must be tiny.
            assert fcl_distance(fa, fb) <= near, (a, b, r)
        else:
            # FCL saw a contact bvtool did not: bvtool's distance must be tiny.
            assert ta.distance(tb, r).distance <= near, (a, b, r)
    assert agree >= 0.95 * len(rows)
    assert 0 < ours.sum() < len(rows)


@pytest.mark.parametrize("a, b", MANIFEST_PAIRS[:4])
def test_fcl_distance_agrees_on_separated_poses(models, a, b):
    ma, mb = bvtool.load_mesh(models / a), bvtool.load_mesh(models / b)
    ta, tb = bvtool.ObbTree(ma), bvtool.ObbTree(mb)
    fa, fb = fcl_object(ma), fcl_object(mb)
    (la, ha), (lb, hb) = ma.aabb, mb.aabb
    size = max(np.linalg.norm(ha - la), np.linalg.norm(hb - lb))
    rows = random_poses(np.random.default_rng(9), 40, 0.6 * size)
    for r in rows:
        r[:3] += (la + ha) / 2 - Rotation.from_quat(r[3:]).apply((lb + hb) / 2)
    ours = ta.distance_batch(tb, rows)
    separated = 0
    for r, d in zip(rows, ours):
        if d == 0:
            continue
        separated += 1
        fcl_place(fb, r)
        assert abs(fcl_distance(fa, fb) - d) <= 1e-9 * size, (a, b, r)
    assert separated >= 10
