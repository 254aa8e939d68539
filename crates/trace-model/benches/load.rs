//! Loading speed: a trace of 5,000 operations (about 6 MB in the canonical layout, 10 MB as
//! two-space indented JSON) must load (parse + validate) well under a second.
#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{criterion_group, criterion_main, Criterion};
use tl_trace_model::{synthetic::residual_stack, Trace};

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
    group.finish();
}

criterion_group!(benches, load_five_thousand_ops);
criterion_main!(benches);
