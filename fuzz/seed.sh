#!/usr/bin/env bash
# Seeds libFuzzer's working corpora (fuzz/corpus/<target>, gitignored) from the committed repair
# corpus (corpus/repair/**/*.txt, the text after the `--- input` line) and, when present, the peer
# suites' inputs (../shared/peer-suites/repair/*.jsonl; read at run time, never committed).
set -euo pipefail
cd "$(dirname "$0")"
for t in repair stream repair_quick; do mkdir -p "corpus/$t"; done
n=0
for f in ../corpus/repair/*/*.txt; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .txt)
  python3 - "$f" "corpus/repair/$name" <<'PY'
import sys
t = open(sys.argv[1], encoding="utf-8").read()
inp = t.split("--- input\n", 1)[1].split("\n--- expected\n", 1)[0]
open(sys.argv[2], "w", encoding="utf-8").write(inp)
PY
  { printf '\003'; cat "corpus/repair/$name"; } > "corpus/stream/$name"
  cp "corpus/repair/$name" "corpus/repair_quick/$name"
  n=$((n + 1))
done
peers=../../shared/peer-suites/repair
if [ -d "$peers" ]; then
  python3 - "$peers" <<'PY'
import json, sys, glob, hashlib
for path in glob.glob(sys.argv[1] + "/*.jsonl"):
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        inp = json.loads(line)["input"].encode("utf-8")
        h = hashlib.sha1(inp).hexdigest()[:16]
        open(f"corpus/repair/peer-{h}", "wb").write(inp)
        open(f"corpus/stream/peer-{h}", "wb").write(b"\x05" + inp)
        open(f"corpus/repair_quick/peer-{h}", "wb").write(inp)
PY
fi
echo "seeded $n corpus cases (+ peer inputs when present)"
