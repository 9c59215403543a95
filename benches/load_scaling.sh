#!/usr/bin/env bash
# Reading and tree-building figures on 1 and 2 threads (issue 40): for each
# file, the best of RUNS in-process times of parsing its bytes (already in
# memory), flattening the scene and building the OBB tree, on a rayon pool
# of 1 and of 2 threads (RAYON_NUM_THREADS), with MB/s and the 2-thread
# speed-up. Prints one Markdown table (docs/performance.md keeps one).
#
#   benches/load_scaling.sh [RUNS] [THREADS...]   # default: 5 runs, 1 2
#   GRID=1 benches/load_scaling.sh                # also the 10M grid scene
#
# Files: the 278k bunny OBJ and the 1.6M Nefertiti GLB of the corpus
# ($BVTOOL_MODELS, default ../shared/models), and with GRID=1 the
# 10M-triangle grid scene of benches/grid_scene.sh (made if missing, in
# target/scene/grid.glb; about 1 GB of memory per run). The machine's load
# (uptime) is printed first: on a busy machine the speed-ups mean little.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
threads=("${@:-1 2}")
read -r -a threads <<<"${threads[*]}"
models="${BVTOOL_MODELS:-$(cd .. && pwd)/shared/models}"
cargo build --release --quiet -p bvtool-dev --bin load_build
files=("$models/large/bunny-278k.obj" "$models/large/nefertiti-1.6M.glb")
if [[ "${GRID:-0}" == 1 ]]; then
    if [[ ! -f target/scene/grid.glb ]]; then
        cargo build --release --quiet -p bvtool-dev --bin grid_scene
        mkdir -p target/scene
        BVTOOL_MODELS="$models" target/release/grid_scene target/scene/grid.glb 10000000
    fi
    files+=(target/scene/grid.glb)
fi
echo "load: $(uptime | sed 's/.*load average/load average/'); $(nproc) CPUs; best of $runs"
echo
echo "| file | MB | triangles | threads | parse ms | MB/s | flatten ms | build ms | parse speed-up | build speed-up |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for f in "${files[@]}"; do
    first_parse="" first_build=""
    for t in "${threads[@]}"; do
        line=$(RAYON_NUM_THREADS=$t target/release/load_build "$f" "$runs")
        # Pull the fields out of the one-line JSON.
        field() { sed -E "s/.*\"$1\":([^,}]*).*/\1/" <<<"$line"; }
        parse=$(field load_ms) build=$(field build_ms)
        first_parse=${first_parse:-$parse} first_build=${first_build:-$build}
        awk -v f="$(basename "$f")" -v b="$(field bytes)" -v n="$(field triangles)" -v t="$t" \
            -v p="$parse" -v mbs="$(field load_mb_s)" -v fl="$(field flatten_ms)" -v bu="$build" \
            -v p1="$first_parse" -v b1="$first_build" \
            'BEGIN { printf "| %s | %.1f | %d | %d | %.1f | %.0f | %.1f | %.1f | %.2f× | %.2f× |\n", f, b / 1e6, n, t, p, mbs, fl, bu, p1 / p, b1 / bu }'
    done
done
