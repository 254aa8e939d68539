//! Collapse speed (issue budget): the full schedule of a synthetic 100,000-operation trace
//! with a deep module tree and repeated blocks under 200 ms.
#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{criterion_group, criterion_main, Criterion};
use tl_collapse::schedule::Schedule;
use tl_collapse::BufferVisibility;
use tl_trace_model::synthetic::residual_stack;

fn schedules(c: &mut Criterion) {
    let mut group = c.benchmark_group("collapse");
    group.sample_size(10);
    for blocks in [200, 2_000, 20_000] {
        let trace = residual_stack(blocks);
        group.bench_function(format!("schedule_{}_ops", trace.ops.len()), |b| {
            b.iter(|| {
                Schedule::build(&trace, BufferVisibility::Meaningful)
                    .steps
                    .len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, schedules);
criterion_main!(benches);
