//! Removing a body: [`World::remove`].

use super::{Body, World};
use crate::error::{Error, Result};
use std::collections::HashSet;
use std::sync::Arc;

impl World {
    /// Removes body `i` and returns it. Bodies keep positional indices:
    /// every later body's index goes down by one (names are unchanged, so
    /// [`World::index`] finds them). The broad phase drops its box without
    /// re-sorting (the others keep their order), the allowed pairs
    /// involving it are dropped (the others renumbered), and a tree no
    /// other body uses is released, with its solid and, for a primitive,
    /// the shared tree kept for later primitives of that size
    /// ([`World::tessellation_tolerance`] then covers the primitives left).
    ///
    /// # Errors
    /// An index out of range.
    pub fn remove(&mut self, i: usize) -> Result<Body> {
        let n = self.bodies.len();
        if i >= n {
            return Err(Error::Input(format!("body {i}: the world has {n} bodies")));
        }
        let body = self.bodies.remove(i);
        self.index.remove(&body.name);
        for v in self.index.values_mut() {
            *v -= usize::from(*v > i);
        }
        self.sweep.remove(i);
        let i = i as u32;
        let shift = |x: u32| x - u32::from(x > i);
        self.allowed = self
            .allowed
            .iter()
            .filter(|&&(a, b)| a != i && b != i)
            .map(|&(a, b)| (shift(a), shift(b)))
            .collect();
        // Release the trees no body uses any more.
        let used: HashSet<usize> = (self.bodies.iter())
            .flat_map(|b| b.shapes.iter().map(|s| Arc::as_ptr(&s.tree) as usize))
            .collect();
        for s in &body.shapes {
            let key = Arc::as_ptr(&s.tree) as usize;
            if !used.contains(&key) {
                self.solids.remove(&key);
                self.primitive_trees
                    .retain(|_, (t, _)| Arc::as_ptr(t) as usize != key);
            }
        }
        self.tessellation_tolerance = (self.primitive_trees.values())
            .map(|(_, tol)| *tol)
            .fold(0.0, f64::max);
        Ok(body)
    }
}
