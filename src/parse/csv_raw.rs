//! Parser placeholder, replaced by the real parser.

use super::ParseError;
use crate::model::Report;

/// Parses this form.
pub fn parse(_text: &str) -> Result<Report, ParseError> {
    Err(ParseError::NotAResult("this form is not read yet".into()))
}
