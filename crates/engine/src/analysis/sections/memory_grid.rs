//! The grid a memory table is drawn as: rows of access types, a cell per column, and the
//! metrics no cell shows. Built by [`super::memory_table`] from metric names or by
//! [`super::memory_guide`] from the Kernel Profiling Guide's layouts.

/// One cell: a value in the metric's unit, and the metric it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub value: Option<f64>,
    pub unit: String,
    pub metric: String,
}

/// One row: an access type and a cell per column.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub label: String,
    pub cells: Vec<Option<Cell>>,
}

/// The grid of a memory table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Grid {
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    /// Metrics of the table that no cell shows.
    pub other: Vec<Cell>,
}
