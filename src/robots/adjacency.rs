//! Which links are adjacent: links joined by `fixed` joints form one rigid
//! body; two links are adjacent when they are in one body, or in the two
//! bodies that one moving joint joins (parent and child). Their relative
//! placement is fixed or turns about a shared joint, where meshes usually
//! touch by design (MoveIt's `Adjacent`).

use super::Joint;
use super::urdf::JointKind;
use std::collections::HashSet;

/// The adjacency of a robot's links.
pub(super) struct Adjacency {
    /// Each link's rigid body (the link at its top).
    body: Vec<usize>,
    /// The body pairs a moving joint joins, both ways.
    joined: HashSet<(usize, usize)>,
}

impl Adjacency {
    /// The adjacency of `links` links joined by `joints`, visited in
    /// `order` (parents before children).
    pub(super) fn new(links: usize, joints: &[Joint], order: &[usize]) -> Self {
        let mut body: Vec<usize> = (0..links).collect();
        for &j in order {
            if joints[j].kind == JointKind::Fixed {
                body[joints[j].child] = body[joints[j].parent];
            }
        }
        let joined = joints
            .iter()
            .map(|j| (body[j.parent], body[j.child]))
            .flat_map(|(a, b)| [(a, b), (b, a)])
            .collect();
        Adjacency { body, joined }
    }

    /// Whether links `a` and `b` are adjacent.
    pub(super) fn adjacent(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.body[a], self.body[b]);
        x == y || self.joined.contains(&(x, y))
    }
}
