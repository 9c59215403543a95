//! Fuzz target: the BVT1 binary export reader.

fn main() {
    bvtool_fuzz::single_thread();
    afl::fuzz!(|data: &[u8]| {
        let _ = bvtool::export::bin::read(data);
    });
}
