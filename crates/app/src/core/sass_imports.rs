//! SASS text imported from ncu's Source page exports (`ncu -i FILE --page source --csv
//! --print-source sass`, or `cuda,sass`), by kernel: the Source page shows it where no
//! `nvdisasm` is at hand. An export opened like a report (File > Open, a drop, the command
//! line, the Source page's "Add SASS export…") lands here instead of failing as "not a
//! result".

use crate::parse::source_csv::{self, SourceExport};
use std::collections::{BTreeMap, HashMap};

/// The SASS text of one export, by kernel (the demangled signature, as ncu names functions)
/// and instruction address.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SassImport {
    /// The export's name, for messages.
    pub name: String,
    pub by_kernel: BTreeMap<String, HashMap<u64, String>>,
}

impl SassImport {
    /// How many instructions it gives text for.
    pub fn instructions(&self) -> usize {
        self.by_kernel.values().map(HashMap::len).sum()
    }
}

/// The SASS text of `bytes` when they are a Source page export with SASS rows.
pub fn read_export(name: &str, bytes: &[u8]) -> Option<SassImport> {
    let export: SourceExport = source_csv::parse(bytes).ok()?;
    let mut by_kernel: BTreeMap<String, HashMap<u64, String>> = BTreeMap::new();
    for listing in &export.sass {
        let map = by_kernel.entry(listing.kernel.clone()).or_default();
        for row in &listing.rows {
            map.entry(row.address).or_insert_with(|| row.sass.clone());
        }
    }
    for listing in &export.lines {
        let map = by_kernel.entry(listing.function.clone()).or_default();
        for row in &listing.instructions {
            map.entry(row.address).or_insert_with(|| row.sass.clone());
        }
    }
    by_kernel.retain(|_, m| m.values().any(|s| !s.trim().is_empty()));
    (!by_kernel.is_empty()).then(|| SassImport {
        name: name.to_string(),
        by_kernel,
    })
}

/// Every export imported so far.
#[derive(Debug, Clone, Default)]
pub struct SassImports {
    imports: Vec<SassImport>,
    /// Bumped on every import, so views built without it are built again.
    generation: u64,
}

impl SassImports {
    /// Adds an export (replacing one of the same name).
    pub fn add(&mut self, import: SassImport) {
        self.imports.retain(|i| i.name != import.name);
        self.imports.push(import);
        self.generation += 1;
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The SASS text the exports give for `kernel`'s instructions (later imports win).
    pub fn for_kernel(&self, kernel: &str) -> HashMap<u64, String> {
        let mut out = HashMap::new();
        for i in &self.imports {
            if let Some(map) = i.by_kernel.get(kernel) {
                out.extend(map.iter().map(|(a, s)| (*a, s.clone())));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_gives_its_kernels_sass_by_address() {
        let path = concat!(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
            "/fixtures/source/inl_src.plain_copy.source_sass.csv"
        );
        let bytes = std::fs::read(path).expect("fixture");
        let import = read_export("plain_copy.csv", &bytes).expect("an export");
        let kernel = "plain_copy(const float *, float *, int)";
        assert_eq!(import.by_kernel.keys().collect::<Vec<_>>(), vec![kernel]);
        let export = source_csv::parse(&bytes).expect("export");
        let mut imports = SassImports::default();
        imports.add(import);
        let map = imports.for_kernel(kernel);
        assert_eq!(map.len(), export.sass[0].rows.len());
        for row in &export.sass[0].rows {
            assert_eq!(map.get(&row.address), Some(&row.sass));
        }
        assert!(imports.for_kernel("other(int)").is_empty());
        // A report is not an export.
        assert!(read_export("x", b"==PROF== Connected to process").is_none());
    }
}
