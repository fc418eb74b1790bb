//! `--format` arguments: the forms a command's request names (`analysis::request_form`),
//! offered by clap with their names in help and the older spellings accepted unlisted.

use crate::analysis::request_form::OutputForm;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// The parser of a `--format` argument whose value is the form `F`.
pub fn form_parser<F: OutputForm + Send + Sync>() -> impl TypedValueParser<Value = F> {
    let listed = F::FORMS.iter().map(|(name, _)| PossibleValue::new(*name));
    let hidden = F::ALIASES
        .iter()
        .map(|(name, _)| PossibleValue::new(*name).hide(true));
    PossibleValuesParser::new(listed.chain(hidden)).try_map(|name| F::parse_form(&name))
}
