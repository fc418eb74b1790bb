//! Embedded CUDA modules (cubins: ELF files for `e_machine` 190): the machine code of a
//! function (its `.text.<mangled name>` section) and the SASS-to-CUDA line table of
//! `.debug_line`, present when the program was built with `-lineinfo` or `-G`, and the module's
//! PTX text (`.nv_debug_ptx_txt`), present in the same builds.

pub mod line_table;

pub use line_table::{FunctionLines, LineRow, LineTable};

use object::{Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget};

/// `R_CUDA_64`: a 64-bit absolute address.
const R_CUDA_64: u32 = 2;

/// Why a cubin could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CubinError {
    #[error("the embedded cubin is not a readable ELF file: {0}")]
    Elf(String),
    #[error("the cubin's line table (.debug_line) is damaged: {0}")]
    Lines(String),
}

/// A parsed cubin, borrowing the report's bytes.
pub struct Cubin<'a> {
    file: object::File<'a>,
}

impl<'a> Cubin<'a> {
    /// Parses the ELF headers.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, CubinError> {
        let file = object::File::parse(bytes).map_err(|e| CubinError::Elf(e.to_string()))?;
        Ok(Cubin { file })
    }

    /// The machine code of a function, from its `.text.<mangled>` section.
    pub fn function_code(&self, mangled: &str) -> Option<&'a [u8]> {
        let section = self.file.section_by_name(&text_section(mangled))?;
        section.data().ok()
    }

    /// The line table, `None` when the cubin has no `.debug_line` (built without `-lineinfo`).
    ///
    /// Each sequence of the line program starts with a `DW_LNE_set_address` whose operand is
    /// relocated against the function's symbol (`.rela.debug_line`); the relocations are applied
    /// with every `.text` section at its own base, so each row's address names its section.
    pub fn line_table(&self) -> Result<Option<LineTable>, CubinError> {
        let Some(section) = self.file.section_by_name(".debug_line") else {
            return Ok(None);
        };
        let mut data = section
            .data()
            .map_err(|e| CubinError::Lines(e.to_string()))?
            .to_vec();
        let mut bases: Vec<(u64, String)> = Vec::new();
        for (offset, reloc) in section.relocations() {
            let RelocationTarget::Symbol(index) = reloc.target() else {
                continue;
            };
            let is_64 = reloc.size() == 64
                || matches!(reloc.flags(), RelocationFlags::Elf { r_type } if r_type == R_CUDA_64);
            let Ok(symbol) = self.file.symbol_by_index(index) else {
                continue;
            };
            let Some(section_index) = symbol.section_index() else {
                continue;
            };
            let Ok(target) = self.file.section_by_index(section_index) else {
                continue;
            };
            let Ok(name) = target.name() else { continue };
            let base = (section_index.0 as u64 + 1) << 32;
            if !bases.iter().any(|(b, _)| *b == base) {
                bases.push((base, name.to_string()));
            }
            let value = base
                .wrapping_add(symbol.address())
                .wrapping_add_signed(reloc.addend());
            let at = usize::try_from(offset).ok();
            if let (true, Some(slot)) = (is_64, at.and_then(|a| data.get_mut(a..a.checked_add(8)?)))
            {
                slot.copy_from_slice(&value.to_le_bytes());
            }
        }
        let debug_str = self
            .file
            .section_by_name(".debug_str")
            .and_then(|s| s.data().ok())
            .unwrap_or(&[]);
        line_table::read(&data, debug_str, &bases).map(Some)
    }
}

impl Cubin<'_> {
    /// The module's PTX, one string per line as Nsight Compute numbers them, `None` when the
    /// cubin has no `.nv_debug_ptx_txt` section. The section holds the lines NUL-terminated
    /// (comments and leading indentation already removed by the compiler).
    pub fn ptx_lines(&self) -> Option<Vec<String>> {
        let data = self
            .file
            .section_by_name(".nv_debug_ptx_txt")?
            .data()
            .ok()?;
        let data = data.strip_suffix(&[0]).unwrap_or(data);
        if data.is_empty() {
            return Some(Vec::new());
        }
        Some(
            data.split(|&b| b == 0)
                .map(|l| String::from_utf8_lossy(l).into_owned())
                .collect(),
        )
    }
}

/// The name of a function's code section.
pub fn text_section(mangled: &str) -> String {
    format!(".text.{mangled}")
}
