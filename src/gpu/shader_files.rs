//! Shader files' texts. Built in at compile time; with `MATFUSE_SHADER_DIR` set (kernel
//! development: a shader edited and measured on the GPU machine without a rebuild of the
//! crate) the file of the same name in that folder, when it can be read, replaces it.

use std::borrow::Cow;

/// The text of `shaders/<name>`: `builtin` (its `include_str!`), or the override's.
pub fn text(name: &str, builtin: &'static str) -> Cow<'static, str> {
    let Some(dir) = std::env::var_os("MATFUSE_SHADER_DIR") else {
        return Cow::Borrowed(builtin);
    };
    match std::fs::read_to_string(std::path::Path::new(&dir).join(name)) {
        Ok(t) => Cow::Owned(t),
        Err(_) => Cow::Borrowed(builtin),
    }
}

/// `template` with `slot` filled by a piece's subgroup form (its `{{SGS}}` made `sgs`) where
/// `sgs` is Some, else by its form without subgroups, and the entry point given the subgroup
/// builtins the subgroup form reads (`{{SUBGROUP_ARGS}}`, `{{SUBGROUP_SET}}`: its
/// `sg_lane` and `sg_id`). Each piece is a (file name, built-in text) pair.
pub fn with_subgroups(
    template: &str,
    slot: &str,
    sgs: Option<u32>,
    subgroup: (&str, &'static str),
    plain: (&str, &'static str),
) -> String {
    let (piece, args, set) = match sgs {
        Some(s) => (
            text(subgroup.0, subgroup.1).replace("{{SGS}}", &s.to_string()),
            ", @builtin(subgroup_invocation_id) sl: u32, @builtin(subgroup_id) sid: u32",
            "sg_lane = sl;\n    sg_id = sid;",
        ),
        None => (text(plain.0, plain.1).into_owned(), "", ""),
    };
    template
        .replace(slot, &piece)
        .replace("{{SUBGROUP_ARGS}}", args)
        .replace("{{SUBGROUP_SET}}", set)
}

/// Panics with naga's report where `text` does not parse or validate with every capability
/// (tests of generated kernels: each device compiles only its own variants).
#[cfg(test)]
pub(crate) fn validate(text: &str) {
    let module =
        naga::front::wgsl::parse_str(text).unwrap_or_else(|e| panic!("{}", e.emit_to_string(text)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}", e.emit_to_string(text)));
}
