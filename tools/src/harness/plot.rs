//! Cactus plot as a hand-written SVG: x = time limit, y = maps solved within
//! that limit, one step line per solver/run. A line further left/higher is
//! better; where two lines cross shows which solver wins for a given budget.

use std::fmt::Write as _;

pub struct Series {
    pub label: String,
    /// Wall times of the solved maps (any order).
    pub solved_times: Vec<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Log,
    Linear,
}

const W: f64 = 960.0;
const H: f64 = 600.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 70.0;

/// Colour-blind-friendly palette (Okabe-Ito), cycled for many series.
const COLOURS: [&str; 8] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Decimal places needed to print 10^exp without rounding it away.
fn decimals_for(exp: i32) -> usize {
    (-exp).max(0) as usize
}

fn fmt_tick(v: f64, decimals: usize) -> String {
    format!("{:.*}", decimals, v)
}

/// A "nice" step (1, 2 or 5 times a power of ten) giving at most ~`max_ticks` ticks.
fn nice_step(range: f64, max_ticks: usize) -> f64 {
    let raw = (range / max_ticks as f64).max(1e-12);
    let mag = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * mag >= raw {
            return m * mag;
        }
    }
    10.0 * mag
}

struct Axis {
    scale: Scale,
    min: f64,
    max: f64,
}

impl Axis {
    /// Pixel x of time `t`, clamped to the axis range.
    fn x(&self, t: f64) -> f64 {
        let t = t.clamp(self.min, self.max);
        let frac = match self.scale {
            Scale::Log => (t.ln() - self.min.ln()) / (self.max.ln() - self.min.ln()),
            Scale::Linear => (t - self.min) / (self.max - self.min),
        };
        LEFT + frac * (W - LEFT - RIGHT)
    }

    /// (value, label, major) ticks.
    fn ticks(&self) -> Vec<(f64, String, bool)> {
        let mut ticks = Vec::new();
        match self.scale {
            Scale::Log => {
                let lo = self.min.log10().floor() as i32;
                let hi = self.max.log10().ceil() as i32;
                let few_decades = hi - lo <= 3;
                for e in lo..=hi {
                    let base = 10f64.powi(e);
                    for m in [1.0, 2.0, 5.0] {
                        let v = base * m;
                        if v < self.min * 0.999 || v > self.max * 1.001 {
                            continue;
                        }
                        let major = m == 1.0;
                        // Label 2 and 5 only when the axis is short enough
                        // that the labels do not collide.
                        let label = if major || few_decades { fmt_tick(v, decimals_for(e)) } else { String::new() };
                        ticks.push((v, label, major));
                    }
                }
            }
            Scale::Linear => {
                let step = nice_step(self.max - self.min, 10);
                let decimals = decimals_for(step.log10().floor() as i32);
                let mut v = self.min;
                while v <= self.max * 1.0001 {
                    ticks.push((v, fmt_tick(v, decimals), true));
                    v += step;
                }
            }
        }
        ticks
    }
}

/// Render the plot. `total_maps` is the y-axis top (every map attempted);
/// `limit` the time limit the runs had, which is the right end of the x axis.
pub fn cactus_svg(series: &[Series], total_maps: usize, limit: f64, scale: Scale, title: &str) -> String {
    let limit = if limit > 0.0 { limit } else { 1.0 };
    let fastest =
        series.iter().flat_map(|s| s.solved_times.iter().copied()).filter(|t| *t > 0.0).fold(f64::INFINITY, f64::min);
    let min = match scale {
        Scale::Linear => 0.0,
        // Start at the decade below the fastest solve (at least 1 ms), so the
        // first steps are visible; timings below a millisecond are noise.
        Scale::Log => {
            let lo = if fastest.is_finite() { fastest.max(0.001) } else { limit / 100.0 };
            let lo = 10f64.powf(lo.log10().floor());
            if lo >= limit {
                limit / 10.0
            } else {
                lo
            }
        }
    };
    let axis = Axis { scale, min, max: limit };
    let y_max = total_maps.max(1) as f64;
    let plot_bottom = H - BOTTOM;
    let y = |n: f64| plot_bottom - n / y_max * (plot_bottom - TOP);

    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(svg, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="30" text-anchor="middle" font-size="17" font-weight="bold">{}</text>"#,
        W / 2.0,
        esc(title)
    );

    // Grid and tick labels. The limit closes the axis and is always labelled;
    // a tick label too close to it (10 next to 11) would collide, so it goes.
    let mut ticks = axis.ticks();
    for (v, label, _) in ticks.iter_mut() {
        if (axis.x(*v) - axis.x(limit)).abs() < 30.0 {
            label.clear();
        }
    }
    let limit_label = format!("{:.2}", limit).trim_end_matches('0').trim_end_matches('.').to_string();
    ticks.push((limit, limit_label, true));
    for (v, label, major) in ticks {
        let x = axis.x(v);
        let colour = if major { "#cccccc" } else { "#eeeeee" };
        let _ = writeln!(svg, r#"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{plot_bottom}" stroke="{colour}"/>"#);
        if !label.is_empty() {
            let _ = writeln!(
                svg,
                r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                plot_bottom + 18.0,
                label
            );
        }
    }
    let step = nice_step(y_max, 10).max(1.0);
    let mut n = 0.0;
    while n <= y_max + 1e-9 {
        let yy = y(n);
        let _ =
            writeln!(svg, r##"<line x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#cccccc"/>"##, W - RIGHT);
        let _ = writeln!(svg, r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#, LEFT - 8.0, yy + 4.0, n);
        n += step;
    }
    // Total maps: the ceiling every line is trying to reach.
    let top = y(y_max);
    let _ = writeln!(
        svg,
        r##"<line x1="{LEFT}" y1="{top:.1}" x2="{:.1}" y2="{top:.1}" stroke="#888888" stroke-dasharray="6 4"/>"##,
        W - RIGHT
    );
    // Label above the frame, where no line can run over it.
    let _ = writeln!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555555">dashed: all {} maps</text>"##,
        W - RIGHT,
        TOP - 6.0,
        total_maps
    );

    // Axes and labels.
    let _ = writeln!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{:.1}" height="{:.1}" fill="none" stroke="black"/>"#,
        W - LEFT - RIGHT,
        plot_bottom - TOP
    );
    let x_label = match scale {
        Scale::Log => "time limit per map (seconds, log scale)",
        Scale::Linear => "time limit per map (seconds)",
    };
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        (LEFT + W - RIGHT) / 2.0,
        H - 25.0,
        x_label
    );
    let _ = writeln!(
        svg,
        r#"<text x="20" y="{:.1}" text-anchor="middle" transform="rotate(-90 20 {:.1})">maps solved within the limit</text>"#,
        (TOP + plot_bottom) / 2.0,
        (TOP + plot_bottom) / 2.0
    );

    // One step line per series.
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mut times = s.solved_times.clone();
        times.sort_by(|a, b| a.total_cmp(b));
        let mut points = vec![format!("{:.1},{:.1}", axis.x(axis.min), y(0.0))];
        for (k, t) in times.iter().enumerate() {
            let x = axis.x(*t);
            points.push(format!("{:.1},{:.1}", x, y(k as f64)));
            points.push(format!("{:.1},{:.1}", x, y(k as f64 + 1.0)));
        }
        points.push(format!("{:.1},{:.1}", axis.x(axis.max), y(times.len() as f64)));
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"><title>{}</title></polyline>"#,
            points.join(" "),
            esc(&s.label)
        );
    }

    // Legend on top of the lines, top-left inside the plot (where cactus
    // lines are least likely to run), on a translucent backdrop.
    let widest = series.iter().map(|s| s.label.chars().count() + 14).max().unwrap_or(0) as f64;
    let _ = writeln!(
        svg,
        r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="white" fill-opacity="0.85" stroke="#999999"/>"##,
        LEFT + 6.0,
        TOP + 6.0,
        48.0 + widest * 7.5,
        series.len() as f64 * 20.0 + 8.0
    );
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let ly = TOP + 20.0 + i as f64 * 20.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="3"/>"#,
            LEFT + 12.0,
            LEFT + 40.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">{} ({} solved)</text>"#,
            LEFT + 48.0,
            ly + 4.0,
            esc(&s.label),
            s.solved_times.len()
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    #[test]
    fn svg_has_one_line_per_series_legend_and_labels() {
        let series = vec![
            Series { label: "new <fast>".into(), solved_times: vec![0.5, 0.02, 3.0] },
            Series { label: "old".into(), solved_times: vec![1.0] },
        ];
        let svg = cactus_svg(&series, 4, 11.0, Scale::Log, "kth100 & co");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(count(&svg, "<polyline"), 2);
        // Labels are escaped, so the file stays valid XML.
        assert!(svg.contains("new &lt;fast&gt; (3 solved)"));
        assert!(svg.contains("kth100 &amp; co"));
        assert!(svg.contains("old (1 solved)"));
        assert!(svg.contains("log scale"));
        assert!(svg.contains("maps solved within the limit"));
        assert!(svg.contains("all 4 maps"));
        // The limit (11 s) closes the axis and is labelled.
        assert!(svg.contains(">11</text>"));
        // Log axis starts at the decade below the fastest solve (0.02 s).
        assert!(svg.contains(">0.01</text>"));
        assert!(svg.contains(">1</text>"));
        assert!(!svg.contains(">10</text>"), "10 would overlap the limit label");
    }

    #[test]
    fn steps_rise_once_per_solved_map() {
        let series = vec![Series { label: "s".into(), solved_times: vec![2.0, 1.0] }];
        let svg = cactus_svg(&series, 2, 4.0, Scale::Linear, "t");
        let line = svg.lines().find(|l| l.starts_with("<polyline")).unwrap();
        let points: Vec<(f64, f64)> = line
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        // start, (1s: up), (2s: up), end at the limit.
        assert_eq!(points.len(), 6);
        assert!(points.windows(2).all(|w| w[1].0 >= w[0].0), "x never goes back");
        assert!(points.windows(2).all(|w| w[1].1 <= w[0].1), "y only rises (pixel y falls)");
        assert_eq!(points[0].1, points[1].1);
        assert!(points[2].1 < points[1].1);
        assert_eq!(points[5].0, W - RIGHT);
        assert!(svg.contains("(seconds)</text>"));
    }

    #[test]
    fn empty_series_still_renders() {
        let svg = cactus_svg(&[Series { label: "none".into(), solved_times: vec![] }], 0, 11.0, Scale::Log, "t");
        assert!(svg.contains("none (0 solved)"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(100.0, 10), 10.0);
        assert_eq!(nice_step(848.0, 10), 100.0);
        assert_eq!(nice_step(11.0, 10), 2.0);
        assert_eq!(nice_step(3.0, 10), 0.5);
    }
}
