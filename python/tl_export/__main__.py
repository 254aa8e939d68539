"""Command line: ``python -m tl_export fixtures OUT_DIR [NAME ...]`` rebuilds the fixtures;
``python -m tl_export time-draw NAME ...`` times TorchLens's own drawing of fixture models."""

from __future__ import annotations

import argparse
import json
import sys

from .fixtures import FIXTURES, build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tl_export", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    fixtures = commands.add_parser("fixtures", help="trace the fixture models and write their JSON")
    fixtures.add_argument("out_dir", help="folder for <name>.json and reference/<name>.dot")
    fixtures.add_argument("names", nargs="*", help=f"only these ({', '.join(f.name for f in FIXTURES)})")
    commands.add_parser("list", help="list the fixtures")
    timing = commands.add_parser("time-draw", help="time TorchLens's SVG drawing of fixture models (JSON lines)")
    timing.add_argument("names", nargs="+", help="fixtures to draw")
    timing.add_argument("--collapse", default="none,auto", help="collapse modes, comma separated")
    timing.add_argument("--runs", type=int, default=3, help="runs per measurement (the median is kept)")
    args = parser.parse_args(argv)
    if args.command == "list":
        for fixture in FIXTURES:
            print(f"{fixture.name}: {fixture.description}")
        return 0
    unknown = sorted(set(args.names) - {f.name for f in FIXTURES})
    if unknown:
        parser.error(f"unknown fixture(s) {', '.join(unknown)}; `python -m tl_export list` names them")
    if args.command == "time-draw":
        from .timing import time_draws

        for result in time_draws(args.names, args.collapse.split(","), args.runs):
            print(json.dumps(result), flush=True)
        return 0
    for path in build(args.out_dir, args.names or None):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
