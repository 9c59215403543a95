//! Queries on pairs of trees: do two meshes touch at a pose, and where.
