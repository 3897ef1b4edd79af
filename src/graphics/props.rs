//! `get` and `set` of graphics properties: names matched case-insensitively and by unique
//! prefix (`get(1, 'pos')`), values checked by what the property holds, computed properties
//! (`Children`, `Parent`, automatic limits) worked out when read.

use super::Scene;
use super::model::{Id, Kind};
use super::spec;
use crate::interp::error::{MError, MResult};
use crate::values::containers::CellArray;
use crate::values::shape::Shape;
use crate::values::value::Value;

/// The object's property called (or abbreviated) `name`.
pub fn resolve(scene: &Scene, id: Id, name: &str) -> MResult<&'static str> {
    let o = scene.obj(id)?;
    let lower = name.to_ascii_lowercase();
    if let Some((n, _)) = o
        .props
        .iter()
        .find(|(n, _)| n.to_ascii_lowercase() == lower)
    {
        return Ok(n);
    }
    let hits: Vec<&'static str> = o
        .props
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !lower.is_empty() && n.to_ascii_lowercase().starts_with(&lower))
        .collect();
    match &*hits {
        [one] => Ok(one),
        [] => Err(MError::new(
            "MATLAB:hg:InvalidProperty",
            format!(
                "Unrecognized property {name} for class {}.",
                o.kind.display_name()
            ),
        )),
        _ => Err(MError::new(
            "MATLAB:hg:AmbiguousPropertyName",
            format!("Ambiguous {} property: '{name}'.", o.kind.display_name()),
        )),
    }
}

/// Whether the object has a property of this exact name.
pub fn has(scene: &Scene, id: Id, name: &str) -> bool {
    scene.objs.get(&id).is_some_and(|o| o.get(name).is_some())
}

/// The value of a property (its full or abbreviated name).
pub fn get(scene: &Scene, id: Id, name: &str) -> MResult<Value> {
    let name = resolve(scene, id, name)?;
    let o = scene.obj(id)?;
    let stored = o.get(name).cloned().unwrap_or_else(Value::empty);
    Ok(match (o.kind, name) {
        (_, "Type") => Value::str(o.kind.type_name()),
        (_, "Parent") => match o.parent {
            Some(p) => scene.handle(p),
            None => Value::empty(),
        },
        (_, "Children") => {
            let mut c = o.children.clone();
            c.reverse(); // newest first, as MATLAB lists them
            if c.is_empty() {
                Value::empty()
            } else {
                scene.handles(c)
            }
        }
        (Kind::Figure, "CurrentAxes") => match scene.figure_axes(id) {
            Some(a) => scene.handle(a),
            None => Value::empty(),
        },
        (Kind::Axes, "Title" | "XLabel" | "YLabel" | "ZLabel" | "Legend" | "Colorbar") => {
            match scene.linked(id, name) {
                Some(t) => scene.handle(t),
                None => Value::empty(),
            }
        }
        (Kind::Axes, "XLim" | "YLim" | "ZLim" | "CLim") => {
            let l = super::limits::axes_limits(scene, id);
            let (a, b) = match name {
                "XLim" => l.x,
                "YLim" => l.y,
                "ZLim" => l.z,
                _ => l.c,
            };
            Value::row(vec![a, b])
        }
        (Kind::Axes, "XTick" | "YTick" | "ZTick") => {
            let which = name.as_bytes()[0];
            Value::row(super::ticks::axes_ticks(scene, id, which))
        }
        (Kind::Axes, "Colormap") if stored.is_empty() => {
            match scene.figure_of(id).and_then(|f| scene.objs.get(&f)) {
                Some(f) => f.get("Colormap").cloned().unwrap_or_else(Value::empty),
                None => stored,
            }
        }
        (Kind::Colorbar, "Limits") => match o.parent {
            Some(ax) => {
                let l = super::limits::axes_limits(scene, ax);
                Value::row(vec![l.c.0, l.c.1])
            }
            None => stored,
        },
        _ => stored,
    })
}

/// How a property's values are checked.
enum Check {
    Color { keywords: &'static [&'static str] },
    NonNeg,
    Real,
    Limits,
    Position(usize),
    Ratio,
    OnOff,
    Choice(&'static [&'static str]),
    Text,
    Data,
    ReadOnly,
    Labels,
    Link,
}

fn check_of(kind: Kind, name: &str) -> Check {
    match name {
        "Type" | "Parent" | "Children" | "Number" | "Values" | "Legend" | "Colorbar" | "Limits"
        | "YEndPoints" => Check::ReadOnly,
        "Color" if kind == Kind::Axes || kind == Kind::Figure => Check::Color {
            keywords: &["none"],
        },
        "Color" | "XColor" | "YColor" => Check::Color {
            keywords: &["none"],
        },
        "FaceColor" => Check::Color {
            keywords: &["none", "flat", "interp", "auto"],
        },
        "EdgeColor" | "LineColor" => Check::Color {
            keywords: &["none", "flat", "interp", "auto"],
        },
        "MarkerFaceColor" | "MarkerEdgeColor" => Check::Color {
            keywords: &["none", "auto", "flat"],
        },
        "LineWidth" | "MarkerSize" | "FontSize" | "BarWidth" | "CapSize" | "NumBins"
        | "AutoScaleFactor" | "MaxHeadSize" => Check::NonNeg,
        "FaceAlpha" | "BaseValue" | "Rotation" | "ColorOrderIndex" => Check::Real,
        "XLim" | "YLim" | "ZLim" | "CLim" => Check::Limits,
        "Position" if kind == Kind::Text => Check::Position(3),
        "Position" => Check::Position(4),
        "View" => Check::Position(2),
        "DataAspectRatio" | "PlotBoxAspectRatio" => Check::Ratio,
        "Visible" | "Box" | "XGrid" | "YGrid" | "ZGrid" | "XMinorGrid" | "YMinorGrid"
        | "ZMinorGrid" | "Fill" | "NumberTitle" | "Horizontal" | "AutoScale" | "ShowArrowHead" => {
            Check::OnOff
        }
        "LineStyle" => Check::Choice(&spec::LINE_STYLES),
        "XScale" | "YScale" => Check::Choice(&["linear", "log"]),
        "XDir" | "YDir" => Check::Choice(&["normal", "reverse"]),
        "NextPlot" => Check::Choice(&["replace", "add", "replacechildren", "new"]),
        "XLimMode"
        | "YLimMode"
        | "ZLimMode"
        | "CLimMode"
        | "XTickMode"
        | "YTickMode"
        | "ZTickMode"
        | "XTickLabelMode"
        | "YTickLabelMode"
        | "DataAspectRatioMode"
        | "PlotBoxAspectRatioMode"
        | "LevelListMode" => Check::Choice(&["auto", "manual"]),
        "CDataMapping" => Check::Choice(&["direct", "scaled"]),
        "BarLayout" => Check::Choice(&["grouped", "stacked"]),
        "FontWeight" => Check::Choice(&["normal", "bold"]),
        "HorizontalAlignment" => Check::Choice(&["left", "center", "right"]),
        "VerticalAlignment" => Check::Choice(&["middle", "top", "bottom", "baseline", "cap"]),
        "Orientation" => Check::Choice(&["vertical", "horizontal"]),
        "Normalization" => Check::Choice(&[
            "count",
            "probability",
            "countdensity",
            "pdf",
            "cumcount",
            "cdf",
        ]),
        "Name" | "DisplayName" | "Units" | "Interpreter" | "Location" => Check::Text,
        "String" | "XTickLabel" | "YTickLabel" => Check::Labels,
        "Title" | "XLabel" | "YLabel" | "ZLabel" => Check::Labels,
        "CurrentAxes" => Check::Link,
        "Marker" => Check::Text,
        _ => Check::Data,
    }
}

fn invalid(name: &str, what: &str) -> MError {
    MError::new(
        "MATLAB:datatypes:InvalidValue",
        format!("Error setting property '{name}': {what}"),
    )
}

/// Text or a list of texts (char matrix rows, cell of char, string array) as a cell.
pub fn labels_value(v: &Value) -> Option<Value> {
    match v {
        Value::Cell(c) => c
            .data
            .iter()
            .all(|x| x.text().is_ok() || x.is_numeric_like())
            .then(|| v.clone()),
        Value::Str(s) => Some(Value::from(CellArray::new(
            s.shape.clone(),
            s.data.iter().map(|x| Value::str(x)).collect(),
        ))),
        v if v.is_char() => {
            let t = v.tensor().ok()?;
            let rows = t.shape.rows();
            if rows <= 1 {
                return Some(v.clone());
            }
            let cols = t.numel() / rows;
            let text = t.to_text();
            let chars: Vec<char> = text.chars().collect();
            let lines = (0..rows)
                .map(|r| {
                    let s: String = (0..cols).filter_map(|c| chars.get(c * rows + r)).collect();
                    Value::str(s.trim_end())
                })
                .collect();
            Some(Value::from(CellArray::col(lines)))
        }
        v if v.is_numeric_like() => Some(v.clone()),
        _ => None,
    }
}

/// Sets a property (full or abbreviated name) after checking the value.
pub fn set(scene: &mut Scene, id: Id, name: &str, v: &Value) -> MResult<()> {
    let name = resolve(scene, id, name)?;
    let kind = scene.obj(id)?.kind;
    let v = v.clone().host()?;
    let stored: Value = match check_of(kind, name) {
        Check::ReadOnly => {
            return Err(MError::new(
                "MATLAB:class:SetProhibited",
                format!(
                    "Unable to set the '{name}' property of class '{}' because it is read-only.",
                    kind.display_name()
                ),
            ));
        }
        Check::Color { keywords } => {
            if let Ok(t) = v.text() {
                let lower = t.to_ascii_lowercase();
                if let Some(k) = keywords.iter().find(|k| **k == lower) {
                    Value::str(k)
                } else {
                    spec::color_value(spec::color(&v)?)
                }
            } else if name == "CData" {
                v
            } else {
                spec::color_value(spec::color(&v)?)
            }
        }
        Check::NonNeg => {
            let x = num_scalar(&v, name)?;
            if x < 0.0 {
                return Err(invalid(name, "Value must be a nonnegative scalar."));
            }
            Value::Num(x)
        }
        Check::Real => Value::Num(num_scalar(&v, name)?),
        Check::Limits => {
            let d = numbers(&v, name)?;
            if d.len() != 2 || d[0].is_nan() || d[1].is_nan() || d[0] >= d[1] {
                return Err(invalid(
                    name,
                    "Value must be a 1x2 vector of numeric type in which the second element is larger than the first and may be Inf.",
                ));
            }
            Value::row(d)
        }
        Check::Position(n) => {
            let d = numbers(&v, name)?;
            let ok = d.len() == n || (n == 3 && d.len() == 2);
            if !ok || d.iter().any(|x| !x.is_finite()) {
                return Err(invalid(
                    name,
                    &format!("Value must be a 1x{n} vector of finite numbers."),
                ));
            }
            if n == 4 && (d[2] <= 0.0 || d[3] <= 0.0) {
                return Err(invalid(name, "Width and height must be positive."));
            }
            Value::row(d)
        }
        Check::Ratio => {
            let d = numbers(&v, name)?;
            if d.len() != 3 || d.iter().any(|x| !(x.is_finite() && *x > 0.0)) {
                return Err(invalid(
                    name,
                    "Value must be a 1x3 vector of positive finite numbers.",
                ));
            }
            Value::row(d)
        }
        Check::OnOff => {
            let t = match &v {
                Value::Bool(b) => if *b { "on" } else { "off" }.to_string(),
                Value::Num(x) if *x == 0.0 || *x == 1.0 => {
                    if *x == 1.0 { "on" } else { "off" }.to_string()
                }
                _ => v.text().map(|t| t.to_ascii_lowercase()).unwrap_or_default(),
            };
            if t != "on" && t != "off" {
                return Err(invalid(name, "Value must be 'on' or 'off'."));
            }
            Value::str(&t)
        }
        Check::Choice(options) => {
            let t = v.text().map_err(|_| invalid(name, "Value must be text."))?;
            let lower = t.to_ascii_lowercase();
            match options.iter().find(|o| o.to_ascii_lowercase() == lower) {
                Some(o) => Value::str(o),
                None => {
                    return Err(invalid(
                        name,
                        &format!(
                            "'{t}' is not a valid value. Use one of these values: '{}'.",
                            options.join("' | '")
                        ),
                    ));
                }
            }
        }
        Check::Text if name == "Marker" => {
            let t = v.text().map_err(|_| invalid(name, "Value must be text."))?;
            Value::str(
                spec::marker(&t)
                    .ok_or_else(|| invalid(name, &format!("'{t}' is not a valid marker.")))?,
            )
        }
        Check::Text => {
            let t = v
                .text()
                .map_err(|_| invalid(name, "Value must be a character vector or string scalar."))?;
            Value::str(&t)
        }
        Check::Labels => labels_value(&v)
            .ok_or_else(|| invalid(name, "Value must be text or a cell array of text."))?,
        Check::Link => {
            let Some(ax) = super::handle::one_of(scene, &v, Kind::Axes) else {
                return Err(invalid(name, "Value must be an axes handle."));
            };
            scene.set_current_axes(ax);
            Value::Num(ax as f64)
        }
        Check::Data => {
            if !v.is_numeric_like() || v.is_char() {
                return Err(invalid(name, "Value must be numeric."));
            }
            if v.is_complex() {
                return Err(invalid(name, "Value must be real."));
            }
            v
        }
    };
    // Properties that are the text of a label object set that object's String.
    if kind == Kind::Axes && matches!(name, "Title" | "XLabel" | "YLabel" | "ZLabel") {
        if let Some(t) = scene.linked(id, name) {
            scene.obj_mut(t)?.put("String", stored);
        }
        scene.touch(id);
        return Ok(());
    }
    let o = scene.obj_mut(id)?;
    o.put(name, stored);
    match (kind, name) {
        (_, "XLim" | "YLim" | "ZLim" | "CLim" | "XTick" | "YTick" | "ZTick" | "LevelList") => {
            let mode = format!("{name}Mode");
            if let Some(slot) = o.props.iter_mut().find(|(n, _)| *n == mode) {
                slot.1 = Value::str("manual");
            }
        }
        (_, "XTickLabel" | "YTickLabel" | "DataAspectRatio" | "PlotBoxAspectRatio") => {
            let mode = format!("{name}Mode");
            if let Some(slot) = o.props.iter_mut().find(|(n, _)| *n == mode) {
                slot.1 = Value::str("manual");
            }
        }
        (Kind::Histogram, "Data" | "BinEdges" | "NumBins" | "Normalization" | "BinCounts") => {
            super::plots::histogram::rebin(scene, id, name)?;
        }
        (Kind::Line | Kind::Stair | Kind::Stem, "Color") => {}
        _ => {}
    }
    scene.touch(id);
    Ok(())
}

fn numbers(v: &Value, name: &str) -> MResult<Vec<f64>> {
    if !v.is_numeric_like() || v.is_char() {
        return Err(invalid(name, "Value must be numeric."));
    }
    Ok(v.tensor()?.to_f64().into_owned())
}

fn num_scalar(v: &Value, name: &str) -> MResult<f64> {
    let d = numbers(v, name)?;
    match &*d {
        [x] if !x.is_nan() => Ok(*x),
        _ => Err(invalid(name, "Value must be a numeric scalar.")),
    }
}

/// Property names and values of an object, for `get(h)` and a handle's display.
pub fn all(scene: &Scene, id: Id) -> MResult<Vec<(&'static str, Value)>> {
    let names: Vec<&'static str> = scene.obj(id)?.props.iter().map(|(n, _)| *n).collect();
    names
        .into_iter()
        .map(|n| get(scene, id, n).map(|v| (n, v)))
        .collect()
}

/// A cell column of values of one property across several objects (`get(h, 'Color')` for
/// several handles).
pub fn column(values: Vec<Value>) -> Value {
    let n = values.len();
    Value::from(CellArray::new(Shape::col(n), values))
}
