//! Graphics objects: figures, axes and what is drawn in them, each a kind and a bag of
//! MATLAB-named properties (so `get`, `set` and `h.Prop` treat every kind alike), linked by
//! ids into a tree.

use crate::values::class::Class;
use crate::values::tensor::Data;
use crate::values::value::Value;
use std::borrow::Cow;

pub type Id = u64;

/// What a graphics object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Figure,
    Axes,
    Line,
    Scatter,
    Bar,
    Histogram,
    Stair,
    Stem,
    Area,
    ErrorBar,
    Image,
    Surface,
    Contour,
    Quiver,
    Patch,
    Text,
    Legend,
    Colorbar,
}

impl Kind {
    /// The value of the `Type` property.
    pub fn type_name(self) -> &'static str {
        match self {
            Kind::Figure => "figure",
            Kind::Axes => "axes",
            Kind::Line => "line",
            Kind::Scatter => "scatter",
            Kind::Bar => "bar",
            Kind::Histogram => "histogram",
            Kind::Stair => "stair",
            Kind::Stem => "stem",
            Kind::Area => "area",
            Kind::ErrorBar => "errorbar",
            Kind::Image => "image",
            Kind::Surface => "surface",
            Kind::Contour => "contour",
            Kind::Quiver => "quiver",
            Kind::Patch => "patch",
            Kind::Text => "text",
            Kind::Legend => "legend",
            Kind::Colorbar => "colorbar",
        }
    }
    /// MATLAB's class name of a handle to an object of this kind.
    pub fn class_name(self) -> &'static str {
        match self {
            Kind::Figure => "matlab.ui.Figure",
            Kind::Axes => "matlab.graphics.axis.Axes",
            Kind::Line => "matlab.graphics.chart.primitive.Line",
            Kind::Scatter => "matlab.graphics.chart.primitive.Scatter",
            Kind::Bar => "matlab.graphics.chart.primitive.Bar",
            Kind::Histogram => "matlab.graphics.chart.primitive.Histogram",
            Kind::Stair => "matlab.graphics.chart.primitive.Stair",
            Kind::Stem => "matlab.graphics.chart.primitive.Stem",
            Kind::Area => "matlab.graphics.chart.primitive.Area",
            Kind::ErrorBar => "matlab.graphics.chart.primitive.ErrorBar",
            Kind::Image => "matlab.graphics.primitive.Image",
            Kind::Surface => "matlab.graphics.chart.primitive.Surface",
            Kind::Contour => "matlab.graphics.chart.primitive.Contour",
            Kind::Quiver => "matlab.graphics.chart.primitive.Quiver",
            Kind::Patch => "matlab.graphics.primitive.Patch",
            Kind::Text => "matlab.graphics.primitive.Text",
            Kind::Legend => "matlab.graphics.illustration.Legend",
            Kind::Colorbar => "matlab.graphics.illustration.ColorBar",
        }
    }
    /// The heading of a handle's display (`Line with properties:`).
    pub fn display_name(self) -> &'static str {
        match self {
            Kind::Figure => "Figure",
            Kind::Axes => "Axes",
            Kind::Line => "Line",
            Kind::Scatter => "Scatter",
            Kind::Bar => "Bar",
            Kind::Histogram => "Histogram",
            Kind::Stair => "Stair",
            Kind::Stem => "Stem",
            Kind::Area => "Area",
            Kind::ErrorBar => "ErrorBar",
            Kind::Image => "Image",
            Kind::Surface => "Surface",
            Kind::Contour => "Contour",
            Kind::Quiver => "Quiver",
            Kind::Patch => "Patch",
            Kind::Text => "Text",
            Kind::Legend => "Legend",
            Kind::Colorbar => "ColorBar",
        }
    }
    /// Whether the object is data in an axes (shown by legend, counted in limits).
    pub fn is_series(self) -> bool {
        !matches!(
            self,
            Kind::Figure | Kind::Axes | Kind::Text | Kind::Legend | Kind::Colorbar
        )
    }
}

/// One graphics object.
#[derive(Clone, Debug)]
pub struct GObj {
    pub kind: Kind,
    pub parent: Option<Id>,
    pub children: Vec<Id>,
    /// Properties by MATLAB name, in display order.
    pub props: Vec<(&'static str, Value)>,
    /// Figure: the tiled layout's rows, columns and next tile. Axes: the subplot grid slot.
    pub grid: Option<(usize, usize, usize)>,
    /// Figure: how a tiled layout grows (`tiledlayout('flow')`, ...).
    pub arrangement: super::layout::Arrangement,
    /// A figure's text: which of the layout's labels it is (sgtitle, xlabel(t), ylabel(t)).
    pub role: FigureText,
}

/// The texts a figure (standing for its tiled layout) carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureText {
    Title,
    XLabel,
    YLabel,
}

impl GObj {
    pub fn new(kind: Kind, parent: Option<Id>) -> GObj {
        GObj {
            kind,
            parent,
            children: Vec::new(),
            props: super::defaults::props(kind),
            grid: None,
            arrangement: super::layout::Arrangement::Fixed,
            role: FigureText::Title,
        }
    }
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.props.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
    /// Sets a property known to this kind (unknown names are ignored: callers validate).
    pub fn put(&mut self, name: &str, v: Value) {
        if let Some(slot) = self.props.iter_mut().find(|(n, _)| *n == name) {
            slot.1 = v;
        }
    }
    /// A numeric property's values (empty if absent or not numeric), borrowed where they
    /// are stored as doubles: long series are read without copies.
    pub fn nums(&self, name: &str) -> Cow<'_, [f64]> {
        match self.get(name) {
            Some(Value::Tensor(t)) if t.class() != Class::Char => match &t.data {
                Data::F64(v) => Cow::Borrowed(v.as_slice()),
                _ => Cow::Owned(t.to_f64().into_owned()),
            },
            Some(Value::Num(x)) => Cow::Owned(vec![*x]),
            Some(Value::Bool(b)) => Cow::Owned(vec![*b as u8 as f64]),
            _ => Cow::Borrowed(&[]),
        }
    }
    /// A numeric property's rows and columns with its values (column-major).
    pub fn matrix(&self, name: &str) -> (usize, usize, Vec<f64>) {
        match self.get(name) {
            Some(v) if v.is_numeric_like() && !v.is_char() => {
                let s = v.shape();
                (
                    s.rows(),
                    s.numel() / s.rows().max(1),
                    self.nums(name).into_owned(),
                )
            }
            _ => (0, 0, Vec::new()),
        }
    }
    pub fn num(&self, name: &str, default: f64) -> f64 {
        self.nums(name).first().copied().unwrap_or(default)
    }
    pub fn text(&self, name: &str) -> String {
        self.get(name)
            .and_then(|v| v.text().ok())
            .unwrap_or_default()
    }
    pub fn on(&self, name: &str) -> bool {
        self.text(name) == "on"
    }
}
