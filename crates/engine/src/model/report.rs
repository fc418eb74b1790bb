//! A loaded report: where it came from, its format, session and device information, results.

use super::result::KernelResult;
use super::section_body::ReportBodies;
use serde::Serialize;
use std::path::PathBuf;

/// The form a result was read from. What depends on the form is decided by the methods below,
/// each a `match` over every form, so that a new form does not build until each is decided
/// for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Format {
    /// Native `.ncu-rep` report file.
    #[serde(rename = "ncu-rep")]
    NcuRep,
    /// `ncu` CLI details text (either layout, also inside terminal logs).
    #[serde(rename = "cli-text")]
    CliText,
    /// Text copied from the Nsight Compute GUI Details page.
    #[serde(rename = "gui-copy")]
    GuiCopy,
    /// `--csv` details, one row per metric.
    #[serde(rename = "csv-details")]
    CsvDetails,
    /// `--csv --page raw`, one row per result.
    #[serde(rename = "csv-raw")]
    CsvRaw,
    /// `--page session`, text or CSV.
    #[serde(rename = "session")]
    Session,
    /// `--print-summary per-kernel`.
    #[serde(rename = "summary")]
    Summary,
}

impl Format {
    /// The name used in JSON output and the UI.
    pub fn name(self) -> &'static str {
        match self {
            Format::NcuRep => "ncu-rep",
            Format::CliText => "cli-text",
            Format::GuiCopy => "gui-copy",
            Format::CsvDetails => "csv-details",
            Format::CsvRaw => "csv-raw",
            Format::Session => "session",
            Format::Summary => "summary",
        }
    }

    /// How its results lie in its text, which decides how a large file of it is read
    /// (`parse::text_windows`): cut into windows between results, or whole.
    pub fn text_layout(self) -> TextLayout {
        match self {
            Format::NcuRep => TextLayout::Binary,
            Format::CliText | Format::Summary => TextLayout::ResultLines,
            Format::CsvDetails => TextLayout::RowsPerResult,
            Format::CsvRaw => TextLayout::RowPerResult,
            Format::GuiCopy | Format::Session => TextLayout::OnePage,
        }
    }

    /// Whether its sections are the ones the tool showed, so that a section missing from one
    /// of two reports was not collected: the native report and the forms printed from the
    /// Details page. A raw export and a summary have no sections of their own (their readers
    /// lay out stock sections from the metrics), nor has a session page.
    pub fn lists_the_tools_sections(self) -> bool {
        match self {
            Format::NcuRep | Format::CliText | Format::GuiCopy | Format::CsvDetails => true,
            Format::CsvRaw | Format::Summary | Format::Session => false,
        }
    }

    /// Whether it holds every metric collected, not only those of the section tables: the
    /// native report and the raw export (`--page raw`).
    pub fn holds_every_metric(self) -> bool {
        match self {
            Format::NcuRep | Format::CsvRaw => true,
            Format::CliText
            | Format::GuiCopy
            | Format::CsvDetails
            | Format::Session
            | Format::Summary => false,
        }
    }
}

/// How the results of a form lie in its bytes ([`Format::text_layout`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextLayout {
    /// Not text: the native report, read by its own reader.
    Binary,
    /// Result after result, each opened by its own lines (the process and kernel lines of the
    /// CLI's details pages and summaries): a file is cut before a line that opens a result.
    ResultLines,
    /// A run of rows per result, one row per metric and rule (the `--csv` details export): a
    /// file is cut before a row whose result ID differs from the row before.
    RowsPerResult,
    /// One row per result (the raw export): a file is cut before any row.
    RowPerResult,
    /// One page without result boundaries (a session page, a GUI copy): read whole.
    OnePage,
}

/// One GPU of the session, with its attributes.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Device {
    /// Device index.
    pub index: u64,
    /// Display name (`NVIDIA H100 80GB HBM3`).
    pub name: Option<String>,
    /// Compute capability (major, minor).
    pub cc: Option<(u32, u32)>,
    /// Number of SMs.
    pub sm_count: Option<u64>,
    /// Every attribute as (name without `device__attribute_`, value text), in source order.
    pub attributes: Vec<(String, String)>,
}

/// Session information: launch settings, host and target, tool versions, processes.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Session {
    /// Key/value pairs in source order (`Profiler Command Line`, `Host Name`, `CUDA Version`...).
    pub attributes: Vec<(String, String)>,
    /// Processes: (pid, name).
    pub processes: Vec<(u64, String)>,
}

impl Session {
    /// The value of a session attribute by its label.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A loaded report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Where it was read from (a path, or a name such as `clipboard`).
    pub source: PathBuf,
    pub format: Format,
    /// The Nsight Compute version that wrote it, when known.
    pub tool_version: Option<String>,
    /// When the capture was made (Unix seconds), where the source says (`.ncu-rep` session).
    #[serde(skip)]
    pub created: Option<u64>,
    pub session: Session,
    pub devices: Vec<Device>,
    pub results: Vec<KernelResult>,
    /// Problems that did not stop loading (a truncated tail, skipped lines): ncu content lost.
    pub warnings: Vec<super::Warning>,
    /// What a reader passed over that is not ncu's (the program's own output, text around a
    /// pasted block), and parts of a newer report form this reader does not know (each named,
    /// with how often it was skipped): said, but nothing it reads is lost.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The section bodies (charts and tables) the source holds, if any.
    #[serde(skip)]
    pub bodies: ReportBodies,
    /// The CUDA graphs the report stores (ncu 2026.3 and later), linked from results.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub graphs: Vec<super::graph::CudaGraph>,
}

impl Report {
    /// The notes, with those of the bodies read on demand so far ([`super::BodySource::notes`]):
    /// what a reader passed over grows as bodies are read.
    pub fn all_notes(&self) -> Vec<String> {
        let mut notes = self.notes.clone();
        // Every result of a report read on demand shares one source (a report held whole has
        // none): the first result's says it.
        if let Some(source) = self.results.first().and_then(|r| r.content.source()) {
            notes.extend(source.notes());
        }
        notes
    }

    /// A copy of the report holding `results` and `bodies` instead of its own (everything
    /// else, from the session to the notes, copied).
    pub fn with_results(&self, results: Vec<KernelResult>, bodies: ReportBodies) -> Report {
        Report {
            source: self.source.clone(),
            format: self.format,
            tool_version: self.tool_version.clone(),
            created: self.created,
            session: self.session.clone(),
            devices: self.devices.clone(),
            results,
            warnings: self.warnings.clone(),
            notes: self.notes.clone(),
            bodies,
            graphs: self.graphs.clone(),
        }
    }

    /// A copy whose results read on demand hold only their head figures
    /// ([`KernelResult::head_only`]), for a first comparison that reads nothing from the file;
    /// `None` when no result is read on demand.
    pub fn heads_only(&self) -> Option<Report> {
        let results: Vec<KernelResult> = self
            .results
            .iter()
            .map(KernelResult::head_only)
            .collect::<Option<_>>()?;
        Some(self.with_results(results, self.bodies.clone()))
    }

    /// An empty report of a format.
    pub fn new(source: impl Into<PathBuf>, format: Format) -> Self {
        Report {
            source: source.into(),
            format,
            tool_version: None,
            created: None,
            session: Session::default(),
            devices: Vec::new(),
            results: Vec::new(),
            warnings: Vec::new(),
            notes: Vec::new(),
            bodies: ReportBodies::None,
            graphs: Vec::new(),
        }
    }

    /// Drops the decoded bodies of results read on demand but the `keep` used most recently;
    /// those results decode their body again when next asked. Results held decoded from the
    /// start keep theirs.
    pub fn release_bodies(&mut self, keep: usize) {
        let mut loaded: Vec<(u64, usize)> = self
            .results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.body_releasable())
            .filter_map(|(i, r)| r.body_last_use().map(|t| (t, i)))
            .collect();
        if loaded.len() <= keep {
            return;
        }
        loaded.sort_unstable_by(|a, b| b.cmp(a));
        for &(_, i) in &loaded[keep..] {
            if let Some(r) = self.results.get_mut(i) {
                r.release_body();
            }
        }
    }

    /// How many results hold a decoded body now.
    pub fn decoded_bodies(&self) -> usize {
        self.results.iter().filter(|r| r.is_body_decoded()).count()
    }

    /// The stored CUDA graph a result belongs to.
    pub fn graph_of(&self, result: &KernelResult) -> Option<&super::graph::CudaGraph> {
        result.graph.as_ref()?.find(&self.graphs)
    }

    /// The device a result ran on, or the only device.
    pub fn device_of(&self, result: &KernelResult) -> Option<&Device> {
        match result.device {
            Some(i) => self
                .devices
                .iter()
                .find(|d| d.index == i)
                .or(self.devices.first()),
            None => self.devices.first(),
        }
    }
}
