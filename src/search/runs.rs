//! The runs: one forward side against the backward sides (the shared one, perhaps a
//! second) under one budget, taking turns until they meet, run out or the budget ends;
//! and what a run hands on to the next (its most packed nodes, the lessons learned).

use super::*;

/// Join a forward path to node `f` with a backward path from node `b` (same state).
fn join(forward: &Table, f: u32, backward: &Table, b: u32) -> Vec<Push> {
    let mut pushes = forward.path_to(f);
    // Backward links point towards the solved layout; walking them is forward order.
    let mut i = b;
    while backward.parent(i) != NO_PARENT {
        pushes.push(backward.push_of(i));
        i = backward.parent(i);
    }
    pushes
}

/// Do `pushes`, made from the start, end with every box on a goal?
fn leads_home(board: &Board, pushes: &[Push]) -> bool {
    leads_to(&board.start_boxes, pushes, &board.goals)
}

/// Do `pushes`, each moving a box of the layout as it stands, take `boxes` to `end`?
pub(super) fn leads_to(boxes: &[Cell], pushes: &[Push], end: &[Cell]) -> bool {
    let mut layout = boxes.to_vec();
    for p in pushes {
        match layout.iter().position(|&b| b == p.from) {
            Some(i) if !layout.contains(&p.to) => layout[i] = p.to,
            _ => return false,
        }
    }
    let mut end = end.to_vec();
    layout.sort_unstable();
    end.sort_unstable();
    layout == end
}

/// How many of a forward side's most packed nodes a run hands on (`Run::most_packed`).
pub(super) const WAYPOINTS: usize = 8;

/// A position on the way from the start, and the pushes that lead there.
pub struct Waypoint {
    pub boxes: Vec<Cell>,
    pub player: Cell,
    pub pushes: Vec<Push>,
}

/// What one run found, and each search's figures.
pub struct Run {
    pub outcome: Outcome,
    /// The forward side's nodes with the most boxes on target, most first.
    pub most_packed: Vec<Waypoint>,
    pub forward: Stats,
    /// Expansions of the backward side in this run (it keeps its figures itself).
    pub backward_expanded: u64,
}

/// Memory for the forward side and the backward side, out of `m` bytes. The side that
/// only holds roots needs almost no room.
fn memory_split(mode: Mode, m: usize) -> (usize, usize) {
    let small = 1 << 20;
    match mode {
        Mode::Bidirectional => (m / 2, m / 2),
        Mode::Forward => (m, small),
        Mode::Backward => (small, m),
    }
}

/// The memory of a second backward side (`second_backward_side`) out of `m` bytes; the
/// forward side of each run beside it gives that up.
fn second_memory(m: usize) -> usize {
    m / 8
}

/// A second backward side takes one backward turn in this many. More turns starve the
/// shared side, which some levels meet and need grown (see
/// docs/experiments/2026-11-23-faster-expansions-second-backward-side.md).
const SECOND_SIDE_TURNS: u64 = 3;

/// The backward sides of one `run`: the shared one, and perhaps a second beside it.
pub struct Backward<'s, 'a> {
    pub shared: &'s mut Side<'a>,
    pub second: Option<&'s mut Side<'a>>,
}

#[cfg(test)]
impl<'s, 'a> Backward<'s, 'a> {
    pub fn one(shared: &'s mut Side<'a>) -> Self {
        Backward { shared, second: None }
    }
}

/// A second backward side, searching beside the shared one (`backward_side`) in some
/// phases: its children wait in their parents' feature cells (`Switches::parent_cells`),
/// so it reaches other states than the shared side, which the strict phase and others
/// need as it is.
pub fn second_backward_side(cx: Context, ranking: Ranking, switches: Switches, memory_bytes: usize) -> Side {
    let switches = Switches { parent_cells: true, ..switches };
    let memory = second_memory(memory_bytes);
    let mut side = Side::new(cx, Direction::Backward, ranking, switches, memory);
    side.add_solved_roots();
    side
}

/// The backward side for `run`, holding the solved layouts. Its search depends only on
/// its ranking, never on the forward side's switches, so phases that rank alike share
/// one backward side: each goes on where the last stopped, instead of doing
/// the same expansions again, and its forward side meets a deeper backward table.
pub fn backward_side(cx: Context, mode: Mode, ranking: Ranking, switches: Switches, memory_bytes: usize) -> Side {
    let (_, bwd_mem) = memory_split(mode, memory_bytes);
    let mut bwd = Side::new(cx, Direction::Backward, ranking, switches, bwd_mem);
    bwd.add_solved_roots();
    bwd
}

/// Run one strategy under the budget: a fresh forward side with its ranking against the
/// backward sides (the shared one from `backward_side`, perhaps carried on from an earlier
/// run, and perhaps a second one), with what earlier runs learned (`lessons`).
#[allow(clippy::too_many_arguments)]
pub fn run<'a>(
    cx: Context<'a>,
    mode: Mode,
    fwd_ranking: Ranking,
    sides: Backward<'_, 'a>,
    lessons: &mut Lessons,
    switches: Switches,
    budget: &Budget,
    from: &[Waypoint],
) -> Run {
    let Backward { shared: bwd, mut second } = sides;
    let (mut fwd_mem, _) = memory_split(mode, budget.memory_bytes);
    if second.is_some() {
        fwd_mem = fwd_mem.saturating_sub(second_memory(budget.memory_bytes));
    }
    let Context { board, zobrist, packing } = cx;
    let mut fwd = Side::new(cx, Direction::Forward, fwd_ranking, switches, fwd_mem);
    fwd.pruners.take_lessons(lessons);
    let bwd_before = backward_expanded(bwd, second.as_deref());
    let roots: Vec<u32> = if from.is_empty() {
        fwd.add_root(&board.start_boxes, board.start_player).into_iter().collect()
    } else {
        from.iter().filter_map(|w| fwd.add_root(&w.boxes, w.player)).collect()
    };
    let met = roots.iter().find_map(|&r| {
        let key = fwd.table.key(r);
        bwd.table.find(key, zobrist.of_key(key)).map(|b| (r, b))
    });
    let mut outcome = match (roots.is_empty(), met) {
        (true, _) => Outcome::Unsolvable, // the start itself is a deadlock
        (false, Some((r, b))) => Outcome::Solved(join(&fwd.table, r, &bwd.table, b)),
        (false, None) => search_loop(&mut fwd, bwd, second.as_deref_mut(), mode, budget),
    };
    if !from.is_empty() {
        // From waypoints nothing is proved about the start. A solution goes through one of
        // them: the one whose pushes, then the solution's, replay from the start (waypoints
        // may share a layout, their player's areas apart).
        outcome = match outcome {
            Outcome::Solved(pushes) => from
                .iter()
                .map(|w| [&w.pushes[..], &pushes[..]].concat())
                .find(|plan| leads_home(board, plan) && crate::solution::assemble(board, packing, plan).is_ok())
                .map_or(Outcome::OutOfTime, Outcome::Solved),
            Outcome::OutOfMemory => Outcome::OutOfMemory,
            _ => Outcome::OutOfTime,
        };
    }
    let nb = board.start_boxes.len();
    let mut ranked = fwd.most_packed.clone();
    ranked.sort_by_key(|&(_, packed)| std::cmp::Reverse(packed));
    let most_packed = ranked
        .iter()
        .map(|&(node, _)| {
            let key = fwd.table.key(node);
            // A node's path leads back to one of the roots; that root's own path comes first
            // (a root of the same layout but another area may be taken: the run from these
            // waypoints replays its plans).
            let path = fwd.table.path_to(node);
            let root = from.iter().find(|w| leads_to(&w.boxes, &path, &key[..nb]));
            let prefix = root.map_or(&[][..], |w| &w.pushes[..]);
            Waypoint { boxes: key[..nb].to_vec(), player: key[nb], pushes: [prefix, &path[..]].concat() }
        })
        .collect();
    fwd.finish_stats();
    fwd.pruners.give_back(lessons);
    bwd.finish_stats();
    if let Some(side) = second.as_deref_mut() {
        side.finish_stats();
    }
    let backward_expanded = backward_expanded(bwd, second.as_deref()) - bwd_before;
    Run { outcome, most_packed, forward: fwd.stats, backward_expanded }
}

/// The expansions of the backward sides so far, the second one's included.
fn backward_expanded(bwd: &Side, second: Option<&Side>) -> u64 {
    bwd.stats.expanded + second.map_or(0, |s| s.stats.expanded)
}

fn search_loop<'a>(
    fwd: &mut Side<'a>,
    bwd: &mut Side<'a>,
    mut second: Option<&mut Side<'a>>,
    mode: Mode,
    budget: &Budget,
) -> Outcome {
    let mut fwd_active = mode != Mode::Backward;
    let mut bwd_active = mode != Mode::Forward;
    let mut second_active = bwd_active && second.is_some();
    let bwd_before = backward_expanded(bwd, second.as_deref());
    let turns = fwd.switches.forward_turns.max(1);
    let backward_turns = fwd.switches.backward_turns.max(1);
    let mut turn = 0;
    let mut backward_turn = 0u64;
    loop {
        if !fwd_active && !bwd_active && !second_active {
            let overflowed = fwd.overflowed || bwd.overflowed || second.as_ref().is_some_and(|s| s.overflowed);
            return if overflowed { Outcome::OutOfMemory } else { Outcome::Exhausted };
        }
        if budget.expired(fwd.stats.expanded + backward_expanded(bwd, second.as_deref()) - bwd_before) {
            return Outcome::OutOfTime;
        }
        if fwd_active {
            let other = Opposite { table: &bwd.table, second: second.as_ref().map(|s| &s.table) };
            match fwd.expand_against(other, budget) {
                Step::Expanded => {}
                Step::Met { own, other, second: false } => {
                    return Outcome::Solved(join(&fwd.table, own, &bwd.table, other))
                }
                Step::Met { own, other, second: true } => {
                    let side = second.as_ref().expect("met a second table");
                    return Outcome::Solved(join(&fwd.table, own, &side.table, other));
                }
                Step::Exhausted if !fwd.overflowed && !fwd.incomplete => return Outcome::Unsolvable,
                // Whole box moves try few of the pushes, and on some levels none of their
                // children lives long (a corral at the start). The backward side would go
                // on alone for the rest of the phase's work: the phases after it get it.
                Step::Exhausted if fwd.switches.whole_box_moves => return Outcome::Exhausted,
                Step::Exhausted | Step::Full => fwd_active = false,
            }
        }
        turn = (turn + 1) % turns;
        let backward_now = if turn == 0 || !fwd_active { backward_turns } else { 0 };
        for _ in 0..backward_now {
            // The forward expansion may have used the last of the work.
            if budget.expired(fwd.stats.expanded + backward_expanded(bwd, second.as_deref()) - bwd_before) {
                return Outcome::OutOfTime;
            }
            backward_turn += 1;
            // The second side's turns, and all of them once the shared side can go no further.
            let use_second = second_active && (backward_turn % SECOND_SIDE_TURNS == 0 || !bwd_active);
            if use_second || bwd_active {
                let side = match second.as_deref_mut() {
                    Some(s) if use_second => s,
                    _ => &mut *bwd,
                };
                match side.expand(&fwd.table, budget) {
                    Step::Expanded => {}
                    Step::Met { own, other, .. } => return Outcome::Solved(join(&fwd.table, other, &side.table, own)),
                    Step::Exhausted if !side.overflowed && !side.incomplete => return Outcome::Unsolvable,
                    Step::Exhausted | Step::Full if use_second => second_active = false,
                    Step::Exhausted | Step::Full => bwd_active = false,
                }
            }
        }
    }
}
