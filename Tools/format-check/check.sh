#!/usr/bin/env bash
# Compares the independent Python reader with `rewind export` on journals.
#
#   Tools/format-check/check.sh [--states N] JOURNAL...
#
# For each journal: both outputs are parsed line by line as JSON and compared (values,
# key order, and also the raw text, reported separately); the reader's --walk output must
# equal its index output; both tools must agree on success. With --states N, the first N
# snapshot states the reader decodes are compared with `rewind state --at SEQ --json`.
# REWIND names the rewind binary (default .build/debug/rewind). Exits 1 on any mismatch.
set -u
here=$(cd "$(dirname "$0")" && pwd)
rewind=${REWIND:-$here/../../.build/debug/rewind}
states=0
if [ "${1:-}" = --states ]; then states=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [--states N] JOURNAL..." >&2; exit 64; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failed=0

compare() {  # compare FILE_A FILE_B [prefix]: semantic (ordered keys) and textual
  python3 - "$@" <<'EOF'
import json, sys
# lines end at "\n" only: U+2028 may stand raw inside a JSON string
a, b = (open(p, encoding="utf-8", newline="").read().split("\n")[:-1] for p in sys.argv[1:3])
if sys.argv[3:] == ["prefix"] and len(a) > len(b):
    print(f"  rewind stopped after {len(b)} lines, python read on to {len(a)}: comparing the first {len(b)}")
    a = a[:len(b)]
def parse(line):
    return json.loads(line, object_pairs_hook=lambda kv: kv)  # keeps key order
bad = 0
for n, (x, y) in enumerate(zip(a, b), 1):
    if parse(x) != parse(y):
        bad += 1
        if bad <= 5:
            print(f"  line {n} differs:\n    python: {x[:300]}\n    rewind: {y[:300]}")
if len(a) != len(b):
    bad += 1
    print(f"  python printed {len(a)} lines, rewind {len(b)}")
text = sum(x != y for x, y in zip(a, b))
print(f"  {len(b)} lines, {bad} semantic mismatches, {text} lines differ as text")
sys.exit(1 if bad else 0)
EOF
}

for j in "$@"; do
  echo "== $j"
  python3 "$here/read_journal.py" "$j" > "$tmp/py" 2> "$tmp/py.err"; prc=$?
  "$rewind" export "$j" > "$tmp/rw" 2> "$tmp/rw.err"; rrc=$?
  sed 's/^/  python stderr: /' "$tmp/py.err"; sed 's/^/  rewind stderr: /' "$tmp/rw.err"
  # rewind export stops at damage and at lost ranges; the reader reports them and reads
  # on (FORMAT.md), so then only the lines rewind printed are compared
  compare "$tmp/py" "$tmp/rw" $([ $rrc != 0 ] && echo prefix) || failed=1
  if [ $prc != 0 ] && [ $rrc = 0 ]; then
    echo "  MISMATCH: python exited $prc, rewind 0"; failed=1
  elif [ $prc = 0 ] && [ $rrc != 0 ]; then
    echo "  NOTE: rewind export failed (exit $rrc) where the reader read on"
  fi
  python3 "$here/read_journal.py" --walk "$j" > "$tmp/walk" 2>/dev/null
  cmp -s "$tmp/py" "$tmp/walk" || { echo "  MISMATCH: --walk output differs from the index's"; failed=1; }
  if [ "$states" -gt 0 ]; then
    python3 "$here/read_journal.py" --states "$j" 2>/dev/null | head -n "$states" > "$tmp/snaps"
    while IFS= read -r line; do
      seq=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["snapshot"])' "$line")
      python3 -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1])["state"]))' "$line" > "$tmp/s.py"
      "$rewind" state "$j" --at "$seq" --json 2>/dev/null | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))' > "$tmp/s.rw"
      compare "$tmp/s.py" "$tmp/s.rw" > "$tmp/s.out" || { echo "  snapshot after $seq:"; cat "$tmp/s.out"; failed=1; }
    done < "$tmp/snaps"
    echo "  $(wc -l < "$tmp/snaps") snapshot states compared"
  fi
done
[ $failed = 0 ] && echo "ALL MATCH" || echo "MISMATCHES FOUND"
exit $failed
