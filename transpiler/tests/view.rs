//! `chess2rs view` in a real browser: headless Chromium opens the page of
//! one example per language, runs the page's own self-test (`#selftest`:
//! it steps forward with the page's buttons until the highlighted line
//! changes, then moves the slider to the last step) and the test reads
//! what the page showed from the DOM: the program's output, the step
//! control, the line change, how the run ended. A screenshot of each page
//! must not be blank.
//!
//! `.ci/run` installs Chromium (Debian's `chromium`) and sets
//! CHESS2RS_REQUIRE_CHROMIUM=1, so there the test cannot pass without it;
//! elsewhere a machine without `chromium` skips it, saying so.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "support/child.rs"]
#[allow(dead_code)]
mod child;
#[path = "support/required_tool.rs"]
mod required_tool;
#[path = "support/scratch.rs"]
mod scratch;
use child::{feed_and_wait, spawn_piped};
use required_tool::required;
use scratch::scratch;

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|status| status.success())
        })
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name)
}

/// Headless Chromium with a profile of its own in `dir`.
fn browser(name: &str, dir: &Path) -> Command {
    let mut command = Command::new(name);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .stderr(Stdio::null());
    command
}

/// The `data-selftest` attribute of the dumped DOM, as JSON.
fn selftest(dom: &str) -> serde_json::Value {
    let start = dom.find("data-selftest=\"").expect("the self-test ran") + "data-selftest=\"".len();
    let end = start + dom[start..].find('"').unwrap();
    let text = dom[start..end]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_language_plays_in_a_real_browser() {
    let found = chromium();
    let Some(chromium) = required(found, "chromium", "chromium", "CHESS2RS_REQUIRE_CHROMIUM")
    else {
        return;
    };
    let dir = scratch("view");
    // One example per language, on its own input: the truth machine
    // with input 0, the hello world game, a BTM listing, Chess Code, and
    // InfChessPro.
    for program in [
        "truth.fv",
        "chessoteric-hello.pgn",
        "hello.btm",
        "add.chc",
        "first.icp",
    ] {
        let input = std::fs::read(example(&format!("{program}.in"))).unwrap_or_default();
        let page = dir.join(format!("{program}.html"));
        let mut view = Command::new(env!("CARGO_BIN_EXE_chess2rs"))
            .current_dir(example(""))
            .arg("view")
            .arg(program)
            .arg("-o")
            .arg(&page)
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        view.stdin.take().unwrap().write_all(&input).unwrap();
        let made = view.wait_with_output().unwrap();
        assert!(
            made.status.success(),
            "{}",
            String::from_utf8_lossy(&made.stderr)
        );
        let url = format!("file://{}#selftest", page.display());
        let dom = browser(chromium, &dir)
            .arg("--dump-dom")
            .arg(&url)
            .output()
            .unwrap();
        let dom = String::from_utf8_lossy(&dom.stdout);
        let seen = selftest(&dom);
        let expected = std::fs::read_to_string(example(&format!("{program}.out"))).unwrap();
        assert_eq!(seen["output"], expected.as_str(), "{program}: {seen}");
        assert_eq!(seen["end"], "The program halted.", "{program}: {seen}");
        assert_ne!(
            seen["before"], seen["after"],
            "{program}: the line did not change: {seen}"
        );
        assert!(seen["after"].as_str().unwrap().starts_with('L'), "{seen}");
        assert!(seen["frames"].as_u64().unwrap() > 1, "{seen}");
        assert!(seen["cells"].as_u64().unwrap() > 0, "{seen}");
        // The step control is there.
        assert!(dom.contains("id=\"slider\"") && dom.contains("id=\"next\""));
        if program == "truth.fv" {
            assert_eq!(input, b"0\n");
        }
        let shot = dir.join(format!("{program}.png"));
        // A step in the middle of the run, where there is something to see.
        let middle = seen["frames"].as_u64().unwrap() / 2 + 1;
        let status = browser(chromium, &dir)
            .arg("--window-size=1100,650")
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("file://{}#step={middle}", page.display()))
            .status()
            .unwrap();
        assert!(status.success());
        let png = std::fs::read(&shot).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{program}: not a PNG");
        // A blank 1100×650 page compresses to a few kilobytes; a drawn one
        // (text, a board) to tens.
        assert!(
            png.len() > 15_000,
            "{program}: the screenshot looks blank ({} bytes)",
            png.len()
        );
        // CHESS2RS_WRITE_VIEW_SHOTS=1 keeps them as the documentation's.
        if std::env::var_os("CHESS2RS_WRITE_VIEW_SHOTS").is_some() {
            let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/images");
            std::fs::create_dir_all(&docs).unwrap();
            let name = program.replace('.', "-");
            std::fs::write(docs.join(format!("view-{name}.png")), &png).unwrap();
        }
    }
}

/// Every golden program that compiles is recorded and made into a page
/// (on its own input, at most 2,000 steps, 500 frames): no panic, the
/// frames JSON parses back, and the page's output is the run's.
#[test]
fn every_golden_program_records_and_pages() {
    use chess2rs::{Language, Source};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden");
    let mut recorded = 0;
    let mut dirs: Vec<(PathBuf, Option<Language>)> =
        ["infchesspro", "chesscode", "chessoteric", "finvara"]
            .iter()
            .map(|dir| (root.join(dir), None))
            .collect();
    // The fuzzers' local corpora too, when asked for (not committed):
    // CHESS2RS_FUZZ_CORPUS=fuzz/work.
    if let Some(work) = std::env::var_os("CHESS2RS_FUZZ_CORPUS") {
        for extension in ["icp", "chc", "pgn", "btm", "fv"] {
            let queue = Path::new(&work).join(extension).join("out/default/queue");
            dirs.push((queue, Language::from_extension(extension)));
        }
    }
    for (dir, language_of_all) in dirs {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if !path.is_file() {
                continue;
            }
            let Some(language) = language_of_all.or_else(|| Language::from_path(&path)) else {
                continue;
            };
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            let source = Source::new(path.display().to_string(), text);
            let Ok(checked) = chess2rs::check(&source, language) else {
                continue;
            };
            let input = std::fs::read(format!("{}.in", path.display())).unwrap_or_default();
            let options = chess2rs_runtime::Options::with_max_steps(2_000);
            let recording =
                chess2rs::view::record(&checked.program, &input[..], &options, 500, &|| false);
            assert!(recording.frames.len() <= 500);
            assert!(recording
                .frames
                .iter()
                .all(|f| f.output <= recording.output.len()));
            let page = chess2rs::view::page(&recording, &source, language, 500);
            let start = page.find("type=\"application/json\">").unwrap()
                + "type=\"application/json\">".len();
            let end = start + page[start..].find("</script>").unwrap();
            let data: serde_json::Value =
                serde_json::from_str(&page[start..end]).unwrap_or_else(|e| {
                    panic!("{}: the page's data does not parse: {e}", path.display())
                });
            assert_eq!(
                data["frames"].as_array().unwrap().len(),
                recording.frames.len()
            );
            assert_eq!(
                data["output"],
                String::from_utf8_lossy(&recording.output).as_ref()
            );
            recorded += 1;
        }
    }
    assert!(recorded > 100, "only {recorded} programs recorded");
    eprintln!("{recorded} programs recorded");
}

/// `chess2rs view FILE -o page.html ARGS…` on `text`, in `dir`, under an
/// address-space limit of 1 GB (`ulimit -v`), with empty input.
fn view_limited(dir: &Path, file: &str, text: &str, args: &[&str]) -> std::process::Child {
    std::fs::write(dir.join(file), text).unwrap();
    Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_chess2rs"))
        .args(["view", file, "-o", "page.html"])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// [`view_limited`] on `(file, text)` run to its end, which must be an
/// error (exit 1) whose message starts with `error`: the stderr and the
/// page written.
fn view_failing(
    dir: &Path,
    (file, text): (&str, &str),
    args: &[&str],
    error: &str,
) -> (String, String) {
    let output = view_limited(dir, file, text, args)
        .wait_with_output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with(error), "{stderr}");
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    (stderr, page)
}

#[test]
fn a_program_that_never_ends_gets_its_page_at_a_default_bound() {
    let dir = scratch("view_never_ends");
    let started = std::time::Instant::now();
    // Reported as `interpret` reports a step limit, then the page.
    let (stderr, page) = view_failing(
        &dir,
        ("loop.icp", "1. ^?1\n"),
        &[],
        "error[E0601]: step limit of 10010000 reached",
    );
    assert!(started.elapsed().as_secs() < 60);
    assert!(stderr.contains("loop.icp:1:4"), "{stderr}");
    assert!(stderr.contains("wrote page.html"), "{stderr}");
    assert!(page.contains("step limit of 10010000 reached"));
}

#[test]
fn a_program_that_prints_forever_ends_within_its_limits() {
    let dir = scratch("view_prints_forever");
    let spam = ("spam.icp", "1. \"spam\n2. ^?1\n");
    let (_, page) = view_failing(
        &dir,
        spam,
        &["--max-steps", "4000000"],
        "error[E0601]: step limit of 4000000 reached",
    );
    assert!(page.contains("The program printed 10000000 bytes; the first 1 MiB are kept here."));
    assert!(page.len() < 4 << 20, "{}", page.len());
    // Frames that would pass --max-memory end the run with its error.
    let (_, page) = view_failing(
        &dir,
        spam,
        &["--max-frames", "1000000000", "--max-memory", "20M"],
        "error[E0605]: the program needs more memory than its limit of 20 MiB",
    );
    assert!(page.contains("more memory than its limit"));
}

#[test]
fn ctrl_c_writes_the_page_recorded_so_far() {
    let dir = scratch("view_interrupted");
    let child = view_limited(
        &dir,
        "loop.icp",
        "1. ^?1\n",
        &["--max-steps", "100000000000"],
    );
    std::thread::sleep(std::time::Duration::from_millis(500));
    // The shell `exec`s chess2rs: the child's pid is chess2rs's.
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("wrote page.html"), "{stderr}");
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    assert!(page.contains("The run was stopped (Ctrl-C) after"));
}

#[test]
fn a_failed_run_is_reported_as_interpret_reports_it_and_its_input_shown() {
    let dir = scratch("view_failed");
    std::fs::write(dir.join("read.icp"), "1. a=K*,*\n2. b=k*,*\n").unwrap();
    let run = |verb: &[&str]| {
        let child = spawn_piped(
            Command::new(env!("CARGO_BIN_EXE_chess2rs"))
                .args(verb)
                .arg("read.icp")
                .current_dir(&dir),
        );
        feed_and_wait(child, b"3 4\n")
    };
    let interpreted = run(&["interpret"]);
    let viewed = run(&["view", "-o", "page.html"]);
    assert_eq!(viewed.status.code(), interpreted.status.code());
    let (interpreted, viewed) = (
        String::from_utf8_lossy(&interpreted.stderr),
        String::from_utf8_lossy(&viewed.stderr),
    );
    assert!(!interpreted.is_empty());
    assert!(
        viewed.starts_with(&*interpreted),
        "{viewed}\n---\n{interpreted}"
    );
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    assert!(page.contains(r#""input":"3 4\n""#), "the input is shown");
}
