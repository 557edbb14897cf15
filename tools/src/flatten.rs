//! The judge file as one module: the bundle's inline modules opened up into the crate root.
//!
//! Module walls cost the judge file about 5 KB: a `pub` on everything another module
//! uses, the `use crate::...` lines that bring names in, the paths that name a module
//! (`schedule::RESERVE`) and the type aliases declared again in each module. With every
//! item in the root, none of that is needed: the walls, the visibility, the crate's own
//! `use` lines and its module paths go, and the `use` lines of the standard library are
//! gathered, one per name, at the top.
//!
//! That is sound only where the modules declare no name twice at their top level (two
//! `Key`s would then clash) and import no name from two places: the pass checks both and
//! refuses with the names, to be made distinct in `src/`. A module that has attributes
//! (`#[...] mod x {`, `#![...]` inside) is refused too: they would land on other items.

use crate::minify::{past_inner_attributes, Kind, Token};

/// The paths of the standard library (its imports are kept); any other `use` names the
/// crate's own items, which all live in the root afterwards.
const STD_CRATES: &[&str] = &["std", "core", "alloc"];

/// Item keywords whose next word is the item's name.
const ITEMS: &[&str] = &["fn", "struct", "enum", "const", "static", "type", "trait", "union"];

/// `tokens` (a bundle whose `cfg`s are settled) with its inline modules opened into the root.
pub fn flatten(tokens: Vec<Token<'_>>) -> Result<Vec<Token<'_>>, String> {
    let text = |k: usize| tokens.get(k).map_or("", |t| t.text);
    let word = |k: usize| tokens.get(k).is_some_and(|t| t.kind == Kind::Word);
    let opens_module = |k: usize| text(k) == "mod" && word(k + 1) && text(k + 2) == "{";
    let path_sep = |k: usize| text(k) == ":" && text(k + 1) == ":" && !tokens.get(k + 1).is_some_and(|t| t.spaced);
    let modules: std::collections::HashSet<&str> =
        (0..tokens.len()).filter(|&k| opens_module(k)).map(|k| text(k + 1)).collect();

    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut std_uses: Vec<(String, Vec<Token>)> = Vec::new();
    let mut declared: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    // The module path, and the brace depth of each open module's body (0: the root).
    let mut path: Vec<&str> = Vec::new();
    let mut bodies: Vec<usize> = vec![0];
    let mut depth = 0usize;
    // Tokens were dropped before the next one: it keeps a gap, in case it needs one
    // (`return crate::f()` must not become `returnf()`).
    let mut gap = false;
    let mut k = 0;
    while k < tokens.len() {
        let t = &tokens[k];
        let at_top = depth == *bodies.last().unwrap_or(&0);
        if opens_module(k) {
            if outer_attribute_ends(&out) {
                return Err(format!("module {}: attributes on a module would land on another item", text(k + 1)));
            }
            if text(k + 3) == "#" && text(k + 4) == "!" {
                return Err(format!("module {}: inner attributes would land on another item", text(k + 1)));
            }
            path.push(text(k + 1));
            depth += 1;
            bodies.push(depth);
            (k, gap) = (k + 3, true);
            continue;
        }
        if t.kind == Kind::Punct && t.text == "}" && bodies.len() > 1 && at_top {
            bodies.pop();
            path.pop();
            depth -= 1;
            (k, gap) = (k + 1, true);
            continue;
        }
        // Visibility: everything is in one module. `pub(crate)` and the like go whole; in
        // `struct S(pub (u8, u8))` the parentheses are the field's type.
        if t.kind == Kind::Word && t.text == "pub" {
            k += 1;
            if text(k) == "(" && matches!(text(k + 1), "crate" | "self" | "super" | "in") {
                k = (k..tokens.len()).find(|&j| text(j) == ")").ok_or("`pub(` without `)`")? + 1;
            }
            gap = true;
            continue;
        }
        if at_top && t.kind == Kind::Word && t.text == "use" {
            let end = (k..tokens.len()).find(|&j| text(j) == ";").ok_or("a `use` without `;`")?;
            let first = if path_sep(k + 1) { text(k + 3) } else { text(k + 1) };
            if STD_CRATES.contains(&first) {
                for (name, line) in use_leaves(&tokens[k + 1..end])? {
                    match std_uses.iter().find(|(n, _)| *n == name) {
                        Some((_, other)) if render_path(other) != render_path(&line) => {
                            return Err(format!("`{name}` is imported from two places"));
                        }
                        Some(_) => {}
                        None => std_uses.push((name, line)),
                    }
                }
            }
            (k, gap) = (end + 1, true);
            continue;
        }
        // A name, not `const fn` nor a generic `<const N: usize>`.
        let generic = out.last().is_some_and(|p| matches!(p.text, "<" | ","));
        if at_top
            && t.kind == Kind::Word
            && ITEMS.contains(&t.text)
            && word(k + 1)
            && !ITEMS.contains(&text(k + 1))
            && !generic
        {
            let name = text(k + 1);
            let here = if path.is_empty() { "the crate root".to_string() } else { path.join("::") };
            if let Some(other) = declared.insert(name, here.clone()) {
                return Err(format!("`{name}` is declared in {other} and in {here}: one needs another name"));
            }
        }
        // A path's leading `crate::`, `super::`, `self::` or module name goes: the item is in
        // the root. Not after `::` or `.` (a later segment, a method), nor before a
        // turbofish; a path through several modules loses each in turn.
        // (The tokenizer gives `::` as two `:`.)
        let after_segment = out.last().is_some_and(|p| p.text == ".")
            || (out.len() >= 2
                && out[out.len() - 1].text == ":"
                && out[out.len() - 2].text == ":"
                && !out[out.len() - 1].spaced);
        let leads_path = t.kind == Kind::Word
            && path_sep(k + 1)
            && text(k + 3) != "<"
            && !after_segment
            && (matches!(t.text, "crate" | "super" | "self") || modules.contains(t.text));
        if leads_path {
            (k, gap) = (k + 3, true);
            continue;
        }
        match t.text {
            "{" if t.kind == Kind::Punct => depth += 1,
            "}" if t.kind == Kind::Punct => depth = depth.saturating_sub(1),
            _ => {}
        }
        out.push(Token { spaced: t.spaced || gap, ..t.clone() });
        gap = false;
        k += 1;
    }
    let mut head = Vec::new();
    for (_, line) in std_uses {
        head.push(Token { text: "use", kind: Kind::Word, spaced: true });
        head.extend(line);
        head.push(Token { text: ";", kind: Kind::Punct, spaced: false });
    }
    // The imports go after the crate's inner attributes, which must come first.
    let at = past_inner_attributes(&out, 0);
    out.splice(at..at, head);
    Ok(out)
}

/// Do `tokens` end with an outer attribute (`#[...]`, not the crate's `#![...]`)?
fn outer_attribute_ends(tokens: &[Token]) -> bool {
    if tokens.last().map_or(true, |t| t.text != "]") {
        return false;
    }
    let mut depth = 0;
    for i in (0..tokens.len()).rev() {
        match tokens[i].text {
            "]" => depth += 1,
            "[" => {
                depth -= 1;
                if depth == 0 {
                    return i == 0 || tokens[i - 1].text != "!";
                }
            }
            _ => {}
        }
    }
    true
}

/// A path's text, to tell two imports of one name apart.
fn render_path(tokens: &[Token]) -> String {
    tokens.iter().map(|t| t.text).collect()
}

/// The names a use tree (`std::time::{Duration, Instant}`, without `use` and `;`) imports,
/// each with the tree of its own import (`std::time::Instant`, `std::fmt::Write as _`).
fn use_leaves<'a>(tree: &[Token<'a>]) -> Result<Vec<(String, Vec<Token<'a>>)>, String> {
    let mut leaves = Vec::new();
    walk(tree, &mut Vec::new(), &mut leaves)?;
    Ok(leaves)
}

fn walk<'a>(
    tree: &[Token<'a>],
    prefix: &mut Vec<Token<'a>>,
    leaves: &mut Vec<(String, Vec<Token<'a>>)>,
) -> Result<(), String> {
    let Some(brace) = tree.iter().position(|t| t.text == "{") else {
        let mut full = prefix.clone();
        full.extend(tree.iter().cloned());
        let name = match full.iter().rposition(|t| t.text == "as") {
            Some(i) => full.get(i + 1).map_or("", |t| t.text),
            None => full.last().map_or("", |t| t.text),
        };
        // `a::{self}` imports `a` itself.
        if name == "self" {
            // `self` goes, and the `::` before it (two `:` tokens).
            full.pop();
            while full.last().is_some_and(|t| t.text == ":") {
                full.pop();
            }
            let last = full.last().map_or("", |t| t.text).to_string();
            leaves.push((last, full));
        } else if name == "*" {
            return Err("a glob import of the standard library: its names cannot be checked".into());
        } else if name != "_" {
            leaves.push((name.to_string(), full));
        } else {
            let text: String = full.iter().map(|t| t.text).collect();
            leaves.push((text, full));
        }
        return Ok(());
    };
    let inner = &tree[brace + 1..tree.len() - 1];
    let depth_before = prefix.len();
    prefix.extend(tree[..brace].iter().cloned());
    let mut depth = 0;
    let mut start = 0;
    for (i, t) in inner.iter().enumerate() {
        match t.text {
            "{" => depth += 1,
            "}" => depth -= 1,
            "," if depth == 0 => {
                if i > start {
                    walk(&inner[start..i], prefix, leaves)?;
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if inner.len() > start {
        walk(&inner[start..], prefix, leaves)?;
    }
    prefix.truncate(depth_before);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::minify::minify;
    use crate::minify::tests::{run, temp_dir};

    /// Modules with `pub` items, `use` lines of the crate and of std (the same names from
    /// two modules), module paths (several deep, after `return`, beside a turbofish and a
    /// method of the same name as a module): one module, no `pub`, no `mod`, no `crate::`,
    /// each std name imported once, and the program prints what the original prints.
    #[test]
    fn modules_open_into_one_and_mean_the_same() {
        let src = r#"
#![allow(dead_code)]
mod clock {
    use std::time::Instant;
    pub fn started() -> Instant { Instant::now() }
    pub mod inner {
        pub(crate) const LIMIT: u64 = 7;
        pub fn sum(v: &[u64]) -> u64 { v.iter().sum::<u64>() + super::super::rooms::ROOMS + super::Pair(1, (2, 3)).1 .1 }
    }
    pub struct Pair(pub u64, pub (u64, u64));
    mod empty {}
}
mod rooms {
    use std::time::{Duration, Instant};
    use std::fmt::{self, Write as _};
    use crate::clock::{self, inner::LIMIT};
    pub const ROOMS: u64 = 2;
    pub struct Room { pub size: u64 }
    impl fmt::Display for Room {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { let mut s = String::new(); write!(s, "{}", self.size)?; f.write_str(&s) }
    }
    pub fn wait() -> Duration { let t: Instant = clock::started(); t.elapsed().min(Duration::from_secs(LIMIT)) }
    pub fn total(rooms: &[Room]) -> u64 {
        return crate::clock::inner::sum(&rooms.iter().map(|r| r.size).collect::<Vec<_>>());
    }
}
use rooms::Room;
fn main() {
    let rooms = [Room { size: 3 }, rooms::Room { size: 4 }];
    let _ = rooms::wait();
    println!("{} {} {}", rooms::total(&rooms), crate::clock::inner::LIMIT, rooms[1]);
}
"#;
        let small = minify(src).unwrap();
        for gone in ["pub", "mod ", "crate", "super"] {
            assert!(!small.contains(gone), "{gone} in {small}");
        }
        assert_eq!(small.matches("Instant;").count(), 1, "{small}");
        assert_eq!(small.matches("Duration;").count(), 1, "{small}");
        let dir = temp_dir("flat");
        assert_eq!(run(&dir, "flat", &small, false), run(&dir, "original", src, false));
        assert_eq!(run(&dir, "flat", &small, false), "12 7 4\n");
        let _ = std::fs::remove_dir_all(dir);
    }

    /// What one module cannot hold is refused, with the names: an item declared in two
    /// modules, a name imported from two places, a module's attributes.
    #[test]
    fn what_one_module_cannot_hold_is_refused() {
        let twice = "mod a { pub struct Key; } mod b { pub struct Key; } fn main() {}";
        let err = minify(twice).unwrap_err();
        assert!(err.contains("Key") && err.contains('a') && err.contains('b'), "{err}");
        let two_writes = "mod a { use std::fmt::Write; } mod b { use std::io::Write; } fn main() {}";
        assert!(minify(two_writes).unwrap_err().contains("Write"));
        assert!(minify("#[allow(unused)] mod a { fn f() {} } fn main() {}").is_err());
        assert!(minify("mod a { #![allow(unused)] fn f() {} } fn main() {}").is_err());
        // Generic constants and `const fn` are not items of the module.
        let generic = "mod a { pub const fn n<const N: usize>() -> usize { N } } mod b { pub fn m<const N: usize>() -> usize { N } } fn main() {}";
        assert!(minify(generic).is_ok());
    }
}
