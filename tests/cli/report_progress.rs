//! Progress: the library calls its tick once per pose (the command line's
//! bar counts them), and the command line draws nothing on a stderr that
//! is not a terminal.

use bvtool_dev as common;

use bvtool::batch::collide::Side;
use bvtool::batch::{verify, verify_distance};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn verify_ticks_once_per_pose() {
    let scene = bvtool::load::load(Path::new("models/torus.obj"), &Default::default()).unwrap();
    let side = Side::new("torus", &scene, Default::default()).unwrap();
    let poses = verify::poses(&side, &side, 7, 1);
    assert_eq!(poses.len(), 7);
    let ticks = AtomicUsize::new(0);
    let tick = || {
        ticks.fetch_add(1, Ordering::Relaxed);
    };
    let doc = verify::run(&side, &side, &poses, 1, &tick).unwrap();
    assert_eq!((ticks.load(Ordering::Relaxed), doc.poses.len()), (7, 7));
    ticks.store(0, Ordering::Relaxed);
    let doc = verify_distance::run(&side, &side, &poses, 1, None, &tick).unwrap();
    assert_eq!((ticks.load(Ordering::Relaxed), doc.poses.len()), (7, 7));
}

#[test]
fn no_progress_on_a_pipe() {
    for args in [
        &[
            "verify",
            "models/torus.obj",
            "models/torus.obj",
            "--poses",
            "40",
        ][..],
        &["tree", "models/torus.obj"],
        &["compare", "models/chain.gltf"],
    ] {
        let (code, out, err) = common::bvtool!(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: stderr {err:?}");
        assert!(!out.is_empty());
    }
}

/// On a terminal (util-linux `script` gives the command one), a big tree
/// build shows a spinner naming the file after a second.
#[test]
#[ignore = "real-model suite: run by .ci/run (release, --ignored)"]
fn spinner_on_a_terminal() {
    let Some(dir) = common::models_dir() else {
        return;
    };
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        return;
    }
    let model = dir.join("large/nefertiti-1.6M.glb");
    let cmd = format!("{} tree {}", env!("CARGO_BIN_EXE_bvtool"), model.display());
    let out = std::process::Command::new("script")
        .args(["-qc", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&format!("{}, 1s", model.display())), "{text}");
}
