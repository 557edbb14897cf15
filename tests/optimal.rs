//! `--optimal` and `--push-costs` seen from outside: answers, costs on standard error,
//! exit codes and messages.
//!
//! Every answer is replayed by the independent simulator `tools/src/harness/sim.rs`; the
//! optima expected here are those of the brute force in `src/optimal/tests.rs`
//! (`the_metrics_part_ways_on_a_small_map` checks the same numbers there).

// sim.rs carries its own `#![allow(dead_code)]` (only `replay` is used here).
#[path = "../tools/src/harness/sim.rs"]
mod sim;

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_sokoban");

/// The goal is right below the box, but a wall above it forbids pushing it down: the
/// fewest pushes (3) walk round the box, the fewest moves (10) push it round instead (5).
const SPLIT: &str = "########\n#   #@ #\n#   $  #\n#   .  #\n########\n";

/// Two boxes, two goals: which box goes where depends on what pushing each costs.
const PAIR: &str = "#######\n#     #\n# $$@ #\n#  .. #\n#######\n";

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], map: &str) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
    // A broken pipe only means the binary stopped before reading (an option error).
    let _ = child.stdin.take().unwrap().write_all(map.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The answer's moves and pushes by the simulator, after checking it is one line.
fn replayed(map: &str, r: &Run) -> sim::Replay {
    let moves = r.stdout.strip_suffix('\n').unwrap_or_else(|| panic!("no newline: {:?}", r.stdout));
    assert!(!moves.contains('\n'), "more than one line: {:?}", r.stdout);
    sim::replay(map, moves).unwrap_or_else(|e| panic!("answer does not replay: {e}: {:?}", r.stdout))
}

/// What an answer costs when a move costs 1 and a push of box `i` (reading order)
/// `1 + costs[i]`, boxes followed by number on the map's grid (legal moves assumed:
/// `replayed` checks them).
fn weighted_cost(map: &str, moves: &str, costs: &[u64]) -> u64 {
    let rows: Vec<&[u8]> = map.lines().map(|l| l.as_bytes()).collect();
    let width = rows.iter().map(|r| r.len()).max().unwrap() as isize;
    let mut number = Vec::new();
    let mut player = 0;
    for row in &rows {
        for x in 0..width as usize {
            let c = row.get(x).copied().unwrap_or(b' ');
            if c == b'@' || c == b'+' {
                player = number.len() as isize;
            }
            number.push(None);
        }
    }
    let mut next = 0;
    for (i, c) in rows.iter().flat_map(|r| (0..width as usize).map(move |x| r.get(x).copied())).enumerate() {
        if matches!(c, Some(b'$') | Some(b'*')) {
            number[i] = Some(next);
            next += 1;
        }
    }
    let mut cost = 0;
    for ch in moves.trim_end().chars() {
        let step = match ch.to_ascii_uppercase() {
            'U' => -width,
            'D' => width,
            'L' => -1,
            _ => 1,
        };
        player += step;
        cost += 1;
        if let Some(b) = number[player as usize].take() {
            number[(player + step) as usize] = Some(b);
            cost += costs[b];
        }
    }
    cost
}

#[test]
fn each_metric_gets_its_own_optimum() {
    let r = run(&["--optimal", "pushes"], SPLIT);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(replayed(SPLIT, &r), sim::Replay { moves: 12, pushes: 3 });
    assert!(r.stderr.is_empty(), "nothing on standard error: {:?}", r.stderr);
    let r = run(&["--optimal", "moves"], SPLIT);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(replayed(SPLIT, &r), sim::Replay { moves: 10, pushes: 5 });
    // Without push costs the cheapest solution is the one of the fewest moves.
    let r = run(&["--optimal", "cost"], SPLIT);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(replayed(SPLIT, &r), sim::Replay { moves: 10, pushes: 5 });
    assert_eq!(r.stderr, "sokoban: cost 10\n");
    // A push that costs 3 more makes the fewest pushes cheapest: 12 + 3 * 3.
    let r = run(&["--optimal", "cost", "--push-costs", "3"], SPLIT);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(replayed(SPLIT, &r), sim::Replay { moves: 12, pushes: 3 });
    assert_eq!(r.stderr, "sokoban: cost 21\n");
}

#[test]
fn boxes_keep_their_numbers_and_costs() {
    for (costs, want) in [("0,0", 12), ("0,20", 32), ("20,0", 52), ("5,5", 32)] {
        let r = run(&["--optimal", "cost", "--push-costs", costs, "--lurd"], PAIR);
        assert_eq!(r.code, Some(0), "{costs}: {}", r.stderr);
        replayed(PAIR, &r);
        let per_box: Vec<u64> = costs.split(',').map(|c| c.parse().unwrap()).collect();
        assert_eq!(weighted_cost(PAIR, &r.stdout, &per_box), want, "{costs}: {:?}", r.stdout);
        assert_eq!(r.stderr, format!("sokoban: cost {want}\n"), "{costs}");
    }
}

#[test]
fn stats_report_the_proven_lower_bound() {
    let r = run(&["--optimal", "pushes", "--stats"], SPLIT);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stderr.contains("fewest pushes proven: 3"), "{}", r.stderr);
    assert!(r.stderr.contains("lower bound 3 pushes, 12 moves (proven"), "{}", r.stderr);
    assert!(r.stderr.contains("solution 12 moves, 3 pushes"), "{}", r.stderr);
}

/// Out of expansions after the normal solver's first solution: that solution is
/// printed, exit 4, and standard error says why and how far the proof got.
#[test]
fn a_solution_without_a_proof_exits_4() {
    let map =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/microban155/microban144.txt")).unwrap();
    let r = run(&["--optimal", "pushes", "--nodes", "300000", "-t", "60"], &map);
    assert_eq!(r.code, Some(4), "{}", r.stderr);
    let rep = replayed(&map, &r);
    let line = r.stderr.lines().last().unwrap();
    assert!(
        line.starts_with("sokoban: not proven optimal (no proof within 60 s or 300000 expansions; at least "),
        "{line}"
    );
    assert!(line.ends_with(&format!("this solution {} pushes, {} moves)", rep.pushes, rep.moves)), "{line}");
    // The lower bound is no more than the solution.
    let at_least: u64 = line.split("at least ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(at_least <= rep.pushes as u64, "{line}");
    // The cost is printed with the answer in cost mode.
    let r = run(&["--optimal", "cost", "--nodes", "300000", "-t", "60"], &map);
    assert_eq!(r.code, Some(4), "{}", r.stderr);
    let rep = replayed(&map, &r);
    assert!(
        r.stderr.starts_with(&format!("sokoban: cost {}\nsokoban: not proven optimal (", rep.moves)),
        "{}",
        r.stderr
    );
}

#[test]
fn no_solution_and_no_answer_are_exit_1() {
    // A box in a corner off its goal.
    let r = run(&["--optimal", "pushes"], "#####\n#$ .#\n#  @#\n#####\n");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert_eq!(r.stderr, "sokoban: no solution exists (the search space is exhausted)\n");
    // No expansions to spare: nothing found, nothing printed.
    let map =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/microban155/microban144.txt")).unwrap();
    let r = run(&["--optimal", "moves", "--nodes", "5"], &map);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert_eq!(r.stderr, "sokoban: no solution found within 10 s or 5 expansions\n");
}

#[test]
fn a_solved_map_costs_nothing() {
    let map = "#####\n#@* #\n#####\n";
    let r = run(&["--optimal", "cost", "--push-costs", "7"], map);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, "\n");
    assert_eq!(r.stderr, "sokoban: cost 0\n");
}

#[test]
fn bad_optimal_options_are_exit_2_and_named() {
    let cases: &[(&[&str], &str)] = &[
        (&["--optimal"], "sokoban: --optimal needs a value"),
        (&["--optimal", "fastest"], "sokoban: --optimal wants pushes, moves or cost, not \"fastest\""),
        (&["--push-costs", "3"], "sokoban: --push-costs needs --optimal cost"),
        (&["--optimal", "pushes", "--push-costs", "3"], "sokoban: --push-costs needs --optimal cost"),
        (&["--optimal", "cost", "--push-costs", "3,2"], "sokoban: --push-costs gives 2 costs, but the map has 1 box"),
        (&["--optimal", "cost", "--push-costs", "-1"], "sokoban: --push-costs: cost 1 is \"-1\""),
        (&["--optimal", "cost", "--push-costs", "x"], "sokoban: --push-costs: cost 1 is \"x\""),
        (&["--optimal", "cost", "--push-costs", "1.5"], "sokoban: --push-costs: cost 1 is \"1.5\""),
        (&["--optimal", "cost", "--push-costs", "1000001"], "sokoban: --push-costs: cost 1 is \"1000001\""),
    ];
    for (args, message) in cases {
        let r = run(args, "#####\n#@$.#\n#####\n");
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(r.stderr.starts_with(message), "{args:?}: {:?}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {:?}", r.stderr);
    }
    // The count is checked against every box of the map, those out of reach too.
    let r = run(&["--optimal", "cost", "--push-costs", "1,2"], "######\n#@$.##\n######\n#*   #\n######\n");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stderr, "sokoban: cost 2\n");
}

#[test]
fn help_documents_the_options_and_exit_4() {
    let r = run(&["--help"], "");
    assert_eq!(r.code, Some(0));
    for word in ["--optimal METRIC", "--push-costs LIST", "pushes", "moves", "cost"] {
        assert!(r.stdout.contains(word), "--help lacks {word:?}");
    }
    assert!(r.stdout.lines().any(|l| l.trim_start().starts_with("4  --optimal")), "--help lacks exit code 4");
}

/// `--progress` with `--optimal`: the bounds proven on the way, each at most the optimum
/// of its metric (3 pushes, 10 moves on `SPLIT`), and the answer undisturbed.
#[test]
fn progress_shows_the_bounds_proven_on_the_way() {
    let r = run(&["--optimal", "moves", "--progress"], SPLIT);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!((replayed(SPLIT, &r).moves, replayed(SPLIT, &r).pushes), (10, 5), "{}", r.stderr);
    let bounds: Vec<(u64, &str)> = r
        .stderr
        .lines()
        .filter_map(|l| l.split_once(" s: at least ").map(|(_, rest)| rest))
        .map(|rest| {
            let mut words = rest.split_whitespace();
            (words.next().unwrap().parse().unwrap(), words.next().unwrap())
        })
        .collect();
    assert!(bounds.iter().any(|&(_, unit)| unit == "moves"), "no bound on the moves: {}", r.stderr);
    for (n, unit) in bounds {
        let most = if unit == "pushes" { 3 } else { 10 };
        assert!(n <= most, "at least {n} {unit}, above the optimum: {}", r.stderr);
    }
}
