//! `x(a:b)`, `A(:, a:b)`, `A(a:b, :)` of a host array read as a block straight from its
//! storage: the range's ends are evaluated as scalars, so the range is never built as an
//! array of indices (at 1e7 elements `sum(x(2:end))` made 80 MB of index values, then 80 MB
//! of positions, before reading). Other subscripts, or ends that are not whole numbers, take
//! the general path with the values already evaluated.

use super::Interp;
use super::eval::EndCtx;
use super::function::Frame;
use crate::interp::error::MResult;
use crate::syntax::ast::{Expr, ExprKind};
use crate::values::ops::colon;
use crate::values::ops::slices::{self, Part};
use crate::values::tensor::Tensor;
use crate::values::value::Value;

impl Interp {
    /// `t(args)` when each subscript is `:` or a unit-step range (at least one a range);
    /// None (nothing evaluated) for other forms.
    pub(super) fn try_slice_read(
        &mut self,
        f: &mut Frame,
        v: &Value,
        t: &Tensor,
        args: &[Expr],
        whole: &Expr,
    ) -> Option<MResult<Value>> {
        let range_or_colon =
            |e: &Expr| matches!(e.kind, ExprKind::Colon | ExprKind::Range(_, None, _));
        if args.is_empty() || args.len() > 2 || !args.iter().all(range_or_colon) {
            return None;
        }
        if !args.iter().any(|e| matches!(e.kind, ExprKind::Range(..))) {
            return None;
        }
        let mut ends = Vec::with_capacity(args.len());
        for (k, e) in args.iter().enumerate() {
            let ExprKind::Range(a, None, b) = &e.kind else {
                ends.push(None);
                continue;
            };
            self.end_stack.push(EndCtx {
                shape: t.shape.clone(),
                pos: k,
                count: args.len(),
            });
            let r = self.eval(f, a).and_then(|va| Ok((va, self.eval(f, b)?)));
            self.end_stack.pop();
            match r {
                Ok(pair) => ends.push(Some(pair)),
                Err(e) => return Some(Err(e)),
            }
        }
        let whole_number = |v: &Value| match v {
            Value::Num(x) if *x >= 1.0 && x.fract() == 0.0 && *x < 9.0e15 => Some(*x as usize),
            _ => None,
        };
        let parts: Option<Vec<Part>> = ends
            .iter()
            .map(|e| match e {
                None => Some(Part::All),
                Some((va, vb)) => {
                    let (a, b) = (whole_number(va)?, whole_number(vb)?);
                    (b >= a).then(|| Part::Run(a - 1, b - a + 1))
                }
            })
            .collect();
        if let Some(r) = parts.and_then(|p| slices::block(t, &p)) {
            return Some(Ok(Value::from(r)));
        }
        // the general read, of the values already evaluated
        let src = f.unit.source.clone();
        let mut vals = Vec::with_capacity(args.len());
        for (e, pair) in args.iter().zip(ends) {
            vals.push(match pair {
                None => Value::str(":"),
                Some((va, vb)) => match colon::colon(&va, None, &vb) {
                    Ok(r) => r,
                    Err(err) => return Some(Err(err.at(e.span, &src))),
                },
            });
        }
        Some(
            self.index_value(v, &vals)
                .map_err(|err| err.at(whole.span, &src)),
        )
    }
}
