"""`ObbTree.distance(other, pose, signed=True)`: the signed distance and
protrusion depth against the sampling oracle on a box through a box (the
slab-through-cube counterexample: no vertex inside, depth 0.9 at a face's
interior), random overlapping poses of two boxes against dense surface
samples (exact inside test of `contains`, exact `signed_distance` of the
points), and the default call unchanged; `collide(..., contacts=True)`'s
contacts and patches (closed forms, and equal to the command line's)."""

import numpy as np
import pytest

import bvtool

QUADS = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]


def box(h):
    v = np.array([[h[a] if (k >> a) & 1 else -h[a] for a in range(3)] for k in range(8)], float)
    t = np.array([tri for q in QUADS for tri in ([q[0], q[1], q[2]], [q[0], q[2], q[3]])], np.uint32)
    return bvtool.Mesh(v, t)


def test_slab_through_cube_is_a_face_interior():
    slab, cube = bvtool.ObbTree(box([2, 2, 0.1])), bvtool.ObbTree(box([1, 1, 1]))
    assert not cube.contains(slab.mesh.vertices).any() and not slab.contains(cube.mesh.vertices).any()
    s = slab.distance(cube, None, signed=True, depth_tolerance=1e-9)
    assert abs(s.depth - 0.9) <= 1e-9 + 1e-12 and s.side == "a" and s.distance == -s.depth
    assert s.bound <= 1e-9 and not s.capped and s.intersecting
    np.testing.assert_allclose(s.point_b - s.point_a, s.distance * s.normal, atol=1e-12)
    assert abs(abs(s.point_a[2]) - 0.1) < 1e-12
    plain = slab.distance(cube)
    assert plain.distance == 0.0 and not hasattr(plain, "depth")
    apart = slab.distance(cube, ([0, 0, 5], [0, 0, 0, 1]), signed=True)
    assert apart.distance == slab.distance(cube, ([0, 0, 5], [0, 0, 0, 1])).distance > 0
    assert apart.depth == 0 and apart.side is None
    with pytest.raises(ValueError):
        slab.distance(cube, None, depth_tolerance=1e-3)
    with pytest.raises(ValueError):
        slab.distance(cube, None, signed=True, depth_tolerance=0.0)


def quat_matrix(q):
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def surface_samples(mesh, n):
    v, t = mesh.vertices, mesh.triangles.astype(int)
    out = []
    for a in range(n + 1):
        for b in range(n + 1 - a):
            u, w = a / n, b / n
            out.append(v[t[:, 0]] * (1 - u - w) + v[t[:, 1]] * u + v[t[:, 2]] * w)
    h = max(np.linalg.norm(v[t[:, i]] - v[t[:, (i + 1) % 3]], axis=1).max() for i in range(3)) / n
    return np.concatenate(out), h


def test_random_overlaps_against_samples():
    a, b = bvtool.ObbTree(box([0.5, 0.4, 0.3])), bvtool.ObbTree(box([0.3, 0.6, 0.2]))
    rng = np.random.default_rng(37)
    sa, ha = surface_samples(a.mesh, 12)
    sb, hb = surface_samples(b.mesh, 12)
    for _ in range(40):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        t = rng.uniform(-0.5, 0.5, 3)
        r = quat_matrix(q)
        s = a.distance(b, (t, q), signed=True, depth_tolerance=1e-7)
        # A's samples in B's frame, B's in A's.
        pa = (sa - t) @ r
        pb = sb @ r.T + t
        la = np.max(-b.signed_distance(pa), initial=0.0)
        lb = np.max(-a.signed_distance(pb), initial=0.0)
        assert max(la, lb) <= s.depth + s.bound + 1e-9
        assert s.depth <= max(la + ha, lb + hb) + 1e-9
        if s.depth > 0:
            np.testing.assert_allclose(s.point_b - s.point_a, s.distance * s.normal, atol=1e-9)
            assert abs(np.linalg.norm(s.point_b - s.point_a) - s.depth) <= 1e-9


def test_signed_batch_equals_each_pose():
    """distance_batch(signed=True) is each pose's signed distance, bit for
    bit (the same search on the same pose), over poses apart and
    overlapping; without signed=True the depth options are refused."""
    a, b = bvtool.ObbTree(box([0.5, 0.4, 0.3])), bvtool.ObbTree(box([0.3, 0.6, 0.2]))
    rng = np.random.default_rng(5)
    q = rng.normal(size=(300, 4))
    q /= np.linalg.norm(q, axis=1)[:, None]
    rows = np.hstack([rng.uniform(-1.5, 1.5, (300, 3)), q])
    got = a.distance_batch(b, rows, signed=True, depth_tolerance=1e-6)
    want = [a.distance(b, (r[:3], r[3:]), signed=True, depth_tolerance=1e-6).distance for r in rows]
    np.testing.assert_array_equal(got, want)
    assert (got < 0).sum() >= 30 and (got > 0).sum() >= 30
    # Apart, the signed batch is the unsigned one.
    plain = a.distance_batch(b, rows)
    np.testing.assert_array_equal(got[got > 0], plain[got > 0])
    with pytest.raises(ValueError, match="signed=True"):
        a.distance_batch(b, rows, max_splits=10)
    with pytest.raises(ValueError, match="depth_tolerance"):
        a.distance_batch(b, rows, signed=True, depth_tolerance=0.0)


def test_contacts_of_a_sunk_box_are_one_patch():
    """A box of half side 0.25 sunk 0.05 into the top of a unit one: every
    pair's normal +z, depth 0.05, points on the top face; one square
    patch (closed forms)."""
    cube, small = bvtool.ObbTree(box([1, 1, 1])), bvtool.ObbTree(box([0.25] * 3))
    c = cube.collide(small, ([0.1, 0.2, 1.2], [0, 0, 0, 1]), mode="all", contacts=True)
    assert len(c.contacts) == len(c.pairs) > 0
    for k in c.contacts:
        np.testing.assert_allclose(k["normal"], [0, 0, 1], atol=1e-12)
        assert abs(k["depth"] - 0.05) < 1e-12
        np.testing.assert_allclose(k["points"][:, 2], 1.0, atol=1e-12)
    (patch,) = c.patches
    assert sorted(patch["pairs"]) == list(range(len(c.pairs)))
    np.testing.assert_allclose(
        sorted(map(tuple, patch["polygon"].round(12))),
        [(-0.15, -0.05, 1), (-0.15, 0.45, 1), (0.35, -0.05, 1), (0.35, 0.45, 1)],
        atol=1e-12,
    )
    plain = cube.collide(small, ([0.1, 0.2, 1.2], [0, 0, 0, 1]), mode="all")
    assert plain.contacts is None and plain.patches is None
    assert (plain.pairs == c.pairs).all()
    with pytest.raises(ValueError, match="mode"):
        cube.collide(small, None, contacts=True)


def test_contacts_equal_the_command_line(cli):
    """The torus against itself at four poses: every pair's contact and
    every patch equal `bvtool collide --all-pairs --contacts`'s, and they
    survive pickling."""
    import pickle
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "models" / "torus.obj"
    torus = bvtool.ObbTree(bvtool.load_mesh(str(path)))
    specs = ["0.5,0.2,0,0,0,30", "0.5,0,0,90,0,0", "0.3,0.2,0.1,40,10,70", "0,0,0.2,5,0,0"]
    args = ["collide", path, path, "--all-pairs", "--contacts"]
    for s in specs:
        args += ["--pose", s]
    doc = cli(*args)
    for want in doc["poses"]:
        pose = (want["pose"]["translation"], want["pose"]["rotation"])
        got = pickle.loads(pickle.dumps(torus.collide(torus, pose, mode="all", contacts=True)))
        assert len(got.pairs) == len(want["pairs"]) > 0
        for (a, b), k, w in zip(got.pairs, got.contacts, want["pairs"]):
            assert (a, b) == (w["a"]["triangle"], w["b"]["triangle"])
            assert k["normal"].tolist() == w["contact"]["normal"]
            assert k["depth"] == w["contact"]["depth"]
            assert k["points"].tolist() == w["contact"]["points"]
        assert len(got.patches) == len(want["patches"]) > 1
        for p, w in zip(got.patches, want["patches"]):
            assert p["normal"].tolist() == w["normal"] and p["depth"] == w["depth"]
            assert p["polygon"].tolist() == w["polygon"] and p["pairs"].tolist() == w["pairs"]
