#!/usr/bin/env python3
"""An independent reader for Rewind journals, written from FORMAT.md and the navigation
domain's BinaryEncoding.md / JSONNames.md alone (no Swift source was read).

    read_journal.py JOURNAL [--walk] [--states]

Prints the session as JSON Lines, like `rewind export JOURNAL`: a header line, then one
line per event. --walk ignores the index and walks the frame headers. --states prints
each snapshot's decoded state (as {"snapshot": seq, "state": {...}}) instead of events.
Python 3.11 standard library only; data frames are decompressed by the `zstd` tool.
Exits 1 with a message on anything malformed. As FORMAT.md asks, a torn tail is reported
on stderr and everything before it is read (exit 0), and damage (a checksum that fails
with whole frames after it) is reported with the events it held and reading resumes
after it (exit 1). Lost ranges of a salvaged journal are reported on stderr (exit 0).
"""
import json, math, os, re, string, struct, subprocess, sys, unicodedata

MAGIC, SKIP_LO, SKIP_HI, ZSTD_MAGIC = 0x184D2A5B, 0x184D2A50, 0x184D2A5F, 0xFD2FB528
TAG_HEADER, TAG_COPY, TAG_FRAME, TAG_INDEX, TAG_TRAILER, TAG_LOST = (
    int.from_bytes(t, "little") for t in (b"RWJH", b"RWHC", b"RWFH", b"RWIX", b"RWTR", b"RWLG"))
MiB = 1 << 20
HEADER_LIMIT = 8 * MiB + 8 * 1024  # the largest header payload
M64 = (1 << 64) - 1


class Malformed(Exception):
    pass


class Damage(Malformed):
    """Bytes that are not a whole frame, or a checksum that does not verify: a torn tail
    at the end of the file, damage before whole frames (FORMAT.md). Any other problem,
    under checksums that verify, is a malformed journal and stops the reader."""


def need(cond, msg, error=Malformed):
    if not cond:
        raise error(msg)


# ---- XXH64 (seed 0) -------------------------------------------------------------------
P1, P2, P3, P4, P5 = (11400714785074694791, 14029467366897019727, 1609587929392839161,
                      9650029242287828579, 2870177450012600261)


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def _round(acc, lane):
    return _rotl((acc + lane * P2) & M64, 31) * P1 & M64


def xxh64(data, seed=0):
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M64, (seed + P2) & M64, seed, (seed - P1) & M64]
        stripes = n // 32
        for lane in struct.iter_unpack("<4Q", data[:stripes * 32]):
            v = [_round(v[0], lane[0]), _round(v[1], lane[1]),
                 _round(v[2], lane[2]), _round(v[3], lane[3])]
        i = stripes * 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & M64
        for x in v:
            h = ((h ^ _round(0, x)) * P1 + P4) & M64
    else:
        h = (seed + P5) & M64
    h = (h + n) & M64
    while i + 8 <= n:
        h = (_rotl(h ^ _round(0, int.from_bytes(data[i:i + 8], "little")), 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h = (_rotl(h ^ (int.from_bytes(data[i:i + 4], "little") * P1 & M64), 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h = _rotl(h ^ (data[i] * P5 & M64), 11) * P1 & M64
        i += 1
    h = (h ^ (h >> 33)) * P2 & M64
    h = (h ^ (h >> 29)) * P3 & M64
    return h ^ (h >> 32)


def check32(data):
    return xxh64(data) & 0xFFFFFFFF


# ---- primitives -----------------------------------------------------------------------
class Reader:
    """Reads the conventions' primitives from bytes; `what` names them in errors."""

    def __init__(self, data, what):
        self.d, self.p, self.what = data, 0, what

    def left(self):
        return len(self.d) - self.p

    def take(self, n):
        need(n <= self.left(), f"{self.what}: ends inside a field ({n} bytes wanted, {self.left()} left)")
        b = self.d[self.p:self.p + n]
        self.p += n
        return b

    def u(self, n):
        return int.from_bytes(self.take(n), "little")

    def i64(self):
        return int.from_bytes(self.take(8), "little", signed=True)

    def varint(self):
        value = shift = 0
        for k in range(10):
            need(self.p < len(self.d), f"{self.what}: ends inside a varint")
            b = self.d[self.p]
            self.p += 1
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                need(k == 0 or b != 0, f"{self.what}: varint not in its shortest form")
                need(value <= M64, f"{self.what}: varint over 64 bits")
                return value
            shift += 7
        raise Malformed(f"{self.what}: varint longer than 10 bytes")

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def string(self, limit, field):
        n = self.varint()
        need(n <= limit, f"{self.what}: {field} is {n} bytes, over {limit}")
        try:
            return self.take(n).decode("utf-8")
        except UnicodeDecodeError:
            raise Malformed(f"{self.what}: {field} is not UTF-8")


def metadata(data, pos, what):
    """The metadata frame at pos: (tag, body, end). Checks the prefix and checksum."""
    need(pos + 12 <= len(data), f"{what} at {pos}: file ends inside the frame prefix", Damage)
    magic, size = struct.unpack_from("<II", data, pos)
    need(magic == MAGIC, f"{what} at {pos}: magic {magic:#010x} is not {MAGIC:#010x}", Damage)
    need(8 <= size <= 32 * MiB, f"{what} at {pos}: payloadSize {size} out of bounds", Damage)
    end = pos + 8 + size
    need(end <= len(data), f"{what} at {pos}: file ends inside the frame ({size} byte payload)", Damage)
    payload = data[pos + 8:end - 4]
    stored = int.from_bytes(data[end - 4:end], "little")
    if check32(payload) != stored:
        raise Damage(f"{what} at {pos}: checksum mismatch")
    return int.from_bytes(payload[:4], "little"), payload[4:], end


# ---- the navigation domain: catalog, events, states -------------------------------------
def text(value, may_be_empty=False):
    """A string, non-empty unless allowed, without control characters (JSONNames)."""
    return isinstance(value, str) and (may_be_empty or value != "") and all(unicodedata.category(c) != "Cc" for c in value)


ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def slug(name):
    """JSONNames: ASCII letters (lowered) and digits kept, other runs become one "-".
    Only A-Z are lowered: U+212A KELVIN SIGN, whose lowercase is "k", counts as other."""
    return re.sub(r"[^a-z0-9]+", "-", name.translate(ASCII_LOWER)).strip("-")


# JSONNames, "Settings": the devices Rewind knows, (name, idiom, portrait width,
# landscape width); the generic device for any other.
PROFILES = [("iPhone SE", "phone", 375, 667), ("iPhone 15 Pro Max", "phone", 430, 932),
            ("iPhone 15 Plus", "phone", 430, 932), ("iPhone 15 Pro", "phone", 393, 852),
            ("iPhone 15", "phone", 393, 852), ("iPhone 16 Pro Max", "phone", 440, 956),
            ("iPhone 16 Plus", "phone", 430, 932), ("iPhone 16 Pro", "phone", 402, 874),
            ("iPhone 16", "phone", 393, 852), ("iPhone", "phone", 390, 844),
            ("iPad mini", "pad", 744, 1133), ("iPad Air 11-inch", "pad", 820, 1180),
            ("iPad Air 13-inch", "pad", 1024, 1366), ("iPad Pro 11-inch", "pad", 834, 1210),
            ("iPad Pro 13-inch", "pad", 1032, 1376), ("iPad", "pad", 820, 1180)]
GENERIC = ("generic", "pad", 375, 375)


def profile(device):
    """The longest known name that starts the device text, as a whole word."""
    matches = [p for p in PROFILES if device.startswith(p[0]) and not device[len(p[0]):][:1].isalnum()]
    return max(matches, key=lambda p: len(p[0]), default=GENERIC)


class Catalog:
    def __init__(self, blob, schema, device):
        """The settings are UTF-8 JSON (JSONNames), not a binary encoding. Schema 1's are
        upcast from the device (JSONNames, "Schema versions")."""
        need(len(blob) <= MiB, "settings: over 1 MiB")
        try:
            s = json.loads(blob.decode("utf-8"))
            cat = s["catalog"]
            self.layout = cat.get("layout", "threeColumn")
            self.labels = list(cat["menuLabels"])
            self.widths = [float(w) for w in cat.get("menuLabelWidths", [11 * len(l) + 40 for l in self.labels])]
            self.size_class = s.get("sizeClass", "regular")
            if schema == 1:
                _, self.idiom, portrait, landscape = profile(device)
                self.orientation = "portrait" if self.idiom == "phone" else "landscape"
                self.viewport = float(portrait if self.orientation == "portrait" else landscape)
                self.taps_scroll = False
            else:
                self.idiom = s.get("idiom", "pad")
                self.orientation = s.get("orientation", "landscape")
                menu = s.get("menu", {})
                self.viewport = float(menu.get("viewportWidth", 375))
                self.taps_scroll = menu.get("scrollsTappedTabIntoView", True)
            self.ids, self.parent, self.has_children = [], [], []
            self.categories = self.visit(cat["categories"], "", None, 1)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise Malformed(f"header settings: not the navigation settings JSON ({e!r})")
        need(self.layout in ("twoColumn", "threeColumn"), f"settings: layout {self.layout!r}")
        need(self.size_class in ("regular", "compact"), f"settings: sizeClass {self.size_class!r}")
        need(self.idiom in ("phone", "pad"), f"settings: idiom {self.idiom!r}")
        need(self.orientation in ("landscape", "portrait"), f"settings: orientation {self.orientation!r}")
        need(0 < self.viewport <= 1_000_000, f"settings: menu.viewportWidth {self.viewport}")
        need(isinstance(self.taps_scroll, bool), "settings: menu.scrollsTappedTabIntoView")
        need(len(self.widths) == len(self.labels) and all(0 < w <= 10_000 for w in self.widths),
             "settings: a label width above 0 and at most 10,000 for each label")
        self.content = sum(self.widths)
        need(1 <= len(self.labels) <= 64 and all(map(text, self.labels)), "settings: 1 to 64 menu labels")
        need(1 <= len(self.ids) <= 4096, "settings: 1 to 4,096 nodes")
        need(len(set(self.ids)) == len(self.ids), "settings: two nodes share an id")

    def visit(self, nodes, prefix, parent, depth):
        """Numbers the nodes depth-first in pre-order; returns them as exports print them."""
        need(depth <= 8, "settings: catalog nested over 8 levels")
        out = []
        for n in nodes:
            need(text(n["name"]) and len(n["name"].encode()) <= 128 and slug(n["name"]) and text(n.get("image", ""), True),
                 f"settings: node name {n['name']!r}: empty, over 128 bytes, no letter or digit, or a control character")
            nid, index = prefix + slug(n["name"]), len(self.ids)
            self.ids.append(nid)
            self.parent.append(parent)
            kids = n.get("children") or []
            self.has_children.append(bool(kids))
            node = {"name": n["name"], "image": n.get("image", "")}
            if kids:
                node["children"] = self.visit(kids, nid + "/", index, depth + 1)
            out.append(node)
        return out

    def json(self):
        """The settings as schema 2 writes them, every default written out."""
        return {"catalog": {"layout": self.layout, "menuLabels": self.labels, "menuLabelWidths": self.widths,
                            "categories": self.categories},
                "idiom": self.idiom, "sizeClass": self.size_class, "orientation": self.orientation,
                "menu": {"viewportWidth": self.viewport, "scrollsTappedTabIntoView": self.taps_scroll}}


ENUMS = {9: ("columnVisibilityChanged", "visibility", ["automatic", "all", "doubleColumn", "detailOnly"]),
         10: ("splitStyleChanged", "style", ["automatic", "balanced", "prominentDetail"]),
         11: ("sizeClassChanged", "sizeClass", ["regular", "compact"]),
         14: ("orientationChanged", "orientation", ["landscape", "portrait"])}
SCHEMA2_TAGS = (14, 15, 16)
REFS = {4: "categorySelected", 6: "itemSelected", 7: "itemExpanded", 8: "itemCollapsed"}
SIXTHS_LIMIT = 1 << 53


def number(x):
    """A double as rewind prints it. Not in the docs (JSONNames says only "the shortest
    form that reads back"): Python's repr, except that magnitudes over 2^53 take the
    exponent form (rewind 9.5e+15, repr 9500000000000000.0)."""
    text = repr(x)
    if abs(x) > 2.0 ** 53 and "e" not in text:
        sign, whole = ("-", text[1:-2]) if x < 0 else ("", text[:-2])
        digits = whole.rstrip("0")
        text = f"{sign}{digits[0]}{'.' + digits[1:] if len(digits) > 1 else ''}e+{len(whole) - 1:02d}"
    return text


def offset_json(x):
    return "NaN" if x != x else "Infinity" if x == float("inf") else "-Infinity" if x == float("-inf") else x


class EventCodec:
    """Decodes events; `m` is the run's last offset in sixths (None at a run's start)."""

    def __init__(self, catalog, schema):
        self.cat, self.m, self.unknown, self.schema = catalog, None, set(), schema

    def ref(self, r):
        v = r.varint()
        if v >= 1:
            need(v - 1 < len(self.cat.ids), f"{r.what}: ref to node {v - 1}, the catalog has {len(self.cat.ids)}")
            return self.cat.ids[v - 1]
        ident = r.string(1024, "unknown id")
        self.unknown.add(ident)
        need(len(self.unknown) <= 65536, f"{r.what}: over 65,536 distinct unknown ids")
        return ident

    def sixths(self, n, r):
        need(0 <= n < SIXTHS_LIMIT, f"{r.what}: scroll offset of {n} sixths out of range")
        self.m = n
        return {"event": "menuScrolled", "offset": n / 6.0}

    def decode(self, r):
        tag = r.u(1)
        need(tag not in SCHEMA2_TAGS or self.schema >= 2, f"{r.what}: tag {tag:#04x} of schema 2 in a journal of schema 1")
        if tag == 15:
            n = r.varint()
            need(n < SIXTHS_LIMIT, f"{r.what}: viewport width of {n} sixths out of range")
            return {"event": "menuViewportResized", "width": n / 6.0}
        if tag == 16:
            return {"event": "menuViewportResized", "width": offset_json(struct.unpack("<d", r.take(8))[0])}
        if tag == 0:
            return {"event": "menuTabTapped", "index": r.zigzag()}
        if tag == 1:
            return self.sixths(r.varint(), r)
        if tag == 2:
            self.m = None
            return {"event": "menuScrolled", "offset": offset_json(struct.unpack("<d", r.take(8))[0])}
        if tag == 13:
            need(self.m is not None, f"{r.what}: scroll difference (tag 0D) with no offset before it in the run")
            return self.sixths(self.m + r.zigzag(), r)
        if tag in (3, 5):
            return {"event": "categorySelected" if tag == 3 else "itemSelected", "id": None}
        if tag in REFS:
            return {"event": REFS[tag], "id": self.ref(r)}
        if tag in ENUMS:
            name, key, values = ENUMS[tag]
            b = r.u(1)
            need(b < len(values), f"{r.what}: {name} value {b} out of range")
            return {"event": name, key: values[b]}
        if tag == 12:
            return {"event": "backTapped"}
        raise Malformed(f"{r.what}: unknown event tag {tag:#04x}")


def decode_state(cat, state, what, schema):
    r = Reader(state, what)
    flags = r.u(1)
    vis, style, compact, column, raw = flags & 3, flags >> 2 & 3, flags >> 4 & 1, flags >> 5 & 3, flags >> 7
    need(style != 3 and column != 3, f"{what}: bad flags {flags:#04x}")
    need(column != 1 or cat.layout == "threeColumn", f"{what}: content column in a two-column layout")
    index = r.varint()
    need(index < len(cat.labels), f"{what}: selectedIndex {index} out of range")
    if raw:
        offset = struct.unpack("<d", r.take(8))[0]
        need(math.isfinite(offset) and offset >= 0 and math.copysign(1, offset) > 0, f"{what}: bad raw offset")
    else:
        n = r.varint()
        need(n < SIXTHS_LIMIT, f"{what}: scroll offset out of range")
        offset = n / 6.0
    cat_ref, item_ref = r.varint(), r.varint()
    need(cat_ref <= len(cat.ids) and (cat_ref == 0 or cat.parent[cat_ref - 1] is None),
         f"{what}: selectedCategory {cat_ref} is not a category")
    if item_ref:
        need(cat_ref and item_ref <= len(cat.ids), f"{what}: selectedItem {item_ref} out of place")
        p = cat.parent[item_ref - 1]
        while p is not None and p != cat_ref - 1:
            p = cat.parent[p]
        need(p == cat_ref - 1, f"{what}: selectedItem is not below the selected category")
    count, expanded, prev = r.varint(), [], -1
    need(count <= len(cat.ids), f"{what}: {count} expanded nodes")
    for k in range(count):
        prev = r.varint() if k == 0 else prev + 1 + r.varint()
        need(prev < len(cat.ids) and cat.has_children[prev], f"{what}: expanded node {prev} has no children")
        expanded.append(cat.ids[prev])
    orientation, viewport = cat.orientation, cat.viewport
    if schema >= 2:
        flags2 = r.u(1)
        need(flags2 & ~3 == 0, f"{what}: bad flags 2 {flags2:#04x}")
        orientation = ["landscape", "portrait"][flags2 & 1]
        if flags2 & 2:
            viewport = struct.unpack("<d", r.take(8))[0]
        else:
            n = r.varint()
            need(n < SIXTHS_LIMIT, f"{what}: viewport width out of range")
            viewport = n / 6.0
        need(0 < viewport <= 1_000_000, f"{what}: viewport width {viewport}")
    need(r.left() == 0, f"{what}: {r.left()} bytes after the state")
    limit = max(cat.content - viewport, 0.0)
    if offset > limit:
        need(schema == 1, f"{what}: scroll offset {offset} beyond the strip's {limit}")
        offset = limit  # schema 1 allowed any offset: read as the end of the strip
    vis_s = ["automatic", "all", "doubleColumn", "detailOnly"][vis]
    col_s = ["sidebar", "content", "detail"][column]
    cols = ["sidebar", "content", "detail"] if cat.layout == "threeColumn" else ["sidebar", "detail"]
    style_s = ["automatic", "balanced", "prominentDetail"][style]
    portrait_pad = cat.idiom == "pad" and orientation == "portrait"
    visible = ([col_s] if compact else ["detail"] if vis_s == "detailOnly" else cols if vis_s == "all"
               else ["detail"] if vis_s == "automatic" and portrait_pad and style_s != "balanced"
               else cols[-2:])
    overlay = len(visible) > 1 and (style_s == "prominentDetail" or style_s == "automatic" and portrait_pad)
    return {"menu": {"labels": cat.labels, "selectedIndex": index, "scrollOffset": offset,
                     "viewportWidth": viewport},
            "split": {"layout": cat.layout, "selectedCategory": cat.ids[cat_ref - 1] if cat_ref else None,
                      "selectedItem": cat.ids[item_ref - 1] if item_ref else None,
                      "expanded": sorted(expanded), "columnVisibility": vis_s, "style": style_s,
                      "sizeClass": ["regular", "compact"][compact], "orientation": orientation,
                      "compactColumn": col_s, "visibleColumns": visible, "overlay": overlay}}


# ---- the journal ---------------------------------------------------------------------
def parse_header(data, path):
    """The header, and where the frames may begin. A damaged header is read from a copy
    (FORMAT.md, "Copies of the header")."""
    magic_ok = data[:4] == MAGIC.to_bytes(4, "little")
    need(magic_ok or data[8:12] == b"RWJH", "not a journal: the file does not start with 5B 2A 4D 18")
    try:
        need(magic_ok, "journal header: the magic is damaged", Damage)
        need(int.from_bytes(data[4:8], "little") <= HEADER_LIMIT, "journal header: size out of bounds", Damage)
        tag, body, end = metadata(data, 0, "journal header")
    except Damage as e:
        body, at, end = find_copy(data)
        need(body is not None, f"{e}; no intact copy of the header")
        warn(path, f"the journal header is damaged ({e}); read from its copy at byte {at}")
        return parse_header_body(body), end
    need(tag == TAG_HEADER, "not a journal: the first metadata frame is not a header (RWJH)")
    return parse_header_body(body), end


def find_copy(data):
    """(body, offset, where the frames begin) of the first intact copy of the header, or
    Nones: after the header as its prefix says, then any RWHC frame where one can be, then
    the index's copy."""
    def copy_at(pos):
        try:
            tag, body, end = metadata(data, pos, "header copy")
            return (body, pos, end) if tag == TAG_COPY else None
        except Malformed:
            return None
    size = int.from_bytes(data[4:8], "little")
    found = size <= HEADER_LIMIT and copy_at(8 + size)
    pos = 0
    while not found and (pos := data.find(MAGIC.to_bytes(4, "little"), pos + 1, HEADER_LIMIT + 40)) >= 0:
        found = data[pos + 8:pos + 12] == b"RWHC" and copy_at(pos)
    if found:
        return found
    index = read_index(data, 0)
    if isinstance(index, str) or index[3] is None:
        return None, None, None
    ipos = index[2]
    first = resync(data, 0)
    return index[3], ipos, min(first, ipos) if first is not None else ipos


def parse_header_body(body):
    r = Reader(body, "journal header")
    h = {"major": r.u(2), "minor": r.u(2)}
    need(h["major"] in (1, 2), f"format {h['major']}.{h['minor']}: a newer Rewind is needed")
    h["schema"], h["interval"], h["start"] = r.u(4), r.u(4), r.i64()
    need(1 <= h["interval"] <= 1 << 30, f"journal header: snapshotInterval {h['interval']}")
    sid = r.take(16).hex()
    h["session"] = f"{sid[:8]}-{sid[8:12]}-{sid[12:16]}-{sid[16:20]}-{sid[20:]}"
    h["domain"] = r.string(255, "domain")
    need(h["domain"] == "navigation", f"domain {h['domain']!r}: only navigation is known")
    need(h["schema"] <= 2, f"navigation schema {h['schema']}: newer than schema 2, the newest this reader knows")
    need(h["schema"] >= 1, f"navigation schema {h['schema']}: schemas 1 and 2 are known")
    h["device"] = r.string(4096, "device")
    n = r.varint()
    need(n <= 8 * MiB, f"journal header: settings of {n} bytes")
    h["catalog"] = Catalog(r.take(n), h["schema"], h["device"])
    h["parent"] = None
    if (h["major"], h["minor"]) >= (1, 2):  # 1.2: the parent session, behind a flag byte
        flag = r.u(1)
        need(flag in (0, 1), f"journal header: parent flag {flag}")
        if flag == 1:
            pid = r.take(16).hex()
            seq = r.u(8)
            need(seq < 1 << 63, f"journal header: parent event {seq}")
            path = r.string(4096, "parent path")
            need(len(path) > 0, "journal header: empty parent path")
            h["parent"] = {"session": f"{pid[:8]}-{pid[8:12]}-{pid[12:16]}-{pid[16:20]}-{pid[20:]}",
                           "sequence": seq, "path": path}
    return h  # later minor versions' fields (r.left() bytes) are skipped


def parse_frame_header(body, pos):
    r = Reader(body, f"frame header at {pos}")
    f = dict(zip(("number", "first", "count", "firstTime", "lastTime", "raw", "csize", "csum", "nsnap"),
                 (r.u(4), r.u(8), r.u(4), r.u(8), r.u(8), r.u(4), r.u(4), r.u(4), r.u(4))))
    need(f["first"] >= 1 and f["count"] >= 1 and f["lastTime"] >= f["firstTime"], f"{r.what}: bad counts or times")
    need(2 * f["count"] <= f["raw"] <= 8 * MiB and f["csize"] <= 9 * MiB, f"{r.what}: sizes out of bounds")
    f["snaps"], last = [], f["first"] - 2
    for _ in range(f["nsnap"]):
        s = dict(zip(("seq", "offset", "time", "hash"), (r.u(8), r.u(4), r.u(8), r.u(8))))
        n = r.varint()
        need(n <= 4 * MiB, f"{r.what}: state of {n} bytes")
        s["state"] = r.take(n)
        need(last < s["seq"] < f["first"] + f["count"] - 1 and s["seq"] >= f["first"] - 1,
             f"{r.what}: snapshot after event {s['seq']} out of place")
        need((s["offset"] == 0) == (s["seq"] == f["first"] - 1), f"{r.what}: snapshot recordOffset {s['offset']}")
        last = s["seq"]
        f["snaps"].append(s)
    f["pos"] = pos
    return f


INDEX_FIELDS = ("pos", "hsize", "csize", "first", "count", "firstTime", "lastTime", "nsnap")


def read_index(data, start):
    """(entries, lost ranges, index offset, header copy or None) from the trailer and
    index, or the reason they are unusable."""
    if len(data) < start + 36:
        return "no trailer"
    pos = len(data) - 36
    try:
        tag, body, _ = metadata(data, pos, "trailer")
        need(tag == TAG_TRAILER and len(body) == 20, "trailer: wrong tag or size")
        ipos, isize, total = struct.unpack("<QIQ", body)
        need(start <= ipos and ipos + isize == pos, "trailer: the index does not end where the trailer starts")
        tag, body, end = metadata(data, ipos, "index")
        need(tag == TAG_INDEX and end == pos, "index: wrong tag or size")
        r = Reader(body, "index")
        entries = [dict(zip(INDEX_FIELDS, struct.unpack("<QIIQIQQI", r.take(48)))) for _ in range(r.u(4))]
        lost = [struct.unpack("<QQ", r.take(16)) for _ in range(r.u(4))]
        copy = None
        if r.left() >= 4:  # 1.1: the header's copy
            n = r.u(4)
            need(n >= 1, "index: empty header copy")
            copy = r.take(n)
        need(sum(e["count"] for e in entries) == total, "index: recordCount differs from the trailer's")
        prev_end, prev_seq = start, 0
        for e in entries:
            need(e["pos"] >= prev_end and e["pos"] + e["hsize"] + e["csize"] <= ipos, "index: entries out of file order")
            need(e["first"] >= prev_seq, "index: entries out of sequence order")
            prev_end, prev_seq = e["pos"] + e["hsize"] + e["csize"], e["first"] + e["count"]
    except Malformed as e:
        return str(e)
    return entries, lost, ipos, copy


def open_by_index(data, start):
    """Items (see walk) from the trailer and index, or None and the reason it is unusable."""
    index = read_index(data, start)
    if isinstance(index, str):
        return None, index
    entries, lost = index[0], index[1]
    items = [("lost", a, b) for a, b in lost]
    for k, e in enumerate(entries):
        try:
            tag, body, end = metadata(data, e["pos"], f"frame header {k}")
        except Damage as x:
            items.append(("damage", e["pos"], f"{x}; events {e['first']}…{e['first'] + e['count'] - 1} unreadable", e["first"]))
            continue
        need(tag == TAG_FRAME and end - e["pos"] == e["hsize"], f"frame header {k}: not where the index says")
        f = parse_frame_header(body, e["pos"])
        f["hsize"] = e["hsize"]
        need(all(f[x] == e[x] for x in INDEX_FIELDS[2:]), f"frame header {k}: differs from its index entry")
        items.append(("frame", f))
    order = {"frame": lambda i: i[1]["first"], "lost": lambda i: i[1], "damage": lambda i: i[3]}
    return sorted(items, key=lambda i: order[i[0]](i)), None


def walk(data, start):
    """Items in file order by walking metadata frames from the header's end, never
    decompressing: ("frame", header), ("lost", first, last), ("damage", at, why), ("torn", at, why)."""
    items, pos = [], start
    while pos < len(data):
        try:
            magic = int.from_bytes(data[pos:pos + 4], "little")
            if SKIP_LO <= magic <= SKIP_HI and magic != MAGIC and pos + 8 <= len(data):
                end = pos + 8 + int.from_bytes(data[pos + 4:pos + 8], "little")
                need(end <= len(data), f"skippable frame at {pos} runs past the end", Damage)
                pos = end
                continue
            tag, body, end = metadata(data, pos, "metadata frame")
            if tag == TAG_FRAME:
                f = parse_frame_header(body, pos)  # invalid contents under a valid checksum: malformed
                need(end + f["csize"] <= len(data), f"the data frame of events {f['first']}… is cut short", Damage)
                f["hsize"] = end - pos
                items.append(("frame", f))
                end += f["csize"]
            elif tag == TAG_LOST:
                need(len(body) >= 16, f"lost range at {pos}: too short")
                items.append(("lost", *struct.unpack_from("<QQ", body)))
            pos = end  # the index, the trailer and unknown tags are stepped over
        except Damage as e:
            nxt = resync(data, pos + 1)
            if nxt is None:
                items.append(("torn", pos, f"{len(data) - pos} bytes at the end are not a whole frame ({e})"))
                break
            items.append(("damage", pos, f"{e}; resuming at byte {nxt}"))
            pos = nxt
    return items


def resync(data, pos):
    """The next offset holding a frame header whose checksum verifies."""
    needle = MAGIC.to_bytes(4, "little")
    while (pos := data.find(needle, pos)) >= 0:
        try:
            tag, body, end = metadata(data, pos, "frame header")
            if tag == TAG_FRAME:
                parse_frame_header(body, pos)
                return pos
        except Malformed:
            pass
        pos += 1
    return None


def zstd_frame_size(frame, what):
    """Checks the zstd frame header: checksum on, window <= 2^23; the content size or None."""
    need(len(frame) >= 6 and int.from_bytes(frame[:4], "little") == ZSTD_MAGIC, f"{what}: not a zstd frame")
    fhd, p = frame[4], 5
    single, fcs_flag, did = fhd >> 5 & 1, fhd >> 6, fhd & 3
    need(fhd & 4, f"{what}: content checksum off")
    window = None
    if not single:
        wd = frame[p]
        p += 1
        base = 1 << (10 + (wd >> 3))
        window = base + (base >> 3) * (wd & 7)
    p += (0, 1, 2, 4)[did]
    nbytes = (1 if single else 0, 2, 4, 8)[fcs_flag]
    if nbytes == 0:  # the content size left out: allowed (FORMAT.md)
        need(window <= 1 << 23, f"{what}: zstd window over 2^23 bytes")
        return None
    need(len(frame) >= p + nbytes, f"{what}: zstd frame header cut short")
    size = int.from_bytes(frame[p:p + nbytes], "little") + (256 if nbytes == 2 else 0)
    need((window or size) <= 1 << 23, f"{what}: zstd window over 2^23 bytes")
    return size


def records(data, f, what, columns):
    """The frame's records: (sequence, time, offset in the records as rows, payload). Format 1
    holds them as rows (each header, then its payload); format 2 as columns (the headers'
    size, every header, then every payload)."""
    start = f["pos"] + f["hsize"]
    comp = data[start:start + f["csize"]]
    if check32(comp) != f["csum"]:
        raise Damage(f"{what}: compressedChecksum mismatch")
    need(zstd_frame_size(comp, what) in (None, f["raw"]), f"{what}: zstd frame declares a size other than rawSize")
    z = subprocess.run(["zstd", "-q", "-dc", "--memory=8MB"], input=comp, capture_output=True)
    need(z.returncode == 0, f"{what}: zstd: {z.stderr.decode(errors='replace').strip()}")
    need(len(z.stdout) == f["raw"], f"{what}: decompressed to {len(z.stdout)} bytes, not rawSize {f['raw']}")
    r, time = Reader(z.stdout, f"{what} records"), f["firstTime"]
    if columns:
        size = r.varint()
        need(size <= r.left(), f"{what}: headers of {size} bytes, past the data's end")
        headers_end = r.p + size
    headers = []
    for i in range(f["count"]):
        at, delta = r.p, r.varint()
        need(i > 0 or delta == 0, f"{what}: first record's time delta is {delta}, not 0")
        time += delta
        n = r.varint()
        need(n <= MiB, f"{what}: payload of {n} bytes")
        headers.append((time, r.p - at, n, None if columns else r.take(n)))
    if columns:
        need(r.p == headers_end, f"{what}: the headers end at {r.p}, not {headers_end}")
    out, row = [], 0
    for i, (t, size, n, payload) in enumerate(headers):
        out.append((f["first"] + i, t, row, r.take(n) if columns else payload))
        row += size + n
    need(r.left() == 0, f"{what}: {r.left()} bytes after the last record")
    need(time == f["lastTime"], f"{what}: records end at {time}, not lastTime {f['lastTime']}")
    return out


def read(path, force_walk=False, states=False):
    with open(path, "rb") as fh:
        data = fh.read()
    h, start = parse_header(data, path)
    cat = h["catalog"]
    items, why = (None, "--walk") if force_walk else open_by_index(data, start)
    if items is None:
        if why != "--walk" and data[-28:-24] == b"RWTR":
            warn(path, f"index unusable ({why}); walking the frames")
        items = walk(data, start)
    stamp = iso8601(h["start"])
    # A journal of schema 1 is exported upcast to schema 2 (JSONNames, "Schema versions").
    emit({"header": {"domain": "navigation", "schemaVersion": 2, "session": h["session"],
                     "start": stamp, "device": h["device"], "snapshotInterval": h["interval"],
                     "settings": cat.json()}}, states)
    codec, status = EventCodec(cat, h["schema"]), 0
    next_seq, next_number, last = 1, 0, (0, 0)  # last: (sequence, time) of the last event read
    damaged = False  # after damage, sequence numbers and frame numbers may jump
    for item in items:
        if item[0] == "torn":  # what a killed writer leaves: report, keep what came before
            warn(path, f"torn tail at byte {item[1]}: {item[2]}")
            continue
        if item[0] == "damage":
            warn(path, f"damage at byte {item[1]}: {item[2]}")
            damaged, status, codec.m = True, 1, None
            continue
        if item[0] == "lost":
            a, b = item[1:]
            need(1 <= a <= b and (a == next_seq or damaged and a > next_seq), f"lost range {a}…{b} out of place")
            warn(path, f"events {a}…{b} were lost (dropped by salvage)")
            next_seq, damaged, codec.m = b + 1, False, None
            continue
        f = item[1]
        what = f"frame {f['number']} (events {f['first']}…{f['first'] + f['count'] - 1})"
        if damaged:
            need(f["first"] >= next_seq and f["number"] >= next_number, f"{what}: out of order after damage")
            if f["first"] > next_seq:
                warn(path, f"events {next_seq}…{f['first'] - 1} are unreadable")
            next_seq, next_number, damaged = f["first"], f["number"], False
        need(f["number"] == next_number, f"{what}: frameNumber {f['number']}, expected {next_number}")
        need(f["first"] == next_seq, f"{what}: starts at event {f['first']}, expected {next_seq}")
        need(f["firstTime"] >= last[1], f"{what}: firstTime goes back")
        next_seq, next_number = f["first"] + f["count"], f["number"] + 1
        try:
            recs = records(data, f, what, h["major"] >= 2)
        except Damage as e:
            warn(path, f"damage: {e}; events {f['first']}…{next_seq - 1} unreadable")
            status, codec.m = 1, None
            continue
        snaps = {s["seq"] + 1: s for s in f["snaps"]}
        for seq, time, at, payload in recs:
            if seq == 1 or seq in snaps:
                codec.m = None  # a run starts at the first record and after every snapshot
            if seq in snaps:
                s, sw = snaps[seq], f"{what}: snapshot after {seq - 1}"
                need(s["offset"] == at, f"{sw}: recordOffset {s['offset']}, but the record is at {at}")
                need(s["time"] == last[1] if last[0] == seq - 1 else s["time"] <= f["firstTime"], f"{sw}: time {s['time']}")
                need(xxh64(s["state"]) == s["hash"], f"{sw}: stateHash is not the XXH64 of the state")
                st = decode_state(cat, s["state"], sw, h["schema"])
                if states:
                    emit({"snapshot": seq - 1, "state": st}, False)
            r = Reader(payload, f"event {seq}")
            effect = r.varint()
            fields = 13 if h["schema"] == 1 else 15
            need(effect & 3 != 3 and effect >> 2 < 1 << fields, f"event {seq}: bad effect {effect}")
            event = codec.decode(r)
            need(r.left() == 0, f"event {seq}: {r.left()} bytes after the event")
            if not states:
                emit({"seq": seq, "time_us": time, **event}, False)
            last = (seq, time)
    return status


def iso8601(us):
    """UTC time of microseconds since the epoch, proleptic Gregorian for any i64 (years
    past 9999 and before 1 too); fraction as rewind prints it: none, 3 or 6 digits."""
    days, us = divmod(us, 86_400_000_000)
    z = days + 719468  # civil_from_days, H. Hinnant
    era, doe = divmod(z, 146097)
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d, m = doy - (153 * mp + 2) // 5 + 1, mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (m <= 2)
    secs, frac = divmod(us, 1_000_000)
    fraction = "" if frac == 0 else f".{frac // 1000:03d}" if frac % 1000 == 0 else f".{frac:06d}"
    year = f"{y:04d}" if y >= 0 else f"-{-y:04d}"
    return f"{year}-{m:02d}-{d:02d}T{secs // 3600:02d}:{secs // 60 % 60:02d}:{secs % 60:02d}{fraction}Z"


def warn(path, message):
    sys.stdout.flush()
    print(f"read_journal: {path}: {message}", file=sys.stderr)


def emit(obj, quiet):
    """One JSON line; top-level doubles (event offsets) are formatted by number()."""
    if not quiet:
        line = ",".join(json.dumps(k) + ":" + (number(v) if isinstance(v, float) else
                                               json.dumps(v, ensure_ascii=False, separators=(",", ":")))
                        for k, v in obj.items())
        sys.stdout.write("{" + line + "}\n")


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1 or any(a not in ("--walk", "--states") for a in argv if a.startswith("--")):
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 64
    try:
        return read(args[0], "--walk" in argv, "--states" in argv)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # output cut short (`| head`)
        return 0
    except (Malformed, OSError) as e:
        sys.stdout.flush()
        print(f"read_journal: {args[0]}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
