//! Graphics functions not drawn yet: each prints one notice per session and the script goes
//! on; calls that return a handle get a placeholder struct.

use crate::builtins::{Builtin, b};
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

pub fn table() -> Vec<Builtin> {
    GRAPHICS
        .iter()
        .map(|name| b(name, 0, -1, 1, HELP, notice))
        .collect()
}

thread_local! {
    static NOTICES: std::cell::RefCell<std::collections::HashSet<String>> = Default::default();
}

fn notice(_: &mut Interp, _: &mut Frame, _: A, nargout: usize) -> R {
    if NOTICES.with(|n| n.borrow_mut().insert(String::new())) {
        output::write_err(
            "Note: some graphics functions are not available yet; those calls are ignored.\n",
        );
    }
    if nargout == 0 {
        return Ok(vec![]);
    }
    let mut s = StructArray::scalar();
    s.set(0, "Type", Value::str("graphics placeholder"));
    Ok((0..nargout).map(|_| Value::from(s.clone())).collect())
}
