#!/usr/bin/env python3
"""Writes test journals for check.sh into DIR with `rewind generate`, `rewind import`,
`rewind recover` and byte surgery (an unclosed journal, a torn tail, garbage, damage,
foreign skippable frames, a salvaged journal with a lost range, damaged headers read from
their copies).

    make_inputs.py DIR        then    check.sh DIR/*.journal

REWIND names the rewind binary (default .build/debug/rewind).
"""
import json, os, struct, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import read_journal as rj  # noqa: E402

REWIND = os.environ.get("REWIND", os.path.join(here, "../../.build/debug/rewind"))


def rewind(*args):
    subprocess.run([REWIND, *args, "--force"], check=True, stdout=subprocess.DEVNULL)


def meta(tag, body):
    payload = tag + body
    return struct.pack("<II", rj.MAGIC, len(payload) + 4) + payload + struct.pack("<I", rj.check32(payload))


def jsonl(path, events, header=None):
    with open(path, "w", encoding="utf-8") as f:
        if header:
            f.write(json.dumps({"header": header}, ensure_ascii=False) + "\n")
        for n, e in enumerate(events, 1):
            f.write(json.dumps({"seq": n, "time_us": n * 1000 + n % 3 * 17, **e}, ensure_ascii=False) + "\n")


def main(out):
    os.makedirs(out, exist_ok=True)
    p = lambda name: os.path.join(out, name)
    for events, seed, extra in [(100000, 1, []), (100000, 7, []), (50000, 99, ["--snapshot-interval", "7"]),
                                (30000, 3, ["--snapshot-interval", "1", "--level", "19"]), (2048, 2, []), (1, 5, [])]:
        rewind("generate", "-o", p(f"gen-{events}-s{seed}.journal"), "--events", str(events), "--seed", str(seed), *extra)

    # every event kind and awkward values: NaN, infinities, -0.0, off-grid and huge offsets and widths,
    # extreme indices, ids the catalog lacks (long, non-ASCII, with escapes), runs of deltas
    offsets = [0.0, 120.5, 0.1, "NaN", "Infinity", "-Infinity", -0.0, -20.0, 1e300, 5e-324, 1e-05,
               9007199254740991 / 6, 2.0 ** 53, 9.5e15, 1e16, 1 / 3, 123456789.16666667]
    ev = [{"event": "menuScrolled", "offset": o} for o in offsets]
    ev += [{"event": "menuTabTapped", "index": i} for i in (0, 3, -1, 2 ** 63 - 1, -2 ** 63)]
    for ident in ("grinders", "teapots", "espresso-machines/leva/leva-x", "café/crème", "x" * 1024, "a\"b\\c/\u0001\n"):
        ev += [{"event": k, "id": ident} for k in ("categorySelected", "itemSelected", "itemExpanded", "itemCollapsed")]
    ev += [{"event": "categorySelected", "id": None}, {"event": "itemSelected", "id": None}, {"event": "backTapped"}]
    ev += [{"event": "columnVisibilityChanged", "visibility": v} for v in ("automatic", "all", "doubleColumn", "detailOnly")]
    ev += [{"event": "splitStyleChanged", "style": v} for v in ("automatic", "balanced", "prominentDetail")]
    ev += [{"event": "sizeClassChanged", "sizeClass": v} for v in ("compact", "regular")]
    ev += [{"event": "orientationChanged", "orientation": v} for v in ("portrait", "landscape", "portrait")]
    ev += [{"event": "menuViewportResized", "width": w} for w in (834.0, 0.1, 0.0, -5.0, "NaN", 320.0)]
    ev += [{"event": "menuScrolled", "offset": k * 7 % 50 / 6} for k in range(300)]
    jsonl(p("edge.jsonl"), ev)
    rewind("import", p("edge.jsonl"), "-o", p("edge.journal"), "--snapshot-interval", "5")

    # a catalog of its own: two columns, compact, defaults left out, non-ASCII names, odd start
    settings = {"catalog": {"layout": "twoColumn", "menuLabels": ["Früh", "Spät"], "categories": [
        {"name": "Café Crème!", "children": [{"name": "  Über--Maschine 2000 ", "image": "u"},
                                             {"name": "x_y", "children": [{"name": "Deep ÄÖ 9"}]}]},
        {"name": "\u212Aelvin B", "image": "b", "children": []}]}, "sizeClass": "compact"}
    header = {"domain": "navigation", "schemaVersion": 1, "session": "00000000-0000-4000-8000-000000000001",
              "start": "1969-12-31T23:59:59.25Z", "device": "tést", "snapshotInterval": 3, "settings": settings}
    jsonl(p("custom.jsonl"), [{"event": "categorySelected", "id": "caf-cr-me"},
                              {"event": "itemExpanded", "id": "caf-cr-me/x-y"},
                              {"event": "itemSelected", "id": "caf-cr-me/x-y/deep-9"},
                              {"event": "menuTabTapped", "index": 1}, {"event": "backTapped"},
                              {"event": "categorySelected", "id": "elvin-b"}], header)
    rewind("import", p("custom.jsonl"), "-o", p("custom.journal"))

    # byte surgery on a closed multi-frame journal
    data = open(p("gen-100000-s7.journal"), "rb").read()
    index_at = struct.unpack_from("<Q", data, len(data) - 24)[0]
    h, start = rj.parse_header(data, "gen-100000-s7.journal")
    frames = [i[1] for i in rj.walk(data, start) if i[0] == "frame"]
    write = lambda name, b: open(p(name), "wb").write(b)
    write("open.journal", data[:index_at])                          # not closed: index and trailer cut
    write("torn.journal", data[:index_at - 500])                    # the last data frame cut short
    write("garbage.journal", data[:index_at] + b"\0garbage" * 3)    # bytes that are no frame at the end
    bad = bytearray(data)
    bad[frames[3]["pos"] + frames[3]["hsize"] + 100] ^= 0xFF       # damage inside frame 3's data
    write("damaged-closed.journal", bytes(bad))
    write("damaged-open.journal", bytes(bad[:index_at]))
    bad = bytearray(data)
    bad[-1] ^= 1                                                    # the trailer's checksum fails: walk
    write("bad-trailer.journal", bytes(bad))
    inserts = {frames[1]["pos"]: struct.pack("<II", 0x184D2A50, 5) + b"hello",  # a foreign skippable frame
               frames[2]["pos"]: meta(b"RWZZ", b"a tag of a later minor version")}
    pieces, prev = [], 0
    for at in sorted(inserts):
        pieces += [data[prev:at], inserts[at]]
        prev = at
    write("foreign-frames.journal", b"".join(pieces) + data[prev:index_at])
    header_end = 8 + struct.unpack_from("<I", data, 4)[0]
    bad = bytearray(data)
    bad[30] ^= 1                                                    # the header damaged: its copy
    write("header-damaged.journal", bytes(bad))
    write("header-damaged-open.journal", bytes(bad[:index_at]))
    bad[header_end + 30] ^= 1                                       # and the copy: the index's copy
    write("header-and-copy-damaged.journal", bytes(bad))
    subprocess.run([REWIND, "recover", "--salvage", p("damaged-open.journal"), "-o", p("salvaged.journal")],
                   check=True, stdout=subprocess.DEVNULL)
    salvaged = open(p("salvaged.journal"), "rb").read()
    write("salvaged-open.journal", salvaged[:struct.unpack_from("<Q", salvaged, len(salvaged) - 24)[0]])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
