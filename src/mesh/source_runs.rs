//! Triangle sources as runs, the compact form a pickled mesh carries: the
//! triangles of one glTF primitive (or OBJ group, or mesh made from arrays)
//! come in order, so a mesh of millions of triangles has a handful of runs
//! instead of 20 bytes a triangle.

use super::TriangleSource;

/// A run of sources: `[first, node, instance, mesh, primitive, triangle]` —
/// mesh triangle `first` has the source of the other five numbers (`node`
/// `u32::MAX` for none), and each following triangle up to the next run's
/// `first` the same source with `triangle` one more.
pub type SourceRun = [u32; 6];

/// The runs of `sources`, fewest possible, in order (none for no
/// triangles); [`sources_from_runs`] gives `sources` back.
pub fn source_runs(sources: &[TriangleSource]) -> Vec<SourceRun> {
    let mut runs = Vec::new();
    let mut prev: Option<&TriangleSource> = None;
    for (k, s) in sources.iter().enumerate() {
        let continues = prev.is_some_and(|p| {
            (p.node, p.instance, p.mesh, p.primitive) == (s.node, s.instance, s.mesh, s.primitive)
                && p.triangle.checked_add(1) == Some(s.triangle)
        });
        if !continues {
            let node = s.node.unwrap_or(u32::MAX);
            runs.push([k as u32, node, s.instance, s.mesh, s.primitive, s.triangle]);
        }
        prev = Some(s);
    }
    runs
}

/// The sources of `count` triangles from their runs, checked: the runs
/// start at triangle 0 (none for no triangles), in increasing order, below
/// `count`, and no run's triangle numbers pass `u32::MAX`.
pub fn sources_from_runs(runs: &[SourceRun], count: usize) -> Result<Vec<TriangleSource>, String> {
    if runs.is_empty() != (count == 0) || runs.first().is_some_and(|r| r[0] != 0) {
        return Err(format!(
            "{} source runs for {count} triangles (the first must start at triangle 0)",
            runs.len()
        ));
    }
    let mut sources = crate::memory::with_capacity(count);
    for (i, r) in runs.iter().enumerate() {
        let end = runs.get(i + 1).map_or(count, |next| next[0] as usize);
        if end <= r[0] as usize || end > count {
            return Err(format!(
                "source run {i} ends at {end}: the runs must start in increasing order below {count}"
            ));
        }
        let len = (end - r[0] as usize) as u32;
        if r[5].checked_add(len - 1).is_none() {
            return Err(format!(
                "source run {i}: triangle {} + {len} passes 2^32 - 1",
                r[5]
            ));
        }
        sources.extend((0..len).map(|k| TriangleSource {
            node: (r[1] != u32::MAX).then_some(r[1]),
            instance: r[2],
            mesh: r[3],
            primitive: r[4],
            triangle: r[5] + k,
        }));
    }
    Ok(sources)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(node: Option<u32>, primitive: u32, triangle: u32) -> TriangleSource {
        TriangleSource {
            node,
            instance: 1,
            mesh: 2,
            primitive,
            triangle,
        }
    }

    #[test]
    fn runs_round_trip_and_are_fewest() {
        // Three runs: a primitive, a second primitive, then the first
        // primitive's numbering restarting (a break in the sequence).
        let mut s: Vec<TriangleSource> = (0..5).map(|k| source(Some(3), 0, k)).collect();
        s.extend((7..9).map(|k| source(None, 1, k)));
        s.extend((0..2).map(|k| source(None, 1, k)));
        s.push(source(None, 1, u32::MAX));
        let runs = source_runs(&s);
        assert_eq!(runs.len(), 4);
        assert_eq!(runs[1], [5, u32::MAX, 1, 2, 1, 7]);
        assert_eq!(sources_from_runs(&runs, s.len()).unwrap(), s);
        assert!(source_runs(&[]).is_empty());
        assert_eq!(sources_from_runs(&[], 0).unwrap(), vec![]);
    }

    #[test]
    fn bad_runs_are_refused() {
        let run = |first, triangle| [first, 0, 0, 0, 0, triangle];
        for (runs, count, what) in [
            (vec![], 3, "source runs for 3"),
            (vec![run(0, 0)], 0, "source runs for 0"),
            (vec![run(1, 0)], 3, "start at triangle 0"),
            (vec![run(0, 0), run(0, 0)], 3, "increasing order"),
            (vec![run(0, 0), run(2, 0), run(1, 0)], 3, "increasing order"),
            (vec![run(0, 0), run(4, 0)], 3, "increasing order"),
            (vec![run(0, u32::MAX - 1)], 3, "passes"),
        ] {
            let e = sources_from_runs(&runs, count).unwrap_err();
            assert!(e.contains(what), "{runs:?}: {e}");
        }
        assert!(sources_from_runs(&[run(0, u32::MAX - 2)], 3).is_ok());
    }
}
