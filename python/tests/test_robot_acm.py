"""bvtool.Robot.generate_acm and pickling, on a small robot of boxes
written in a temporary folder: the reasons the geometry dictates, Never
pairs never colliding in further independent samples (numpy's PCG64,
checked by Robot.colliding_pairs), the same seed giving the same matrix,
the SRDF read back leaving the tested pairs, bad options raising
ValueError; a pickled Robot answers as the original. (Counts against the
exact pairwise check at the very samples: tests/bodies/robots/acm.rs.)"""

import pickle

import numpy as np
import pytest

import bvtool

URDF = """<?xml version="1.0"?>
<robot name="boxes">
  <link name="base"><collision><geometry><box size="0.6 0.6 0.1"/></geometry></collision></link>
  <link name="sensor"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="l1"><collision><origin xyz="0 0 0.25"/><geometry><box size="0.1 0.1 0.5"/></geometry></collision></link>
  <link name="l2"><collision><origin xyz="0 0 0.25"/><geometry><box size="0.1 0.1 0.5"/></geometry></collision></link>
  <link name="l3"><collision><origin xyz="0 0 0.25"/><geometry><box size="0.1 0.1 0.5"/></geometry></collision></link>
  <joint name="mount" type="fixed"><origin xyz="3 0 0"/><parent link="base"/><child link="sensor"/></joint>
  <joint name="j1" type="continuous"><origin xyz="0 0 0.05"/><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/></joint>
  <joint name="j2" type="revolute"><origin xyz="0 0 0.5"/><parent link="l1"/><child link="l2"/><axis xyz="0 1 0"/>
    <limit lower="-2.8" upper="2.8" effort="1" velocity="1"/></joint>
  <joint name="j3" type="revolute"><origin xyz="0 0 0.5"/><parent link="l2"/><child link="l3"/><axis xyz="0 1 0"/>
    <limit lower="-2.8" upper="2.8" effort="1" velocity="1"/></joint>
</robot>
"""


@pytest.fixture
def urdf(tmp_path):
    p = tmp_path / "boxes.urdf"
    p.write_text(URDF)
    return p


def test_generate_acm_never_pairs_and_srdf(urdf, tmp_path):
    robot = bvtool.Robot(str(urdf))
    acm = robot.generate_acm(samples=3000, seed=7)
    assert acm["samples"] == 3000 and acm["seed"] == 7 and acm["always_fraction"] == 0.95
    assert acm["default_configuration"] == [0.0, 0.0, 0.0]
    pairs = {(p["link1"], p["link2"]): p for p in acm["pairs"]}
    assert len(pairs) == 10  # 5 links with geometry
    assert sum(acm["counts"].values()) == 10
    # sensor is fixed to base far away: adjacent to base and l1, never near l2, l3.
    assert pairs[("base", "sensor")]["reason"] == "Adjacent"
    assert pairs[("l1", "sensor")]["reason"] == "Adjacent"
    for k in [("l2", "sensor"), ("l3", "sensor")]:
        p = pairs[k]
        assert p["reason"] == "Never" and p["collisions"] == 0 and p["samples"] == 3000
        assert p["min_distance"] > 1.0
    # base–l3 collides in some samples only: it stays tested.
    assert pairs[("base", "l3")]["reason"] is None
    assert 0 < pairs[("base", "l3")]["collisions"] < 3000
    assert pairs[("base", "l3")]["min_distance"] == 0.0
    # The same seed, the same matrix; another, other counts.
    assert robot.generate_acm(samples=3000, seed=7) == acm
    other = robot.generate_acm(samples=3000, seed=8)
    assert [p["collisions"] for p in other["pairs"]] != [p["collisions"] for p in acm["pairs"]]
    # Never pairs in further independent samples, by the Robot's own exact check.
    srdf = tmp_path / "boxes.srdf"
    srdf.write_text(acm["srdf"])
    tested = sorted(k for k, p in pairs.items() if p["reason"] is None)
    back = bvtool.Robot(str(urdf), srdf=str(srdf))
    names = back.link_names
    assert sorted(tuple(sorted((names[a], names[b]))) for a, b in back.pairs) == tested
    rng = np.random.default_rng(8)
    lo = np.array([-np.pi, -2.8, -2.8])
    q = lo + rng.random((3000, 3)) * (np.array([np.pi, 2.8, 2.8]) - lo)
    hits = robot.colliding_pairs(q)
    never = {k for k, p in pairs.items() if p["reason"] == "Never"}
    for h in hits:
        assert not {tuple(sorted((names[a], names[b]))) for a, b in h} & never


def test_generate_acm_bad_options(urdf):
    robot = bvtool.Robot(str(urdf))
    for f in (0.0, 1.5, float("nan")):
        with pytest.raises(ValueError):
            robot.generate_acm(samples=10, always_fraction=f)


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_robot_pickles(urdf, tmp_path, protocol):
    srdf = tmp_path / "one.srdf"
    srdf.write_text('<robot name="boxes"><disable_collisions link1="base" link2="l3"/></robot>')
    robot = bvtool.Robot(str(urdf), srdf=str(srdf))
    again = pickle.loads(pickle.dumps(robot, protocol=protocol))
    assert again.link_names == robot.link_names
    assert np.array_equal(again.pairs, robot.pairs)
    q = np.random.default_rng(1).random((50, 3)) * 4 - 2
    assert np.array_equal(again.forward_kinematics(q), robot.forward_kinematics(q))
    assert np.array_equal(again.self_collision(q), robot.self_collision(q))
