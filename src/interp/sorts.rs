//! `sort` of gpuArrays on the device (`gpu::sort`): any dimension, 'ascend' or 'descend',
//! with the indices, stable as MATLAB's (equal values keep their order, -0 equal to 0; NaN
//! last ascending and first descending). Values and indices stay gpuArrays.

use super::scans::{device_input, dim_of, result, word};
use crate::gpu::scan::Lanes;
use crate::graph::Precision;
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::value::Value;

/// The device form of `name(args)` among the sorting and set functions, or None.
pub fn builtin(name: &str, args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    match name {
        "sort" if nargout <= 2 => sort(args, nargout),
        _ => None,
    }
}

/// The precision of index results (doubles where the device has them).
pub(super) fn index_precision(g: &crate::gpu::device::Gpu) -> Precision {
    if g.info.supports_double && g.info.supports_int64 {
        Precision::F64
    } else {
        Precision::F32
    }
}

fn sort(args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    let mut dim = None;
    let mut descend = false;
    for (k, a) in args.iter().enumerate().skip(1) {
        match word(a).as_deref() {
            Some("ascend") => descend = false,
            Some("descend") => descend = true,
            Some(_) => return None,
            None if k == 1 => dim = Some(dim_of(a)?),
            None => return None,
        }
    }
    let g = crate::gpu::device::ready()?;
    let x = device_input(g, args.first()?)?;
    let shape = x.node.shape.clone();
    let d = dim.unwrap_or_else(|| crate::values::ops::reduce::default_dim(&shape));
    let (inner, len, outer) = crate::values::ops::reduce::lanes(&shape, d);
    let lanes = Lanes { inner, len, outer };
    let ip = index_precision(g);
    if !crate::gpu::sort::fits(g, lanes, x.precision) || (ip == Precision::F32 && len > 1 << 24) {
        return None;
    }
    let want = (nargout == 2).then_some(ip);
    let r = crate::gpu::sort::sort(g, &x.buffer, lanes, descend, want);
    let (values, index) = match crate::plan::device_result(r, "sort") {
        Ok(Some(b)) => b,
        Ok(None) => return None,
        Err(e) => return Some(Err(e)),
    };
    let mut out = vec![result(values, shape.clone(), x.node.class, x.explicit)];
    if let Some(i) = index {
        out.push(result(i, shape, Class::Double, x.explicit));
    }
    Some(Ok(out))
}
