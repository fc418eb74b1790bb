//! `sightline roofline`: peak and achieved FP work and memory traffic of every result, exact
//! where the roofline metrics exist, estimated (and marked) where they do not. The arguments
//! become a `RooflineRequest`; `output::roofline_table` and `output::roofline_json` write the
//! answer.

use super::AnalysisArgs;
use super::loading::print_reports;
use crate::analysis::occupancy::request::ResultsFormat;
use crate::analysis::roofline::request::RooflineRequest;
use crate::output::{roofline_json, roofline_table};

/// Runs the command.
/// Every report's warnings go to stderr; `strict` makes them errors (exit code 2).
pub fn run(args: &AnalysisArgs) -> i32 {
    let request = match RooflineRequest::new(args.arch.as_deref(), args.format()) {
        Ok(request) => request,
        Err(e) => {
            crate::warnings::tell("error", e);
            return 2;
        }
    };
    let options = request.options;
    print_reports(
        &args.files,
        request.format == ResultsFormat::Json,
        |out, reports, errors| roofline_json::write_json(out, reports, errors, &options),
        |out, reports| roofline_table::write_table(out, reports, &options),
        args.strict,
    )
}
