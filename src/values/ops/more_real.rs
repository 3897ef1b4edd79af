//! Host forms of the elementwise functions the lazy graph takes by name (degree forms,
//! reciprocal and inverse variants, erfinv, sinpi, nthroot...): the builtins and the graph's
//! host evaluation both call these, so the two sides cannot drift. Their WGSL forms are in
//! shaders/functions_f64.wgsl.

use super::Un;

/// sin of an angle in degrees, exact at multiples of 90.
pub fn sind(x: f64) -> f64 {
    let r = x.rem_euclid(360.0);
    if r % 90.0 == 0.0 {
        return [0.0, 1.0, 0.0, -1.0][(r / 90.0) as usize % 4]
            * if x.is_finite() { 1.0 } else { f64::NAN };
    }
    (x.to_radians()).sin()
}

pub fn cosd(x: f64) -> f64 {
    sind(x + 90.0)
}

/// tan of an angle in degrees, exact at multiples of 45.
pub fn tand(x: f64) -> f64 {
    let r = x.rem_euclid(180.0);
    if r == 0.0 {
        0.0
    } else if r == 90.0 {
        f64::INFINITY
    } else if r == 45.0 {
        1.0
    } else if r == 135.0 {
        -1.0
    } else {
        x.to_radians().tan()
    }
}

/// sin(pi x), exact at integers and halves (x reduced to [-1, 1] first).
pub fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = x - 2.0 * (x / 2.0).round();
    if r.fract() == 0.0 {
        0.0 * x.signum()
    } else if r.abs() == 0.5 {
        r.signum()
    } else {
        (std::f64::consts::PI * r).sin()
    }
}

/// cos(pi x), exact at integers and halves.
pub fn cospi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = (x - 2.0 * (x / 2.0).round()).abs();
    if r == 0.5 {
        0.0
    } else if r == 0.0 {
        1.0
    } else if r == 1.0 {
        -1.0
    } else {
        (std::f64::consts::PI * r).cos()
    }
}

/// The real n-th root (NaN for a negative x and an n that is not an odd integer, which the
/// builtin reports as an error): exact roots come out exact.
pub fn nthroot(v: f64, k: f64) -> f64 {
    if v < 0.0 && k.fract() == 0.0 && (k as i64) % 2 != 0 {
        let r = (-v).powf(1.0 / k);
        let rr = r.round();
        if (rr.powf(k) + v).abs() <= f64::EPSILON * v.abs() * 4.0 {
            -rr
        } else {
            -r
        }
    } else if v < 0.0 {
        f64::NAN
    } else {
        let r = v.powf(1.0 / k);
        // polish: one Newton step removes the round-off of powf for exact roots
        let rr = r.round();
        if (rr.powf(k) - v).abs() <= f64::EPSILON * v.abs() * 4.0 {
            rr
        } else {
            r
        }
    }
}

/// pow2(F, E) = F .* 2.^E.
pub fn pow2f(f: f64, e: f64) -> f64 {
    f * e.exp2()
}

pub fn beta(z: f64, w: f64) -> f64 {
    (libm::lgamma(z) + libm::lgamma(w) - libm::lgamma(z + w)).exp()
}

/// The value of one of the named functions of Un (None for the others).
pub fn eval(op: Un, x: f64) -> Option<f64> {
    use Un::*;
    Some(match op {
        Erfinv => erfinv(x),
        Erfcinv => erfinv(1.0 - x),
        Sind => sind(x),
        Cosd => cosd(x),
        Tand => tand(x),
        Secd => 1.0 / cosd(x),
        Cscd => 1.0 / sind(x),
        Cotd => cosd(x) / sind(x),
        Asind => x.asin().to_degrees(),
        Acosd => x.acos().to_degrees(),
        Atand => x.atan().to_degrees(),
        Asec => (1.0 / x).acos(),
        Acsc => (1.0 / x).asin(),
        Acot => (1.0 / x).atan(),
        Sech => 1.0 / x.cosh(),
        Csch => 1.0 / x.sinh(),
        Coth => 1.0 / x.tanh(),
        Asech => (1.0 / x).acosh(),
        Acsch => (1.0 / x).asinh(),
        Acoth => (1.0 / x).atanh(),
        Deg2rad => x.to_radians(),
        Rad2deg => x.to_degrees(),
        Sinpi => sinpi(x),
        Cospi => cospi(x),
        Nextpow2 => {
            if x == 0.0 {
                0.0
            } else {
                x.abs().log2().ceil()
            }
        }
        Pow2 => x.exp2(),
        Signbit => x.is_sign_negative() as u8 as f64,
        _ => return None,
    })
}

/// Inverse error function by Giles' polynomials in w = -log(1 - y^2) and two Newton steps.
pub fn erfinv(y: f64) -> f64 {
    if y.is_nan() || y.abs() > 1.0 {
        return f64::NAN;
    }
    if y == 1.0 {
        return f64::INFINITY;
    }
    if y == -1.0 {
        return f64::NEG_INFINITY;
    }
    // Giles' approximation, then Newton polishing
    let w = -((1.0 - y) * (1.0 + y)).ln();
    let mut x = if w < 6.25 {
        let w = w - 3.125;
        let mut p = -3.6444120640178196996e-21;
        for c in [
            -1.685059138182016589e-19,
            1.2858480715256400167e-18,
            1.115787767802518096e-17,
            -1.333171662854620906e-16,
            2.0972767875968561637e-17,
            6.6376381343583238325e-15,
            -4.0545662729752068639e-14,
            -8.1519341976054721522e-14,
            2.6335093153082322977e-12,
            -1.2975133253453532498e-11,
            -5.4154120542946279317e-11,
            1.051212273321532285e-09,
            -4.1126339803469836976e-09,
            -2.9070369957882005086e-08,
            4.2347877827932403518e-07,
            -1.3654692000834678645e-06,
            -1.3882523362786468719e-05,
            0.0001867342080340571352,
            -0.00074070253416626697512,
            -0.0060336708714301490533,
            0.24015818242558961693,
            1.6536545626831027356,
        ] {
            p = c + p * w;
        }
        p * y
    } else if w < 16.0 {
        let w = w.sqrt() - 3.25;
        let mut p = 2.2137376921775787049e-9;
        for c in [
            9.0756561938885390979e-08,
            -2.7517406297064545428e-07,
            1.8239629214389227755e-08,
            1.5027403968909827627e-06,
            -4.013867526981545969e-06,
            2.9234449089955446044e-06,
            1.2475304481671778723e-05,
            -4.7318229009055733981e-05,
            6.8284851459573175448e-05,
            2.4031110387097893999e-05,
            -0.0003550375203628474796,
            0.00095328937973738049703,
            -0.0016882755560235047313,
            0.0024914420961078508066,
            -0.0037512085075692412107,
            0.005370914553590063617,
            1.0052589676941592334,
            3.0838856104922207635,
        ] {
            p = c + p * w;
        }
        p * y
    } else {
        // Giles' third interval (1 - |y| below about 1e-7): before it, the middle
        // polynomial (taken about 3.0, not its 3.25) started Newton too far out, and
        // erfcinv(1e-13) came out 2.98 (it is 5.30).
        let w = w.sqrt() - 5.0;
        let mut p = -2.7109920616438573243e-11;
        for c in [
            -2.5556418169965252055e-10,
            1.5076572693500548083e-09,
            -3.7894654401267369937e-09,
            7.6157012080783393804e-09,
            -1.4960026627149240478e-08,
            2.9147953450901080826e-08,
            -6.7711997758452339498e-08,
            2.2900482228026654717e-07,
            -9.9298272942317002539e-07,
            4.5260625972231537039e-06,
            -1.9681778105531670567e-05,
            7.5995277030017761139e-05,
            -0.00021503011930044477347,
            -0.00013871931833623122026,
            1.0103004648645343977,
            4.8499064014085844221,
        ] {
            p = c + p * w;
        }
        p * y
    };
    for _ in 0..2 {
        // erf(x) - y from erfc where |y| > 1/2 (1 - |y| is exact there): from erf, the
        // residual near +-1 is all rounding and Newton wanders (erfcinv(1e-16) moved by 1e-3).
        let err = if y > 0.5 {
            (1.0 - y) - libm::erfc(x)
        } else if y < -0.5 {
            libm::erfc(-x) - (1.0 + y)
        } else {
            libm::erf(x) - y
        };
        x -= err / (2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp());
    }
    x
}
