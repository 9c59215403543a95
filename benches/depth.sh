#!/usr/bin/env bash
# The signed query (`distance --signed`, issue 37) against bvtool's own
# all-contacts query (`collide --all-pairs`) and the plain distance, on the
# same overlapping poses: each model against itself, 50 poses rotated about
# its bounding-box centre and shifted up to a quarter of its diagonal
# (seeded). Prints, per model, the median and largest query time of each,
# the median ratio signed / all-contacts, and the signed search's median
# splits and how many poses reached the split cap.
#
#   benches/depth.sh [MODELS_DIR]     # default $BVTOOL_MODELS or ../shared/models
#
# Needs python3 (standard library only); poses and outputs stay in
# target/depth_bench/. Run on a quiet machine: the times are single-thread
# wall clock per query.
set -euo pipefail
cd "$(dirname "$0")/.."
models=${1:-${BVTOOL_MODELS:-../shared/models}}
cargo build --release --quiet --bin bvtool
exe=target/release/bvtool
dir=target/depth_bench
mkdir -p "$dir"
for m in models/torus.obj "$models/obj/pybullet/duck_vhacd.obj" "$models/obj/common-3d-test-models/spot.obj"; do
    name=$(basename "$m")
    "$exe" info "$m" --json > "$dir/$name.info.json"
    python3 - "$dir/$name.info.json" "$dir/$name.poses.jsonl" <<'PY'
import json, math, random, sys
info = json.load(open(sys.argv[1]))
f = info["files"][0]
box = f.get("world_aabb") or f.get("aabb")
lo, hi = box["min"], box["max"]
c = [(a + b) / 2 for a, b in zip(lo, hi)]
diag = math.dist(lo, hi)
rng = random.Random(37)
with open(sys.argv[2], "w") as out:
    for _ in range(50):
        q = [rng.gauss(0, 1) for _ in range(4)]
        n = math.sqrt(sum(x * x for x in q)); x, y, z, w = (v / n for v in q)
        R = [[1 - 2*(y*y + z*z), 2*(x*y - z*w), 2*(x*z + y*w)],
             [2*(x*y + z*w), 1 - 2*(x*x + z*z), 2*(y*z - x*w)],
             [2*(x*z - y*w), 2*(y*z + x*w), 1 - 2*(x*x + y*y)]]
        Rc = [sum(R[i][k] * c[k] for k in range(3)) for i in range(3)]
        t = [c[i] - Rc[i] + rng.uniform(-0.25, 0.25) * diag for i in range(3)]
        out.write(json.dumps({"translation": t, "rotation": [x, y, z, w]}) + "\n")
PY
    "$exe" distance "$m" "$m" --signed --pose "$dir/$name.poses.jsonl" --json > "$dir/$name.signed.json"
    "$exe" collide "$m" "$m" --all-pairs --pose "$dir/$name.poses.jsonl" --json > "$dir/$name.collide.json"
    python3 - "$name" "$dir/$name.signed.json" "$dir/$name.collide.json" <<'PY'
import json, statistics as st, sys
name, s, c = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
sig = [p["signed"]["query_us"] for p in s["poses"]]
dist = [p["query_us"] for p in s["poses"]]
col = [p["query_us"] for p in c["poses"]]
deep = sum(1 for p in s["poses"] if p["signed"]["depth"] > 0)
ratio = [a / b for a, b in zip(sig, col) if b > 0]
splits = [p["signed"]["splits"] for p in s["poses"]]
capped = sum(1 for p in s["poses"] if p["signed"]["capped"])
print(f"{name}: {s['a']['triangles']} triangles, {len(sig)} poses ({deep} overlapping)")
print(f"  signed   median {st.median(sig):10.1f} µs  max {max(sig):10.1f} µs  (splits median {st.median(splits)}, capped {capped})")
print(f"  distance median {st.median(dist):10.1f} µs  max {max(dist):10.1f} µs")
print(f"  collide --all-pairs median {st.median(col):10.1f} µs  max {max(col):10.1f} µs")
print(f"  signed / all-contacts per pose: median {st.median(ratio):.1f}x, max {max(ratio):.1f}x")
PY
done
