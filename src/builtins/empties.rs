//! Empty arrays of a named class: `double.empty`, `string.empty(0, 3)`, `cell.empty`, ...
//! and `home` (the cursor to the top left, like clc without clearing).

use super::{Builtin, b, bad_arg, one};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::containers::{CellArray, StrArray, StructArray};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

/// One builtin per class, since builtins are plain function pointers.
macro_rules! empties {
    ($($class:literal => $f:ident),* $(,)?) => {
        $(fn $f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
            make_empty($class, &a)
        })*

        #[rustfmt::skip]
        pub fn table() -> Vec<Builtin> {
            vec![
                $(b(concat!($class, ".empty"), 0, -1, 1, concat!($class, ".empty, ", $class, ".empty(0, n): an empty ", $class, " array."), $f),)*
                b("home", 0, 0, 0, "home: move the cursor to the top left of the command window.", home),
            ]
        }
    };
}

empties! {
    "double" => double_empty,
    "single" => single_empty,
    "logical" => logical_empty,
    "char" => char_empty,
    "int8" => int8_empty,
    "int16" => int16_empty,
    "int32" => int32_empty,
    "int64" => int64_empty,
    "uint8" => uint8_empty,
    "uint16" => uint16_empty,
    "uint32" => uint32_empty,
    "uint64" => uint64_empty,
    "string" => string_empty,
    "cell" => cell_empty,
    "struct" => struct_empty,
    "datetime" => datetime_empty,
    "duration" => duration_empty,
}

/// The size of `x.empty(dims)`: 0x0 by default; at least one dimension must be zero.
fn empty_shape(a: &[Value]) -> MResult<Shape> {
    if a.is_empty() {
        return Ok(Shape::new(&[0, 0]));
    }
    let sa = super::size_args(a)?;
    if sa.shape.numel() != 0 {
        return Err(bad_arg("empty", "At least one dimension must be zero."));
    }
    Ok(sa.shape)
}

fn make_empty(class: &str, a: &[Value]) -> R {
    let shape = empty_shape(a)?;
    match class {
        "string" => one(StrArray {
            shape,
            data: vec![],
        }),
        "cell" => one(CellArray::new(shape, vec![])),
        "struct" => one(StructArray::empty_with(vec![], shape)),
        "datetime" => {
            one(
                crate::dates::TimeArray::datetimes(shape, vec![], crate::dates::DEFAULT_DATETIME)
                    .into_value(),
            )
        }
        "duration" => {
            one(
                crate::dates::TimeArray::durations(shape, vec![], crate::dates::DEFAULT_DURATION)
                    .into_value(),
            )
        }
        c => match Class::from_name(c) {
            Some(cl) => one(Tensor::zeros(cl, shape)),
            None => Err(bad_arg("empty", format!("Unknown class '{c}'."))),
        },
    }
}

fn home(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        crate::interp::output::write_str("\x1b[H");
    }
    Ok(vec![])
}
