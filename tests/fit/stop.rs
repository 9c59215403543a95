//! Stopping a scene fit (`FileVolumes::new_until`): a flag set before the
//! call stops it with `Stopped`; a flag never set gives the plain fit's
//! volumes byte for byte (as JSON); a flag set from another thread while
//! the fit runs gives `Stopped` or the whole answer, never a part of one.
//! `compare` and the export's document likewise (preset and unset flags).

use bvtool::Scene;
use bvtool::fit::{ObbMethod, ShapeSpec, SphereMethod};
use bvtool::mesh::{Format, Geometry, TriMesh};
use bvtool::threads::{Stop, Stopped};
use bvtool::volumes::{FileVolumes, FitOptions};
use bvtool_dev as common;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `mesh` as a one-instance scene.
fn scene(mesh: TriMesh) -> Scene {
    let geometry = Geometry {
        positions: mesh.vertices,
        triangles: mesh.triangles,
    };
    Scene::of_geometry("generated".into(), Format::Obj, geometry)
}

/// The scenes and options the tests fit: a scene of several instances
/// (the world fit's placed hulls) with the defaults; a small torus with
/// every shape and method, per mesh, then with the air.
fn cases() -> Vec<(Scene, FitOptions)> {
    let plain = FitOptions::of(ObbMethod::Tight, SphereMethod::Exact);
    let every = FitOptions {
        obb_methods: vec![ObbMethod::Tight, ObbMethod::Fast, ObbMethod::Pca],
        sphere_methods: vec![SphereMethod::Exact, SphereMethod::Ritter],
        all_methods: true,
        per_mesh: true,
        shapes: ShapeSpec::parse_list("capsule, cylinder, kdop26, hull:32, best").unwrap(),
        ..plain.clone()
    };
    let air = FitOptions {
        air: true,
        shapes: ShapeSpec::parse_list("capsule, kdop14").unwrap(),
        ..plain.clone()
    };
    let torus = || scene(common::shapes::torus(1.0, 0.3, 24, 16));
    vec![
        (common::repo_scene("chain.gltf"), plain),
        (torus(), every),
        (torus(), air),
    ]
}

fn json(v: &FileVolumes) -> String {
    serde_json::to_string(v).expect("volumes serialize")
}

#[test]
fn a_flag_set_before_the_fit_stops_it() {
    let set = AtomicBool::new(true);
    for (s, opts) in cases() {
        assert!(matches!(
            FileVolumes::new_until("f", &s, &opts, Stop::on(&set)),
            Err(Stopped)
        ));
    }
}

#[test]
fn a_flag_never_set_gives_the_plain_fit() {
    let unset = AtomicBool::new(false);
    for (s, opts) in cases() {
        let plain = json(&FileVolumes::new("f", &s, &opts).unwrap());
        let until = FileVolumes::new_until("f", &s, &opts, Stop::on(&unset))
            .expect("never stopped")
            .unwrap();
        assert_eq!(plain, json(&until));
    }
    // The input's error is the inner one, as the plain fit's.
    let empty = scene(TriMesh::default());
    let opts = FitOptions::of(ObbMethod::Tight, SphereMethod::Exact);
    let plain = FileVolumes::new("f", &empty, &opts).unwrap_err();
    let until = FileVolumes::new_until("f", &empty, &opts, Stop::on(&unset)).expect("not stopped");
    assert_eq!(plain.to_string(), until.unwrap_err().to_string());
}

#[test]
fn a_flag_set_during_the_fit_gives_all_or_nothing() {
    // 1,202 points all on their hull: the capsule's and cylinder's axis
    // searches (a pass over the points per axis tried) take most of the
    // fit's tens of milliseconds.
    let s = scene(common::shapes::uv_sphere(40, 31, 1.0));
    let opts = FitOptions {
        shapes: ShapeSpec::parse_list("capsule, cylinder, hull:64").unwrap(),
        ..FitOptions::of(ObbMethod::Tight, SphereMethod::Exact)
    };
    let start = Instant::now();
    let whole = json(&FileVolumes::new("f", &s, &opts).unwrap());
    let took = start.elapsed();
    let mut stopped = 0;
    for part in [0, 4, 2, 1] {
        let delay = if part == 0 {
            Duration::ZERO
        } else {
            took / part
        };
        let flag = AtomicBool::new(false);
        let (fit, late) = std::thread::scope(|sc| {
            sc.spawn(|| {
                std::thread::sleep(delay);
                flag.store(true, Ordering::Relaxed);
            });
            let fit = FileVolumes::new_until("f", &s, &opts, Stop::on(&flag));
            // Whether the flag was set only after the fit had ended.
            (fit, !flag.load(Ordering::Relaxed))
        });
        match fit {
            Ok(v) => assert_eq!(json(&v.unwrap()), whole, "flag after {delay:?}"),
            Err(Stopped) => {
                assert!(!late, "stopped with the flag unset");
                stopped += 1;
            }
        }
    }
    // Set at once, or a quarter and a half of the way in, the flag is seen.
    assert!(
        stopped >= 2,
        "only {stopped} of 4 fits stopped (fit {took:?})"
    );
}

/// `compare` and the export's document stop the same way: a flag set
/// before stops them; a flag never set gives the plain answer (compare's
/// JSON without its timings; the export's document as JSON).
#[test]
fn compare_and_export_stop_or_give_the_plain_answer() {
    use bvtool::export::{ExportDoc, ExportOptions};
    use bvtool::volumes::{CompareOptions, Comparison};
    let (set, unset) = (AtomicBool::new(true), AtomicBool::new(false));
    let s = common::repo_scene("chain.gltf");
    let copts = CompareOptions {
        rotations: 20,
        poses: 5,
        seed: 3,
        trees: true,
    };
    assert!(matches!(
        Comparison::new_until("f", &s, &copts, Stop::on(&set)),
        Err(Stopped)
    ));
    let untimed = |c: &Comparison| {
        fn strip(v: &mut serde_json::Value) {
            match v {
                serde_json::Value::Object(m) => {
                    m.retain(|k, _| !k.ends_with("_ms") && k != "timings");
                    m.values_mut().for_each(strip);
                }
                serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
                _ => {}
            }
        }
        let mut v = serde_json::to_value(c).unwrap();
        strip(&mut v);
        v
    };
    let plain = Comparison::new("f", &s, &copts).unwrap();
    let until = Comparison::new_until("f", &s, &copts, Stop::on(&unset))
        .expect("never stopped")
        .unwrap();
    assert_eq!(untimed(&plain), untimed(&until));
    let eopts = ExportOptions {
        shapes: ShapeSpec::parse_list("capsule, hull:32").unwrap(),
        whole: true,
        ..ExportOptions::volumes(FitOptions::of(ObbMethod::Tight, SphereMethod::Exact), true)
    };
    assert!(matches!(
        ExportDoc::new_until("f", &s, &eopts, Stop::on(&set)),
        Err(Stopped)
    ));
    let plain = ExportDoc::new("f", &s, &eopts).unwrap();
    let until = ExportDoc::new_until("f", &s, &eopts, Stop::on(&unset))
        .expect("never stopped")
        .unwrap();
    assert_eq!(
        serde_json::to_string(&plain).unwrap(),
        serde_json::to_string(&until).unwrap()
    );
}

/// The box searches alone (`obb_certified_until`), `fast` and `tight`, on
/// a round hull (every one of a UV sphere's 2,306 vertices on it: the
/// exact search's edge pairs and the face rule's directions are many): a
/// flag set before stops them; a flag never set gives the plain box and
/// certificate; a flag set from another thread an eighth, a quarter and
/// half of the way in gives `Stopped` or the whole answer, and stops one
/// of the three at least.
#[test]
fn the_box_searches_stop_or_give_the_plain_box() {
    use bvtool::fit::{ConvexHull, covariance, obb_certified, obb_certified_until};
    let points = common::shapes::uv_sphere(48, 49, 1.0).vertices;
    let hull = ConvexHull::new(&points).unwrap();
    let cov = covariance::of_points(&points).map(|(_, c)| c);
    for m in [ObbMethod::Fast, ObbMethod::Tight] {
        let set = AtomicBool::new(true);
        let got = obb_certified_until(&points, &hull, || cov, m, Stop::on(&set));
        assert!(matches!(got, Err(Stopped)), "{m:?}");
        // The quicker of two plain searches: the other tests of this binary
        // share the cores, so one search may take several times another.
        let timed = || {
            let start = Instant::now();
            let plain = obb_certified(&points, &hull, || cov, m).unwrap();
            (start.elapsed(), plain)
        };
        let ((first, plain), (second, again)) = (timed(), timed());
        assert_eq!(format!("{plain:?}"), format!("{again:?}"), "{m:?}");
        let took = first.min(second);
        let unset = AtomicBool::new(false);
        let until = obb_certified_until(&points, &hull, || cov, m, Stop::on(&unset))
            .expect("never stopped")
            .unwrap();
        assert_eq!(format!("{plain:?}"), format!("{until:?}"), "{m:?}");
        let mut stopped = 0;
        for part in [8, 4, 2] {
            let flag = AtomicBool::new(false);
            let (got, late) = std::thread::scope(|sc| {
                sc.spawn(|| {
                    std::thread::sleep(took / part);
                    flag.store(true, Ordering::Relaxed);
                });
                let got = obb_certified_until(&points, &hull, || cov, m, Stop::on(&flag));
                (got, !flag.load(Ordering::Relaxed))
            });
            match got {
                Ok(b) => assert_eq!(format!("{:?}", b.unwrap()), format!("{plain:?}")),
                Err(Stopped) => {
                    assert!(!late, "{m:?}: stopped with the flag unset");
                    stopped += 1;
                }
            }
        }
        assert!(stopped >= 1, "{m:?}: no search of {took:?} stopped");
    }
}
