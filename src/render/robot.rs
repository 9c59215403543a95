//! A robot at a configuration (`bvtool robot --render`): every link's
//! shapes placed by forward kinematics, the links of colliding pairs drawn
//! in [`HIGHLIGHT`], the others grey.

use super::picture::render;
use super::scene::{HIGHLIGHT, MESH_COLORS, RenderOptions, RenderScene};
use crate::error::Result;
use crate::mesh::{TriMesh, TriangleSource};
use crate::robots::Robot;
use image::RgbImage;
use nalgebra::Isometry3;

/// The shapes of `links` of `robot` placed at `poses` (link poses in the
/// root's frame), as one mesh.
fn links_mesh(robot: &Robot, poses: &[Isometry3<f64>], links: &[usize]) -> TriMesh {
    let mut mesh = TriMesh {
        vertices: Vec::new(),
        triangles: Vec::new(),
        sources: Vec::new(),
    };
    for &l in links {
        for s in &robot.links[l].shapes {
            let tree = &robot.trees[s.tree];
            let at = poses[l] * s.origin;
            let first = mesh.vertices.len() as u32;
            mesh.vertices.extend(tree.vertices.iter().map(|v| at * v));
            mesh.triangles
                .extend(tree.triangles.iter().map(|t| t.map(|i| first + i)));
        }
    }
    mesh.sources = (0..mesh.triangles.len() as u32)
        .map(|k| TriangleSource::unplaced(0, k))
        .collect();
    mesh
}

/// `robot` with its links at `poses` ([`Robot::forward_kinematics`]): the
/// links of the `colliding` pairs (link indices) in [`HIGHLIGHT`] (legend
/// "colliding links"), the others grey (legend "links"), under `title`.
pub fn robot_picture(
    robot: &Robot,
    poses: &[Isometry3<f64>],
    colliding: &[(usize, usize)],
    title: &[String],
    opts: &RenderOptions,
) -> Result<RgbImage> {
    let hit: std::collections::BTreeSet<usize> =
        colliding.iter().flat_map(|&(a, b)| [a, b]).collect();
    let (hot, cold): (Vec<usize>, Vec<usize>) = (0..robot.links.len())
        .filter(|&l| !robot.links[l].shapes.is_empty())
        .partition(|l| hit.contains(l));
    let mut picture = RenderScene::new();
    picture.title = title.to_vec();
    if !cold.is_empty() {
        let layer = picture.add_mesh(links_mesh(robot, poses, &cold));
        layer.color = MESH_COLORS[0];
        layer.label = Some("links".into());
    }
    if !hot.is_empty() {
        let layer = picture.add_mesh(links_mesh(robot, poses, &hot));
        layer.highlighted = (0..layer.mesh.triangles.len()).collect();
        layer.highlight_color = HIGHLIGHT;
        layer.highlight_label = "colliding links".into();
    }
    render(&picture, opts)
}
