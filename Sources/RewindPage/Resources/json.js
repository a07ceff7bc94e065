// json.js: JSON as Rewind reads and writes it (RewindCore's JSONValue), so that the page
// prints a state exactly as `rewind state --json` does and compares values as `rewind
// find` does.
//
// Values: null, true, false, strings, arrays as themselves; a number is a JSONNumber that
// keeps the text Rewind wrote (`0.0` stays `0.0`, which JavaScript would print `0`); an
// object is a Map, which keeps its keys in order (a plain object would put `"1"` first).
(() => {
  /** A number, kept as its JSON text. */
  class JSONNumber {
    constructor(text) {
      this.text = text;
    }
    /** Whether the text is an integer Rewind reads as one: no fraction or exponent, in Int64. */
    get isInteger() {
      if (!/^-?\d+$/.test(this.text)) return false;
      const value = BigInt(this.text);
      return value >= -(2n ** 63n) && value < 2n ** 63n;
    }
    valueOf() {
      return Number(this.text);
    }
  }

  /** A JSON text that does not parse: what was expected, at which offset (UTF-16 units). */
  class JSONParseError extends Error {
    constructor(message, offset) {
      super(message);
      this.offset = offset;
    }
  }

  const MAXIMUM_DEPTH = 256;

  /** `'x'` for a printable ASCII character, `byte 0x..` for anything else, as Rewind says it. */
  function describe(text, position) {
    if (position >= text.length) return "the end of the text";
    const code = text.codePointAt(position);
    if (code >= 0x20 && code < 0x7f) return `'${text[position]}'`;
    // The first byte of the character in UTF-8, as the Swift parser reads bytes.
    const first =
      code < 0x80 ? code : code < 0x800 ? 0xc0 | (code >> 6) : code < 0x10000 ? 0xe0 | (code >> 12) : 0xf0 | (code >> 18);
    return `byte 0x${first.toString(16)}`;
  }

  /** Parses one JSON value filling `text` (whitespace around it allowed). */
  function parse(text) {
    let position = 0;
    const fail = (message, at = position) => {
      throw new JSONParseError(message, at);
    };
    const skipWhitespace = () => {
      for (;;) {
        const c = text.charCodeAt(position);
        if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) position++;
        else return;
      }
    };
    const isDigit = (c) => c >= 0x30 && c <= 0x39;

    function value(depth) {
      if (depth >= MAXIMUM_DEPTH) fail(`JSON nested deeper than ${MAXIMUM_DEPTH} levels`);
      if (position >= text.length) fail("expected a JSON value, found the end of the text");
      const c = text.charCodeAt(position);
      if (c === 0x7b) return object(depth);
      if (c === 0x5b) return array(depth);
      if (c === 0x22) return string();
      if (c === 0x74) return literal("true", true);
      if (c === 0x66) return literal("false", false);
      if (c === 0x6e) return literal("null", null);
      if (c === 0x2d || isDigit(c)) return number();
      return fail(`expected a JSON value, found ${describe(text, position)}`);
    }

    function literal(word, result) {
      if (text.startsWith(word, position)) {
        position += word.length;
        return result;
      }
      // Swift's parser stops at the first wrong byte; the message names the word.
      return fail(`expected '${word}'`);
    }

    function object(depth) {
      position++;
      const members = new Map();
      skipWhitespace();
      if (text.charCodeAt(position) === 0x7d) {
        position++;
        return members;
      }
      for (;;) {
        skipWhitespace();
        if (text.charCodeAt(position) !== 0x22) {
          fail(`expected a quoted key, found ${describe(text, position)}`);
        }
        const keyStart = position;
        const key = string();
        if (members.has(key)) fail(`duplicate key ${quoted(key)}`, keyStart);
        skipWhitespace();
        if (text.charCodeAt(position) !== 0x3a) {
          fail(`expected ':' after the key, found ${describe(text, position)}`);
        }
        position++;
        skipWhitespace();
        members.set(key, value(depth + 1));
        skipWhitespace();
        const c = text.charCodeAt(position);
        if (c === 0x2c) position++;
        else if (c === 0x7d) {
          position++;
          return members;
        } else fail(`expected ',' or '}' in an object, found ${describe(text, position)}`);
      }
    }

    function array(depth) {
      position++;
      const elements = [];
      skipWhitespace();
      if (text.charCodeAt(position) === 0x5d) {
        position++;
        return elements;
      }
      for (;;) {
        skipWhitespace();
        elements.push(value(depth + 1));
        skipWhitespace();
        const c = text.charCodeAt(position);
        if (c === 0x2c) position++;
        else if (c === 0x5d) {
          position++;
          return elements;
        } else fail(`expected ',' or ']' in an array, found ${describe(text, position)}`);
      }
    }

    function hex4() {
      let result = 0;
      for (let index = 0; index < 4; index++) {
        const digit = parseInt(text[position], 16);
        if (position >= text.length || Number.isNaN(digit) || !/[0-9a-fA-F]/.test(text[position])) {
          fail("expected 4 hex digits after \\u");
        }
        result = result * 16 + digit;
        position++;
      }
      return result;
    }

    function string() {
      const start = position;
      position++;
      let result = "";
      let run = position;
      for (;;) {
        if (position >= text.length) fail("unterminated string", start);
        const c = text.charCodeAt(position);
        if (c === 0x22) {
          result += text.slice(run, position);
          position++;
          return result;
        }
        if (c === 0x5c) {
          result += text.slice(run, position);
          position++;
          if (position >= text.length) fail("unterminated escape");
          const escape = text[position++];
          switch (escape) {
            case '"': result += '"'; break;
            case "\\": result += "\\"; break;
            case "/": result += "/"; break;
            case "b": result += "\b"; break;
            case "f": result += "\f"; break;
            case "n": result += "\n"; break;
            case "r": result += "\r"; break;
            case "t": result += "\t"; break;
            case "u": {
              let code = hex4();
              if (code >= 0xd800 && code < 0xdc00) {
                if (text[position] !== "\\" || text[position + 1] !== "u") {
                  fail("unpaired UTF-16 surrogate in \\u escape");
                }
                position += 2;
                const low = hex4();
                if (low < 0xdc00 || low >= 0xe000) fail("unpaired UTF-16 surrogate in \\u escape");
                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
              } else if (code >= 0xdc00 && code < 0xe000) {
                fail("\\u escape is not a Unicode scalar");
              }
              result += String.fromCodePoint(code);
              break;
            }
            default:
              fail(`unknown escape '\\${escape}'`);
          }
          run = position;
        } else if (c < 0x20) {
          fail("control character in a string must be escaped");
        } else {
          position++;
        }
      }
    }

    function number() {
      const start = position;
      if (text.charCodeAt(position) === 0x2d) position++;
      if (!isDigit(text.charCodeAt(position))) fail("expected a digit");
      if (text.charCodeAt(position) === 0x30) position++;
      else while (isDigit(text.charCodeAt(position))) position++;
      if (text.charCodeAt(position) === 0x2e) {
        position++;
        if (!isDigit(text.charCodeAt(position))) fail("expected a digit after '.'");
        while (isDigit(text.charCodeAt(position))) position++;
      }
      const e = text.charCodeAt(position);
      if (e === 0x65 || e === 0x45) {
        position++;
        const sign = text.charCodeAt(position);
        if (sign === 0x2b || sign === 0x2d) position++;
        if (!isDigit(text.charCodeAt(position))) fail("expected a digit in the exponent");
        while (isDigit(text.charCodeAt(position))) position++;
      }
      const number = new JSONNumber(text.slice(start, position));
      if (!number.isInteger && !Number.isFinite(Number(number.text))) {
        fail(`number ${number.text} is out of range`, start);
      }
      return number;
    }

    skipWhitespace();
    const result = value(0);
    skipWhitespace();
    if (position !== text.length) fail("expected the end of the text after the JSON value");
    return result;
  }

  // Rewind escapes, besides what JSON must, every character a terminal would obey (C0,
  // DEL, C1, the line and paragraph separators, the bidi embeddings, overrides and
  // isolates): TerminalText.isControl.
  function isControl(code) {
    return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x2028 && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
  }

  /**
   * Text from outside (a file name, a device) as Rewind shows it on a terminal
   * (TerminalText.escaped): each control character written `\u{1B}`, so that none of them
   * is obeyed, or reorders the page's own text around it as a bidi override would.
   */
  function shownText(text) {
    let result = "";
    for (const character of text) {
      const code = character.codePointAt(0);
      result += isControl(code) ? `\\u{${code.toString(16).toUpperCase()}}` : character;
    }
    return result;
  }

  /** A string as Rewind writes it in JSON. */
  function quoted(text) {
    let result = '"';
    for (const character of text) {
      const code = character.codePointAt(0);
      switch (character) {
        case '"': result += '\\"'; break;
        case "\\": result += "\\\\"; break;
        case "\n": result += "\\n"; break;
        case "\r": result += "\\r"; break;
        case "\t": result += "\\t"; break;
        case "\b": result += "\\b"; break;
        case "\f": result += "\\f"; break;
        default:
          result += isControl(code) ? "\\u" + code.toString(16).padStart(4, "0") : character;
      }
    }
    return result + '"';
  }

  /** The value as JSON text: on one line without spaces, or indented by two spaces a level. */
  function write(value, indent, level) {
    if (value === null) return "null";
    if (value === true) return "true";
    if (value === false) return "false";
    if (typeof value === "string") return quoted(value);
    if (value instanceof JSONNumber) return value.text;
    const newline = indent ? "\n" + "  ".repeat(level + 1) : "";
    const close = indent ? "\n" + "  ".repeat(level) : "";
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      return "[" + value.map((element) => newline + write(element, indent, level + 1)).join(",") + close + "]";
    }
    if (value.size === 0) return "{}";
    const parts = [];
    for (const [key, member] of value) {
      parts.push(newline + quoted(key) + (indent ? ": " : ":") + write(member, indent, level + 1));
    }
    return "{" + parts.join(",") + close + "}";
  }

  /** Equality as Rewind's: numbers by value (1 equals 1.0), object members in any order. */
  function equal(a, b) {
    if (a instanceof JSONNumber && b instanceof JSONNumber) {
      if (a.isInteger && b.isInteger) return BigInt(a.text) === BigInt(b.text);
      return Number(a.text) === Number(b.text);
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      return a.length === b.length && a.every((element, index) => equal(element, b[index]));
    }
    if (a instanceof Map && b instanceof Map) {
      if (a.size !== b.size) return false;
      for (const [key, member] of a) {
        if (!b.has(key) || !equal(member, b.get(key))) return false;
      }
      return true;
    }
    return a === b;
  }

  /** `null`, `a boolean`, `a number`, `a string`, `an array`, `an object`. */
  function typeName(value) {
    if (value === null) return "null";
    if (typeof value === "boolean") return "a boolean";
    if (value instanceof JSONNumber) return "a number";
    if (typeof value === "string") return "a string";
    if (Array.isArray(value)) return "an array";
    return "an object";
  }

  /** The value as plain JavaScript (numbers as numbers, objects without a prototype), for renderers. */
  function plain(value) {
    if (value instanceof JSONNumber) return Number(value.text);
    if (Array.isArray(value)) return value.map(plain);
    if (value instanceof Map) {
      const object = Object.create(null);
      for (const [key, member] of value) {
        Object.defineProperty(object, key, { value: plain(member), enumerable: true, writable: true });
      }
      return object;
    }
    return value;
  }

  /** A deep copy, so that a keyframe can be rebuilt upon without changing it. */
  function copy(value) {
    if (Array.isArray(value)) return value.map(copy);
    if (value instanceof Map) return new Map([...value].map(([key, member]) => [key, copy(member)]));
    return value;
  }

  /** The value at a dotted path through objects, undefined when a part is missing. */
  function valueAt(value, path) {
    let current = value;
    for (const key of path.split(".")) {
      if (!(current instanceof Map) || !current.has(key)) return undefined;
      current = current.get(key);
    }
    return current;
  }

  /** Sets the leaf at a dotted path, making the objects on the way when they are missing. */
  function setAt(value, path, leaf) {
    const keys = path.split(".");
    let current = value;
    for (let index = 0; index < keys.length - 1; index++) {
      let next = current.get(keys[index]);
      if (!(next instanceof Map)) {
        next = new Map();
        current.set(keys[index], next);
      }
      current = next;
    }
    current.set(keys[keys.length - 1], leaf);
  }

  RewindPage.json = {
    JSONNumber,
    JSONParseError,
    parse,
    compact: (value) => write(value, false, 0),
    pretty: (value) => write(value, true, 0),
    quoted,
    shownText,
    equal,
    typeName,
    plain,
    copy,
    valueAt,
    setAt,
  };
})();
