//! Figures to files at a chosen resolution: `print -dpng|-dsvg -r150 file`, `saveas(h,
//! file)`, `exportgraphics(h, file, 'Resolution', dpi)`. The format comes from the option
//! or the file's extension (PNG or SVG).

use super::{A, R, bad, borrow, scene_of};
use crate::builtins::{Builtin, b};
use crate::graphics::handle::{self, ids_of};
use crate::graphics::model::{Id, Kind};
use crate::graphics::{Scene, render};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::value::Value;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("print", 0, -1, 0, "print -dpng file, print(fig, '-dsvg', file), print -r300 ...: writes the figure to a PNG (default 150 dpi) or SVG file.", print),
        b("saveas", 2, 3, 0, "saveas(fig, file), saveas(fig, file, 'png'|'svg'): writes the figure to a file.", saveas),
        b("exportgraphics", 2, -1, 0, "exportgraphics(fig_or_axes, file, 'Resolution', dpi): writes the figure to a PNG or SVG file.", exportgraphics),
    ]
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Png,
    Svg,
}

fn format_of(name: &str) -> Option<Format> {
    match name.trim_start_matches('.').to_ascii_lowercase().as_str() {
        "png" => Some(Format::Png),
        "svg" => Some(Format::Svg),
        _ => None,
    }
}

fn unsupported(what: &str) -> MError {
    MError::new(
        "MATLAB:print:InvalidFormat",
        format!("The format '{what}' is not supported: use png or svg."),
    )
}

/// Writes figure `fig` to `file` (its extension added when missing).
fn write(scene: &Scene, fig: Id, file: &str, format: Option<Format>, dpi: f64) -> MResult<()> {
    if file.is_empty() {
        return Err(bad("print", "The file name is empty."));
    }
    if !(dpi > 0.0) || !dpi.is_finite() {
        return Err(bad(
            "print",
            "The resolution must be a positive number of dots per inch.",
        ));
    }
    let path = std::path::Path::new(file);
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_string());
    let format = match (format, ext.as_deref()) {
        (Some(f), _) => f,
        (None, Some(e)) => format_of(e).ok_or_else(|| unsupported(e))?,
        (None, None) => Format::Png,
    };
    let mut full = path.to_path_buf();
    if ext.is_none() {
        full.set_extension(if format == Format::Png { "png" } else { "svg" });
    }
    let scale = (dpi / 96.0).min(render::MAX_SIDE / 16.0);
    let bytes = match format {
        Format::Png => render::png(scene, fig, scale, dpi)?,
        Format::Svg => render::svg(scene, fig, 1.0)?.into_bytes(),
    };
    std::fs::write(&full, bytes).map_err(|e| {
        MError::new(
            "MATLAB:print:CannotCreateOutputFile",
            format!("Cannot create output file '{}': {e}.", full.display()),
        )
    })
}

/// The figure a value names (a figure, or the figure of an axes or other object).
fn figure_of(scene: &Scene, v: &Value) -> MResult<Id> {
    let ids = ids_of(scene, v)?;
    match ids.as_slice() {
        [one] => scene.figure_of(*one).ok_or_else(handle::not_handle),
        _ => Err(bad("print", "Give one figure or axes.")),
    }
}

fn current(scene: &Scene) -> MResult<Id> {
    scene
        .current_figure
        .filter(|f| scene.kind(*f) == Some(Kind::Figure))
        .ok_or_else(|| MError::new("MATLAB:print:NoFigure", "There is no figure to print."))
}

fn print(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = scene_of(i);
    let scene = borrow(&s)?;
    let mut fig = None;
    let mut format = None;
    let mut dpi = 150.0;
    let mut file = None;
    for v in &a {
        if !v.is_text() {
            fig = Some(figure_of(&scene, v)?);
            continue;
        }
        let t = v.text()?;
        if let Some(d) = t.strip_prefix("-d") {
            format = Some(format_of(d).ok_or_else(|| unsupported(d))?);
        } else if let Some(r) = t.strip_prefix("-r") {
            dpi = r
                .parse::<f64>()
                .map_err(|_| bad("print", format!("Bad resolution '{t}'.")))?;
            if dpi == 0.0 {
                dpi = 96.0; // -r0: screen resolution
            }
        } else if let Some(n) = t.strip_prefix("-f") {
            let n: f64 = n
                .parse()
                .map_err(|_| bad("print", format!("Bad figure option '{t}'.")))?;
            fig = Some(scene.figure_by_number(n).ok_or_else(handle::not_handle)?);
        } else if t.starts_with('-') {
            // other options (-noui, -painters, ...) change nothing here
        } else {
            file = Some(t);
        }
    }
    let fig = match fig {
        Some(f) => f,
        None => current(&scene)?,
    };
    let Some(file) = file else {
        return Err(bad(
            "print",
            "Give a file name: printers are not supported.",
        ));
    };
    write(&scene, fig, &file, format, dpi)?;
    Ok(vec![])
}

fn saveas(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = scene_of(i);
    let scene = borrow(&s)?;
    let fig = figure_of(&scene, &a[0])?;
    let file = a[1].text()?;
    let format = match a.get(2) {
        Some(v) => {
            let t = v.text()?;
            Some(format_of(&t).ok_or_else(|| unsupported(&t))?)
        }
        None => None,
    };
    write(&scene, fig, &file, format, 150.0)?;
    Ok(vec![])
}

fn exportgraphics(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = scene_of(i);
    let scene = borrow(&s)?;
    let fig = figure_of(&scene, &a[0])?;
    let file = a[1].text()?;
    let mut dpi = 150.0;
    let rest = &a[2..];
    if rest.len() % 2 != 0 {
        return Err(bad(
            "exportgraphics",
            "Name-value arguments must come in pairs.",
        ));
    }
    for p in rest.chunks(2) {
        let name = p[0].text()?.to_ascii_lowercase();
        match name.as_str() {
            "resolution" => dpi = p[1].scalar_f64()?,
            "contenttype" | "backgroundcolor" | "colorspace" | "append" | "padding" => {}
            _ => return Err(bad("exportgraphics", format!("Unknown option '{name}'."))),
        }
    }
    write(&scene, fig, &file, None, dpi)?;
    Ok(vec![])
}
