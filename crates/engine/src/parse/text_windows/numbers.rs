//! The number format of a file read in windows, decided for the file as reading it whole
//! decides it: the CLI text's blocks that tell nothing take the majority of every value the
//! file prints, a CSV export's values the format its first telling values say. Each window is
//! first read in what its own numbers tell (most files tell one format throughout, and then
//! nothing is read twice); a window whose reading the file's format changes is read again,
//! from the file, a batch at a time. Every window then keeps the file's format for the bodies
//! parsed again on demand.

use super::read::{WindowError, Windowed, parse_windows};
use super::source::TextSource;
use super::{Parsed, windows_in_flight};
use crate::parse::ParseError;
use crate::parse::csv_details::part::file_format as export_format;
use crate::parse::number_format::{NumberFormat, Tally};

/// The format of the whole file from what its windows told.
pub fn file_format(parts: &[Parsed]) -> NumberFormat {
    match parts.first() {
        Some(Parsed::Csv(_)) => export_format(parts.iter().map(|p| match p {
            Parsed::Csv(part) => part.told.as_slice(),
            Parsed::Cli(..) => &[],
        })),
        _ => {
            let mut tally = Tally::default();
            for part in parts {
                if let Parsed::Cli(_, formats) = part {
                    tally.merge(formats.tally);
                }
            }
            tally.decided().unwrap_or_default()
        }
    }
}

/// Whether a window read as `part` reads otherwise in the file's format `file`.
fn reads_otherwise(part: &Parsed, file: NumberFormat) -> bool {
    match part {
        Parsed::Cli(_, formats) => formats.defaulted.is_some_and(|used| used != file),
        Parsed::Csv(part) => part.numbers != file,
    }
}

/// Decides the file's format, reads again the windows it reads otherwise, and gives every
/// window the file's format.
pub fn decide(source: &TextSource, read: &mut Windowed) -> Result<(), WindowError> {
    let file = file_format(&read.parts);
    for at in &mut read.at {
        at.numbers = Some(file);
    }
    let again: Vec<usize> = (0..read.parts.len())
        .filter(|&i| reads_otherwise(&read.parts[i], file))
        .collect();
    for batch in again.chunks(windows_in_flight()) {
        let raws = batch
            .iter()
            .map(|&i| source.read(&read.at[i]))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| WindowError::Io(std::io::Error::other(e)))?;
        let parsed = parse_windows(
            source,
            batch
                .iter()
                .zip(&raws)
                .map(|(&i, raw)| (i, &read.at[i], raw.as_slice())),
        );
        for (&i, result) in batch.iter().zip(parsed) {
            let (part, heads) = result.map_err(WindowError::Parse)?;
            let at = &read.at[i];
            if heads.len() != at.results {
                return Err(WindowError::Parse(ParseError::NotAResult(
                    "the file changed while it was read".into(),
                )));
            }
            let slots = &mut read.heads[at.first_result..at.first_result + at.results];
            for (slot, head) in slots.iter_mut().zip(heads) {
                *slot = head;
            }
            read.parts[i] = part;
        }
    }
    Ok(())
}
