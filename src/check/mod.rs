//! Cross-checks against parry3d: the same question asked of an independent
//! implementation, with the tolerance its `f32` arithmetic calls for.

pub mod collide;
pub mod distance;
pub(crate) mod fit;
pub mod parry;
pub mod poses;
