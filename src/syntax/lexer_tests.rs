//! Lexer unit tests.

use super::*;
fn kinds(src: &str) -> Vec<Tok> {
    lex(src, &|_| false)
        .unwrap()
        .into_iter()
        .map(|(t, _)| t)
        .collect()
}
fn count_commas(src: &str) -> usize {
    kinds(src).iter().filter(|t| **t == Tok::Comma).count()
}
#[test]
fn whitespace_separates_elements() {
    assert_eq!(count_commas("[1 -2]"), 1);
    assert_eq!(count_commas("[1 - 2]"), 0);
    assert_eq!(count_commas("[a' b']"), 1);
    assert_eq!(count_commas("[a (1)]"), 1);
    assert_eq!(count_commas("[f(1, 2) 3]"), 2);
    assert_eq!(count_commas("[1 +2]"), 1);
    assert_eq!(count_commas("[a -b + 1]"), 1);
    assert_eq!(count_commas("{@(x) x + 1, @(x) x * 3}"), 1);
}
#[test]
fn quote_is_transpose_after_values() {
    let t = kinds("x = a';");
    assert!(t.contains(&Tok::Quote));
    let t = kinds("x = 'it''s';");
    assert!(t.contains(&Tok::Char("it's".into())));
    let t = kinds("[a 'b']");
    assert!(t.contains(&Tok::Char("b".into())));
}
#[test]
fn command_syntax() {
    assert_eq!(
        kinds("format long")[0],
        Tok::Command("format".into(), vec!["long".into()])
    );
    assert_eq!(
        kinds("disp 'hello world'")[0],
        Tok::Command("disp".into(), vec!["hello world".into()])
    );
    assert!(matches!(kinds("a + b")[0], Tok::Ident(_)));
    assert!(matches!(kinds("x = 1; x -1")[4], Tok::Ident(_)));
    assert!(matches!(kinds("hold on;")[0], Tok::Command(..)));
}
#[test]
fn end_inside_index() {
    let t = kinds("x(end)");
    assert!(t.contains(&Tok::EndIdx));
    let t = kinds("if x\nend");
    assert!(t.contains(&Tok::Kw(Kw::End)));
}
#[test]
fn numbers() {
    assert_eq!(kinds("1e-3")[0], Tok::Num(1e-3));
    assert_eq!(kinds(".5")[0], Tok::Num(0.5));
    assert_eq!(kinds("3i")[0], Tok::Imag(3.0));
    assert_eq!(kinds("2j")[0], Tok::Imag(2.0));
    assert_eq!(kinds("3.*2")[1], Tok::DotStar);
}
#[test]
fn newlines_in_brackets_are_rows() {
    let t = kinds("[1 2\n3 4]");
    assert!(t.contains(&Tok::Semi));
    assert!(!t.contains(&Tok::Newline));
}
#[test]
fn block_comments_and_continuations() {
    let t = kinds("x = 1 + ...\n 2;\n%{\nignored\n%}\ny = 3");
    assert!(
        !t.iter()
            .any(|t| matches!(t, Tok::Ident(n) if &**n == "ignored"))
    );
    assert_eq!(t.iter().filter(|t| **t == Tok::Plus).count(), 1);
}
#[test]
fn unbalanced_is_incomplete() {
    let e = lex("x = [1 2", &|_| false).unwrap_err();
    assert!(e.incomplete);
}
