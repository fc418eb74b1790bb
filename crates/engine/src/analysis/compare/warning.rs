//! A comparison's warnings: the context differences between the two reports and the matching
//! notes a reader should know, in one list that keeps what each is about. Written out, a
//! warning is its sentence alone.

use super::{ContextWarning, MatchNote};
use serde::{Serialize, Serializer};
use std::fmt;

/// One warning of a comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffWarning {
    /// The two sides differ in something that can explain metric changes (GPU, clocks...).
    Context(ContextWarning),
    /// Something about the pairing of kernels (launch counts, a manual pair not used).
    Pairing(MatchNote),
}

impl fmt::Display for DiffWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiffWarning::Context(w) => f.write_str(&w.message),
            DiffWarning::Pairing(n) => write!(f, "{}: {}", n.kernel, n.message),
        }
    }
}

impl Serialize for DiffWarning {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare::{ContextKind, NoteKind};

    #[test]
    fn written_as_a_sentence() {
        let context = DiffWarning::Context(ContextWarning {
            kind: ContextKind::Gpu,
            message: "different GPUs".into(),
        });
        let pairing = DiffWarning::Pairing(MatchNote {
            kind: NoteKind::LaunchCount,
            kernel: "k".into(),
            message: "launched 2 times in base, 3 in current".into(),
        });
        assert_eq!(
            serde_json::to_string(&[context, pairing]).ok().as_deref(),
            Some("[\"different GPUs\",\"k: launched 2 times in base, 3 in current\"]")
        );
    }
}
