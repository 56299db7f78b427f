//! `chess2rs view`: a run recorded step by step through the interpreter's
//! own trace hooks ([`crate::picture::Step`]) and written as one
//! self-contained HTML page that plays it back.
//!
//! [`record`] runs the program and keeps the first frames (the line, how
//! much output there was, the picture); [`page`] turns a recording into
//! the page: the source, the frames delta-encoded as JSON (each frame only
//! the cells and values that changed, with a whole picture every
//! [`KEYFRAME_EVERY`] frames so the slider can jump), and the player's own
//! CSS and JavaScript (`page.html`), nothing fetched from the network.

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::panic::AssertUnwindSafe;
use std::rc::Rc;

use chess2rs_runtime::{ErrorKind, Options, RuntimeError};
use serde_json::{json, Value};

use crate::picture::Picture;
use crate::switch::Recorder;
use crate::{Language, Program, Source};

/// How often a frame carries its whole picture.
pub const KEYFRAME_EVERY: usize = 250;

/// The most bytes of output, and of input, a recording keeps (the rest is
/// counted): a page is for looking at, and a program that prints without
/// end must not hold its memory.
pub const KEPT_BYTES: usize = 1 << 20;

/// A recorded run.
#[derive(Debug)]
pub struct Recording {
    /// The first frames, one per step.
    pub frames: Vec<Frame>,
    /// How many steps the run made (frames beyond the limit counted only).
    pub steps: u64,
    /// The first [`KEPT_BYTES`] of what the program printed.
    pub output: Vec<u8>,
    /// How many bytes the program printed in all.
    pub output_len: u64,
    /// The first [`KEPT_BYTES`] of the input the program read.
    pub input: Vec<u8>,
    /// How the run ended: `None` halted, else its runtime error (located
    /// in the program's source).
    pub error: Option<RuntimeError>,
    /// Whether the run was stopped from outside (Ctrl-C) before its end.
    pub interrupted: bool,
    /// Where the program's commands are, for placing `error`.
    pub commands: crate::runtime_errors::Commands,
}

/// One step as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The source line run (0: none).
    pub line: u32,
    /// The column of the command on it (1-based characters; 0: the whole
    /// line).
    pub column: u32,
    /// How many bytes of output there were after it.
    pub output: usize,
    /// The state after it.
    pub picture: Picture,
}

/// A writer that keeps the first [`KEPT_BYTES`] it is given where the
/// recorder can see them, and counts all.
#[derive(Clone, Default)]
struct Kept(Rc<RefCell<(Vec<u8>, u64)>>);

impl Write for Kept {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut kept = self.0.borrow_mut();
        let room = KEPT_BYTES.saturating_sub(kept.0.len());
        kept.0.extend_from_slice(&bytes[..room.min(bytes.len())]);
        kept.1 += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Why the recorder stopped a run between two steps.
enum Stop {
    /// The recording would pass the run's memory limit, at this step.
    Memory { line: u32, column: u32 },
    /// [`record`]'s `interrupted` said so.
    Interrupted,
}

/// Runs `program` on `input` in the interpreter, recording the first
/// `max_frames` steps. What the recording holds (frames, output and input
/// kept) is charged to the run's memory limit with what the program grows,
/// so a recording that would pass it ends the run with the memory-limit
/// error. `interrupted` is asked after every step; when it says yes, the
/// run stops there (the recording so far is kept).
pub fn record<R: BufRead>(
    program: &Program,
    mut input: R,
    options: &Options,
    max_frames: usize,
    interrupted: &dyn Fn() -> bool,
) -> Recording {
    let output = Kept::default();
    let mut frames = Vec::new();
    let mut steps = 0u64;
    let seen = output.clone();
    let mut reader = Recorder::keeping(&mut input, KEPT_BYTES);
    let mut last = (0, 0);
    // Bytes of output kept that are charged already (the input kept is
    // bounded too, and not charged: the reader is the interpreter's).
    let mut charged_output = 0usize;
    let ended = std::panic::catch_unwind(AssertUnwindSafe(|| {
        crate::interpret_observed(
            program,
            &mut reader,
            output.clone(),
            options,
            true,
            &mut |step| {
                steps += 1;
                if interrupted() {
                    std::panic::resume_unwind(Box::new(Stop::Interrupted));
                }
                let kept_output = seen.0.borrow().0.len();
                let mut charge = (kept_output - charged_output) as u64;
                charged_output = kept_output;
                if frames.len() < max_frames {
                    let (line, column) = step.place();
                    let mut frame = Frame {
                        line,
                        column,
                        output: seen.0.borrow().0.len(),
                        picture: step.picture(),
                    };
                    // A step with no line of its own stays on the line before it.
                    if frame.line == 0 {
                        (frame.line, frame.column) = last;
                    }
                    last = (frame.line, frame.column);
                    charge += frame_bytes(&frame);
                    frames.push(frame);
                } else if step.line() != 0 {
                    last = (step.line(), step.column());
                }
                if charge > 0 && chess2rs_runtime::__private::memory::charge(charge).is_err() {
                    let (line, column) = last;
                    std::panic::resume_unwind(Box::new(Stop::Memory { line, column }));
                }
            },
        )
    }));
    let (error, interrupted) = match ended {
        Ok(result) => (result.err(), false),
        Err(payload) => match payload.downcast::<Stop>() {
            Ok(stop) => match *stop {
                Stop::Memory { line, column } => {
                    let limit = options
                        .max_memory
                        .unwrap_or(chess2rs_runtime::__private::memory::DEFAULT_MAX_MEMORY);
                    let error =
                        RuntimeError::at(ErrorKind::MemoryLimit { limit }, line).at_column(column);
                    (Some(error), false)
                }
                Stop::Interrupted => (None, true),
            },
            Err(payload) => std::panic::resume_unwind(payload),
        },
    };
    let input = reader.consumed;
    let (output, output_len) = output.0.take();
    Recording {
        frames,
        steps,
        output,
        output_len,
        input,
        error,
        interrupted,
        commands: program.error_sites(),
    }
}

/// What a frame holds in memory, roughly: its strings and their headers.
fn frame_bytes(frame: &Frame) -> u64 {
    const STRING: usize = std::mem::size_of::<String>();
    let strings = |texts: &[String]| texts.iter().map(|t| STRING + t.len()).sum::<usize>();
    let grids: usize = frame
        .picture
        .grids
        .iter()
        .map(|grid| {
            std::mem::size_of_val(grid)
                + STRING
                + grid.title.len()
                + strings(&grid.columns)
                + strings(&grid.rows)
                + strings(&grid.cells)
                + grid.marked.len() * std::mem::size_of::<usize>()
        })
        .sum();
    let panels: usize = frame
        .picture
        .panels
        .iter()
        .map(|(name, value)| 2 * STRING + name.len() + value.len())
        .sum();
    (std::mem::size_of::<Frame>() + grids + panels) as u64
}

/// A picture as JSON.
fn whole(picture: &Picture) -> Value {
    let grids: Vec<Value> = picture
        .grids
        .iter()
        .map(|grid| {
            json!({
                "title": grid.title,
                "columns": grid.columns,
                "rows": grid.rows,
                "cells": grid.cells,
                "marked": grid.marked,
                "chequered": grid.chequered,
            })
        })
        .collect();
    json!({ "grids": grids, "panels": picture.panels })
}

/// Whether two pictures have grids of the same shape and labels, so one
/// can be told as changes to the other.
fn same_shape(before: &Picture, after: &Picture) -> bool {
    before.grids.len() == after.grids.len()
        && before.grids.iter().zip(&after.grids).all(|(a, b)| {
            a.title == b.title
                && a.columns == b.columns
                && a.rows == b.rows
                && a.cells.len() == b.cells.len()
                && a.chequered == b.chequered
        })
}

/// The frames as JSON, each but the keyframes holding only what changed.
pub fn encode(frames: &[Frame]) -> Value {
    let mut encoded = Vec::with_capacity(frames.len());
    let mut previous: Option<&Picture> = None;
    for (index, frame) in frames.iter().enumerate() {
        let mut object = json!({ "l": frame.line, "o": frame.output });
        if frame.column != 0 {
            object["col"] = json!(frame.column);
        }
        let picture = &frame.picture;
        match previous {
            Some(before) if index % KEYFRAME_EVERY != 0 && same_shape(before, picture) => {
                // Per grid: [grid, [[cell, text]…], marked if changed].
                let mut changes = Vec::new();
                for (at, (old, new)) in before.grids.iter().zip(&picture.grids).enumerate() {
                    let cells: Vec<Value> = old
                        .cells
                        .iter()
                        .zip(&new.cells)
                        .enumerate()
                        .filter(|(_, (a, b))| a != b)
                        .map(|(cell, (_, text))| json!([cell, text]))
                        .collect();
                    if !cells.is_empty() || old.marked != new.marked {
                        let mut change = vec![json!(at), Value::Array(cells)];
                        if old.marked != new.marked {
                            change.push(json!(new.marked));
                        }
                        changes.push(Value::Array(change));
                    }
                }
                if !changes.is_empty() {
                    object["c"] = Value::Array(changes);
                }
                if before.panels != picture.panels {
                    object["p"] = json!(picture.panels);
                }
            }
            _ => object["k"] = whole(picture),
        }
        encoded.push(object);
        previous = Some(picture);
    }
    Value::Array(encoded)
}

/// The whole page for a recording of `source`.
pub fn page(
    recording: &Recording,
    source: &Source,
    language: Language,
    max_frames: usize,
) -> String {
    let error = recording.error.as_ref().map(|error| {
        crate::runtime_errors::render_runtime_error(error, source, &recording.commands)
    });
    let data = json!({
        "name": source.name(),
        "language": language.name(),
        "lines": source.text().lines().collect::<Vec<_>>(),
        "frames": encode(&recording.frames),
        "steps": recording.steps,
        "limit": max_frames,
        "output": String::from_utf8_lossy(&recording.output),
        "notes": notes(recording),
        "input": String::from_utf8_lossy(&recording.input),
        "error": error,
        "interrupted": recording.interrupted,
    });
    let title = escape(&format!("{} — chess2rs view", source.name()));
    include_str!("page.html")
        .replace("{{TITLE}}", &title)
        .replace("{{DATA}}", &script_json(&data))
}

/// What the page leaves out or where the run was stopped, one sentence
/// each.
fn notes(recording: &Recording) -> Vec<String> {
    let mut notes = Vec::new();
    let mib = KEPT_BYTES >> 20;
    if recording.output_len > recording.output.len() as u64 {
        notes.push(format!(
            "The program printed {} bytes; the first {mib} MiB are kept here.",
            recording.output_len
        ));
    }
    if recording.input.len() >= KEPT_BYTES {
        notes.push(format!(
            "The program read more than {mib} MiB of input; the first {mib} MiB are shown."
        ));
    }
    if recording.interrupted {
        notes.push(format!(
            "The run was stopped (Ctrl-C) after {} steps.",
            recording.steps
        ));
    }
    notes
}

/// `data` as the text of a `<script type="application/json">` element:
/// JSON with `<`, `>` and `&` written as `\u` escapes (they only occur in
/// strings), so that nothing a program or its output holds — `</script>`,
/// `<!--`, `<script` — can end the element or change how the page around
/// it is read.
fn script_json(data: &Value) -> String {
    data.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// Text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded(text: &str, language: Language, input: &str, max_frames: usize) -> Recording {
        let source = Source::new("t", text);
        let checked = crate::check(&source, language).unwrap();
        record(
            &checked.program,
            input.as_bytes(),
            &Options::with_max_steps(10_000),
            max_frames,
            &|| false,
        )
    }

    #[test]
    fn frames_are_the_traces_states_one_per_step() {
        let text = "1. a=K0,0\n2. \"hi\n3. a;0,1?4\n4. %a\n";
        let recording = recorded(text, Language::InfChessPro, "", 100);
        assert_eq!(recording.steps, 4);
        let lines: Vec<u32> = recording.frames.iter().map(|f| f.line).collect();
        assert_eq!(lines, [1, 2, 3, 4]);
        // Output so far, step by step.
        let outputs: Vec<usize> = recording.frames.iter().map(|f| f.output).collect();
        assert_eq!(outputs, [0, 3, 3, 5]);
        assert_eq!(recording.output, b"hi\n1\n");
        assert!(recording.error.is_none());
        // The king, named `a`, at (0, 1) after line 3.
        let board = &recording.frames[2].picture.grids[0];
        let at = board.cells.iter().position(|c| c == "K a").unwrap();
        let columns = board.columns.len();
        assert_eq!(board.rows[at / columns], "0");
        assert_eq!(board.columns[at % columns], "1");
        // The same steps `--trace` prints, in the same order, for a
        // program of each language whose trace names its lines.
        for (text, language, input) in [
            (text, Language::InfChessPro, ""),
            ("a1#\n1/2 1/2\n  b1+\nb1=R+\nb1\n", Language::ChessCode, "3"),
            (
                include_str!("../../../examples/truth.fv"),
                Language::Finvara,
                "1",
            ),
        ] {
            let source = Source::new("t", text);
            let checked = crate::check(&source, language).unwrap();
            let options = Options::with_max_steps(300);
            let mut trace = Vec::new();
            let _ = crate::interpret_traced(
                &checked.program,
                input.as_bytes(),
                std::io::sink(),
                &options,
                1000,
                &mut trace,
            );
            let traced: Vec<u32> = String::from_utf8(trace)
                .unwrap()
                .lines()
                .filter_map(|line| line.strip_prefix("line ")?.split(':').next()?.parse().ok())
                .collect();
            let recording = record(&checked.program, input.as_bytes(), &options, 1000, &|| {
                false
            });
            let lines: Vec<u32> = recording.frames.iter().map(|f| f.line).collect();
            assert_eq!(lines, traced, "{language}");
            assert_eq!(recording.steps as usize, traced.len(), "{language}");
        }
    }

    #[test]
    fn a_games_steps_show_the_moves_they_come_from() {
        let game = include_str!("../../../examples/chessoteric-hello.pgn");
        let recording = recorded(game, Language::Chessoteric, "", 100);
        assert_eq!(recording.output, b"Hello, world!\n");
        // The first step is the rule's; the output state's steps follow
        // the tape symbols, each written by an annotated move of its own.
        let places: Vec<(u32, u32)> = recording
            .frames
            .iter()
            .map(|f| (f.line, f.column))
            .collect();
        let distinct: std::collections::HashSet<_> = places.iter().collect();
        assert!(distinct.len() > 10, "{places:?}");
        let first = &recording.frames[0].picture;
        assert_eq!(first.grids[0].title, "position");
        assert_eq!(first.grids[0].cells.len(), 64);
        assert_eq!(first.grids[1].title, "tape");
        assert!(first
            .panels
            .iter()
            .any(|(name, value)| name == "move" && value.ends_with('!')));
    }

    #[test]
    fn long_runs_keep_the_first_frames_and_count_the_rest() {
        let text = "a1+\n1/2 1/2\n  b1+\nb1=R+\nb1\n";
        let recording = recorded(text, Language::ChessCode, "", 3);
        assert_eq!(recording.frames.len(), 3);
        assert!(recording.steps > 3, "{}", recording.steps);
        let error = recorded("1. a=K*,0\n", Language::InfChessPro, "", 10)
            .error
            .unwrap();
        assert!(
            error.to_string().contains("expected a number in the input"),
            "{error}"
        );
    }

    /// Records `text` (InfChessPro) with `options`, stopping when asked.
    fn recorded_with(
        text: &str,
        input: &str,
        options: &Options,
        max_frames: usize,
        interrupted: &dyn Fn() -> bool,
    ) -> (Recording, Source) {
        let source = Source::new("t.icp", text);
        let checked = crate::check(&source, Language::InfChessPro).unwrap();
        let recording = record(
            &checked.program,
            input.as_bytes(),
            options,
            max_frames,
            interrupted,
        );
        (recording, source)
    }

    #[test]
    fn a_program_cannot_change_the_pages_structure() {
        // A comment and output that would open an HTML comment and a
        // script inside the data block: before escaping `<`, the data
        // block swallowed the player's own script.
        let text = "1. \"<!-- <script> </script> & >\n# <!-- <script>\n2. ^\n";
        let (recording, source) = recorded_with(text, "", &Options::default(), 10, &|| false);
        let page = page(&recording, &source, Language::InfChessPro, 10);
        let template = include_str!("page.html");
        assert_eq!(
            page.matches("<script").count(),
            template.matches("<script").count()
        );
        assert_eq!(
            page.matches("<!--").count(),
            template.matches("<!--").count()
        );
        let data = &page[page.find("application/json\">").unwrap()..];
        let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
        assert!(!data.contains(['<', '>', '&']), "{data}");
        // The escapes read back as the program's own text.
        let parsed: Value = serde_json::from_str(data).unwrap();
        assert_eq!(parsed["output"], "<!-- <script> </script> & >\n");
        assert_eq!(parsed["lines"][1], "# <!-- <script>");
    }

    #[test]
    fn output_and_input_are_kept_up_to_a_bound_and_counted() {
        // Prints 6 bytes a loop of 2 steps, reads a number once.
        let text = "1. a=K*,0\n2. \"hello\n3. ^?2\n";
        let options = Options::with_max_steps(600_000);
        let input = format!("5 {}", " ".repeat(2 * KEPT_BYTES));
        let (recording, _) = recorded_with(text, &input, &options, 10, &|| false);
        assert_eq!(recording.output.len(), KEPT_BYTES);
        assert_eq!(recording.output_len, 6 * 600_000 / 2);
        assert!(recording.input.len() <= KEPT_BYTES);
        assert!(recording.input.starts_with(b"5"));
        assert!(matches!(
            recording.error.unwrap().kind,
            ErrorKind::StepLimit { .. }
        ));
        assert_eq!(
            notes(&Recording {
                error: None,
                ..recording
            })
            .len(),
            1
        );
    }

    #[test]
    fn the_recording_is_charged_to_the_memory_limit() {
        let text = "1. a=K0,0\n2. b=k5,5\n3. a;0,1?3\n";
        let options = Options {
            max_steps: Some(1_000_000),
            max_memory: Some(256 << 10),
        };
        let (recording, source) = recorded_with(text, "", &options, usize::MAX, &|| false);
        let error = recording.error.as_ref().unwrap();
        assert!(
            matches!(error.kind, ErrorKind::MemoryLimit { limit } if limit == 256 << 10),
            "{error}"
        );
        assert_eq!(error.line, Some(3));
        // Frames kept are within the limit, but for the one refused.
        let (refused, kept) = recording.frames.split_last().unwrap();
        let held: u64 = kept.iter().map(frame_bytes).sum();
        assert!(held <= 256 << 10 && held + frame_bytes(refused) > 256 << 10);
        assert!(recording.frames.len() > 50, "{}", recording.frames.len());
        let page = page(&recording, &source, Language::InfChessPro, usize::MAX);
        assert!(page.contains("more memory than its limit of 256"), "{page}");
    }

    #[test]
    fn a_run_stops_between_two_steps_when_interrupted() {
        let asked = std::cell::Cell::new(0);
        let interrupted = || {
            asked.set(asked.get() + 1);
            asked.get() >= 50
        };
        let (recording, source) = recorded_with(
            "1. \"x\n2. ^?1\n",
            "",
            &Options::default(),
            10,
            &interrupted,
        );
        assert!(recording.interrupted);
        assert!(recording.error.is_none());
        assert_eq!(recording.steps, 50);
        assert_eq!(recording.frames.len(), 10);
        let page = page(&recording, &source, Language::InfChessPro, 10);
        assert!(page.contains("stopped (Ctrl-C) after 50 steps"));
    }

    #[test]
    fn the_board_window_shows_the_piece_the_step_is_about() {
        // Two pieces too far apart for one window: the middle between
        // them is empty, so the window follows the one that moved.
        let text = "1. a=K0,-39\n2. b=R0,-1\n3. a;0,1?4\n4. b;0,-1?5\n5. ^\n";
        let (recording, _) = recorded_with(text, "", &Options::default(), 10, &|| false);
        let shows = |frame: &Frame, name: &str| {
            frame.picture.grids[0]
                .cells
                .iter()
                .any(|c| c.ends_with(name))
        };
        let lines: Vec<u32> = recording.frames.iter().map(|f| f.line).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5]);
        assert!(shows(&recording.frames[0], " a"));
        assert!(shows(&recording.frames[1], " b"));
        assert!(shows(&recording.frames[2], " a"));
        assert!(shows(&recording.frames[3], " b"));
    }

    #[test]
    fn frames_are_delta_encoded_with_keyframes() {
        let picture = |cells: &[&str]| Picture {
            grids: vec![crate::picture::Grid {
                title: "g".into(),
                columns: vec!["a".into(), "b".into()],
                rows: vec!["1".into()],
                cells: cells.iter().map(|c| c.to_string()).collect(),
                marked: Vec::new(),
                chequered: false,
            }],
            panels: vec![("R".into(), "0".into())],
        };
        let mut frames: Vec<Frame> = (0..KEYFRAME_EVERY + 2)
            .map(|i| Frame {
                line: 1,
                column: 0,
                output: 0,
                picture: picture(if i % 2 == 0 { &["x", ""] } else { &["x", "y"] }),
            })
            .collect();
        // The head moves without a cell changing.
        frames[3].picture.grids[0].marked = vec![1];
        let encoded = encode(&frames);
        assert!(encoded[0].get("k").is_some());
        assert_eq!(encoded[1]["c"], json!([[0, [[1, "y"]]]]));
        assert!(encoded[1].get("k").is_none() && encoded[1].get("p").is_none());
        assert_eq!(encoded[3]["c"], json!([[0, [[1, "y"]], [1]]]));
        assert_eq!(encoded[4]["c"], json!([[0, [[1, ""]], []]]));
        assert!(encoded[KEYFRAME_EVERY].get("k").is_some());
    }
}
