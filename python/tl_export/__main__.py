"""Command line: ``python -m tl_export fixtures OUT_DIR [NAME ...]`` rebuilds the fixtures;
``python -m tl_export real-models OUT_DIR [NAME ...]`` exports the real architectures;
``python -m tl_export time-draw NAME ...`` times TorchLens's own drawing of those models;
``python -m tl_export compare-python NAME ...`` times it against ``tl_draw.draw`` in process."""

from __future__ import annotations

import argparse
import json
import sys

from .fixtures import FIXTURES, build, build_real
from .real_models import REAL_MODELS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tl_export", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    fixtures = commands.add_parser("fixtures", help="trace the fixture models and write their JSON")
    fixtures.add_argument("out_dir", help="folder for <name>.json and reference/<name>.dot")
    fixtures.add_argument("names", nargs="*", help=f"only these ({', '.join(f.name for f in FIXTURES)})")
    real = commands.add_parser("real-models", help="trace and export the real architectures")
    real.add_argument("out_dir", help="folder for <name>.json")
    real.add_argument("names", nargs="*", help=f"only these ({', '.join(m.name for m in REAL_MODELS)})")
    references = commands.add_parser(
        "real-references", help="only TorchLens's auto and max drawings of the real architectures"
    )
    references.add_argument("out_dir", help="folder for reference/<name>.<level>.dot")
    references.add_argument("names", nargs="*", help="only these")
    commands.add_parser("list", help="list the fixtures and the real architectures")
    names = commands.add_parser("list-names", help="the names one build command knows, one a line")
    names.add_argument("of", choices=["fixtures", "real-models"])
    timing = commands.add_parser("time-draw", help="time TorchLens's drawing of models (JSON lines)")
    timing.add_argument("names", nargs="+", help="fixtures or real architectures to draw")
    timing.add_argument("--collapse", default="none,auto", help="collapse modes, comma separated")
    timing.add_argument("--runs", type=int, default=3, help="runs per measurement (the median is kept)")
    timing.add_argument("--export", metavar="DIR", help="also export each timed trace to DIR/<name>.json")
    timing.add_argument("--format", default="svg", choices=["svg", "pdf", "png"], help="the file TorchLens writes")
    timing.add_argument(
        "--program", metavar="TL_DRAW", help="also time this tl-draw program on each exported trace, run by run"
    )
    versus = commands.add_parser(
        "compare-python", help="TorchLens's trace.draw vs tl_draw.draw in one process, cold and warm (JSON lines)"
    )
    versus.add_argument("names", nargs="+", help="fixtures or real architectures to draw")
    versus.add_argument("--collapse", default="none,auto", help="collapse modes, comma separated")
    versus.add_argument("--runs", type=int, default=5, help="runs per measurement (the median is kept)")
    versus.add_argument("--format", default="svg", choices=["svg", "pdf", "png"], help="the file both write")
    args = parser.parse_args(argv)
    if args.command == "list":
        for fixture in FIXTURES:
            print(f"{fixture.name}: {fixture.description}")
        for model in REAL_MODELS:
            print(f"{model.name}: {model.description} (real architecture)")
        return 0
    if args.command == "list-names":
        print("\n".join(f.name for f in FIXTURES) if args.of == "fixtures" else "\n".join(m.name for m in REAL_MODELS))
        return 0
    fixture_names, real_names = {f.name for f in FIXTURES}, {m.name for m in REAL_MODELS}
    known = {"fixtures": fixture_names, "real-models": real_names, "real-references": real_names}.get(
        args.command, fixture_names | real_names
    )
    unknown = sorted(set(args.names) - known)
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; `python -m tl_export list` names them")
    if args.command == "time-draw":
        from .timing import time_draws

        for result in time_draws(
            args.names, args.collapse.split(","), args.runs, args.export, args.format, args.program
        ):
            print(json.dumps(result), flush=True)
        return 0
    if args.command == "compare-python":
        from .timing import compare_in_process

        for result in compare_in_process(args.names, args.collapse.split(","), args.runs, args.format):
            print(json.dumps(result), flush=True)
        return 0
    if args.command == "real-references":
        from .fixtures import build_real_references

        for path in build_real_references(args.out_dir, args.names or None):
            print(path)
        return 0
    if args.command == "real-models":
        for path in build_real(args.out_dir, args.names or None):
            print(path)
        return 0
    for path in build(args.out_dir, args.names or None):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
