//! Drawing speed (issue budgets): DOT emission for the GPT-2 fixture under 5 ms; the whole
//! draw of the 40-block stack to SVG under 0.3 s; GPT-2's full drawing to PDF and to PNG
//! each under 0.5 s; `collapse="auto"` on GPT-2 end to end under 50 ms; planning and emitting
//! a 100,000-operation trace at `collapse="auto"`.
#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{criterion_group, criterion_main, Criterion};
use tl_draw::{draw, DrawOptions, OutputFormat, Trace};

fn fixture(name: &str) -> Trace {
    Trace::load(format!(
        "{}/../../fixtures/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn budgets(c: &mut Criterion) {
    let gpt2 = fixture("gpt2");
    let stack40 = fixture("stack40");
    let options = DrawOptions::default();
    // Every iteration lays out anew (a repeated drawing would reuse the remembered layout).
    let bytes = |trace: &Trace, format: OutputFormat| {
        tl_draw::forget_recent_layouts();
        draw(trace, &options)
            .unwrap()
            .render(format)
            .unwrap()
            .bytes
            .len()
    };
    let mut group = c.benchmark_group("forward");
    group.bench_function("gpt2_dot_emission", |b| {
        b.iter(|| draw(&gpt2, &options).unwrap().dot.len())
    });
    group.sample_size(10);
    group.bench_function("stack40_to_svg", |b| {
        b.iter(|| bytes(&stack40, OutputFormat::Svg))
    });
    group.bench_function("gpt2_to_pdf", |b| {
        b.iter(|| bytes(&gpt2, OutputFormat::Pdf))
    });
    group.bench_function("gpt2_to_png", |b| {
        b.iter(|| bytes(&gpt2, OutputFormat::Png))
    });
    // collapse="auto" on GPT-2 end to end (load, plan, emit, layout, SVG): under 50 ms.
    let text = std::fs::read_to_string(format!(
        "{}/../../fixtures/gpt2.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let auto = DrawOptions::default().collapse(tl_draw::Collapse::Auto);
    group.bench_function("gpt2_auto_end_to_end_svg", |b| {
        b.iter(|| {
            tl_draw::forget_recent_layouts();
            let trace = Trace::from_json(&text).unwrap();
            draw(&trace, &auto)
                .unwrap()
                .render(OutputFormat::Svg)
                .unwrap()
                .bytes
                .len()
        })
    });
    // The 100,000-op synthetic transformer at collapse="auto", trace already in memory:
    // validation (which `draw` runs), plan (schedule + visible graph) and DOT emission.
    // Reading the file is timed by `cargo xtask bench`.
    let large = tl_trace_model::synthetic::transformer_of_size(100_000);
    group.bench_function("transformer_100k_auto_validate_plan_and_emit", |b| {
        b.iter(|| draw(&large, &auto).unwrap().dot.len())
    });
    group.finish();
}

criterion_group!(benches, budgets);
criterion_main!(benches);
