"""bvtool.Robot against its peers: forward kinematics equals yourdfpy's
within 1e-12 on 1,000 configurations of each corpus robot (Panda, UR5,
Allegro hand, double pendulum), and self-collision equals Pinocchio +
coal's computeCollisions over the same link pairs on the Panda and UR5
(the peers are in the `[test]` extras; outside CI a test without its peer
skips)."""

import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import bvtool
from conftest import peer

ROBOTS = {
    "panda": ("robots/panda_description/urdf/panda.urdf", "robots/panda_description/srdf/panda.srdf"),
    "ur5": ("robots/ur_description/urdf/ur5_robot.urdf", "robots/ur_description/srdf/ur5.srdf"),
}


# Forward kinematics on every corpus robot (benches/robots_peers.py
# fk-check runs 10,000 configurations each, against Pinocchio too).
FK_ROBOTS = {
    **{k: v[0] for k, v in ROBOTS.items()},
    "allegro": "robots/allegro_hand_description/urdf/allegro_right_hand.urdf",
    "double_pendulum": "robots/double_pendulum_description/urdf/double_pendulum.urdf",
}


def configurations(robot, n, seed):
    rng = np.random.default_rng(seed)
    lims = [l if l is not None and l[1] > l[0] else (-np.pi, np.pi) for l in robot.joint_limits]
    lo = np.array([l[0] for l in lims])
    hi = np.array([l[1] for l in lims])
    return lo + (hi - lo) * rng.random((n, robot.dof))


@pytest.mark.parametrize("key", sorted(FK_ROBOTS))
def test_forward_kinematics_equals_yourdfpy(models, key):
    yourdfpy = pytest.importorskip("yourdfpy")
    urdf = str(models / "urdf" / "example-robot-data" / FK_ROBOTS[key])
    robot = bvtool.Robot(urdf)
    qs = configurations(robot, 1000, 1)
    poses = robot.forward_kinematics(qs)
    assert poses.shape == (1000, len(robot.link_names), 4, 4)
    assert np.array_equal(robot.forward_kinematics(qs[0]), poses[0])
    y = yourdfpy.URDF.load(urdf, load_meshes=False, build_collision_scene_graph=False)
    for q, p in zip(qs, poses):
        y.update_cfg(dict(zip(robot.joint_names, q)))
        for i, link in enumerate(robot.link_names):
            assert np.abs(y.get_transform(link, y.base_link) - p[i]).max() <= 1e-12, link


@pytest.mark.parametrize("key", sorted(ROBOTS))
def test_self_collision_equals_pinocchio_coal(models, key):
    pin = peer("pinocchio")
    peer("coal")
    pkg = models / "urdf" / "example-robot-data"
    urdf, srdf = (str(pkg / r) for r in ROBOTS[key])
    robot = bvtool.Robot(urdf, srdf=srdf)
    tested = {tuple(sorted((robot.link_names[a], robot.link_names[b]))) for a, b in robot.pairs}
    model = pin.buildModelFromUrdf(urdf)
    geom = pin.buildGeomFromUrdf(model, urdf, pin.GeometryType.COLLISION, package_dirs=[str(pkg.parent)])
    geom.addAllCollisionPairs()
    keep = [
        cp
        for cp in geom.collisionPairs
        if tuple(
            sorted(
                (
                    model.frames[geom.geometryObjects[cp.first].parentFrame].name,
                    model.frames[geom.geometryObjects[cp.second].parentFrame].name,
                )
            )
        )
        in tested
    ]
    geom.removeAllCollisionPairs()
    for cp in keep:
        geom.addCollisionPair(cp)
    data, gdata = model.createData(), pin.GeometryData(geom)
    mimics = [
        (j.get("name"), j.find("mimic").get("joint"), float(j.find("mimic").get("multiplier", 1)), float(j.find("mimic").get("offset", 0)))
        for j in ET.parse(urdf).getroot().findall("joint")
        if j.find("mimic") is not None
    ]
    qs = configurations(robot, 300, 2)
    ours = robot.self_collision(qs)
    assert ours.shape == (300,) and ours.dtype == np.bool_
    theirs = []
    for q in qs:
        values = dict(zip(robot.joint_names, q))
        for name, target, mult, off in mimics:
            values[name] = mult * values[target] + off
        pq = pin.neutral(model)
        for name, v in values.items():
            j = model.joints[model.getJointId(name)]
            pq[j.idx_q] = v
        theirs.append(pin.computeCollisions(model, data, geom, gdata, pq, True))
    assert ours.tolist() == theirs
    assert 0 < ours.sum() < 300
    d = robot.distance(qs[:30])
    assert ((d == 0) == ours[:30]).all()
