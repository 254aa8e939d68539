//! Loading speed: a trace of 5,000 operations (about 6 MB in the canonical layout, 10 MB as
//! two-space indented JSON) must load (parse + validate) well under a second, and so must
//! one op with 100,000 parents (issue 31).
#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{criterion_group, criterion_main, Criterion};
use tl_trace_model::synthetic::{residual_stack, wide_concat};
use tl_trace_model::Trace;

fn load_five_thousand_ops(c: &mut Criterion) {
    // 1,000 blocks = 5,004 ops.
    let text = residual_stack(1000).to_json();
    eprintln!("synthetic trace: {:.1} MB", text.len() as f64 / 1e6);
    let mut group = c.benchmark_group("trace_load");
    group.sample_size(10);
    group.bench_function("parse_and_validate_5000_ops", |b| {
        b.iter(|| Trace::from_json(&text).expect("the synthetic trace is valid"))
    });
    let fixture = include_str!("../../../fixtures/gpt2.json");
    group.bench_function("parse_and_validate_gpt2_fixture", |b| {
        b.iter(|| Trace::from_json(fixture).expect("the fixture is valid"))
    });
    // A hostile shape: one op reading 100,000 inputs; the checks stay linear.
    let wide = wide_concat(100_000).to_json();
    group.bench_function("parse_and_validate_op_with_100000_parents", |b| {
        b.iter(|| Trace::from_json(&wide).expect("the wide trace is valid"))
    });
    group.finish();
}

criterion_group!(benches, load_five_thousand_ops);
criterion_main!(benches);
