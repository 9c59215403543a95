//! Reading files: glTF, OBJ, STL, and the hostile inputs every reader must refuse cleanly.
//!
//! One test binary of modules (the files beside this one), as ripgrep does:
//! the suite links once, not once per file.

mod budgets;
mod gltf;
mod gltf_parallel;
mod hostile;
mod nodes;
mod obj_stl;
mod parallel;
