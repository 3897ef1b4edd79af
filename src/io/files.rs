//! The session's table of open files (`fopen` identifiers 3, 4, ...): each file with its
//! permission, byte order and text encoding, read through a cache and written through a
//! buffer, with one logical position that reads, writes and seeks share.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};

/// Bytes fetched from the file at a time for reading.
const READ_CHUNK: usize = 1 << 16;
/// Bytes kept in the write buffer before they go to the file.
const WRITE_CHUNK: usize = 1 << 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// ISO-8859-1: one byte per character, codes 0-255.
    Latin1,
    /// US-ASCII: one byte per character; codes past 127 are written as '?'.
    Ascii,
    /// Another ASCII-compatible encoding MATLAB lists for fopen (windows-1252, Shift_JIS,
    /// GBK, Big5, EUC-KR, ISO-8859-2, KOI8-R, ...), through encoding_rs. Lines still end at
    /// byte 10, which these encodings never use inside a character.
    Other(&'static encoding_rs::Encoding),
}

impl Encoding {
    /// The encoding a name given to fopen means (None: not one matfuse knows). UTF-16 and
    /// UTF-32 are not among them, as in MATLAB's fopen.
    pub fn from_name(name: &str) -> Option<Encoding> {
        let n = name.to_ascii_lowercase().replace('_', "-");
        match n.as_str() {
            "" | "utf-8" | "utf8" | "system" => Some(Encoding::Utf8),
            "iso-8859-1" | "latin1" | "latin-1" | "iso8859-1" => Some(Encoding::Latin1),
            "us-ascii" | "ascii" => Some(Encoding::Ascii),
            _ => {
                let e = encoding_rs::Encoding::for_label_no_replacement(name.trim().as_bytes())?;
                (e.is_ascii_compatible() && e != encoding_rs::UTF_8).then_some(Encoding::Other(e))
            }
        }
    }
    /// MATLAB's standard name for the encoding.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Latin1 => "ISO-8859-1",
            Encoding::Ascii => "US-ASCII",
            Encoding::Other(e) => e.name(),
        }
    }
    /// Text bytes as UTF-16 characters.
    pub fn decode(self, bytes: &[u8]) -> Vec<u16> {
        match self {
            Encoding::Utf8 => String::from_utf8_lossy(bytes).encode_utf16().collect(),
            Encoding::Latin1 | Encoding::Ascii => bytes.iter().map(|&b| b as u16).collect(),
            Encoding::Other(e) => e
                .decode_without_bom_handling(bytes)
                .0
                .encode_utf16()
                .collect(),
        }
    }
    /// Text bytes as a Rust string.
    pub fn decode_string(self, bytes: &[u8]) -> String {
        match self {
            Encoding::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
            Encoding::Latin1 | Encoding::Ascii => bytes.iter().map(|&b| b as char).collect(),
            Encoding::Other(e) => e.decode_without_bom_handling(bytes).0.into_owned(),
        }
    }
    /// A string as the file's bytes; characters the encoding lacks become '?'.
    pub fn encode(self, s: &str) -> Vec<u8> {
        let limit = match self {
            Encoding::Utf8 => return s.as_bytes().to_vec(),
            Encoding::Latin1 => 0xff,
            Encoding::Ascii => 0x7f,
            Encoding::Other(e) => return encode_other(e, s),
        };
        s.chars()
            .map(|c| if (c as u32) <= limit { c as u8 } else { b'?' })
            .collect()
    }
}

/// `s` in an encoding_rs encoding, '?' for what it cannot write (encoding_rs's own
/// replacement is an HTML character reference).
fn encode_other(e: &'static encoding_rs::Encoding, s: &str) -> Vec<u8> {
    use encoding_rs::EncoderResult;
    let mut enc = e.new_encoder();
    let mut out = Vec::with_capacity(s.len() + 16);
    let mut rest = s;
    loop {
        let room = enc
            .max_buffer_length_from_utf8_without_replacement(rest.len())
            .unwrap_or(rest.len() * 4 + 16);
        let start = out.len();
        out.resize(start + room, 0);
        let (result, read, written) =
            enc.encode_from_utf8_without_replacement(rest, &mut out[start..], true);
        out.truncate(start + written);
        rest = &rest[read..];
        match result {
            EncoderResult::InputEmpty => return out,
            EncoderResult::Unmappable(_) => out.push(b'?'),
            EncoderResult::OutputFull => {}
        }
    }
}

/// Byte order of binary reads and writes (`machinefmt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteOrder {
    Little,
    Big,
}

impl ByteOrder {
    pub fn from_name(name: &str) -> Option<ByteOrder> {
        match name.to_ascii_lowercase().as_str() {
            "n" | "native" | "l" | "ieee-le" | "a" | "ieee-le.l64" | "s" | "ieee-be.l64" => {
                if name.eq_ignore_ascii_case("s") || name.eq_ignore_ascii_case("ieee-be.l64") {
                    Some(ByteOrder::Big)
                } else {
                    Some(ByteOrder::Little)
                }
            }
            "b" | "ieee-be" => Some(ByteOrder::Big),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            ByteOrder::Little => "ieee-le",
            ByteOrder::Big => "ieee-be",
        }
    }
}

/// What an fopen permission allows.
#[derive(Clone, Debug)]
pub struct Permission {
    pub read: bool,
    pub write: bool,
    pub append: bool,
    pub create: bool,
    pub truncate: bool,
    /// Text mode ('t'); on this system it changes nothing in the bytes.
    pub text: bool,
    /// The permission as fopen(fid) reports it ('rb', 'w+t', ...).
    pub shown: String,
}

impl Permission {
    /// Parses 'r', 'w', 'a', 'r+', 'w+', 'a+', 'A', 'W' with an optional 't' or 'b'.
    pub fn parse(p: &str) -> Option<Permission> {
        let mut base = String::new();
        let mut text = false;
        for c in p.chars() {
            match c {
                't' => text = true,
                'b' => text = false,
                _ => base.push(c),
            }
        }
        let (read, write, append, create, truncate) = match base.as_str() {
            "r" => (true, false, false, false, false),
            "w" | "W" => (false, true, false, true, true),
            "a" | "A" => (false, true, true, true, false),
            "r+" => (true, true, false, false, false),
            "w+" => (true, true, false, true, true),
            "a+" => (true, true, true, true, false),
            _ => return None,
        };
        let shown = format!(
            "{}{}{}",
            base.to_lowercase().trim_end_matches('+'),
            if text { "t" } else { "b" },
            if base.ends_with('+') { "+" } else { "" }
        );
        Some(Permission {
            read,
            write,
            append,
            create,
            truncate,
            text,
            shown,
        })
    }
}

/// One open file.
pub struct OpenFile {
    /// The name resolved to a full path, as fopen(fid) returns it.
    pub name: String,
    pub permission: Permission,
    pub order: ByteOrder,
    pub encoding: Encoding,
    file: File,
    /// The logical position: where the next read or write happens.
    pos: u64,
    /// A cached stretch of the file starting at `cache_start`.
    cache: Vec<u8>,
    cache_start: u64,
    /// Bytes written but not yet in the file, to go at `pending_start`.
    pending: Vec<u8>,
    pending_start: u64,
    /// Set when a read ran into the end of the file; cleared by seeks.
    pub at_eof: bool,
    /// The last error message (ferror); empty when there is none.
    pub error: String,
}

/// The message an operating-system error gives, as fopen's errmsg.
pub fn os_message(e: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    match e.kind() {
        NotFound => "No such file or directory".into(),
        PermissionDenied => "Permission denied".into(),
        IsADirectory => "Is a directory".into(),
        AlreadyExists => "File exists".into(),
        _ => {
            let s = e.to_string();
            // "Permission denied (os error 13)" without the number
            match s.find(" (os error") {
                Some(k) => s[..k].to_string(),
                None => s,
            }
        }
    }
}

impl OpenFile {
    pub fn open(
        name: &str,
        permission: Permission,
        order: ByteOrder,
        encoding: Encoding,
    ) -> Result<OpenFile, String> {
        let mut o = OpenOptions::new();
        o.read(permission.read)
            .write(permission.write && !permission.append)
            .append(permission.append)
            .create(permission.create)
            .truncate(permission.truncate);
        if std::path::Path::new(name).is_dir() {
            return Err("Is a directory".into());
        }
        let file = o.open(name).map_err(|e| os_message(&e))?;
        let full = std::fs::canonicalize(name)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| name.to_string());
        Ok(OpenFile {
            name: full,
            permission,
            order,
            encoding,
            file,
            pos: 0,
            cache: Vec::new(),
            cache_start: 0,
            pending: Vec::new(),
            pending_start: 0,
            at_eof: false,
            error: String::new(),
        })
    }

    /// Sends buffered writes to the file.
    pub fn flush(&mut self) -> std::io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        if !self.permission.append {
            self.file.seek(SeekFrom::Start(self.pending_start))?;
        }
        let r = self.file.write_all(&self.pending);
        self.pending.clear();
        r
    }

    /// The file's current length, buffered writes included.
    pub fn len(&mut self) -> u64 {
        let on_disk = self.file.metadata().map(|m| m.len()).unwrap_or(0);
        on_disk.max(self.pending_start + self.pending.len() as u64)
    }

    pub fn tell(&self) -> u64 {
        self.pos
    }

    /// Moves the position; a position before the start is refused.
    pub fn seek_to(&mut self, pos: i128) -> Result<(), String> {
        if pos < 0 {
            return Err("Offset is bad - before beginning-of-file.".into());
        }
        self.pos = pos.min(u64::MAX as i128) as u64;
        self.at_eof = false;
        Ok(())
    }

    /// Whether the position is at (or past) the end of the file.
    pub fn at_end(&mut self) -> bool {
        if self.at_eof {
            return true;
        }
        let len = self.len();
        self.pos >= len
    }

    /// Makes the cache hold the bytes from the position on (at least `want` of them where the
    /// file has them); returns the cached bytes from the position.
    fn fill(&mut self, want: usize) -> std::io::Result<&[u8]> {
        if !self.pending.is_empty() {
            self.flush()?;
            self.cache.clear();
        }
        let end = self.cache_start + self.cache.len() as u64;
        if self.pos < self.cache_start || self.pos > end {
            self.cache.clear();
            self.cache_start = self.pos;
        } else if self.pos > self.cache_start + (READ_CHUNK as u64) {
            // drop what lies behind the position
            let drop = (self.pos - self.cache_start) as usize;
            self.cache.drain(..drop);
            self.cache_start = self.pos;
        }
        loop {
            let have = (self.cache_start + self.cache.len() as u64 - self.pos) as usize;
            if have >= want {
                break;
            }
            let at = self.cache_start + self.cache.len() as u64;
            self.file.seek(SeekFrom::Start(at))?;
            let old = self.cache.len();
            // grow a chunk at a time: a request past the end of a small file allocates little
            let n = (want - have).clamp(READ_CHUNK, 1 << 24);
            self.cache.resize(old + n, 0);
            let got = read_full(&mut self.file, &mut self.cache[old..])?;
            self.cache.truncate(old + got);
            if got == 0 {
                break;
            }
        }
        let from = (self.pos - self.cache_start) as usize;
        Ok(&self.cache[from..])
    }

    fn readable(&self) -> Result<(), String> {
        if self.permission.read {
            Ok(())
        } else {
            Err("File not open for reading.".into())
        }
    }

    /// Steps over a UTF-8 byte-order mark at the start of the file, before text is read.
    pub fn skip_bom(&mut self) {
        if self.pos != 0 || self.encoding != Encoding::Utf8 || !self.permission.read {
            return;
        }
        if let Ok(head) = self.fill(3) {
            if head.starts_with(b"\xef\xbb\xbf") {
                self.pos = 3;
            }
        }
    }

    /// Reads up to `n` bytes; fewer at the end of the file (which sets the end flag).
    pub fn read_bytes(&mut self, n: usize) -> Result<Vec<u8>, String> {
        self.readable()?;
        let avail = self.fill(n).map_err(|e| os_message(&e))?;
        let take = avail.len().min(n);
        let out = avail[..take].to_vec();
        self.pos += take as u64;
        if take < n {
            self.at_eof = true;
        }
        Ok(out)
    }

    /// Reads one line with its line ending (None at the end of the file), at most `limit`
    /// bytes.
    pub fn read_line(&mut self, limit: usize) -> Result<Option<Vec<u8>>, String> {
        self.readable()?;
        let mut line = Vec::new();
        loop {
            let avail = self.fill(1).map_err(|e| os_message(&e))?;
            if avail.is_empty() {
                self.at_eof = true;
                return Ok(if line.is_empty() { None } else { Some(line) });
            }
            let room = limit.saturating_sub(line.len());
            let window = &avail[..avail.len().min(room)];
            match window.iter().position(|&b| b == b'\n') {
                Some(k) => {
                    line.extend_from_slice(&window[..=k]);
                    self.pos += k as u64 + 1;
                    return Ok(Some(line));
                }
                None => {
                    let n = window.len();
                    line.extend_from_slice(window);
                    self.pos += n as u64;
                    if line.len() >= limit {
                        return Ok(Some(line));
                    }
                }
            }
        }
    }

    /// Every byte from the position to the end, without moving the position (fscanf and
    /// textscan parse them, then `advance` by what they used).
    pub fn rest(&mut self) -> Result<Vec<u8>, String> {
        self.readable()?;
        self.flush().map_err(|e| os_message(&e))?;
        self.cache.clear();
        self.file
            .seek(SeekFrom::Start(self.pos))
            .map_err(|e| os_message(&e))?;
        let mut out = Vec::new();
        self.file
            .read_to_end(&mut out)
            .map_err(|e| os_message(&e))?;
        Ok(out)
    }

    /// Moves the position forward by `n` bytes after `rest`; `to_end` marks the end reached.
    pub fn advance(&mut self, n: usize, to_end: bool) {
        self.pos += n as u64;
        if to_end {
            self.at_eof = true;
        }
    }

    /// Writes bytes at the position (at the end for append permissions).
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), String> {
        if !self.permission.write {
            return Err("File not open for writing.".into());
        }
        self.cache.clear();
        if self.permission.append {
            if self.pending.is_empty() {
                self.pending_start = self.len();
            }
        } else if self.pending.is_empty() {
            self.pending_start = self.pos;
        } else if self.pending_start + self.pending.len() as u64 != self.pos {
            self.flush().map_err(|e| os_message(&e))?;
            self.pending_start = self.pos;
        }
        self.pending.extend_from_slice(bytes);
        self.pos = self.pending_start + self.pending.len() as u64;
        if self.pending.len() >= WRITE_CHUNK {
            self.flush().map_err(|e| os_message(&e))?;
        }
        Ok(())
    }
}

fn read_full(f: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match f.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// The open files of a session, by identifier (0, 1, 2 are standard input, output, error).
#[derive(Default)]
pub struct FileTable {
    files: BTreeMap<i32, OpenFile>,
}

impl FileTable {
    /// Adds an open file under the smallest free identifier from 3.
    pub fn insert(&mut self, f: OpenFile) -> i32 {
        let mut id = 3;
        while self.files.contains_key(&id) {
            id += 1;
        }
        self.files.insert(id, f);
        id
    }
    pub fn get(&mut self, id: i32) -> Option<&mut OpenFile> {
        self.files.get_mut(&id)
    }
    /// Closes one file; false when it was not open (or its last writes failed).
    pub fn close(&mut self, id: i32) -> Option<Result<(), String>> {
        let mut f = self.files.remove(&id)?;
        Some(f.flush().map_err(|e| os_message(&e)))
    }
    pub fn close_all(&mut self) {
        for (_, mut f) in std::mem::take(&mut self.files) {
            let _ = f.flush();
        }
    }
    pub fn ids(&self) -> Vec<i32> {
        self.files.keys().copied().collect()
    }
}

impl Drop for FileTable {
    fn drop(&mut self) {
        self.close_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> String {
        let d = std::env::temp_dir().join(format!("matfuse-files-{}-{name}", std::process::id()));
        d.to_string_lossy().into_owned()
    }

    #[test]
    fn write_seek_read_round_trip() {
        let p = temp("rw");
        let perm = Permission::parse("w+").expect("w+");
        let mut f =
            OpenFile::open(&p, perm, ByteOrder::Little, Encoding::Utf8).expect("open for w+");
        f.write_bytes(b"hello\nworld\n").expect("write");
        f.seek_to(0).expect("seek");
        assert_eq!(
            f.read_line(usize::MAX).expect("line"),
            Some(b"hello\n".to_vec())
        );
        assert_eq!(f.tell(), 6);
        f.seek_to(2).expect("seek");
        f.write_bytes(b"LL").expect("overwrite");
        f.seek_to(0).expect("seek");
        assert_eq!(f.read_bytes(100).expect("read"), b"heLLo\nworld\n".to_vec());
        assert!(f.at_eof);
        drop(f);
        let _ = std::fs::remove_file(&p);
    }

    #[test]
    fn permissions_parse() {
        assert_eq!(Permission::parse("rt").map(|p| p.shown), Some("rt".into()));
        assert_eq!(Permission::parse("w+").map(|p| p.shown), Some("wb+".into()));
        assert!(Permission::parse("x").is_none());
    }
}
