"""python-fcl (FCL's OBBRSS trees) against bvtool on the manifest's pairs
that make sense to collide, both run here on the same arrays and poses.

FCL decides triangle pairs in floating point; bvtool exactly. So the two
may differ only at poses where the meshes nearly touch: each disagreement
must be one where the other library's own distance says the surfaces are
within 1e-6 of the pair's size."""

import numpy as np
import pytest

import bvtool
from conftest import poses_near

pytest.importorskip("fcl")
from peers import fcl_collides, fcl_distance, fcl_object, fcl_transform  # noqa: E402

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


def pair_at_poses(models, a, b, seed, n, reach):
    """The pair's trees and FCL objects, its size and n poses (`poses_near`)."""
    ma, mb = bvtool.load_mesh(models / a), bvtool.load_mesh(models / b)
    rows, size = poses_near(ma, mb, seed, n, reach)
    return (bvtool.ObbTree(ma), bvtool.ObbTree(mb)), (fcl_object(ma), fcl_object(mb)), size, rows


@pytest.mark.parametrize("a, b", MANIFEST_PAIRS)
def test_fcl_agrees_on_the_manifest_pairs(models, a, b):
    (ta, tb), (fa, fb), size, rows = pair_at_poses(models, a, b, 5, 60, 0.6)
    # Native placement first: most manifest pairs overlap as they are.
    rows[0] = [0, 0, 0, 0, 0, 0, 1]
    ours = ta.collide_batch(tb, rows)
    near = 1e-6 * size
    agree = 0
    for r, hit in zip(rows, ours):
        fb.setTransform(fcl_transform(r))
        theirs = fcl_collides(fa, fb)
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
    (ta, tb), (fa, fb), size, rows = pair_at_poses(models, a, b, 9, 40, 0.6)
    ours = ta.distance_batch(tb, rows)
    separated = 0
    for r, d in zip(rows, ours):
        if d == 0:
            continue
        separated += 1
        fb.setTransform(fcl_transform(r))
        assert abs(fcl_distance(fa, fb) - d) <= 1e-9 * size, (a, b, r)
    assert separated >= 10
