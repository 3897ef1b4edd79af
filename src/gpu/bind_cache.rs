//! Bind groups kept for reuse. Creating one costs about 6 us of host time in wgpu (H200), and
//! a loop's statements bind the same buffers round after round (the pool hands each role its
//! buffers back: `buffers::Role`); the parameters' offsets are dynamic (`pipeline`), so a
//! launch finds its group here wherever its batch put its parameters. An entry holds its
//! buffers alive, so entries go when a buffer leaves the pool for the driver (`forget`).

use std::cell::RefCell;
use std::num::NonZeroU64;
use std::sync::Arc;

use super::pipeline::Pipeline;

/// Bind groups kept at most (the oldest goes first).
const CAPACITY: usize = 256;

/// One binding: a buffer range.
#[derive(Clone, PartialEq)]
pub struct Binding {
    pub buffer: wgpu::Buffer,
    pub offset: u64,
    pub size: Option<NonZeroU64>,
}

impl Binding {
    fn resource(&self) -> wgpu::BindingResource<'_> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: self.offset,
            size: self.size,
        })
    }
}

struct Entry {
    pipeline: Arc<Pipeline>,
    bindings: Vec<Binding>,
    group: wgpu::BindGroup,
}

thread_local! {
    static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// Sets `pipeline` and its bind group over `bindings` (binding k is `bindings[k]`) on
/// `pass`, the group made on a miss. Returns whether it was cached.
pub fn bind(
    pass: &mut wgpu::ComputePass<'_>,
    device: &wgpu::Device,
    pipeline: &Arc<Pipeline>,
    mut bindings: Vec<Binding>,
) -> bool {
    super::timing::bound(&pipeline.name);
    // Dynamic bindings are made at offset 0; their offsets go to the pass.
    let mut offsets = Vec::new();
    for (b, &dynamic) in bindings.iter_mut().zip(&pipeline.dynamic) {
        if dynamic {
            offsets.push(b.offset as u32);
            b.offset = 0;
        }
    }
    let hit = CACHE.with(|c| {
        c.borrow()
            .iter()
            .find(|e| Arc::ptr_eq(&e.pipeline, pipeline) && e.bindings == bindings)
            .map(|e| e.group.clone())
    });
    let cached = hit.is_some();
    let group = match hit {
        Some(group) => group,
        None => {
            let entries: Vec<wgpu::BindGroupEntry<'_>> = bindings
                .iter()
                .enumerate()
                .map(|(k, b)| wgpu::BindGroupEntry {
                    binding: k as u32,
                    resource: b.resource(),
                })
                .collect();
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipeline.layout,
                entries: &entries,
            });
            drop(entries);
            CACHE.with(|c| {
                let mut c = c.borrow_mut();
                if c.len() >= CAPACITY {
                    c.remove(0);
                }
                c.push(Entry {
                    pipeline: pipeline.clone(),
                    bindings,
                    group: group.clone(),
                });
            });
            group
        }
    };
    pass.set_pipeline(&pipeline.compute);
    pass.set_bind_group(0, &group, &offsets);
    cached
}

/// Drops the bind groups that use `buffer` (it is going back to the driver).
pub fn forget(buffer: &wgpu::Buffer) {
    let _ = CACHE.try_with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            c.retain(|e| e.bindings.iter().all(|b| &b.buffer != buffer));
        }
    });
}

/// Drops every cached bind group (`reset(gpuDevice)`).
pub fn clear() {
    let _ = CACHE.try_with(|c| {
        if let Ok(mut c) = c.try_borrow_mut() {
            c.clear();
        }
    });
}
