//! Goal rooms, their packing order, and the goal macro.
//!
//! Goals that touch each other form a room. Boxes must usually enter a room deepest goal
//! first, or they block the goals behind them. The order is found backwards: start with
//! the room full and repeatedly take out the box that leaves most easily (pulled by a
//! player coming from where he starts to a cell boxes can come from, the other boxes
//! standing still); the reverse of that is the filling order. During search, a box pushed
//! into a room may be carried straight on to the room's next goal in that order: one macro
//! edge of several pushes, found by a small box-and-player search (`box_path`).

use std::cell::OnceCell;

use crate::board::{Board, Cell, NONE};
use crate::box_path::BoxPath;
use crate::hotspot::Hotspots;
use crate::limits::{MAX_ROOM, PACKING_ANALYSIS_WORK};
use crate::plan::Plan;
use crate::reach::Areas;

pub struct Packing {
    /// Room number per cell (goals only), 0 = none.
    pub room: Vec<u16>,
    /// Filling order per room (index = room number - 1); empty if none was found, and
    /// then the room gets neither macros nor an enforced order.
    pub order: Vec<Vec<Cell>>,
    /// Rooms whose order is trusted enough to be enforced: two or more goals, an order
    /// found, and no box inside at the start.
    pub strict: Vec<bool>,
    /// Which cells block which (see `hotspot`).
    pub hotspots: Hotspots,
    /// The global packing plan, if the peeling found one (see `plan`).
    pub plan: Option<Plan>,
    /// The second and third plans (`Plan::second`, `Plan::third`), found when a phase
    /// first asks for them: most levels are solved before.
    second_plan: OnceCell<Option<Plan>>,
    third_plan: OnceCell<Option<Plan>>,
}

/// Which of a level's plans a plan phase follows. The plans are the first, then the second
/// and the third where the level has them (each unlike those before it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanChoice {
    First,
    /// The last plan found: the third, else the second, else the first.
    Last,
    /// The plan before the last: the second where a third follows it, else the first.
    BeforeLast,
}

impl Packing {
    /// The bytes its tables hold (the hotspots' pairs above all), and as much again as the
    /// plan's for each of the second and third plans that phases may ask for later.
    pub fn heap_bytes(&self) -> usize {
        self.room.capacity() * 2
            + self.order.iter().map(|o| o.capacity() * 2).sum::<usize>()
            + self.hotspots.heap_bytes()
            + self.plan.as_ref().map_or(0, Plan::heap_bytes) * 3
    }

    /// The plan a phase follows, found when a phase first asks for it.
    pub fn plan_for(&self, board: &Board, choice: PlanChoice) -> Option<&Plan> {
        let first = self.plan.as_ref()?;
        let later = || {
            let second = self.second_plan.get_or_init(|| Plan::second(board, first)).as_ref();
            (second, self.third_plan.get_or_init(|| Plan::third(board, first, second)).as_ref())
        };
        let chosen = match choice {
            PlanChoice::First => None,
            PlanChoice::Last => {
                let (second, third) = later();
                third.or(second)
            }
            PlanChoice::BeforeLast => {
                let (second, third) = later();
                third.and(second)
            }
        };
        chosen.or(Some(first))
    }

    /// The level's plans other than the one `choice` gives, each once (the second and
    /// third are found now if no phase asked for them yet).
    pub fn plans_besides(&self, board: &Board, choice: PlanChoice) -> Vec<&Plan> {
        let own = self.plan_for(board, choice);
        let mut others: Vec<&Plan> = Vec::new();
        for c in [PlanChoice::First, PlanChoice::BeforeLast, PlanChoice::Last] {
            if let Some(p) = self.plan_for(board, c) {
                if !own.is_some_and(|o| std::ptr::eq(o, p)) && !others.iter().any(|&q| std::ptr::eq(q, p)) {
                    others.push(p);
                }
            }
        }
        others
    }

    /// The second and third plans that phases asked for (for `--stats`).
    pub fn other_plans_found(&self) -> impl Iterator<Item = (&'static str, &Plan)> {
        let second = self.second_plan.get().and_then(Option::as_ref).map(|p| ("second", p));
        second.into_iter().chain(self.third_plan.get().and_then(Option::as_ref).map(|p| ("third", p)))
    }

    pub fn analyse(board: &Board) -> Packing {
        let n = board.n;
        let mut room = vec![0u16; n];
        let mut rooms: Vec<Vec<Cell>> = Vec::new();
        for &g in &board.goals {
            if room[g as usize] != 0 {
                continue;
            }
            let id = rooms.len() as u16 + 1;
            let mut cells = vec![g];
            room[g as usize] = id;
            let mut i = 0;
            while i < cells.len() {
                let c = cells[i];
                i += 1;
                for &t in &board.nbr[c as usize] {
                    if t != NONE && board.is_goal[t as usize] && room[t as usize] == 0 {
                        room[t as usize] = id;
                        cells.push(t);
                    }
                }
            }
            cells.sort_unstable();
            rooms.push(cells);
        }
        let mut path = BoxPath::new(n);
        path.work_left = PACKING_ANALYSIS_WORK;
        let order: Vec<Vec<Cell>> = rooms
            .iter()
            .enumerate()
            .map(|(i, cells)| {
                if cells.len() == 1 {
                    cells.clone()
                } else if cells.len() > MAX_ROOM {
                    Vec::new()
                } else {
                    fill_order(board, &room, (i + 1) as u16, cells, &mut path).unwrap_or_default()
                }
            })
            .collect();
        let strict = order
            .iter()
            .enumerate()
            .map(|(i, o)| o.len() >= 2 && !board.start_boxes.iter().any(|&b| room[b as usize] == (i + 1) as u16))
            .collect();
        let (hotspots, plan) = (Hotspots::analyse(board), Plan::find(board));
        Packing { room, order, strict, hotspots, plan, second_plan: OnceCell::new(), third_plan: OnceCell::new() }
    }

    /// Is `cell` a goal of a room whose order is enforced?
    #[inline]
    pub fn in_strict_room(&self, cell: Cell) -> bool {
        let r = self.room[cell as usize];
        r != 0 && self.strict[r as usize - 1]
    }

    /// The first goal of `room` (1-based) in filling order that has no box yet.
    pub fn next_goal(&self, room: u16, occupied: &[bool]) -> Option<Cell> {
        self.order[room as usize - 1].iter().copied().find(|&g| !occupied[g as usize])
    }

    /// One line per room with two or more goals, for `--stats`: its size, whether its
    /// order is enforced, and the order as (column, row) grid cells, 0-based. Which order
    /// a level gets decides most of what the strict phase can do with it.
    pub fn describe_rooms(&self, board: &Board) -> Vec<String> {
        let mut sizes = vec![0usize; self.order.len() + 1];
        self.room.iter().for_each(|&r| sizes[r as usize] += 1);
        let mut lines = Vec::new();
        for (r, order) in self.order.iter().enumerate() {
            let goals = sizes[r + 1];
            if goals < 2 {
                continue;
            }
            let how = match (order.is_empty(), self.strict[r]) {
                (true, _) => "no order found".to_string(),
                (false, true) => "order enforced:".to_string(),
                (false, false) => "order (macros only):".to_string(),
            };
            let cells: Vec<String> = order
                .iter()
                .map(|&g| {
                    let (x, y) = board.xy(g);
                    format!("({},{})", x, y)
                })
                .collect();
            lines.push(format!("room {}: {} goals, {} {}", r + 1, goals, how, cells.join(" ")).trim_end().to_string());
        }
        lines
    }
}

/// Take boxes out of a full room one by one; the reverse is the filling order. The player
/// comes from where he starts (not from a pocket of floor that the room's goals close
/// off), and a box is out once it stands where boxes can come from (`box_sources`).
/// Where the full room divides the map and no box goes out to the player's side, he
/// comes from each other side in turn: he may end the level there, having crossed the
/// room before it filled.
///
/// Each box goes out to a cell boxes get to without crossing the room if any box can: a
/// cell they reach only through it, such as a floor cell among its goals, would count a
/// box as out while it still stands in the room's way. Only when no box left can go out
/// so does a cell reached through the room count, for that box.
fn fill_order(board: &Board, room: &[u16], id: u16, cells: &[Cell], path: &mut BoxPath) -> Option<Vec<Cell>> {
    let player = board.start_player;
    let sources = [box_sources(board, room, id, false), box_sources(board, room, id, true)];
    if room[player as usize] == id {
        let outside: Vec<Cell> = (0..board.n as Cell).filter(|&c| room[c as usize] != id).collect();
        return take_out(board, cells, &outside, &sources, path);
    }
    let mut full = vec![false; board.n];
    cells.iter().for_each(|&g| full[g as usize] = true);
    let mut areas = Areas::new(board.n);
    areas.label(board, &full);
    // The player's own area first, then each other one from its smallest cell.
    let own = areas.area_of(player);
    let others = (0..board.n as Cell).filter(|&c| areas.area_of(c) != own && areas.smallest_in_area_of(c) == c);
    for from in std::iter::once(player).chain(others) {
        if let Some(order) = take_out(board, cells, &[from], &sources, path) {
            return Some(order);
        }
        if path.work_left == 0 {
            return None;
        }
    }
    None
}

/// `fill_order`'s greedy peeling, the player coming from `outside`.
fn take_out(
    board: &Board,
    cells: &[Cell],
    outside: &[Cell],
    sources: &[Vec<bool>; 2],
    path: &mut BoxPath,
) -> Option<Vec<Cell>> {
    let mut occupied = vec![false; board.n];
    for &g in cells {
        occupied[g as usize] = true;
    }
    let mut left: Vec<Cell> = cells.to_vec();
    let mut removed = Vec::with_capacity(cells.len());
    while !left.is_empty() {
        let mut best: Option<(usize, usize)> = None; // (pulls, index in left)
        for sources in sources {
            for (i, &g) in left.iter().enumerate() {
                if path.work_left == 0 {
                    return None;
                }
                occupied[g as usize] = false;
                let pulls = path.extract(board, &occupied, g, outside, |c| !sources[c as usize]);
                occupied[g as usize] = true;
                if let Some(p) = pulls {
                    if best.map_or(true, |(bp, _)| p < bp) {
                        best = Some((p, i));
                    }
                }
            }
            if best.is_some() {
                break;
            }
        }
        let (_, i) = best?;
        let g = left.remove(i);
        occupied[g as usize] = false;
        removed.push(g);
    }
    removed.reverse();
    Some(removed)
}

/// The cells outside room `id` that boxes starting outside it can be pushed to (with
/// `through_room`, through the empty room too), the other boxes and the player's reach
/// left aside (so, a few too many). With no box outside the room, every cell outside it.
fn box_sources(board: &Board, room: &[u16], id: u16, through_room: bool) -> Vec<bool> {
    let outside = |c: Cell| room[c as usize] != id;
    let mut seen = vec![false; board.n];
    let mut queue: Vec<Cell> = board.start_boxes.iter().copied().filter(|&b| outside(b)).collect();
    if queue.is_empty() {
        return (0..board.n as Cell).map(outside).collect();
    }
    for &b in &queue {
        seen[b as usize] = true;
    }
    while let Some(x) = queue.pop() {
        for d in 0..4 {
            let (to, behind) = (board.step(x, d), board.step(x, d ^ 1));
            let open = to != NONE && behind != NONE && !board.dead_fwd[to as usize];
            if open && !seen[to as usize] && (through_room || outside(to)) {
                seen[to as usize] = true;
                queue.push(to);
            }
        }
    }
    (0..board.n).map(|c| seen[c] && outside(c as Cell)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_end_room_fills_from_the_back() {
        // Three goals in a corridor closed on the right: the far one first.
        let b = Board::from_text("########\n#      #\n#@ $$$ #\n#   ...#\n###    #\n########\n");
        let p = Packing::analyse(&b);
        let room = p.room[b.cell_at(4, 3) as usize];
        assert!(room > 0);
        let order = &p.order[room as usize - 1];
        assert_eq!(order.len(), 3);
        // The goals can be left in any order here (open below), so just check it is full.
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![b.cell_at(4, 3), b.cell_at(5, 3), b.cell_at(6, 3)]);

        let b = Board::from_text("##########\n#@ $$$...#\n##########\n");
        let p = Packing::analyse(&b);
        let order = &p.order[0];
        assert_eq!(order, &vec![b.cell_at(8, 1), b.cell_at(7, 1), b.cell_at(6, 1)]);
        let mut occ = vec![false; b.n];
        occ[b.cell_at(8, 1) as usize] = true;
        assert_eq!(p.next_goal(1, &occ), Some(b.cell_at(7, 1)));
    }

    #[test]
    fn the_rooms_are_described_with_their_order_in_grid_cells() {
        let b = Board::from_text("##########\n#@ $$$...#\n##########\n");
        let p = Packing::analyse(&b);
        assert_eq!(p.describe_rooms(&b), vec!["room 1: 3 goals, order enforced: (8,1) (7,1) (6,1)".to_string()]);
        // A lone goal is no room to describe.
        let b = Board::from_text("#####\n#@$.#\n#####\n");
        assert!(Packing::analyse(&b).describe_rooms(&b).is_empty());
    }

    #[test]
    fn a_floor_pocket_behind_a_room_is_no_way_in() {
        // Past the goals the corridor goes on, but neither player nor box gets there
        // except through the goals: the far goal still comes first.
        let b = Board::from_text("############\n#@ $$$...  #\n############\n");
        let p = Packing::analyse(&b);
        assert_eq!(p.order[0], vec![b.cell_at(8, 1), b.cell_at(7, 1), b.cell_at(6, 1)]);
    }

    #[test]
    fn a_room_the_player_must_cross_is_peeled_from_its_far_side() {
        // The player starts in a pocket that the full room closes off: from there no box
        // comes out, and the order is found with him on the far side, where he ends. The
        // goal at the pocket's mouth comes first; the other two are filled from below.
        let b = Board::from_text("########\n#@...  #\n###$$$ #\n###    #\n########\n");
        let p = Packing::analyse(&b);
        let room = p.room[b.cell_at(2, 1) as usize];
        assert!(room > 0);
        let order = &p.order[room as usize - 1];
        assert_eq!((order.len(), order[0]), (3, b.cell_at(2, 1)));
    }

    #[test]
    fn a_floor_cell_among_the_goals_is_not_where_boxes_come_from() {
        // The goals ring the floor cell (4, 7); boxes reach it only across them.
        let text = concat!(
            "#########\n#   #####\n# $$$   #\n# $$$ @ #\n# $$$   #\n",
            "####.####\n###...###\n###. .###\n###...###\n#########\n"
        );
        let b = Board::from_text(text);
        let p = Packing::analyse(&b);
        let (hole, outside) = (b.cell_at(4, 7) as usize, b.cell_at(4, 4) as usize);
        let room = p.room[b.cell_at(4, 5) as usize];
        assert!(room > 0 && p.room[hole] == 0);
        let direct = box_sources(&b, &p.room, room, false);
        let through = box_sources(&b, &p.room, room, true);
        assert!(direct[outside] && through[outside]);
        assert!(!direct[hole] && through[hole]);
    }

    #[test]
    fn the_analysis_stays_bounded_on_a_huge_map() {
        // 200x200 open floor, an 8x8 block of goals in the middle, 64 boxes in rows.
        let (w, h) = (200, 200);
        let mut rows = vec![vec![b' '; w]; h];
        for y in 0..h {
            for x in 0..w {
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                    rows[y][x] = b'#';
                }
            }
        }
        for i in 0..64 {
            rows[96 + i / 8][96 + i % 8] = b'.';
            rows[20 + 2 * (i / 16)][20 + 2 * (i % 16)] = b'$';
        }
        rows[10][10] = b'@';
        let text: String = rows.iter().map(|r| String::from_utf8(r.clone()).unwrap() + "\n").collect();
        let b = Board::from_text(&text);
        let start = std::time::Instant::now();
        let p = Packing::analyse(&b);
        assert!(start.elapsed().as_secs_f64() < 3.0, "took {:?}", start.elapsed());
        // Whatever was found, an order is either complete or absent.
        assert!(p.order.iter().all(|o| o.is_empty() || o.len() == 64));
    }

    #[test]
    fn phases_follow_the_last_plan_or_the_one_before_it() {
        let parks = |plan: &Plan| plan.dest.iter().any(|&d| d != NONE);
        let is = |a: Option<&Plan>, b: &Plan| a.is_some_and(|a| std::ptr::eq(a, b));
        // Two goals wall the two areas off from each other: by YASS's rules for parking too,
        // one box parks first (the third plan); by the others, each goal's box is taken
        // straight off (the first plan, and the second again: there is none).
        let b = Board::from_text("###########\n#    #    #\n# $  .  $ #\n#    .    #\n#@   #    #\n###########\n");
        let p = Packing::analyse(&b);
        let first = p.plan.as_ref().unwrap();
        assert!(is(p.plan_for(&b, PlanChoice::First), first));
        let third = p.plan_for(&b, PlanChoice::Last).unwrap();
        assert!(parks(third) && !parks(first));
        assert!(p.second_plan.get().unwrap().is_none());
        assert!(is(p.plan_for(&b, PlanChoice::BeforeLast), first));
        // A level with three plans: the second comes before the last.
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/xsokoban90/xsokoban89.txt"));
        let b = Board::from_text(&text.unwrap());
        let p = Packing::analyse(&b);
        let last = p.plan_for(&b, PlanChoice::Last);
        let (second, third) = (p.second_plan.get().unwrap().as_ref(), p.third_plan.get().unwrap().as_ref());
        assert!(is(last, third.unwrap()));
        assert!(is(p.plan_for(&b, PlanChoice::BeforeLast), second.unwrap()));
        // A level with one plan follows it in every phase.
        let b = Board::from_text("##########\n#@ $$$...#\n##########\n");
        let p = Packing::analyse(&b);
        let first = p.plan.as_ref().unwrap();
        for choice in [PlanChoice::First, PlanChoice::Last, PlanChoice::BeforeLast] {
            assert!(is(p.plan_for(&b, choice), first));
        }
    }

    /// The plans besides a phase's own are the level's others, each once, in the order
    /// first, second, third.
    #[test]
    fn the_other_plans_are_the_levels_plans_but_the_phases_own() {
        let same = |a: &[&Plan], b: &[&Plan]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| std::ptr::eq(*x, *y));
        let level = |text: &str| {
            let b = Board::from_text(text);
            let p = Packing::analyse(&b);
            (b, p)
        };
        // Three plans.
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/xsokoban90/xsokoban89.txt"));
        let (b, p) = level(&text.unwrap());
        let first = p.plan_for(&b, PlanChoice::First).unwrap();
        let (second, third) =
            (p.plan_for(&b, PlanChoice::BeforeLast).unwrap(), p.plan_for(&b, PlanChoice::Last).unwrap());
        assert!(!std::ptr::eq(first, second) && !std::ptr::eq(second, third) && !std::ptr::eq(first, third));
        assert!(same(&p.plans_besides(&b, PlanChoice::Last), &[first, second]));
        assert!(same(&p.plans_besides(&b, PlanChoice::BeforeLast), &[first, third]));
        assert!(same(&p.plans_besides(&b, PlanChoice::First), &[second, third]));
        // Two (a first and a third): the one besides the last is the first, and the other way.
        let (b, p) = level("###########\n#    #    #\n# $  .  $ #\n#    .    #\n#@   #    #\n###########\n");
        let (first, last) = (p.plan_for(&b, PlanChoice::First).unwrap(), p.plan_for(&b, PlanChoice::Last).unwrap());
        assert!(same(&p.plans_besides(&b, PlanChoice::Last), &[first]));
        assert!(same(&p.plans_besides(&b, PlanChoice::First), &[last]));
        // One: none besides it.
        let (b, p) = level("##########\n#@ $$$...#\n##########\n");
        assert!(p.plans_besides(&b, PlanChoice::Last).is_empty());
    }
}
