//! Nsight Compute's Source page exports (`ncu -i FILE --page source --csv --print-source
//! sass|cuda,sass`): the SASS listing of each kernel (address, disassembly, metric columns)
//! and the CUDA lines with their summed metrics. Used to show SASS text where no disassembler
//! is installed.

use super::ParseError;

/// The SASS listing of one kernel.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SassListing {
    pub kernel: String,
    /// Metric column names (after `Address` and `Source`).
    pub columns: Vec<String>,
    pub rows: Vec<SassRow>,
}

/// One instruction of a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct SassRow {
    pub address: u64,
    pub sass: String,
    pub cells: Vec<String>,
}

/// The CUDA lines of one function in one file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LineListing {
    pub file: String,
    pub function: String,
    /// Metric column names (after `Line No`, `Source`, `Address`, `Source`).
    pub columns: Vec<String>,
    pub lines: Vec<LineRow>,
    /// The instructions listed under the lines (an instruction may be listed more than once).
    pub instructions: Vec<SassRow>,
}

/// One CUDA line of a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct LineRow {
    pub line: u32,
    pub source: String,
    pub cells: Vec<String>,
}

/// Everything one export holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SourceExport {
    pub sass: Vec<SassListing>,
    pub lines: Vec<LineListing>,
}

/// Parses an export. Rows of other views (PTX, plain source text) are skipped.
pub fn parse(bytes: &[u8]) -> Result<SourceExport, ParseError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut out = SourceExport::default();
    let mut pending_file: Option<String> = None;
    let mut pending_function: Option<String> = None;
    // Which listing the data rows belong to.
    enum In {
        Nothing,
        Sass,
        Lines,
    }
    let mut state = In::Nothing;
    for (n, record) in reader.records().enumerate() {
        let record = record.map_err(|e| ParseError::Line {
            line: n + 1,
            message: format!("not CSV: {e}"),
        })?;
        let cell = |i: usize| record.get(i).unwrap_or("");
        match cell(0) {
            "Kernel Name" => {
                out.sass.push(SassListing {
                    // As ncu's kernel lines print it (the export keeps `<(int)32>`).
                    kernel: crate::model::result::ncu_spelling(cell(1)),
                    ..SassListing::default()
                });
                state = In::Nothing;
            }
            "File Path" | "File Name" => {
                pending_file = Some(cell(1).to_string());
                state = In::Nothing;
            }
            "Function Name" => pending_function = Some(cell(1).to_string()),
            "Address" if cell(1) == "Source" => {
                if let Some(l) = out.sass.last_mut() {
                    l.columns = record.iter().skip(2).map(str::to_string).collect();
                    state = In::Sass;
                }
            }
            "Line No" if cell(2) == "Address" => {
                out.lines.push(LineListing {
                    file: pending_file.take().unwrap_or_default(),
                    function: pending_function.take().unwrap_or_default(),
                    columns: record.iter().skip(4).map(str::to_string).collect(),
                    lines: Vec::new(),
                    instructions: Vec::new(),
                });
                state = In::Lines;
            }
            "Line No" => state = In::Nothing,
            first => match state {
                In::Sass => {
                    if let (Some(l), Some(address)) = (out.sass.last_mut(), parse_address(first)) {
                        l.rows.push(SassRow {
                            address,
                            sass: cell(1).to_string(),
                            cells: record.iter().skip(2).map(str::to_string).collect(),
                        });
                    }
                }
                In::Lines => {
                    let Some(l) = out.lines.last_mut() else {
                        continue;
                    };
                    if let Ok(line) = first.parse::<u32>() {
                        l.lines.push(LineRow {
                            line,
                            source: cell(1).to_string(),
                            cells: record.iter().skip(4).map(str::to_string).collect(),
                        });
                    } else if let Some(address) = parse_address(cell(2)) {
                        l.instructions.push(SassRow {
                            address,
                            sass: cell(3).to_string(),
                            cells: record.iter().skip(4).map(str::to_string).collect(),
                        });
                    }
                }
                In::Nothing => {}
            },
        }
    }
    Ok(out)
}

/// `0x7f453d7ac200` as a number.
pub fn parse_address(text: &str) -> Option<u64> {
    u64::from_str_radix(text.strip_prefix("0x")?, 16).ok()
}

impl SourceExport {
    /// SASS text by address over every listing (the first listing of an address wins).
    pub fn sass_by_address(&self) -> std::collections::HashMap<u64, String> {
        let mut map = std::collections::HashMap::new();
        let listed = self.sass.iter().flat_map(|l| &l.rows);
        let under_lines = self.lines.iter().flat_map(|l| &l.instructions);
        for r in listed.chain(under_lines) {
            map.entry(r.address).or_insert_with(|| r.sass.clone());
        }
        map
    }
}
