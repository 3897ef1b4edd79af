//! The subscripts of an indexed assignment or deletion on the device, resolved: ranges as
//! progressions (never index arrays), host positions, or checked positions on the device.

use super::put::buffer_of;
use crate::gpu::buffers::DeviceBuffer;
use crate::gpu::put::{self as gput, Positions, Repeats};
use crate::graph;
use crate::values::class::Class;
use crate::values::value::Value;
use std::rc::Rc;

/// One subscript of an assignment or deletion, resolved.
pub(crate) enum Sub {
    /// `count` positions from `start` (0-based) in steps of `step`.
    Range { start: i64, step: i64, count: usize },
    /// 1-based positions given by the host.
    Host(Vec<u32>),
    /// 1-based positions on the device (checked), how many, and whether they are known to
    /// be distinct (a mask's positions are).
    Device(Rc<DeviceBuffer>, usize, bool),
}

impl Sub {
    pub(super) fn count(&self) -> usize {
        match self {
            Sub::Range { count, .. } => *count,
            Sub::Host(p) => p.len(),
            Sub::Device(_, c, _) => *c,
        }
    }
    pub(super) fn as_put(&self) -> gput::Sub<'_> {
        match self {
            Sub::Range { start, step, count } => gput::Sub::Range {
                start: *start,
                step: *step,
                count: *count,
            },
            Sub::Host(p) => {
                // Positions in strict order are distinct (found in one pass; a general
                // check would cost more than the marks it saves on the host's small arrays).
                let ordered =
                    p.windows(2).all(|w| w[0] < w[1]) || p.windows(2).all(|w| w[0] > w[1]);
                let repeats = match ordered {
                    true => Repeats::None,
                    false => Repeats::Possible,
                };
                gput::Sub::Index(Positions::Host(p.clone()), repeats)
            }
            Sub::Device(b, _, distinct) => {
                let repeats = match (distinct, crate::plan::gathers::distinct(b)) {
                    (true, _) | (false, Some(true)) => Repeats::None,
                    (false, Some(false)) => Repeats::Possible,
                    (false, None) => Repeats::Unchecked,
                };
                gput::Sub::Index(Positions::Device(b), repeats)
            }
        }
    }
    /// Whether a put through this subscript marks its positions (repeats possible or not
    /// yet counted; with one value for every place it marks nothing).
    pub(super) fn marked(&self) -> bool {
        match self {
            Sub::Range { .. } => false,
            _ => matches!(self.as_put(), gput::Sub::Index(_, r) if r != Repeats::None),
        }
    }
    /// Keeps the count of repeats a put (`gpu::put::put`) made of the one device index
    /// array it counted (read when the array is used again).
    /// `put_subs` are `subs` as the put took them (`as_put`).
    pub(super) fn remember(subs: &[Sub], put_subs: &[gput::Sub<'_>], count: Option<DeviceBuffer>) {
        let Some(count) = count else {
            return;
        };
        let counted = subs
            .iter()
            .zip(put_subs)
            .find(|(_, p)| matches!(p, gput::Sub::Index(_, Repeats::Unchecked)));
        if let Some((Sub::Device(b, ..), _)) = counted {
            crate::plan::gathers::remember_count(b, count);
        }
    }
}

/// 1-based positions as a progression when they are one.
fn from_positions(p: Vec<u32>) -> Sub {
    let first = p.first().copied().unwrap_or(1) as i64;
    let step = p.get(1).map_or(1, |&x| x as i64 - first);
    let even = p
        .iter()
        .enumerate()
        .all(|(k, &x)| x as i64 == first + k as i64 * step);
    if even {
        Sub::Range {
            start: first - 1,
            step,
            count: p.len(),
        }
    } else {
        Sub::Host(p)
    }
}

/// Whole positions `first, first + step, ...` within `limit` (`x(end+1:end+m)`, `x(a:b)`)
/// as a range, found in one pass over the values without building a position list: a
/// subscript of 1e6 values took milliseconds of the statement otherwise. None for anything
/// else (repeated positions included), which the general form resolves.
fn progression(values: &[f64], limit: usize) -> Option<(Sub, usize)> {
    let first = *values.first()?;
    let last = *values.last()?;
    let step = values.get(1).map_or(1.0, |&x| x - first);
    let whole = |x: f64| x >= 1.0 && x <= limit as f64 && x.fract() == 0.0;
    if !whole(first) || !whole(last) || step == 0.0 || step.fract() != 0.0 {
        return None;
    }
    if !values
        .iter()
        .enumerate()
        .all(|(k, &x)| x == first + k as f64 * step)
    {
        return None;
    }
    Some((
        Sub::Range {
            start: first as i64 - 1,
            step: step as i64,
            count: values.len(),
        },
        first.max(last) as usize,
    ))
}

/// Every subscript of an assignment that may grow the array (`args` over the folded
/// `sizes`) resolved, with the extent each needs; None when one is not a form taken here.
pub(super) fn resolve_growing(args: &[Value], sizes: &[usize]) -> Option<(Vec<Sub>, Vec<usize>)> {
    args.iter()
        .zip(sizes)
        .map(|(a, &extent)| resolve(a, extent, true))
        .collect::<Option<Vec<_>>>()
        .map(|pairs| pairs.into_iter().unzip())
}

/// One subscript over `extent` positions and the extent it needs (one past its last
/// position); positions past `extent` only where `grow`. None for forms not taken here and
/// for bad subscripts (the general path reports them).
pub(super) fn resolve(a: &Value, extent: usize, grow: bool) -> Option<(Sub, usize)> {
    let limit = if grow { u32::MAX as usize / 2 } else { extent };
    let whole = |x: f64| x >= 1.0 && x <= limit as f64 && x.fract() == 0.0;
    match a {
        _ if a.is_char() => {
            let colon = a.text().ok().is_some_and(|t| t == ":");
            colon.then_some((
                Sub::Range {
                    start: 0,
                    step: 1,
                    count: extent,
                },
                extent,
            ))
        }
        Value::Num(x) if whole(*x) => Some((
            Sub::Range {
                start: *x as i64 - 1,
                step: 0,
                count: 1,
            },
            *x as usize,
        )),
        Value::Tensor(t) if t.is_complex() || t.class() == Class::Char => None,
        Value::Tensor(t) if t.class() == Class::Logical => {
            let values = t.to_f64();
            let mut p = Vec::new();
            for (k, &b) in values.iter().enumerate() {
                if b != 0.0 {
                    if k >= extent {
                        return None;
                    }
                    p.push((k + 1) as u32);
                }
            }
            Some((from_positions(p), extent))
        }
        Value::Tensor(t) => {
            let values = t.to_f64();
            if let Some(range) = progression(&values, limit) {
                return Some(range);
            }
            if !values.iter().all(|&x| whole(x)) {
                return None;
            }
            let need = values.iter().fold(0usize, |m, &x| m.max(x as usize));
            let p = values.iter().map(|&x| x as u32).collect();
            Some((from_positions(p), need))
        }
        Value::Device(x) if x.class() == Class::Logical => {
            if x.node.numel() > extent || x.node.numel() == 0 {
                return None;
            }
            let (found, count) = super::gathers::positions(x)?;
            match found {
                // Pending positions are compacted now: the assignment reads them.
                Some(at) => {
                    crate::plan::realise(&at).ok()?;
                    Some((Sub::Device(buffer_of(&at)?, count, true), extent))
                }
                None => Some((
                    Sub::Range {
                        start: 0,
                        step: 1,
                        count: 0,
                    },
                    0,
                )),
            }
        }
        Value::Device(x) if grow => {
            // Positions past the end grow the array (its new extent is the largest).
            let (node, count, largest) = super::gathers::checked_growth(x, extent, limit)?;
            crate::plan::realise(&node).ok()?;
            Some((
                Sub::Device(buffer_of(&node)?, count, false),
                largest.max(extent),
            ))
        }
        Value::Device(x) => {
            if x.node.numel() == 0 {
                return None;
            }
            let (node, count) = super::gathers::checked_index(x, extent)?;
            crate::plan::realise(&node).ok()?;
            Some((Sub::Device(buffer_of(&node)?, count, false), extent))
        }
        _ => None,
    }
}

/// An assignment's subscripts: values the interpreter evaluated, or progressions.
pub(super) enum Subscripts<'a> {
    Values(&'a [Value]),
    Ranges(&'a [graph::Progression]),
}

impl Subscripts<'_> {
    pub(super) fn len(&self) -> usize {
        match self {
            Subscripts::Values(a) => a.len(),
            Subscripts::Ranges(p) => p.len(),
        }
    }
    /// Each subscript resolved over the folded `sizes`, with the extent it needs.
    pub(super) fn resolve(&self, sizes: &[usize]) -> Option<(Vec<Sub>, Vec<usize>)> {
        match self {
            Subscripts::Values(args) => resolve_growing(args, sizes),
            Subscripts::Ranges(dims) => Some(
                dims.iter()
                    .map(|p| {
                        let sub = Sub::Range {
                            start: p.start,
                            step: p.step,
                            count: p.count,
                        };
                        (sub, p.extent())
                    })
                    .unzip(),
            ),
        }
    }
}
