//! Loading level sets: a folder of one-map files, or one collection file in
//! the usual community formats (.xsb/.sok/.txt text, .slc XML).
//!
//! Every map handed to a solver is normalised to the judge's format (rows
//! with trailing blanks stripped, `-`/`_` floor turned into spaces, `\n` line
//! ends), so solvers are compared on identical input whatever the source file
//! looked like.

use std::fs;
use std::path::Path;

#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    /// Stable key within the set (file name, or zero-padded index in a
    /// collection); used in the CSV, so it must not depend on titles.
    pub name: String,
    /// Title from the collection, for display only.
    pub title: Option<String>,
    /// Normalised map text, ending in a newline.
    pub map: String,
}

#[derive(Debug, Clone)]
pub struct LevelSet {
    pub name: String,
    pub levels: Vec<Level>,
}

/// File name extensions treated as one-map files inside a folder.
const MAP_EXTENSIONS: [&str; 3] = ["txt", "xsb", "sok"];

pub fn load(path: &Path) -> Result<LevelSet, String> {
    // A folder keeps its whole name (`sets.v2`), a file loses its extension.
    let base = if path.is_dir() { path.file_name() } else { path.file_stem() };
    let name = base
        .map(|s| s.to_string_lossy().into_owned())
        // `.` or `..` have no stem; fall back to the resolved folder name.
        .or_else(|| fs::canonicalize(path).ok().and_then(|p| p.file_name().map(|s| s.to_string_lossy().into_owned())))
        .unwrap_or_else(|| path.display().to_string());
    let levels = if path.is_dir() {
        load_dir(path)?
    } else {
        let text = read(path)?;
        let parsed = parse_collection(&text)?;
        let width = parsed.len().to_string().len().max(3);
        parsed
            .into_iter()
            .enumerate()
            .map(|(i, (title, map))| Level { name: format!("{:0width$}", i + 1, width = width), title, map })
            .collect()
    };
    if levels.is_empty() {
        return Err(format!("{}: no levels found", path.display()));
    }
    Ok(LevelSet { name, levels })
}

fn read(path: &Path) -> Result<String, String> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {}", path.display(), e))?;
    // Old collections are often Latin-1 in their comments; the map rows are
    // ASCII either way, so lossy decoding cannot change a map.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn load_dir(dir: &Path) -> Result<Vec<Level>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {}", dir.display(), e))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {}", dir.display(), e))?;
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let ext =
            Path::new(&file_name).extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        let is_readme = file_name.to_ascii_lowercase().starts_with("readme");
        if file_name.starts_with('.') || is_readme || !MAP_EXTENSIONS.contains(&ext.as_str()) {
            continue;
        }
        if entry.path().is_file() {
            files.push(file_name);
        }
    }
    files.sort();
    let mut levels = Vec::new();
    for file_name in files {
        let text = read(&dir.join(&file_name))?;
        let parsed = parse_collection(&text).map_err(|e| format!("{}: {}", dir.join(&file_name).display(), e))?;
        let several = parsed.len() > 1;
        for (i, (title, map)) in parsed.into_iter().enumerate() {
            // A "one-map" file that turns out to hold several levels still
            // gets stable, unique names.
            let name = if several { format!("{}#{}", file_name, i + 1) } else { file_name.clone() };
            levels.push(Level { name, title, map });
        }
    }
    Ok(levels)
}

/// Parse any supported collection text into (title, normalised map) pairs.
pub fn parse_collection(text: &str) -> Result<Vec<(Option<String>, String)>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let levels = if text.trim_start().starts_with('<') { parse_slc(text)? } else { parse_text(text) };
    if levels.is_empty() {
        return Err("no levels found".to_string());
    }
    Ok(levels)
}

fn is_map_char(c: char) -> bool {
    matches!(c, '#' | '@' | '+' | '$' | '*' | '.' | ' ' | '-' | '_')
}

/// A line is a map row if it holds only map characters and at least one
/// wall. Requiring a wall keeps titles such as "..." or "1" out of maps; any
/// closed level has a wall on every row.
pub fn is_map_row(line: &str) -> bool {
    let line = line.trim_end();
    !line.is_empty() && line.contains('#') && line.chars().all(is_map_char)
}

pub fn normalise(rows: &[&str]) -> String {
    let mut out = String::new();
    for row in rows {
        let row = row.trim_end();
        out.extend(row.chars().map(|c| if c == '-' || c == '_' { ' ' } else { c }));
        out.push('\n');
    }
    out
}

/// Text collections (.xsb, .sok, .txt, text .slc): levels are maximal runs of
/// map rows; everything else (blank lines, `;` comments, `Title:`/`Author:`
/// headers, free text) separates them.
///
/// Titles are best effort, since formats disagree on where they go: .sok puts
/// `Title:` after the map, many .xsb files put `; name` before it, others
/// after. If the file has `Title:` lines, or text follows its last map, titles
/// are taken from after each map; otherwise from before.
pub fn parse_text(text: &str) -> Vec<(Option<String>, String)> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    // Blocks of map rows, plus the metadata lines found between blocks
    // (gaps[i] precedes block i; gaps[blocks.len()] trails the last one).
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    let mut gaps: Vec<Vec<&str>> = vec![Vec::new()];
    let mut in_block = false;
    for line in &lines {
        if is_map_row(line) {
            if !in_block {
                blocks.push(Vec::new());
                in_block = true;
            }
            blocks.last_mut().expect("just pushed").push(line);
        } else {
            if in_block {
                gaps.push(Vec::new());
                in_block = false;
            }
            let meta = line.trim();
            if !meta.is_empty() {
                gaps.last_mut().expect("gaps is never empty").push(meta);
            }
        }
    }
    if in_block {
        gaps.push(Vec::new());
    }

    // Wall decorations (e.g. a "#####" banner) are blocks with no player.
    let real: Vec<usize> =
        (0..blocks.len()).filter(|&i| blocks[i].iter().any(|r| r.contains('@') || r.contains('+'))).collect();
    let has_title_lines = lines.iter().any(|l| title_field(l).is_some());
    let titles_follow = has_title_lines || !gaps[blocks.len()].is_empty();

    real.iter()
        .map(|&i| {
            let title = if titles_follow {
                let after = &gaps[i + 1];
                after.iter().find_map(|l| title_field(l)).or_else(|| {
                    if has_title_lines {
                        None
                    } else {
                        after.first().map(|l| clean_title(l))
                    }
                })
            } else {
                gaps[i].last().map(|l| clean_title(l))
            };
            (title.filter(|t| !t.is_empty()), normalise(&blocks[i]))
        })
        .collect()
}

/// The value of a `Title: x` line (case-insensitive key).
fn title_field(line: &str) -> Option<String> {
    let line = line.trim();
    let (key, value) = line.split_once(':')?;
    if key.trim().eq_ignore_ascii_case("title") {
        Some(value.trim().to_string())
    } else {
        None
    }
}

fn clean_title(line: &str) -> String {
    line.trim_start_matches(';').trim().to_string()
}

/// .slc (SokobanYASC XML): each `<Level Id="...">` holds `<L>row</L>` lines.
/// A tiny scanner is enough: the rows never contain markup, and pulling in an
/// XML parser is not an option (no crates).
pub fn parse_slc(text: &str) -> Result<Vec<(Option<String>, String)>, String> {
    let mut levels = Vec::new();
    let mut rest = text;
    while let Some(start) = find_tag(rest, "Level") {
        let after_open = &rest[start..];
        let tag_end = after_open.find('>').ok_or_else(|| "unterminated <Level> tag".to_string())?;
        let open_tag = &after_open[..tag_end];
        let body_start = start + tag_end + 1;
        let body_len = rest[body_start..].find("</Level>").ok_or_else(|| "missing </Level>".to_string())?;
        let body = &rest[body_start..body_start + body_len];
        let mut rows = Vec::new();
        let mut b = body;
        while let Some(pos) = find_tag(b, "L") {
            let tag = &b[pos..];
            let close = tag.find('>').ok_or_else(|| "unterminated <L> tag".to_string())?;
            if tag[..close].ends_with('/') {
                // <L/>: an empty row.
                rows.push(String::new());
                b = &tag[close + 1..];
                continue;
            }
            let content = &tag[close + 1..];
            let end = content.find("</L>").ok_or_else(|| "missing </L>".to_string())?;
            rows.push(unescape(&content[..end]));
            b = &content[end + 4..];
        }
        if !rows.is_empty() {
            let title = attribute(open_tag, "Id").filter(|t| !t.is_empty());
            let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
            levels.push((title, normalise(&refs)));
        }
        rest = &rest[body_start + body_len + "</Level>".len()..];
    }
    Ok(levels)
}

/// Byte offset of the next `<name` start tag (not `<names...`), or None.
fn find_tag(text: &str, name: &str) -> Option<usize> {
    let pattern = format!("<{}", name);
    let mut from = 0;
    while let Some(pos) = text[from..].find(&pattern) {
        let at = from + pos;
        let next = text[at + pattern.len()..].chars().next();
        if matches!(next, Some('>') | Some('/') | Some(' ') | Some('\t') | Some('\n') | Some('\r')) {
            return Some(at);
        }
        from = at + pattern.len();
    }
    None
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let pattern = format!("{}=", name);
    let pos = tag.find(&pattern)?;
    let value = &tag[pos + pattern.len()..];
    let quote = value.chars().next().filter(|&c| c == '"' || c == '\'')?;
    let end = value[1..].find(quote)?;
    Some(unescape(&value[1..1 + end]))
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    const MAP_A: &str = "#####\n#@$.#\n#####\n";
    const MAP_B: &str = "######\n#@ $.#\n######\n";

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("harness-coll-{}-{}", std::process::id(), tag));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn folder_of_one_map_files_sorted_readme_ignored() {
        let dir = temp_dir("folder");
        fs::write(dir.join("b.txt"), MAP_B).unwrap();
        fs::write(dir.join("a.xsb"), MAP_A.replace('\n', "\r\n")).unwrap();
        fs::write(dir.join("c.sok"), MAP_A).unwrap();
        fs::write(dir.join("README.md"), "# not a map\n").unwrap();
        fs::write(dir.join("README.txt"), "#### credits\n").unwrap();
        fs::write(dir.join("notes.json"), "{}").unwrap();
        fs::create_dir(dir.join("sub.txt")).unwrap();
        let set = load(&dir).unwrap();
        assert_eq!(set.name, format!("harness-coll-{}-folder", std::process::id()));
        let names: Vec<&str> = set.levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["a.xsb", "b.txt", "c.sok"]);
        // CRLF normalised away.
        assert_eq!(set.levels[0].map, MAP_A);
        assert_eq!(set.levels[1].map, MAP_B);
        // A dotted folder name is not cut at the dot.
        let dotted = dir.join("pack.v2");
        fs::create_dir(&dotted).unwrap();
        fs::write(dotted.join("x.txt"), MAP_A).unwrap();
        assert_eq!(load(&dotted).unwrap().name, "pack.v2");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn xsb_with_semicolon_titles_before_maps() {
        let text = format!("; My collection\n\n; Level one\n{}\n; Level two\n{}", MAP_A, MAP_B);
        let levels = parse_collection(&text).unwrap();
        assert_eq!(
            levels,
            vec![
                (Some("Level one".to_string()), MAP_A.to_string()),
                (Some("Level two".to_string()), MAP_B.to_string()),
            ]
        );
    }

    #[test]
    fn xsb_with_semicolon_titles_after_maps() {
        let text = format!("{}; 1\n\n{}; 2\n", MAP_A, MAP_B);
        let levels = parse_collection(&text).unwrap();
        assert_eq!(levels[0], (Some("1".to_string()), MAP_A.to_string()));
        assert_eq!(levels[1], (Some("2".to_string()), MAP_B.to_string()));
    }

    #[test]
    fn blank_line_separated_txt_with_dashes_and_trailing_spaces() {
        let text = "#####   \n#@$.#\n#####\n\n\n######\n#@-$.#\n######\n";
        let levels = parse_collection(text).unwrap();
        assert_eq!(levels.len(), 2);
        assert_eq!(levels[0], (None, MAP_A.to_string()));
        assert_eq!(levels[1], (None, MAP_B.to_string()));
    }

    #[test]
    fn sok_with_title_lines_after_maps() {
        let text = format!(
            "::::::::\nCollection: Test\nAuthor: Someone\n::::::::\n\n{}Title: First\nAuthor: X\n\n{}Title: Second\nComment:\nhard one\nComment-End:\n",
            MAP_A, MAP_B
        );
        let levels = parse_collection(&text).unwrap();
        assert_eq!(
            levels,
            vec![(Some("First".to_string()), MAP_A.to_string()), (Some("Second".to_string()), MAP_B.to_string()),]
        );
    }

    #[test]
    fn slc_xml_levels() {
        let text = r#"<?xml version="1.0" encoding="ISO-8859-1"?>
<SokobanLevels xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Title>Test &amp; more</Title>
  <Description>Two levels. 1 &lt; 2</Description>
  <LevelCollection Copyright="Nobody" MaxWidth="6" MaxHeight="3">
    <Level Id="Alpha &amp; Co" Width="5" Height="3">
      <L>#####</L>
      <L>#@$.#</L>
      <L>#####</L>
    </Level>
    <Level Id="Beta" Width="6" Height="3" Copyright="x">
      <L>######</L>
      <L>#@ $.#</L>
      <L>######</L>
    </Level>
  </LevelCollection>
</SokobanLevels>
"#;
        let levels = parse_collection(text).unwrap();
        assert_eq!(
            levels,
            vec![(Some("Alpha & Co".to_string()), MAP_A.to_string()), (Some("Beta".to_string()), MAP_B.to_string()),]
        );
    }

    #[test]
    fn collection_file_gets_indexed_names_and_file_stem() {
        let dir = temp_dir("file");
        let path = dir.join("pack.slc");
        // Text content with a .slc extension is parsed as text.
        fs::write(&path, format!("; a\n{}\n; b\n{}", MAP_A, MAP_B)).unwrap();
        let set = load(&path).unwrap();
        assert_eq!(set.name, "pack");
        assert_eq!(set.levels[0].name, "001");
        assert_eq!(set.levels[1].name, "002");
        assert_eq!(set.levels[1].title.as_deref(), Some("b"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn empty_collection_is_an_error() {
        assert!(parse_collection("; nothing here\n").is_err());
        // A wall banner without a player is decoration, not a level.
        assert!(parse_collection("##########\n").is_err());
    }

    #[test]
    fn shipped_samples_load_as_one_level_per_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/kth-samples");
        if !root.is_dir() {
            return;
        }
        let set = load(&root).unwrap();
        assert_eq!(set.name, "kth-samples");
        assert!(set.levels.iter().all(|l| !l.name.contains('#')));
        assert!(!set.levels.is_empty());
    }
}
