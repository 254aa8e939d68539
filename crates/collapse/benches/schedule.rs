//! Collapse speed (issue budget): the full schedule of a synthetic 100,000-operation trace
//! with a deep module tree and repeated blocks under 200 ms. Two shapes: the GPT-2-like
//! transformer (four module levels, a causal mask read by every block) and the residual
//! stack (six modules per five operations: the densest module tree).
#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{criterion_group, criterion_main, Criterion};
use tl_collapse::schedule::Schedule;
use tl_collapse::BufferVisibility;
use tl_trace_model::synthetic::{residual_stack, transformer_of_size};

fn schedules(c: &mut Criterion) {
    let mut group = c.benchmark_group("collapse");
    group.sample_size(10);
    for ops in [1_000, 10_000, 100_000] {
        let traces = [
            ("transformer", transformer_of_size(ops)),
            ("stack", residual_stack(ops / 5)),
        ];
        for (shape, trace) in traces {
            group.bench_function(format!("schedule_{shape}_{ops}_ops"), |b| {
                b.iter(|| {
                    Schedule::build(&trace, BufferVisibility::Meaningful)
                        .expect("a generated trace is valid")
                        .stops
                        .len()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, schedules);
criterion_main!(benches);
