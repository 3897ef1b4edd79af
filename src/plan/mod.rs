//! Planning: the pending nodes under a value a sink needs become one fused group (one kernel),
//! and the group runs on the GPU or on the host.
//!
//! Policy (materialise vs recompute): only the value the sink asked for is materialised.
//! Intermediate pending values that other variables still hold stay pending and are
//! recomputed inside whatever kernel later needs them, so a kernel never writes buffers that
//! may go unused. A chain longer than `MAX_CHAIN` operations, or with more inputs than one
//! kernel can bind, is cut: its deepest pending parts are materialised first.

pub mod cpu;
pub mod gathers;
pub mod in_place;
pub mod loops;
pub mod moments;
pub mod reduce;
pub mod region_space;

use crate::graph::{self, Data, Node, Op, Precision};
use crate::interp::error::{MError, MResult};
use crate::values::ops::{Bin, Un};
use crate::values::shape::Shape;
use std::collections::HashMap;
use std::rc::Rc;

/// Most fused operations in one kernel.
pub const MAX_CHAIN: usize = 96;
/// Inputs one kernel may bind besides its output, shape table and constants.
pub const MAX_INPUTS: usize = 8;

/// How a kernel reads one input for output element `i`.
#[derive(Clone, Debug, PartialEq)]
pub enum Access {
    /// Same shape as the output: element `i`.
    Same,
    /// One element, used everywhere.
    Scalar,
    /// Strides per output dimension and the first element's place: implicit expansion (0
    /// where the input has size 1), transposed and affine views. Strides are two's
    /// complement (a reversed view steps back); addresses wrap to the element.
    Strided(Vec<u32>, u32),
    /// Region `r`'s element at the output element (the values an embed writes there).
    Region(usize),
}

/// One operation of a group; operands are earlier steps.
#[derive(Clone, Debug)]
pub enum Step {
    Input(usize),
    Const(usize),
    Unary(Un, usize),
    Binary(Bin, usize, usize),
    /// Random numbers: `rands[j]`, at the element's own index.
    Rand(usize),
    /// The element's 1-based subscript along a dimension (linear index + 1 without one).
    Iota(Option<usize>),
    /// The second step's value where the element is in region `r`, else the first's.
    Embed(usize, usize, usize),
    /// `gathers[j]`: the source's element at the place the subscripts give.
    Gather(usize),
    /// The second step's value where the first is nonzero, else the third's.
    Select(usize, usize, usize),
}

/// A fused elementwise group: computes `root` from realised leaves and constants.
pub struct Group {
    pub shape: Shape,
    pub precision: Precision,
    /// Whether every step and input share `precision` (else only the host runs it).
    pub uniform_precision: bool,
    pub leaves: Vec<Rc<Node>>,
    pub inputs: Vec<Access>,
    /// Each input's element type on the device (a kernel converts what it reads to its own).
    pub bindings: Vec<Precision>,
    pub consts: Vec<f64>,
    /// The random blocks the group draws from, with the constant index of randi's bounds.
    pub rands: Vec<(graph::RandSpec, usize)>,
    /// The regions embeds write, with the output's sizes as each region's subscripts see
    /// them.
    pub regions: Vec<(graph::Region, Vec<usize>)>,
    pub steps: Vec<Step>,
    /// Per step: whether its result is single precision (rounded to f32).
    pub single: Vec<bool>,
    /// Why a part computed first (a reduction, a broadcast block, a view's input) could not
    /// be: the group cannot run.
    pub error: Option<MError>,
    /// While planning an embed's values in the output's index space: how their accesses map
    /// to the output's (`region_space`).
    pub space: Option<region_space::Space>,
    /// The gathers the group reads (`Step::Gather`).
    pub gathers: Vec<gathers::GatherPlan>,
}

impl Group {
    /// A group of no steps yet over `shape`, computing in `precision`.
    pub fn empty(shape: Shape, precision: Precision) -> Group {
        Group {
            shape,
            precision,
            uniform_precision: true,
            leaves: Vec::new(),
            inputs: Vec::new(),
            bindings: Vec::new(),
            consts: Vec::new(),
            rands: Vec::new(),
            regions: Vec::new(),
            steps: Vec::new(),
            single: Vec::new(),
            error: None,
            space: None,
            gathers: Vec::new(),
        }
    }
}

fn access(input: &Shape, out: &Shape) -> Access {
    if input.numel() == 1 {
        return Access::Scalar;
    }
    // Under implicit expansion an input with as many elements as the output has its shape,
    // so it is read element for element; reshaped subtrees (below) keep this true.
    if input.numel() == out.numel() {
        return Access::Same;
    }
    let mut strides = Vec::with_capacity(out.ndims());
    let mut stride = 1u32;
    for d in 0..out.ndims() {
        let n = input.dim(d);
        strides.push(if n == 1 { 0 } else { stride });
        stride = stride.saturating_mul(n as u32);
    }
    Access::Strided(strides, 0)
}

/// How a transposed view of a computed `m`×`n` matrix is read for an output of shape `out`.
fn transposed_access(input: &Shape, out: &Shape) -> Access {
    let (m, n) = (input.dim(0), input.dim(1));
    if m * n == 1 {
        return Access::Scalar;
    }
    // The view is n×m: its rows step through the input's columns.
    let view = [n, m];
    let strides = (0..out.ndims())
        .map(|d| match view.get(d) {
            Some(&size) if size > 1 => [m as u32, 1][d],
            _ => 0,
        })
        .collect();
    Access::Strided(strides, 0)
}

/// How an affine view of shape `view` is read for an output of shape `out`: its strides
/// where its dimensions are the output's, 0 where it is broadcast. None when the view is
/// read under another shape of the same size (through a reshape): it is computed first.
fn view_access(affine: &graph::Affine, view: &Shape, out: &Shape) -> Option<Access> {
    if view.ndims() > out.ndims() || (view.numel() == out.numel() && view != out) {
        return None;
    }
    let mut strides = Vec::with_capacity(out.ndims());
    for d in 0..out.ndims() {
        let (v, o) = (view.dim(d), out.dim(d));
        strides.push(if v == o && v > 1 {
            // Two's complement: a view that steps back wraps to its element.
            affine.strides.get(d).copied().unwrap_or(0) as u32
        } else if v == 1 || v == o {
            0
        } else {
            return None;
        });
    }
    let offset = u32::try_from(affine.offset).ok()?;
    Some(Access::Strided(strides, offset))
}

/// The element type a leaf is bound as in a kernel of `precision`: device data as it is
/// stored; host data in its own precision (logical values take the kernel's; doubles are
/// made single only for a device without f64, where only `single(x)` reads them).
pub fn binding_precision(leaf: &Node, precision: Precision) -> Precision {
    if let Some(Data::Device(b)) = &*leaf.data.borrow() {
        return b.precision;
    }
    if leaf.class == crate::values::class::Class::Logical {
        return precision;
    }
    let f64_ok = crate::gpu::device::current().is_some_and(|d| d.info.supports_double);
    match leaf.precision() {
        Precision::F64 if !f64_ok => Precision::F32,
        p => p,
    }
}

/// Whether a node's values are numbers of its own precision. Constants and logical values
/// (and doubles made of them) take the kernel's precision instead; numbers in one kernel
/// must share it.
fn is_numeric(n: &Node) -> bool {
    use crate::values::class::Class;
    let exact_01 = matches!(n.op, Op::Cast) && n.inputs[0].class == Class::Logical;
    !matches!(n.op, Op::Const(_)) && n.class != Class::Logical && !exact_01
}

/// The precision a group computes in: that of its first numeric (not logical, not constant)
/// node, so a comparison of singles runs in single.
fn kernel_precision(root: &Node) -> Precision {
    fn find(n: &Node) -> Option<Precision> {
        if is_numeric(n) {
            return Some(n.precision());
        }
        if n.is_realised() {
            return None;
        }
        n.inputs.iter().find_map(|i| find(i))
    }
    find(root).unwrap_or(Precision::F64)
}

/// Collects the pending nodes under `root` into a group (post-order, shared nodes once).
pub fn group(root: &Rc<Node>) -> Group {
    let mut g = Group::empty(root.shape.clone(), kernel_precision(root));
    let mut seen: HashMap<*const Node, usize> = HashMap::new();
    visit(root, &mut g, &mut seen);
    g
}

fn visit(n: &Rc<Node>, g: &mut Group, seen: &mut HashMap<*const Node, usize>) -> usize {
    if let Some(&k) = seen.get(&Rc::as_ptr(n)) {
        return k;
    }
    let numeric = is_numeric(n);
    if numeric && n.precision() != g.precision {
        g.uniform_precision = false;
    }
    // A reduction inside a chain (x - mean(x)) runs first, as its own pass, and is read as an
    // input here.
    if let Op::Reduce { .. } | Op::Positions = n.op {
        if !n.is_realised() {
            first(n, g);
        }
    }
    // Random numbers and subscripts are generated at the element's own index: a block that is
    // broadcast (another shape than the group's) is generated first.
    if let Op::Rand(_) | Op::Iota(_) = n.op {
        if !n.is_realised() && n.numel() != g.shape.numel() {
            first(n, g);
        }
    }
    // A reshape reads its input element for element: it is transparent when nothing below it
    // broadcasts (every pending value there has its element count or is a scalar);
    // otherwise its input is computed first.
    if let Op::Reshape = n.op {
        if !n.is_realised() {
            let input = &n.inputs[0];
            // One that the group broadcasts (a row made of a column, added to a matrix) is
            // read as its computed input's data under its own shape.
            if n.numel() != g.shape.numel() {
                if !input.is_realised() {
                    first(input, g);
                }
                let data = input.data.borrow().clone();
                if let Some(data) = data {
                    let view = graph::leaf(data, n.shape.clone(), n.class);
                    let step = input_step(g, &view, access(&n.shape, &g.shape));
                    return push_step(g, n, step, numeric, seen);
                }
            }
            if !aligned(input, n.numel()) {
                first(input, g);
            }
            let k = visit(input, g, seen);
            seen.insert(Rc::as_ptr(n), k);
            return k;
        }
    }
    // A view reads its computed input at affine addresses; read under another shape of its
    // size (through a reshape), it is computed first.
    if let Op::View(affine) = &n.op {
        if !n.is_realised() {
            let input = &n.inputs[0];
            if !input.is_realised() {
                first(input, g);
            }
            let step = match view_access(affine, &n.shape, &g.shape) {
                Some(how) => input_step(g, input, how),
                None => {
                    first(n, g);
                    input_step(g, n, access(&n.shape, &g.shape))
                }
            };
            return push_step(g, n, step, numeric, seen);
        }
    }
    // An embed reads the array it writes into element for element and its values at their
    // place in the region (one value: everywhere); under another shape it is computed first.
    if let Op::Embed(region) = &n.op {
        if !n.is_realised() {
            if n.shape != g.shape {
                first(n, g);
                let step = input_step(g, n, access(&n.shape, &g.shape));
                return push_step(g, n, step, numeric, seen);
            }
            let values = &n.inputs[1];
            let r = g.regions.len();
            g.regions
                .push((region.clone(), region.folded_sizes(&g.shape)));
            // Values read element for element are bound whole in the space: they must fit
            // one binding (else they are computed first, a window at a time).
            let fits = crate::gpu::device::ready()
                .is_none_or(|d| values.numel() as u64 * 8 <= crate::gpu::kernels::binding_limit(d));
            let space = (fits
                && g.space.is_none()
                && !values.is_realised()
                && region_space::fusable(values))
            .then(|| region_space::space(region, &values.shape, &g.shape))
            .flatten();
            let new = if values.numel() == 1 {
                visit(values, g, seen)
            } else if let Some(space) = space {
                // The values are computed in this kernel, each where the region puts it:
                // accesses inside are planned against the values' shape, then composed.
                let out = std::mem::replace(&mut g.shape, values.shape.clone());
                g.space = Some(space);
                let k = visit(values, g, &mut HashMap::new());
                g.space = None;
                g.shape = out;
                k
            } else {
                if !values.is_realised() {
                    first(values, g);
                }
                let step = input_step(g, values, Access::Region(r));
                g.steps.push(step);
                g.single.push(false);
                g.steps.len() - 1
            };
            // The old array after the values: values that read it through a view (a stencil)
            // have it computed, so it is read here, not computed again inline.
            let old = visit(&n.inputs[0], g, seen);
            return push_step(g, n, Step::Embed(old, new, r), numeric, seen);
        }
    }
    // A gather reads its computed source at the places its subscripts give, for the
    // group's elements; under another shape it is computed first.
    if let Op::Gather(picks) = &n.op {
        if !n.is_realised() {
            let step = if n.shape != g.shape || masked_gather(n).is_some() {
                first(n, g);
                input_step(g, n, access(&n.shape, &g.shape))
            } else {
                gathers::step(n, picks, g)
            };
            return push_step(g, n, step, numeric, seen);
        }
    }
    // A cast between values of one precision (or of logical values) changes nothing the
    // kernel computes; from another precision, its input is computed first and converted as
    // it is read.
    if let Op::Cast = n.op {
        let input = &n.inputs[0];
        let same = input.class == crate::values::class::Class::Logical
            || input.precision() == n.precision();
        if !n.is_realised() && same {
            let k = visit(input, g, seen);
            seen.insert(Rc::as_ptr(n), k);
            return k;
        }
    }
    let step = if n.is_realised() {
        input_step(g, n, access(&n.shape, &g.shape))
    } else {
        match &n.op {
            Op::Const(x) => {
                g.consts.push(*x);
                Step::Const(g.consts.len() - 1)
            }
            Op::Rand(spec) => {
                let at = g.consts.len();
                if let graph::RandKind::Int { lo, span } = spec.kind {
                    g.consts.extend([lo, span]);
                }
                g.rands.push((*spec, at));
                Step::Rand(g.rands.len() - 1)
            }
            Op::Unary(op) => {
                let a = visit(&n.inputs[0], g, seen);
                Step::Unary(*op, a)
            }
            Op::Binary(op) => {
                let a = visit(&n.inputs[0], g, seen);
                let b = visit(&n.inputs[1], g, seen);
                Step::Binary(*op, a, b)
            }
            Op::Select => {
                let m = visit(&n.inputs[0], g, seen);
                let a = visit(&n.inputs[1], g, seen);
                let b = visit(&n.inputs[2], g, seen);
                Step::Select(m, a, b)
            }
            Op::Iota(dim) => Step::Iota(*dim),
            // Views and conversions read their computed input.
            Op::Cast | Op::Transpose => {
                let input = &n.inputs[0];
                if !input.is_realised() {
                    first(input, g);
                }
                let how = match n.op {
                    Op::Transpose => transposed_access(&input.shape, &g.shape),
                    _ => access(&input.shape, &g.shape),
                };
                input_step(g, input, how)
            }
            // A leaf always has data; a reduction was computed above, a reshape, view or embed
            // returned; one that could not be computed is read as an (empty) input and fails
            // later.
            Op::Leaf
            | Op::Reduce { .. }
            | Op::Positions
            | Op::Reshape
            | Op::View(_)
            | Op::Embed(_)
            | Op::Gather(_) => input_step(g, n, access(&n.shape, &g.shape)),
        }
    };
    push_step(g, n, step, numeric, seen)
}

/// Appends `n`'s step to the group; its index.
fn push_step(
    g: &mut Group,
    n: &Rc<Node>,
    step: Step,
    numeric: bool,
    seen: &mut HashMap<*const Node, usize>,
) -> usize {
    g.steps.push(step);
    // Host evaluation rounds single results to single; logical and constant values keep
    // their exact 0/1 or literal value.
    g.single.push(numeric && n.precision() == Precision::F32);
    let k = g.steps.len() - 1;
    seen.insert(Rc::as_ptr(n), k);
    k
}

/// Computes `n` before the group that reads it, keeping the first failure.
fn first(n: &Rc<Node>, g: &mut Group) {
    if let Err(e) = realise(n) {
        g.error.get_or_insert(e);
    }
}

/// Reads computed node `n` as a kernel input. A variable named twice (`a.*b + a`) makes two
/// leaf nodes over one array: they share one binding, so the kernel loads it once.
fn input_step(g: &mut Group, n: &Rc<Node>, how: Access) -> Step {
    let how = match &g.space {
        Some(space) => match region_space::compose(space, &how) {
            Some(composed) => composed,
            None => {
                g.error.get_or_insert_with(|| {
                    MError::new("matfuse:internal", "An embed's values could not be placed.")
                });
                how
            }
        },
        None => how,
    };
    let precision = binding_precision(n, g.precision);
    let same = g
        .leaves
        .iter()
        .zip(&g.inputs)
        .zip(&g.bindings)
        .position(|((l, a), &p)| {
            *a == how && p == precision && l.class == n.class && same_data(l, n)
        });
    if let Some(k) = same {
        return Step::Input(k);
    }
    g.leaves.push(n.clone());
    g.inputs.push(how);
    g.bindings.push(precision);
    Step::Input(g.leaves.len() - 1)
}

/// Whether two computed nodes hold the same array (not merely equal values).
fn same_data(a: &Node, b: &Node) -> bool {
    if a.shape != b.shape {
        return false;
    }
    match (&*a.data.borrow(), &*b.data.borrow()) {
        (Some(graph::Data::Device(x)), Some(graph::Data::Device(y))) => Rc::ptr_eq(x, y),
        (Some(graph::Data::Host(x)), Some(graph::Data::Host(y))) => Rc::ptr_eq(x, y),
        _ => false,
    }
}

/// Whether every pending node under `n` (down to computed ones) has `numel` elements or one,
/// and reads its inputs element for element: a transpose, view, gather, embed or subscript
/// along a dimension places elements by the shape it is read under, so under a reshape
/// (`B(:)` of `A .* A.'`) it is computed first.
fn aligned(n: &Node, numel: usize) -> bool {
    if n.numel() != numel && n.numel() != 1 {
        return false;
    }
    if n.is_realised() {
        return true;
    }
    let by_shape = matches!(
        n.op,
        Op::Transpose | Op::View(_) | Op::Gather(_) | Op::Embed(_) | Op::Iota(Some(_))
    );
    !(by_shape && n.numel() > 1) && n.inputs.iter().all(|i| aligned(i, numel))
}

/// Whether the GPU can run a group: a device, one precision throughout, f64 support for
/// doubles, within the binding budget.
pub(crate) fn gpu_can_run(g: &Group) -> bool {
    host_reason(g).is_none()
}

/// Why a group runs on the host (None: it runs on the GPU). `explain` shows this.
pub fn host_reason(g: &Group) -> Option<String> {
    let Some(dev) = crate::gpu::device::ready() else {
        return Some("there is no GPU".into());
    };
    if !crate::gpu::offload_allowed() {
        return Some("MATFUSE_OFFLOAD=never".into());
    }
    if g.shape.numel() == 0 {
        return Some("the result is empty".into());
    }
    // Arrays past one device buffer are held on the host (`interp::host_held`).
    let host_leaves = g
        .leaves
        .iter()
        .zip(&g.bindings)
        .filter(|(l, _)| !l.on_device());
    let out_bytes = (g.shape.numel() * g.precision.bytes()) as u64;
    if let Some(why) = crate::interp::host_held::group_reason(
        out_bytes,
        host_leaves.map(|(l, &p)| bound_bytes(l, p)),
    ) {
        return Some(why);
    }
    if !g.uniform_precision {
        return Some("it mixes single and double values".into());
    }
    // f64 kernels read NaN bits through 64-bit integers.
    let f64_ok = dev.info.supports_double && dev.info.supports_int64;
    if g.precision == Precision::F64 && !f64_ok {
        return Some("the device has no f64 (doubles are never made single)".into());
    }
    if g.leaves.len() > MAX_INPUTS {
        return Some(format!("more than {MAX_INPUTS} inputs"));
    }
    // Results and inputs read element for element are split into windows that fit one
    // binding; an input read with strides is bound whole.
    let limit = crate::gpu::kernels::binding_limit(dev);
    let mut whole = g.leaves.iter().zip(&g.inputs).zip(&g.bindings);
    if whole.any(|((l, a), &p)| *a != Access::Same && bound_bytes(l, p) > limit) {
        return Some("a broadcast or transposed input is larger than one storage binding".into());
    }
    None
}

/// Whether a reduction over `g`'s values in lanes (`inner`, `len`) can run on the device:
/// values larger than one binding are reduced a window at a time (`gpu::reduce::fits`);
/// past that (lanes so far apart that one row of them overflows a window) it runs on the
/// host.
pub fn reduction_fits(g: &Group, inner: usize, len: usize) -> bool {
    crate::gpu::device::ready()
        .is_some_and(|dev| crate::gpu::reduce::fits(dev, g.shape.numel(), inner, len))
}

/// Bytes a whole input takes bound as `p`.
fn bound_bytes(leaf: &Node, p: Precision) -> u64 {
    (leaf.numel() * p.bytes()) as u64
}

/// The group that computes `n`, within budget: when it is too long or too wide, the pending
/// inputs of `n` are materialised first and the group is formed again.
pub(crate) fn fitted_group(n: &Rc<Node>) -> MResult<Group> {
    let mut g = group(n);
    if let Some(e) = g.error.take() {
        return Err(e);
    }
    // Chains are already cut at MAX_CHAIN deep when they are built; this catches wide trees.
    if g.steps.len() <= 4 * MAX_CHAIN && g.leaves.len() <= MAX_INPUTS {
        return Ok(g);
    }
    for input in &n.inputs {
        if !input.is_realised() && !matches!(input.op, Op::Const(_)) {
            realise(input)?;
        }
    }
    let mut g = group(n);
    match g.error.take() {
        Some(e) => Err(e),
        None => Ok(g),
    }
}

/// Computes `n` (and nothing it does not need) if it is pending.
pub fn realise(n: &Rc<Node>) -> MResult<()> {
    if n.is_realised() {
        return Ok(());
    }
    crate::gpu::trace("realise");
    if let Op::Const(x) = n.op {
        let t = crate::values::tensor::Tensor::f64(n.shape.clone(), vec![x; n.numel()]);
        *n.data.borrow_mut() = Some(Data::Host(Rc::new(t)));
        return Ok(());
    }
    if let Op::Reduce {
        op,
        dim,
        all,
        omitnan,
    } = n.op
    {
        let data = match moments::realise(n)? {
            Some(data) => data,
            None => reduce::realise(n, op, dim, all, omitnan)?,
        };
        *n.data.borrow_mut() = Some(data);
        return Ok(());
    }
    if let Op::Positions = n.op {
        let data = positions(n)?;
        *n.data.borrow_mut() = Some(data);
        return Ok(());
    }
    if let Some(data) = compacted_values(n)? {
        *n.data.borrow_mut() = Some(data);
        return Ok(());
    }
    if let Some(data) = in_place::embed(n)? {
        *n.data.borrow_mut() = Some(data);
        return Ok(());
    }
    let g = fitted_group(n)?;
    let on_device = if gpu_can_run(&g) {
        device_result(crate::gpu::kernels::run_elementwise(&g), "kernel")?
    } else {
        None
    };
    let data = match on_device {
        Some(buf) => Data::Device(buf),
        None => Data::Host(Rc::new(cpu::run(&g, n.class)?)),
    };
    *n.data.borrow_mut() = Some(data);
    Ok(())
}

/// The mask and source of `x(mask)` (a gather of a whole array's elements at a mask's
/// positions not computed yet), which one compaction computes (`compacted_values`).
fn masked_gather(n: &Node) -> Option<(&Rc<Node>, &Rc<Node>, &Rc<Node>)> {
    let Op::Gather(picks) = &n.op else {
        return None;
    };
    if picks.as_slice() != [graph::Pick::Index] || n.inputs.len() != 2 {
        return None;
    }
    let mut at = &n.inputs[1];
    while let Op::Reshape = at.op {
        at = &at.inputs[0];
    }
    if at.op != Op::Positions || at.is_realised() {
        return None;
    }
    let (mask, source) = (&at.inputs[0], &n.inputs[0]);
    (mask.numel() == source.numel()).then_some((mask, source, at))
}

/// `x(mask)` as the masked elements themselves, compacted in one pass that writes values
/// (no positions, no gather): on the device when the mask and the array are there, on the
/// host when both are there and the mask is logical (positions in doubles, then a gather
/// reading them, made `x(x > 0.5)` of 1e6 1.4-1.5x NumPy's time). None otherwise: the
/// positions are computed then, and a gather reads them.
fn compacted_values(n: &Rc<Node>) -> MResult<Option<Data>> {
    let Some((mask, source, positions)) = masked_gather(n) else {
        return Ok(None);
    };
    realise(mask)?;
    realise(source)?;
    let on_host = match (&*mask.data.borrow(), &*source.data.borrow()) {
        (Some(Data::Host(m)), Some(Data::Host(s))) => Some((m.clone(), s.clone())),
        _ => None,
    };
    if let Some((m, s)) = on_host {
        let kept = match &m.data {
            // equal lengths, so `kept` gives every element it is asked for
            crate::values::tensor::Data::Bool(bits)
                if s.data.class() == n.class && bits.len() == s.data.len() =>
            {
                use crate::builtins::locate::kept;
                Some(crate::map_data!(&s.data, v => kept(bits, v).unwrap_or_default()))
            }
            _ => None,
        };
        if let Some(data) = kept {
            if data.len() != n.numel() {
                return Err(MError::new(
                    "matfuse:internal",
                    "A mask's nonzero count changed after it was counted.",
                ));
            }
            let t = crate::values::tensor::Tensor::new(n.shape.clone(), data);
            return Ok(Some(Data::Host(Rc::new(t))));
        }
    }
    if crate::gpu::device::ready().is_none() {
        realise(positions)?;
        return Ok(None);
    }
    let buffers = match (&*mask.data.borrow(), &*source.data.borrow()) {
        (Some(Data::Device(m)), Some(Data::Device(s))) if s.precision == n.precision() => {
            Some((m.clone(), s.clone()))
        }
        _ => None,
    };
    if let Some((m, s)) = buffers {
        let r = crate::gpu::compact::values(&m, &s, mask.numel(), n.numel());
        if let Some(buf) = device_result(r, "compaction")? {
            return Ok(Some(Data::Device(buf)));
        }
    }
    // Computed, the positions make the group below an ordinary gather.
    realise(positions)?;
    Ok(None)
}

/// The positions of a mask's nonzero elements (`Op::Positions`): compacted on the device
/// when the mask is there (its count is known, so nothing is read back), else on the host.
fn positions(n: &Rc<Node>) -> MResult<Data> {
    let mask = &n.inputs[0];
    realise(mask)?;
    let count = n.numel();
    let on_device = match &*mask.data.borrow() {
        Some(Data::Device(b)) => Some(b.clone()),
        _ => None,
    };
    if let Some(buf) = on_device {
        let precision = match crate::gpu::device::ready() {
            Some(d) if d.info.supports_double => Precision::F64,
            _ => Precision::F32,
        };
        let r = crate::gpu::compact::find_counted(&buf, mask.numel(), count, precision);
        if let Some(found) = device_result(r, "compaction")? {
            return Ok(Data::Device(found));
        }
    }
    let values = to_host(mask)?;
    crate::values::limits::check_dims(&[count, 1], 8)?;
    // find's typed pass across the cores (an element at a time through `get_f64` made
    // `find(x > 0.5)` of 1e6 doubles 4.5 ms against 1.5 for the mask and find apart)
    let at = crate::builtins::locate::one_based_positions(&values);
    if at.len() != count {
        return Err(MError::new(
            "matfuse:internal",
            "A mask's nonzero count changed after it was counted.",
        ));
    }
    let t = crate::values::tensor::Tensor::f64(n.shape.clone(), at);
    Ok(Data::Host(Rc::new(t)))
}

/// What a kernel's outcome leaves to do: its result; None when the device refused it and the
/// host computes it instead (counted as a fallback); or the error itself when the device is
/// out of memory, which the user must know (the host would need as much).
pub(crate) fn device_result<T>(r: MResult<T>, what: &str) -> MResult<Option<T>> {
    match r {
        Ok(buf) => Ok(Some(buf)),
        Err(e) if e.identifier() == crate::gpu::buffers::OOM => Err(e),
        // Ctrl-C while a kernel compiled stops the statement; the host must not start over.
        Err(e) if e.data().interrupt => Err(e),
        Err(e) => {
            crate::gpu::stats::add_fallback();
            if std::env::var_os("MATFUSE_DEBUG").is_some() {
                eprintln!("matfuse: {what} fell back to the host: {}", e.message());
            }
            Ok(None)
        }
    }
}

/// Host copy of a node's values (realising it first). Device data is downloaded.
pub fn to_host(n: &Rc<Node>) -> MResult<Rc<crate::values::tensor::Tensor>> {
    realise(n)?;
    let data = n.data.borrow().clone();
    match data {
        Some(Data::Host(t)) => Ok(t),
        Some(Data::Device(b)) => {
            let values = crate::gpu::buffers::download_typed(&b)?;
            Ok(Rc::new(cpu::tensor_of_elems(
                values,
                n.shape.clone(),
                n.class,
            )))
        }
        None => Err(MError::new("matfuse:internal", "A value was not computed.")),
    }
}
