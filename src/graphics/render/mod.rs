//! Drawing a figure with plotters: the figure's background, then each axes (box, grid,
//! ticks, labels, title, its series clipped to the plot box, legend, colorbar), onto a
//! bitmap (PNG) or SVG backend.

pub mod axes;
pub mod geometry;
pub mod legend;
pub mod pen;
pub mod polar;
pub mod series;
pub mod tex;
pub mod three;

use super::Scene;
use super::model::{FigureText, Id, Kind};
use crate::interp::error::{MError, MResult};
use pen::Pen;
use plotters::prelude::*;

/// The largest image side drawn, in pixels.
pub const MAX_SIDE: f64 = 8192.0;

/// A figure's size in pixels at `scale` (1 = screen size, 96 dpi).
pub fn size(scene: &Scene, fig: Id, scale: f64) -> (u32, u32) {
    let pos = scene
        .objs
        .get(&fig)
        .map(|f| f.nums("Position"))
        .unwrap_or_default();
    let (w, h) = match &*pos {
        [_, _, w, h] => (*w, *h),
        _ => (560.0, 420.0),
    };
    let side = |x: f64| (x * scale).round().clamp(16.0, MAX_SIDE) as u32;
    (side(w), side(h))
}

/// Draws the figure onto a backend's drawing area.
pub fn draw<DB: DrawingBackend>(
    scene: &Scene,
    fig: Id,
    area: &DrawingArea<DB, plotters::coord::Shift>,
    scale: f64,
) {
    pen::register_fonts();
    let pen = Pen { area, s: scale };
    let Some(f) = scene.objs.get(&fig) else {
        return;
    };
    let bg = f.nums("Color");
    if let [r, g, b] = &*bg {
        pen.fill([*r, *g, *b]);
    }
    let (w, h) = area.dim_in_pixel();
    // a figure title (sgtitle) takes a band along the top, a tiled layout's shared x and y
    // labels one along the bottom and the left; the axes share the rest
    let text_of = |role: FigureText| {
        f.children
            .iter()
            .filter_map(|c| scene.objs.get(c))
            .find(|o| o.kind == Kind::Text && o.role == role && o.text("Visible") != "off")
    };
    let (title, xlabel, ylabel) = (
        text_of(FigureText::Title),
        text_of(FigureText::XLabel),
        text_of(FigureText::YLabel),
    );
    let band = |t: Option<&crate::graphics::model::GObj>| {
        if t.is_some() {
            (24.0 * scale).round() as u32
        } else {
            0
        }
    };
    let (top, bottom, left) = (band(title), band(xlabel), band(ylabel));
    let inner = area.margin(top, bottom, left, 0);
    let axes_pen = Pen {
        area: &inner,
        s: scale,
    };
    for c in &f.children {
        if scene.kind(*c) == Some(Kind::Axes) {
            axes::draw(
                scene,
                *c,
                &axes_pen,
                (
                    w.saturating_sub(left) as f64,
                    h.saturating_sub(top + bottom) as f64,
                ),
            );
        }
    }
    let draw_text = |t: &crate::graphics::model::GObj, at: (f64, f64), v: pen::Align, up: bool| {
        let c = axes::rgb_of(t, "Color").unwrap_or([0.0; 3]);
        pen.text(
            &axes::label_text(t),
            at,
            t.num("FontSize", 11.0),
            c,
            pen::Align::Center,
            v,
            t.text("FontWeight") == "bold",
            up,
        );
    };
    // the figure's own title (sgtitle), centred along its top edge
    if let Some(t) = title {
        draw_text(t, (w as f64 / 2.0, 3.0 * scale), pen::Align::Start, false);
    }
    if let Some(t) = xlabel {
        let cx = left as f64 + w.saturating_sub(left) as f64 / 2.0;
        draw_text(t, (cx, h as f64 - 3.0 * scale), pen::Align::End, false);
    }
    if let Some(t) = ylabel {
        let cy = top as f64 + h.saturating_sub(top + bottom) as f64 / 2.0;
        draw_text(t, (left as f64 / 2.0, cy), pen::Align::Center, true);
    }
}

/// The figure as RGB pixels (row-major, 3 bytes a pixel).
/// Drawn at twice the size and averaged down (plotters' bitmap lines are not
/// antialiased), unless that would pass the largest side.
pub fn pixels(scene: &Scene, fig: Id, scale: f64) -> MResult<(u32, u32, Vec<u8>)> {
    let (w, h) = size(scene, fig, scale);
    let ss: u32 = if (w.max(h) as f64) * 2.0 <= MAX_SIDE {
        2
    } else {
        1
    };
    let (bw, bh) = (w * ss, h * ss);
    let mut buf = vec![255u8; bw as usize * bh as usize * 3];
    {
        let backend = BitMapBackend::with_buffer(&mut buf, (bw, bh));
        let area = backend.into_drawing_area();
        draw(scene, fig, &area, scale * ss as f64);
        area.present().map_err(|e| render_error(&e.to_string()))?;
    }
    if ss == 1 {
        return Ok((w, h, buf));
    }
    let (w_, bw_) = (w as usize, bw as usize);
    let mut out = vec![0u8; w_ * h as usize * 3];
    for y in 0..h as usize {
        for x in 0..w_ {
            for c in 0..3 {
                let at =
                    |dx: usize, dy: usize| buf[((2 * y + dy) * bw_ + 2 * x + dx) * 3 + c] as u32;
                out[(y * w_ + x) * 3 + c] =
                    ((at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1) + 2) / 4) as u8;
            }
        }
    }
    Ok((w, h, out))
}

/// The figure as a PNG file's bytes.
pub fn png(scene: &Scene, fig: Id, scale: f64, dpi: f64) -> MResult<Vec<u8>> {
    let (w, h, buf) = pixels(scene, fig, scale)?;
    let mut out = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut out, w, h);
        enc.set_color(::png::ColorType::Rgb);
        enc.set_depth(::png::BitDepth::Eight);
        let ppm = (dpi / 0.0254).round() as u32;
        enc.set_pixel_dims(Some(::png::PixelDimensions {
            xppu: ppm,
            yppu: ppm,
            unit: ::png::Unit::Meter,
        }));
        let mut wr = enc
            .write_header()
            .map_err(|e| render_error(&e.to_string()))?;
        wr.write_image_data(&buf)
            .map_err(|e| render_error(&e.to_string()))?;
    }
    Ok(out)
}

/// The figure as SVG text.
pub fn svg(scene: &Scene, fig: Id, scale: f64) -> MResult<String> {
    let (w, h) = size(scene, fig, scale);
    let mut s = String::new();
    {
        let backend = SVGBackend::with_string(&mut s, (w, h));
        let area = backend.into_drawing_area();
        draw(scene, fig, &area, scale);
        area.present().map_err(|e| render_error(&e.to_string()))?;
    }
    Ok(s)
}

fn render_error(what: &str) -> MError {
    MError::new(
        "MATLAB:print:RenderFailed",
        format!("Could not draw the figure: {what}"),
    )
}
