#!/usr/bin/env python3
"""Points and rays against the peers, in one sitting, on the same inputs.

bvtool (`ObbTree.closest_points`, `signed_distance`, `contains`,
`cast_rays`) against Open3D's `RaycastingScene` (Embree, float32), libigl's
`signed_distance` (exact and fast winding number signs) and embreex through trimesh
(`RayMeshIntersector.intersects_first`). Every engine gets the same welded
float64 vertices and triangles (as bvtool loads them), the same points (uniform
in the bounding box grown by 10 % of its diagonal) and the same rays (from
points outside the box towards points inside it).

Printed per model and query: the median of --repeat runs of the warm library
call (the structure built once beforehand and its build time printed apart),
and the answers' agreement with bvtool's:

* distance: the largest |d_peer - d_bvtool| over the diagonal (Open3D works
  in float32, so about 1e-7 is its floor);
* sign / contains: how many points the peer puts on the other side; each such
  point is then judged by its exact distance to the surface: a disagreement
  closer to the surface than 1e-6 of the diagonal is the peer's float32 or its
  tolerance, anything farther is a wrong answer of one side and is listed;
* rays: hits missed or added by the peer, and the largest |t| gap over the
  diagonal on rays both hit.

Threads: all cores unless RAYON_NUM_THREADS (bvtool) / OMP_NUM_THREADS
(libigl) are set; Open3D uses TBB's default. Run with the peers' venv
(`../shared/peers/setup.sh VENV`) with bvtool installed into it
(`VENV/bin/pip install ./python`):

    VENV/bin/python benches/points_peers.py MODEL... [-n 100000] [--repeat 3]
"""

import argparse
import statistics
import sys
import time

import numpy as np

import bvtool


def median_time(f, repeat):
    times = []
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def welded(path):
    mesh = bvtool.load_mesh(path)
    return np.asarray(mesh.vertices, dtype=np.float64), np.asarray(mesh.triangles, dtype=np.int64)


def samples(v, n, seed):
    rng = np.random.default_rng(seed)
    lo, hi = v.min(0), v.max(0)
    diag = float(np.linalg.norm(hi - lo))
    pad = 0.1 * diag
    pts = rng.uniform(lo - pad, hi + pad, (n, 3))
    # Rays: from a sphere around the box towards points inside the box.
    centre = 0.5 * (lo + hi)
    d = rng.normal(size=(n, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    origins = centre + d * diag
    targets = rng.uniform(lo, hi, (n, 3))
    dirs = targets - origins
    dirs /= np.linalg.norm(dirs, axis=1)[:, None]
    return pts, origins, dirs, diag


def row(model, query, engine, seconds, n, agreement):
    print(f"{model:28s} {query:9s} {engine:22s} {seconds * 1e3:9.1f} ms {seconds / n * 1e6:8.2f} µs/q  {agreement}")


def run(path, n, repeat, seed):
    name = path.split("/")[-1]
    v, f = welded(path)
    pts, origins, dirs, diag = samples(v, n, seed)
    t = time.perf_counter()
    tree = bvtool.ObbTree(bvtool.Mesh(v, f))
    tree.contains(pts[:1])  # the point structure is built on the first call
    build = time.perf_counter() - t
    print(f"# {name}: {len(f)} triangles, {n} points and rays, sign: {tree.sign_method}, bvtool build {build * 1e3:.1f} ms")

    sec, (closest, dist, *_rest) = median_time(lambda: tree.closest_points(pts), repeat)
    row(name, "distance", "bvtool", sec, n, "")
    sec, sd = median_time(lambda: tree.signed_distance(pts), repeat)
    row(name, "signed", "bvtool", sec, n, "")
    sec, inside = median_time(lambda: tree.contains(pts), repeat)
    row(name, "contains", "bvtool", sec, n, "")
    sec, hits = median_time(lambda: tree.cast_rays(origins, dirs, mode="first"), repeat)
    t_bv = np.asarray(hits[0] if isinstance(hits, tuple) else hits[:, 0])
    row(name, "rays", "bvtool", sec, n, "")

    def judge(peer_inside):
        other = np.nonzero(peer_inside != inside)[0]
        near = int(np.sum(dist[other] <= 1e-6 * diag))
        far = other[dist[other] > 1e-6 * diag]
        return f"{len(other)} on the other side ({near} within 1e-6·diag of the surface, {len(far)} farther)"

    try:
        import open3d as o3d

        t = time.perf_counter()
        scene = o3d.t.geometry.RaycastingScene()
        scene.add_triangles(
            o3d.core.Tensor(v.astype(np.float32)), o3d.core.Tensor(f.astype(np.uint32))
        )
        q = o3d.core.Tensor(pts.astype(np.float32))
        scene.compute_distance(q[:1])
        print(f"#   Open3D build {(time.perf_counter() - t) * 1e3:.1f} ms")
        sec, d = median_time(lambda: scene.compute_distance(q).numpy(), repeat)
        row(name, "distance", "open3d", sec, n, f"max |Δd|/diag {np.max(np.abs(d - dist)) / diag:.1e}")
        sec, s = median_time(lambda: scene.compute_signed_distance(q).numpy(), repeat)
        row(name, "signed", "open3d", sec, n, judge(s < 0))
        sec, occ = median_time(lambda: scene.compute_occupancy(q).numpy(), repeat)
        row(name, "contains", "open3d", sec, n, judge(occ > 0.5))
        r = o3d.core.Tensor(np.hstack([origins, dirs]).astype(np.float32))
        sec, ans = median_time(lambda: scene.cast_rays(r)["t_hit"].numpy(), repeat)
        row(name, "rays", "open3d", sec, n, ray_agreement(t_bv, ans.astype(np.float64), diag))
    except ImportError:
        print("#   open3d not installed")

    try:
        import igl

        # Exact winding number, then the fast (Barnes-Hut) one: with the
        # latter libigl also returns an approximate |d|, hence two rows.
        for label, kind in (
            ("libigl (wn)", igl.SIGNED_DISTANCE_TYPE_WINDING_NUMBER),
            ("libigl (fwn)", igl.SIGNED_DISTANCE_TYPE_FAST_WINDING_NUMBER),
        ):
            sec, out = median_time(lambda kind=kind: igl.signed_distance(pts, v, f, sign_type=kind), repeat)
            s = out[0]
            gap = np.max(np.abs(np.abs(s) - dist)) / diag
            row(name, "signed", label, sec, n, f"max |Δ|d||/diag {gap:.1e}; {judge(s < 0)}")
    except ImportError:
        print("#   libigl not installed")

    try:
        import trimesh
        from trimesh.ray.ray_pyembree import RayMeshIntersector

        m = trimesh.Trimesh(v, f, process=False)
        t = time.perf_counter()
        rmi = RayMeshIntersector(m)
        rmi.intersects_first(origins[:1], dirs[:1])
        print(f"#   embreex build {(time.perf_counter() - t) * 1e3:.1f} ms")

        def embree_t():
            tri = rmi.intersects_first(origins, dirs)
            out = np.full(n, np.inf)
            hit = tri >= 0
            # embreex returns the triangle; its t is the ray-plane distance.
            a = v[f[tri[hit], 0]]
            nrm = np.cross(v[f[tri[hit], 1]] - a, v[f[tri[hit], 2]] - a)
            out[hit] = np.einsum("ij,ij->i", a - origins[hit], nrm) / np.einsum("ij,ij->i", dirs[hit], nrm)
            return out

        sec, te = median_time(embree_t, repeat)
        row(name, "rays", "embreex (trimesh)", sec, n, ray_agreement(t_bv, te, diag))
    except ImportError:
        print("#   embreex/trimesh not installed")


def ray_agreement(t_bv, t_peer, diag):
    hit_bv = np.isfinite(t_bv)
    hit_peer = np.isfinite(t_peer)
    both = hit_bv & hit_peer
    gap = np.max(np.abs(t_bv[both] - t_peer[both])) / diag if both.any() else 0.0
    return (
        f"{int(np.sum(hit_bv & ~hit_peer))} hits missed, {int(np.sum(~hit_bv & hit_peer))} added, "
        f"max |Δt|/diag {gap:.1e} on {int(both.sum())} common hits"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="+")
    ap.add_argument("-n", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print(f"# bvtool {getattr(bvtool, '__version__', '?')}, python {sys.version.split()[0]}, numpy {np.__version__}")
    for m in a.models:
        run(m, a.n, a.repeat, a.seed)


if __name__ == "__main__":
    main()
