//! Interpreting a program up to a step where `run` switches to its compiled
//! form: the interpreter stops between two steps, and says what the
//! compiled program needs to take over — the input bytes consumed (to be
//! replayed before the rest), the output bytes written (to be skipped),
//! the steps run. The compiled program runs again from the start; since
//! interpreter and compiled code agree step for step, it reaches the same
//! point with the same output and goes on from there.

use std::io::{BufRead, Read, Write};
use std::panic::AssertUnwindSafe;

use chess2rs_runtime::{Options, RuntimeError};

use crate::Program;

/// How an [`interpret_until`] run ended.
#[derive(Debug)]
pub enum Interpreted {
    /// The program ended (halted, or with a runtime error) before a switch.
    Finished(Result<(), RuntimeError>),
    /// The interpreter stopped between two steps for the switch.
    Switched {
        /// The input bytes consumed, in order.
        consumed: Vec<u8>,
        /// Whether the input was read at all (else the compiled program
        /// may take it as it is).
        touched: bool,
        /// The bytes of output written to `output`.
        written: u64,
    },
}

/// Runs `program` in the interpreter on `input` and `output`, asking
/// `switch()` after each step whether to stop there for the switch.
/// Output the interpreter had buffered when it stopped is not written (the
/// compiled program writes it again), so `written` counts exactly what
/// reached `output`.
///
/// `switch` is generic so that its test is compiled into the interpreter's
/// loop (it runs after every step: a test that costs a nanosecond costs a
/// tenth of the interpreter's time); the stop itself unwinds out of the interpreter (with a payload of
/// this module's own, and without the panic hook), which needs no check in
/// any language's interpreter.
pub fn interpret_until<R, W, F>(
    program: &Program,
    input: &mut R,
    output: &mut W,
    options: &Options,
    mut switch: F,
) -> Interpreted
where
    R: BufRead,
    W: Write,
    F: FnMut() -> bool,
{
    let mut recorder = Recorder::keeping(input, usize::MAX);
    let mut counter = Counter {
        inner: output,
        written: 0,
    };
    let ended = std::panic::catch_unwind(AssertUnwindSafe(|| {
        crate::interpret_observed(
            program,
            &mut recorder,
            &mut counter,
            options,
            false,
            &mut |_: &dyn crate::picture::Step| {
                if switch() {
                    std::panic::resume_unwind(Box::new(Switch));
                }
            },
        )
    }));
    match ended {
        Ok(result) => Interpreted::Finished(result),
        Err(payload) if payload.is::<Switch>() => Interpreted::Switched {
            consumed: recorder.consumed,
            touched: recorder.touched,
            written: counter.written,
        },
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// The payload of the unwinding that stops the interpreter.
struct Switch;

/// A reader that records the first bytes consumed through it, and whether
/// it was read at all.
pub(crate) struct Recorder<'a, R> {
    inner: &'a mut R,
    /// The first `keep` bytes consumed.
    pub(crate) consumed: Vec<u8>,
    keep: usize,
    touched: bool,
}

impl<'a, R> Recorder<'a, R> {
    /// Records what is read from `inner`, up to `keep` bytes.
    pub(crate) fn keeping(inner: &'a mut R, keep: usize) -> Self {
        Recorder {
            inner,
            consumed: Vec::new(),
            keep,
            touched: false,
        }
    }

    /// Keeps `bytes`, as far as there is room.
    fn keep(&mut self, bytes: &[u8]) {
        let room = self.keep.saturating_sub(self.consumed.len());
        self.consumed
            .extend_from_slice(&bytes[..room.min(bytes.len())]);
    }
}

impl<R: BufRead> Read for Recorder<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.touched = true;
        let read = self.inner.read(buf)?;
        self.keep(&buf[..read]);
        Ok(read)
    }
}

impl<R: BufRead> BufRead for Recorder<'_, R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.touched = true;
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        if amount > 0 {
            // The buffer is filled (the caller just looked at it), so this
            // reads nothing.
            let room = self.keep.saturating_sub(self.consumed.len());
            if let Ok(buffer) = self.inner.fill_buf() {
                let taken = amount.min(buffer.len()).min(room);
                self.consumed.extend_from_slice(&buffer[..taken]);
            }
        }
        self.inner.consume(amount);
    }
}

/// A writer that counts the bytes written through it.
struct Counter<'a, W> {
    inner: &'a mut W,
    written: u64,
}

impl<W: Write> Write for Counter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(buf)?;
        self.written += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorder_keeps_exactly_what_was_consumed() {
        let text = b"12 34\n56 78\n";
        let mut reader = std::io::BufReader::with_capacity(4, &text[..]);
        let mut recorder = Recorder::keeping(&mut reader, usize::MAX);
        let mut line = String::new();
        recorder.read_line(&mut line).unwrap();
        assert_eq!(line, "12 34\n");
        assert!(recorder.touched);
        assert_eq!(recorder.consumed, b"12 34\n");
        let mut two = [0u8; 2];
        recorder.read_exact(&mut two).unwrap();
        let consumed = recorder.consumed;
        assert_eq!(&consumed, b"12 34\n56");
        // What is left is exactly what was not recorded.
        let mut rest = Vec::new();
        reader.read_to_end(&mut rest).unwrap();
        assert_eq!([consumed, rest].concat(), text);
    }

    #[test]
    fn a_run_stops_where_asked_and_says_what_it_did() {
        let source = crate::Source::new("p.icp", "1. a=K*,*\n2. %a\n3. \"after\n4. a=K*,*\n");
        let program = crate::check(&source, crate::Language::InfChessPro)
            .unwrap()
            .program;
        let options = Options::default();
        // Stopped after the second line: one number read, its count
        // printed but still buffered (so not written).
        let mut input = &b"7 8 9"[..];
        let mut output = Vec::new();
        let mut steps = 0;
        let ended = interpret_until(&program, &mut input, &mut output, &options, || {
            steps += 1;
            steps == 2
        });
        let Interpreted::Switched {
            consumed,
            touched,
            written,
        } = ended
        else {
            panic!("did not switch: {ended:?}")
        };
        assert_eq!(steps, 2);
        assert!(touched);
        assert_eq!(written, output.len() as u64);
        assert!(consumed.starts_with(b"7"), "{consumed:?}");
        // Never asked to stop: the run ends as `interpret` ends it.
        let mut output = Vec::new();
        let mut steps = 0;
        let ended = interpret_until(
            &program,
            &mut &b"7 8 9 10"[..],
            &mut output,
            &options,
            || {
                steps += 1;
                false
            },
        );
        assert!(matches!(ended, Interpreted::Finished(Ok(()))), "{ended:?}");
        assert_eq!(steps, 4);
    }
}
