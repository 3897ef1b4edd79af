//! Bind groups kept for reuse. Creating one costs tens of microseconds in wgpu, and a repeated
//! statement binds the same buffers (the pool hands them back) at the same parameter offsets
//! (its batch records the same launches in the same order), so most launches find theirs
//! here. An entry holds its buffers alive, so entries go when a buffer leaves the pool for
//! the driver (`forget`), and the cache stays small.

use std::cell::RefCell;
use std::num::NonZeroU64;
use std::sync::Arc;

/// Bind groups kept at most (the oldest goes first).
const CAPACITY: usize = 64;

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
    pipeline: Arc<wgpu::ComputePipeline>,
    bindings: Vec<Binding>,
    group: wgpu::BindGroup,
}

thread_local! {
    static CACHE: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// The bind group of `pipeline` over `bindings` (binding k is `bindings[k]`), made on a miss.
/// Returns it and whether it was cached.
pub fn get(
    device: &wgpu::Device,
    pipeline: &Arc<wgpu::ComputePipeline>,
    bindings: Vec<Binding>,
) -> (wgpu::BindGroup, bool) {
    let hit = CACHE.with(|c| {
        c.borrow()
            .iter()
            .find(|e| Arc::ptr_eq(&e.pipeline, pipeline) && e.bindings == bindings)
            .map(|e| e.group.clone())
    });
    if let Some(group) = hit {
        return (group, true);
    }
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
        layout: &pipeline.get_bind_group_layout(0),
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
    (group, false)
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
