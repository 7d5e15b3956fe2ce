"""Reading and writing the readings file (CSV: date, city, celsius)."""

import csv
import datetime
import os

DEFAULT_PATH = os.path.expanduser("~/.weatherlog.csv")


def add_reading(city, celsius, path=DEFAULT_PATH):
    with open(path, "a", newline="") as f:
        csv.writer(f).writerow([datetime.date.today().isoformat(), city, celsius])


def load_readings(path=DEFAULT_PATH):
    if not os.path.exists(path):
        open(path, "w").close()
        return []
    with open(path, newline="") as f:
        return [(day, city, float(c)) for day, city, c in csv.reader(f)]
