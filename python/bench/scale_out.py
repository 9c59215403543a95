"""What fanning out costs: the three shapes of work of bvtool.distributed on
a local cluster of two worker processes (one bvtool thread each) against
the single process (two threads) on the same machine (docs/python.md,
"Scale-out").

    python python/bench/scale_out.py [--engine dask|ray|both] [--runs 3] [--poses N] [--work NAME ...]

Shapes (models from $BVTOOL_MODELS or ../shared/models):
  files  `fit_record` of 40 corpus OBJ/STL files, one task a file;
  poses  the 69k bunny against itself: N first-contact poses (400,000)
         (`collide_batch`) and 20,000 distance poses (`distance_batch`),
         trees put in the cluster once, poses in the default chunks;
  pairs  600 copies of the Duck placed at random, the broad phase's
         candidate pairs tested with `collide(..., "all")` in the default
         chunks: 600 trees of their own (`pairs`), and one tree standing
         for the 600 parts at their world poses (`instances`; the single
         process makes one `collide_batch` call of the pairs' relative
         poses).
For each: the single-process time, the cluster's (best of --runs, after a
warm-up that starts the workers' pools and moves the trees), their ratio,
and the cost of one empty task (the scheduling floor a chunk must dwarf).
The load average is printed first: on a busy machine no figure means much.
"""

import argparse
import os
import time
from pathlib import Path

import numpy as np

import bvtool
from bvtool import distributed as bd

ROOT = Path(__file__).resolve().parents[2]
MODELS = Path(os.environ.get("BVTOOL_MODELS", ROOT.parent / "shared" / "models"))
BUNNY = MODELS / "obj/common-3d-test-models/stanford-bunny.obj"
DUCK = MODELS / "gltf/Duck/glTF-Binary/Duck.glb"


def best(f, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def noop(x):
    return x


def bunny_poses(tree, n, seed):
    """Poses of the bunny against itself, about half of them meeting it:
    rotations uniform, translations uniform in ±0.7 of its box."""
    lo, hi = tree.mesh.aabb
    rng = np.random.default_rng(seed)
    t = rng.uniform(-0.7, 0.7, (n, 3)) * (hi - lo)
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    return np.hstack([t, q])


def duck_copies(n, seed):
    """The Duck, `n` world poses `(n, 7)` at random, and the `n` meshes
    those poses place."""
    rng = np.random.default_rng(seed)
    duck = bvtool.load_mesh(DUCK)
    v, t = duck.vertices, duck.triangles
    size = float(np.max(v.max(0) - v.min(0)))
    world, meshes = [], []
    for _ in range(n):
        q = rng.normal(size=4)
        # 600 in a cube of 9 Duck sizes; more at the same density.
        side = size * 9.0 * (n / 600) ** (1 / 3)
        w = np.concatenate([rng.uniform(0, side, 3), q / np.linalg.norm(q)])
        world.append(w)
        meshes.append(bvtool.Mesh(bvtool.Pose(w[:3], w[3:]).transform_points(v), t))
    return duck, np.array(world), meshes


def corpus_files(n):
    files = sorted(
        p
        for p in MODELS.rglob("*")
        if p.suffix.lower() in (".obj", ".stl") and 20_000 < p.stat().st_size < 3_000_000
    )
    return files[:n]


def single_files(paths):
    return [bd.fit_record(str(p)) for p in paths]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", choices=["dask", "ray", "both"], default="both")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--poses", type=int, default=400_000, help="first-contact poses")
    ap.add_argument("--ducks", type=int, default=600, help="Duck parts of the pairs rows")
    ap.add_argument("--work", nargs="*", help="only these rows (files, collide, distance, pairs, instances)")
    args = ap.parse_args()

    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs; best of {args.runs}")
    tree = bvtool.ObbTree(bvtool.load_mesh(BUNNY))
    first = bunny_poses(tree, args.poses, 1)
    near = bunny_poses(tree, 20_000, 2)
    paths = corpus_files(40)
    duck, world, meshes = duck_copies(args.ducks, 3)
    trees = [bvtool.ObbTree(m) for m in meshes]
    pairs = bd.candidate_pairs(meshes)
    duck_tree = bvtool.ObbTree(duck)
    instanced = bd.candidate_pairs([duck] * len(world), world)

    def single_pairs():
        return np.array(
            [len(trees[i].collide(trees[j], None, "all").pairs) for i, j in pairs], np.uint64
        )

    work = {
        "files": (
            f"{len(paths)} files, one task each",
            lambda: single_files(paths),
            lambda c: bd.map_files(c, paths),
        ),
        "collide": (
            f"{len(first):,} first-contact poses",
            lambda: tree.collide_batch(tree, first),
            lambda c: bd.collide_batch(c, tree, tree, first),
        ),
        "distance": (
            f"{len(near):,} distance poses",
            lambda: tree.distance_batch(tree, near),
            lambda c: bd.distance_batch(c, tree, tree, near),
        ),
        "pairs": (
            f"{len(pairs):,} candidate pairs of {len(meshes)} Ducks",
            single_pairs,
            lambda c: bd.collide_pairs(c, trees, pairs, mode="all"),
        ),
        "instances": (
            f"{len(instanced):,} candidate pairs of {len(world)} Duck instances (one tree)",
            lambda: duck_tree.collide_batch(
                duck_tree, bd.relative_poses(world, instanced), "all"
            )[1],
            lambda c: bd.collide_pairs(
                c, [duck_tree] * len(world), instanced, poses=world, mode="all"
            ),
        ),
    }
    if args.work:
        work = {k: w for k, w in work.items() if k in args.work}
    expected = {name: one() for name, (_, one, _) in work.items()}

    engines = ["dask", "ray"] if args.engine == "both" else [args.engine]
    for engine in engines:
        # Each worker gets one bvtool thread: two workers share the CPUs
        # the single process's pool uses (its pool, already built, keeps
        # its threads).
        os.environ["RAYON_NUM_THREADS"] = "1"
        client, close = start(engine)
        os.environ.pop("RAYON_NUM_THREADS")
        try:
            e = bd._engine(client)
            e.gather([e.submit(noop, i) for i in range(20)])
            empty, _ = best(lambda: e.gather([e.submit(noop, i) for i in range(200)]), args.runs)
            print(f"\n{engine}: one empty task {1e3 * empty / 200:.2f} ms (200 at once)")
            print("| work | single process s | 2 workers s | ratio |")
            print("|---|---|---|---|")
            for name, (label, one, run) in work.items():
                got = run(client)  # warm-up: pools started, trees moved
                assert same(got, expected[name]), f"{engine} {name}: not the single-process answer"
                # Interleaved, so a change of load touches both columns.
                t1 = t = float("inf")
                for _ in range(args.runs):
                    t1 = min(t1, best(one, 1)[0])
                    t = min(t, best(lambda: run(client), 1)[0])
                print(f"| {name}: {label} | {t1:.3f} | {t:.3f} | {t / t1:.2f} |")
        finally:
            close()


def same(a, b):
    if isinstance(a, np.ndarray):
        return a.tobytes() == np.asarray(b).tobytes()
    return a == b


def start(engine):
    if engine == "dask":
        import distributed

        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster)

        def close():
            client.close()
            cluster.close()

        return client, close
    import ray

    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"RAYON_NUM_THREADS": "1"}},
    )
    return ray, ray.shutdown


if __name__ == "__main__":
    main()
