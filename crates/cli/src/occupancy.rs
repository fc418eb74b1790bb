//! `sightline occupancy`: the occupancy calculator applied to every result of every file: block
//! limits, limiter, theoretical and achieved occupancy, and the occupancy curves. The arguments
//! become an `OccupancyRequest`; `output::occupancy_table` and `output::occupancy_json` write
//! the answer.

use super::AnalysisArgs;
use super::loading::print_reports;
use crate::analysis::occupancy::request::{OccupancyRequest, ResultsFormat};
use crate::output::{occupancy_json, occupancy_table};

/// Runs the command.
/// Every report's warnings go to stderr; `strict` makes them errors (exit code 2).
pub fn run(args: &AnalysisArgs) -> i32 {
    let request = match OccupancyRequest::new(args.arch.as_deref(), args.format()) {
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
        |out, reports, errors| occupancy_json::write_json(out, reports, errors, &options),
        |out, reports| occupancy_table::write_table(out, reports, &options),
        args.strict,
    )
}
