//! Embedded CUDA modules (cubins: ELF files for `e_machine` 190): the machine code of a
//! function (its `.text.<mangled name>` section) and the SASS-to-CUDA line table of
//! `.debug_line`, present when the program was built with `-lineinfo` or `-G`, and the module's
//! PTX text (`.nv_debug_ptx_txt`), present in the same builds.

pub mod line_table;

pub use line_table::{FunctionLines, LineRow, LineTable};

use object::{Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget, SymbolKind};

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

    /// The GPU addresses of the functions of a module stored as the driver loaded it (see
    /// [`unloaded`]): every function symbol whose value lies past its section's end. Empty for
    /// a module as built, whose symbols hold offsets in their sections.
    pub fn load_addresses(&self) -> Vec<(String, u64)> {
        self.file
            .symbols()
            .filter(|s| s.kind() == SymbolKind::Text)
            .filter_map(|s| {
                let section = self.file.section_by_index(s.section_index()?).ok()?;
                let name = s.name().ok()?;
                (s.address() > section.size()).then(|| (name.to_string(), s.address()))
            })
            .collect()
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
            let at = usize::try_from(offset).ok();
            let value = if symbol.address() > target.size() {
                // A module stored as loaded (ncu 2021.3 and earlier): the operand already holds
                // a GPU address, the symbol's plus the offset in its section.
                let loaded = at
                    .and_then(|a| data.get(a..a.checked_add(8)?))
                    .and_then(|slot| <[u8; 8]>::try_from(slot).ok())
                    .map_or(0, u64::from_le_bytes);
                base.wrapping_add(loaded.wrapping_sub(symbol.address()))
            } else {
                base.wrapping_add(symbol.address())
                    .wrapping_add_signed(reloc.addend())
            };
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

/// `SHT_SYMTAB`, `SHT_RELA` and `SHT_REL`.
const SHT_SYMTAB: u32 = 2;
const SHT_RELA: u32 = 4;
const SHT_REL: u32 = 9;
/// `STT_FUNC` and `STT_SECTION`: symbols of a function and of a section.
const STT_FUNC: u8 = 2;
const STT_SECTION: u8 = 3;
/// `SHF_EXECINSTR`: a section of machine code.
const SHF_EXECINSTR: u64 = 0x4;

/// What [`unloaded`] reads of an ELF64 section header, and where the header is.
struct SectionHeader {
    at: usize,
    kind: u32,
    flags: u64,
    offset: u64,
    size: u64,
    entsize: u64,
}

/// `N` bytes at `at`, `None` past the end.
fn bytes_at<const N: usize>(b: &[u8], at: usize, plus: usize) -> Option<[u8; N]> {
    let start = at.checked_add(plus)?;
    b.get(start..start.checked_add(N)?)?.try_into().ok()
}

/// The section headers of a little-endian ELF64 file.
fn section_headers(b: &[u8]) -> Option<Vec<SectionHeader>> {
    if b.get(..6)? != b"\x7fELF\x02\x01" || u16::from_le_bytes(bytes_at(b, 0x3a, 0)?) != 64 {
        return None;
    }
    let table = usize::try_from(u64::from_le_bytes(bytes_at(b, 0x28, 0)?)).ok()?;
    let count = usize::from(u16::from_le_bytes(bytes_at(b, 0x3c, 0)?));
    (0..count)
        .map(|i| {
            let at = table.checked_add(i.checked_mul(64)?)?;
            Some(SectionHeader {
                at,
                kind: u32::from_le_bytes(bytes_at(b, at, 4)?),
                flags: u64::from_le_bytes(bytes_at(b, at, 8)?),
                offset: u64::from_le_bytes(bytes_at(b, at, 24)?),
                size: u64::from_le_bytes(bytes_at(b, at, 32)?),
                entsize: u64::from_le_bytes(bytes_at(b, at, 56)?),
            })
        })
        .collect()
}

/// The SM version a cubin's code is for (`90` for sm_90), from the ELF header's flags: the
/// low byte up to ELF ABI version 7, the second byte from version 8 on (CUDA 12.8's new
/// layout). `None` for bytes that are no 64-bit ELF header.
pub fn sm_of(bytes: &[u8]) -> Option<u32> {
    if bytes.get(..4)? != b"\x7fELF" || *bytes.get(4)? != 2 {
        return None;
    }
    let abi_version = *bytes.get(8)?;
    let flags = u32::from_le_bytes(bytes.get(48..52)?.try_into().ok()?);
    let sm = if abi_version >= 8 {
        (flags >> 8) & 0xff
    } else {
        flags & 0xff
    };
    (sm != 0).then_some(sm)
}

/// A copy nvdisasm can read of a cubin stored as the driver loaded it (ncu 2021.3 and
/// earlier): code symbols moved back to their section offsets, relocation sections dropped
/// (left in, nvdisasm never finishes). `None` for a cubin as built.
pub fn unloaded(bytes: &[u8]) -> Option<Vec<u8>> {
    let sections = section_headers(bytes)?;
    // Code symbols past their section's end, and each section's load address (the least).
    let mut moved: Vec<(usize, usize, u64)> = Vec::new();
    let mut loads: Vec<Option<u64>> = vec![None; sections.len()];
    for table in sections
        .iter()
        .filter(|s| s.kind == SHT_SYMTAB && s.entsize == 24)
    {
        let start = usize::try_from(table.offset).ok()?;
        let len = usize::try_from(table.size).ok()?;
        let Some(data) = bytes.get(start..start.checked_add(len)?) else {
            continue;
        };
        for (i, symbol) in data.chunks_exact(24).enumerate() {
            let kind = symbol.get(4).map_or(0, |info| info & 0xf);
            let index = usize::from(u16::from_le_bytes(bytes_at(symbol, 6, 0)?));
            let value = u64::from_le_bytes(bytes_at(symbol, 8, 0)?);
            let Some(section) = sections.get(index) else {
                continue;
            };
            let code = kind == STT_FUNC || kind == STT_SECTION;
            if !code || section.flags & SHF_EXECINSTR == 0 || value <= section.size {
                continue;
            }
            if let Some(load) = loads.get_mut(index) {
                *load = Some(load.map_or(value, |l| l.min(value)));
            }
            moved.push((start + i * 24 + 8, index, value));
        }
    }
    if moved.is_empty() {
        return None;
    }
    let mut out = bytes.to_vec();
    for (at, index, value) in moved {
        let load = loads.get(index).copied().flatten().unwrap_or(value);
        if let Some(slot) = out.get_mut(at..at + 8) {
            slot.copy_from_slice(&value.saturating_sub(load).to_le_bytes());
        }
    }
    for s in sections
        .iter()
        .filter(|s| s.kind == SHT_REL || s.kind == SHT_RELA)
    {
        if let Some(kind) = out.get_mut(s.at + 4..s.at + 8) {
            kind.copy_from_slice(&0u32.to_le_bytes());
        }
    }
    Some(out)
}
