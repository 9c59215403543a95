//! glTF loading speed on corpus files (skipped when `$BVTOOL_MODELS` or
//! `../shared/models` is absent): a plain .gltf with an external buffer, a
//! meshopt + quantized .glb, a Draco file, and the 1.1M-triangle bunny.

use bvtool::load::{LoadOptions, load};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;

fn models() -> Option<PathBuf> {
    let dir = std::env::var_os("BVTOOL_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models"));
    dir.join("manifest.json").is_file().then_some(dir)
}

fn bench(c: &mut Criterion) {
    let Some(dir) = models() else {
        eprintln!("no model corpus: glTF load benches skipped");
        return;
    };
    let mut g = c.benchmark_group("load_gltf");
    g.sample_size(10);
    for file in [
        "gltf/2CylinderEngine/glTF/2CylinderEngine.gltf",
        "gltf/Pirate/glTF-Binary-meshopt/pirate.glb",
        "gltf/2CylinderEngine/glTF-Draco-assimp/2CylinderEngine.gltf",
        "large/bunny-1.1M.glb",
    ] {
        let path = dir.join(file);
        if !path.is_file() {
            continue;
        }
        g.bench_function(file, |b| {
            b.iter(|| {
                load(&path, &LoadOptions::default())
                    .unwrap()
                    .triangle_count()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
