"""The API on meshes made in code: arrays in and out, poses in every form,
bad input raising clear errors. Answers are checked against independent
computations (numpy, scipy's rotations, closed-form geometry)."""

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import bvtool

CUBE_V = np.array(
    [[x, y, z] for x in (-1.0, 1.0) for y in (-1.0, 1.0) for z in (-1.0, 1.0)]
)
# Outward-wound quads as triangles (corner k has bits x=4, y=2, z=1).
CUBE_T = np.array(
    [
        [0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5],  # x = -1, x = +1
        [0, 4, 5], [0, 5, 1], [2, 3, 7], [2, 7, 6],  # y = -1, y = +1
        [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3],  # z = -1, z = +1
    ]
)


def cube():
    return bvtool.Mesh(CUBE_V, CUBE_T)


def test_mesh_arrays_have_the_documented_shape_and_dtype():
    m = bvtool.Mesh(CUBE_V.astype(np.float32), CUBE_T.astype(np.int16))
    assert m.vertices.shape == (8, 3) and m.vertices.dtype == np.float64
    assert m.triangles.shape == (12, 3) and m.triangles.dtype == np.uint32
    np.testing.assert_array_equal(m.vertices, CUBE_V)
    np.testing.assert_array_equal(m.triangles, CUBE_T)
    assert (m.triangle_count, m.vertex_count) == (12, 8)
    lo, hi = m.aabb
    np.testing.assert_array_equal(lo, [-1, -1, -1])
    np.testing.assert_array_equal(hi, [1, 1, 1])
    assert m.source(11).triangle == 11 and m.source(11).node is None


def test_mesh_arrays_are_read_only():
    m = cube()
    with pytest.raises(ValueError):
        m.vertices[0, 0] = 5.0
    assert m.vertices[0, 0] == -1.0


@pytest.mark.parametrize(
    "vertices, triangles, message",
    [
        (np.zeros((4, 2)), [[0, 1, 2]], "shape"),
        (np.zeros((4, 3)), [[0.0, 1.0, 2.0]], "integer"),
        (np.zeros((4, 3)), [[0, 1, 4]], "vertex index 4, outside 0..4"),
        (np.zeros((4, 3)), [[0, -1, 2]], "vertex index -1"),
        (np.zeros((4, 3)), np.array([[0, 1, 2**64 - 1]], dtype=np.uint64), "outside 0..4"),
        ([[0, 0, 0], [1, 0, math.nan], [0, 1, 0]], [[0, 1, 2]], "row 1"),
        ([[0, 0, 0], [1, 0, math.inf], [0, 1, 0]], [[0, 1, 2]], "accepted range"),
        ([[0, 0, 1e300], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]], "accepted range"),
        ([["a", "b", "c"]], [[0, 0, 0]], "real numbers"),
        (np.zeros((3, 3)), [[0, 1]], "shape"),
    ],
)
def test_bad_arrays_raise_value_error(vertices, triangles, message):
    with pytest.raises(ValueError, match=message):
        bvtool.Mesh(vertices, triangles)


def test_a_trimesh_is_accepted_wherever_a_mesh_is():
    trimesh = pytest.importorskip("trimesh")
    tm = trimesh.creation.icosphere(subdivisions=2)
    mine = bvtool.Mesh(tm.vertices, tm.faces)
    a, b = bvtool.ObbTree(tm), bvtool.ObbTree(mine)
    pose = ([1.5, 0.2, 0.1], [0, 0, 0, 1])
    np.testing.assert_array_equal(
        a.collide(a, pose, mode="all").pairs, b.collide(b, pose, mode="all").pairs
    )
    assert bvtool.fit(tm).sphere.radius == bvtool.fit(mine).sphere.radius
    with pytest.raises(ValueError, match="trimesh"):
        bvtool.ObbTree(object())


def test_pose_forms_agree():
    rng = np.random.default_rng(1)
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    t = np.array([0.3, -1.2, 2.5])
    m = np.eye(4)
    m[:3, :3] = Rotation.from_quat(q).as_matrix()  # scipy: (x, y, z, w)
    m[:3, 3] = t
    forms = [bvtool.Pose(t, q), m, m.tolist(), (t, q), np.concatenate([t, q])]
    points = rng.normal(size=(20, 3))
    want = points @ m[:3, :3].T + t
    tree = bvtool.ObbTree(cube())
    answers = set()
    for f in forms:
        p = f if isinstance(f, bvtool.Pose) else bvtool.Pose.from_matrix(m)
        np.testing.assert_allclose(p.transform_points(points), want, atol=1e-12)
        answers.add(tree.distance(tree, f).distance)
    assert len(answers) <= 2  # matrix and quaternion forms round apart by ulps
    assert max(answers) - min(answers) < 1e-12
    np.testing.assert_allclose(bvtool.Pose.from_matrix(m).matrix, m, atol=1e-15)
    back = bvtool.Pose(t, q).inverse() * bvtool.Pose(t, q)
    np.testing.assert_allclose(back.matrix, np.eye(4), atol=1e-12)


@pytest.mark.parametrize(
    "pose, error, message",
    [
        (np.diag([2.0, 1, 1, 1]), bvtool.InputError, "rigid|orthonormal"),
        (np.diag([-1.0, 1, 1, 1]), bvtool.InputError, "determinant|rigid|mirror"),
        (([0, 0, 0], [0, 0, 0, 2]), bvtool.InputError, "unit quaternion"),
        (([0, 0, math.nan], [0, 0, 0, 1]), bvtool.InputError, "translation"),
        (np.zeros(5), ValueError, "expected a Pose"),
        ("0,0,0", ValueError, "expected a Pose"),
    ],
)
def test_bad_poses_raise(pose, error, message):
    tree = bvtool.ObbTree(cube())
    with pytest.raises(error, match=message):
        tree.collide(tree, pose)


def test_collide_distance_and_clearance_on_two_cubes():
    """Two 2×2×2 cubes with B moved along x by s: they meet when s <= 2,
    and are s - 2 apart otherwise (closed form)."""
    tree = bvtool.ObbTree(cube())
    for s in [0.0, 1.0, 1.999, 2.0, 2.5, 7.0]:
        pose = ([s, 0.0, 0.0], [0, 0, 0, 1])
        c = tree.collide(tree, pose, mode="all")
        assert c.intersecting == (s <= 2.0)
        assert c.pairs.dtype == np.uint32 and c.pairs.shape[1] == 2
        d = tree.distance(tree, pose)
        assert d.intersecting == (s <= 2.0)
        assert abs(d.distance - max(s - 2.0, 0.0)) <= d.rounding_bound
        if s > 2.0:
            np.testing.assert_allclose(d.point_b - d.point_a, [s - 2.0, 0, 0], atol=1e-12)
        w = tree.within(tree, pose, 0.6, mode="all")
        assert w.within == (s <= 2.6)
        assert w.pairs.shape == (len(w.distances), 2)
        assert np.all(w.distances <= 0.6)


def test_rotated_cube_corner_distance():
    """B rotated 45° about z and moved along x: its edge points at A's face;
    the gap is s - 1 - sqrt(2)."""
    tree = bvtool.ObbTree(cube())
    q = Rotation.from_euler("z", 45, degrees=True).as_quat()
    for s in [2.5, 3.0, 10.0]:
        d = tree.distance(tree, ([s, 0, 0], q))
        assert abs(d.distance - (s - 1 - math.sqrt(2))) < 1e-12


def test_batches_equal_single_calls_in_every_pose_form():
    tree = bvtool.ObbTree(cube())
    rng = np.random.default_rng(7)
    q = rng.normal(size=(200, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    t = rng.uniform(-4, 4, size=(200, 3))
    rows = np.hstack([t, q])
    mats = np.stack([bvtool.Pose(r[:3], r[3:]).matrix for r in rows])
    poses = [bvtool.Pose(r[:3], r[3:]) for r in rows]
    single = np.array([tree.collide(tree, p).intersecting for p in poses])
    assert 20 < single.sum() < 180  # both answers occur
    for form in (rows, mats, poses):
        hits = tree.collide_batch(tree, form)
        assert hits.dtype == np.bool_ and hits.shape == (200,)
        np.testing.assert_array_equal(hits, single)
    hits, counts = tree.collide_batch(tree, rows, mode="all")
    assert counts.dtype == np.uint64
    np.testing.assert_array_equal(hits, single)
    np.testing.assert_array_equal(
        counts, [len(tree.collide(tree, p, mode="all").pairs) for p in poses]
    )
    d = tree.distance_batch(tree, rows)
    assert d.dtype == np.float64 and d.shape == (200,)
    np.testing.assert_array_equal(d, [tree.distance(tree, p).distance for p in poses])
    np.testing.assert_array_equal(d == 0, single)
    w = tree.within_batch(tree, rows, 0.25)
    np.testing.assert_array_equal(w, d <= 0.25)
    assert tree.collide_batch(tree, np.zeros((0, 7))).shape == (0,)


def test_a_bad_pose_in_a_batch_is_named_by_index():
    tree = bvtool.ObbTree(cube())
    rows = np.tile([0, 0, 0, 0, 0, 0, 1.0], (5, 1))
    rows[3, 6] = 3.0
    with pytest.raises(bvtool.InputError, match=r"poses\[3\]: .*unit quaternion"):
        tree.collide_batch(tree, rows)
    with pytest.raises(ValueError, match="poses"):
        tree.collide_batch(tree, np.zeros((5, 6)))


def test_fit_contains_every_vertex_and_reports_half_extents():
    rng = np.random.default_rng(3)
    v = rng.normal(size=(300, 3)) * [3.0, 1.0, 0.2]
    t = rng.integers(0, 300, size=(200, 3))
    f = bvtool.fit(bvtool.Mesh(v, t))
    used = v[np.unique(t)]
    local = (used - f.obb.center) @ f.obb.rotation  # columns are the axes
    assert np.all(np.abs(local) <= f.obb.half_extents * (1 + 1e-12))
    np.testing.assert_allclose(f.obb.rotation.T @ f.obb.rotation, np.eye(3), atol=1e-12)
    assert np.linalg.det(f.obb.rotation) > 0
    np.testing.assert_allclose(
        Rotation.from_quat(f.obb.quaternion).as_matrix(), f.obb.rotation, atol=1e-12
    )
    assert math.isclose(f.obb.volume, 8 * np.prod(f.obb.half_extents), rel_tol=1e-12)
    assert np.all(np.linalg.norm(used - f.sphere.center, axis=1) <= f.sphere.radius)
    np.testing.assert_array_equal(f.aabb.min, used.min(axis=0))
    np.testing.assert_array_equal(f.aabb.max, used.max(axis=0))
    assert f.hull_volume <= f.obb.volume <= f.aabb.volume * (1 + 1e-12)
    with pytest.raises(ValueError, match="obb"):
        bvtool.fit(bvtool.Mesh(v, t), obb="tightest")


def test_decompose_checks_its_options_and_refuses_flat_meshes():
    d = bvtool.decompose(cube(), max_hulls=1, max_vertices=8)
    assert len(d.parts) == 1 and d.vertices_added >= 0
    # One part holding the cube's corners is at least the cube.
    assert d.parts_volume >= 8.0 * (1 - 1e-12) and d.hull_volume == 8.0
    assert math.isclose(d.mesh_volume, 8.0, rel_tol=1e-12)
    assert d.parts[0].vertices.shape[1] == 3 and d.parts[0].vertices.dtype == np.float64
    for bad in [dict(max_hulls=0), dict(max_vertices=256), dict(resolution=8)]:
        with pytest.raises(ValueError):
            bvtool.decompose(cube(), **bad)
    flat = bvtool.Mesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]])
    with pytest.raises(bvtool.GeometryError, match="flat"):
        bvtool.decompose(flat)


def test_self_intersections_of_two_crossing_triangles():
    v = [[0, 0, 0], [2, 0, 0], [0, 2, 0], [0.5, 0.5, -1], [0.5, 0.5, 1], [3, 3, 0]]
    found = bvtool.self_intersections(bvtool.Mesh(v, [[0, 1, 2], [3, 4, 5]]))
    np.testing.assert_array_equal(found.pairs, [[0, 1]])
    np.testing.assert_array_equal(found.faces, [0, 1])
    assert found and len(found.degenerate) == 0
    assert not bvtool.self_intersections(cube())


def test_errors():
    with pytest.raises(bvtool.GeometryError, match="no triangles"):
        bvtool.ObbTree(bvtool.Mesh(np.zeros((3, 3)), np.zeros((0, 3), dtype=int)))
    with pytest.raises(FileNotFoundError, match="nope.obj: cannot read"):
        bvtool.load("nope.obj")
    with pytest.raises(ValueError, match='mode "some"'):
        tree = bvtool.ObbTree(cube())
        tree.collide(tree, None, mode="some")
    with pytest.raises(ValueError, match="rel_err"):
        tree.distance(tree, None, rel_err=-1)
    with pytest.raises(ValueError, match='node_fit "tight": expected "quick" or "flush"'):
        bvtool.ObbTree(cube(), node_fit="tight")


def test_special_files_are_refused_before_a_byte_is_read(tmp_path):
    # A FIFO would block a plain read forever, /dev/zero never end: both
    # are refused as not regular files, and a folder too.
    import os

    fifo = tmp_path / "model.obj"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.stl"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero, tmp_path):
        with pytest.raises(bvtool.LoadError, match="not a regular file"):
            bvtool.load(path)
        with pytest.raises(bvtool.LoadError, match="not a regular file"):
            bvtool.clash([path])


def test_clash_keeps_at_most_max_pairs(tmp_path):
    """n copies of a cube at one spot make n(n-1)/2 part pairs: past
    max_pairs the call raises InputError, as --max-pairs fails the
    command; within it every pair is found (coincident cubes touch)."""
    n = 30
    lines = []
    for k in range(n):
        lines.append(f"o copy{k}")
        lines += [f"v {x} {y} {z}" for x, y, z in CUBE_V]
        lines += [f"f {a + 1 + 8 * k} {b + 1 + 8 * k} {c + 1 + 8 * k}" for a, b, c in CUBE_T]
    path = tmp_path / "stack.obj"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(bvtool.InputError, match="stack.obj"):
        bvtool.clash(str(path), max_pairs=100)
    found = bvtool.clash(str(path))
    assert len(found.parts) == n
    assert len(found) == n * (n - 1) // 2


def test_clash_depths(tmp_path):
    """Three cubes of half side 1: b 0.5 deep into a along +x, c 0.1 deep
    along -x (off-centre, no coplanar faces). The clashes come deepest
    first with depths, witnesses and normals known by construction;
    min_depth turns the shallow pair into touching (left out with
    ignore_touching); depth=False gives no severities, sorted by part."""
    lines = []
    for k, (name, at) in enumerate([("a", (0, 0, 0)), ("b", (1.5, 0.2, 0.3)), ("c", (-1.9, 0.3, 0.2))]):
        lines.append(f"o {name}")
        lines += [f"v {x + at[0]} {y + at[1]} {z + at[2]}" for x, y, z in CUBE_V]
        lines += [f"f {p + 1 + 8 * k} {q + 1 + 8 * k} {r + 1 + 8 * k}" for p, q, r in CUBE_T]
    path = tmp_path / "three.obj"
    path.write_text("\n".join(lines) + "\n")
    found = bvtool.clash(path, depth_tolerance=1e-9, max_splits=200_000)
    assert [(c.a, c.b) for c in found.clashes] == [(0, 1), (0, 2)]
    for c, depth, x in zip(found.clashes, (0.5, 0.1), (1.0, -1.0)):
        s = c.severity
        assert c.kind == "intersecting" and s.searched == "both" and not s.capped
        assert abs(s.depth - depth) <= 1e-9 and s.bound <= 1e-9 and c.depth == s.depth
        np.testing.assert_allclose(s.normal, [x, 0, 0], atol=1e-9)
        np.testing.assert_allclose(s.point_a - s.point_b, s.depth * s.normal, atol=1e-12)
        assert s.protruding in (c.a, c.b)
    assert found.shallow == 0
    tolerant = bvtool.clash(path, min_depth=0.2)
    assert [c.kind for c in tolerant.clashes] == ["intersecting", "touching"]
    assert tolerant.shallow == 1
    hard = bvtool.clash(path, min_depth=0.2, ignore_touching=True)
    assert len(hard) == 1 and hard.touching_dropped == 1
    plain = bvtool.clash(path, depth=False)
    assert all(c.severity is None and c.depth is None for c in plain.clashes)
    with pytest.raises(ValueError, match="need depth=True"):
        bvtool.clash(path, depth=False, min_depth=1.0)
    with pytest.raises(ValueError, match="min_depth"):
        bvtool.clash(path, min_depth=-1.0)
