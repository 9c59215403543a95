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


def small_world(seed):
    """A World of 12 bodies (a shared tetrahedron grid and boxes) at seeded
    poses, some touching."""
    rng = np.random.default_rng(seed)
    grid = bvtool.ObbTree(bvtool.Mesh(*tetra_grid(2)))
    w = bvtool.World()
    for i, p in enumerate(poses(12, seed)):
        p[:3] *= 0.6
        if i % 3:
            w.add_mesh(f"g{i}", grid, p)
        else:
            w.add_box(f"x{i}", tuple(0.5 + rng.random(3)), p)
    w.allow("g1", "g2")
    return w


def world_answers(w):
    """What a World answers: its colliding pairs, the pairs within 0.2 and
    the least distance between its even and its odd bodies."""
    d = w.distance(range(0, len(w), 2), range(1, len(w), 2))
    return w.colliding_pairs(), w.within(0.2), (d.distance, d.bodies, d.point_a, d.point_b)


def world_and_robot_in_child(args):
    """In the child: build and query a World, and a Robot of `urdf`."""
    seed, urdf, qs = args
    robot = bvtool.Robot(urdf)
    return world_answers(small_world(seed)), robot.self_collision(qs).tolist(), os.getpid()
