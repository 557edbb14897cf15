//! Helpers for tests that check the solver against the truth on tiny maps.
//!
//! The truth comes from exhaustive searches written here. They share nothing with the
//! solver's search but the board's neighbour table and goals (`Floor::of_board`), or
//! nothing at all (`Floor::of_text`, a map read here). `for_random_positions` draws the
//! positions the soundness tests try their rules on: random small rooms (`Rooms`), and
//! on each its start, the same boxes placed again at random, and positions drawn among
//! the solvable ones or among those reachable from its start.

use std::collections::HashSet;

use crate::board::{Board, Cell, NONE};
use crate::level::Level;

/// A position as the exhaustive searches store it: the boxes sorted, then the smallest
/// cell of the player's area.
pub type Key = Vec<Cell>;

/// Cells by number: which are floor, their neighbours (up, down, left, right; `d ^ 1`
/// is the opposite of `d`; `NONE` for a wall) and which are goals.
pub struct Floor {
    open: Vec<bool>,
    nbr: Vec<[Cell; 4]>,
    goal: Vec<bool>,
}

/// The player's walk: a flood fill with stamps, so that no fill clears the last.
struct Flood {
    stamp: Vec<u32>,
    generation: u32,
    stack: Vec<Cell>,
}

impl Flood {
    fn new(cells: usize) -> Flood {
        Flood { stamp: vec![0; cells], generation: 0, stack: Vec::new() }
    }

    /// Fill from `from` through free cells; the smallest cell reached.
    fn fill(&mut self, floor: &Floor, occupied: &[bool], from: Cell) -> Cell {
        self.generation += 1;
        let g = self.generation;
        self.stamp[from as usize] = g;
        self.stack.push(from);
        let mut least = from;
        while let Some(c) = self.stack.pop() {
            least = least.min(c);
            for &t in &floor.nbr[c as usize] {
                if t != NONE && !occupied[t as usize] && self.stamp[t as usize] != g {
                    self.stamp[t as usize] = g;
                    self.stack.push(t);
                }
            }
        }
        least
    }

    fn reached(&self, c: Cell) -> bool {
        self.stamp[c as usize] == self.generation
    }
}

impl Floor {
    /// The board's floor: its neighbour table and goals, nothing else of the solver's.
    pub fn of_board(board: &Board) -> Floor {
        Floor { open: vec![true; board.n], nbr: board.nbr.clone(), goal: board.is_goal.clone() }
    }

    /// A map text read here, not by the solver: its floor (cells are grid indices, row
    /// by row; walls, and cells past a row's end, are cells with no neighbours), boxes
    /// and player.
    pub fn of_text(text: &str) -> (Floor, Vec<Cell>, Cell) {
        let rows: Vec<&[u8]> = text.lines().map(|l| l.trim_end_matches('\r').as_bytes()).collect();
        let (h, w) = (rows.len(), rows.iter().map(|r| r.len()).max().unwrap_or(0));
        let at = |x: usize, y: usize| rows[y].get(x).copied().unwrap_or(b'#');
        let (mut open, mut nbr, mut goal) = (Vec::new(), Vec::new(), Vec::new());
        let (mut boxes, mut player) = (Vec::new(), NONE);
        for y in 0..h {
            for x in 0..w {
                let ch = at(x, y);
                assert!(b"# .$*@+".contains(&ch), "unexpected {:?} in the map:\n{}", ch as char, text);
                let mut n = [NONE; 4];
                let steps = [(0, -1), (0, 1), (-1, 0), (1, 0)];
                for (d, (dx, dy)) in steps.into_iter().enumerate() {
                    let (tx, ty) = (x as isize + dx, y as isize + dy);
                    let inside = tx >= 0 && ty >= 0 && (tx as usize) < w && (ty as usize) < h;
                    if ch != b'#' && inside && at(tx as usize, ty as usize) != b'#' {
                        n[d] = (ty as usize * w + tx as usize) as Cell;
                    }
                }
                let cell = (y * w + x) as Cell;
                open.push(ch != b'#');
                nbr.push(n);
                goal.push(b".*+".contains(&ch));
                if b"$*".contains(&ch) {
                    boxes.push(cell);
                }
                if b"@+".contains(&ch) {
                    assert_eq!(player, NONE, "two players in the map:\n{}", text);
                    player = cell;
                }
            }
        }
        assert_ne!(player, NONE, "no player in the map:\n{}", text);
        (Floor { open, nbr, goal }, boxes, player)
    }

    /// The key of a position (any cell of the player's area names it).
    pub fn key(&self, boxes: &[Cell], player: Cell) -> Key {
        let (mut flood, mut occupied) = (Flood::new(self.nbr.len()), vec![false; self.nbr.len()]);
        self.key_with(boxes, player, &mut flood, &mut occupied)
    }

    fn key_with(&self, boxes: &[Cell], player: Cell, flood: &mut Flood, occupied: &mut [bool]) -> Key {
        let mut k = boxes.to_vec();
        k.sort_unstable();
        k.iter().for_each(|&b| occupied[b as usize] = true);
        assert!(!occupied[player as usize], "the player stands on a box");
        k.push(flood.fill(self, occupied, player));
        k.iter().take(boxes.len()).for_each(|&b| occupied[b as usize] = false);
        k
    }

    /// Every cell of the player's area.
    pub fn area(&self, boxes: &[Cell], player: Cell) -> Vec<Cell> {
        let mut occupied = vec![false; self.nbr.len()];
        boxes.iter().for_each(|&b| occupied[b as usize] = true);
        let mut flood = Flood::new(self.nbr.len());
        flood.fill(self, &occupied, player);
        (0..self.nbr.len() as Cell).filter(|&c| flood.reached(c)).collect()
    }

    /// The legal pushes of a position: (box cell, where it goes); the player then stands
    /// on the box cell.
    pub fn pushes(&self, boxes: &[Cell], player: Cell) -> Vec<(Cell, Cell)> {
        self.moves(boxes, player, false).into_iter().map(|(b, to, _)| (b, to)).collect()
    }

    /// The legal pulls of a position: (box cell, where it goes, where the player goes).
    pub fn pulls(&self, boxes: &[Cell], player: Cell) -> Vec<(Cell, Cell, Cell)> {
        self.moves(boxes, player, true)
    }

    fn moves(&self, boxes: &[Cell], player: Cell, pulls: bool) -> Vec<(Cell, Cell, Cell)> {
        let mut occupied = vec![false; self.nbr.len()];
        boxes.iter().for_each(|&b| occupied[b as usize] = true);
        let mut flood = Flood::new(self.nbr.len());
        flood.fill(self, &occupied, player);
        let mut out = Vec::new();
        self.each_move(boxes, &occupied, &flood, pulls, |b, to, after| out.push((b, to, after)));
        out
    }

    /// Each push (or pull) of the position whose boxes are `occupied` and whose player's
    /// area `flood` filled last: the box cell, where it goes, where the player goes.
    fn each_move(
        &self,
        boxes: &[Cell],
        occupied: &[bool],
        flood: &Flood,
        pulls: bool,
        mut f: impl FnMut(Cell, Cell, Cell),
    ) {
        let free = |c: Cell| c != NONE && !occupied[c as usize];
        for &b in boxes {
            for d in 0..4 {
                let ahead = self.nbr[b as usize][d];
                if !free(ahead) {
                    continue;
                }
                if pulls {
                    // The player on `ahead` steps on, drawing the box after him.
                    let beyond = self.nbr[ahead as usize][d];
                    if flood.reached(ahead) && free(beyond) {
                        f(b, ahead, beyond);
                    }
                } else {
                    let behind = self.nbr[b as usize][d ^ 1];
                    if behind != NONE && flood.reached(behind) {
                        f(b, ahead, b);
                    }
                }
            }
        }
    }

    /// Every position reached from `roots` by pushes (or pulls), and whether `stop` said
    /// yes to one of them first (then the search ends there).
    fn explore(&self, roots: Vec<Key>, pulls: bool, mut stop: impl FnMut(&[Cell]) -> bool) -> (bool, HashSet<Key>) {
        let n = self.nbr.len();
        let (mut flood, mut occupied) = (Flood::new(n), vec![false; n]);
        let mut seen: HashSet<Key> = roots.iter().cloned().collect();
        let mut queue: Vec<Key> = seen.iter().cloned().collect();
        let mut children = Vec::new();
        while let Some(state) = queue.pop() {
            let (boxes, player) = state.split_at(state.len() - 1);
            if stop(boxes) {
                return (true, seen);
            }
            boxes.iter().for_each(|&b| occupied[b as usize] = true);
            flood.fill(self, &occupied, player[0]);
            children.clear();
            self.each_move(boxes, &occupied, &flood, pulls, |b, to, after| {
                let moved: Vec<Cell> = boxes.iter().map(|&x| if x == b { to } else { x }).collect();
                children.push((moved, after));
            });
            boxes.iter().for_each(|&b| occupied[b as usize] = false);
            for (moved, after) in children.drain(..) {
                let k = self.key_with(&moved, after, &mut flood, &mut occupied);
                if !seen.contains(&k) {
                    seen.insert(k.clone());
                    queue.push(k);
                }
            }
        }
        (false, seen)
    }

    /// Can pushes take every box onto a goal?
    pub fn solvable(&self, boxes: &[Cell], player: Cell) -> bool {
        let root = self.key(boxes, player);
        self.explore(vec![root], false, |bs| bs.iter().all(|&b| self.goal[b as usize])).0
    }

    /// Every position pushes lead to from this one (itself included).
    pub fn reachable(&self, boxes: &[Cell], player: Cell) -> HashSet<Key> {
        self.explore(vec![self.key(boxes, player)], false, |_| false).1
    }
}

/// Can the position be solved? Breadth-first over every push; for tiny maps only.
pub fn solvable(board: &Board, boxes: &[Cell], player: Cell) -> bool {
    Floor::of_board(board).solvable(boxes, player)
}

/// Every solvable position of a floor, for as many boxes as goals: found once, by every
/// pull from the solved layout (the player in each of its areas), then looked up.
pub struct Truth {
    solvable: HashSet<Key>,
    /// The same, sorted, to draw from in a fixed order.
    keys: Vec<Key>,
}

impl Truth {
    pub fn new(floor: &Floor) -> Truth {
        let n = floor.nbr.len();
        let goals: Vec<Cell> = (0..n as Cell).filter(|&c| floor.goal[c as usize]).collect();
        let mut occupied = vec![false; n];
        goals.iter().for_each(|&g| occupied[g as usize] = true);
        let (mut flood, mut covered) = (Flood::new(n), vec![false; n]);
        let mut roots = Vec::new();
        for c in 0..n as Cell {
            if !floor.open[c as usize] || occupied[c as usize] || covered[c as usize] {
                continue;
            }
            let least = flood.fill(floor, &occupied, c);
            (0..n as Cell).filter(|&x| flood.reached(x)).for_each(|x| covered[x as usize] = true);
            roots.push(goals.iter().copied().chain([least]).collect());
        }
        let solvable = floor.explore(roots, true, |_| false).1;
        let mut keys: Vec<Key> = solvable.iter().cloned().collect();
        keys.sort_unstable();
        Truth { solvable, keys }
    }

    pub fn solvable(&self, floor: &Floor, boxes: &[Cell], player: Cell) -> bool {
        self.solvable.contains(&floor.key(boxes, player))
    }
}

/// Do `moves` (`U`, `D`, `L`, `R`) replay on the map `text`, read here, and leave every
/// box on a goal?
pub fn replays(text: &str, moves: &str) -> Result<(), String> {
    let (floor, mut boxes, mut player) = Floor::of_text(text);
    for (i, m) in moves.chars().enumerate() {
        let d = "UDLR".find(m).ok_or_else(|| format!("move {} is {:?}", i + 1, m))?;
        let next = floor.nbr[player as usize][d];
        if next == NONE {
            return Err(format!("move {} walks into a wall", i + 1));
        }
        if let Some(k) = boxes.iter().position(|&b| b == next) {
            let to = floor.nbr[next as usize][d];
            if to == NONE || boxes.contains(&to) {
                return Err(format!("move {} pushes a box into a wall or a box", i + 1));
            }
            boxes[k] = to;
        }
        player = next;
    }
    match boxes.iter().filter(|&&b| !floor.goal[b as usize]).count() {
        0 => Ok(()),
        off => Err(format!("{} boxes off the goals at the end", off)),
    }
}

/// The map of a position on a board: its floor, the rest walls.
pub fn show(board: &Board, boxes: &[Cell], player: Cell) -> String {
    let w = board.width;
    let rows = board.grid_of.iter().max().map_or(0, |&g| g / w) + 2;
    let mut grid = vec![b'#'; w * rows];
    for c in 0..board.n {
        grid[board.grid_of[c]] = if board.is_goal[c] { b'.' } else { b' ' };
    }
    for &b in boxes {
        grid[board.grid_of[b as usize]] = if board.is_goal[b as usize] { b'*' } else { b'$' };
    }
    grid[board.grid_of[player as usize]] = if board.is_goal[player as usize] { b'+' } else { b'@' };
    grid.chunks(w).map(|row| String::from_utf8(row.to_vec()).unwrap() + "\n").collect()
}

/// Random small rooms, the same sequence for the same seed (xorshift).
pub struct Rooms {
    seed: u64,
}

impl Rooms {
    pub fn new(seed: u64) -> Rooms {
        Rooms { seed }
    }

    /// A number below `m`.
    pub fn below(&mut self, m: u64) -> u64 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        self.seed % m
    }

    /// A `w` x `h` room walled round, with fewer than `walls` inner walls, then each of
    /// `marks` (map characters) on a free cell of its own, in that order. `None` if
    /// fewer than `min_free` cells are free or the map is not a valid level.
    pub fn room(&mut self, w: usize, h: usize, walls: u64, min_free: usize, marks: &[u8]) -> Option<(Board, String)> {
        let text = self.text(w, h, walls, min_free, marks)?;
        let board = Board::analyse(&Level::parse(&text).ok()?).ok()?;
        Some((board, text))
    }

    /// The map `room` analyses (it may be no valid level); `None` if fewer than
    /// `min_free` cells are free.
    pub fn text(&mut self, w: usize, h: usize, walls: u64, min_free: usize, marks: &[u8]) -> Option<String> {
        let mut grid = vec![b' '; w * h];
        for _ in 0..self.below(walls) {
            grid[self.below((w * h) as u64) as usize] = b'#';
        }
        let mut free: Vec<usize> = (0..w * h).filter(|&i| grid[i] == b' ').collect();
        if free.len() < min_free.max(marks.len()) {
            return None;
        }
        for &mark in marks {
            let at = free.swap_remove(self.below(free.len() as u64) as usize);
            grid[at] = mark;
        }
        let border = "#".repeat(w + 2);
        let mut text = format!("{}\n", border);
        for row in grid.chunks(w) {
            text.push('#');
            text.push_str(std::str::from_utf8(row).unwrap());
            text.push_str("#\n");
        }
        text.push_str(&border);
        text.push('\n');
        Some(text)
    }

    /// A random cell of `cells`, taken out of it.
    fn take(&mut self, cells: &mut Vec<Cell>) -> Cell {
        cells.swap_remove(self.below(cells.len() as u64) as usize)
    }
}

/// Which positions `for_random_positions` draws: the rooms (`Rooms::room`'s arguments)
/// and, on each, how many positions besides its start.
#[derive(Clone, Copy, Debug)]
pub struct Draw {
    pub width: usize,
    pub height: usize,
    pub walls: u64,
    pub min_free: usize,
    pub marks: &'static [u8],
    /// The start's boxes (as many on goals and off them) and player placed again at
    /// random, the goals where they are.
    pub random: usize,
    /// Drawn among the room's solvable positions (none if it has none).
    pub solvable: usize,
    /// Drawn among the positions pushes lead to from the room's start.
    pub reachable: usize,
    /// The boxes placed at random keep off the dead squares (`Board::dead_fwd`).
    pub live: bool,
}

impl Draw {
    /// Rooms as `Rooms::room` makes them, each with its start alone.
    pub const fn rooms(width: usize, height: usize, walls: u64, min_free: usize, marks: &'static [u8]) -> Draw {
        Draw { width, height, walls, min_free, marks, random: 0, solvable: 0, reachable: 0, live: false }
    }

    /// And per room `random` positions placed at random, `solvable` drawn among the
    /// solvable ones and `reachable` among those reached from its start.
    pub const fn and(self, random: usize, solvable: usize, reachable: usize) -> Draw {
        Draw { random, solvable, reachable, ..self }
    }

    /// The boxes placed at random keep off the dead squares: positions more of the
    /// other rules have something to say about.
    pub const fn live(self) -> Draw {
        Draw { live: true, ..self }
    }
}

/// How a position was drawn (see `Draw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Start,
    Random,
    Solvable,
    Reachable,
}

/// The truth about one room, worked out when first asked.
struct Oracle {
    floor: Floor,
    start: (Vec<Cell>, Cell),
    truth: Option<Truth>,
    /// Keys reached from the start, as a set and sorted.
    reachable: Option<(HashSet<Key>, Vec<Key>)>,
}

impl Oracle {
    fn truth(&mut self) -> &Truth {
        let floor = &self.floor;
        self.truth.get_or_insert_with(|| Truth::new(floor))
    }

    fn reachable(&mut self) -> &(HashSet<Key>, Vec<Key>) {
        let (floor, (boxes, player)) = (&self.floor, &self.start);
        self.reachable.get_or_insert_with(|| {
            let set = floor.reachable(boxes, *player);
            let mut keys: Vec<Key> = set.iter().cloned().collect();
            keys.sort_unstable();
            (set, keys)
        })
    }
}

/// One position `for_random_positions` drew, with the truth about its room at hand.
pub struct Position<'a> {
    pub board: &'a Board,
    /// This position's map.
    pub text: String,
    /// Sorted.
    pub boxes: Vec<Cell>,
    pub player: Cell,
    pub kind: Kind,
    /// 0 for the first position of a room (per-board caches start afresh there).
    pub index: usize,
    oracle: &'a mut Oracle,
}

impl Position<'_> {
    /// The position's boxes as an occupancy map.
    pub fn occupied(&self) -> Vec<bool> {
        let mut occupied = vec![false; self.board.n];
        self.boxes.iter().for_each(|&b| occupied[b as usize] = true);
        occupied
    }

    pub fn floor(&self) -> &Floor {
        &self.oracle.floor
    }

    /// Can this position be solved?
    pub fn solvable(&mut self) -> bool {
        let oracle = &mut *self.oracle;
        oracle.truth();
        oracle.truth.as_ref().unwrap().solvable(&oracle.floor, &self.boxes, self.player)
    }

    /// Can another position on the same board be solved?
    pub fn solvable_at(&mut self, boxes: &[Cell], player: Cell) -> bool {
        let oracle = &mut *self.oracle;
        oracle.truth();
        oracle.truth.as_ref().unwrap().solvable(&oracle.floor, boxes, player)
    }

    /// Do pushes lead from the room's start to this position on the same board?
    pub fn reachable_at(&mut self, boxes: &[Cell], player: Cell) -> bool {
        let key = self.oracle.floor.key(boxes, player);
        self.oracle.reachable().0.contains(&key)
    }

    /// The map of another position on the same board.
    pub fn show(&self, boxes: &[Cell], player: Cell) -> String {
        show(self.board, boxes, player)
    }
}

/// Call `f` on `count` positions (or a few more: a room's positions go together) on
/// random rooms as `draw` says, the same ones for the same seed. Drawing only the
/// rooms' starts, the rooms are those of `Rooms::new(seed)` and `Rooms::room`.
pub fn for_random_positions(seed: u64, count: usize, draw: Draw, mut f: impl FnMut(&mut Position)) {
    let mut rooms = Rooms::new(seed);
    let mut made = 0;
    while made < count {
        let (board, text) = match rooms.room(draw.width, draw.height, draw.walls, draw.min_free, draw.marks) {
            Some(room) => room,
            None => continue,
        };
        let start = (board.start_boxes.clone(), board.start_player);
        let mut oracle = Oracle { floor: Floor::of_board(&board), start, truth: None, reachable: None };
        let mut drawn = vec![(board.start_boxes.clone(), board.start_player, Kind::Start)];
        // A box on a goal out of the player's reach is no box of the board's.
        let on_goals = board.start_boxes.iter().filter(|&&b| board.is_goal[b as usize]).count();
        let off_goals = board.start_boxes.len() - on_goals;
        for _ in 0..draw.random {
            let mut goals = board.goals.clone();
            let mut others: Vec<Cell> = (0..board.n as Cell).filter(|&c| !board.is_goal[c as usize]).collect();
            let mut live = others.clone();
            live.retain(|&c| !(draw.live && board.dead_fwd[c as usize]));
            if goals.len() < on_goals || live.len() < off_goals || others.len() <= off_goals {
                break;
            }
            let mut boxes: Vec<Cell> = (0..on_goals).map(|_| rooms.take(&mut goals)).collect();
            boxes.extend((0..off_goals).map(|_| rooms.take(&mut live)));
            others.retain(|c| !boxes.contains(c));
            others.extend(goals);
            others.sort_unstable();
            let player = rooms.take(&mut others);
            boxes.sort_unstable();
            drawn.push((boxes, player, Kind::Random));
        }
        for (n, kind) in [(draw.solvable, Kind::Solvable), (draw.reachable, Kind::Reachable)] {
            if n == 0 {
                continue;
            }
            let keys = match kind {
                Kind::Solvable => &oracle.truth().keys,
                _ => &oracle.reachable().1,
            };
            let picks: Vec<Key> =
                (0..n.min(keys.len())).map(|_| keys[rooms.below(keys.len() as u64) as usize].clone()).collect();
            for key in picks {
                let boxes = key[..key.len() - 1].to_vec();
                let mut area = oracle.floor.area(&boxes, key[key.len() - 1]);
                let player = rooms.take(&mut area);
                drawn.push((boxes, player, kind));
            }
        }
        for (index, (boxes, player, kind)) in drawn.into_iter().enumerate() {
            let text = if kind == Kind::Start { text.clone() } else { show(&board, &boxes, player) };
            let mut p = Position { board: &board, text, boxes, player, kind, index, oracle: &mut oracle };
            f(&mut p);
            made += 1;
        }
    }
}

/// Small rooms joined by doorways: many cells whose box cuts the floor.
pub const ROOMS: &str = "##########\n#@   #   #\n# ## # # #\n#   $    #\n## # ##  #\n#    .#  #\n##########\n";

/// Pseudo-random numbers below `m`, the same from the same seed.
pub fn numbers(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |m| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % m
    }
}

/// Up to 3,000 layouts of `b`, a box on about one cell in five, each with a free root.
pub fn layouts(b: &Board, seed: u64) -> impl Iterator<Item = (Vec<bool>, Cell)> + '_ {
    let mut rnd = numbers(seed);
    (0..3000).filter_map(move |_| {
        let occ: Vec<bool> = (0..b.n).map(|_| rnd(5) == 0).collect();
        let root = rnd(b.n) as Cell;
        (!occ[root as usize]).then_some((occ, root))
    })
}
