//! Where figures appear: inline in a terminal that speaks an image protocol (kitty, iTerm2,
//! sixel), else as PNG files in a folder whose path is printed once per figure, or nowhere.
//! `MATFUSE_FIGURES=inline|kitty|iterm|sixel|file|none` overrides the detection;
//! `MATFUSE_FIGURES_DIR` names the folder (default `figures`).
//!
//! Figures are shown after the statement that changed them (the interpreter calls
//! `present` after each top-level statement and on `drawnow`), not once per call.

use super::Scene;
use super::model::Id;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Kitty,
    Iterm,
    Sixel,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Figures are kept but not shown (tests, embedding).
    None,
    /// Each changed figure is written to `dir/figure-N.png`.
    File(PathBuf),
    Inline(Protocol),
}

/// The inline protocol the terminal speaks, from its environment.
pub fn detect(env: &dyn Fn(&str) -> Option<String>) -> Option<Protocol> {
    let term = env("TERM").unwrap_or_default().to_ascii_lowercase();
    let program = env("TERM_PROGRAM").unwrap_or_default().to_ascii_lowercase();
    if env("KITTY_WINDOW_ID").is_some()
        || term.contains("kitty")
        || term.contains("ghostty")
        || program == "ghostty"
    {
        return Some(Protocol::Kitty);
    }
    if program == "iterm.app"
        || program == "wezterm"
        || env("ITERM_SESSION_ID").is_some()
        || env("WEZTERM_EXECUTABLE").is_some()
    {
        return Some(Protocol::Iterm);
    }
    if term.contains("sixel")
        || term == "foot"
        || term.starts_with("foot-")
        || term == "mlterm"
        || program == "mintty"
    {
        return Some(Protocol::Sixel);
    }
    None
}

/// The mode for the command-line program: the override, else inline on a terminal that
/// speaks a protocol, else files.
pub fn from_env() -> Mode {
    let env = |k: &str| std::env::var(k).ok();
    let dir = PathBuf::from(env("MATFUSE_FIGURES_DIR").unwrap_or_else(|| "figures".into()));
    let tty = std::io::stdout().is_terminal();
    match env("MATFUSE_FIGURES")
        .unwrap_or_default()
        .to_ascii_lowercase()
        .as_str()
    {
        "none" | "off" => Mode::None,
        "file" | "files" => Mode::File(dir),
        "kitty" => Mode::Inline(Protocol::Kitty),
        "iterm" | "iterm2" => Mode::Inline(Protocol::Iterm),
        "sixel" => Mode::Inline(Protocol::Sixel),
        "inline" => Mode::Inline(detect(&env).unwrap_or(Protocol::Kitty)),
        _ => match detect(&env).filter(|_| tty) {
            Some(p) => Mode::Inline(p),
            None => Mode::File(dir),
        },
    }
}

/// Shows each figure changed since the last call; returns what was printed about them.
pub fn present(scene: &mut Scene) {
    if scene.dirty.is_empty() {
        return;
    }
    let dirty: Vec<Id> = std::mem::take(&mut scene.dirty).into_iter().collect();
    let mode = scene.output.clone();
    for fig in dirty {
        let Some(f) = scene.objs.get(&fig) else {
            continue;
        };
        if f.text("Visible") == "off" {
            continue;
        }
        let number = f.num("Number", 1.0) as u64;
        match &mode {
            Mode::None => {}
            Mode::File(dir) => {
                let path = dir.join(format!("figure-{number}.png"));
                let written = super::render::png(scene, fig, 1.0, 96.0)
                    .map_err(|e| e.message().to_string())
                    .and_then(|bytes| write_file(&path, &bytes));
                match written {
                    Ok(()) => {
                        if scene.announced.insert(number) {
                            crate::interp::output::write_str(&format!(
                                "Figure {number}: {}\n",
                                path.display()
                            ));
                        }
                    }
                    Err(e) => crate::interp::output::write_err(&format!(
                        "Warning: figure {number} could not be written to {}: {e}\n",
                        path.display()
                    )),
                }
            }
            Mode::Inline(p) => {
                if let Ok(bytes) = super::render::png(scene, fig, 1.0, 96.0) {
                    let text = match p {
                        Protocol::Kitty => kitty(&bytes),
                        Protocol::Iterm => iterm(&bytes),
                        Protocol::Sixel => match super::render::pixels(scene, fig, 1.0) {
                            Ok((w, h, px)) => sixel(w as usize, h as usize, &px),
                            Err(_) => continue,
                        },
                    };
                    crate::interp::output::write_str(&text);
                    crate::interp::output::write_str("\n");
                }
            }
        }
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(d).map_err(|e| e.to_string())?;
    }
    std::fs::write(path, bytes).map_err(|e| e.to_string())
}

/// Standard base64.
pub fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for ch in data.chunks(3) {
        let b = [ch[0], *ch.get(1).unwrap_or(&0), *ch.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for k in 0..4 {
            if k <= ch.len() {
                out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The kitty graphics protocol: a PNG (f=100) transmitted and shown (a=T) in base64 chunks
/// of 4096 bytes (m=1 on all but the last). q=2 on every chunk keeps the terminal from
/// answering: its reply would arrive on stdin as typed keys.
pub fn kitty(png: &[u8]) -> String {
    let b = base64(png);
    let chunks: Vec<&[u8]> = b.as_bytes().chunks(4096).collect();
    let mut out = String::new();
    for (i, c) in chunks.iter().enumerate() {
        let more = if i + 1 < chunks.len() { 1 } else { 0 };
        let head = if i == 0 { "f=100,a=T,q=2," } else { "q=2," };
        out.push_str(&format!(
            "\x1b_G{head}m={more};{}\x1b\\",
            String::from_utf8_lossy(c)
        ));
    }
    out
}

/// iTerm2's inline image escape (also understood by WezTerm).
pub fn iterm(png: &[u8]) -> String {
    format!(
        "\x1b]1337;File=inline=1;size={};preserveAspectRatio=1:{}\x07",
        png.len(),
        base64(png)
    )
}

/// DEC sixel graphics of RGB pixels, in a 6×6×6 colour cube.
pub fn sixel(w: usize, h: usize, rgb: &[u8]) -> String {
    let level = |v: u8| ((v as u32 * 5 + 127) / 255) as usize;
    let index = |p: usize| -> usize {
        let i = p * 3;
        match rgb.get(i..i + 3) {
            Some(c) => level(c[0]) * 36 + level(c[1]) * 6 + level(c[2]),
            None => 215,
        }
    };
    // P2=1: a colour pass's unset pixels keep what earlier passes drew (with 0 they would
    // be set to the background, which some terminals do); "1;1 is square pixels and the size
    let mut out = format!("\x1bP0;1;0q\"1;1;{w};{h}");
    for k in 0..216 {
        let pct = |l: usize| l * 100 / 5;
        out.push_str(&format!(
            "#{k};2;{};{};{}",
            pct(k / 36),
            pct(k / 6 % 6),
            pct(k % 6)
        ));
    }
    let mut band = 0;
    while band < h {
        let rows = (h - band).min(6);
        let mut used = vec![false; 216];
        for y in band..band + rows {
            for x in 0..w {
                used[index(y * w + x)] = true;
            }
        }
        for (k, _) in used.iter().enumerate().filter(|(_, u)| **u) {
            out.push_str(&format!("#{k}"));
            let mut run = 0usize;
            let mut prev = 0u8;
            let emit = |out: &mut String, ch: u8, n: usize| {
                if n == 0 {
                    return;
                }
                if n > 3 {
                    out.push_str(&format!("!{n}{}", ch as char));
                } else {
                    for _ in 0..n {
                        out.push(ch as char);
                    }
                }
            };
            for x in 0..w {
                let mut bits = 0u8;
                for r in 0..rows {
                    if index((band + r) * w + x) == k {
                        bits |= 1 << r;
                    }
                }
                let ch = 63 + bits;
                if x > 0 && ch == prev {
                    run += 1;
                } else {
                    emit(&mut out, prev, run);
                    prev = ch;
                    run = 1;
                }
            }
            emit(&mut out, prev, run);
            out.push('$');
        }
        out.push('-');
        band += 6;
    }
    out.push_str("\x1b\\");
    out
}
