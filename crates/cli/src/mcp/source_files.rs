//! The CUDA source files `source_hotspots` may show beside a report that does not hold them:
//! files under the server's roots, opened through the same confinement as the reports (decided
//! before anything is opened, a regular file only) and read to a bound. A file a line table
//! names anywhere else is not read, whatever path the report records, and the answer says so
//! in one sentence that tells nothing of what lies outside.

use super::confinement::{ConfinementError, Roots, limit_text};
use crate::analysis::source::SourceFiles;
use std::io::Read;

/// Largest source file read (a CUDA file is a few hundred KB at most).
pub const MAX_SOURCE_BYTES: u64 = 4 << 20;

/// The source files under the roots.
#[derive(Debug, Clone)]
pub struct RootedSources {
    pub roots: Roots,
}

impl SourceFiles for RootedSources {
    fn read(&self, recorded: &str) -> Result<(String, String), String> {
        let not_read = |why: &str| format!("Source file {recorded} was not read: {why}.");
        let opened = self.roots.open(recorded).map_err(|e| match e {
            ConfinementError::TooManyOpen { .. } => not_read(&limit_text()),
            _ => not_read(&format!(
                "it is not a file under the directories this server may read ({})",
                roots_text(&self.roots)
            )),
        })?;
        let mut bytes = Vec::new();
        (&opened.file)
            .take(MAX_SOURCE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| not_read(&e.to_string()))?;
        if bytes.len() as u64 > MAX_SOURCE_BYTES {
            return Err(not_read(&format!(
                "it is larger than {} MiB",
                MAX_SOURCE_BYTES >> 20
            )));
        }
        Ok((
            String::from_utf8_lossy(&bytes).into_owned(),
            opened.real_path.display().to_string(),
        ))
    }
}

fn roots_text(roots: &Roots) -> String {
    roots
        .dirs()
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
