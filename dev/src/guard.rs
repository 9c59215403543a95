//! Running the binary under a time limit, so that a hang fails its test
//! instead of stalling the suite (hostile inputs: FIFOs, endless streams),
//! and making the FIFOs.

use std::io::Read;
use std::path::Path;
use std::process::{ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// What feeds the child's standard input (it is closed when this returns).
pub type Feed = Box<dyn FnOnce(ChildStdin) + Send>;

/// Runs `cmd` (its stdout and stderr captured, its stdin fed by `feed` or
/// empty) and kills it if it is still running after `limit`, failing the
/// test. Returns its exit code (-1 for a signal), stdout and stderr.
pub fn run_within(mut cmd: Command, feed: Option<Feed>, limit: Duration) -> (i32, String, String) {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    match feed {
        Some(feed) => drop(std::thread::spawn(move || feed(stdin))),
        None => drop(stdin),
    }
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (
        status.code().unwrap_or(-1),
        out.join().unwrap(),
        err.join().unwrap(),
    )
}

/// [`run_within`] for the `bvtool` binary `exe` with `args`, 10 s.
pub fn bvtool_within(exe: &str, args: &[&str], feed: Option<Feed>) -> (i32, String, String) {
    let mut cmd = Command::new(exe);
    cmd.args(args);
    run_within(cmd, feed, Duration::from_secs(10))
}

/// Makes a FIFO at `path` (with the system's `mkfifo`).
pub fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}
