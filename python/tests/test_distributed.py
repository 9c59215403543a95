"""bvtool.distributed on a local Dask cluster of two worker processes, and
on a local Ray of two CPUs where Ray is installed: the three shapes of
work (many files, many poses, many pairs) give the single-process answers
exactly."""

import time

import numpy as np
import pytest

import bvtool
from bvtool import distributed as bd
from mp_tasks import poses, tetra_grid


@pytest.fixture(scope="module", params=["dask", "ray"])
def client(request):
    if request.param == "dask":
        distributed = pytest.importorskip("distributed")
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
        c = distributed.Client(cluster, timeout=60)
        yield c
        c.close(timeout=30)
        cluster.close(timeout=30)
    else:
        ray = pytest.importorskip("ray")
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
        yield ray
        ray.shutdown()


def test_engine_refuses_what_is_not_one():
    with pytest.raises(TypeError, match="expected a distributed.Client or the ray module"):
        bd.collide_batch(object(), None, None, np.zeros((0, 7)))


def test_many_files_one_table(client, models):
    paths = sorted(p for p in models.rglob("*") if p.suffix in (".obj", ".stl") and p.stat().st_size < 300_000)[:6]
    assert len(paths) >= 3
    table = bd.map_files(client, paths)
    assert [r["file"] for r in table] == [str(p) for p in paths]
    assert table == [bd.fit_record(str(p)) for p in paths]
    assert all(r["triangles"] > 0 and r["obb_volume"] > 0 for r in table)


def test_many_poses_chunked_equal_single_process(client):
    a = bvtool.ObbTree(bvtool.Mesh(*tetra_grid(3)))
    b = bvtool.ObbTree(bvtool.Mesh(*tetra_grid(2)))
    p = poses(3000, seed=2)
    hits = a.collide_batch(b, p)
    assert hits.any() and not hits.all()
    got = bd.collide_batch(client, a, b, p, chunk=700)
    assert got.dtype == hits.dtype and np.array_equal(got, hits)
    h2, c2 = bd.collide_batch(client, a, b, p, mode="all", chunk=1000)
    h1, c1 = a.collide_batch(b, p, mode="all")
    assert np.array_equal(h1, h2) and np.array_equal(c1, c2)
    d = bd.distance_batch(client, a, b, p, chunk=1100)
    assert d.tobytes() == a.distance_batch(b, p).tobytes()
    assert len(bd.distance_batch(client, a, b, p[:0])) == 0


def test_many_pairs_equal_single_process(client):
    rng = np.random.default_rng(4)
    v, t = tetra_grid(1)
    meshes = [bvtool.Mesh(v * rng.uniform(0.5, 2.0) + rng.uniform(0, 6, 3), t) for _ in range(40)]
    trees = [bvtool.ObbTree(m) for m in meshes]
    pairs = bd.candidate_pairs(meshes)
    # The broad phase against all pairs by brute force.
    brute = []
    for i in range(len(meshes)):
        for j in range(i + 1, len(meshes)):
            (lo1, hi1), (lo2, hi2) = meshes[i].aabb, meshes[j].aabb
            if np.all(lo1 <= hi2) and np.all(lo2 <= hi1):
                brute.append((i, j))
    assert [tuple(x) for x in pairs] == brute and len(brute) > 10
    got = bd.collide_pairs(client, trees, pairs, mode="all", chunk=7)
    expected = [len(trees[i].collide(trees[j], None, "all").pairs) for i, j in pairs]
    assert got.tolist() == expected and any(expected) and not all(expected)


def test_instanced_pairs_equal_placed_meshes(client):
    # One tree standing for 40 parts at random world poses: the broad phase
    # holds every pair whose placed meshes' boxes overlap, and each answer
    # is the single-process one, the meshes placed by their poses (an
    # independent path: vertices moved, trees built in one frame) and the
    # pose composed by bvtool.Pose.
    rng = np.random.default_rng(9)
    v, t = tetra_grid(2)
    mesh = bvtool.Mesh(v, t)
    tree = bvtool.ObbTree(mesh)
    q = rng.normal(size=(40, 4))
    world = np.hstack([rng.uniform(0, 9, (40, 3)), q / np.linalg.norm(q, axis=1, keepdims=True)])
    placed = [bvtool.Pose(w[:3], w[3:]) for w in world]
    pairs = bd.candidate_pairs([mesh] * 40, world)
    meshes = [bvtool.Mesh(p.transform_points(v), t) for p in placed]
    exact = set(map(tuple, bd.candidate_pairs(meshes)))
    assert exact <= set(map(tuple, pairs)) and len(exact) > 10
    rel = bd.relative_poses(world, pairs)
    for (i, j), m in zip(pairs, rel):
        assert np.allclose(m, (placed[i].inverse() * placed[j]).matrix, atol=1e-12)
    first = bd.collide_pairs(client, [tree] * 40, pairs, poses=world, chunk=7)
    trees = [bvtool.ObbTree(m) for m in meshes]
    by_placing = [trees[i].collide(trees[j]).intersecting for i, j in pairs]
    assert first.tolist() == [int(x) for x in by_placing] and any(by_placing) and not all(by_placing)
    counts = bd.collide_pairs(client, [tree] * 40, pairs, poses=placed, mode="all", chunk=5)
    composed = [
        len(tree.collide(tree, placed[i].inverse() * placed[j], "all").pairs) for i, j in pairs
    ]
    assert counts.tolist() == composed
    # Default chunks, the same answers; a pose count that is not the parts'
    # is refused.
    assert bd.collide_pairs(client, [tree] * 40, pairs, poses=world).tolist() == first.tolist()
    with pytest.raises(ValueError, match="40 parts"):
        bd.collide_pairs(client, [tree] * 40, pairs, poses=world[:39])
    skewed = world.copy()
    skewed[3, 6] += 0.5
    with pytest.raises(ValueError, match="unit quaternion"):
        bd.collide_pairs(client, [tree] * 40, pairs, poses=skewed)


def test_default_chunks_hold_enough_work_and_balance(client):
    """The default chunk: every task holds at least TASK_SECONDS of one
    thread's work (so an empty task's 1–3 ms is at most a few percent), and
    when there is more work than that, every worker thread gets four tasks."""
    engine = bd._engine(client)
    threads = bd._workers(engine)
    assert threads == 2

    # The cost is measured as a batch on this process's pool would run: the
    # wall time of `wall` an item is `wall * pool threads` of one thread's.
    pool = bd._local_threads()

    # Sleeps overrun what they ask (by milliseconds on a loaded machine), so
    # each probe's actual time is recorded, and the chunk is checked against
    # the cost per item the last probe (the one the chunk is made from) took.
    def sleepy(wall, probes):
        def cost(m):
            t = time.perf_counter()
            time.sleep(m * wall)
            probes.append((m, time.perf_counter() - t))

        return cost

    def per_item(probes):
        m, took = probes[-1]
        return took / m

    # 1 ms an item: 1,000 items are over 1 s of work, enough for 4 tasks a thread.
    probes = []
    chunk = bd._auto_chunk(1000, engine, sleepy(1e-3, probes), 10**6)
    assert chunk * per_item(probes) * pool >= 0.9 * bd.TASK_SECONDS
    assert -(-1000 // chunk) >= 4 * threads
    # 1 µs an item: 100,000 items are 0.1–0.2 s, so fewer, fuller tasks.
    probes = []
    chunk = bd._auto_chunk(100_000, engine, sleepy(1e-6, probes), 10**6)
    assert chunk * per_item(probes) * pool >= 0.9 * bd.TASK_SECONDS
    assert chunk * 1e-6 * pool >= 0.1 * bd.TASK_SECONDS
    # Never more than the cap.
    assert bd._auto_chunk(10**7, engine, lambda m: None, 5000) == 5000
