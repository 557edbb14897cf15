//! The portfolio: which searches run, in what order, under one shared budget; then the
//! plan becomes moves and is replayed before it is returned.

use crate::board::Board;
use crate::budget::Budget;
use crate::level::Level;
use crate::packing::Packing;
use crate::search::{self, Mode, Outcome, Priority, Ranking, Side, Stats, Switches};
use crate::solution::{self, Move};
use crate::state::Zobrist;

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub mode: Mode,
    /// `None`: each phase of the portfolio takes its own order.
    pub priority: Option<Priority>,
    pub switches: Switches,
    /// Some phases order their feature cells by advisor weight (see `schedule`).
    pub advisor_weights: bool,
    /// Run only this phase of the portfolio (1 = the first), with the whole budget, for
    /// measuring what one search does alone. A phase that starts from an earlier one's
    /// nodes starts from the start instead.
    pub only_phase: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: Mode::Bidirectional,
            priority: None,
            switches: Switches::default(),
            advisor_weights: true,
            only_phase: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Solved(Vec<Move>),
    /// Proven: the search space was exhausted (or the map is unsolvable as given).
    NoSolution(String),
    OutOfTime,
    OutOfMemory,
    /// Every search stopped under incomplete pruning without a solution.
    Exhausted,
    /// A plan failed its replay: a bug, never printed as an answer.
    Internal(String),
    /// The options ask for what this level does not have (a phase beyond its portfolio).
    InvalidOptions(String),
}

pub struct Report {
    pub verdict: Verdict,
    pub forward: Stats,
    pub backward: Stats,
    pub cells: usize,
    pub boxes: usize,
    /// Each phase run: its number in the portfolio (from 1), what it was and when it
    /// ended (seconds since the start), for `--stats`; the last one is the one that
    /// solved the map, if any did.
    pub phases: Vec<(usize, String, f64)>,
    /// The goal rooms and their packing orders (`Packing::describe_rooms`), for `--stats`.
    pub rooms: Vec<String>,
}

pub fn solve(level: &Level, options: &Options, budget: &Budget) -> Report {
    let mut report = Report {
        verdict: Verdict::OutOfTime,
        forward: Stats::default(),
        backward: Stats::default(),
        cells: 0,
        boxes: 0,
        phases: Vec::new(),
        rooms: Vec::new(),
    };
    let board = match Board::analyse(level) {
        Ok(b) => b,
        Err(why) => {
            report.verdict = Verdict::NoSolution(why);
            return report;
        }
    };
    report.cells = board.n;
    report.boxes = board.start_boxes.len();
    if board.start_boxes.iter().all(|&b| board.is_goal[b as usize]) {
        report.verdict = Verdict::Solved(Vec::new());
        return report;
    }
    let packing = Packing::analyse(&board);
    report.rooms = packing.describe_rooms(&board);
    let phases = phases_for(&packing, options);
    if let Some(n) = options.only_phase.filter(|&n| n > phases.len()) {
        let why =
            format!("--phase {}: this level's portfolio has {}", n, crate::count(phases.len(), "phase", "phases"));
        report.verdict = Verdict::InvalidOptions(why);
        return report;
    }
    let outcome = portfolio(&board, &packing, phases, options, budget, &mut report);
    report.verdict = match outcome {
        Outcome::Solved(pushes) => match solution::assemble(&board, &packing, &pushes) {
            Ok(moves) => match solution::replay(level, &moves) {
                Ok(()) => Verdict::Solved(moves),
                Err(e) => Verdict::Internal(format!("the plan failed its replay: {}", e)),
            },
            Err(e) => Verdict::Internal(e),
        },
        Outcome::Unsolvable => Verdict::NoSolution("the search space is exhausted".into()),
        Outcome::OutOfTime => Verdict::OutOfTime,
        Outcome::OutOfMemory => Verdict::OutOfMemory,
        Outcome::Exhausted => Verdict::Exhausted,
    };
    report
}

/// One search of the portfolio.
#[derive(Clone, Copy)]
struct Phase {
    strict: bool,
    /// Boxes may go to a room's next goal in one move (forward).
    packing_macro: bool,
    /// Rankings of the forward and the backward side.
    ranking: (Ranking, Ranking),
    /// Share of the time still left when the phase starts.
    share: f64,
    /// Feature cells serve nodes by advisor weight (see `Switches::advisor_weights`).
    weighted: bool,
    /// ... counting box moves, not pushes (see `Switches::box_move_weights`).
    box_moves: bool,
    /// ... and a push that leaves fewer boxes in each other's way is advised too (see
    /// `Switches::hotspot_weights`).
    hotspots: bool,
    /// Forward expansions for each backward one (see `Switches::forward_turns`).
    forward_turns: u32,
    /// Backward expansions in each backward turn (see `Switches::backward_turns`).
    backward_turns: u32,
    /// Forward children are whole box moves (see `Switches::whole_box_moves`).
    whole_box_moves: bool,
    /// The forward side starts from the last phase's nodes with the most boxes on target
    /// (`search::Waypoint`), not from the start (the phase is left out when there are none).
    from_most_packed: bool,
    /// A second backward side searches beside the shared one (`search::second_backward_side`);
    /// consecutive phases with it share it, and the first phase without it drops it.
    second_backward: bool,
}

impl Phase {
    /// A short description for `--stats`.
    fn name(&self) -> String {
        let mut name = String::from(if self.strict { "strict" } else { "plain" });
        if self.weighted {
            name += if self.box_moves { ", weighed by box moves" } else { ", weighed by pushes" };
            if self.hotspots {
                name += ", hotspots advise";
            }
        }
        if self.whole_box_moves {
            name += ", whole box moves";
        }
        if self.from_most_packed {
            name += ", from the last phase's most packed nodes";
        }
        if self.second_backward {
            name += ", a second backward side";
        }
        if self.ranking.0 .0 == FEATURES {
            name += ", feature cells only";
        }
        if self.forward_turns > 1 {
            name += &format!(", {} forward expansions to a backward one", self.forward_turns);
        }
        if self.backward_turns > 1 {
            name += &format!(", {} backward expansions to a forward one", self.backward_turns);
        }
        name
    }
}

/// Most maps fall to a short plain search; goal-room levels need their packing order
/// enforced, which is fast when the order is right but may be wrong for a level; then a
/// plain search with fresh tables gets the rest. The sides take greedy and feature-space
/// turns, which finds different solutions than greedy alone; only the strict forward
/// search stays greedy: with the order enforced, greedy packs rooms best. The backward
/// side also counts the boxes not yet back on their start cells (weight 1): that solves
/// levels the bound alone does not (forward it changed nothing). Every phase ranks it so,
/// and one backward side serves the whole run (see `portfolio`). While each phase had a
/// side of its own, weights of 0 in the short phases and 2 in the last one solved levels
/// that weight 1 missed; with one side, weight 1 throughout solves more. Packing
/// macros make the first phase (and room-less levels) much faster and solve more; in the
/// later phases they cost more maps than they won.
///
/// Which short searches succeed is chaotic: a small change in pruning or in the order of
/// equal-ranked children turns a level solved in 0.05 s into one unsolved in 10 s, and
/// back. So the portfolio runs several short searches. First three whose forward feature
/// cells serve their nodes by advisor weight as FESS does (they solve levels that greedy
/// cells do not, most within a second): one counting box moves, where pushes that unblock
/// boxes are advised too (that won levels there, and lost one in the push-counting
/// search); the same with feature cells alone instead of taking turns with greedy (it
/// solves others); and one counting pushes, from the whole-move search's most packed
/// nodes. (A short search counting pushes from the start ran after them until it solved
/// no level of the sample sets; its time went to the strict phase, which a second
/// backward side had slowed. One more, with a box on a room's goal
/// counted as packed only in the room's packing order, FESS's packing feature, solved
/// levels until the cells counted boxes in doorways; then it solved none, and its time
/// went to the strict phase.)
/// Without weights, the plain one alone; with them, the plain one runs briefly second
/// (`PLAIN_SHORT`). The strict phase keeps 98% of what is left after the short
/// searches: it solves levels up to its very end (xsokoban 41 at 9.2-9.5 s), while the
/// last phase, which weighs too, by pushes, solved no level after it lately.
///
/// The third search goes by whole box moves (see `Switches::whole_box_moves`), by
/// advisor weight as the first: it solves levels none of the others does (xsokoban 71
/// in about 1.6 s), and a level at the first search's edge (xsokoban 32) within
/// hundredths of a second. As the first search (15%) it made easy levels wait (median
/// 1.51 s on xsokoban90) and lost 71.
///
/// The fourth search weighs pushes and starts from the whole-move search's most packed
/// nodes (see `FROM_MOST_PACKED_SHARE`).
///
/// The third and fourth searches have a second backward side beside the shared one
/// (`Phase::second_backward`), taking one backward turn in three: it meets forward sides
/// the shared one does not (xsokoban 29, at 3.3-3.6 s, in the whole-move phase, whose
/// forward side runs out early there). Kept for the whole run it slowed the levels that
/// the strict phase solves by meeting the shared side (13, 41, 87) past the limit.
///
/// The first search leaves the backward side one expansion in `FIRST_TURNS`. It solves
/// most levels alone, and going forward only it solved xsokoban 32 in 1.7-1.8 s, where
/// taking turns it missed it in its 2 s; a level the two sides solve together in a few
/// hundredths of a second (xsokoban 86) still falls in a few tenths; and since the
/// backward side is shared, it makes up those turns in the later phases.
const ALT: Priority = Priority::Alternation;
const GREEDY: Priority = Priority::Greedy;
const FEATURES: Priority = Priority::Features;
const SHORT: Phase = Phase {
    strict: false,
    packing_macro: true,
    ranking: ((ALT, 0), (ALT, 1)),
    share: 0.1,
    weighted: false,
    box_moves: false,
    hotspots: false,
    forward_turns: 1,
    backward_turns: 1,
    whole_box_moves: false,
    from_most_packed: false,
    second_backward: false,
};
const STRICT: Phase = Phase {
    strict: true,
    packing_macro: false,
    ranking: ((GREEDY, 0), (ALT, 1)),
    share: 0.98,
    backward_turns: STRICT_BACKWARD_TURNS,
    ..SHORT
};
/// The strict phase's levels (xsokoban 13, 41, 87) fall when its forward side meets the
/// shared backward side, which grows while the forward side waits: with three backward
/// expansions to a forward one they fell 0.3-0.7 s sooner (7.4-7.7 s alone, against
/// 7.8-8.3 s); with two or five, less so.
const STRICT_BACKWARD_TURNS: u32 = 3;
const LONG: Phase = Phase { packing_macro: false, share: 1.0, ..SHORT };
/// The first (box-move) search's share. While it took turns with the backward side,
/// xsokoban 35 fell to it after about 1.7-1.8 s, which 16% missed and 18% only just
/// made; at 22% xsokoban 87 was lost. Going forward almost alone it solves 35 in about
/// 1.0 s and 32 in about 1.8-2.0 s; at 22% that lost xsokoban 41 (9.8 s at 24%).
const FIRST_SHORT: f64 = 0.20;
/// Forward expansions per backward one in the first search: it mostly solves levels
/// alone, and the backward side goes on in the later phases.
const FIRST_TURNS: u32 = 16;
/// The search by whole box moves: xsokoban 71 falls to it after about
/// 1.6-1.8 s, 80% of its time at 25% (2.0 s); 30% gives it 2.4 s.
const WHOLE_MOVES_SHARE: f64 = 0.30;
/// The search weighing pushes, from the whole-move search's nodes with the most boxes on
/// target: whole box moves alone can get near the end and not finish, where single pushes
/// finish at once (xsokoban 85: 13 of 15 boxes packed, 41 pushes from the end). Xsokoban 52
/// falls to it after about 0.66 s (its best node has 2 boxes packed, the others moved out of
/// the way); 5% of what is left missed it. The first search's kind from the same nodes
/// solved 85 at 5%, but not 52, even at 15% or 30%.
const FROM_MOST_PACKED_SHARE: f64 = 0.15;
/// The box-move search again with feature cells alone (no greedy turns), which solves
/// other levels, some only after 1.3 s or 2.7 s of it. Microban 153 needs about 1.5 s of
/// it: after the whole-move phase, 30% was 1.7 s, and a timed run missed it; 35% (2.0 s)
/// did not. Behind the waypoint phase's 15%, 35% was 1.7 s again, and two of six runs,
/// two at a time, missed it; 41% gives it 2.0 s.
const FEATURES_SHORT: f64 = 0.41;
/// A plain short search (no advisor weights) right after the first one. On the sample
/// sets it solved no level the weighted searches miss; on Mas Sasquatch, a set no change
/// had been tuned on, it solves level 19 within 0.2 s of its start. Without it the
/// whole-move search finds 19 at 10.2 s at about 250,000 expansions a second (so not in
/// time) and at 4.0 s at about 450,000. Breadth for levels unlike the samples, at 5% of
/// the time after the first search. Timed, it changed no other count there or on xsokoban;
/// at a fixed million expansions it lost Mas Sasquatch 16, which sits at the deadline.
const PLAIN_SHORT: f64 = 0.05;
/// The phases for a level with ordered goal rooms or without, and with advisor weights
/// or without (switched off, they are not replaced).
fn schedule(rooms: bool, weights: bool) -> Vec<Phase> {
    let mut phases = Vec::new();
    if weights {
        let by_pushes = Phase { weighted: true, ..SHORT };
        let box_moves = Phase { box_moves: true, hotspots: true, ..by_pushes };
        phases.push(Phase { share: FIRST_SHORT, forward_turns: FIRST_TURNS, ..box_moves });
        phases.push(Phase { share: PLAIN_SHORT, ..SHORT });
        let whole_moves = Phase { whole_box_moves: true, packing_macro: false, second_backward: true, ..box_moves };
        phases.push(Phase { share: WHOLE_MOVES_SHARE, ..whole_moves });
        let from_most_packed = Phase { from_most_packed: true, second_backward: true, ..by_pushes };
        phases.push(Phase { share: FROM_MOST_PACKED_SHARE, ..from_most_packed });
        let features = Phase { ranking: ((FEATURES, 0), SHORT.ranking.1), share: FEATURES_SHORT, ..box_moves };
        phases.push(features);
    } else {
        phases.push(SHORT);
    }
    if rooms {
        phases.push(STRICT);
        phases.push(Phase { weighted: weights, ..LONG });
    } else {
        // Room-less levels keep the packing macros throughout.
        phases.push(Phase { share: 1.0, weighted: weights, ..SHORT });
    }
    phases
}

/// The level's portfolio: with the strict phase when the options allow it and some goal
/// room has a packing order to enforce.
fn phases_for(packing: &Packing, options: &Options) -> Vec<Phase> {
    let strict_useful = options.switches.strict_rooms && packing.strict.iter().any(|&s| s);
    schedule(strict_useful, options.advisor_weights)
}

/// Run `phases` (see `phases_for`) in order; a proof of unsolvability from any of them is
/// final. Phases whose backward sides would search alike (the same ranking) share one. Each forward side takes over what the last one
/// proved (`search::Lessons`): on xsokoban 44 and 71 at 1,000,000 nodes that halves the
/// positions the corral searches visit, the search itself unchanged. Some phases run a
/// second backward side beside the shared one (`Phase::second_backward`).
fn portfolio(
    board: &Board,
    packing: &Packing,
    phases: Vec<Phase>,
    options: &Options,
    budget: &Budget,
    report: &mut Report,
) -> Outcome {
    let zobrist = Zobrist::new(board.n);
    let mut backward: Option<(Ranking, Side)> = None;
    let mut lessons = search::Lessons::new(board);
    let mut outcome = Outcome::OutOfTime;
    let mut most_packed: Vec<search::Waypoint> = Vec::new();
    let mut second: Option<Side> = None;
    for (number, mut p) in (1..).zip(phases) {
        if let Some(only) = options.only_phase {
            if number != only {
                continue;
            }
            p.share = 1.0;
        } else if p.from_most_packed && most_packed.is_empty() {
            continue;
        }
        let switches = Switches {
            strict_rooms: p.strict,
            packing_macro: options.switches.packing_macro && p.packing_macro,
            advisor_weights: p.weighted,
            box_move_weights: p.box_moves,
            hotspot_weights: p.hotspots,
            forward_turns: p.forward_turns,
            backward_turns: p.backward_turns,
            whole_box_moves: p.whole_box_moves,
            ..options.switches
        };
        // A forced order is the same plain order for both sides in every phase.
        let (fwd_ranking, bwd_ranking) = options.priority.map_or(p.ranking, |o| ((o, 0), (o, 0)));
        if backward.as_ref().is_some_and(|(key, _)| *key != bwd_ranking) {
            retire(&mut backward, report);
        }
        let bwd = &mut backward
            .get_or_insert_with(|| {
                let side = search::backward_side(
                    board,
                    &zobrist,
                    packing,
                    options.mode,
                    bwd_ranking,
                    switches,
                    budget.memory_bytes,
                );
                (bwd_ranking, side)
            })
            .1;
        let used = report.forward.expanded + report.backward.expanded;
        let phase_budget = budget.share(p.share, used);
        // Only the default rankings have feature cells for its children to wait in.
        let second_useful = p.second_backward && options.mode == Mode::Bidirectional && options.priority.is_none();
        if !second_useful {
            retire_side(second.take(), report);
        } else if second.is_none() {
            let memory = budget.memory_bytes;
            second = Some(search::second_backward_side(board, &zobrist, packing, bwd_ranking, switches, memory));
        }
        let (mode, lessons) = (options.mode, &mut lessons);
        let from = if p.from_most_packed { &most_packed[..] } else { &[] };
        let sides = search::Backward { shared: bwd, second: second.as_mut() };
        let run =
            search::run(board, packing, &zobrist, mode, fwd_ranking, sides, lessons, switches, &phase_budget, from);
        most_packed = run.most_packed;
        report.forward.add(&run.forward);
        report.backward.expanded += run.backward_expanded;
        report.phases.push((number, p.name(), budget.elapsed()));
        outcome = run.outcome;
        if matches!(outcome, Outcome::Solved(_) | Outcome::Unsolvable) {
            break;
        }
    }
    retire(&mut backward, report);
    retire_side(second, report);
    outcome
}

/// Drop a shared backward side, keeping its figures (its expansions are counted already).
fn retire(backward: &mut Option<(Ranking, Side)>, report: &mut Report) {
    retire_side(backward.take().map(|(_, side)| side), report);
}

/// Drop a backward side, keeping its figures (its expansions are counted already).
fn retire_side(side: Option<Side>, report: &mut Report) {
    if let Some(side) = side {
        let expanded = report.backward.expanded;
        report.backward.add(&side.stats);
        report.backward.expanded = expanded;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schedule_spends_the_whole_budget() {
        for (rooms, weights) in (0..4).map(|i| (i & 1 != 0, i & 2 != 0)) {
            let phases = schedule(rooms, weights);
            assert!(phases.iter().all(|p| p.share > 0.0 && p.share <= 1.0));
            // Only the last phase takes all that is left: none runs after the deadline.
            assert_eq!(phases.last().unwrap().share, 1.0);
            // The backward side gets every other expansion in the end, whatever went before.
            assert_eq!(phases.last().unwrap().forward_turns, 1);
            assert!(phases.iter().all(|p| p.backward_turns >= 1));
            assert_eq!(phases.iter().any(|p| p.backward_turns > 1), rooms, "only the strict phase");
            assert!(phases[..phases.len() - 1].iter().all(|p| p.share < 1.0));
            assert_eq!(phases.iter().any(|p| p.strict), rooms);
            assert_eq!(phases.iter().any(|p| p.weighted), weights);
            assert_eq!(phases.iter().any(|p| p.box_moves), weights);
            assert!(phases.iter().all(|p| p.weighted || !p.box_moves));
            assert_eq!(phases.iter().any(|p| p.hotspots), weights);
            assert!(phases.iter().all(|p| p.weighted || !p.hotspots));
            assert_eq!(phases.iter().any(|p| p.ranking.0 .0 == FEATURES), weights);
            // Whole box moves come after two searches by single pushes, the first one
            // weighted, the second plain; the search from their most packed nodes next.
            assert_eq!(phases.iter().position(|p| p.whole_box_moves), weights.then_some(2));
            assert_eq!(phases.iter().position(|p| p.from_most_packed), weights.then_some(3));
            if weights {
                assert!(phases[0].weighted && !phases[1].weighted && !phases[1].strict);
            }
        }
    }
}
