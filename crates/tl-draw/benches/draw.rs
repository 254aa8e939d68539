//! Drawing speed (issue budgets): DOT emission for the GPT-2 fixture under 5 ms; the whole
//! draw of the 40-block stack to SVG under 0.3 s.
#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{criterion_group, criterion_main, Criterion};
use tl_draw::{draw, DrawOptions, Trace};

fn fixture(name: &str) -> Trace {
    Trace::load(format!(
        "{}/../../fixtures/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn budgets(c: &mut Criterion) {
    let gpt2 = fixture("gpt2");
    let options = DrawOptions::default();
    let mut group = c.benchmark_group("forward");
    group.bench_function("gpt2_dot_emission", |b| {
        b.iter(|| draw(&gpt2, &options).unwrap().dot.len())
    });
    group.sample_size(10);
    let stack40 = fixture("stack40");
    group.bench_function("stack40_to_svg", |b| {
        b.iter(|| draw(&stack40, &options).unwrap().svg().unwrap().len())
    });
    group.bench_function("gpt2_to_svg", |b| {
        b.iter(|| draw(&gpt2, &options).unwrap().svg().unwrap().len())
    });
    group.finish();
}

criterion_group!(benches, budgets);
criterion_main!(benches);
