//! `sort`, `unique` and `ismember` of gpuArrays on the device. `sort` (`gpu::sort`): any
//! dimension, 'ascend' or 'descend', with the indices, stable as MATLAB's (equal values keep
//! their order, -0 equal to 0; NaN last ascending and first descending). `unique`: the
//! array sorted, the starts of its groups of equal values compacted (`gpu::compact`, the
//! count of groups is the one number read back), values and first (or last) places read
//! there, `ic` from a running count of the starts; 'stable' sorts the groups' first places.
//! `ismember`: the set sorted once, each element found by binary search (`gpu::sets`).
//! `sortrows`: the row order refined by a stable sort of each key column, the last key
//! first, then the rows taken in that order. Results stay gpuArrays.

use super::scans::{device_input, dim_of, result, word};
use crate::gpu::buffers::DeviceBuffer;
use crate::gpu::scan::{Lanes, ScanOp};
use crate::gpu::{compact, sets};
use crate::graph::Precision;
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::value::Value;

/// The device form of `name(args)` among the sorting and set functions, or None.
pub fn builtin(name: &str, args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    match name {
        "sort" if nargout <= 2 => sort(args, nargout),
        "unique" if nargout <= 3 => unique(args, nargout),
        "ismember" if nargout <= 2 && args.len() == 2 => ismember(args, nargout),
        "sortrows" if nargout <= 2 => sortrows(args, nargout),
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

/// One lane of `n` elements (an array taken as `x(:)`).
fn whole(n: usize) -> Lanes {
    Lanes {
        inner: 1,
        len: n,
        outer: 1,
    }
}

/// What a device step gave, or the host's turn (None), or the error the user must see.
fn settle<T>(r: MResult<T>, what: &str) -> Option<MResult<T>> {
    match crate::plan::device_result(r, what) {
        Ok(Some(v)) => Some(Ok(v)),
        Ok(None) => None,
        Err(e) => Some(Err(e)),
    }
}

struct Unique {
    values: DeviceBuffer,
    first: DeviceBuffer,
    groups: Option<DeviceBuffer>,
    count: usize,
}

fn unique(args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    let (mut stable, mut last) = (false, false);
    for a in &args[1..] {
        match word(a).as_deref() {
            Some("stable") => stable = true,
            Some("sorted") => stable = false,
            Some("last") => last = true,
            Some("first") => last = false,
            _ => return None,
        }
    }
    let g = crate::gpu::device::ready()?;
    let x = device_input(g, args.first()?)?;
    let n = x.node.numel();
    let ip = index_precision(g);
    if !crate::gpu::sort::fits(g, whole(n), x.precision) || (ip == Precision::F32 && n > 1 << 24) {
        return None;
    }
    let r = unique_on_device(g, &x.buffer, n, ip, stable, last, nargout);
    let u = match settle(r, "unique")? {
        Ok(u) => u,
        Err(e) => return Some(Err(e)),
    };
    let shape = if x.node.shape.is_row() {
        Shape::row(u.count)
    } else {
        Shape::col(u.count)
    };
    let mut out = vec![result(u.values, shape, x.node.class, x.explicit)];
    if nargout > 1 {
        out.push(result(
            u.first,
            Shape::col(u.count),
            Class::Double,
            x.explicit,
        ));
    }
    if let Some(ic) = u.groups {
        out.push(result(ic, Shape::col(n), Class::Double, x.explicit));
    }
    Some(Ok(out))
}

fn unique_on_device(
    g: &crate::gpu::device::Gpu,
    x: &DeviceBuffer,
    n: usize,
    ip: Precision,
    stable: bool,
    last: bool,
    nargout: usize,
) -> MResult<Unique> {
    let p = x.precision;
    let lanes = whole(n);
    let order = crate::gpu::sort::order(g, x, lanes, false)?;
    let (sorted, idx) = crate::gpu::sort::place(g, x, &order, lanes, Some(ip))?;
    let idx = idx.ok_or_else(internal)?;
    let starts = sets::group_flags(g, &sorted, n, false, ip)?;
    let (at, count) = compact::find(&starts, n, ip)?;
    let at = at.ok_or_else(internal)?;
    let first = sets::take(g, &idx, &at, count, ip)?;
    // Each group's last place: where the next one starts, less one.
    let ia_sorted = if last {
        let ends = sets::group_flags(g, &sorted, n, true, ip)?;
        let (end_at, _) = compact::find(&ends, n, ip)?;
        let end_at = end_at.ok_or_else(internal)?;
        sets::take(g, &idx, &end_at, count, ip)?
    } else {
        sets::take(g, &idx, &at, count, ip)?
    };
    let ic = if nargout > 2 {
        let number = crate::gpu::scan::run(g, &starts, lanes, ScanOp::Sum, false, false)?;
        Some(sets::spread(g, Some(&number), &idx, n, n, ip)?)
    } else {
        None
    };
    if !stable {
        return Ok(Unique {
            values: sets::take(g, &sorted, &at, count, p)?,
            first: ia_sorted,
            groups: ic,
            count,
        });
    }
    // Groups in the order of their first places: `perm[j]` is the sorted group shown j-th.
    let groups = whole(count);
    let by_first = crate::gpu::sort::order(g, &first, groups, false)?;
    let (first_sorted, perm) = crate::gpu::sort::place(g, &first, &by_first, groups, Some(ip))?;
    let perm = perm.ok_or_else(internal)?;
    let values = sets::take(g, x, &first_sorted, count, p)?;
    let ia = if last {
        sets::take(g, &ia_sorted, &perm, count, ip)?
    } else {
        first_sorted
    };
    let ic = match ic {
        Some(ic) => {
            let rank = sets::spread(g, None, &perm, count, count, ip)?;
            Some(sets::take(g, &rank, &ic, n, ip)?)
        }
        None => None,
    };
    Ok(Unique {
        values,
        first: ia,
        groups: ic,
        count,
    })
}

fn internal() -> crate::interp::error::MError {
    crate::interp::error::MError::new("matfuse:internal", "A device step gave no result.")
}

fn ismember(args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    let g = crate::gpu::device::ready()?;
    let a = device_input(g, args.first()?)?;
    let set = match &args[1] {
        Value::Device(_) => args[1].clone(),
        v => super::lower::to_graph_value(v, true)?,
    };
    let s = device_input(g, &set)?;
    if a.precision != s.precision || a.node.class != s.node.class {
        return None;
    }
    let (n, m) = (a.node.numel(), s.node.numel());
    let ip = index_precision(g);
    if !crate::gpu::sort::fits(g, whole(m), s.precision) || (ip == Precision::F32 && m > 1 << 24) {
        return None;
    }
    let r = (|| {
        let order = crate::gpu::sort::order(g, &s.buffer, whole(m), false)?;
        let (sorted, sidx) = crate::gpu::sort::place(g, &s.buffer, &order, whole(m), Some(ip))?;
        let sidx = sidx.ok_or_else(internal)?;
        sets::member(g, &a.buffer, n, &sorted, &sidx, m, nargout > 1)
    })();
    let (tf, loc) = match settle(r, "ismember")? {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let shape = a.node.shape.clone();
    let mut out = vec![result(tf, shape.clone(), Class::Logical, a.explicit)];
    if let Some(loc) = loc {
        out.push(result(loc, shape, Class::Double, a.explicit));
    }
    Some(Ok(out))
}

fn sortrows(args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    let mut descend_all = false;
    let mut columns = None;
    for (k, a) in args.iter().enumerate().skip(1) {
        match word(a).as_deref() {
            Some("ascend") => descend_all = false,
            Some("descend") => descend_all = true,
            Some(_) => return None,
            None if k == 1 && !matches!(a, Value::Device(_)) => {
                columns = Some(a.clone().host().ok()?.tensor().ok()?.to_f64().into_owned())
            }
            None => return None,
        }
    }
    let g = crate::gpu::device::ready()?;
    let x = device_input(g, args.first()?)?;
    let shape = x.node.shape.clone();
    if shape.ndims() != 2 {
        return None;
    }
    let (rows, cols) = (shape.dim(0), shape.dim(1));
    // (column, descending) of each key, most significant first.
    let keys: Vec<(usize, bool)> = match columns {
        Some(c) if !c.is_empty() => {
            let mut keys = Vec::with_capacity(c.len());
            for x in c {
                let j = x.abs();
                if j < 1.0 || j > cols as f64 || x.fract() != 0.0 {
                    return None;
                }
                keys.push((j as usize - 1, (x < 0.0) != descend_all));
            }
            keys
        }
        _ => (0..cols).map(|j| (j, descend_all)).collect(),
    };
    let ip = index_precision(g);
    if !crate::gpu::sort::fits(g, whole(rows), x.precision)
        || (ip == Precision::F32 && rows > 1 << 24)
    {
        return None;
    }
    let r = (|| {
        let mut order = sets::count(g, rows, ip)?;
        for &(j, descend) in keys.iter().rev() {
            let column = sets::take_rows(g, &x.buffer, &order, rows, j * rows, rows)?;
            let by = crate::gpu::sort::order(g, &column, whole(rows), descend)?;
            let (_, places) = crate::gpu::sort::place(g, &column, &by, whole(rows), Some(ip))?;
            order = sets::take(g, &order, &places.ok_or_else(internal)?, rows, ip)?;
        }
        let sorted = sets::take_rows(g, &x.buffer, &order, rows, 0, rows * cols)?;
        Ok((sorted, order))
    })();
    let (sorted, order) = match settle(r, "sortrows")? {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let mut out = vec![result(sorted, shape, x.node.class, x.explicit)];
    if nargout > 1 {
        out.push(result(order, Shape::col(rows), Class::Double, x.explicit));
    }
    Some(Ok(out))
}
