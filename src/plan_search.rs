//! A second source of packing plans, for levels the goal peeling finds none for: a
//! best-first search backward from the solved position over whole pulls (after the plan
//! search of Festival, FESS). A box pulled onto an unused start cell vanishes with it, as
//! long as the boxes left can still be matched to the start cells left; when some box can
//! vanish, only such pulls are tried. Other pulls park a box on a cell off the goals that
//! a start box could be pushed to. Nodes go fewest boxes left first, then fewest on goals,
//! then boxes farthest from the goals (room for the next pulls).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::board::{Board, Cell, FAR, NONE};
use crate::frozen_goals::Assignment;
use crate::limits::PLAN_SEARCH_BOXES;
use crate::plan::{solved_areas, Op, Puller};
use crate::state::QuickSet;

/// What happened to a box between a node and its parent, backwards.
#[derive(Clone, Copy)]
enum Event {
    Root,
    /// The box that came from goal `goal` was pulled from `from` to another cell.
    Pull {
        goal: Cell,
        from: Cell,
    },
    /// ... vanished from `from` onto a start cell.
    Vanish {
        goal: Cell,
        from: Cell,
    },
}

/// What a node costs beside its boxes, in boxes' worth (its vectors' headers, its table
/// entry): on maps with few boxes the node count is what fills memory.
const NODE_OVERHEAD: usize = 16;

/// A node's place in the queue, lowest first: boxes left, boxes on goals, the boxes'
/// distances to the goals (the larger the better), then the older node.
type Rank = (usize, usize, Reverse<u64>, u32);

struct Node {
    /// (cell, the goal the box stood on in the solved position), by cell.
    boxes: Vec<(Cell, Cell)>,
    /// The start cells boxes vanished on, a bit each by their index in `start_boxes`.
    used: Vec<u64>,
    /// The smallest cell of the player's area.
    player: Cell,
    parent: u32,
    event: Event,
}

struct Search<'b> {
    board: &'b Board,
    /// Per start cell: its index in `board.start_boxes`, else `u32::MAX`.
    start_index: Vec<u32>,
    /// Per cell, `words` words: the start cells a box could be pushed from to it on the
    /// empty board.
    feeds: Vec<u64>,
    words: usize,
    /// Per cell: pushes to the nearest goal on the empty board.
    near: Vec<u16>,
    occ: Vec<bool>,
    puller: Puller,
    assignment: Assignment,
    sets: Vec<u64>,
}

impl Search<'_> {
    /// Can every box of `boxes` but `skip` be matched to its own start cell, unused and
    /// not `taken`, that a box could be pushed from to the box's cell?
    fn matchable(&mut self, boxes: &[(Cell, Cell)], skip: usize, used: &[u64], taken: u32) -> bool {
        // Paid like a flood of as many cells as boxes: on maps with many boxes and starts
        // the matchings, not the floods, would take the time.
        self.puller.work = self.puller.work.saturating_sub(boxes.len() as u64);
        let w = self.words;
        let mut closed = used.to_vec();
        closed[taken as usize / 64] |= 1 << (taken % 64);
        self.sets.clear();
        for &(c, _) in boxes.iter().enumerate().filter(|t| t.0 != skip).map(|t| t.1) {
            let feeds = &self.feeds[c as usize * w..(c as usize + 1) * w];
            self.sets.extend(feeds.iter().zip(&closed).map(|(f, u)| f & !u));
        }
        self.assignment.sets.clear();
        self.assignment.sets.extend((0..boxes.len() - 1).map(|i| i * w));
        self.assignment.all_placed(&self.sets, w, self.board.start_boxes.len())
    }
}

/// The peeling's steps for `board`, found by the search within `work` cells flooded, or
/// `None`.
pub fn find(board: &Board, work: u64) -> Option<Vec<Op>> {
    let n = board.n;
    if board.from_start.len() < board.start_boxes.len() * n || board.to_goal.len() < board.goals.len() * n {
        return None;
    }
    let mut start_index = vec![u32::MAX; n];
    board.start_boxes.iter().enumerate().for_each(|(i, &s)| start_index[s as usize] = i as u32);
    let starts = board.start_boxes.len();
    let words = starts.div_ceil(64);
    let mut feeds = vec![0u64; n * words];
    for (k, c) in (0..starts).flat_map(|k| (0..n).map(move |c| (k, c))) {
        if board.from_start[k * n + c] != FAR {
            feeds[c * words + k / 64] |= 1 << (k % 64);
        }
    }
    let near = (0..n).map(|c| (0..board.goals.len()).map(|g| board.to_goal[g * n + c]).min().unwrap_or(FAR)).collect();
    let mut s = Search {
        board,
        start_index,
        feeds,
        words,
        near,
        occ: vec![false; n],
        puller: Puller::new(n, work),
        assignment: Assignment::default(),
        sets: Vec::new(),
    };
    let mut nodes: Vec<Node> = Vec::new();
    let mut heap: BinaryHeap<Reverse<Rank>> = BinaryHeap::new();
    let mut known: QuickSet<(Vec<Cell>, Vec<u64>, Cell)> = QuickSet::default();
    let solved: Vec<(Cell, Cell)> = board.goals.iter().map(|&g| (g, g)).collect();
    for least in solved_areas(board, &mut s.puller.reach) {
        let node =
            Node { boxes: solved.clone(), used: vec![0; words], player: least, parent: u32::MAX, event: Event::Root };
        known.insert((board.goals.clone(), node.used.clone(), least));
        heap.push(Reverse((n, n, Reverse(0), nodes.len() as u32)));
        nodes.push(node);
    }
    let mut stored = 0;
    while let Some(Reverse((_, _, _, at))) = heap.pop() {
        if s.puller.work == 0 || stored > PLAN_SEARCH_BOXES {
            return None;
        }
        let (boxes, used, player) = {
            let node = &nodes[at as usize];
            (node.boxes.clone(), node.used.clone(), node.player)
        };
        if boxes.is_empty() {
            match ops_of(&nodes, at) {
                Some(ops) => return Some(ops),
                None => continue,
            }
        }
        s.occ.iter_mut().for_each(|o| *o = false);
        boxes.iter().for_each(|&(c, _)| s.occ[c as usize] = true);
        let mut vanish: Vec<(usize, Cell, u32)> = Vec::new();
        let mut moves: Vec<(usize, Cell, Cell)> = Vec::new();
        for (i, &(c, _)) in boxes.iter().enumerate() {
            let pulls = s.puller.pulls(board, &mut s.occ, c, player, |_| false);
            let unused = |k: u32| k != u32::MAX && used[k as usize / 64] >> (k % 64) & 1 == 0;
            // A box already on an unused start cell may vanish where it stands; else on the
            // nearest unused start it can be pulled to.
            let here = Some(s.start_index[c as usize]).filter(|&k| unused(k));
            let vanishes = here.filter(|&k| s.matchable(&boxes, i, &used, k)).or_else(|| {
                pulls.iter().find_map(|&(x, _)| {
                    let k = s.start_index[x as usize];
                    (unused(k) && s.matchable(&boxes, i, &used, k)).then_some(k)
                })
            });
            if let Some(k) = vanishes {
                vanish.push((i, c, k));
            }
            if vanish.is_empty() {
                for (x, p) in pulls {
                    let fed = s.feeds[x as usize * s.words..][..s.words].iter().any(|&f| f != 0);
                    if !board.is_goal[x as usize] && fed && !board.dead_fwd[x as usize] {
                        moves.push((i, x, p));
                    }
                }
            }
        }
        let mut children: Vec<Node> = Vec::new();
        if !vanish.is_empty() {
            for (i, c, k) in vanish {
                let mut b = boxes.clone();
                let (_, goal) = b.remove(i);
                let mut u = used.clone();
                u[k as usize / 64] |= 1 << (k % 64);
                children.push(Node { boxes: b, used: u, player, parent: at, event: Event::Vanish { goal, from: c } });
            }
        } else {
            for (i, x, p) in moves {
                let mut b = boxes.clone();
                let (from, goal) = b[i];
                b[i] = (x, goal);
                b.sort_unstable();
                children.push(Node {
                    boxes: b,
                    used: used.clone(),
                    player: p,
                    parent: at,
                    event: Event::Pull { goal, from },
                });
            }
        }
        for mut child in children {
            s.occ.iter_mut().for_each(|o| *o = false);
            child.boxes.iter().for_each(|&(c, _)| s.occ[c as usize] = true);
            let (least, visited) = s.puller.reach.flood(board, &s.occ, NONE, &[child.player]);
            s.puller.work = s.puller.work.saturating_sub(visited as u64);
            if least == NONE {
                continue;
            }
            child.player = least;
            let cells: Vec<Cell> = child.boxes.iter().map(|&(c, _)| c).collect();
            if !known.insert((cells, child.used.clone(), least)) {
                continue;
            }
            let on_goals = child.boxes.iter().filter(|&&(c, _)| board.is_goal[c as usize]).count();
            let spread: u64 = child.boxes.iter().map(|&(c, _)| s.near[c as usize] as u64).sum();
            heap.push(Reverse((child.boxes.len(), on_goals, Reverse(spread), nodes.len() as u32)));
            stored += child.boxes.len() + NODE_OVERHEAD;
            nodes.push(child);
        }
    }
    None
}

/// The peeling's steps along the path to `at`: a box's first pull off its goal parks it
/// (where it vanishes from later); vanishing boxes in a row are one step. `None` when two
/// boxes park on one cell: a plan's cell is one target.
fn ops_of(nodes: &[Node], at: u32) -> Option<Vec<Op>> {
    let mut events = Vec::new();
    let mut i = at;
    while i != u32::MAX {
        events.push(nodes[i as usize].event);
        i = nodes[i as usize].parent;
    }
    events.reverse();
    let mut ops: Vec<Op> = Vec::new();
    let mut parked: Vec<Cell> = Vec::new();
    for e in events {
        match e {
            Event::Root => {}
            Event::Pull { goal, from } if from == goal => ops.push(Op::Park(goal)),
            Event::Pull { .. } => {}
            Event::Vanish { goal, from } => {
                if from != goal {
                    if parked.contains(&from) {
                        return None;
                    }
                    parked.push(from);
                }
                let cell = (from, if from == goal { NONE } else { goal });
                match ops.last_mut() {
                    Some(Op::Remove(cells)) => cells.push(cell),
                    _ => ops.push(Op::Remove(vec![cell])),
                }
            }
        }
    }
    Some(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Plan;

    #[test]
    fn every_searched_plan_fills_each_goal_once_and_parks_on_distinct_cells_off_the_goals() {
        let mut rooms = crate::testing::Rooms::new(5);
        let (mut plans, mut parked) = (0, 0);
        for _ in 0..2000 {
            let Some((b, _)) = rooms.room(6, 4, 7, 12, b"$$$...@") else { continue };
            let Some(ops) = find(&b, 200_000) else { continue };
            let mut goals = Vec::new();
            let mut parking = Vec::new();
            for op in &ops {
                match op {
                    Op::Park(g) => goals.push(*g),
                    Op::Remove(cells) => {
                        for &(c, from) in cells {
                            if from == NONE {
                                goals.push(c);
                            } else {
                                assert!(!b.is_goal[c as usize] && b.is_goal[from as usize]);
                                // Backward, the box left its goal before it vanished here.
                                assert!(goals.contains(&from));
                                parking.push(c);
                            }
                        }
                    }
                }
            }
            goals.sort_unstable();
            let mut want = b.goals.clone();
            want.sort_unstable();
            assert_eq!(goals, want);
            let n = parking.len();
            parking.sort_unstable();
            parking.dedup();
            assert_eq!(parking.len(), n);
            plans += 1;
            parked += n;
            let plan = Plan::from_ops(&b, &ops);
            assert_eq!(plan.cells.len(), b.goals.len() + n);
        }
        assert!(plans > 100, "{plans} plans, {parked} parking cells");
    }

    #[test]
    fn the_search_finds_plans_where_the_peeling_finds_none() {
        for text in [
            "#########\n#.$  #  #\n#$   .  #\n#.  # $ #\n# $     #\n#   .@  #\n#########\n",
            "#########\n# .. $$ #\n#       #\n## @ $ $#\n#  # .  #\n# #    .#\n#########\n",
        ] {
            let b = Board::from_text(text);
            assert!(Plan::peeled(&b).is_none(), "{text}");
            assert!(find(&b, 500_000).is_some(), "{text}");
            assert_eq!(Plan::find(&b).map(|p| p.source), Some("plan search"), "{text}");
        }
    }
}
