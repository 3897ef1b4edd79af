//! Typed host kernels for the common elementwise cases: real double and single operands (and
//! logical ones beside them) read in their own storage type, no widened copies, one result
//! written in place, large arrays split across the cores in cache-sized blocks (rayon).
//! Each element is computed in f64 and narrowed, exactly as the general path does, so results
//! are bit-identical to it (sin, cos, exp and log of singles excepted where they are computed
//! in single: `plan::cpu::vmath32`, within 1 ulp); what changes is that the loops are typed,
//! contiguous and vectorisable. Anything else (integers, complex, powers, mod) returns None and takes the
//! general path.

use super::elementwise::{max_f64, min_f64};
use super::unary::{needs_complex_domain, real_un};
use super::{Bin, Un};
use crate::plan::cpu::vmath::Fun;
use crate::plan::cpu::vmath32;
use crate::values::class::Class;
use crate::values::shape::{BroadcastIter, Shape};
use crate::values::tensor::{Data, Elem, Tensor};
use rayon::prelude::*;
use smallvec::SmallVec;

/// Elements below which a kernel runs on the calling thread.
pub const PAR_MIN: usize = 1 << 16;
/// Elements one task takes (a few hundred KiB of operands: stays in L2).
pub const BLOCK: usize = 1 << 14;

/// Fills `out` by `f(start, chunk)`, in parallel blocks when it is large.
pub fn fill<R: Send, F: Fn(usize, &mut [R]) + Sync>(out: &mut [R], f: F) {
    if out.len() < PAR_MIN {
        f(0, out)
    } else {
        out.par_chunks_mut(BLOCK)
            .enumerate()
            .for_each(|(k, c)| f(k * BLOCK, c));
    }
}

/// Elements below which a kernel of one cheap operation an element (arithmetic, a
/// comparison, an integer rounding) runs on the calling thread: waking the other threads
/// costs as much as such a pass over 2^18 elements (`a + b` of 1e5 int32 was 2-4x NumPy's
/// time, most of it the hand-off).
pub const PAR_MIN_CHEAP: usize = 1 << 18;

/// `fill` for kernels of one cheap operation an element.
pub fn fill_cheap<R: Send, F: Fn(usize, &mut [R]) + Sync>(out: &mut [R], f: F) {
    if out.len() < PAR_MIN_CHEAP {
        f(0, out)
    } else {
        fill(out, f)
    }
}

/// A new vector of `n` elements filled by `f(start, chunk)` as `fill_cheap` splits it, its
/// memory not cleared first (`f` writes every element of its chunk): a cleared result was a
/// whole extra pass (a memset was a fifth of `a + b` of int32).
pub fn fill_new<R: Send, F: Fn(usize, &mut [std::mem::MaybeUninit<R>]) + Sync>(
    n: usize,
    f: F,
) -> Vec<R> {
    let mut out: Vec<R> = Vec::with_capacity(n);
    fill_cheap(&mut out.spare_capacity_mut()[..n], f);
    // SAFETY: `f` wrote every element of every chunk, and the chunks cover all n.
    unsafe { out.set_len(n) };
    out
}

/// The number of true values: bytes added as bytes, 255 at a time (sixteen or more a
/// vector add), then the pieces' totals. Adding each as a usize widened every byte to 64
/// bits (`nnz(a > k)` of 1e6 spent as long counting as comparing).
pub fn count_true(v: &[bool]) -> usize {
    v.chunks(255)
        .map(|c| c.iter().fold(0u8, |a, &b| a.wrapping_add(b as u8)) as usize)
        .sum()
}

/// A storage type results are written in, from the f64 they are computed in.
pub trait Out: Elem + Send + Sync {
    fn narrow(x: f64) -> Self;
}
impl Out for f64 {
    #[inline(always)]
    fn narrow(x: f64) -> f64 {
        x
    }
}
impl Out for f32 {
    #[inline(always)]
    fn narrow(x: f64) -> f32 {
        x as f32
    }
}

/// Strides of an operand of shape `s` inside an output of `n` dimensions (0 where it is
/// broadcast).
fn operand_strides(s: &Shape, n: usize) -> SmallVec<[usize; 4]> {
    let st = s.strides();
    (0..n)
        .map(|d| {
            if s.dim(d) == 1 {
                0
            } else {
                st.get(d).copied().unwrap_or(0)
            }
        })
        .collect()
}

/// `f(a, b)` elementwise with implicit expansion, typed: same shapes and scalar operands run
/// as straight loops; general expansion runs a column at a time, each column a straight loop
/// over a contiguous or a broadcast operand.
pub fn zip<A, B, R>(
    a: &[A],
    sa: &Shape,
    b: &[B],
    sb: &Shape,
    out: &Shape,
    f: impl Fn(A, B) -> R + Sync,
) -> Vec<R>
where
    A: Elem + Sync,
    B: Elem + Sync,
    R: Elem + Send,
{
    let n = out.numel();
    // the straight cases write a fresh vector without clearing it first (every element is
    // written)
    if a.len() == n && b.len() == n && (sa == sb || n <= 1) {
        return fill_new(n, |s, c| {
            let (a, b) = (&a[s..s + c.len()], &b[s..s + c.len()]);
            for ((o, &x), &y) in c.iter_mut().zip(a).zip(b) {
                o.write(f(x, y));
            }
        });
    } else if a.len() == 1 && b.len() == n {
        let x = a[0];
        return fill_new(n, |s, c| {
            let b = &b[s..s + c.len()];
            for (o, &y) in c.iter_mut().zip(b) {
                o.write(f(x, y));
            }
        });
    } else if b.len() == 1 && a.len() == n {
        let y = b[0];
        return fill_new(n, |s, c| {
            let a = &a[s..s + c.len()];
            for (o, &x) in c.iter_mut().zip(a) {
                o.write(f(x, y));
            }
        });
    }
    let mut r = vec![R::default(); n];
    if out.dim(0) >= 8 && n > 0 {
        by_columns(a, sa, b, sb, out, &mut r, &f);
    } else {
        for (o, (i, j)) in r.iter_mut().zip(BroadcastIter::new(out, sa, sb)) {
            *o = f(a[i], b[j]);
        }
    }
    r
}

fn by_columns<A: Elem + Sync, B: Elem + Sync, R: Elem + Send>(
    a: &[A],
    sa: &Shape,
    b: &[B],
    sb: &Shape,
    out: &Shape,
    r: &mut [R],
    f: &(impl Fn(A, B) -> R + Sync),
) {
    let nd = out.ndims();
    let (sta, stb) = (operand_strides(sa, nd), operand_strides(sb, nd));
    let rows = out.dim(0);
    let col_offset = |j: usize, st: &[usize]| {
        let (mut rem, mut off) = (j, 0);
        for (d, s) in st.iter().enumerate().skip(1) {
            let m = out.dim(d).max(1);
            off += (rem % m) * s;
            rem /= m;
        }
        off
    };
    let column = |j: usize, c: &mut [R]| {
        let (oa, ob) = (col_offset(j, &sta), col_offset(j, &stb));
        match (sta[0] != 0, stb[0] != 0) {
            (true, true) => {
                for ((o, &x), &y) in c.iter_mut().zip(&a[oa..oa + rows]).zip(&b[ob..ob + rows]) {
                    *o = f(x, y);
                }
            }
            (true, false) => {
                let y = b[ob];
                for (o, &x) in c.iter_mut().zip(&a[oa..oa + rows]) {
                    *o = f(x, y);
                }
            }
            (false, true) => {
                let x = a[oa];
                for (o, &y) in c.iter_mut().zip(&b[ob..ob + rows]) {
                    *o = f(x, y);
                }
            }
            (false, false) => {
                let v = f(a[oa], b[ob]);
                c.fill(v);
            }
        }
    };
    let cols_per_task = (BLOCK / rows).max(1);
    let run = |(t, chunk): (usize, &mut [R])| {
        for (k, c) in chunk.chunks_mut(rows).enumerate() {
            column(t * cols_per_task + k, c);
        }
    };
    if r.len() < PAR_MIN {
        r.chunks_mut(rows * cols_per_task).enumerate().for_each(run);
    } else {
        r.par_chunks_mut(rows * cols_per_task)
            .enumerate()
            .for_each(run);
    }
}

/// Real arithmetic (`+ - .* ./ .\ max min`) of double, single and logical operands whose
/// result is double or single; None for everything else.
pub fn arith(op: Bin, ta: &Tensor, tb: &Tensor, out: &Shape, rc: Class) -> Option<Tensor> {
    macro_rules! typed {
        ($f:expr) => {{
            let f = $f;
            let (sa, sb) = (&ta.shape, &tb.shape);
            macro_rules! go {
                ($a:expr, $b:expr, $r:ty, $v:ident) => {
                    Data::$v(zip($a, sa, $b, sb, out, |p, q| {
                        <$r>::narrow(f(p.to_f64(), q.to_f64()))
                    }))
                };
            }
            match (&ta.data, &tb.data, rc) {
                (Data::F64(a), Data::F64(b), Class::Double) => go!(a, b, f64, F64),
                (Data::F32(a), Data::F32(b), Class::Single) => go!(a, b, f32, F32),
                (Data::F32(a), Data::F64(b), Class::Single) => go!(a, b, f32, F32),
                (Data::F64(a), Data::F32(b), Class::Single) => go!(a, b, f32, F32),
                (Data::Bool(a), Data::F64(b), Class::Double) => go!(a, b, f64, F64),
                (Data::F64(a), Data::Bool(b), Class::Double) => go!(a, b, f64, F64),
                (Data::Bool(a), Data::F32(b), Class::Single) => go!(a, b, f32, F32),
                (Data::F32(a), Data::Bool(b), Class::Single) => go!(a, b, f32, F32),
                _ => return None,
            }
        }};
    }
    let data = match op {
        Bin::Add => typed!(|p: f64, q: f64| p + q),
        Bin::Sub => typed!(|p: f64, q: f64| p - q),
        Bin::Mul => typed!(|p: f64, q: f64| p * q),
        Bin::Div => typed!(|p: f64, q: f64| p / q),
        Bin::LDiv => typed!(|p: f64, q: f64| q / p),
        Bin::Max => typed!(max_f64),
        Bin::Min => typed!(min_f64),
        _ => return None,
    };
    Some(Tensor::new(out.clone(), data))
}

/// Comparisons of real double, single and logical operands; None for everything else.
pub fn compare(op: Bin, ta: &Tensor, tb: &Tensor, out: &Shape) -> Option<Tensor> {
    macro_rules! typed {
        ($f:expr) => {{
            let f = $f;
            let (sa, sb) = (&ta.shape, &tb.shape);
            macro_rules! go {
                ($a:expr, $b:expr) => {
                    zip($a, sa, $b, sb, out, |p, q| f(p.to_f64(), q.to_f64()))
                };
            }
            // Single against double compares in single, as arithmetic between them computes
            // (the double made single first: `single(0.2) == 0.2` is true).
            let single = |x: f64| x as f32 as f64;
            match (&ta.data, &tb.data) {
                (Data::F64(a), Data::F64(b)) => go!(a, b),
                (Data::F32(a), Data::F32(b)) => go!(a, b),
                (Data::F32(a), Data::F64(b)) => {
                    zip(a, sa, b, sb, out, |p: f32, q: f64| f(p as f64, single(q)))
                }
                (Data::F64(a), Data::F32(b)) => {
                    zip(a, sa, b, sb, out, |p: f64, q: f32| f(single(p), q as f64))
                }
                (Data::Bool(a), Data::F64(b)) => go!(a, b),
                (Data::F64(a), Data::Bool(b)) => go!(a, b),
                _ => return None,
            }
        }};
    }
    let r = match op {
        Bin::Eq => typed!(|p: f64, q: f64| p == q),
        Bin::Ne => typed!(|p: f64, q: f64| p != q),
        Bin::Lt => typed!(|p: f64, q: f64| p < q),
        Bin::Le => typed!(|p: f64, q: f64| p <= q),
        Bin::Gt => typed!(|p: f64, q: f64| p > q),
        Bin::Ge => typed!(|p: f64, q: f64| p >= q),
        _ => return None,
    };
    Some(Tensor::bools(out.clone(), r))
}

/// `f` over a slice into a new vector, in parallel blocks when large.
pub fn map<T: Elem + Sync, R: Elem + Send>(x: &[T], f: impl Fn(T) -> R + Sync) -> Vec<R> {
    // a fresh vector, not cleared first: every element is written
    let mut r: Vec<R> = Vec::with_capacity(x.len());
    fill(&mut r.spare_capacity_mut()[..x.len()], |s, c| {
        let x = &x[s..s + c.len()];
        for (o, &v) in c.iter_mut().zip(x) {
            o.write(f(v));
        }
    });
    // SAFETY: the chunks cover all x.len() elements and each was written above.
    unsafe { r.set_len(x.len()) };
    r
}

/// Real unary functions of double and single arrays whose results stay real, and the
/// predicates (`isnan isinf isfinite`, `~` of logicals); None for everything else.
pub fn unary(op: Un, t: &Tensor) -> Option<Tensor> {
    let shape = t.shape.clone();
    match (op, &t.data) {
        (Un::Not, Data::Bool(v)) => return Some(Tensor::bools(shape, map(v, |b: bool| !b))),
        (Un::IsNan | Un::IsInf | Un::IsFinite, Data::F64(_) | Data::F32(_)) => {
            let p = match op {
                Un::IsNan => |x: f64| x.is_nan(),
                Un::IsInf => |x: f64| x.is_infinite(),
                _ => |x: f64| x.is_finite(),
            };
            let r = match &t.data {
                Data::F64(v) => map(v, |x| p(x)),
                Data::F32(v) => map(v, |x: f32| p(x as f64)),
                _ => return None,
            };
            return Some(Tensor::bools(shape, r));
        }
        (Un::Not | Un::IsNan | Un::IsInf | Un::IsFinite, _) => return None,
        _ => {}
    }
    macro_rules! typed {
        ($f:expr) => {{
            let f = $f;
            match &t.data {
                Data::F64(v) => {
                    if v.iter().any(|&x| needs_complex_domain(op, x)) {
                        return None;
                    }
                    Data::F64(map(v, |x: f64| f(x)))
                }
                Data::F32(v) => {
                    if v.iter().any(|&x| needs_complex_domain(op, x as f64)) {
                        return None;
                    }
                    Data::F32(map(v, |x: f32| f(x as f64) as f32))
                }
                _ => return None,
            }
        }};
    }
    // sin, cos, exp and log of singles in single (`vmath32`, the executor's forms, so that
    // an array gets the same bits eagerly as in a fused group), where singles are computed
    // so (`vmath32::in_single`)
    let vector = match op {
        Un::Sin => Some(Fun::Sin),
        Un::Cos => Some(Fun::Cos),
        Un::Exp => Some(Fun::Exp),
        Un::Log => Some(Fun::Log),
        _ => None,
    };
    if let (Some(f), Data::F32(v)) = (vector, &t.data) {
        if vmath32::in_single() && !(op == Un::Log && v.iter().any(|&x| x < 0.0)) {
            let mut r = vec![0.0f32; v.len()];
            fill(&mut r, |s, c| {
                vmath32::eval_dispatch(f, &v[s..s + c.len()], c)
            });
            return Some(Tensor::new(shape, Data::F32(r)));
        }
    }
    let data = match op {
        Un::Neg => typed!(|x: f64| -x),
        Un::Abs => typed!(|x: f64| x.abs()),
        Un::Sqrt => typed!(|x: f64| x.sqrt()),
        Un::Floor => typed!(|x: f64| x.floor()),
        Un::Ceil => typed!(|x: f64| x.ceil()),
        Un::Fix => typed!(|x: f64| x.trunc()),
        Un::Round => typed!(|x: f64| x.round()),
        Un::Real | Un::Conj => typed!(|x: f64| x),
        _ => typed!(|x: f64| real_un(op, x)),
    };
    Some(Tensor::new(shape, data))
}
