//! Figures: the session's graphics objects (figures, axes, lines, ...) with numeric ids and
//! MATLAB-named properties (`model`, `defaults`, `props`), what plotting calls add (`plots`),
//! how a figure is drawn with plotters (`render`) and where it appears (`output`: PNG/SVG
//! files, inline terminal images).
//!
//! The scene belongs to the session (`Interp::graphics`); handles in the workspace refer to
//! it weakly, so a handle outliving its object or session reads as deleted.

pub mod colormap;
pub mod contour;
pub mod defaults;
pub mod handle;
pub mod handle_ops;
pub mod layout;
pub mod limits;
pub mod model;
pub mod output;
pub mod plots;
pub mod props;
pub mod render;
pub mod spec;
pub mod ticks;

use crate::interp::error::{MError, MResult};
use crate::values::value::Value;
pub use handle::Handles;
use model::{GObj, Id, Kind};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::{Rc, Weak};

/// The session's graphics objects.
pub struct Scene {
    pub objs: HashMap<Id, GObj>,
    next_id: Id,
    /// Figures in creation order (the last is not necessarily current).
    pub figures: Vec<Id>,
    pub current_figure: Option<Id>,
    /// Figures changed since they were last shown.
    pub dirty: BTreeSet<Id>,
    /// Figure numbers whose file path has been printed.
    pub announced: HashSet<u64>,
    pub output: output::Mode,
    me: Weak<RefCell<Scene>>,
}

pub type SceneRef = Rc<RefCell<Scene>>;

pub fn new_scene() -> SceneRef {
    Rc::new_cyclic(|me| {
        RefCell::new(Scene {
            objs: HashMap::new(),
            next_id: 1,
            figures: Vec::new(),
            current_figure: None,
            dirty: BTreeSet::new(),
            announced: HashSet::new(),
            output: output::Mode::None,
            me: me.clone(),
        })
    })
}

/// The error for a handle whose object is gone.
pub fn deleted() -> MError {
    MError::new("MATLAB:class:InvalidHandle", "Invalid or deleted object.")
}

impl Scene {
    pub fn obj(&self, id: Id) -> MResult<&GObj> {
        self.objs.get(&id).ok_or_else(deleted)
    }
    pub fn obj_mut(&mut self, id: Id) -> MResult<&mut GObj> {
        self.objs.get_mut(&id).ok_or_else(deleted)
    }
    pub fn kind(&self, id: Id) -> Option<Kind> {
        self.objs.get(&id).map(|o| o.kind)
    }

    /// A handle value to these objects.
    pub fn handles(&self, ids: Vec<Id>) -> Value {
        Handles::value(ids, self.me.clone())
    }
    pub fn handle(&self, id: Id) -> Value {
        self.handles(vec![id])
    }

    /// Adds an object under `parent` (None for a figure).
    pub fn add(&mut self, kind: Kind, parent: Option<Id>) -> Id {
        let id = self.next_id;
        self.next_id += 1;
        self.objs.insert(id, GObj::new(kind, parent));
        if let Some(p) = parent.and_then(|p| self.objs.get_mut(&p)) {
            p.children.push(id);
        }
        self.touch(id);
        id
    }

    /// Adds an object owned by `parent` that is not one of its children (an axes' title).
    fn add_detached(&mut self, kind: Kind, parent: Id) -> Id {
        let id = self.next_id;
        self.next_id += 1;
        self.objs.insert(id, GObj::new(kind, Some(parent)));
        id
    }

    /// The figure an object belongs to.
    pub fn figure_of(&self, mut id: Id) -> Option<Id> {
        for _ in 0..64 {
            let o = self.objs.get(&id)?;
            if o.kind == Kind::Figure {
                return Some(id);
            }
            id = o.parent?;
        }
        None
    }

    /// The axes an object is in (itself for an axes).
    pub fn axes_of(&self, mut id: Id) -> Option<Id> {
        for _ in 0..64 {
            let o = self.objs.get(&id)?;
            if o.kind == Kind::Axes {
                return Some(id);
            }
            id = o.parent?;
        }
        None
    }

    /// Marks the figure holding `id` as changed.
    pub fn touch(&mut self, id: Id) {
        if let Some(f) = self.figure_of(id) {
            self.dirty.insert(f);
        }
    }

    pub fn figure_by_number(&self, n: f64) -> Option<Id> {
        self.figures
            .iter()
            .copied()
            .find(|f| self.objs.get(f).is_some_and(|o| o.num("Number", 0.0) == n))
    }

    /// A new figure: number `n`, or the lowest free number.
    pub fn new_figure(&mut self, n: Option<u64>) -> Id {
        let n = n.unwrap_or_else(|| {
            (1..)
                .find(|k| self.figure_by_number(*k as f64).is_none())
                .unwrap_or(1)
        });
        let id = self.add(Kind::Figure, None);
        if let Some(o) = self.objs.get_mut(&id) {
            o.put("Number", Value::Num(n as f64));
        }
        self.figures.push(id);
        self.current_figure = Some(id);
        self.dirty.insert(id);
        id
    }

    /// The current figure, made if there is none (`gcf`).
    pub fn current_figure(&mut self) -> Id {
        match self.current_figure.filter(|f| self.objs.contains_key(f)) {
            Some(f) => f,
            None => self.new_figure(None),
        }
    }

    /// The figure's current axes, if any.
    pub fn figure_axes(&self, fig: Id) -> Option<Id> {
        let o = self.objs.get(&fig)?;
        let cur = o.get("CurrentAxes").and_then(|v| v.scalar_f64().ok());
        if let Some(a) = cur.map(|x| x as Id).filter(|a| self.objs.contains_key(a)) {
            return Some(a);
        }
        o.children
            .iter()
            .rev()
            .copied()
            .find(|c| self.kind(*c) == Some(Kind::Axes))
    }

    /// The current axes, made (in a new figure if need be) if there is none (`gca`).
    pub fn current_axes(&mut self) -> Id {
        let fig = self.current_figure();
        match self.figure_axes(fig) {
            Some(a) => a,
            None => self.new_axes(fig, defaults::AXES_POSITION),
        }
    }

    pub fn set_current_axes(&mut self, ax: Id) {
        if let Some(fig) = self.figure_of(ax) {
            if let Some(f) = self.objs.get_mut(&fig) {
                f.put("CurrentAxes", Value::Num(ax as f64));
            }
            self.current_figure = Some(fig);
        }
    }

    /// New axes in `fig` at a normalised position, made current.
    pub fn new_axes(&mut self, fig: Id, pos: [f64; 4]) -> Id {
        let ax = self.add(Kind::Axes, Some(fig));
        let mut labels = Vec::new();
        for name in ["Title", "XLabel", "YLabel", "ZLabel"] {
            let t = self.add_detached(Kind::Text, ax);
            labels.push((name, t));
        }
        if let Some(o) = self.objs.get_mut(&ax) {
            o.put("Position", Value::row(pos.to_vec()));
            for (name, t) in labels {
                o.put(name, Value::Num(t as f64));
            }
        }
        self.set_current_axes(ax);
        ax
    }

    /// The id stored in a property that names another object (an axes' Title).
    pub fn linked(&self, id: Id, name: &str) -> Option<Id> {
        let o = self.objs.get(&id)?;
        let v = o.get(name)?.scalar_f64().ok()?;
        let l = v as Id;
        self.objs.contains_key(&l).then_some(l)
    }

    /// Deletes an object and everything under it.
    pub fn delete(&mut self, id: Id) {
        let Some(o) = self.objs.remove(&id) else {
            return;
        };
        if let Some(p) = o.parent {
            if let Some(po) = self.objs.get_mut(&p) {
                po.children.retain(|c| *c != id);
            }
            self.touch(p);
        }
        for c in o.children.clone() {
            self.delete(c);
        }
        if o.kind == Kind::Axes {
            for name in ["Title", "XLabel", "YLabel", "ZLabel", "Legend", "Colorbar"] {
                if let Some(v) = o.get(name).and_then(|v| v.scalar_f64().ok()) {
                    self.delete(v as Id);
                }
            }
        }
        if o.kind == Kind::Figure {
            self.figures.retain(|f| *f != id);
            self.dirty.remove(&id);
            if self.current_figure == Some(id) {
                self.current_figure = self.figures.last().copied();
            }
        }
    }

    /// Clears an axes for a new high-level plot unless hold is on: children go, properties
    /// return to their defaults (position kept), labels are emptied.
    pub fn prepare_axes(&mut self, ax: Id) {
        let Some(o) = self.objs.get(&ax) else {
            return;
        };
        if o.text("NextPlot") == "add" {
            return;
        }
        self.reset_axes(ax);
    }

    /// `cla reset`: the axes as new, at its position.
    pub fn reset_axes(&mut self, ax: Id) {
        let Some(o) = self.objs.get(&ax) else {
            return;
        };
        let children = o.children.clone();
        for c in children {
            self.delete(c);
        }
        for name in ["Legend", "Colorbar"] {
            if let Some(l) = self.linked(ax, name) {
                self.delete(l);
            }
        }
        let keep: Vec<(&str, Value)> = [
            "Position", "Title", "XLabel", "YLabel", "ZLabel", "Colormap",
        ]
        .iter()
        .filter_map(|n| self.objs.get(&ax)?.get(n).cloned().map(|v| (*n, v)))
        .collect();
        let labels: Vec<Id> = ["Title", "XLabel", "YLabel", "ZLabel"]
            .iter()
            .filter_map(|n| self.linked(ax, n))
            .collect();
        if let Some(o) = self.objs.get_mut(&ax) {
            o.props = defaults::props(Kind::Axes);
            for (n, v) in keep {
                o.put(n, v);
            }
        }
        for t in labels {
            if let Some(o) = self.objs.get_mut(&t) {
                let fresh = GObj::new(Kind::Text, o.parent);
                o.props = fresh.props;
            }
        }
        self.touch(ax);
    }

    /// The next colour of the axes' colour order (advancing it).
    pub fn next_color(&mut self, ax: Id) -> [f64; 3] {
        let Some(o) = self.objs.get_mut(&ax) else {
            return defaults::COLOR_ORDER[0];
        };
        let i = o.num("ColorOrderIndex", 1.0).max(1.0) as usize;
        o.put("ColorOrderIndex", Value::Num((i % 7 + 1) as f64));
        defaults::COLOR_ORDER[(i - 1) % 7]
    }

    /// The colormap an axes uses (its own, else its figure's).
    pub fn colormap_of(&self, ax: Id) -> colormap::Map {
        let own = self.objs.get(&ax).and_then(|o| o.get("Colormap"));
        match own.filter(|v| !v.is_empty()) {
            Some(v) => colormap::Map::from_value(v),
            None => self
                .figure_of(ax)
                .and_then(|f| self.objs.get(&f))
                .and_then(|f| f.get("Colormap"))
                .map(colormap::Map::from_value)
                .unwrap_or_else(colormap::Map::parula),
        }
    }
}
