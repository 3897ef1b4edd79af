//! Random numbers from the session's Philox stream: rand, randn, randi, randperm, made on
//! the host or, as pending graph nodes, where the kernel that uses them runs.

use super::{Builtin, b, bad_arg, one, size_args};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::rng::Dist;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("rand", 0, -1, 1, "rand(m,n,...,'single'|'double'): uniform random numbers in (0,1) from the session's Philox stream.", rand),
        b("randn", 0, -1, 1, "randn(m,n,...): standard normal random numbers from the session's Philox stream.", randn),
        b("randi", 1, -1, 1, "randi(imax, m, n) or randi([imin imax], m, n): random integers.", randi),
        b("randperm", 1, 2, 1, "randperm(n), randperm(n,k): a random permutation of 1:n.", randperm),
    ]
}

fn random(interp: &mut Interp, a: &[Value], normal: bool) -> MResult<Value> {
    let sa = size_args(a)?;
    let single = sa.class == Some(Class::Single);
    if let Some(c) = sa.class {
        if !c.is_float() {
            return Err(MError::new(
                "MATLAB:rand:invalidClass",
                format!(
                    "Random numbers of class {} are not supported; use 'double' or 'single'.",
                    c.name()
                ),
            ));
        }
    }
    let dist = match (normal, single) {
        (false, false) => Dist::UniformDouble,
        (false, true) => Dist::UniformSingle,
        (true, false) => Dist::NormalDouble,
        (true, true) => Dist::NormalSingle,
    };
    let v = interp.rng.draw(sa.shape.numel(), dist);
    Ok(Value::from(Tensor::new(
        sa.shape,
        Data::from_f64(if single { Class::Single } else { Class::Double }, v),
    )))
}

fn rand(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(random(i, &a, false)?)
}

fn randn(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(random(i, &a, true)?)
}

/// randi's first argument, `imax` or `[imin imax]`, as (imin, imax).
fn randi_range(v: &Value) -> MResult<(f64, f64)> {
    let lim = v.tensor()?;
    let (lo, hi) = match lim.numel() {
        1 => (1.0, lim.get_f64(0)),
        2 => (lim.get_f64(0), lim.get_f64(1)),
        _ => {
            return Err(bad_arg(
                "randi",
                "The first input must be imax or [imin imax].",
            ));
        }
    };
    if hi < lo || lo.fract() != 0.0 || hi.fract() != 0.0 {
        return Err(bad_arg(
            "randi",
            "The range [imin imax] must be integers with imin <= imax.",
        ));
    }
    Ok((lo, hi))
}

fn randi(interp: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (lo, hi) = randi_range(&a[0])?;
    let sa = size_args(&a[1..])?;
    let class = sa.class.unwrap_or(Class::Double);
    let span = hi - lo + 1.0;
    let u = interp.rng.draw(sa.shape.numel(), Dist::UniformDouble);
    let v: Vec<f64> = u
        .iter()
        .map(|&u| {
            crate::interp::interrupt::poll();
            crate::values::rng::randi_of(u, lo, span)
        })
        .collect();
    one(Tensor::new(sa.shape, Data::from_f64(class, v)))
}

fn randperm(interp: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = a[0].scalar_f64()?.max(0.0) as usize;
    crate::values::limits::check_count(n, 16)?;
    let k = match a.get(1) {
        Some(v) => v.scalar_f64()? as usize,
        None => n,
    };
    if k > n {
        return Err(bad_arg("randperm", "K must be less than or equal to N."));
    }
    let u = interp.rng.draw(n, Dist::UniformDouble);
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&x, &y| {
        crate::interp::interrupt::poll();
        u[x].total_cmp(&u[y])
    });
    one(Value::row(
        idx.iter().take(k).map(|&i| (i + 1) as f64).collect(),
    ))
}

/// `rand`, `randn` or `randi` as a pending graph node when the values are wanted on the
/// device (`'gpuArray'`, `'like', g`, or a size the planner offloads): the kernel that uses
/// them generates them from the same stream, and the stream advances as the host's would.
/// None where the host makes them (other classes, empty results, bad arguments).
pub fn device_random(
    interp: &mut Interp,
    name: &str,
    args: &[Value],
    on_gpu: bool,
) -> MResult<Option<Value>> {
    use crate::graph::RandKind;
    let (kind, size) = match name {
        "rand" => (RandKind::Uniform, args),
        "randn" => (RandKind::Normal, args),
        _ => {
            // Bad ranges are left to the host's randi, which reports them.
            let Some(Ok((lo, hi))) = args.first().map(randi_range) else {
                return Ok(None);
            };
            if hi - lo >= 9e15 {
                return Ok(None);
            }
            let span = hi - lo + 1.0;
            (RandKind::Int { lo, span }, &args[1..])
        }
    };
    let Ok(sa) = size_args(size) else {
        return Ok(None);
    };
    let class = sa.class.unwrap_or(Class::Double);
    let fits = match kind {
        RandKind::Int { .. } => class == Class::Double,
        _ => class.is_float(),
    };
    let numel = sa.shape.numel();
    if !fits || numel == 0 || !(on_gpu || crate::interp::lower::offloads(numel)) {
        return Ok(None);
    }
    let spec = crate::graph::RandSpec {
        kind,
        seed: interp.rng.seed,
        offset: interp.rng.offset,
    };
    interp.rng.offset += numel as u64;
    Ok(Some(crate::interp::lower::random(
        spec, sa.shape, class, on_gpu,
    )))
}
