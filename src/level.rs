//! The text format in: XSB / Kattis map rows, validated with messages a person can act on.
//!
//! `#` wall, ` ` `-` `_` floor, `.` goal, `$` box, `*` box on goal, `@` player, `+` player
//! on goal. Rows may be ragged and end in CRLF; cells outside the given rows are walls.
//! A blank line (empty or only spaces) inside the map is a row of floor, and so are lines
//! of spaces just before and after it; other blank lines around the map are ignored, and
//! so are title and comment lines (see `text_start`) before and after it.

use std::fmt;

/// Largest map side accepted (columns or rows). Cells are indexed by `u16` downstream.
pub const MAX_SIDE: usize = 256;
/// Largest number of boxes accepted; the per-goal distance tables grow with it.
pub const MAX_BOXES: usize = 500;
/// Largest input accepted, in bytes, so a runaway pipe cannot exhaust memory.
pub const MAX_INPUT_BYTES: usize = 1 << 20;
/// Most cells that are not walls: the board numbers the player's area with `u16` and
/// keeps `u16::MAX` for "no cell". Only a 256 by 256 map without a wall has more, and
/// then every cell is in the player's area, so counting the open cells is exact.
pub const MAX_OPEN_CELLS: usize = u16::MAX as usize;

/// A parsed, validated map on its rectangular grid (row-major, `width * height` cells).
#[derive(Clone, Debug)]
pub struct Level {
    pub width: usize,
    pub height: usize,
    pub walls: Vec<bool>,
    pub goals: Vec<bool>,
    pub boxes: Vec<bool>,
    pub player: usize,
}

/// Why a map was rejected; `line`/`column` are 1-based positions in the input text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl ParseError {
    fn at(line: usize, column: usize, message: String) -> Self {
        ParseError { line: Some(line), column: Some(column), message }
    }
    fn whole(message: String) -> Self {
        ParseError { line: None, column: None, message }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {}, column {}: {}", l, c, self.message),
            (Some(l), None) => write!(f, "line {}: {}", l, self.message),
            _ => write!(f, "{}", self.message),
        }
    }
}

/// Where a title or comment line starts (1-based column): its first character that is
/// not a blank is a letter or `;`, which no map row has. Level files (.xsb, .sok) put such
/// lines (`Title: ...`, `; 12`, `Author: ...`) before or after the map.
fn text_start(line: &str) -> Option<usize> {
    let (column, first) = line.chars().enumerate().find(|&(_, c)| c != ' ' && c != '\t')?;
    (first.is_alphabetic() || first == ';').then_some(column + 1)
}

impl Level {
    pub fn parse(text: &str) -> Result<Level, ParseError> {
        if text.len() > MAX_INPUT_BYTES {
            return Err(ParseError::whole(format!(
                "input is {} bytes; the limit is {} bytes (one map per input)",
                text.len(),
                MAX_INPUT_BYTES
            )));
        }
        // Keep the input's own line numbers for messages; drop blank and text lines around
        // the map.
        let lines: Vec<(usize, &str)> =
            text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).enumerate().map(|(i, l)| (i + 1, l)).collect();
        let is_blank = |l: &str| l.trim().is_empty();
        let is_row = |l: &str| !is_blank(l) && text_start(l).is_none();
        let first = match lines.iter().position(|(_, l)| is_row(l)) {
            Some(f) => f,
            None if lines.iter().all(|(_, l)| is_blank(l)) => {
                return Err(ParseError::whole("empty input: no map given".into()))
            }
            None => return Err(ParseError::whole("no map given, only text (titles or comments)".into())),
        };
        let last = lines.iter().rposition(|(_, l)| is_row(l)).unwrap_or(first);
        // Lines of spaces just before and after the map are floor rows an open map may
        // need, with the blank lines between them and the map; other blank lines frame it.
        let spaces = |l: &str| l.bytes().all(|b| b == b' ');
        let typed = |&i: &usize| !lines[i].1.is_empty();
        let top = (0..first).rev().take_while(|&i| spaces(lines[i].1)).filter(typed).last().unwrap_or(first);
        let bottom = (last + 1..lines.len()).take_while(|&i| spaces(lines[i].1)).filter(typed).last().unwrap_or(last);
        let rows = &lines[top..=bottom];
        if let Some((line_no, column)) = rows.iter().find_map(|&(n, l)| text_start(l).map(|c| (n, c))) {
            return Err(ParseError::at(
                line_no,
                column,
                "a text line inside the map; titles and comments go before or after it (one map per input)".into(),
            ));
        }

        let height = rows.len();
        let width = rows.iter().map(|(_, l)| l.chars().count()).max().unwrap_or(0);
        if height > MAX_SIDE {
            return Err(ParseError::whole(format!("map has {} rows; the limit is {} rows", height, MAX_SIDE)));
        }
        if width > MAX_SIDE {
            let (line, _) = rows.iter().find(|(_, l)| l.chars().count() > MAX_SIDE).copied().unwrap_or((0, ""));
            return Err(ParseError::at(
                line,
                MAX_SIDE + 1,
                format!("row has {} columns; the limit is {} columns", width, MAX_SIDE),
            ));
        }

        let cells = width * height;
        let mut walls = vec![true; cells];
        let mut goals = vec![false; cells];
        let mut boxes = vec![false; cells];
        let mut player: Option<(usize, usize, usize)> = None; // (cell, line, column)
        let mut blank_line = None; // the last blank row's line number
        for (y, (line_no, row)) in rows.iter().enumerate() {
            if spaces(row) {
                // Floor across the map: editors strip trailing spaces, and the format has
                // no other use for a blank row.
                walls[y * width..(y + 1) * width].fill(false);
                blank_line = Some(*line_no);
            }
            for (x, ch) in row.chars().enumerate() {
                let i = y * width + x;
                let (wall, goal, boxed, man) = match ch {
                    '#' => (true, false, false, false),
                    ' ' | '-' | '_' => (false, false, false, false),
                    '.' => (false, true, false, false),
                    '$' => (false, false, true, false),
                    '*' => (false, true, true, false),
                    '@' => (false, false, false, true),
                    '+' => (false, true, false, true),
                    _ => {
                        return Err(ParseError::at(
                            *line_no,
                            x + 1,
                            format!("unexpected character {:?}; a map uses only '#', ' ', '.', '$', '*', '@', '+'", ch),
                        ))
                    }
                };
                walls[i] = wall;
                goals[i] = goal;
                boxes[i] = boxed;
                if man {
                    if let Some((_, l, c)) = player {
                        // A blank line between the two players most likely ends a first map.
                        let after = match blank_line.filter(|&b| b > l) {
                            Some(b) => format!(" after the blank line {} (one map per input)", b),
                            None => String::new(),
                        };
                        return Err(ParseError::at(
                            *line_no,
                            x + 1,
                            format!("a second player{}; the first is at line {}, column {}", after, l, c),
                        ));
                    }
                    player = Some((i, *line_no, x + 1));
                }
            }
        }
        let open = walls.iter().filter(|&&w| !w).count();
        if open > MAX_OPEN_CELLS {
            return Err(ParseError::whole(format!(
                "the map has {} cells that are not walls; the limit is {} (a 256 by 256 map needs a wall)",
                open, MAX_OPEN_CELLS
            )));
        }
        let player = match player {
            Some((p, _, _)) => p,
            None => return Err(ParseError::whole("no player ('@' or '+') in the map".into())),
        };
        let nboxes = boxes.iter().filter(|&&b| b).count();
        let ngoals = goals.iter().filter(|&&g| g).count();
        if nboxes != ngoals {
            let (b, g) = (crate::count(nboxes, "box", "boxes"), crate::count(ngoals, "goal", "goals"));
            return Err(ParseError::whole(format!("the map has {} but {}; they must be equal", b, g)));
        }
        if nboxes > MAX_BOXES {
            return Err(ParseError::whole(format!("the map has {} boxes; the limit is {} boxes", nboxes, MAX_BOXES)));
        }
        Ok(Level { width, height, walls, goals, boxes, player })
    }
}

/// One level of a collection file, for `sokoban solve` (see `split_collection`).
#[cfg(not(judge))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The title the file gives the level, if any.
    pub title: Option<String>,
    /// Line number (from 1) of the map's first row in the file.
    pub line: usize,
    /// The map rows, trailing blanks and CRs stripped, each ending in `\n`.
    pub map: String,
}

/// Is this collection line text (a title, comment or note) rather than a map row? What
/// `Level::parse` skips around a map (`text_start`), and also lines that start with a
/// character no map row starts with: collections put titles such as `1` or `"Tricky"`
/// and `::` comment banners there. A row is otherwise kept whole, so that a stray
/// character inside a map is reported with its line and column, not taken for a gap.
#[cfg(not(judge))]
fn is_note(line: &str) -> bool {
    let first = line.trim_start_matches([' ', '\t']).chars().next();
    text_start(line).is_some() || first.is_some_and(|c| !"#@+$*.-_".contains(c))
}

/// The value of a `Key: value` note (SOK's puzzle notes: `Title: ...`, `Author: ...`),
/// as (key, value); `None` for free text.
#[cfg(not(judge))]
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.trim().split_once(':')?;
    let word = !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    word.then(|| (key, value.trim()))
}

/// The title a note gives: a `Title:` note's value, or free text (a `;` comment's text
/// without the `;`); not another `Key: value` note or a `::` comment.
#[cfg(not(judge))]
fn title_text(line: &str) -> Option<String> {
    let t = line.trim();
    let text = match key_value(t) {
        Some((key, value)) if key.eq_ignore_ascii_case("title") => value,
        Some(_) => return None,
        None if t.starts_with("::") => return None,
        None => t.trim_start_matches(';').trim(),
    };
    Some(text.to_string()).filter(|t| !t.is_empty())
}

/// The levels of a collection in the common text format (.sok, .xsb, .txt): maps are
/// runs of row lines; blank lines and notes (`is_note`) separate them. A run with no
/// player, box or goal (a `#####` banner) is decoration, not a level.
///
/// Titles are a best guess, since files disagree on where they go. A `Title:` note
/// right after the map (SOK puts `Key: value` notes there) or right before it wins.
/// Otherwise the file's style decides: if more maps have a note right above them than
/// right below, a title is the last note before the map (`; 12` in .xsb, a title line
/// in .sok); else the first note right after it.
#[cfg(not(judge))]
pub fn split_collection(text: &str) -> Vec<Entry> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let is_blank = |i: usize| lines[i].trim().is_empty();
    // Each run of row lines as [start, end).
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if is_blank(i) || is_note(lines[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && !is_blank(i) && !is_note(lines[i]) {
            i += 1;
        }
        if lines[start..i].iter().any(|l| l.contains(['@', '+', '$', '*', '.'])) {
            runs.push((start, i));
        }
    }
    // The notes right above and right below each map (no blank line between).
    let above = |start: usize| -> Vec<&str> {
        let from = (0..start).rev().take_while(|&k| !is_blank(k) && is_note(lines[k])).last().unwrap_or(start);
        lines[from..start].to_vec()
    };
    let below = |end: usize| -> Vec<&str> {
        lines[end..].iter().take_while(|l| !l.trim().is_empty() && is_note(l)).copied().collect()
    };
    let titled = |notes: &[&str]| notes.iter().any(|l| title_text(l).is_some());
    let above_style = runs.iter().filter(|r| titled(&above(r.0))).count();
    let below_style = runs.iter().filter(|r| titled(&below(r.1))).count();
    let before = above_style >= below_style;
    let title_key = |notes: &[&str]| {
        let key = |l: &str| key_value(l).is_some_and(|(k, _)| k.eq_ignore_ascii_case("title"));
        notes.iter().filter(|l| key(l)).find_map(|l| title_text(l))
    };
    runs.iter()
        .enumerate()
        .map(|(n, &(start, end))| {
            let (up, down) = (above(start), below(end));
            let title = match title_key(&down).or_else(|| title_key(&up)) {
                Some(t) => Some(t),
                None if before => {
                    // The last note since the previous map, even across blank lines.
                    let from = if n == 0 { 0 } else { runs[n - 1].1 };
                    lines[from..start].iter().rev().find_map(|l| title_text(l))
                }
                None => down.iter().find_map(|l| title_text(l)),
            };
            let map = lines[start..end].iter().map(|l| format!("{}\n", l.trim_end())).collect();
            Entry { title, line: start + 1, map }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "########\n#   # .#\n#   $$.#\n####   #\n   #@ ##\n   ####\n";

    #[test]
    fn parses_sample() {
        let l = Level::parse(SAMPLE).unwrap();
        assert_eq!((l.width, l.height), (8, 6));
        assert_eq!(l.player, 4 * 8 + 4);
        assert_eq!(l.boxes.iter().filter(|&&b| b).count(), 2);
    }

    #[test]
    fn accepts_crlf_ragged_rows_and_blank_lines_around() {
        let text = "\r\n\n#####\r\n#@$.#\r\n###\r\n\r\n";
        let l = Level::parse(text).unwrap();
        assert_eq!((l.width, l.height), (5, 3));
        // Cells past a short row are walls.
        assert!(l.walls[2 * 5 + 4]);
    }

    /// A one-level .xsb or .sok file: titles and comments before and after the map.
    #[test]
    fn titles_and_comments_around_the_map_are_skipped() {
        let bare = Level::parse(SAMPLE).unwrap();
        let before = format!("; 1\nTitle: A sample\n  Author: someone\n\n{}", SAMPLE);
        let after = format!("{}\nTitle: A sample\n;comment\nÉlan\n", SAMPLE);
        for text in [before, after] {
            let l = Level::parse(&text).unwrap();
            assert_eq!((l.width, l.height, l.player), (bare.width, bare.height, bare.player));
            assert_eq!((&l.walls, &l.goals, &l.boxes), (&bare.walls, &bare.goals, &bare.boxes));
        }
    }

    /// The map: rows 2, 5 and 6 of an open 6 by 6 map are spaces only, and the
    /// box on row 4 can be pushed only from row 5.
    #[test]
    fn blank_rows_inside_and_lines_of_spaces_around_the_map_are_floor() {
        let six = "@     \n      \n  .   \n   $  \n      \n      \n";
        let l = Level::parse(six).unwrap();
        assert_eq!((l.width, l.height), (6, 6));
        assert!(l.walls.iter().all(|&w| !w));
        // An empty line inside the map is floor across it, as if its spaces were kept.
        let l = Level::parse("#@$ .#\n\n#    #\n").unwrap();
        assert_eq!((l.width, l.height), (6, 3));
        assert!((6..12).all(|i| !l.walls[i]));
        // Lines of spaces before and after, with the blank lines between them and the map;
        // empty lines beyond them, tab lines and text lines stop them.
        let l = Level::parse("\n  \n\n@$.\n \n\n").unwrap();
        assert_eq!((l.height, l.player), (4, 2 * 3));
        let l = Level::parse("Title: t\n   \n@$.\n\t\n   \n").unwrap();
        assert_eq!((l.height, l.player), (2, 3));
    }

    /// Blank lines between two maps no longer end the first, so the second player says it.
    #[test]
    fn a_second_map_after_a_blank_line_is_one_map_too_many() {
        let e = Level::parse("#####\n#@$.#\n#####\n\n#####\n#@$.#\n#####\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(6), Some(2)));
        assert!(e.message.contains("after the blank line 4 (one map per input)"), "{}", e);
        let e = Level::parse("#####\n#@$.#\n#@###\n").unwrap_err();
        assert!(!e.message.contains("blank"), "{}", e);
    }

    #[test]
    fn text_inside_the_map_or_only_text_is_rejected() {
        let two_maps = "Title: one\n#####\n#@$.#\n#####\nTitle: two\n#####\n#@$.#\n#####\n";
        let e = Level::parse(two_maps).unwrap_err();
        assert_eq!((e.line, e.column), (Some(5), Some(1)));
        assert!(e.message.contains("one map per input"), "{}", e);
        let e = Level::parse("#####\n#@$.#\n  ; here\n#####\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(3)));
        let e = Level::parse("Title: nothing\n; else\n").unwrap_err();
        assert!(e.to_string().contains("only text"), "{}", e);
    }

    #[test]
    fn every_invalid_class_has_a_message() {
        let cases: &[(&str, &str)] = &[
            ("", "empty input"),
            ("\n  \n\r\n", "empty input"),
            ("####\n#$.#\n####\n", "no player"),
            ("#####\n#@$.@#\n#####\n", "second player"),
            ("#####\n#@$$.#\n#####\n", "2 boxes but 1 goal;"),
            ("#####\n#@$..#\n#####\n", "1 box but 2 goals;"),
            ("#####\n#@$x.#\n#####\n", "unexpected character 'x'"),
        ];
        for (text, want) in cases {
            let e = Level::parse(text).unwrap_err();
            assert!(e.to_string().contains(want), "{:?} gave {:?}", text, e.to_string());
        }
    }

    #[test]
    fn positions_are_reported() {
        let e = Level::parse("\n#####\n#@$x.#\n#####\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(4)));
        let e = Level::parse("#####\n#@$.#\n#+###\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(2)));
    }

    #[test]
    fn size_limits_are_named() {
        let wide = format!("#@$.{}\n", " ".repeat(MAX_SIDE));
        assert!(Level::parse(&wide).unwrap_err().to_string().contains("limit is 256 columns"));
        let tall = "#@$.#\n".to_string() + &"#\n".repeat(MAX_SIDE);
        assert!(Level::parse(&tall).unwrap_err().to_string().contains("limit is 256 rows"));
        let huge = " ".repeat(MAX_INPUT_BYTES + 1);
        assert!(Level::parse(&huge).unwrap_err().to_string().contains("limit is"));
    }

    const A: &str = "#####\n#@$.#\n#####\n";
    const B: &str = "######\n#@ $.#\n######\n";

    fn titles(text: &str) -> Vec<Option<String>> {
        split_collection(text).into_iter().map(|e| e.title).collect()
    }

    fn some(t: &[&str]) -> Vec<Option<String>> {
        t.iter().map(|s| Some(s.to_string())).collect()
    }

    #[test]
    fn a_collection_splits_at_blank_and_text_lines_with_line_numbers() {
        let text = format!("; header\r\n\n{}\n\n{}", A.replace('\n', "  \r\n"), B);
        let levels = split_collection(&text);
        assert_eq!(levels.len(), 2);
        assert_eq!((levels[0].line, levels[0].map.as_str()), (3, A));
        assert_eq!((levels[1].line, levels[1].map.as_str()), (8, B));
        // Back to back, with a comment between: still two levels.
        let levels = split_collection(&format!("{}; two\n{}", A, B));
        assert_eq!(levels.iter().map(|e| e.map.as_str()).collect::<Vec<_>>(), [A, B]);
    }

    #[test]
    fn banners_numbers_and_sok_comments_are_not_levels() {
        let text = format!(":: a SOK comment ::\n##########\n\n1\n{}\n\"Two\"\n{}##########\n", A, B);
        let levels = split_collection(&text);
        assert_eq!(levels.len(), 2, "{:?}", levels);
        assert_eq!(titles(&text), some(&["1", "\"Two\""]));
    }

    #[test]
    fn a_stray_character_stays_in_its_map_and_is_reported_at_its_file_line() {
        let text = format!("; one\n{}\n; bad\n#####\n#@$x.#\n#####\n\n; three\n{}", A, B);
        let levels = split_collection(&text);
        assert_eq!(titles(&text), some(&["one", "bad", "three"]));
        let bad = &levels[1];
        let e = Level::parse(&bad.map).unwrap_err();
        assert_eq!((e.line.map(|l| l + bad.line - 1), e.column), (Some(8), Some(4)));
    }

    #[test]
    fn xsb_titles_before_the_maps() {
        let text = format!("; My collection\n\n; Level one\n{}; Level two\n{}", A, B);
        assert_eq!(titles(&text), some(&["Level one", "Level two"]));
        // A blank line between title and map, and notes after a map.
        let text = format!("Collection: X\n\n; 1\n\n{}Author: someone\n\n; 2\n\n{}", A, B);
        assert_eq!(titles(&text), some(&["1", "2"]));
    }

    #[test]
    fn xsb_titles_after_the_maps() {
        let text = format!("{}; 1\n\n{}; 2\n", A, B);
        assert_eq!(titles(&text), some(&["1", "2"]));
    }

    #[test]
    fn sok_title_notes_win_over_title_lines() {
        let text = format!("Level 1\n{}Title: First\nAuthor: X\n\nLevel 2\n{}Title: Second\n", A, B);
        assert_eq!(titles(&text), some(&["First", "Second"]));
        let text = format!("Title: First\n{}\nTitle: Second\n{}", A, B);
        assert_eq!(titles(&text), some(&["First", "Second"]));
    }

    #[test]
    fn untitled_levels_have_no_title() {
        assert_eq!(titles(&format!("{}\n\n{}", A, B)), [None, None]);
        assert_eq!(titles(&format!("Author: nobody\n{}", A)), [None]);
        assert!(split_collection("; nothing\n\n").is_empty());
    }

    /// A 256 by 256 map with one wall has 65,535 open cells, the most the board can
    /// number; without the wall it has one more and is refused, whatever else it holds.
    #[test]
    fn the_open_cell_limit_is_exact() {
        // Else a map could hold more open cells than its player's area, and be refused wrongly.
        const _: () = assert!(MAX_SIDE * MAX_SIDE <= MAX_OPEN_CELLS + 1);
        let mut rows = vec![" ".repeat(MAX_SIDE); MAX_SIDE];
        rows[0].replace_range(0..3, "@$.");
        rows[MAX_SIDE - 1].replace_range(0..1, "#");
        let l = Level::parse(&rows.join("\n")).unwrap();
        assert_eq!((l.width, l.height), (MAX_SIDE, MAX_SIDE));
        assert_eq!(l.walls.iter().filter(|&&w| !w).count(), MAX_OPEN_CELLS);
        rows[MAX_SIDE - 1].replace_range(0..2, "$.");
        let e = Level::parse(&rows.join("\n")).unwrap_err().to_string();
        assert!(e.contains("65536 cells that are not walls; the limit is 65535"), "{}", e);
    }
}
