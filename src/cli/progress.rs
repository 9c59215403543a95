//! Progress bars on stderr, drawn only when stderr is a terminal (never in
//! pipes, files or CI logs) and only for work worth watching.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A progress bar over `len` steps, or nothing when stderr is not a terminal
/// or there is a single step.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar counting `len` `unit` (e.g. "files", "poses").
    pub fn new(len: usize, unit: &str) -> Progress {
        if len < 2 || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::hidden());
        let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} (ETA {{eta}})");
        Progress::after_a_second(bar, &template)
    }

    /// Runs `work` with a bar over `len` `unit`, handing it the tick; the
    /// bar is removed when the work ends, however it ends.
    pub fn over<T>(len: usize, unit: &str, work: impl FnOnce(&(dyn Fn() + Sync)) -> T) -> T {
        let bar = Progress::new(len, unit);
        let out = work(&|| bar.tick());
        bar.finish();
        out
    }

    /// A spinner saying `message` with the time elapsed, for one long step
    /// whose progress cannot be counted (loading a big file, building its
    /// tree); nothing when stderr is not a terminal.
    pub fn spinner(message: &str) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_message(message.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress::after_a_second(bar, "{spinner} {msg}, {elapsed}")
    }

    /// Styles the hidden `bar` with `template` and draws it once it has
    /// run a second: work that ends within a second never shows a bar.
    fn after_a_second(bar: ProgressBar, template: &str) -> Progress {
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        let shown = bar.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            if !shown.is_finished() {
                shown.set_draw_target(ProgressDrawTarget::stderr());
            }
        });
        Progress(Some(bar))
    }

    /// One step done.
    pub fn tick(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}
