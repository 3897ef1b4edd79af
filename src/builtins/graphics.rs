//! Graphics are not available yet: plotting calls print one notice per session and the script
//! goes on. Calls that return a handle get a placeholder struct (so `h = figure;`,
//! `set(h, ...)` and `ax = gca; ax.XLim = [0 1];` keep working). `close` is housekeeping and
//! stays silent.

use super::{Builtin, b};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::interp::output;
use crate::values::containers::StructArray;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

const HELP: &str =
    "Graphics are not available yet: the call prints a notice once and the script continues.";

/// Graphics functions (a returned handle is a placeholder struct).
const GRAPHICS: &[&str] = &[
    "figure",
    "gcf",
    "clf",
    "uifigure",
    "axes",
    "gca",
    "cla",
    "subplot",
    "nexttile",
    "tiledlayout",
    "yyaxis",
    "polaraxes",
    "plot",
    "plot3",
    "line",
    "semilogx",
    "semilogy",
    "loglog",
    "errorbar",
    "stairs",
    "stem",
    "area",
    "fplot",
    "polarplot",
    "scatter",
    "scatter3",
    "bar",
    "barh",
    "bar3",
    "histogram",
    "histogram2",
    "hist",
    "pie",
    "pie3",
    "boxplot",
    "heatmap",
    "surf",
    "surfc",
    "mesh",
    "meshc",
    "contour",
    "contourf",
    "contour3",
    "quiver",
    "quiver3",
    "image",
    "imagesc",
    "imshow",
    "pcolor",
    "fill",
    "fill3",
    "patch",
    "rectangle",
    "text",
    "annotation",
    "xlabel",
    "ylabel",
    "zlabel",
    "title",
    "subtitle",
    "sgtitle",
    "legend",
    "colorbar",
    "colormap",
    "caxis",
    "clim",
    "xlim",
    "ylim",
    "zlim",
    "axis",
    "xticks",
    "yticks",
    "zticks",
    "xticklabels",
    "yticklabels",
    "xtickangle",
    "ytickangle",
    "xtickformat",
    "ytickformat",
    "grid",
    "box",
    "hold",
    "view",
    "daspect",
    "pbaspect",
    "shading",
    "lighting",
    "camlight",
    "light",
    "material",
    "alpha",
    "linkaxes",
    "zoom",
    "rotate3d",
    "pan",
    "datetick",
    "set",
    "get",
    "saveas",
    "print",
    "exportgraphics",
    "savefig",
    "refresh",
    "parula",
    "jet",
    "hsv",
    "hot",
    "cool",
    "spring",
    "summer",
    "autumn",
    "winter",
    "gray",
    "bone",
    "copper",
    "pink",
    "lines",
    "turbo",
    "colororder",
    "ishold",
    "ginput",
    "waitbar",
];

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    let mut t: Vec<Builtin> = GRAPHICS.iter().map(|name| b(name, 0, -1, 1, HELP, notice)).collect();
    t.push(b("close", 0, -1, 1, "close, close all, close(h): closes figures; there are none yet, so it does nothing.", close));
    t.push(b("drawnow", 0, -1, 0, "drawnow: no effect (no graphics).", quiet));
    t.push(b("ishandle", 1, 1, 1, "ishandle(h): false: there are no graphics objects yet.", ishandle));
    t.push(b("isgraphics", 1, 2, 1, "isgraphics(h): false: there are no graphics objects yet.", ishandle));
    t
}

thread_local! {
    static NOTICE_SHOWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn notice(_: &mut Interp, _: &mut Frame, _: A, nargout: usize) -> R {
    if !NOTICE_SHOWN.with(|p| p.replace(true)) {
        output::write_err("Note: plotting is not available yet; graphics calls are ignored.\n");
    }
    if nargout == 0 {
        return Ok(vec![]);
    }
    let mut s = StructArray::scalar();
    s.set(0, "Type", Value::str("graphics placeholder"));
    Ok((0..nargout).map(|_| Value::from(s.clone())).collect())
}

fn close(_: &mut Interp, _: &mut Frame, _: A, nargout: usize) -> R {
    Ok(if nargout > 0 {
        vec![Value::Bool(true)]
    } else {
        vec![]
    })
}

fn quiet(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    Ok(vec![])
}

fn ishandle(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let shape = a[0].shape();
    let n = shape.numel();
    Ok(vec![
        crate::values::tensor::Tensor::bools(shape, vec![false; n]).into(),
    ])
}
