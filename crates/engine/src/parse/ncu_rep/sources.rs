//! Embedded modules (cubins) and imported CUDA source files, decoded only on request. A module
//! is reported as a byte range of the caller's buffer; nothing large is copied.

use super::container::{self, Entry, corrupt};
use super::messages::SourceDataHead;
use super::wire::{FieldIter, WireValue};
use crate::parse::ParseError;
use crate::parse::cubin::Cubin;
use prost::Message;

/// `SourceData` field holding the cubin.
const BINARY: u32 = 4;

/// One loaded CUDA module, merged over its `SourceData` entries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Module {
    /// The key results refer to (`ProfileResult.source.reference`).
    pub reference: u64,
    /// `major << 16 | minor` of the SASS the cubin holds.
    pub cuda_sm_version: Option<u32>,
    /// Byte range of the cubin (an ELF file) in the report.
    pub cubin: Option<std::ops::Range<usize>>,
    /// Launched functions and their load addresses on the GPU: from the relocation data, or
    /// for a module stored as loaded (ncu 2021.3 and earlier), from the cubin's symbols.
    pub functions: Vec<(String, u64)>,
}

/// An imported CUDA source file.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceFile {
    pub module: u64,
    pub name: String,
    pub content: String,
}

/// Lists the modules of a report, with the offsets of their cubins.
pub fn modules(bytes: &[u8]) -> Result<Vec<Module>, ParseError> {
    modules_of(&container::walk(bytes)?.sources)
}

/// The modules of a report's source entries, with the offsets of their cubins in the buffer
/// the entries' offsets count in.
pub fn modules_of(sources: &[Entry<'_>]) -> Result<Vec<Module>, ParseError> {
    let mut out: Vec<Module> = Vec::new();
    // Each module's cubin, for the load addresses of one stored as loaded.
    let mut cubins: Vec<Option<&[u8]>> = Vec::new();
    for entry in sources {
        let head = SourceDataHead::decode(entry.bytes)
            .map_err(|e| corrupt(entry.offset, format!("source data: {e}")))?;
        let reference = head.reference.unwrap_or(0);
        let mut cubin = None;
        let mut image = None;
        for field in FieldIter::new(entry.bytes) {
            let field = field.map_err(|e| corrupt(entry.offset + e.offset, e.message))?;
            if let (BINARY, WireValue::Bytes(b)) = (field.number, field.value) {
                let start = entry.offset + field.offset;
                cubin = Some(start..start + b.len());
                image = Some(b);
            }
        }
        let i = match out.iter().position(|m| m.reference == reference) {
            Some(i) => i,
            None => {
                out.push(Module {
                    reference,
                    ..Module::default()
                });
                cubins.push(None);
                out.len() - 1
            }
        };
        let m = &mut out[i];
        m.cuda_sm_version = m.cuda_sm_version.or(head.cuda_sm_version);
        if m.cubin.is_none() {
            m.cubin = cubin;
            cubins[i] = image;
        }
        for f in head.relocation_data.into_iter().flat_map(|r| r.functions) {
            m.functions
                .push((f.symbol_name.unwrap_or_default(), f.address.unwrap_or(0)));
        }
    }
    // ncu 2021.3 and earlier write no relocation data: they store each cubin as the driver
    // loaded it, with the functions' GPU addresses in its symbols.
    for (m, image) in out.iter_mut().zip(cubins) {
        if m.functions.is_empty()
            && let Some(cubin) = image.and_then(|b| Cubin::parse(b).ok())
        {
            m.functions = cubin.load_addresses();
        }
    }
    Ok(out)
}

/// Decodes the CUDA source files imported into a report (`--import-source yes`).
pub fn source_files(bytes: &[u8]) -> Result<Vec<SourceFile>, ParseError> {
    source_files_of(&container::walk(bytes)?.sources)
}

/// The CUDA source files of a report's source entries.
pub fn source_files_of(sources: &[Entry<'_>]) -> Result<Vec<SourceFile>, ParseError> {
    let mut out = Vec::new();
    for entry in sources {
        let head = SourceDataHead::decode(entry.bytes)
            .map_err(|e| corrupt(entry.offset, format!("source data: {e}")))?;
        let module = head.reference.unwrap_or(0);
        for f in head.source_files.into_iter().flat_map(|s| s.files) {
            out.push(SourceFile {
                module,
                name: f.file_name.unwrap_or_default(),
                content: f.content.unwrap_or_default(),
            });
        }
    }
    Ok(out)
}
