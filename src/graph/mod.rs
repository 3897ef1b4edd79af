//! The lazy graph: array operations on device values append nodes instead of running, and a
//! sink realises only what it needs. Nodes hold their inputs by `Rc` (never variable names),
//! so reassigning or clearing a variable is always safe and a buffer is freed when no value or
//! node refers to it. Identical nodes are shared (hash-consing, `intern`).

pub mod memory;
pub mod ops;
pub mod sign;
pub mod sink;

use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
pub use ops::{GBin, GUn};
use std::cell::RefCell;
use std::rc::{Rc, Weak};

/// How a node's elements are stored once realised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    F32,
    F64,
}

impl Precision {
    pub fn of(class: Class) -> Precision {
        if class == Class::Single {
            Precision::F32
        } else {
            Precision::F64
        }
    }
    pub fn bytes(self) -> usize {
        match self {
            Precision::F32 => 4,
            Precision::F64 => 8,
        }
    }
    /// The WGSL element type.
    pub fn wgsl(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::F64 => "f64",
        }
    }
}

/// What a node computes.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Data that is already there (uploaded, or a realised result).
    Leaf,
    /// A scalar constant (kept out of kernel text: kernels read constants from a buffer).
    Const(f64),
    Unary(GUn),
    Binary(GBin),
    /// The input's elements in the same (column-major) order under another shape (`x(:)`).
    Reshape,
    /// The input's values as another class (`single(x)`, `double(x)`): the node's class.
    Cast,
    /// A matrix transposed (`x'`): a strided view of the computed input, not a copy.
    Transpose,
    /// Each element's 1-based subscript along `dim` (its linear index + 1 without one): the
    /// positions that `[m, i] = max(x)` picks from.
    Iota(Option<usize>),
    /// Random numbers: element `k` is value `offset + k` of the session's Philox stream.
    Rand(RandSpec),
    /// A reduction of the input along `dim` (every element when `all`).
    Reduce {
        op: crate::values::ops::Red,
        dim: usize,
        all: bool,
        omitnan: bool,
    },
    /// Elements of the computed input at affine addresses (`u(2:end-1)`, `A(i, :)`,
    /// `x(end:-1:1)`, `flip`): read where they are stored, never copied.
    View(Affine),
    /// The first input with the elements of a region replaced by the second input's (one
    /// value, or one per region element in column-major order): indexed assignment
    /// `x(a:b) = v` as a new value, so whatever holds the old array never sees the write.
    Embed(Region),
    /// Elements of the computed first input at the places its subscripts pick (one per
    /// result dimension; one subscript is a linear index shaped as the result): positions in
    /// progression, or the 1-based values of the next index input (`x(idx)`, `A(:, [3 1])`,
    /// `x(mask)` as the mask's positions). Indices are checked before the node is made.
    Gather(Vec<Pick>),
    /// The second input where the first (a mask) is nonzero, else the third, element for
    /// element under implicit expansion: `x(mask) = v` as a new value.
    Select,
    /// The 1-based positions of the input's nonzero elements in order, as a column (counted
    /// when the node is made: the count is its size): the places `x(mask)` gathers from and
    /// `find(mask)`. Computed first and read as an input; never computed when nothing reads
    /// it (`sum(x(mask))` reduces the masked values instead).
    Positions,
}

/// One subscript of a gather.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    /// Positions `start + k * step` (0-based) for the result's subscript `k`.
    Range { start: i64, step: i64 },
    /// The next index input's values (1-based), read at the result's element.
    Index,
}

/// Where a view's elements sit in its input: the element with 0-based subscripts `s` (over
/// the view's shape) is input element `offset + sum(s[d] * strides[d])`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Affine {
    pub offset: i64,
    pub strides: Vec<i64>,
}

/// One subscript of a region: `count` positions from `start` (0-based) in steps of `step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Progression {
    pub start: i64,
    pub step: i64,
    pub count: usize,
}

/// The elements an indexed assignment writes: one progression per subscript, the last
/// subscript running over the array's remaining dimensions folded into one (as MATLAB
/// folds them); a single subscript is a linear index.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    pub dims: Vec<Progression>,
}

/// The sizes of an array's dimensions as `k` subscripts see them: the last folds the rest
/// into one, as MATLAB folds them.
pub fn folded_sizes(shape: &Shape, k: usize) -> Vec<usize> {
    let k = k.max(1);
    let dims = shape.dims();
    (0..k)
        .map(|d| {
            if d + 1 == k {
                dims.get(d..).map_or(1, |r| r.iter().product::<usize>())
            } else {
                dims.get(d).copied().unwrap_or(1)
            }
        })
        .collect()
}

impl Progression {
    /// One past the largest position (0-based) it reaches.
    pub fn extent(&self) -> usize {
        let last = self.start + (self.count.max(1) as i64 - 1) * self.step;
        (self.start.max(last) + 1).max(0) as usize
    }
}

impl Region {
    pub fn count(&self) -> usize {
        self.dims.iter().map(|p| p.count).product()
    }
    /// Whether every position lies within an array of `shape`.
    pub fn fits(&self, shape: &Shape) -> bool {
        let sizes = self.folded_sizes(shape);
        self.dims.iter().zip(&sizes).all(|(p, &s)| p.extent() <= s)
    }
    /// The sizes of the array's dimensions as the region's subscripts see them.
    pub fn folded_sizes(&self, shape: &Shape) -> Vec<usize> {
        folded_sizes(shape, self.dims.len())
    }
    /// The address of the region's first element in an array whose dimensions the
    /// subscripts see as `sizes`, and how far one step of each subscript moves it.
    pub fn addresses(&self, sizes: &[usize]) -> (i64, Vec<i64>) {
        let mut offset = 0i64;
        let mut steps = Vec::with_capacity(self.dims.len());
        let mut stride = 1i64;
        for (p, &size) in self.dims.iter().zip(sizes) {
            offset += p.start * stride;
            steps.push(p.step * stride);
            stride *= size as i64;
        }
        (offset, steps)
    }
    /// The region element (column-major over the region) at array element `i`, if `i` is in
    /// the region.
    pub fn index_of(&self, i: usize, sizes: &[usize]) -> Option<usize> {
        let mut rem = i;
        let mut j = 0usize;
        let mut scale = 1usize;
        for (d, p) in self.dims.iter().enumerate() {
            let size = sizes.get(d).copied().unwrap_or(1).max(1);
            let s = if d + 1 == self.dims.len() {
                rem
            } else {
                rem % size
            };
            rem /= size;
            let off = s as i64 - p.start;
            if p.step == 0 || off % p.step != 0 {
                return None;
            }
            let q = off / p.step;
            if q < 0 || q as usize >= p.count {
                return None;
            }
            j += q as usize * scale;
            scale *= p.count;
        }
        Some(j)
    }
}

/// Which random numbers a `Rand` node holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RandKind {
    Uniform,
    Normal,
    /// `randi`: `lo + floor(u * span)` from a uniform double `u`.
    Int {
        lo: f64,
        span: f64,
    },
}

/// A block of the random stream: `seed`, the position of its first value, and the kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandSpec {
    pub kind: RandKind,
    pub seed: u64,
    pub offset: u64,
}

impl RandSpec {
    /// Element `k` of the block, as the host's `rand`/`randn`/`randi` give it (a single
    /// block's values are those of the single-precision stream).
    pub fn value(&self, k: u64, single: bool) -> f64 {
        use crate::values::rng::{Dist, value};
        let n = self.offset + k;
        match (self.kind, single) {
            (RandKind::Uniform, false) => value(self.seed, n, Dist::UniformDouble),
            (RandKind::Uniform, true) => value(self.seed, n, Dist::UniformSingle),
            (RandKind::Normal, false) => value(self.seed, n, Dist::NormalDouble),
            (RandKind::Normal, true) => value(self.seed, n, Dist::NormalSingle),
            (RandKind::Int { lo, span }, _) => {
                crate::values::rng::randi_of(value(self.seed, n, Dist::UniformDouble), lo, span)
            }
        }
    }
}

/// Where a realised node's data lives.
#[derive(Clone, Debug)]
pub enum Data {
    Host(Rc<Tensor>),
    Device(Rc<crate::gpu::buffers::DeviceBuffer>),
}

#[derive(Debug)]
pub struct Node {
    pub op: Op,
    pub inputs: Vec<Rc<Node>>,
    pub shape: Shape,
    /// The MATLAB class of the result (double, single or logical).
    pub class: Class,
    /// Filled once the node is computed.
    pub data: RefCell<Option<Data>>,
    /// Longest chain of pending operations ending here (as of creation), for the chain budget.
    pub depth: usize,
    /// Pending operations the work ending here takes (shared ones counted per use), for the
    /// group-size budget: a chain of wide steps outgrows a kernel long before it is deep.
    pub size: usize,
    /// Whether no element is negative, once known (`sign`).
    pub nonneg: std::cell::Cell<Option<bool>>,
    /// The computed nodes the pending work ending here reads (as of creation), by address;
    /// None past `LEAF_SET_CAP`. A kernel binds each once, so this is the binding budget.
    pub leaf_set: RefCell<Option<Vec<usize>>>,
    /// The leaf new work reads this computed node's data through (`memory::settled`), while
    /// any pending node still holds it: one leaf per array, so `mean(x)` typed twice over a
    /// computed `x` is one node (common subexpressions, `var` sharing `mean`'s pass).
    pub settled_leaf: RefCell<std::rc::Weak<Node>>,
}

/// Distinct inputs tracked per node before `leaf_set` gives up counting.
pub const LEAF_SET_CAP: usize = 16;

/// The computed inputs pending work over `inputs` reads (constants bind nothing; each view
/// counts as one).
fn leaf_set_of(inputs: &[Rc<Node>]) -> Option<Vec<usize>> {
    let mut set: Vec<usize> = Vec::new();
    for i in inputs {
        if matches!(i.op, Op::Const(_)) {
            continue;
        }
        // A view binds its input apart from other views of it (its own place and strides),
        // so a chain reading many columns of one matrix is cut like one reading many arrays.
        if i.is_realised() || matches!(i.op, Op::View(_)) {
            set.push(Rc::as_ptr(i) as usize);
        } else {
            set.extend(i.leaf_set.borrow().as_ref()?);
        }
        set.sort_unstable();
        set.dedup();
        if set.len() > LEAF_SET_CAP {
            return None;
        }
    }
    Some(set)
}

impl Node {
    pub fn precision(&self) -> Precision {
        Precision::of(self.class)
    }
    pub fn is_realised(&self) -> bool {
        self.data.borrow().is_some()
    }
    pub fn numel(&self) -> usize {
        self.shape.numel()
    }
    /// Bytes the node's data takes where it lives (logical results are stored as numbers).
    pub fn bytes(&self) -> usize {
        self.numel() * self.precision().bytes()
    }
    /// How many computed inputs a kernel for the pending work ending here binds (as of
    /// creation; `LEAF_SET_CAP + 1` when more).
    pub fn bound_inputs(&self) -> usize {
        self.leaf_set
            .borrow()
            .as_ref()
            .map_or(LEAF_SET_CAP + 1, Vec::len)
    }
    /// Counts the inputs again (after some were computed).
    pub fn recount_inputs(&self) {
        *self.leaf_set.borrow_mut() = leaf_set_of(&self.inputs);
    }
    pub fn on_device(&self) -> bool {
        matches!(&*self.data.borrow(), Some(Data::Device(_)))
    }
}

/// A key identifying a node by its operation, inputs, shape and class (for sharing identical
/// nodes). Constants are keyed by their bits, so every constant, NaN included, finds itself.
#[derive(Hash, PartialEq, Eq)]
struct InternKey {
    op: OpKey,
    inputs: smallvec::SmallVec<[usize; 2]>,
    shape: Shape,
    class: Class,
}

/// `Op` in a hashable form: its variant and payload as words (constants by their bits).
type OpKey = (std::mem::Discriminant<Op>, smallvec::SmallVec<[u64; 5]>);

fn op_key(op: &Op) -> OpKey {
    let words: smallvec::SmallVec<[u64; 5]> = match op {
        Op::Leaf | Op::Reshape | Op::Cast | Op::Transpose | Op::Select | Op::Positions => {
            smallvec::smallvec![]
        }
        Op::Const(x) => smallvec::smallvec![x.to_bits()],
        Op::Unary(u) => smallvec::smallvec![*u as u64],
        Op::Binary(b) => smallvec::smallvec![*b as u64],
        Op::Iota(d) => smallvec::smallvec![u64::from(d.is_some()), d.unwrap_or(0) as u64],
        Op::Rand(r) => {
            let (kind, lo, span) = match r.kind {
                RandKind::Uniform => (0, 0, 0),
                RandKind::Normal => (1, 0, 0),
                RandKind::Int { lo, span } => (2, lo.to_bits(), span.to_bits()),
            };
            smallvec::smallvec![kind, lo, span, r.seed, r.offset]
        }
        Op::Reduce {
            op,
            dim,
            all,
            omitnan,
        } => smallvec::smallvec![
            *op as u64,
            *dim as u64,
            u64::from(*all),
            u64::from(*omitnan)
        ],
        Op::View(a) => std::iter::once(a.offset as u64)
            .chain(a.strides.iter().map(|&s| s as u64))
            .collect(),
        Op::Embed(r) => r
            .dims
            .iter()
            .flat_map(|p| [p.start as u64, p.step as u64, p.count as u64])
            .collect(),
        Op::Gather(picks) => picks
            .iter()
            .flat_map(|p| match *p {
                Pick::Range { start, step } => [0, start as u64, step as u64],
                Pick::Index => [1, 0, 0],
            })
            .collect(),
    };
    (std::mem::discriminant(op), words)
}

thread_local! {
    static INTERN: RefCell<rustc_hash::FxHashMap<InternKey, Weak<Node>>> =
        RefCell::new(rustc_hash::FxHashMap::default());
}

/// The live node `intern` would return for these arguments, if there is one (made nowhere).
pub fn find(op: &Op, inputs: &[&Rc<Node>], shape: &Shape, class: Class) -> Option<Rc<Node>> {
    let key = InternKey {
        op: op_key(op),
        inputs: inputs.iter().map(|n| Rc::as_ptr(n) as usize).collect(),
        shape: shape.clone(),
        class,
    };
    INTERN.with(|m| m.borrow().get(&key).and_then(Weak::upgrade))
}

/// Makes a node, reusing an identical live one (same op, same input nodes, same shape and
/// class: `reshape(x, 2, 3)` and `reshape(x, 3, 2)` differ only in shape).
pub fn intern(op: Op, inputs: Vec<Rc<Node>>, shape: Shape, class: Class) -> Rc<Node> {
    let key = InternKey {
        op: op_key(&op),
        inputs: inputs.iter().map(|n| Rc::as_ptr(n) as usize).collect(),
        shape: shape.clone(),
        class,
    };
    let hit = INTERN.with(|m| m.borrow().get(&key).and_then(Weak::upgrade));
    if let Some(n) = hit {
        return n;
    }
    let depth = 1 + inputs
        .iter()
        .filter(|i| !i.is_realised())
        .map(|i| i.depth)
        .max()
        .unwrap_or(0);
    let size = inputs
        .iter()
        .filter(|i| !i.is_realised() && !matches!(i.op, Op::Const(_)))
        .fold(1usize, |acc, i| acc.saturating_add(i.size));
    // Counted per use, shared work looks larger than the kernel it makes (a loop whose every
    // step reads one gather: `y = g .* w + y; g = g * c` grows as the square of its steps);
    // past the budget it is counted again, each node once.
    let size = match size > SIZE_RECOUNT {
        true => distinct_size(&inputs, SIZE_RECOUNT),
        false => size,
    };
    let leaf_set = RefCell::new(leaf_set_of(&inputs));
    let node = Rc::new(Node {
        op,
        inputs,
        shape,
        class,
        data: RefCell::new(None),
        depth,
        size,
        nonneg: Default::default(),
        leaf_set,
        settled_leaf: Default::default(),
    });
    INTERN.with(|m| {
        let mut m = m.borrow_mut();
        // Drop entries whose nodes are gone, now and then, so the table stays small.
        if m.len() > 4096 {
            m.retain(|_, w| w.strong_count() > 0);
        }
        m.insert(key, Rc::downgrade(&node));
    });
    node
}

/// The size (`Node::size`) past which a node's pending work is counted again, each node
/// once: the group-size budget (`interp::lower`), 2 * `plan::MAX_CHAIN`.
const SIZE_RECOUNT: usize = 2 * crate::plan::MAX_CHAIN;

/// One plus the pending operations (constants aside) of the work ending at `inputs`, each
/// counted once; `cap + 1` once more than `cap` are found (the walk stops there).
fn distinct_size(inputs: &[Rc<Node>], cap: usize) -> usize {
    let mut seen: std::collections::HashSet<*const Node> = std::collections::HashSet::new();
    let mut stack: Vec<&Rc<Node>> = inputs.iter().collect();
    while let Some(n) = stack.pop() {
        if n.is_realised() || matches!(n.op, Op::Const(_)) || !seen.insert(Rc::as_ptr(n)) {
            continue;
        }
        if seen.len() > cap {
            break;
        }
        stack.extend(n.inputs.iter());
    }
    1 + seen.len()
}

/// A node for data that is already computed.
pub fn leaf(data: Data, shape: Shape, class: Class) -> Rc<Node> {
    Rc::new(Node {
        op: Op::Leaf,
        inputs: Vec::new(),
        shape,
        class,
        data: RefCell::new(Some(data)),
        depth: 0,
        size: 0,
        nonneg: Default::default(),
        leaf_set: RefCell::new(Some(Vec::new())),
        settled_leaf: Default::default(),
    })
}

/// The shape of implicit expansion of two shapes, or None when they do not agree.
pub fn broadcast(a: &Shape, b: &Shape) -> Option<Shape> {
    let n = a.ndims().max(b.ndims());
    let mut dims = Vec::with_capacity(n);
    for k in 0..n {
        let (x, y) = (a.dim(k), b.dim(k));
        dims.push(match (x, y) {
            _ if x == y => x,
            (1, _) => y,
            (_, 1) => x,
            _ => return None,
        });
    }
    Some(Shape::new(&dims))
}

/// Number of pending (not yet computed) nodes reachable from `n`, stopping at computed ones.
pub fn pending_depth(n: &Node) -> usize {
    if n.is_realised() {
        return 0;
    }
    1 + n.inputs.iter().map(|i| pending_depth(i)).max().unwrap_or(0)
}
