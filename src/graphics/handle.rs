//! Graphics handles as workspace values: an array of object ids with a weak reference to the
//! session's scene. Figures are also named by their numbers (`get(1, 'Position')`).

use super::model::{Id, Kind};
use super::{Scene, SceneRef, deleted};
use crate::interp::error::{MError, MResult};
use crate::values::containers::Object;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

#[derive(Clone)]
pub struct Handles {
    pub ids: Vec<Id>,
    pub shape: Shape,
    pub scene: Weak<RefCell<Scene>>,
}

impl std::fmt::Debug for Handles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Handles({:?})", self.ids)
    }
}

impl Handles {
    /// A column of handles (MATLAB returns plotting results as columns).
    pub fn value(ids: Vec<Id>, scene: Weak<RefCell<Scene>>) -> Value {
        let shape = Shape::col(ids.len());
        Value::Object(Rc::new(Object::Graphics(Handles { ids, shape, scene })))
    }
    pub fn scene(&self) -> MResult<SceneRef> {
        self.scene.upgrade().ok_or_else(deleted)
    }
    /// The kind of the first object (None when deleted).
    pub fn kind(&self) -> Option<Kind> {
        let s = self.scene.upgrade()?;
        // A plotting call that holds the scene may ask about a handle among its arguments
        // (`plot(x, semilogx(...))`): unknown then, not a second borrow.
        let k = s.try_borrow().ok()?.kind(*self.ids.first()?);
        k
    }
    pub fn class_name(&self) -> &'static str {
        match self.kind() {
            Some(k) => k.class_name(),
            None => "matlab.graphics.GraphicsPlaceholder",
        }
    }
    /// `h(k)`: a subset of the handles.
    pub fn index(&self, args: &[Value]) -> MResult<Value> {
        let idx = Value::Tensor(Rc::new(crate::values::tensor::Tensor::f64(
            self.shape.clone(),
            (1..=self.ids.len()).map(|i| i as f64).collect(),
        )));
        let picked = crate::values::access::paren(&idx, args)?;
        let shape = picked.shape();
        let t = picked.tensor()?;
        let ids = t
            .to_f64()
            .iter()
            .filter_map(|k| self.ids.get((*k as usize).checked_sub(1)?).copied())
            .collect();
        Ok(Value::Object(Rc::new(Object::Graphics(Handles {
            ids,
            shape,
            scene: self.scene.clone(),
        }))))
    }
}

/// The objects a value names: graphics handles, or figure numbers. Deleted ones are an
/// error unless `allow_dead` (then they are left out).
pub fn ids_of(scene: &Scene, v: &Value) -> MResult<Vec<Id>> {
    match v {
        Value::Object(o) => match o.as_ref() {
            Object::Graphics(h) => {
                let alive: Vec<Id> = h
                    .ids
                    .iter()
                    .copied()
                    .filter(|i| scene.objs.contains_key(i))
                    .collect();
                if alive.len() != h.ids.len() || !same_scene(scene, h) {
                    return Err(deleted());
                }
                Ok(alive)
            }
            _ => Err(not_handle()),
        },
        v if v.is_numeric_like() && !v.is_char() => {
            let t = v.tensor()?;
            t.to_f64()
                .iter()
                .map(|n| scene.figure_by_number(*n).ok_or_else(not_handle))
                .collect()
        }
        _ => Err(not_handle()),
    }
}

fn same_scene(scene: &Scene, h: &Handles) -> bool {
    h.scene
        .upgrade()
        .is_some_and(|s| std::ptr::eq(s.as_ptr(), scene))
}

/// Whether a value is a handle object (not a number) to graphics.
pub fn is_handle_value(v: &Value) -> bool {
    matches!(v, Value::Object(o) if matches!(o.as_ref(), Object::Graphics(_)))
}

/// The one object of `kind` a value names, if it does.
pub fn one_of(scene: &Scene, v: &Value, kind: Kind) -> Option<Id> {
    if !is_handle_value(v) {
        return None;
    }
    match ids_of(scene, v).ok()?.as_slice() {
        [id] if scene.kind(*id) == Some(kind) => Some(*id),
        _ => None,
    }
}

/// Validity of each element of a value as a handle (`ishandle`, `isgraphics`).
pub fn valid_mask(scene: &Scene, v: &Value) -> Vec<bool> {
    match v {
        Value::Object(o) => match o.as_ref() {
            Object::Graphics(h) => h
                .ids
                .iter()
                .map(|i| same_scene(scene, h) && scene.objs.contains_key(i))
                .collect(),
            _ => vec![false],
        },
        v if v.is_numeric_like() && !v.is_char() => match v.tensor() {
            Ok(t) => t
                .to_f64()
                .iter()
                .map(|n| scene.figure_by_number(*n).is_some())
                .collect(),
            Err(_) => vec![false; v.numel()],
        },
        _ => vec![false; v.numel()],
    }
}

pub fn not_handle() -> MError {
    MError::new(
        "MATLAB:hg:dt_conv:Matrix_to_HObject:BadHandle",
        "Invalid or deleted object.",
    )
}

/// `h.Name`: the property of one object (a cell column for several).
pub fn property(h: &Handles, name: &str) -> MResult<Value> {
    let scene = h.scene()?;
    let scene = scene.borrow();
    let ids = ids_of(&scene, &Value::Object(Rc::new(Object::Graphics(h.clone()))))?;
    match &*ids {
        [one] => super::props::get(&scene, *one, name),
        many => Ok(super::props::column(
            many.iter()
                .map(|i| super::props::get(&scene, *i, name))
                .collect::<MResult<_>>()?,
        )),
    }
}

/// Whether `name` is a property of the handle's (first) object.
pub fn is_property(h: &Handles, name: &str) -> bool {
    let Some(scene) = h.scene.upgrade() else {
        return false;
    };
    let scene = scene.borrow();
    h.ids
        .first()
        .is_some_and(|id| super::props::resolve(&scene, *id, name).is_ok())
}

/// `h.Name = v`, for every object of the handle.
pub fn set_property(h: &Handles, name: &str, v: &Value) -> MResult<()> {
    let scene = h.scene()?;
    let mut scene = scene.borrow_mut();
    let ids = ids_of(&scene, &Value::Object(Rc::new(Object::Graphics(h.clone()))))?;
    for id in ids {
        super::props::set(&mut scene, id, name, v)?;
    }
    Ok(())
}

/// The names of the properties of the handle's (first) object.
pub fn property_names(h: &Handles) -> Vec<String> {
    let Some(scene) = h.scene.upgrade() else {
        return Vec::new();
    };
    let scene = scene.borrow();
    h.ids
        .first()
        .and_then(|id| scene.objs.get(id))
        .map(|o| o.props.iter().map(|(n, _)| n.to_string()).collect())
        .unwrap_or_default()
}

/// The properties a handle's display lists (MATLAB's short list).
fn shown(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Figure => &["Number", "Name", "Color", "Position", "Units"],
        Kind::Axes => &["XLim", "YLim", "XScale", "YScale", "Position"],
        Kind::Line | Kind::Stair | Kind::ErrorBar | Kind::Stem => &[
            "Color",
            "LineStyle",
            "LineWidth",
            "Marker",
            "MarkerSize",
            "MarkerFaceColor",
            "XData",
            "YData",
        ],
        Kind::Scatter => &[
            "Marker",
            "SizeData",
            "CData",
            "MarkerFaceColor",
            "XData",
            "YData",
        ],
        Kind::Bar => &[
            "BarWidth",
            "FaceColor",
            "EdgeColor",
            "BaseValue",
            "XData",
            "YData",
        ],
        Kind::Histogram => &[
            "Data",
            "Values",
            "NumBins",
            "BinEdges",
            "Normalization",
            "FaceColor",
            "EdgeColor",
        ],
        Kind::Area | Kind::Patch => &["FaceColor", "EdgeColor", "LineWidth", "XData", "YData"],
        Kind::Image => &["CData", "CDataMapping"],
        Kind::Surface => &[
            "EdgeColor",
            "LineStyle",
            "FaceColor",
            "XData",
            "YData",
            "ZData",
            "CData",
        ],
        Kind::Contour => &[
            "LineColor",
            "LineStyle",
            "LineWidth",
            "Fill",
            "LevelList",
            "XData",
            "YData",
            "ZData",
        ],
        Kind::Quiver => &[
            "Color",
            "LineStyle",
            "LineWidth",
            "XData",
            "YData",
            "UData",
            "VData",
        ],
        Kind::Text => &[
            "String",
            "FontSize",
            "FontWeight",
            "Color",
            "HorizontalAlignment",
            "Position",
        ],
        Kind::Legend => &["String", "Location", "Orientation", "FontSize"],
        Kind::Colorbar => &["Location", "Limits", "FontSize"],
    }
}

/// A property value as a handle's display shows it.
fn brief(v: &Value) -> String {
    match v {
        Value::Num(x) => num_text(*x),
        Value::Bool(b) => (*b as u8).to_string(),
        v if v.is_char() => format!("'{}'", v.text().unwrap_or_default()),
        Value::Tensor(t) if t.numel() == 0 => "[]".into(),
        Value::Tensor(t) if t.shape.is_row() && t.numel() <= 6 && !t.is_complex() => {
            let d = t.to_f64();
            format!(
                "[{}]",
                d.iter().map(|x| num_text(*x)).collect::<Vec<_>>().join(" ")
            )
        }
        Value::Object(o) => {
            let s = o.shape();
            format!(
                "[{}×{} {}]",
                s.rows(),
                s.cols(),
                o.class_name().rsplit('.').next().unwrap_or("")
            )
        }
        v => {
            let s = v.shape();
            let dims: Vec<String> = s.dims().iter().map(|d| d.to_string()).collect();
            let class = v.class_name();
            if matches!(v, Value::Cell(_)) {
                format!("{{{} cell}}", dims.join("×"))
            } else {
                format!("[{} {class}]", dims.join("×"))
            }
        }
    }
}

fn num_text(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e9 {
        format!("{}", x as i64)
    } else {
        format!("{x:.4}")
    }
}

/// A handle's display: its heading, and the names and values of its short list (none for
/// an array or a deleted object).
pub fn display_parts(h: &Handles) -> (String, Vec<String>, Vec<String>) {
    let Some(scene) = h.scene.upgrade() else {
        return ("  handle to deleted object".into(), vec![], vec![]);
    };
    let scene = scene.borrow();
    let alive: Vec<Id> = h
        .ids
        .iter()
        .copied()
        .filter(|i| scene.objs.contains_key(i))
        .collect();
    if h.ids.len() != 1 {
        let kind = h.ids.first().and_then(|i| scene.kind(*i));
        let name = kind.map_or("GraphicsPlaceholder", |k| k.display_name());
        let mut t = format!("  {}×{} {name} array:\n", h.shape.rows(), h.shape.cols());
        for i in &h.ids {
            t.push_str(&format!(
                "\n    {}",
                scene
                    .kind(*i)
                    .map_or("handle to deleted object", |k| k.display_name())
            ));
        }
        return (t, vec![], vec![]);
    }
    let Some(id) = alive.first().copied() else {
        return ("  handle to deleted object".into(), vec![], vec![]);
    };
    let Some(o) = scene.objs.get(&id) else {
        return ("  handle to deleted object".into(), vec![], vec![]);
    };
    let title = if o.kind == Kind::Figure {
        format!(
            "  Figure ({}) with properties:",
            num_text(o.num("Number", 1.0))
        )
    } else {
        format!("  {} with properties:", o.kind.display_name())
    };
    let names: Vec<String> = shown(o.kind).iter().map(|n| n.to_string()).collect();
    let vals = shown(o.kind)
        .iter()
        .map(|n| {
            super::props::get(&scene, id, n)
                .map(|v| brief(&v))
                .unwrap_or_default()
        })
        .collect();
    (title, names, vals)
}
