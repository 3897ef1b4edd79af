//! The host executor: runs a fused group in blocks of `block::BLOCK` elements, each step a
//! straight loop over the block in the step's own type (f32 for single, f64 for double),
//! blocks spread over the cores (rayon). Inputs are read where they are stored: in place,
//! as strided runs (broadcasts, transposes, range views) or through an embed's region, never
//! through index vectors. Results equal the host evaluator's (the eager path's) bit for bit,
//! except sin, cos, exp and log (`vmath` for doubles, `vmath32` for singles, computed in
//! single: within 1 ulp; the eager kernels use the same forms). It is the no-GPU path and the oracle
//! for GPU parity tests.

mod access;
mod block;
mod elementwise;
pub mod fold;
mod gather;
mod logic;
mod num;
mod program;
pub mod scatter;
mod scratch;
pub mod vmath;
pub mod vmath32;

use super::Group;
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data as TData, Tensor};
use block::BLOCK;
use num::Num;
use program::Program;
use rayon::prelude::*;
use scratch::Scratch;
use std::mem::MaybeUninit;

/// Elements one task takes: several blocks, so that a thread's scratch is set up once for
/// many of them.
const TASK: usize = 16 * BLOCK;

/// A tensor of `class` from f64 values (logical results are 0/1).
/// A host array of `class` from values read back in the device's precision (singles from a
/// single buffer and doubles from a double one are kept as read).
pub fn tensor_of_elems(values: crate::gpu::buffers::Elems, shape: Shape, class: Class) -> Tensor {
    use crate::gpu::buffers::Elems;
    match (values, class) {
        (Elems::F32(v), Class::Single) => Tensor::new(shape, TData::F32(v)),
        (Elems::F64(v), Class::Double) => Tensor::f64(shape, v),
        (Elems::F32(v), Class::Logical) => {
            Tensor::bools(shape, v.iter().map(|&x| x != 0.0).collect())
        }
        (values, class) => tensor_of(values.into_f64(), shape, class),
    }
}

pub fn tensor_of(values: Vec<f64>, shape: Shape, class: Class) -> Tensor {
    match class {
        Class::Single => Tensor::new(
            shape,
            TData::F32(values.iter().map(|&x| x as f32).collect()),
        ),
        Class::Logical => Tensor::bools(shape, values.iter().map(|&x| x != 0.0).collect()),
        // A view, gather or placement of an integer array: its class, not double.
        c if c.is_int() => Tensor::from_f64(c, shape, values),
        _ => Tensor::f64(shape, values),
    }
}

/// The 1-based subscript of element `i` of `shape` along `dim` (linear index + 1 without).
pub fn subscript(shape: &Shape, i: usize, dim: Option<usize>) -> f64 {
    match dim {
        None => (i + 1) as f64,
        Some(d) => {
            let below: usize = (0..d).map(|k| shape.dim(k)).product();
            ((i / below.max(1)) % shape.dim(d).max(1) + 1) as f64
        }
    }
}

/// Work (elements times `Program::weight`) below which a group runs on the calling thread:
/// waking the pool's threads and waiting for them costs tens of microseconds on a busy
/// machine, more than a few hundred thousand simple steps (a third of `x(2:end) -
/// x(1:end-1)` at 1e5 was the hand-off).
const PAR_WORK: usize = 1 << 18;

/// `f(start, chunk)` over consecutive chunks of `out` of `TASK` elements, across the cores
/// when there are several and the work (`weight` per element) is worth it.
fn for_tasks<R: Send>(out: &mut [R], weight: usize, f: impl Fn(usize, &mut [R]) + Sync + Send) {
    if out.len() <= TASK || out.len().saturating_mul(weight) < PAR_WORK {
        f(0, out);
    } else {
        out.par_chunks_mut(TASK)
            .enumerate()
            .for_each(|(t, c)| f(t * TASK, c));
    }
}

/// What a group's result is stored as: f32 or f64 (the last step written straight into
/// the result where it is of that type), or bool for logical results (the block's 0/1
/// values tested as they are stored: no single copy of the whole result first).
pub trait Dest: Copy + Send + Sync + 'static {
    fn put(p: &Program<'_>, sc: &mut Scratch, start: usize, out: &mut [MaybeUninit<Self>]);
}

impl<R: Num> Dest for R {
    #[inline(always)]
    fn put(p: &Program<'_>, sc: &mut Scratch, start: usize, out: &mut [MaybeUninit<R>]) {
        if block::direct_root::<R>(p) {
            // the last step writes the result's memory itself (a copy from a slot was 40%
            // of `x.*2`): it writes every element of `out` and reads none of it.
            // SAFETY: f32 and f64 have no invalid bit patterns and nothing is read through
            // the view before it is written.
            let d = unsafe { &mut *(out as *mut [MaybeUninit<R>] as *mut [R]) };
            block::eval_root(p, sc, start, d);
        } else {
            block::eval(p, sc, start, out.len());
            block::store(p, sc, p.steps.len() - 1, start, out);
        }
    }
}

/// Logical results, as their own storage.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct Bit(pub bool);

impl Dest for Bit {
    #[inline(always)]
    fn put(p: &Program<'_>, sc: &mut Scratch, start: usize, out: &mut [MaybeUninit<Bit>]) {
        let len = out.len();
        // a comparison or logical root written as bits from its operands (no 0/1 block)
        if logic::eval(p, sc, start, len, &mut logic::Out::Bits(out)).is_some() {
            return;
        }
        block::eval(p, sc, start, out.len());
        block::store_bits(p, sc, p.steps.len() - 1, start, out);
    }
}

/// Evaluates the group over `out`'s elements (from `start`) and stores its result there.
#[inline(always)]
fn eval_into<R: Dest>(p: &Program<'_>, sc: &mut Scratch, start: usize, out: &mut [MaybeUninit<R>]) {
    for (b, chunk) in out.chunks_mut(BLOCK).enumerate() {
        R::put(p, sc, start + b * BLOCK, chunk);
    }
}

/// `eval_into` compiled for AVX2 (four doubles, eight singles a vector), where the processor
/// has it; the build's baseline is SSE2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn eval_into_avx2<R: Dest>(
    p: &Program<'_>,
    sc: &mut Scratch,
    start: usize,
    out: &mut [MaybeUninit<R>],
) {
    eval_into(p, sc, start, out)
}

/// `eval_into` compiled for AVX-512 (eight doubles, sixteen singles a vector): the
/// transcendentals' polynomials take twice the lanes of AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn eval_into_avx512<R: Dest>(
    p: &Program<'_>,
    sc: &mut Scratch,
    start: usize,
    out: &mut [MaybeUninit<R>],
) {
    eval_into(p, sc, start, out)
}

fn eval_range<R: Dest>(
    p: &Program<'_>,
    sc: &mut Scratch,
    start: usize,
    out: &mut [MaybeUninit<R>],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
    {
        // SAFETY: the processor has the features the function is compiled for.
        unsafe { eval_into_avx512(p, sc, start, out) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the processor has the features the function is compiled for.
        unsafe { eval_into_avx2(p, sc, start, out) };
        return;
    }
    eval_into(p, sc, start, out)
}

/// Whether the group's values over `start..start + len` hold a nonzero non-NaN element
/// (`zero` false) or a zero (`zero` true), tested block by block as they are made, never
/// stored (`any(x > t)`, `all(...)`); a comparison or logical root is tested from its
/// operands (`logic`). Stops at the first block that answers.
#[inline(always)]
fn test_into(p: &Program<'_>, sc: &mut Scratch, start: usize, len: usize, zero: bool) -> bool {
    let root = p.steps.len() - 1;
    let mut at = start;
    while at < start + len {
        let l = BLOCK.min(start + len - at);
        let hit = match logic::eval(p, sc, at, l, &mut logic::Out::Hit(!zero)) {
            Some(hit) => hit,
            None => {
                block::eval(p, sc, at, l);
                block::test(p, sc, root, at, l, zero)
            }
        };
        if hit {
            return true;
        }
        at += l;
    }
    false
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn test_into_avx512(
    p: &Program<'_>,
    sc: &mut Scratch,
    start: usize,
    len: usize,
    zero: bool,
) -> bool {
    test_into(p, sc, start, len, zero)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn test_into_avx2(p: &Program<'_>, sc: &mut Scratch, start: usize, len: usize, zero: bool) -> bool {
    test_into(p, sc, start, len, zero)
}

pub fn test_range(p: &Program<'_>, sc: &mut Scratch, start: usize, len: usize, zero: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
    {
        // SAFETY: the processor has the features the function is compiled for.
        return unsafe { test_into_avx512(p, sc, start, len, zero) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: as above.
        return unsafe { test_into_avx2(p, sc, start, len, zero) };
    }
    test_into(p, sc, start, len, zero)
}

/// Evaluates the group into a new vector of `R`. Its memory is not zeroed first: every
/// element is written.
/// Ctrl-C stops it between tasks (the unwritten vector is dropped, nothing realised).
fn evaluate<R: Dest>(p: &Program<'_>) -> MResult<Vec<R>> {
    let n = p.shape.numel();
    let mut out: Vec<R> = Vec::with_capacity(n);
    let watch = crate::interp::interrupt::Watch::current();
    let stopped = std::sync::atomic::AtomicBool::new(false);
    for_tasks(
        &mut out.spare_capacity_mut()[..n],
        p.weight(),
        |start, chunk| {
            if watch.raised() {
                stopped.store(true, std::sync::atomic::Ordering::Relaxed);
                return;
            }
            let mut sc = Scratch::new(p);
            eval_range(p, &mut sc, start, chunk);
        },
    );
    if stopped.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(crate::interp::error::MError::interrupted());
    }
    // SAFETY: `eval_range` wrote all n elements (`block::store` writes every element), as no
    // task was skipped.
    unsafe { out.set_len(n) };
    Ok(out)
}

/// Runs a group on the host.
pub fn run(g: &Group, class: Class) -> MResult<Tensor> {
    let held = program::hold(g)?;
    let p = Program::new(g, &held)?;
    let shape = g.shape.clone();
    if g.steps.is_empty() || shape.numel() == 0 {
        return Ok(tensor_of(vec![0.0; shape.numel()], shape, class));
    }
    // A result the host cannot hold is MATLAB's out-of-memory error, not an abort (arrays
    // past one device buffer are computed here: `interp::host_held`).
    let elem = if class == Class::Single { 4 } else { 8 };
    crate::values::limits::check_dims(shape.dims(), elem)?;
    Ok(match class {
        Class::Single => Tensor::new(shape, TData::F32(evaluate::<f32>(&p)?)),
        Class::Logical => {
            let v = evaluate::<Bit>(&p)?;
            // (Bit is a bool in a transparent wrapper: the same storage)
            Tensor::bools(shape, v.into_iter().map(|b| b.0).collect())
        }
        _ => tensor_of(evaluate::<f64>(&p)?, shape, class),
    })
}
