//! Fuzz target: pose strings, inline (`x,y,z[,rx,ry,rz | ,qx,qy,qz,qw]`) and
//! JSON / JSON Lines pose files (the bytes as text, lossily).

fn main() {
    bvtool_fuzz::single_thread();
    afl::fuzz!(|data: &[u8]| {
        let text = String::from_utf8_lossy(data);
        if let Ok(p) = bvtool::Pose::parse_inline(&text) {
            assert!(p.translation.iter().all(|x| x.is_finite()));
        }
        if let Ok(ps) = bvtool::Pose::parse_json_text(&text) {
            for p in ps {
                assert!(p.translation.iter().all(|x| x.is_finite()));
                assert!((p.rotation.norm() - 1.0).abs() < 1e-9);
            }
        }
    });
}
