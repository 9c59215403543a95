//! Cutting a text file into chunks of whole lines that the OBJ and ASCII
//! STL readers parse in parallel (rayon), then join in file order.
//!
//! A reader's result must not depend on where the cuts fall: each reader
//! says which lines a chunk may start at (an OBJ chunk never starts inside
//! a `\` continuation, an ASCII STL chunk starts at an `outer loop`, which
//! resets its state), every chunk but the last ends with `\n`, so
//! [`str::lines`] sees the same lines in the chunks as in the whole text,
//! and line numbers are counted per chunk and offset afterwards
//! (`offsets`). `tests/load/parallel.rs` compares chunks of 1 byte
//! and up with one chunk for the whole file.

/// Bytes a chunk holds at least (its last line is finished) when no size
/// is asked for: about 40 chunks for a 10 MB file, enough for every thread
/// to take several (rayon balances them), few enough that a chunk's fixed
/// cost (its own vectors, joined afterwards) stays small.
pub const DEFAULT_CHUNK_BYTES: usize = 1 << 18;

/// `text` cut into chunks of whole lines, in order, together making up the
/// whole text: each at least `chunk_bytes` long (at least 1) unless it is
/// the last, and every chunk but the first starting at a line that
/// `can_start(previous_line, line)` accepts (both as in the text, without
/// their `\n`; the previous line may end with `\r`). Cut points are only
/// looked for after a `\n`, so every chunk but the last ends with one.
/// One pass over the text, plus one look back over each line tested.
pub(crate) fn cut(
    text: &str,
    chunk_bytes: usize,
    can_start: impl Fn(&str, &str) -> bool,
) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    let mut from = chunk_bytes.max(1);
    'chunks: while from < bytes.len() {
        // The first line starting at or after `from` that may begin a chunk.
        let mut search = from - 1;
        loop {
            let Some(nl) = memchr(b'\n', &bytes[search..]).map(|k| search + k) else {
                break 'chunks;
            };
            let start = nl + 1;
            if start >= bytes.len() {
                break 'chunks;
            }
            let previous_start = bytes[..nl]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |k| k + 1);
            let end = memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |k| start + k);
            // Cut only at `\n`, an ASCII byte, so both ends are char boundaries.
            if can_start(&text[previous_start..nl], &text[start..end]) {
                starts.push(start);
                from = start.saturating_add(chunk_bytes.max(1));
                continue 'chunks;
            }
            search = start;
        }
    }
    starts.push(bytes.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// The running sums before each count: given each chunk's own count of
/// lines (or vertices), `offsets[k]` is the number in the chunks before
/// chunk `k`.
pub(crate) fn offsets(counts: impl IntoIterator<Item = usize>) -> Vec<usize> {
    counts
        .into_iter()
        .scan(0usize, |before, n| {
            let at = *before;
            *before += n;
            Some(at)
        })
        .collect()
}

/// The first position of `needle` in `haystack`.
fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_whole_accepted_lines() {
        let text = "a\nb\\\nc\r\nd\n\ne";
        let accept = |prev: &str, _: &str| !prev.trim_end_matches('\r').ends_with('\\');
        for size in 1..=text.len() + 1 {
            let chunks = cut(text, size, accept);
            assert_eq!(chunks.concat(), text, "{size}");
            for pair in chunks.windows(2) {
                assert!(
                    pair[0].ends_with('\n') && !pair[0].ends_with("\\\n"),
                    "{size}"
                );
            }
        }
        assert_eq!(
            cut(text, 1, accept),
            ["a\n", "b\\\nc\r\n", "d\n", "\n", "e"]
        );
        assert_eq!(cut(text, 1, |_, _| false), [text]);
        assert_eq!(cut("", 1, accept), [""]);
        assert_eq!(offsets([2, 0, 3]), [0, 2, 2]);
    }
}
