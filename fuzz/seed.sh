#!/usr/bin/env bash
# Seeds libFuzzer's working corpora (fuzz/corpus/<target>, gitignored) from the committed repair
# corpus (corpus/repair/**/*.txt, the text after the `--- input` line), the recorded outputs of
# real models (corpus/wild/bfcl) and, when present, the peer suites' inputs
# (../shared/peer-suites/repair/*.jsonl; read at run time, never committed).
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
# extract and extract_stream: the committed extract corpus and the peer extract inputs, each
# behind an option byte (extract: options; extract_stream: chunk size and prefilled thinking).
mkdir -p corpus/extract corpus/extract_stream
python3 - ../corpus/extract ../../shared/peer-suites/extract <<'PY'
import glob, hashlib, json, os, sys
texts = []
for path in glob.glob(sys.argv[1] + "/*/*.txt"):
    t = open(path, encoding="utf-8").read()
    if "--- input\n" in t and "\n--- expected\n" in t:
        texts.append(t.split("--- input\n", 1)[1].split("\n--- expected\n", 1)[0])
if os.path.isdir(sys.argv[2]):
    for path in glob.glob(sys.argv[2] + "/*.jsonl"):
        for line in open(path, encoding="utf-8"):
            if line.strip():
                case = json.loads(line)
                for key in ("input", "text", "output"):
                    if isinstance(case.get(key), str):
                        texts.append(case[key])
                        break
for k, text in enumerate(texts):
    data = text.encode("utf-8")
    h = hashlib.sha1(data).hexdigest()[:16]
    open(f"corpus/extract/{h}", "wb").write(bytes([k % 8]) + data)
    open(f"corpus/extract_stream/{h}", "wb").write(bytes([k % 8]) + data)
PY
# All targets: what real small models wrote (the recorded BFCL outputs in corpus/wild/bfcl):
# envelopes, prose and pretty-printed arguments as they come.
python3 - ../corpus/wild/bfcl <<'PY'
import glob, hashlib, json, sys
for path in glob.glob(sys.argv[1] + "/*.jsonl"):
    for k, line in enumerate(open(path, encoding="utf-8")):
        if not line.strip():
            continue
        data = json.loads(line)["output"].encode("utf-8")
        h = hashlib.sha1(data).hexdigest()[:16]
        for t in ("repair", "repair_quick"):
            open(f"corpus/{t}/wild-{h}", "wb").write(data)
        open(f"corpus/stream/wild-{h}", "wb").write(bytes([k % 8]) + data)
        for t in ("extract", "extract_stream"):
            open(f"corpus/{t}/wild-{h}", "wb").write(bytes([k % 8]) + data)
PY
# decode: the argument texts of the committed decode corpus (the text after its `---` line) and
# of the repair corpus, each behind eight schema/policy bytes (see fuzz_targets/decode.rs).
mkdir -p corpus/decode
python3 - ../corpus/decode ../corpus/repair <<'PY'
import glob, hashlib, sys
texts = []
for path in glob.glob(sys.argv[1] + "/*.txt"):
    t = open(path, encoding="utf-8").read()
    if "\n---\n" in t:
        texts.append(t.split("\n---\n", 1)[1])
for path in glob.glob(sys.argv[2] + "/*/*.txt"):
    t = open(path, encoding="utf-8").read()
    if "--- input\n" in t and "\n--- expected\n" in t:
        texts.append(t.split("--- input\n", 1)[1].split("\n--- expected\n", 1)[0])
for text in texts:
    data = text.encode("utf-8")
    h = hashlib.sha1(data).hexdigest()[:16]
    for policy in (0x00, 0x01, 0x02, 0x13, 0x24, 0x45, 0x06, 0x77):
        open(f"corpus/decode/{h}-{policy:02x}", "wb").write(bytes([policy]) + data)
PY
echo "seeded $n repair corpus cases, $(ls corpus/extract | wc -l) extract inputs, $(ls corpus/decode | wc -l) decode inputs (+ peer inputs when present)"
