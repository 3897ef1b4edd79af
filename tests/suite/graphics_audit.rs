//! Figures, second part (issue 29's audit): contour matrices, aspect ratios and minor grids,
//! tiled layouts that flow and span with shared labels, thick paths without mitre spikes, and
//! bad input to the graphics functions answered with MATLAB's errors.

use crate::common::{err, out_in};
use matfuse::interp::Interp;
use std::path::PathBuf;

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

fn temp_file(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("matfuse-graphics-audit-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d.join(name)
}

/// Runs `code` in a fresh session, prints the current figure at 96 dpi and decodes it.
fn render(code: &str, name: &str) -> Image {
    let file = temp_file(&format!("{name}.png"));
    let mut interp = Interp::new();
    out_in(&mut interp, code);
    out_in(
        &mut interp,
        &format!("print('-dpng', '-r96', '{}')", file.display()),
    );
    let f = std::fs::File::open(&file).expect("png written");
    let mut reader = png::Decoder::new(std::io::BufReader::new(f))
        .read_info()
        .expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png data");
    buf.truncate(info.buffer_size());
    let _ = std::fs::remove_file(&file);
    Image {
        w: info.width as usize,
        h: info.height as usize,
        px: buf,
    }
}

// The default plot box at 560×420 (see tests/suite/graphics.rs).
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
fn white(c: [u8; 3]) -> bool {
    c.iter().all(|v| *v >= 252)
}

#[test]
fn contour_returns_matlabs_contour_matrix() {
    let mut interp = Interp::new();
    // z grows with x: the level 0.5 is the line x = 1.5, one polyline through the grid's
    // three edges it crosses (the two rows and the cell's diagonal)
    let o = out_in(
        &mut interp,
        "M = contour([0 1; 0 1], [0.5 0.5]); disp(size(M)); disp(M(:, 1)'); \
         disp(all(M(1, 2:end) == 1.5)); disp(sort(M(2, 2:end)))",
    );
    assert_eq!(
        o,
        "     2     4\n    0.5000    3.0000\n   1\n    1.0000    1.5000    2.0000\n"
    );
    // [M, c]: the matrix and the Contour object; a closed line ends where it starts
    let o = out_in(
        &mut interp,
        "[M, c] = contourf(peaks(20), [2 2]); disp(class(c)); disp(c.LevelList); \
         k = 1; closed = 0; lines = 0; \
         while k < size(M, 2), n = M(2, k); p = M(:, k+1:k+n); lines = lines + 1; \
         closed = closed + isequal(p(:, 1), p(:, end)); k = k + n + 1; end; \
         disp(k == size(M, 2) + 1); disp(lines >= 1 && closed == lines); disp(all(M(1, 1) == 2))",
    );
    assert_eq!(
        o,
        "matlab.graphics.chart.primitive.Contour\n     2\n   1\n   1\n   1\n"
    );
    // every line's points lie on the level (bilinear on the triangles: exact at the points)
    let o = out_in(
        &mut interp,
        "[X, Y] = meshgrid(-2:0.25:2); Z = X.^2 + Y.^2; M = contour(X, Y, Z, [1 1]); \
         p = M(:, 2:end); disp(max(abs(sum(p.^2) - 1)) < 0.05); disp(M(2, 1) == size(M, 2) - 1)",
    );
    assert_eq!(o, "   1\n   1\n");
}

#[test]
fn aspect_ratios_and_minor_grids() {
    let mut interp = Interp::new();
    let o = out_in(
        &mut interp,
        "plot(1:3); disp(get(gca, 'DataAspectRatioMode')); axis equal; \
         disp(get(gca, 'DataAspectRatio')); disp(get(gca, 'DataAspectRatioMode')); \
         set(gca, 'DataAspectRatio', [1 2 1]); ax = gca; disp(ax.DataAspectRatio); \
         grid minor; disp(get(gca, 'XMinorGrid')); grid minor; disp(get(gca, 'YMinorGrid')); \
         grid minor; grid off; disp(get(gca, 'XMinorGrid')); axis square; disp(get(gca, 'PlotBoxAspectRatio'))",
    );
    assert_eq!(
        o,
        "auto\n     1     1     1\nmanual\n     1     2     1\non\noff\noff\n     1     1     1\n"
    );
    let (id, _) = err("plot(1:3); set(gca, 'DataAspectRatio', [1 0 1])");
    assert_eq!(id, "MATLAB:datatypes:InvalidValue");
    // a data aspect ratio of [1 2 1]: two x units as long as one y unit... y twice x's
    // scale: x [0 4], y [0 1] in a box 4 units by 2 units wide
    // one x unit as long as half a y unit: a red outline of x [0 4] and y [0 1] is twice as
    // wide as tall
    let img = render(
        "plot([0 4 4 0 0], [0 0 1 1 0], 'r', 'LineWidth', 2); axis([-0.5 4.5 -0.125 1.125]); \
         set(gca, 'DataAspectRatio', [1 0.5 1])",
        "dar",
    );
    let red = |c: [u8; 3]| c[0] > 200 && c[1] < 90 && c[2] < 90;
    let (mut l, mut r, mut t, mut b) = (usize::MAX, 0, usize::MAX, 0);
    for y in 0..img.h {
        for x in 0..img.w {
            if red(img.at(x as f64, y as f64)) {
                (l, r, t, b) = (l.min(x), r.max(x), t.min(y), b.max(y));
            }
        }
    }
    let ratio = (r - l) as f64 / (b - t) as f64;
    assert!((ratio - 2.0).abs() < 0.06, "box {l}..{r} x {t}..{b}");
    // grid minor: light lines between the major ticks (0, 1, ..., 10: fifths)
    let plain = render(
        "plot([0 10], [0 1], 'w'); axis([0 10 0 1]); xticks(0:10)",
        "nominor",
    );
    let minor = render(
        "plot([0 10], [0 1], 'w'); axis([0 10 0 1]); xticks(0:10); grid minor; set(gca, 'YMinorGrid', 'off')",
        "minor",
    );
    let x = px_x(4.4, 0.0, 10.0);
    let y = px_y(0.5, 0.0, 1.0);
    // (dotted: look along a stretch of the column)
    let line_at = |img: &Image| {
        img.count(
            x as usize - 1,
            y as usize - 10,
            x as usize + 2,
            y as usize + 10,
            |c| !white(c),
        ) > 0
    };
    assert!(!line_at(&plain));
    assert!(line_at(&minor));
    // halfway between two minor lines stays white
    let xm = px_x(4.5, 0.0, 10.0) as usize;
    assert_eq!(
        minor.count(xm, y as usize - 10, xm + 1, y as usize + 10, |c| !white(c)),
        0
    );
}

#[test]
fn tiled_layouts_flow_span_and_share_labels() {
    let mut interp = Interp::new();
    // a flow layout grows: five tiles make two rows of three
    let o = out_in(
        &mut interp,
        "t = tiledlayout('flow'); for k = 1:5, nexttile; plot(1:k); end; \
         ch = get(gcf, 'Children'); p = cell2mat(get(ch, 'Position')); disp(numel(ch)); \
         disp(numel(unique(round(p(:, 2) * 1000)))); disp(numel(unique(round(p(:, 1) * 1000))))",
    );
    assert_eq!(o, "     5\n     2\n     3\n");
    // a span of two columns is as wide as two tiles and the gap between them
    let o = out_in(
        &mut interp,
        "figure; tiledlayout(2, 2, 'TileSpacing', 'compact'); a = nexttile([1 2]); b = nexttile(3); c = nexttile; \
         pa = a.Position; pb = b.Position; pc = c.Position; \
         disp(abs(pa(1) - pb(1)) < 1e-9 && abs(pa(1) + pa(3) - pc(1) - pc(3)) < 1e-9); \
         disp(pa(2) > pb(2))",
    );
    assert_eq!(o, "   1\n   1\n");
    // vertical: one column
    let o = out_in(
        &mut interp,
        "figure; tiledlayout('vertical'); a = nexttile; b = nexttile; disp(a.Position(1) == b.Position(1) && a.Position(2) > b.Position(2))",
    );
    assert_eq!(o, "   1\n");
    // the layout's title and shared labels draw in bands along the top, bottom and left
    let dark = |c: [u8; 3]| c[0] < 128;
    let bare = render(
        "t = tiledlayout(1, 2); nexttile; plot(1:3); nexttile; plot(3:-1:1)",
        "bare",
    );
    let labelled = render(
        "t = tiledlayout(1, 2); nexttile; plot(1:3); nexttile; plot(3:-1:1); \
         title(t, 'Both'); xlabel(t, 'Shared x'); ylabel(t, 'Shared y')",
        "labelled",
    );
    let bottom = |img: &Image| img.count(200, 400, 360, 420, dark);
    let left = |img: &Image| img.count(0, 140, 14, 280, dark);
    let top = |img: &Image| img.count(240, 0, 320, 14, dark);
    assert_eq!(bottom(&bare), 0);
    assert!(bottom(&labelled) > 15, "{}", bottom(&labelled));
    assert_eq!(left(&bare), 0);
    assert!(left(&labelled) > 15, "{}", left(&labelled));
    assert!(top(&labelled) > 15, "{}", top(&labelled));
    // errors
    let (id, _) = err("tiledlayout(2, 2); nexttile(5)");
    assert_eq!(id, "MATLAB:nexttile:invalidInput");
    let (id, _) = err("tiledlayout(2, 2); nexttile(2, [1 2])");
    assert_eq!(id, "MATLAB:nexttile:invalidInput");
    let (id, _) = err("tiledlayout(2, 2, 'TileSpacing', 'huge')");
    assert_eq!(id, "MATLAB:tiledlayout:InvalidNameValue");
    let (id, _) = err("tiledlayout(2, 2, 'Bogus', 1)");
    assert_eq!(id, "MATLAB:tiledlayout:InvalidNameValue");
    let (id, _) = err("tiledlayout('diagonal')");
    assert_eq!(id, "MATLAB:tiledlayout:InvalidNameValue");
}

#[test]
fn thick_paths_turning_back_draw_no_spikes() {
    // a line that turns back on itself at a sharp angle: plotters' mitre join would reach
    // far beyond the turn; nothing may be drawn outside the line's own neighbourhood
    let img = render(
        "plot([0 1 0], [0 0 0.01], 'LineWidth', 6); axis([-1 2 -1 1])",
        "turn",
    );
    let coloured = |c: [u8; 3]| c[2] > 120 && c[0] < 100;
    let (x0, x1) = (px_x(-0.05, -1.0, 2.0), px_x(1.05, -1.0, 2.0));
    let (ya, yb) = (px_y(0.08, -1.0, 1.0), px_y(-0.08, -1.0, 1.0));
    let inside = img.count(x0 as usize, ya as usize, x1 as usize, yb as usize, coloured);
    let all = img.count(0, 0, img.w, img.h, coloured);
    assert!(inside > 500, "{inside}");
    assert_eq!(all, inside, "pixels drawn away from the line");
    // a surface's faces (thin slivers in the default view) leave nothing dark in the empty
    // upper right of the box, where spikes from the peak's edges reached before
    let img = render("surf(peaks(30))", "surf");
    let stray = img.count(340, 35, 420, 75, |c| c[0] < 60 && c[1] < 60 && c[2] < 60);
    assert_eq!(stray, 0);
}

#[test]
fn bad_graphics_input_is_a_matlab_error() {
    let cases: &[(&str, &str)] = &[
        ("plot('abc')", "MATLAB:plot:invalidData"),
        ("plot(1:3, 'q')", "MATLAB:plot:invalidInput"),
        ("plot(1:3, 'LineWidth')", "MATLAB:plot:invalidInput"),
        ("h = plot(1:3); h.Nope = 1;", "MATLAB:hg:InvalidProperty"),
        (
            "h = plot(1:3); delete(h); h.Color",
            "MATLAB:class:InvalidHandle",
        ),
        (
            "figure(2); close(2); set(2, 'Color', 'r')",
            "MATLAB:hg:dt_conv:Matrix_to_HObject:BadHandle",
        ),
        ("close(42)", "MATLAB:hg:dt_conv:Matrix_to_HObject:BadHandle"),
        ("figure(-1)", "MATLAB:figure:invalidInput"),
        ("figure(1.5)", "MATLAB:figure:invalidInput"),
        ("subplot(0, 1, 1)", "MATLAB:subplot:invalidInput"),
        ("bar({1})", "MATLAB:bar:invalidData"),
        ("histogram(1:10, -2)", "MATLAB:datatypes:InvalidValue"),
        (
            "histogram(1:10, 'Normalization', 'nope')",
            "MATLAB:datatypes:InvalidValue",
        ),
        ("imagesc('abc')", "MATLAB:imagesc:invalidInput"),
        ("contour(1:3)", "MATLAB:contour:invalidInput"),
        ("surf(1)", "MATLAB:surf:invalidInput"),
        ("colormap('nosuchmap')", "MATLAB:colormap:InvalidInputType"),
        ("colormap(ones(3, 2))", "MATLAB:colormap:InvalidInputType"),
        ("axis('sideways')", "MATLAB:axis:invalidInput"),
        ("xlim([1 1])", "MATLAB:datatypes:InvalidValue"),
        ("xlim('abc')", "MATLAB:xlim:invalidInput"),
        ("xticks([3 1 2])", "MATLAB:xtick:invalidInput"),
        ("legend(1:3)", "MATLAB:hg:set:OddNumberOfArguments"),
        ("plot(1:3); print -dpng", "MATLAB:print:invalidInput"),
        (
            "plot(1:3); exportgraphics(gcf, 'x.png', 'Resolution', -5)",
            "MATLAB:print:invalidInput",
        ),
        (
            "saveas(99, 'x.png')",
            "MATLAB:hg:dt_conv:Matrix_to_HObject:BadHandle",
        ),
        ("get(gca, 5)", "MATLAB:get:invalidInput"),
        ("set(gca, 'XLim')", "MATLAB:hg:set:OddNumberOfArguments"),
        ("text(1, 'a')", "MATLAB:minrhs"),
        ("fill([0 1], [0 1 2], 'r')", "MATLAB:fill:invalidInput"),
    ];
    let mut wrong = Vec::new();
    for (code, want) in cases {
        let (id, _) = err(code);
        if id != *want {
            wrong.push(format!("{code}: {id} (want {want})"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_rest_of_the_issues_list() {
    let mut interp = Interp::new();
    // colormaps by name as MATLAB builds them; clf empties the figure; axis tight; semilogx;
    // image maps values directly to colormap rows
    let o = out_in(
        &mut interp,
        "c = jet(256); disp(c([1 256], :)); c = jet(64); disp(c(1, :)); c = colormap(viridis); disp(size(c)); \
         c = gray(3); disp(c(:, 1)'); \
         plot([2 5], [3 4]); axis tight; disp([xlim ylim]); \
         plot(1:3); clf; disp(numel(get(gcf, 'Children'))); \
         semilogx(1:3); disp(get(gca, 'XScale')); im = image([1 256]); disp(im.CDataMapping)",
    );
    assert_eq!(
        o,
        "         0         0    0.5156\n    0.5000         0         0\n         0         0    0.5625\n   256     3\n         0    0.5000    1.0000\n     2     5     3     4\n     0\nlog\ndirect\n"
    );
    // image(C): value 1 is the colormap's first row, 256 its last
    let img = render("image([1 256]); axis off", "image");
    let left = img.at(150.0, 200.0);
    let right = img.at(420.0, 200.0);
    let near = |c: [u8; 3], w: [u8; 3]| (0..3).all(|k| (c[k] as i32 - w[k] as i32).abs() <= 12);
    assert!(near(left, [62, 38, 168]), "{left:?}");
    assert!(near(right, [249, 251, 21]), "{right:?}");
    // semilogx: 10 lies halfway between 1 and 100
    let img = render(
        "semilogx([10 10], [0 1], 'LineWidth', 3); axis([1 100 0 1])",
        "semilogx",
    );
    let c = img.at(px_x(0.5, 0.0, 1.0), px_y(0.5, 0.0, 1.0));
    assert!(c[2] > 150 && c[0] < 80, "{c:?}");
    // a gpuArray is gathered when plotted: the line holds host doubles
    let o = out_in(
        &mut interp,
        "g = gpuArray([1 2 3]); h = plot(g, 2 * g); disp(class(h.YData)); disp(h.YData)",
    );
    assert_eq!(o, "double\n     2     4     6\n");
}

/// The command-line program as a script or pipe runs it: MATFUSE_FIGURES picks where
/// figures go, MATFUSE_FIGURES_DIR the folder, and each figure's path is printed once.
#[test]
fn matfuse_figures_chooses_where_figures_appear() {
    let dir = temp_file("cli-figures");
    let _ = std::fs::remove_dir_all(&dir);
    let run = |mode: &str, input: &str| -> String {
        use std::io::Write;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_matfuse"))
            .env("MATFUSE_FIGURES", mode)
            .env("MATFUSE_FIGURES_DIR", &dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("matfuse runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("input written");
        let out = child.wait_with_output().expect("matfuse ends");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let o = run("file", "plot(1:3)\ntitle('a')\nfigure; bar(1:3)\n");
    let f1 = dir.join("figure-1.png");
    let f2 = dir.join("figure-2.png");
    assert_eq!(o.matches("Figure 1: ").count(), 1, "{o}");
    assert_eq!(o.matches("Figure 2: ").count(), 1, "{o}");
    assert!(f1.is_file() && f2.is_file());
    let _ = std::fs::remove_dir_all(&dir);
    let o = run("none", "plot(1:3)\n");
    assert!(!o.contains("Figure 1"), "{o}");
    assert!(!dir.join("figure-1.png").exists());
    // inline protocols: piped input runs as a script, whose changed figures are shown once
    // at its end, and at each drawnow
    let o = run("kitty", "plot(1:3); title('x')\nx = 1;\nxlabel('y')\n");
    assert_eq!(o.matches("\x1b_Gf=100,a=T").count(), 1);
    let o = run("kitty", "plot(1:3); drawnow\nxlabel('y')\n");
    assert_eq!(o.matches("\x1b_Gf=100,a=T").count(), 2);
    let o = run("iterm", "plot(1:3)\n");
    assert_eq!(o.matches("\x1b]1337;File=").count(), 1);
    let o = run("sixel", "plot(1:3)\n");
    assert_eq!(o.matches("\x1bP").count(), 1);
}
