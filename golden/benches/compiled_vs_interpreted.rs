//! The same programs run by generated code and by the interpreter.
//! Programs live in `benches/programs/`; `build.rs` compiles them with
//! `chess2rs::compile` into `chess2rs_golden::bench_programs`.

use std::path::Path;

use chess2rs_golden::bench_programs;
use chess2rs_runtime::Options;
use criterion::{criterion_group, criterion_main, Criterion};

fn checked(file: &str) -> chess2rs::Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/programs")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let source = chess2rs::Source::new(file, text);
    let language = chess2rs::Language::from_path(&path).unwrap();
    chess2rs::check(&source, language).unwrap().program
}

fn icp_counter(c: &mut Criterion) {
    let program = checked("icp_counter.icp");
    let options = Options::default();
    let mut group = c.benchmark_group("icp_counter_1000x1000");
    group.sample_size(10);
    group.bench_function("compiled", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            bench_programs::icp_counter(&b""[..], &mut out, &options).unwrap();
            assert_eq!(out, b"1\ncounted to 1000000\n");
        })
    });
    group.bench_function("interpreted", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            chess2rs::interpret(&program, &b""[..], &mut out, &options).unwrap();
            assert_eq!(out, b"1\ncounted to 1000000\n");
        })
    });
    group.finish();
}

criterion_group!(benches, icp_counter);
criterion_main!(benches);
