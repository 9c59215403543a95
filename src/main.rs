//! The `bvtool` command line. Parsing and printing only: all work is done by
//! the `bvtool` library.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
