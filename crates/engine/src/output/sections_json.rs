//! The section bodies of `sections --json` (and against a baseline), serialized straight into
//! the output. The document always was these types made into a `serde_json::Value` and pretty-printed, which prints every
//! object's fields in the order of their names; these writers give the fields in that order
//! and the values as the `Value` would hold them, so the bytes are the same without building
//! the tree of every bar, cell and instance.

use crate::analysis::sections::paired::pair;
use crate::analysis::sections::with_baseline::map_with_baseline;
use crate::analysis::sections::{bodies_of, missing_note};
use crate::model::section_body::{BodyItem, BodyRow, SectionBodies, SectionBody, ValueAxis};
use crate::model::{Instance, Metric, Printed, Report};
use crate::output::json_layout::{NumJson, ValueJson};
use crate::output::json_stream;
use crate::output::table::errors_json;
use crate::parse::LoadError;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value as Json, json};
use std::io::Write;

/// A result of `sections --json`: its ID, name and section bodies.
pub struct ResultSections<'a> {
    pub id: u64,
    pub name: &'a str,
    pub sections: &'a [SectionBodies],
}

impl Serialize for ResultSections<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("name", self.name)?;
        map.serialize_entry("sections", &List(self.sections, Sections))?;
        map.end()
    }
}

/// A list serialized element by element with `F`.
struct List<'a, T, F>(&'a [T], F);

/// How one element of a [`List`] is serialized.
trait Element<T> {
    fn write<S: Serializer>(&self, item: &T, s: S) -> Result<S::Ok, S::Error>;
}

/// One element of a [`List`], serialized by its [`Element`] writer.
struct One<'a, T, F>(&'a T, &'a F);

impl<T, F: Element<T>> Serialize for One<'_, T, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.1.write(self.0, s)
    }
}

impl<T, F: Element<T>> Serialize for List<'_, T, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|item| One(item, &self.1)))
    }
}

struct Sections;

impl Element<SectionBodies> for Sections {
    fn write<S: Serializer>(&self, b: &SectionBodies, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("bodies", &List(&b.bodies, Bodies))?;
        if let Some(extends) = &b.extends {
            map.serialize_entry("extends", extends)?;
        }
        map.serialize_entry("identifier", &b.identifier)?;
        map.serialize_entry("name", &b.name)?;
        map.end()
    }
}

struct Bodies;

impl Element<SectionBody> for Bodies {
    fn write<S: Serializer>(&self, b: &SectionBody, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("default", &b.default)?;
        map.serialize_entry("items", &List(&b.items, Items))?;
        map.serialize_entry("name", &b.name)?;
        map.end()
    }
}

struct Items;

impl Element<BodyItem> for Items {
    fn write<S: Serializer>(&self, item: &BodyItem, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        if !item.category_axis.is_empty() {
            map.serialize_entry("category_axis", &item.category_axis)?;
        }
        if let Some(description) = &item.description {
            map.serialize_entry("description", description)?;
        }
        if !item.highlight.is_empty() {
            map.serialize_entry("highlight", &List(&item.highlight, Rows))?;
        }
        map.serialize_entry("horizontal", &item.horizontal)?;
        // A `Value` of the kind is what serializing it gives: its name, or `{"other": n}`.
        map.serialize_entry("kind", &item.kind)?;
        map.serialize_entry("label", &item.label)?;
        if let Some(note) = &item.note {
            map.serialize_entry("note", note)?;
        }
        map.serialize_entry("rows", &List(&item.rows, Rows))?;
        if let Some(axis) = &item.value_axis {
            map.serialize_entry("value_axis", &One(axis, &Axis))?;
        }
        if let Some(workload) = &item.workload_ns {
            map.serialize_entry("workload_ns", workload)?;
        }
        map.end()
    }
}

struct Axis;

impl Element<ValueAxis> for Axis {
    fn write<S: Serializer>(&self, axis: &ValueAxis, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("label", &axis.label)?;
        map.serialize_entry("max", &NumJson(axis.max))?;
        map.serialize_entry("min", &NumJson(axis.min))?;
        map.end()
    }
}

struct Rows;

impl Element<BodyRow> for Rows {
    fn write<S: Serializer>(&self, row: &BodyRow, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        if let Some(group) = &row.group {
            map.serialize_entry("group", group)?;
        }
        map.serialize_entry("label", &row.label)?;
        map.serialize_entry("metric", &One(&row.metric, &Metrics))?;
        map.end()
    }
}

struct Metrics;

impl Element<Metric> for Metrics {
    fn write<S: Serializer>(&self, m: &Metric, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(5))?;
        map.serialize_entry("instances", &List(&m.instances, Instances))?;
        map.serialize_entry("name", &m.name.map(|n| n.as_str()))?;
        map.serialize_entry("printed", &m.printed.as_ref().map(|p| One(p, &PrintedForm)))?;
        map.serialize_entry("unit", m.unit.as_str())?;
        map.serialize_entry("value", &ValueJson(m.value))?;
        map.end()
    }
}

struct Instances;

impl Element<Instance> for Instances {
    fn write<S: Serializer>(&self, i: &Instance, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("id", &i.id.map(ValueJson))?;
        map.serialize_entry("value", &ValueJson(i.value))?;
        map.end()
    }
}

struct PrintedForm;

impl Element<Printed> for PrintedForm {
    fn write<S: Serializer>(&self, p: &Printed, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("decimals", &p.decimals)?;
        map.serialize_entry("unit", p.unit.as_str())?;
        map.serialize_entry("value", &ValueJson(p.value))?;
        map.end()
    }
}

/// Writes the JSON document of `sections --json` result by result: a window of results at a
/// time is resolved and turned into text on every core, then written in order and released.
/// The text is that of pretty-printing the whole document at once.
pub fn write_json(
    out: &mut impl Write,
    reports: &mut [Report],
    errors: &[LoadError],
) -> std::io::Result<()> {
    let skeleton: Vec<Json> = reports
        .iter()
        .enumerate()
        .map(|(i, rep)| report_head_json(rep, json_stream::placeholder(i)))
        .collect();
    let doc = json!({"reports": skeleton, "errors": errors_json(errors)});
    json_stream::write_report_texts(out, &doc, "  ", reports, |_, rep, k, indent| {
        let r = &rep.results[k];
        let sections = bodies_of(rep, k);
        let result = ResultSections {
            id: r.id,
            name: &r.name.demangled,
            sections: &sections,
        };
        json_stream::pretty_indented(&result, indent)
    })
}

/// The JSON object of the result at `index`: its sections' bodies.
fn result_json(rep: &Report, index: usize) -> Json {
    let r = &rep.results[index];
    json!({
        "id": r.id,
        "name": r.name.demangled,
        "sections": bodies_of(rep, index),
    })
}

/// The JSON object of one report with `results` as its results.
fn report_head_json(rep: &Report, results: Json) -> Json {
    json!({
        "path": rep.source.display().to_string(),
        "format": rep.format.name(),
        "note": missing_note(rep),
        "results": results,
    })
}

/// The JSON object of one report: per result its sections' bodies.
pub fn report_json(rep: &Report) -> Json {
    let results: Vec<Json> = (0..rep.results.len())
        .map(|i| result_json(rep, i))
        .collect();
    report_head_json(rep, Json::Array(results))
}

/// Writes the JSON document of `sections --json --baseline` result by result.
pub fn write_compared_json(
    out: &mut impl Write,
    base: &mut Report,
    reports: &mut [Report],
    errors: &[LoadError],
) -> std::io::Result<()> {
    let skeleton: Vec<Json> = reports
        .iter()
        .enumerate()
        .map(|(i, current)| {
            let mut doc = report_head_json(current, json_stream::placeholder(i));
            doc["baseline_note"] = json!(missing_note(base));
            doc
        })
        .collect();
    let doc = json!({
        "baseline": base.source.display().to_string(),
        "reports": skeleton,
        "errors": errors_json(errors),
    });
    json_stream::write_document(out, &doc, "  ", |out, i, array| {
        let Some(current) = reports.get_mut(i) else {
            return Ok(());
        };
        map_with_baseline(
            base,
            current,
            |base, current, i, b| json_stream::pretty(&compared_result_json(base, current, i, b)),
            |text| array.item_text(out, &text?),
        )
    })
}

/// The JSON object of result `i` of `current` compared with result `b` of the baseline, or its
/// own bodies when the baseline has no such kernel.
fn compared_result_json(base: &Report, current: &Report, i: usize, b: Option<usize>) -> Json {
    let r = &current.results[i];
    match b {
        Some(b) => json!({
            "id": r.id,
            "name": r.name.demangled,
            "baseline": {"id": base.results[b].id, "name": base.results[b].name.demangled},
            "sections": pair(&bodies_of(base, b), &bodies_of(current, i)),
        }),
        None => json!({
            "id": r.id,
            "name": r.name.demangled,
            "baseline": Json::Null,
            "sections": bodies_of(current, i),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::ResultSections;
    use crate::analysis::sections::bodies_of;
    use std::io::Read;
    use std::path::Path;

    /// Every result of native fixtures with section bodies: the direct serialization is the
    /// pretty-printed `serde_json::Value` the document was made of before, byte for byte.
    #[test]
    fn the_bodies_serialize_as_their_json_values() {
        let fixtures = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("fixtures");
        let dir =
            std::env::temp_dir().join(format!("sightline-sections-json-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary folder");
        let mut checked = 0;
        for rel in [
            "h100/kernels_full.ncu-rep.xz",
            "pair/after.ncu-rep.xz",
            "graph/graph_graph.ncu-rep.xz",
            "variants/multiproc.ncu-rep.xz",
        ] {
            let raw = std::fs::read(fixtures.join(rel)).expect("fixture");
            let mut bytes = Vec::new();
            xz2::read::XzDecoder::new(&raw[..])
                .read_to_end(&mut bytes)
                .expect("xz");
            let path = dir.join(rel.replace('/', "_").trim_end_matches(".xz"));
            std::fs::write(&path, bytes).expect("written");
            let report = crate::parse::load_path(&path).expect("a fixture loads");
            for (k, r) in report.results.iter().enumerate() {
                let sections = bodies_of(&report, k);
                let old = serde_json::json!({
                    "id": r.id,
                    "name": r.name.demangled,
                    "sections": sections,
                });
                let new = ResultSections {
                    id: r.id,
                    name: &r.name.demangled,
                    sections: &sections,
                };
                assert_eq!(
                    serde_json::to_string_pretty(&new).expect("serializes"),
                    serde_json::to_string_pretty(&old).expect("serializes"),
                    "{rel} result {k}"
                );
                checked += usize::from(!sections.is_empty());
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(checked > 0, "some fixture result has section bodies");
    }
}
