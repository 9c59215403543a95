//! Stopping clash detection and self-intersection
//! (`ClashScene::new_until`, `ClashScene::clashes_until`,
//! `self_intersections_until`): a flag set before the call stops it with
//! `Stopped`; a flag never set gives the plain call's answer, record for
//! record; a flag set while the work runs gives `Stopped` or the whole
//! answer, never a part of one.

use bvtool::clash::{
    ClashOptions, ClashScene, Grouping, self_intersections, self_intersections_until,
};
use bvtool::mesh::{Format, Geometry, MeshInstance, Scene};
use bvtool::threads::{Stop, Stopped};
use bvtool::tree::AabbTree;
use bvtool_dev::shapes::{soup, uv_sphere};
use nalgebra::{Rotation3, Translation3, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// `count` spheres of 2 sizes at random poses in a box of side 6, as one
/// scene (one instance each): many overlap, a few lie one inside another.
fn spheres(count: u32, seed: u64) -> Scene {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let geometry = |r: f64| {
        let m = uv_sphere(24, 12, r);
        Arc::new(Geometry {
            positions: m.vertices,
            triangles: m.triangles,
        })
    };
    let (big, small) = (geometry(1.0), geometry(0.3));
    let instances = (0..count)
        .map(|k| {
            let g = if k % 3 == 0 { &small } else { &big };
            let axis = Vector3::new(rng.random(), rng.random(), rng.random::<f64>() + 0.1);
            let transform = Translation3::new(
                rng.random_range(0.0..6.0),
                rng.random_range(0.0..6.0),
                rng.random_range(0.0..6.0),
            )
            .to_homogeneous()
                * Rotation3::new(axis.normalize() * rng.random_range(0.0..3.0)).to_homogeneous();
            MeshInstance {
                node: Some(k),
                node_name: Some(format!("n{k}").into()),
                instance: 0,
                mesh: (k % 3 == 0) as u32,
                mesh_name: None,
                primitive: 0,
                transform,
                geometry: Arc::clone(g),
                skin: None,
            }
        })
        .collect();
    Scene {
        path: "spheres.gltf".into(),
        format: Format::Gltf,
        instances,
        skipped_primitives: 0,
        extensions: Vec::new(),
    }
}

/// Options with every pair listed and a clearance, so each record carries
/// all it can.
fn options() -> ClashOptions {
    ClashOptions {
        all_pairs: true,
        clearance: Some(0.05),
        ..ClashOptions::default()
    }
}

#[test]
fn a_flag_set_before_the_clash_stops_it() {
    let scenes = [spheres(40, 1)];
    let names = ["spheres.gltf".to_owned()];
    let set = AtomicBool::new(true);
    assert!(matches!(
        ClashScene::new_until(&scenes, &names, Grouping::Instance, Stop::on(&set)),
        Err(Stopped)
    ));
    let cs = ClashScene::new(&scenes, &names, Grouping::Instance);
    assert!(matches!(
        cs.clashes_until(&options(), Stop::on(&set)),
        Err(Stopped)
    ));
}

#[test]
fn a_flag_never_set_gives_the_plain_clashes() {
    let unset = AtomicBool::new(false);
    let names = ["spheres.gltf".to_owned()];
    for seed in 0..4 {
        let scenes = [spheres(40, seed)];
        let plain = ClashScene::new(&scenes, &names, Grouping::Instance);
        let until =
            ClashScene::new_until(&scenes, &names, Grouping::Instance, Stop::on(&unset)).unwrap();
        let a = plain.clashes(&options()).unwrap();
        let b = until
            .clashes_until(&options(), Stop::on(&unset))
            .unwrap()
            .unwrap();
        assert!(!a.clashes.is_empty(), "seed {seed}: nothing clashes");
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "seed {seed}");
    }
}

#[test]
fn self_intersections_stop_or_answer_whole() {
    let mesh = soup(6_000, 9);
    let tree = AabbTree::build(&mesh);
    let whole = self_intersections(&tree);
    assert!(whole.pairs.len() > 1_000, "{} pairs", whole.pairs.len());
    let set = AtomicBool::new(true);
    assert_eq!(
        self_intersections_until(&tree, Stop::on(&set)),
        Err(Stopped)
    );
    let unset = AtomicBool::new(false);
    assert_eq!(
        self_intersections_until(&tree, Stop::on(&unset)).as_ref(),
        Ok(&whole)
    );
    // Set while the descent runs: all or nothing.
    let mut stopped = 0;
    for delay_us in [0, 300, 1_000, 5_000, 20_000] {
        let flag = AtomicBool::new(false);
        let got = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_micros(delay_us));
                flag.store(true, Ordering::Relaxed);
            });
            self_intersections_until(&tree, Stop::on(&flag))
        });
        match got {
            Ok(found) => assert_eq!(found, whole, "{delay_us} µs"),
            Err(Stopped) => stopped += 1,
        }
    }
    assert!(stopped > 0, "no search stopped");
}

#[test]
fn a_clash_stopped_while_it_runs_gives_all_or_nothing() {
    let scenes = [spheres(60, 7)];
    let names = ["spheres.gltf".to_owned()];
    let cs = ClashScene::new(&scenes, &names, Grouping::Instance);
    let whole = format!("{:?}", cs.clashes(&options()).unwrap());
    for delay_us in [0, 500, 2_000, 10_000] {
        let flag = AtomicBool::new(false);
        let got = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_micros(delay_us));
                flag.store(true, Ordering::Relaxed);
            });
            cs.clashes_until(&options(), Stop::on(&flag))
        });
        if let Ok(found) = got {
            assert_eq!(format!("{:?}", found.unwrap()), whole, "{delay_us} µs");
        }
    }
}
