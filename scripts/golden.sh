#!/usr/bin/env bash
# Golden outputs: every command's answers on models/ and 12 corpus models,
# written to OUT so that two builds can be compared byte for byte.
#
#   bash scripts/golden.sh OUT [BVTOOL]      # BVTOOL defaults to target/release/bvtool
#   diff -r OLD NEW                           # empty when nothing changed
#
# Timings (keys ending in _ms, _us or _s, and "timings" objects) are the
# only fields removed, since they differ between runs; everything else —
# JSON of fit, compare, clash, collide --all-pairs and distance, the BVT1,
# C header and glTF exports, and the PNGs — is kept as written.
set -euo pipefail
OUT="${1:?usage: golden.sh OUT [BVTOOL]}"
BV="${2:-target/release/bvtool}"
M="${BVTOOL_MODELS:-$(cd "$(dirname "$0")/../.." && pwd)/shared/models}"
mkdir -p "$OUT"
strip() { jq -S 'walk(if type == "object" then with_entries(select((.key | test("(_ms|_us|_s)$|^timings$|^time") | not))) else . end)'; }
run_json() { local name="$1"; shift; "$BV" "$@" 2>"$OUT/$name.err" | strip >"$OUT/$name.json" || echo "exit $?" >>"$OUT/$name.err"; }
CORPUS=(
  "$M/obj/stanford-bunny.obj"
  "$M/obj/common-3d-test-models/teapot.obj"
  "$M/obj/common-3d-test-models/alligator.obj"
  "$M/obj/mujoco_menagerie/kuka_iiwa_14/assets/link_2_grey.obj"
  "$M/obj/pybullet/duck_vhacd.obj"
  "$M/obj/pybullet/teddy2_VHACD_CHs.obj"
  "$M/stl/pybullet/l_finger.stl"
  "$M/stl/mujoco_menagerie/robotiq_2f85/assets/follower.stl"
  "$M/gltf/Duck/glTF-Embedded/Duck.gltf"
  "$M/gltf/NegativeScaleTest/glTF-Binary/NegativeScaleTest.glb"
  "$M/gltf/CesiumMan/glTF/CesiumMan.gltf"
  "$M/gltf/DamagedHelmet/glTF-Binary/DamagedHelmet.glb"
)
FILES=(models/torus.obj models/chain.gltf "${CORPUS[@]}")
i=0
for f in "${FILES[@]}"; do
  n="$(printf '%02d' $i)_$(basename "$f" | tr '.' '_')"; i=$((i + 1))
  run_json "$n.fit" fit "$f" --json --obb all --sphere all --capsule --cylinder --kdop 26 --hull-max 32
  run_json "$n.fit_per_mesh" fit "$f" --json --per-mesh --frame local --best
  run_json "$n.fit_decompose" fit "$f" --json --decompose --max-hulls 4
  run_json "$n.compare" compare "$f" --json --no-tree
  run_json "$n.clash" clash "$f" --json --by primitive --clearance 0.01
  run_json "$n.self" clash --self "$f" --json
  run_json "$n.collide" collide "$f" "$f" --pose 0.05,0.02,0,10,20,30 --all-pairs --json
  run_json "$n.distance" distance "$f" "$f" --pose 3,0.1,0,10,20,30 --json
  "$BV" export "$f" --format bin --tree --shape capsule,hull -o "$OUT/$n.bvt" 2>/dev/null || echo fail >"$OUT/$n.bvt.err"
  "$BV" export "$f" --format c --shape capsule,hull 2>/dev/null >"$OUT/$n.h" || echo fail >"$OUT/$n.h.err"
  "$BV" export "$f" --format gltf --shape capsule,hull,box -o "$OUT/$n.col.glb" 2>/dev/null || echo fail >"$OUT/$n.glb.err"
  "$BV" export "$f" --format obj --shape box,hull 2>/dev/null >"$OUT/$n.col.obj" || echo fail >"$OUT/$n.obj.err"
done
"$BV" render models/chain.gltf -o "$OUT/chain_grid.png" --view grid 2>/dev/null
"$BV" render models/chain.gltf -o "$OUT/chain_shapes.png" --volumes capsule,cylinder,kdop,hull:64,decompose 2>/dev/null
"$BV" clash models/chain.gltf --render "$OUT/chain_clash.png" >/dev/null 2>&1
"$BV" collide models/torus.obj models/torus.obj --pose 0.5,0,0 --render "$OUT/torus_contact.png" >/dev/null 2>&1
"$BV" distance models/torus.obj models/torus.obj --pose 2.7,0.1,0,10,20,30 --render "$OUT/torus_closest.png" >/dev/null 2>&1
"$BV" compare models/torus.obj models/chain.gltf --no-tree --plot "$OUT/ratios.png" >/dev/null 2>&1
echo "golden outputs in $OUT ($(ls "$OUT" | wc -l) files)"
