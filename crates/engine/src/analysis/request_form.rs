//! The output form a command's request names (`text`, `json`, `csv`, ...): read from its name
//! with one wording of the error for every command, and the names a command line offers.

/// A form name no command of this kind writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not a form of `{command}`; one of: {}", .names.join(", "))]
pub struct FormError {
    pub command: &'static str,
    pub given: String,
    pub names: Vec<&'static str>,
}

/// The output forms of one command: each form's name and the older spellings that still mean
/// it.
pub trait OutputForm: Copy + 'static {
    /// The command the forms belong to, for errors.
    const COMMAND: &'static str;
    /// Every form with its name, in the order help lists them.
    const FORMS: &'static [(&'static str, Self)];
    /// Older spellings kept working, with the form each means (not listed in help).
    const ALIASES: &'static [(&'static str, Self)] = &[];

    /// The form named `text` (a name or an alias).
    fn parse_form(text: &str) -> Result<Self, FormError> {
        Self::FORMS
            .iter()
            .chain(Self::ALIASES)
            .find(|(name, _)| *name == text)
            .map(|&(_, form)| form)
            .ok_or_else(|| FormError {
                command: Self::COMMAND,
                given: text.to_string(),
                names: Self::FORMS.iter().map(|(name, _)| *name).collect(),
            })
    }

    /// The name of this form.
    fn name(self) -> &'static str
    where
        Self: PartialEq,
    {
        Self::FORMS
            .iter()
            .find(|(_, form)| *form == self)
            .map_or("", |(name, _)| name)
    }
}
