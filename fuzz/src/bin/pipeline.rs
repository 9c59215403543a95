//! Fuzz target: a whole run — load (format sniffed from the bytes), every
//! fit, the OBB tree, and the mesh against itself at a small offset, with
//! the invariants of `bvtool_fuzz::pipeline`.

fn main() {
    bvtool_fuzz::single_thread();
    afl::fuzz!(|data: &[u8]| {
        if let Some(scene) = bvtool_fuzz::load(bvtool_fuzz::sniff(data), data) {
            bvtool_fuzz::pipeline(&scene);
        }
    });
}
