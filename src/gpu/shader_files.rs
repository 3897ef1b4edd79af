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
