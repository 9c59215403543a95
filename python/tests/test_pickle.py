"""Pickling and copying: Mesh, Pose, ObbTree (its built structure, as
`to_bytes`), TriangleSource and the query answers round-trip equal to the
originals, bit for bit; an unpickled tree answers 100 poses bit for bit as
the tree it came from; corrupted bytes raise ValueError, never crash."""

import copy
import pickle

import numpy as np
import pytest

import bvtool
from mp_tasks import poses, tetra_grid


def torus(n=40, m=20, big=1.0, small=0.35):
    u, v = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    a, b = 2 * np.pi * u / n, 2 * np.pi * v / m
    r = big + small * np.cos(b)
    verts = np.stack([r * np.cos(a), r * np.sin(a), small * np.sin(b)], -1).reshape(-1, 3)
    idx = lambda i, j: (i % n) * m + (j % m)
    tris = []
    for i in range(n):
        for j in range(m):
            tris += [[idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)], [idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)]]
    return bvtool.Mesh(verts, np.array(tris, dtype=np.uint32))


PROTOCOLS = range(2, pickle.HIGHEST_PROTOCOL + 1)


def same_bits(x, y):
    x, y = np.asarray(x), np.asarray(y)
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_mesh_and_pose_round_trip(protocol):
    m = torus()
    back = pickle.loads(pickle.dumps(m, protocol))
    assert same_bits(back.vertices, m.vertices) and same_bits(back.triangles, m.triangles)
    pose = bvtool.Pose((0.1, -2.5, 1e-17), (0.1, 0.2, 0.3, 0.9) / np.linalg.norm((0.1, 0.2, 0.3, 0.9)))
    for p in (pose, copy.deepcopy(pose), copy.copy(pose)):
        q = pickle.loads(pickle.dumps(p, protocol))
        assert same_bits(q.translation, pose.translation)
        assert same_bits(q.rotation, pose.rotation)
        assert same_bits(q.matrix, pose.matrix)


def test_a_loaded_mesh_keeps_its_sources(models):
    path = next(p for p in sorted(models.rglob("*.glb")) if p.stat().st_size < 2_000_000)
    m = bvtool.load_mesh(path)
    back = pickle.loads(pickle.dumps(m))
    assert same_bits(back.vertices, m.vertices)
    picks = range(0, m.triangle_count, max(1, m.triangle_count // 50))
    assert [back.source(i) for i in picks] == [m.source(i) for i in picks]
    s = m.source(0)
    assert pickle.loads(pickle.dumps(s)) == s


def test_tree_round_trip_answers_bit_for_bit():
    a = bvtool.ObbTree(torus())
    b = bvtool.ObbTree(bvtool.Mesh(*tetra_grid(2)), leaf_size=3, node_fit="quick")
    p = poses(100, seed=11)
    p[:, :3] = p[:, :3] * 0.5 - 1.0
    for how in ("pickle", "deepcopy", "bytes", "bytes+mesh"):
        if how == "pickle":
            a2, b2 = pickle.loads(pickle.dumps((a, b), pickle.HIGHEST_PROTOCOL))
        elif how == "deepcopy":
            a2, b2 = copy.deepcopy(a), copy.deepcopy(b)
        elif how == "bytes":
            a2, b2 = bvtool.ObbTree.from_bytes(a.to_bytes()), bvtool.ObbTree.from_bytes(b.to_bytes())
        else:
            a2 = bvtool.ObbTree.from_bytes(a.to_bytes(), a.mesh)
            b2 = bvtool.ObbTree.from_bytes(b.to_bytes(), b.mesh)
        assert a2.to_bytes() == a.to_bytes() and b2.to_bytes() == b.to_bytes()
        assert (a2.node_count, a2.leaf_size, b2.leaf_size) == (a.node_count, a.leaf_size, 3)
        hits = a.collide_batch(b, p)
        assert hits.any() and not hits.all(), "the poses both meet and miss"
        assert same_bits(a2.collide_batch(b2, p), hits)
        assert same_bits(a2.collide_batch(b2, p, mode="all")[1], a.collide_batch(b, p, mode="all")[1])
        assert same_bits(a2.distance_batch(b2, p), a.distance_batch(b, p))
        assert same_bits(a2.within_batch(b2, p, 0.05), a.within_batch(b, p, 0.05))
        for row in p[:20]:
            d, d2 = a.distance(b, row), a2.distance(b2, row)
            assert same_bits(d.point_a, d2.point_a) and d.triangles == d2.triangles
            c, c2 = a.collide(b, row, mode="all"), a2.collide(b2, row, mode="all")
            assert same_bits(c.pairs, c2.pairs)
        # Triangle indices in answers name the same triangles: the rebuilt
        # mesh (bytes alone) has the original's triangle corners.
        va, ta = a.mesh.vertices, a.mesh.triangles
        vb, tb = a2.mesh.vertices, a2.mesh.triangles
        assert same_bits(va[ta], vb[tb])


def test_answers_round_trip():
    a = bvtool.ObbTree(torus())
    hit = a.collide(a, ((0.05, 0, 0), (0, 0, 0, 1)), mode="all")
    d = a.distance(a, ((3.0, 0.1, 0.2), (0, 0, 0.6, 0.8)))
    w = a.within(a, ((2.8, 0, 0), (0, 0, 0, 1)), 0.2, mode="all")
    assert hit and len(hit.pairs) > 10 and w and len(w.pairs) > 1
    for x in (hit, d, w):
        for y in (pickle.loads(pickle.dumps(x)), copy.deepcopy(x)):
            assert repr(y) == repr(x)
            for name in ("pairs", "distances", "point_a", "point_b", "distance", "rounding_bound", "triangles", "box_tests", "triangle_tests"):
                if hasattr(x, name):
                    assert same_bits(getattr(y, name), getattr(x, name)), name


def test_corrupted_tree_bytes_raise_value_error():
    t = bvtool.ObbTree(torus())
    data = t.to_bytes()
    rng = np.random.default_rng(3)
    for at in list(range(0, 96)) + list(rng.integers(96, len(data), 200)):
        b = bytearray(data)
        b[at] ^= 1 << int(rng.integers(8))
        with pytest.raises(ValueError, match="tree bytes"):
            bvtool.ObbTree.from_bytes(bytes(b))
    for cut in (0, 1, 95, 96, len(data) // 2, len(data) - 1):
        with pytest.raises(ValueError, match="truncated|bytes where"):
            bvtool.ObbTree.from_bytes(data[:cut])
    with pytest.raises(ValueError, match="checksum"):
        bvtool.ObbTree.from_bytes(data[:200] + bytes([data[200] ^ 4]) + data[201:])
    # A pickle whose tree bytes were changed.
    blob = pickle.dumps(t)
    i = blob.index(data[1000:1032])
    bad = blob[:i] + bytes([blob[i] ^ 0x10]) + blob[i + 1 :]
    with pytest.raises(ValueError, match="checksum"):
        pickle.loads(bad)
    # The wrong mesh for the bytes.
    with pytest.raises(ValueError, match="mesh"):
        bvtool.ObbTree.from_bytes(data, bvtool.Mesh(*tetra_grid(2)))
    other = torus(small=0.3)
    with pytest.raises(ValueError, match="differs"):
        bvtool.ObbTree.from_bytes(data, other)
    # A pose that is not rigid, as a pickle could carry it.
    with pytest.raises(ValueError):
        bvtool.Pose._unpickle([0.0, 0, 0], [0.0, 0, 0, 2.0])


def test_save_and_load_a_tree(tmp_path):
    a = bvtool.ObbTree(torus())
    path = tmp_path / "torus.bvtr"
    a.save(path)
    a.save(str(path))  # over the old file, atomically
    assert path.read_bytes() == a.to_bytes()
    for b in (bvtool.ObbTree.load(path), bvtool.ObbTree.load(str(path), a.mesh)):
        assert b.to_bytes() == a.to_bytes()
        p = poses(50, seed=4)
        assert same_bits(b.distance_batch(a, p), a.distance_batch(a, p))
    assert sorted(f.name for f in tmp_path.iterdir()) == ["torus.bvtr"], "no temporary file left"
    with pytest.raises(FileNotFoundError):
        bvtool.ObbTree.load(tmp_path / "missing.bvtr")
    with pytest.raises(ValueError, match="not a regular file"):
        bvtool.ObbTree.load(tmp_path)
    bad = bytearray(a.to_bytes())
    bad[300] ^= 1
    (tmp_path / "bad.bvtr").write_bytes(bytes(bad))
    with pytest.raises(ValueError, match=r"bad\.bvtr: tree bytes: checksum"):
        bvtool.ObbTree.load(tmp_path / "bad.bvtr")
    with pytest.raises(ValueError, match="mesh"):
        bvtool.ObbTree.load(path, bvtool.Mesh(*tetra_grid(2)))
    with pytest.raises(OSError):
        a.save(tmp_path / "no-such-folder" / "t.bvtr")


def test_a_tree_pickles_its_mesh_as_a_vertex_map():
    """A mesh that is the tree's geometry renumbered pickles as a vertex map
    and source runs (much smaller than the arrays), comes back bit for bit,
    and a corrupted map or run raises ValueError; a mesh with an unused
    vertex pickles whole and comes back bit for bit too."""
    m = torus()
    t = bvtool.ObbTree(m)
    f, (data, vmap, runs) = t.__reduce__()
    assert f == bvtool.ObbTree._unpickle and vmap.dtype == np.uint32 and runs.shape == (1, 6)
    assert len(pickle.dumps(t)) < len(data) + len(pickle.dumps(m)) // 2
    back = pickle.loads(pickle.dumps(t))
    assert same_bits(back.mesh.vertices, m.vertices) and same_bits(back.mesh.triangles, m.triangles)
    assert back.mesh.source(7) == m.source(7)
    # A map that is not contiguous (as an out-of-band buffer may come
    # back on a Dask worker) is read all the same.
    strided = np.repeat(vmap, 2)[::2]
    assert not strided.flags.c_contiguous
    back = bvtool.ObbTree._unpickle(data, strided, runs)
    assert same_bits(back.mesh.vertices, m.vertices) and same_bits(back.mesh.triangles, m.triangles)
    bad = vmap.copy()
    bad[3] = bad[4]
    with pytest.raises(ValueError, match="vertex map entry 4"):
        bvtool.ObbTree._unpickle(data, bad, runs)
    with pytest.raises(ValueError, match="vertex map"):
        bvtool.ObbTree._unpickle(data, vmap[1:], runs)
    with pytest.raises(ValueError, match="source runs"):
        bvtool.ObbTree._unpickle(data, vmap, np.zeros((0, 6), np.uint32))
    with pytest.raises(ValueError, match="source run"):
        bvtool.ObbTree._unpickle(data, vmap, np.array([[0, 0, 0, 0, 0, 0], [5, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0]], np.uint32))
    extra = bvtool.Mesh(np.vstack([m.vertices, [[9.0, 9.0, 9.0]]]), m.triangles)
    te = bvtool.ObbTree(extra)
    assert te.__reduce__()[0] == bvtool.ObbTree.from_bytes
    back = pickle.loads(pickle.dumps(te))
    assert same_bits(back.mesh.vertices, extra.vertices) and same_bits(back.mesh.triangles, extra.triangles)
