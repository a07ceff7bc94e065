// session.js: the session a page carries, read from its data (see the RewindPage docs,
// "The page's data"): the events, the state at any point rebuilt from the keyframe before
// it and the changes since, the changes of one event, the diff of two points, find.
(() => {
  const { parse: parseJSON, JSONNumber, copy, setAt, valueAt, equal } = RewindPage.json;
  const { holds, shown } = RewindPage.condition;
  const OUTCOMES = ["applied", "unchanged", "rejected"];
  const FORMAT = 3;
  const UTF8 = new TextDecoder("utf-8");

  class Session {
    /**
     * Reads the data's bytes: lines of JSON, then the events' rows. Throws an Error when
     * they are not a page's data.
     */
    constructor(bytes) {
      const firstLine = bytes.indexOf(10);
      const meta = JSON.parse(UTF8.decode(bytes.subarray(0, firstLine < 0 ? bytes.length : firstLine))).page;
      if (!meta || meta.format !== FORMAT) {
        throw new Error(`the page's data has format ${meta && meta.format}, not ${FORMAT}`);
      }
      const rowBytes = meta.rows;
      if (!(Number.isInteger(rowBytes) && rowBytes >= 0 && rowBytes < bytes.length - firstLine)) {
        throw new Error("the page's data does not hold the rows it announces");
      }
      const lines = UTF8.decode(bytes.subarray(0, bytes.length - rowBytes)).split("\n");
      this.meta = meta;
      this.header = JSON.parse(lines[1]).header;
      this.from = meta.from;
      this.to = meta.to;
      this.count = meta.events;
      this.fields = meta.fields;
      this.kinds = meta.kinds;
      this.keyframeInterval = meta.keyframeInterval;
      const reasons = JSON.parse(lines[2]);
      const tables = meta.tables;
      if (!Number.isInteger(this.count) || this.count < 0 || reasons.length !== meta.counts.rejected) {
        throw new Error("the page's data does not hold the events it announces");
      }
      /** The time of each event, microseconds from the session's start. */
      this.times = new Float64Array(this.count);
      /** Each event's kind index × 3 + outcome (0 applied, 1 unchanged, 2 rejected). */
      this.codes = new Uint32Array(this.count);
      /** Each event's body (its JSON object less seq, time_us, outcome, reason): an index into `bodyLines`. */
      this.bodies = new Uint32Array(this.count);
      /** Each event's changes: an index into `changeLines`. */
      this.changeLists = new Uint32Array(this.count);
      // The rows: four unsigned LEB128 varints an event (time's delta, code, body, changes).
      let at = bytes.length - rowBytes;
      const end = bytes.length;
      const next = () => {
        let value = 0;
        let scale = 1;
        let byte;
        do {
          if (at >= end || scale > 2 ** 63) {
            throw new Error("the page's data does not hold the events it announces");
          }
          byte = bytes[at++];
          value += (byte & 0x7f) * scale;
          scale *= 128;
        } while (byte & 0x80);
        return value;
      };
      let time = meta.fromTime;
      for (let index = 0; index < this.count; index++) {
        time += next();
        this.times[index] = time;
        const code = next();
        const body = next();
        const changes = next();
        if (code >= 2 ** 32 || body >= 2 ** 32 || changes >= 2 ** 32) {
          throw new Error("the page's data does not hold the tables and keyframes it announces");
        }
        this.codes[index] = code;
        this.bodies[index] = body;
        this.changeLists[index] = changes;
      }
      if (at !== end) throw new Error("the page's data does not hold the events it announces");
      /** Each rejected event's reason: an index into `reasonLines` (-1 for the other events). */
      this.reasons = new Int32Array(this.count).fill(-1);
      let rejected = 0;
      for (let index = 0; index < this.count; index++) {
        if (this.codes[index] % 3 === 2) this.reasons[index] = reasons[rejected++];
      }
      if (rejected !== reasons.length) {
        throw new Error(`the page's data has ${rejected} rejected events but ${reasons.length} reasons`);
      }
      let line = 3;
      const table = (length) => lines.slice(line, (line += length));
      this.bodyLines = table(tables.bodies);
      this.changeLines = table(tables.changes);
      this.reasonLines = table(tables.reasons);
      this.keyframeLines = table(meta.keyframes);
      if (
        this.keyframeLines.length !== meta.keyframes ||
        this.codes.some((code) => Math.floor(code / 3) >= this.kinds.length) ||
        this.bodies.some((index) => index >= tables.bodies) ||
        this.changeLists.some((index) => index >= tables.changes) ||
        reasons.some((index) => !(index >= 0 && index < tables.reasons))
      ) {
        throw new Error("the page's data does not hold the tables and keyframes it announces");
      }
      /** Each change list read: [[field index, new value], …], by its index. */
      this.parsedChanges = new Array(tables.changes);
      this.cache = null;
    }

    /** The time of the state after event `sequence`: the event's, or the page's start. */
    timeOf(sequence) {
      return sequence === this.from ? this.meta.fromTime : this.times[sequence - this.from - 1];
    }
    get startTime() {
      return this.meta.fromTime;
    }
    get endTime() {
      return this.count === 0 ? this.meta.fromTime : this.times[this.count - 1];
    }
    kindOf(sequence) {
      return this.kinds[Math.floor(this.codes[sequence - this.from - 1] / 3)];
    }
    outcomeOf(sequence) {
      return OUTCOMES[this.codes[sequence - this.from - 1] % 3];
    }

    /** The last event of the page at or before `time` (microseconds from the session's start); the page's start when none. */
    lastAtOrBefore(time) {
      let low = 0;
      let high = this.count;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (this.times[middle] <= time) low = middle + 1;
        else high = middle;
      }
      return this.from + low;
    }

    /**
     * The sequence number a point stands for in this page (Timeline.resolve): `start`
     * and `end` are the page's first and last points; a time, the last event at or before
     * it (`atTime`); `end-N`, N events before its last point. Throws for a sequence number
     * or a time outside the page, or `end-N` before its start.
     */
    resolve(point) {
      switch (point.kind) {
        case "start":
          return this.from;
        case "end":
          return this.to;
        case "beforeEnd":
          if (point.value > this.to - this.from) {
            throw new Error(
              `end-${point.count} is before the start of this page (its points are ${this.from}–${this.to}; end-${this.to - this.from} is its start)`,
            );
          }
          return this.to - point.value;
        case "sequence":
          if (point.value < this.from || point.value > this.to) {
            throw new Error(`event ${point.value} is outside this page (its points are ${this.from}–${this.to})`);
          }
          return point.value;
        case "offset":
          return this.atTime(point.value);
        default:
          return this.atTime(point.value - this.meta.startTime);
      }
    }

    /**
     * The point a time stands for (microseconds from the session's start): the last event
     * at or before it. Throws for a time before the page's first point or at or past the
     * event after its last (`nextTime`), whose point is not in this page (a page of a range
     * made it its first or last point, and showed a state `rewind state` does not).
     */
    atTime(time) {
      const { shownOffset, exactOffset } = RewindPage.point;
      // Times as the page shows them, to the millisecond, or to the microsecond where that
      // tells them apart (a refusal read "+0.002s is after … at +0.002s").
      const said = (...times) => {
        const shown = times.map(shownOffset);
        const apart = new Set(shown).size === shown.length;
        return times.map((microseconds, index) =>
          microseconds < 0 ? "a time before the session's start" : apart ? shown[index] : `+${exactOffset(microseconds)}`,
        );
      };
      if (this.from > 0 && time < this.meta.fromTime) {
        const [asked, first] = said(time, this.meta.fromTime);
        throw new Error(`${asked} is before this page (its first point, event ${this.from}, is at ${first})`);
      }
      const next = this.meta.nextTime;
      if (this.to < this.meta.lastSequence && (typeof next === "number" ? time >= next : time > this.endTime)) {
        if (typeof next !== "number") {
          const [asked, last] = said(time, this.endTime);
          throw new Error(`${asked} is after this page (its last point is event ${this.to}, at ${last})`);
        }
        const [asked, last, after] = said(time, this.endTime, next);
        // Its last event and the next at one time: a time names the later (as `rewind
        // state --at` reads it), and the page's point only its number does.
        const same = this.endTime === next ? `; a time there names event ${this.to + 1}: name this page's last point by its number, ${this.to}` : "";
        throw new Error(
          `${asked} is after this page (its last point is event ${this.to}, at ${last}; event ${this.to + 1}, not in it, is at ${after}${same})`,
        );
      }
      return this.lastAtOrBefore(time);
    }

    /** Event `sequence` as its JSON Lines object, as `rewind log --json` prints it (a Map: seq, time_us, event, payload, outcome, reason). */
    event(sequence) {
      const index = sequence - this.from - 1;
      const event = new Map([
        ["seq", new JSONNumber(String(sequence))],
        ["time_us", new JSONNumber(String(this.times[index]))],
      ]);
      for (const [key, value] of parseJSON(this.bodyLines[this.bodies[index]])) event.set(key, value);
      const outcome = this.codes[index] % 3;
      event.set("outcome", OUTCOMES[outcome]);
      if (outcome === 2) event.set("reason", parseJSON(this.reasonLines[this.reasons[index]]));
      return event;
    }

    /**
     * The fields event `sequence` changed: [[field index, new value], …]. Each distinct
     * list is read once and shared: read it, do not change it.
     */
    changedFields(sequence) {
      const list = this.changeLists[sequence - this.from - 1];
      let pairs = this.parsedChanges[list];
      if (pairs === undefined) {
        const flat = parseJSON(this.changeLines[list]);
        pairs = [];
        for (let index = 0; index < flat.length; index += 2) pairs.push([Number(flat[index].text), flat[index + 1]]);
        this.parsedChanges[list] = Object.freeze(pairs);
      }
      return pairs;
    }

    /**
     * The state after event `sequence` (a JSON tree): the keyframe before it and the
     * changes since, or the state last asked for and the changes since when that is
     * nearer. The tree is the page's own: read it, do not change it.
     */
    state(sequence) {
      const index = sequence - this.from;
      const keyframe = Math.floor(index / this.keyframeInterval);
      let state;
      let at;
      if (this.cache && this.cache.index <= index && this.cache.index >= keyframe * this.keyframeInterval) {
        ({ state, index: at } = this.cache);
      } else {
        state = parseJSON(this.keyframeLines[keyframe]);
        at = keyframe * this.keyframeInterval;
      }
      while (at < index) {
        at++;
        for (const [field, value] of this.changedFields(this.from + at)) setAt(state, this.fields[field].path, copy(value));
      }
      this.cache = { index, state };
      return state;
    }

    /** The value of every field after event `sequence`. */
    fieldValues(sequence) {
      const state = this.state(sequence);
      return this.fields.map((field) => copy(valueAt(state, field.path) ?? null));
    }

    /** What event `sequence` changed: [{path, old, new}], in field order. */
    changes(sequence) {
      if (sequence === this.from) return [];
      const changed = this.changedFields(sequence);
      if (changed.length === 0) return [];
      const before = this.state(sequence - 1);
      const old = changed.map(([field]) => copy(valueAt(before, this.fields[field].path) ?? null));
      return changed.map(([field, value], index) => ({ path: this.fields[field].path, old: old[index], new: copy(value) }));
    }

    /** The fields that differ between the states after events `a` and `b`: [{path, old (a), new (b)}]. */
    diff(a, b) {
      const first = this.fieldValues(a);
      const second = this.fieldValues(b);
      const changes = [];
      this.fields.forEach((field, index) => {
        if (!equal(first[index], second[index])) changes.push({ path: field.path, old: first[index], new: second[index] });
      });
      return changes;
    }

    /**
     * Every point of the page where a compiled condition (RewindPage.condition.check)
     * becomes true (Timeline.find with --all): a condition on the state where it starts
     * to hold (the page's start when it holds there), one on the event after every event
     * where it holds. [{sequence, value}].
     */
    find(compiled) {
      const start = this.state(this.from);
      const slotOf = new Map(compiled.fields.map((field, slot) => [field, slot]));
      const values = compiled.fields.map((field) => copy(valueAt(start, this.fields[field].path) ?? null));
      const none = new Set();
      let holding = !compiled.aboutEvents && holds(compiled, values, none, null);
      const hits = [];
      if (holding) hits.push({ sequence: this.from, value: copy(shown(compiled, values)) });
      for (let index = 0; index < this.count; index++) {
        const sequence = this.from + index + 1;
        let changed = none;
        let touched = false;
        const pairs = this.changedFields(sequence);
        if (pairs.length !== 0) {
          changed = new Set(pairs.map(([field]) => field));
          for (const [field, value] of pairs) {
            const slot = slotOf.get(field);
            if (slot !== undefined) {
              values[slot] = value;
              touched = true;
            }
          }
        }
        if (compiled.aboutEvents) {
          const event = {
            kind: this.kindOf(sequence),
            outcome: this.outcomeOf(sequence),
            reason: () => this.event(sequence).get("reason") ?? null,
          };
          if (holds(compiled, values, changed, event)) hits.push({ sequence, value: copy(shown(compiled, values)) });
        } else if (touched) {
          const holdsNow = holds(compiled, values, changed, null);
          if (holdsNow && !holding) hits.push({ sequence, value: copy(shown(compiled, values)) });
          holding = holdsNow;
        }
      }
      return hits;
    }
  }

  RewindPage.Session = Session;
  RewindPage.OUTCOMES = OUTCOMES;
})();
