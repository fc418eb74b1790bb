//! The lines that open results: the process line `[pid] name@host`, the kernel line (read
//! from the right, since kernel names hold commas, parentheses and templates; every form ncu
//! printed since 2019, the older per-kernel summary's `Block Size 256, Grid Size 32, Device 0,
//! 1 invocations` included) and the NVTX push/pop stack lines of a result's preface.

use crate::model::{Dim3, ResultKind};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while_m_n};
use nom::character::complete::{alpha1, char, digit1, u32 as dec_u32, u64 as dec_u64};
use nom::combinator::{all_consuming, recognize};
use nom::sequence::{delimited, preceded, separated_pair, terminated};
use nom::{IResult, Parser};

/// A process line: `[1287] kernels@127.0.0.1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessLine<'a> {
    pub pid: u64,
    pub name: &'a str,
    pub host: &'a str,
}

/// Parses a process line (without indentation).
pub fn process_line(rest: &str) -> Option<ProcessLine<'_>> {
    let rest = rest.trim_end();
    let (tail, pid) = delimited(char::<&str, ()>('['), dec_u64, tag("] "))
        .parse(rest)
        .ok()?;
    let (name, host) = tail.rsplit_once('@')?;
    if name.is_empty() || host.is_empty() || host.contains(char::is_whitespace) {
        return None;
    }
    Some(ProcessLine { pid, name, host })
}

/// A kernel line, split into its parts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KernelLine<'a> {
    pub name: &'a str,
    pub grid: Option<Dim3>,
    pub block: Option<Dim3>,
    pub context: Option<u64>,
    pub stream: Option<u64>,
    pub device: Option<u64>,
    pub cc: Option<(u32, u32)>,
    pub invocations: Option<u64>,
    /// Threads per block and blocks, as the older per-kernel summary prints them (one number
    /// each, not the shape).
    pub block_size: Option<u64>,
    pub grid_size: Option<u64>,
    /// Launch time printed by older layouts (`2025-May-15 09:00:25`).
    pub timestamp: Option<&'a str>,
    /// What the result measured, from its printed name.
    pub kind: ResultKind,
}

/// One `, Key Value` field at the end of a kernel line.
enum Field {
    Context(u64),
    Stream(u64),
    Device(u64),
    Cc(u32, u32),
    Invocations(u64),
    BlockSize(u64),
    GridSize(u64),
}

fn field(i: &str) -> IResult<&str, Field> {
    alt((
        preceded(tag("Context "), dec_u64).map(Field::Context),
        preceded(tag("Stream "), dec_u64).map(Field::Stream),
        preceded(tag("Device "), dec_u64).map(Field::Device),
        preceded(tag("CC "), separated_pair(dec_u32, char('.'), dec_u32))
            .map(|(a, b)| Field::Cc(a, b)),
        preceded(tag("Invocations "), dec_u64).map(Field::Invocations),
        // The older per-kernel summary: `1 invocations`, `Block Size 256`, `Grid Size 32`.
        terminated(dec_u64, tag(" invocations")).map(Field::Invocations),
        preceded(tag("Block Size "), dec_u64).map(Field::BlockSize),
        preceded(tag("Grid Size "), dec_u64).map(Field::GridSize),
    ))
    .parse(i)
}

fn dim3(i: &str) -> IResult<&str, Dim3> {
    delimited(
        char('('),
        (dec_u64, tag(", "), dec_u64, tag(", "), dec_u64),
        char(')'),
    )
    .map(|(x, _, y, _, z)| Dim3 { x, y, z })
    .parse(i)
}

fn launch_shape(i: &str) -> IResult<&str, (Dim3, Dim3)> {
    separated_pair(dim3, char('x'), dim3).parse(i)
}

/// `2025-May-15 09:00:25`.
fn timestamp(i: &str) -> IResult<&str, &str> {
    let two = || take_while_m_n(1, 2, |c: char| c.is_ascii_digit());
    recognize((
        take_while_m_n(4, 4, |c: char| c.is_ascii_digit()),
        char('-'),
        alt((alpha1, digit1)),
        char('-'),
        two(),
        char(' '),
        two(),
        char(':'),
        two(),
        char(':'),
        two(),
    ))
    .parse(i)
}

/// Parses a kernel line (without indentation), reading the fields from the right. Ranges and
/// command lists have no launch shape: `range, Context 1, Device 0, CC 9.0`.
pub fn kernel_line(rest: &str) -> Option<KernelLine<'_>> {
    kernel_line_with(rest, 2)
}

/// Parses the kernel line of a per-GPU summary, whose device and compute capability are on the
/// `Device 0, CC 9.0` line above it: `range (0, 0, 0)x(0, 0, 0), Invocations 1`.
pub fn summary_kernel_line(rest: &str) -> Option<KernelLine<'_>> {
    kernel_line_with(rest, 1).filter(|k| k.invocations.is_some())
}

/// A per-GPU summary's device line: `Device 0, CC 9.0`.
pub fn device_line(rest: &str) -> Option<(u64, (u32, u32))> {
    let (_, (_, device, _, a, _, b)) = all_consuming((
        tag::<&str, &str, ()>("Device "),
        dec_u64,
        tag(", CC "),
        dec_u32,
        char('.'),
        dec_u32,
    ))
    .parse(rest.trim_end())
    .ok()?;
    Some((device, (a, b)))
}

/// A kernel line with at least `min_fields` trailing `, Key Value` fields.
fn kernel_line_with(rest: &str, min_fields: usize) -> Option<KernelLine<'_>> {
    let mut head = rest.trim_end();
    // Quick reject: every form ends in a number, but for the older summary's invocations.
    if !head.as_bytes().last()?.is_ascii_digit() && !head.ends_with(" invocations") {
        return None;
    }
    let mut k = KernelLine::default();
    let mut fields = 0;
    while let Some((before, last)) = head.rsplit_once(", ") {
        let Ok((_, f)) = all_consuming(field).parse(last) else {
            break;
        };
        match f {
            Field::Context(v) => k.context = Some(v),
            Field::Stream(v) => k.stream = Some(v),
            Field::Device(v) => k.device = Some(v),
            Field::Cc(a, b) => k.cc = Some((a, b)),
            Field::Invocations(v) => k.invocations = Some(v),
            Field::BlockSize(v) => k.block_size = Some(v),
            Field::GridSize(v) => k.grid_size = Some(v),
        }
        fields += 1;
        head = before;
        if fields > 7 {
            break;
        }
    }
    if fields < min_fields {
        return None;
    }
    let shape_at = head.ends_with(')').then(|| head.rfind(")x(")).flatten();
    if let Some(x) = shape_at {
        // `name (gx, gy, gz)x(bx, by, bz)`
        let open = head.get(..x)?.rfind('(')?;
        let shape = head.get(open..)?;
        let (_, (grid, block)) = all_consuming(launch_shape).parse(shape).ok()?;
        k.grid = Some(grid);
        k.block = Some(block);
        head = head.get(..open)?.trim_end();
    } else if let Some((before, last)) = head.rsplit_once(", ")
        && all_consuming(timestamp).parse(last).is_ok()
    {
        k.timestamp = Some(last);
        head = before;
    } else if ResultKind::of_printed_name(head) == ResultKind::Kernel
        && (k.block_size.is_none() || k.grid_size.is_none())
    {
        return None;
    }
    if head.is_empty() {
        return None;
    }
    k.name = head;
    k.kind = ResultKind::of_printed_name(head);
    Some(k)
}

/// Whether a preface line opens an NVTX block (`NVTX Push/Pop Stack for Thread 731:`).
pub fn is_nvtx_header(rest: &str) -> bool {
    rest.starts_with("NVTX ") && rest.trim_end().ends_with(':')
}

/// An NVTX range line `<0,elementwise>`: the level and the name.
pub fn nvtx_range(rest: &str) -> Option<(u64, &str)> {
    let t = rest.trim_end();
    let inner = t.strip_prefix('<')?.strip_suffix('>')?;
    let (level, name) = inner.split_once(',')?;
    Some((level.parse().ok()?, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_process_lines() {
        let p = process_line("[731] kernels@127.0.0.1").unwrap();
        assert_eq!((p.pid, p.name, p.host), (731, "kernels", "127.0.0.1"));
        assert!(process_line("[x] a@b").is_none());
        assert!(process_line("[1] nohost").is_none());
    }

    #[test]
    fn reads_kernel_lines_from_the_right() {
        let k = kernel_line(
            "void f<(int)1, 2>(T1::Params, int) (16, 16, 64)x(16, 16, 1), Context 1, Stream 7, Device 0, CC 9.0",
        )
        .unwrap();
        assert_eq!(k.name, "void f<(int)1, 2>(T1::Params, int)");
        assert_eq!(
            k.grid,
            Some(Dim3 {
                x: 16,
                y: 16,
                z: 64
            })
        );
        assert_eq!(k.block, Some(Dim3 { x: 16, y: 16, z: 1 }));
        assert_eq!(
            (k.context, k.stream, k.device, k.cc),
            (Some(1), Some(7), Some(0), Some((9, 0)))
        );

        let k = kernel_line("k(T1::Params), 2025-May-15 09:00:25, Context 1, Stream 7").unwrap();
        assert_eq!(k.name, "k(T1::Params)");
        assert_eq!(k.timestamp, Some("2025-May-15 09:00:25"));

        let k = kernel_line("tiny(float *) (1, 1, 1)x(32, 1, 1), Device 0, CC 9.0, Invocations 2")
            .unwrap();
        assert_eq!(k.invocations, Some(2));
        assert_eq!(k.context, None);

        // The per-kernel summary before 2023.2 prints sizes, not shapes.
        let k = kernel_line(
            "transpose_device(float *, float *, int, int), Block Size 256, Grid Size 32, Device 0, 1 invocations ",
        )
        .unwrap();
        assert_eq!(k.name, "transpose_device(float *, float *, int, int)");
        assert_eq!(
            (k.block_size, k.grid_size, k.device, k.invocations),
            (Some(256), Some(32), Some(0), Some(1))
        );
        assert_eq!((k.grid, k.block), (None, None));

        assert!(kernel_line("Layer,N,H,W,C,K,R,S,Runtime,GFLOPs").is_none());
        assert!(kernel_line("device__attribute_clock_rate      1,980,000").is_none());
        assert!(kernel_line("(1, 1, 1)x(32, 1, 1), Device 0, CC 9.0").is_none());
    }

    #[test]
    fn reads_range_and_graph_lines() {
        let r = kernel_line("range, Context 1, Device 0, CC 9.0").unwrap();
        assert_eq!((r.name, r.kind, r.grid), ("range", ResultKind::Range, None));
        assert_eq!(
            (r.context, r.device, r.cc),
            (Some(1), Some(0), Some((9, 0)))
        );
        let g = kernel_line("graph (4096, 1, 1)x(256, 1, 1), Context 1, Device 0, CC 9.0").unwrap();
        assert_eq!((g.name, g.kind), ("graph", ResultKind::Graph));
        // A bare word is a kernel name only with a launch shape.
        assert!(kernel_line("something, Context 1, Device 0, CC 9.0").is_none());
        let s = summary_kernel_line("range (0, 0, 0)x(0, 0, 0), Invocations 1").unwrap();
        assert_eq!((s.kind, s.invocations), (ResultKind::Range, Some(1)));
        assert!(summary_kernel_line("range, Context 1").is_none());
        assert_eq!(device_line("Device 0, CC 9.0"), Some((0, (9, 0))));
        assert_eq!(device_line("Device 0, CC 9.0, Invocations 2"), None);
    }

    #[test]
    fn reads_nvtx_lines() {
        assert!(is_nvtx_header("NVTX Push/Pop Stack for Thread 731:"));
        assert_eq!(nvtx_range("<0,elementwise>"), Some((0, "elementwise")));
        assert_eq!(nvtx_range("<default domain>"), None);
    }
}
