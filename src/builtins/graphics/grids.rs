//! Gridded data and colour: `image`, `imagesc`, `imshow`, `contour`, `contourf`, `surf`,
//! `mesh`, `pcolor`, `colormap` and the colormap functions (`parula(n)`, `jet`, ...),
//! `colorbar`, `clim`/`caxis`, `view`, `shading`.

use super::{
    A, R, apply_pairs, bad, borrow, handles_out, leading_axes, matrix, plot_axes, scene_of,
};
use crate::builtins::{Builtin, b};
use crate::graphics::colormap;
use crate::graphics::model::{Id, Kind};
use crate::graphics::{Scene, props};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::value::Value;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    let mut t = vec![
        b("image", 1, -1, 1, "image(C), image(x, y, C): an image, C as colormap rows (or m×n×3 RGB).", image),
        b("imagesc", 1, -1, 1, "imagesc(C), imagesc(x, y, C), imagesc(..., clims): an image scaled to the colormap.", imagesc),
        b("imshow", 1, -1, 1, "imshow(I): an image with equal axes and no ticks (gray for a matrix, RGB for m×n×3).", imshow),
        b("contour", 1, -1, 2, "contour(Z), contour(X, Y, Z), contour(..., n or levels), [M, c] = contour(...): contour lines (M the contour matrix, c the Contour object).", contour),
        b("contourf", 1, -1, 2, "contourf(Z), contourf(X, Y, Z, n or levels), [M, c] = contourf(...): filled contours.", contourf),
        b("surf", 1, -1, 1, "surf(Z), surf(X, Y, Z), surf(X, Y, Z, C): a shaded surface in a 3-D view.", surf),
        b("mesh", 1, -1, 1, "mesh(Z), mesh(X, Y, Z): a wireframe surface in a 3-D view.", mesh),
        b("pcolor", 1, -1, 1, "pcolor(C), pcolor(X, Y, C): a pseudocolour plot (a flat surface seen from above).", pcolor),
        b("colormap", 0, 2, 1, "colormap(name), colormap(map), colormap(ax, ...), cm = colormap: the figure's colormap.", colormap_fn),
        b("colorbar", 0, -1, 1, "colorbar, colorbar('off'), colorbar(ax): a colour scale beside the axes.", colorbar),
        b("clim", 0, 2, 1, "clim([lo hi]), clim('auto'), lims = clim: the colour limits.", clim),
        b("caxis", 0, 2, 1, "caxis([lo hi]): the colour limits (older name of clim).", clim),
        b("view", 0, 2, 1, "view(2), view(3), view(az, el), view([az el]): the viewing angle.", view),
        b("peaks", 0, 2, 3, "peaks(n), [X, Y, Z] = peaks(n): MATLAB's sample surface on an n-by-n grid over [-3, 3] (default 49).", peaks),
        b("shading", 1, 2, 0, "shading flat, shading interp, shading faceted: how surfaces are coloured.", shading),
    ];
    t.push(b("parula", 0, 1, 1, "parula(n): the parula colormap with n rows (default 256) as an n-by-3 matrix.", parula));
    t.push(b("viridis", 0, 1, 1, "viridis(n): the viridis colormap with n rows (default 256) as an n-by-3 matrix.", viridis));
    t.push(b("turbo", 0, 1, 1, "turbo(n): the turbo colormap with n rows (default 256) as an n-by-3 matrix.", turbo));
    t.push(b("jet", 0, 1, 1, "jet(n): the jet colormap with n rows (default 256) as an n-by-3 matrix.", jet));
    t.push(b("hsv", 0, 1, 1, "hsv(n): the hsv colormap with n rows (default 256) as an n-by-3 matrix.", hsv));
    t.push(b("hot", 0, 1, 1, "hot(n): the hot colormap with n rows (default 256) as an n-by-3 matrix.", hot));
    t.push(b("cool", 0, 1, 1, "cool(n): the cool colormap with n rows (default 256) as an n-by-3 matrix.", cool));
    t.push(b("spring", 0, 1, 1, "spring(n): the spring colormap with n rows (default 256) as an n-by-3 matrix.", spring));
    t.push(b("summer", 0, 1, 1, "summer(n): the summer colormap with n rows (default 256) as an n-by-3 matrix.", summer));
    t.push(b("autumn", 0, 1, 1, "autumn(n): the autumn colormap with n rows (default 256) as an n-by-3 matrix.", autumn));
    t.push(b("winter", 0, 1, 1, "winter(n): the winter colormap with n rows (default 256) as an n-by-3 matrix.", winter));
    t.push(b("gray", 0, 1, 1, "gray(n): the gray colormap with n rows (default 256) as an n-by-3 matrix.", gray));
    t.push(b("bone", 0, 1, 1, "bone(n): the bone colormap with n rows (default 256) as an n-by-3 matrix.", bone));
    t.push(b("copper", 0, 1, 1, "copper(n): the copper colormap with n rows (default 256) as an n-by-3 matrix.", copper));
    t.push(b("pink", 0, 1, 1, "pink(n): the pink colormap with n rows (default 256) as an n-by-3 matrix.", pink));
    t.push(b("lines", 0, 1, 1, "lines(n): the lines colormap with n rows (default 256) as an n-by-3 matrix.", lines));
    t.push(b("white", 0, 1, 1, "white(n): the white colormap with n rows (default 256) as an n-by-3 matrix.", white));
    t
}

macro_rules! colormap_fns {
    ($($name:ident),*) => {
        $(fn $name(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
            colormap_by_name(stringify!($name), &a)
        })*
    };
}
colormap_fns!(
    parula, viridis, turbo, jet, hsv, hot, cool, spring, summer, autumn, winter, gray, bone,
    copper, pink, lines, white
);

/// C and optional x/y vectors of image-like calls, and where the rest starts.
fn image_args(a: &A, fname: &str) -> MResult<(Value, Option<Vec<f64>>, Option<Vec<f64>>, usize)> {
    let nums = a.iter().take_while(|v| !v.is_text()).count();
    match nums {
        0 => Err(bad(fname, "Image data is missing.")),
        1 | 2 => Ok((a[0].clone().host()?, None, None, 1)),
        _ => Ok((
            a[2].clone().host()?,
            Some(matrix(&a[0], fname)?.2),
            Some(matrix(&a[1], fname)?.2),
            3,
        )),
    }
}

fn add_image(
    scene: &mut Scene,
    ax: Id,
    c: Value,
    x: Option<Vec<f64>>,
    y: Option<Vec<f64>>,
    scaled: bool,
) -> MResult<Id> {
    if !c.is_numeric_like() || c.is_char() || c.is_complex() {
        return Err(bad("image", "Image data must be real numeric."));
    }
    let dims = c.shape().dims().to_vec();
    if dims.len() > 3 || (dims.len() == 3 && dims[2] != 3) {
        return Err(bad("image", "Image data must be m-by-n or m-by-n-by-3."));
    }
    let (rows, cols) = (
        dims.first().copied().unwrap_or(0),
        dims.get(1).copied().unwrap_or(0),
    );
    let id = scene.add(Kind::Image, Some(ax));
    let ends = |v: Option<Vec<f64>>, n: usize| match v {
        Some(v) if !v.is_empty() => Value::row(vec![v[0], v[v.len() - 1]]),
        _ => Value::row(vec![1.0, n.max(1) as f64]),
    };
    let o = scene.obj_mut(id)?;
    o.put("CData", c);
    o.put("XData", ends(x, cols));
    o.put("YData", ends(y, rows));
    if scaled {
        o.put("CDataMapping", Value::str("scaled"));
    }
    // images read top-down, tight
    let a = scene.obj_mut(ax)?;
    a.put("YDir", Value::str("reverse"));
    Ok(id)
}

fn image_call(i: &mut Interp, mut a: A, nargout: usize, scaled: bool, fname: &str) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let (c, x, y, k) = image_args(&a, fname)?;
    let ax = plot_axes(&mut scene, given);
    let id = add_image(&mut scene, ax, c, x, y, scaled)?;
    // imagesc(C, [lo hi])
    let nums = a.iter().take_while(|v| !v.is_text()).count();
    if scaled && (nums == 2 || nums == 4) {
        let lims = a[nums - 1].clone();
        props::set(&mut scene, ax, "CLim", &lims)?;
    }
    apply_pairs(&mut scene, &[id], &a[nums.max(k)..])?;
    handles_out(&scene, vec![id], nargout)
}

fn image(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    image_call(i, a, n, false, "image")
}
fn imagesc(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    image_call(i, a, n, true, "imagesc")
}

fn imshow(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let c = a[0].clone().host()?;
    let dims = c.shape().dims().to_vec();
    let truecolor = dims.len() == 3 && dims[2] == 3;
    let ax = plot_axes(&mut scene, None);
    let id = add_image(&mut scene, ax, c.clone(), None, None, !truecolor)?;
    if !truecolor {
        // a grayscale image: 0..1 for floats, the integer range otherwise
        let top = match c.class_name().as_str() {
            "uint8" => 255.0,
            "uint16" => 65535.0,
            "logical" | "double" | "single" => 1.0,
            _ => 1.0,
        };
        let lims = match a.get(1).filter(|v| !v.is_text() && v.numel() == 2) {
            Some(v) => v.clone(),
            None => Value::row(vec![0.0, top]),
        };
        props::set(&mut scene, ax, "CLim", &lims)?;
        scene.obj_mut(ax)?.put(
            "Colormap",
            colormap::named("gray", 256).unwrap_or_else(Value::empty),
        );
    }
    let o = scene.obj_mut(ax)?;
    o.put("Visible", Value::str("off"));
    o.put("DataAspectRatioMode", Value::str("manual"));
    scene.touch(ax);
    handles_out(&scene, vec![id], nargout)
}

/// X, Y, Z of gridded calls (`f(Z)`, `f(X, Y, Z)`, `f(X, Y, Z, C)`), what follows them.
fn grid_args(a: &A, fname: &str) -> MResult<(Value, Value, Value, Option<Value>, usize)> {
    let nums = a.iter().take_while(|v| !v.is_text()).count();
    let z = |v: &Value| -> MResult<Value> {
        let v = v.clone().host()?;
        let s = v.shape();
        if !v.is_numeric_like() || v.is_char() || s.ndims() > 2 || s.rows() < 2 || s.cols() < 2 {
            return Err(bad(fname, "Z must be a matrix of at least 2-by-2."));
        }
        Ok(v)
    };
    match nums {
        0 => Err(bad(fname, "Z is missing.")),
        1 | 2 => {
            let zv = z(&a[0])?;
            let s = zv.shape();
            Ok((
                Value::row((1..=s.cols()).map(|k| k as f64).collect()),
                Value::col((1..=s.rows()).map(|k| k as f64).collect()),
                zv,
                None,
                1,
            ))
        }
        _ => {
            if a.len() < 3 {
                return Err(bad(fname, "Use f(X, Y, Z)."));
            }
            let zv = z(&a[2])?;
            let c = if nums >= 4 {
                Some(a[3].clone().host()?)
            } else {
                None
            };
            Ok((a[0].clone().host()?, a[1].clone().host()?, zv, c, 3))
        }
    }
}

fn contours(i: &mut Interp, mut a: A, nargout: usize, filled: bool, fname: &str) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let (x, y, z, _, k) = grid_args(&a, fname)?;
    let nums = a.iter().take_while(|v| !v.is_text()).count();
    let levels = if nums == 2 || nums == 4 {
        Some(a[nums - 1].clone().host()?)
    } else {
        None
    };
    let ax = plot_axes(&mut scene, given);
    let id = scene.add(Kind::Contour, Some(ax));
    {
        let o = scene.obj_mut(id)?;
        o.put("XData", x);
        o.put("YData", y);
        o.put("ZData", z.clone());
        if filled {
            o.put("Fill", Value::str("on"));
            o.put("LineColor", crate::graphics::spec::color_value([0.0; 3]));
        }
    }
    let zd = z.tensor()?.to_f64().into_owned();
    let list = match levels {
        Some(l) if l.numel() == 1 => {
            let n = l.scalar_f64()?;
            if !(n >= 1.0) || n > 1000.0 || n.fract() != 0.0 {
                return Err(bad(
                    fname,
                    "The number of levels must be a positive integer up to 1000.",
                ));
            }
            crate::graphics::contour::auto_levels(&zd, Some(n as usize))
        }
        Some(l) => {
            // [k k] is the one level k
            let mut v = l.tensor()?.to_f64().into_owned();
            v.dedup();
            v
        }
        None => crate::graphics::contour::auto_levels(&zd, None),
    };
    scene
        .obj_mut(id)?
        .put("LevelList", Value::row(list.clone()));
    apply_pairs(&mut scene, &[id], &a[nums.max(k)..])?;
    if nargout == 0 {
        return Ok(vec![]);
    }
    // M = contour(...) is the contour matrix; [M, c] adds the Contour object
    let m = match crate::graphics::contour::Grid::of(scene.obj(id)?) {
        Some(g) => crate::graphics::contour::contour_matrix(&g, &list),
        None => Vec::new(),
    };
    let cols = m.len() / 2;
    let m = Value::from(crate::values::tensor::Tensor::new(
        crate::values::shape::Shape::matrix(2, cols),
        crate::values::tensor::Data::F64(m),
    ));
    let mut out = vec![m];
    if nargout >= 2 {
        out.push(scene.handles(vec![id]));
    }
    Ok(out)
}

fn contour(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    contours(i, a, n, false, "contour")
}
fn contourf(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    contours(i, a, n, true, "contourf")
}

fn surface(
    i: &mut Interp,
    mut a: A,
    nargout: usize,
    fname: &str,
    mesh: bool,
    flat_view: bool,
) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let given = leading_axes(&scene, &mut a);
    let (x, y, z, c, k) = grid_args(&a, fname)?;
    let nums = a.iter().take_while(|v| !v.is_text()).count();
    let ax = plot_axes(&mut scene, given);
    let id = scene.add(Kind::Surface, Some(ax));
    {
        let o = scene.obj_mut(id)?;
        o.put("XData", x);
        o.put("YData", y);
        o.put("ZData", z.clone());
        o.put("CData", c.unwrap_or(z));
        if mesh {
            o.put("FaceColor", crate::graphics::spec::color_value([1.0; 3]));
            o.put("EdgeColor", Value::str("flat"));
        }
    }
    let view = if flat_view {
        vec![0.0, 90.0]
    } else {
        vec![-37.5, 30.0]
    };
    let a_obj = scene.obj_mut(ax)?;
    a_obj.put("View", Value::row(view));
    if !flat_view {
        a_obj.put("XGrid", Value::str("on"));
        a_obj.put("YGrid", Value::str("on"));
        a_obj.put("ZGrid", Value::str("on"));
    }
    apply_pairs(&mut scene, &[id], &a[nums.max(k)..])?;
    handles_out(&scene, vec![id], nargout)
}

fn surf(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    surface(i, a, n, "surf", false, false)
}
fn mesh(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    surface(i, a, n, "mesh", true, false)
}
fn pcolor(i: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    surface(i, a, n, "pcolor", false, true)
}

/// The axes a colour call addresses: a leading axes handle, else the current axes.
fn colour_target(scene: &mut Scene, a: &mut A) -> (Id, bool) {
    match leading_axes(scene, a) {
        Some(ax) => (ax, true),
        None => (scene.current_axes(), false),
    }
}

fn colormap_fn(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let (ax, explicit) = colour_target(&mut scene, &mut a);
    let map = match a.first() {
        None => None,
        Some(v) if v.is_text() => {
            let name = v.text()?.to_ascii_lowercase();
            if name == "default" {
                colormap::named("parula", 256)
            } else {
                Some(colormap::named(&name, 256).ok_or_else(|| {
                    MError::new(
                        "MATLAB:colormap:InvalidInputType",
                        format!("Unrecognized colormap name '{name}'."),
                    )
                })?)
            }
        }
        Some(v) => {
            let v = v.clone().host()?;
            let s = v.shape();
            if !v.is_numeric_like() || s.cols() != 3 || s.ndims() != 2 || s.rows() == 0 {
                return Err(MError::new(
                    "MATLAB:colormap:InvalidInputType",
                    "A colormap must be an m-by-3 matrix.",
                ));
            }
            let d = v.tensor()?.to_f64().into_owned();
            if d.iter().any(|x| !(0.0..=1.0).contains(x)) {
                return Err(MError::new(
                    "MATLAB:colormap:InvalidInputRange",
                    "Colormap values must be between 0 and 1.",
                ));
            }
            Some(v)
        }
    };
    if let Some(m) = map {
        if explicit {
            scene.obj_mut(ax)?.put("Colormap", m);
        } else {
            let fig = scene.figure_of(ax).unwrap_or(ax);
            scene.obj_mut(fig)?.put("Colormap", m);
            // axes that follow the figure's map (not imshow's own gray)
            scene.touch(fig);
        }
        scene.touch(ax);
    }
    if nargout > 0 || a.is_empty() {
        return Ok(vec![props::get(&scene, ax, "Colormap")?]);
    }
    Ok(vec![])
}

/// The axes' colorbar, made if it has none. It is not a child: its axes draws it, not as
/// data.
pub(super) fn attach_colorbar(scene: &mut Scene, ax: Id) -> Id {
    if let Some(cb) = scene.linked(ax, "Colorbar") {
        return cb;
    }
    let cb = scene.add(Kind::Colorbar, Some(ax));
    if let Ok(o) = scene.obj_mut(ax) {
        o.children.retain(|c| *c != cb);
        o.put("Colorbar", Value::Num(cb as f64));
    }
    cb
}

fn colorbar(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let (ax, _) = colour_target(&mut scene, &mut a);
    if a.first()
        .is_some_and(|v| v.text().is_ok_and(|t| t.eq_ignore_ascii_case("off")))
    {
        if let Some(cb) = scene.linked(ax, "Colorbar") {
            scene.delete(cb);
            scene.obj_mut(ax)?.put("Colorbar", Value::empty());
        }
        scene.touch(ax);
        return Ok(vec![]);
    }
    let cb = attach_colorbar(&mut scene, ax);
    let rest: Vec<Value> = if a.first().is_some_and(|v| v.is_text()) && a.len() % 2 == 1 {
        let loc = a[0].clone();
        props::set(&mut scene, cb, "Location", &loc)?;
        a[1..].to_vec()
    } else {
        a.clone()
    };
    apply_pairs(&mut scene, &[cb], &rest)?;
    scene.touch(ax);
    handles_out(&scene, vec![cb], nargout)
}

fn clim(i: &mut Interp, _: &mut Frame, mut a: A, _: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let (ax, _) = colour_target(&mut scene, &mut a);
    match a.first() {
        Some(v) if v.text().is_ok_and(|t| t.eq_ignore_ascii_case("auto")) => {
            scene.obj_mut(ax)?.put("CLimMode", Value::str("auto"));
            scene.touch(ax);
        }
        Some(v) => props::set(&mut scene, ax, "CLim", v)?,
        None => return Ok(vec![props::get(&scene, ax, "CLim")?]),
    }
    Ok(vec![])
}

fn view(i: &mut Interp, _: &mut Frame, mut a: A, nargout: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let (ax, _) = colour_target(&mut scene, &mut a);
    let v = match a.as_slice() {
        [] => return Ok(vec![props::get(&scene, ax, "View")?]),
        [one] if one.numel() == 1 => match one.scalar_f64()? {
            2.0 => vec![0.0, 90.0],
            3.0 => vec![-37.5, 30.0],
            _ => return Err(bad("view", "Use view(2), view(3) or view(az, el).")),
        },
        [one] => matrix(one, "view")?.2,
        [az, el] => vec![az.scalar_f64()?, el.scalar_f64()?],
        _ => return Err(bad("view", "Use view(az, el).")),
    };
    props::set(&mut scene, ax, "View", &Value::row(v))?;
    if nargout > 0 {
        return Ok(vec![props::get(&scene, ax, "View")?]);
    }
    Ok(vec![])
}

fn shading(i: &mut Interp, _: &mut Frame, mut a: A, _: usize) -> R {
    let s = scene_of(i);
    let mut scene = borrow(&s)?;
    let (ax, _) = colour_target(&mut scene, &mut a);
    let how = a
        .first()
        .map(|v| v.text())
        .transpose()?
        .unwrap_or_default()
        .to_ascii_lowercase();
    let children = scene.obj(ax)?.children.clone();
    for c in children {
        if scene.kind(c) != Some(Kind::Surface) {
            continue;
        }
        let (face, edge) = match how.as_str() {
            "flat" => ("flat", Value::str("none")),
            "interp" => ("interp", Value::str("none")),
            "faceted" => ("flat", crate::graphics::spec::color_value([0.0; 3])),
            _ => return Err(bad("shading", "Use shading flat, interp or faceted.")),
        };
        let o = scene.obj_mut(c)?;
        o.put("FaceColor", Value::str(face));
        o.put("EdgeColor", edge);
    }
    scene.touch(ax);
    Ok(vec![])
}

/// `parula(n)` and friends: each name is registered with its own function.
pub fn colormap_by_name(name: &str, a: &A) -> R {
    let n = match a.first() {
        Some(v) => {
            let n = v.scalar_f64()?;
            if !(n >= 0.0) || n.fract() != 0.0 || n > 1e6 {
                return Err(bad(
                    name,
                    "The number of colours must be a nonnegative integer.",
                ));
            }
            n as usize
        }
        None => 256,
    };
    Ok(vec![
        colormap::named(name, n).ok_or_else(|| bad(name, "Unknown colormap."))?,
    ])
}

/// MATLAB's `peaks`: 3(1-x)^2 e^(-x^2-(y+1)^2) - 10(x/5-x^3-y^5) e^(-x^2-y^2) - e^(-(x+1)^2-y^2)/3.
fn peaks(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let n = match a.first() {
        Some(v) => {
            let n = v.scalar_f64()?;
            if !(n >= 1.0) || n.fract() != 0.0 || n > 4096.0 {
                return Err(bad("peaks", "n must be a positive integer up to 4096."));
            }
            n as usize
        }
        None => 49,
    };
    let g: Vec<f64> = (0..n)
        .map(|k| {
            if n > 1 {
                -3.0 + 6.0 * k as f64 / (n - 1) as f64
            } else {
                -3.0
            }
        })
        .collect();
    let shape = crate::values::shape::Shape::matrix(n, n);
    let mut x = vec![0.0; n * n];
    let mut y = vec![0.0; n * n];
    let mut z = vec![0.0; n * n];
    for j in 0..n {
        for i in 0..n {
            let (xv, yv) = (g[j], g[i]);
            let k = j * n + i;
            x[k] = xv;
            y[k] = yv;
            z[k] = 3.0 * (1.0 - xv).powi(2) * (-xv * xv - (yv + 1.0).powi(2)).exp()
                - 10.0 * (xv / 5.0 - xv.powi(3) - yv.powi(5)) * (-xv * xv - yv * yv).exp()
                - (-(xv + 1.0).powi(2) - yv * yv).exp() / 3.0;
        }
    }
    let t = |d: Vec<f64>| Value::from(crate::values::tensor::Tensor::f64(shape.clone(), d));
    if nargout >= 2 {
        return Ok(vec![t(x), t(y), t(z)]);
    }
    Ok(vec![t(z)])
}
