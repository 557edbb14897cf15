//! The optimal search against the truth: on thousands of small random rooms, a brute
//! force written here from the map text alone (Dijkstra over single steps, boxes told
//! apart by number) gives the optimum of each metric, and every answer is replayed here
//! on the text's own grid.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::*;
use crate::testing::Rooms;

const METRICS: [Metric; 3] = [Metric::Pushes, Metric::Moves, Metric::Cost];

/// A map read from its text: walls, goals, boxes by number (reading order), player.
struct Grid {
    width: isize,
    wall: Vec<bool>,
    goal: Vec<bool>,
    boxes: Vec<usize>,
    player: usize,
}

impl Grid {
    fn new(text: &str) -> Grid {
        let rows: Vec<&[u8]> = text.lines().map(|l| l.as_bytes()).collect();
        let width = rows.iter().map(|r| r.len()).max().unwrap();
        let (mut wall, mut goal, mut boxes, mut player) = (Vec::new(), Vec::new(), Vec::new(), 0);
        for row in &rows {
            for x in 0..width {
                let ch = row.get(x).copied().unwrap_or(b'#');
                if matches!(ch, b'$' | b'*') {
                    boxes.push(wall.len());
                }
                if matches!(ch, b'@' | b'+') {
                    player = wall.len();
                }
                wall.push(ch == b'#');
                goal.push(matches!(ch, b'.' | b'*' | b'+'));
            }
        }
        Grid { width: width as isize, wall, goal, boxes, player }
    }

    fn step(&self, at: usize, dir: usize) -> usize {
        (at as isize + [-self.width, self.width, -1, 1][dir]) as usize
    }
}

/// The cost of one step in `metric`, compared in order: a walk, or a push of a box
/// that costs `c` extra.
fn step_cost(metric: Metric, push: Option<u64>) -> (u64, u64) {
    match (metric, push) {
        (Metric::Pushes, None) => (0, 1),
        (Metric::Pushes, Some(_)) => (1, 1),
        (Metric::Moves, None) => (1, 0),
        (Metric::Moves, Some(_)) => (1, 1),
        (Metric::Cost, None) => (1, 0),
        (Metric::Cost, Some(c)) => (1 + c, 1),
    }
}

/// The best (metric, tie-break) of any solution, by Dijkstra over (player, boxes by
/// number); `None` if there is none.
fn brute_force(grid: &Grid, metric: Metric, costs: &[u64]) -> Option<(u64, u64)> {
    type State = (usize, Vec<usize>);
    let start: State = (grid.player, grid.boxes.clone());
    let mut best: HashMap<State, (u64, u64)> = HashMap::from([(start.clone(), (0, 0))]);
    let mut heap = BinaryHeap::from([Reverse(((0, 0), start))]);
    while let Some(Reverse((cost, (player, boxes)))) = heap.pop() {
        if best[&(player, boxes.clone())] < cost {
            continue;
        }
        if boxes.iter().all(|&b| grid.goal[b]) {
            return Some(cost);
        }
        for d in 0..4 {
            let next = grid.step(player, d);
            if grid.wall[next] {
                continue;
            }
            let mut moved = boxes.clone();
            let push = match boxes.iter().position(|&b| b == next) {
                Some(i) => {
                    let beyond = grid.step(next, d);
                    if grid.wall[beyond] || boxes.contains(&beyond) {
                        continue;
                    }
                    moved[i] = beyond;
                    Some(costs.get(i).copied().unwrap_or(0))
                }
                None => None,
            };
            let (a, b) = step_cost(metric, push);
            let c = (cost.0 + a, cost.1 + b);
            let state = (next, moved);
            if best.get(&state).map_or(true, |&old| c < old) {
                best.insert(state.clone(), c);
                heap.push(Reverse((c, state)));
            }
        }
    }
    None
}

/// Replay `moves` on the grid; the (metric, tie-break) they cost, or why they are wrong.
fn replay(grid: &Grid, metric: Metric, costs: &[u64], moves: &[Move]) -> Result<(u64, u64), String> {
    let (mut player, mut boxes) = (grid.player, grid.boxes.clone());
    let mut cost = (0, 0);
    for (k, m) in moves.iter().enumerate() {
        let d = m.dir as usize;
        let next = grid.step(player, d);
        if grid.wall[next] {
            return Err(format!("move {} walks into a wall", k + 1));
        }
        let push = match boxes.iter().position(|&b| b == next) {
            Some(i) => {
                let beyond = grid.step(next, d);
                if grid.wall[beyond] || boxes.contains(&beyond) {
                    return Err(format!("move {} pushes a box into a wall or box", k + 1));
                }
                boxes[i] = beyond;
                Some(costs.get(i).copied().unwrap_or(0))
            }
            None => None,
        };
        let (a, b) = step_cost(metric, push);
        cost = (cost.0 + a, cost.1 + b);
        player = next;
    }
    if !boxes.iter().all(|&b| grid.goal[b]) {
        return Err("boxes left off goals".into());
    }
    Ok(cost)
}

fn budget(nodes: u64) -> Budget {
    Budget::nodes(nodes, 16 << 20)
}

/// Solve `text` for `metric` and check the answer against the brute force; the number
/// of solvable cases seen (0 or 1).
fn check(text: &str, metric: Metric, costs: &[u64], first: Option<&Options>) -> usize {
    let level = Level::parse(text).unwrap();
    let grid = Grid::new(text);
    let want = brute_force(&grid, metric, costs);
    let report = solve(&level, metric, costs, first, &budget(1 << 40));
    match (&report.answer, want) {
        (Answer::Optimal(moves), Some(want)) => {
            let got = replay(&grid, metric, costs, moves).unwrap_or_else(|e| panic!("{:?}: {}\n{}", metric, e, text));
            assert_eq!(got, want, "{:?} costs {:?}: not optimal\n{}", metric, costs, text);
            assert_eq!(unpack(report.lower), want, "{:?}: the lower bound is the optimum\n{}", metric, text);
            if let Some(p) = report.fewest_pushes {
                let fewest =
                    if metric == Metric::Pushes { want } else { brute_force(&grid, Metric::Pushes, &[]).unwrap() };
                assert_eq!(p, fewest.0, "{:?}: the fewest pushes\n{}", metric, text);
            }
            1
        }
        (Answer::NoSolution(_), None) => 0,
        (answer, want) => {
            panic!("{:?} costs {:?}: {:?}, but the optimum is {:?}\n{}", metric, costs, answer, want, text)
        }
    }
}

#[test]
fn random_rooms_get_the_brute_force_optimum_in_every_metric() {
    let mut rooms = Rooms::new(0x0b71_a150_c0ba_1101);
    let (mut maps, mut solvable) = (0, 0);
    while maps < 4000 {
        // Two or three boxes in rooms of up to 5x4, some on goals at the start (random
        // boxes are mostly dead).
        let marks: &[&[u8]] = &[b"@$$..", b"@*$.", b"@$$$...", b"@**$.", b"@*$$.."];
        let Some((_, text)) = rooms.room(5, 4, 6, 8, marks[maps % marks.len()]) else { continue };
        maps += 1;
        let boxes = text.bytes().filter(|&c| c == b'$' || c == b'*').count();
        // Costs with repeats, so that boxes of one cost share a class.
        let costs: Vec<u64> = (0..boxes).map(|_| [0, 0, 1, 4, 9][rooms.below(5) as usize]).collect();
        for metric in METRICS {
            let costs: &[u64] = if metric == Metric::Cost { &costs } else { &[] };
            solvable += check(&text, metric, costs, None);
        }
    }
    assert!(solvable >= 1800, "only {} solvable cases", solvable);
}

/// The same with the normal solver's first solution as the cost to beat: the search
/// must still prove (or improve on) it.
#[test]
fn a_first_solution_from_the_normal_solver_is_beaten_or_proven() {
    let mut rooms = Rooms::new(0x5eed_f125_7501);
    let (mut maps, mut solvable) = (0, 0);
    let options = Options::default();
    while maps < 400 {
        let Some((_, text)) = rooms.room(6, 4, 6, 8, [&b"@$$.."[..], b"@*$$.."][maps % 2]) else { continue };
        maps += 1;
        let costs: Vec<u64> = (0..3).map(|_| rooms.below(6)).collect();
        for metric in METRICS {
            let boxes = text.bytes().filter(|&c| c == b'$' || c == b'*').count();
            let costs: &[u64] = if metric == Metric::Cost { &costs[..boxes] } else { &[] };
            solvable += check(&text, metric, costs, Some(&options));
        }
    }
    assert!(solvable >= 150, "only {} solvable cases", solvable);
}

/// Cut short, the search still reports a lower bound no greater than the optimum, and
/// any answer it prints is a solution.
#[test]
fn a_search_cut_short_reports_a_true_lower_bound() {
    let mut rooms = Rooms::new(0x10e7_b0d5);
    let (mut maps, mut cut) = (0, 0);
    while maps < 400 {
        let Some((_, text)) = rooms.room(6, 5, 8, 10, b"@$$$...") else { continue };
        maps += 1;
        let level = Level::parse(&text).unwrap();
        let grid = Grid::new(&text);
        for metric in [Metric::Pushes, Metric::Moves] {
            let Some(want) = brute_force(&grid, metric, &[]) else { continue };
            let report = solve(&level, metric, &[], Some(&Options::default()), &budget(40));
            let lower = unpack(report.lower);
            assert!(lower <= want, "{:?}: bound {:?} above the optimum {:?}\n{}", metric, lower, want, text);
            match &report.answer {
                Answer::Optimal(moves) => assert_eq!(replay(&grid, metric, &[], moves), Ok(want), "{}", text),
                Answer::Unproven(moves, Limit::Time) => {
                    cut += 1;
                    let got = replay(&grid, metric, &[], moves).unwrap();
                    assert!(got >= want, "{}", text);
                }
                Answer::NotFound(Limit::Time) => cut += 1,
                other => panic!("{:?}: {:?}\n{}", metric, other, text),
            }
        }
    }
    assert!(cut >= 50, "only {} searches cut short", cut);
}

/// On real levels: the fewest pushes take no fewer moves than the fewest moves, and the
/// fewest moves take no fewer pushes than the fewest pushes.
#[test]
fn pushes_and_moves_optima_bound_each_other_on_microban() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/microban155");
    for i in 1..=12 {
        let text = std::fs::read_to_string(dir.join(format!("microban{:03}.txt", i))).unwrap();
        let level = Level::parse(&text).unwrap();
        let solve_for = |metric| {
            let r = solve(&level, metric, &[], None, &Budget::nodes(1 << 40, 64 << 20));
            assert!(matches!(r.answer, Answer::Optimal(_)), "microban {}: {:?}", i, r.answer);
            r.tally
        };
        let (p, m) = (solve_for(Metric::Pushes), solve_for(Metric::Moves));
        assert!(p.pushes <= m.pushes && m.moves <= p.moves, "microban {}: {:?} {:?}", i, p, m);
        // Without push costs, the cheapest solution is the one with the fewest moves.
        assert_eq!(solve_for(Metric::Cost).moves, m.moves, "microban {}", i);
    }
}

#[test]
fn push_costs_are_whole_numbers_within_the_limit() {
    assert_eq!(parse_costs("0,5, 7"), Ok(vec![0, 5, 7]));
    assert_eq!(parse_costs("1000000"), Ok(vec![MAX_PUSH_COST]));
    for bad in ["", "1,,2", "-1", "1,-2", "x", "1.5", "+3", "1000001", "1;2"] {
        let e = parse_costs(bad).unwrap_err();
        assert!(e.starts_with("--push-costs: cost "), "{:?}: {}", bad, e);
    }
    assert!(parse_costs("4,-2").unwrap_err().contains("cost 2 is \"-2\""));
    assert_eq!(parse_metric("moves"), Ok(Metric::Moves));
    assert!(parse_metric("boxes").is_err());
}

#[test]
fn a_wrong_number_of_costs_is_named() {
    let level = Level::parse("#######\n#@$ $.#\n#    .#\n#######\n").unwrap();
    let r = solve(&level, Metric::Cost, &[1, 2, 3], None, &budget(1000));
    assert_eq!(r.answer, Answer::BadOptions("--push-costs gives 3 costs, but the map has 2 boxes".into()));
}

/// Boxes keep their numbers as they move: the dear box is pushed as little as can be,
/// even when that takes more moves.
#[test]
fn a_dear_box_is_pushed_least() {
    // Box 1 (left) can go to either goal; box 2 (right) too. Pushing box 1 far is cheap
    // only if it costs nothing.
    let text = "########\n#. $  .#\n#  @ $ #\n#      #\n########\n";
    let level = Level::parse(text).unwrap();
    let grid = Grid::new(text);
    for costs in [[0, 0], [50, 0], [0, 50]] {
        let r = solve(&level, Metric::Cost, &costs, None, &budget(1 << 30));
        let Answer::Optimal(moves) = &r.answer else { panic!("{:?}", r.answer) };
        let want = brute_force(&grid, Metric::Cost, &costs).unwrap();
        assert_eq!(replay(&grid, Metric::Cost, &costs, moves), Ok(want), "costs {:?}", costs);
        assert_eq!(r.tally.cost, want.0);
    }
}

#[test]
fn tally_counts_moves_pushes_and_each_boxs_cost() {
    // Box 1 goes right along the top row, then box 2 along the bottom one.
    let level = Level::parse("#######\n#@$  .#\n# $  .#\n#######\n").unwrap();
    let moves: Vec<Move> =
        "RRRLLLDRRR".chars().map(|c| Move { dir: "UDLR".find(c).unwrap() as u8, push: false }).collect();
    assert_eq!(tally(&level, &[10, 100], &moves), Tally { moves: 10, pushes: 6, cost: 10 + 3 * 10 + 3 * 100 });
    assert_eq!(tally(&level, &[], &moves), Tally { moves: 10, pushes: 6, cost: 10 });
}

/// The numbers `tests/optimal.rs` expects of the binary, by the brute force.
#[test]
fn the_metrics_part_ways_on_a_small_map() {
    let split = Grid::new("########\n#   #@ #\n#   $  #\n#   .  #\n########\n");
    assert_eq!(brute_force(&split, Metric::Pushes, &[]), Some((3, 12)));
    assert_eq!(brute_force(&split, Metric::Moves, &[]), Some((10, 5)));
    assert_eq!(brute_force(&split, Metric::Cost, &[0]), Some((10, 5)));
    assert_eq!(brute_force(&split, Metric::Cost, &[3]), Some((21, 3)));
    let pair = Grid::new("#######\n#     #\n# $$@ #\n#  .. #\n#######\n");
    for (costs, want) in [([0, 0], 12), ([0, 20], 32), ([20, 0], 52), ([5, 5], 32)] {
        assert_eq!(brute_force(&pair, Metric::Cost, &costs).map(|c| c.0), Some(want), "{:?}", costs);
    }
}

/// The first solution gets the normal solver's own 10 s within a long limit, half of a
/// short one, and a tenth of a very long one.
#[test]
fn the_first_solution_gets_the_default_time_within_bounds() {
    let seconds = |left: f64| left * super::first_share(left);
    assert!((seconds(60.0) - 10.0).abs() < 1e-9);
    assert!((seconds(10.0) - 5.0).abs() < 1e-9);
    assert!((seconds(1000.0) - 100.0).abs() < 1e-9);
    assert!((seconds(0.0)).abs() < 1e-9);
}
