//! The identity columns the CSV exports share (`ID`, `Process ID`, `Kernel Name`, `Block Size`,
//! NVTX...), found by header name, and how they fill a result.

use crate::model::{Dim3, KernelName, KernelResult, NvtxRange, ResultKind, Value};
use crate::parse::number::parse_number;
use csv::StringRecord;

/// Where each identity column is, by header name; `None` when the export lacks it.
#[derive(Debug, Default, Clone)]
pub struct IdentityColumns {
    pub id: Option<usize>,
    pub process_id: Option<usize>,
    pub process_name: Option<usize>,
    pub host_name: Option<usize>,
    pub kernel_name: Option<usize>,
    pub context: Option<usize>,
    pub stream: Option<usize>,
    pub block: Option<usize>,
    pub grid: Option<usize>,
    pub device: Option<usize>,
    pub cc: Option<usize>,
    /// `thread Domain:Push/Pop_Range:...`
    pub nvtx_push_pop: Option<usize>,
    /// `Id:Domain:Start/Stop_Range:...`
    pub nvtx_start_end: Option<usize>,
}

impl IdentityColumns {
    /// Finds the identity columns in a header row.
    pub fn from_header<'a>(header: impl IntoIterator<Item = &'a str>) -> Self {
        let mut cols = IdentityColumns::default();
        for (i, name) in header.into_iter().enumerate() {
            let slot = match name.trim() {
                "ID" => &mut cols.id,
                "Process ID" => &mut cols.process_id,
                "Process Name" => &mut cols.process_name,
                "Host Name" => &mut cols.host_name,
                "Kernel Name" => &mut cols.kernel_name,
                "Context" => &mut cols.context,
                "Stream" => &mut cols.stream,
                "Block Size" => &mut cols.block,
                "Grid Size" => &mut cols.grid,
                "Device" => &mut cols.device,
                "CC" => &mut cols.cc,
                n if n.contains("Push/Pop_Range") => &mut cols.nvtx_push_pop,
                n if n.contains("Start/Stop_Range") => &mut cols.nvtx_start_end,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(i);
            }
        }
        cols
    }

    /// Whether column `i` is an identity column.
    pub fn contains(&self, i: usize) -> bool {
        [
            self.id,
            self.process_id,
            self.process_name,
            self.host_name,
            self.kernel_name,
            self.context,
            self.stream,
            self.block,
            self.grid,
            self.device,
            self.cc,
            self.nvtx_push_pop,
            self.nvtx_start_end,
        ]
        .contains(&Some(i))
    }

    /// The result ID of a row.
    pub fn id_of(&self, row: &StringRecord) -> Option<u64> {
        self.id.and_then(|i| row.get(i)).and_then(parse_u64)
    }

    /// Fills a result's identity fields from a row.
    pub fn fill(&self, result: &mut KernelResult, row: &StringRecord) {
        let get = |col: Option<usize>| {
            col.and_then(|i| row.get(i))
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
        };
        if let Some(id) = get(self.id).and_then(|t| parse_u64(&t)) {
            result.id = id;
        }
        result.process_id = get(self.process_id).and_then(|t| parse_u64(&t));
        result.process_name = get(self.process_name);
        if let Some(name) = get(self.kernel_name) {
            result.kind = ResultKind::of_printed_name(&name);
            result.name = KernelName::from_demangled(&name);
        }
        result.context = get(self.context).and_then(|t| parse_u64(&t));
        result.stream = get(self.stream).and_then(|t| parse_u64(&t));
        result.block = get(self.block).and_then(|t| parse_dim3(&t));
        result.grid = get(self.grid).and_then(|t| parse_dim3(&t));
        result.device = get(self.device).and_then(|t| parse_u64(&t));
        result.cc = get(self.cc).and_then(|t| parse_cc(&t));
        let mut nvtx = Vec::new();
        if let Some(t) = get(self.nvtx_push_pop) {
            nvtx.extend(parse_nvtx(&t, false));
        }
        if let Some(t) = get(self.nvtx_start_end) {
            nvtx.extend(parse_nvtx(&t, true));
        }
        result.nvtx = nvtx;
    }
}

/// An unsigned integer, thousands separators allowed.
pub fn parse_u64(text: &str) -> Option<u64> {
    match parse_number(text.trim()) {
        Some((Value::U64(v), _)) => Some(v),
        _ => None,
    }
}

/// A shape printed as `(256, 1, 1)`.
pub fn parse_dim3(text: &str) -> Option<Dim3> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    let mut it = inner.split(',').map(parse_u64);
    let dim = Dim3 {
        x: it.next()??,
        y: it.next()??,
        z: it.next()??,
    };
    if it.next().is_some() {
        return None;
    }
    Some(dim)
}

/// A compute capability printed as `9.0` (`9,0` in a decimal-comma locale).
pub fn parse_cc(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.trim().split_once(['.', ','])?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// NVTX levels of a CSV cell such as `1287  "<default domain>:gemm:none:none:none:none:none:none"`:
/// each quoted part is one level, `Domain:Range:` followed by six payload and color fields.
/// Start/end ranges carry a leading `Id:` field (`with_id`).
pub fn parse_nvtx(text: &str, with_id: bool) -> Vec<NvtxRange> {
    let mut out = Vec::new();
    let parts: Vec<&str> = text.split('"').collect();
    // Quoted parts are at the odd positions.
    for part in parts.iter().skip(1).step_by(2) {
        let mut fields: Vec<&str> = part.rsplitn(7, ':').collect();
        if fields.len() < 7 {
            continue;
        }
        let head = fields.pop().unwrap_or_default();
        let head = if with_id {
            head.split_once(':').map_or(head, |(_, rest)| rest)
        } else {
            head
        };
        let Some((domain, name)) = head.split_once(':') else {
            continue;
        };
        out.push(NvtxRange {
            domain: domain.to_string(),
            name: name.to_string(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_identity_cells() {
        assert_eq!(
            parse_dim3("(65536, 1, 1)"),
            Some(Dim3 {
                x: 65536,
                y: 1,
                z: 1
            })
        );
        assert_eq!(parse_dim3("(1, 2)"), None);
        assert_eq!(parse_cc("9.0"), Some((9, 0)));
        assert_eq!(parse_cc("8,6"), Some((8, 6)));
        let nvtx = parse_nvtx(
            "1287  \"<default domain>:gemm:none:none:none:none:none:none\" ",
            false,
        );
        assert_eq!(
            nvtx,
            vec![NvtxRange {
                domain: "<default domain>".into(),
                name: "gemm".into()
            }]
        );
    }
}
