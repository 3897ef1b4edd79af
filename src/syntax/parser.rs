//! The MATLAB grammar, written with chumsky over the lexer's tokens.
//!
//! Precedence, lowest to highest: `||`, `&&`, `|`, `&`, comparisons, `:`, `+ -`,
//! `* / \ .* ./ .\`, unary `+ - ~`, then `^ .^ ' .'` (left-associative; the operand right of
//! `^` may carry its own unary signs, so `2^-1` works and `-2^2` is `-(2^2)`), then postfix
//! indexing `()`, `{}` and `.field`.

use super::ast::*;
use super::span::Span;
use super::token::{Kw, Tok};
use chumsky::input::ValueInput;
use chumsky::prelude::*;
use std::rc::Rc;

type Extra<'t> = extra::Err<Rich<'t, Tok, SimpleSpan>>;

fn sp(s: SimpleSpan) -> Span {
    Span::new(s.start, s.end)
}

fn expr_parser<'t, I>(src: Rc<str>) -> impl Parser<'t, I, Expr, Extra<'t>> + Clone
where
    I: ValueInput<'t, Token = Tok, Span = SimpleSpan>,
{
    recursive(|expr| {
        let ident = select! { Tok::Ident(n) => n }.labelled("identifier");

        // An argument of an index or call: a bare `:` or an expression.
        let arg = just(Tok::Colon)
            .then(one_of([Tok::Comma, Tok::RParen, Tok::RBrace]).rewind())
            .map_with(|_, e| Expr::new(ExprKind::Colon, sp(e.span())))
            .or(expr.clone());
        let args = arg.separated_by(just(Tok::Comma)).collect::<Vec<_>>();

        let row = expr
            .clone()
            .separated_by(just(Tok::Comma))
            .at_least(1)
            .allow_trailing()
            .collect::<Vec<_>>();
        let rows = row
            .separated_by(just(Tok::Semi).repeated().at_least(1))
            .allow_leading()
            .allow_trailing()
            .collect::<Vec<_>>()
            .then_ignore(just(Tok::Comma).repeated());
        let matrix = rows
            .clone()
            .delimited_by(just(Tok::LBracket), just(Tok::RBracket))
            .map(ExprKind::Matrix);
        let cell = rows
            .delimited_by(just(Tok::LBrace), just(Tok::RBrace))
            .map(ExprKind::CellLit);

        let params = select! { Tok::Ident(n) => n, Tok::Not => Rc::from("~") }
            .separated_by(just(Tok::Comma))
            .collect::<Vec<_>>()
            .delimited_by(just(Tok::LParen), just(Tok::RParen));
        let src_text = src.clone();
        let anon = just(Tok::At).ignore_then(params).then(expr.clone()).map(
            move |(params, body): (Vec<Name>, Expr)| {
                let text = format!(
                    "@({}){}",
                    params.join(","),
                    super::unparse::expr(&body, &src_text)
                );
                ExprKind::AnonFunc(Rc::new(AnonDef {
                    params,
                    body,
                    scope: Default::default(),
                    text,
                }))
            },
        );
        let handle = just(Tok::At)
            .ignore_then(
                ident
                    .separated_by(just(Tok::Dot))
                    .at_least(1)
                    .collect::<Vec<_>>(),
            )
            .map(|parts: Vec<Name>| ExprKind::FuncHandle(parts.join(".").into()));

        let atom = choice((
            select! {
                Tok::Num(x) => ExprKind::Num(x),
                Tok::Imag(x) => ExprKind::Imag(x),
                Tok::Char(s) => ExprKind::Char(s),
                Tok::Str(s) => ExprKind::Str(s),
                Tok::EndIdx => ExprKind::End,
                Tok::Ident(n) => ExprKind::Ident(Ident::new(n)),
            },
            matrix,
            cell,
            anon,
            handle,
        ))
        .map_with(|k, e| Expr::new(k, sp(e.span())))
        .or(expr
            .clone()
            .delimited_by(just(Tok::LParen), just(Tok::RParen))
            .map_with(|x: Expr, e| Expr::new(ExprKind::Paren(Box::new(x)), sp(e.span()))))
        .boxed();

        #[derive(Clone)]
        enum Post {
            Call(Vec<Expr>),
            Brace(Vec<Expr>),
            Field(Name),
            Dyn(Expr),
        }
        let post = choice((
            args.clone()
                .delimited_by(just(Tok::LParen), just(Tok::RParen))
                .map(Post::Call),
            args.delimited_by(just(Tok::LBrace), just(Tok::RBrace))
                .map(Post::Brace),
            just(Tok::Dot).ignore_then(ident).map(Post::Field),
            just(Tok::Dot)
                .ignore_then(
                    expr.clone()
                        .delimited_by(just(Tok::LParen), just(Tok::RParen)),
                )
                .map(Post::Dyn),
        ));
        let postfix = atom
            .foldl_with(post.repeated(), |base, p, e| {
                let kind = match p {
                    Post::Call(a) => ExprKind::Call(Box::new(base), a),
                    Post::Brace(a) => ExprKind::CellIndex(Box::new(base), a),
                    Post::Field(n) => ExprKind::Field(Box::new(base), n),
                    Post::Dyn(x) => ExprKind::DynField(Box::new(base), Box::new(x)),
                };
                Expr::new(kind, sp(e.span()))
            })
            .boxed();

        let prefix_op =
            select! { Tok::Minus => UnOp::Neg, Tok::Plus => UnOp::Plus, Tok::Not => UnOp::Not };
        let power_operand = prefix_op
            .map_with(|op, e| (op, sp(e.span())))
            .repeated()
            .foldr(postfix.clone(), |(op, s), x| {
                let span = s.join(x.span);
                Expr::new(ExprKind::Unary(op, Box::new(x)), span)
            });
        #[derive(Clone)]
        enum Pw {
            T(UnOp),
            P(BinOp, Expr),
        }
        let power = postfix
            .foldl_with(
                choice((
                    just(Tok::Quote).to(Pw::T(UnOp::CTranspose)),
                    just(Tok::DotQuote).to(Pw::T(UnOp::Transpose)),
                    select! { Tok::Caret => BinOp::Pow, Tok::DotCaret => BinOp::ElemPow }
                        .then(power_operand)
                        .map(|(op, x)| Pw::P(op, x)),
                ))
                .repeated(),
                |a, p, e| {
                    let kind = match p {
                        Pw::T(op) => ExprKind::Unary(op, Box::new(a)),
                        Pw::P(op, b) => ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    };
                    Expr::new(kind, sp(e.span()))
                },
            )
            .boxed();
        let unary = prefix_op
            .map_with(|op, e| (op, sp(e.span())))
            .repeated()
            .foldr(power, |(op, s), x| {
                let span = s.join(x.span);
                Expr::new(ExprKind::Unary(op, Box::new(x)), span)
            })
            .boxed();

        fn binary<'t, I, P, O>(next: P, ops: O) -> impl Parser<'t, I, Expr, Extra<'t>> + Clone
        where
            I: ValueInput<'t, Token = Tok, Span = SimpleSpan>,
            P: Parser<'t, I, Expr, Extra<'t>> + Clone,
            O: Parser<'t, I, BinOp, Extra<'t>> + Clone,
        {
            next.clone()
                .foldl_with(ops.then(next).repeated(), |a, (op, b), e| {
                    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), sp(e.span()))
                })
        }
        let mul = binary(
            unary,
            select! {
                Tok::Star => BinOp::Mul, Tok::Slash => BinOp::Div, Tok::Backslash => BinOp::LeftDiv,
                Tok::DotStar => BinOp::ElemMul, Tok::DotSlash => BinOp::ElemDiv, Tok::DotBackslash => BinOp::ElemLeftDiv,
            },
        )
        .boxed();
        let add = binary(
            mul,
            select! { Tok::Plus => BinOp::Add, Tok::Minus => BinOp::Sub },
        )
        .boxed();
        let range = add
            .clone()
            .then(
                just(Tok::Colon)
                    .ignore_then(add.clone())
                    .then(just(Tok::Colon).ignore_then(add).or_not())
                    .or_not(),
            )
            .map_with(|(a, rest), e| match rest {
                None => a,
                Some((b, None)) => Expr::new(
                    ExprKind::Range(Box::new(a), None, Box::new(b)),
                    sp(e.span()),
                ),
                Some((s, Some(b))) => Expr::new(
                    ExprKind::Range(Box::new(a), Some(Box::new(s)), Box::new(b)),
                    sp(e.span()),
                ),
            })
            .boxed();
        let cmp = binary(
            range,
            select! {
                Tok::EqEq => BinOp::Eq, Tok::NotEq => BinOp::Ne, Tok::Lt => BinOp::Lt,
                Tok::Le => BinOp::Le, Tok::Gt => BinOp::Gt, Tok::Ge => BinOp::Ge,
            },
        )
        .boxed();
        let and = binary(cmp, just(Tok::Amp).to(BinOp::And)).boxed();
        let or = binary(and, just(Tok::Bar).to(BinOp::Or)).boxed();
        let andand = binary(or, just(Tok::AndAnd).to(BinOp::AndAnd)).boxed();
        binary(andand, just(Tok::OrOr).to(BinOp::OrOr))
            .labelled("expression")
            .boxed()
    })
}

fn block_end<'t, I>() -> impl Parser<'t, I, (), Extra<'t>> + Clone
where
    I: ValueInput<'t, Token = Tok, Span = SimpleSpan>,
{
    just(Tok::Kw(Kw::End)).ignored()
}

fn program_parser<'t, I>(src: Rc<str>) -> impl Parser<'t, I, Vec<Stmt>, Extra<'t>>
where
    I: ValueInput<'t, Token = Tok, Span = SimpleSpan>,
{
    let expr = expr_parser(src);
    let ident = select! { Tok::Ident(n) => Ident::new(n) }.labelled("identifier");
    let sep = one_of([Tok::Semi, Tok::Comma, Tok::Newline]);

    // What ends a simple statement: `;` hides the result, `,` or a newline shows it; the
    // statement may also be the last one before a block keyword or the end of input.
    let stops = one_of([
        Tok::Kw(Kw::End),
        Tok::Kw(Kw::Else),
        Tok::Kw(Kw::Elseif),
        Tok::Kw(Kw::Case),
        Tok::Kw(Kw::Otherwise),
        Tok::Kw(Kw::Catch),
        Tok::Kw(Kw::Function),
    ]);
    let term = choice((
        just(Tok::Semi).to(false),
        just(Tok::Comma).to(true),
        just(Tok::Newline).to(true),
        end().to(true),
        stops.rewind().to(true),
    ));

    let block = recursive(
        |block: Recursive<dyn Parser<'t, I, Vec<Stmt>, Extra<'t>>>| {
            let arg = just(Tok::Colon)
                .then(one_of([Tok::Comma, Tok::RParen, Tok::RBrace]).rewind())
                .map_with(|_, e| Expr::new(ExprKind::Colon, sp(e.span())))
                .or(expr.clone());
            let args = arg.separated_by(just(Tok::Comma)).collect::<Vec<_>>();
            let step = choice((
                args.clone()
                    .delimited_by(just(Tok::LParen), just(Tok::RParen))
                    .map(LhsStep::Paren),
                args.delimited_by(just(Tok::LBrace), just(Tok::RBrace))
                    .map(LhsStep::Brace),
                just(Tok::Dot)
                    .ignore_then(select! { Tok::Ident(n) => n })
                    .map(LhsStep::Field),
                just(Tok::Dot)
                    .ignore_then(
                        expr.clone()
                            .delimited_by(just(Tok::LParen), just(Tok::RParen)),
                    )
                    .map(LhsStep::DynField),
            ));
            let lhs =
                ident
                    .then(step.repeated().collect::<Vec<_>>())
                    .map_with(|(var, steps), e| Lhs {
                        var,
                        steps,
                        span: sp(e.span()),
                    });
            let lhs_item = just(Tok::Not)
                .to(LhsItem::Ignore)
                .or(lhs.clone().map(LhsItem::Target));
            let multi = lhs_item
                .separated_by(just(Tok::Comma))
                .at_least(1)
                .collect::<Vec<_>>()
                .delimited_by(just(Tok::LBracket), just(Tok::RBracket))
                .then_ignore(just(Tok::Assign))
                .then(expr.clone())
                .map(|(l, r)| StmtKind::MultiAssign(l, r));
            let assign = lhs
                .then_ignore(just(Tok::Assign))
                .then(expr.clone())
                .map(|(l, r)| StmtKind::Assign(l, r));
            let command = select! { Tok::Command(n, a) => StmtKind::Command(Ident::new(n), a) };
            let simple = choice((assign, multi, command, expr.clone().map(StmtKind::Expr)))
                .then(term)
                .map_with(|(kind, display), e| Stmt {
                    kind,
                    span: sp(e.span()),
                    display,
                    fast: Default::default(),
                });

            let seps = sep.clone().repeated();
            let if_stmt = just(Tok::Kw(Kw::If))
                .ignore_then(expr.clone())
                .then(block.clone())
                .then(
                    just(Tok::Kw(Kw::Elseif))
                        .ignore_then(expr.clone())
                        .then(block.clone())
                        .repeated()
                        .collect::<Vec<_>>(),
                )
                .then(just(Tok::Kw(Kw::Else)).ignore_then(block.clone()).or_not())
                .then_ignore(block_end())
                .map(|(((c, b), mut elifs), els)| {
                    elifs.insert(0, (c, b));
                    StmtKind::If(elifs, els)
                });
            let for_head = ident.then_ignore(just(Tok::Assign)).then(expr.clone());
            let for_stmt = one_of([Tok::Kw(Kw::For), Tok::Kw(Kw::Parfor)])
                .ignore_then(
                    for_head
                        .clone()
                        .delimited_by(just(Tok::LParen), just(Tok::RParen))
                        .or(for_head),
                )
                .then(block.clone())
                .then_ignore(block_end())
                .map(|((v, e), b)| StmtKind::For(v, e, b));
            let while_stmt = just(Tok::Kw(Kw::While))
                .ignore_then(expr.clone())
                .then(block.clone())
                .then_ignore(block_end())
                .map(|(c, b)| StmtKind::While(c, b));
            let switch_stmt = just(Tok::Kw(Kw::Switch))
                .ignore_then(expr.clone())
                .then_ignore(seps.clone())
                .then(
                    just(Tok::Kw(Kw::Case))
                        .ignore_then(expr.clone())
                        .then(block.clone())
                        .repeated()
                        .collect::<Vec<_>>(),
                )
                .then(
                    just(Tok::Kw(Kw::Otherwise))
                        .ignore_then(block.clone())
                        .or_not(),
                )
                .then_ignore(block_end())
                .map(|((s, cases), other)| StmtKind::Switch(s, cases, other));
            let catch_var =
                ident.then_ignore(one_of([Tok::Semi, Tok::Comma, Tok::Newline]).rewind());
            let try_stmt = just(Tok::Kw(Kw::Try))
                .ignore_then(block.clone())
                .then(
                    just(Tok::Kw(Kw::Catch))
                        .ignore_then(catch_var.or_not())
                        .then(block.clone())
                        .or_not(),
                )
                .then_ignore(block_end())
                .map(|(body, c)| match c {
                    Some((v, cb)) => StmtKind::Try(body, v, cb),
                    None => StmtKind::Try(body, None, vec![]),
                });
            let names = ident.repeated().at_least(1).collect::<Vec<_>>();
            let decl = just(Tok::Kw(Kw::Global))
                .ignore_then(names.clone())
                .map(StmtKind::Global)
                .or(just(Tok::Kw(Kw::Persistent))
                    .ignore_then(names)
                    .map(StmtKind::Persistent));
            let jump = select! {
                Tok::Kw(Kw::Break) => StmtKind::Break,
                Tok::Kw(Kw::Continue) => StmtKind::Continue,
                Tok::Kw(Kw::Return) => StmtKind::Return,
            };

            let compound = choice((
                if_stmt,
                for_stmt,
                while_stmt,
                switch_stmt,
                try_stmt,
                decl,
                jump,
            ))
            .map_with(|kind, e| Stmt {
                kind,
                span: sp(e.span()),
                display: false,
                fast: Default::default(),
            });

            choice((compound, simple))
                .map(Some)
                .or(sep.to(None))
                .repeated()
                .collect::<Vec<_>>()
                .map(|v| v.into_iter().flatten().collect())
                .boxed()
        },
    );
    // Function definitions come between runs of statements, never inside a block: a
    // function's body ends at the next `function` (files without `end`) or at its `end`.
    // function [a, b] = name(x, y) ... [end]
    let outputs = select! { Tok::Ident(n) => n }
        .separated_by(just(Tok::Comma))
        .collect::<Vec<_>>()
        .delimited_by(just(Tok::LBracket), just(Tok::RBracket))
        .or(select! { Tok::Ident(n) => n }.map(|n| vec![n]))
        .then_ignore(just(Tok::Assign));
    let fparams = select! { Tok::Ident(n) => n, Tok::Not => Rc::from("~") }
        .separated_by(just(Tok::Comma))
        .collect::<Vec<_>>()
        .delimited_by(just(Tok::LParen), just(Tok::RParen));
    let fname = select! { Tok::Ident(n) => n }
        .separated_by(just(Tok::Dot))
        .at_least(1)
        .collect::<Vec<Name>>()
        .map(|p| Name::from(p.join(".")));
    let function = just(Tok::Kw(Kw::Function))
        .ignore_then(outputs.or_not())
        .then(fname)
        .then(fparams.or_not())
        .then(block.clone())
        .then(block_end().or_not())
        .map_with(|((((outs, name), params), body), end), e| {
            StmtKind::Function(Rc::new(FunctionDef {
                name,
                params: params.unwrap_or_default(),
                outputs: outs.unwrap_or_default(),
                body,
                span: sp(e.span()),
                has_end: end.is_some(),
                scope: Default::default(),
            }))
        });

    let function_stmt = function.map_with(|kind, e| Stmt {
        kind,
        span: sp(e.span()),
        display: false,
        fast: Default::default(),
    });
    block
        .clone()
        .then(function_stmt.then(block).repeated().collect::<Vec<_>>())
        .map(|(mut first, rest)| {
            for (f, stmts) in rest {
                first.push(f);
                first.extend(stmts);
            }
            first
        })
        .then_ignore(end())
}

/// A syntax error: where, what, and whether more input could complete it.
#[derive(Debug, Clone)]
pub struct ParseError {
    pub span: Span,
    pub message: String,
    pub identifier: &'static str,
    pub incomplete: bool,
}

/// Parses already-lexed tokens into statements (function definitions stay in place as
/// `StmtKind::Function`; `split_functions` separates them).
pub fn parse_tokens(toks: &[(Tok, Span)], src: &str) -> Result<Vec<Stmt>, ParseError> {
    let src_len = src.len();
    let input: Vec<(Tok, SimpleSpan)> = toks
        .iter()
        .map(|(t, s)| {
            (
                t.clone(),
                SimpleSpan::from(s.start as usize..s.end as usize),
            )
        })
        .collect();
    let eoi = SimpleSpan::from(src_len..src_len);
    let result = program_parser(Rc::from(src))
        .parse(input.as_slice().map(eoi, |(t, s)| (t, s)))
        .into_result();
    result.map_err(|errs| {
        let e = &errs[0];
        let span = sp(*e.span());
        let found = e.found();
        let (message, identifier, incomplete) = match found {
            None => (
                "This statement is incomplete: the input ended before it was finished (a block may be missing its END)."
                    .to_string(),
                "MATLAB:parse:incomplete",
                true,
            ),
            Some(Tok::Kw(k)) => (
                format!("Illegal use of reserved keyword \"{}\".", format!("{k:?}").to_lowercase()),
                "MATLAB:parse:keyword",
                false,
            ),
            Some(Tok::Assign) => (
                "Incorrect use of '=' operator. To assign a value to a variable, use '='. To compare values for equality, use '=='."
                    .to_string(),
                "MATLAB:parse:assignment",
                false,
            ),
            Some(Tok::RParen | Tok::RBracket | Tok::RBrace) => (
                "Invalid expression. When calling a function or indexing a variable, use parentheses. Otherwise, check for mismatched delimiters."
                    .to_string(),
                "MATLAB:parse:delimiters",
                false,
            ),
            Some(t) => (
                format!(
                    "Invalid expression at '{t}'. Check for missing multiplication operator, missing or unbalanced delimiters, or other syntax error."
                ),
                "MATLAB:parse:invalidExpression",
                false,
            ),
        };
        ParseError { span, message, identifier, incomplete }
    })
}

/// Separates function definitions from the statements of a program.
pub fn split_functions(stmts: Vec<Stmt>) -> Program {
    let mut prog = Program::default();
    for s in stmts {
        match s.kind {
            StmtKind::Function(f) => prog.functions.push(f),
            _ => prog.stmts.push(s),
        }
    }
    prog
}
