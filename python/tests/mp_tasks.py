"""Tasks the process tests (test_processes.py) run in child processes:
module-level functions, so that every start method can import them."""

import os

import numpy as np

import bvtool


def tetra_grid(n=3):
    """A small mesh made in code: n³ tetrahedra on a grid (4·n³ triangles)."""
    verts, tris = [], []
    for i in range(n):
        for j in range(n):
            for k in range(n):
                b = len(verts)
                o = np.array([i, j, k], float) * 1.5
                verts += [o, o + (1, 0, 0), o + (0, 1, 0), o + (0, 0, 1)]
                tris += [[b, b + 1, b + 2], [b, b + 1, b + 3], [b, b + 2, b + 3], [b + 1, b + 2, b + 3]]
    return np.array(verts), np.array(tris, dtype=np.uint32)


def poses(n=400, seed=5):
    """Seeded poses `(N, 7)` around the grid, some meeting it, some not."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(-1.0, 5.0, (n, 3))
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return np.hstack([t, q])


def answers(tree_a, tree_b, p):
    """What every child computes: first-contact hits, all-contact counts
    and distances at the poses."""
    hits = tree_a.collide_batch(tree_b, p)
    _, counts = tree_a.collide_batch(tree_b, p, mode="all")
    dist = tree_a.distance_batch(tree_b, p)
    return hits, counts, dist


def build_and_answer(args):
    """In the child: build both trees from arrays, answer the batches."""
    (va, ta), (vb, tb), p = args
    a = bvtool.ObbTree(bvtool.Mesh(va, ta))
    b = bvtool.ObbTree(bvtool.Mesh(vb, tb))
    return answers(a, b, p) + (os.getpid(),)


def answer_with_trees(args):
    """In the child: answer with trees sent pickled from the parent."""
    a, b, p = args
    return answers(a, b, p) + (os.getpid(),)
