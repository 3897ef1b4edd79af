//! Integer arithmetic: factorial nchoosek gcd lcm isprime primes factor, and bit operations.

use super::math::map_real;
use super::{Builtin, b, bad_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::elementwise;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("factorial", 1, 1, 1, "factorial(n): the product 1*2*...*n.", factorial_f),
        b("nchoosek", 2, 2, 1, "nchoosek(n, k): the binomial coefficient, or all k-combinations of a vector.", nchoosek_f),
        b("gcd", 2, 2, 3, "gcd(A, B): greatest common divisor.", gcd_f),
        b("lcm", 2, 2, 1, "lcm(A, B): least common multiple.", lcm_f),
        b("isprime", 1, 1, 1, "isprime(X): true for prime numbers.", isprime_f),
        b("primes", 1, 1, 1, "primes(n): the primes up to n.", primes_f),
        b("factor", 1, 1, 1, "factor(n): the prime factors of n.", factor_f),
        b("bitand", 2, 2, 1, "bitand(A, B): bitwise AND of nonnegative integers.", bitand_f),
        b("bitor", 2, 2, 1, "bitor(A, B): bitwise OR.", bitor_f),
        b("bitxor", 2, 2, 1, "bitxor(A, B): bitwise exclusive OR.", bitxor_f),
        b("bitshift", 2, 2, 1, "bitshift(A, k): shift bits left (k > 0) or right (k < 0).", bitshift_f),
    ]
}

fn factorial_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    if t.to_f64().iter().any(|&x| x < 0.0 || x.fract() != 0.0) {
        return Err(bad_arg(
            "factorial",
            "N must be an array of real non-negative integers.",
        ));
    }
    one(map_real(&a[0], |x| {
        if x > 170.0 {
            f64::INFINITY
        } else {
            (1..=x as u64).fold(1.0, |p, k| p * k as f64)
        }
    })?)
}

fn binom(n: f64, k: f64) -> f64 {
    if k < 0.0 || k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    let mut r = 1.0;
    for i in 1..=k as u64 {
        r = r * (n - k + i as f64) / i as f64;
    }
    r.round()
}

fn nchoosek_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let v = a[0].tensor()?;
    let k = super::count_arg(&a[1], "nchoosek", "K")?;
    if v.numel() == 1 {
        let n = v.get_f64(0);
        if n < 0.0 || n.fract() != 0.0 {
            return Err(bad_arg("nchoosek", "N must be a nonnegative integer."));
        }
        if k as f64 > n {
            return Err(MError::new(
                "MATLAB:nchoosek:KOutOfRange",
                "K must be an integer between 0 and N.",
            ));
        }
        return one(Value::Num(binom(n, k as f64)));
    }
    // all combinations of the elements of v, one per row (each row held as a list first)
    let n = v.numel();
    let count = if k <= n {
        binom(n as f64, k as f64)
    } else {
        0.0
    };
    crate::values::limits::check_rows_f64(count, k, 32)?;
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut comb: Vec<usize> = (0..k).collect();
    if k <= n {
        let mut tick = crate::interp::interrupt::Ticker::new();
        loop {
            tick.tick();
            rows.push(comb.clone());
            let mut i = k;
            while i > 0 && comb[i - 1] == n - k + i - 1 {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            comb[i - 1] += 1;
            for j in i..k {
                comb[j] = comb[j - 1] + 1;
            }
        }
    }
    let m = rows.len();
    let mut pos = vec![0; m * k];
    for (r, c) in rows.iter().enumerate() {
        for (j, &e) in c.iter().enumerate() {
            pos[r + j * m] = e;
        }
    }
    one(v.gather(&pos, Shape::matrix(m, k)))
}

fn gcd2(mut x: f64, mut y: f64) -> f64 {
    x = x.abs();
    y = y.abs();
    while y != 0.0 {
        let t = x % y;
        x = y;
        y = t;
    }
    x
}

fn pairwise(a: &[Value], f: impl Fn(f64, f64) -> f64) -> MResult<Value> {
    let (x, y) = (a[0].tensor()?, a[1].tensor()?);
    let out = Shape::broadcast_checked(&x.shape, &y.shape)?;
    let r = elementwise::map2(&x.to_f64(), &x.shape, &y.to_f64(), &y.shape, &out, f);
    let cls = if x.class().is_int() {
        x.class()
    } else if y.class().is_int() {
        y.class()
    } else {
        Class::Double
    };
    Ok(Value::from(Tensor::new(out, Data::from_f64(cls, r))))
}

/// gcd and lcm are defined on real integers only; NaN or Inf would never terminate.
fn require_integers(a: &[Value], name: &str) -> MResult<()> {
    for v in a.iter().take(2) {
        let t = v.tensor()?;
        if t.is_complex()
            || t.to_f64()
                .iter()
                .any(|x| !x.is_finite() || x.fract() != 0.0)
        {
            return Err(bad_arg(name, "Inputs must be real integers."));
        }
    }
    Ok(())
}

fn gcd_f(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    require_integers(&a, "gcd")?;
    let g = pairwise(&a, gcd2)?;
    if nargout < 2 {
        return one(g);
    }
    // [g, u, v] = gcd(a, b) with a*u + b*v = g, by MATLAB's extended Euclid
    let bezout = |x: f64, y: f64| -> (f64, f64) {
        let (mut u, mut v) = ([1.0, 0.0, x.abs()], [0.0, 1.0, y.abs()]);
        while v[2] != 0.0 {
            let q = (u[2] / v[2]).floor();
            let t = [u[0] - q * v[0], u[1] - q * v[1], u[2] - q * v[2]];
            u = v;
            v = t;
        }
        (u[0] * sign(x), u[1] * sign(y))
    };
    let c = pairwise(&a, |x, y| bezout(x, y).0)?;
    let d = pairwise(&a, |x, y| bezout(x, y).1)?;
    Ok(vec![g, c, d])
}

fn sign(x: f64) -> f64 {
    if x < 0.0 {
        -1.0
    } else if x > 0.0 {
        1.0
    } else {
        0.0
    }
}

fn lcm_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    require_integers(&a, "lcm")?;
    one(pairwise(&a, |x, y| {
        if x == 0.0 || y == 0.0 {
            0.0
        } else {
            (x * y).abs() / gcd2(x, y)
        }
    })?)
}

fn is_prime(n: f64) -> bool {
    if n < 2.0 || n.fract() != 0.0 {
        return false;
    }
    let n = n as u64;
    if n < 4 {
        return true;
    }
    if n % 2 == 0 {
        return false;
    }
    let mut d = 3;
    while d * d <= n {
        crate::interp::interrupt::poll();
        if n % d == 0 {
            return false;
        }
        d += 2;
    }
    true
}

fn isprime_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    if t.is_complex()
        || t.to_f64()
            .iter()
            .any(|&x| x < 0.0 || x.fract() != 0.0 || !x.is_finite())
    {
        return Err(MError::new(
            "MATLAB:isprime:InputNotPosInt",
            "All entries of the input must be nonnegative integers.",
        ));
    }
    one(Tensor::bools(
        t.shape.clone(),
        t.to_f64()
            .iter()
            .map(|&x| {
                crate::interp::interrupt::poll();
                is_prime(x)
            })
            .collect(),
    ))
}

fn primes_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = a[0].scalar_f64()?.floor();
    if n.is_nan() {
        return Err(bad_arg("primes", "Input must be a real scalar."));
    }
    let n = if n < 0.0 {
        0
    } else {
        n.min(u64::MAX as f64) as usize
    };
    crate::values::limits::check_count(n.saturating_add(1), 1)?;
    let mut sieve = crate::interp::interrupt::filled(true, n + 1);
    let mut out = Vec::new();
    let mut tick = crate::interp::interrupt::Ticker::new();
    for i in 2..=n {
        tick.tick();
        if sieve[i] {
            out.push(i as f64);
            let mut j = i * i;
            while j <= n {
                tick.tick();
                sieve[j] = false;
                j += i;
            }
        }
    }
    one(Value::row(out))
}

fn factor_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = a[0].scalar_f64()?;
    if !(x >= 0.0) || x.fract() != 0.0 {
        return Err(bad_arg("factor", "N must be a real nonnegative integer."));
    }
    if x > 2f64.powi(53) {
        return Err(bad_arg("factor", "The maximum value of N allowed is 2^53."));
    }
    let mut n = x as u64;
    let mut out = Vec::new();
    if n < 4 {
        return one(Value::row(vec![n as f64]));
    }
    let mut d = 2;
    while d * d <= n {
        while n % d == 0 {
            out.push(d as f64);
            n /= d;
        }
        d += 1;
    }
    if n > 1 {
        out.push(n as f64);
    }
    one(Value::row(out))
}

/// Exact integer values of a bit-function argument (integers, or doubles holding
/// nonnegative integers up to flintmax).
fn bit_ints(t: &Tensor, name: &str) -> MResult<Vec<i128>> {
    if let Some(v) = t.data.as_i128() {
        return Ok(v);
    }
    t.to_f64()
        .iter()
        .map(|&v| {
            if v < 0.0 || v.fract() != 0.0 || v > 9_007_199_254_740_992.0 {
                Err(bad_arg(
                    name,
                    "Double inputs must be nonnegative integers no larger than flintmax.",
                ))
            } else {
                Ok(v as i128)
            }
        })
        .collect()
}

/// The integer class of a bit operation's result, and its width in bits.
fn bit_class(x: &Tensor, y: &Tensor, name: &str) -> MResult<(Class, u32)> {
    let cls = match (x.class().is_int(), y.class().is_int()) {
        (true, true) if x.class() != y.class() => {
            return Err(bad_arg(name, "Integer inputs must have the same class."));
        }
        (true, _) => x.class(),
        (_, true) => y.class(),
        _ => Class::Double,
    };
    let bits = if cls.is_int() {
        (cls.elem_bytes() * 8) as u32
    } else {
        53
    };
    Ok((cls, bits))
}

/// A bit operation on two's-complement patterns of the class's width.
fn bitop(a: &[Value], name: &str, f: impl Fn(u128, u128) -> u128) -> MResult<Value> {
    let (x, y) = (a[0].tensor()?, a[1].tensor()?);
    let (cls, bits) = bit_class(&x, &y, name)?;
    let (xv, yv) = (bit_ints(&x, name)?, bit_ints(&y, name)?);
    let out = Shape::broadcast_checked(&x.shape, &y.shape)?;
    let mask: u128 = (1u128 << bits) - 1;
    let signed = cls.is_signed_int();
    let r = elementwise::map2(&xv, &x.shape, &yv, &y.shape, &out, |p, q| {
        let v = f(p as u128 & mask, q as u128 & mask) & mask;
        // back from the bit pattern to the class's value
        if signed && v >> (bits - 1) & 1 == 1 {
            v as i128 - (1i128 << bits)
        } else {
            v as i128
        }
    });
    Ok(Value::from(Tensor::new(
        out,
        Data::from_i128(cls, r.into_iter()),
    )))
}

fn bitand_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(bitop(&a, "bitand", |p, q| p & q)?)
}

fn bitor_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(bitop(&a, "bitor", |p, q| p | q)?)
}

fn bitxor_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(bitop(&a, "bitxor", |p, q| p ^ q)?)
}

fn bitshift_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = a[0].tensor()?;
    let k = a[1].tensor()?;
    if k.to_f64().iter().any(|v| v.fract() != 0.0) {
        return Err(bad_arg("bitshift", "The shift must be an integer."));
    }
    let (cls, bits) = bit_class(&x, &Tensor::scalar_f64(0.0), "bitshift")?;
    let xv = bit_ints(&x, "bitshift")?;
    let kv: Vec<i128> = k.to_f64().iter().map(|&v| v as i128).collect();
    let out = Shape::broadcast_checked(&x.shape, &k.shape)?;
    let mask: u128 = (1u128 << bits) - 1;
    let signed = cls.is_signed_int();
    let r = elementwise::map2(&xv, &x.shape, &kv, &k.shape, &out, |v, s| {
        if s >= 0 {
            let p = if s >= 128 {
                0
            } else {
                ((v as u128) << s) & mask
            };
            if signed && p >> (bits - 1) & 1 == 1 {
                p as i128 - (1i128 << bits)
            } else {
                p as i128
            }
        } else if signed {
            // arithmetic shift keeps the sign
            v >> (-s).min(127)
        } else {
            if -s >= 128 {
                0
            } else {
                ((v as u128 & mask) >> -s) as i128
            }
        }
    });
    one(Tensor::new(out, Data::from_i128(cls, r.into_iter())))
}
