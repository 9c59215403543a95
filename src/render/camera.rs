//! Orthographic views and the camera that maps world points to pixels.

use nalgebra::{Point3, Vector3};

/// A viewing direction. Each is an orthographic view with a fixed screen
/// frame (`right`, `up`) and the direction it looks along:
///
/// | view  | looks along      | screen up | screen right |
/// |-------|------------------|-----------|--------------|
/// | front | −Z               | +Y        | +X           |
/// | side  | −X               | +Y        | −Z           |
/// | top   | −Y               | −Z        | +X           |
/// | iso   | −(1,1,1)/√3      | +Y tilted | (1,0,−1)/√2  |
///
/// So front shows the model from +Z, side from +X, top from +Y, iso from the
/// (1,1,1) direction, all right-handed (`right × up` points at the viewer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// From (1,1,1), +Y up.
    Iso,
    /// Along −Z, +Y up.
    Front,
    /// Along −X, +Y up.
    Side,
    /// Along −Y, −Z up.
    Top,
}

impl View {
    /// Parses `iso`, `front`, `side` or `top`.
    pub fn parse(s: &str) -> crate::Result<View> {
        match s {
            "iso" => Ok(View::Iso),
            "front" => Ok(View::Front),
            "side" => Ok(View::Side),
            "top" => Ok(View::Top),
            _ => Err(crate::Error::Input(format!(
                "unknown view {s:?}: expected iso, front, side, top or grid"
            ))),
        }
    }

    /// The lower-case name, as parsed.
    pub fn name(&self) -> &'static str {
        match self {
            View::Iso => "iso",
            View::Front => "front",
            View::Side => "side",
            View::Top => "top",
        }
    }

    /// The unit screen frame `(right, up, forward)`, `forward` being the
    /// direction the camera looks along; `right × up = −forward`.
    pub fn frame(&self) -> (Vector3<f64>, Vector3<f64>, Vector3<f64>) {
        let (forward, up_hint) = match self {
            View::Iso => (-Vector3::new(1.0, 1.0, 1.0).normalize(), Vector3::y()),
            View::Front => (-Vector3::z(), Vector3::y()),
            View::Side => (-Vector3::x(), Vector3::y()),
            View::Top => (-Vector3::y(), -Vector3::z()),
        };
        let right = forward.cross(&up_hint).normalize();
        let up = right.cross(&forward);
        (right, up, forward)
    }
}

/// Which model axis points up in the pictures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum UpAxis {
    /// +Y up, as glTF and most game assets (the views of the table above).
    #[default]
    #[cfg_attr(feature = "cli", value(help = "+Y up, as glTF and most game assets"))]
    Y,
    /// +Z up, as most scans, CAD and robot meshes: every view is turned so
    /// that the model's +Z plays the part of +Y (and +Y that of −Z).
    #[cfg_attr(
        feature = "cli",
        value(help = "+Z up, as most scans, CAD and robot meshes")
    )]
    Z,
}

impl UpAxis {
    /// The model-space direction of the Y-up frame's vector `v`.
    fn map(self, v: Vector3<f64>) -> Vector3<f64> {
        match self {
            UpAxis::Y => v,
            // A quarter turn about X: +Y → +Z, +Z → −Y.
            UpAxis::Z => Vector3::new(v.x, -v.z, v.y),
        }
    }
}

/// An orthographic camera for one view, fitted to a pixel rectangle:
/// screen `x = cx + scale·(p·right − u0)`, `y = cy − scale·(p·up − v0)`
/// (pixel units, y down, pixel `(i, j)` covering `[i, i+1) × [j, j+1)`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The view.
    pub view: View,
    right: Vector3<f64>,
    up: Vector3<f64>,
    forward: Vector3<f64>,
    /// Pixels per model unit.
    pub scale: f64,
    u0: f64,
    v0: f64,
    cx: f64,
    cy: f64,
}

impl Camera {
    /// The camera of `view` (turned for `up_axis`) that fits every disc `(point, radius)` (a point
    /// is a disc of radius 0; a sphere projects to the disc of its radius)
    /// into the rectangle `(x, y, w, h)` less `margin` pixels on each side,
    /// centred, with the same scale on both axes. Non-finite input is
    /// ignored; with nothing (or one point) to fit, one unit spans the
    /// rectangle's shorter side.
    pub fn fit(
        view: View,
        up_axis: UpAxis,
        discs: impl IntoIterator<Item = (Point3<f64>, f64)>,
        rect: (f64, f64, f64, f64),
        margin: f64,
    ) -> Camera {
        let (right, up, forward) = view.frame();
        let (right, up, forward) = (up_axis.map(right), up_axis.map(up), up_axis.map(forward));
        let (mut lo_u, mut hi_u) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut lo_v, mut hi_v) = (f64::INFINITY, f64::NEG_INFINITY);
        for (p, r) in discs {
            let (u, v) = (p.coords.dot(&right), p.coords.dot(&up));
            if !(u.is_finite() && v.is_finite() && r.is_finite()) {
                continue;
            }
            let r = r.abs();
            lo_u = lo_u.min(u - r);
            hi_u = hi_u.max(u + r);
            lo_v = lo_v.min(v - r);
            hi_v = hi_v.max(v + r);
        }
        if lo_u > hi_u {
            (lo_u, hi_u, lo_v, hi_v) = (-0.5, 0.5, -0.5, 0.5);
        }
        let (x, y, w, h) = rect;
        let avail_w = (w - 2.0 * margin).max(1.0);
        let avail_h = (h - 2.0 * margin).max(1.0);
        let mut scale = f64::INFINITY;
        if hi_u > lo_u {
            scale = scale.min(avail_w / (hi_u - lo_u));
        }
        if hi_v > lo_v {
            scale = scale.min(avail_h / (hi_v - lo_v));
        }
        // A single point (or spans too wide for f64) still gets a usable scale.
        if !(scale.is_finite() && scale > 0.0) {
            scale = avail_w.min(avail_h);
        }
        Camera {
            view,
            right,
            up,
            forward,
            scale,
            u0: 0.5 * (lo_u + hi_u),
            v0: 0.5 * (lo_v + hi_v),
            cx: x + 0.5 * w,
            cy: y + 0.5 * h,
        }
    }

    /// Pixel coordinates `(x, y)` of a world point (x right, y down).
    pub fn project(&self, p: Point3<f64>) -> (f64, f64) {
        (
            self.cx + self.scale * (p.coords.dot(&self.right) - self.u0),
            self.cy - self.scale * (p.coords.dot(&self.up) - self.v0),
        )
    }

    /// Distance along the viewing direction (smaller is nearer the viewer).
    pub fn depth(&self, p: Point3<f64>) -> f64 {
        p.coords.dot(&self.forward)
    }

    /// The unit direction the camera looks along.
    pub fn forward(&self) -> Vector3<f64> {
        self.forward
    }

    /// The on-screen direction `(dx, dy)` (pixels per model unit, y down)
    /// of a model-space direction.
    pub fn screen_direction(&self, d: Vector3<f64>) -> (f64, f64) {
        (
            self.scale * d.dot(&self.right),
            -self.scale * d.dot(&self.up),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_right_handed_and_match_the_table() {
        for v in [View::Iso, View::Front, View::Side, View::Top] {
            let (r, u, f) = v.frame();
            assert!((r.cross(&u) + f).norm() < 1e-12, "{v:?}");
            assert!(r.dot(&u).abs() < 1e-12 && r.dot(&f).abs() < 1e-12);
        }
        assert_eq!(View::Side.frame().0, -Vector3::z());
        assert_eq!(View::Top.frame().1, -Vector3::z());
        assert_eq!(View::Front.frame().0, Vector3::x());
    }

    #[test]
    fn fit_keeps_every_disc_inside_the_margin() {
        let discs = [
            (Point3::new(-3.0, 1.0, 2.0), 0.0),
            (Point3::new(5.0, -2.0, 0.5), 1.5),
            (Point3::new(0.0, 7.0, -4.0), 0.0),
        ];
        for v in [View::Iso, View::Front, View::Side, View::Top] {
            let cam = Camera::fit(v, UpAxis::Y, discs, (10.0, 20.0, 300.0, 200.0), 12.0);
            for (p, r) in discs {
                let (x, y) = cam.project(p);
                let rp = r * cam.scale;
                assert!(
                    x - rp >= 22.0 - 1e-9 && x + rp <= 298.0 + 1e-9,
                    "{v:?} x={x}"
                );
                assert!(
                    y - rp >= 32.0 - 1e-9 && y + rp <= 208.0 + 1e-9,
                    "{v:?} y={y}"
                );
            }
        }
    }

    #[test]
    fn fit_survives_degenerate_input() {
        let one = [(Point3::new(1.0, 2.0, 3.0), 0.0)];
        let cam = Camera::fit(View::Front, UpAxis::Y, one, (0.0, 0.0, 100.0, 100.0), 5.0);
        assert!(cam.scale.is_finite() && cam.scale > 0.0);
        assert_eq!(cam.project(one[0].0), (50.0, 50.0));
        let nan = [(Point3::new(f64::NAN, 0.0, 0.0), 0.0)];
        let cam = Camera::fit(View::Iso, UpAxis::Y, nan, (0.0, 0.0, 100.0, 100.0), 5.0);
        assert!(cam.scale.is_finite());
    }
}
