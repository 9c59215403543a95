"""Unpickling time and size of trees (docs/python.md, "Pickling").

    python python/bench/pickle_trees.py [MODEL ...]

For each model (default: the 69k bunny, 2CylinderEngine and the 1.6M
Nefertiti of the corpus, $BVTOOL_MODELS or ../shared/models): the tree's
triangles, `to_bytes()` size and bytes a triangle, and the median of 7 runs
of `ObbTree.from_bytes(data)` (the tree alone) and of `pickle.loads` of the
tree (its bytes and its mesh: what a worker receives).
"""

import os
import pickle
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


def median_ms(f, runs=7):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return 1e3 * statistics.median(times)


for name in sys.argv[1:] or DEFAULT:
    path = Path(name) if Path(name).is_file() else MODELS / name
    tree = bvtool.ObbTree(bvtool.load_mesh(path, max_triangles=1 << 22))
    data = tree.to_bytes()
    blob = pickle.dumps(tree, pickle.HIGHEST_PROTOCOL)
    n = tree.triangle_count
    print(
        f"{path.name}: {n} triangles, bytes {len(data) / 1e6:.1f} MB "
        f"({len(data) / n:.1f} B/triangle), pickle {len(blob) / 1e6:.1f} MB "
        f"({len(blob) / n:.1f} B/triangle); from_bytes {median_ms(lambda: bvtool.ObbTree.from_bytes(data)):.1f} ms, "
        f"pickle.loads {median_ms(lambda: pickle.loads(blob)):.1f} ms"
    )
