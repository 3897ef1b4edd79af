//! Expressions that yield several values: calls asked for `nargout` outputs, struct-array
//! fields and cell `{:}` lists (comma-separated lists).

use super::Interp;
use super::error::{MError, MResult, errors};
use super::function::Frame;
use crate::syntax::ast::{Expr, ExprKind};
use crate::values::access;
use crate::values::value::Value;

impl Interp {
    /// The values an indexing, field or call expression produces, asking functions for
    /// `nargout` outputs.
    pub fn eval_outputs(&mut self, f: &mut Frame, e: &Expr, nargout: usize) -> MResult<Vec<Value>> {
        let src = f.unit.source.clone();
        match &e.kind {
            ExprKind::Call(base, args) => {
                if let ExprKind::Ident(id) = &base.kind {
                    let slot = id.slot.get() as usize;
                    match self.read_slot(f, slot) {
                        Some(Value::Func(h)) => {
                            let a = self.eval_args(f, args, None)?;
                            return self
                                .call_handle(f, &h, a, nargout)
                                .map_err(|err| err.at(e.span, &src));
                        }
                        Some(v) => {
                            if let Value::Device(d) = &v {
                                if let Some(r) = self.compact_view(f, d, args) {
                                    return r.map(|v| vec![v]).map_err(|err| err.at(e.span, &src));
                                }
                            }
                            if let Some(d) = super::lower::host_graph_source(&v) {
                                if let Some(r) = self.compact_view(f, &d, args) {
                                    return r.map(|v| vec![v]).map_err(|err| err.at(e.span, &src));
                                }
                            }
                            if let Value::Tensor(t) = &v {
                                if let Some(r) = self.try_slice_read(f, &v, t, args, e) {
                                    return r.map(|v| vec![v]);
                                }
                            }
                            let shape = v.shape();
                            let a = self.eval_args(f, args, Some(&shape))?;
                            return self
                                .index_value(&v, &a)
                                .map(|v| vec![v])
                                .map_err(|err| err.at(e.span, &src));
                        }
                        None => {
                            if slot < f.nparams {
                                return Err(errors::not_enough_inputs(
                                    f.function_name().unwrap_or("anonymous"),
                                )
                                .at(base.span, &src));
                            }
                            let a = self.eval_args(f, args, None)?;
                            return self
                                .call_named(f, &id.name, a, nargout)
                                .map_err(|err| err.at(e.span, &src));
                        }
                    }
                }
                if let Some(name) = self.dotted_function(f, base) {
                    let a = self.eval_args(f, args, None)?;
                    return self
                        .call_named(f, &name, a, nargout)
                        .map_err(|err| err.at(e.span, &src));
                }
                // method-call syntax on an object: obj.method(args)
                if let ExprKind::Field(obj, name) = &base.kind {
                    let ov = self.eval(f, obj)?;
                    if let Value::Object(o) = &ov {
                        if super::objects::is_data_property(o, name) {
                            let pv = super::objects::property(o, name)
                                .map_err(|err| err.at(e.span, &src))?;
                            let shape = pv.shape();
                            let a = self.eval_args(f, args, Some(&shape))?;
                            return self
                                .index_value(&pv, &a)
                                .map(|v| vec![v])
                                .map_err(|err| err.at(e.span, &src));
                        }
                        let a = self.eval_args(f, args, None)?;
                        return super::objects::method(self, f, o, name, a, nargout)
                            .map_err(|err| err.at(e.span, &src));
                    }
                }
                let v = self.eval(f, base)?;
                if let Value::Func(h) = &v {
                    let a = self.eval_args(f, args, None)?;
                    return self
                        .call_handle(f, h, a, nargout)
                        .map_err(|err| err.at(e.span, &src));
                }
                let shape = v.shape();
                let a = self.eval_args(f, args, Some(&shape))?;
                self.index_value(&v, &a)
                    .map(|v| vec![v])
                    .map_err(|err| err.at(e.span, &src))
            }
            ExprKind::CellIndex(base, args) => {
                let v = self.eval(f, base)?;
                let shape = v.shape();
                let a = super::lower::host_args(self.eval_args(f, args, Some(&shape))?)?;
                access::brace(&v, &a).map_err(|err| err.at(e.span, &src))
            }
            ExprKind::Field(base, name) => {
                if let Some(full) = self.dotted_function(f, e) {
                    return self
                        .call_named(f, &full, vec![], nargout)
                        .map_err(|err| err.at(e.span, &src));
                }
                let vals = {
                    let mut vs = Vec::new();
                    self.eval_into(f, base, &mut vs)?;
                    vs
                };
                let mut out = Vec::new();
                for v in &vals {
                    out.extend(
                        self.field_values(v, name)
                            .map_err(|err| err.at(e.span, &src))?,
                    );
                }
                Ok(out)
            }
            ExprKind::DynField(base, name) => {
                let v = self.eval(f, base)?;
                let n = self.eval(f, name)?.text().map_err(|_| {
                    MError::new(
                        "MATLAB:dynamicFieldName",
                        "Dynamic structure field names must be text.",
                    )
                    .at(name.span, &src)
                })?;
                self.field_values(&v, &n)
                    .map_err(|err| err.at(e.span, &src))
            }
            ExprKind::Ident(id) => {
                if let Some(v) = self.read_slot(f, id.slot.get() as usize) {
                    return Ok(vec![v]);
                }
                self.call_named(f, &id.name, vec![], nargout)
                    .map_err(|err| err.at(e.span, &src))
            }
            ExprKind::Paren(x) => {
                let mut v = self.eval_outputs(f, x, 1)?;
                v.truncate(1);
                Ok(v)
            }
            _ => Ok(vec![self.eval(f, e)?]),
        }
    }

    /// `a.b.c` where `a` is not a variable: the dotted name of a function (`containers.Map`).
    fn dotted_function(&self, f: &Frame, e: &Expr) -> Option<String> {
        fn walk(e: &Expr, parts: &mut Vec<String>) -> Option<u32> {
            match &e.kind {
                ExprKind::Ident(id) => {
                    parts.push(id.name.to_string());
                    Some(id.slot.get())
                }
                ExprKind::Field(b, n) => {
                    let s = walk(b, parts)?;
                    parts.push(n.to_string());
                    Some(s)
                }
                _ => None,
            }
        }
        if !matches!(e.kind, ExprKind::Field(..)) {
            return None;
        }
        let mut parts = Vec::new();
        let slot = walk(e, &mut parts)?;
        if self.read_slot(f, slot as usize).is_some() {
            return None;
        }
        let name = parts.join(".");
        if self.function_exists(f, &name) {
            Some(name)
        } else {
            None
        }
    }
}
