"""Fanning bvtool's work out on a Dask cluster (``dask.distributed``) or
on Ray.

Three shapes of work, each equal to the single-process answer
(docs/python.md, "Scale-out"):

- many files: :func:`map_files` runs one task per file and gathers the
  answers as one table (a list of records, in the order of the paths);
  :func:`fit_record` is a ready-made task (``bvtool.fit`` of a file);
- many poses: :func:`collide_batch` and :func:`distance_batch` scatter the
  two trees to every worker once, then split the poses into chunks (one
  ``*_batch`` call a chunk) and concatenate the answers;
- many pairs: :func:`candidate_pairs` (a broad phase: the pairs of parts
  whose world boxes overlap) and :func:`collide_pairs` (each distinct tree
  put in the cluster once — one tree may stand for many placed parts —,
  the pairs split into chunks).

Every helper takes an engine as its first argument: a
``distributed.Client`` (``Client(LocalCluster(...))`` on one machine,
``Client("tcp://scheduler:8786")`` on a cluster — the code is the same), or
the ``ray`` module itself after ``ray.init(...)`` (local, or
``ray.init(address="auto")`` on a Ray cluster). Trees and meshes travel as
their pickles (the built tree, not a recipe: ``ObbTree.to_bytes``), put in
the cluster once (Dask: scattered with ``broadcast=True``; Ray:
``ray.put``) and named by reference in every task. Neither Dask nor Ray is
imported by this module, so ``import bvtool.distributed`` works without
them.
"""

from __future__ import annotations

import math
import os
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from . import bvtool as _bv

#: The least work a task is given when no chunk size is asked for, in
#: seconds of one thread: an empty task costs 1–3 ms on Dask and Ray
#: (``python/bench/scale_out.py``), so a task of 50 ms spends at most
#: about 5 % of its time being scheduled.
TASK_SECONDS = 0.05

#: The most poses a task is given (56 MB of ``(N, 7)`` poses).
MAX_POSE_CHUNK = 1_000_000

#: The most mesh pairs a task is given.
MAX_PAIR_CHUNK = 100_000


class _Dask:
    """The three operations the helpers need, on a ``distributed.Client``."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def broadcast(self, obj: Any) -> Any:
        # Every worker gets the object once; tasks name it by future.
        [future] = self.client.scatter([obj], broadcast=True, hash=False)
        return future

    def put_all(self, objs: List[Any]) -> List[Any]:
        # Each object once, on some worker; others fetch it when a task needs it.
        return self.client.scatter(objs, hash=False) if objs else []

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return self.client.submit(fn, *args, pure=False, **kwargs)

    def gather(self, futures: List[Any]) -> List[Any]:
        return self.client.gather(futures)


class _Ray:
    """The same three operations on Ray (the ``ray`` module, initialised)."""

    def __init__(self, ray: Any) -> None:
        self.ray = ray
        self.remote: Dict[Callable[..., Any], Any] = {}

    def broadcast(self, obj: Any) -> Any:
        # One copy in the object store; an ObjectRef passed as a task's
        # argument arrives as the object itself.
        return self.ray.put(obj)

    def put_all(self, objs: List[Any]) -> List[Any]:
        return [self.ray.put(o) for o in objs]

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if fn not in self.remote:
            self.remote[fn] = self.ray.remote(fn)
        return self.remote[fn].remote(*args, **kwargs)

    def gather(self, futures: List[Any]) -> List[Any]:
        return self.ray.get(futures)


def _engine(client: Any) -> Any:
    """The engine behind ``client``: a Dask client, or the ``ray`` module."""
    if all(hasattr(client, name) for name in ("scatter", "submit", "gather")):
        return _Dask(client)
    if all(hasattr(client, name) for name in ("put", "get", "remote")):
        if not client.is_initialized():
            raise ValueError("ray is not initialised: call ray.init(...) first")
        return _Ray(client)
    raise TypeError(
        f"{type(client).__name__}: expected a distributed.Client or the ray module"
    )


def _workers(engine: Any) -> int:
    """Threads the cluster runs tasks on (at least 1)."""
    if isinstance(engine, _Dask):
        info = engine.client.scheduler_info()["workers"].values()
        return max(1, sum(int(w.get("nthreads", 1)) for w in info))
    return max(1, int(engine.ray.cluster_resources().get("CPU", 1)))


def _local_threads() -> int:
    """The threads of this process's bvtool pool (as many as CPUs, or
    ``RAYON_NUM_THREADS``)."""
    given = os.environ.get("RAYON_NUM_THREADS", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _auto_chunk(n: int, engine: Any, cost: Callable[[int], None], largest: int) -> int:
    """Items a task when no chunk size is asked for: enough that a task
    holds :data:`TASK_SECONDS` of one thread's work, measured here by
    running ``cost(m)`` (the first ``m`` items, answers dropped) on this
    process's pool for a few milliseconds; as few as give every worker
    thread four tasks when there is more work than that; at most
    ``largest``."""
    m, elapsed = 0, 0.0
    while elapsed < 0.01 and m < n:
        m = min(n, max(16, 2 * m))
        t = time.perf_counter()
        cost(m)
        elapsed = time.perf_counter() - t
    # A batch runs on the whole local pool: one thread's time is about
    # `threads` times the wall time (an overestimate, so chunks err large).
    per_item = max(elapsed * _local_threads() / max(m, 1), 1e-9)
    by_cost = math.ceil(TASK_SECONDS / per_item)
    by_balance = math.ceil(n / (4 * _workers(engine)))
    return max(1, min(max(by_cost, by_balance), largest))


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
    """``task(path, **options)`` for every path, one task per file, the
    answers gathered in the order of ``paths`` (with :func:`fit_record`, a
    list of records: ``pandas.DataFrame(records)`` makes it a table). An
    error in a task is raised here, naming nothing else (Dask and Ray
    re-raise the task's exception). ``task`` must be importable by the
    workers (a module-level function)."""
    engine = _engine(client)
    futures = [engine.submit(task, str(p), **options) for p in paths]
    return engine.gather(futures)


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
    engine = _engine(client)
    poses = _as_pose_array(poses)
    n = len(poses)
    size = chunk or _auto_chunk(
        n,
        engine,
        lambda m: getattr(tree_a, method)(tree_b, poses[:m], **options),
        MAX_POSE_CHUNK,
    )
    # The trees go to the cluster once (one tree queried against itself
    # once); each task names them by reference.
    fa = engine.broadcast(tree_a)
    fb = fa if tree_b is tree_a else engine.broadcast(tree_b)
    futures = [
        engine.submit(_chunk_batch, method, fa, fb, poses[i:j], options)
        for i, j in _chunks(n, size)
    ]
    return engine.gather(futures)


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
    ``chunk`` (by default: enough poses that a task holds
    :data:`TASK_SECONDS` of work, measured on the first poses here, and
    four tasks a worker thread when there are more), one task a chunk. The
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


def _matrices(poses: Any, n: int) -> np.ndarray:
    """``n`` world poses as ``(n, 4, 4)`` float64 matrices (identity when
    ``poses`` is None), each read and checked as ``bvtool.Pose`` reads one
    (``(N, 7)`` rows: translation, then a unit quaternion ``(x, y, z, w)``;
    ``(N, 4, 4)``: rigid matrices), so a bad pose raises its
    ``ValueError``."""
    if poses is None:
        return np.broadcast_to(np.eye(4), (n, 4, 4)).copy()
    a = _as_pose_array(poses)
    if len(a) != n:
        raise ValueError(f"{len(a)} poses for {n} parts: expected one pose a part")
    if a.ndim == 3 and a.shape[1:] == (4, 4):
        read = _bv.Pose.from_matrix
    elif a.ndim == 2 and a.shape[1] == 7:
        read = lambda row: _bv.Pose(row[:3], row[3:])  # noqa: E731
    else:
        raise ValueError(f"poses of shape {a.shape}: expected (N, 4, 4) or (N, 7)")
    return np.array([read(p).matrix for p in a], dtype=np.float64).reshape(n, 4, 4)


def relative_poses(poses: Any, pairs: Any) -> np.ndarray:
    """For each pair ``(i, j)``, part ``j``'s pose in part ``i``'s frame —
    ``inverse(P_i) · P_j`` for world poses ``P`` (``(N, 7)`` rows, ``(N, 4,
    4)`` matrices or a sequence of ``Pose``) — as ``(k, 4, 4)`` float64
    matrices: the pose ``trees[i].collide(trees[j], pose)`` takes. The
    inverse is the rigid one (``Rᵀ``, ``−Rᵀ·t``)."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    n = int(pairs.max()) + 1 if len(pairs) else 0
    return _relative(_matrices(poses, len(poses) if poses is not None else n), pairs)


def _relative(m: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """:func:`relative_poses` of matrices already read (``(n, 4, 4)``)."""
    a, b = m[pairs[:, 0]], m[pairs[:, 1]]
    rt = np.transpose(a[:, :3, :3], (0, 2, 1))
    out = np.zeros((len(pairs), 4, 4))
    out[:, :3, :3] = rt @ b[:, :3, :3]
    out[:, :3, 3] = np.einsum("kij,kj->ki", rt, b[:, :3, 3] - a[:, :3, 3])
    out[:, 3, 3] = 1.0
    return out


def candidate_pairs(meshes: Sequence[Any], poses: Any = None) -> np.ndarray:
    """The broad phase: every pair ``(i, j)``, ``i < j``, of parts whose
    axis-aligned world boxes overlap or touch, as a ``(k, 2)`` int64 array
    sorted by ``i`` then ``j`` — the pairs a clash must test exactly. Part
    ``k`` is ``meshes[k]`` (the same mesh may stand for many parts) placed by
    ``poses[k]`` (``(N, 7)``, ``(N, 4, 4)`` or ``Pose``\ s; None: every mesh
    in one frame); a placed part's box is the box of its mesh's box corners
    placed (never smaller than the placed mesh's own). Meshes without
    triangles meet nothing."""
    boxes = [m.aabb for m in meshes]
    idx = [i for i, b in enumerate(boxes) if b is not None]
    if not idx:
        return np.zeros((0, 2), np.int64)
    lo = np.array([boxes[i][0] for i in idx], dtype=np.float64)
    hi = np.array([boxes[i][1] for i in idx], dtype=np.float64)
    if poses is not None:
        m = _matrices(poses, len(meshes))[idx]
        corners = np.stack(
            [np.where([(c >> k) & 1 for k in range(3)], hi, lo) for c in range(8)], axis=1
        )
        placed = np.einsum("nij,ncj->nci", m[:, :3, :3], corners) + m[:, None, :3, 3]
        lo, hi = placed.min(axis=1), placed.max(axis=1)
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


def _chunk_pairs(
    pairs: np.ndarray, relative: Optional[np.ndarray], mode: str, *trees: Any
) -> np.ndarray:
    """The task of :func:`collide_pairs`: ``pairs`` index ``trees`` (the
    distinct trees this chunk uses), ``relative`` the pairs' relative poses
    (None: one frame). The pairs of one pair of trees go to one
    ``collide_batch`` call."""
    out = np.zeros(len(pairs), dtype=np.uint64)
    if relative is None:
        relative = np.broadcast_to(np.eye(4), (len(pairs), 4, 4))
    keys = pairs[:, 0] * len(trees) + pairs[:, 1]
    for key in np.unique(keys):
        sel = np.flatnonzero(keys == key)
        a, b = trees[key // len(trees)], trees[key % len(trees)]
        got = a.collide_batch(b, np.ascontiguousarray(relative[sel]), mode)
        out[sel] = got[1] if mode == "all" else got
    return out


def collide_pairs(
    client: Any,
    trees: Sequence[Any],
    pairs: Any,
    *,
    poses: Any = None,
    mode: str = "first",
    chunk: Optional[int] = None,
) -> np.ndarray:
    """For each pair ``(i, j)`` of ``pairs`` (a ``(k, 2)`` array, for
    instance :func:`candidate_pairs`), the meeting triangle pairs of parts
    ``i`` and ``j``: part ``k`` is ``trees[k]`` placed by ``poses[k]`` (world
    poses; None: every tree in one frame), so the answer for ``(i, j)`` is
    ``trees[i].collide(trees[j], pose, mode)`` at ``pose`` =
    :func:`relative_poses` — with ``mode="first"`` 0 or 1, so nonzero means
    they meet; ``"all"``, the count of meeting triangle pairs. One tree
    object may stand for many parts (instancing: ``[tree] * n`` with ``n``
    poses): each distinct tree object is put in the cluster once and
    reaches a worker only when a task there uses it, and a task sends each
    pair of trees its pairs' poses in one ``collide_batch`` call. The pairs
    are split into chunks of ``chunk`` (by default sized as the batches
    are). A ``(k,)`` uint64 array."""
    engine = _engine(client)
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if len(pairs) and (pairs.min() < 0 or pairs.max() >= len(trees)):
        raise ValueError(f"a pair names a tree out of range (there are {len(trees)})")
    relative = None if poses is None else _relative(_matrices(poses, len(trees)), pairs)
    # Parts numbered by their distinct tree object.
    index: Dict[int, int] = {}
    objects: List[Any] = []
    for t in trees:
        if id(t) not in index:
            index[id(t)] = len(objects)
            objects.append(t)
    tree_pairs = np.array([index[id(t)] for t in trees], dtype=np.int64)[pairs]

    def part(i: int, j: int) -> Optional[np.ndarray]:
        return None if relative is None else relative[i:j]

    def local(i: int, j: int):
        used = np.unique(tree_pairs[i:j])
        return used, np.searchsorted(used, tree_pairs[i:j])

    def cost(m: int) -> None:
        used, at = local(0, m)
        _chunk_pairs(at, part(0, m), mode, *[objects[k] for k in used])

    size = chunk or _auto_chunk(len(pairs), engine, cost, MAX_PAIR_CHUNK)
    spans = _chunks(len(pairs), size)
    chunks = [local(i, j) for i, j in spans]
    named = np.unique(np.concatenate([u for u, _ in chunks])) if chunks else np.zeros(0, np.int64)
    refs = dict(zip(named.tolist(), engine.put_all([objects[k] for k in named])))
    futures = [
        engine.submit(
            _chunk_pairs,
            at,
            part(i, j),
            mode,
            *[refs[k] for k in used.tolist()],
        )
        for (i, j), (used, at) in zip(spans, chunks)
    ]
    parts = engine.gather(futures)
    return np.concatenate(parts) if parts else np.zeros(0, np.uint64)


__all__ = [
    "MAX_PAIR_CHUNK",
    "MAX_POSE_CHUNK",
    "TASK_SECONDS",
    "candidate_pairs",
    "collide_batch",
    "collide_pairs",
    "distance_batch",
    "fit_record",
    "map_files",
    "relative_poses",
]

