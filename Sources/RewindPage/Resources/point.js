// point.js: points in a session as Rewind writes them (RewindCore's Point): `1500` (after
// event 1500), `+12.5s` (an offset from the session's start), an ISO-8601 time, `start`
// `end` or `end-N` (N events before the end); and times written for people.
(() => {
  const SYNTAX =
    "a sequence number (1500), an offset (+12.5s, +250ms, +1h 30m), an ISO-8601 time, start, end or end-N (N events before the end)";
  const UNITS = [
    ["us", 1],
    ["µs", 1],
    ["ms", 1000],
    ["s", 1000000],
    ["m", 60000000],
    ["h", 3600000000],
  ];

  /** The units, the two-letter ones first, as a group's unit is matched at its start. */
  const UNITS_LONGEST_FIRST = [...UNITS].sort((a, b) => b[0].length - a[0].length);

  /** Offsets stop below 18,000,000,000,000,000,000 µs (570,000 years), as Rewind's do. */
  const LIMIT = 18000000000000000000n;

  /**
   * `number` (digits with at most one point, one digit at least) times `scale` as a
   * BigInt, without what is finer than a microsecond, exactly as Rewind reads it (no
   * Double: a time past 2^53 µs read otherwise); null for no such number.
   */
  function exactMicroseconds(number, scale) {
    if (!/^(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/.test(number)) return null;
    const [whole, fraction = ""] = number.split(".");
    const digits = BigInt((whole || "0") + fraction);
    const divisor = 10n ** BigInt(fraction.length);
    const product = digits * BigInt(scale);
    return product / divisor;
  }

  /**
   * Microseconds in an offset of several units, largest first (`4h 44m 37.942s`, `2h30m`:
   * one space between them or none, decimals in the last number only), as a BigInt, or
   * null for any other text (one unit too).
   */
  function compoundOffset(body) {
    let rest = body;
    let total = 0n;
    let previous = Infinity;
    let groups = 0;
    while (rest !== "") {
      const number = /^[0-9.]*/.exec(rest)[0];
      rest = rest.slice(number.length);
      const unit = UNITS_LONGEST_FIRST.find(([suffix]) => rest.startsWith(suffix));
      const value = unit ? exactMicroseconds(number, unit[1]) : null;
      if (value === null || unit[1] >= previous) return null;
      rest = rest.slice(unit[0].length);
      if (rest.startsWith(" ")) {
        rest = rest.slice(1);
        if (rest === "") return null;
      }
      if (number.includes(".") && rest !== "") return null;
      previous = unit[1];
      groups += 1;
      total += value;
    }
    return groups >= 2 ? total : null;
  }

  /** Microseconds in `+12.5s` without its `+`; throws an Error naming what was expected. */
  function offset(body, original) {
    let value = compoundOffset(body);
    for (const [suffix, scale] of UNITS) {
      if (value !== null) break;
      if (body.endsWith(suffix)) value = exactMicroseconds(body.slice(0, body.length - suffix.length), scale);
    }
    if (value === null) {
      throw new Error(
        `'${original}' is not an offset: expected + then a number and a unit (us, ms, s, m, h), e.g. +12.5s, or several, largest first, e.g. +1h 30m`,
      );
    }
    if (value >= LIMIT) {
      throw new Error(
        `'${original}' is too large for an offset: offsets stop below 18,000,000,000,000,000,000us (570,000 years)`,
      );
    }
    return Number(value);
  }

  /** Whether `body` (an offset without its `+`) is one. */
  function isOffset(body) {
    try {
      offset(body, body);
      return true;
    } catch {
      return false;
    }
  }

  /** Microseconds since the epoch of `YYYY-MM-DDTHH:MM:SS[.ffffff](Z|±HH:MM)`, or null. */
  function iso8601(text) {
    const match =
      /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/.exec(
        text,
      );
    if (!match) return null;
    const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
    const daysInMonth = [31, (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth[month - 1] || hour >= 24 || minute >= 60 || second >= 61) {
      return null;
    }
    if (match[9] && (Number(match[10]) >= 24 || Number(match[11]) >= 60)) return null;
    const micros = match[7] ? Number((match[7] + "000000").slice(0, 6)) : 0;
    const offsetMinutes = match[9] ? (match[9] === "-" ? -1 : 1) * (Number(match[10]) * 60 + Number(match[11])) : 0;
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    const days = Math.floor(date.getTime() / 86400000);
    return ((days * 86400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60) * 1000000) + micros;
  }

  /**
   * Parses a point: `{kind: "start"|"end"}`, `{kind: "sequence", value}`, `{kind:
   * "offset", value}` (microseconds), `{kind: "wallClock", value}` (microseconds since
   * the epoch) or `{kind: "beforeEnd", value, count}` (`end-N`, N at least 1, and N as
   * text; `end-0` is the end). A number is a sequence number. Throws an Error saying what was expected.
   */
  function parse(point) {
    if (typeof point === "number") {
      if (!Number.isSafeInteger(point) || point < 0) throw new Error(`${point} is not a sequence number`);
      return { kind: "sequence", value: point };
    }
    const text = String(point);
    const trimmed = text.trim();
    if (trimmed === "start") return { kind: "start" };
    if (trimmed === "end") return { kind: "end" };
    if (/^end-[0-9]+$/.test(trimmed)) {
      const value = BigInt(trimmed.slice(4));
      if (value > 2n ** 64n - 1n) {
        throw new Error(`'${text}' is too large: end-N counts events, at most 18,446,744,073,709,551,615`);
      }
      // The count as written too: past 2^53 a number would not say it exactly.
      return value === 0n ? { kind: "end" } : { kind: "beforeEnd", value: Number(value), count: String(value) };
    }
    if (trimmed.startsWith("+")) return { kind: "offset", value: offset(trimmed.slice(1), text) };
    if (/^[0-9]+$/.test(trimmed)) {
      const value = BigInt(trimmed);
      if (value > 2n ** 64n - 1n) throw new Error(`'${text}' is too large for a sequence number`);
      return { kind: "sequence", value: Number(value) };
    }
    const time = iso8601(trimmed);
    if (time === null) {
      // Say what is wrong with a point that is nearly one (RewindCore's Point).
      if (iso8601(trimmed + "Z") !== null) {
        throw new Error(
          `'${text}' has no time zone: end an ISO-8601 time in Z (UTC) or ±hh:mm, e.g. ${trimmed}Z`,
        );
      }
      const rest = trimmed.slice(1);
      if (trimmed.startsWith("-") && (/^[0-9]+$/.test(rest) || isOffset(rest))) {
        throw new Error(`'${text}' is negative: the earliest point is 0 (or start), before any event; offsets count from +0s, the session's first moment`);
      }
      throw new Error(`'${text}' is not a point: expected ${SYNTAX}`);
    }
    return { kind: "wallClock", value: time };
  }

  /** A number with `places` decimals, rounded half away from zero as Rewind's Format does. */
  function decimal(value, places) {
    const scale = 10 ** places;
    const scaled = Math.round(Math.abs(value) * scale);
    const whole = Math.floor(scaled / scale);
    let text = (value < 0 && scaled > 0 ? "-" : "") + String(whole);
    if (places > 0) text += "." + String(scaled - whole * scale).padStart(places, "0");
    return text;
  }

  /** `+12.345s`: an offset from the session's start, to the millisecond, as `rewind log` writes it. */
  function shownOffset(microseconds) {
    return "+" + decimal(microseconds / 1000000, 3) + "s";
  }

  /**
   * Parses a point as a user means it who writes a time as the page shows times
   * (Point(parsingAsShown:)): an offset written to the millisecond or coarser (`+93.485s`,
   * `+250ms`, `+2m`) stands for every event shown at or before it (`shownOffset`: the
   * event at 93.485203 s is shown `+93.485s`), and is moved to the last microsecond shown
   * so; one written finer (`+93.485203s`, `+93485000us`) is exact, as any other point.
   */
  function parseAsShown(text) {
    const point = parse(text);
    if (point.kind !== "offset" || !isWrittenToMilliseconds(String(text).trim().slice(1))) return point;
    const first = point.value;
    const shown = shownOffset(first);
    // Half a millisecond rounds up, unless the arithmetic left it a hair below a half.
    for (const last of [first + 500, first + 499]) {
      if (Number.isSafeInteger(last + 1) && shownOffset(last) === shown && shownOffset(last + 1) !== shown) {
        return { kind: "offset", value: last };
      }
    }
    return point;
  }

  /** Whether an offset without its `+` (`93.485s`, `2m`) is written to whole milliseconds or coarser (Point.isWrittenToMilliseconds). */
  function isWrittenToMilliseconds(body) {
    const unit = UNITS.find(([suffix]) => body.endsWith(suffix));
    if (!unit) return false;
    const number = body.slice(0, body.length - unit[0].length);
    const point = number.indexOf(".");
    let step = unit[1];
    for (let decimals = point < 0 ? 0 : number.length - point - 1; decimals > 0; decimals--) {
      if (step % 10 !== 0) return false;
      step /= 10;
    }
    return step % 1000 === 0;
  }

  /** `93.485000s`, `250us`: an offset written to the microsecond, which reads back as itself. */
  function exactOffset(microseconds) {
    if (microseconds < 1000000) return `${microseconds}us`;
    const fraction = String(microseconds % 1000000).padStart(6, "0");
    return `${Math.floor(microseconds / 1000000)}.${fraction}s`;
  }

  /** `1h 02m 03.5s`, `2m 05.0s`, `12.5s`: a duration for people. */
  function duration(microseconds) {
    const seconds = microseconds / 1000000;
    if (seconds < 60) return decimal(seconds, 1) + "s";
    const minutes = Math.floor(seconds / 60);
    const rest = seconds - minutes * 60;
    const restText = (rest < 10 ? "0" : "") + decimal(rest, 1) + "s";
    if (minutes < 60) return `${minutes}m ${restText}`;
    return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m ${restText}`;
  }

  /** `1,234,567`. */
  function count(value) {
    return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  RewindPage.point = { SYNTAX, parse, parseAsShown, exactOffset, shownOffset, duration, count, decimal };
})();
