//! Per-user folders, as the XDG conventions place them.

use std::path::PathBuf;

/// An environment variable's value as a path, when it is set and not empty.
pub fn env_path(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// matfuse's folder under `$xdg_var`, else under `$HOME/home_default` (e.g. `XDG_DATA_HOME`,
/// `.local/share`).
pub fn matfuse_dir(xdg_var: &str, home_default: &str) -> Option<PathBuf> {
    let base = env_path(xdg_var).or_else(|| env_path("HOME").map(|h| h.join(home_default)))?;
    Some(base.join("matfuse"))
}
