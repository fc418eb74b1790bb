//! Where the memory chart's boxes, links and link labels go, in virtual coordinates that the
//! widget scales to its width: the kernel's links fan out over one bus, links between columns
//! run straight, the link below L2 runs down, and every label is put beside its link where it
//! covers no box, no other label and no other link.

use crate::analysis::sections::memory_chart::{Link, MemoryChart, Unit};
use egui::{Pos2, Rect, Vec2, pos2, vec2};

/// Virtual width and height of the chart.
pub const W: f32 = 940.0;
pub const H: f32 = 320.0;

/// Left edge of each column of boxes.
const COLUMN_X: [f32; 5] = [10.0, 200.0, 410.0, 640.0, 830.0];
/// Where the kernel's links turn towards their unit.
const BUS_X: f32 = 122.0;
/// Gap between a link and its label.
const LABEL_GAP: f32 = 3.0;

/// The box of a unit in virtual coordinates.
pub fn unit_rect(u: Unit) -> Rect {
    let x = COLUMN_X[u.column()];
    let w = if u == Unit::Kernel { 80.0 } else { 100.0 };
    let row = |r: f32, h: f32| Rect::from_min_size(pos2(x, 10.0 + r * 52.0), vec2(w, h));
    match u {
        Unit::Kernel => Rect::from_min_size(pos2(x, 135.0), vec2(w, 50.0)),
        Unit::Global => row(0.0, 36.0),
        Unit::Local => row(1.0, 36.0),
        Unit::Texture => row(2.0, 36.0),
        Unit::Surface => row(3.0, 36.0),
        Unit::Ldgsts => row(4.0, 36.0),
        Unit::Shared => row(5.0, 36.0),
        Unit::L1Tex => row(0.0, 240.0),
        Unit::SharedMemory => row(5.0, 36.0),
        Unit::L2 => row(0.0, 240.0),
        Unit::L2Compression => row(5.0, 36.0),
        Unit::SystemMemory => row(0.0, 56.0),
        Unit::DeviceMemory => row(1.68, 56.0),
        Unit::PeerMemory => row(3.35, 56.0),
    }
}

/// A link's path (two or more points, the arrow at the last) and its label's box.
#[derive(Debug, Clone, PartialEq)]
pub struct PlacedLink {
    pub path: Vec<Pos2>,
    pub label: Rect,
}

/// The path of a link: the kernel's links over the bus, links within a column straight down
/// or up, the rest straight across at a height inside both boxes; a link that has a partner
/// in the other direction runs beside it.
pub fn link_path(l: &Link, both_ways: bool) -> Vec<Pos2> {
    let (a, b) = (unit_rect(l.from), unit_rect(l.to));
    if l.from == Unit::Kernel {
        let y0 = a.center().y;
        let y1 = b.center().y;
        return vec![
            pos2(a.right(), y0),
            pos2(BUS_X, y0),
            pos2(BUS_X, y1),
            pos2(b.left(), y1),
        ];
    }
    let side = if both_ways { 7.0 } else { 0.0 };
    if l.from.column() == l.to.column() {
        let down = a.center().y < b.center().y;
        let x = a.center().x.min(b.center().x) + if down { side } else { -side };
        return if down {
            vec![pos2(x, a.bottom()), pos2(x, b.top())]
        } else {
            vec![pos2(x, a.top()), pos2(x, b.bottom())]
        };
    }
    let forward = a.center().x < b.center().x;
    let (left, right) = if forward { (a, b) } else { (b, a) };
    // At the height of the smaller box, kept within both boxes.
    let y = if left.height() < right.height() {
        left.center().y
    } else {
        right.center().y
    };
    let y = y + if forward { -side } else { side };
    let within = |r: Rect| y.clamp(r.top() + 6.0, r.bottom() - 6.0);
    let (p0, p1) = (
        pos2(left.right(), within(left)),
        pos2(right.left(), within(right)),
    );
    if forward { vec![p0, p1] } else { vec![p1, p0] }
}

/// The box of a label of `size` put beside the segment `a`→`b` at fraction `t`: above a
/// rightward segment, below a leftward one, right of a downward one, left of an upward one.
fn beside(a: Pos2, b: Pos2, t: f32, size: Vec2) -> Rect {
    let at = a + (b - a) * t;
    let d = b - a;
    let offset = if d.x.abs() >= d.y.abs() {
        let up = if d.x >= 0.0 { -1.0 } else { 1.0 };
        vec2(0.0, up * (size.y / 2.0 + LABEL_GAP))
    } else {
        let right = if d.y >= 0.0 { 1.0 } else { -1.0 };
        vec2(right * (size.x / 2.0 + LABEL_GAP), 0.0)
    };
    Rect::from_center_size(at + offset, size)
}

/// Whether the segment `a`→`b` crosses `r`.
fn segment_hits(a: Pos2, b: Pos2, r: Rect) -> bool {
    (0..=16).any(|i| r.contains(a + (b - a) * (i as f32 / 16.0)))
}

/// Places every link and its label. `label_sizes` gives each link's label size in virtual
/// units, in the order of the chart's links. A label goes on the link's last segment (the one into its unit), at the middle when
/// that spot is free, else at the free spot nearest the middle; with no free spot, at the
/// middle.
pub fn place(chart: &MemoryChart, label_sizes: &[Vec2]) -> Vec<PlacedLink> {
    let boxes: Vec<Rect> = chart
        .nodes
        .iter()
        .map(|n| unit_rect(n.unit).expand(1.0))
        .collect();
    let paths: Vec<Vec<Pos2>> = chart
        .links
        .iter()
        .map(|l| {
            let both = chart.links.iter().any(|o| o.from == l.to && o.to == l.from);
            link_path(l, both)
        })
        .collect();
    let mut placed: Vec<PlacedLink> = Vec::with_capacity(chart.links.len());
    for (i, path) in paths.iter().enumerate() {
        let (a, b) = (path[path.len() - 2], path[path.len() - 1]);
        let size = label_sizes.get(i).copied().unwrap_or(Vec2::ZERO);
        let free = |r: Rect| {
            boxes.iter().all(|bx| !bx.intersects(r))
                && placed.iter().all(|p| !p.label.intersects(r))
                && paths.iter().enumerate().all(|(j, other)| {
                    j == i || other.windows(2).all(|s| !segment_hits(s[0], s[1], r))
                })
        };
        let spots = [0.5, 0.42, 0.58, 0.35, 0.65, 0.28, 0.72, 0.2, 0.8];
        let label = spots
            .iter()
            .map(|&t| beside(a, b, t, size))
            .find(|&r| free(r))
            .unwrap_or_else(|| beside(a, b, 0.5, size));
        placed.push(PlacedLink {
            path: path.clone(),
            label,
        });
    }
    placed
}

/// Spreads marks of height `h` at the wanted heights (top to bottom) so that none overlaps
/// the next, kept within `top..bottom`: a mark pushed down by the one above it, and the whole
/// column pulled up when it runs past the bottom.
pub fn spread_marks(wanted: &[f32], h: f32, top: f32, bottom: f32) -> Vec<f32> {
    let mut ys: Vec<f32> = Vec::with_capacity(wanted.len());
    for &y in wanted {
        let min = ys.last().map_or(top + h / 2.0, |&prev| prev + h);
        ys.push(y.max(min));
    }
    let over = ys.last().map_or(0.0, |&y| y + h / 2.0 - bottom);
    if over > 0.0 {
        for y in &mut ys {
            *y -= over;
        }
        // Pulled up past the top: keep the top mark in and the order kept.
        let mut min = top + h / 2.0;
        for y in &mut ys {
            *y = y.max(min);
            min = *y + h;
        }
    }
    ys
}
