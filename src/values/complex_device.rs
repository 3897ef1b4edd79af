//! A complex gpuArray, kept split: its real and its imaginary part are two real nodes of the
//! lazy graph, of one shape and class. Complex arithmetic lowers to ordinary real nodes on
//! the parts (`interp::complex`), so fusion and code generation need not know complex
//! numbers; what is not complex-aware reads the value back as a host complex array
//! (`to_host`). Such a value is always a gpuArray (class `gpuArray`), and stays complex
//! whatever its imaginary part holds, as MATLAB's do.

use crate::graph::{self, Data, Node};
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{self, Tensor};
use num_complex::{Complex32, Complex64};
use std::rc::Rc;

#[derive(Debug, Clone)]
pub struct ComplexDevice {
    pub re: Rc<Node>,
    pub im: Rc<Node>,
}

impl ComplexDevice {
    pub fn shape(&self) -> &Shape {
        &self.re.shape
    }
    pub fn class(&self) -> Class {
        self.re.class
    }
    /// Both parts computed and read back as one complex host array of the value's class.
    pub fn to_host(&self) -> MResult<Tensor> {
        let re = crate::plan::to_host(&self.re)?;
        let im = crate::plan::to_host(&self.im)?;
        let shape = self.shape().clone();
        let data = match (&re.data, &im.data) {
            (tensor::Data::F32(r), tensor::Data::F32(i)) => tensor::Data::C32(
                r.iter()
                    .zip(i)
                    .map(|(&a, &b)| Complex32::new(a, b))
                    .collect(),
            ),
            _ => {
                let (r, i) = (re.to_f64(), im.to_f64());
                let z: Vec<Complex64> = r
                    .iter()
                    .zip(i.iter())
                    .map(|(&a, &b)| Complex64::new(a, b))
                    .collect();
                tensor::Data::from_c64(self.class(), z)
            }
        };
        Ok(Tensor::new(shape, data))
    }
    /// A host complex (or real) array split into two parts, each a graph leaf of host data
    /// (uploaded when a kernel needs it). Classes other than single become double.
    pub fn from_host(t: &Tensor) -> ComplexDevice {
        let shape = t.shape.clone();
        let (re, im, class) = match &t.data {
            tensor::Data::C32(v) => (
                tensor::Data::F32(v.iter().map(|z| z.re).collect()),
                tensor::Data::F32(v.iter().map(|z| z.im).collect()),
                Class::Single,
            ),
            tensor::Data::F32(v) => (
                tensor::Data::F32(v.clone()),
                tensor::Data::F32(vec![0.0; v.len()]),
                Class::Single,
            ),
            _ => {
                let z = t.to_c64();
                (
                    tensor::Data::F64(z.iter().map(|z| z.re).collect()),
                    tensor::Data::F64(z.iter().map(|z| z.im).collect()),
                    Class::Double,
                )
            }
        };
        let leaf = |d: tensor::Data| {
            graph::leaf(
                Data::Host(Rc::new(Tensor::new(shape.clone(), d))),
                shape.clone(),
                class,
            )
        };
        ComplexDevice {
            re: leaf(re),
            im: leaf(im),
        }
    }
}
