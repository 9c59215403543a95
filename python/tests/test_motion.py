"""Time of impact (`ObbTree.time_of_impact`, `time_of_impact_batch`)
against a closed-form contact time and against bvtool's exact discrete
`collide_batch` at 1,001 poses interpolated by scipy's `Slerp` (an
independent implementation of the stated motion)."""

from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation, Slerp

import bvtool

Q = (0, 0, 0, 1)
TORUS = Path(__file__).resolve().parents[2] / "models" / "torus.obj"


@pytest.fixture(scope="module")
def torus():
    return bvtool.ObbTree(bvtool.load_mesh(str(TORUS)))


def rows(translations, quats):
    return np.hstack([translations, quats])


def test_torus_moving_along_x_first_touches_at_the_closed_form_time(torus):
    # R = 1, r = 0.35, vertices on the x axis: first touch at x = 2.7.
    hit = torus.time_of_impact(torus, (4, 0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 0, 1), tol=1e-9)
    assert hit.hit and hit.status == "hit" and bool(hit)
    assert hit.free_until <= 0.325 + 1e-12 <= hit.t + 2e-12 and hit.t - hit.free_until <= 1e-9
    assert np.allclose(hit.pose.translation, (4 - 4 * hit.t, 0, 0))
    assert np.abs(hit.point_a - hit.point_b).max() < 1e-12 and hit.distance == 0.0
    assert torus.collide(torus, hit.pose).intersecting
    near = torus.time_of_impact(torus, ((4, 0, 0), Q), ((0, 0, 0), Q), clearance=0.1, tol=1e-9)
    assert abs(near.t - 0.3) <= 1e-9 and near.distance <= 0.1
    free = torus.time_of_impact(torus, ((0, 10, 0), Q), ((4, 10, 0), Q))
    assert (free.status, free.t, free.free_until, free.pose) == ("free", None, 1.0, None)
    # Far from A: certified by the per-node swept test, no distance query.
    assert free.distance_calls == 0


def test_batch_against_dense_exact_sampling(torus):
    rng = np.random.default_rng(38)
    n = 40
    t0 = rng.uniform(-2.5, 2.5, (n, 3))
    t1 = rng.uniform(-2.5, 2.5, (n, 3))
    r0 = Rotation.random(n, random_state=1)
    turn = Rotation.from_rotvec(rng.normal(size=(n, 3)) * np.where(np.arange(n) % 2 == 0, 0.15, 1.5)[:, None])
    r1 = r0 * turn
    p0, p1 = rows(t0, r0.as_quat()), rows(t1, r1.as_quat())
    got = torus.time_of_impact_batch(torus, p0, p1)
    assert set(got) == {"hit", "undecided", "t", "free_until", "distance_calls", "point_a", "point_b"}
    assert got["point_a"].shape == (n, 3) and not got["undecided"].any()
    ts = np.linspace(0.0, 1.0, 1001)
    hits = 0
    for i in range(n):
        one = torus.time_of_impact(torus, p0[i], p1[i])
        assert one.hit == got["hit"][i] and one.free_until == got["free_until"][i]
        slerp = Slerp([0, 1], Rotation.from_quat([r0[i].as_quat(), r1[i].as_quat()]))
        poses = rows(t0[i] + ts[:, None] * (t1[i] - t0[i]), slerp(ts).as_quat())
        meets = torus.collide_batch(torus, poses)
        first = ts[np.argmax(meets)] if meets.any() else None
        if not got["hit"][i]:
            assert first is None, f"motion {i}: missed a contact at t = {first}"
            continue
        hits += 1
        t, free = got["t"][i], got["free_until"][i]
        assert t - 1e-6 <= free <= t
        assert not meets[ts < free].any(), f"motion {i}: contact before free_until {free}"
        if first is not None:
            assert t <= first + 1e-6
    assert 5 <= hits < n


def test_bad_options_raise_value_error(torus):
    with pytest.raises(ValueError, match="tolerance"):
        torus.time_of_impact(torus, None, ((1, 0, 0), Q), tol=0.0)
    with pytest.raises(ValueError, match="clearance"):
        torus.time_of_impact(torus, None, ((1, 0, 0), Q), clearance=-1.0)
    with pytest.raises(ValueError, match="as many"):
        torus.time_of_impact_batch(torus, np.zeros((2, 7)) + [0, 0, 0, 0, 0, 0, 1], np.zeros((1, 7)) + [0, 0, 0, 0, 0, 0, 1])


def test_path_collides_is_time_of_impact_segment_by_segment(torus):
    # A three-segment path: past the twin at 1.2 above, then down through it.
    poses = np.array([[-3, 0, 1.2, 0, 0, 0, 1], [3, 0, 1.2, 0, 0, 0, 1], [3, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 1]], float)
    segment, impact = torus.path_collides(torus, poses, tol=1e-9)
    assert segment == 2 and impact.hit
    for k in range(segment):
        assert torus.time_of_impact(torus, poses[k], poses[k + 1]).status == "free"
    alone = torus.time_of_impact(torus, poses[2], poses[3], tol=1e-9)
    assert abs(alone.t - impact.t) <= 1e-9 and abs(impact.t - 0.3 / 3) <= 1e-9  # x = 2.7
    free_segment, free = torus.path_collides(torus, poses[:2])
    assert (free_segment, free.status) == (0, "free")
    with pytest.raises(ValueError):
        torus.path_collides(torus, poses[:1])


def test_least_distance_over_a_path_is_the_sampled_minimum(torus):
    # The pass 1.2 above the twin: least distance 0.5 (top ring z = 0.35 against
    # the moving bottom ring z = 0.85), reached while they overlap.
    poses = np.array([[-3, 0, 1.2, 0, 0, 0, 1], [3, 0, 1.2, 0, 0, 0, 1], [3, 2, 0.5, 0.2, 0, 0, 0.98]], float)
    least = torus.least_distance(torus, poses)
    assert least["certified"] and least["lower"] <= least["distance"] <= least["lower"] * (1 + 1e-3)
    sampled = np.inf
    for k in range(len(poses) - 1):
        rot = Slerp([0, 1], Rotation.from_quat(poses[k : k + 2, 3:]))
        for t in np.linspace(0, 1, 201):
            pose = np.hstack([(1 - t) * poses[k, :3] + t * poses[k + 1, :3], rot([t]).as_quat()[0]])
            d = torus.distance(torus, pose).distance
            assert least["lower"] <= d + 1e-12
            sampled = min(sampled, d)
    assert least["distance"] <= sampled * (1 + 1e-3) + 1e-12
    at = torus.distance(torus, least["pose"]).distance
    assert abs(at - least["distance"]) <= 1e-3 * at + 1e-12
    assert np.linalg.norm(least["point_b"] - least["point_a"]) == pytest.approx(least["distance"], abs=1e-12)
    through = torus.least_distance(torus, [((4, 0, 0), Q), ((0, 0, 0), Q)])
    assert through["distance"] == 0.0 and through["lower"] == 0.0 and through["certified"]


def box_mesh(half):
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float) * half
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    return bvtool.Mesh(corners, [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))])


def test_thin_blade_past_thin_pin_every_short_contact_is_found():
    # A 1e-3-thick blade (half extents w, 1, 0.5) crossing a 1e-3 × 1e-3 pin
    # (w, w, 1) at the origin, 100 units along x a path at fixed (y, z): they
    # meet exactly while |x| <= 2w (B's centre in the boxes' Minkowski sum,
    # half extents (2w, 1 + w, 1.5)), for 4w / 100 = 2e-5 of the path, far
    # below the spacing of 1,001 samples.
    w = 5e-4
    pin, blade = bvtool.ObbTree(box_mesh([w, w, 1.0])), bvtool.ObbTree(box_mesh([w, 1.0, 0.5]))
    rng = np.random.default_rng(385)
    ts, between = np.linspace(0.0, 1.0, 1001), 0
    for k in range(8):
        x0 = -100.0 * rng.uniform(0.05, 0.95)
        y, z = rng.uniform(-0.99, 0.99), rng.uniform(-1.45, 1.45)
        p0, p1 = (x0, y, z, 0, 0, 0, 1), (x0 + 100.0, y, z, 0, 0, 0, 1)
        lo, hi = (-2 * w - x0) / 100.0, (2 * w - x0) / 100.0
        got = pin.time_of_impact(blade, p0, p1)
        assert got.status == "hit", (k, lo, got)
        assert got.free_until <= lo + 1e-9 and lo - 1e-9 <= got.t <= lo + got.tol + 1e-9, (k, lo, got)
        assert pin.collide(blade, got.pose).intersecting
        mid = ((1 - (lo + hi) / 2) * x0 + (lo + hi) / 2 * (x0 + 100.0), y, z, 0, 0, 0, 1)
        assert pin.collide(blade, mid).intersecting
        samples = rows(np.outer(1 - ts, p0[:3]) + np.outer(ts, p1[:3]), np.tile(Q, (len(ts), 1)))
        between += not pin.collide_batch(blade, samples).any()
        # Beside the pin (|y| > 1 + w) the same pass is certified free.
        beside = pin.time_of_impact(blade, (x0, 1.01 + w, z, 0, 0, 0, 1), (x0 + 100.0, 1.01 + w, z, 0, 0, 0, 1))
        assert beside.status == "free"
    assert between >= 6  # contacts the 1,001 samples do not see
