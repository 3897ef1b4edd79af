//! `s = [s t ...]`: appending to a row in a loop grows the variable's own storage (whose
//! spare capacity doubles) instead of building a new array from a copy each time, so the loop
//! is linear, not quadratic. Only when the row is the variable's sole owner and every appended
//! value is a row of the same storage type; anything else concatenates as usual, from the
//! values already evaluated (nothing is evaluated twice).

use super::Interp;
use super::function::{Frame, Slot};
use crate::interp::error::MResult;
use crate::syntax::ast::{Expr, ExprKind, Lhs};
use crate::values::ops::concat;
use crate::values::tensor::Data;
use crate::values::value::Value;
use std::rc::Rc;

impl Interp {
    /// Runs `lhs = [lhs rest...]` when `rhs` has that form and `lhs` holds a host array;
    /// None leaves the statement to the general path untouched.
    pub(super) fn try_append(
        &mut self,
        f: &mut Frame,
        lhs: &Lhs,
        rhs: &Expr,
    ) -> Option<MResult<()>> {
        let ExprKind::Matrix(rows) = &rhs.kind else {
            return None;
        };
        let [row] = rows.as_slice() else {
            return None;
        };
        let (first, rest) = row.split_first()?;
        let slot = lhs.var.slot.get() as usize;
        match &first.kind {
            ExprKind::Ident(id) if id.slot.get() as usize == slot => {}
            _ => return None,
        }
        if rest.is_empty() || !matches!(f.vars.get(slot), Some(Slot::Val(Value::Tensor(_)))) {
            return None;
        }
        if append_text_literals(f.vars.get_mut(slot), rest) {
            return Some(Ok(()));
        }
        let mut vals = Vec::with_capacity(rest.len());
        for x in rest {
            if let Err(e) = self.eval_into(f, x, &mut vals) {
                return Some(Err(e));
            }
        }
        let _hold = super::interrupt::hold();
        let cur = match std::mem::take(&mut f.vars[slot]) {
            Slot::Val(v) => v,
            other => {
                f.vars[slot] = other;
                return None;
            }
        };
        let grown = match append_rows(cur, &vals) {
            Ok(v) => v,
            Err(cur) => {
                // the general concatenation, of the same values
                let mut all = Vec::with_capacity(vals.len() + 1);
                all.push(cur.clone());
                all.extend(vals);
                match super::lower::host_args(all).and_then(|a| concat::matrix_literal(vec![a])) {
                    Ok(v) => v,
                    Err(e) => {
                        f.vars[slot] = Slot::Val(cur);
                        return Some(Err(e.at(rhs.span, &f.unit.source)));
                    }
                }
            }
        };
        self.store(f, slot, grown);
        Some(Ok(()))
    }
}

/// `s = [s 'ab' ...]` with only text literals after `s`, a char row that is its storage's
/// sole owner: the literals' UTF-16 units pushed onto the row where it lies, no value made for
/// each literal (two allocations and a copy a statement: half the time of such a loop).
/// False, touching nothing, when the statement is not of that form.
fn append_text_literals(slot: Option<&mut Slot>, rest: &[Expr]) -> bool {
    let Some(Slot::Val(Value::Tensor(rc))) = slot else {
        return false;
    };
    if !rest
        .iter()
        .all(|x| matches!(&x.kind, ExprKind::Char(s) if !s.is_empty()))
    {
        return false;
    }
    let row = rc.shape.ndims() == 2 && rc.shape.rows() == 1 && rc.numel() > 0;
    let Some(t) = Rc::get_mut(rc).filter(|_| row) else {
        return false;
    };
    let Data::Char(d) = &mut t.data else {
        return false;
    };
    for x in rest {
        if let ExprKind::Char(s) = &x.kind {
            d.extend(s.encode_utf16());
        }
    }
    t.shape = crate::values::shape::Shape::row(d.len());
    true
}

/// `cur` with `vals` appended in place, or `cur` back when that is not a plain append.
fn append_rows(cur: Value, vals: &[Value]) -> Result<Value, Value> {
    let Value::Tensor(mut rc) = cur else {
        return Err(cur);
    };
    let row = |s: &crate::values::shape::Shape| s.ndims() == 2 && s.rows() == 1;
    let same = |v: &Value| match v {
        Value::Tensor(t) => {
            row(&t.shape)
                && !t.is_complex()
                && std::mem::discriminant(&t.data) == std::mem::discriminant(&rc.data)
        }
        Value::Num(_) => matches!(rc.data, Data::F64(_)),
        _ => false,
    };
    if !row(&rc.shape) || rc.numel() == 0 || Rc::strong_count(&rc) != 1 || !vals.iter().all(same) {
        return Err(Value::Tensor(rc));
    }
    let t = Rc::make_mut(&mut rc);
    for v in vals {
        match (v, &mut t.data) {
            (Value::Num(x), Data::F64(d)) => d.push(*x),
            (Value::Tensor(s), _) => append_data(&mut t.data, &s.data),
            _ => {}
        }
    }
    let n = t.data.len();
    t.shape = crate::values::shape::Shape::row(n);
    Ok(Value::Tensor(rc))
}

fn append_data(dst: &mut Data, src: &Data) {
    macro_rules! go {
        ($($v:ident),*) => {
            match (dst, src) {
                $( (Data::$v(d), Data::$v(s)) => d.extend_from_slice(s), )*
                _ => {}
            }
        };
    }
    go!(
        F64, F32, C64, C32, I8, I16, I32, I64, U8, U16, U32, U64, Bool, Char
    );
}
