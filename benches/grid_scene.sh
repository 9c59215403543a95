#!/usr/bin/env bash
# The 10-million-triangle scene (issue 14): makes it with
# the dev crate's grid_scene (dev/src/grid_scene.rs), then times each command on it as a whole process
# and reads its peak memory from /usr/bin/time -v.
#
#   benches/grid_scene.sh [TRIANGLES]     # default 10000000
#
# Scene, poses and outputs stay in target/scene/. Needs the corpus
# ($BVTOOL_MODELS, default ../shared/models) and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
triangles=${1:-10000000}
export BVTOOL_MODELS="${BVTOOL_MODELS:-$(cd .. && pwd)/shared/models}"
cargo build --release --quiet --bin bvtool
cargo build --release --quiet -p bvtool-dev --bin grid_scene
mkdir -p target/scene
scene=target/scene/grid.glb
poses=target/scene/grid.poses.json
target/release/grid_scene "$scene" "$triangles"
limit=(--max-triangles $((2 * triangles)))

# run NAME COMMAND...: the command's JSON to target/scene/NAME.json, then
# one line: wall time, CPU use, peak resident memory.
run() {
    local name=$1
    shift
    /usr/bin/time -v "$@" >"target/scene/$name.json" 2>"target/scene/$name.time"
    awk -F': ' -v n="$name" '
        /Elapsed/ { wall = $2 }
        /Percent of CPU/ { cpu = $2 }
        /Maximum resident/ { rss = $2 / 1024 / 1024 }
        END { printf "%-16s wall %s  cpu %s  peak %.2f GB\n", n, wall, cpu, rss }' "target/scene/$name.time"
}

bv=target/release/bvtool
run info $bv info "$scene" --json
run tree $bv tree "$scene" --json "${limit[@]}"
run clash $bv clash "$scene" --json "${limit[@]}"
run collide-first $bv collide "$scene" models/torus.obj --pose "$poses" --first-contact --json "${limit[@]}"
run collide-all $bv collide "$scene" models/torus.obj --pose "$poses" --json "${limit[@]}"
run distance $bv distance "$scene" models/torus.obj --pose "$poses" --json "${limit[@]}"

python3 - target/scene <<'EOF'
import json, statistics, sys
d = sys.argv[1]
load = lambda n: json.load(open(f"{d}/{n}.json"))
t = load("tree")["files"][0]
print(f"tree: {t['triangles']:,} triangles, {t['nodes']:,} nodes, {t['bytes_per_triangle']:.0f} B/triangle structure, "
      f"{t['total_bytes_per_triangle']:.0f} all-in, build {t['build_ms'] / 1e3:.1f} s")
c = load("clash")
s = c["summary"]
print(f"clash: {s['parts']} parts, {s['trees']} trees, {s['clashing_pairs']} clashing pairs; "
      f"load {c['time_ms']['load'] / 1e3:.2f} s, build {c['time_ms']['build'] / 1e3:.1f} s, query {c['time_ms']['query'] / 1e3:.2f} s")
for n in ["collide-first", "collide-all", "distance"]:
    r = load(n)
    q = [p["query_us"] for p in r["poses"]]
    hits = sum(bool(p["intersecting"]) for p in r["poses"])
    print(f"{n}: build {r['build_ms']['a'] / 1e3:.1f} s; per pose median {statistics.median(q):.1f} µs "
          f"(tube through a part: {statistics.median(q[:50]):.1f}, at corners: {statistics.median(q[50:]):.1f}); "
          f"{hits} of {len(q)} poses touch")
EOF
