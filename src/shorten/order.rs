//! Fewer walks by another order: a box's pushes brought together.
//!
//! A search that takes the boxes by turns leaves the player walking from one box to
//! another and back. Where a push can be made right after the box's previous push, the
//! pushes of other boxes in between waiting until after it, and the walks of that stretch
//! get shorter, the push is moved there. The pushes stay the same, only their order
//! changes; then the moves pass (`shorten::moves`) finds longer stretches of few boxes.

use super::{Walks, Work};
use crate::board::{Board, Cell, NONE};
use crate::budget::Budget;
use crate::state::Push;

/// `plan` (single pushes from the start, each legal) with pushes moved next to the same
/// box's previous push where that makes the walks shorter; the same pushes, never more
/// moves. Walks the floor at most `work_limit` times, and stops at the budget's deadline.
pub fn regroup(board: &Board, plan: Vec<Push>, budget: &Budget, work_limit: usize) -> Vec<Push> {
    let mut plan = plan;
    let mut work = Work { done: 0, limit: work_limit };
    let mut walks = Walks::new(board.n);
    let mut occupied = vec![false; board.n];
    board.start_boxes.iter().for_each(|&b| occupied[b as usize] = true);
    let mut player = board.start_player;
    // `occupied` and `player`: the position before push `at`.
    let mut at = 0;
    let mut j = 1;
    while j < plan.len() && !work.spent() && !budget.past_deadline() {
        // The box's previous push, and not right before.
        let Some(i) = (0..j).rev().find(|&i| plan[i].to == plan[j].from).filter(|&i| i + 1 < j) else {
            j += 1;
            continue;
        };
        // Bring the position to just after push i, from the start if it is past that.
        if at > i + 1 {
            occupied.iter_mut().for_each(|o| *o = false);
            board.start_boxes.iter().for_each(|&b| occupied[b as usize] = true);
            (player, at) = (board.start_player, 0);
        }
        while at <= i {
            let p = plan[at];
            (occupied[p.from as usize], occupied[p.to as usize]) = (false, true);
            player = p.from;
            at += 1;
        }
        let mut moved: Vec<Push> = Vec::with_capacity(j - i);
        moved.push(plan[j]);
        moved.extend_from_slice(&plan[i + 1..j]);
        let next = plan.get(j + 1).copied();
        let old = cost(&mut walks, board, &mut occupied, player, &plan[i + 1..=j], next, &mut work);
        let new = cost(&mut walks, board, &mut occupied, player, &moved, next, &mut work);
        if let (Some(old), Some(new)) = (old, new) {
            if new < old {
                plan[i + 1..=j].copy_from_slice(&moved);
            }
        }
        j += 1;
    }
    plan
}

/// Moves of `pushes` made in turn from the position of `occupied` with the player on
/// `player`, plus the walk to the standing cell of `next`; `None` if one of them cannot be
/// made. `occupied` is left as it was.
fn cost(
    walks: &mut Walks,
    board: &Board,
    occupied: &mut [bool],
    player: Cell,
    pushes: &[Push],
    next: Option<Push>,
    work: &mut Work,
) -> Option<u32> {
    let (mut at, mut total, mut made) = (player, 0, 0);
    let mut legal = true;
    for p in pushes {
        let stand = board.step(p.from, p.dir as usize ^ 1);
        match walk(walks, board, occupied, at, stand, work) {
            Some(d) if occupied[p.from as usize] && !occupied[p.to as usize] => {
                total += d + 1;
                (occupied[p.from as usize], occupied[p.to as usize]) = (false, true);
                at = p.from;
                made += 1;
            }
            _ => {
                legal = false;
                break;
            }
        }
    }
    if legal {
        if let Some(n) = next {
            match walk(walks, board, occupied, at, board.step(n.from, n.dir as usize ^ 1), work) {
                Some(d) => total += d,
                None => legal = false,
            }
        }
    }
    for p in pushes[..made].iter().rev() {
        (occupied[p.to as usize], occupied[p.from as usize]) = (false, true);
    }
    legal.then_some(total)
}

/// Steps from `from` to `to` on the free floor; `None` if it cannot be reached.
fn walk(walks: &mut Walks, board: &Board, occupied: &[bool], from: Cell, to: Cell, work: &mut Work) -> Option<u32> {
    work.done += 1;
    if to == NONE || occupied[to as usize] {
        return None;
    }
    walks.from(board, occupied, from, Some(to), u32::MAX);
    walks.to(to)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{move_count, pushes_of};
    use super::*;
    use crate::level::Level;

    #[test]
    fn a_box_pushed_again_later_is_pushed_at_once() {
        // Push the top box right, walk down to push the low box, walk back up to push the
        // top box again: pushing the top box twice first saves two steps.
        let level = Level::parse("########\n#@$ .  #\n#      #\n#  $.  #\n#      #\n########\n").unwrap();
        let b = Board::analyse(&level).unwrap();
        let (top, low) = (b.start_boxes[0], b.start_boxes[1]);
        let right = |c: Cell| b.step(c, 3);
        let plan: Vec<Push> = vec![
            Push::step(top, 3, right(top)),
            Push::step(low, 3, right(low)),
            Push::step(right(top), 3, right(right(top))),
        ];
        assert_eq!(move_count(&level, &b, &plan), 8);
        let after = regroup(&b, plan.clone(), &Budget::nodes(1, 1 << 20), 10_000);
        assert_eq!(move_count(&level, &b, &after), 6);
        assert_eq!(after[1], plan[2], "the top box's second push comes second");
    }

    #[test]
    fn a_box_left_behind_early_is_brought_along_after_later_moves() {
        // Three boxes pushed right by turns; the top one's second push goes back to its
        // first, past pushes that were themselves moved before.
        let level =
            Level::parse("#########\n#@$ .   #\n#       #\n#  $ .  #\n#       #\n#  $ .  #\n#########\n").unwrap();
        let b = Board::analyse(&level).unwrap();
        let (a, bb, c) = (b.start_boxes[0], b.start_boxes[1], b.start_boxes[2]);
        let r = |x: Cell, k: usize| (0..k).fold(x, |x, _| b.step(x, 3));
        let push = |x: Cell, k: usize| Push::step(r(x, k), 3, r(x, k + 1));
        let plan = vec![push(a, 0), push(bb, 0), push(c, 0), push(bb, 1), push(c, 1), push(a, 1)];
        let before = move_count(&level, &b, &plan);
        let after = regroup(&b, plan.clone(), &Budget::nodes(1, 1 << 20), 10_000);
        assert!(move_count(&level, &b, &after) < before);
        assert_eq!(&after[..2], &[push(a, 0), push(a, 1)], "{:?}", after);
    }

    /// The solver's own answers on small random rooms: the same pushes in another order,
    /// never more moves, and each still solves its level in an independent replay.
    #[test]
    fn answers_keep_their_pushes_and_get_no_longer() {
        let mut rooms = crate::testing::Rooms::new(0x0dde_4a11);
        let (mut tried, mut shortened) = (0, 0);
        while tried < 100 {
            let Some(text) = rooms.text(9, 7, 8, 0, b"....$$$$@") else { continue };
            let level = Level::parse(&text).unwrap();
            let Ok(b) = Board::analyse(&level) else { continue };
            let options = crate::solver::Options { shorten: false, ..Default::default() };
            let budget = Budget::nodes(3_000, 1 << 22);
            let crate::solver::Verdict::Solved(found) = crate::solver::solve(&level, &options, &budget).verdict else {
                continue;
            };
            tried += 1;
            let plan = pushes_of(&b, &found);
            let after = regroup(&b, plan.clone(), &Budget::nodes(1, 1 << 20), 100_000);
            let sorted = |p: &[Push]| {
                let mut v: Vec<(Cell, u8)> = p.iter().map(|p| (p.from, p.dir)).collect();
                v.sort_unstable();
                v
            };
            assert_eq!(sorted(&after), sorted(&plan), "{}", text);
            let now = move_count(&level, &b, &after);
            assert!(now <= found.len(), "{} -> {}: {}", found.len(), now, text);
            shortened += (now < found.len()) as usize;
        }
        // Small rooms seldom leave a box waiting (3 of these 100 answers do).
        assert!(shortened >= 2, "only {} of {} answers shortened", shortened, tried);
    }
}
