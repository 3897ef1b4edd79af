//! Prints an expression back as MATLAB text without spaces, the way MATLAB shows anonymous
//! functions (`@(x)exp(x)+2^(-x)`). Literals are printed as they were written.

use super::ast::{Expr, ExprKind, UnOp};

pub fn expr(e: &Expr, src: &str) -> String {
    let mut out = String::new();
    write(e, src, &mut out);
    out
}

fn list(items: &[Expr], src: &str, out: &mut String) {
    for (i, a) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(a, src, out);
    }
}

fn rows(rows: &[Vec<Expr>], src: &str, out: &mut String) {
    for (i, r) in rows.iter().enumerate() {
        if i > 0 {
            out.push(';');
        }
        list(r, src, out);
    }
}

fn write(e: &Expr, src: &str, out: &mut String) {
    match &e.kind {
        ExprKind::Num(_) | ExprKind::Imag(_) | ExprKind::Char(_) | ExprKind::Str(_) => {
            out.push_str(src.get(e.span.range()).unwrap_or("?"))
        }
        ExprKind::Ident(id) => out.push_str(&id.name),
        ExprKind::Paren(x) => {
            out.push('(');
            write(x, src, out);
            out.push(')');
        }
        ExprKind::End => out.push_str("end"),
        ExprKind::Colon => out.push(':'),
        ExprKind::Unary(op, x) => match op {
            UnOp::Neg => {
                out.push('-');
                write(x, src, out)
            }
            UnOp::Plus => {
                out.push('+');
                write(x, src, out)
            }
            UnOp::Not => {
                out.push('~');
                write(x, src, out)
            }
            UnOp::CTranspose => {
                write(x, src, out);
                out.push('\'')
            }
            UnOp::Transpose => {
                write(x, src, out);
                out.push_str(".'")
            }
        },
        ExprKind::Binary(op, a, b) => {
            write(a, src, out);
            out.push_str(op.symbol());
            write(b, src, out);
        }
        ExprKind::Range(a, s, b) => {
            write(a, src, out);
            out.push(':');
            if let Some(s) = s {
                write(s, src, out);
                out.push(':');
            }
            write(b, src, out);
        }
        ExprKind::Call(base, args) => {
            write(base, src, out);
            out.push('(');
            list(args, src, out);
            out.push(')');
        }
        ExprKind::CellIndex(base, args) => {
            write(base, src, out);
            out.push('{');
            list(args, src, out);
            out.push('}');
        }
        ExprKind::Field(base, name) => {
            write(base, src, out);
            out.push('.');
            out.push_str(name);
        }
        ExprKind::DynField(base, name) => {
            write(base, src, out);
            out.push_str(".(");
            write(name, src, out);
            out.push(')');
        }
        ExprKind::Matrix(r) => {
            out.push('[');
            rows(r, src, out);
            out.push(']');
        }
        ExprKind::CellLit(r) => {
            out.push('{');
            rows(r, src, out);
            out.push('}');
        }
        ExprKind::FuncHandle(n) => {
            out.push('@');
            out.push_str(n);
        }
        ExprKind::AnonFunc(def) => out.push_str(&def.text),
    }
}
