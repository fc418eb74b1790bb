//! Arguments whose value is a choice a request names (`--format`, `--order`; see
//! `analysis::named_choice`), offered by clap with their names (and any line of help) in help
//! and the older spellings accepted unlisted.

use crate::analysis::named_choice::NamedChoice;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// The parser of an argument whose value is the choice `C`.
pub fn choice_parser<C: NamedChoice + Send + Sync>() -> impl TypedValueParser<Value = C> {
    let listed = C::NAMES.iter().map(|&(name, _)| {
        let value = PossibleValue::new(name);
        match C::help(name) {
            Some(help) => value.help(help),
            None => value,
        }
    });
    let hidden = C::ALIASES
        .iter()
        .map(|&(name, _)| PossibleValue::new(name).hide(true));
    PossibleValuesParser::new(listed.chain(hidden)).try_map(|name| C::from_name(&name))
}
