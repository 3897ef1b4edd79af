//! Figures: each plot type drawn to a PNG (through `print`, decoded with the png crate) and
//! checked at the pixels where its data puts it; an SVG's element counts; handles, get/set
//! and their errors; where figures appear (files, inline escapes).

use crate::common::{err, out_in};
use matfuse::interp::Interp;
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("matfuse-graphics-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A decoded RGB image.
struct Image {
    w: usize,
    h: usize,
    px: Vec<u8>,
}

impl Image {
    fn at(&self, x: f64, y: f64) -> [u8; 3] {
        let (x, y) = (x.round() as usize, y.round() as usize);
        let i = (y.min(self.h - 1) * self.w + x.min(self.w - 1)) * 3;
        [self.px[i], self.px[i + 1], self.px[i + 2]]
    }
    /// The first row from the top, in column x, whose pixel satisfies `f`.
    fn first_from_top(&self, x: f64, f: impl Fn([u8; 3]) -> bool) -> Option<usize> {
        (0..self.h).find(|y| f(self.at(x, *y as f64)))
    }
    fn count(
        &self,
        x0: usize,
        y0: usize,
        x1: usize,
        y1: usize,
        f: impl Fn([u8; 3]) -> bool,
    ) -> usize {
        let mut n = 0;
        for y in y0..y1.min(self.h) {
            for x in x0..x1.min(self.w) {
                if f(self.at(x as f64, y as f64)) {
                    n += 1;
                }
            }
        }
        n
    }
}

fn decode(path: &PathBuf) -> Image {
    let file = std::fs::File::open(path).expect("png written");
    let dec = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = dec.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png data");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    Image {
        w: info.width as usize,
        h: info.height as usize,
        px: buf,
    }
}

/// Runs `code` in a fresh session, prints the current figure at screen resolution (560×420
/// for a default figure) and decodes it.
fn render(code: &str) -> Image {
    let dir = temp_dir("render");
    let file = dir.join(format!(
        "f{}.png",
        code.len() ^ code.bytes().map(|b| b as usize).sum::<usize>()
    ));
    let mut interp = Interp::new();
    out_in(&mut interp, code);
    out_in(
        &mut interp,
        &format!("print('-dpng', '-r96', '{}')", file.display()),
    );
    let img = decode(&file);
    let _ = std::fs::remove_file(&file);
    img
}

// The default plot box at 560×420: x from 72.8 to 506.8, y (from the top) 31.5 to 373.8.
const X0: f64 = 72.8;
const X1: f64 = 506.8;
const Y0: f64 = 31.5;
const Y1: f64 = 373.8;

fn px_x(x: f64, lo: f64, hi: f64) -> f64 {
    X0 + (x - lo) / (hi - lo) * (X1 - X0)
}
fn px_y(y: f64, lo: f64, hi: f64) -> f64 {
    Y1 - (y - lo) / (hi - lo) * (Y1 - Y0)
}

fn near(c: [u8; 3], want: [u8; 3], tol: i32) -> bool {
    (0..3).all(|k| (c[k] as i32 - want[k] as i32).abs() <= tol)
}
fn white(c: [u8; 3]) -> bool {
    near(c, [255, 255, 255], 3)
}
const BLUE: [u8; 3] = [0, 114, 189];
const ORANGE: [u8; 3] = [217, 83, 25];

#[test]
fn a_line_is_drawn_in_its_colour_where_its_data_is() {
    let img = render(
        "plot([0 1], [0.25 0.25], 'r', 'LineWidth', 3); hold on; plot([0 1], [0.75 0.75]); plot([0 1], [0.5 0.5]); xlim([0 1]); ylim([0 1])",
    );
    assert_eq!((img.w, img.h), (560, 420));
    let x = px_x(0.4, 0.0, 1.0);
    assert!(
        near(img.at(x, px_y(0.25, 0.0, 1.0)), [255, 0, 0], 40),
        "{:?}",
        img.at(x, px_y(0.25, 0.0, 1.0))
    );
    // the colour order: first blue, then orange (an explicit colour does not take a turn)
    let blue_row = img
        .first_from_top(x, |c| near(c, BLUE, 60))
        .expect("a blue line");
    assert!(
        (blue_row as f64 - px_y(0.75, 0.0, 1.0)).abs() <= 2.0,
        "{blue_row}"
    );
    let orange_row = img
        .first_from_top(x, |c| near(c, ORANGE, 60))
        .expect("an orange line");
    assert!(
        (orange_row as f64 - px_y(0.5, 0.0, 1.0)).abs() <= 2.0,
        "{orange_row}"
    );
    assert!(white(img.at(x, px_y(0.9, 0.0, 1.0))));
    // box and ticks are dark grey
    assert!(img.at(X0, 200.0)[0] < 120);
}

#[test]
fn line_specs_markers_and_dashes() {
    // markers only: nothing between the points
    let img = render("plot([0.2 0.8], [0.5 0.5], 'ks', 'MarkerSize', 10); axis([0 1 0 1])");
    let y = px_y(0.5, 0.0, 1.0);
    assert!(
        img.count(
            px_x(0.2, 0.0, 1.0) as usize - 8,
            y as usize - 8,
            px_x(0.2, 0.0, 1.0) as usize + 9,
            y as usize + 9,
            |c| c[0] < 80
        ) > 10
    );
    assert!(white(img.at(px_x(0.5, 0.0, 1.0), y)));
    // a dashed line has gaps along its length
    let img = render("plot([0 1], [0.5 0.5], 'b--', 'LineWidth', 2); axis([0 1 0 1])");
    let row = px_y(0.5, 0.0, 1.0).round() as usize;
    let on = img.count(100, row, 480, row + 1, |c| c[2] > 150 && c[0] < 120);
    assert!(on > 100 && on < 330, "{on} of 380 pixels drawn");
}

#[test]
fn bars_reach_their_heights() {
    let img = render("bar([1 3 2]); ylim([0 4])");
    // x limits are [0.4 3.6], as MATLAB puts them
    for (k, h) in [(1.0, 1.0), (2.0, 3.0), (3.0, 2.0)] {
        let x = px_x(k, 0.4, 3.6);
        let top = img.first_from_top(x, |c| near(c, BLUE, 30)).expect("a bar") as f64;
        assert!((top - px_y(h, 0.0, 4.0)).abs() <= 2.5, "bar {k}: top {top}");
        assert!(near(img.at(x, px_y(h / 2.0, 0.0, 4.0)), BLUE, 10));
    }
    let img = render("barh([2 1]); xlim([0 3])");
    let y = px_y(1.0, 0.4, 2.6);
    let right = (0..560)
        .rev()
        .find(|x| near(img.at(*x as f64, y), BLUE, 30))
        .expect("a bar") as f64;
    assert!((right - px_x(2.0, 0.0, 3.0)).abs() <= 2.5, "{right}");
}

#[test]
fn histogram_bins_counts_and_normalisation() {
    let img = render(
        "histogram([1 1 2 2 2 3], 'BinEdges', [0.5 1.5 2.5 3.5]); ylim([0 4]); xlim([0.5 3.5])",
    );
    // face colour at FaceAlpha 0.6 on white
    let face = |c: [u8; 3]| near(c, [102, 170, 215], 12);
    for (k, h) in [(1.0, 2.0), (2.0, 3.0), (3.0, 1.0)] {
        let x = px_x(k, 0.5, 3.5);
        let top = img.first_from_top(x, face).expect("a bin") as f64;
        assert!((top - px_y(h, 0.0, 4.0)).abs() <= 2.5, "bin {k}: top {top}");
    }
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "h = histogram([1 2 2 3 3 3 4], 4); disp(h.NumBins); disp(h.Values); \
         h.Normalization = 'probability'; disp(sum(h.Values)); h.BinEdges = [0 2 5]; disp(h.BinCounts); \
         h2 = histogram(randn(1, 1000)); disp(h2.NumBins > 5 && h2.NumBins < 40)",
    );
    assert_eq!(
        o,
        "     4\n     1     2     3     1\n     1\n     1     6\n   1\n"
    );
}

#[test]
fn colorbar_runs_from_the_colormaps_first_to_last_colour() {
    let img = render("imagesc([0 1; 2 3]); colorbar");
    // the plot box gives 0.09 of the figure to the colorbar, which starts 0.025 beyond it
    let bx = (X1 - 0.09 * 560.0) + 0.025 * 560.0 + 0.015 * 560.0;
    let bottom = img.at(bx, Y1 - 3.0);
    let top = img.at(bx, Y0 + 3.0);
    assert!(near(bottom, [62, 38, 168], 12), "{bottom:?}");
    assert!(near(top, [249, 251, 21], 12), "{top:?}");
    // image cells: top-left is the lowest value (row 1 at the top), bottom-right the highest
    let plot_x1 = X1 - 0.09 * 560.0;
    assert!(near(img.at(X0 + 20.0, Y0 + 20.0), [62, 38, 168], 12));
    assert!(near(img.at(plot_x1 - 20.0, Y1 - 20.0), [249, 251, 21], 12));
    // gray colormap on request
    let img = render("imagesc([0 1; 2 3]); colormap(gray); colorbar");
    assert!(near(img.at(bx, Y1 - 3.0), [0, 0, 0], 6));
    assert!(near(img.at(bx, Y0 + 3.0), [255, 255, 255], 6));
}

#[test]
fn title_and_labels_draw_text_where_they_belong() {
    let dark = |c: [u8; 3]| c[0] < 128;
    let plain = render("plot(1:3)");
    let titled = render("plot(1:3); title('Hello world'); xlabel('time'); ylabel('value')");
    let title_region = |img: &Image| img.count(220, 4, 340, (Y0 - 2.0) as usize, dark);
    assert_eq!(title_region(&plain), 0);
    assert!(title_region(&titled) > 30, "{}", title_region(&titled));
    let xlabel_region = |img: &Image| img.count(250, 395, 310, 420, dark);
    assert_eq!(xlabel_region(&plain), 0);
    assert!(xlabel_region(&titled) > 15);
    let ylabel_region = |img: &Image| img.count(0, 150, 30, 260, dark);
    assert_eq!(ylabel_region(&plain), 0);
    assert!(ylabel_region(&titled) > 15);
}

#[test]
fn scatter_area_fill_stem_stairs_errorbar_and_log_axes() {
    let img = render("scatter(0.5, 0.5, 200, 'filled'); axis([0 1 0 1])");
    assert!(near(
        img.at(px_x(0.5, 0.0, 1.0), px_y(0.5, 0.0, 1.0)),
        BLUE,
        20
    ));
    let img = render("area([1 2], [1 1]); axis([1 2 0 2])");
    assert!(near(
        img.at(px_x(1.5, 1.0, 2.0), px_y(0.5, 0.0, 2.0)),
        BLUE,
        10
    ));
    assert!(white(img.at(px_x(1.5, 1.0, 2.0), px_y(1.5, 0.0, 2.0))));
    let img = render("fill([0 1 1 0], [0 0 1 1], 'g'); axis([-1 2 -1 2])");
    assert!(near(
        img.at(px_x(0.5, -1.0, 2.0), px_y(0.5, -1.0, 2.0)),
        [0, 255, 0],
        10
    ));
    assert!(white(img.at(px_x(1.5, -1.0, 2.0), px_y(1.5, -1.0, 2.0))));
    // stem: a stem from the baseline up to the value
    let img = render("stem(2, 3, 'LineWidth', 2); axis([0 4 0 4])");
    assert!(near(
        img.at(px_x(2.0, 0.0, 4.0), px_y(1.5, 0.0, 4.0)),
        BLUE,
        60
    ));
    assert!(white(img.at(px_x(2.0, 0.0, 4.0), px_y(3.6, 0.0, 4.0))));
    // stairs: the step holds the first value until the next x
    let img = render("stairs([0 1 2], [1 3 3], 'LineWidth', 2); axis([0 2 0 4])");
    assert!(near(
        img.at(px_x(0.5, 0.0, 2.0), px_y(1.0, 0.0, 4.0)),
        BLUE,
        60
    ));
    assert!(white(img.at(px_x(0.5, 0.0, 2.0), px_y(2.0, 0.0, 4.0))));
    // errorbar: a vertical bar over the error range
    let img = render("errorbar(2, 2, 1, 'LineWidth', 2); axis([0 4 0 4])");
    assert!(near(
        img.at(px_x(2.0, 0.0, 4.0), px_y(1.3, 0.0, 4.0)),
        BLUE,
        60
    ));
    assert!(white(img.at(px_x(2.0, 0.0, 4.0), px_y(3.5, 0.0, 4.0))));
    // log axes: 10 lies halfway between 1 and 100
    let img = render("semilogy([1 3], [10 10], 'LineWidth', 2); axis([1 3 1 100])");
    assert!(near(
        img.at(px_x(2.0, 1.0, 3.0), px_y(0.5, 0.0, 1.0)),
        BLUE,
        60
    ));
    let img = render("loglog([1 100], [1 100], 'LineWidth', 2); axis([1 100 1 100])");
    assert!(near(
        img.at(px_x(0.5, 0.0, 1.0), px_y(0.5, 0.0, 1.0)),
        BLUE,
        60
    ));
}

#[test]
fn images_contours_and_surfaces() {
    // truecolor image with imshow: red over blue, no axes drawn
    let img = render("I = zeros(2, 1, 3); I(1, 1, 1) = 1; I(2, 1, 3) = 1; imshow(I)");
    let (cx, top, bottom) = (280.0, 120.0, 300.0);
    assert!(
        near(img.at(cx, top), [255, 0, 0], 10),
        "{:?}",
        img.at(cx, top)
    );
    assert!(near(img.at(cx, bottom), [0, 0, 255], 10));
    // filled contours cover the box with several colours; contour lines leave white
    let distinct = |img: &Image| {
        let mut seen = std::collections::HashSet::new();
        for y in (40..370).step_by(7) {
            for x in (80..500).step_by(7) {
                seen.insert(img.at(x as f64, y as f64));
            }
        }
        seen
    };
    let filled = render("contourf(peaks(30))");
    assert!(distinct(&filled).len() > 8);
    assert!(!white(filled.at(290.0, 200.0)));
    let lines = render("contour(peaks(30))");
    assert!(lines.count(80, 40, 500, 370, white) > 50_000);
    assert!(lines.count(80, 40, 500, 370, |c| !white(c) && c[0] != c[1]) > 300);
    let surf = render("surf(peaks(20))");
    assert!(distinct(&surf).len() > 15);
    let mesh = render("mesh(peaks(20)); view(2)");
    assert!(distinct(&mesh).len() > 5);
}

#[test]
fn subplots_place_axes_in_a_grid() {
    let img = render(
        "subplot(1, 2, 1); plot([0 1], [0 1], 'r', 'LineWidth', 3); subplot(1, 2, 2); plot([0 1], [0 1], 'b', 'LineWidth', 3)",
    );
    let red = |c: [u8; 3]| c[0] > 200 && c[1] < 80 && c[2] < 80;
    let blue = |c: [u8; 3]| c[2] > 200 && c[0] < 80 && c[1] < 80;
    assert!(img.count(0, 0, 280, 420, red) > 100);
    assert_eq!(img.count(280, 0, 560, 420, red), 0);
    assert!(img.count(280, 0, 560, 420, blue) > 100);
    assert_eq!(img.count(0, 0, 280, 420, blue), 0);
}

#[test]
fn svg_output_has_an_element_per_drawn_thing() {
    let dir = temp_dir("svg");
    let file = dir.join("bars.svg");
    let mut interp = Interp::new();
    out_in(
        &mut interp,
        &format!(
            "bar([1 2 3]); ylim([0 3]); yticks([0 1 2 3]); title('Bars'); print('-dsvg', '{}')",
            file.display()
        ),
    );
    let svg = std::fs::read_to_string(&file).expect("svg written");
    let count = |tag: &str| svg.matches(&format!("<{tag}")).count();
    // three bars
    assert_eq!(count("polygon"), 3, "{svg}");
    // tick labels 1 2 3 and 0 1 2 3, and the title
    assert_eq!(count("text"), 8);
    assert!(svg.contains("Bars"));
    assert!(svg.starts_with("<svg"));
    // a long line is decimated to the pixel grid before it is drawn
    out_in(
        &mut interp,
        &format!(
            "x = linspace(0, 1, 200000); plot(x, sin(50 * x)); print('-dsvg', '{}')",
            file.display()
        ),
    );
    let svg = std::fs::read_to_string(&file).expect("svg written");
    let points: usize = svg
        .split("<polyline")
        .skip(1)
        .map(|p| {
            p.split("points=\"")
                .nth(1)
                .unwrap_or("")
                .split('"')
                .next()
                .unwrap_or("")
                .split(' ')
                .count()
        })
        .max()
        .unwrap_or(0);
    assert!(
        points > 400 && points < 4 * 440,
        "{points} points for 200000"
    );
}

#[test]
fn print_saveas_and_exportgraphics_write_files_at_a_resolution() {
    let dir = temp_dir("export");
    let d = dir.display();
    let mut interp = Interp::new();
    out_in(
        &mut interp,
        &format!(
            "plot(1:3); print -dpng {d}/a.png; saveas(gcf, '{d}/b.png'); \
             exportgraphics(gca, '{d}/c.png', 'Resolution', 192); saveas(1, '{d}/d', 'svg'); \
             figure('Position', [0 0 300 200]); plot(1:2); print('-r96', '{d}/e')"
        ),
    );
    let size = |f: &str| {
        let img = decode(&dir.join(f));
        (img.w, img.h)
    };
    assert_eq!(size("a.png"), (875, 656)); // 150 dpi by default
    assert_eq!(size("b.png"), (875, 656));
    assert_eq!(size("c.png"), (1120, 840));
    assert_eq!(size("e.png"), (300, 200));
    assert!(
        std::fs::read_to_string(dir.join("d.svg"))
            .expect("svg")
            .contains("<svg")
    );
    let (id, _) = err("print -dpng /tmp/x.png");
    assert_eq!(id, "MATLAB:print:NoFigure");
    let (id, _) = err("plot(1:3); print -djpeg x");
    assert_eq!(id, "MATLAB:print:InvalidFormat");
}

#[test]
fn handles_get_set_and_dot_properties() {
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "h = plot(1:3, [4 5 6]); disp(get(1, 'pos')); h.LineWidth = 2; disp(get(h, 'LineWidth')); \
         disp(h.Color); set(gca, 'XLim', [0 1]); disp(xlim); disp(get(gca, 'XLimMode')); \
         f = gcf; disp(f.Number); disp(class(h)); ax = gca; \
         disp(ax.YLim); set(h, 'color', 'r'); disp(h.Color); disp(ishandle(h)); \
         t = title('T'); disp(t.String); disp(ax.Title.String)",
    );
    assert_eq!(
        o,
        "   680   458   560   420\n     2\n         0    0.4470    0.7410\n     0     1\nmanual\n     1\n\
         matlab.graphics.chart.primitive.Line\n     4     6\n     1     0     0\n   1\nT\nT\n"
    );
}

#[test]
fn handle_errors_and_lifetimes() {
    let (id, msg) = err("h = plot(1:3); get(h, 'Bogus')");
    assert_eq!(id, "MATLAB:hg:InvalidProperty");
    assert!(msg.contains("Bogus"), "{msg}");
    let (id, _) = err("h = plot(1:3); get(h, 'M')");
    assert_eq!(id, "MATLAB:hg:AmbiguousPropertyName");
    let (id, _) = err("h = plot(1:3); h.LineWidth = 'wide';");
    assert_eq!(id, "MATLAB:datatypes:InvalidValue");
    let (id, _) = err("h = plot(1:3); set(h, 'Color', 'purple')");
    assert_eq!(id, "MATLAB:hg:ColorSpec_InvalidSpecification");
    let (id, _) = err("xlim([2 1])");
    assert_eq!(id, "MATLAB:datatypes:InvalidValue");
    let (id, _) = err("h = plot(1:3); close all; h.LineWidth = 2;");
    assert_eq!(id, "MATLAB:class:InvalidHandle");
    let (id, _) = err("get(7, 'Position')");
    assert_eq!(id, "MATLAB:hg:dt_conv:Matrix_to_HObject:BadHandle");
    let (id, _) = err("plot(1:3, 1:4)");
    assert_eq!(id, "MATLAB:plot:invalidInput");
    let (id, _) = err("subplot(2, 2, 5)");
    assert_eq!(id, "MATLAB:subplot:IndexOutOfRange");
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "figure; figure; figure(7); disp(get(gcf, 'Number')); close(2); f = figure; disp(f.Number); \
         disp(ishandle([1 2 3 7])); close all; disp(ishandle(1)); \
         a1 = subplot(2, 1, 1); a2 = subplot(2, 1, 2); a3 = subplot(2, 1, 1); disp(numel(get(gcf, 'Children'))); \
         hold on; disp(ishold); hold off; disp(ishold); \
         plot(1:3); plot(2:4); disp(numel(get(gca, 'Children'))); hold on; plot(1:3); disp(numel(get(gca, 'Children'))); \
         l = legend('a', 'b'); disp(l.String)",
    );
    assert_eq!(
        o,
        "     7\n     2\n   1   1   0   1\n   0\n     2\n   1\n   0\n     1\n     2\n    {'a'}    {'b'}\n"
    );
}

#[test]
fn handles_display_like_matlab() {
    let mut interp = Interp::new();
    let o = out_in(&mut interp, "h = plot([1 2 3], [4 5 6])");
    assert_eq!(
        o,
        "\nh = \n\n  Line with properties:\n\n              Color: [0 0.4470 0.7410]\n          LineStyle: '-'\n          LineWidth: 0.5000\n             Marker: 'none'\n         MarkerSize: 6\n    MarkerFaceColor: 'none'\n              XData: [1 2 3]\n              YData: [4 5 6]\n\n"
    );
    let o = out_in(&mut interp, "f = gcf");
    assert!(
        o.starts_with("\nf = \n\n  Figure (1) with properties:\n"),
        "{o}"
    );
}

#[test]
fn figures_are_written_once_per_statement_and_announced_once() {
    use matfuse::graphics::output::Mode;
    let dir = temp_dir("file-mode");
    let _ = std::fs::remove_dir_all(&dir);
    let mut interp = Interp::new();
    interp.graphics.borrow_mut().output = Mode::File(dir.clone());
    let o = out_in(&mut interp, "plot(1:3)\ntitle('one')\n");
    let path = dir.join("figure-1.png");
    assert_eq!(o, format!("Figure 1: {}\n", path.display()));
    let first = std::fs::read(&path).expect("figure written");
    // a later change rewrites the file without saying so again
    let o = out_in(&mut interp, "xlabel('x'); figure; plot(1:2)");
    assert_eq!(
        o,
        format!("Figure 2: {}\n", dir.join("figure-2.png").display())
    );
    assert_ne!(std::fs::read(&path).expect("rewritten"), first);
    // nothing changed: nothing written or said
    let o = out_in(&mut interp, "x = 1;");
    assert_eq!(o, "");
}

#[test]
fn inline_terminals_get_image_escapes() {
    use matfuse::graphics::output::{self, Mode, Protocol};
    for (p, head, tail) in [
        (Protocol::Kitty, "\x1b_Gf=100,a=T,q=2,m=", "\x1b\\\n"),
        (Protocol::Iterm, "\x1b]1337;File=inline=1;size=", "\x07\n"),
        (Protocol::Sixel, "\x1bP0;1;0q\"1;1;560;420", "\x1b\\\n"),
    ] {
        let mut interp = Interp::new();
        interp.graphics.borrow_mut().output = Mode::Inline(p);
        let o = out_in(&mut interp, "plot(1:3); title('x');");
        assert!(o.starts_with(head), "{p:?}: {:?}", &o[..40.min(o.len())]);
        assert!(o.ends_with(tail), "{p:?}");
        // one image for the statement, not one per call
        let images = match p {
            Protocol::Kitty => o.matches("a=T").count(),
            Protocol::Iterm => o.matches("1337;File").count(),
            Protocol::Sixel => o.matches("\x1bP0;1;0q").count(),
        };
        assert_eq!(images, 1);
        if p == Protocol::Kitty {
            // the PNG's signature, in base64, starts the payload
            assert!(o.contains(";iVBORw0KGgo"));
            // every chunk: quiet (no reply on stdin), m=1 but the last, payload a multiple
            // of 4 base64 characters and at most 4096
            let chunks: Vec<&str> = o
                .trim_end()
                .split("\x1b\\")
                .filter(|c| !c.is_empty())
                .collect();
            assert!(chunks.len() > 1, "a figure's PNG takes several chunks");
            for (k, c) in chunks.iter().enumerate() {
                let (keys, payload) = c.split_once(';').expect("keys;payload");
                assert!(keys.starts_with("\x1b_G") && keys.contains("q=2"), "{keys}");
                let last = k + 1 == chunks.len();
                assert!(keys.ends_with(if last { "m=0" } else { "m=1" }), "{keys}");
                assert!(payload.len() <= 4096 && payload.len() % 4 == 0);
            }
        }
    }
    assert_eq!(output::base64(b"Man"), "TWFu");
    assert_eq!(output::base64(b"Ma"), "TWE=");
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(
        output::detect(&env(&[("KITTY_WINDOW_ID", "1")])),
        Some(Protocol::Kitty)
    );
    assert_eq!(
        output::detect(&env(&[("TERM_PROGRAM", "iTerm.app")])),
        Some(Protocol::Iterm)
    );
    assert_eq!(
        output::detect(&env(&[("TERM", "xterm-sixel")])),
        Some(Protocol::Sixel)
    );
    assert_eq!(output::detect(&env(&[("TERM", "xterm-256color")])), None);
    // drawnow shows the figure at once, inside a statement
    let mut interp = Interp::new();
    interp.graphics.borrow_mut().output = Mode::Inline(Protocol::Iterm);
    let o = out_in(&mut interp, "for k = 1:3, plot(1:k); drawnow; end");
    assert_eq!(o.matches("1337;File").count(), 3);
}

#[test]
fn stacked_bars_and_square_axes() {
    let img = render("bar([1 2; 3 4], 'stacked'); ylim([0 8])");
    // x limits [0.4 2.6]: each bar is one column of the two series on top of each other
    let (x1, x2) = (px_x(1.0, 0.4, 2.6), px_x(2.0, 0.4, 2.6));
    assert!(near(img.at(x1, px_y(0.5, 0.0, 8.0)), BLUE, 10));
    assert!(near(img.at(x1, px_y(2.0, 0.0, 8.0)), ORANGE, 10));
    assert!(white(img.at(x1, px_y(3.5, 0.0, 8.0))));
    assert!(near(img.at(x2, px_y(2.0, 0.0, 8.0)), BLUE, 10));
    assert!(near(img.at(x2, px_y(6.0, 0.0, 8.0)), ORANGE, 10));
    assert!(white(img.at(x2, px_y(7.5, 0.0, 8.0))));
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "b = bar([1 2; 3 4], 'stacked'); disp(b(2).YEndPoints); disp(b(1).BarLayout)",
    );
    assert_eq!(o, "     3     7\nstacked\n");
    // axis square: the box's sides are equal (the shorter, 342 px), centred
    let img = render("plot(1:3); axis square");
    let side = Y1 - Y0;
    let left = (X0 + X1) / 2.0 - side / 2.0;
    let dark = |x: f64| (x as usize - 1..x as usize + 2).any(|x| img.at(x as f64, 200.0)[0] < 200);
    assert!(dark(left), "{:?}", img.at(left, 200.0));
    assert!(!dark(left - 4.0) && !dark(X0) && white(img.at(X0 + 2.0, 200.0)));
}

#[test]
fn pie_wedges_run_counterclockwise_from_the_top() {
    // limits ±1.25 on both axes with equal units: radius 1 is 136.9 px about the box's centre
    let img = render("pie([1 1 2])");
    let (cx, cy, r) = ((X0 + X1) / 2.0, (Y0 + Y1) / 2.0, (Y1 - Y0) / 2.5);
    let at = |deg: f64| {
        let t = deg.to_radians();
        img.at(cx + 0.6 * r * t.cos(), cy - 0.6 * r * t.sin())
    };
    // the first quarter from 90° to 180° (parula's first colour), the half on the right
    // (its last); the second quarter between them
    assert!(near(at(135.0), [62, 38, 168], 12), "{:?}", at(135.0));
    assert!(near(at(0.0), [249, 251, 21], 12), "{:?}", at(0.0));
    let middle = at(225.0);
    assert!(
        !white(middle) && !near(middle, [62, 38, 168], 30) && !near(middle, [249, 251, 21], 30)
    );
    assert!(white(img.at(cx + 1.1 * r, cy - 1.1 * r)));
    // axes hidden: no box line at the default box's left edge
    assert!(white(img.at(X0, cy + 0.5 * r)));
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "p = pie([1 1 2]); disp(numel(p)); disp(p(2).String); disp(p(6).String); disp(p(1).Type); \
         q = pie([0.2 0.3]); disp(numel(q)); disp(q(4).String); r = pie([1 2], {'a', 'b'}); disp(r(4).String)",
    );
    assert_eq!(o, "     6\n25%\n50%\npatch\n     4\n30%\nb\n");
    assert!(err("pie([1 -1])").1.contains("nonnegative"));
}

#[test]
fn quiver_arrows_scale_to_the_grid() {
    // one arrow, autoscaled: 0.9 of its length, from (0, 0) to (0.9, 0)
    let img = render("quiver(0, 0, 1, 0, 'LineWidth', 3); axis([-0.5 1.5 -1 1])");
    let y = px_y(0.0, -1.0, 1.0);
    assert!(near(img.at(px_x(0.45, -0.5, 1.5), y), BLUE, 60));
    assert!(white(img.at(px_x(1.2, -0.5, 1.5), y)));
    // scale 0: the given length
    let img = render("quiver(0, 0, 1, 0, 0, 'LineWidth', 3); axis([-0.5 1.5 -1 1])");
    assert!(near(img.at(px_x(0.95, -0.5, 1.5), y), BLUE, 60));
    // a barb of the head above the shaft near the tip, none above its middle
    let up = px_y(0.1, -1.0, 1.0);
    assert!(
        img.count(
            px_x(0.6, -0.5, 1.5) as usize,
            up as usize - 2,
            px_x(1.0, -0.5, 1.5) as usize,
            y as usize - 2,
            |c| near(c, BLUE, 80)
        ) > 5
    );
    assert!(!near(img.at(px_x(0.3, -0.5, 1.5), up), BLUE, 80));
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "[x, y] = meshgrid(1:3, 1:2); q = quiver(x, y, x, -y, 'r'); disp(q.Type); disp(size(q.UData)); disp(q.Color)",
    );
    assert_eq!(o, "quiver\n     2     3\n     1     0     0\n");
}

#[test]
fn scatter3_polarplot_heatmap_and_figure_titles() {
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "s = scatter3([0 1], [0 1], [0 1], 100, 'r', 'filled'); disp(s.ZData); disp(get(gca, 'View'))",
    );
    assert_eq!(o, "     0     1\n  -37.5000   30.0000\n");
    let img = render("scatter3([0 1 0.5], [0 1 0.2], [0 1 0.8], 200, 'r', 'filled')");
    assert!(img.count(0, 0, 560, 420, |c| near(c, [255, 0, 0], 30)) > 150);

    // a red unit circle on the polar grid: outer ring 1, limits ±1.15, equal units
    let img = render("polarplot(linspace(0, 2*pi, 200), ones(1, 200), 'r', 'LineWidth', 3)");
    let (cx, cy, r) = ((X0 + X1) / 2.0, (Y0 + Y1) / 2.0, (Y1 - Y0) / 2.3);
    for deg in [45.0f64, 90.0, 200.0] {
        let t = deg.to_radians();
        let (x, y) = (cx + r * t.cos(), cy - r * t.sin());
        assert!(
            img.count(
                x as usize - 2,
                y as usize - 2,
                x as usize + 3,
                y as usize + 3,
                |c| c[0] > 200 && c[1] < 90
            ) > 0,
            "{deg}°"
        );
    }
    // grid lines (light grey) inside, no axes box
    assert!(
        img.count(
            cx as usize - 3,
            (cy - 0.5 * r) as usize - 3,
            cx as usize + 4,
            (cy - 0.5 * r) as usize + 4,
            |c| c[0] < 240 && c[0] > 150
        ) > 0
    );
    assert!(white(img.at(X0, Y1 - 5.0)));

    // heatmap: row 1 at the top, cells coloured by value, a colorbar on the right
    let img = render("heatmap([1 2; 3 4])");
    let x1 = X1 - 0.09 * 560.0;
    let cell = |r: f64, c: f64| {
        img.at(
            X0 + (c - 0.5) / 2.0 * (x1 - X0) + 30.0,
            Y0 + (r - 0.5) / 2.0 * (Y1 - Y0) + 30.0,
        )
    };
    assert!(
        near(cell(1.0, 1.0), [62, 38, 168], 12),
        "{:?}",
        cell(1.0, 1.0)
    );
    assert!(
        near(cell(2.0, 2.0), [249, 251, 21], 12),
        "{:?}",
        cell(2.0, 2.0)
    );
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "h = heatmap({'a', 'b'}, {'x', 'y', 'z'}, magic(3)(:, 1:2)); h.Title = 'H'; disp(h.Title.String); \
         disp(get(gca, 'XTickLabel')'); disp(get(gca, 'YDir'))",
    );
    assert_eq!(o, "H\n    {'a'}    {'b'}\nreverse\n");

    // a figure title takes a band along the top
    let band = |img: &Image| img.count(200, 0, 360, 18, |c| c[0] < 100);
    assert_eq!(band(&render("subplot(1, 2, 1); plot(1:3)")), 0);
    assert!(band(&render("subplot(1, 2, 1); plot(1:3); sgtitle('Overall')")) > 20);
    assert!(
        band(&render(
            "t = tiledlayout(2, 1); nexttile; plot(1:3); title(t, 'Layout')"
        )) > 20
    );
}

#[test]
fn operators_on_graphics_handles() {
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "h = figure; g = gcf; disp(h == g); disp(h ~= g); disp(isequal(h, gca)); disp(isequal(h, g)); \
         a = plot(1:3); hold on; b = plot(3:-1:1); c = [a b]; disp(size(c)); disp(c == a); \
         d = [a; b; []]; disp(size(d)); disp(isequal(c(2), b)); disp(ishghandle(h)); \
         disp(h == 7); delete(b); disp(isgraphics(c))",
    );
    assert_eq!(
        o,
        "   1\n   0\n   0\n   1\n     1     2\n   1   0\n     2     1\n   1\n   1\n   0\n   1   0\n"
    );
    assert_eq!(
        err("h = plot(1:3); x = [h 5];").0,
        "MATLAB:concatenation:InvalidConversion"
    );
}
