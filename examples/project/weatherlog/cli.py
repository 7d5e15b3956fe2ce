"""The weatherlog command: `add` a reading, `show` the latest ones."""

import argparse

from tabulate import tabulate

from weatherlog import store


def main(argv=None):
    parser = argparse.ArgumentParser(prog="weatherlog")
    commands = parser.add_subparsers(dest="command", required=True)
    add = commands.add_parser("add")
    add.add_argument("celsius", type=float)
    add.add_argument("--city", default="Oslo")
    show = commands.add_parser("show")
    show.add_argument("--last", type=int, default=7)
    args = parser.parse_args(argv)
    if args.command == "add":
        store.add_reading(args.city, args.celsius)
    else:
        rows = store.load_readings()[-args.last:]
        print(tabulate(rows, headers=["date", "city", "celsius"]))
