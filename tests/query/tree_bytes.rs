//! A tree's bytes (`ObbTree::to_bytes` / `from_bytes`, `tree::bytes`):
//! read back equal to the tree built, field for field and bit for bit, with
//! the same answers at 100 near-contact poses; every corruption tried — a
//! changed byte anywhere, a cut, a wrong header — refused with an error,
//! never a panic.

use bvtool::TriMesh;
use bvtool::check::poses::near_boundary;
use bvtool::query::{self, ContactMode, DistanceOptions};
use bvtool::tree::{NodeFit, ObbTree, TreeBytesError};
use bvtool_dev::shapes;

/// Every field equal, the floats by their bits.
fn assert_same(a: &ObbTree, b: &ObbTree) {
    assert_eq!(a.nodes, b.nodes);
    let bits = |t: &ObbTree| -> Vec<u64> {
        t.vertices
            .iter()
            .flat_map(|p| p.coords.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
            .collect()
    };
    assert_eq!(bits(a), bits(b));
    assert_eq!(a.triangles, b.triangles);
    assert_eq!(a.original, b.original);
    assert_eq!(a.leaf_size, b.leaf_size);
    assert_eq!(
        a.origin.coords.map(f64::to_bits),
        b.origin.coords.map(f64::to_bits)
    );
    assert_eq!(a.reach.to_bits(), b.reach.to_bits());
    for k in 0..a.triangle_count() as u32 {
        assert_eq!(a.twins.first_copy(k), b.twins.first_copy(k), "slot {k}");
    }
    assert_eq!(a.twins.is_empty(), b.twins.is_empty());
}

/// A torus with every triangle twice (so the twin table is not empty),
/// one twin in reversed corner order.
fn doubled_torus() -> TriMesh {
    let mut m = shapes::torus(1.0, 0.3, 24, 12);
    let n = m.triangles.len();
    for k in 0..n {
        let [a, b, c] = m.triangles[k];
        m.triangles
            .push(if k % 2 == 0 { [a, b, c] } else { [c, b, a] });
        m.sources
            .push(bvtool::TriangleSource::unplaced(0, (n + k) as u32));
    }
    m
}

#[test]
fn read_back_equal_with_the_same_answers() {
    let cases: Vec<(&str, TriMesh, usize, NodeFit)> = vec![
        ("torus", shapes::torus(1.0, 0.3, 48, 24), 2, NodeFit::Flush),
        ("doubled torus", doubled_torus(), 6, NodeFit::Quick),
        ("icosphere", shapes::icosphere(4), 8, NodeFit::Flush),
        ("soup", shapes::soup(5000, 3), 1, NodeFit::Quick),
        ("one triangle", shapes::soup(1, 1), 6, NodeFit::Quick),
    ];
    let other = shapes::icosphere(3);
    let tb = ObbTree::build(&other);
    for (name, mesh, leaf, fit) in cases {
        let tree = ObbTree::build_with(&mesh, leaf, fit);
        assert_eq!(name == "doubled torus", !tree.twins.is_empty(), "{name}");
        let bytes = tree.to_bytes();
        let back = ObbTree::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_same(&tree, &back);
        assert_eq!(
            back.to_bytes(),
            bytes,
            "{name}: written again, the same bytes"
        );
        let poses = near_boundary(&mesh, &other, 100, 7);
        // (A lone triangle is too small to meet the sphere near contact.)
        assert!(
            name == "one triangle" || poses.len() >= 50,
            "{name}: {} poses",
            poses.len()
        );
        let opts = DistanceOptions::default();
        for p in &poses {
            for mode in [ContactMode::First, ContactMode::All] {
                assert_eq!(
                    query::collide(&tree, &tb, p, mode),
                    query::collide(&back, &tb, p, mode),
                    "{name}"
                );
            }
            let (d0, d1) = (
                query::distance(&tree, &tb, p, &opts).unwrap(),
                query::distance(&back, &tb, p, &opts).unwrap(),
            );
            assert_eq!(d0.distance.to_bits(), d1.distance.to_bits(), "{name}");
            assert_eq!(d0.triangles, d1.triangles, "{name}");
            assert_eq!(d0.point_a, d1.point_a, "{name}");
        }
    }
}

#[test]
fn an_empty_tree_reads_back_empty() {
    let tree = ObbTree::build(&TriMesh::default());
    let back = ObbTree::from_bytes(&tree.to_bytes()).unwrap();
    assert_same(&tree, &back);
    assert!(back.nodes.is_empty());
}

/// Every single byte changed (two ways), every cut, and bytes appended:
/// each refused, none panics. The checksum catches a change in a section;
/// the header's own checks catch one in the header.
#[test]
fn every_corruption_is_refused() {
    let tree = ObbTree::build_with(&doubled_torus(), 4, NodeFit::Quick);
    let bytes = tree.to_bytes();
    let mut refused = 0;
    // All of the header, then every 7th byte of the sections.
    let offsets = (0..96).chain((96..bytes.len()).step_by(7));
    for at in offsets {
        for flip in [0x01u8, 0x80] {
            let mut b = bytes.clone();
            b[at] ^= flip;
            match ObbTree::from_bytes(&b) {
                Err(_) => refused += 1,
                // The checksum's own bytes excepted, no change may pass.
                Ok(_) => panic!("byte {at} ^ {flip:#x} accepted"),
            }
        }
    }
    assert!(refused > 2 * 96);
    for cut in (0..bytes.len()).step_by(13) {
        assert!(matches!(
            ObbTree::from_bytes(&bytes[..cut]),
            Err(TreeBytesError::Truncated { .. } | TreeBytesError::Length { .. })
        ));
    }
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 8]);
    assert!(matches!(
        ObbTree::from_bytes(&longer),
        Err(TreeBytesError::Length { .. })
    ));
    let mut b = bytes.clone();
    b[0] = b'X';
    assert!(matches!(
        ObbTree::from_bytes(&b),
        Err(TreeBytesError::BadMagic(_))
    ));
    let mut b = bytes.clone();
    b[4] = 3;
    assert_eq!(
        ObbTree::from_bytes(&b).unwrap_err(),
        TreeBytesError::Version(3)
    );
    let mut b = bytes.clone();
    b[100] ^= 1;
    assert!(matches!(
        ObbTree::from_bytes(&b),
        Err(TreeBytesError::Checksum { .. })
    ));
    // Counts too large for any memory: refused before allocating.
    let mut b = bytes.clone();
    b[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(ObbTree::from_bytes(&b).is_err());
    let msg = ObbTree::from_bytes(&bytes[..50]).unwrap_err().to_string();
    assert!(msg.contains("truncated"), "{msg}");
}
