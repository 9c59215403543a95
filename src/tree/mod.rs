//! The OBB tree: a flat, top-down hierarchy of oriented boxes over a mesh.
