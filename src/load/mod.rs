//! Reading glTF 2.0, OBJ and STL files into a [`crate::mesh::Scene`].
