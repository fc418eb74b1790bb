//! The code behind a result, read on demand from a report's full bytes: the module's cubin
//! (machine code and line table) and the CUDA source files imported with `--import-source yes`.

use super::container::Entry;
use super::sources::{Module, SourceFile, modules, modules_of, source_files, source_files_of};
use crate::parse::ParseError;

/// The modules and imported sources of a report, located once.
#[derive(Debug, Clone, Default)]
pub struct CodeIndex {
    pub modules: Vec<Module>,
    pub sources: Vec<SourceFile>,
}

/// The code of one launched function.
#[derive(Debug, Clone)]
pub struct KernelCode<'a> {
    /// The module's cubin.
    pub cubin: &'a [u8],
    /// `major << 16 | minor` of the SASS in the cubin.
    pub cuda_sm_version: Option<u32>,
    /// Where the function was loaded on the GPU, as the module records it.
    pub address: Option<u64>,
    /// Imported source files of the module (empty without `--import-source yes`).
    pub sources: Vec<&'a SourceFile>,
}

impl CodeIndex {
    /// Walks the report's source entries. `bytes` must be the whole file: the readers that load
    /// a report for its results leave the cubins out.
    pub fn new(bytes: &[u8]) -> Result<Self, ParseError> {
        Ok(CodeIndex {
            modules: modules(bytes)?,
            sources: source_files(bytes)?,
        })
    }

    /// The index of a report's source entries, whose offsets count in the buffer they hold.
    pub fn of_entries(sources: &[Entry<'_>]) -> Result<Self, ParseError> {
        Ok(CodeIndex {
            modules: modules_of(sources)?,
            sources: source_files_of(sources)?,
        })
    }

    /// The module that holds a function loaded at `address` (by name alone when no module
    /// records that address).
    pub fn module_of(&self, mangled: &str, address: Option<u64>) -> Option<&Module> {
        let named = |m: &&Module| m.functions.iter().any(|(n, _)| n == mangled);
        self.modules
            .iter()
            .filter(named)
            .find(|m| {
                address.is_none_or(|a| m.functions.iter().any(|(n, at)| n == mangled && *at == a))
            })
            .or_else(|| self.modules.iter().find(named))
    }

    /// The cubin and sources of a function, `None` when the report holds no module for it.
    pub fn kernel_code<'a>(
        &'a self,
        bytes: &'a [u8],
        mangled: &str,
        address: Option<u64>,
    ) -> Option<KernelCode<'a>> {
        let module = self.module_of(mangled, address)?;
        let cubin = bytes.get(module.cubin.clone()?)?;
        // `launch__function_pcs` lists the kernel and the functions it calls, not always the
        // kernel first: the module's record of the kernel decides.
        let mut loaded = module
            .functions
            .iter()
            .filter(|(n, _)| n == mangled)
            .map(|&(_, at)| at);
        let address = match address {
            Some(a) if loaded.clone().any(|at| at == a) => Some(a),
            _ => loaded.next(),
        };
        let mut sources: Vec<&SourceFile> = self
            .sources
            .iter()
            .filter(|s| s.module == module.reference)
            .collect();
        if sources.is_empty() {
            sources = self.sources.iter().collect();
        }
        Some(KernelCode {
            cubin,
            cuda_sm_version: module.cuda_sm_version,
            address,
            sources,
        })
    }
}
