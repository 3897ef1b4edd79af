//! Discrete Fourier transforms on the device, on split complex data (a buffer of real parts
//! and one of imaginary parts): lanes of an array along any dimension are copied into
//! contiguous work lanes (zero-padded or truncated to the transform length, `fft_pack.wgsl`),
//! transformed by Stockham passes in natural order, radix 4 (`fft_pass4.wgsl`) after at most
//! one radix-2 pass (`fft_pass.wgsl`), a dispatch a pass, and written back where the result
//! keeps them (`fft_unpack.wgsl`; a transform of contiguous lanes ends in its last pass
//! instead). Lengths that are not powers of two go through Bluestein's chirp-z form: a
//! circular convolution of length m >= 2n - 1 done by two power-of-two transforms and a
//! pointwise product (`fft_mul.wgsl`). Twiddles, chirps and the transformed chirp filter are
//! computed in f64 on the host (chirp angles from k^2 mod 2n, exact) and uploaded once per
//! length and precision.

use super::buffers::{self, DeviceBuffer};
use super::device::Gpu;
use super::launch;
use crate::graph::Precision;
use crate::interp::error::MResult;
use num_complex::Complex64;
use std::cell::RefCell;
use std::f64::consts::PI;
use std::rc::Rc;

const PACK: &str = include_str!("../../shaders/fft_pack.wgsl");
const PASS: &str = include_str!("../../shaders/fft_pass.wgsl");
const PASS4: &str = include_str!("../../shaders/fft_pass4.wgsl");
const MUL: &str = include_str!("../../shaders/fft_mul.wgsl");
const UNPACK: &str = include_str!("../../shaders/fft_unpack.wgsl");

/// Lanes of an array along one dimension: `len` elements `inner` apart, `outer` blocks.
#[derive(Clone, Copy, Debug)]
pub struct Lanes {
    pub inner: usize,
    pub len: usize,
    pub outer: usize,
}

/// One transform: the input's parts (no imaginary part: real), its lanes, the transform
/// length `n` (the input padded with zeros or truncated to it), the direction, and whether
/// the input is taken as conjugate symmetric (`ifft(..., 'symmetric')`: only the real part
/// of the result is wanted).
pub struct Job<'a> {
    pub re: &'a DeviceBuffer,
    pub im: Option<&'a DeviceBuffer>,
    pub lanes: Lanes,
    pub n: usize,
    pub inverse: bool,
    pub symmetric: bool,
}

/// The work length a transform of `n` points runs at: n itself for a power of two, else the
/// Bluestein convolution's length.
pub fn work_length(n: usize) -> usize {
    if n.is_power_of_two() {
        n
    } else {
        (2 * n - 1).next_power_of_two()
    }
}

/// Whether a transform of this size fits the kernels: positions within u32 and each buffer
/// one binding.
pub fn fits(g: &Gpu, lanes: Lanes, n: usize, p: Precision) -> bool {
    if n == 0 || lanes.inner == 0 || lanes.outer == 0 || lanes.len == 0 {
        return false;
    }
    let limit = (u32::MAX / 4) as usize;
    let count = lanes.inner.checked_mul(lanes.outer);
    let work = count.and_then(|c| c.checked_mul(work_length(n)));
    let input = count.and_then(|c| c.checked_mul(lanes.len));
    match (work, input) {
        (Some(w), Some(i)) => {
            w < limit
                && i < limit
                && 2 * n < limit
                && (w.max(i) * p.bytes()) as u64 <= super::kernels::binding_limit(g)
        }
        _ => false,
    }
}

/// The tables a transform reads, cached on the device per length and precision.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Table {
    /// cos(2 pi t / m) then sin(2 pi t / m), t < m / 2.
    Twiddle { m: usize },
    /// Bluestein's input chirp exp(-+ i pi k^2 / n), k < n (re, then im).
    Chirp { n: usize, inverse: bool },
    /// The output chirp times the scale: exp(-+ i pi k^2 / n) / m (/ n for an inverse).
    OutChirp { n: usize, inverse: bool },
    /// The transform (length m) of the conjugate chirp laid out circularly.
    Filter { n: usize, inverse: bool },
}

/// Tables kept at most (a few lengths in use at once).
const TABLES_KEPT: usize = 24;

thread_local! {
    static TABLES: RefCell<Vec<((Table, Precision), Rc<DeviceBuffer>)>> =
        const { RefCell::new(Vec::new()) };
}

/// exp(sign * i * pi * k^2 / n), the angle reduced exactly (k^2 mod 2n) before it is formed.
fn chirp(k: usize, n: usize, sign: f64) -> Complex64 {
    let r = ((k as u128 * k as u128) % (2 * n as u128)) as f64;
    let a = PI * r / n as f64;
    Complex64::new(a.cos(), sign * a.sin())
}

fn table_values(t: Table) -> Vec<f64> {
    match t {
        Table::Twiddle { m } => {
            let half = m / 2;
            let mut v = vec![0.0; 2 * half.max(1)];
            for k in 0..half {
                // exact at the quarter points: sin and cos of 2 pi k / m
                let a = 2.0 * PI * k as f64 / m as f64;
                let (s, c) = if 4 * k == m { (1.0, 0.0) } else { a.sin_cos() };
                v[k] = c;
                v[half + k] = s;
            }
            v
        }
        Table::Chirp { n, inverse } | Table::OutChirp { n, inverse } => {
            let sign = if inverse { 1.0 } else { -1.0 };
            let scale = match t {
                Table::OutChirp { .. } => {
                    let m = work_length(n) as f64;
                    if inverse {
                        1.0 / (m * n as f64)
                    } else {
                        1.0 / m
                    }
                }
                _ => 1.0,
            };
            let z: Vec<Complex64> = (0..n).map(|k| chirp(k, n, sign) * scale).collect();
            z.iter()
                .map(|c| c.re)
                .chain(z.iter().map(|c| c.im))
                .collect()
        }
        Table::Filter { n, inverse } => {
            let m = work_length(n);
            let sign = if inverse { -1.0 } else { 1.0 };
            let mut b = vec![Complex64::new(0.0, 0.0); m];
            for k in 0..n {
                let w = chirp(k, n, sign);
                b[k] = w;
                if k > 0 {
                    b[m - k] = w;
                }
            }
            let plan = rustfft::FftPlanner::<f64>::new().plan_fft_forward(m);
            plan.process(&mut b);
            b.iter()
                .map(|c| c.re)
                .chain(b.iter().map(|c| c.im))
                .collect()
        }
    }
}

fn table(g: &Gpu, t: Table, p: Precision) -> MResult<Rc<DeviceBuffer>> {
    let hit = TABLES.with(|c| {
        c.borrow()
            .iter()
            .find(|(k, _)| *k == (t, p))
            .map(|(_, b)| b.clone())
    });
    if let Some(b) = hit.filter(|b| b.exists()) {
        return Ok(b);
    }
    let buf = Rc::new(super::transfer::upload(g, &table_values(t), p)?);
    TABLES.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|(k, _)| *k != (t, p));
        if c.len() >= TABLES_KEPT {
            c.remove(0);
        }
        c.push(((t, p), buf.clone()));
    });
    Ok(buf)
}

/// Forgets the cached tables (their buffers go back when nothing else holds them).
pub fn clear_tables() {
    TABLES.with(|c| c.borrow_mut().clear());
}

fn dispatch(
    g: &Gpu,
    kind: u32,
    p: Precision,
    text: &'static str,
    buffers: &[&DeviceBuffer],
    params: &[u32],
    threads: usize,
) -> MResult<()> {
    launch::run(
        g,
        &[25, kind, p as u32],
        || format!("alias T = {};\n{text}", p.wgsl()),
        buffers,
        params,
        threads.div_ceil(256),
    )
}

/// Stockham passes over `count` lanes of `m` points in (a_re, a_im), ping-ponging with
/// (b_re, b_im): one radix-2 pass first when log2(m) is odd, then radix-4 passes (half as
/// many passes over the data as radix-2 alone). Returns which pair holds the result (false:
/// a, true: b). The last pass scales by 1 / scale_n when scale_n is not 0.
#[allow(clippy::too_many_arguments)]
fn passes(
    g: &Gpu,
    p: Precision,
    a: (&DeviceBuffer, &DeviceBuffer),
    b: (&DeviceBuffer, &DeviceBuffer),
    count: usize,
    m: usize,
    inverse: bool,
    scale_n: usize,
) -> MResult<bool> {
    if m < 2 {
        return Ok(false);
    }
    let tw = table(g, Table::Twiddle { m }, p)?;
    let mut ns = 1usize;
    let mut in_b = false;
    while ns < m {
        let radix = if m.trailing_zeros() % 2 == 1 && ns == 1 {
            2
        } else {
            4
        };
        let last = ns * radix == m;
        let ((sr, si), (dr, di)) = if in_b { (b, a) } else { (a, b) };
        let threads = count * m / radix;
        let params = [
            threads as u32,
            m as u32,
            ns as u32,
            u32::from(inverse),
            if last { scale_n as u32 } else { 0 },
        ];
        let (kind, text) = if radix == 2 { (1, PASS) } else { (4, PASS4) };
        dispatch(g, kind, p, text, &[sr, si, &tw, dr, di], &params, threads)?;
        in_b = !in_b;
        ns *= radix;
    }
    Ok(in_b)
}

/// The transform of every lane: new buffers of real and imaginary parts, the lanes laid out
/// as the input's with `n` elements each.
pub fn transform(g: &Gpu, job: &Job) -> MResult<(DeviceBuffer, DeviceBuffer)> {
    let p = job.re.precision;
    let Lanes { inner, len, outer } = job.lanes;
    let n = job.n;
    let count = inner * outer;
    let m = work_length(n);
    let bluestein = m != n;
    let work = count * m;
    let a = (
        buffers::allocate(g, work, p)?,
        buffers::allocate(g, work, p)?,
    );
    let b = (
        buffers::allocate(g, work, p)?,
        buffers::allocate(g, work, p)?,
    );
    let chirp_in = if bluestein {
        Some(table(
            g,
            Table::Chirp {
                n,
                inverse: job.inverse,
            },
            p,
        )?)
    } else {
        None
    };
    let pack = [
        work as u32,
        m as u32,
        inner as u32,
        len as u32,
        len.min(n) as u32,
        u32::from(job.im.is_some()),
        u32::from(bluestein),
        n as u32,
        u32::from(job.symmetric),
    ];
    let im = job.im.unwrap_or(job.re);
    let cin: &DeviceBuffer = chirp_in.as_deref().unwrap_or(job.re);
    dispatch(g, 0, p, PACK, &[job.re, im, cin, &a.0, &a.1], &pack, work)?;
    let (ar, ai) = (&a.0, &a.1);
    let (br, bi) = (&b.0, &b.1);
    if !bluestein {
        // contiguous lanes: the last pass writes the result (scaled, for an inverse)
        let direct = inner == 1;
        let scale_n = if job.inverse { n } else { 0 };
        let in_b = passes(
            g,
            p,
            (ar, ai),
            (br, bi),
            count,
            m,
            job.inverse,
            if direct { scale_n } else { 0 },
        )?;
        let (wr, wi, spare) = if in_b { (b.0, b.1, a) } else { (a.0, a.1, b) };
        if direct {
            return Ok((wr, wi));
        }
        drop(spare);
        return unpack(g, p, (&wr, &wi), None, job, m, scale_n);
    }
    let filter = table(
        g,
        Table::Filter {
            n,
            inverse: job.inverse,
        },
        p,
    )?;
    let in_b = passes(g, p, (ar, ai), (br, bi), count, m, false, 0)?;
    let (x, y) = if in_b {
        ((br, bi), (ar, ai))
    } else {
        ((ar, ai), (br, bi))
    };
    dispatch(
        g,
        2,
        p,
        MUL,
        &[&filter, x.0, x.1],
        &[work as u32, m as u32],
        work,
    )?;
    let back = passes(g, p, x, y, count, m, true, 0)?;
    let w = if back { y } else { x };
    let out_chirp = table(
        g,
        Table::OutChirp {
            n,
            inverse: job.inverse,
        },
        p,
    )?;
    unpack(g, p, w, Some(&out_chirp), job, m, 0)
}

fn unpack(
    g: &Gpu,
    p: Precision,
    w: (&DeviceBuffer, &DeviceBuffer),
    chirp: Option<&DeviceBuffer>,
    job: &Job,
    m: usize,
    scale_n: usize,
) -> MResult<(DeviceBuffer, DeviceBuffer)> {
    let Lanes { inner, outer, .. } = job.lanes;
    let total = inner * outer * job.n;
    let yr = buffers::allocate(g, total, p)?;
    let yi = buffers::allocate(g, total, p)?;
    let params = [
        total as u32,
        m as u32,
        inner as u32,
        job.n as u32,
        u32::from(chirp.is_some()),
        scale_n as u32,
    ];
    let c = chirp.unwrap_or(w.0);
    dispatch(g, 3, p, UNPACK, &[w.0, w.1, c, &yr, &yi], &params, total)?;
    Ok((yr, yi))
}
