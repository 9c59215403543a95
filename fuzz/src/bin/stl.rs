//! Fuzz target: the .stl reader (bytes → Scene with the default limits).

fn main() {
    bvtool_fuzz::single_thread();
    afl::fuzz!(|data: &[u8]| {
        let _ = bvtool_fuzz::load("stl", data);
    });
}
