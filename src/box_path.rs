//! One box's paths, the other boxes standing still: small breadth-first searches over
//! (box cell, player side) states. They find the pushes of a macro (into a goal room, to
//! a room's next goal, a whole box move) and repeat them when the plan is unfolded, and
//! the pulls that take a box out of a room when its packing order is found.

use crate::blocks::Blocks;
use crate::board::{Board, Cell, NONE};
use crate::reach::Reach;
use crate::state::Push;

/// Where `BoxPath::reach_of_box` can take a box.
#[derive(Clone, Copy, Debug)]
pub struct BoxMove {
    pub to: Cell,
    pub pushes: u16,
    /// Where the last push leaves the player, and the direction of the first push.
    pub player: Cell,
    pub dir: u8,
}

/// Where the player stands for a box's pushes (`BoxPath::expand_pushes`).
#[derive(Clone, Copy)]
enum Stand {
    /// Next to the box, on this side of it: the blocks tell which other sides he reaches.
    Beside(usize),
    /// ... the blocks of the layout, the box lifted (`Blocks::lift`).
    BesideLifted(usize),
    /// Anywhere in the latest flood.
    Flooded,
    /// Behind the box for a push in direction d, if `[d]` holds.
    Known([bool; 4]),
}

/// Small searches over (box cell, player side) states for one moving box, the other
/// boxes standing still. Scratch buffers are reused between calls.
pub struct BoxPath {
    seen: Vec<u32>,
    stamp: u32,
    /// Per cell, for `reach_of_box`: stamped once the box got there.
    cell_seen: Vec<u32>,
    cell_stamp: u32,
    parent: Vec<(u32, Push)>,
    /// Per state: the direction of the first push (pull) on its way from the start.
    first_dir: Vec<u8>,
    /// Per cell, for `reach_of_box`: `Blocks::side_lifted`'s names of its free sides, once
    /// `names_at` holds that call's `cell_stamp` (a cell is reached from up to four sides).
    names: Vec<[u32; 4]>,
    names_at: Vec<u32>,
    queue: Vec<u32>,
    /// The target's side of `box_may_reach`.
    back_queue: Vec<u32>,
    reach: Reach,
    /// The blocks of the layout without the moving box (`push_path`): which sides of the
    /// box the player can walk to, from the side he pushed it from.
    blocks: Blocks,
    /// The blocks of a whole layout, labelled once for all its boxes (`reach_of_box`).
    layout: Blocks,
    /// Flood steps still allowed; floods stop counting down at 0 (searches keep `u64::MAX`).
    pub work_left: u64,
}

impl BoxPath {
    pub fn new(cells: usize) -> BoxPath {
        BoxPath {
            seen: vec![0; cells * 4],
            stamp: 0,
            cell_seen: vec![0; cells],
            cell_stamp: 0,
            parent: vec![(0, Push::step(NONE, 0, NONE)); cells * 4],
            first_dir: vec![0; cells * 4],
            names: vec![[0; 4]; cells],
            names_at: vec![0; cells],
            queue: Vec::new(),
            back_queue: Vec::new(),
            reach: Reach::new(cells),
            blocks: Blocks::new(cells),
            layout: Blocks::new(cells),
            work_left: u64::MAX,
        }
    }

    /// With the box of the latest `reach_of_box` moved onto `to`, one of its cells: how
    /// many pieces its area falls into, and the smallest cell of the player's.
    pub fn without(&mut self, board: &Board, to: Cell, player: Cell) -> (Cell, u16) {
        self.layout.without_lifted(board, to, player)
    }

    /// Lift the box on `cell` off the layout (`occupied` without it), unless it is lifted.
    pub fn lift(&mut self, board: &Board, occupied: &[bool], cell: Cell) {
        if self.layout.lifted() != cell {
            self.layout.lift(board, occupied, cell);
        }
    }

    /// The boxes have moved: `reach_of_box` labels the new layout's blocks afresh.
    pub fn new_layout(&mut self, board: &Board) {
        self.layout.new_layout(board);
    }

    fn next_stamp(stamp: &mut u32, arr: &mut [u32]) -> u32 {
        *stamp = stamp.wrapping_add(1);
        if *stamp == 0 {
            arr.iter_mut().for_each(|x| *x = 0);
            *stamp = 1;
        }
        *stamp
    }

    /// Flood the player's area from `seeds`, with boxes and `wall` blocking.
    fn flood(&mut self, board: &Board, occupied: &[bool], wall: Cell, seeds: &[Cell]) {
        let (_, visited) = self.reach.flood(board, occupied, wall, seeds);
        self.work_left = self.work_left.saturating_sub(visited as u64);
    }

    /// Pushes moving the box on `from` to `target`, the player starting on `player`, the
    /// box staying on cells where `allowed` holds; `occupied` holds the other boxes.
    /// Fewest pushes first.
    pub fn push_path(
        &mut self,
        board: &Board,
        occupied: &[bool],
        from: Cell,
        player: Cell,
        target: Cell,
        allowed: impl Fn(Cell) -> bool,
    ) -> Option<Vec<Push>> {
        self.push_path_ending(board, occupied, from, player, (target, None), allowed)
    }

    /// `push_path` to `target` whose last push leaves the player on side `side` of the
    /// box: how a whole pull found backward is pushed forward (`Via::Back`).
    pub fn push_path_to_side(
        &mut self,
        board: &Board,
        occupied: &[bool],
        from: Cell,
        player: Cell,
        target: Cell,
        side: usize,
    ) -> Option<Vec<Push>> {
        self.push_path_ending(board, occupied, from, player, (target, Some(side)), |_| true)
    }

    fn push_path_ending(
        &mut self,
        board: &Board,
        occupied: &[bool],
        from: Cell,
        player: Cell,
        (target, end_side): (Cell, Option<usize>),
        allowed: impl Fn(Cell) -> bool,
    ) -> Option<Vec<Push>> {
        if !self.box_may_reach(board, occupied, from, target, &allowed) {
            return None;
        }
        let cells = self.blocks.label(board, occupied, from);
        self.work_left = self.work_left.saturating_sub(cells as u64);
        // A player beside the box needs no flood: the blocks tell his side's reach.
        let side = (0..4).find(|&d| player != NONE && board.step(from, d) == player);
        if side.is_none() {
            self.flood(board, occupied, from, &[player]);
        }
        let stand = side.map_or(Stand::Flooded, Stand::Beside);
        self.fewest_pushes(board, occupied, from, stand, (target, end_side), &allowed)
    }

    /// `push_path` in the layout of the latest `new_layout`, whose blocks the boxes of an
    /// expansion share: the box on `from` (`occupied` without it) goes to `target`, the
    /// player starting where `first` says, as in `reach_of_box`.
    pub fn push_path_in_layout(
        &mut self,
        board: &Board,
        occupied: &[bool],
        from: Cell,
        first: [bool; 4],
        target: Cell,
    ) -> Option<Vec<Push>> {
        self.in_layout(board, occupied, from, from, Stand::Known(first), target, &|_| true)
    }

    /// `push_path` in the layout of the latest `new_layout` for a box just pushed off
    /// `lifted` onto `from`, the player left on `lifted` (`occupied` holds neither).
    pub fn push_path_on_from_layout(
        &mut self,
        board: &Board,
        occupied: &[bool],
        lifted: Cell,
        from: Cell,
        target: Cell,
        allowed: impl Fn(Cell) -> bool,
    ) -> Option<Vec<Push>> {
        let side = (0..4).find(|&d| board.step(from, d) == lifted)?;
        self.in_layout(board, occupied, lifted, from, Stand::BesideLifted(side), target, &allowed)
    }

    #[allow(clippy::too_many_arguments)]
    fn in_layout(
        &mut self,
        board: &Board,
        occupied: &[bool],
        lifted: Cell,
        from: Cell,
        stand: Stand,
        target: Cell,
        allowed: &impl Fn(Cell) -> bool,
    ) -> Option<Vec<Push>> {
        if !self.box_may_reach(board, occupied, from, target, allowed) {
            return None;
        }
        self.lift(board, occupied, lifted);
        self.forget_side_names();
        self.fewest_pushes(board, occupied, from, stand, (target, None), allowed)
    }

    /// The breadth-first search of `push_path` from the box on `from`, the player standing
    /// as `first` says; afterwards beside the box, told by the blocks `first` uses (those
    /// of the box lifted, for `Stand::Known` and `Stand::BesideLifted`).
    fn fewest_pushes(
        &mut self,
        board: &Board,
        occupied: &[bool],
        from: Cell,
        first: Stand,
        (target, end_side): (Cell, Option<usize>),
        allowed: &impl Fn(Cell) -> bool,
    ) -> Option<Vec<Push>> {
        let st = Self::next_stamp(&mut self.stamp, &mut self.seen);
        self.queue.clear();
        // The start is a pseudo-state (the player's real position, not a side); its id must
        // not be a real state's, or the path would be cut short there.
        let start = u32::MAX;
        let lifted = matches!(first, Stand::Known(_) | Stand::BesideLifted(_));
        self.expand_pushes(board, occupied, from, first, st, start, allowed);
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head];
            head += 1;
            let (x, side) = ((s / 4) as Cell, (s % 4) as usize);
            if x == target && end_side.map_or(true, |e| e == side) {
                let mut out = Vec::new();
                let mut cur = s;
                while cur != start {
                    let (p, push) = self.parent[cur as usize];
                    out.push(push);
                    cur = p;
                }
                out.reverse();
                return Some(out);
            }
            let stand = if lifted { Stand::BesideLifted(side) } else { Stand::Beside(side) };
            self.expand_pushes(board, occupied, x, stand, st, s, allowed);
        }
        None
    }

    /// The side names (`know_side_names`) of an earlier search are stale: the layout or
    /// its lifted box may have changed.
    fn forget_side_names(&mut self) {
        if Self::next_stamp(&mut self.cell_stamp, &mut self.cell_seen) == 1 {
            self.names_at.iter_mut().for_each(|x| *x = 0);
        }
    }

    /// Every cell the box on `from` can be pushed to (or, with `pulls`, pulled to), the other
    /// boxes (`occupied`) standing still, nearest first, each as `push_path` would get there
    /// (its fewest pushes, the same first push and the same end); cells where `dead` holds
    /// are passed through as `push_path` does, but not offered. `first[d]`: can the player
    /// get where the first push (pull) in direction `d` needs him (the caller has his area
    /// already)? Pulled, `pushes` counts the pulls and `dir` is the first pull's. The
    /// other boxes stand as at the latest `new_layout`, whose blocks all boxes share.
    #[allow(clippy::too_many_arguments)]
    pub fn reach_of_box(
        &mut self,
        board: &Board,
        occupied: &[bool],
        from: Cell,
        first: [bool; 4],
        dead: &[bool],
        pulls: bool,
        out: &mut Vec<BoxMove>,
    ) {
        out.clear();
        let st = Self::next_stamp(&mut self.stamp, &mut self.seen);
        self.forget_side_names();
        let mark = self.cell_stamp;
        self.queue.clear();
        let start = u32::MAX;
        self.cell_seen[from as usize] = mark;
        let expand = |this: &mut Self, x: Cell, stand: Stand, s: u32| {
            if pulls {
                this.expand_pulls(board, occupied, x, stand, st, s);
            } else {
                this.expand_pushes(board, occupied, x, stand, st, s, &|_| true);
            }
        };
        expand(self, from, Stand::Known(first), start);
        // The first moves need no blocks; a box that cannot move at all is not worth them.
        if self.queue.is_empty() {
            return;
        }
        self.layout.lift(board, occupied, from);
        let (mut head, mut level_end, mut pushes) = (0, self.queue.len(), 1u16);
        while head < self.queue.len() {
            if head == level_end {
                level_end = self.queue.len();
                pushes += 1;
            }
            let s = self.queue[head];
            head += 1;
            let (x, side) = ((s / 4) as Cell, (s % 4) as usize);
            // The first state to reach a cell is the one `push_path` stops at.
            if self.cell_seen[x as usize] != mark && !dead[x as usize] {
                self.cell_seen[x as usize] = mark;
                let dir = self.first_dir[s as usize];
                out.push(BoxMove { to: x, pushes, player: board.step(x, side), dir });
            }
            expand(self, x, Stand::BesideLifted(side), s);
        }
    }

    /// The pulls of the box on `x`, the player standing as `stand` says: a pull in
    /// direction d takes the box one step towards him and him one further.
    fn expand_pulls(&mut self, board: &Board, occupied: &[bool], x: Cell, stand: Stand, st: u32, from_state: u32) {
        if let Stand::BesideLifted(_) = stand {
            self.know_side_names(board, occupied, x);
        }
        for d in 0..4 {
            let to = board.step(x, d);
            if to == NONE || occupied[to as usize] || board.step(to, d) == NONE || occupied[board.step(to, d) as usize]
            {
                continue;
            }
            let reached = match stand {
                Stand::Beside(side) => side == d || self.blocks.around(board, x, side, d),
                Stand::BesideLifted(side) => side == d || self.names[x as usize][d] == self.names[x as usize][side],
                Stand::Flooded => self.reach.reached(to),
                Stand::Known(beside) => beside[d],
            };
            // After pulling in direction d the player stands on side d of the box.
            let s = to as u32 * 4 + d as u32;
            if reached && self.seen[s as usize] != st {
                self.seen[s as usize] = st;
                self.parent[s as usize] = (from_state, Push::step(x, d as u8, to));
                self.first_dir[s as usize] = self.first_dir_from(from_state, d);
                self.queue.push(s);
            }
        }
    }

    /// Work out `Blocks::side_lifted`'s names of the free sides of the box on `x`, once
    /// per cell and search in the layout (`Stand::BesideLifted`); a side that is not free
    /// gets a name no test reads. Each is stored on its own: built as one array and
    /// copied, the load after the four stores would wait on them.
    fn know_side_names(&mut self, board: &Board, occupied: &[bool], x: Cell) {
        if self.names_at[x as usize] == self.cell_stamp {
            return;
        }
        self.names_at[x as usize] = self.cell_stamp;
        for d in 0..4 {
            let y = board.nbr[x as usize][d];
            self.names[x as usize][d] =
                if y == NONE || occupied[y as usize] { u32::MAX - 1 } else { self.layout.side_lifted(board, x, d) };
        }
    }

    /// Could the box on `from` get to `target` if the player could always get behind it?
    /// Most path searches fail, and this one, without the player, fails as often for less.
    /// It floods from both ends, the smaller side first: a failure costs the smaller of
    /// the box's region and the target's, and most failures are walled in at one end.
    fn box_may_reach(
        &mut self,
        board: &Board,
        occupied: &[bool],
        from: Cell,
        target: Cell,
        allowed: &impl Fn(Cell) -> bool,
    ) -> bool {
        if from == target {
            return true;
        }
        let open = |c: Cell| c != NONE && !occupied[c as usize];
        if !open(target) || !allowed(target) {
            return false;
        }
        // Forward marks in each cell's slot of side 0, backward ones in that of side 1.
        let st = Self::next_stamp(&mut self.stamp, &mut self.seen);
        let (fwd, bwd) = (&mut self.queue, &mut self.back_queue);
        fwd.clear();
        bwd.clear();
        fwd.push(from as u32);
        bwd.push(target as u32);
        self.seen[from as usize * 4] = st;
        self.seen[target as usize * 4 + 1] = st;
        let (mut fh, mut bh) = (0, 0);
        while fh < fwd.len() && bh < bwd.len() {
            if fwd.len() - fh <= bwd.len() - bh {
                let x = fwd[fh] as Cell;
                fh += 1;
                for d in 0..4 {
                    let (to, behind) = (board.step(x, d), board.step(x, d ^ 1));
                    if open(to) && open(behind) && allowed(to) && self.seen[to as usize * 4] != st {
                        if self.seen[to as usize * 4 + 1] == st {
                            return true;
                        }
                        self.seen[to as usize * 4] = st;
                        fwd.push(to as u32);
                    }
                }
            } else {
                // The box came onto `y` from `x`, the player behind it on `x`'s far side.
                let y = bwd[bh] as Cell;
                bh += 1;
                for d in 0..4 {
                    let x = board.step(y, d ^ 1);
                    if x == NONE || self.seen[x as usize * 4 + 1] == st {
                        continue;
                    }
                    let fits = x == from || open(x) && allowed(x);
                    if fits && open(board.step(x, d ^ 1)) {
                        if self.seen[x as usize * 4] == st {
                            return true;
                        }
                        self.seen[x as usize * 4 + 1] = st;
                        bwd.push(x as u32);
                    }
                }
            }
        }
        false
    }

    /// The pushes of the box on `x`, the player standing as `stand` says.
    #[allow(clippy::too_many_arguments)]
    fn expand_pushes(
        &mut self,
        board: &Board,
        occupied: &[bool],
        x: Cell,
        stand: Stand,
        st: u32,
        from_state: u32,
        allowed: &impl Fn(Cell) -> bool,
    ) {
        if let Stand::BesideLifted(_) = stand {
            self.know_side_names(board, occupied, x);
        }
        for d in 0..4 {
            let behind = board.step(x, d ^ 1);
            let to = board.step(x, d);
            if to == NONE || occupied[to as usize] || !allowed(to) || behind == NONE || occupied[behind as usize] {
                continue;
            }
            let reached = match stand {
                Stand::Beside(side) => self.blocks.around(board, x, side, d ^ 1),
                Stand::BesideLifted(side) => self.names[x as usize][d ^ 1] == self.names[x as usize][side],
                Stand::Flooded => self.reach.reached(behind),
                Stand::Known(behind) => behind[d],
            };
            if !reached {
                continue;
            }
            // After pushing in direction d the player stands on side d^1 of the box.
            let s = to as u32 * 4 + (d ^ 1) as u32;
            if self.seen[s as usize] != st {
                self.seen[s as usize] = st;
                self.parent[s as usize] = (from_state, Push::step(x, d as u8, to));
                self.first_dir[s as usize] = self.first_dir_from(from_state, d);
                self.queue.push(s);
            }
        }
    }

    /// The direction of the first push (pull) on the way to a state whose parent is
    /// `from_state`, the last in direction `d`.
    fn first_dir_from(&self, from_state: u32, d: usize) -> u8 {
        if from_state == u32::MAX {
            d as u8
        } else {
            self.first_dir[from_state as usize]
        }
    }

    /// Fewest pulls taking the box on `from` to a cell outside the room (`inside` false),
    /// the player coming from any of the `outside` cells.
    pub fn extract(
        &mut self,
        board: &Board,
        occupied: &[bool],
        from: Cell,
        outside: &[Cell],
        inside: impl Fn(Cell) -> bool,
    ) -> Option<usize> {
        let st = Self::next_stamp(&mut self.stamp, &mut self.seen);
        self.flood(board, occupied, from, outside);
        let mut frontier = self.pull_children(board, occupied, from, st);
        let mut level = 1;
        while !frontier.is_empty() && self.work_left > 0 {
            let mut next = Vec::new();
            for s in frontier {
                let (x, side) = ((s / 4) as Cell, (s % 4) as usize);
                if !inside(x) {
                    return Some(level);
                }
                let stand = board.step(x, side);
                self.flood(board, occupied, x, &[stand]);
                next.extend(self.pull_children(board, occupied, x, st));
            }
            frontier = next;
            level += 1;
        }
        None
    }

    /// Pull moves of the box on `x` with the player's area already flooded.
    fn pull_children(&mut self, board: &Board, occupied: &[bool], x: Cell, st: u32) -> Vec<u32> {
        let mut out = Vec::new();
        for d in 0..4 {
            let p = board.step(x, d);
            if p == NONE || !self.reach.reached(p) {
                continue;
            }
            let beyond = board.step(p, d);
            if beyond == NONE || occupied[beyond as usize] || beyond == x {
                continue;
            }
            // Box to p, player to beyond: the player is on side d of the box.
            let s = p as u32 * 4 + d as u32;
            if self.seen[s as usize] != st {
                self.seen[s as usize] = st;
                out.push(s);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each cell a box can be pulled to, with the fewest pulls, as an exhaustive search
    /// over the box's cell and the player's area finds them (the other boxes still); and
    /// pushed back from there, it returns in as many pushes to the side it left from.
    #[test]
    fn pull_reach_is_what_an_exhaustive_search_of_pulls_finds() {
        use crate::testing::Floor;
        use std::collections::HashMap;
        let text = "########\n#  #   #\n# $  $ #\n#@ ## $#\n#  $   #\n## #  .#\n#  . ..#\n########\n";
        let b = Board::from_text(text);
        let floor = Floor::of_board(&b);
        let mut bp = BoxPath::new(b.n);
        let mut reach = Reach::new(b.n);
        let mut out = Vec::new();
        for (k, &from) in b.start_boxes.iter().enumerate() {
            let mut truth: HashMap<Cell, u16> = HashMap::new();
            let (mut level, mut seen) = (vec![b.start_boxes.clone()], std::collections::HashSet::new());
            let key = |boxes: &[Cell], player: Cell| floor.key(boxes, player);
            let mut players = vec![b.start_player];
            seen.insert(key(&level[0], b.start_player));
            let mut pulls = 0;
            while !level.is_empty() {
                pulls += 1;
                let (mut next, mut next_players) = (Vec::new(), Vec::new());
                for (boxes, &player) in level.iter().zip(&players) {
                    for (c, to, after) in floor.pulls(boxes, player) {
                        if c != boxes[k] {
                            continue;
                        }
                        let mut moved = boxes.clone();
                        moved[k] = to;
                        if seen.insert(key(&moved, after)) {
                            truth.entry(to).or_insert(pulls);
                            next.push(moved);
                            next_players.push(after);
                        }
                    }
                }
                level = next;
                players = next_players;
            }
            truth.remove(&from);
            let mut occupied = vec![false; b.n];
            b.start_boxes.iter().for_each(|&c| occupied[c as usize] = true);
            reach.fill(&b, &occupied, b.start_player);
            bp.new_layout(&b);
            let beside = [0, 1, 2, 3].map(|d| {
                let c = b.step(from, d);
                c != NONE && !occupied[c as usize] && reach.reached(c)
            });
            occupied[from as usize] = false;
            bp.reach_of_box(&b, &occupied, from, beside, &vec![false; b.n], true, &mut out);
            let found: HashMap<Cell, u16> = out.iter().map(|m| (m.to, m.pushes)).collect();
            assert_eq!(found, truth, "box {k}");
            for m in &out {
                let back = bp.push_path_to_side(&b, &occupied, m.to, m.player, from, m.dir as usize).unwrap();
                assert_eq!(back.len(), m.pushes as usize, "box {k} from {}", m.to);
            }
        }
    }

    #[test]
    fn push_path_follows_the_player() {
        // Move the box from (2,2) to (5,1): right along row 2, then up needs the player below.
        let b = Board::from_text("#######\n#    .#\n#@$   #\n#     #\n#######\n");
        let occ = vec![false; b.n];
        let mut bp = BoxPath::new(b.n);
        let path = bp.push_path(&b, &occ, b.cell_at(2, 2), b.cell_at(1, 2), b.cell_at(5, 1), |_| true).unwrap();
        assert_eq!(path.len(), 4);
        assert_eq!(path.last().unwrap().to, b.cell_at(5, 1));
        // Consecutive pushes chain.
        for w in path.windows(2) {
            assert_eq!(w[0].to, w[1].from);
        }
        // A target behind a wall of boxes is out of reach.
        let b = Board::from_text("#######\n#@$ $.#\n###.###\n#######\n");
        let mut occ = vec![false; b.n];
        occ[b.cell_at(4, 1) as usize] = true;
        let mut bp = BoxPath::new(b.n);
        assert!(bp.push_path(&b, &occ, b.cell_at(2, 1), b.cell_at(1, 1), b.cell_at(5, 1), |_| true).is_none());
    }

    #[test]
    fn push_path_keeps_its_first_push_when_cells_are_consecutive() {
        // (2,3) and (2,4) are neighbours in cell order: a start id of `from * 4 + 4` would
        // equal the state "box on (2,4), player above" and cut the path to nothing.
        let b = Board::from_text("#####\n#$@ #\n# $ #\n##.##\n##.##\n#####\n");
        let (from, target) = (b.cell_at(2, 3), b.cell_at(2, 4));
        assert_eq!(from + 1, target);
        let mut occ = vec![false; b.n];
        occ[b.cell_at(1, 1) as usize] = true;
        let mut bp = BoxPath::new(b.n);
        let path = bp.push_path(&b, &occ, from, b.cell_at(2, 2), target, |_| true).unwrap();
        assert_eq!(path, vec![Push::step(from, 1, target)]);
    }

    /// Small random rooms: every move `reach_of_box` offers is the one `push_path` finds
    /// to the same cell (the plan's unfolding repeats `push_path`), and it offers every
    /// live cell `push_path` can reach.
    #[test]
    fn every_box_move_is_the_path_push_path_finds() {
        use crate::testing::{for_random_positions, Draw};
        let mut moves = 0;
        let mut out = Vec::new();
        for_random_positions(0x0bad_cafe_f00d_5eed, 300, Draw::rooms(6, 5, 6, 0, b"..$$@"), |p| {
            let (board, text) = (p.board, &p.text);
            let mut bp = BoxPath::new(board.n);
            let mut reach = Reach::new(board.n);
            // Both boxes of one layout in turn, from one labelling of its blocks.
            bp.new_layout(board);
            for k in 0..2 {
                let from = p.boxes[k];
                let mut occupied = vec![false; board.n];
                p.boxes.iter().for_each(|&c| occupied[c as usize] = true);
                reach.fill(board, &occupied, p.player);
                occupied[from as usize] = false;
                let behind = reach.behind(board, from);
                bp.reach_of_box(board, &occupied, from, behind, &board.dead_fwd, false, &mut out);
                for t in (0..board.n as Cell).filter(|&t| t != from && !board.dead_fwd[t as usize]) {
                    let path = bp.push_path(board, &occupied, from, p.player, t, |_| true);
                    let offered = out.iter().find(|m| m.to == t);
                    match (path, offered) {
                        (None, None) => {}
                        (Some(p), Some(m)) => {
                            moves += 1;
                            assert_eq!(p.len(), m.pushes as usize, "{}", text);
                            assert_eq!(p[0].dir, m.dir, "{}", text);
                            assert_eq!(p[p.len() - 1].from, m.player, "{}", text);
                        }
                        (p, m) => panic!("push_path {:?}, offered {:?}:\n{}", p, m, text),
                    }
                }
            }
        });
        assert!(moves > 1000, "only {} moves compared", moves);
    }

    /// The search from both ends answers as a flood from the box alone does, with and
    /// without cells kept off, for every box of random positions and every target.
    #[test]
    fn a_box_reaches_a_target_as_a_flood_from_the_box_finds() {
        use crate::testing::{for_random_positions, Draw};
        let (mut yes, mut asked) = (0, 0);
        for_random_positions(0x0b1d_1ec7_10a1_5eed, 200, Draw::rooms(7, 6, 6, 0, b"...$$$@"), |p| {
            let board = p.board;
            let mut bp = BoxPath::new(board.n);
            let mut occupied = vec![false; board.n];
            p.boxes.iter().for_each(|&c| occupied[c as usize] = true);
            for &from in &p.boxes {
                occupied[from as usize] = false;
                for kept in [|_: Cell| true, |c: Cell| c % 5 != 2] {
                    for t in 0..board.n as Cell {
                        // The flood from the box alone, as the search once was.
                        let (mut seen, mut queue) = (vec![false; board.n], vec![from]);
                        seen[from as usize] = true;
                        let open = |c: Cell| c != NONE && !occupied[c as usize];
                        let mut i = 0;
                        while i < queue.len() {
                            let x = queue[i];
                            i += 1;
                            for d in 0..4 {
                                let (to, behind) = (board.step(x, d), board.step(x, d ^ 1));
                                if open(to) && open(behind) && kept(to) && !seen[to as usize] {
                                    seen[to as usize] = true;
                                    queue.push(to);
                                }
                            }
                        }
                        let want = seen[t as usize];
                        yes += want as usize;
                        asked += 1;
                        assert_eq!(bp.box_may_reach(board, &occupied, from, t, &kept), want, "{} to {}", p.text, t);
                    }
                }
                occupied[from as usize] = true;
            }
        });
        assert!(yes > 1000 && yes * 2 < asked, "{yes} of {asked}");
    }

    /// The paths found in a layout shared by its boxes are `push_path`'s, step for step:
    /// a box pushed from where it stands, and a box just pushed once, the player behind
    /// it, kept to some cells; the boxes lifted in turn from one labelling.
    #[test]
    fn paths_in_a_layout_are_push_path_s() {
        use crate::testing::{for_random_positions, Draw};
        let (mut found, mut compared) = (0, 0);
        for_random_positions(0x5eed_0f1a_7000_beef, 300, Draw::rooms(7, 6, 6, 0, b"...$$$@"), |p| {
            let (board, text) = (p.board, &p.text);
            let (mut bp, mut reach) = (BoxPath::new(board.n), Reach::new(board.n));
            let mut occupied = vec![false; board.n];
            p.boxes.iter().for_each(|&c| occupied[c as usize] = true);
            reach.fill(board, &occupied, p.player);
            bp.new_layout(board);
            let kept = |c: Cell| c % 5 != 2;
            for &from in &p.boxes {
                let behind = reach.behind(board, from);
                occupied[from as usize] = false;
                for t in (0..board.n as Cell).filter(|&t| t != from && !occupied[t as usize]) {
                    let want = bp.push_path(board, &occupied, from, p.player, t, |_| true);
                    found += want.is_some() as usize;
                    compared += 1;
                    assert_eq!(bp.push_path_in_layout(board, &occupied, from, behind, t), want, "{}", text);
                    for d in (0..4).filter(|&d| behind[d]) {
                        let to = board.step(from, d);
                        if to == NONE || occupied[to as usize] || t == to {
                            continue;
                        }
                        let want = bp.push_path(board, &occupied, to, from, t, kept);
                        let got = bp.push_path_on_from_layout(board, &occupied, from, to, t, kept);
                        assert_eq!(got, want, "{}", text);
                    }
                }
                occupied[from as usize] = true;
            }
        });
        assert!(found > 1000 && found < compared, "{found} paths of {compared}");
    }
}
