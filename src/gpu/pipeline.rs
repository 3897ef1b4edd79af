//! A compute pipeline with a bind group layout of its own, in which the kernel's parameter
//! bindings (`shape_table`, `consts`, `params`, `table`: the words and constants each launch
//! writes into its batch's parameter buffer) take dynamic offsets. A launch's parameters sit
//! wherever its batch placed them, which changes from round to round of a loop (batches
//! close after a count of records or a time); with the offset out of the bind group, a bind
//! group depends only on the buffers, and `bind_cache` finds it again.
//!
//! The layout is what wgpu would derive (the bindings the entry point uses, read-only or
//! read-write storage), read off the shader with naga, the WGSL front end wgpu itself uses.
//! A shader naga cannot reflect (or a device without dynamic storage offsets) gets wgpu's
//! derived layout, with every offset in the bind group as before.

/// Binding names whose buffers are the launch's parameters.
const PARAMETER_NAMES: [&str; 4] = ["shape_table", "consts", "params", "table"];

pub struct Pipeline {
    pub compute: wgpu::ComputePipeline,
    /// The layout bind groups are made with.
    pub layout: wgpu::BindGroupLayout,
    /// Whether binding k takes a dynamic offset (binding numbers are 0, 1, ... in order).
    pub dynamic: Vec<bool>,
    /// What the kernel is, for `MATFUSE_GPU_TIMING=kernels`: its key's first words and its
    /// shader's headline.
    pub name: String,
}

/// A kernel's name for per-kernel timing: its key's first words and the start of the last
/// comment paragraph before its entry point (the kernel's own description, after the
/// preambles generated kernels carry).
pub fn kernel_name(key_words: &str, text: &str) -> String {
    let entry = text.find("@compute").unwrap_or(text.len());
    let mut previous_comment = false;
    let mut headline = "";
    for line in text[..entry].lines() {
        let line = line.trim();
        let comment = line.starts_with("//");
        if comment && !previous_comment {
            headline = line.trim_start_matches('/').trim();
        }
        previous_comment = comment;
    }
    let headline: String = headline.chars().take(70).collect();
    format!("{key_words} {headline}")
}

/// One storage binding of a shader: its number, whether it is read-only, and its name.
struct Slot {
    binding: u32,
    read_only: bool,
    name: String,
}

/// The storage bindings of group 0 the entry point `main` uses; None when the shader is not
/// one naga can reflect this way (a uniform, a texture, another group).
fn slots(text: &str) -> Option<Vec<Slot>> {
    let module = naga::front::wgsl::parse_str(text).ok()?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::empty(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .ok()?;
    let entry = module.entry_points.iter().position(|e| e.name == "main")?;
    let used = info.get_entry_point(entry);
    let mut slots = Vec::new();
    for (handle, var) in module.global_variables.iter() {
        let Some(binding) = &var.binding else {
            continue;
        };
        if used[handle].is_empty() {
            continue;
        }
        let naga::AddressSpace::Storage { access } = var.space else {
            return None;
        };
        if binding.group != 0 {
            return None;
        }
        slots.push(Slot {
            binding: binding.binding,
            read_only: !access.contains(naga::StorageAccess::STORE),
            name: var.name.clone().unwrap_or_default(),
        });
    }
    slots.sort_by_key(|s| s.binding);
    Some(slots)
}

/// The pipeline of entry point `main` of `module` (compiled from `text`).
pub fn build(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    text: &str,
    label: &str,
    name: String,
) -> Pipeline {
    let allowed = device
        .limits()
        .max_dynamic_storage_buffers_per_pipeline_layout as usize;
    let explicit = slots(text).filter(|slots| {
        let params = slots
            .iter()
            .filter(|s| s.read_only && PARAMETER_NAMES.contains(&s.name.as_str()))
            .count();
        params <= allowed
    });
    let Some(slots) = explicit else {
        let compute = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(label),
            layout: None,
            module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let layout = compute.get_bind_group_layout(0);
        return Pipeline {
            compute,
            layout,
            dynamic: Vec::new(),
            name,
        };
    };
    let dynamic_of = |s: &Slot| s.read_only && PARAMETER_NAMES.contains(&s.name.as_str());
    let entries: Vec<wgpu::BindGroupLayoutEntry> = slots
        .iter()
        .map(|s| wgpu::BindGroupLayoutEntry {
            binding: s.binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage {
                    read_only: s.read_only,
                },
                has_dynamic_offset: dynamic_of(s),
                min_binding_size: None,
            },
            count: None,
        })
        .collect();
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let compute = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout: Some(&pipeline_layout),
        module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let top = slots
        .iter()
        .map(|s| s.binding as usize + 1)
        .max()
        .unwrap_or(0);
    let mut dynamic = vec![false; top];
    for s in &slots {
        if let Some(d) = dynamic.get_mut(s.binding as usize) {
            *d = dynamic_of(s);
        }
    }
    Pipeline {
        compute,
        layout,
        dynamic,
        name,
    }
}

#[cfg(test)]
mod tests {
    use super::slots;

    #[test]
    fn reflection_keeps_the_bindings_main_uses_with_their_access() {
        let text = "@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<storage, read> params: array<u32>;
@group(0) @binding(2) var<storage, read> unused: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    out[id.x] = x[id.x] + f32(params[0]);
}";
        let s = slots(text).unwrap_or_default();
        let seen: Vec<(u32, bool, &str)> = s
            .iter()
            .map(|s| (s.binding, s.read_only, s.name.as_str()))
            .collect();
        assert_eq!(
            seen,
            vec![(0, false, "out"), (1, true, "params"), (3, true, "x")]
        );
    }
}
