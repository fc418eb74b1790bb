//! Kernel-name normalisation: one key for the spellings different tools and versions give the
//! same kernel (`<32>` / `<(int)32>`, `const float *` / `float const*`, `void ` return types,
//! generated hash suffixes, mangled names).

use crate::model::KernelResult;
use crate::model::result::short_function_name;

/// How much of a kernel's signature a name carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Specificity {
    /// A bare function name (`matmul_tiled`).
    Bare,
    /// A name with template arguments but no parameter list (`matmul_tiled<32>`).
    Templated,
    /// A full signature with parameters.
    Full,
}

/// The keys a kernel is matched by, from most to least specific.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelIdentity {
    /// The whole normalised signature.
    pub full: String,
    /// The signature with every namespace qualifier dropped (`at::native::k<4>(at::T)` gives
    /// `k<4>(T)`): ncu's text and CSV exports print names with fewer qualifiers than reports.
    pub unqualified: String,
    /// The unqualified signature without its parameter list (template arguments kept).
    pub base: String,
    /// The function name alone: no namespaces, template arguments or parameters.
    pub function: String,
    /// How much the source name said.
    pub specificity: Specificity,
}

impl KernelIdentity {
    /// The identity of a name as a tool printed it (demangled, or mangled `_Z...`).
    pub fn from_name(name: &str) -> Self {
        let tokens = normalized_tokens(name);
        let full = render(&tokens);
        let unqualified = render(&strip_qualifiers(&tokens));
        let base = strip_parameters(&unqualified).to_string();
        let function = short_function_name(&base);
        let specificity = if base.len() < unqualified.len() {
            Specificity::Full
        } else if base.contains('<') {
            Specificity::Templated
        } else {
            Specificity::Bare
        };
        KernelIdentity {
            full,
            unqualified,
            base,
            function,
            specificity,
        }
    }

    /// The identity of a result: its demangled name, or its mangled name when that says more
    /// (sources that keep only the function name next to the mangled one).
    pub fn of(result: &KernelResult) -> Self {
        let from_demangled = KernelIdentity::from_name(display_source(result));
        if from_demangled.specificity == Specificity::Full {
            return from_demangled;
        }
        if let Some(mangled) = result.name.mangled.as_deref()
            && let Some(demangled) = demangle(mangled)
        {
            let from_mangled = KernelIdentity::from_name(&demangled);
            if from_mangled.specificity > from_demangled.specificity {
                return from_mangled;
            }
        }
        from_demangled
    }
}

/// The name a result is shown by: demangled, else function, else mangled.
pub fn display_name(result: &KernelResult) -> &str {
    display_source(result)
}

fn display_source(result: &KernelResult) -> &str {
    let n = &result.name;
    if !n.demangled.trim().is_empty() {
        &n.demangled
    } else if !n.function.trim().is_empty() {
        &n.function
    } else {
        n.mangled.as_deref().unwrap_or("")
    }
}

/// Demangles an Itanium C++ name (`_Z...`); `None` when it is not one.
pub fn demangle(mangled: &str) -> Option<String> {
    let m = mangled.trim();
    if !m.starts_with("_Z") {
        return None;
    }
    let symbol = cpp_demangle::Symbol::new(m.as_bytes()).ok()?;
    symbol
        .demangle(&cpp_demangle::DemangleOptions::default())
        .ok()
}

/// Normalises a kernel name into a matching key: return type `void `, whitespace and `const`
/// dropped, integer casts and literal suffixes in template arguments removed (`(int)32`, `32u`
/// become `32`; `(bool)1` becomes `true`), anonymous-namespace spellings unified and generated
/// hash segments (`_GLOBAL__N__d8ceb000_...`) replaced by `#`.
pub fn normalize_kernel_name(name: &str) -> String {
    render(&normalized_tokens(name))
}

fn normalized_tokens(name: &str) -> Vec<Token> {
    let demangled;
    let mut s = name.trim();
    if s.starts_with("_Z")
        && let Some(d) = demangle(s)
    {
        demangled = d;
        s = demangled.as_str();
    }
    let s = s.strip_prefix("void ").unwrap_or(s);
    // ncu's exports print `at::native::<unnamed>::k` as `unnamed>::k`.
    let s = s
        .replace("{anonymous}", "(anonymous namespace)")
        .replace("<unnamed>", "(anonymous namespace)")
        .replace("unnamed>::", "(anonymous namespace)::");
    drop_casts(tokenize(&s))
}

/// Drops namespace qualifiers: `a::b::k` gives `k`, `(anonymous namespace)::k` gives `k`.
/// Qualifiers after template arguments or parameter lists (`T<int>::x`, `f()::[lambda]`) stay.
fn strip_qualifiers(tokens: &[Token]) -> Vec<Token> {
    let colon = Token::Punct(':');
    let is_scope = |i: usize| tokens.get(i) == Some(&colon) && tokens.get(i + 1) == Some(&colon);
    let anonymous = [
        Token::Punct('('),
        Token::Word("anonymous".into()),
        Token::Word("namespace".into()),
        Token::Punct(')'),
    ];
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if matches!(tokens[i], Token::Word(_)) && is_scope(i + 1) {
            i += 3;
            continue;
        }
        if tokens[i..].starts_with(&anonymous) && is_scope(i + anonymous.len()) {
            i += anonymous.len() + 2;
            continue;
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// The name without its trailing parameter list: `f<3>(int)` gives `f<3>`.
pub fn strip_parameters(name: &str) -> &str {
    let s = name.trim_end();
    if !s.ends_with(')') {
        return s;
    }
    let mut depth = 0i32;
    for (i, b) in s.bytes().enumerate().rev() {
        match b {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    let head = s[..i].trim_end();
                    // `(anonymous namespace)` alone is not a parameter list.
                    return if head.is_empty() { s } else { head };
                }
            }
            _ => {}
        }
    }
    s
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// Identifier or number (`float`, `cutlass`, `32u`, `0x1f`).
    Word(String),
    /// One punctuation character.
    Punct(char),
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '.'
}

fn tokenize(s: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in s.chars() {
        if is_word_char(c) {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(Token::Word(std::mem::take(&mut word)));
        }
        if !c.is_whitespace() {
            out.push(Token::Punct(c));
        }
    }
    if !word.is_empty() {
        out.push(Token::Word(word));
    }
    out.into_iter()
        .filter(|t| !matches!(t, Token::Word(w) if w == "const"))
        .map(|t| match t {
            Token::Word(w) => Token::Word(normalize_word(&w)),
            p => p,
        })
        .collect()
}

/// Drops integer literal suffixes and replaces hash-like segments.
fn normalize_word(w: &str) -> String {
    if w.starts_with(|c: char| c.is_ascii_digit()) {
        let digits = w.trim_end_matches(['u', 'U', 'l', 'L']);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return digits.to_string();
        }
        return w.to_string();
    }
    if !w.contains('_') && !is_hash(w) {
        return w.to_string();
    }
    w.split('_')
        .map(|seg| if is_hash(seg) { "#" } else { seg })
        .collect::<Vec<_>>()
        .join("_")
}

/// A generated hash: eight or more hex digits mixing digits and letters.
fn is_hash(seg: &str) -> bool {
    seg.len() >= 8
        && seg.bytes().all(|b| b.is_ascii_hexdigit())
        && seg.bytes().any(|b| b.is_ascii_digit())
        && seg.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Removes C-style casts in front of literals: `(int)32` → `32`, `(bool)0` → `false`,
/// `(Kind)-1` → `-1`.
fn drop_casts(tokens: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == Token::Punct('(')
            && let Some((close, is_bool)) = cast_end(&tokens, i)
        {
            let literal_at = close + 1;
            let negative = tokens.get(literal_at) == Some(&Token::Punct('-'));
            let number_at = if negative { literal_at + 1 } else { literal_at };
            if let Some(Token::Word(n)) = tokens.get(number_at)
                && n.starts_with(|c: char| c.is_ascii_digit())
            {
                if is_bool && !negative && (n == "0" || n == "1") {
                    out.push(Token::Word(if n == "1" { "true" } else { "false" }.into()));
                } else {
                    if negative {
                        out.push(Token::Punct('-'));
                    }
                    out.push(Token::Word(n.clone()));
                }
                i = number_at + 1;
                continue;
            }
        }
        out.push(tokens[i].clone());
        i += 1;
    }
    out
}

/// When `tokens[open]` starts a cast such as `(unsigned int)` or `(a::b::Kind)`, the index of
/// its `)` and whether the type is `bool`.
fn cast_end(tokens: &[Token], open: usize) -> Option<(usize, bool)> {
    let mut words = Vec::new();
    for (j, t) in tokens.iter().enumerate().skip(open + 1) {
        match t {
            Token::Word(w) => words.push(w.as_str()),
            Token::Punct(':') => {}
            Token::Punct(')') if !words.is_empty() => {
                let first_is_type = words
                    .first()
                    .is_some_and(|w| !w.starts_with(|c: char| c.is_ascii_digit()));
                return first_is_type.then_some((j, words == ["bool"]));
            }
            _ => return None,
        }
    }
    None
}

fn render(tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut prev_word = false;
    for t in tokens {
        match t {
            Token::Word(w) => {
                if prev_word {
                    out.push(' ');
                }
                out.push_str(w);
                prev_word = true;
            }
            Token::Punct(c) => {
                out.push(*c);
                prev_word = false;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_and_spacing_spellings_agree() {
        let a = normalize_kernel_name(
            "void matmul_tiled<32>(const float *, const float *, float *, int)",
        );
        let b =
            normalize_kernel_name("matmul_tiled<(int)32>(float const*, float const*, float*, int)");
        assert_eq!(a, "matmul_tiled<32>(float*,float*,float*,int)");
        assert_eq!(a, b);
        assert_eq!(
            normalize_kernel_name("_Z12matmul_tiledILi32EEvPKfS1_Pfi"),
            a,
            "mangled name"
        );
    }

    #[test]
    fn casts_and_suffixes() {
        assert_eq!(
            normalize_kernel_name("k<(unsigned int)4, (bool)0, (a::Kind)1, 2ul>(T1::Params)"),
            "k<4,false,1,2>(T1::Params)"
        );
        assert_eq!(
            normalize_kernel_name("k<4u, false, 1, 2>(T1::Params)"),
            "k<4,false,1,2>(T1::Params)"
        );
        assert_eq!(
            normalize_kernel_name("f(unsigned int, long long)"),
            "f(unsigned int,long long)"
        );
    }

    #[test]
    fn hashes_and_anonymous_namespaces() {
        assert_eq!(
            normalize_kernel_name("at::_GLOBAL__N__d8ceb000_21_Dist_cu_0c5b6e85::k(int)"),
            normalize_kernel_name("at::_GLOBAL__N__1f2e3d4c_21_Dist_cu_9a8b7c6d::k(int)")
        );
        assert_eq!(
            normalize_kernel_name("at::<unnamed>::k(int)"),
            normalize_kernel_name("at::(anonymous namespace)::k(int)")
        );
        // Short numeric suffixes are kernel indices, not hashes.
        assert_ne!(
            normalize_kernel_name("triton_poi_fused_add_0"),
            normalize_kernel_name("triton_poi_fused_add_1")
        );
    }

    #[test]
    fn qualifiers_ncu_exports_drop() {
        // The same kernel as an .ncu-rep stores it and as `ncu --csv --page raw` prints it.
        let rep = KernelIdentity::from_name(
            "void at::native::vectorized_elementwise_kernel<(int)4, at::native::<unnamed>::launch_clamp_scalar(at::TensorIteratorBase &, c10::Scalar)::[lambda(float) (instance 1)], std::array<char *, (unsigned long)2>>(int, T2, T3)",
        );
        let csv = KernelIdentity::from_name(
            "void vectorized_elementwise_kernel<4, unnamed>::launch_clamp_scalar(TensorIteratorBase &, c10::Scalar)::[lambda(float) (instance 1)], std::array<char *, 2>>(int, T2, T3)",
        );
        assert_ne!(rep.full, csv.full);
        assert_eq!(rep.unqualified, csv.unqualified);
        assert_eq!(rep.function, "vectorized_elementwise_kernel");
    }

    #[test]
    fn identity_levels() {
        let id = KernelIdentity::from_name("void ns::matmul_tiled<32>(const float *, int)");
        assert_eq!(id.full, "ns::matmul_tiled<32>(float*,int)");
        assert_eq!(id.base, "matmul_tiled<32>");
        assert_eq!(id.function, "matmul_tiled");
        assert_eq!(id.specificity, Specificity::Full);
        assert_eq!(
            KernelIdentity::from_name("matmul_tiled<32>").specificity,
            Specificity::Templated
        );
        assert_eq!(
            KernelIdentity::from_name("tiny_grid").specificity,
            Specificity::Bare
        );
        assert_eq!(
            strip_parameters("(anonymous namespace)"),
            "(anonymous namespace)"
        );
    }
}
