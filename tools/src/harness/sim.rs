//! Independent Sokoban move checker.
//!
//! This file is deliberately self-contained (no `crate::`/`super::` paths, std
//! only): the integration tests pull it in with
//! `#[path = "../tools/src/harness/sim.rs"] mod sim;`, and it must never share
//! code with the solver, otherwise a bug in the solver's move generation could
//! "verify" its own wrong answers.
//!
//! Positions in error messages are 1-based: "move 17" is the 17th character of
//! the answer, so the message can be checked against the answer by eye.

// Not every caller uses every helper (the tests only need `replay`).
#![allow(dead_code)]

/// What a correct answer amounted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replay {
    /// Number of steps (every `UDLR` letter, pushes included).
    pub moves: usize,
    /// Steps that moved a box, counted by the simulation itself; the case of
    /// the letters (LURD convention: uppercase = push) is not trusted.
    pub pushes: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cell {
    /// Beyond the end of a ragged row or outside the grid.
    Void,
    Wall,
    Floor,
}

/// A parsed level plus the mutable state (boxes and player) of a replay.
#[derive(Debug, Clone)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
    goals: Vec<bool>,
    boxes: Vec<bool>,
    player: usize,
}

impl Board {
    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn box_count(&self) -> usize {
        self.boxes.iter().filter(|&&b| b).count()
    }

    pub fn goal_count(&self) -> usize {
        self.goals.iter().filter(|&&g| g).count()
    }

    /// Boxes that are not standing on a goal.
    pub fn boxes_off_goal(&self) -> usize {
        self.boxes.iter().zip(&self.goals).filter(|&(&b, &g)| b && !g).count()
    }

    pub fn is_solved(&self) -> bool {
        self.boxes_off_goal() == 0
    }

    /// Neighbour of `pos` in direction (dr, dc), or None when it leaves the grid.
    fn step(&self, pos: usize, dr: isize, dc: isize) -> Option<usize> {
        let r = (pos / self.width) as isize + dr;
        let c = (pos % self.width) as isize + dc;
        if r < 0 || c < 0 || r >= self.height as isize || c >= self.width as isize {
            None
        } else {
            Some(r as usize * self.width + c as usize)
        }
    }

    fn cell(&self, pos: Option<usize>) -> Cell {
        pos.map_or(Cell::Void, |p| self.cells[p])
    }

    /// The board as map text, one line a row, trailing blanks left out.
    pub fn draw(&self) -> String {
        let mut text = String::new();
        for r in 0..self.height {
            let row: String = (r * self.width..(r + 1) * self.width)
                .map(|i| match (self.cells[i], self.goals[i], self.boxes[i], i == self.player) {
                    (Cell::Wall, ..) => '#',
                    (_, true, true, _) => '*',
                    (_, false, true, _) => '$',
                    (_, true, _, true) => '+',
                    (_, false, _, true) => '@',
                    (_, true, ..) => '.',
                    _ => ' ',
                })
                .collect();
            text += row.trim_end();
            text += "\n";
        }
        text
    }
}

/// Parse a map in the solver's input format. Rows may be ragged and end in
/// CRLF; `-` and `_` are accepted as floor because some collections use them.
/// A line of spaces (or an empty one) inside the map is a row of floor across
/// the whole map, and so are lines of spaces just above and below it, with the
/// blank lines between them and the map; other blank lines are framing.
pub fn parse_map(map: &str) -> Result<Board, String> {
    let lines: Vec<&str> = map.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let blank = |r: &str| r.trim().is_empty();
    let spaces = |r: &str| r.chars().all(|c| c == ' ');
    let (Some(mut first), Some(mut last)) =
        (lines.iter().position(|r| !blank(r)), lines.iter().rposition(|r| !blank(r)))
    else {
        return Err("empty map".to_string());
    };
    let mut i = first;
    while i > 0 && spaces(lines[i - 1]) {
        i -= 1;
        if !lines[i].is_empty() {
            first = i;
        }
    }
    let mut i = last;
    while i + 1 < lines.len() && spaces(lines[i + 1]) {
        i += 1;
        if !lines[i].is_empty() {
            last = i;
        }
    }
    let rows = &lines[first..=last];
    let height = rows.len();
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let mut cells = vec![Cell::Void; width * height];
    let mut goals = vec![false; width * height];
    let mut boxes = vec![false; width * height];
    let mut players = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if spaces(row) {
            cells[r * width..(r + 1) * width].fill(Cell::Floor);
        }
        for (c, ch) in row.chars().enumerate() {
            let i = r * width + c;
            let (cell, goal, boxed, player) = match ch {
                '#' => (Cell::Wall, false, false, false),
                ' ' | '-' | '_' => (Cell::Floor, false, false, false),
                '.' => (Cell::Floor, true, false, false),
                '$' => (Cell::Floor, false, true, false),
                '*' => (Cell::Floor, true, true, false),
                '@' => (Cell::Floor, false, false, true),
                '+' => (Cell::Floor, true, false, true),
                _ => return Err(format!("unexpected character {:?} in map at row {} column {}", ch, r + 1, c + 1)),
            };
            cells[i] = cell;
            goals[i] = goal;
            boxes[i] = boxed;
            if player {
                players.push(i);
            }
        }
    }
    let player = match players.len() {
        1 => players[0],
        0 => return Err("no player in map".to_string()),
        n => return Err(format!("{} players in map", n)),
    };
    let board = Board { width, height, cells, goals, boxes, player };
    if board.box_count() == 0 {
        return Err("no boxes in map".to_string());
    }
    if board.box_count() > board.goal_count() {
        return Err(format!("more boxes ({}) than goals ({}) in map", board.box_count(), board.goal_count()));
    }
    Ok(board)
}

/// Replay `moves` on `map`. Ok only if every move is legal and all boxes end
/// on goals. Trailing whitespace (newline, CRLF) after the answer is ignored;
/// anything else that is not a `UDLR` letter (either case) is an error.
pub fn replay(map: &str, moves: &str) -> Result<Replay, String> {
    let mut board = parse_map(map).map_err(|e| format!("bad map: {}", e))?;
    let done = play(&mut board, moves, |_, _| {})?;
    let off = board.boxes_off_goal();
    if off > 0 {
        return Err(format!("boxes not all on goals at the end ({} off goal)", off));
    }
    Ok(done)
}

/// The position right after each push count of `at` (in order, repeats allowed) of
/// `moves` on `map`, drawn as a map with its player; the moves must be legal, not
/// finish. Counts past the last push get no drawing.
pub fn positions(map: &str, moves: &str, at: &[usize]) -> Result<Vec<String>, String> {
    let mut board = parse_map(map).map_err(|e| format!("bad map: {}", e))?;
    let mut out = Vec::new();
    let draw = |b: &Board, pushes: usize, out: &mut Vec<String>| {
        while at.get(out.len()) == Some(&pushes) {
            out.push(b.draw());
        }
    };
    draw(&board, 0, &mut out);
    play(&mut board, moves, |b, pushes| draw(b, pushes, &mut out))?;
    Ok(out)
}

/// Play `moves` on `board`, calling `pushed` after each push with the pushes so
/// far: the moves and pushes made, or the first illegal move.
fn play(board: &mut Board, moves: &str, mut pushed: impl FnMut(&Board, usize)) -> Result<Replay, String> {
    let answer = moves.trim_end_matches([' ', '\t', '\r', '\n']);
    let mut pushes = 0;
    let mut count = 0;
    for (i, ch) in answer.chars().enumerate() {
        let n = i + 1;
        let (dr, dc) = match ch.to_ascii_uppercase() {
            'U' => (-1, 0),
            'D' => (1, 0),
            'L' => (0, -1),
            'R' => (0, 1),
            _ => return Err(format!("unexpected character {:?} at {}", ch, n)),
        };
        let next = board.step(board.player, dr, dc);
        match board.cell(next) {
            Cell::Void => return Err(format!("move {} {:?} walks off the map", n, ch)),
            Cell::Wall => return Err(format!("move {} {:?} walks into a wall", n, ch)),
            Cell::Floor => {}
        }
        let next = next.expect("floor cells are inside the grid");
        let push = board.boxes[next];
        if push {
            let beyond = board.step(next, dr, dc);
            match board.cell(beyond) {
                Cell::Void => return Err(format!("move {} {:?} pushes a box off the map", n, ch)),
                Cell::Wall => return Err(format!("move {} {:?} pushes a box into a wall", n, ch)),
                Cell::Floor => {}
            }
            let beyond = beyond.expect("floor cells are inside the grid");
            if board.boxes[beyond] {
                return Err(format!("move {} {:?} pushes a box into another box", n, ch));
            }
            board.boxes[next] = false;
            board.boxes[beyond] = true;
            pushes += 1;
        }
        board.player = next;
        count = n;
        if push {
            pushed(board, pushes);
        }
    }
    Ok(Replay { moves: count, pushes })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Player left of a box, goal right of it.
    const LINE: &str = "#####\n#@$.#\n#####\n";

    // Two boxes in a row, for box-into-box pushes.
    const TWO: &str = "######\n#@$$ #\n#  ..#\n######\n";

    #[test]
    fn legal_solution_counts_moves_and_pushes() {
        assert_eq!(replay(LINE, "R"), Ok(Replay { moves: 1, pushes: 1 }));
        let room = "#######\n#     #\n# @$ .#\n#     #\n#######\n";
        assert_eq!(replay(room, "RR\n"), Ok(Replay { moves: 2, pushes: 2 }));
        // A loop behind the player first: only the last two steps push.
        assert_eq!(replay(room, "ULDRRR"), Ok(Replay { moves: 6, pushes: 2 }));
    }

    #[test]
    fn letters_are_case_insensitive_and_pushes_are_counted_not_trusted() {
        let room = "#######\n#     #\n# @$ .#\n#     #\n#######\n";
        // LURD style with correct case.
        assert_eq!(replay(room, "uldrRR"), Ok(Replay { moves: 6, pushes: 2 }));
        // Wrong case everywhere: still the same path, same counted pushes.
        assert_eq!(replay(room, "ULDrrr"), Ok(Replay { moves: 6, pushes: 2 }));
    }

    #[test]
    fn walking_into_wall_is_reported_with_position() {
        assert_eq!(replay(LINE, "L"), Err("move 1 'L' walks into a wall".into()));
        assert_eq!(replay(LINE, "u"), Err("move 1 'u' walks into a wall".into()));
    }

    #[test]
    fn pushing_box_into_wall_is_illegal() {
        // After R the box sits on the goal next to the wall; a second R pushes it into the wall.
        assert_eq!(replay(LINE, "RR"), Err("move 2 'R' pushes a box into a wall".into()));
    }

    #[test]
    fn pushing_box_into_box_is_illegal() {
        assert_eq!(replay(TWO, "R"), Err("move 1 'R' pushes a box into another box".into()));
    }

    #[test]
    fn ragged_rows_do_not_let_the_player_leave_the_map() {
        // Row 2 is short: the floor ends at the player's right.
        let map = "####\n#.$@\n####\n";
        assert_eq!(replay(map, "R"), Err("move 1 'R' walks off the map".into()));
        assert_eq!(replay(map, "L"), Ok(Replay { moves: 1, pushes: 1 }));
    }

    #[test]
    fn unfinished_answer_is_wrong() {
        let room = "#######\n#     #\n# @$ .#\n#     #\n#######\n";
        assert_eq!(replay(room, "R"), Err("boxes not all on goals at the end (1 off goal)".into()));
        assert_eq!(replay(TWO, ""), Err("boxes not all on goals at the end (2 off goal)".into()));
    }

    #[test]
    fn junk_in_answer_is_rejected_but_trailing_whitespace_is_fine() {
        assert_eq!(replay(LINE, "R\r\n"), Ok(Replay { moves: 1, pushes: 1 }));
        assert_eq!(replay(LINE, "R  \n\n"), Ok(Replay { moves: 1, pushes: 1 }));
        assert_eq!(replay(LINE, "x"), Err("unexpected character 'x' at 1".into()));
        assert_eq!(replay(LINE, " R"), Err("unexpected character ' ' at 1".into()));
        // A second line (e.g. debug output on stdout) is junk too.
        assert_eq!(replay(LINE, "R\nsolved!\n"), Err("unexpected character '\\n' at 2".into()));
    }

    #[test]
    fn empty_answer_on_solved_map_is_correct() {
        let solved = "#####\n#@* #\n#####\n";
        assert_eq!(replay(solved, ""), Ok(Replay { moves: 0, pushes: 0 }));
        assert_eq!(replay(solved, "\n"), Ok(Replay { moves: 0, pushes: 0 }));
        // Walking without touching the box keeps it solved.
        assert_eq!(replay("######\n#@ * #\n######\n", "R"), Ok(Replay { moves: 1, pushes: 0 }));
    }

    #[test]
    fn map_parsing_handles_crlf_and_goal_player() {
        // Player starts on a goal ('+'); one spare goal is allowed.
        let map = "#####\r\n#+$.#\r\n#####\r\n";
        let b = parse_map(map).unwrap();
        assert_eq!((b.width(), b.height()), (5, 3));
        assert_eq!((b.box_count(), b.goal_count()), (1, 2));
        assert!(!b.is_solved());
        assert_eq!(replay(map, "R"), Ok(Replay { moves: 1, pushes: 1 }));
    }

    #[test]
    fn blank_rows_inside_and_lines_of_spaces_around_an_open_map_are_floor() {
        // The empty line is a floor row the player crosses; without it the box is stuck.
        let map = "@  \n\n $.\n";
        assert_eq!(replay(map, "DDR"), Ok(Replay { moves: 3, pushes: 1 }));
        // Rows of spaces after the last row: the box is pushed up from below it.
        let map = "@\n .\n $\n  \n\n";
        assert_eq!(parse_map(map).map(|b| b.height()), Ok(4));
        assert_eq!(replay(map, "DDDRU"), Ok(Replay { moves: 5, pushes: 1 }));
        // Empty lines beyond them, and around a walled map, are framing.
        assert_eq!(parse_map("\n  \n\n#####\n#@$.#\n#####\n\n").map(|b| b.height()), Ok(5));
        assert_eq!(parse_map("#####\n#@$.#\n#####\n\n\n").map(|b| b.height()), Ok(3));
    }

    #[test]
    fn positions_are_drawn_after_the_pushes_asked_for() {
        let room = "#######\n#@$  .#\n#######\n";
        let drawn = positions(room, "RRR", &[0, 1, 3]).unwrap();
        assert_eq!(
            drawn,
            vec![room.to_string(), "#######\n# @$ .#\n#######\n".into(), "#######\n#   @*#\n#######\n".into()]
        );
        // Walks do not count; a push count past the end is not drawn.
        assert_eq!(positions(room, "RL", &[1, 2]).unwrap().len(), 1);
        // A count asked for twice (a short solution cut in many parts) is drawn twice.
        assert_eq!(positions(room, "RRR", &[0, 0, 2, 2, 3]).unwrap().len(), 5);
        assert_eq!(positions(room, "L", &[0]), Err("move 1 'L' walks into a wall".into()));
        // A drawn position is a map the simulator reads back as it was.
        let back = parse_map(&drawn[1]).unwrap();
        assert_eq!((back.box_count(), back.goal_count(), back.is_solved()), (1, 1, false));
    }

    #[test]
    fn bad_maps_are_reported() {
        assert_eq!(replay("###\n#$#\n###\n", ""), Err("bad map: no player in map".into()));
        assert!(replay("#####\n#@x.#\n#####", "R")
            .unwrap_err()
            .contains("unexpected character 'x' in map at row 2 column 3"));
        assert_eq!(replay("#####\n#@$$.#\n#####", "R"), Err("bad map: more boxes (2) than goals (1) in map".into()));
    }
}
