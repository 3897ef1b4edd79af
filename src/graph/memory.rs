//! What the graph holds on to. A computed node keeps its inputs (the intern table and
//! pending parents refer to it as it was made), so whoever keeps a computed result should
//! keep a leaf of its data instead (`settled`): otherwise a loop like
//! `for k = 1:n, x = x * 0.5 + 1; end` would keep every chain's first buffer alive. And a
//! pending value may hold data nothing else does (`y = y + x; x = ...` in a loop holds every
//! `x`): past a budget of such bytes it is computed, so the data can go (`pinned_bytes`).

use super::{Data, Node};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// A leaf with `n`'s data (and what is known of its sign) when `n` is computed from inputs;
/// `n` itself when it is pending or has no inputs.
pub fn settled(n: &Rc<Node>) -> Rc<Node> {
    if n.inputs.is_empty() {
        return n.clone();
    }
    let data = n.data.borrow().clone();
    match data {
        Some(d) => {
            let l = super::leaf(d, n.shape.clone(), n.class);
            l.nonneg.set(n.nonneg.get());
            l
        }
        None => n.clone(),
    }
}

/// Bytes of computed data held only by the pending nodes under `n` (no variable, and no
/// other value, holds it): what computing `n` now would let go. Counted by array, not by
/// node: each use of a computed variable is a leaf of its own over the variable's array
/// (`settled`), which that variable still holds (`x.*x + 0.5` of a computed `x` used to count
/// its array twice and nothing of it held elsewhere, and past the budget was cut in two).
pub fn pinned_bytes(n: &Rc<Node>) -> usize {
    let mut seen: FxHashMap<*const Node, ()> = FxHashMap::default();
    // Computed inputs, by address: the node and how many edges of this subgraph reach it.
    let mut held: FxHashMap<*const Node, (&Rc<Node>, usize)> = FxHashMap::default();
    let mut stack = vec![n];
    while let Some(p) = stack.pop() {
        if seen.insert(Rc::as_ptr(p), ()).is_some() {
            continue;
        }
        for i in &p.inputs {
            if i.is_realised() {
                held.entry(Rc::as_ptr(i)).or_insert((i, 0)).1 += 1;
            } else {
                stack.push(i);
            }
        }
    }
    // Per array: what holds it, found in this subgraph.
    struct Array {
        bytes: usize,
        /// References to the array in all.
        refs: usize,
        /// Nodes of this subgraph that hold it.
        here: usize,
        /// Whether nothing outside the subgraph holds those nodes.
        only_here: bool,
    }
    let mut arrays: FxHashMap<usize, Array> = FxHashMap::default();
    for (node, edges) in held.values() {
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
        a.only_here &= Rc::strong_count(node) == *edges;
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
