"""Unpickling time and size of trees (docs/python.md, "Pickling").

    python python/bench/pickle_trees.py [MODEL ...]

For each model (default: the 69k bunny, 2CylinderEngine and the 1.6M
Nefertiti of the corpus, $BVTOOL_MODELS or ../shared/models): the tree's
triangles, `to_bytes()` size and bytes a triangle, and the median of 7 runs
(each with its minor page faults, `getrusage`) of

- `ObbTree.from_bytes(data)`: the tree alone, its mesh rebuilt;
- `pickle.loads` of the tree pickled in-band with protocol 4 and 5 (its
  bytes and its mesh: what a worker receives; Python first copies the tree
  bytes out of the pickle into a `bytes` object);
- `pickle.loads(blob, buffers=...)` of the tree pickled with protocol 5
  and a `buffer_callback` (out-of-band, as Dask and Ray send it: the
  buffers are read where they lie).
"""

import os
import pickle
import resource
import statistics
import sys
import time
from pathlib import Path

import bvtool

ROOT = Path(__file__).resolve().parents[2]
MODELS = Path(os.environ.get("BVTOOL_MODELS", ROOT.parent / "shared" / "models"))
DEFAULT = [
    "obj/common-3d-test-models/stanford-bunny.obj",
    "gltf/2CylinderEngine/glTF-Binary/2CylinderEngine.glb",
    "large/nefertiti-1.6M.glb",
]


def median(f, runs=7):
    """Median milliseconds and minor page faults of `runs` calls of `f`."""
    times, faults = [], []
    for _ in range(runs):
        f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
    return 1e3 * statistics.median(times), statistics.median(faults)


def show(what, ms_faults, n):
    ms, faults = ms_faults
    return f"{what} {ms:.1f} ms ({1e6 * ms / n:.0f} ms/M, {faults:.0f} faults)"


print(f"load average {os.getloadavg()[0]:.2f}")
for name in sys.argv[1:] or DEFAULT:
    path = Path(name) if Path(name).is_file() else MODELS / name
    tree = bvtool.ObbTree(bvtool.load_mesh(path, max_triangles=1 << 22))
    data = tree.to_bytes()
    n = tree.triangle_count
    p4 = pickle.dumps(tree, 4)
    p5 = pickle.dumps(tree, 5)
    buffers = []
    oob = pickle.dumps(tree, 5, buffer_callback=buffers.append)
    raw = [b.raw() for b in buffers]
    print(
        f"{path.name}: {n} triangles, bytes {len(data) / 1e6:.1f} MB "
        f"({len(data) / n:.1f} B/triangle), pickle {len(p5) / 1e6:.1f} MB "
        f"({len(p5) / n:.1f} B/triangle), out-of-band {len(oob)} B + "
        f"{len(raw)} buffers of {sum(r.nbytes for r in raw) / 1e6:.1f} MB"
    )
    print(
        "  "
        + ", ".join(
            [
                show("from_bytes", median(lambda: bvtool.ObbTree.from_bytes(data)), n),
                show("loads p4", median(lambda: pickle.loads(p4)), n),
                show("loads p5", median(lambda: pickle.loads(p5)), n),
                show("loads p5 out-of-band", median(lambda: pickle.loads(oob, buffers=raw)), n),
            ]
        )
    )
