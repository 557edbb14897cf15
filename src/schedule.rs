//! The portfolio's schedule: which searches run, in what order, and how much work each
//! may do, as one table (`TABLE`).
//!
//! Which search solves a level is chaotic: a small change in pruning or in the order of
//! equal children turns a level solved in 0.05 s into one unsolved in 10 s. So several
//! searches run one after another, each a fresh forward side against one backward side
//! that all of them share and that keeps growing (`solver::portfolio`). A phase's share is
//! work, expansions of its forward side and of the backward sides beside it, never
//! seconds: a level solved in phase P on a fast machine is solved in phase P on a slow
//! one, only later. The deadline cuts the end: the last phase that runs on a level goes on
//! until it, and the others leave it a quarter of the time (`RESERVE`).
//! docs/experiments/ holds the measurements behind each row.

use crate::packing::PlanChoice;
use crate::search::{Priority, Ranking, Switches};

/// The levels a phase runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Levels {
    All,
    /// Levels with a goal room whose packing order the strict search can enforce.
    OrderedRooms,
    /// The others.
    NoOrderedRooms,
    /// Levels with a global packing plan (`plan`).
    Planned,
    /// The others.
    Unplanned,
}

/// One phase of the portfolio.
#[derive(Clone, Copy, Debug)]
pub struct Phase {
    pub name: &'static str,
    pub levels: Levels,
    /// How the forward side ranks its open list.
    pub forward: Ranking,
    /// How the shared backward side ranks its open list: phases that rank alike share it.
    pub backward: Ranking,
    /// The search's techniques and knobs; the user's `--no-...` switches turn more off.
    pub switches: Switches,
    /// Expansions, forward and backward together, on the reference map (`expansions`
    /// converts them for a level); `None`: until the deadline.
    pub work: Option<u64>,
    /// The forward side starts from the last phase's nodes with the most boxes on target
    /// (`search::Waypoint`), not from the start; without such nodes the phase is skipped.
    pub from_most_packed: bool,
    /// A second backward side searches beside the shared one (`search::second_backward_side`);
    /// consecutive phases with it share it, and the first phase without it drops it.
    pub second_backward: bool,
}

/// Greedy and feature cells by turns: finds other solutions than greedy alone.
const ALTERNATE: Ranking = (Priority::Alternation, 0);
/// The backward side also counts the boxes not yet back on their start cells: that solves
/// levels the bound alone does not.
const BACKWARD: Ranking = (Priority::Alternation, 1);

/// The strict order is the strict phase's own: no other phase enforces it.
const PLAIN: Switches = Switches { strict_rooms: false, ..Switches::DEFAULT };
/// Feature cells serve their nodes by FESS advisor weight, counting pushes.
const BY_PUSHES: Switches = Switches { advisor_weights: true, ..PLAIN };
/// ... counting box moves, and a push that unblocks boxes is advised too.
const BY_BOX_MOVES: Switches = Switches { box_move_weights: true, hotspot_weights: true, ..BY_PUSHES };

const fn phase(name: &'static str, switches: Switches, work: Option<u64>) -> Phase {
    Phase {
        name,
        levels: Levels::All,
        forward: ALTERNATE,
        backward: BACKWARD,
        switches,
        work,
        from_most_packed: false,
        second_backward: false,
    }
}

/// The plan phases' switches: like the first phase, they leave the backward side one
/// turn in 16.
const BY_PLAN: Switches = Switches { forward_turns: 16, ..BY_BOX_MOVES };
/// ... each child one box moved whole, in place of the packing macros.
const BY_PLAN_WHOLE: Switches = Switches { whole_box_moves: true, packing_macro: false, ..BY_PLAN };

/// A phase on the levels with a global packing plan, its feature cells by the plan's
/// progress.
const fn plan_phase(name: &'static str, switches: Switches, work: Option<u64>) -> Phase {
    Phase { levels: Levels::Planned, forward: (Priority::Plan, 0), ..phase(name, switches, work) }
}

/// The portfolio, in the order it runs. The short searches come first, each solving
/// levels the others miss; the strict search enforces the packing order of goal rooms,
/// fast when the order is right; the last search, by pushes, takes what time is left.
pub const TABLE: [Phase; 13] = [
    // Solves most levels alone, so the backward side gets one turn in 16: it is shared,
    // and makes up its turns in the later phases. Packing macros make it much faster.
    phase("box moves", Switches { forward_turns: 16, ..BY_BOX_MOVES }, Some(WORK[0])),
    // On levels with a global packing plan, feature cells by its progress: fill goals and
    // parking cells in the plan's order, across rooms, each child a whole box move onto a
    // target of the plan's current phase or onto any cell off the goals, as FESS moves
    // boxes (onto any cell once the plan stalls). It runs second: the levels it solves the
    // phases on every level mostly miss, and at a short limit (or on a slow machine) they
    // would leave it no time.
    plan_phase("plan by whole box moves", BY_PLAN_WHOLE, Some(WORK[1])),
    // The same, every other turn given to the most packed cell (FESS's packing search
    // alternates so): greedier, it solves other levels, and some the first one misses.
    // It follows the level's last plan (`PlanChoice::Last`: the third, by all of YASS's
    // rules, else the second): each plan solves levels the others miss, this phase the most.
    // A node ranks by whichever of the level's plans it follows furthest: with its own plan
    // alone the phase misses levels the others' guidance solves, and the other way round.
    plan_phase(
        "plan by whole box moves, best cells",
        Switches { best_cells: true, plan: PlanChoice::Last, other_plans: true, ..BY_PLAN_WHOLE },
        Some(WORK[2]),
    ),
    // The first of these again, its order perturbed: which search solves a level is
    // chaotic, and of the plan phases these two solve the most levels for their work,
    // most of them within a third of it, so a shorter copy going another way solves others.
    // It follows the plan before the last (the second, where the level has a third), and
    // its cells take turns by advisor weight and by plain rank: levels whose solution
    // needs long runs of unadvised moves fall to the plain rank (`Alternation::cells`).
    plan_phase(
        "plan by whole box moves, seeded",
        Switches { seed: 1, plan: PlanChoice::BeforeLast, plain_cells: true, ..BY_PLAN_WHOLE },
        Some(WORK[3]),
    ),
    // On planned levels, the plan's feature cells by single pushes, best cells' turns
    // first, briefly: greedier, it solves levels the one without them solves late or not
    // at all, and on a slow machine the long one would leave it no time.
    plan_phase("plan, best cells", Switches { best_cells: true, ..BY_PLAN }, Some(WORK[4])),
    // Without: they solve other levels, some of them only late in the phase, so it comes
    // before the phases on every level (at 4 s, or on a slower machine, the reserve would
    // cut it). A best child ranked better than its parent is expanded next, as YASS's
    // search goes on depth first: it wins a level none of the phases solved, none lost.
    plan_phase("plan", Switches { dive: true, ..BY_PLAN }, Some(WORK[5])),
    // Without advisor weights: breadth for levels unlike those the weights were tuned on.
    phase("plain", PLAIN, Some(WORK[6])),
    // One box pushed as far as it takes per child (after YASS): other levels, fast. Like
    // the plan phase by whole box moves, it ends early when its forward side runs out.
    Phase {
        second_backward: true,
        ..phase(
            "whole box moves",
            Switches { whole_box_moves: true, packing_macro: false, ..BY_BOX_MOVES },
            Some(WORK[7]),
        )
    },
    // Whole box moves get near the end and stall where single pushes finish at once.
    Phase {
        from_most_packed: true,
        second_backward: true,
        ..phase("pushes from the most packed", BY_PUSHES, Some(WORK[8]))
    },
    // Feature cells alone, no greedy turns: solves yet other levels.
    Phase {
        levels: Levels::Unplanned,
        forward: (Priority::Features, 0),
        ..phase("feature cells", BY_BOX_MOVES, Some(WORK[9]))
    },
    // Greedy packs rooms best with the order enforced; three backward expansions to a
    // forward one grow the shared side its levels are met by. Incomplete: when its
    // forward side runs out, the backward side goes on alone (it can still meet it).
    Phase {
        levels: Levels::OrderedRooms,
        forward: (Priority::Greedy, 0),
        ..phase("strict", Switches { strict_rooms: true, packing_macro: false, backward_turns: 3, ..PLAIN }, None)
    },
    Phase { levels: Levels::OrderedRooms, ..phase("last", Switches { packing_macro: false, ..BY_PUSHES }, None) },
    // Room-less levels keep the packing macros throughout.
    Phase { levels: Levels::NoOrderedRooms, ..phase("last", BY_PUSHES, None) },
];

/// The share of the whole time that the phases with work of their own leave to the last
/// phase: they end early when only this much is left. On the development machine at 10 s
/// they are done by then; on a slower machine (or a shorter limit) the first phases still
/// get all their work, and the strict phase, which solves levels by meeting a backward
/// side grown all along, still gets its time.
pub const RESERVE: f64 = 0.25;

/// The work of the phases with a share, in the table's order, in expansions of a map of
/// `REFERENCE_CELLS` floor cells and `REFERENCE_BOXES` boxes (see `expansion_cost`). At the
/// development machine's median rate for each phase (in CPU time) the phases on every
/// level are about the seconds they had when shares were fractions of the time left at
/// 10 s: box moves 2.0, plain 0.4, whole box moves 2.3, from the most packed 0.8 and
/// feature cells 1.9 s; the plan phase by whole box moves, added later, 1.9 s (0.3 to
/// 4.5 s: its children per expansion grow with the floor a box can reach), and the same
/// again with best cells' turns; the plan phase by pushes with best cells' turns, added
/// later, a fifth of the one without (300,000 then); the seeded copy of the plan phase by
/// whole box moves, added last, as much, and 24,000 more once its cells took turns by
/// plain rank too, taken from the plan phase by pushes without best cells' turns, so that
/// the phases after it keep their work.
const WORK: [u64; 10] = [234_000, 100_000, 100_000, 84_000, 60_000, 276_000, 64_000, 333_000, 118_000, 235_000];

const REFERENCE_CELLS: f64 = 100.0;
const REFERENCE_BOXES: f64 = 10.0;

/// What one expansion costs on a map of `cells` floor cells and `boxes` boxes, in
/// expansions of the reference map: it floods the floor and repairs a matching over the
/// boxes. The exponents fit the expansion rates (per CPU second) of every phase on maps of
/// xsokoban, Sasquatch and Mas Sasquatch; a phase's work in time then varies about half
/// as much from map to map as in bare expansions, and does not depend on the machine.
pub fn expansion_cost(cells: usize, boxes: usize) -> f64 {
    let cost = (cells as f64 / REFERENCE_CELLS).powf(0.7) * (boxes as f64 / REFERENCE_BOXES).powf(0.6);
    cost.clamp(1.0 / 16.0, 64.0)
}

/// The expansions a phase with `work` may use on a map that costs `cost` per expansion,
/// its work divided by `divisor` too (see `solver::Options::work_divisor`).
pub fn expansions(work: u64, cost: f64, divisor: u64) -> u64 {
    ((work / divisor.max(1)) as f64 / cost).ceil() as u64
}

/// The phases for a level, with or without ordered goal rooms; `advisor_weights: false`
/// leaves out the phases that need them and turns them off in the last.
pub fn phases_for(ordered_rooms: bool, planned: bool, advisor_weights: bool) -> Vec<Phase> {
    TABLE
        .iter()
        .filter(|p| match p.levels {
            Levels::All => true,
            Levels::OrderedRooms => ordered_rooms,
            Levels::NoOrderedRooms => !ordered_rooms,
            Levels::Planned => planned,
            Levels::Unplanned => !planned,
        })
        .filter(|p| advisor_weights || !p.switches.advisor_weights || p.work.is_none())
        .map(|&p| {
            let advice = advisor_weights && p.switches.advisor_weights;
            Phase { switches: Switches { advisor_weights: advice, ..p.switches }, ..p }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// README's schedule table lists the phases in the table's order, with their levels
    /// and work, so that the document a newcomer reads first stays true.
    #[test]
    fn readme_shows_the_schedule() {
        let readme = include_str!("../README.md");
        let start = readme.find("<!-- schedule:begin -->").expect("schedule markers in README.md");
        let end = readme.find("<!-- schedule:end -->").expect("schedule markers in README.md");
        let rows: Vec<Vec<&str>> = readme[start..end]
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| #"))
            .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
            .collect();
        assert_eq!(rows.len(), TABLE.len(), "{:?}", rows);
        for (row, p) in rows.iter().zip(&TABLE) {
            let levels = match p.levels {
                Levels::All => "all",
                Levels::OrderedRooms => "ordered rooms",
                Levels::NoOrderedRooms => "other levels",
                Levels::Planned => "planned",
                Levels::Unplanned => "unplanned",
            };
            let work = match p.work {
                Some(w) => format!("{},{:03}", w / 1000, w % 1000),
                None => "to the deadline".to_string(),
            };
            assert_eq!((row[1], row[2], row[row.len() - 1]), (p.name, levels, work.as_str()), "README row {:?}", row);
        }
    }

    #[test]
    fn bigger_maps_get_fewer_expansions() {
        let reference = expansions(100_000, expansion_cost(100, 10), 1);
        assert_eq!(reference, 100_000);
        let big = expansions(100_000, expansion_cost(400, 30), 1);
        assert!(big < reference / 4, "{big}");
        assert!(expansions(100_000, expansion_cost(30, 2), 1) > reference);
        assert!(expansions(100_000, expansion_cost(65_000, 500), 1) > 0);
        assert_eq!(expansions(100_000, 1.0, 64), 1_562);
    }

    #[test]
    fn every_portfolio_ends_in_a_phase_that_runs_to_the_deadline() {
        for (rooms, weights, planned) in (0..8).map(|i| (i & 1 != 0, i & 2 != 0, i & 4 != 0)) {
            let phases = phases_for(rooms, planned, weights);
            // The phases with a share come first; the last phase has none, so no time is
            // left unused, and the strict one before it may end early, being incomplete.
            let first_open = phases.iter().position(|p| p.work.is_none()).unwrap();
            assert!(phases[..first_open].iter().all(|p| p.work.is_some_and(|w| w > 0)));
            assert!(phases[first_open..].iter().all(|p| p.work.is_none()));
            assert_eq!(phases.len() - first_open, if rooms { 2 } else { 1 });
            // The backward side gets every other expansion in the end, whatever went before.
            let last = phases.last().unwrap();
            assert_eq!((last.switches.forward_turns, last.switches.backward_turns), (1, 1));
            assert_eq!(phases.iter().any(|p| p.switches.strict_rooms), rooms);
            assert!(phases.iter().all(|p| p.switches.backward_turns == 1 || p.switches.strict_rooms));
            let weighed = |p: &&Phase| p.switches.advisor_weights;
            assert_eq!(phases.iter().any(|p| weighed(&p)), weights);
            assert!(phases.iter().all(|p| weighed(&p) || !p.switches.box_move_weights && !p.switches.hotspot_weights));
            // A plan's feature cells come second to fourth, by whole box moves, the second
            // time giving best cells turns and the third seeded, and fifth and sixth by
            // pushes, the first time giving them turns, before the phases on every level;
            // feature cells alone come after those on the levels without a plan.
            let plan = planned && weights;
            let by_plan: Vec<usize> = (0..phases.len()).filter(|&i| phases[i].forward.0 == Priority::Plan).collect();
            assert_eq!(by_plan, if plan { vec![1, 2, 3, 4, 5] } else { vec![] });
            let whole = |i: &usize| phases[*i].switches.whole_box_moves;
            assert_eq!(by_plan.iter().filter(|i| whole(i)).count(), by_plan.len().min(3));
            let best: Vec<usize> = (0..phases.len()).filter(|&i| phases[i].switches.best_cells).collect();
            assert_eq!(best, if plan { vec![2, 4] } else { vec![] });
            let seeded: Vec<usize> = (0..phases.len()).filter(|&i| phases[i].switches.seed != 0).collect();
            assert_eq!(seeded, if plan { vec![3] } else { vec![] });
            // The best cells' phase by whole box moves follows the level's last plan, the
            // seeded one the plan before it; the rest the first.
            let chosen: Vec<PlanChoice> = by_plan.iter().map(|&i| phases[i].switches.plan).collect();
            let (first, last, before) = (PlanChoice::First, PlanChoice::Last, PlanChoice::BeforeLast);
            assert_eq!(chosen, if plan { vec![first, last, before, first, first] } else { vec![] });
            // Only the best cells' phase by whole box moves ranks by the other plans too.
            let others: Vec<usize> = (0..phases.len()).filter(|&i| phases[i].switches.other_plans).collect();
            assert_eq!(others, if plan { vec![2] } else { vec![] });
            let features = phases.iter().position(|p| p.forward.0 == Priority::Features);
            assert_eq!(features, (weights && !planned).then_some(4));
            // The phases on every level: two searches by single pushes, the first one
            // weighted, the second plain; whole box moves; the search from their most
            // packed nodes next.
            let on_all: Vec<&Phase> = phases.iter().filter(|p| p.forward.0 != Priority::Plan).collect();
            assert_eq!(on_all.iter().position(|p| p.switches.whole_box_moves), weights.then_some(2));
            assert_eq!(on_all.iter().position(|p| p.from_most_packed), weights.then_some(3));
            if weights {
                assert!(on_all[0].switches.advisor_weights && !on_all[1].switches.advisor_weights);
            }
        }
    }
}
