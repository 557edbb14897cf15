//! Fewer moves: stretches of the solution planned again by moves, walks included.
//!
//! The push pass (`shorten::pushes`) counts pushes only; most of what is left is walking:
//! the player goes back and forth between boxes that could be pushed in another order or
//! from another side. For each stretch that moves at most `MAX_MOVED` boxes, a cheapest-
//! first search over those boxes' pushes, each costing the walk to it plus one, looks for
//! a cheaper way to the stretch's last layout; the walk from there to the next push of the
//! solution is part of the cost, so the rest of the solution is untouched and the whole
//! answer gets shorter by exactly what the stretch saves.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{
    bound, end_cells, moved_boxes, stretch_len, Distances, Moved, QuickMap, Walks, Work, MAX_MOVED, WINDOW_WORK,
};
use crate::board::{Board, Cell, NONE};
use crate::budget::Budget;
use crate::state::Push;

/// `plan` (single pushes from the start, each legal) with cheaper stretches spliced in:
/// never more moves. Expands at most `work_limit` positions, and `earned` more for each
/// move it saves (a pass that pays goes on), and stops at the budget's deadline.
pub fn moves(board: &Board, plan: Vec<Push>, budget: &Budget, work_limit: usize, earned: usize) -> Vec<Push> {
    let mut plan = plan;
    let mut work = Work { done: 0, limit: work_limit };
    let mut walks = Walks::new(board.n);
    let mut to_cell = Distances::default();
    let mut occupied = vec![false; board.n];
    let (mut boxes, mut player) = (board.start_boxes.clone(), board.start_player);
    let mut i = 0;
    while i + 1 < plan.len() && !work.spent() && !budget.past_deadline() {
        // The longest stretch from push i: it holds every shorter one's savings.
        let len = stretch_len(&plan[i..], MAX_MOVED);
        let window = &plan[i..i + len];
        if len >= 2 {
            let (moved, fixed) = moved_boxes(&boxes, window, MAX_MOVED).expect("a stretch of few boxes");
            let end = end_cells(&moved, window);
            work.done += to_cell.compute_all(board, &end);
            let rows: Vec<&[u16]> = end.iter().map(|e| &to_cell.rows[e][..]).collect();
            // The next push's standing cell, where the stretch must leave the player.
            let next = plan.get(i + len).map(|p| board.step(p.from, p.dir as usize ^ 1));
            let stretch = Stretch { fixed: &fixed, moved: &moved, end: &end, rows: &rows, player, next };
            let old = stretch.cost_of(board, &mut occupied, &mut walks, window);
            if let Some((cheaper, cost)) = stretch.cheapest(board, &mut occupied, &mut walks, old, &mut work) {
                plan.splice(i..i + len, cheaper);
                work.limit += (old - cost) as usize * earned;
            }
        }
        // Half a stretch on: the next one overlaps this one's second half.
        for _ in 0..(len / 2).max(1).min(plan.len() - i) {
            let p = plan[i];
            if let Some(b) = boxes.iter_mut().find(|b| **b == p.from) {
                *b = p.to;
            }
            player = p.from;
            i += 1;
        }
    }
    plan
}

/// One stretch: the boxes standing still, the moved ones as they start (sorted) and
/// end, their push-distance rows, the player's start, and where he must walk to after.
struct Stretch<'s> {
    fixed: &'s [Cell],
    moved: &'s [Cell],
    end: &'s [Cell],
    rows: &'s [&'s [u16]],
    player: Cell,
    next: Option<Cell>,
}

impl Stretch<'_> {
    /// Moves of `window` from the stretch's start, and the walk after it.
    fn cost_of(&self, board: &Board, occupied: &mut [bool], walks: &mut Walks, window: &[Push]) -> u32 {
        let mut boxes = self.moved.to_vec();
        let (mut at, mut cost) = (self.player, 0);
        for p in window {
            let stand = board.step(p.from, p.dir as usize ^ 1);
            self.mark(occupied, &boxes, true);
            walks.from(board, occupied, at, Some(stand), u32::MAX);
            self.mark(occupied, &boxes, false);
            cost += walks.to(stand).expect("the plan's pushes are legal") + 1;
            let k = boxes.iter().position(|&b| b == p.from).expect("a moved box");
            boxes[k] = p.to;
            at = p.from;
        }
        boxes.sort_unstable();
        cost + self.walk_after(board, occupied, walks, &boxes, at).expect("the plan goes on")
    }

    /// Steps from `at` to the next push's standing cell with `boxes` moved (0 at the end).
    fn walk_after(
        &self,
        board: &Board,
        occupied: &mut [bool],
        walks: &mut Walks,
        boxes: &[Cell],
        at: Cell,
    ) -> Option<u32> {
        let Some(next) = self.next else { return Some(0) };
        self.mark(occupied, boxes, true);
        walks.from(board, occupied, at, Some(next), u32::MAX);
        self.mark(occupied, boxes, false);
        walks.to(next)
    }

    /// Steps the player at `at` must walk before the next push at least: to beside a box
    /// of `boxes` that is not on an end cell (each of them must move).
    fn walk_bound(&self, board: &Board, boxes: &[Cell], at: Cell) -> u32 {
        boxes
            .iter()
            .filter(|b| !self.end.contains(b))
            .map(|&b| board.grid_distance(at, b) as u32 - 1)
            .min()
            .unwrap_or(0)
    }

    fn mark(&self, occupied: &mut [bool], boxes: &[Cell], on: bool) {
        self.fixed.iter().chain(boxes).for_each(|&b| occupied[b as usize] = on);
    }

    /// The pushes of a way cheaper than `old` moves, found cheapest first, and its moves;
    /// or `None`.
    fn cheapest(
        &self,
        board: &Board,
        occupied: &mut [bool],
        walks: &mut Walks,
        old: u32,
        work: &mut Work,
    ) -> Option<(Vec<Push>, u32)> {
        let m = self.moved.len();
        let mut start = [NONE; MAX_MOVED];
        start[..m].copy_from_slice(self.moved);
        // Node: its boxes (sorted, `NONE` after the first `m`), the player's cell, its
        // cost, parent and push.
        let mut nodes: Vec<(Moved, Cell, u32, usize, Push)> = Vec::new();
        let mut best: QuickMap<(Moved, Cell), u32> = QuickMap::default();
        let mut open = BinaryHeap::new();
        best.insert((start, self.player), 0);
        let h = bound(self.rows, self.moved) as u32 + self.walk_bound(board, self.moved, self.player);
        open.push(Reverse((h, 0usize)));
        nodes.push((start, self.player, 0, usize::MAX, Push::step(NONE, 0, NONE)));
        let (mut found, mut limit) = (None, old);
        while let Some(Reverse((f, k))) = open.pop() {
            if f >= limit || nodes.len() > WINDOW_WORK || work.spent() {
                break;
            }
            let (all, at, g) = (nodes[k].0, nodes[k].1, nodes[k].2);
            if best.get(&(all, at)).is_some_and(|&b| b < g) {
                continue;
            }
            work.done += 1;
            let boxes = &all[..m];
            if boxes == self.end {
                if let Some(after) = self.walk_after(board, occupied, walks, boxes, at) {
                    if g + after < limit {
                        (found, limit) = (Some(k), g + after);
                    }
                }
            }
            // A walk of `limit - g - 1` steps or more makes no child cheaper than `limit`
            // (none at all once this node, the end, has just set `limit` to `g`).
            self.mark(occupied, boxes, true);
            walks.from(board, occupied, at, None, limit.saturating_sub(g + 1));
            for (j, &b) in boxes.iter().enumerate() {
                for d in 0..4 {
                    let (to, stand) = (board.step(b, d), board.step(b, d ^ 1));
                    if to == NONE || stand == NONE || occupied[to as usize] || board.dead_fwd[to as usize] {
                        continue;
                    }
                    let Some(walk) = walks.to(stand) else { continue };
                    let mut next = all;
                    next[j] = to;
                    next[..m].sort_unstable();
                    let h = bound(self.rows, &next[..m]) as u32 + self.walk_bound(board, &next[..m], b);
                    let g2 = g + walk + 1;
                    if g2 + h >= limit || best.get(&(next, b)).is_some_and(|&o| o <= g2) {
                        continue;
                    }
                    best.insert((next, b), g2);
                    open.push(Reverse((g2 + h, nodes.len())));
                    nodes.push((next, b, g2, k, Push::step(b, d as u8, to)));
                }
            }
            self.mark(occupied, boxes, false);
        }
        let mut k = found?;
        let mut path = Vec::new();
        while nodes[k].3 != usize::MAX {
            path.push(nodes[k].4);
            k = nodes[k].3;
        }
        path.reverse();
        Some((path, limit))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{move_count, pushes_of};
    use super::*;
    use crate::level::Level;
    use crate::solver::{self, Options, Verdict};

    #[test]
    fn two_boxes_pushed_by_turns_are_pushed_one_after_the_other() {
        // The plan walks between the two boxes after every push; one box after the other
        // saves the walks.
        let level = Level::parse("########\n#@$  . #\n#      #\n#  $  .#\n########\n").unwrap();
        let b = Board::analyse(&level).unwrap();
        let (top, low) = (b.start_boxes[0], b.start_boxes[1]);
        let right = |c: Cell| b.step(c, 3);
        let turns = vec![
            Push::step(top, 3, right(top)),
            Push::step(low, 3, right(low)),
            Push::step(right(top), 3, right(right(top))),
            Push::step(right(low), 3, right(right(low))),
            Push::step(right(right(top)), 3, right(right(right(top)))),
            Push::step(right(right(low)), 3, right(right(right(low)))),
        ];
        let before = move_count(&level, &b, &turns);
        let after = moves(&b, turns, &Budget::nodes(1, 1 << 20), 100_000, 0);
        assert!(move_count(&level, &b, &after) < before);
    }

    /// A pass that saves moves earns work: with just enough work for its first saving, it
    /// stops there without earnings, and goes on to the end with them.
    #[test]
    fn savings_earn_the_work_to_go_on() {
        // Two boxes pushed right by turns along a long room: every stretch saves walks.
        let (wall, gap, open) = ("#".repeat(34), " ".repeat(29), " ".repeat(32));
        let rows = [wall.clone(), format!("#@${}.#", gap), format!("#{}#", open), format!("# ${}.#", gap), wall];
        let level = Level::parse(&(rows.join("\n") + "\n")).unwrap();
        let b = Board::analyse(&level).unwrap();
        let mut turns = Vec::new();
        let mut boxes = b.start_boxes.clone();
        for _ in 0..30 {
            for k in 0..2 {
                let to = b.step(boxes[k], 3);
                turns.push(Push::step(boxes[k], 3, to));
                boxes[k] = to;
            }
        }
        let budget = Budget::nodes(1, 1 << 20);
        let before = move_count(&level, &b, &turns);
        let best = move_count(&level, &b, &moves(&b, turns.clone(), &budget, 1_000_000, 0));
        assert!(best < before, "nothing saved: {} moves", before);
        // The least work (a power of two) that saves anything.
        let mut limit = 1;
        while limit < 1_000_000 && move_count(&level, &b, &moves(&b, turns.clone(), &budget, limit, 0)) == before {
            limit *= 2;
        }
        let unpaid = move_count(&level, &b, &moves(&b, turns.clone(), &budget, limit, 0));
        let earning = move_count(&level, &b, &moves(&b, turns, &budget, limit, 1_000));
        assert!(best < unpaid, "{} moves at most, {} with {} work", best, unpaid, limit);
        assert_eq!(earning, best, "{} moves with earnings", earning);
    }

    /// The solver's own answers on small random rooms: never more moves, often fewer, and
    /// each still solves its level in an independent replay.
    #[test]
    fn answers_get_no_longer_and_still_solve() {
        let mut rooms = crate::testing::Rooms::new(0x3a0e_5111);
        let (mut tried, mut shortened, mut saved) = (0, 0, 0);
        while tried < 100 {
            let Some(text) = rooms.text(7, 6, 6, 0, b"...$$$@") else { continue };
            let level = Level::parse(&text).unwrap();
            let Ok(b) = Board::analyse(&level) else { continue };
            let options = Options { shorten: false, ..Options::default() };
            let Verdict::Solved(found) = solver::solve(&level, &options, &Budget::nodes(3_000, 1 << 22)).verdict else {
                continue;
            };
            tried += 1;
            let plan = pushes_of(&b, &found);
            let after = moves(&b, plan, &Budget::nodes(1, 1 << 20), 100_000, 0);
            let now = move_count(&level, &b, &after);
            assert!(now <= found.len(), "{} -> {}: {}", found.len(), now, text);
            shortened += (now < found.len()) as usize;
            saved += found.len() - now;
        }
        eprintln!("moves: {} of {} answers shortened, {} moves saved", shortened, tried, saved);
        assert!(shortened >= 10, "only {} of {} answers shortened", shortened, tried);
    }
}
