//! The results table as the user sees it: the filter text and the visible order of the rows
//! (filtered and sorted, cached until the rows, the filter or the sort change), and moving the
//! selection through it.

use crate::cache::Cached;
use crate::core::ids::ResultRef;
use crate::core::rows::{SortState, visible_order};
use crate::core::workspace::Workspace;

/// Where a keyboard move of the selection goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// This many rows down (up when negative).
    By(isize),
    /// The first row (Home).
    First,
    /// The last row (End).
    Last,
}

/// The filter text and the cached visible order.
#[derive(Debug, Default)]
pub struct TableView {
    /// Case-insensitive part of the kernel name, and `nvtx:PATH` terms
    /// ([`crate::core::row_filter::RowFilter`]).
    pub filter: String,
    order: Cached<(u64, String, SortState), Vec<usize>>,
}

impl TableView {
    /// The visible rows (indices into `Workspace::rows`), recomputed only when the rows, the
    /// filter or the sort change.
    pub fn order(&mut self, workspace: &Workspace, sort: SortState) -> &[usize] {
        let key = (workspace.generation(), self.filter.clone(), sort);
        self.order
            .get_or_compute(key, |(_, filter, sort)| {
                visible_order(workspace.rows(), filter, *sort)
            })
            .as_slice()
    }

    /// The result of the `n`-th visible row.
    pub fn result_at(
        &mut self,
        workspace: &Workspace,
        sort: SortState,
        n: usize,
    ) -> Option<ResultRef> {
        let order = self.order(workspace, sort);
        order
            .get(n)
            .and_then(|&i| workspace.rows().get(i))
            .map(|r| r.result)
    }

    /// The position of `at` among the visible rows.
    pub fn position_of(
        &mut self,
        workspace: &Workspace,
        sort: SortState,
        at: Option<ResultRef>,
    ) -> Option<usize> {
        let at = at?;
        let rows = workspace.rows();
        self.order(workspace, sort)
            .iter()
            .position(|&i| rows.get(i).is_some_and(|r| r.result == at))
    }

    /// The visible row a move leads to from the selected one (clamped to the table; a relative
    /// move from no visible selection goes to the first row), with its position; `None` when
    /// no row is visible.
    pub fn moved(
        &mut self,
        workspace: &Workspace,
        sort: SortState,
        selection: Option<ResultRef>,
        to: Move,
    ) -> Option<(usize, ResultRef)> {
        let current = self.position_of(workspace, sort, selection);
        let len = self.order(workspace, sort).len();
        if len == 0 {
            return None;
        }
        let next = match (to, current) {
            (Move::First, _) => 0,
            (Move::Last, _) => len - 1,
            (Move::By(delta), Some(pos)) => pos.saturating_add_signed(delta).min(len - 1),
            (Move::By(_), None) => 0,
        };
        self.result_at(workspace, sort, next).map(|r| (next, r))
    }

    /// Whether the filter asks for an NVTX range (`nvtx:PATH`).
    pub fn filters_nvtx(&self) -> bool {
        crate::core::row_filter::RowFilter::parse(&self.filter).has_nvtx()
    }

    /// Forgets the cached order.
    pub fn release(&mut self) {
        self.order.clear();
    }
}
