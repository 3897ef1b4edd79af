//! Output: disp display fprintf sprintf format tic toc clc pause
//! (numtext.rs turns numbers into text).

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::display::printf;
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::interp::output;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use std::time::Instant;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

pub fn table() -> Vec<Builtin> {
    vec![
        b("disp", 1, 1, 0, "disp(X): print X without its name.", disp),
        b(
            "display",
            1,
            2,
            0,
            "display(X): print X with its name, as an unterminated statement does.",
            display,
        ),
        b(
            "fprintf",
            0,
            -1,
            1,
            "fprintf(format, A, ...), fprintf(fid, format, ...): formatted output (fid 1: standard output, 2: standard error).",
            fprintf,
        ),
        b(
            "sprintf",
            1,
            -1,
            1,
            "sprintf(format, A, ...): formatted text.",
            sprintf,
        ),
        b(
            "format",
            0,
            2,
            0,
            "format short|long|shortE|longE|shortG|longG|bank|rat|hex|+|compact|loose: set the display format.",
            format,
        ),
        b(
            "tic",
            0,
            0,
            1,
            "tic: start a stopwatch timer (t = tic returns its id).",
            tic,
        ),
        b(
            "toc",
            0,
            1,
            1,
            "toc, toc(t): seconds since tic (printed when not assigned).",
            toc,
        ),
        b("clc", 0, 0, 0, "clc: clear the command window.", clc),
        b("pause", 0, 1, 0, "pause(n): wait n seconds.", pause),
        b(
            "more",
            0,
            1,
            0,
            "more on|off: paging is always off here.",
            noop,
        ),
        b("beep", 0, 1, 0, "beep: ring the terminal bell.", noop),
    ]
}

fn noop(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    Ok(vec![])
}

fn disp(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    output::write_str(&crate::display::disp_text(&a[0], &i.format, i.term_width));
    Ok(vec![])
}

fn display(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = match a.get(1) {
        Some(n) => n.text()?,
        None => "ans".to_string(),
    };
    i.display(&name, &a[0]);
    Ok(vec![])
}

fn format_text(a: &[Value], name: &str) -> MResult<String> {
    match a.first() {
        Some(v) if v.is_text() => Ok(printf::unescape(&v.text()?)),
        Some(Value::Tensor(t)) if t.class() == Class::Char => Ok(printf::unescape(&t.to_text())),
        Some(_) => Err(MError::new(
            format!("MATLAB:{name}:invalidFormat"),
            "The format must be a character vector or string scalar.",
        )),
        None => Err(super::bad_arg(name, "Not enough input arguments.")),
    }
}

fn fprintf(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    if a.is_empty() {
        return Err(crate::interp::error::errors::not_enough_inputs("fprintf"));
    }
    // a leading number is a file identifier (1 standard output, 2 standard error, 3... files)
    let (fid, rest) = if a[0].is_numeric_like() && !a[0].is_char() {
        (a[0].clone(), &a[1..])
    } else {
        (Value::Num(1.0), &a[..])
    };
    if rest.is_empty() {
        return Err(bad_arg(
            "fprintf",
            "Not enough input arguments: a format is required.",
        ));
    }
    let fmt = format_text(rest, "fprintf")?;
    let text = printf::sprintf(&fmt, &rest[1..])?;
    let n = super::file_io::write_text(i, &fid, &text)?;
    if nargout > 0 {
        return one(Value::Num(n as f64));
    }
    Ok(vec![])
}

fn sprintf(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let fmt = format_text(&a, "sprintf")?;
    let text = printf::sprintf(&fmt, &a[1..])?;
    if a[0].is_string() {
        return one(Value::string(&text));
    }
    one(Value::str(&text))
}

fn format(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.is_empty() {
        i.format = crate::display::Format::default();
        return Ok(vec![]);
    }
    let words: Vec<String> = a
        .iter()
        .map(|v| text_arg(v, "format"))
        .collect::<MResult<_>>()?;
    let joined = words.join("");
    let mut f = i.format;
    if f.set(&joined) || words.iter().all(|w| f.set(w)) {
        i.format = f;
        return Ok(vec![]);
    }
    Err(MError::new(
        "MATLAB:format:UnknownFormat",
        format!("Unknown display format '{}'.", words.join(" ")),
    ))
}

thread_local! {
    static EPOCH: Instant = Instant::now();
}

fn tic(i: &mut Interp, _: &mut Frame, _: A, nargout: usize) -> R {
    // Work queued on the GPU before tic belongs to earlier statements, not to the timing.
    crate::gpu::device::synchronize();
    let now = Instant::now();
    // As in MATLAB, `t = tic` starts a timer of its own: a plain `toc` still measures from the
    // last `tic` without an output.
    if nargout == 0 {
        i.tic = Some(now);
    }
    if nargout > 0 {
        let micros = EPOCH.with(|e| now.duration_since(*e).as_micros() as u64);
        return one(Tensor::new(Shape::scalar(), Data::U64(vec![micros])));
    }
    Ok(vec![])
}

fn toc(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    crate::gpu::device::synchronize();
    let elapsed = match a.first() {
        Some(v) => {
            let t = v.tensor()?;
            let start = match &t.data {
                Data::U64(x) if x.len() == 1 => x[0],
                _ => {
                    return Err(MError::new(
                        "MATLAB:toc:callTicFirstNoInputs",
                        "Input argument must be a uint64 value returned by tic.",
                    ));
                }
            };
            let now = EPOCH.with(|e| Instant::now().duration_since(*e).as_micros() as u64);
            now.saturating_sub(start) as f64 / 1e6
        }
        None => match i.tic {
            Some(t) => t.elapsed().as_secs_f64(),
            None => {
                return Err(MError::new(
                    "MATLAB:toc:callTicFirst",
                    "You must call TIC without an output argument before calling TOC without an input argument.",
                ));
            }
        },
    };
    if nargout == 0 {
        output::write_str(&format!("Elapsed time is {elapsed:.6} seconds.\n"));
        return Ok(vec![]);
    }
    one(Value::Num(elapsed))
}

fn clc(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        output::write_str("\x1b[2J\x1b[H");
    }
    Ok(vec![])
}

fn pause(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if let Some(v) = a.first() {
        if v.is_text() {
            return Ok(vec![]);
        }
        let s = v.scalar_f64()?;
        if s.is_finite() && s > 0.0 {
            let end = Instant::now() + std::time::Duration::from_secs_f64(s);
            while Instant::now() < end {
                i.check_interrupt()?;
                std::thread::sleep(
                    std::time::Duration::from_millis(10)
                        .min(end.saturating_duration_since(Instant::now())),
                );
            }
        }
    }
    Ok(vec![])
}
