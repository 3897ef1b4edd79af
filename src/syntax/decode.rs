//! Bytes to source text as MATLAB reads them: UTF-8 where the bytes are UTF-8, and every other
//! byte kept as the character with that code (Latin-1), so a file or input in another
//! encoding (Latin-1, Windows-1252, GBK comments) still runs and is never refused.

/// Decodes `bytes`: valid UTF-8 sequences as themselves, each byte of an invalid one as the
/// character U+00XX.
pub fn text_from_bytes(bytes: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_string();
    }
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 2);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(chunk.invalid().iter().map(|&b| char::from(b)));
    }
    out
}

/// A command-line argument or other OS string as text (bytes decoded as above).
pub fn text_from_os(s: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        text_from_bytes(s.as_bytes())
    }
    #[cfg(not(unix))]
    {
        s.to_string_lossy().into_owned()
    }
}

/// Reads a source file as text (see `text_from_bytes`).
pub fn read_source(path: &std::path::Path) -> std::io::Result<String> {
    std::fs::read(path).map(|b| text_from_bytes(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_utf8_and_maps_other_bytes_to_latin1() {
        assert_eq!(text_from_bytes("é😀".as_bytes()), "é😀");
        assert_eq!(text_from_bytes(b"% caf\xe9\nx = 1"), "% café\nx = 1");
        assert_eq!(text_from_bytes(b"\xc4\xe3\xba\xc3 ok"), "ÄãºÃ ok");
        assert_eq!(text_from_bytes(b"a\xe9\xa9b\xf0"), "a\u{e9}\u{a9}b\u{f0}");
    }
}
