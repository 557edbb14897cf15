//! The deterministic node-count signature, like a chess engine's `bench`.
//!
//! A fixed list of public maps is searched with a fixed expansion budget each; the
//! total count of expanded and generated nodes does not depend on the machine's speed.
//! A commit that claims no search change must leave it unchanged. The maps are embedded
//! so that the single-file build carries them too (credits beside each).

use std::process::ExitCode;

use crate::budget::Budget;
use crate::level::Level;
use crate::solver::{self, Options, Verdict};

/// Default expansion budget per map.
const NODES_PER_MAP: u64 = 20_000;
/// The schedule's work shrunk so that every phase of the portfolio runs within
/// `NODES_PER_MAP` expansions (the phases with a share have about 1.3 million).
const WORK_DIVISOR: u64 = 64;

const MAPS: &[(&str, &str)] = &[
    // KTH DD2380 sample
    (
        "00_sample",
        r#"
########
#   # .#
#   $$.#
####   #
   #@ ##
   ####
"#,
    ),
    // Microban 1, David W. Skinner
    (
        "microban001",
        r#"
####
# .#
#  ###
#*@  #
#  $ #
#  ###
####
"#,
    ),
    // Microban 44, David W. Skinner
    (
        "microban044",
        r#"
#####
#@$.#
#####
"#,
    ),
    // Microban 93, David W. Skinner
    (
        "microban093",
        r#"
 #########
##   #   ##
#    #    #
#  $ # $  #
#   *.*   #
####.@.####
#   *.*   #
#  $ # $  #
#    #    #
##   #   ##
 #########
"#,
    ),
    // Microban 144, David W. Skinner
    (
        "microban144",
        r#"
   ####
 ###  #####
 # $$ #   #
 # $ . .$$##
 # .. #. $ #
### #** .  #
#  . **# ###
# $ .# .. #
##$$.@. $ #
 #   # $$ #
 #####  ###
     ####
"#,
    ),
    // KTH DD2380 test 7
    (
        "test007",
        r#"
 ########
 #      #
 # #### #
 # #  # #
## # @# ###
#  *$*$*$ #
#  . . .  #
#### #### #
   #      #
   ########
"#,
    ),
    // KTH DD2380 test 52
    (
        "test052",
        r#"
  ######
  #....#
  #  ..#
###$$#####
# $   $ @#
#   $ $  #
###   ####
  #####
"#,
    ),
    // KTH DD2380 test 95
    (
        "test095",
        r#"
#####################
###########  #.##.###
###########  #....$ #
########### $$ ## # #
###########  # ## # #
########### ## ## # #
###########         #
########          ###
#######   ....$   ###
####### $$ ##     ###
##                ###
## $ ######## #  ####
## #######       ####
## #          #$ ####
## #  ####@#  #  ####
#  ## ########## ####
#     ########## ####
####  ########## ####
################ ####
#### $     $     ####
####             ####
#####################
"#,
    ),
    // Boxoban hard 7, DeepMind (Apache-2.0)
    (
        "hard0007",
        r#"
##########
# @.     #
#  $ # $.#
# $####$ #
#. ####  #
# ######.#
# ########
##########
##########
##########
"#,
    ),
    // XSokoban 1, Thinking Rabbit
    (
        "xsokoban01",
        r#"
    #####
    #   #
    #$  #
  ###  $##
  #  $ $ #
### # ## #   ######
#   # ## #####  ..#
# $  $          ..#
##### ### #@##  ..#
    #     #########
    #######
"#,
    ),
    // XSokoban 2, Thinking Rabbit
    (
        "xsokoban02",
        r#"
############
#..  #     ###
#..  # $  $  #
#..  #$####  #
#..    @ ##  #
#..  # #  $ ##
###### ##$ $ #
  # $  $ $ $ #
  #    #     #
  ############
"#,
    ),
    // XSokoban 6, Thinking Rabbit
    (
        "xsokoban06",
        r#"
######  ###
#..  # ##@##
#..  ###   #
#..     $$ #
#..  # # $ #
#..### # $ #
#### $ #$  #
   #  $# $ #
   # $  $  #
   #  ##   #
   #########
"#,
    ),
];

/// Search every map with `nodes` expansions; returns (name, nodes, solved) per map.
pub fn signature(nodes: u64) -> Vec<(&'static str, u64, bool)> {
    MAPS.iter()
        .map(|(name, text)| {
            let level = Level::parse(text).expect("bench maps are valid");
            let budget = Budget::nodes(nodes, 256 << 20);
            let options = Options { work_divisor: WORK_DIVISOR, ..Options::default() };
            let report = solver::solve(&level, &options, &budget);
            let count = report.forward.expanded
                + report.forward.generated
                + report.backward.expanded
                + report.backward.generated;
            (*name, count, matches!(report.verdict, Verdict::Solved(_)))
        })
        .collect()
}

pub fn bench_main(args: &[String]) -> ExitCode {
    let nodes = match args {
        [] => NODES_PER_MAP,
        [flag, n] if flag == "--nodes" => match n.parse::<u64>() {
            Ok(v) if v > 0 => v,
            _ => {
                eprintln!("sokoban: bench --nodes wants a positive whole number, not {:?}", n);
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("sokoban: usage: sokoban bench [--nodes N]");
            return ExitCode::from(2);
        }
    };
    let start = std::time::Instant::now();
    let rows = signature(nodes);
    let (mut total, mut out) = (0, String::new());
    for (name, count, solved) in &rows {
        out += &format!("{:<14} {:>10} nodes  {}\n", name, count, if *solved { "solved" } else { "-" });
        total += count;
    }
    let secs = start.elapsed().as_secs_f64();
    let each = crate::count(nodes as usize, "expansion", "expansions");
    out += &format!("bench: {} maps, {} each at most\nsignature {}\n", rows.len(), each, total);
    eprintln!("time {:.2} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9));
    crate::emit(&out, "the signature")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_is_deterministic_and_counts_work() {
        let a = signature(300);
        let b = signature(300);
        assert_eq!(a, b);
        assert!(a.iter().all(|(_, n, _)| *n > 0));
        // The first map is small enough to be solved within any budget.
        assert!(a[0].2);
    }
}
