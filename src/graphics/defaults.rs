//! Each kind's properties with MATLAB's default values, in the order a handle displays them.

use super::model::Kind;
use crate::values::containers::CellArray;
use crate::values::shape::Shape;
use crate::values::value::Value;

/// MATLAB's default line colour order (R2014b and later).
pub const COLOR_ORDER: [[f64; 3]; 7] = [
    [0.0, 0.4470, 0.7410],
    [0.8500, 0.3250, 0.0980],
    [0.9290, 0.6940, 0.1250],
    [0.4940, 0.1840, 0.5560],
    [0.4660, 0.6740, 0.1880],
    [0.3010, 0.7450, 0.9330],
    [0.6350, 0.0780, 0.1840],
];

/// The default figure position, pixels `[left bottom width height]`.
pub const FIGURE_POSITION: [f64; 4] = [680.0, 458.0, 560.0, 420.0];
/// The default axes position, normalised to the figure.
pub const AXES_POSITION: [f64; 4] = [0.13, 0.11, 0.775, 0.815];

pub fn rgb(c: [f64; 3]) -> Value {
    Value::row(c.to_vec())
}

fn s(t: &str) -> Value {
    Value::str(t)
}

fn n(x: f64) -> Value {
    Value::Num(x)
}

fn empty_cell() -> Value {
    Value::from(CellArray::new(Shape::matrix(0, 0), vec![]))
}

const BLUE: [f64; 3] = COLOR_ORDER[0];
const BLACK: [f64; 3] = [0.0, 0.0, 0.0];
const AXIS_GREY: [f64; 3] = [0.15, 0.15, 0.15];

/// The properties of a new object of `kind`. Computed ones (`Type`, `Parent`, `Children`,
/// `Title` of axes, ...) are stored too, as placeholders the getter replaces.
pub fn props(kind: Kind) -> Vec<(&'static str, Value)> {
    let mut p = own(kind);
    // what every drawn object ends with: its legend name (data only), visibility and links
    if kind.is_series() && kind != Kind::Image {
        p.push(("DisplayName", s("")));
    }
    if !matches!(kind, Kind::Figure | Kind::Axes) {
        p.extend([
            ("Visible", s("on")),
            ("Parent", Value::empty()),
            ("Type", Value::empty()),
        ]);
    }
    p
}

/// A line's colour, style, width and marker (line-like kinds start with it).
fn line_look(marker: &str) -> [(&'static str, Value); 5] {
    [
        ("Color", rgb(BLUE)),
        ("LineStyle", s("-")),
        ("LineWidth", n(0.5)),
        ("Marker", s(marker)),
        ("MarkerSize", n(6.0)),
    ]
}

/// The properties particular to a kind.
fn own(kind: Kind) -> Vec<(&'static str, Value)> {
    let e = Value::empty;
    match kind {
        Kind::Figure => vec![
            ("Number", n(1.0)),
            ("Name", s("")),
            ("Color", rgb([1.0, 1.0, 1.0])),
            ("Position", Value::row(FIGURE_POSITION.to_vec())),
            ("Units", s("pixels")),
            ("Visible", s("on")),
            ("NumberTitle", s("on")),
            (
                "Colormap",
                super::colormap::named("parula", 256).unwrap_or_else(e),
            ),
            ("CurrentAxes", e()),
            ("Children", e()),
            ("Type", e()),
        ],
        Kind::Axes => vec![
            ("Position", Value::row(AXES_POSITION.to_vec())),
            ("XLim", Value::row(vec![0.0, 1.0])),
            ("YLim", Value::row(vec![0.0, 1.0])),
            ("ZLim", Value::row(vec![0.0, 1.0])),
            ("CLim", Value::row(vec![0.0, 1.0])),
            ("XLimMode", s("auto")),
            ("YLimMode", s("auto")),
            ("ZLimMode", s("auto")),
            ("CLimMode", s("auto")),
            ("XScale", s("linear")),
            ("YScale", s("linear")),
            ("XDir", s("normal")),
            ("YDir", s("normal")),
            ("XGrid", s("off")),
            ("YGrid", s("off")),
            ("ZGrid", s("off")),
            ("XMinorGrid", s("off")),
            ("YMinorGrid", s("off")),
            ("ZMinorGrid", s("off")),
            ("Box", s("on")),
            ("Color", rgb([1.0, 1.0, 1.0])),
            ("XColor", rgb(AXIS_GREY)),
            ("YColor", rgb(AXIS_GREY)),
            ("FontSize", n(10.0)),
            ("LineWidth", n(0.5)),
            ("XTick", e()),
            ("YTick", e()),
            ("ZTick", e()),
            ("XTickMode", s("auto")),
            ("YTickMode", s("auto")),
            ("ZTickMode", s("auto")),
            ("XTickLabel", empty_cell()),
            ("YTickLabel", empty_cell()),
            ("XTickLabelMode", s("auto")),
            ("YTickLabelMode", s("auto")),
            ("DataAspectRatio", Value::row(vec![1.0, 1.0, 1.0])),
            ("DataAspectRatioMode", s("auto")),
            ("PlotBoxAspectRatio", Value::row(vec![1.0, 1.0, 1.0])),
            ("PlotBoxAspectRatioMode", s("auto")),
            ("View", Value::row(vec![0.0, 90.0])),
            ("RLim", e()),
            ("NextPlot", s("replace")),
            ("ColorOrderIndex", n(1.0)),
            ("Visible", s("on")),
            ("Title", e()),
            ("XLabel", e()),
            ("YLabel", e()),
            ("ZLabel", e()),
            ("Legend", e()),
            ("Colorbar", e()),
            ("Colormap", e()),
            ("Children", e()),
            ("Parent", e()),
            ("Type", e()),
        ],
        Kind::Line | Kind::Stair => [
            line_look("none").to_vec(),
            vec![
                ("MarkerFaceColor", s("none")),
                ("MarkerEdgeColor", s("auto")),
                ("XData", e()),
                ("YData", e()),
                ("ZData", e()),
            ],
        ]
        .concat(),
        Kind::Stem => [
            line_look("o").to_vec(),
            vec![
                ("MarkerFaceColor", s("none")),
                ("BaseValue", n(0.0)),
                ("XData", e()),
                ("YData", e()),
            ],
        ]
        .concat(),
        Kind::ErrorBar => [
            line_look("none").to_vec(),
            vec![
                ("CapSize", n(6.0)),
                ("XData", e()),
                ("YData", e()),
                ("YNegativeDelta", e()),
                ("YPositiveDelta", e()),
                ("XNegativeDelta", e()),
                ("XPositiveDelta", e()),
            ],
        ]
        .concat(),
        Kind::Scatter => vec![
            ("Marker", s("o")),
            ("SizeData", n(36.0)),
            ("CData", rgb(BLUE)),
            ("MarkerFaceColor", s("none")),
            ("MarkerEdgeColor", s("flat")),
            ("LineWidth", n(0.5)),
            ("XData", e()),
            ("YData", e()),
            ("ZData", e()),
        ],
        Kind::Bar => vec![
            ("BarWidth", n(0.8)),
            ("FaceColor", rgb(BLUE)),
            ("EdgeColor", rgb(BLACK)),
            ("LineWidth", n(0.5)),
            ("Horizontal", s("off")),
            ("BarLayout", s("grouped")),
            ("BaseValue", n(0.0)),
            ("XData", e()),
            ("YData", e()),
            ("YEndPoints", e()),
        ],
        Kind::Histogram => vec![
            ("Data", e()),
            ("Values", e()),
            ("NumBins", n(0.0)),
            ("BinEdges", e()),
            ("BinCounts", e()),
            ("Normalization", s("count")),
            ("FaceColor", rgb(BLUE)),
            ("EdgeColor", rgb(BLACK)),
            ("FaceAlpha", n(0.6)),
        ],
        Kind::Area => vec![
            ("FaceColor", rgb(BLUE)),
            ("EdgeColor", rgb(BLACK)),
            ("FaceAlpha", n(1.0)),
            ("LineWidth", n(0.5)),
            ("BaseValue", n(0.0)),
            ("XData", e()),
            ("YData", e()),
        ],
        Kind::Patch => vec![
            ("FaceColor", rgb(BLUE)),
            ("EdgeColor", rgb(BLACK)),
            ("FaceAlpha", n(1.0)),
            ("LineWidth", n(0.5)),
            ("LineStyle", s("-")),
            ("XData", e()),
            ("YData", e()),
        ],
        Kind::Image => vec![
            ("CData", e()),
            ("CDataMapping", s("direct")),
            ("XData", Value::row(vec![1.0, 1.0])),
            ("YData", Value::row(vec![1.0, 1.0])),
        ],
        Kind::Surface => vec![
            ("FaceColor", s("flat")),
            ("EdgeColor", rgb(BLACK)),
            ("LineStyle", s("-")),
            ("LineWidth", n(0.5)),
            ("FaceAlpha", n(1.0)),
            ("XData", e()),
            ("YData", e()),
            ("ZData", e()),
            ("CData", e()),
        ],
        Kind::Contour => vec![
            ("LineColor", s("flat")),
            ("LineStyle", s("-")),
            ("LineWidth", n(0.5)),
            ("Fill", s("off")),
            ("LevelList", e()),
            ("LevelListMode", s("auto")),
            ("XData", e()),
            ("YData", e()),
            ("ZData", e()),
        ],
        Kind::Quiver => vec![
            ("Color", rgb(BLUE)),
            ("LineStyle", s("-")),
            ("LineWidth", n(0.5)),
            ("AutoScale", s("on")),
            ("AutoScaleFactor", n(0.9)),
            ("MaxHeadSize", n(0.2)),
            ("ShowArrowHead", s("on")),
            ("XData", e()),
            ("YData", e()),
            ("UData", e()),
            ("VData", e()),
        ],
        Kind::Text => vec![
            ("String", s("")),
            ("Position", Value::row(vec![0.0, 0.0, 0.0])),
            ("Color", rgb(BLACK)),
            ("FontSize", n(10.0)),
            ("FontWeight", s("normal")),
            ("HorizontalAlignment", s("left")),
            ("VerticalAlignment", s("middle")),
            ("Rotation", n(0.0)),
            ("Interpreter", s("tex")),
        ],
        Kind::Legend => vec![
            ("String", empty_cell()),
            ("Location", s("northeast")),
            ("Orientation", s("vertical")),
            ("FontSize", n(9.0)),
            ("Box", s("on")),
        ],
        Kind::Colorbar => vec![
            ("Location", s("eastoutside")),
            ("Limits", Value::row(vec![0.0, 1.0])),
            ("FontSize", n(9.0)),
        ],
    }
}
