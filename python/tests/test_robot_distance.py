"""Robot distances on request: `Robot.distance(q, per_pair=True)` (every
tested link pair, `(N, P)` arrays) and `Robot.world_distance(q, world)`
on the Panda, against the library's other answers used differently: the
least per-pair distance is `Robot.distance`, a pair is at 0 exactly when
`colliding_pairs` lists it, the world distance is 0 exactly when
`world_collision` finds a pair, and the witness points are `distance`
apart. The Rust tests compare both with the unpruned pairwise distance."""

import numpy as np

import bvtool


def panda(models):
    pkg = models / "urdf" / "example-robot-data" / "robots" / "panda_description"
    return bvtool.Robot(str(pkg / "urdf" / "panda.urdf"), srdf=str(pkg / "srdf" / "panda.srdf"))


def configurations(robot, n, seed):
    rng = np.random.default_rng(seed)
    lims = np.array([l if l is not None else (-np.pi, np.pi) for l in robot.joint_limits])
    return lims[:, 0] + (lims[:, 1] - lims[:, 0]) * rng.random((n, robot.dof))


def test_per_pair_distances(models):
    robot = panda(models)
    qs = configurations(robot, 200, 5)
    got = robot.distance(qs, per_pair=True)
    p = len(robot.pairs)
    assert got["distance"].shape == (200, p) and got["rounding_bound"].shape == (200, p)
    assert got["point_a"].shape == (200, p, 3) and got["point_b"].shape == (200, p, 3)
    assert np.array_equal(got["pairs"], robot.pairs)
    names = robot.link_names
    assert got["names"] == [(names[a], names[b]) for a, b in robot.pairs]
    least = robot.distance(qs)
    bound = got["rounding_bound"].max(axis=1)
    assert np.all(np.abs(got["distance"].min(axis=1) - least) <= 2 * bound + 1e-15)
    gap = np.linalg.norm(got["point_a"] - got["point_b"], axis=2)
    assert np.all(np.abs(gap - got["distance"]) <= 1e-12)
    colliding = robot.colliding_pairs(qs)
    for k in range(200):
        hit = {tuple(x) for x in colliding[k].tolist()}
        zero = {tuple(robot.pairs[j].tolist()) for j in np.flatnonzero(got["distance"][k] == 0)}
        assert hit == zero, k
    assert 0 < sum(len(c) > 0 for c in colliding) < 200
    one = robot.distance(qs[7], per_pair=True)
    assert one["distance"].shape == (p,) and np.array_equal(one["distance"], got["distance"][7])


def test_world_distance(models):
    robot = panda(models)
    world = bvtool.World()
    world.add_box("plate", (0.3, 0.3, 0.05), [0.4, -0.3, 0.4, 0, 0, 0, 1])
    world.add_sphere("ball", 0.15, [0.4, 0.3, 0.6, 0, 0, 0, 1])
    qs = configurations(robot, 100, 6)
    got = robot.world_distance(qs, world)
    assert got["distance"].shape == (100,) and got["point_link"].shape == (100, 3)
    touching = np.array([len(p) > 0 for p in robot.world_collision(qs, world)])
    assert np.array_equal(got["distance"] == 0, touching)
    assert touching.any() and not touching.all()
    gap = np.linalg.norm(got["point_link"] - got["point_body"], axis=1)
    assert np.all(np.abs(gap - got["distance"]) <= 1e-12)
    assert set(got["body"].tolist()) <= {0, 1} and got["link"].min() >= 0
    one = robot.world_distance(qs[3], world)
    assert one["distance"] == got["distance"][3] and one["link"] == got["link"][3]
    # Moved away, the plate is 5 m below the base: the distance grows.
    world.set_pose("plate", [0, 0, -5.0, 0, 0, 0, 1])
    world.remove("ball")
    far = robot.world_distance(qs, world)
    assert np.all(far["distance"] > 4.0) and np.all(far["body"] == 0)
    # An empty world: no body, inf and -1.
    world.remove(0)
    none = robot.world_distance(qs[0], world)
    assert none["distance"] == np.inf and none["link"] == -1 and none["body"] == -1
