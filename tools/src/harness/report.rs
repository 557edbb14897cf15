//! Result rows: CSV in and out, per-set summaries (text and markdown),
//! run-to-run comparison and the BENCHMARKS.md splice.

use crate::run::Status;
use std::collections::HashMap;
use std::fmt::Write as _;

pub const CSV_COLUMNS: [&str; 8] = ["set", "map", "solver", "status", "wall_s", "peak_kb", "moves", "pushes"];

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub set: String,
    pub map: String,
    pub solver: String,
    pub status: Status,
    pub wall_s: f64,
    pub peak_kb: u64,
    /// Only for verified solutions; a wrong answer has no meaningful length.
    pub moves: Option<usize>,
    pub pushes: Option<usize>,
}

// ---------------------------------------------------------------- CSV

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn to_csv(rows: &[Row]) -> String {
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for r in rows {
        let opt = |v: Option<usize>| v.map(|n| n.to_string()).unwrap_or_default();
        let _ = writeln!(
            out,
            "{},{},{},{},{:.4},{},{},{}",
            csv_field(&r.set),
            csv_field(&r.map),
            csv_field(&r.solver),
            r.status.as_str(),
            r.wall_s,
            r.peak_kb,
            opt(r.moves),
            opt(r.pushes)
        );
    }
    out
}

/// Split CSV text into records of fields (RFC 4180 quoting, CRLF tolerated).
fn csv_records(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut in_quotes = false;
    let mut line = 1;
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                _ => {
                    if c == '\n' {
                        line += 1;
                    }
                    field.push(c)
                }
            }
            continue;
        }
        match c {
            '"' if field.is_empty() => in_quotes = true,
            ',' => record.push(std::mem::take(&mut field)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
                line += 1;
            }
            _ => field.push(c),
        }
    }
    if in_quotes {
        return Err(format!("unterminated quote (line {})", line));
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    // Blank lines carry no rows.
    records.retain(|r| !(r.len() == 1 && r[0].is_empty()));
    Ok(records)
}

/// Parse a CSV written by `to_csv`. Columns are found by header name, so a
/// file with extra columns (hand-edited, or from a later version) still loads.
pub fn parse_csv(text: &str) -> Result<Vec<Row>, String> {
    let records = csv_records(text)?;
    let (header, body) = records.split_first().ok_or("empty CSV")?;
    let mut index = [0usize; 8];
    for (k, name) in CSV_COLUMNS.iter().enumerate() {
        index[k] = header
            .iter()
            .position(|h| h.trim() == *name)
            .ok_or_else(|| format!("CSV header lacks column {:?}", name))?;
    }
    let mut rows = Vec::new();
    for (n, rec) in body.iter().enumerate() {
        let line = n + 2;
        let get = |k: usize| rec.get(index[k]).map(|s| s.trim()).unwrap_or("");
        let num = |k: usize| -> Result<Option<usize>, String> {
            match get(k) {
                "" => Ok(None),
                s => s.parse().map(Some).map_err(|_| format!("line {}: bad {} {:?}", line, CSV_COLUMNS[k], s)),
            }
        };
        rows.push(Row {
            set: get(0).to_string(),
            map: get(1).to_string(),
            solver: get(2).to_string(),
            status: Status::parse(get(3)).ok_or_else(|| format!("line {}: unknown status {:?}", line, get(3)))?,
            wall_s: get(4).parse().map_err(|_| format!("line {}: bad wall_s {:?}", line, get(4)))?,
            peak_kb: num(5)?.unwrap_or(0) as u64,
            moves: num(6)?,
            pushes: num(7)?,
        });
    }
    Ok(rows)
}

// ---------------------------------------------------------------- statistics

/// Median; the mean of the two middle values for an even count.
pub fn median(values: &[f64]) -> Option<f64> {
    let v = sorted(values);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// Nearest-rank percentile: the smallest value with at least p% of the
/// values at or below it. Always an observed time, never an interpolation.
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    let v = sorted(values);
    if v.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    Some(v[rank.clamp(1, v.len()) - 1])
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v
}

// ---------------------------------------------------------------- summaries

#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub set: String,
    pub solver: String,
    pub maps: usize,
    pub counts: HashMap<Status, usize>,
    pub median_s: Option<f64>,
    pub p90_s: Option<f64>,
    /// Wall time of all runs of the group, failures and timeouts included.
    pub total_s: f64,
    pub peak_kb: u64,
}

impl Summary {
    pub fn count(&self, status: Status) -> usize {
        self.counts.get(&status).copied().unwrap_or(0)
    }
}

fn summarize_group(set: &str, solver: &str, rows: &[&Row]) -> Summary {
    let mut counts = HashMap::new();
    for r in rows {
        *counts.entry(r.status).or_insert(0) += 1;
    }
    let solved: Vec<f64> = rows.iter().filter(|r| r.status == Status::Solved).map(|r| r.wall_s).collect();
    Summary {
        set: set.to_string(),
        solver: solver.to_string(),
        maps: rows.len(),
        counts,
        median_s: median(&solved),
        p90_s: percentile(&solved, 90.0),
        total_s: rows.iter().map(|r| r.wall_s).sum(),
        peak_kb: rows.iter().map(|r| r.peak_kb).max().unwrap_or(0),
    }
}

/// Rows grouped per (set, solver) in order of first appearance, followed by
/// an "(all)" group per solver when there is more than one set, so every
/// table built on it reads the same way.
fn groups(rows: &[Row]) -> Vec<(String, String, Vec<&Row>)> {
    let mut keys: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        let key = (r.set.as_str(), r.solver.as_str());
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    let mut out: Vec<(String, String, Vec<&Row>)> = keys
        .iter()
        .map(|&(set, solver)| {
            let group = rows.iter().filter(|r| r.set == set && r.solver == solver).collect();
            (set.to_string(), solver.to_string(), group)
        })
        .collect();
    let mut sets: Vec<&str> = Vec::new();
    let mut solvers: Vec<&str> = Vec::new();
    for &(set, solver) in &keys {
        if !sets.contains(&set) {
            sets.push(set);
        }
        if !solvers.contains(&solver) {
            solvers.push(solver);
        }
    }
    if sets.len() > 1 {
        for solver in solvers {
            let group = rows.iter().filter(|r| r.solver == solver).collect();
            out.push(("(all)".to_string(), solver.to_string(), group));
        }
    }
    out
}

/// One summary per (set, solver) in order of first appearance, followed by
/// an "(all)" line per solver when there is more than one set.
pub fn summarize(rows: &[Row]) -> Vec<Summary> {
    groups(rows).iter().map(|(set, solver, group)| summarize_group(set, solver, group)).collect()
}

fn secs(v: Option<f64>) -> String {
    v.map(|s| format!("{:.3}", s)).unwrap_or_else(|| "-".to_string())
}

fn mb(kb: u64) -> String {
    format!("{:.1}", kb as f64 / 1024.0)
}

/// Aligns a table for the terminal: the first `text_cols` columns
/// left-aligned, the numbers after them right-aligned.
fn align(table: &[Vec<String>], text_cols: usize) -> String {
    let columns = table.iter().map(|r| r.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| table.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in table {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c < text_cols {
                    format!("{:<w$}", cell, w = widths[c])
                } else {
                    format!("{:>w$}", cell, w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// Plain-text table for the terminal.
pub fn format_summary(summaries: &[Summary]) -> String {
    let header = [
        "set", "solver", "solved", "wrong", "timeout", "unsolved", "crash", "bad-exit", "median s", "p90 s", "total s",
        "peak MB",
    ];
    let mut table: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for s in summaries {
        table.push(vec![
            s.set.clone(),
            s.solver.clone(),
            format!("{}/{}", s.count(Status::Solved), s.maps),
            s.count(Status::Wrong).to_string(),
            s.count(Status::Timeout).to_string(),
            s.count(Status::Unsolved).to_string(),
            s.count(Status::Crash).to_string(),
            s.count(Status::BadExit).to_string(),
            secs(s.median_s),
            secs(s.p90_s),
            format!("{:.1}", s.total_s),
            mb(s.peak_kb),
        ]);
    }
    align(&table, 2)
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// Markdown version of the summary, for BENCHMARKS.md.
pub fn markdown(summaries: &[Summary]) -> String {
    let mut out = String::from(
        "| set | solver | solved | wrong | timeout | unsolved | crash/bad-exit | median s | p90 s | total s | peak MB |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for s in summaries {
        let set = if s.set == "(all)" { "**all**".to_string() } else { format!("`{}`", md_cell(&s.set)) };
        let _ = writeln!(
            out,
            "| {} | `{}` | {}/{} | {} | {} | {} | {} | {} | {} | {:.1} | {} |",
            set,
            md_cell(&s.solver),
            s.count(Status::Solved),
            s.maps,
            s.count(Status::Wrong),
            s.count(Status::Timeout),
            s.count(Status::Unsolved),
            s.count(Status::Crash) + s.count(Status::BadExit),
            secs(s.median_s),
            secs(s.p90_s),
            s.total_s,
            mb(s.peak_kb)
        );
    }
    out
}

// ---------------------------------------------------------------- within

/// Maps solved within each of several time limits, the measure of tables
/// that report one run at several limits (e.g. "solved within 5 / 11 / 15 s").
#[derive(Debug, Clone, PartialEq)]
pub struct Within {
    pub set: String,
    pub solver: String,
    pub maps: usize,
    /// One count per limit, in the order the limits were given.
    pub solved: Vec<usize>,
    /// Median wall time of the maps solved within the largest limit, so it
    /// describes the same maps as the last count even when the run itself
    /// allowed longer.
    pub median_s: Option<f64>,
}

/// Parse a comma-separated list of limits in seconds, e.g. "5,11,15".
pub fn parse_limits(text: &str) -> Result<Vec<f64>, String> {
    let limits = text
        .split(',')
        .map(|p| p.trim().parse::<f64>().ok().filter(|s| *s > 0.0 && s.is_finite()))
        .collect::<Option<Vec<f64>>>()
        .ok_or_else(|| format!("bad limit list {:?} (want seconds like 5,11,15)", text))?;
    Ok(limits)
}

/// A solved row counts for a limit when its wall time is at or below it; a
/// run killed by the harness never counts, whatever its time.
pub fn within(rows: &[Row], limits: &[f64]) -> Vec<Within> {
    let largest = limits.iter().copied().fold(0.0, f64::max);
    groups(rows)
        .into_iter()
        .map(|(set, solver, group)| {
            let times: Vec<f64> = group.iter().filter(|r| r.status == Status::Solved).map(|r| r.wall_s).collect();
            let counted: Vec<f64> = times.iter().copied().filter(|&t| t <= largest).collect();
            Within {
                set,
                solver,
                maps: group.len(),
                solved: limits.iter().map(|&l| times.iter().filter(|&&t| t <= l).count()).collect(),
                median_s: median(&counted),
            }
        })
        .collect()
}

/// Rows gathered from several CSV files must not hold the same map twice
/// for one solver, or it would be counted twice.
pub fn check_unique(rows: &[Row]) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for r in rows {
        if !seen.insert((r.set.as_str(), r.map.as_str(), r.solver.as_str())) {
            return Err(format!("map {}/{} appears twice for solver {:?}", r.set, r.map, r.solver));
        }
    }
    Ok(())
}

fn limit_header(limit: f64) -> String {
    format!("within {} s", limit)
}

/// The set column is only worth its space when there are several sets, which
/// is exactly when `groups` adds "(all)" lines.
fn several_sets(ws: &[Within]) -> bool {
    ws.iter().any(|w| w.set == "(all)")
}

/// Plain-text table for the terminal.
pub fn format_within(ws: &[Within], limits: &[f64]) -> String {
    let with_set = several_sets(ws);
    let mut header: Vec<String> = Vec::new();
    if with_set {
        header.push("set".into());
    }
    header.extend(["solver".to_string(), "maps".to_string()]);
    header.extend(limits.iter().map(|&l| limit_header(l)));
    header.push("median s".into());
    let mut table = vec![header];
    for w in ws {
        let mut line: Vec<String> = Vec::new();
        if with_set {
            line.push(w.set.clone());
        }
        line.extend([w.solver.clone(), w.maps.to_string()]);
        line.extend(w.solved.iter().map(|n| n.to_string()));
        line.push(secs(w.median_s));
        table.push(line);
    }
    align(&table, if with_set { 2 } else { 1 })
}

/// Markdown version, with a note on what the median covers.
pub fn within_markdown(ws: &[Within], limits: &[f64]) -> String {
    let with_set = several_sets(ws);
    let mut out = String::from("|");
    if with_set {
        out.push_str(" set |");
    }
    out.push_str(" solver | maps |");
    for &l in limits {
        let _ = write!(out, " {} |", limit_header(l));
    }
    out.push_str(" median s |\n|");
    let text_cols = if with_set { 2 } else { 1 };
    for c in 0..text_cols + limits.len() + 2 {
        out.push_str(if c < text_cols { " --- |" } else { " ---: |" });
    }
    out.push('\n');
    for w in ws {
        out.push('|');
        if with_set {
            let set = if w.set == "(all)" { "**all**".to_string() } else { format!("`{}`", md_cell(&w.set)) };
            let _ = write!(out, " {} |", set);
        }
        let _ = write!(out, " `{}` | {} |", md_cell(&w.solver), w.maps);
        for n in &w.solved {
            let _ = write!(out, " {} |", n);
        }
        let _ = writeln!(out, " {} |", secs(w.median_s));
    }
    let largest = limits.iter().copied().fold(0.0, f64::max);
    let _ = writeln!(
        out,
        "\nCounts are maps solved (answer verified) with a wall time at or below each limit; median s is over the maps solved within {} s.",
        largest
    );
    out
}

/// Tab-separated, one line per group, for scripts: set, solver, maps, one
/// count per limit, median seconds (empty when nothing was solved).
pub fn within_tsv(ws: &[Within], limits: &[f64]) -> String {
    // Tabs or newlines inside a label would shift the columns.
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut out = String::from("set\tsolver\tmaps");
    for &l in limits {
        let _ = write!(out, "\twithin_{}", l);
    }
    out.push_str("\tmedian_s\n");
    for w in ws {
        let _ = write!(out, "{}\t{}\t{}", clean(&w.set), clean(&w.solver), w.maps);
        for n in &w.solved {
            let _ = write!(out, "\t{}", n);
        }
        let _ = writeln!(out, "\t{}", w.median_s.map(|m| format!("{:.3}", m)).unwrap_or_default());
    }
    out
}

// ---------------------------------------------------------------- compare

/// Result of comparing run B against run A, map by map.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub gained: Vec<String>,
    pub lost: Vec<String>,
    /// (map key, A seconds, B seconds) for maps solved by both.
    pub both: Vec<(String, f64, f64)>,
    pub only_in_a: usize,
    pub only_in_b: usize,
    pub solved_a: usize,
    pub solved_b: usize,
}

fn key(r: &Row) -> String {
    format!("{}/{}", r.set, r.map)
}

pub fn compare(a: &[Row], b: &[Row]) -> Comparison {
    let b_by_key: HashMap<String, &Row> = b.iter().map(|r| (key(r), r)).collect();
    let a_keys: std::collections::HashSet<String> = a.iter().map(key).collect();
    let mut c = Comparison {
        gained: Vec::new(),
        lost: Vec::new(),
        both: Vec::new(),
        only_in_a: 0,
        only_in_b: b.iter().filter(|r| !a_keys.contains(&key(r))).count(),
        solved_a: 0,
        solved_b: 0,
    };
    for ra in a {
        let k = key(ra);
        let Some(rb) = b_by_key.get(&k) else {
            c.only_in_a += 1;
            continue;
        };
        let (sa, sb) = (ra.status == Status::Solved, rb.status == Status::Solved);
        c.solved_a += sa as usize;
        c.solved_b += sb as usize;
        match (sa, sb) {
            (true, true) => c.both.push((k, ra.wall_s, rb.wall_s)),
            (false, true) => c.gained.push(k),
            (true, false) => c.lost.push(k),
            (false, false) => {}
        }
    }
    c
}

/// Human-readable comparison. Per-map ratios below 10 ms are noise-dominated
/// (process start-up alone costs about a millisecond), hence the geometric
/// mean next to the plain total ratio.
pub fn format_comparison(c: &Comparison, a: &[Row], b: &[Row], label_a: &str, label_b: &str) -> String {
    let status_of = |rows: &[Row], k: &str| {
        rows.iter().find(|r| key(r) == k).map(|r| format!("{} {:.3}s", r.status.as_str(), r.wall_s)).unwrap_or_default()
    };
    let mut out = String::new();
    let _ = writeln!(out, "A: {}\nB: {}", label_a, label_b);
    let _ = writeln!(
        out,
        "solved on common maps: A {}, B {} ({:+})",
        c.solved_a,
        c.solved_b,
        c.solved_b as i64 - c.solved_a as i64
    );
    if c.only_in_a + c.only_in_b > 0 {
        let _ = writeln!(out, "maps only in A: {}, only in B: {} (not compared)", c.only_in_a, c.only_in_b);
    }
    let _ = writeln!(out, "gained (solved by B only): {}", c.gained.len());
    for k in &c.gained {
        let _ = writeln!(out, "  + {}  A {}  B {}", k, status_of(a, k), status_of(b, k));
    }
    let _ = writeln!(out, "lost (solved by A only): {}", c.lost.len());
    for k in &c.lost {
        let _ = writeln!(out, "  - {}  A {}  B {}", k, status_of(a, k), status_of(b, k));
    }
    if c.both.is_empty() {
        let _ = writeln!(out, "no map solved by both");
        return out;
    }
    let _ = writeln!(out, "time B/A per map solved by both ({}):", c.both.len());
    let width = c.both.iter().map(|(k, _, _)| k.len()).max().unwrap_or(0);
    for (k, ta, tb) in &c.both {
        let ratio = tb / ta.max(1e-6);
        // Flag clear changes so they stand out in a long list.
        let flag = if ratio >= 1.5 {
            "  slower"
        } else if ratio <= 1.0 / 1.5 {
            "  faster"
        } else {
            ""
        };
        let _ = writeln!(out, "  {:<width$}  {:>8.3}s -> {:>8.3}s  x{:.2}{}", k, ta, tb, ratio, flag, width = width);
    }
    let (sum_a, sum_b): (f64, f64) = c.both.iter().fold((0.0, 0.0), |(x, y), (_, ta, tb)| (x + ta, y + tb));
    let log_mean =
        c.both.iter().map(|(_, ta, tb)| (tb.max(1e-6) / ta.max(1e-6)).ln()).sum::<f64>() / c.both.len() as f64;
    let _ = writeln!(
        out,
        "total on maps solved by both: A {:.3}s, B {:.3}s, B/A x{:.3} (geometric mean of per-map ratios x{:.3})",
        sum_a,
        sum_b,
        sum_b / sum_a.max(1e-9),
        log_mean.exp()
    );
    out
}

// ---------------------------------------------------------------- splice

/// Marker name used by `make bench`; other sections of a document use their
/// own names (`<!-- paper:begin -->` ...).
pub const DEFAULT_MARKER: &str = "bench";

/// Replace whatever lies between `<!-- NAME:begin -->` and `<!-- NAME:end -->`
/// in `doc` with `snippet`, keeping the markers so the next run can find
/// them again.
pub fn splice(doc: &str, snippet: &str, name: &str) -> Result<String, String> {
    // A name with spaces or '-->' could never match, or match something else.
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(format!("bad marker name {:?} (letters, digits, '-', '_')", name));
    }
    let begin_mark = format!("<!-- {}:begin -->", name);
    let end_mark = format!("<!-- {}:end -->", name);
    let begin = doc.find(&begin_mark).ok_or_else(|| format!("marker {} not found", begin_mark))?;
    let after_begin = begin + begin_mark.len();
    let end = doc[after_begin..]
        .find(&end_mark)
        .map(|e| after_begin + e)
        .ok_or_else(|| format!("marker {} not found after {}", end_mark, begin_mark))?;
    let mut out = String::with_capacity(doc.len() + snippet.len());
    out.push_str(&doc[..after_begin]);
    out.push('\n');
    out.push_str(snippet.trim_matches('\n'));
    out.push('\n');
    out.push_str(&doc[end..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(set: &str, map: &str, solver: &str, status: Status, wall: f64) -> Row {
        let solved = status == Status::Solved;
        Row {
            set: set.into(),
            map: map.into(),
            solver: solver.into(),
            status,
            wall_s: wall,
            peak_kb: 2048,
            moves: solved.then_some(12),
            pushes: solved.then_some(3),
        }
    }

    #[test]
    fn csv_round_trip_with_awkward_solver_names() {
        let rows = vec![
            row("kth100", "test000.txt", "target/release/sokoban", Status::Solved, 0.0123),
            row("kth100", "test001.txt", "java -jar \"x.jar\", v2", Status::Timeout, 11.0021),
            row("micro", "001", "a\nb", Status::BadExit, 0.5),
        ];
        let text = to_csv(&rows);
        assert!(text.starts_with("set,map,solver,status,wall_s,peak_kb,moves,pushes\n"));
        assert!(text.contains("\"java -jar \"\"x.jar\"\", v2\""));
        assert_eq!(parse_csv(&text).unwrap(), rows);
        // CRLF (e.g. after a spreadsheet) reads the same.
        assert_eq!(parse_csv(&text.replace('\n', "\r\n")).unwrap()[0], rows[0]);
    }

    #[test]
    fn csv_columns_found_by_name_and_errors_reported() {
        let text = "note,pushes,moves,peak_kb,wall_s,status,solver,map,set\nhi,1,4,100,0.5,wrong,s,m,x\n";
        let rows = parse_csv(text).unwrap();
        assert_eq!(rows[0].set, "x");
        assert_eq!(rows[0].status, Status::Wrong);
        assert_eq!((rows[0].moves, rows[0].pushes), (Some(4), Some(1)));
        assert!(parse_csv("set,map\n").unwrap_err().contains("solver"));
        let bad = "set,map,solver,status,wall_s,peak_kb,moves,pushes\nx,m,s,great,1,1,,\n";
        assert_eq!(parse_csv(bad).unwrap_err(), "line 2: unknown status \"great\"");
    }

    #[test]
    fn median_and_percentile() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        let v: Vec<f64> = (1..=10).map(|i| i as f64).collect();
        assert_eq!(percentile(&v, 90.0), Some(9.0));
        assert_eq!(percentile(&v, 100.0), Some(10.0));
        assert_eq!(percentile(&v, 0.0), Some(1.0));
        assert_eq!(percentile(&[5.0, 1.0], 90.0), Some(5.0));
        let v: Vec<f64> = (1..=20).rev().map(|i| i as f64).collect();
        assert_eq!(percentile(&v, 90.0), Some(18.0));
    }

    #[test]
    fn summary_counts_and_all_line() {
        let rows = vec![
            row("a", "1", "s", Status::Solved, 1.0),
            row("a", "2", "s", Status::Solved, 3.0),
            row("a", "3", "s", Status::Timeout, 11.0),
            row("b", "1", "s", Status::Wrong, 0.5),
        ];
        let s = summarize(&rows);
        assert_eq!(s.len(), 3);
        assert_eq!((s[0].set.as_str(), s[0].maps, s[0].count(Status::Solved)), ("a", 3, 2));
        assert_eq!(s[0].median_s, Some(2.0));
        assert_eq!(s[0].total_s, 15.0);
        assert_eq!(s[1].count(Status::Wrong), 1);
        assert_eq!(s[1].median_s, None);
        assert_eq!((s[2].set.as_str(), s[2].maps), ("(all)", 4));
        let text = format_summary(&s);
        assert!(text.lines().nth(1).unwrap().contains("2/3"));
        let md = markdown(&s);
        assert!(md.contains("| `a` | `s` | 2/3 | 0 | 1 | 0 | 0 | 2.000 | 3.000 | 15.0 | 2.0 |"), "{}", md);
    }

    #[test]
    fn comparison_gains_losses_and_ratios() {
        let a = vec![
            row("x", "1", "A", Status::Solved, 1.0),
            row("x", "2", "A", Status::Timeout, 11.0),
            row("x", "3", "A", Status::Solved, 2.0),
            row("x", "4", "A", Status::Solved, 4.0),
        ];
        let b = vec![
            row("x", "1", "B", Status::Solved, 0.5),
            row("x", "2", "B", Status::Solved, 5.0),
            row("x", "3", "B", Status::Unsolved, 1.0),
            row("x", "4", "B", Status::Solved, 8.0),
            row("x", "5", "B", Status::Solved, 1.0),
        ];
        let c = compare(&a, &b);
        assert_eq!(c.gained, ["x/2"]);
        assert_eq!(c.lost, ["x/3"]);
        assert_eq!(c.both, vec![("x/1".to_string(), 1.0, 0.5), ("x/4".to_string(), 4.0, 8.0)]);
        assert_eq!((c.only_in_a, c.only_in_b), (0, 1));
        let text = format_comparison(&c, &a, &b, "A", "B");
        assert!(text.contains("x0.50  faster"), "{}", text);
        assert!(text.contains("x2.00  slower"), "{}", text);
        // Total 8.5/5 = 1.7; geometric mean of 0.5 and 2 is 1.
        assert!(text.contains("B/A x1.700 (geometric mean of per-map ratios x1.000)"), "{}", text);
    }

    #[test]
    fn splice_replaces_between_markers_only() {
        let doc = "# Bench\nintro\n<!-- bench:begin -->\nold table\n<!-- bench:end -->\nfooter\n";
        let out = splice(doc, "\nnew table\n\n", DEFAULT_MARKER).unwrap();
        assert_eq!(out, "# Bench\nintro\n<!-- bench:begin -->\nnew table\n<!-- bench:end -->\nfooter\n");
        // Idempotent: splicing again gives the same document.
        assert_eq!(splice(&out, "new table", "bench").unwrap(), out);
        assert!(splice("no markers", "x", "bench").is_err());
        assert!(splice("<!-- bench:end --> <!-- bench:begin -->", "x", "bench").is_err());
    }

    #[test]
    fn splice_touches_only_the_named_section() {
        let doc = "<!-- paper:begin -->\nold p\n<!-- paper:end -->\n<!-- bench:begin -->\nold b\n<!-- bench:end -->\n";
        let out = splice(doc, "new p", "paper").unwrap();
        assert_eq!(
            out,
            "<!-- paper:begin -->\nnew p\n<!-- paper:end -->\n<!-- bench:begin -->\nold b\n<!-- bench:end -->\n"
        );
        assert_eq!(splice(&out, "new b", "bench").unwrap(), out.replace("old b", "new b"));
        assert!(splice(doc, "x", "other").unwrap_err().contains("<!-- other:begin -->"));
        assert!(splice(doc, "x", "pa per").is_err());
        assert!(splice(doc, "x", "").is_err());
    }

    #[test]
    fn limits_parse() {
        assert_eq!(parse_limits("5,11,15").unwrap(), [5.0, 11.0, 15.0]);
        assert_eq!(parse_limits(" 0.5 , 14.8").unwrap(), [0.5, 14.8]);
        for bad in ["", "5,,15", "5;11", "0", "-1", "inf", "NaN", "x"] {
            assert!(parse_limits(bad).is_err(), "{:?}", bad);
        }
    }

    #[test]
    fn within_counts_solved_maps_at_or_below_each_limit() {
        let rows = vec![
            row("k", "1", "A*", Status::Solved, 0.2),
            row("k", "2", "A*", Status::Solved, 5.0), // exactly at a limit: counts
            row("k", "3", "A*", Status::Solved, 5.5),
            row("k", "4", "A*", Status::Solved, 12.0),
            row("k", "5", "A*", Status::Timeout, 3.0), // never counts, even if fast
            row("k", "6", "A*", Status::Solved, 20.0), // beyond the largest limit
            row("k", "1", "bfs", Status::Unsolved, 1.0),
            row("k", "2", "bfs", Status::Wrong, 1.0),
        ];
        let ws = within(&rows, &[5.0, 11.0, 15.0]);
        assert_eq!(ws.len(), 2);
        assert_eq!((ws[0].solver.as_str(), ws[0].maps), ("A*", 6));
        assert_eq!(ws[0].solved, [2, 3, 4]);
        // Median over 0.2, 5.0, 5.5, 12.0 only: the 20 s map is outside.
        assert_eq!(ws[0].median_s, Some(5.25));
        assert_eq!((ws[1].solved.clone(), ws[1].median_s), (vec![0, 0, 0], None));
        // Limits are columns in the order given.
        assert_eq!(within(&rows, &[15.0, 5.0])[0].solved, [4, 2]);

        let md = within_markdown(&ws, &[5.0, 11.0, 15.0]);
        assert!(
            md.starts_with("| solver | maps | within 5 s | within 11 s | within 15 s | median s |\n| --- | ---: |"),
            "{}",
            md
        );
        assert!(md.contains("| `A*` | 6 | 2 | 3 | 4 | 5.250 |"), "{}", md);
        assert!(md.contains("| `bfs` | 2 | 0 | 0 | 0 | - |"), "{}", md);
        let tsv = within_tsv(&ws, &[5.0, 11.0, 15.0]);
        assert_eq!(tsv.lines().next(), Some("set\tsolver\tmaps\twithin_5\twithin_11\twithin_15\tmedian_s"));
        assert_eq!(tsv.lines().nth(1), Some("k\tA*\t6\t2\t3\t4\t5.250"));
        assert_eq!(tsv.lines().nth(2), Some("k\tbfs\t2\t0\t0\t0\t"));
        let text = format_within(&ws, &[5.0, 11.0, 15.0]);
        assert!(text.lines().next().unwrap().starts_with("solver  maps  within 5 s"), "{}", text);
    }

    #[test]
    fn within_adds_set_column_and_totals_for_several_sets() {
        let rows = vec![
            row("a", "1", "s", Status::Solved, 1.0),
            row("b", "1", "s", Status::Solved, 7.0),
            row("b", "2", "s", Status::Timeout, 15.0),
        ];
        let ws = within(&rows, &[5.0, 15.0]);
        let got: Vec<(&str, usize, Vec<usize>)> =
            ws.iter().map(|w| (w.set.as_str(), w.maps, w.solved.clone())).collect();
        assert_eq!(got, vec![("a", 1, vec![1, 1]), ("b", 2, vec![0, 1]), ("(all)", 3, vec![1, 2])]);
        let md = within_markdown(&ws, &[5.0, 15.0]);
        assert!(md.contains("| **all** | `s` | 3 | 1 | 2 | 4.000 |"), "{}", md);
        assert!(format_within(&ws, &[5.0, 15.0]).starts_with("set    solver"));
    }

    #[test]
    fn duplicate_maps_per_solver_are_rejected() {
        let a = row("k", "1", "s", Status::Solved, 1.0);
        let other_solver = row("k", "1", "t", Status::Solved, 1.0);
        assert!(check_unique(&[a.clone(), other_solver]).is_ok());
        let err = check_unique(&[a.clone(), a]).unwrap_err();
        assert!(err.contains("k/1") && err.contains("\"s\""), "{}", err);
    }
}
