//! Dates and times from text: datestr-style formats (for `datenum`, `datevec`), datetime's
//! CLDR-style `InputFormat`, and the common formats both recognise without one.

use super::format::{DsTok, datestr_tokens};

/// Formats `datenum` and `datevec` try, in order, on text without a format.
const AUTO_FORMATS: [&str; 30] = [
    "dd-mmm-yyyy HH:MM:SS",
    "dd-mmm-yyyy HH:MM",
    "dd-mmm-yyyy",
    "yyyy-mm-dd HH:MM:SS.FFF",
    "yyyy-mm-dd HH:MM:SS",
    "yyyy-mm-dd HH:MM",
    "yyyy-mm-ddTHH:MM:SS.FFF",
    "yyyy-mm-ddTHH:MM:SS",
    "yyyy-mm-dd",
    "yyyy/mm/dd HH:MM:SS",
    "yyyy/mm/dd HH:MM",
    "yyyy/mm/dd",
    "mm/dd/yyyy HH:MM:SS",
    "mm/dd/yyyy HH:MM",
    "mm/dd/yyyy",
    "mm/dd/yy",
    "mm/dd",
    "HH:MM:SS.FFF",
    "HH:MM:SS",
    "HH:MM:SS PM",
    "HH:MM",
    "HH:MM PM",
    "mmm.dd,yyyy HH:MM:SS",
    "mmm.dd,yyyy",
    "mmm-dd-yyyy HH:MM:SS",
    "mmm-dd-yyyy",
    "dd mmm yyyy HH:MM:SS",
    "dd mmm yyyy",
    "mmm dd yyyy HH:MM:SS",
    "mmm dd yyyy",
];

/// What a parse found: a date vector and whether the text carried a date and a time.
#[derive(Debug, Clone, Copy)]
pub struct Parsed {
    pub vec: [f64; 6],
    pub has_date: bool,
    pub has_time: bool,
}

struct Cursor<'a> {
    c: &'a [char],
    i: usize,
}

impl Cursor<'_> {
    fn digits(&mut self, min: usize, max: usize) -> Option<f64> {
        let start = self.i;
        while self.i < self.c.len() && self.i - start < max && self.c[self.i].is_ascii_digit() {
            self.i += 1;
        }
        if self.i - start < min {
            self.i = start;
            return None;
        }
        self.c[start..self.i]
            .iter()
            .collect::<String>()
            .parse()
            .ok()
    }
    fn signed_digits(&mut self, max: usize) -> Option<f64> {
        let neg = self.c.get(self.i) == Some(&'-');
        if neg {
            self.i += 1;
        }
        let v = self.digits(1, max)?;
        Some(if neg { -v } else { v })
    }
    /// A month name, full or its first three letters, any case.
    fn month_name(&mut self, full_only: bool, abbr_only: bool) -> Option<f64> {
        for (k, name) in super::civil::MONTHS.iter().enumerate() {
            let cands: Vec<&str> = if abbr_only {
                vec![&name[..3]]
            } else if full_only {
                vec![name]
            } else {
                vec![name, &name[..3]]
            };
            for cand in cands {
                if self.word(cand) {
                    return Some(k as f64 + 1.0);
                }
            }
        }
        None
    }
    fn day_name(&mut self) -> bool {
        for name in super::civil::DAYS {
            if self.word(name) || self.word(&name[..3]) {
                return true;
            }
        }
        false
    }
    fn word(&mut self, w: &str) -> bool {
        let n = w.chars().count();
        if self.i + n > self.c.len() {
            return false;
        }
        let got: String = self.c[self.i..self.i + n].iter().collect();
        if got.eq_ignore_ascii_case(w) {
            self.i += n;
            true
        } else {
            false
        }
    }
    fn fraction(&mut self) -> Option<f64> {
        let start = self.i;
        while self.i < self.c.len() && self.c[self.i].is_ascii_digit() {
            self.i += 1;
        }
        if self.i == start {
            return None;
        }
        format!("0.{}", self.c[start..self.i].iter().collect::<String>())
            .parse()
            .ok()
    }
    fn literal(&mut self, ch: char) -> bool {
        if ch == ' ' {
            // a space in a format matches any run of blanks
            let start = self.i;
            while self.i < self.c.len() && self.c[self.i].is_whitespace() {
                self.i += 1;
            }
            return self.i > start;
        }
        match self.c.get(self.i) {
            Some(&x) if x.eq_ignore_ascii_case(&ch) => {
                self.i += 1;
                true
            }
            _ => false,
        }
    }
    fn done(&mut self) -> bool {
        while self.i < self.c.len() && self.c[self.i].is_whitespace() {
            self.i += 1;
        }
        self.i == self.c.len()
    }
}

/// The year a two-digit year means: within 50 years of `pivot` (MATLAB's default pivot is
/// the current year minus 50).
fn full_year(yy: f64, pivot: f64) -> f64 {
    let century = (pivot / 100.0).floor() * 100.0;
    let y = century + yy;
    if y < pivot { y + 100.0 } else { y }
}

pub fn current_year() -> f64 {
    super::civil::local_now()[0]
}

/// Text in a datestr format. Values are not range-checked: `2022-09-33` carries over, as
/// datenum does.
/// Applies an AM/PM marker to the hour and fills what the text did not give: January 1
/// of the current year.
fn complete(v: &mut [f64; 6], pm: Option<bool>) {
    match pm {
        Some(true) if v[3] < 12.0 => v[3] += 12.0,
        Some(false) if v[3] == 12.0 => v[3] = 0.0,
        _ => {}
    }
    if v[0].is_nan() {
        v[0] = current_year();
    }
    if v[1].is_nan() {
        v[1] = 1.0;
    }
    if v[2].is_nan() {
        v[2] = 1.0;
    }
}

pub fn parse_datestr(text: &str, fmt: &str, pivot: f64) -> Option<Parsed> {
    let toks = datestr_tokens(fmt);
    let chars: Vec<char> = text.trim().chars().collect();
    let mut cur = Cursor { c: &chars, i: 0 };
    let mut v = [f64::NAN, f64::NAN, f64::NAN, 0.0, 0.0, 0.0];
    let (mut has_date, mut has_time) = (false, false);
    let mut pm: Option<bool> = None;
    for t in &toks {
        match t {
            DsTok::Year4 => {
                v[0] = cur.signed_digits(4)?;
                has_date = true;
            }
            DsTok::Year2 => {
                v[0] = full_year(cur.digits(2, 2)?, pivot);
                has_date = true;
            }
            DsTok::MonthName => {
                v[1] = cur.month_name(true, false)?;
                has_date = true;
            }
            DsTok::MonthAbbr => {
                v[1] = cur.month_name(false, true)?;
                has_date = true;
            }
            DsTok::Month2 | DsTok::MonthLetter => {
                v[1] = cur.digits(1, 2)?;
                has_date = true;
            }
            DsTok::Day2 => {
                v[2] = cur.digits(1, 2)?;
                has_date = true;
            }
            DsTok::DayName | DsTok::DayAbbr | DsTok::DayLetter => {
                if !cur.day_name() {
                    return None;
                }
            }
            DsTok::Hour => {
                v[3] = cur.digits(1, 2)?;
                has_time = true;
            }
            DsTok::Minute => {
                v[4] = cur.digits(1, 2)?;
                has_time = true;
            }
            DsTok::Second => {
                v[5] = cur.digits(1, 2)?;
                has_time = true;
            }
            DsTok::Millis => v[5] += cur.fraction()?,
            DsTok::AmPm => {
                if cur.word("AM") {
                    pm = Some(false);
                } else if cur.word("PM") {
                    pm = Some(true);
                } else {
                    return None;
                }
            }
            DsTok::Quarter => {
                if !cur.word("Q") {
                    return None;
                }
                let q = cur.digits(1, 1)?;
                v[1] = (q - 1.0) * 3.0 + 1.0;
                has_date = true;
            }
            DsTok::Lit(c) => {
                if !cur.literal(*c) {
                    return None;
                }
            }
        }
    }
    if !cur.done() {
        return None;
    }
    complete(&mut v, pm);
    Some(Parsed {
        vec: v,
        has_date,
        has_time,
    })
}

/// Text in one of the common formats.
pub fn parse_auto(text: &str, pivot: f64) -> Option<Parsed> {
    AUTO_FORMATS
        .iter()
        .find_map(|f| parse_datestr(text, f, pivot))
}

// ---- datetime's InputFormat (CLDR letters) ----

/// Text in a datetime format (`yyyy-MM-dd HH:mm:ss`, `dd-MMM-yyyy`, quoted literals, ...).
/// Values are range-checked: datetime does not carry text values over.
pub fn parse_cldr(text: &str, fmt: &str) -> Option<Parsed> {
    let chars: Vec<char> = text.trim().chars().collect();
    let mut cur = Cursor { c: &chars, i: 0 };
    let f: Vec<char> = fmt.chars().collect();
    let mut v = [f64::NAN, f64::NAN, f64::NAN, 0.0, 0.0, 0.0];
    let (mut has_date, mut has_time) = (false, false);
    let mut pm: Option<bool> = None;
    let mut i = 0;
    while i < f.len() {
        let ch = f[i];
        if ch == '\'' {
            i += 1;
            while i < f.len() && f[i] != '\'' {
                if !cur.literal(f[i]) {
                    return None;
                }
                i += 1;
            }
            i += 1;
            continue;
        }
        if !ch.is_ascii_alphabetic() {
            if !cur.literal(ch) {
                return None;
            }
            i += 1;
            continue;
        }
        let mut n = 1;
        while i + n < f.len() && f[i + n] == ch {
            n += 1;
        }
        i += n;
        // a numeric field of n letters takes n digits, or 1-2 for a one-letter field
        let width = |n: usize| if n == 1 { (1, 2) } else { (n, n) };
        match ch {
            'y' | 'u' => {
                v[0] = if n == 2 {
                    full_year(cur.digits(2, 2)?, current_year() - 50.0)
                } else {
                    cur.signed_digits(if n == 1 { 6 } else { n.max(4) })?
                };
                has_date = true;
            }
            'M' | 'L' => {
                v[1] = match n {
                    1 | 2 => {
                        let (a, b) = width(n);
                        cur.digits(a, b)?
                    }
                    3 => cur.month_name(false, true)?,
                    _ => cur.month_name(true, false)?,
                };
                has_date = true;
            }
            'd' => {
                let (a, b) = width(n);
                v[2] = cur.digits(a, b)?;
                has_date = true;
            }
            'E' | 'e' => {
                if !cur.day_name() {
                    return None;
                }
            }
            'H' | 'h' | 'k' | 'K' => {
                let (a, b) = width(n);
                v[3] = cur.digits(a, b)?;
                has_time = true;
            }
            'm' => {
                let (a, b) = width(n);
                v[4] = cur.digits(a, b)?;
                has_time = true;
            }
            's' => {
                let (a, b) = width(n);
                v[5] = cur.digits(a, b)?;
                has_time = true;
            }
            'S' => v[5] += cur.fraction()?,
            'a' => {
                if cur.word("AM") {
                    pm = Some(false);
                } else if cur.word("PM") {
                    pm = Some(true);
                } else {
                    return None;
                }
            }
            _ => return None,
        }
    }
    if !cur.done() {
        return None;
    }
    complete(&mut v, pm);
    let ok = (1.0..=12.0).contains(&v[1])
        && v[2] >= 1.0
        && v[2] <= super::civil::days_in_month(v[0] as i64, v[1] as i64) as f64
        && v[3] < 24.0
        && v[4] < 60.0
        && v[5] < 61.0;
    ok.then_some(Parsed {
        vec: v,
        has_date,
        has_time,
    })
}

/// Datetime text without an InputFormat: the common formats, range-checked.
pub fn parse_datetime_auto(text: &str) -> Option<Parsed> {
    const CLDR: [&str; 8] = [
        "yyyy-MM-dd'T'HH:mm:ss.SSS",
        "yyyy-MM-dd'T'HH:mm:ss",
        "yyyy-MM-dd HH:mm:ss.SSS",
        "dd-MMM-yyyy HH:mm:ss.SSS",
        "MMMM d, yyyy",
        "MMM d, yyyy",
        "MMMM d, yyyy HH:mm:ss",
        "MMM d, yyyy HH:mm:ss",
    ];
    if let Some(p) = CLDR.iter().find_map(|f| parse_cldr(text, f)) {
        return Some(p);
    }
    let p = parse_auto(text, current_year() - 50.0)?;
    let v = p.vec;
    let ok = (1.0..=12.0).contains(&v[1])
        && v[2] >= 1.0
        && v[2] <= super::civil::days_in_month(v[0] as i64, v[1] as i64) as f64
        && v[3] < 24.0
        && v[4] < 60.0
        && v[5] < 61.0;
    ok.then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parses() {
        let p = parse_auto("24-Oct-2003 12:45:07", 1970.0).map(|p| p.vec);
        assert_eq!(p, Some([2003.0, 10.0, 24.0, 12.0, 45.0, 7.0]));
        let p = parse_auto("2022-09-33", 1970.0).map(|p| p.vec);
        assert_eq!(p, Some([2022.0, 9.0, 33.0, 0.0, 0.0, 0.0]));
        let p = parse_datestr("03/15/99", "mm/dd/yy", 1975.0).map(|p| p.vec);
        assert_eq!(p, Some([1999.0, 3.0, 15.0, 0.0, 0.0, 0.0]));
        let p = parse_cldr("2014-05-26", "yyyy-MM-dd").map(|p| p.vec);
        assert_eq!(p, Some([2014.0, 5.0, 26.0, 0.0, 0.0, 0.0]));
        assert!(parse_cldr("2022-09-33", "yyyy-MM-dd").is_none());
        let p = parse_auto(" 3:45 PM", 1970.0).map(|p| p.vec[3]);
        assert_eq!(p, Some(15.0));
    }
}
