#!/usr/bin/env bash
# Round hulls (issue 34, class 4): closed cylinders of 1k..1M segments and
# UV spheres of ~10^4..10^6 vertices, written as OBJ, then each of
# `fit` (default: tight), `fit --obb fast`, `compare --no-tree` and
# `export --shape decompose` timed as a whole process with GNU time: wall
# time, user CPU and peak resident memory, beside the file's size.
#
#   benches/round_hulls.sh [LIMIT_S]     # per-command time limit, default 60
#
# Models and outputs stay in target/round_hulls/. Needs python3 and
# /usr/bin/time. Figures: docs/performance-log.md.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-60}
cargo build --release --quiet --bin bvtool
dir=target/round_hulls
mkdir -p "$dir"
python3 - "$dir" <<'PY'
import math, os, sys
d = sys.argv[1]
def cyl(n, path, r=1.0, h=3.0):
    if os.path.exists(path): return
    with open(path, "w") as f:
        for k in range(n):
            a = 2 * math.pi * k / n
            c, s = r * math.cos(a), r * math.sin(a)
            f.write(f"v {c!r} {s!r} 0\nv {c!r} {s!r} {h!r}\n")
        f.write(f"v 0 0 0\nv 0 0 {h!r}\n")
        b, t = 2 * n + 1, 2 * n + 2
        for k in range(n):
            j = (k + 1) % n
            a0, a1, b0, b1 = 2 * k + 1, 2 * k + 2, 2 * j + 1, 2 * j + 2
            f.write(f"f {a0} {b0} {b1}\nf {a0} {b1} {a1}\nf {b} {b0} {a0}\nf {t} {a1} {b1}\n")
def sph(nu, nv, path, r=1.0):
    if os.path.exists(path): return
    with open(path, "w") as f:
        f.write(f"v 0 0 {r}\n")
        for i in range(1, nv):
            th = math.pi * i / nv
            for j in range(nu):
                ph = 2 * math.pi * j / nu
                f.write(f"v {r*math.sin(th)*math.cos(ph)!r} {r*math.sin(th)*math.sin(ph)!r} {r*math.cos(th)!r}\n")
        f.write(f"v 0 0 {-r}\n")
        at = lambda i, j: 2 + (i - 1) * nu + (j % nu)
        s = 2 + (nv - 1) * nu
        for j in range(nu):
            f.write(f"f 1 {at(1, j)} {at(1, j + 1)}\nf {s} {at(nv - 1, j + 1)} {at(nv - 1, j)}\n")
        for i in range(1, nv - 1):
            for j in range(nu):
                f.write(f"f {at(i, j)} {at(i + 1, j)} {at(i + 1, j + 1)}\nf {at(i, j)} {at(i + 1, j + 1)} {at(i, j + 1)}\n")
for n in (1000, 10000, 100000, 1000000):
    cyl(n, f"{d}/cylinder_{n}.obj")
for nu, nv in ((144, 72), (450, 224), (1416, 708)):
    sph(nu, nv, f"{d}/uv_sphere_{nu * (nv - 1) + 2}.obj")
PY

# run MODEL NAME COMMAND...: one line, the command's wall time, user CPU,
# peak memory and exit status (124: over the limit).
run() {
    local model=$1 name=$2
    shift 2
    local status=0
    /usr/bin/time -v timeout "$limit" "$@" >/dev/null 2>"$dir/time.txt" || status=$?
    awk -F': ' -v m="$model" -v n="$name" -v s="$status" '
        /Elapsed/ { wall = $2 }
        /User time/ { user = $2 }
        /Maximum resident/ { rss = $2 }
        END { printf "%-24s %-18s wall %-9s user %-7s s  peak %7.1f MB  exit %s\n", m, n, wall, user, rss / 1024, s }
    ' "$dir/time.txt"
}
bin=target/release/bvtool
for model in "$dir"/cylinder_*.obj "$dir"/uv_sphere_*.obj; do
    name=$(basename "$model" .obj)
    printf '%-24s %.1f MB\n' "$name" "$(du -k "$model" | awk '{ print $1 / 1024 }')"
    run "$name" "fit" "$bin" fit --json "$model"
    run "$name" "fit --obb fast" "$bin" fit --obb fast --json "$model"
    run "$name" "compare --no-tree" "$bin" compare --no-tree --json "$model"
    run "$name" "export decompose" "$bin" export --shape decompose --format json -o "$dir/out.json" "$model"
done
