//! From a push plan to the move string: player walks between pushes (BFS), the output
//! formats, and an independent replay on the original grid before anything is printed.

use crate::board::{Board, Cell, DIRS, NONE};
use crate::box_path::BoxPath;
use crate::level::Level;
use crate::packing::Packing;
use crate::state::{Push, Via};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub dir: u8,
    pub push: bool,
}

/// Turn a plan into single pushes: a tunnel is pushed straight through, and a macro is
/// searched again exactly as the search found it: a goal macro from its first push on,
/// the same room cells allowed; a box move (`Via::Path`) from where the player stands,
/// every cell allowed.
pub fn unfold(board: &Board, packing: &Packing, plan: &[Push]) -> Result<Vec<Push>, String> {
    let mut occupied = vec![false; board.n];
    for &b in &board.start_boxes {
        occupied[b as usize] = true;
    }
    let mut path = BoxPath::new(board.n);
    let mut out: Vec<Push> = Vec::with_capacity(plan.len());
    let mut player = board.start_player;
    for (step, &p) in plan.iter().enumerate() {
        // A whole pull's `dir` is a side, not its first push's direction.
        let next = if p.via == Via::Back { p.to } else { board.step(p.from, p.dir as usize) };
        if next == NONE || p.to as usize >= board.n || !occupied[p.from as usize] || occupied[next as usize] {
            return Err(format!("push {} of the plan is not legal", step + 1));
        }
        occupied[p.from as usize] = false;
        let first = Push::step(p.from, p.dir, next);
        match p.via {
            Via::Step if p.to == next => out.push(first),
            Via::Tunnel => {
                out.push(first);
                let mut at = next;
                while at != p.to {
                    let on = board.step(at, p.dir as usize);
                    if on == NONE || occupied[on as usize] {
                        return Err(format!("tunnel {} of the plan is blocked", step + 1));
                    }
                    out.push(Push::step(at, p.dir, on));
                    at = on;
                }
            }
            Via::Room => {
                out.push(first);
                let room = packing.room[p.to as usize];
                let rest = path
                    .push_path(board, &occupied, next, p.from, p.to, |x| packing.room[x as usize] == room)
                    .ok_or_else(|| format!("macro {} of the plan cannot be repeated", step + 1))?;
                out.extend(rest);
            }
            Via::Path => {
                let all = path
                    .push_path(board, &occupied, p.from, player, p.to, |_| true)
                    .filter(|all| all.first().map(|f| f.dir) == Some(p.dir))
                    .ok_or_else(|| format!("macro {} of the plan cannot be repeated", step + 1))?;
                out.extend(all);
            }
            Via::Back => out.extend(
                path.push_path_to_side(board, &occupied, p.from, player, p.to, p.dir as usize)
                    .ok_or_else(|| format!("macro {} of the plan cannot be repeated", step + 1))?,
            ),
            Via::Step => return Err(format!("push {} of the plan skips cells", step + 1)),
        }
        occupied[p.to as usize] = true;
        // The last push leaves the player behind the box.
        let last = out[out.len() - 1];
        player = last.from;
    }
    Ok(out)
}

/// Turn a plan into moves. Fails only if the plan is inconsistent (a bug upstream).
pub fn assemble(board: &Board, packing: &Packing, plan: &[Push]) -> Result<Vec<Move>, String> {
    let pushes = unfold(board, packing, plan)?;
    let n = board.n;
    let mut occupied = vec![false; n];
    for &b in &board.start_boxes {
        occupied[b as usize] = true;
    }
    let mut player = board.start_player;
    let mut moves = Vec::new();
    let mut came_from: Vec<u8> = vec![0; n];
    let mut seen = vec![u32::MAX; n];
    let mut queue: Vec<Cell> = Vec::with_capacity(n);
    for (step, p) in pushes.iter().enumerate() {
        let d = p.dir as usize;
        let stand = board.step(p.from, d ^ 1);
        let to = board.step(p.from, d);
        if stand == NONE || to == NONE || !occupied[p.from as usize] || occupied[to as usize] {
            return Err(format!("push {} of the plan is not legal", step + 1));
        }
        // Breadth-first walk to the cell behind the box.
        let mark = step as u32;
        queue.clear();
        queue.push(player);
        seen[player as usize] = mark;
        let mut head = 0;
        while head < queue.len() && seen[stand as usize] != mark {
            let c = queue[head];
            head += 1;
            for (dir, &t) in board.nbr[c as usize].iter().enumerate() {
                if t != NONE && !occupied[t as usize] && seen[t as usize] != mark {
                    seen[t as usize] = mark;
                    came_from[t as usize] = dir as u8;
                    queue.push(t);
                }
            }
        }
        if seen[stand as usize] != mark {
            return Err(format!("push {} of the plan: the player cannot reach the box", step + 1));
        }
        let mut walk = Vec::new();
        let mut c = stand;
        while c != player {
            let dir = came_from[c as usize];
            walk.push(Move { dir, push: false });
            c = board.step(c, (dir ^ 1) as usize);
        }
        moves.extend(walk.into_iter().rev());
        moves.push(Move { dir: d as u8, push: true });
        occupied[p.from as usize] = false;
        occupied[to as usize] = true;
        player = p.from;
    }
    Ok(moves)
}

/// `UDLR` for the judge, or LURD (lowercase walks, uppercase pushes).
pub fn format(moves: &[Move], lurd: bool) -> String {
    moves
        .iter()
        .map(|m| {
            let c = DIRS[m.dir as usize];
            if lurd && !m.push {
                c.to_ascii_lowercase()
            } else {
                c
            }
        })
        .collect()
}

/// Replay moves on the level's own grid, independently of the search's board; `Ok` only
/// if every move is legal and all boxes end on goals.
pub fn replay(level: &Level, moves: &[Move]) -> Result<(), String> {
    let (w, h) = (level.width as isize, level.height as isize);
    let mut boxes = level.boxes.clone();
    let (mut x, mut y) = ((level.player % level.width) as isize, (level.player / level.width) as isize);
    let free = |x: isize, y: isize| x >= 0 && y >= 0 && x < w && y < h && !level.walls[(y * w + x) as usize];
    for (i, m) in moves.iter().enumerate() {
        let (dx, dy) = [(0, -1), (0, 1), (-1, 0), (1, 0)][m.dir as usize];
        let (nx, ny) = (x + dx, y + dy);
        if !free(nx, ny) {
            return Err(format!("move {} walks into a wall", i + 1));
        }
        let at = (ny * w + nx) as usize;
        if boxes[at] {
            let (bx, by) = (nx + dx, ny + dy);
            if !free(bx, by) || boxes[(by * w + bx) as usize] {
                return Err(format!("move {} pushes a box into a wall or box", i + 1));
            }
            boxes[at] = false;
            boxes[(by * w + bx) as usize] = true;
        }
        x = nx;
        y = ny;
    }
    let off = (0..boxes.len()).filter(|&i| boxes[i] && !level.goals[i]).count();
    if off > 0 {
        return Err(format!("{} not on goals at the end", crate::count(off, "box is", "boxes are")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(t: &str) -> (Level, Board) {
        let l = Level::parse(t).unwrap();
        let b = Board::analyse(&l).unwrap();
        (l, b)
    }

    #[test]
    fn walks_and_pushes_are_joined_and_replayed() {
        let (l, b) = level("######\n#@   #\n# $ .#\n######\n");
        let boxc = b.start_boxes[0];
        // Push the box right twice.
        let p1 = Push::step(boxc, 3, b.step(boxc, 3));
        let p2 = Push::step(b.step(boxc, 3), 3, b.step(b.step(boxc, 3), 3));
        let packing = Packing::analyse(&b);
        let moves = assemble(&b, &packing, &[p1, p2]).unwrap();
        assert_eq!(format(&moves, false), "DRR");
        // The same two pushes as one macro give the same moves.
        let m = Push { from: boxc, dir: 3, via: Via::Room, to: b.step(b.step(boxc, 3), 3) };
        let moves = assemble(&b, &packing, &[m]).unwrap();
        assert_eq!(format(&moves, false), "DRR");
        assert_eq!(format(&moves, true), "dRR");
        replay(&l, &moves).unwrap();
    }

    #[test]
    fn a_tunnel_macro_unfolds_into_straight_pushes() {
        let (l, b) = level("########\n#@$   .#\n########\n");
        let boxc = b.start_boxes[0];
        let goal = b.goals[0];
        let m = Push { from: boxc, dir: 3, via: Via::Tunnel, to: goal };
        let moves = assemble(&b, &Packing::analyse(&b), &[m]).unwrap();
        assert_eq!(format(&moves, false), "RRRR");
        replay(&l, &moves).unwrap();
        // A tunnel claimed through a wall is an error, not a panic.
        let bad = Push { from: boxc, dir: 0, via: Via::Tunnel, to: goal };
        assert!(assemble(&b, &Packing::analyse(&b), &[bad]).is_err());
    }

    #[test]
    fn a_packing_macro_unfolds_into_a_path_around_corners() {
        // The box goes right along row 2, then up onto the goal: the player must walk
        // round below it for the push up. (A wall at the top left makes every shortest
        // path start with a push right, as the plan says.)
        let (l, b) = level("#######\n##   .#\n#@$   #\n#     #\n#######\n");
        let boxc = b.start_boxes[0];
        let m = Push { from: boxc, dir: 3, via: Via::Path, to: b.goals[0] };
        let moves = assemble(&b, &Packing::analyse(&b), &[m]).unwrap();
        assert_eq!(moves.iter().filter(|m| m.push).count(), 4);
        replay(&l, &moves).unwrap();
        // A macro to where the box can never go is an error, not a panic: on the bottom
        // row it can only move sideways.
        let (_, b) = level("#######\n#     #\n#@$  .#\n#######\n");
        let m = Push { from: b.start_boxes[0], dir: 3, via: Via::Path, to: b.cell_at(1, 1) };
        assert!(assemble(&b, &Packing::analyse(&b), &[m]).is_err());
    }

    #[test]
    fn a_whole_pull_unfolds_into_pushes_that_leave_the_player_on_its_side() {
        // The box goes from (2,2) up to the goal (2,1): one push up, the player below.
        // Asked to end with the player on its right instead, the box goes round: right,
        // up, left, which the walk then joins.
        let (l, b) = level(
            "######
#@.  #
# $  #
#    #
######
",
        );
        let (boxc, goal) = (b.start_boxes[0], b.goals[0]);
        for (side, pushes) in [(1, 1), (3, 3)] {
            let m = Push { from: boxc, dir: side, via: Via::Back, to: goal };
            let unfolded = unfold(&b, &Packing::analyse(&b), &[m]).unwrap();
            assert_eq!(unfolded.len(), pushes, "side {side}");
            let last = unfolded[pushes - 1];
            assert_eq!((last.to, b.step(last.to, side as usize)), (goal, last.from), "side {side}");
            replay(&l, &assemble(&b, &Packing::analyse(&b), &[m]).unwrap()).unwrap();
        }
        // A side the box can never be left from is an error, not a panic.
        let m = Push { from: boxc, dir: 0, via: Via::Back, to: goal };
        assert!(assemble(&b, &Packing::analyse(&b), &[m]).is_err());
    }

    #[test]
    fn replay_rejects_illegal_and_unfinished() {
        let (l, _) = level("######\n#@   #\n# $ .#\n######\n");
        let m = |s: &str| -> Vec<Move> {
            s.chars().map(|c| Move { dir: DIRS.iter().position(|&d| d == c).unwrap() as u8, push: false }).collect()
        };
        assert!(replay(&l, &m("U")).unwrap_err().contains("wall"));
        assert!(replay(&l, &m("DR")).unwrap_err().contains("not on goals"));
        assert!(replay(&l, &m("DRRR")).unwrap_err().contains("pushes a box"));
        assert!(replay(&l, &m("DRR")).is_ok());
    }

    #[test]
    fn an_impossible_plan_is_an_error_not_a_panic() {
        let (_, b) = level("######\n#@   #\n# $ .#\n######\n");
        let bad = Push::step(b.start_boxes[0], 0, NONE);
        assert!(assemble(&b, &Packing::analyse(&b), &[bad]).is_err());
    }
}
