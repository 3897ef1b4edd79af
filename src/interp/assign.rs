//! Indexed and field assignment through chains like `s.a(2).b{3} = v`.
//!
//! Two phases keep the workspace intact on error and allow in-place updates:
//! 1. every index argument is evaluated first (reading the variable as it is, so `end`
//!    and expressions like `x(numel(x)+1)` see the old value);
//! 2. the value is moved out of its slot (so it is uniquely owned and mutated in place),
//!    updated level by level, and put back. A failure at any level hands the untouched
//!    original back up the chain.

use super::Interp;
use super::error::{MError, MResult};
use super::function::{Frame, Slot};
use crate::syntax::ast::{Lhs, LhsStep};
use crate::values::access;
use crate::values::containers::{CellArray, Object, StructArray};
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

enum Step {
    Paren(Vec<Value>),
    Brace(Vec<Value>),
    Field(String),
}

type Failed = (MError, Option<Value>);

impl Interp {
    pub fn assign_path(
        &mut self,
        f: &mut Frame,
        lhs: &Lhs,
        rhs: Value,
        delete: bool,
    ) -> MResult<()> {
        let slot = lhs.var.slot.get() as usize;
        if !delete && appended_in_place(f, slot, lhs, &rhs) {
            return Ok(());
        }
        // Phase 1: evaluate the subscripts against the current value.
        let mut cur = self.read_slot(f, slot);
        // Nested indexed assignment works on host data (a graph value is computed first);
        // one level of subscripts needs only the value's shape.
        if lhs.steps.len() > 1 && matches!(cur, Some(Value::Device(_))) {
            cur = cur.map(Value::host).transpose()?;
        }
        // One level of range subscripts into a graph value, evaluated without index arrays.
        let mut compact = None;
        if let ([LhsStep::Paren(args)], Some(Value::Device(d)), false) =
            (&lhs.steps[..], &cur, delete)
        {
            let shape = d.shape().clone();
            compact = self.compact_region(f, &shape, args, true).transpose()?;
        }
        // Ranges past the end (`x(end+1:end+m) = w`) grow the array: kernels (`put`).
        // (an empty array grows the general way: `put_empty` makes it on the device)
        let grows = match (&compact, &cur) {
            (Some(region), Some(v)) => !region.fits(&v.shape()),
            _ => false,
        };
        if grows && cur.as_ref().is_some_and(|v| v.numel() == 0) {
            compact = None;
        }
        let grows = grows && compact.is_some();
        // A large plain host array without a device: a range of it assigned is an embed
        // written in place too (the array enters the graph over its own storage below).
        let mut host_embed = false;
        if let ([LhsStep::Paren(args)], Some(v), false, None) =
            (&lhs.steps[..], &cur, delete, &compact)
        {
            if let Some(d) = super::lower::host_graph_source(v) {
                let shape = d.shape().clone();
                // (a small region is written in place by the general path)
                let region = self.compact_region(f, &shape, args, false).transpose()?;
                if region
                    .as_ref()
                    .is_some_and(|r| r.count() * 2 > shape.numel())
                {
                    compact = region;
                    host_embed = true;
                }
            }
        }
        let mut steps = Vec::with_capacity(lhs.steps.len());
        for (i, st) in lhs.steps.iter().enumerate() {
            if compact.is_some() {
                steps.push(Step::Paren(Vec::new()));
                continue;
            }
            let last = i + 1 == lhs.steps.len();
            match st {
                LhsStep::Paren(args) | LhsStep::Brace(args) => {
                    let shape = cur.as_ref().map(|v| v.shape()).unwrap_or_else(Shape::empty);
                    let vals = self.eval_args(f, args, Some(&shape))?;
                    // A device mask into a graph value stays where it is (`x(x < 0) = 0`
                    // is a select on the device); the general path reads it below.
                    let keep = last
                        && i == 0
                        && matches!(st, LhsStep::Paren(_))
                        && (matches!(cur, Some(Value::Device(_)))
                            || (!delete && device_empty(cur.as_ref(), &rhs).is_some()));
                    let vals = if keep {
                        vals
                    } else {
                        super::lower::host_args(vals)?
                    };
                    if !last {
                        cur = match (&cur, st) {
                            (Some(v), LhsStep::Brace(_)) => {
                                access::brace(v, &vals).ok().and_then(|mut x| x.pop())
                            }
                            (Some(v), _) if v.numel() > 0 => access::paren(v, &vals).ok(),
                            _ => None,
                        };
                    }
                    steps.push(if matches!(st, LhsStep::Paren(_)) {
                        Step::Paren(vals)
                    } else {
                        Step::Brace(vals)
                    });
                }
                LhsStep::Field(name) => {
                    if !last {
                        cur = cur
                            .as_ref()
                            .and_then(|v| self.field_values(v, name).ok())
                            .and_then(|mut v| v.pop());
                    }
                    steps.push(Step::Field(name.to_string()));
                }
                LhsStep::DynField(e) => {
                    let name = self.eval(f, e)?.text().map_err(|_| {
                        MError::new(
                            "MATLAB:dynamicFieldName",
                            "Dynamic structure field names must be text.",
                        )
                    })?;
                    if !crate::builtins::is_valid_field_name(&name) {
                        return Err(crate::builtins::invalid_field_name(&name));
                    }
                    if !last {
                        cur = cur
                            .as_ref()
                            .and_then(|v| self.field_values(v, &name).ok())
                            .and_then(|mut v| v.pop());
                    }
                    steps.push(Step::Field(name));
                }
            }
        }
        drop(cur);
        // Phase 2: update in place; the variable is out of the workspace until it is stored
        // back, so Ctrl-C waits for the next statement.
        let _hold = super::interrupt::hold();
        let (global, persistent) = (
            matches!(f.vars[slot], Slot::Global),
            matches!(f.vars[slot], Slot::Persistent),
        );
        let old = if global {
            self.globals.remove(f.name_of(slot))
        } else if persistent {
            let key = self.persistent_key(f, slot);
            self.persistents.remove(&key)
        } else {
            match std::mem::take(&mut f.vars[slot]) {
                Slot::Val(v) => Some(v),
                _ => None,
            }
        };
        // A range of a graph value assigned: a pending embed, nothing read back.
        let linear = lhs
            .steps
            .iter()
            .all(|st| matches!(st, LhsStep::Paren(a) if a.len() == 1));
        // A host empty (or no variable) given a device value: a gpuArray, made on the device.
        let old = match (&steps[..], delete, device_empty(old.as_ref(), &rhs)) {
            ([Step::Paren(_)], false, Some(empty)) => Some(empty),
            _ => old,
        };
        let old = match old {
            Some(v) if host_embed => match super::lower::host_graph_source(&v) {
                Some(d) => {
                    drop(v);
                    Some(Value::Device(Rc::new(d)))
                }
                None => Some(v),
            },
            old => old,
        };
        let (old, rhs) = match (old, &steps[..], delete, compact) {
            (Some(Value::Device(d)), [Step::Paren(_)], false, Some(region)) if grows => {
                let outcome = super::put::assign_ranges(d, &region, rhs);
                let Some((d, rhs)) = self.settle(f, slot, outcome)? else {
                    return Ok(());
                };
                // The general path takes the positions as index vectors.
                steps = vec![Step::Paren(super::slices::region_args(&region))];
                (Some(Value::Device(d)), rhs)
            }
            (Some(Value::Device(d)), [Step::Paren(_)], false, Some(region)) => {
                match super::slices::assign_region(d, Some(region.clone()), linear, rhs) {
                    Ok(v) => {
                        self.store(f, slot, v);
                        return Ok(());
                    }
                    Err((d, rhs)) => {
                        // The general path takes the positions as index vectors.
                        steps = vec![Step::Paren(super::slices::region_args(&region))];
                        // A plain host array goes back as it was, not copied.
                        let old = match host_embed {
                            true => match crate::plan::to_host(&d.node) {
                                Ok(t) => Value::Tensor(t),
                                Err(_) => Value::Device(d),
                            },
                            false => Value::Device(d),
                        };
                        (Some(old), rhs)
                    }
                }
            }
            (Some(Value::Device(d)), [Step::Paren(args)], false, None) => {
                match super::slices::assign(d, args, rhs) {
                    Ok(v) => {
                        self.store(f, slot, v);
                        return Ok(());
                    }
                    Err((d, rhs)) => {
                        // Index vectors, masks with many values, growth: kernels (`put`).
                        let outcome = super::put::assign(d, args, rhs);
                        let Some((d, rhs)) = self.settle(f, slot, outcome)? else {
                            return Ok(());
                        };
                        if let Some(host) = self.host_steps(f, slot, &d, args)? {
                            steps = host;
                        }
                        (Some(Value::Device(d)), rhs)
                    }
                }
            }
            (Some(Value::Device(d)), [Step::Paren(args)], true, _) => {
                let outcome = super::deletion::delete(d, args);
                let Some((d, _)) = self.settle(f, slot, outcome)? else {
                    return Ok(());
                };
                if let Some(host) = self.host_steps(f, slot, &d, args)? {
                    steps = host;
                }
                (Some(Value::Device(d)), rhs)
            }
            (old, _, _, _) => (old, rhs),
        };
        // Other indexed assignment into a graph value works on its host data; a gpuArray
        // stays a gpuArray (MATLAB's x(2) = 10 on a gpuArray gives a gpuArray).
        // So does a host array one of whose elements gets a gpuArray (`x = zeros(1, 3);
        // x(2) = gpuArray(1)` is a gpuArray in MATLAB), real or complex.
        let into_elements = matches!(steps.as_slice(), [Step::Paren(_)]) && !delete;
        let explicit = old.as_ref().is_some_and(|v| super::lower::explicit(&[v]))
            || (into_elements && super::lower::explicit(&[&rhs]));
        // A graph value stored whole in a cell or a field stays what it is (pending or on the
        // device); only one written into an array's elements needs its data here.
        let stored_whole = matches!(steps.last(), Some(Step::Brace(_) | Step::Field(_)));
        // A graph value worked on as host data is what the variable keeps when the
        // assignment fails (a gpuArray stays one: `A(end+1:end+2) = [1 2]` of a matrix).
        let mut device_old = None;
        let (old, rhs) = if matches!(old, Some(Value::Device(_) | Value::DeviceComplex(_)))
            || (matches!(rhs, Value::Device(_) | Value::DeviceComplex(_)) && !stored_whole)
        {
            let backup = old.clone();
            match (old.map(Value::host).transpose(), rhs.host()) {
                (Ok(o), Ok(r)) => {
                    device_old =
                        backup.filter(|v| matches!(v, Value::Device(_) | Value::DeviceComplex(_)));
                    (o, r)
                }
                (Err(e), _) | (_, Err(e)) => {
                    // The variable keeps its value when its data cannot be read.
                    if let Some(v) = backup {
                        self.store(f, slot, v);
                    }
                    return Err(e);
                }
            }
        } else {
            (old, rhs)
        };
        let result = set_path(old, &steps, rhs, delete);
        let result = match result {
            Ok(v) if explicit => Ok(super::lower::rewrap_value(v)),
            r => r,
        };
        let (value, err) = match result {
            Ok(v) => (Some(v), None),
            Err((e, orig)) => (device_old.or(orig), Some(e)),
        };
        if let Some(v) = value {
            self.store(f, slot, v);
        } else if global || persistent {
            self.store(f, slot, Value::empty());
        }
        match err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Interp {
    /// Stores what a device assignment (`put`, `deletion`) came to: done, or failed (the
    /// old value kept where it still exists, the error returned); Some(operands) where it
    /// was declined, for the general path.
    fn settle(
        &mut self,
        f: &mut Frame,
        slot: usize,
        outcome: super::put::Outcome,
    ) -> MResult<Option<(Rc<crate::values::device::DeviceValue>, Value)>> {
        match outcome {
            super::put::Outcome::Done(v) => {
                self.store(f, slot, v);
                Ok(None)
            }
            super::put::Outcome::Failed(e, old) => {
                if let Some(v) = old {
                    self.store(f, slot, v);
                }
                Err(e)
            }
            super::put::Outcome::Declined(d, rhs) => Ok(Some((d, rhs))),
        }
    }

    /// Device subscripts read to the host for the general path (None: all are on the host
    /// already); where reading fails the variable gets `d` back.
    fn host_steps(
        &mut self,
        f: &mut Frame,
        slot: usize,
        d: &Rc<crate::values::device::DeviceValue>,
        args: &[Value],
    ) -> MResult<Option<Vec<Step>>> {
        if !args.iter().any(|a| matches!(a, Value::Device(_))) {
            return Ok(None);
        }
        match super::lower::host_args(args.to_vec()) {
            Ok(h) => Ok(Some(vec![Step::Paren(h)])),
            Err(e) => {
                self.store(f, slot, Value::Device(d.clone()));
                Err(e)
            }
        }
    }
}

/// `x(args) = rhs` into a host empty array (`x = []`, `zeros(0, 1)`) or into a variable that
/// does not exist yet, with a device value: the empty as a gpuArray, so that the assignment
/// runs on the device and gives a gpuArray, as MATLAB's does. None for every other case.
fn device_empty(old: Option<&Value>, rhs: &Value) -> Option<Value> {
    use crate::values::class::Class;
    if !matches!(rhs, Value::Device(_)) {
        return None;
    }
    let t = match old {
        None => Rc::new(crate::values::tensor::Tensor::empty()),
        Some(Value::Tensor(t))
            if t.numel() == 0
                && !t.is_complex()
                && matches!(t.class(), Class::Double | Class::Single | Class::Logical) =>
        {
            t.clone()
        }
        _ => return None,
    };
    let (shape, class) = (t.shape.clone(), t.class());
    let node = crate::graph::leaf(crate::graph::Data::Host(t), shape, class);
    Some(Value::Device(Rc::new(crate::values::device::DeviceValue {
        node,
        explicit: true,
    })))
}

/// `x(end+1) = v` of a real double scalar onto a double row or column that this
/// variable alone holds: pushed onto its storage, whose capacity doubles (a loop of appends is
/// linear, with no subscript values, write plan or shape checks per step). False (nothing
/// done) for every other form.
fn appended_in_place(f: &mut Frame, slot: usize, lhs: &Lhs, rhs: &Value) -> bool {
    use crate::syntax::ast::{BinOp, ExprKind};
    use crate::values::tensor::Data;
    let Value::Num(x) = rhs else {
        return false;
    };
    let [LhsStep::Paren(args)] = &lhs.steps[..] else {
        return false;
    };
    let [arg] = &args[..] else {
        return false;
    };
    let end_plus_one = matches!(&arg.kind, ExprKind::Binary(BinOp::Add, a, b)
        if matches!(a.kind, ExprKind::End) && matches!(b.kind, ExprKind::Num(one) if one == 1.0));
    if !end_plus_one {
        return false;
    }
    let Some(Slot::Val(Value::Tensor(t))) = f.vars.get_mut(slot) else {
        return false;
    };
    let Some(t) = Rc::get_mut(t) else {
        return false;
    };
    let dims = t.shape.dims();
    let n = t.data.len();
    let shape = match dims {
        [1, c] if *c >= 1 => Shape::row(c + 1),
        [r, 1] if *r >= 2 => Shape::col(r + 1),
        _ => return false,
    };
    let Data::F64(v) = &mut t.data else {
        return false;
    };
    if v.len() != n {
        return false;
    }
    v.push(*x);
    t.shape = shape;
    true
}

/// Applies `steps` to `cur` (None: undefined), returning the new value, or the error and the
/// original value.
fn set_path(cur: Option<Value>, steps: &[Step], rhs: Value, delete: bool) -> Result<Value, Failed> {
    let last = steps.len() == 1;
    // datetime/duration arrays: t.Year(k) = y goes through the property's value
    if let (false, Some(v), Step::Field(name)) = (last, &cur, &steps[0]) {
        if let Some(t) = crate::dates::time_of(v) {
            let inner = match crate::dates::array::property(t, name) {
                Ok(p) => set_path(Some(p), &steps[1..], rhs, delete),
                Err(e) => return Err((e, cur)),
            };
            return match inner {
                Ok(p) => crate::dates::array::assign_property(v, name, &p).map_err(|e| (e, cur)),
                Err((e, _)) => Err((e, cur)),
            };
        }
    }
    // datetime/duration arrays: t(k) = v, t(k) = [], t.Format = f, t.Year = y
    if last
        && crate::dates::array::takes_assignment(
            cur.as_ref(),
            &rhs,
            matches!(steps[0], Step::Paren(_)),
        )
    {
        let r = match &steps[0] {
            Step::Paren(args) => {
                crate::dates::array::assign_paren(cur.as_ref(), args, &rhs, delete)
            }
            Step::Field(name) => {
                crate::dates::array::assign_property(cur.as_ref().unwrap_or(&rhs), name, &rhs)
            }
            Step::Brace(_) => Err(MError::new(
                "MATLAB:cellAssToNonCell",
                "Brace indexing is not supported for variables of this type.",
            )),
        };
        return r.map_err(|e| (e, cur));
    }
    match &steps[0] {
        Step::Paren(args) if last => {
            if let Some(Value::Object(o)) = &cur {
                if let Object::Map(m) = o.as_ref() {
                    return match super::objects::map_assign(m, args, rhs) {
                        Ok(()) => Ok(cur.unwrap_or_else(Value::empty)),
                        Err(e) => Err((e, cur)),
                    };
                }
            }
            let mut cur = cur;
            match access::assign_paren(cur.as_mut(), args, rhs, delete) {
                Ok(v) => Ok(v),
                Err(e) => Err((e, cur)),
            }
        }
        Step::Brace(args) if last => {
            let mut cur = cur;
            match access::assign_brace(cur.as_mut(), args, rhs) {
                Ok(v) => Ok(v),
                Err(e) => Err((e, cur)),
            }
        }
        Step::Field(name)
            if last
                && matches!(&cur, Some(Value::Object(o)) if matches!(o.as_ref(), Object::InputParser(_))) =>
        {
            if let Some(Value::Object(o)) = &cur {
                if let Object::InputParser(p) = o.as_ref() {
                    let set = crate::builtins::input_parser::set_property(
                        &mut p.borrow_mut(),
                        name,
                        &rhs,
                    );
                    if let Err(e) = set {
                        return Err((e, cur));
                    }
                }
            }
            Ok(cur.unwrap_or_else(Value::empty))
        }
        Step::Field(name)
            if last
                && matches!(&cur, Some(Value::Object(o)) if matches!(o.as_ref(), Object::Graphics(_))) =>
        {
            if let Some(Value::Object(o)) = &cur {
                if let Object::Graphics(h) = o.as_ref() {
                    if let Err(e) = crate::graphics::handle::set_property(h, name, &rhs) {
                        return Err((e, cur));
                    }
                }
            }
            Ok(cur.unwrap_or_else(Value::empty))
        }
        Step::Field(name) => {
            let mut s = match cur {
                None => StructArray::scalar(),
                Some(Value::Struct(s)) => Rc::try_unwrap(s).unwrap_or_else(|rc| (*rc).clone()),
                Some(v) if v.is_numeric_like() && v.is_empty() => StructArray::scalar(),
                Some(v) => {
                    return Err((
                        MError::new(
                            "MATLAB:fieldAssignToNonStruct",
                            format!(
                                "Unable to perform assignment because dot indexing is not supported for variables of this type ({}).",
                                v.class_name()
                            ),
                        ),
                        Some(v),
                    ));
                }
            };
            if s.numel() != 1 {
                let n = s.numel();
                let orig = Value::from(s);
                return Err((
                    MError::new(
                        "MATLAB:index:scalarStructRequired",
                        if n == 0 {
                            "Unable to perform assignment to a field of an empty struct array; index an element first.".to_string()
                        } else {
                            "Scalar structure required for this assignment.".to_string()
                        },
                    ),
                    Some(orig),
                ));
            }
            if last {
                if delete {
                    // s.f = [] stores an empty value
                    s.set(0, name, Value::empty());
                } else {
                    s.set(0, name, rhs);
                }
                return Ok(Value::from(s));
            }
            let existing = s.field_index(name);
            let child = existing.map(|k| std::mem::replace(&mut s.elems[0][k], Value::Num(0.0)));
            match set_path(child, &steps[1..], rhs, delete) {
                Ok(v) => {
                    s.set(0, name, v);
                    Ok(Value::from(s))
                }
                Err((e, orig_child)) => {
                    if let (Some(k), Some(c)) = (existing, orig_child) {
                        s.elems[0][k] = c;
                    }
                    Err((e, Some(Value::from(s))))
                }
            }
        }
        Step::Paren(args) if matches!(&cur, Some(Value::Object(o)) if matches!(o.as_ref(), Object::Graphics(_))) =>
        {
            // h(k).Prop = v: the handles are references, so the variable keeps its value
            let picked = match &cur {
                Some(Value::Object(o)) => super::objects::index(o, args),
                _ => Ok(Value::empty()),
            };
            match picked
                .and_then(|h| set_path(Some(h), &steps[1..], rhs, delete).map_err(|(e, _)| e))
            {
                Ok(_) => Ok(cur.unwrap_or_else(Value::empty)),
                Err(e) => Err((e, cur)),
            }
        }
        Step::Paren(args) => {
            // s(k).rest = rhs: element k of a struct array (or of a cell, as a 1x1 cell)
            let shape = cur.as_ref().map(|v| v.shape()).unwrap_or_else(Shape::empty);
            let (p, new_shape) = match access::single_position(&shape, args) {
                Ok(x) => x,
                Err(e) => return Err((e, cur)),
            };
            match cur {
                Some(Value::Cell(c)) => {
                    let mut c = Rc::try_unwrap(c).unwrap_or_else(|rc| (*rc).clone());
                    let child = if p < c.data.len() {
                        Some(Value::from(CellArray::new(
                            Shape::scalar(),
                            vec![c.data[p].clone()],
                        )))
                    } else {
                        None
                    };
                    match set_path(child, &steps[1..], rhs, delete) {
                        Ok(Value::Cell(inner)) if inner.data.len() == 1 => {
                            access::grow_cell(&mut c, &new_shape);
                            c.data[p] = inner.data[0].clone();
                            Ok(Value::from(c))
                        }
                        Ok(other) => Err((
                            MError::new(
                                "MATLAB:invalidConversion",
                                format!(
                                    "Conversion to cell from {} is not possible.",
                                    other.class_name()
                                ),
                            ),
                            Some(Value::from(c)),
                        )),
                        Err((e, _)) => Err((e, Some(Value::from(c)))),
                    }
                }
                other => {
                    let mut s = match other {
                        None => StructArray::empty_with(vec![], Shape::empty()),
                        Some(Value::Struct(s)) => {
                            Rc::try_unwrap(s).unwrap_or_else(|rc| (*rc).clone())
                        }
                        Some(v) if v.is_numeric_like() && v.is_empty() => {
                            StructArray::empty_with(vec![], Shape::empty())
                        }
                        Some(v) => {
                            return Err((
                                MError::new(
                                    "MATLAB:fieldAssignToNonStruct",
                                    format!(
                                        "Unable to perform assignment because dot indexing is not supported for variables of this type ({}).",
                                        v.class_name()
                                    ),
                                ),
                                Some(v),
                            ));
                        }
                    };
                    let existed = p < s.elems.len();
                    let record = if existed {
                        std::mem::take(&mut s.elems[p])
                    } else {
                        vec![Value::empty(); s.fields.len()]
                    };
                    let child = Value::from(StructArray {
                        shape: Shape::scalar(),
                        fields: s.fields.clone(),
                        elems: vec![record],
                    });
                    match set_path(Some(child), &steps[1..], rhs, delete) {
                        Ok(Value::Struct(elem)) => {
                            let elem = Rc::try_unwrap(elem).unwrap_or_else(|rc| (*rc).clone());
                            access::grow_struct(&mut s, &new_shape);
                            for fname in &elem.fields {
                                s.ensure_field(fname);
                            }
                            let mut fields_rec: Vec<(String, Value)> = elem
                                .fields
                                .into_iter()
                                .zip(elem.elems.into_iter().next().unwrap_or_default())
                                .collect();
                            let rec: Vec<Value> = s
                                .fields
                                .iter()
                                .map(|fname| {
                                    match fields_rec.iter().position(|(n, _)| n == fname) {
                                        Some(k) => {
                                            std::mem::replace(&mut fields_rec[k].1, Value::Num(0.0))
                                        }
                                        None => Value::empty(),
                                    }
                                })
                                .collect();
                            s.elems[p] = rec;
                            Ok(Value::from(s))
                        }
                        Ok(other) => Err((
                            MError::new(
                                "MATLAB:invalidConversion",
                                format!(
                                    "Conversion to struct from {} is not possible.",
                                    other.class_name()
                                ),
                            ),
                            Some(Value::from(s)),
                        )),
                        Err((e, orig)) => {
                            if existed {
                                if let Some(Value::Struct(o)) = orig {
                                    if let Some(r) = o.elems.first() {
                                        s.elems[p] = r.clone();
                                    }
                                }
                            }
                            Err((e, Some(Value::from(s))))
                        }
                    }
                }
            }
        }
        Step::Brace(args) => {
            // c{k}.rest = rhs
            let mut c = match cur {
                None => CellArray::new(Shape::empty(), vec![]),
                Some(Value::Cell(c)) => Rc::try_unwrap(c).unwrap_or_else(|rc| (*rc).clone()),
                Some(v) if v.is_numeric_like() && v.is_empty() => {
                    CellArray::new(Shape::empty(), vec![])
                }
                Some(v) => {
                    return Err((
                        MError::new(
                            "MATLAB:cellAssignToNonCell",
                            format!(
                                "Unable to perform assignment because brace indexing is not supported for variables of this type ({}).",
                                v.class_name()
                            ),
                        ),
                        Some(v),
                    ));
                }
            };
            let (p, new_shape) = match access::single_position(&c.shape, args) {
                Ok(x) => x,
                Err(e) => return Err((e, Some(Value::from(c)))),
            };
            let child = if p < c.data.len() {
                Some(std::mem::replace(&mut c.data[p], Value::Num(0.0)))
            } else {
                None
            };
            let had = child.is_some();
            match set_path(child, &steps[1..], rhs, delete) {
                Ok(v) => {
                    access::grow_cell(&mut c, &new_shape);
                    c.data[p] = v;
                    Ok(Value::from(c))
                }
                Err((e, orig)) => {
                    if had {
                        c.data[p] = orig.unwrap_or_else(Value::empty);
                    }
                    Err((e, Some(Value::from(c))))
                }
            }
        }
    }
}
