"""Trees pickled with protocol 5 out of band (a `buffer_callback`, as Dask
and Ray send them): the tree bytes travel as a buffer of their own, not in
the pickle; unpickling reads them where they arrive and the tree answers
bit for bit as the original, on a tree large enough (over 8 MiB of bytes)
to be read on the pool; a changed byte in the buffer raises ValueError.
`from_bytes` reads any contiguous buffer."""

import pickle

import numpy as np
import pytest

import bvtool
from mp_tasks import poses


def torus(n, m, big=1.0, small=0.35):
    u, v = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    a, b = 2 * np.pi * u / n, 2 * np.pi * v / m
    r = big + small * np.cos(b)
    verts = np.stack([r * np.cos(a), r * np.sin(a), small * np.sin(b)], -1).reshape(-1, 3)
    i, j = u.ravel(), v.ravel()
    at = lambda i, j: (i % n) * m + (j % m)
    tris = np.concatenate(
        [
            np.stack([at(i, j), at(i + 1, j), at(i + 1, j + 1)], -1),
            np.stack([at(i, j), at(i + 1, j + 1), at(i, j + 1)], -1),
        ]
    )
    return bvtool.Mesh(verts, tris.astype(np.uint32))


def same_bits(x, y):
    x, y = np.asarray(x), np.asarray(y)
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def out_of_band(obj):
    buffers = []
    blob = pickle.dumps(obj, 5, buffer_callback=buffers.append)
    return blob, buffers


@pytest.mark.parametrize("extra_vertex", [False, True])
def test_a_large_tree_travels_out_of_band(extra_vertex):
    m = torus(400, 200)  # 160,000 triangles: 9 MB of tree bytes
    if extra_vertex:  # the mesh pickled whole, checked against the tree
        m = bvtool.Mesh(np.vstack([m.vertices, [[9.0, 9.0, 9.0]]]), m.triangles)
    a = bvtool.ObbTree(m, node_fit="quick")
    data = a.to_bytes()
    assert len(data) > 8 << 20
    blob, buffers = out_of_band(a)
    raw = [b.raw() for b in buffers]
    assert len(blob) < 10_000 and any(r.tobytes() == data for r in raw)
    back = pickle.loads(blob, buffers=raw)
    assert back.to_bytes() == data
    assert same_bits(back.mesh.vertices, m.vertices) and same_bits(back.mesh.triangles, m.triangles)
    # The bytes alone: the mesh rebuilt from the tree, the same corners.
    own = bvtool.ObbTree.from_bytes(memoryview(data)).mesh
    assert same_bits(own.vertices[own.triangles], m.vertices[m.triangles])
    b = bvtool.ObbTree(torus(24, 12, 0.5, 0.2))
    p = poses(100, seed=8)
    p[:, :3] = p[:, :3] * 0.4 - 0.8
    hits = a.collide_batch(b, p)
    assert hits.any() and not hits.all(), "the poses both meet and miss"
    assert same_bits(back.collide_batch(b, p), hits)
    assert same_bits(back.distance_batch(b, p), a.distance_batch(b, p))
    # In band, protocols 4 and 5: the same tree.
    for protocol in (4, 5):
        assert pickle.loads(pickle.dumps(a, protocol)).to_bytes() == data


def test_a_changed_out_of_band_buffer_raises_value_error():
    a = bvtool.ObbTree(torus(40, 20))
    data = a.to_bytes()
    blob, buffers = out_of_band(a)
    raw = [bytearray(b.raw()) for b in buffers]
    k = next(i for i, r in enumerate(raw) if bytes(r) == data)
    for at in (5, 100, len(data) // 2, len(data) - 1):
        bad = [bytearray(r) for r in raw]
        bad[k][at] ^= 0x08
        with pytest.raises(ValueError, match="tree bytes"):
            pickle.loads(blob, buffers=bad)


def test_from_bytes_reads_any_contiguous_buffer():
    a = bvtool.ObbTree(torus(40, 20))
    data = a.to_bytes()
    for buf in (bytearray(data), memoryview(data), np.frombuffer(data, np.uint8), pickle.PickleBuffer(data)):
        assert bvtool.ObbTree.from_bytes(buf).to_bytes() == data
    with pytest.raises(ValueError, match="checksum"):
        bad = bytearray(data)
        bad[300] ^= 1
        bvtool.ObbTree.from_bytes(memoryview(bad))
    with pytest.raises((ValueError, BufferError, TypeError)):
        bvtool.ObbTree.from_bytes(memoryview(data)[::2])
    with pytest.raises(TypeError):
        bvtool.ObbTree.from_bytes(3)
