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
use std::rc::Rc;

use chess2rs_runtime::Options;
use serde_json::{json, Value};

use crate::picture::Picture;
use crate::{Language, Program, Source};

/// How often a frame carries its whole picture.
pub const KEYFRAME_EVERY: usize = 250;

/// A recorded run.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The first frames, one per step.
    pub frames: Vec<Frame>,
    /// How many steps the run made (frames beyond the limit counted only).
    pub steps: u64,
    /// Everything the program printed.
    pub output: Vec<u8>,
    /// How the run ended: `None` halted, else the runtime error as text.
    pub error: Option<String>,
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

/// A writer that keeps what it is given where the recorder can see it.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `program` on `input` in the interpreter, recording the first
/// `max_frames` steps; a runtime error is rendered against `source`.
pub fn record<R: BufRead>(
    program: &Program,
    source: &Source,
    language: Language,
    input: R,
    options: &Options,
    max_frames: usize,
) -> Recording {
    let output = Shared::default();
    let mut frames = Vec::new();
    let mut steps = 0u64;
    let seen = output.clone();
    // A machine's steps also show the annotated move they come from.
    let sources = match language {
        Language::Chessoteric | Language::Btm => {
            crate::lang::chessoteric::StepSources::of(source, language == Language::Btm)
        }
        _ => None,
    };
    let mut last = (0, 0);
    let result =
        crate::interpret_observed(program, input, output.clone(), options, true, &mut |step| {
            steps += 1;
            if frames.len() < max_frames {
                let mut frame = Frame {
                    line: step.line(),
                    column: step.column(),
                    output: seen.0.borrow().len(),
                    picture: step.picture(),
                };
                if let Some(sources) = &sources {
                    from_the_game(&mut frame, sources);
                }
                // A step with no line of its own stays on the line before it.
                if frame.line == 0 {
                    (frame.line, frame.column) = last;
                }
                last = (frame.line, frame.column);
                frames.push(frame);
            }
        });
    let error = result
        .err()
        .map(|error| crate::runtime_errors::render_runtime_error(&error, source, language));
    let output = output.0.borrow().clone();
    Recording {
        frames,
        steps,
        output,
        error,
    }
}

/// Adds to a machine's frame the annotated move (or BTM line) its step
/// comes from: the place, and for a game the position after the move,
/// the move and its bits.
fn from_the_game(frame: &mut Frame, sources: &crate::lang::chessoteric::StepSources) {
    let head = frame.picture.grids.first().and_then(|tape| {
        let at = *tape.marked.first()?;
        tape.columns.get(at)?.parse::<usize>().ok()
    });
    let Some(from) = sources.step(frame.line, frame.column, head) else {
        return;
    };
    (frame.line, frame.column) = from.place;
    if let Some((board, san)) = from.position {
        frame.picture.grids.insert(0, board);
        frame.picture.panels.push(("move".to_string(), san));
    }
    frame.picture.panels.push(("bits".to_string(), from.bits));
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
    let data = json!({
        "name": source.name(),
        "language": language.name(),
        "lines": source.text().lines().collect::<Vec<_>>(),
        "frames": encode(&recording.frames),
        "steps": recording.steps,
        "limit": max_frames,
        "output": String::from_utf8_lossy(&recording.output),
        "error": recording.error,
    });
    // `</` inside a script element would end it.
    let data = data.to_string().replace("</", "<\\/");
    let title = escape(&format!("{} — chess2rs view", source.name()));
    include_str!("page.html")
        .replace("{{TITLE}}", &title)
        .replace("{{DATA}}", &data)
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
            &source,
            language,
            input.as_bytes(),
            &Options::with_max_steps(10_000),
            max_frames,
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
            let recording = record(
                &checked.program,
                &source,
                language,
                input.as_bytes(),
                &options,
                1000,
            );
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
        assert!(error.contains("expected a number in the input"), "{error}");
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
