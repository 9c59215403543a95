#!/usr/bin/env bash
# Runs the fuzz targets one after another, MINUTES minutes each, on one core
# at low priority (AFL++ via cargo-afl; see docs/fuzzing.md).
#
#   fuzz/run_all.sh MINUTES [TARGET...]     # default: every target
#
# MINUTES may be a fraction (0.5 = 30 s per target).
#
# Seeds are the smallest files of the model corpus ($BVTOOL_MODELS, default
# ../shared/models), hard-linked (copied only where the file system cannot
# link) into the ignored fuzz/out/seeds, never into the repository; plus a
# few pose strings and BVT1 exports written here. (AFL reads only regular
# files, so symbolic links will not do.) Findings and the final queue
# stay in fuzz/out/TARGET. Prints execs, coverage and corpus size per target;
# exits 1 if any target saved a crash or a hang.
set -euo pipefail
cd "$(dirname "$0")"
minutes=${1:?usage: fuzz/run_all.sh MINUTES [TARGET...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(gltf glb obj stl pose bvt1 pipeline)
seconds=$(awk -v m="$minutes" 'BEGIN { s = int(m * 60); print (s < 1 ? 1 : s) }')
models="${BVTOOL_MODELS:-$(cd ../.. && pwd)/shared/models}"
seeds_per_kind=${SEEDS_PER_KIND:-48}

command -v cargo-afl >/dev/null || { echo "cargo-afl missing: cargo install cargo-afl" >&2; exit 2; }
cargo afl build --release --quiet

# The N smallest corpus files with extension $1 (case-insensitive), linked into $2.
link_smallest() {
    local ext=$1 dir=$2 n=$3
    [ -d "$models" ] || return 0
    find "$models" -type f -iname "*.$ext" -size -1024k -printf '%s %p\n' | sort -n | head -n "$n" |
        while read -r _ path; do
            local name
            name="$dir/$(echo "${path#"$models"/}" | tr '/' '_')"
            ln -f "$path" "$name" 2>/dev/null || cp "$path" "$name"
        done
}

# A glTF file $1 written to $2 with its external buffers as data: URIs.
embed_buffers() {
    python3 - "$1" "$2" <<'PY'
import base64, json, os, sys
src, dst = sys.argv[1], sys.argv[2]
doc = json.load(open(src))
for b in doc.get("buffers", []):
    uri = b.get("uri", "")
    if uri and not uri.startswith("data:"):
        data = open(os.path.join(os.path.dirname(src), uri), "rb").read()
        b["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
json.dump(doc, open(dst, "w"))
PY
}

seed() {
    local t=$1 dir=out/seeds/$1
    rm -rf "$dir"
    mkdir -p "$dir"
    case $t in
        gltf | glb | obj | stl) link_smallest "$t" "$dir" "$seeds_per_kind" ;;
        pipeline)
            for e in obj stl glb gltf; do link_smallest "$e" "$dir" $((seeds_per_kind / 4)); done
            # The smallest skinned files, their buffers embedded (a harness
            # reads one file), so that the bone checks have seeds.
            for f in gltf/SimpleSkin/glTF/SimpleSkin.gltf \
                gltf-asset-generator/Positive/Instancing/Instancing_0{7,8,9}.gltf; do
                [ -f "$models/$f" ] && embed_buffers "$models/$f" "$dir/skinned_$(basename "$f")"
            done
            ;;
        pose)
            printf '1,2,3' >"$dir/inline3"
            printf '0,0,0,90,0,45' >"$dir/inline6"
            printf '0.5,0,0,0,0,0.7071068,0.7071068' >"$dir/inline7"
            printf '{"translation":[1,0,0],"rotation":[0,0,0,1]}' >"$dir/one.json"
            printf '[{"translation":[1,0,0],"rotation":[0,0,0,1]},{"translation":[0,2,0],"rotation":[0,0,0.7071068,0.7071068]}]' >"$dir/list.json"
            printf '{"translation":[1,0,0],"rotation":[0,0,0,1]}\n{"translation":[0,0,3],"rotation":[1,0,0,0]}\n' >"$dir/lines.jsonl"
            ;;
        bvt1)
            for f in ../models/torus.obj ../models/chain.gltf; do
                cargo run --quiet --release --manifest-path ../Cargo.toml -- \
                    export --format bin "$f" -o "$dir/$(basename "$f").bvt" >/dev/null
            done
            cargo run --quiet --release --manifest-path ../Cargo.toml -- export --format bin \
                ../models/chain.gltf --shape box,capsule,cylinder,hull,best -o "$dir/colliders.bvt" >/dev/null
            ;;
    esac
    if [ -z "$(ls -A "$dir")" ]; then printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$dir/tri.obj"; fi
}

dict_args() {
    case $1 in
        pipeline) echo "-x dict/obj.dict -x dict/gltf.dict -x dict/stl.dict" ;;
        *) echo "-x dict/$1.dict" ;;
    esac
}

status=0
for t in "${targets[@]}"; do
    seed "$t"
    echo "== $t: $minutes min"
    # -m: address-space limit in MB (the harness runs one rayon thread);
    # -t: a run over 2 s is a hang.
    # shellcheck disable=SC2046
    # RUST_BACKTRACE=0: a panic aborts at once (symbolizing a backtrace of
    # the instrumented binary outlasts the hang timeout, so a crash would
    # be filed as a hang).
    RUST_BACKTRACE=0 AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_AUTORESUME=1 \
        AFL_NO_AFFINITY=1 AFL_IMPORT_FIRST=1 \
        nice -n 10 cargo afl fuzz -i "out/seeds/$t" -o "out/$t" $(dict_args "$t") \
        -m 1024 -t 2000 -V "$seconds" "target/release/$t" >"out/$t.log" 2>&1 || {
        echo "afl-fuzz failed for $t; see fuzz/out/$t.log" >&2
        tail -n 20 "out/$t.log" >&2
        status=1
        continue
    }
    stats=out/$t/default/fuzzer_stats
    get() { awk -F' *: *' -v k="$1" '$1 == k { print $2 }' "$stats"; }
    echo "   execs $(get execs_done) ($(get execs_per_sec)/s), coverage $(get bitmap_cvg), edges $(get edges_found)/$(get total_edges), corpus $(get corpus_count), crashes $(get saved_crashes), hangs $(get saved_hangs)"
    if [ "$(get saved_crashes)" != 0 ] || [ "$(get saved_hangs)" != 0 ]; then
        echo "   findings in fuzz/out/$t/default/crashes and hangs" >&2
        status=1
    fi
done
exit $status
