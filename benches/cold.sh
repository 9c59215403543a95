#!/usr/bin/env bash
# Cold against warm (issue 40): `bvtool clash --self FILE --json` run as a
# fresh process on four models of different sizes — the file read once
# first so it is in the page cache — its own build + query time_ms (the
# first run, and the best of RUNS), beside criterion's median for the same
# work in one process (`cargo bench --bench clash -- self/`: AabbTree::build
# + self_intersections, the command's engine), and their ratio.
#
#   benches/cold.sh [RUNS]          # default 3; BENCH=0 skips criterion
#
# Needs the corpus ($BVTOOL_MODELS, default ../shared/models). The load
# average is printed first: on a busy machine neither column means much.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
models="${BVTOOL_MODELS:-$(cd .. && pwd)/shared/models}"
export BVTOOL_MODELS="$models"
cargo build --release --quiet --bin bvtool
if [[ "${BENCH:-1}" == 1 ]]; then
    cargo bench --quiet --bench clash -- self/ >/dev/null 2>&1
fi
echo "load: $(uptime | sed 's/.*load average/load average/'); $(nproc) CPUs; best of $runs processes"
echo
echo "| model | triangles | first process ms | best of $runs ms | criterion ms | best / criterion |"
echo "|---|---|---|---|---|---|"
# name in benches/clash.rs's MESHES (or -), path in the corpus
for entry in "-:obj/stanford-bunny.obj" "bunny69k:obj/common-3d-test-models/stanford-bunny.obj" \
    "nefertiti100k:obj/common-3d-test-models/nefertiti.obj" "samurai125k:obj/pybullet/samurai_monastry.obj"; do
    name=${entry%%:*} file="$models/${entry#*:}"
    cat "$file" >/dev/null
    times=() triangles=0
    for ((i = 0; i <= runs; i++)); do
        json=$(target/release/bvtool clash --self "$file" --json)
        triangles=$(sed -E 's/.*"triangles":([0-9]+).*/\1/' <<<"$json")
        times+=("$(sed -E 's/.*"build":([0-9.e-]+),"query":([0-9.e-]+).*/\1 \2/' <<<"$json" | awk '{ print $1 + $2 }')")
    done
    first=${times[0]}
    best=$(printf '%s\n' "${times[@]:1}" | sort -g | head -1)
    estimates=target/criterion/self/$name/new/estimates.json
    if [[ "$name" != - && -f "$estimates" ]]; then
        warm=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['median']['point_estimate'] / 1e6)" "$estimates")
        ratio=$(awk -v b="$best" -v w="$warm" 'BEGIN { printf "%.2f", b / w }')
    else
        warm=— ratio=—
    fi
    printf '| %s | %s | %.1f | %.1f | %s | %s |\n' "${entry#*:}" "$triangles" "$first" "$best" "$warm" "$ratio"
done
