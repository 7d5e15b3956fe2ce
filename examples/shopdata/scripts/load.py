"""Load the CSV exports into shop.db."""
import csv
import sqlite3

DB_PATH = "shop.db"
TABLES = ["customers", "orders"]


def load(conn, table):
    with open(f"data/{table}.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return 0
    cols = ", ".join(rows[0])
    marks = ", ".join("?" for _ in rows[0])
    conn.executemany(f"INSERT INTO {table} ({cols}) VALUES ({marks})", [tuple(r.values()) for r in rows])
    return len(rows)


def main():
    conn = sqlite3.connect(DB_PATH)
    with open("sql/schema.sql") as f:
        conn.executescript(f.read())
    for table in TABLES:
        print(table, load(conn, table))
    conn.commit()


if __name__ == "__main__":
    main()
