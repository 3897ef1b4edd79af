//! Dates and times: serial date numbers (datenum datestr datevec weekday eomday calendar
//! addtodate etime now clock) against GNU Octave's and MATLAB's documented values, and
//! datetime/duration/calendarDuration arrays: construction, display, properties,
//! arithmetic, comparisons, indexing and the generic functions.

use crate::common::{check_all, err, num, out, var};
use matfuse::values::value::Value;

fn nums(code: &str, name: &str) -> Vec<f64> {
    var(code, name)
        .tensor()
        .expect("numeric")
        .to_f64()
        .into_owned()
}

fn text(code: &str, name: &str) -> String {
    var(code, name).text().expect("text")
}

#[test]
fn datenum_from_components_vectors_and_text() {
    // values from Octave 9 (and MATLAB's documentation for the carry-over examples)
    assert_eq!(num("d = datenum(2024,3,15,10,30,0);", "d"), 739326.4375);
    assert_eq!(
        nums("d = datenum([2000 13 1; 2022 7 -5]);", "d"),
        [730852.0, 738697.0]
    );
    assert_eq!(
        num("d = datenum(2000, 1, 32.5, 25, 61, 61);", "d"),
        730518.5847337963
    );
    assert_eq!(num("d = datenum(1, 1, 1);", "d"), 367.0);
    assert_eq!(num("d = datenum(0, 1, 1);", "d"), 1.0);
    assert_eq!(num("d = datenum(-100, 1, 1);", "d"), -36523.0);
    // months below 1 count as 1 (datenum's rule), fractional months are a share of the month
    assert_eq!(
        num("d = datenum(2022, -5, 3);", "d"),
        num("d = datenum(2022, 1, 3);", "d")
    );
    assert_eq!(num("d = datenum(2024, 2.5, 1);", "d"), 739297.5);
    // vectorised over arrays, with scalar expansion
    assert_eq!(
        nums("d = datenum(2024, 1:3, 1);", "d"),
        [739252.0, 739283.0, 739312.0]
    );
    // text, with and without a format; text carries over as MATLAB's documentation shows
    assert_eq!(num("d = datenum('2022-10-03');", "d"), 738797.0);
    assert_eq!(num("d = datenum(\"2022-09-33\");", "d"), 738797.0);
    assert_eq!(
        num("d = datenum('24-Oct-2003 12:45:07');", "d"),
        731878.5313310185
    );
    assert_eq!(num("d = datenum('15-Mar-2024');", "d"), 739326.0);
    assert_eq!(num("d = datenum('03/15/2024');", "d"), 739326.0);
    assert_eq!(num("d = datenum('2024/03/15');", "d"), 739326.0);
    assert_eq!(
        num("d = datenum('15.03.2024', 'dd.mm.yyyy');", "d"),
        739326.0
    );
    assert_eq!(
        num("d = datenum('March 5, 2024', 'mmmm dd, yyyy');", "d"),
        739316.0
    );
    assert_eq!(
        num("d = datenum('03/15/99', 'mm/dd/yy', 1950);", "d"),
        730194.0
    );
    assert_eq!(
        nums("d = datenum({'2024-03-15', '2024-03-16 12:00:00'});", "d"),
        [739326.0, 739327.5]
    );
    assert_eq!(
        var("d = datenum({'2024-03-15'; '2024-03-16'});", "d")
            .shape()
            .dims(),
        [2, 1]
    );
    // serial numbers pass through
    assert_eq!(nums("d = datenum([738797.5 1]);", "d"), [738797.5, 1.0]);
}

#[test]
fn datestr_formats() {
    let when = "d = datenum(2024,3,5,15,4,7.25);";
    let codes = [
        "05-Mar-2024 15:04:07",
        "05-Mar-2024",
        "03/05/24",
        "Mar",
        "M",
        "03",
        "03/05",
        "05",
        "Tue",
        "T",
        "2024",
        "24",
        "Mar24",
        "15:04:07",
        " 3:04:07 PM",
        "15:04",
        " 3:04 PM",
        "Q1-24",
        "Q1",
        "05/03",
        "05/03/24",
        "Mar.05,2024 15:04:07",
        "Mar.05,2024",
        "03/05/2024",
        "05/03/2024",
        "24/03/05",
        "2024/03/05",
        "Q1-2024",
        "Mar2024",
        "2024-03-05",
        "20240305T150407",
        "2024-03-05 15:04:07",
    ];
    for (k, want) in codes.iter().enumerate() {
        assert_eq!(
            text(&format!("{when} s = datestr(d, {k});"), "s"),
            *want,
            "code {k}"
        );
    }
    assert_eq!(
        text(
            &format!("{when} s = datestr(d, 'dddd mmmm dd yyyy HH:MM:SS.FFF');"),
            "s"
        ),
        "Tuesday March 05 2024 15:04:07.250"
    );
    // the default format leaves out the time at midnight
    assert_eq!(text("s = datestr(738797);", "s"), "03-Oct-2022");
    assert_eq!(
        text("s = datestr(738797.123456789);", "s"),
        "03-Oct-2022 02:57:46"
    );
    assert_eq!(
        text(
            "s = datestr(738797.123456789, 'dd-mmm-yyyy HH:MM:SS.FFF');",
            "s"
        ),
        "03-Oct-2022 02:57:46.667"
    );
    // seconds of .9995 and more round up
    assert_eq!(
        text("s = datestr(730486.99999999);", "s"),
        "01-Jan-2000 23:59:59"
    );
    assert_eq!(text("s = datestr(730486.999999996);", "s"), "02-Jan-2000");
    // date vectors, carried as MATLAB's documentation shows
    assert_eq!(
        text("s = datestr([2024 3 15 10 30 0]);", "s"),
        "15-Mar-2024 10:30:00"
    );
    assert_eq!(
        text("s = datestr([2021 22 03 00 00 00]);", "s"),
        "03-Oct-2022"
    );
    assert_eq!(
        text("s = datestr([2022 07 -05 00 00 00]);", "s"),
        "25-Jun-2022"
    );
    assert_eq!(text("s = datestr([2022 -5 3 0 0 0]);", "s"), "03-Jan-2022");
    assert_eq!(
        text("s = datestr('2024-03-15', 'dddd mmmm dd yyyy');", "s"),
        "Friday March 15 2024"
    );
    // several dates are rows of a char matrix
    check_all(&[(
        "datestr(730486:730488)",
        "\nans =\n\n  3×11 char array\n\n    '01-Jan-2000'\n    '02-Jan-2000'\n    '03-Jan-2000'\n\n",
    )]);
}

#[test]
fn datevec_weekday_eomday() {
    let v = nums("v = datevec(738797.999999);", "v");
    assert_eq!(v[..5], [2022.0, 10.0, 3.0, 23.0, 59.0]);
    assert!((v[5] - 59.913605).abs() < 1e-6, "{v:?}");
    assert_eq!(
        nums("v = datevec([738797.5; 700000.25]);", "v"),
        [
            2022.0, 1916.0, 10.0, 7.0, 3.0, 14.0, 12.0, 6.0, 0.0, 0.0, 0.0, 0.0
        ]
    );
    assert_eq!(
        nums("v = datevec('15-Mar-2024 10:30:45');", "v"),
        [2024.0, 3.0, 15.0, 10.0, 30.0, 45.0]
    );
    assert_eq!(
        nums("v = datevec('10:30', 'HH:MM');", "v")[3..5],
        [10.0, 30.0]
    );
    assert_eq!(num("[y, m, d, h] = datevec(738797.25);", "h"), 6.0);
    assert_eq!(
        nums("n = weekday(730486:730492);", "n"),
        [7.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    );
    assert_eq!(text("[n, s] = weekday(738797);", "s"), "Mon");
    check_all(&[(
        "[n, s] = weekday([738797 738798], 'long')",
        "\nn =\n\n     2     3\n\n\ns =\n\n  2×7 char array\n\n    'Monday '\n    'Tuesday'\n\n",
    )]);
    assert_eq!(num("n = weekday('2024-03-15');", "n"), 6.0);
    assert_eq!(
        nums("e = eomday(1900:1904, 2);", "e"),
        [28.0, 28.0, 28.0, 28.0, 29.0]
    );
    assert_eq!(nums("e = eomday(2000, [2 4]);", "e"), [29.0, 30.0]);
    assert_eq!(err("eomday(2000, 13)").0, "MATLAB:eomday:NotAMonth");
}

#[test]
fn calendar_addtodate_etime_clock() {
    check_all(&[(
        "calendar(2024, 3)",
        concat!(
            "                    Mar 2024\n",
            "     S     M    Tu     W    Th     F     S\n",
            "     0     0     0     0     0     1     2\n",
            "     3     4     5     6     7     8     9\n",
            "    10    11    12    13    14    15    16\n",
            "    17    18    19    20    21    22    23\n",
            "    24    25    26    27    28    29    30\n",
            "    31     0     0     0     0     0     0\n",
        ),
    )]);
    let c = nums("c = calendar(2023, 12);", "c");
    assert_eq!(c.len(), 42);
    assert_eq!((c[0], c[6 * 5], c[6 * 6], c[5]), (0.0, 1.0, 2.0, 31.0));
    // months stop at the month's end; a year past 29 Feb carries to 1 Mar (as Octave)
    assert_eq!(
        nums("d = addtodate(datenum(2024,1,31), [1 2 13], 'month');", "d"),
        [739311.0, 739342.0, 739676.0]
    );
    assert_eq!(
        num("d = addtodate(datenum(2024,2,29), 1, 'year');", "d"),
        739677.0
    );
    assert_eq!(num("d = addtodate(738797, 36, 'hours');", "d"), 738798.5);
    assert_eq!(
        err("addtodate(1, 1, 'fortnight')").0,
        "MATLAB:addtodate:InvalidDateField"
    );
    assert_eq!(
        num("e = etime([2024 3 1 0 0 0], [2024 2 28 23 0 0.5]);", "e"),
        89_999.5
    );
    // the clock: checked for range, not value
    let c = nums("c = clock;", "c");
    assert!(c.len() == 6 && c[0] >= 2024.0 && (1.0..=12.0).contains(&c[1]) && c[5] < 61.0);
    let n = num("n = now;", "n");
    assert!(n > 739252.0 && n < 800_000.0);
    assert!(num("d = abs(datenum(clock) - now) * 86400;", "d") < 5.0);
    assert_eq!(text("s = date;", "s").len(), 11);
}

#[test]
fn datetime_construction_and_display() {
    check_all(&[
        (
            "t = datetime(2024,3,15,10,30,0)",
            "\nt = \n\n  datetime\n\n   15-Mar-2024 10:30:00\n\n",
        ),
        (
            "t = datetime(2024,3,15)",
            "\nt = \n\n  datetime\n\n   15-Mar-2024\n\n",
        ),
        (
            "t = datetime(2014,6,28,6:7,0,0)",
            "\nt = \n\n  1×2 datetime array\n\n   28-Jun-2014 06:00:00   28-Jun-2014 07:00:00\n\n",
        ),
        (
            "DateStrings = {'2014-05-26';'2014-08-03'};\nt = datetime(DateStrings,'InputFormat','yyyy-MM-dd')",
            "\nt = \n\n  2×1 datetime array\n\n   26-May-2014\n   03-Aug-2014\n\n",
        ),
        (
            "t = datetime([2021 22 03 00 00 00])",
            "\nt = \n\n  datetime\n\n   03-Oct-2022 00:00:00\n\n",
        ),
        (
            "t = datetime([2022 -5 3])",
            "\nt = \n\n  datetime\n\n   03-Jul-2021\n\n",
        ),
        (
            "t = datetime(2024,3,15,'Format','yyyy-MM-dd''T''HH:mm')",
            "\nt = \n\n  datetime\n\n   2024-03-15T00:00\n\n",
        ),
        (
            "t = datetime.empty",
            "\nt = \n\n  0×0 empty datetime array\n\n",
        ),
        ("t = NaT", "\nt = \n\n  datetime\n\n   NaT\n\n"),
        ("disp(datetime(2024,1,1))", "   01-Jan-2024\n"),
        (
            "c = {datetime(2024,1,1), hours(2)}",
            "\nc =\n\n  1×2 cell array\n\n    {[01-Jan-2024]}    {[2 hr]}\n\n",
        ),
    ]);
    assert_eq!(
        text("t = datetime(2024,3,15,10,30,0); f = t.Format;", "f"),
        "dd-MMM-uuuu HH:mm:ss"
    );
    assert_eq!(
        text("t = datetime(2024,3,15); f = t.Format;", "f"),
        "dd-MMM-uuuu"
    );
    assert_eq!(
        text(
            "s = char(datetime(738797.5, 'ConvertFrom', 'datenum'));",
            "s"
        ),
        "03-Oct-2022 12:00:00"
    );
    assert_eq!(
        text("s = char(datetime(0, 'ConvertFrom', 'posixtime'));", "s"),
        "01-Jan-1970 00:00:00"
    );
    assert_eq!(
        text("s = char(datetime(43831, 'ConvertFrom', 'excel'));", "s"),
        "01-Jan-2020 00:00:00"
    );
    assert_eq!(
        text(
            "s = char(datetime(20240315, 'ConvertFrom', 'yyyymmdd'));",
            "s"
        ),
        "15-Mar-2024"
    );
    assert_eq!(
        text("s = char(datetime('2024-03-15 10:30:00'));", "s"),
        "15-Mar-2024 10:30:00"
    );
    assert_eq!(
        text("s = char(datetime('15-Mar-2024'));", "s"),
        "15-Mar-2024"
    );
    assert_eq!(
        text(
            "s = char(datetime('03/15/2024 08:05', 'InputFormat', 'MM/dd/yyyy HH:mm', 'Format', 'eeee, MMMM d, yyyy h:mm a'));",
            "s"
        ),
        "Friday, March 15, 2024 8:05 AM"
    );
    assert_eq!(
        text(
            "t = datetime(2024,3,5,7,8,9.125); t.Format = 'yy/M/d H:m:s.SS QQQ DDD'; s = char(t);",
            "s"
        ),
        "24/3/5 7:8:9.12 Q1 065"
    );
    // datetime(DateVectors) is a column
    assert_eq!(
        var("t = datetime([2024 3 15 8 0 0; 2024 3 16 9 0 0]);", "t")
            .shape()
            .dims(),
        [2, 1]
    );
    // the clock: ranges only
    assert!(num("t = datetime('now'); y = t.Year;", "y") >= 2024.0);
    assert!(num("d = days(datetime('tomorrow') - datetime('today'));", "d") == 1.0);
    assert!(num("d = days(datetime('today') - datetime('yesterday'));", "d") == 1.0);
    assert_eq!(
        num(
            "t = datetime('today'); h = t.Hour + t.Minute + t.Second;",
            "h"
        ),
        0.0
    );
    assert!(num("d = abs(datenum(datetime('now')) - now) * 86400;", "d") < 5.0);
    assert!(
        var("b = datetime > datetime(2020,1,1);", "b")
            .truthy()
            .unwrap()
    );
    assert_eq!(
        err("datetime('31-Feb-2024x')").0,
        "MATLAB:datetime:ParseErr"
    );
    assert_eq!(
        err("datetime('2024-13-01', 'InputFormat', 'yyyy-MM-dd')").0,
        "MATLAB:datetime:ParseErr"
    );
    assert_eq!(
        err("datetime(1, 2)").0,
        "MATLAB:datetime:InvalidNumericData"
    );
    assert_eq!(
        err("datetime(1, 'ConvertFrom', 'martian')").0,
        "MATLAB:datetime:UnrecognizedConvertFrom"
    );
}

#[test]
fn datetime_properties_components_and_conversions() {
    let t = "t = datetime(2024,3,15,10,30,45.5);";
    for (expr, want) in [
        ("t.Year", 2024.0),
        ("t.Month", 3.0),
        ("t.Day", 15.0),
        ("t.Hour", 10.0),
        ("t.Minute", 30.0),
        ("t.Second", 45.5),
        ("year(t)", 2024.0),
        ("month(t)", 3.0),
        ("day(t)", 15.0),
        ("hour(t)", 10.0),
        ("minute(t)", 30.0),
        ("second(t)", 45.5),
        ("quarter(t)", 1.0),
        ("day(t, 'dayofweek')", 6.0),
        ("day(t, 'dayofyear')", 75.0),
        ("posixtime(datetime(1970,1,2))", 86400.0),
        ("datenum(datetime(2024,3,15))", 739326.0),
        ("juliandate(datetime(2000,1,1,12,0,0))", 2451545.0),
    ] {
        assert_eq!(num(&format!("{t} v = {expr};"), "v"), want, "{expr}");
    }
    assert_eq!(
        nums(&format!("{t} [y, m, d] = ymd(t); v = [y m d];"), "v"),
        [2024.0, 3.0, 15.0]
    );
    assert_eq!(
        nums(&format!("{t} [h, m, s] = hms(t); v = [h m s];"), "v"),
        [10.0, 30.0, 45.5]
    );
    assert_eq!(
        text(&format!("{t} c = month(t, 'name'); s = c{{1}};"), "s"),
        "March"
    );
    assert_eq!(
        text(&format!("{t} c = day(t, 'shortname'); s = c{{1}};"), "s"),
        "Fri"
    );
    // settable properties carry over as datetime does
    assert_eq!(
        text(&format!("{t} t.Month = 14; s = char(t);"), "s"),
        "15-Feb-2025 10:30:45"
    );
    assert_eq!(
        text(&format!("{t} t.Day = 0; s = char(t);"), "s"),
        "29-Feb-2024 10:30:45"
    );
    assert_eq!(
        text(&format!("{t} t.Format = 'yyyy-MM-dd'; s = char(t);"), "s"),
        "2024-03-15"
    );
    assert_eq!(
        nums(
            "t = datetime(2024, 1, 1:3); t.Year(2) = 2020; y = t.Year;",
            "y"
        ),
        [2024.0, 2020.0, 2024.0]
    );
    assert_eq!(num("t = datetime(2024, 1, 1:3); d = t.Day(3);", "d"), 3.0);
    assert_eq!(
        text(&format!("{t} t.Format = 'defaultdate'; s = t.Format;"), "s"),
        "dd-MMM-uuuu"
    );
    check_all(&[(
        "t = datetime(2014,6,28,6:7,0,0); t.Day = 27:28; t.Format = 'MMM dd, yyyy'",
        "\nt = \n\n  1×2 datetime array\n\n   Jun 27, 2014   Jun 28, 2014\n\n",
    )]);
    assert_eq!(
        text(&format!("{t} s = datestr(t);"), "s"),
        "15-Mar-2024 10:30:45"
    );
    assert_eq!(
        nums(&format!("{t} v = datevec(t);"), "v"),
        [2024.0, 3.0, 15.0, 10.0, 30.0, 45.5]
    );
    assert_eq!(num("n = weekday(datetime(2024,3,15));", "n"), 6.0);
    let s = var("s = string(datetime(2024, 1, 1:2));", "s");
    assert!(matches!(&s, Value::Str(x) if x.data == ["01-Jan-2024", "02-Jan-2024"]));
    assert_eq!(
        text("c = cellstr(datetime(2024,1,1)); s = c{1};", "s"),
        "01-Jan-2024"
    );
    for (expr, want) in [
        ("isdatetime(datetime)", true),
        ("isdatetime(1)", false),
        ("isduration(hours(1))", true),
        ("isduration(datetime)", false),
        ("iscalendarduration(calmonths(1))", true),
        ("isnat(NaT)", true),
        ("isnat(datetime(2024,1,1))", false),
        ("strcmp(class(datetime), 'datetime')", true),
        ("strcmp(class(hours(1)), 'duration')", true),
        ("isa(datetime, 'datetime')", true),
    ] {
        assert!(
            var(&format!("v = {expr};"), "v").truthy().unwrap() == want,
            "{expr}"
        );
    }
    assert_eq!(
        err("t = datetime(2024,1,1); t.Colour").0,
        "MATLAB:noSuchMethodOrField"
    );
    assert_eq!(err("year(5)").0, "MATLAB:datetime:InvalidInput");
}

#[test]
fn datetime_arithmetic_and_comparisons() {
    let t = "t = datetime(2024,3,15,10,30,0);";
    for (expr, want) in [
        ("t + hours(2)", "15-Mar-2024 12:30:00"),
        ("hours(2) + t", "15-Mar-2024 12:30:00"),
        ("t + 1", "16-Mar-2024 10:30:00"),
        ("t - days(1.5)", "13-Mar-2024 22:30:00"),
        ("t + duration(1, 30, 0)", "15-Mar-2024 12:00:00"),
        ("datetime(2024,1,31) + calmonths(1)", "29-Feb-2024"),
        ("datetime(2024,2,29) + calyears(1)", "28-Feb-2025"),
        ("datetime(2024,3,31) - calmonths(1)", "29-Feb-2024"),
        (
            "datetime(2024,1,1) + caldays(3) + calweeks(1)",
            "11-Jan-2024",
        ),
        ("t - (t - datetime(2024,1,1))", "01-Jan-2024 00:00:00"),
    ] {
        assert_eq!(text(&format!("{t} s = char({expr});"), "s"), want, "{expr}");
    }
    // datetime - datetime is a duration in hh:mm:ss
    check_all(&[(
        "t = datetime(2014,6,28,6:7,0,0); t.Day = 27:28; t2 = datetime(2014,6,29,6,30,45); d = t2 - t",
        "\nd = \n\n  1×2 duration array\n\n   48:30:45   23:30:45\n\n",
    )]);
    assert_eq!(
        num("d = days(datetime(2024,1,1) - datetime(2023,1,1));", "d"),
        365.0
    );
    for (expr, want) in [
        ("t < datetime(2024,3,16)", vec![true]),
        ("t == datetime(2024,3,15,10,30,0)", vec![true]),
        ("t ~= t + seconds(1)", vec![true]),
        ("t >= t", vec![true]),
        ("t > '2024-01-01'", vec![true]),
        ("'15-Mar-2024 10:30:00' == t", vec![true]),
        (
            "datetime(2024,1,1:3) <= datetime(2024,1,2)",
            vec![true, true, false],
        ),
        ("NaT == NaT", vec![false]),
    ] {
        let v = var(&format!("{t} b = {expr};"), "b");
        let got: Vec<bool> = v
            .tensor()
            .unwrap()
            .to_f64()
            .iter()
            .map(|&x| x != 0.0)
            .collect();
        assert_eq!(got, want, "{expr}");
    }
    assert!(
        var(
            "b = isequal(datetime(2024,1,1), datetime('01-Jan-2024'));",
            "b"
        )
        .truthy()
        .unwrap()
    );
    assert!(
        !var("b = isequal(datetime(2024,1,1), datetime(2024,1,2));", "b")
            .truthy()
            .unwrap()
    );
    assert_eq!(
        err("datetime(2024,1,1) + datetime(2024,1,2)").0,
        "MATLAB:datetime:UndefinedOperation"
    );
    assert_eq!(
        err("datetime(2024,1,1) * 2").0,
        "MATLAB:datetime:UndefinedOperation"
    );
    assert_eq!(
        err("datetime(2024,1,1) < hours(1)").0,
        "MATLAB:datetime:InvalidComparison"
    );
    assert_eq!(
        err("datetime(2024,1,1:2) + datetime(2024,1,1:3) - 1").0,
        "MATLAB:datetime:UndefinedOperation"
    );
    assert_eq!(
        err("datetime(2024,1,1:2) - datetime(2024,1,1:3)").0,
        "MATLAB:sizeDimensionsMustMatch"
    );
}

#[test]
fn datetime_arrays_index_assign_concatenate() {
    let base = "t1 = datetime(2024,3,15); t2 = datetime(2024,3,16); t = [t1 t2];";
    assert_eq!(num(&format!("{base} n = numel(t);"), "n"), 2.0);
    assert_eq!(nums(&format!("{base} s = size(t);"), "s"), [1.0, 2.0]);
    assert_eq!(text(&format!("{base} s = char(t(2));"), "s"), "16-Mar-2024");
    assert_eq!(
        text(&format!("{base} s = char(t(end));"), "s"),
        "16-Mar-2024"
    );
    assert_eq!(
        text(&format!("{base} x = t(t > t1); s = char(x);"), "s"),
        "16-Mar-2024"
    );
    assert_eq!(
        text(
            &format!("{base} t(2) = datetime(2025,1,1); s = char(t(2));"),
            "s"
        ),
        "01-Jan-2025"
    );
    assert_eq!(
        text(&format!("{base} t(2) = '2025-01-01'; s = char(t(2));"), "s"),
        "01-Jan-2025"
    );
    // growing fills with NaT; deleting removes
    check_all(&[(
        "t1 = datetime(2024,3,15); t2 = datetime(2024,3,16); t = [t1 t2]; t(4) = t1",
        "\nt = \n\n  1×4 datetime array\n\n   15-Mar-2024   16-Mar-2024           NaT   15-Mar-2024\n\n",
    )]);
    assert_eq!(num(&format!("{base} t(1) = []; n = numel(t);"), "n"), 1.0);
    assert_eq!(
        var(&format!("{base} c = [t1; t2];"), "c").shape().dims(),
        [2, 1]
    );
    assert_eq!(var(&format!("{base} c = t';"), "c").shape().dims(), [2, 1]);
    assert_eq!(
        var(&format!("{base} c = [t, '2024-03-20', []];"), "c")
            .shape()
            .dims(),
        [1, 3]
    );
    assert_eq!(
        var(&format!("{base} c = repmat(t, 2, 1);"), "c")
            .shape()
            .dims(),
        [2, 2]
    );
    assert_eq!(
        var(&format!("{base} c = reshape([t t], 2, 2);"), "c")
            .shape()
            .dims(),
        [2, 2]
    );
    assert!(var("e = isempty(datetime.empty);", "e").truthy().unwrap());
    assert!(
        !var(&format!("{base} e = isempty(t);"), "e")
            .truthy()
            .unwrap()
    );
    assert_eq!(
        text(&format!("{base} x(3) = t1; s = char(x(3));"), "s"),
        "15-Mar-2024"
    );
    assert_eq!(
        text(&format!("{base} x = fliplr(t); s = char(x(1));"), "s"),
        "16-Mar-2024"
    );
    assert_eq!(
        err(&format!("{base} t(2) = 5;")).0,
        "MATLAB:datetime:InvalidAssignment"
    );
    assert_eq!(
        err(&format!("{base} c = [t, 5];")).0,
        "MATLAB:datetime:InvalidConcatenation"
    );
    assert_eq!(err(&format!("{base} t(5)")).0, err("x = [1 2]; x(5)").0);
    // colon ranges: days, durations and calendar steps
    assert_eq!(
        text(
            "r = datetime(2024,3,15):datetime(2024,3,17); s = char(r(3));",
            "s"
        ),
        "17-Mar-2024"
    );
    assert_eq!(
        num(
            "r = datetime(2024,3,15):hours(6):datetime(2024,3,16); n = numel(r);",
            "n"
        ),
        5.0
    );
    assert_eq!(
        text(
            "r = datetime(2024,1,31):calmonths(1):datetime(2024,6,1); s = char(r(end));",
            "s"
        ),
        "31-May-2024"
    );
    assert_eq!(
        num(
            "r = datetime(2024,1,31):calmonths(1):datetime(2024,6,1); n = numel(r);",
            "n"
        ),
        5.0
    );
}

#[test]
fn datetime_sorting_extremes_and_differences() {
    let base = "a = datetime(2024,3,15); b = datetime(2023,1,1); c = datetime(2024,1,1,12,0,0); x = [a b c];";
    assert_eq!(
        text(&format!("{base} s = char(min(x));"), "s"),
        "01-Jan-2023"
    );
    assert_eq!(
        text(&format!("{base} s = char(max(x));"), "s"),
        "15-Mar-2024"
    );
    assert_eq!(num(&format!("{base} [~, i] = max(x);"), "i"), 1.0);
    assert_eq!(
        text(&format!("{base} y = sort(x); s = char(y(1));"), "s"),
        "01-Jan-2023"
    );
    assert_eq!(
        nums(&format!("{base} [~, i] = sort(x, 'descend');"), "i"),
        [1.0, 3.0, 2.0]
    );
    assert_eq!(
        text(&format!("{base} s = char(max(a, '2025-01-01'));"), "s"),
        "01-Jan-2025"
    );
    assert_eq!(
        nums(&format!("{base} d = hours(diff(x));"), "d"),
        [-10536.0, 8772.0]
    );
    assert_eq!(
        text(&format!("{base} s = char(mean([a b]));"), "s"),
        "08-Aug-2023"
    );
    assert!(
        var(&format!("{base} s = issorted(sort(x));"), "s")
            .truthy()
            .unwrap()
    );
    assert_eq!(
        err(&format!("{base} sum(x)")).0,
        "MATLAB:datetime:UndefinedFunction"
    );
}

#[test]
fn durations() {
    check_all(&[
        ("h = hours(1.5)", "\nh = \n\n  duration\n\n   1.5 hr\n\n"),
        (
            "d = duration(1,30,0)",
            "\nd = \n\n  duration\n\n   01:30:00\n\n",
        ),
        (
            "d = duration(1,30,0) * 2",
            "\nd = \n\n  duration\n\n   03:00:00\n\n",
        ),
        (
            "d = -duration(0,0,90)",
            "\nd = \n\n  duration\n\n   -00:01:30\n\n",
        ),
        (
            "d = hours([1.5 10])",
            "\nd = \n\n  1×2 duration array\n\n   1.5 hr    10 hr\n\n",
        ),
        (
            "d = days([1 2])",
            "\nd = \n\n  1×2 duration array\n\n    1 day   2 days\n\n",
        ),
        (
            "d = minutes(90); d.Format = 'hh:mm'",
            "\nd = \n\n  duration\n\n   01:30\n\n",
        ),
        (
            "d = seconds(3725.25); d.Format = 'dd:hh:mm:ss.SS'",
            "\nd = \n\n  duration\n\n   00:01:02:05.25\n\n",
        ),
        ("d = years(2)", "\nd = \n\n  duration\n\n   2 yrs\n\n"),
        (
            "d = milliseconds(5)",
            "\nd = \n\n  duration\n\n   0.005 sec\n\n",
        ),
        (
            "c = calmonths(14)",
            "\nc = \n\n  calendarDuration\n\n   1y 2mo\n\n",
        ),
    ]);
    for (expr, want) in [
        ("hours(duration(1,30,0))", 1.5),
        ("minutes(hours(1.5))", 90.0),
        ("seconds(minutes(2))", 120.0),
        ("milliseconds(seconds(1))", 1000.0),
        ("days(hours(36))", 1.5),
        ("years(days(365.2425))", 1.0),
        ("duration(1,30,0) / hours(1)", 1.5),
        ("hours(hours(1) + minutes(30))", 1.5),
        ("hours(sum([hours(1) hours(2.5)]))", 3.5),
        ("hours(hours(1) + 1)", 25.0),
        ("hours(hours(3) / 2)", 1.5),
        ("hours(2 * hours(3))", 6.0),
        ("hours(abs(-hours(2)))", 2.0),
        ("hours(max(hours(1), 0.5))", 12.0),
        ("seconds(duration([0 1 30; 1 0 0]))'  * [1; 1]", 3690.0),
        ("seconds(duration(0, 0, 1, 500))", 1.5),
    ] {
        assert_eq!(num(&format!("v = {expr};"), "v"), want, "{expr}");
    }
    for (expr, want) in [
        ("hours(1) > minutes(59)", true),
        ("hours(24) == days(1)", true),
        ("hours(1) < 1", true),
        ("isequal(hours(1), minutes(60))", true),
    ] {
        assert!(
            var(&format!("v = {expr};"), "v").truthy().unwrap() == want,
            "{expr}"
        );
    }
    let [h, m, s] =
        [0, 1, 2].map(|k| nums("[h, m, s] = hms(duration(1, 2, 3.5)); v = [h m s];", "v")[k]);
    assert_eq!((h, m, s), (1.0, 2.0, 3.5));
    assert_eq!(text("d = hours(1); s = d.Format;", "s"), "h");
    assert_eq!(
        text("s = char(timeofday(datetime(2024,1,1,6,30,0)));", "s"),
        "06:30:00"
    );
    assert_eq!(
        err("d = hours(1); d.Format = 'xyz';").0,
        "MATLAB:duration:UnrecognizedFormat"
    );
    assert_eq!(
        err("hours(1) * hours(1)").0,
        "MATLAB:datetime:UndefinedOperation"
    );
    assert_eq!(
        err("hours(1) < datetime(2024,1,1)").0,
        "MATLAB:datetime:InvalidComparison"
    );
    assert_eq!(
        err("duration(1, 2)").0,
        "MATLAB:duration:InvalidNumericData"
    );
}

#[test]
fn dateshift_and_between() {
    let t = "t = datetime(2024,3,15,10,30,0);";
    for (expr, want) in [
        ("dateshift(t, 'start', 'month')", "01-Mar-2024 00:00:00"),
        ("dateshift(t, 'end', 'month')", "31-Mar-2024 00:00:00"),
        ("dateshift(t, 'start', 'year')", "01-Jan-2024 00:00:00"),
        ("dateshift(t, 'start', 'day')", "15-Mar-2024 00:00:00"),
        ("dateshift(t, 'start', 'hour')", "15-Mar-2024 10:00:00"),
        ("dateshift(t, 'start', 'week')", "10-Mar-2024 00:00:00"),
    ] {
        assert_eq!(text(&format!("{t} s = char({expr});"), "s"), want, "{expr}");
    }
    assert_eq!(
        text(
            "c = between(datetime(2024,1,15), datetime(2025,3,20,5,0,0)); s = char(c);",
            "s"
        ),
        "1y 2mo 5d 05:00:00"
    );
    assert_eq!(
        text(
            "t = datetime(2024,1,15); u = datetime(2024,3,20); s = char(t + between(t, u));",
            "s"
        ),
        "20-Mar-2024"
    );
}

#[test]
fn session_transcript_prints_as_expected() {
    // a calendar script of the kind that failed with "Unrecognized function" before
    let got = out(concat!(
        "for m = 1:3\n",
        "  fprintf('%s has %d days, starts on %s\\n', datestr(datenum(2024, m, 1), 'mmmm'), ",
        "eomday(2024, m), datestr(datenum(2024, m, 1), 'dddd'));\n",
        "end\n",
    ));
    assert_eq!(
        got,
        "January has 31 days, starts on Monday\nFebruary has 29 days, starts on Thursday\nMarch has 31 days, starts on Friday\n"
    );
}

#[test]
fn weeks_weekends_intervals_and_calendar_differences() {
    // 1 Jan 2024 was a Monday; weeks start on Sunday, week 1 holds the 1st
    assert_eq!(
        nums("w = week(datetime(2024, 1, [1 6 7 15 31]));", "w"),
        [1.0, 1.0, 2.0, 3.0, 5.0]
    );
    assert_eq!(
        nums(
            "w = week(datetime(2024, 3, [1 2 3 31]), 'weekofmonth');",
            "w"
        ),
        [1.0, 1.0, 2.0, 6.0]
    );
    check_all(&[
        (
            "isweekend(datetime(2024, 1, [5 6 7 8]))",
            "\nans =\n\n  1×4 logical array\n\n   0   1   1   0\n\n",
        ),
        (
            "t = datetime(2024, 1, [1 15 31]); isbetween(t, datetime(2024, 1, 10), datetime(2024, 2, 1))",
            "\nans =\n\n  1×3 logical array\n\n   0   1   1\n\n",
        ),
        (
            "t = datetime(2024, 1, [1 15 31]); isbetween(t, '2024-01-01', '2024-01-15', 'openright')",
            "\nans =\n\n  1×3 logical array\n\n   1   0   0\n\n",
        ),
        (
            "caldiff(datetime(2024, [1 3 4], [31 1 15]))",
            "\nans = \n\n  1×2 calendarDuration array\n\n    1mo 1d   1mo 14d\n\n",
        ),
    ]);
    assert_eq!(
        err("isbetween(datetime(2024,1,1), datetime(2024,1,1), datetime(2024,1,2), 'half')").0,
        "MATLAB:isbetween:invalidInput"
    );
}

#[test]
fn time_zones_keep_instants() {
    // New York is UTC-4 in July: noon there is 16:00 UTC and 18:00 in Paris
    assert_eq!(
        out(
            "t = datetime(2024, 7, 1, 12, 0, 0, 'TimeZone', 'America/New_York'); disp(t.TimeZone); \
             t.TimeZone = 'Europe/Paris'; disp(hour(t)); u = datetime(2024, 7, 1, 12, 0, 0, 'TimeZone', 'UTC'); \
             disp(hours(u - t)); disp(u < t)"
        ),
        "America/New_York\n    18\n    -4\n   1\n"
    );
    // across the spring change: 24 hours later is 13:00 on the clock, a calendar day 12:00
    assert_eq!(
        nums(
            "t = datetime(2024, 3, 9, 12, 0, 0, 'TimeZone', 'America/New_York'); h = [hour(t + hours(24)), hour(t + caldays(1))];",
            "h"
        ),
        [13.0, 12.0]
    );
    // fixed offsets; an unzoned array takes a zone without moving its clock
    assert_eq!(
        out(
            "f = datetime(2024, 1, 1, 12, 0, 0, 'TimeZone', '+0200'); disp(f.TimeZone); f.TimeZone = 'UTC'; disp(hour(f)); \
             x = datetime(2024, 1, 1, 5, 0, 0); x.TimeZone = '-05:30'; disp(hour(x)); disp(x.TimeZone)"
        ),
        "+02:00\n    10\n     5\n-05:30\n"
    );
    // POSIX times are instants shown on the zone's clock
    assert_eq!(
        num(
            "p = hour(datetime(0, 'ConvertFrom', 'posixtime', 'TimeZone', 'Asia/Tokyo'));",
            "p"
        ),
        9.0
    );
    assert_eq!(
        err("datetime(2024, 1, 1, 'TimeZone', 'Mars/Base')").0,
        "MATLAB:datetime:UnknownTimeZone"
    );
    assert_eq!(
        err("t = datetime(2024, 1, 1, 'TimeZone', 'UTC'); t < datetime(2024, 1, 2)").0,
        "MATLAB:datetime:IncompatibleTZ"
    );
}

/// duration from text: hh:mm:ss and dd:hh:mm:ss by default, or an InputFormat.
#[test]
fn durations_from_text() {
    check_all(&[
        (
            "d = duration('01:30:00')",
            "\nd = \n\n  duration\n\n   01:30:00\n\n",
        ),
        (
            "d = duration({'00:00:01.5'; '-1:02:03:04'}); disp(milliseconds(d)')",
            "        1500   -93784000\n",
        ),
        (
            "d = duration([\"12:30\" \"\"], 'InputFormat', 'mm:ss'); disp(seconds(d))",
            "   750   NaN\n",
        ),
        (
            "d = duration('1:30', 'InputFormat', 'hh:mm', 'Format', 'm')",
            "\nd = \n\n  duration\n\n   90 min\n\n",
        ),
    ]);
    let (id, _) = err("duration('half past one')");
    assert_eq!(id, "MATLAB:duration:ParseErr");
    let (id, _) = err("duration('1:30', 'InputFormat', 'yy:mm')");
    assert_eq!(id, "MATLAB:duration:InvalidInputFormat");
}
