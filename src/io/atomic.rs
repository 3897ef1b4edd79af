//! Writing a whole file or nothing: the bytes go to a temporary file in the same folder, which
//! is renamed over the target only when complete (a rename within one folder is atomic, so a
//! failed or interrupted save never leaves a partial file, and never clobbers the old one).

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through a temporary file beside it, 4 MiB at a time, telling
/// `written` the fraction done.
pub fn write(path: &Path, bytes: &[u8], written: &mut dyn FnMut(f64)) -> std::io::Result<()> {
    // a link is written through, as an in-place write would (the rename would replace the link)
    let real = through_links(path);
    let path = real.as_path();
    // an existing file the user may not write stays as it is: the rename alone would replace
    // it, since only the folder's permission counts for a rename
    let old = std::fs::metadata(path).ok();
    if old.is_some() {
        std::fs::OpenOptions::new().write(true).open(path)?;
    }
    let tmp = temp_beside(path);
    // `written` may unwind (Ctrl-C): the temporary file goes then as well
    struct Leftover<'a>(&'a Path, bool);
    impl Drop for Leftover<'_> {
        fn drop(&mut self) {
            if self.1 {
                let _ = std::fs::remove_file(self.0);
            }
        }
    }
    let mut leftover = Leftover(&tmp, true);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        if let Some(m) = &old {
            // the new file keeps the old one's permissions
            f.set_permissions(m.permissions())?;
        }
        let mut done = 0;
        for chunk in bytes.chunks(4 << 20) {
            f.write_all(chunk)?;
            done += chunk.len();
            written(done as f64 / bytes.len().max(1) as f64);
        }
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    leftover.1 = result.is_err();
    drop(leftover);
    result
}

/// The file a chain of links ends at (the target need not exist yet, as when a write
/// through a dangling link creates it); `path` itself where it is no link.
fn through_links(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    // as many links as the kernel follows
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(&p) {
                Ok(t) if t.is_absolute() => p = t,
                Ok(t) => p = p.parent().map(|d| d.join(&t)).unwrap_or(t),
                Err(_) => break,
            },
            _ => break,
        }
    }
    p
}

/// A name in `path`'s folder that no other writer uses (process id and a counter).
fn temp_beside(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = format!(".{name}.{}.{n}.tmp", std::process::id());
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(tmp),
        _ => PathBuf::from(tmp),
    }
}
