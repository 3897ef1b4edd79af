//! The `MATFUSE_*` settings from the environment, read once and kept: looking a variable up
//! costs microseconds (the C library scans the whole environment), and the planner asks for
//! some on every statement. `setenv` forgets the kept values, so a script may change a
//! setting mid-session. (Settings fixed for the process, such as the single-precision math
//! library, are kept by their owners in `OnceLock`s instead.)

use std::sync::Mutex;

static KEPT: Mutex<Vec<(&'static str, Option<String>)>> = Mutex::new(Vec::new());

/// The value of environment variable `name`, as last read.
pub fn get(name: &'static str) -> Option<String> {
    let Ok(mut kept) = KEPT.lock() else {
        return std::env::var(name).ok();
    };
    if let Some((_, v)) = kept.iter().find(|(n, _)| *n == name) {
        return v.clone();
    }
    let v = std::env::var(name).ok();
    kept.push((name, v.clone()));
    v
}

/// The value of `name` parsed as a `T` (None when unset or unreadable).
pub fn parsed<T: std::str::FromStr>(name: &'static str) -> Option<T> {
    get(name).and_then(|v| v.trim().parse().ok())
}

/// Forgets the kept values (the environment changed).
pub fn changed() {
    if let Ok(mut kept) = KEPT.lock() {
        kept.clear();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_kept_value_is_read_again_after_a_change() {
        let name = "MATFUSE_SETTINGS_UNIT_TEST";
        // SAFETY: only this test touches this variable.
        unsafe { std::env::set_var(name, "5") };
        assert_eq!(super::parsed::<u32>(name), Some(5));
        unsafe { std::env::set_var(name, "7") };
        assert_eq!(super::parsed::<u32>(name), Some(5));
        super::changed();
        assert_eq!(super::parsed::<u32>(name), Some(7));
        unsafe { std::env::remove_var(name) };
        super::changed();
        assert_eq!(super::get(name), None);
    }
}
