//! The Fourier transforms, fftshift and conv against GNU Octave (FFTW): each case runs in
//! matfuse and in Octave, and the results must agree in size and class, and in value to
//! rounding. Octave is needed: under CI=true a missing one fails the test (.ci/run installs it).

use crate::common::*;
use std::process::Command;

/// Inputs both sides build the same way (no random numbers).
const PRELUDE: &str = "x = sin((1:97)' * 0.37) + cos((1:97)'.^1.3 / 7); \
r = x(1:12)'; \
M = reshape(sin(1:60) .* (1:60), 6, 10); \
N3 = reshape(cos((1:60) * 0.3), 3, 4, 5); \
z = x(1:16) + 1i * cos((1:16)' * 0.9); \
s = single(x(1:8)); \
E = zeros(0, 3); \
a = sin((1:3000) * 0.01) + 0.1 * cos((1:3000) * 0.7); \
bb = cos((1:500) * 0.02); \
Y = fft(x(1:8)); Y(7) = Y(7) + 0.5i; \
Y9 = fft(x(1:9)); Y9(3) = Y9(3) - 0.25i; ";

/// (matfuse expression, Octave expression for the same value, tolerance relative to the
/// largest magnitude of the result; 0: identical).
const CASES: &[(&str, &str, f64)] = &[
    ("fft(x)", "", 1e-13),
    ("fft(r)", "", 1e-13),
    ("fft(M)", "", 1e-13),
    ("fft(M, 4)", "", 1e-13),
    ("fft(M, 9)", "", 1e-13),
    ("fft(M, [], 2)", "", 1e-13),
    ("fft(M, 7, 2)", "", 1e-13),
    ("fft(N3)", "", 1e-13),
    ("fft(N3, [], 3)", "", 1e-13),
    ("fft(N3, 5, 2)", "", 1e-13),
    ("fft(z)", "", 1e-13),
    ("fft(x(1:64))", "", 1e-13),
    ("fft([x; x; x; x; x; x; x; x; x; x; x])", "", 1e-13),
    ("fft(1)", "", 0.0),
    ("fft([1 1])", "", 0.0),
    ("fft(E)", "", 0.0),
    ("fft(int8([1 2 3 4]))", "fft(double([1 2 3 4]))", 1e-15),
    ("fft(M > 0)", "fft(double(M > 0))", 1e-13),
    ("ifft(z)", "", 1e-13),
    // MATLAB's ifft is real for a conjugate-symmetric input (Octave's keeps a zero imaginary
    // part here)
    ("ifft(fft(x))", "real(ifft(fft(x)))", 1e-13),
    ("ifft(fft(M, [], 2), [], 2)", "", 1e-13),
    ("ifft(M)", "", 1e-13),
    ("ifft(M, 8, 2)", "", 1e-13),
    ("fft2(M)", "", 1e-13),
    ("fft2(M, 8, 12)", "", 1e-13),
    ("fft2(M, 3, 4)", "", 1e-13),
    ("ifft2(fft2(M))", "", 1e-13),
    ("fft2(N3)", "", 1e-13),
    ("ifft2(N3)", "", 1e-13),
    ("fftn(N3)", "", 1e-13),
    ("ifftn(fftn(N3))", "", 1e-13),
    ("fftn(M, [4 5])", "", 1e-13),
    ("ifftn(z)", "", 1e-13),
    ("fft(s)", "", 1e-6),
    ("ifft(fft(s))", "", 1e-6),
    ("fft2(single(M))", "", 1e-6),
    // 'symmetric' uses the first half along the dimension (Octave lacks the option: the
    // expected value is written out)
    (
        "ifft(Y, 'symmetric')",
        "real(ifft([Y(1:5); conj(Y(4:-1:2))]))",
        1e-13,
    ),
    (
        "ifft(Y9, 'symmetric')",
        "real(ifft([Y9(1:5); conj(Y9(5:-1:2))]))",
        1e-13,
    ),
    (
        "ifft(Y, 8, 1, 'symmetric')",
        "real(ifft([Y(1:5); conj(Y(4:-1:2))]))",
        1e-13,
    ),
    ("ifft(fft(x), 'symmetric')", "real(ifft(fft(x)))", 1e-13),
    ("fftshift(r)", "", 0.0),
    ("fftshift(x')", "", 0.0),
    ("fftshift(M)", "", 0.0),
    ("ifftshift(M)", "", 0.0),
    ("fftshift(M, 2)", "", 0.0),
    ("ifftshift(M, 1)", "", 0.0),
    ("ifftshift(1:7)", "", 0.0),
    ("fftshift(N3)", "", 0.0),
    ("ifftshift(fftshift(N3))", "", 0.0),
    ("conv(r, [1 2 3])", "", 1e-15),
    ("conv(x, r')", "", 1e-15),
    ("conv(r, x)", "", 1e-15),
    ("conv(2, [1; 2])", "", 0.0),
    ("conv(r, x, 'same')", "", 1e-15),
    ("conv(x, r, 'same')", "", 1e-15),
    ("conv(r, [1 1], 'same')", "", 1e-15),
    ("conv(x, r, 'valid')", "", 1e-15),
    ("conv(r, x, 'valid')", "", 0.0),
    ("conv(z, x(1:5))", "", 1e-15),
    ("conv(z, x(1:5), 'same')", "", 1e-15),
    // long signals: by transforms
    ("conv(a, bb)", "", 1e-13),
    ("conv(a, bb, 'same')", "", 1e-13),
    ("conv(a', bb, 'valid')", "", 1e-13),
    ("conv(a + 1i * a(end:-1:1), bb)", "", 1e-13),
    ("conv(round(a * 100), round(bb * 100))", "", 0.0),
    // (computed in double and rounded once; Octave sums in single)
    ("conv(single(a), single(bb))", "", 1e-5),
    ("filter([1 2 1] / 4, [1 -0.5], a)", "", 1e-13),
    ("filter([1 2 1] / 4, 1, M)", "", 1e-13),
];

fn octave() -> Option<String> {
    for c in ["octave-cli", "octave"] {
        let ok = Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(c.to_string());
        }
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("GNU Octave is needed for this test under CI=true (.ci/run installs it)");
    }
    eprintln!("skipped: GNU Octave is not installed");
    None
}

/// The script that prints each case: its size, class and realness, then its values.
fn script(octave: bool) -> String {
    let mut s = String::from(PRELUDE);
    for (k, (mine, theirs, _)) in CASES.iter().enumerate() {
        let e = if octave && !theirs.is_empty() {
            theirs
        } else {
            mine
        };
        s.push_str(&format!(
            "res = {e}; fprintf('CASE {k}\\n'); fprintf('%d ', size(res)); \
             fprintf('\\n%s %d\\n', class(res), isreal(res)); \
             fprintf('%.17g\\n', double(real(res(:)))); fprintf('IMAG\\n'); \
             fprintf('%.17g\\n', double(imag(res(:))));\n"
        ));
    }
    s
}

struct Case {
    head: Vec<String>,
    re: Vec<f64>,
    im: Vec<f64>,
}

fn parse(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for block in text.split("CASE ").skip(1) {
        let mut lines = block.lines().skip(1);
        let size = lines.next().unwrap_or("").trim().to_string();
        let class = lines.next().unwrap_or("").trim().to_string();
        let (mut re, mut im, mut imag) = (Vec::new(), Vec::new(), false);
        for l in lines {
            if l.trim().is_empty() {
                continue;
            }
            if l == "IMAG" {
                imag = true;
                continue;
            }
            let v: f64 = match l.trim() {
                "Inf" => f64::INFINITY,
                "-Inf" => f64::NEG_INFINITY,
                "NaN" => f64::NAN,
                t => t.parse().unwrap_or_else(|_| panic!("not a number: {l}")),
            };
            if imag { im.push(v) } else { re.push(v) }
        }
        cases.push(Case {
            head: vec![size, class],
            re,
            im,
        });
    }
    cases
}

#[test]
fn transforms_and_convolutions_match_octave() {
    let Some(oct) = octave() else { return };
    let dir = std::env::temp_dir().join(format!("matfuse_fft_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cases.m");
    std::fs::write(&file, script(true)).unwrap();
    let o = Command::new(&oct)
        .args(["--no-gui", "--norc", "--quiet"])
        .arg(&file)
        .output()
        .expect("octave runs");
    let theirs = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "octave failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mine = out(&script(false));
    let (a, b) = (parse(&mine), parse(&theirs));
    assert_eq!(a.len(), CASES.len(), "matfuse printed:\n{mine}");
    assert_eq!(b.len(), CASES.len(), "octave printed:\n{theirs}");
    let mut failures = Vec::new();
    for (k, ((m, t), (expr, _, tol))) in a.iter().zip(&b).zip(CASES).enumerate() {
        if m.head != t.head {
            failures.push(format!(
                "case {k} {expr}: matfuse {:?}, octave {:?}",
                m.head, t.head
            ));
            continue;
        }
        let scale = t.re.iter().chain(&t.im).fold(1.0f64, |s, v| s.max(v.abs()));
        let worst =
            m.re.iter()
                .zip(&t.re)
                .chain(m.im.iter().zip(&t.im))
                .fold(0.0f64, |w, (p, q)| {
                    if p == q || (p.is_nan() && q.is_nan()) {
                        w
                    } else {
                        w.max((p - q).abs() / scale)
                    }
                });
        if m.re.len() != t.re.len() || !(worst <= *tol) {
            failures.push(format!(
                "case {k} {expr}: differs by {worst:e} (tolerance {tol:e}) relative to {scale}"
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn results_display_as_matlab_shows_them() {
    check_all(&[
        (
            "y = fft([1 2 3 4])",
            "\ny =\n\n  10.0000 + 0.0000i  -2.0000 + 2.0000i  -2.0000 + 0.0000i  -2.0000 - 2.0000i\n\n",
        ),
        ("y = fft([1 1])", "\ny =\n\n     2     0\n\n"),
        (
            "y = fftshift(1:5)",
            "\ny =\n\n     4     5     1     2     3\n\n",
        ),
        (
            "y = ifftshift(1:5)",
            "\ny =\n\n     3     4     5     1     2\n\n",
        ),
        (
            "y = conv([1 2 3], [1 1])",
            "\ny =\n\n     1     3     5     3\n\n",
        ),
    ]);
}

#[test]
fn lengths_classes_and_edges() {
    // n = 0 and empties keep their other dimensions
    assert_eq!(out("disp(size(fft(1:5, 0)))"), "     1     0\n");
    assert_eq!(out("disp(size(fft(zeros(0, 3))))"), "     0     3\n");
    assert_eq!(out("disp(size(fft([], 4)))"), "     4     0\n");
    assert_eq!(
        out("disp(size(fft(ones(2, 3), 5, 3)))"),
        "     2     3     5\n"
    );
    // single stays single, integers and logicals come out double
    assert_eq!(out("disp(class(fft(single(1:5))))"), "single\n");
    assert_eq!(
        out("disp(class(ifft(single(1:4), 'symmetric')))"),
        "single\n"
    );
    assert_eq!(out("disp(class(fft(uint8(1:5))))"), "double\n");
    assert_eq!(out("disp(class(conv(single(1:3), 1:2)))"), "single\n");
    // a conjugate-symmetric spectrum inverts to a real signal, of any length
    for n in [1, 2, 7, 8, 97, 1000, 4096] {
        let code = format!(
            "x = sin((1:{n}) * 0.3); y = ifft(fft(x)); fprintf('%d %d\\n', isreal(y), max(abs(y - x)) < 1e-12)"
        );
        assert_eq!(out(&code), "1 1\n", "n = {n}");
    }
    // a filter applied as a product with a symmetric mask stays real
    assert_eq!(
        out(
            "x = cos((1:64) * 0.2); H = double(abs(fftshift(-32:31)) < 8); \
             y = ifft(fft(x) .* H); fprintf('%d\\n', isreal(y))"
        ),
        "1\n"
    );
    // Parseval's theorem on a prime length (Bluestein) and a large one
    for n in [10007, 1 << 20] {
        let code = format!(
            "x = cos((1:{n})' * 0.01) .* (1:{n})' / {n}; \
             fprintf('%d\\n', abs(sum(abs(fft(x)).^2) / {n} - sum(x.^2)) / sum(x.^2) < 1e-12)"
        );
        assert_eq!(out(&code), "1\n", "n = {n}");
    }
    // convolution by transforms of whole numbers is exact
    assert_eq!(
        out(
            "a = mod((1:5000) * 7, 13) - 6; b = mod((1:700) * 5, 11) - 5; \
             w = conv(a, b); v = zeros(1, 5699); \
             for k = 1:700, v(k:k+4999) = v(k:k+4999) + b(k) * a; end; fprintf('%d\\n', isequal(w, v))"
        ),
        "1\n"
    );
    // Inf and NaN stay where they belong
    assert_eq!(
        out("a = ones(1, 3000); a(5) = NaN; w = conv(a, ones(1, 200)); \
             disp([sum(isnan(w)) isnan(w(1)) isnan(w(204))])"),
        "   200     0     1\n"
    );
}

#[test]
fn bad_input_is_refused() {
    assert_eq!(err("fft(1:4, -1)").0, "MATLAB:fft:invalidLength");
    assert_eq!(err("fft(1:4, 2.5)").0, "MATLAB:fft:invalidLength");
    assert_eq!(
        err("fft(1:4, 4, 0)").0,
        "MATLAB:getdimarg:dimensionMustBePositiveInteger"
    );
    assert_eq!(err("ifft(1:4, 'bogus')").0, "MATLAB:ifft:invalidOption");
    assert_eq!(err("fft('abc')").0, "MATLAB:fft:invalidInputType");
    assert_eq!(err("fft({1})").0, "MATLAB:invalidType");
    assert_eq!(err("fftn(ones(2,2,2), [2 2])").0, "MATLAB:fftn:invalidSize");
    assert_eq!(err("conv(ones(2), 1:3)").0, "MATLAB:conv:AorBNotVector");
    assert_eq!(
        err("conv(1:3, 1:3, 'middle')").0,
        "MATLAB:conv:unknownShapeParameter"
    );
}
