//! Kernel names short enough for a table cell, a tab or a column title: the function's base
//! name first, always whole, then its template arguments shortened in the middle
//! (`Kernel<cutlass::conv::kernel::Impl…half_t>>`); the return type, namespaces and parameters
//! are left out. Where a short name is shown, the full demangled name is on hover and in the
//! result's header.

use crate::analysis::compare::export::short_name;
use crate::analysis::compare::normalize::strip_parameters;

/// Longest name in the results table, characters.
pub const TABLE_NAME_CHARS: usize = 64;
/// Longest name in titles (compare columns, baselines, report comparison rows), characters.
pub const TITLE_NAME_CHARS: usize = 48;
/// Longest demangled name under the header's kernel name (one line), characters.
pub const HEADER_NAME_CHARS: usize = 160;
/// Longest full name in the report comparison's rows, characters.
pub const REPORT_NAME_CHARS: usize = 120;
/// Fewest characters a shortened part keeps around its ellipsis.
const MIN_KEPT: usize = 8;

/// The name to show for a kernel whose short function name is `function` (`Kernel`) and whose
/// full name is `demangled` (`void cutlass::Kernel<…>(Params)`), in at most about `max_chars`
/// characters (the base name is never cut).
pub fn short_kernel_name(function: &str, demangled: &str, max_chars: usize) -> String {
    let function = function.trim();
    if function.is_empty() {
        return elide_middle(demangled.trim(), max_chars);
    }
    let Some(args) = template_arguments(demangled, function) else {
        return function.to_string();
    };
    let budget = max_chars
        .saturating_sub(function.chars().count())
        .max(MIN_KEPT);
    format!("{function}{}", elide_middle(args, budget))
}

/// A full demangled name as it is when it has at most `max_chars` characters; a longer one
/// becomes its function's base name followed by the rest (template arguments and parameters)
/// shortened in the middle: `Kernel<cutlass::gemm::…>(T1::Params)`.
pub fn short_demangled(demangled: &str, max_chars: usize) -> String {
    let demangled = demangled.trim();
    if demangled.chars().count() <= max_chars {
        return demangled.to_string();
    }
    let name = crate::model::KernelName::from_demangled(demangled);
    let function = name.function.trim();
    let rest = template_arguments(demangled, function)
        .and_then(|args| demangled.find(args).map(|at| &demangled[at..]))
        .or_else(|| {
            let head = strip_parameters(demangled);
            head.ends_with(function).then(|| &demangled[head.len()..])
        });
    match rest {
        Some(rest) if !function.is_empty() => {
            let budget = max_chars
                .saturating_sub(function.chars().count())
                .max(MIN_KEPT);
            format!("{function}{}", elide_middle(rest, budget))
        }
        _ => elide_middle(demangled, max_chars),
    }
}

/// `text` in at most `max_chars` characters: its start and its end with `…` between (the
/// start gets two thirds), as the command line's tables shorten names.
pub fn elide_middle(text: &str, max_chars: usize) -> String {
    short_name(text, max_chars.max(MIN_KEPT))
}

/// A kernel's names through a series as one short label: the name, `old → new` for one
/// rename, `first → … → last` for more (the whole chain is [`whole_chain`]).
pub fn rename_chain(names: &[String]) -> String {
    match names {
        [first, _, .., last] => format!("{first} \u{2192} \u{2026} \u{2192} {last}"),
        _ => whole_chain(names),
    }
}

/// Every name of a kernel through a series, in order: `a → b → c`.
pub fn whole_chain(names: &[String]) -> String {
    names.join(" \u{2192} ")
}

/// The template arguments of the function in `demangled` (`<…>` right after its base name at
/// the top level, brackets included); `None` when it has none.
fn template_arguments<'d>(demangled: &'d str, function: &str) -> Option<&'d str> {
    let head = strip_parameters(demangled.trim());
    // The base name: after the last top-level `::` or space.
    let mut depth = 0i32;
    let mut base_start = 0;
    let mut args_start = None;
    let bytes = head.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'<' | b'(' | b'[' => {
                if depth == 0 && b == b'<' && args_start.is_none() {
                    args_start = Some(i);
                }
                depth += 1;
            }
            b'>' | b')' | b']' => depth -= 1,
            b' ' if depth == 0 => {
                base_start = i + 1;
                args_start = None;
            }
            b':' if depth == 0 && bytes.get(i + 1) == Some(&b':') => {
                base_start = i + 2;
                args_start = None;
            }
            _ => {}
        }
    }
    let start = args_start?;
    let base = head.get(base_start..start)?;
    (base == function).then(|| head.get(start..)).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::KernelName;

    /// A CUTLASS kernel name as ncu prints it (fixtures/seeds/cli_script_log_cutlass.txt).
    const CUTLASS: &str = "void cutlass::Kernel<cutlass::conv::kernel::ImplicitGemmConvolution<\
        cutlass::conv::threadblock::ImplicitGemmMultistage<cutlass::gemm::GemmShape<(int)128, \
        (int)128, (int)64>, cutlass::half_t>, cutlass::epilogue::threadblock::Epilogue<\
        cutlass::half_t>, (cutlass::conv::Operator)0>>(T1::Params)";

    fn short(demangled: &str, max: usize) -> String {
        let name = KernelName::from_demangled(demangled);
        short_kernel_name(&name.function, &name.demangled, max)
    }

    #[test]
    fn a_template_kernel_keeps_its_base_name_first_and_both_ends_of_its_arguments() {
        let s = short(CUTLASS, 48);
        assert_eq!(s, "Kernel<cutlass::conv::kernel::Imp…::Operator)0>>");
        assert_eq!(s.chars().count(), 48);
        assert!(s.starts_with("Kernel<"));
        // Longer allowed: more of both ends.
        assert_eq!(
            short(CUTLASS, 64),
            "Kernel<cutlass::conv::kernel::ImplicitGemmCo…:conv::Operator)0>>"
        );
    }

    /// The names the series fixture's GEMM has (`gemm_step`, then `gemm_tiled_2d`), with a
    /// third rename after them.
    #[test]
    fn a_rename_chain_of_more_than_two_names_keeps_its_ends() {
        let mut names: Vec<String> = vec!["gemm_step".into(), "gemm_tiled_2d".into()];
        assert_eq!(rename_chain(&names), "gemm_step \u{2192} gemm_tiled_2d");
        names.push("gemm_wgmma".into());
        assert_eq!(
            rename_chain(&names),
            "gemm_step \u{2192} \u{2026} \u{2192} gemm_wgmma"
        );
        assert_eq!(
            whole_chain(&names),
            "gemm_step \u{2192} gemm_tiled_2d \u{2192} gemm_wgmma"
        );
        assert_eq!(rename_chain(&names[..1]), "gemm_step");
    }

    #[test]
    fn short_names_stay_whole() {
        assert_eq!(
            short(
                "void matmul_tiled<(int)32>(const float *, float *, int)",
                48
            ),
            "matmul_tiled<(int)32>"
        );
        assert_eq!(
            short("vector_add(const float *, const float *, float *, int)", 48),
            "vector_add"
        );
        assert_eq!(
            short("triton_poi_fused_add_0", 48),
            "triton_poi_fused_add_0"
        );
    }

    #[test]
    fn namespaces_return_types_and_anonymous_namespaces_are_left_out() {
        assert_eq!(
            short(
                "void at::native::(anonymous namespace)::k<float, 4>(int)",
                48
            ),
            "k<float, 4>"
        );
        assert_eq!(
            short(
                "void at::native::vectorized_elementwise_kernel<(int)4, at::native::\
                   FillFunctor<float>, at::detail::Array<char *, (int)1>>(int, T2, T3)",
                40
            ),
            "vectorized_elementwise_kernel<(int)…)1>>"
        );
    }

    #[test]
    fn a_long_base_name_is_never_cut() {
        let base = "a_kernel_whose_name_alone_is_longer_than_the_limit";
        assert_eq!(
            short(&format!("void {base}<int, float, double, char>(int)"), 40),
            format!("{base}<int…ar>")
        );
    }

    #[test]
    fn a_long_demangled_name_keeps_its_base_name_first_and_its_parameters_at_the_end() {
        // 80 characters at most: "Kernel", 48 characters of the rest, the ellipsis and the
        // last 25.
        assert_eq!(
            short_demangled(CUTLASS, 80),
            "Kernel<cutlass::conv::kernel::ImplicitGemmConvolution<\
             …:Operator)0>>(T1::Params)"
        );
        let plain = "conv2d_naive(const float *, const float *, float *, int, int, int, int)";
        assert_eq!(short_demangled(plain, 80), plain);
        assert_eq!(
            short_demangled(plain, 40),
            "conv2d_naive(const float *, co…int, int)"
        );
    }

    #[test]
    fn without_a_function_name_the_whole_name_is_shortened() {
        assert_eq!(
            short_kernel_name("", "region A / region B / region C / region D", 20),
            "region A / r…egion D"
        );
        assert_eq!(elide_middle("short", 20), "short");
    }
}
