//! Reading the lines inside one result: its sections, metric rows, rule messages, NVTX ranges
//! and the tables of its section bodies.

use super::*;

impl<'a> ResultState<'a> {
    /// A non-blank line inside a result.
    pub(super) fn line(
        &mut self,
        sh: &mut Shared<'a>,
        line: &'a str,
        indent: usize,
        rest: &'a str,
    ) {
        if let Some(domain) = &mut self.nvtx {
            if indent >= 6 {
                match nvtx_range(rest) {
                    Some((_, name)) => self.result.nvtx.push(NvtxRange {
                        domain: domain.unwrap_or("").to_string(),
                        name: name.to_string(),
                    }),
                    None => *domain = Some(rest.trim_end()),
                }
                return;
            }
            self.nvtx = None;
        }
        // Table rows: the common case, checked first.
        if let Some(table) = &self.table
            && table.phase == Phase::Rows
        {
            let table_indent = table.layout.indent();
            if indent > table_indent {
                self.table_row(sh, line);
                return;
            }
            if indent == table_indent {
                let first = rest.as_bytes().first().copied().unwrap_or(b' ');
                if first == b'-' && is_dash_rule(rest) {
                    // The closing rule.
                    self.end_table(sh);
                    return;
                }
                let ends =
                    (first == b'S' && rest.starts_with("Section: ")) || tag_line(rest).is_some();
                if !ends {
                    self.table_row(sh, line);
                    return;
                }
            } else if indent == 0 {
                // Program output printed in the middle of a table.
                sh.other_text();
                return;
            }
            self.end_table(sh);
        }
        if let Some(name) = rest.strip_prefix("Section: ") {
            self.open_section(sh, name.trim_end());
            return;
        }
        let first = rest.as_bytes().first().copied().unwrap_or(b' ');
        if first == b'-' && is_dash_rule(rest) {
            self.dash_rule(sh, line);
            return;
        }
        if let Some((kind, text)) = tag_line(rest) {
            self.end_table(sh);
            self.finish_rule();
            self.rule_block = RuleBlock::None;
            self.rule = Some(OpenRule::new(kind, indent, text));
            return;
        }
        if let Some(rule) = &mut self.rule {
            if indent > rule.indent + 3 {
                rule.push(rest);
                return;
            }
            self.finish_rule();
        }
        if first == b'>' && indent >= 5 {
            self.end_table(sh);
            self.rule_block = if rest.starts_with("> Key Performance Indicators") {
                RuleBlock::Kpi
            } else {
                RuleBlock::Other
            };
            return;
        }
        if let Some(table) = &mut self.table {
            if table.phase == Phase::AfterRule && indent == table.layout.indent() {
                if rest.starts_with("Metric Name") || self.rule_block != RuleBlock::None {
                    table.phase = Phase::Header {
                        line,
                        opened_by_rule: true,
                    };
                    return;
                }
                if table.layout.len() == 3 {
                    // Older layout: rows follow the first rule with no header row.
                    let layout = table.layout;
                    self.start_rows(layout, Kind::Metric, true);
                    self.table_row(sh, line);
                    return;
                }
            }
            self.table = None;
        }
        if rest.starts_with("Metric Name") && rest.contains("Metric Unit") {
            // `--page raw` and the older per-kernel summary: the header row comes before the
            // first rule.
            self.end_table(sh);
            self.table = Some(Table::header_first(line));
            return;
        }
        if is_nvtx_header(rest) {
            self.nvtx = Some(None);
            return;
        }
        if indent >= 4 {
            // Preface warnings, body item titles, `Table Name : ...` lines.
            self.rule_block = RuleBlock::None;
            match &mut self.section {
                Some(section) => {
                    section.body_seen = true;
                    section.has_content = true;
                    if let Some(name) = rest.strip_prefix("Table Name : ") {
                        section.table_name = name.trim_end();
                    }
                    self.bodies.text_line(rest);
                }
                None if KNOWN_PREFACE.iter().any(|p| rest.starts_with(p)) => {}
                None => sh.skip(NO_SHAPE),
            }
            return;
        }
        // Unindented lines are the application's own output.
        if indent > 0 {
            sh.skip(NO_SHAPE);
        } else {
            sh.other_text();
        }
    }

    pub(super) fn blank(&mut self, sh: &mut Shared<'a>) {
        self.finish_rule();
        self.nvtx = None;
        if self.table.as_ref().is_some_and(|t| t.phase == Phase::Rows) {
            self.end_table(sh);
        } else {
            self.table = None;
        }
    }

    pub(super) fn open_section(&mut self, sh: &mut Shared<'a>, name: &'a str) {
        // Older versions printed some sections under other names.
        let name = section_today(name);
        self.end_table(sh);
        self.finish_rule();
        self.rule_block = RuleBlock::None;
        let index = self.result.sections().len();
        self.bodies.section(name);
        let label_slot = sh.labels.slot(name);
        self.result.sections_mut().push(Section {
            identifier: None,
            name: name.to_string(),
            rows: Vec::with_capacity(sh.labels.known_rows(label_slot)),
            rules: Vec::new(),
        });
        self.section = Some(SectionState {
            name,
            index,
            label_slot,
            header_done: false,
            body_seen: false,
            table_name: "",
            has_content: false,
        });
    }

    pub(super) fn dash_rule(&mut self, sh: &mut Shared<'a>, line: &'a str) {
        self.finish_rule();
        let Some(layout) = Layout::from_rule(line) else {
            return;
        };
        if let Some(Table {
            phase:
                Phase::Header {
                    line: header,
                    opened_by_rule,
                },
            ..
        }) = self.table
        {
            let kind = kind_of_header(
                &layout,
                header,
                self.rule_block != RuleBlock::None,
                self.rule_block == RuleBlock::Kpi,
            );
            self.start_rows(layout, kind, opened_by_rule);
            return;
        }
        self.end_table(sh);
        self.table = Some(Table::after_rule(layout));
    }

    /// Starts the data rows of a table and decides where they go.
    pub(super) fn start_rows(&mut self, layout: Layout, kind: Kind, opened_by_rule: bool) {
        let metric_table = matches!(kind, Kind::Metric | Kind::Summary { .. });
        let role = if metric_table {
            self.role_of_new_table()
        } else {
            Role::Body
        };
        self.table = Some(Table {
            layout,
            phase: Phase::Rows,
            kind,
            role,
            expects_close: opened_by_rule && metric_table,
            rows: 0,
            pending: None,
        });
    }

    pub(super) fn role_of_new_table(&mut self) -> Role {
        match &mut self.section {
            None => {
                let index = self.result.sections().len();
                self.result.sections_mut().push(Section {
                    identifier: None,
                    name: RAW_SECTION.to_string(),
                    rows: Vec::new(),
                    rules: Vec::new(),
                });
                self.section = Some(SectionState {
                    name: RAW_SECTION,
                    index,
                    label_slot: usize::MAX,
                    header_done: true,
                    body_seen: false,
                    table_name: "",
                    has_content: true,
                });
                Role::Raw
            }
            Some(s) => {
                s.has_content = true;
                if !s.header_done && !s.body_seen {
                    s.header_done = true;
                    Role::Header
                } else {
                    Role::Body
                }
            }
        }
    }

    /// A data or continuation row of the open table.
    pub(super) fn table_row(&mut self, sh: &mut Shared<'a>, line: &'a str) {
        let Some(table) = &mut self.table else {
            return;
        };
        let layout = table.layout;
        match table.kind {
            Kind::Skip => sh.skip(UNREAD_TABLE),
            Kind::Kpi => {
                let guidance = layout.cell(line, 2).unwrap_or("");
                let width = layout.col(2).map_or(usize::MAX, |(s, e)| e - s);
                if layout.blank_before(line, 0) {
                    // Guidance text wrapped onto the next line.
                    if let Some(p) = &mut table.pending {
                        p.continue_value(1, guidance, width);
                    }
                    return;
                }
                let name = layout.cell(line, 0).unwrap_or("");
                let value = layout.cell(line, 1).unwrap_or("");
                if value.is_empty() {
                    if let Some(p) = &mut table.pending {
                        p.continue_name(name);
                        p.continue_value(1, guidance, width);
                    }
                    return;
                }
                if parse_value(&sh.point_form(Cow::Borrowed(value)))
                    .0
                    .as_f64()
                    .is_none()
                {
                    sh.skip(KPI_NOT_A_NUMBER);
                }
                let row = PendingRow::new(name, "", [value, guidance, ""], [0, width, 0]);
                if let Some(done) = table.pending.replace(row) {
                    self.store_focus_metric(&done, sh.numbers);
                }
            }
            Kind::Metric | Kind::Summary { .. } => {
                if sh.unterminated && line.len() < layout.end() {
                    // The text was cut inside this row.
                    sh.warnings.push(Warning::new(
                        WarningKind::Truncated,
                        format!(
                            "the last line is cut inside a table row of the last result (`{}`): \
                             the row was skipped and the text looks truncated",
                            self.result.name.function
                        ),
                    ));
                    sh.truncated = true;
                    return;
                }
                let value_cols = table.kind.value_columns();
                let widths = value_cols.map(|c| layout.col(c).map_or(usize::MAX, |(s, e)| e - s));
                if layout.blank_before(line, 0) {
                    if let Some(p) = &mut table.pending {
                        for (slot, &col) in value_cols.iter().enumerate() {
                            if col == NO_COLUMN {
                                continue;
                            }
                            let piece = layout
                                .cell(line, col)
                                .unwrap_or_else(|| if slot == 0 { line.trim() } else { "" });
                            p.continue_value(slot, piece, widths[slot]);
                        }
                    }
                    return;
                }
                let (label, unit, values) = layout.cut_row(line, value_cols);
                let mut row = PendingRow::new(label, unit, values, widths);
                row.line = sh.line_no;
                if let Some(done) = table.pending.replace(row) {
                    self.store_row(sh, done);
                }
            }
        }
    }

    /// Stores a finished metric row in its section, or among the body metrics.
    pub(super) fn store_row(&mut self, sh: &mut Shared<'a>, mut row: PendingRow<'a>) {
        row.values = row.values.map(|v| sh.point_form(v));
        let ResultState {
            result,
            body_metrics,
            bodies,
            section,
            table,
            ..
        } = self;
        let (Some(table), Some(section)) = (table.as_mut(), section.as_ref()) else {
            return;
        };
        let full_label: &str = &row.label;
        let (label, name) = match split_label_name(full_label) {
            Some((l, n)) => (l, Some(n)),
            None => {
                let name = match (table.role, &row.label) {
                    (Role::Raw, _) => Some(full_label),
                    (Role::Header, std::borrow::Cow::Borrowed(l)) => {
                        sh.labels
                            .metric(section.label_slot, table.rows, section.name, l)
                    }
                    _ => metric_for(section.name, full_label),
                };
                // `--metrics` tables and `--print-metric-name name` print the names themselves.
                let name = name.or_else(|| is_metric_name(full_label).then_some(full_label));
                (full_label, name)
            }
        };
        // Read for its head, a row of no head metric is kept by no head: its value is read
        // only to count the row as damaged (a number unit and a value that is none).
        let unkept = sh.wanted == Wanted::Heads && !name.is_some_and(is_head_metric);
        if unkept && !matches!(table.kind, Kind::Summary { .. }) {
            table.rows += 1;
            if !row.unit.trim().is_empty() && reads_as_text(&row.values[0]) {
                sh.skipped.add(VALUE_NOT_A_NUMBER, row.line);
            } else if table.role == Role::Body {
                bodies.row_passed_over();
            }
            return;
        }
        let name = if unkept { None } else { name };
        let base = sh.units.base(row.unit);
        let summary = matches!(table.kind, Kind::Summary { .. });
        // Whether the value lists instances, which makes a text value no damage.
        let (metric, lists) = if sh.wanted == Wanted::Values && !summary {
            value_metric(name, &row.values[0], base)
        } else {
            let metric = if summary {
                summary_metric(
                    name,
                    [&row.values[0], &row.values[1], &row.values[2]],
                    row.unit,
                    base,
                )
            } else {
                printed_metric(name, &row.values[0], row.unit, base)
            };
            let lists = !metric.instances.is_empty();
            (metric, lists)
        };
        table.rows += 1;
        if !row.unit.trim().is_empty() && matches!(metric.value, Value::Str(_)) && !lists {
            // A damaged row: the unit column says the value is a number.
            sh.skipped.add(VALUE_NOT_A_NUMBER, row.line);
            return;
        }
        if unkept {
            if table.role == Role::Body {
                bodies.row_passed_over();
            }
            return;
        }
        match table.role {
            Role::Header | Role::Raw => {
                if let Some(s) = result.sections_mut().get_mut(section.index) {
                    s.rows.push(MetricRow {
                        label: label.to_string(),
                        metric,
                    });
                }
            }
            Role::Body => {
                if bodies.is_open() {
                    bodies.row(label, &metric);
                }
                let key = match name {
                    Some(n) => MetricKey::new(n),
                    None => {
                        let key = &mut sh.key;
                        key.clear();
                        key.push_str(section.name);
                        key.push('/');
                        key.push_str(section.table_name);
                        key.push('/');
                        key.push_str(label);
                        MetricKey::new(key)
                    }
                };
                body_metrics.push((key, metric));
            }
        }
    }

    /// Adds a key performance indicator to the last rule.
    pub(super) fn store_focus_metric(&mut self, row: &PendingRow<'_>, numbers: NumberFormat) {
        let Some(value) = parse_value(&to_point(&row.values[0], numbers)).0.as_f64() else {
            return;
        };
        let rule = match self.last_rule {
            Some(RuleSlot::Section(i)) => self
                .result
                .sections_mut()
                .get_mut(i)
                .and_then(|s| s.rules.last_mut()),
            Some(RuleSlot::Result) => self.result.rules_mut().last_mut(),
            None => None,
        };
        if let Some(rule) = rule {
            rule.focus_metrics.push((row.label.to_string(), value));
            let guidance = row.values[1].trim();
            if !guidance.is_empty() {
                rule.guidance
                    .push((row.label.to_string(), guidance.to_string()));
            }
        }
    }

    pub(super) fn end_table(&mut self, sh: &mut Shared<'a>) {
        let Some(mut table) = self.table.take() else {
            return;
        };
        if table.role == Role::Body {
            self.bodies.end_table();
        }
        if let Some(row) = table.pending.take() {
            let kind = table.kind;
            self.table = Some(table);
            match kind {
                Kind::Kpi => self.store_focus_metric(&row, sh.numbers),
                Kind::Metric | Kind::Summary { .. } => self.store_row(sh, row),
                Kind::Skip => {}
            }
            self.table = None;
        }
    }

    pub(super) fn finish_rule(&mut self) {
        let Some(rule) = self.rule.take() else {
            return;
        };
        let rule = rule.finish();
        match &self.section {
            Some(s) if s.index < self.result.sections().len() => {
                self.result.sections_mut()[s.index].rules.push(rule);
                self.last_rule = Some(RuleSlot::Section(s.index));
            }
            _ => {
                self.result.rules_mut().push(rule);
                self.last_rule = Some(RuleSlot::Result);
            }
        }
        if let Some(s) = &mut self.section {
            s.has_content = true;
        }
    }

    /// Why the text looks cut at this point, if it does.
    pub(super) fn unfinished(&self) -> Option<&'static str> {
        if let Some(t) = &self.table {
            match t.phase {
                Phase::Rows if t.expects_close => return Some("inside a table"),
                Phase::Header { .. } => return Some("after a table header"),
                Phase::AfterRule if t.layout.len() >= 3 => return Some("after a table rule"),
                _ => {}
            }
        }
        match &self.section {
            Some(s) if !s.has_content && self.rule.is_none() && self.table.is_none() => {
                Some("right after a section title")
            }
            _ => None,
        }
    }

    pub(super) fn finish(mut self, sh: &mut Shared<'a>) -> (KernelResult, Vec<SectionBodies>) {
        self.end_table(sh);
        self.finish_rule();
        let mut result = self.result;
        index_metrics(&mut result, self.body_metrics);
        (result, self.bodies.finish())
    }
}
