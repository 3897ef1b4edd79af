//! What the graph holds on to. A computed node keeps its inputs (the intern table and
//! pending parents refer to it as it was made), so whoever keeps a computed result should
//! keep a leaf of its data instead (`settled`): otherwise a loop like
//! `for k = 1:n, x = x * 0.5 + 1; end` would keep every chain's first buffer alive. And a
//! pending value may hold data nothing else does (`y = y + x; x = ...` in a loop holds every
//! `x`): past a budget of such bytes it is computed, so the data can go (`pinned_bytes`).

use super::{Data, Node};
use crate::values::tensor::Tensor;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

/// A leaf with `n`'s data (and what is known of its sign) when `n` is computed from inputs;
/// `n` itself when it is pending or has no inputs. The same leaf while one is in use, so
/// that work typed twice over `n` interns to one node (a computed array's values never
/// change; the leaf may hold them where `n` does not, uploaded or gathered since).
pub fn settled(n: &Rc<Node>) -> Rc<Node> {
    if n.inputs.is_empty() {
        return n.clone();
    }
    if let Some(l) = n.settled_leaf.borrow().upgrade() {
        return l;
    }
    let Some(data) = n.data.borrow().clone() else {
        return n.clone();
    };
    let l = super::leaf(data, n.shape.clone(), n.class);
    l.nonneg.set(n.nonneg.get());
    *n.settled_leaf.borrow_mut() = Rc::downgrade(&l);
    l
}

/// The array, held weakly only so that its address cannot be reused while the entry lives
/// (a changed array is a new allocation: values change out of their Rc, by `try_unwrap`,
/// and `get_mut` and `make_mut` do not change one in place while a weak reference exists),
/// and the live leaf over it.
type HostLeaf = (Weak<Tensor>, Weak<Node>);

thread_local! {
    /// Live leaves over host arrays, by the array's address (`host_leaf`).
    static HOST_LEAVES: RefCell<FxHashMap<usize, HostLeaf>> = Default::default();
}

/// The leaf over host array `t`: the same one while any pending node holds it, so that
/// `mean(x)` and `std(x)` of a host `x` read one leaf (uploaded once, sharing one pass).
pub fn host_leaf(t: &Rc<Tensor>) -> Rc<Node> {
    let key = Rc::as_ptr(t) as usize;
    HOST_LEAVES.with(|m| {
        let mut m = m.borrow_mut();
        // `t` lives at `key`, so an entry there pins `t`'s own allocation.
        if let Some(l) = m.get(&key).and_then(|(_, leaf)| leaf.upgrade()) {
            return l;
        }
        if m.len() > 1024 {
            m.retain(|_, (_, leaf)| leaf.strong_count() > 0);
        }
        let l = super::leaf(Data::Host(t.clone()), t.shape.clone(), t.class());
        m.insert(key, (Rc::downgrade(t), Rc::downgrade(&l)));
        l
    })
}

/// Bytes of computed data held only by the pending nodes under `n` (no variable, and no
/// other value, holds it): what computing `n` now would let go. Counted by array, not by
/// node: a computed variable's uses read a leaf over the variable's array (`settled`), which
/// that variable still holds (`x.*x + 0.5` of a computed `x`, when each use had a leaf of its
/// own, counted its array twice and nothing of it held elsewhere, and was cut in two).
pub fn pinned_bytes(n: &Rc<Node>) -> usize {
    PINNED_SCRATCH.with(|scratch| {
        let Ok(mut scratch) = scratch.try_borrow_mut() else {
            return pinned_bytes_in(n, &mut Scratch::default());
        };
        pinned_bytes_in(n, &mut scratch)
    })
}

/// Per array: what holds it, found in the subgraph.
struct Array {
    bytes: usize,
    /// References to the array in all.
    refs: usize,
    /// Nodes of the subgraph that hold it.
    here: usize,
    /// Whether nothing outside the subgraph holds those nodes.
    only_here: bool,
}

/// The maps `pinned_bytes` fills, kept from one call to the next with their capacity: it runs
/// at every statement that leaves work pending, and making and growing three hash maps each
/// time was a quarter of the host's time in a loop of masked updates.
#[derive(Default)]
struct Scratch {
    seen: FxHashMap<*const Node, ()>,
    /// Computed inputs, by address: where the node is in `held_nodes`, and how many edges of
    /// the subgraph reach it.
    held: FxHashMap<*const Node, (usize, usize)>,
    arrays: FxHashMap<usize, Array>,
}

thread_local! {
    static PINNED_SCRATCH: RefCell<Scratch> = RefCell::default();
}

fn pinned_bytes_in(n: &Rc<Node>, scratch: &mut Scratch) -> usize {
    let Scratch { seen, held, arrays } = scratch;
    seen.clear();
    held.clear();
    arrays.clear();
    let mut held_nodes: Vec<&Rc<Node>> = Vec::new();
    let mut stack = vec![n];
    while let Some(p) = stack.pop() {
        if seen.insert(Rc::as_ptr(p), ()).is_some() {
            continue;
        }
        for i in &p.inputs {
            if i.is_realised() {
                let next = held_nodes.len();
                let entry = held.entry(Rc::as_ptr(i)).or_insert((next, 0));
                if entry.0 == next {
                    held_nodes.push(i);
                }
                entry.1 += 1;
            } else {
                stack.push(i);
            }
        }
    }
    for &(k, edges) in held.values() {
        let node = held_nodes[k];
        let (at, refs, bytes) = match &*node.data.borrow() {
            Some(Data::Device(b)) => (
                Rc::as_ptr(b) as usize,
                Rc::strong_count(b),
                b.bytes() as usize,
            ),
            Some(Data::Host(t)) => (Rc::as_ptr(t) as usize, Rc::strong_count(t), t.numel() * 8),
            None => continue,
        };
        let a = arrays.entry(at).or_insert(Array {
            bytes,
            refs,
            here: 0,
            only_here: true,
        });
        a.here += 1;
        a.only_here &= Rc::strong_count(node) == edges;
    }
    arrays
        .values()
        .filter(|a| a.only_here && a.refs == a.here)
        .map(|a| a.bytes)
        .sum()
}

/// The most bytes pending values may hold that nothing else does (`MATFUSE_PENDING_BYTES`,
/// default 1 GiB) before the value holding them is computed.
pub fn pinned_budget() -> usize {
    crate::settings::parsed("MATFUSE_PENDING_BYTES").unwrap_or(1 << 30)
}
