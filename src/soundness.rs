//! Soundness of every pruning rule, against exhaustive searches on small random rooms.
//!
//! A search that runs out of positions says "no solution exists", so every rule that
//! cuts a position off must cut off none that can be solved (forward), or none that
//! pushes from the start lead to (backward). The rules, and the test of each:
//!
//! Forward: a position cut has no solution.
//!  1. Boxes and goals out of the player's reach (`Board::analyse` fails): the map is
//!     unsolvable as given. `a_map_the_analysis_rejects_has_no_solution`
//!  2. Dead squares (`Board::dead_fwd`): from there a lone box reaches no goal.
//!  3. Dead from a side the player cannot leave (`Board::dead_fwd_sides`, `dead_from`).
//!     Both: `no_solvable_position_has_a_box_on_a_dead_square_or_dead_side`
//!  4. Freeze deadlocks (`freeze::Freeze`): a box frozen off its goal, or pinned by one.
//!  5. Goals cut off by boxes frozen on goals (`freeze::GoalCut`).
//!     Both: `freeze_deadlocks_and_goals_cut_off_are_unsolvable`
//!  6. The board left by boxes frozen on goals (`frozen_goals::FrozenWalls`: `dead` for a
//!     position, `child_dead` for its children). `frozen_walls_cut_only_unsolvable_positions`
//!  7. PI-corral deadlocks (`corral::Corral::Deadlock`): a PI-corral with work and no push.
//!  8. PI-corral pruning (`corral::Corral::Only`): only the corral's pushes are made; a
//!     solvable position keeps a solvable child among them.
//!  9. Corral searches (`corral_deadlock::CorralDeadlocks`, with and without the boxes
//!     touching the barrier). 7 to 9: `corral_rules_cut_only_unsolvable_positions`
//! 10. Box sets proven dead (`dead_sets::DeadSets`): learned from a position, then found
//!     in others. `dead_box_sets_cut_only_unsolvable_positions`
//! 11. The matching bound (`bound::Matching`): no perfect matching of boxes to goals on
//!     finite push distances. `an_infinite_matching_bound_means_no_solution`
//! 12. All of them as move generation applies them (`search::movegen`: the dead squares
//!     it skips, `dead_child`, `proved_dead`, the PI-corral restriction, the bound in
//!     `emit` and `add_root`): a child it does not make is unsolvable, and a solvable
//!     position keeps a solvable child. `a_forward_expansion_keeps_a_solvable_child`
//!
//! Backward: a position cut is not reached by pushes from the start.
//! 13. Dead squares and dead sides backward (`Board::dead_bwd`, `dead_bwd_sides`).
//! 14. The matching bound on distances from the start cells (`Board::from_start`).
//! 15. Both as move generation applies them to pulls.
//!     13 to 15: `backward_rules_cut_only_positions_the_start_never_leads_to`
//!
//! Not sound, and not claimed to be: tunnel macros, strict goal rooms and whole box moves
//! skip positions, so a side that used them is incomplete and its exhaustion proves
//! nothing; `a_forward_expansion_keeps_a_solvable_child` checks that with them on, a
//! solvable position without a solvable child is always flagged so.
//!
//! The caches go with the rules: a corral search's verdicts and the boards left by frozen
//! boxes serve every position of a board after the first, as in a search.
//!
//! On whole maps, where no exhaustive search reaches: rules 2 to 11, 13 and 14 never cut
//! a position that a replayed solution passes through.
//! `no_rule_cuts_a_position_on_a_solution_of_a_whole_map`
//!
//! End to end, `the_solver_says_no_solution_only_when_none_exists`: the whole solver on
//! small maps (bidirectional, forward alone, backward alone), its "no solution exists"
//! checked by an exhaustive search on the map text and its answers replayed on it. That
//! covers what the tests above do not take apart: the backward roots (the solved layout,
//! the player in each area next to a box), the matching repaired from one expansion to
//! the next, and the verdicts one phase hands the next. `the_exhaustive_searches_agree`
//! checks the oracles against each other.

use std::collections::HashSet;

use crate::board::{Board, Cell, FAR};
use crate::bound::{Matching, IMPOSSIBLE};
use crate::budget::Budget;
use crate::corral::{Corral, Corrals};
use crate::corral_deadlock::CorralDeadlocks;
use crate::dead_sets::DeadSets;
use crate::freeze::{Freeze, Frozen, GoalCut};
use crate::frozen_goals::FrozenWalls;
use crate::level::Level;
use crate::packing::Packing;
use crate::reach::{Areas, Reach};
use crate::search::{Context, Direction, Mode, Priority, Side, Stats, Switches};
use crate::solver::{self, Options, Verdict};
use crate::state::Zobrist;
use crate::table::Table;
use crate::testing::{for_random_positions, replays, solvable, Draw, Floor, Key, Position, Rooms};

/// The boxes with the one on `from` moved to `to`.
fn moved(boxes: &[Cell], from: Cell, to: Cell) -> Vec<Cell> {
    boxes.iter().map(|&b| if b == from { to } else { b }).collect()
}

/// The matching bound of `boxes` on `distances` (`[target * n + cell]`).
fn matching(board: &Board, boxes: &[Cell], distances: &[u16]) -> i32 {
    let nb = boxes.len();
    let mut m = Matching::new(nb);
    for (k, &b) in boxes.iter().enumerate() {
        for j in 0..nb {
            let d = distances[j * board.n + b as usize];
            m.cost[k * nb + j] = if d == FAR { IMPOSSIBLE } else { d as i32 };
        }
    }
    m.solve()
}

/// Is the position in `occupied` (holding `boxes`) cut by a freeze test of the box just
/// pushed onto `to`, as `dead_child` tests it: frozen off a goal, or frozen on goals that
/// cut others off?
fn freeze_cuts(
    freeze: &mut Freeze,
    goal_cut: &mut GoalCut,
    board: &Board,
    occupied: &[bool],
    boxes: &[Cell],
    to: Cell,
) -> bool {
    match freeze.assess(board, occupied, to) {
        Frozen::No => false,
        Frozen::OffGoal => true,
        Frozen::OnGoals => {
            let mut frozen_walls = freeze.group().to_vec();
            freeze.frozen_on_goals(board, occupied, boxes.iter().copied(), &mut frozen_walls);
            goal_cut.cuts_off(board, occupied, &frozen_walls, &board.goals)
        }
    }
}

/// The corrals of a position, analysed as the forward search does before it expands it.
fn corrals_of(board: &Board, occupied: &[bool], boxes: &[Cell], player: Cell) -> (Corrals, Corral) {
    let (mut reach, mut areas) = (Reach::new(board.n), Areas::new(board.n));
    areas.label_with_reach(board, occupied, boxes.len(), player, &mut reach);
    let mut corrals = Corrals::new(board.n);
    let verdict = corrals.analyse(board, occupied, boxes, &reach, &areas);
    (corrals, verdict)
}

#[test]
fn a_map_the_analysis_rejects_has_no_solution() {
    let mut rooms = Rooms::new(0x5eed_0001_a11a_1e55);
    let (mut maps, mut rejected) = (0, 0);
    while maps < 3000 {
        // Many inner walls: the floor often falls apart.
        let text = match rooms.text(6, 4, 12, 0, b"..$$@") {
            Some(t) => t,
            None => continue,
        };
        maps += 1;
        let level = Level::parse(&text).unwrap();
        if let Err(why) = Board::analyse(&level) {
            rejected += 1;
            let (floor, boxes, player) = Floor::of_text(&text);
            assert!(!floor.solvable(&boxes, player), "rejected ({}) but solvable:\n{}", why, text);
        }
    }
    eprintln!("soundness: the analysis rejected {} of {} maps", rejected, maps);
    assert!(rejected >= 200, "only {} maps rejected", rejected);
}

#[test]
fn no_solvable_position_has_a_box_on_a_dead_square_or_dead_side() {
    let (mut positions, mut solvable, mut squares, mut sides) = (0, 0, 0, 0);
    let draw = Draw::rooms(6, 4, 9, 0, b"..$$@").and(4, 4, 0);
    for_random_positions(0x5eed_0002_dead_5a1d, 6000, draw, |p| {
        let board = p.board;
        let square = p.boxes.iter().any(|&b| board.dead_fwd[b as usize]);
        let side = p.boxes.iter().any(|&b| board.dead_from(&board.dead_fwd_sides, b, p.player));
        positions += 1;
        let truth = p.solvable();
        solvable += truth as usize;
        squares += square as usize;
        sides += (side && !square) as usize;
        assert!(!(truth && square), "a box on a dead square, but solvable:\n{}", p.text);
        assert!(!(truth && side), "a box dead from the player's side, but solvable:\n{}", p.text);
    });
    eprintln!(
        "soundness: of {} positions ({} solvable), {} have a box on a dead square, {} more one dead from its side",
        positions, solvable, squares, sides
    );
    assert!(solvable >= 1000 && squares >= 1000 && sides >= 30, "{} {} {}", solvable, squares, sides);
}

#[test]
fn freeze_deadlocks_and_goals_cut_off_are_unsolvable() {
    let (mut positions, mut solvable, mut frozen, mut cut) = (0, 0, 0, 0);
    let draw = Draw::rooms(6, 4, 6, 8, b"**..$$@").and(8, 12, 0);
    for_random_positions(0x5eed_0003_f1ee_2e00, 6000, draw, |p| {
        let board = p.board;
        let occupied = p.occupied();
        let (mut freeze, mut goal_cut) = (Freeze::new(board.n), GoalCut::new(board.n));
        // Each box in turn as the one just pushed, as `dead_child` sees it.
        let (mut off_goal, mut cut_off) = (false, false);
        for &b in &p.boxes {
            match freeze.assess(board, &occupied, b) {
                Frozen::No => {}
                Frozen::OffGoal => off_goal = true,
                Frozen::OnGoals => {
                    let mut walls = freeze.group().to_vec();
                    freeze.frozen_on_goals(board, &occupied, p.boxes.iter().copied(), &mut walls);
                    cut_off |= goal_cut.cuts_off(board, &occupied, &walls, &board.goals);
                }
            }
        }
        positions += 1;
        let truth = p.solvable();
        solvable += truth as usize;
        frozen += off_goal as usize;
        cut += (cut_off && !off_goal) as usize;
        assert!(!(truth && off_goal), "frozen off a goal, but solvable:\n{}", p.text);
        assert!(!(truth && cut_off), "a goal cut off by frozen boxes, but solvable:\n{}", p.text);
    });
    eprintln!(
        "soundness: of {} positions ({} solvable), {} have a box frozen off its goal, {} more a goal cut off",
        positions, solvable, frozen, cut
    );
    assert!(solvable >= 1000 && frozen >= 1000 && cut >= 20, "{} {} {}", solvable, frozen, cut);
}

#[test]
fn frozen_walls_cut_only_unsolvable_positions() {
    let (mut positions, mut solvable, mut dead, mut children, mut children_dead) = (0, 0, 0, 0, 0);
    let mut walls = FrozenWalls::new(0);
    let draw = Draw::rooms(6, 4, 6, 8, b"**..$$@").and(8, 12, 0).live();
    for_random_positions(0x5eed_0004_f202_e40a, 6000, draw, |p| {
        let board = p.board;
        if p.index == 0 {
            // One cache per board, as in a search.
            walls = FrozenWalls::new(board.n);
        }
        let mut occupied = p.occupied();
        positions += 1;
        let truth = p.solvable();
        solvable += truth as usize;
        if walls.dead(board, &occupied, &p.boxes, p.player) {
            dead += 1;
            assert!(!truth, "called dead on the board its frozen boxes leave, but solvable:\n{}", p.text);
            return;
        }
        // Its children, as `dead_child` tries them: those not dead by a freeze test.
        let (mut freeze, mut goal_cut) = (Freeze::new(board.n), GoalCut::new(board.n));
        for (b, to) in p.floor().pushes(&p.boxes, p.player) {
            let boxes = moved(&p.boxes, b, to);
            occupied[b as usize] = false;
            occupied[to as usize] = true;
            let frozen = freeze_cuts(&mut freeze, &mut goal_cut, board, &occupied, &boxes, to);
            occupied[b as usize] = true;
            occupied[to as usize] = false;
            if frozen {
                continue;
            }
            children += 1;
            if walls.child_dead(board, to, b) {
                children_dead += 1;
                let text = p.show(&boxes, b);
                assert!(!p.solvable_at(&boxes, b), "child called dead, but solvable:\n{}", text);
            }
        }
    });
    eprintln!(
        "soundness: of {} positions ({} solvable), {} dead on the board their frozen boxes leave; \
         of {} children, {} dead on their parent's",
        positions, solvable, dead, children, children_dead
    );
    assert!(solvable >= 1000 && dead >= 400 && children_dead >= 150, "{} {} {}", solvable, dead, children_dead);
}

#[test]
fn corral_rules_cut_only_unsolvable_positions() {
    let (mut positions, mut solvable, mut pi_dead, mut pi_only, mut pi_only_solvable) = (0, 0, 0, 0, 0);
    let mut searched_dead = 0;
    let mut searcher = CorralDeadlocks::new(0);
    let draw = Draw::rooms(6, 5, 5, 0, b"...$$$@").and(8, 12, 0).live();
    for_random_positions(0x5eed_0005_c022_a150, 5000, draw, |p| {
        let board = p.board;
        if p.index == 0 {
            // One cache per board, as in a search.
            searcher = CorralDeadlocks::new(board.n);
        }
        let occupied = p.occupied();
        positions += 1;
        let truth = p.solvable();
        solvable += truth as usize;
        let (corrals, verdict) = corrals_of(board, &occupied, &p.boxes, p.player);
        match verdict {
            Corral::None => {}
            Corral::Deadlock => {
                pi_dead += 1;
                assert!(!truth, "a PI-corral deadlock, but solvable:\n{}", p.text);
            }
            Corral::Only => {
                pi_only += 1;
                if truth {
                    pi_only_solvable += 1;
                    let kept = p.floor().pushes(&p.boxes, p.player).into_iter().filter(|&(b, _)| corrals.allowed(b));
                    let children: Vec<(Vec<Cell>, Cell)> = kept.map(|(b, to)| (moved(&p.boxes, b, to), b)).collect();
                    let any = children.iter().any(|(boxes, player)| p.solvable_at(boxes, *player));
                    assert!(any, "solvable, but no push of its PI-corral leads to a solvable position:\n{}", p.text);
                }
            }
        }
        if searcher.any_dead(board, &corrals, p.player) {
            searched_dead += 1;
            assert!(!truth, "a corral search called it dead, but solvable:\n{}", p.text);
        }
    });
    eprintln!(
        "soundness: of {} positions ({} solvable), {} PI-corral deadlocks, {} PI-corral cuts ({} of solvable \
         positions), {} dead by corral searches",
        positions, solvable, pi_dead, pi_only, pi_only_solvable, searched_dead
    );
    assert!(solvable >= 1000 && pi_dead >= 40 && pi_only_solvable >= 150, "{} {} {}", solvable, pi_dead, pi_only);
    assert!(searched_dead >= 80, "{}", searched_dead);
}

/// Sets are learned from the positions of a room as they come, and each later position
/// of the room is checked against every set learned so far, as in a search.
#[test]
fn dead_box_sets_cut_only_unsolvable_positions() {
    let (mut positions, mut solvable, mut learned, mut cut) = (0, 0, 0, 0);
    let mut sets = DeadSets::new(0);
    let draw = Draw::rooms(6, 5, 5, 0, b"...$$$@").and(12, 12, 0).live();
    for_random_positions(0x5eed_0010_dead_5e75, 4000, draw, |p| {
        let board = p.board;
        if p.index == 0 {
            sets = DeadSets::new(board.n);
        }
        positions += 1;
        let truth = p.solvable();
        solvable += truth as usize;
        let occupied = p.occupied();
        if sets.dead(&occupied, &p.boxes, p.player) {
            cut += 1;
            assert!(!truth, "holds a box set proven dead, but solvable:\n{}", p.text);
        }
        if sets.learn(board, &p.boxes, p.player, 200) {
            learned += 1;
            assert!(!truth, "a box set of it proven dead, but solvable:\n{}", p.text);
            assert!(sets.dead(&occupied, &p.boxes, p.player), "its own set not found:\n{}", p.text);
        }
    });
    eprintln!(
        "soundness: of {} positions ({} solvable), {} gave a dead box set, {} held one learned before",
        positions, solvable, learned, cut
    );
    assert!(solvable >= 1000 && learned >= 100 && cut >= 50, "{} {} {}", solvable, learned, cut);
}

#[test]
fn an_infinite_matching_bound_means_no_solution() {
    let (mut positions, mut solvable, mut impossible, mut beyond_squares) = (0, 0, 0, 0);
    let draw = Draw::rooms(6, 4, 7, 0, b"...$$$@").and(4, 4, 0).live();
    for_random_positions(0x5eed_0006_0a7c_4140, 6000, draw, |p| {
        let board = p.board;
        positions += 1;
        let truth = p.solvable();
        solvable += truth as usize;
        if matching(board, &p.boxes, &board.to_goal) >= IMPOSSIBLE {
            impossible += 1;
            beyond_squares += p.boxes.iter().all(|&b| !board.dead_fwd[b as usize]) as usize;
            assert!(!truth, "no perfect matching, but solvable:\n{}", p.text);
        }
    });
    eprintln!(
        "soundness: of {} positions ({} solvable), {} have no perfect matching ({} without a box on a dead square)",
        positions, solvable, impossible, beyond_squares
    );
    assert!(solvable >= 1000 && beyond_squares >= 300, "{} {}", solvable, beyond_squares);
}

/// What one expansion of a position by a fresh side stored, and its figures.
struct Expansion {
    /// `None` if the side would not take the position as a root.
    children: Option<HashSet<Key>>,
    stats: Stats,
    incomplete: bool,
}

/// Expand the position once by a fresh side going `direction` with `switches`.
fn expand(p: &Position, packing: &Packing, zobrist: &Zobrist, direction: Direction, switches: Switches) -> Expansion {
    let (board, nb) = (p.board, p.boxes.len());
    let memory = 1 << 16;
    let mut side = Side::new(Context { board, zobrist, packing }, direction, (Priority::Greedy, 0), switches, memory);
    let other = Table::with_budget(nb + 1, 1 << 12);
    if side.add_root(&p.boxes, p.player).is_none() {
        return Expansion { children: None, stats: side.stats, incomplete: false };
    }
    side.expand(&other, &Budget::nodes(u64::MAX, memory));
    let children = (1..side.table.len() as u32)
        .map(|i| {
            let key = side.table.key(i);
            p.floor().key(&key[..nb], key[nb])
        })
        .collect();
    Expansion { children: Some(children), stats: side.stats, incomplete: side.incomplete }
}

#[test]
fn a_forward_expansion_keeps_a_solvable_child() {
    // Complete: without the macros that skip positions; once more without the matching
    // bound, which otherwise cuts most dead positions before the other rules see them.
    // Default: with those macros (tunnels and strict goal rooms; whole box moves are
    // never complete), checked only when the side says it is complete.
    let complete = Switches { tunnel_macro: false, strict_rooms: false, ..Switches::default() };
    let configs = [
        ("complete", complete, true),
        ("complete without the bound", Switches { matching: false, ..complete }, true),
        ("default", Switches::default(), false),
    ];
    let (mut positions, mut solvable, mut roots_cut, mut expanded_solvable) = (0, 0, [0; 3], [0; 3]);
    let (mut pruned, mut dead_squares, mut restricted, mut incomplete) = (0, 0, 0, 0);
    let mut stats = [Stats::default(), Stats::default()];
    let mut tables: Option<(Packing, Zobrist)> = None;
    let draw = Draw::rooms(6, 5, 5, 0, b"*..$$@").and(10, 6, 0).live();
    for_random_positions(0x5eed_0007_e8a0_d1e0, 3000, draw, |p| {
        let board = p.board;
        if p.index == 0 {
            tables = Some((Packing::analyse(board), Zobrist::new(board.n)));
        }
        let (packing, zobrist) = tables.as_ref().unwrap();
        positions += 1;
        let truth = p.solvable();
        solvable += truth as usize;
        if p.boxes.iter().all(|&b| board.is_goal[b as usize]) {
            return; // solved: a search stops there
        }
        let (corrals, verdict) = corrals_of(board, &p.occupied(), &p.boxes, p.player);
        let only = matches!(verdict, Corral::Only);
        for (k, &(name, switches, complete)) in configs.iter().enumerate() {
            let e = expand(p, packing, zobrist, Direction::Forward, switches);
            let children = match e.children {
                Some(c) => c,
                None => {
                    roots_cut[k] += 1;
                    assert!(!truth, "{}: not taken as a root, but solvable:\n{}", name, p.text);
                    continue;
                }
            };
            if complete {
                stats[k].add(&e.stats);
                assert!(!e.incomplete, "{}: incomplete:\n{}", name, p.text);
            } else if e.incomplete {
                incomplete += 1;
                continue;
            }
            if truth {
                expanded_solvable[k] += 1;
                let nb = p.boxes.len();
                let any = children.iter().any(|key| p.solvable_at(&key[..nb], key[nb]));
                assert!(any, "{}: solvable, but no child stored is:\n{}", name, p.text);
            }
            if !complete {
                continue;
            }
            // Every push not made is dead, or cut by the PI-corral the side found too.
            assert_eq!(only, e.stats.corral_cuts > 0, "{}:\n{}", name, p.text);
            restricted += only as usize;
            for (b, to) in p.floor().pushes(&p.boxes, p.player) {
                let boxes = moved(&p.boxes, b, to);
                if children.contains(&p.floor().key(&boxes, b)) {
                    continue;
                }
                pruned += 1;
                dead_squares += board.dead_fwd[to as usize] as usize;
                // Pushes of boxes outside the PI-corral are left out whatever they lead to.
                let cut_by_the_corral = only && !corrals.allowed(b);
                if !cut_by_the_corral {
                    let text = p.show(&boxes, b);
                    let solvable = p.solvable_at(&boxes, b);
                    assert!(!solvable, "{}: a push not made, but solvable:\n{}\nfrom\n{}", name, text, p.text);
                }
            }
        }
    });
    let [with, without] = &stats;
    eprintln!(
        "soundness: {} positions ({} solvable); not taken as roots, solvable ones expanded (complete, without \
         the bound, default): {:?}, {:?}; {} pushes not made, {} onto dead squares; {} expansions restricted to \
         a PI-corral, {} incomplete with the macros; cut (complete, without the bound): dead sides {}, {}, \
         freezes {}, {}, by the bound {}, -, PI-corral deadlocks {}, {}, by corral searches {}, {}, on frozen \
         boards {}, {}",
        positions,
        solvable,
        roots_cut,
        expanded_solvable,
        pruned,
        dead_squares,
        restricted,
        incomplete,
        with.dead_sides,
        without.dead_sides,
        with.dead_freeze,
        without.dead_freeze,
        with.dead_matching,
        with.dead_corral,
        without.dead_corral,
        with.dead_corral_search,
        without.dead_corral_search,
        with.dead_frozen,
        without.dead_frozen,
    );
    assert!(expanded_solvable.iter().all(|&n| n >= 1000), "{:?}", expanded_solvable);
    assert!(
        roots_cut[0] >= 200 && dead_squares >= 3000 && restricted >= 150,
        "{:?} {} {}",
        roots_cut,
        dead_squares,
        restricted
    );
    let both = |f: fn(&Stats) -> u64| f(with) + f(without);
    let cuts = [both(|s| s.dead_sides), both(|s| s.dead_freeze), with.dead_matching, both(|s| s.dead_frozen)];
    assert!(cuts.iter().all(|&n| n >= 50), "{:?}", stats);
    let corral_cuts = [both(|s| s.dead_corral), both(|s| s.dead_corral_search)];
    assert!(corral_cuts.iter().all(|&n| n >= 50), "{:?}", stats);
}

#[test]
fn backward_rules_cut_only_positions_the_start_never_leads_to() {
    let (mut positions, mut reachable, mut squares, mut sides, mut impossible) = (0, 0, 0, 0, 0);
    let (mut pulls, mut pruned, mut dead_squares) = (0, 0, 0);
    let mut stats = Stats::default();
    let mut tables: Option<(Packing, Zobrist)> = None;
    let draw = Draw::rooms(6, 4, 9, 0, b"..$$@").and(3, 0, 6);
    for_random_positions(0x5eed_0008_bac4_0a2d, 10000, draw, |p| {
        let board = p.board;
        if p.index == 0 {
            tables = Some((Packing::analyse(board), Zobrist::new(board.n)));
        }
        let (packing, zobrist) = tables.as_ref().unwrap();
        positions += 1;
        let truth = p.reachable_at(&p.boxes.clone(), p.player);
        reachable += truth as usize;
        let square = p.boxes.iter().any(|&b| board.dead_bwd[b as usize]);
        let side = p.boxes.iter().any(|&b| board.dead_from(&board.dead_bwd_sides, b, p.player));
        let bound = matching(board, &p.boxes, &board.from_start) >= IMPOSSIBLE;
        squares += square as usize;
        sides += (side && !square) as usize;
        impossible += (bound && !square) as usize;
        assert!(!(truth && square), "a box on a square dead backward, but reached from the start:\n{}", p.text);
        assert!(!(truth && side), "a box dead backward from its side, but reached from the start:\n{}", p.text);
        assert!(!(truth && bound), "no matching to the start cells, but reached from the start:\n{}", p.text);
        if !truth {
            return; // its pulls lead only to positions the start never leads to
        }
        let e = expand(p, packing, zobrist, Direction::Backward, Switches::default());
        stats.add(&e.stats);
        let children = match e.children {
            Some(c) => c,
            None => panic!("not taken as a backward root, but reached from the start:\n{}", p.text),
        };
        assert!(!e.incomplete);
        for (b, to, after) in p.floor().pulls(&p.boxes, p.player) {
            pulls += 1;
            let boxes = moved(&p.boxes, b, to);
            if children.contains(&p.floor().key(&boxes, after)) {
                continue;
            }
            pruned += 1;
            dead_squares += board.dead_bwd[to as usize] as usize;
            let text = p.show(&boxes, after);
            assert!(!p.reachable_at(&boxes, after), "a pull not made, but reached:\n{}\nfrom\n{}", text, p.text);
        }
    });
    eprintln!(
        "soundness: of {} positions ({} reached from the start), {} have a box on a square dead backward, {} \
         more one dead from its side, {} more no matching; of {} pulls from those reached, {} not made ({} onto \
         dead squares; cut: {} dead sides, {} by the bound)",
        positions,
        reachable,
        squares,
        sides,
        impossible,
        pulls,
        pruned,
        dead_squares,
        stats.dead_sides,
        stats.dead_matching
    );
    assert!(
        reachable >= 3000 && squares >= 800 && sides >= 20 && impossible >= 400,
        "{} {} {}",
        squares,
        sides,
        impossible
    );
    assert!(
        dead_squares >= 2000 && stats.dead_sides >= 200 && stats.dead_matching >= 1000,
        "{} {:?}",
        dead_squares,
        stats
    );
}

#[test]
fn the_solver_says_no_solution_only_when_none_exists() {
    let forward = Options {
        mode: Mode::Forward,
        switches: Switches { tunnel_macro: false, ..Switches::default() },
        ..Options::default()
    };
    let backward = Options { mode: Mode::Backward, ..Options::default() };
    let configs = [("bidirectional", Options::default()), ("forward", forward), ("backward", backward)];
    let mut rooms = Rooms::new(0x5eed_0009_e2e0_e2e0);
    let (mut maps, mut unsolvable) = (0, 0);
    let mut verdicts = [[0usize; 4]; 3];
    while maps < 600 {
        // Tiny rooms, and every other one a bigger room with more to search.
        let made = if maps % 2 == 0 { rooms.text(5, 4, 4, 0, b"*..$$@") } else { rooms.text(6, 5, 6, 0, b"...$$$@") };
        let text = match made {
            Some(t) => t,
            None => continue,
        };
        maps += 1;
        let level = Level::parse(&text).unwrap();
        let (floor, boxes, player) = Floor::of_text(&text);
        let truth = floor.solvable(&boxes, player);
        unsolvable += !truth as usize;
        for (k, (name, options)) in configs.iter().enumerate() {
            let report = solver::solve(&level, options, &Budget::nodes(2000, 1 << 22));
            let v = match report.verdict {
                Verdict::Solved(moves) => {
                    let answer = crate::solution::format(&moves, false);
                    if let Err(e) = replays(&text, &answer) {
                        panic!("{}: the answer {} does not replay: {}\n{}", name, answer, e, text);
                    }
                    0
                }
                Verdict::NoSolution(why) => {
                    assert!(!truth, "{}: no solution exists ({}), but the map is solvable:\n{}", name, why, text);
                    1
                }
                Verdict::OutOfTime | Verdict::OutOfMemory | Verdict::Exhausted => 2,
                other => panic!("{}: {:?}\n{}", name, other, text),
            };
            verdicts[k][v] += 1;
            if truth && v != 0 {
                verdicts[k][3] += 1;
            }
        }
    }
    eprintln!(
        "soundness: {} small maps ({} unsolvable); solved, no solution, gave up, gave up on a solvable one: \
         {:?} (bidirectional, forward, backward)",
        maps, unsolvable, verdicts
    );
    for (k, counts) in verdicts.iter().enumerate() {
        assert!(counts[0] >= 40 && counts[1] >= 250, "{}: {:?}", configs[k].0, counts);
    }
}

#[test]
fn the_exhaustive_searches_agree() {
    let (mut positions, mut solvable_ones) = (0, 0);
    let draw = Draw::rooms(5, 4, 5, 0, b"*..$$@").and(3, 3, 0);
    for_random_positions(0x5eed_000a_0a0c_1e00, 1000, draw, |p| {
        let by_pulls = p.solvable();
        let by_pushes = solvable(p.board, &p.boxes, p.player);
        let (floor, boxes, player) = Floor::of_text(&p.text);
        let on_the_text = floor.solvable(&boxes, player);
        assert_eq!((by_pushes, on_the_text), (by_pulls, by_pulls), "{:?}:\n{}", p.kind, p.text);
        positions += 1;
        solvable_ones += by_pulls as usize;
    });
    eprintln!("soundness: the exhaustive searches agree on {} positions ({} solvable)", positions, solvable_ones);
    assert!(solvable_ones >= 300 && positions - solvable_ones >= 300, "{} of {}", solvable_ones, positions);
}

/// The positions a solution of a whole map passes through, after each push: its boxes,
/// the player and the box pushed last. The moves are replayed on the board's own cells.
fn path_of(board: &Board, moves: &str) -> Vec<(Vec<Cell>, Cell, Cell)> {
    let (mut boxes, mut player) = (board.start_boxes.clone(), board.start_player);
    let mut path = Vec::new();
    for m in moves.chars() {
        let d = crate::board::DIRS.iter().position(|&c| c == m).expect("a move");
        let next = board.nbr[player as usize][d];
        assert_ne!(next, crate::board::NONE, "a move into a wall of the board");
        if let Some(k) = boxes.iter().position(|&b| b == next) {
            boxes[k] = board.nbr[next as usize][d];
            path.push((boxes.clone(), next, boxes[k]));
        }
        player = next;
    }
    path
}

/// The exhaustive searches stop at small rooms, and some rules only show their faults
/// on big maps (many boxes, sets near their size limit, areas over many words). Every
/// position of a replayed solution of a whole map of `samples/` is solvable, and the
/// start leads to it, so no forward or backward rule may cut one. The caches and box sets
/// are first filled from every push that leaves the solution's path, as a search fills
/// them from its dead ends.
#[test]
fn no_rule_cuts_a_position_on_a_solution_of_a_whole_map() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let names = (1..=30).map(|i| format!("xsokoban90/xsokoban{:02}.txt", i));
    let names = names.chain((1..=12).map(|i| format!("sasquatch50/sasquatch{:03}.txt", i)));
    let (mut maps, mut positions, mut siblings, mut learned) = (0, 0, 0, 0);
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let level = Level::parse(&text).unwrap();
        let moves = match solver::solve(&level, &Options::default(), &Budget::nodes(30_000, 1 << 28)).verdict {
            Verdict::Solved(moves) => crate::solution::format(&moves, false),
            _ => continue,
        };
        replays(&text, &moves).unwrap_or_else(|e| panic!("{}: the answer does not replay: {}", name, e));
        maps += 1;
        let board = Board::analyse(&level).unwrap();
        let floor = Floor::of_board(&board);
        let path = path_of(&board, &moves);
        let (mut searcher, mut sets, mut walls) =
            (CorralDeadlocks::new(board.n), DeadSets::new(board.n), FrozenWalls::new(board.n));
        let (mut freeze, mut goal_cut) = (Freeze::new(board.n), GoalCut::new(board.n));
        let mut occupied = vec![false; board.n];
        // The pushes off the path, as a search's dead ends, fill the caches and sets.
        for (k, (boxes, player, _)) in path.iter().enumerate() {
            for (b, to) in floor.pushes(boxes, *player) {
                let child = moved(boxes, b, to);
                if path.get(k + 1).is_some_and(|next| next.1 == b && next.2 == to) || board.dead_fwd[to as usize] {
                    continue;
                }
                siblings += 1;
                child.iter().for_each(|&c| occupied[c as usize] = true);
                let (corrals, _) = corrals_of(&board, &occupied, &child, b);
                searcher.any_dead(&board, &corrals, b);
                walls.dead(&board, &occupied, &child, b);
                child.iter().for_each(|&c| occupied[c as usize] = false);
                learned += sets.learn(&board, &child, b, 500) as usize;
            }
        }
        let mut parent_alive = false;
        for (i, (boxes, player, to)) in path.iter().enumerate() {
            positions += 1;
            let (player, to) = (*player, *to);
            let at = || format!("{} after {} pushes:\n{}", name, i + 1, crate::testing::show(&board, boxes, player));
            boxes.iter().for_each(|&c| occupied[c as usize] = true);
            // The start leads here too: the backward rules may not cut it either.
            for (dead, sides) in [(&board.dead_fwd, &board.dead_fwd_sides), (&board.dead_bwd, &board.dead_bwd_sides)] {
                assert!(boxes.iter().all(|&b| !dead[b as usize]), "a box on a dead square: {}", at());
                assert!(
                    boxes.iter().all(|&b| !board.dead_from(sides, b, player)),
                    "a box dead from its side: {}",
                    at()
                );
            }
            let frozen = freeze_cuts(&mut freeze, &mut goal_cut, &board, &occupied, boxes, to);
            assert!(!frozen, "a freeze deadlock: {}", at());
            assert!(
                !(parent_alive && walls.child_dead(&board, to, player)),
                "dead on its parent's frozen board: {}",
                at()
            );
            assert!(!walls.dead(&board, &occupied, boxes, player), "dead on its frozen board: {}", at());
            parent_alive = true;
            let (corrals, verdict) = corrals_of(&board, &occupied, boxes, player);
            assert!(!matches!(verdict, Corral::Deadlock), "a PI-corral deadlock: {}", at());
            assert!(!searcher.any_dead(&board, &corrals, player), "a corral search's deadlock: {}", at());
            assert!(!sets.dead(&occupied, boxes, player), "holds a box set proven dead: {}", at());
            assert!(!sets.learn(&board, boxes, player, 2000), "a box set of it proven dead: {}", at());
            assert!(matching(&board, boxes, &board.to_goal) < IMPOSSIBLE, "no perfect matching: {}", at());
            assert!(matching(&board, boxes, &board.from_start) < IMPOSSIBLE, "no matching to the starts: {}", at());
            boxes.iter().for_each(|&c| occupied[c as usize] = false);
        }
    }
    eprintln!(
        "soundness: {} positions on the solutions of {} whole maps, none cut; {} pushes off the paths, {} box sets learned",
        positions, maps, siblings, learned
    );
    assert!(maps >= 25 && positions >= 4000 && learned >= 1000, "{} {} {}", maps, positions, learned);
}
