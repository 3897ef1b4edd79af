//! Gathers in a fused group: the source array is bound whole and read at an address made of
//! each subscript's position (a progression of the result's subscript, or an index input's
//! value read as a whole number, never through the kernel's element type, so single kernels
//! address past 2^24) times the source's folded stride.

use super::{Access, Group, Step, access, first, input_step};
use crate::graph::{Node, Op, Pick, folded_sizes};
use std::rc::Rc;

/// One subscript of a planned gather.
#[derive(Clone, Debug)]
pub struct GatherSub {
    pub pick: Pick,
    /// The input holding an index subscript's values.
    pub input: Option<usize>,
    /// How far one position along the subscript moves in the source.
    pub stride: u64,
}

/// A gather of a group: the input it reads and its subscripts.
#[derive(Clone, Debug)]
pub struct GatherPlan {
    pub source: usize,
    pub subs: Vec<GatherSub>,
}

impl GatherPlan {
    /// The shape-table words of its subscripts: stride, start, step each (two's complement).
    pub fn words(&self) -> impl Iterator<Item = u32> + '_ {
        self.subs.iter().flat_map(|s| {
            let (start, step) = match s.pick {
                Pick::Range { start, step } => (start, step),
                Pick::Index => (0, 0),
            };
            [s.stride as u32, start as i32 as u32, step as i32 as u32]
        })
    }
}

/// The step of gather `n` (of the group's shape) with `picks`, its source and indices
/// computed first.
pub(super) fn step(n: &Rc<Node>, picks: &[Pick], g: &mut Group) -> Step {
    let Some(source) = n.inputs.first() else {
        return malformed(g);
    };
    if !source.is_realised() {
        first(source, g);
    }
    // Bound whole; its one element per thread is not what the gather reads.
    let Step::Input(src) = input_step(g, source, Access::Scalar) else {
        return malformed(g);
    };
    let sizes = folded_sizes(&source.shape, picks.len());
    let mut stride = 1u64;
    let mut next = 1;
    let mut subs = Vec::with_capacity(picks.len());
    for (pick, size) in picks.iter().zip(&sizes) {
        let input = match pick {
            Pick::Range { .. } => None,
            Pick::Index => {
                let Some(idx) = n.inputs.get(next) else {
                    return malformed(g);
                };
                next += 1;
                let idx = &reshaped_data(idx);
                if !idx.is_realised() {
                    first(idx, g);
                }
                match input_step(g, idx, access(&idx.shape, &g.shape)) {
                    Step::Input(k) => Some(k),
                    _ => return malformed(g),
                }
            }
        };
        subs.push(GatherSub {
            pick: *pick,
            input,
            stride,
        });
        stride = stride.saturating_mul(*size as u64);
    }
    g.gathers.push(GatherPlan { source: src, subs });
    Step::Gather(g.gathers.len() - 1)
}

/// An index subscript that is a pending reshape of computed positions (a column index of a
/// row, `x(idx)` with `x` a row and `idx` a column) read as those positions under the
/// reshape's shape: the same data in the same order, so no kernel copies it each time.
fn reshaped_data(idx: &Rc<Node>) -> Rc<Node> {
    if let Op::Reshape = idx.op
        && !idx.is_realised()
        && let Some(input) = idx.inputs.first()
        && let Some(data) = input.data.borrow().clone()
    {
        return crate::graph::leaf(data, idx.shape.clone(), idx.class);
    }
    idx.clone()
}

/// A gather node without its inputs (never made so): the group cannot run.
fn malformed(g: &mut Group) -> Step {
    g.error.get_or_insert_with(|| {
        crate::interp::error::MError::new("matfuse:internal", "A gather lost its inputs.")
    });
    Step::Input(0)
}

thread_local! {
    /// Device index arrays found valid lately, with the smallest extent they were checked
    /// against (their positions are at most that).
    static CHECKED: std::cell::RefCell<Vec<(std::rc::Weak<crate::gpu::buffers::DeviceBuffer>, usize)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// How many checked index arrays are remembered.
const REMEMBERED: usize = 16;

fn buffer_of(n: &crate::graph::Node) -> Option<Rc<crate::gpu::buffers::DeviceBuffer>> {
    match &*n.data.borrow() {
        Some(crate::graph::Data::Device(b)) => Some(b.clone()),
        _ => None,
    }
}

/// Whether `n`'s computed data was found to hold positions within `extent`.
pub fn checked(n: &crate::graph::Node, extent: usize) -> bool {
    let Some(b) = buffer_of(n) else {
        return false;
    };
    CHECKED.with(|c| {
        c.borrow().iter().any(|(w, at)| {
            *at <= extent && w.upgrade().is_some_and(|x| std::rc::Rc::ptr_eq(&x, &b))
        })
    })
}

/// Remembers that `n`'s data (once computed) holds positions within `extent`.
pub fn remember(n: &crate::graph::Node, extent: usize) {
    let Some(b) = buffer_of(n) else {
        return;
    };
    CHECKED.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|(w, _)| w.strong_count() > 0);
        if c.len() >= REMEMBERED {
            c.remove(0);
        }
        c.push((std::rc::Rc::downgrade(&b), extent));
    });
}

/// Forgets what was known of `b`'s values (it is about to be written in place).
pub fn forget(b: &crate::gpu::buffers::DeviceBuffer) {
    CHECKED.with(|c| {
        c.borrow_mut()
            .retain(|(w, _)| w.upgrade().is_some_and(|x| !std::ptr::eq(&*x, b)));
    });
    DISTINCT.with(|c| {
        c.borrow_mut()
            .retain(|(w, _)| w.upgrade().is_some_and(|x| !std::ptr::eq(&*x, b)));
    });
}

/// What is known of the repeats among an index array's positions.
enum Verdict {
    Known(bool),
    /// Counted by an assignment (`gpu::put`), not yet read: the count of repeats.
    Counted(Rc<crate::gpu::buffers::DeviceBuffer>),
}

thread_local! {
    /// Index arrays on the device whose positions were counted for repeats by an indexed
    /// assignment (`gpu::put`), with the verdict (true: every position named once), so
    /// later assignments through them (`x(idx) = f(x(idx))` in a loop) skip the marks.
    static DISTINCT: std::cell::RefCell<Vec<(std::rc::Weak<crate::gpu::buffers::DeviceBuffer>, Verdict)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// What is known of the repeats among the positions `b` holds: Some(true) when each is
/// named once. A count not yet read is read now (one word; the array is being used again).
/// Only whole buffers are remembered (a view's storage is written through its parent,
/// which `forget` would not match).
pub fn distinct(b: &Rc<crate::gpu::buffers::DeviceBuffer>) -> Option<bool> {
    if b.parent.is_some() {
        return None;
    }
    let counted = DISTINCT.with(|c| {
        c.borrow()
            .iter()
            .find(|(w, _)| w.upgrade().is_some_and(|x| Rc::ptr_eq(&x, b)))
            .map(|(_, v)| match v {
                Verdict::Known(d) => Ok(*d),
                Verdict::Counted(count) => Err(count.clone()),
            })
    })?;
    let count = match counted {
        Ok(d) => return Some(d),
        Err(count) => count,
    };
    let verdict = crate::gpu::put::no_repeats(&count).ok()?;
    DISTINCT.with(|c| {
        for (w, v) in c.borrow_mut().iter_mut() {
            if w.upgrade().is_some_and(|x| Rc::ptr_eq(&x, b)) {
                *v = Verdict::Known(verdict);
            }
        }
    });
    Some(verdict)
}

/// Remembers the count of repeats among `b`'s positions (`gpu::put`'s, read when needed).
pub fn remember_count(
    b: &Rc<crate::gpu::buffers::DeviceBuffer>,
    count: crate::gpu::buffers::DeviceBuffer,
) {
    if b.parent.is_some() {
        return;
    }
    DISTINCT.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|(w, _)| w.upgrade().is_some_and(|x| !Rc::ptr_eq(&x, b)));
        if c.len() >= REMEMBERED {
            c.remove(0);
        }
        c.push((Rc::downgrade(b), Verdict::Counted(Rc::new(count))));
    });
}
