"""Fanning bvtool's work out on a Dask cluster (``dask.distributed``).

Three shapes of work, each equal to the single-process answer
(docs/python.md, "Scale-out"):

- many files: :func:`map_files` runs one task per file and gathers the
  answers as one table (a list of records, in the order of the paths);
  :func:`fit_record` is a ready-made task (``bvtool.fit`` of a file);
- many poses: :func:`collide_batch` and :func:`distance_batch` scatter the
  two trees to every worker once, then split the poses into chunks (one
  ``*_batch`` call a chunk) and concatenate the answers;
- many pairs: :func:`candidate_pairs` (a broad phase: the pairs of meshes
  whose world boxes overlap) and :func:`collide_pairs` (the trees scattered
  once, the pairs split into chunks).

Every helper takes a ``distributed.Client``: ``Client(LocalCluster(...))``
on one machine, ``Client("tcp://scheduler:8786")`` on a cluster — the code is
the same. Trees and meshes travel as their pickles (the built tree, not a
recipe: ``ObbTree.to_bytes``). Dask is imported only by the helpers that
need it, so ``import bvtool.distributed`` works without it.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from . import bvtool as _bv

#: Poses per task when none is asked for: large enough that a task's work
#: (about 2 ms for 20,000 near-contact poses on two cores for small meshes,
#: more for large ones) dwarfs Dask's per-task cost (about 1 ms a task).
DEFAULT_POSE_CHUNK = 50_000

#: Mesh pairs per task when none is asked for.
DEFAULT_PAIR_CHUNK = 2_000


def _chunks(n: int, size: int) -> List[Tuple[int, int]]:
    if size < 1:
        raise ValueError(f"chunk size {size}: expected at least 1")
    return [(i, min(i + size, n)) for i in range(0, n, size)]


def _as_pose_array(poses: Any) -> np.ndarray:
    """Poses as the ``(N, 7)`` or ``(N, 4, 4)`` float64 array a batch takes
    (a sequence of ``Pose`` becomes ``(N, 7)`` rows)."""
    if isinstance(poses, np.ndarray) and poses.ndim in (2, 3):
        return np.ascontiguousarray(poses, dtype=np.float64)
    rows = [
        np.concatenate([p.translation, p.rotation]) if isinstance(p, _bv.Pose) else p
        for p in poses
    ]
    a = np.asarray(rows, dtype=np.float64)
    if a.ndim == 1 and a.size == 0:
        a = a.reshape(0, 7)
    return a


# --- many files -------------------------------------------------------------


def fit_record(path: str, **fit_options: Any) -> Dict[str, Any]:
    """The bounding volumes of the file at ``path`` as one flat record:
    ``bvtool.fit(bvtool.load(path), **fit_options)`` — the file, its
    triangle and vertex counts, the AABB, OBB and sphere (volumes, extents,
    centres) — a task for :func:`map_files`."""
    f = _bv.fit(_bv.load(path), **fit_options)
    return {
        "file": str(path),
        "triangles": f.triangles,
        "vertices": f.vertices,
        "aabb_min": tuple(float(x) for x in f.aabb.min),
        "aabb_max": tuple(float(x) for x in f.aabb.max),
        "aabb_volume": f.aabb.volume,
        "obb_center": tuple(float(x) for x in f.obb.center),
        "obb_half_extents": tuple(float(x) for x in f.obb.half_extents),
        "obb_volume": f.obb.volume,
        "sphere_center": tuple(float(x) for x in f.sphere.center),
        "sphere_radius": f.sphere.radius,
    }


def map_files(
    client: Any,
    paths: Iterable[Any],
    task: Callable[..., Any] = fit_record,
    **options: Any,
) -> List[Any]:
    """``task(path, **options)`` for every path, one Dask task per file, the
    answers gathered in the order of ``paths`` (with :func:`fit_record`, a
    list of records: ``pandas.DataFrame(records)`` makes it a table). An
    error in a task is raised here, naming nothing else (Dask re-raises the
    task's exception). ``task`` must be importable by the workers (a
    module-level function)."""
    paths = [str(p) for p in paths]
    futures = client.map(task, paths, pure=False, **options)
    return client.gather(futures)


# --- many poses ---------------------------------------------------------------


def _chunk_batch(method: str, a: Any, b: Any, poses: np.ndarray, options: Dict[str, Any]):
    return getattr(a, method)(b, poses, **options)


def _batch(
    client: Any,
    method: str,
    tree_a: Any,
    tree_b: Any,
    poses: Any,
    chunk: Optional[int],
    options: Dict[str, Any],
) -> List[Any]:
    poses = _as_pose_array(poses)
    n = len(poses)
    size = chunk or DEFAULT_POSE_CHUNK
    # The trees go to every worker once; each task names them by future.
    fa, fb = client.scatter([tree_a, tree_b], broadcast=True, hash=False)
    futures = [
        client.submit(_chunk_batch, method, fa, fb, poses[i:j], options, pure=False)
        for i, j in _chunks(n, size)
    ]
    return client.gather(futures)


def collide_batch(
    client: Any,
    tree_a: Any,
    tree_b: Any,
    poses: Any,
    *,
    mode: str = "first",
    chunk: Optional[int] = None,
) -> Any:
    """``tree_a.collide_batch(tree_b, poses, mode)`` on the cluster: the
    trees scattered to every worker once, the poses (an ``(N, 7)`` or
    ``(N, 4, 4)`` array or a sequence of poses) split into chunks of
    ``chunk`` (default :data:`DEFAULT_POSE_CHUNK`), one task a chunk. The
    same answer as the single call: an ``(N,)`` bool array, or
    ``(hits, counts)`` with ``mode="all"``."""
    parts = _batch(client, "collide_batch", tree_a, tree_b, poses, chunk, {"mode": mode})
    if mode == "all":
        if not parts:
            return np.zeros(0, bool), np.zeros(0, np.uint64)
        return (
            np.concatenate([p[0] for p in parts]),
            np.concatenate([p[1] for p in parts]),
        )
    return np.concatenate(parts) if parts else np.zeros(0, bool)


def distance_batch(
    client: Any,
    tree_a: Any,
    tree_b: Any,
    poses: Any,
    *,
    rel_err: float = 0.0,
    abs_err: float = 0.0,
    chunk: Optional[int] = None,
) -> np.ndarray:
    """``tree_a.distance_batch(tree_b, poses, …)`` on the cluster, split as
    :func:`collide_batch` splits it: the same ``(N,)`` float64 array."""
    options = {"rel_err": rel_err, "abs_err": abs_err}
    parts = _batch(client, "distance_batch", tree_a, tree_b, poses, chunk, options)
    return np.concatenate(parts) if parts else np.zeros(0, np.float64)


# --- many pairs ---------------------------------------------------------------


def candidate_pairs(meshes: Sequence[Any]) -> np.ndarray:
    """The broad phase: every pair ``(i, j)``, ``i < j``, of meshes (in one
    frame) whose axis-aligned boxes overlap or touch, as a ``(k, 2)`` int64
    array sorted by ``i`` then ``j`` — the pairs a clash must test exactly.
    Meshes without triangles meet nothing."""
    boxes = [m.aabb for m in meshes]
    idx = [i for i, b in enumerate(boxes) if b is not None]
    if not idx:
        return np.zeros((0, 2), np.int64)
    lo = np.array([boxes[i][0] for i in idx])
    hi = np.array([boxes[i][1] for i in idx])
    order = np.argsort(lo[:, 0], kind="stable")
    pairs = []
    for pos, a in enumerate(order):
        # Sweep along x: the boxes starting before this one ends.
        for b in order[pos + 1 :]:
            if lo[b, 0] > hi[a, 0]:
                break
            if np.all(lo[a] <= hi[b]) and np.all(lo[b] <= hi[a]):
                i, j = sorted((idx[a], idx[b]))
                pairs.append((i, j))
    out = np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)
    return out


def _chunk_pairs(trees: Sequence[Any], pairs: np.ndarray, mode: str) -> np.ndarray:
    return np.array(
        [len(trees[i].collide(trees[j], None, mode).pairs) for i, j in pairs],
        dtype=np.uint64,
    )


def collide_pairs(
    client: Any,
    trees: Sequence[Any],
    pairs: Any,
    *,
    mode: str = "first",
    chunk: Optional[int] = None,
) -> np.ndarray:
    """For each pair ``(i, j)`` of ``pairs`` (a ``(k, 2)`` array, for
    instance :func:`candidate_pairs`), the meeting triangle pairs of
    ``trees[i]`` and ``trees[j]`` (one frame, identity pose):
    ``len(trees[i].collide(trees[j], None, mode).pairs)`` — with
    ``mode="first"`` 0 or 1, so nonzero means they meet. The trees are
    scattered to every worker once; the pairs split into chunks of
    ``chunk`` (default :data:`DEFAULT_PAIR_CHUNK`). A ``(k,)`` uint64
    array."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    size = chunk or DEFAULT_PAIR_CHUNK
    [ft] = client.scatter([list(trees)], broadcast=True, hash=False)
    futures = [
        client.submit(_chunk_pairs, ft, pairs[i:j], mode, pure=False)
        for i, j in _chunks(len(pairs), size)
    ]
    parts = client.gather(futures)
    return np.concatenate(parts) if parts else np.zeros(0, np.uint64)


__all__ = [
    "DEFAULT_PAIR_CHUNK",
    "DEFAULT_POSE_CHUNK",
    "candidate_pairs",
    "collide_batch",
    "collide_pairs",
    "distance_batch",
    "fit_record",
    "map_files",
]

