"""Point and ray queries of ObbTree against the solid's own definition (a
box, whose signed distance and ray hits have closed forms) and against a
numpy brute force over every triangle."""

import numpy as np
import pytest

import bvtool


def box_mesh(lo, hi):
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    v = np.array([[(hi if (k >> a) & 1 else lo)[a] for a in range(3)] for k in range(8)])
    quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]
    f = [t for q in quads for t in ([q[0], q[1], q[2]], [q[0], q[2], q[3]])]
    return bvtool.Mesh(v, np.array(f, dtype=np.uint32))


def box_sdf(p, lo, hi):
    c, h = (lo + hi) / 2, (hi - lo) / 2
    q = np.abs(p - c) - h
    outside = np.linalg.norm(np.maximum(q, 0), axis=1)
    inside = np.minimum(q.max(axis=1), 0)
    return outside + inside


@pytest.fixture
def box():
    lo, hi = np.array([-1.0, -2.0, 0.5]), np.array([2.0, 1.0, 3.0])
    return bvtool.ObbTree(box_mesh(lo, hi)), lo, hi


def test_signed_distance_contains_and_winding_number(box):
    tree, lo, hi = box
    rng = np.random.default_rng(0)
    p = rng.uniform(-4, 5, size=(20_000, 3))
    # Points whose axis rays run along the box's edges and faces.
    g = np.array(np.meshgrid(*[np.array([lo[a] - 1, lo[a], (lo[a] + hi[a]) / 2, hi[a], hi[a] + 1]) for a in range(3)])).reshape(3, -1).T
    p = np.vstack([p, g])
    want = box_sdf(p, lo, hi)
    got = tree.signed_distance(p)
    assert got.shape == (len(p),) and got.dtype == np.float64
    assert np.allclose(got, want, atol=1e-12)
    off = want != 0
    assert np.array_equal(tree.contains(p)[off], want[off] < 0)
    assert np.array_equal(tree.winding_number(p)[off], (want[off] < 0).astype(float))
    assert tree.sign_method == "exact winding number"


def test_closest_points_against_brute_force():
    rng = np.random.default_rng(1)
    v = rng.uniform(-1, 1, size=(60, 3))
    f = rng.integers(0, 60, size=(40, 3)).astype(np.uint32)
    tree = bvtool.ObbTree(bvtool.Mesh(v, f))
    p = rng.uniform(-1.5, 1.5, size=(2_000, 3))
    closest, dist, tri, bary, feature = tree.closest_points(p)
    assert closest.shape == (2_000, 3) and bary.shape == (2_000, 3)
    # The point is the barycentric combination of the triangle's corners.
    corners = v[f[tri]]
    assert np.allclose(np.einsum("ij,ijk->ik", bary, corners), closest, atol=1e-9)
    assert np.allclose(np.linalg.norm(closest - p, axis=1), dist, atol=1e-12)
    # No triangle is nearer: sampled points of every triangle are at least
    # as far (a brute force over a fine barycentric grid).
    s = np.linspace(0, 1, 21)
    uu, ww = np.meshgrid(s, s)
    keep = uu + ww <= 1
    w = np.stack([1 - uu[keep] - ww[keep], uu[keep], ww[keep]], axis=1)
    samples = np.einsum("sk,tkd->tsd", w, v[f]).reshape(-1, 3)
    for i in range(0, 2_000, 50):
        assert np.linalg.norm(samples - p[i], axis=1).min() >= dist[i] - 1e-12
    assert set(np.unique(feature)) <= set(range(7))


def test_cast_rays_modes(box):
    tree, lo, hi = box
    rng = np.random.default_rng(2)
    o = rng.uniform(-4, 5, size=(5_000, 3))
    d = rng.normal(size=(5_000, 3))
    # Slab test: the entry and exit t of each ray with the box.
    with np.errstate(divide="ignore", invalid="ignore"):
        t0, t1 = (lo - o) / d, (hi - o) / d
    near = np.minimum(t0, t1).max(axis=1)
    far = np.maximum(t0, t1).min(axis=1)
    hits = (near <= far) & (far >= 0)
    first_t = np.where(near >= 0, near, far)
    t, tri, bary, normal = tree.cast_rays(o, d, mode="first")
    assert np.array_equal(np.isfinite(t), hits)
    assert np.allclose(t[hits], first_t[hits], rtol=1e-9, atol=1e-12)
    assert np.all(tri[~hits] == -1) and np.all(tri[hits] >= 0)
    assert np.allclose(np.linalg.norm(normal[hits], axis=1), 1.0)
    assert np.array_equal(tree.cast_rays(o, d, mode="any"), hits)
    counts = tree.cast_rays(o, d, mode="count")
    want = np.where(hits, np.where(near >= 0, 2, 1), 0)
    assert np.array_equal(counts, want)
    ray, ts, tris = tree.cast_rays(o, d, mode="all")
    assert np.array_equal(np.bincount(ray.astype(np.int64), minlength=len(o)), want)
    assert np.all(np.diff(ts)[np.diff(ray) == 0] >= 0)
    # A range keeps the hits within it.
    t, *_ = tree.cast_rays(o, d, mode="first", t_max=1.0)
    assert np.array_equal(np.isfinite(t), hits & (first_t <= 1.0))


def test_bad_input_is_a_value_error(box):
    tree, _, _ = box
    with pytest.raises(ValueError):
        tree.signed_distance(np.zeros((3, 2)))
    with pytest.raises(ValueError):
        tree.cast_rays(np.zeros((2, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError):
        tree.cast_rays(np.zeros((1, 3)), np.ones((1, 3)), mode="nearest")
    with pytest.raises(ValueError):
        tree.cast_rays(np.zeros((1, 3)), np.zeros((1, 3)))
