//! Standard input and output of a running program, and the `main` of
//! emitted program files.

use std::io::{BufRead, BufWriter, Write};

use super::error::{json_string, ErrorKind, MessageFormat, RuntimeError, SourceMap};
use super::limits::{Options, StepCounter};
use super::memory::Scope;

/// The input and output of one run: numeric input parsed from whitespace
/// separated tokens, output buffered until the program ends or fails.
pub struct Io<R: BufRead, W: Write> {
    input: R,
    output: BufWriter<W>,
}

impl<R: BufRead, W: Write> Io<R, W> {
    /// Wraps `input` and `output`; output is buffered.
    pub fn new(input: R, output: W) -> Self {
        Io::with_buffer(input, output, 1 << 16)
    }

    /// Wraps `input` and `output` with an output buffer of `capacity`
    /// bytes (0: every write reaches `output` at once).
    pub fn with_buffer(input: R, output: W, capacity: usize) -> Self {
        Io {
            input,
            output: BufWriter::with_capacity(capacity, output),
        }
    }

    /// Reads the next whitespace-separated token as a decimal `i64` with an
    /// optional sign.
    pub fn read_i64(&mut self, line: u32) -> Result<i64, RuntimeError> {
        let token = self.read_token().map_err(|e| e.in_line(line))?;
        if token.is_empty() {
            return Err(RuntimeError::at(ErrorKind::InputEnded, line));
        }
        parse_i64(&token).ok_or_else(|| {
            RuntimeError::at(
                ErrorKind::InputNotANumber {
                    found: String::from_utf8_lossy(&token).into_owned(),
                },
                line,
            )
        })
    }

    /// Reads one line of input without its line ending (LF or CRLF);
    /// `None` at end of input.
    pub fn read_line(&mut self) -> Result<Option<Vec<u8>>, RuntimeError> {
        let mut line = Vec::new();
        if self.input.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        Ok(Some(line))
    }

    /// The next token of input (empty at end of input).
    fn read_token(&mut self) -> Result<Vec<u8>, RuntimeError> {
        let mut token = Vec::new();
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(token);
            }
            let mut used = 0;
            let mut done = false;
            for &byte in buf {
                if byte.is_ascii_whitespace() {
                    used += 1;
                    if !token.is_empty() {
                        done = true;
                        break;
                    }
                } else {
                    token.push(byte);
                    used += 1;
                }
            }
            self.input.consume(used);
            if done {
                return Ok(token);
            }
        }
    }

    /// Writes raw bytes.
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), RuntimeError> {
        self.output.write_all(bytes)?;
        Ok(())
    }

    /// Writes `text` and a newline.
    #[inline]
    pub fn write_line(&mut self, text: &str) -> Result<(), RuntimeError> {
        self.output.write_all(text.as_bytes())?;
        self.output.write_all(b"\n")?;
        Ok(())
    }

    /// Writes the character with code point `value`, UTF-8 encoded; writes
    /// nothing and returns `false` if `value` is not a Unicode scalar value.
    #[inline]
    pub fn write_code_point(&mut self, value: i64) -> Result<bool, RuntimeError> {
        let character = if (0..=i64::from(u32::MAX)).contains(&value) {
            char::from_u32(value as u32)
        } else {
            None
        };
        match character {
            Some(character) => {
                let mut buffer = [0u8; 4];
                self.write_bytes(character.encode_utf8(&mut buffer).as_bytes())?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Writes `value` in decimal.
    #[inline]
    pub fn write_i64(&mut self, value: i64) -> Result<(), RuntimeError> {
        let mut buffer = [0u8; 21];
        let start = decimal(value, &mut buffer);
        self.write_bytes(&buffer[start..])
    }

    /// Writes `value` in decimal and a newline.
    #[inline]
    pub fn write_i64_line(&mut self, value: i64) -> Result<(), RuntimeError> {
        let mut buffer = [0u8; 21];
        buffer[20] = b'\n';
        let start = decimal(value, &mut buffer[..20]);
        self.write_bytes(&buffer[start..])
    }

    /// Flushes buffered output.
    pub fn flush(&mut self) -> Result<(), RuntimeError> {
        self.output.flush()?;
        Ok(())
    }
}

/// Writes `value` in decimal at the end of `buffer` (20 bytes or more);
/// returns where it starts. Formatting machinery costs more than the
/// digits themselves, and programs print numbers in their inner loops.
fn decimal(value: i64, buffer: &mut [u8]) -> usize {
    let mut at = buffer.len();
    let mut magnitude = value.unsigned_abs();
    loop {
        at -= 1;
        buffer[at] = b'0' + (magnitude % 10) as u8;
        magnitude /= 10;
        if magnitude == 0 {
            break;
        }
    }
    if value < 0 {
        at -= 1;
        buffer[at] = b'-';
    }
    at
}

/// Parses an optional sign followed by decimal digits into an `i64`.
pub fn parse_i64(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token.first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        let digit = i64::from(d - b'0');
        value = value.checked_mul(10)?;
        value = if negative {
            value.checked_sub(digit)?
        } else {
            value.checked_add(digit)?
        };
    }
    Some(value)
}

/// Runs a program body with fresh [`Io`] and [`StepCounter`], flushing the
/// output whether the body halts or fails, so everything printed before an
/// error reaches the user.
pub fn run_program<R, W, F>(
    input: R,
    output: W,
    options: &Options,
    source: &SourceMap,
    body: F,
) -> Result<(), RuntimeError>
where
    R: BufRead,
    W: Write,
    F: FnOnce(&mut Io<R, W>, &mut StepCounter) -> Result<(), RuntimeError>,
{
    run_program_in(Io::new(input, output), options, source, body)
}

/// [`run_program`] on an [`Io`] made by the caller (an unbuffered one for
/// a recording that shows the output after every step).
pub fn run_program_in<R, W, F>(
    mut io: Io<R, W>,
    options: &Options,
    source: &SourceMap,
    body: F,
) -> Result<(), RuntimeError>
where
    R: BufRead,
    W: Write,
    F: FnOnce(&mut Io<R, W>, &mut StepCounter) -> Result<(), RuntimeError>,
{
    let mut steps = StepCounter::new(options);
    let budget = Scope::enter(options.memory_limit());
    let result = body(&mut io, &mut steps);
    drop(budget);
    let flushed = io.flush();
    result.and(flushed).map_err(|err| err.located(source))
}

/// A program's entry function as [`run_main`] calls it.
pub type ProgramEntry<'a> =
    dyn FnMut(&mut dyn BufRead, &mut dyn Write, &Options) -> Result<(), RuntimeError> + 'a;

/// What an emitted program says about itself (`--help`, `--version`).
#[derive(Clone, Copy, Debug)]
pub struct ProgramInfo<'a> {
    /// The source file it was compiled from.
    pub source: &'a str,
    /// Its language's name.
    pub language: &'a str,
    /// The compiler and its version, e.g. `chess2rs 0.1.0`.
    pub compiler: &'a str,
}

/// What the command line of an emitted program asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invocation {
    /// Run with these options; errors name the program file `source_name`
    /// when given, else the name compiled in.
    Run {
        /// The limits.
        options: Options,
        /// The program file's name as the user gave it (`--source-name`).
        source_name: Option<String>,
        /// How many bytes of output to drop before writing any
        /// (`--discard-output`): `chess2rs run` switching from its
        /// interpreter to this executable, which runs the program again
        /// from the start, has written them already.
        discard_output: u64,
        /// How a runtime error is printed (`--message-format`).
        message_format: MessageFormat,
    },
    /// Print the help.
    Help,
    /// Print the version.
    Version,
}

/// The `main` of an emitted program file: parses the command line
/// ([`parse_args`]), runs `entry` on locked stdin/stdout, reports a runtime
/// error on stderr as compile errors are shown, and returns the exit code
/// (0 halt, 1 runtime error, 2 bad command line).
///
/// Not generic (the entry is a `dyn` function), so that its code is
/// compiled once, in the runtime library, not again in every program.
pub fn run_main(info: &ProgramInfo, entry: &mut ProgramEntry<'_>) -> i32 {
    // Arguments that are not UTF-8 are shown with U+FFFD, never a panic.
    let mut args = std::env::args_os().map(|arg| arg.to_string_lossy().into_owned());
    let name = program_name(args.next(), info);
    let args: Vec<String> = args.collect();
    // Known before the arguments are checked, so that a bad command line
    // is reported in the format asked for too.
    let format = requested_format(&args);
    // Text for the terminal: a closed stdout or stderr (`| head`) is not an
    // error worth a panic, so write failures are ignored.
    let say = |to: &mut dyn Write, text: String| {
        let _ = to.write_all(text.as_bytes());
        let _ = to.flush();
    };
    // The program file's name: the one compiled in, unless `chess2rs
    // build` appended another to this executable (read only when needed).
    let file_name = || {
        std::env::current_exe()
            .ok()
            .and_then(|exe| appended_source_name(&exe))
    };
    let (options, source_name, discard_output) = match parse_args(args) {
        Ok(Invocation::Run {
            options,
            source_name,
            discard_output,
            message_format: _,
        }) => (options, source_name, discard_output),
        Ok(Invocation::Help) => {
            let appended = file_name();
            let info = ProgramInfo {
                source: appended.as_deref().unwrap_or(info.source),
                ..*info
            };
            say(&mut std::io::stdout(), help_text(&name, &info));
            return 0;
        }
        Ok(Invocation::Version) => {
            let appended = file_name();
            let version = format!(
                "{name}: the {} program `{}`, compiled by {}\n",
                info.language,
                appended.as_deref().unwrap_or(info.source),
                info.compiler
            );
            say(&mut std::io::stdout(), version);
            return 0;
        }
        Err(message) => {
            let usage = format!(
                "usage: {name} [--max-steps N] [--max-memory SIZE] < INPUT   (see `{name} --help`)"
            );
            let text = match format {
                MessageFormat::Json => {
                    let mut out = String::from("{\"$message_type\":\"diagnostic\",\"message\":");
                    json_string(&mut out, &message);
                    out.push_str(",\"code\":null,\"level\":\"error\",\"spans\":[],\"children\":[{\"message\":");
                    json_string(&mut out, &usage);
                    out.push_str(",\"code\":null,\"level\":\"note\",\"spans\":[],\"children\":[],\"rendered\":null}],\"rendered\":");
                    json_string(&mut out, &format!("error: {message}\n{usage}\n"));
                    out.push_str("}\n");
                    out
                }
                MessageFormat::Short => format!("error: {message}\n"),
                MessageFormat::Human => format!("error: {message}\n{usage}\n"),
            };
            say(&mut std::io::stderr(), text);
            return 2;
        }
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = stdin.lock();
    let mut output = SkipFirst {
        skip: discard_output,
        inner: stdout.lock(),
    };
    match entry(&mut input, &mut output, &options) {
        Ok(()) => 0,
        Err(mut err) => {
            if let Some(location) = err.location.as_mut() {
                if let Some(name) = source_name.or_else(file_name) {
                    location.file = name;
                }
            }
            say(&mut std::io::stderr(), err.render_as(format));
            err.exit_code()
        }
    }
}

/// A writer that drops the first `skip` bytes written to it and passes
/// the rest to `inner`.
struct SkipFirst<W: Write> {
    skip: u64,
    inner: W,
}

impl<W: Write> Write for SkipFirst<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.skip == 0 {
            return self.inner.write(buf);
        }
        // (`TryFrom` is not in the 2015 prelude that `rustc FILE.rs` of a
        // standalone program uses.)
        let dropped = if buf.len() as u64 <= self.skip {
            buf.len()
        } else {
            self.skip as usize
        };
        self.skip -= dropped as u64;
        if dropped == buf.len() {
            return Ok(dropped);
        }
        // Report the dropped bytes and what `inner` took of the rest.
        Ok(dropped + self.inner.write(&buf[dropped..])?)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The end of an executable that carries its program file's name
/// ([`append_source_name`]): the name's length (8 bytes, little-endian)
/// and these 16 bytes.
const NAME_TRAILER_MAGIC: &[u8; 16] = b"chess2rs:name:v1";

/// The longest name [`append_source_name`] appends.
pub const MAX_APPENDED_NAME: usize = 4096;

/// Appends the program file's name `name` to the executable `exe`, so that
/// its errors, `--help` and `--version` name it instead of the name
/// compiled in. One compiled executable then serves every program file
/// with the same text (`chess2rs build` copies the cached one and appends
/// the name). The loader ignores bytes after the executable's image;
/// tools that rewrite executables (`strip`) drop them, and the program
/// names the file as compiled again.
pub fn append_source_name(exe: &mut dyn Write, name: &str) -> std::io::Result<()> {
    let name = name.as_bytes();
    let name = &name[..name.len().min(MAX_APPENDED_NAME)];
    exe.write_all(name)?;
    exe.write_all(&(name.len() as u64).to_le_bytes())?;
    exe.write_all(NAME_TRAILER_MAGIC)
}

/// The name [`append_source_name`] appended to the executable at `exe`,
/// if any.
pub fn appended_source_name(exe: &std::path::Path) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(exe).ok()?;
    let trailer = (8 + NAME_TRAILER_MAGIC.len()) as u64;
    let end = file.seek(SeekFrom::End(0)).ok()?;
    let mut tail = [0u8; 24];
    file.seek(SeekFrom::Start(end.checked_sub(trailer)?)).ok()?;
    file.read_exact(&mut tail).ok()?;
    if &tail[8..] != NAME_TRAILER_MAGIC {
        return None;
    }
    let mut length = [0u8; 8];
    length.copy_from_slice(&tail[..8]);
    let length = u64::from_le_bytes(length);
    if length > MAX_APPENDED_NAME as u64 {
        return None;
    }
    let start = end.checked_sub(trailer + length)?;
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut name = vec![0u8; length as usize];
    file.read_exact(&mut name).ok()?;
    String::from_utf8(name).ok()
}

/// The name the program was started by (its file name), or its source's
/// stem when the system gives none.
fn program_name(arg0: Option<String>, info: &ProgramInfo) -> String {
    let from_path = |path: &str| {
        std::path::Path::new(path)
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .filter(|name| !name.is_empty())
    };
    arg0.as_deref()
        .and_then(from_path)
        .or_else(|| {
            std::path::Path::new(info.source)
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "program".to_string())
}

/// The text of `--help`.
fn help_text(name: &str, info: &ProgramInfo) -> String {
    format!(
        "{name}: the {} program `{}`, compiled by {}.

Usage: {name} [--max-steps N] [--max-memory SIZE] < INPUT

Reads the program's input from stdin and writes its output to stdout.

Options:
      --max-steps N        stop with an error once N steps have run (lines,
                           moves or machine steps, as the language counts
                           them)
      --max-memory SIZE    stop with an error when what the program grows
                           (tape, pieces, stacks) would pass SIZE, such as
                           512M or 8G, or `unlimited` [default: 2G]
      --message-format FORMAT
                           how a runtime error is printed: `human` (the
                           source line and a caret), `short` (one line,
                           FILE:LINE:COL: error: MESSAGE) or `json` (one
                           object a line, shaped as rustc's diagnostics)
  -h, --help               print this help
  -V, --version            print what this program is

Exit codes: 0 the program halted, 1 runtime error (including the step and
memory limits), 2 bad command line.
",
        info.language, info.source, info.compiler
    )
}

/// Parses the command line of an emitted program (without the program's
/// name): `--max-steps N`, `--max-memory SIZE`, `--message-format
/// FORMAT` (each also as `--option=VALUE`), `--help`, `--version`, and `--source-name NAME`,
/// which `--help` does not list: `chess2rs run` names the program file so,
/// as the user spelled it, and one cached executable serves every path
/// and copy of a program; nor does it list `--discard-output N`, which
/// `chess2rs run` gives when it switches from interpreting to this
/// executable (see [`Invocation::Run`]).
pub fn parse_args(args: Vec<String>) -> Result<Invocation, String> {
    let mut args = args.into_iter();
    let mut options = Options::default();
    let mut source_name = None;
    let mut discard_output = 0;
    let mut message_format = MessageFormat::Human;
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.find('=') {
            Some(at) if arg.starts_with("--") => (&arg[..at], Some(arg[at + 1..].to_string())),
            _ => (arg.as_str(), None),
        };
        match name {
            "-h" | "--help" => return Ok(Invocation::Help),
            "-V" | "--version" => return Ok(Invocation::Version),
            "--max-steps" | "--max-memory" | "--source-name" | "--discard-output"
            | "--message-format" => {}
            _ => return Err(format!("unexpected argument `{arg}`")),
        }
        let value = match inline {
            Some(value) => value,
            None => args
                .next()
                .ok_or_else(|| format!("`{name}` needs a value"))?,
        };
        if name == "--source-name" {
            source_name = Some(value);
        } else if name == "--message-format" {
            message_format = MessageFormat::from_name(&value).ok_or_else(|| {
                format!("`--message-format` needs human, short or json, found `{value}`")
            })?;
        } else if name == "--discard-output" {
            discard_output = value.parse::<u64>().map_err(|_| {
                format!("`--discard-output` needs a non-negative number, found `{value}`")
            })?;
        } else if name == "--max-steps" {
            let limit = value.parse::<u64>().map_err(|_| {
                format!("`--max-steps` needs a non-negative number, found `{value}`")
            })?;
            options.max_steps = Some(limit);
        } else {
            options.max_memory =
                Some(parse_size(&value).map_err(|e| format!("`--max-memory` {e}"))?);
        }
    }
    Ok(Invocation::Run {
        options,
        source_name,
        discard_output,
        message_format,
    })
}

/// The `--message-format` of `args` (the last one given), `human` if none
/// is given or its value is not a format.
fn requested_format(args: &[String]) -> MessageFormat {
    let mut format = MessageFormat::Human;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let value = match arg.strip_prefix("--message-format") {
            Some("") => args.next().map(String::as_str),
            Some(rest) => rest.strip_prefix('='),
            None => None,
        };
        if let Some(named) = value.and_then(MessageFormat::from_name) {
            format = named;
        }
    }
    format
}

/// A memory size as `--max-memory` takes it: a whole number of bytes,
/// optionally followed by `K`, `M`, `G` or `T` (powers of 1024; `KiB`,
/// `MB` and the like mean the same), or `unlimited`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    if trimmed.eq_ignore_ascii_case("unlimited") {
        return Ok(u64::MAX);
    }
    let digits = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(digits);
    let wrong = || {
        format!(
            "needs a size such as 512M, 2G or 1000000 (bytes), or `unlimited`; found `{}`",
            text
        )
    };
    let number: u64 = number.parse().map_err(|_| wrong())?;
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(wrong()),
    };
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("is too large: `{}`", text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_decimal_at_both_ends_of_the_range() {
        for value in [0, 7, -7, 10, 1_000_000, i64::MAX, i64::MIN] {
            let mut io = Io::new(&b""[..], Vec::new());
            io.write_i64(value).unwrap();
            io.write_i64_line(value).unwrap();
            io.flush().unwrap();
            assert_eq!(
                io.output.get_ref(),
                &format!("{value}{value}\n").into_bytes()
            );
        }
    }

    #[test]
    fn parses_signed_numbers_and_rejects_the_rest() {
        assert_eq!(parse_i64(b"42"), Some(42));
        assert_eq!(parse_i64(b"+7"), Some(7));
        assert_eq!(parse_i64(b"-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_i64(b"9223372036854775808"), None);
        assert_eq!(parse_i64(b"-"), None);
        assert_eq!(parse_i64(b"1x"), None);
        assert_eq!(parse_i64(b""), None);
    }

    #[test]
    fn reads_tokens_across_lines_and_reports_the_end() {
        let mut io = Io::new(&b" 5\n\t-3  x"[..], Vec::new());
        assert_eq!(io.read_i64(1).unwrap(), 5);
        assert_eq!(io.read_i64(1).unwrap(), -3);
        let err = io.read_i64(2).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: expected a number in the input, found `x`"
        );
        let err = io.read_i64(4).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::InputEnded));
    }

    #[test]
    fn reads_lines_without_their_endings() {
        let mut io = Io::new(&b"one\r\ntwo\n\nlast"[..], Vec::new());
        assert_eq!(io.read_line().unwrap(), Some(b"one".to_vec()));
        assert_eq!(io.read_line().unwrap(), Some(b"two".to_vec()));
        assert_eq!(io.read_line().unwrap(), Some(Vec::new()));
        assert_eq!(io.read_line().unwrap(), Some(b"last".to_vec()));
        assert_eq!(io.read_line().unwrap(), None);
    }

    #[test]
    fn output_is_flushed_before_an_error_is_returned() {
        let mut out = Vec::new();
        let result = run_program(
            &b""[..],
            &mut out,
            &Options::default(),
            &SourceMap::EMPTY,
            |io, _| {
                io.write_line("before")?;
                io.read_i64(3).map(|_| ())
            },
        );
        assert!(result.is_err());
        assert_eq!(out, b"before\n");
    }

    #[test]
    fn command_line_of_emitted_programs() {
        let args = |v: &[&str]| parse_args(v.iter().map(|s| s.to_string()).collect());
        let run = |options| {
            Ok(Invocation::Run {
                options,
                source_name: None,
                discard_output: 0,
                message_format: MessageFormat::Human,
            })
        };
        assert_eq!(args(&[]), run(Options::default()));
        assert_eq!(args(&["--max-steps", "9"]), run(Options::with_max_steps(9)));
        assert_eq!(args(&["--max-steps=3"]), run(Options::with_max_steps(3)));
        assert_eq!(args(&["--help"]), Ok(Invocation::Help));
        assert_eq!(args(&["--max-steps", "2", "-h"]), Ok(Invocation::Help));
        assert_eq!(args(&["-V"]), Ok(Invocation::Version));
        assert!(args(&["--max-steps"]).is_err());
        assert!(args(&["--max-steps", "-1"]).is_err());
        assert!(args(&["-x"]).is_err());
        let memory = |bytes| {
            run(Options {
                max_memory: Some(bytes),
                ..Options::default()
            })
        };
        assert_eq!(args(&["--max-memory", "512M"]), memory(512 << 20));
        assert_eq!(args(&["--max-memory=2G"]), memory(2 << 30));
        assert_eq!(args(&["--max-memory", "unlimited"]), memory(u64::MAX));
        assert!(args(&["--max-memory"]).is_err());
        assert!(args(&["--max-memory", "lots"]).is_err());
        assert!(args(&["--max-step=3"]).is_err());
        assert_eq!(
            args(&["--source-name", "../w/loop.chc", "--max-steps=3"]),
            Ok(Invocation::Run {
                options: Options::with_max_steps(3),
                source_name: Some("../w/loop.chc".to_string()),
                discard_output: 0,
                message_format: MessageFormat::Human,
            })
        );
        assert!(args(&["--source-name"]).is_err());
        assert_eq!(
            args(&["--discard-output", "12"]),
            Ok(Invocation::Run {
                options: Options::default(),
                source_name: None,
                discard_output: 12,
                message_format: MessageFormat::Human,
            })
        );
        assert!(args(&["--discard-output", "-1"]).is_err());
        assert_eq!(
            args(&["--message-format", "json", "--max-steps=3"]),
            Ok(Invocation::Run {
                options: Options::with_max_steps(3),
                source_name: None,
                discard_output: 0,
                message_format: MessageFormat::Json,
            })
        );
        assert!(args(&["--message-format=xml"]).is_err());
        let named =
            |v: &[&str]| requested_format(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            named(&["-x", "--message-format", "json"]),
            MessageFormat::Json
        );
        assert_eq!(
            named(&["--message-format=short", "--oops"]),
            MessageFormat::Short
        );
        assert_eq!(named(&["--message-format"]), MessageFormat::Human);
    }

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("3MiB"), Ok(3 << 20));
        assert_eq!(parse_size("8gb"), Ok(8 << 30));
        assert_eq!(parse_size("1T"), Ok(1 << 40));
        assert_eq!(parse_size("Unlimited"), Ok(u64::MAX));
        assert!(parse_size("").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("1.5G").is_err());
        assert!(parse_size("2X").is_err());
        assert!(parse_size("99999999999T")
            .unwrap_err()
            .contains("too large"));
    }

    #[test]
    fn the_first_bytes_of_output_can_be_dropped() {
        for skip in [0u64, 1, 3, 5, 6, 40] {
            let mut out = SkipFirst {
                skip,
                inner: Vec::new(),
            };
            for piece in [&b"ab"[..], b"", b"cde", b"f"] {
                out.write_all(piece).unwrap();
            }
            let wanted = &b"abcdef"[6.min(skip as usize)..];
            assert_eq!(out.inner, wanted, "skip {skip}");
        }
    }

    #[test]
    fn a_name_appended_to_an_executable_reads_back() {
        let dir = std::env::temp_dir().join(format!("chess2rs-name-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("exe");
        // Nothing appended: no name, also for files shorter than a trailer.
        std::fs::write(&exe, b"\x7fELF").unwrap();
        assert_eq!(appended_source_name(&exe), None);
        std::fs::write(&exe, vec![7u8; 100]).unwrap();
        assert_eq!(appended_source_name(&exe), None);
        let mut bytes = b"\x7fELF and the rest of an image".to_vec();
        append_source_name(&mut bytes, "beer \u{e9}.icp").unwrap();
        std::fs::write(&exe, &bytes).unwrap();
        assert_eq!(
            appended_source_name(&exe).as_deref(),
            Some("beer \u{e9}.icp")
        );
        // A length that points before the file's start is no name.
        let mut short = b"x".to_vec();
        short.extend_from_slice(&5u64.to_le_bytes());
        short.extend_from_slice(NAME_TRAILER_MAGIC);
        std::fs::write(&exe, &short).unwrap();
        assert_eq!(appended_source_name(&exe), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_program_calls_itself_by_the_name_it_was_started_by() {
        let info = ProgramInfo {
            source: "examples/beer.icp",
            language: "InfChessPro",
            compiler: "chess2rs 9.9.9",
        };
        assert_eq!(program_name(Some("./bin/beer".into()), &info), "beer");
        assert_eq!(program_name(None, &info), "beer");
        let help = help_text("beer", &info);
        assert!(help.starts_with(
            "beer: the InfChessPro program `examples/beer.icp`, compiled by chess2rs 9.9.9."
        ));
        assert!(help.contains("Usage: beer [--max-steps N] [--max-memory SIZE] < INPUT"));
    }
}
