//! The words a request reads from users (an output form such as `json`, a trend's order such
//! as `captured`): each choice's name, the older spellings that still mean one, a line of
//! help where a name needs one, and one wording of the error for every command and tool.

/// A word that names none of a choice's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} is {}, not `{given}`", either(.names))]
pub struct ChoiceError {
    /// What is being chosen (`order`, `the form of `summary``).
    pub what: &'static str,
    pub given: String,
    /// The names listed in help, in their order.
    pub names: Vec<&'static str>,
}

/// `` `a` ``, `` `a` or `b` ``, `` `a`, `b` or `c` ``.
fn either(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A setting users choose by name: each value's name, the older spellings that still mean one
/// and the help of a name that needs it. Its `FromStr` reads it through [`NamedChoice::from_name`];
/// the command line offers it through `cli::choice_arg::choice_parser`.
pub trait NamedChoice: Copy + PartialEq + 'static {
    /// What is being chosen, for errors (`order`, `the form of `summary``).
    const WHAT: &'static str;
    /// Every value with its name, in the order help lists them.
    const NAMES: &'static [(&'static str, Self)];
    /// Older spellings kept working, with the value each means (not listed in help).
    const ALIASES: &'static [(&'static str, Self)] = &[];
    /// A line of help for the names that need one (listed beside the name in `--help`).
    const HELP: &'static [(&'static str, &'static str)] = &[];

    /// The value named `text` (a name or an alias).
    fn from_name(text: &str) -> Result<Self, ChoiceError> {
        Self::NAMES
            .iter()
            .chain(Self::ALIASES)
            .find(|(name, _)| *name == text)
            .map(|&(_, value)| value)
            .ok_or_else(|| ChoiceError {
                what: Self::WHAT,
                given: text.to_string(),
                names: Self::NAMES.iter().map(|(name, _)| *name).collect(),
            })
    }

    /// The name of this value.
    fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, value)| *value == self)
            .map_or("", |(name, _)| name)
    }

    /// The help of the name `name`, where it has one.
    fn help(name: &str) -> Option<&'static str> {
        Self::HELP
            .iter()
            .find(|(named, _)| *named == name)
            .map(|(_, help)| *help)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::series::SeriesOrder;
    use crate::analysis::summary_request::SummaryFormat;

    #[test]
    fn names_and_aliases_are_read_and_anything_else_is_told_with_the_names() {
        assert_eq!("html".parse(), Ok(SummaryFormat::Html));
        assert_eq!("table".parse(), Ok(SummaryFormat::Text));
        assert_eq!(SummaryFormat::Text.name(), "text");
        assert_eq!(
            "pdf".parse::<SummaryFormat>().unwrap_err().to_string(),
            "the form of `summary` is `text`, `json`, `csv` or `html`, not `pdf`"
        );
        assert_eq!(
            "sideways".parse::<SeriesOrder>().unwrap_err().to_string(),
            "order is `given` or `captured`, not `sideways`"
        );
        for &(name, value) in SeriesOrder::NAMES {
            assert_eq!(SeriesOrder::from_name(name), Ok(value));
            assert_eq!(value.name(), name);
        }
        assert_eq!(SummaryFormat::help("text"), None);
    }
}
