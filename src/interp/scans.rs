//! Cumulative functions, `diff` and `nnz` of gpuArrays on the device. `cumsum`, `cumprod`,
//! `cummax` and `cummin` run `gpu::scan` over the array where it is stored, any dimension,
//! 'reverse', 'omitnan'; `diff` is gathers of the array shifted by one along the dimension
//! and a subtraction, all in the lazy graph (it fuses with what follows); `nnz` is a sum of
//! `x ~= 0` on the device. The results stay gpuArrays. Forms these do not take (other
//! classes, empty arrays, options they do not know) return None and the host computes them.

use super::lower;
use crate::gpu::buffers::DeviceBuffer;
use crate::gpu::device::Gpu;
use crate::gpu::scan::{Lanes, ScanOp};
use crate::graph::{self, Data, Node, Precision};
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::ops::Bin;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// A gpuArray a device kernel takes: single or double, real, nonempty, its values computed
/// and on the device in its own precision.
pub(super) struct Input {
    pub node: Rc<Node>,
    pub buffer: Rc<DeviceBuffer>,
    pub precision: Precision,
    pub explicit: bool,
}

pub(super) fn device_input(g: &Gpu, v: &Value) -> Option<Input> {
    let Value::Device(d) = v else {
        return None;
    };
    if !d.explicit || !crate::gpu::offload_allowed() {
        return None;
    }
    let precision = match d.class() {
        Class::Single => Precision::F32,
        Class::Double if g.info.supports_double && g.info.supports_int64 => Precision::F64,
        _ => return None,
    };
    let node = graph::memory::settled(&d.node);
    if node.numel() == 0 || node.numel() >= u32::MAX as usize / 2 {
        return None;
    }
    crate::plan::realise(&node).ok()?;
    let buffer = crate::gpu::kernels::device_input(g, &node, precision).ok()?;
    if buffer.precision != precision || buffer.len < node.numel() {
        return None;
    }
    Some(Input {
        node,
        buffer,
        precision,
        explicit: d.explicit,
    })
}

/// A device result of `shape` and `class` as a gpuArray.
pub(super) fn result(buffer: DeviceBuffer, shape: Shape, class: Class, explicit: bool) -> Value {
    let node = graph::leaf(Data::Device(Rc::new(buffer)), shape, class);
    Value::Device(Rc::new(DeviceValue { node, explicit }))
}

/// A text argument, lowercase.
pub(super) fn word(v: &Value) -> Option<String> {
    if v.is_text() {
        v.text().ok().map(|t| t.to_ascii_lowercase())
    } else {
        None
    }
}

/// A dimension argument (0-based), or None for anything but a positive whole number.
pub(super) fn dim_of(v: &Value) -> Option<usize> {
    if v.is_text() {
        return None;
    }
    let d = v.scalar_f64().ok()?;
    (d >= 1.0 && d <= 4096.0 && d.fract() == 0.0).then(|| d as usize - 1)
}

/// The device form of `name(args)` when it has one (None: the host computes it).
pub fn builtin(name: &str, args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    if matches!(name, "conv" | "filter") {
        return super::convolve::builtin(name, args, nargout);
    }
    if !matches!(args.first(), Some(Value::Device(d)) if d.explicit) {
        return None;
    }
    match name {
        "cumsum" | "cumprod" | "cummax" | "cummin" if nargout <= 1 => cumulative(name, args),
        "diff" if nargout <= 1 => diff(args).map(|v| Ok(vec![v])),
        "nnz" if nargout <= 1 && args.len() == 1 => nnz(&args[0]).map(|v| Ok(vec![v])),
        "histcounts" | "accumarray" => super::bins::builtin(name, args, nargout),
        _ => super::sorts::builtin(name, args, nargout),
    }
}

fn cumulative(name: &str, args: &[Value]) -> Option<MResult<Vec<Value>>> {
    let op = match name {
        "cumsum" => ScanOp::Sum,
        "cumprod" => ScanOp::Prod,
        "cummax" => ScanOp::Max,
        _ => ScanOp::Min,
    };
    let extreme = matches!(op, ScanOp::Max | ScanOp::Min);
    let mut dim = None;
    let (mut reverse, mut omitnan) = (false, extreme);
    for (k, a) in args.iter().enumerate().skip(1) {
        match word(a).as_deref() {
            Some("reverse") => reverse = true,
            Some("forward") => reverse = false,
            Some("omitnan" | "omitmissing") => omitnan = true,
            Some("includenan" | "includemissing") if !extreme => omitnan = false,
            Some(_) => return None,
            None if k == 1 => dim = Some(dim_of(a)?),
            None => return None,
        }
    }
    let g = crate::gpu::device::ready()?;
    let x = device_input(g, &args[0])?;
    let shape = x.node.shape.clone();
    let d = dim.unwrap_or_else(|| crate::values::ops::reduce::default_dim(&shape));
    let (inner, len, outer) = crate::values::ops::reduce::lanes(&shape, d);
    let lanes = Lanes { inner, len, outer };
    if !crate::gpu::scan::fits(g, lanes, x.precision) {
        return None;
    }
    let r = crate::gpu::scan::run(g, &x.buffer, lanes, op, omitnan, reverse);
    let buf = match crate::plan::device_result(r, name) {
        Ok(Some(b)) => b,
        Ok(None) => return None,
        Err(e) => return Some(Err(e)),
    };
    Some(Ok(vec![result(buf, shape, x.node.class, x.explicit)]))
}

/// `diff(x, n, dim)`: `x(.., 2:end, ..) - x(.., 1:end-1, ..)` n times, in the graph. None when
/// an order runs the dimension out (the host's rules for that), or for other forms.
fn diff(args: &[Value]) -> Option<Value> {
    let Value::Device(x) = args.first()? else {
        return None;
    };
    if !matches!(x.class(), Class::Single | Class::Double) || x.node.numel() == 0 {
        return None;
    }
    let order = match args.get(1) {
        Some(v) if v.is_empty() && !v.is_text() => 1,
        Some(v) => {
            let n = v.scalar_f64().ok()?;
            if !(1.0..=1e6).contains(&n) || n.fract() != 0.0 {
                return None;
            }
            n as usize
        }
        None => 1,
    };
    let shape = x.node.shape.clone();
    let d = match args.get(2) {
        Some(v) => dim_of(v)?,
        None => crate::values::ops::reduce::default_dim(&shape),
    };
    if args.len() > 3 || order >= shape.dim(d) {
        return None;
    }
    let mut v = Value::Device(x.clone());
    for _ in 0..order {
        let Value::Device(cur) = &v else {
            return None;
        };
        let dims = cur.node.shape.ndims().max(d + 1);
        let len = cur.node.shape.dim(d);
        // Views of the array shifted along `d` (regions of progressions: an index array of
        // the positions cost 130 ms a diff of 1e7 elements on the host to build and check).
        let cur_shape = cur.node.shape.clone();
        let along = |start: i64| {
            let dims: Vec<crate::graph::Progression> = (0..dims)
                .map(|k| crate::graph::Progression {
                    start: if k == d { start } else { 0 },
                    step: 1,
                    count: if k == d { len - 1 } else { cur_shape.dim(k) },
                })
                .collect();
            let out = Shape::new(&dims.iter().map(|p| p.count).collect::<Vec<_>>());
            super::slices::view_of(cur, crate::graph::Region { dims }, out)
        };
        let later = along(1)?;
        let earlier = along(0)?;
        v = lower::binary(Bin::Sub, &later, &earlier)?;
    }
    Some(v)
}

/// `nnz(x)`: the count of `x ~= 0` (NaN counts), summed on the device.
fn nnz(x: &Value) -> Option<Value> {
    let Value::Device(d) = x else {
        return None;
    };
    if !matches!(d.class(), Class::Single | Class::Double | Class::Logical) || d.node.numel() == 0 {
        return None;
    }
    let ne = lower::binary(Bin::Ne, x, &Value::Num(0.0))?;
    lower::reduction("sum", &[ne, Value::str("all")])
}
