//! `--pose` arguments, shared by every command that places mesh B.

use super::output::Failure;
use bvtool::pose::{AngleUnit, MAX_POSES};
use bvtool::{Error, Pose};
use std::fs::File;
use std::io::{BufReader, ErrorKind};

/// Where B sits in A's frame.
#[derive(clap::Args, Debug)]
pub struct PoseArgs {
    /// Where B sits in A's frame; repeatable, poses are taken in order.
    /// Inline: `x,y,z`, `x,y,z,rx,ry,rz` (Euler angles, X then Y then Z about
    /// A's axes; degrees unless --angles rad, or per angle `1.5708rad` /
    /// `90deg`) or `x,y,z,qx,qy,qz,qw` (unit quaternion). Or a JSON file, or
    /// `-` for standard input (or a FIFO, `<(producer)`), read as it comes,
    /// holding one pose, a list of poses or JSON Lines, each
    /// `{"translation":[x,y,z],"rotation":[qx,qy,qz,qw]}`,
    /// `{"matrix":[16 numbers, row-major]}` or `[[4 numbers] x 4 rows]`
    /// (a matrix must be rigid within 1e-6). Other keys are refused, as is
    /// a matrix with a translation or rotation; at most 65536 bytes a pose
    /// and 1048576 poses in all. Without it, B is at identity.
    #[arg(long, value_name = "POSE", allow_hyphen_values = true)]
    pub pose: Vec<String>,
    /// Unit of inline Euler angles without their own unit.
    #[arg(long, value_enum, default_value = "deg")]
    pub angles: AngleUnit,
}

impl PoseArgs {
    /// Every pose in order; the identity if none is given. An inline pose
    /// that does not parse is a usage error; a pose file that is missing or
    /// wrong is bad input.
    pub fn read(&self) -> Result<Vec<Pose>, Failure> {
        let mut poses = Vec::new();
        self.each(&mut |p| {
            poses.push(p);
            Ok(())
        })?;
        Ok(poses)
    }

    /// Hands every pose to `sink` in order as it is read (the identity if
    /// none is given), holding none: a pose file or standard input is
    /// answered while it is still coming (`--jsonl`). The same errors and
    /// limits as [`PoseArgs::read`]; an error of `sink` ends the reading and
    /// is returned.
    pub fn each(&self, sink: &mut dyn FnMut(Pose) -> Result<(), Failure>) -> Result<(), Failure> {
        let count = std::cell::Cell::new(0usize);
        // A failure of `sink` travels through the reader as a placeholder
        // error and is returned as it was.
        let stopped = std::cell::Cell::new(None);
        let mut take = |p: Pose| -> bvtool::Result<()> {
            if count.get() >= MAX_POSES {
                return Err(Error::Input(format!(
                    "more than {MAX_POSES} poses, the most one command reads (split the input)"
                )));
            }
            count.set(count.get() + 1);
            sink(p).map_err(|f| {
                stopped.set(Some(f));
                Error::Input(String::new())
            })
        };
        let failed = |e: Error| stopped.take().unwrap_or(Failure::Input(e));
        let mut stdin_used = false;
        for spec in &self.pose {
            let read = if spec == "-" || spec == "/dev/stdin" {
                if std::mem::replace(&mut stdin_used, true) {
                    return Err(Failure::Usage(
                        "standard input is given twice as --pose".into(),
                    ));
                }
                Pose::read_json_each(std::io::stdin().lock(), &mut take)
                    .map_err(|e| Error::Input(format!("standard input: {e}")))
            } else {
                let bad = |what: String| Error::Input(format!("{spec}: {what}"));
                match std::fs::metadata(spec) {
                    Ok(m) if m.is_dir() => Err(bad("is a folder, not a pose file".into())),
                    // A regular file, a FIFO or `<(producer)`: read as it comes.
                    Ok(_) => match File::open(spec) {
                        Ok(file) => Pose::read_json_each(BufReader::new(file), &mut take)
                            .map_err(|e| bad(e.to_string())),
                        Err(e) => Err(bad(format!("cannot read: {e}"))),
                    },
                    Err(e) => match Pose::parse_inline_in(spec, self.angles) {
                        Ok(p) => take(p),
                        Err(_) if looks_like_path(spec) => Err(bad(match e.kind() {
                            ErrorKind::NotFound => "no such pose file".into(),
                            _ => format!("cannot read: {e}"),
                        })),
                        Err(e) => return Err(Failure::Usage(e.to_string())),
                    },
                }
            };
            read.map_err(failed)?;
        }
        if count.get() == 0 {
            take(Pose::identity()).map_err(failed)?;
        }
        Ok(())
    }
}

/// Whether a `--pose` value that is not a pose names a file: it has a
/// folder separator or an extension (a dot followed by a letter).
fn looks_like_path(spec: &str) -> bool {
    spec.contains(['/', '\\'])
        || spec
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b'.' && w[1].is_ascii_alphabetic())
}
