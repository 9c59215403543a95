"""convex_distance: the signed distance and translational penetration depth
of convex shapes, against closed forms (spheres, a sphere on a box, a box
against itself, face-on-face boxes and parallel capsules with their contact
patches), the batch against single calls, fitted shapes through
Convex.of, bad input; and (coal is in the `[test]` extras) against
coal's GJK/EPA on 1,000 random overlapping poses of every primitive pair
and of corpus hulls, each difference over 1e-9 of the scale checked against
the certified interval."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import bvtool
from conftest import peer

ID = ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))


def test_spheres_and_a_sphere_on_a_box_equal_their_closed_forms():
    rng = np.random.default_rng(1)
    box = bvtool.Convex.box((0.1, 0.2, 0.3), (1.0, 0.5, 0.25))
    for _ in range(200):
        ra, rb = rng.uniform(0.1, 1.0, 2)
        t = rng.uniform(-2, 2, 3)
        a = bvtool.Convex.sphere((0, 0, 0), ra)
        b = bvtool.Convex.sphere((0, 0, 0), rb)
        d = bvtool.convex_distance(a, b, (t, (0, 0, 0, 1)))
        assert d.distance == pytest.approx(np.linalg.norm(t) - ra - rb, abs=1e-11)
        assert np.allclose(d.point_b - d.point_a, d.distance * d.normal, atol=1e-12)
        # The sphere's centre against the box: outside, its distance;
        # inside, minus its depth below the nearest face; less the radius.
        local = np.abs(t - (0.1, 0.2, 0.3)) - (1.0, 0.5, 0.25)
        want = (np.linalg.norm(np.maximum(local, 0)) if local.max() > 0 else local.max()) - rb
        d = bvtool.convex_distance(box, b, (t, (0, 0, 0, 1)))
        assert d.distance <= want + 1e-12 and want <= d.distance + d.bound + 1e-12


def test_a_box_against_itself_and_face_on_face():
    q = Rotation.from_euler("xyz", (0.3, -0.7, 1.1)).as_quat()
    box = bvtool.Convex.box((0.5, -1, 2), (1.5, 0.4, 0.9), q)
    d = bvtool.convex_distance(box, box)
    # The shortest move out of itself: its least width.
    assert d.depth == pytest.approx(0.8, abs=1e-11) and d.distance == -d.depth
    assert abs(abs(np.dot(d.normal, Rotation.from_quat(q).apply((0, 1, 0)))) - 1) < 1e-9
    cube = bvtool.Convex.box((0, 0, 0), (1, 1, 1))
    d = bvtool.convex_distance(cube, cube, ((0.5, 0.5, 1.8), (0, 0, 0, 1)))
    assert d.distance == pytest.approx(-0.2, abs=1e-12)
    assert np.allclose(d.normal, (0, 0, 1), atol=1e-9)
    patch = d.patch
    assert patch.shape == (4, 3)
    assert np.allclose(sorted(map(tuple, patch[:, :2].round(6))), [(-0.5, -0.5), (-0.5, 1), (1, -0.5), (1, 1)])
    assert np.allclose(patch[:, 2], 1.0)


def test_parallel_capsules_touch_along_a_segment():
    a = bvtool.Convex.capsule((0, 0, 0), (1, 0, 0), 0.5, 2.0)
    b = bvtool.Convex.capsule((0, 0, 0), (1, 0, 0), 0.25, 1.0)
    d = bvtool.convex_distance(a, b, ((1.5, 0.6, 0), (0, 0, 0, 1)))
    assert d.distance == pytest.approx(0.6 - 0.75, abs=1e-12)
    assert np.allclose(np.abs(d.normal), (0, 1, 0), atol=1e-9)
    xs = np.sort(d.patch[:, 0])
    assert d.patch.shape == (2, 3) and np.allclose(xs, (0.5, 2.0), atol=1e-6)


def test_the_batch_equals_single_calls_and_fitted_shapes_convert(models):
    rng = np.random.default_rng(2)
    rows = np.c_[rng.uniform(-1, 1, (300, 3)), Rotation.random(300, random_state=3).as_quat()]
    mesh = bvtool.load_mesh(models / "gltf" / "Duck" / "glTF-Binary" / "Duck.glb")
    a = bvtool.Convex.cylinder((0, 0, 0), (0, 1, 0), 0.6, 0.8)
    b = bvtool.Convex.hull(rng.uniform(-0.5, 0.5, (20, 3)), radius=0.05)
    batch = bvtool.convex_distance_batch(a, b, rows)
    single = [bvtool.convex_distance(a, b, r).distance for r in rows]
    assert batch.tolist() == single
    fit = bvtool.fit(mesh, shapes="box,sphere,hull:16,kdop18")
    dec = bvtool.decompose(mesh, max_hulls=4)
    made = [
        (fit.obb, bvtool.Convex.box(fit.obb.center, fit.obb.half_extents, fit.obb.quaternion)),
        (fit.aabb, bvtool.Convex.box(fit.aabb.center, fit.aabb.half_extents)),
        (fit.sphere, bvtool.Convex.sphere(fit.sphere.center, fit.sphere.radius)),
        (fit.hull_budget, bvtool.Convex.hull(fit.hull_budget.vertices)),
        (fit.kdops[0], bvtool.Convex.hull(fit.kdops[0].vertices)),
        (dec.parts[0], bvtool.Convex.hull(dec.parts[0].vertices)),
    ]
    scale = np.abs(mesh.vertices).max()
    for shape, want in made:
        c = bvtool.Convex.of(shape)
        assert c.kind == want.kind and c.radius == want.radius
        assert np.allclose(np.sort(c.points, axis=0), np.sort(want.points, axis=0), atol=1e-9 * scale)
        for r in rows[:20]:
            r = np.r_[r[:3] * scale, r[3:]]
            assert bvtool.convex_distance(c, c, r).distance == pytest.approx(
                bvtool.convex_distance(want, want, r).distance, abs=1e-9 * scale
            )


def test_bad_input_raises_value_error():
    for make in (
        lambda: bvtool.Convex.capsule((0, 0, 0), (0, 0, 0), 1, 1),
        lambda: bvtool.Convex.sphere((0, 0, np.nan), 1),
        lambda: bvtool.Convex.sphere((0, 0, 0), -1),
        lambda: bvtool.Convex.box((0, 0, 0), (1, 1, 1), (0, 0, 0, 3)),
        lambda: bvtool.Convex.hull(np.zeros((0, 3))),
        lambda: bvtool.convex_distance(bvtool.Convex.sphere((0, 0, 0), 1), bvtool.Convex.sphere((0, 0, 0), 1), tolerance=0),
        lambda: bvtool.Convex.of(3),
        lambda: bvtool.Convex.sphere((0, 0, 0), 1e300),
        lambda: bvtool.Convex.cylinder((0, 0, 1e300), (0, 0, 1), 1, 1),
        lambda: bvtool.convex_distance(bvtool.Convex.sphere((0, 0, 0), 1), bvtool.Convex.sphere((0, 0, 0), 1), max_cells=10**12),
    ):
        with pytest.raises((ValueError, TypeError)):
            make()


# --- coal -----------------------------------------------------------------


def random_shape(kind, rng):
    """(bvtool shape, coal geometry, support function h(u) in numpy, scale)
    of one random shape of `kind`. coal's capsule and cylinder lie along z,
    their length the whole height."""
    import coal

    if kind == "box":
        h = rng.uniform(0.1, 1.0, 3)
        return bvtool.Convex.box((0, 0, 0), h), coal.Box(*(2 * h)), lambda u: np.abs(u) @ h, np.linalg.norm(h)
    if kind == "sphere":
        r = rng.uniform(0.1, 1.0)
        return bvtool.Convex.sphere((0, 0, 0), r), coal.Sphere(r), lambda u: r * np.linalg.norm(u), r
    if kind == "capsule":
        r, h = rng.uniform(0.1, 0.6), rng.uniform(0.1, 1.0)
        return (
            bvtool.Convex.capsule((0, 0, 0), (0, 0, 1), r, h),
            coal.Capsule(r, 2 * h),
            lambda u: h * abs(u[2]) + r * np.linalg.norm(u),
            r + h,
        )
    if kind == "cylinder":
        r, h = rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0)
        return (
            bvtool.Convex.cylinder((0, 0, 0), (0, 0, 1), r, h),
            coal.Cylinder(r, 2 * h),
            lambda u: h * abs(u[2]) + r * np.hypot(u[0], u[1]),
            np.hypot(r, h),
        )
    points = rng.normal(size=(24, 3)) * rng.uniform(0.2, 1.0, 3)
    v = coal.StdVec_Vec3s()
    for p in points:
        v.append(p)
    return bvtool.Convex.hull(points), coal.Convex.convexHull(v, False, None), lambda u: (points @ u).max(), np.abs(points).max()


PAIRS = [
    ("box", "box"),
    ("sphere", "box"),
    ("capsule", "capsule"),
    ("capsule", "box"),
    ("cylinder", "box"),
    ("cylinder", "cylinder"),
    ("hull", "hull"),
    ("hull", "cylinder"),
]


def compare_with_coal(kinds, poses, seed):
    """Per pair of random shapes at a random pose: (coal's signed distance,
    bvtool's answer, h_M at bvtool's normal computed here from the shapes'
    own support functions, the scale), overlapping poses only."""
    import coal

    rng = np.random.default_rng(seed)
    req = coal.DistanceRequest()
    req.gjk_tolerance = 1e-12
    req.epa_tolerance = 1e-12
    req.epa_max_iterations = 1000
    out = []
    while len(out) < poses:
        (a, ca, ha, sa), (b, cb, hb, sb) = random_shape(kinds[0], rng), random_shape(kinds[1], rng)
        t = rng.uniform(-1, 1, 3) * 0.6 * (sa + sb)
        rot = Rotation.random(random_state=rng.integers(2**31))
        tb = coal.Transform3s(rot.as_matrix(), t)
        theirs = coal.distance(ca, coal.Transform3s(), cb, tb, req, coal.DistanceResult())
        ours = bvtool.convex_distance(a, b, (t, rot.as_quat()))
        if ours.distance >= 0:
            continue
        n = ours.normal
        # The support of B placed by (R, t) along -n: h_B(R^T (-n)) - t.n.
        h_at_normal = ha(n) + hb(rot.inv().apply(-n)) - t @ n
        out.append((theirs, ours, h_at_normal, sa + sb + np.abs(t).max()))
    return out


@pytest.mark.parametrize("kinds", PAIRS, ids=["-".join(p) for p in PAIRS])
def test_the_depth_equals_coals(kinds):
    """Equal within 1e-9 of the scale, or coal's depth is longer than a
    translation checked here to separate the shapes (B moved by bvtool's
    depth along its normal: the support values along it, from the shapes'
    own formulas, sum to that depth), so coal's is not the shortest."""
    peer("coal")
    seed = PAIRS.index(kinds)
    agree, coal_deeper = 0, 0
    for theirs, ours, h_at_normal, scale in compare_with_coal(kinds, 1000, seed):
        assert not ours.capped and ours.bound <= ours.tolerance
        # bvtool's depth is attained: a separating translation of that length.
        assert abs(h_at_normal - ours.depth) <= 1e-12 * scale
        if abs(theirs - ours.distance) <= 1e-9 * scale:
            agree += 1
        else:
            assert -theirs > ours.depth, (theirs, ours)
            coal_deeper += 1
    assert agree + coal_deeper == 1000
    # Two cylinders: coal's EPA ends on a cap's face normal on about a
    # quarter of the poses (766 of 1,000 agree on this seed); the rest agree
    # on 977 to 1,000.
    assert agree >= 700, (agree, coal_deeper)
