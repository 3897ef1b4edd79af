//! Multiple-assignment targets that take several values: `[c{1:2}] = ...`, `[s.f] = ...`,
//! `[s(2:3).f] = ...`, `[t.s.f] = ...`, `[s.(name)] = ...`.
//!
//! Such a target addresses a *base* array (a cell array, or a struct array) reached by the
//! steps before its last index; the base is read, updated element by element, and written back
//! through the ordinary path assignment, so growth, rollback and globals behave as usual.

use super::Interp;
use super::error::{MError, MResult};
use super::exec::Flow;
use super::function::Frame;
use crate::syntax::ast::{Expr, Lhs, LhsItem, LhsStep};
use crate::values::access;
use crate::values::containers::{CellArray, StructArray};
use crate::values::ops::index;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// How a spreading target writes its values into its base array.
pub enum Spread {
    /// `base{args}` over `n` cells.
    Cells {
        base_steps: usize,
        args: Vec<Value>,
        n: usize,
    },
    /// `base(args).name` (or `base.name` when `args` is None) over `n` struct elements.
    Fields {
        base_steps: usize,
        args: Option<Vec<Value>>,
        name: String,
        n: usize,
    },
}

impl Spread {
    fn count(&self) -> usize {
        match self {
            Spread::Cells { n, .. } | Spread::Fields { n, .. } => *n,
        }
    }
}

impl Interp {
    /// The value reached by the first `k` steps of `lhs` (None: undefined or out of range).
    fn read_prefix(&mut self, f: &mut Frame, lhs: &Lhs, k: usize) -> MResult<Option<Value>> {
        let mut cur = self.read_slot(f, lhs.var.slot.get() as usize);
        for st in &lhs.steps[..k] {
            let Some(v) = cur else { return Ok(None) };
            cur = match st {
                LhsStep::Paren(args) | LhsStep::Brace(args) => {
                    let vals = self.eval_args(f, args, Some(&v.shape()))?;
                    if matches!(st, LhsStep::Brace(_)) {
                        access::brace(&v, &vals).ok().and_then(|mut x| x.pop())
                    } else {
                        access::paren(&v, &vals).ok()
                    }
                }
                LhsStep::Field(name) => self.field_values(&v, name).ok().and_then(|mut x| x.pop()),
                LhsStep::DynField(e) => {
                    let name = self.field_name(f, e)?;
                    self.field_values(&v, &name).ok().and_then(|mut x| x.pop())
                }
            };
        }
        Ok(cur)
    }

    fn field_name(&mut self, f: &mut Frame, e: &Expr) -> MResult<String> {
        self.eval(f, e)?.text().map_err(|_| {
            MError::new(
                "MATLAB:dynamicFieldName",
                "Dynamic structure field names must be text.",
            )
        })
    }

    /// Evaluates the subscripts `args` applied to the first `steps` steps of the target, and
    /// counts the elements they address (growth included).
    fn indexed_count(
        &mut self,
        f: &mut Frame,
        lhs: &Lhs,
        steps: usize,
        args: &[Expr],
    ) -> MResult<(Vec<Value>, usize)> {
        let base = self.read_prefix(f, lhs, steps)?;
        let shape = base
            .as_ref()
            .map(|v| v.shape())
            .unwrap_or_else(Shape::empty);
        let vals = self.eval_args(f, args, Some(&shape))?;
        let subs = index::to_subs(&vals)?;
        let n = index::plan_write(&shape, &subs, &Shape::scalar())?
            .positions
            .len();
        Ok((vals, n))
    }

    /// The spread a target makes, or None when it takes exactly one value.
    pub(super) fn spread_target(&mut self, f: &mut Frame, lhs: &Lhs) -> MResult<Option<Spread>> {
        let m = lhs.steps.len();
        match lhs.steps.last() {
            Some(LhsStep::Brace(args)) => {
                let (vals, n) = self.indexed_count(f, lhs, m - 1, args)?;
                Ok((n != 1).then_some(Spread::Cells {
                    base_steps: m - 1,
                    args: vals,
                    n,
                }))
            }
            Some(LhsStep::Field(_) | LhsStep::DynField(_)) => {
                let name = match &lhs.steps[m - 1] {
                    LhsStep::Field(n) => n.to_string(),
                    LhsStep::DynField(e) => self.field_name(f, e)?,
                    _ => return Ok(None),
                };
                if let Some(LhsStep::Paren(args)) = m.checked_sub(2).map(|k| &lhs.steps[k]) {
                    let (vals, n) = self.indexed_count(f, lhs, m - 2, args)?;
                    return Ok((n != 1).then_some(Spread::Fields {
                        base_steps: m - 2,
                        args: Some(vals),
                        name,
                        n,
                    }));
                }
                match self.read_prefix(f, lhs, m - 1)? {
                    Some(Value::Struct(st)) if st.numel() != 1 => Ok(Some(Spread::Fields {
                        base_steps: m - 1,
                        args: None,
                        name,
                        n: st.numel(),
                    })),
                    _ => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// Writes `parts` through a spreading target.
    fn write_spread(
        &mut self,
        f: &mut Frame,
        lhs: &Lhs,
        spread: Spread,
        parts: Vec<Value>,
    ) -> MResult<()> {
        let base_steps = match &spread {
            Spread::Cells { base_steps, .. } | Spread::Fields { base_steps, .. } => *base_steps,
        };
        let mut base = self.read_prefix(f, lhs, base_steps)?;
        let updated = match spread {
            Spread::Cells { args, .. } => {
                let rhs = Value::from(CellArray::row(parts));
                access::assign_paren(base.as_mut(), &args, rhs, false)?
            }
            Spread::Fields { args, name, .. } => {
                let mut st = match base {
                    None => StructArray::empty_with(vec![], Shape::empty()),
                    Some(Value::Struct(s)) => Rc::try_unwrap(s).unwrap_or_else(|rc| (*rc).clone()),
                    Some(v) if v.is_numeric_like() && v.is_empty() => {
                        StructArray::empty_with(vec![], Shape::empty())
                    }
                    Some(v) => {
                        return Err(MError::new(
                            "MATLAB:fieldAssignToNonStruct",
                            format!(
                                "Unable to perform assignment because dot indexing is not supported for variables of this type ({}).",
                                v.class_name()
                            ),
                        ));
                    }
                };
                let positions: Vec<usize> = match &args {
                    Some(a) => {
                        let subs = index::to_subs(a)?;
                        let plan = index::plan_write(&st.shape, &subs, &Shape::scalar())?;
                        access::grow_struct(&mut st, &plan.shape);
                        plan.positions
                    }
                    None => (0..st.numel()).collect(),
                };
                st.ensure_field(&name);
                for (p, v) in positions.into_iter().zip(parts) {
                    st.set(p, &name, v);
                }
                Value::from(st)
            }
        };
        if base_steps == 0 {
            self.store(f, lhs.var.slot.get() as usize, updated);
            Ok(())
        } else {
            let prefix = Lhs {
                var: lhs.var.clone(),
                steps: lhs.steps[..base_steps].to_vec(),
                span: lhs.span,
            };
            self.assign_path(f, &prefix, updated, false)
        }
    }

    pub(super) fn multi_assign_spread(
        &mut self,
        f: &mut Frame,
        items: &[LhsItem],
        spreads: Vec<Option<Spread>>,
        rhs: &Expr,
        display: bool,
    ) -> MResult<Flow> {
        let total: usize = spreads
            .iter()
            .map(|s| s.as_ref().map(|s| s.count()).unwrap_or(1))
            .sum();
        let vals = self.eval_outputs(f, rhs, total)?;
        if vals.len() < total {
            return Err(MError::new(
                "MATLAB:needMoreRhsOutputs",
                "Insufficient number of outputs from right hand side of equal sign to satisfy assignment.",
            ));
        }
        let mut it = vals.into_iter();
        for (item, spread) in items.iter().zip(spreads) {
            let LhsItem::Target(lhs) = item else {
                it.next();
                continue;
            };
            match spread {
                None => {
                    let v = it.next().unwrap_or_else(Value::empty);
                    if lhs.steps.is_empty() {
                        self.store(f, lhs.var.slot.get() as usize, v);
                    } else {
                        self.assign_path(f, lhs, v, false)?;
                    }
                }
                Some(sp) => {
                    let parts: Vec<Value> = it.by_ref().take(sp.count()).collect();
                    self.write_spread(f, lhs, sp, parts)?;
                }
            }
        }
        if display {
            for item in items {
                if let LhsItem::Target(lhs) = item {
                    if let Some(v) = self.read_slot(f, lhs.var.slot.get() as usize) {
                        self.display(&lhs.var.name, &v);
                    }
                }
            }
        }
        Ok(Flow::Normal)
    }
}
