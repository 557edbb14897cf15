//! `harness verify COLLECTION SOLUTIONS`: check a solutions file against the levels it
//! claims to solve, with the harness's own collection reader and simulator (never the
//! solver's code).
//!
//! The solutions file is read as SOK (the format `sokoban solve` writes): each map,
//! its title (a `Title:` note right after the map, else the line right before it), and
//! its first section whose title line starts with `Solution`, whose moves follow on one
//! or more lines (LURD letters, either case; blanks between moves are allowed; runs
//! written short, `3r` or `2(ul)`, as many collections store them). A note
//! `Unsolved: why` says why a map has none.
//!
//! A level of the collection is paired with the entry that has the same map (the one
//! with its title too, if several do), else with an entry of the same title; the moves
//! are replayed on the collection's map, not the copy in the solutions file.

use crate::collection::{self, Level};
use crate::sim;

/// One map of a solutions file.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub title: Option<String>,
    /// The map, normalised as the collection reader does (`collection::normalise`).
    pub map: String,
    /// The moves of its first `Solution` section, if it has one.
    pub moves: Option<String>,
    /// The reason an `Unsolved:` note gives.
    pub note: Option<String>,
    /// Line (from 1) of the map's first row.
    pub line: usize,
}

/// How one level of the collection fared.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    Ok(sim::Replay),
    Wrong(String),
    Missing(String),
}

fn is_moves_line(line: &str) -> bool {
    let t = line.trim();
    // A move letter at least: a title may be a number.
    t.contains(['u', 'd', 'l', 'r', 'U', 'D', 'L', 'R'])
        && t.chars().all(|c| "udlrUDLR \t()".contains(c) || c.is_ascii_digit())
}

/// Moves with their runs written out: a count before a move or a bracketed group
/// repeats it (`3r` = `rrr`, `2(ul)` = `ulul`, groups may nest); blanks and line
/// breaks are dropped. Other characters are left for the simulator to report.
pub fn expand_runs(text: &str) -> Result<String, String> {
    fn group(chars: &[char], i: &mut usize, depth: usize) -> Result<String, String> {
        let mut out = String::new();
        while *i < chars.len() {
            let start = *i;
            while *i < chars.len() && chars[*i].is_ascii_digit() {
                *i += 1;
            }
            let count: usize = if *i > start {
                let digits: String = chars[start..*i].iter().collect();
                digits.parse().ok().filter(|&n| n <= 1_000_000).ok_or(format!("run count {} is too big", digits))?
            } else {
                1
            };
            let Some(&c) = chars.get(*i) else {
                return Err("a run count at the end of the moves".into());
            };
            *i += 1;
            let unit = match c {
                '(' if depth >= 100 => return Err("groups nested over 100 deep".into()),
                '(' => group(chars, i, depth + 1)?,
                ')' if depth > 0 && *i - 1 == start => return Ok(out),
                ')' => return Err(format!("unmatched ')' at {}", *i)),
                c if c.is_whitespace() && *i - 1 == start => continue,
                c => c.to_string(),
            };
            if out.len() + unit.len() * count > 100_000_000 {
                return Err("the moves written out are too long".into());
            }
            out += &unit.repeat(count);
        }
        if depth > 0 {
            return Err("a '(' is not closed".into());
        }
        Ok(out)
    }
    let chars: Vec<char> = text.chars().collect();
    group(&chars, &mut 0, 0)
}

fn is_solution_title(line: &str) -> bool {
    line.trim().to_ascii_lowercase().starts_with("solution")
}

/// The value of a `key: value` line with this key (case-insensitive).
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let (k, v) = line.trim().split_once(':')?;
    k.trim().eq_ignore_ascii_case(key).then(|| v.trim())
}

pub fn parse_solutions(text: &str) -> Vec<Entry> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !collection::is_map_row(lines[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && collection::is_map_row(lines[i]) {
            i += 1;
        }
        // A wall banner is decoration, as for the collection reader.
        if lines[start..i].iter().any(|r| r.contains(['@', '+'])) {
            runs.push((start, i));
        }
    }
    runs.iter()
        .enumerate()
        .map(|(n, &(start, end))| {
            let next = runs.get(n + 1).map_or(lines.len(), |r| r.0);
            let after = &lines[end..next];
            let notes: Vec<&str> = after.iter().take_while(|l| !l.trim().is_empty()).copied().collect();
            let title_note = notes.iter().find_map(|l| field(l, "title"));
            let title_line = start
                .checked_sub(1)
                .map(|k| lines[k].trim())
                .filter(|l| {
                    !l.is_empty()
                        && !is_moves_line(l)
                        && !is_solution_title(l)
                        && !l.starts_with("::")
                        && (field(l, "title").is_some() || !l.contains(':'))
                })
                .map(|l| field(l, "title").unwrap_or(l).trim_start_matches(';').trim());
            let title = title_note.or(title_line).filter(|t| !t.is_empty()).map(str::to_string);
            let moves = after.iter().position(|l| is_solution_title(l)).map(|h| {
                let body = after[h + 1..].iter().take_while(|l| is_moves_line(l));
                body.flat_map(|l| l.chars().filter(|c| !c.is_whitespace())).collect::<String>()
            });
            let note = notes.iter().find_map(|l| field(l, "unsolved")).map(str::to_string);
            Entry { title, map: collection::normalise(&lines[start..end]), moves, note, line: start + 1 }
        })
        .collect()
}

/// Pair each level with an entry (see the module comment) and check it; also the
/// entries no level took.
pub fn verify(levels: &[Level], entries: &[Entry]) -> (Vec<Check>, Vec<usize>) {
    let mut used = vec![false; entries.len()];
    let checks = levels
        .iter()
        .map(|level| {
            let same_title = |e: &Entry| level.title.is_some() && e.title == level.title;
            let free: Vec<usize> = (0..entries.len()).filter(|&k| !used[k]).collect();
            let same_map: Vec<usize> = free.iter().copied().filter(|&k| entries[k].map == level.map).collect();
            let chosen = same_map
                .iter()
                .copied()
                .find(|&k| same_title(&entries[k]))
                .or_else(|| same_map.first().copied())
                .or_else(|| free.iter().copied().find(|&k| same_title(&entries[k])));
            let Some(k) = chosen else {
                return Check::Missing("no entry for this level in the solutions file".into());
            };
            used[k] = true;
            let entry = &entries[k];
            let Some(moves) = &entry.moves else {
                let why = entry.note.as_deref().unwrap_or("no Solution section");
                return Check::Missing(format!("unsolved: {} (line {})", why, entry.line));
            };
            match expand_runs(moves).and_then(|moves| sim::replay(&level.map, &moves)) {
                Ok(r) => Check::Ok(r),
                Err(e) if entry.map != level.map => {
                    Check::Wrong(format!("{} (the entry at line {} has the same title but another map)", e, entry.line))
                }
                Err(e) => Check::Wrong(format!("{} (entry at line {})", e, entry.line)),
            }
        })
        .collect();
    let unmatched = (0..entries.len()).filter(|&k| !used[k]).collect();
    (checks, unmatched)
}

/// `harness verify COLLECTION SOLUTIONS`: 0 if no solution is wrong, 1 otherwise.
pub fn command(args: &[String]) -> Result<u8, String> {
    const VERIFY_USAGE: &str = "usage: harness verify COLLECTION SOLUTIONS";
    let [collection_path, solutions_path] = args else {
        return Err(VERIFY_USAGE.into());
    };
    let set = collection::load(std::path::Path::new(collection_path))?;
    let bytes = std::fs::read(solutions_path).map_err(|e| format!("{}: {}", solutions_path, e))?;
    let entries = parse_solutions(&String::from_utf8_lossy(&bytes));
    let (checks, unmatched) = verify(&set.levels, &entries);
    let (mut ok, mut wrong, mut missing) = (0, 0, 0);
    for (level, check) in set.levels.iter().zip(&checks) {
        let title = level.title.as_ref().map(|t| format!(" ({})", t)).unwrap_or_default();
        let what = match check {
            Check::Ok(r) => {
                ok += 1;
                format!("ok, {} moves, {} pushes", r.moves, r.pushes)
            }
            Check::Wrong(e) => {
                wrong += 1;
                format!("WRONG: {}", e)
            }
            Check::Missing(e) => {
                missing += 1;
                format!("missing: {}", e)
            }
        };
        println!("{}/{}{}: {}", set.name, level.name, title, what);
    }
    for k in unmatched {
        let e = &entries[k];
        let title = e.title.as_ref().map(|t| format!(" ({})", t)).unwrap_or_default();
        println!("note: the entry at line {}{} of {} matches no level", e.line, title, solutions_path);
    }
    println!("verify: {} ok, {} wrong, {} missing of {} levels", ok, wrong, missing, set.levels.len());
    Ok(if wrong > 0 { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "#####\n#@$.#\n#####\n";
    const B: &str = "######\n#@ $.#\n######\n";
    const STUCK: &str = "#####\n#$  #\n#@ .#\n#####\n";

    fn level(name: &str, title: Option<&str>, map: &str) -> Level {
        Level { name: name.into(), title: title.map(str::to_string), map: map.into() }
    }

    #[test]
    fn reads_the_format_sokoban_solve_writes() {
        let text = format!(
            "One\n{A}\nSolution\nR\n\nTwo\n{B}\nSolution\nr\nR\n\nStuck\n{STUCK}Unsolved: no solution exists\n"
        );
        let e = parse_solutions(&text);
        assert_eq!(e.len(), 3);
        assert_eq!((e[0].title.as_deref(), e[0].map.as_str(), e[0].moves.as_deref()), (Some("One"), A, Some("R")));
        assert_eq!((e[1].title.as_deref(), e[1].moves.as_deref(), e[1].line), (Some("Two"), Some("rR"), 10));
        assert_eq!((e[2].title.as_deref(), e[2].moves.as_deref()), (Some("Stuck"), None));
        assert_eq!(e[2].note.as_deref(), Some("no solution exists"));
    }

    #[test]
    fn runs_written_short_are_written_out() {
        assert_eq!(expand_runs("3r2(ul)D"), Ok("rrrululD".into()));
        assert_eq!(expand_runs("2(r2(ud))l\n10L "), Ok("rududrududlLLLLLLLLLL".into()));
        assert_eq!(expand_runs("rR"), Ok("rR".into()));
        assert!(expand_runs("2(ul").is_err());
        assert!(expand_runs("ul)").is_err());
        assert!(expand_runs("ul3").is_err());
        assert!(expand_runs("99999999999r").is_err());
        assert!(expand_runs("1000000(1000000(r))").is_err());
        assert_eq!(expand_runs(&format!("{}r{}", "(".repeat(100), ")".repeat(100))), Ok("r".into()));
        assert!(expand_runs(&"(".repeat(1_000_000)).is_err());
        // Other characters pass through for the simulator to report.
        assert_eq!(expand_runs("2x"), Ok("xx".into()));
        // A level titled by its number is not taken for moves.
        let e = parse_solutions(&format!("7\n{B}\nSolution\nr2(lr)\nR\n"));
        assert_eq!((e[0].title.as_deref(), e[0].moves.as_deref()), (Some("7"), Some("r2(lr)R")));
        assert_eq!(verify(&[level("b", None, B)], &e).0, vec![Check::Ok(sim::Replay { moves: 6, pushes: 1 })]);
    }

    #[test]
    fn sok_title_notes_and_untitled_maps() {
        let text = format!("{A}Title: First\nAuthor: X\n\nSolution/Moves\nR\n\n{B}\nSolution (pushes)\nr R\n");
        let e = parse_solutions(&text);
        assert_eq!((e[0].title.as_deref(), e[0].moves.as_deref()), (Some("First"), Some("R")));
        assert_eq!((e[1].title.as_deref(), e[1].moves.as_deref()), (None, Some("rR")));
    }

    #[test]
    fn levels_are_paired_by_map_then_title_and_replayed_on_the_collections_map() {
        let levels = [level("001", Some("a"), A), level("002", Some("b"), B), level("003", Some("c"), STUCK)];
        // Out of order, one wrong, one absent, one extra.
        let text = format!("b\n{B}\nSolution\nL\n\na\n{A}\nSolution\nR\n\nx\n{STUCK}#####\n\nSolution\nR\n");
        let entries = parse_solutions(&text);
        let (checks, unmatched) = verify(&levels, &entries);
        assert_eq!(checks[0], Check::Ok(sim::Replay { moves: 1, pushes: 1 }));
        assert!(matches!(&checks[1], Check::Wrong(e) if e.contains("walks into a wall")), "{:?}", checks[1]);
        assert!(matches!(&checks[2], Check::Missing(_)), "{:?}", checks[2]);
        assert_eq!(unmatched, [2]);
        // Same title, another map: the collection's map decides.
        let text = format!("c\n{A}\nSolution\nR\n");
        let (checks, _) = verify(&levels[2..], &parse_solutions(&text));
        assert!(matches!(&checks[0], Check::Wrong(e) if e.contains("another map")), "{:?}", checks[0]);
    }

    #[test]
    fn an_unsolved_entry_is_missing_with_its_reason() {
        let levels = [level("001", None, STUCK)];
        let text = format!("Stuck\n{STUCK}Unsolved: no solution exists (dead)\n");
        let (checks, _) = verify(&levels, &parse_solutions(&text));
        assert!(matches!(&checks[0], Check::Missing(e) if e.contains("no solution exists (dead)")), "{:?}", checks);
    }

    #[test]
    fn an_empty_solution_of_a_solved_map_is_ok() {
        let solved = "#####\n#@* #\n#####\n";
        let levels = [level("001", None, solved)];
        let (checks, _) = verify(&levels, &parse_solutions(&format!("Done\n{solved}\nSolution\n\n")));
        assert_eq!(checks[0], Check::Ok(sim::Replay { moves: 0, pushes: 0 }));
    }
}
