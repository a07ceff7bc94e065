// condition.js: the condition language of `rewind find` (RewindCore's Condition), with the
// same grammar, the same checks against the session's fields and the same answers:
// `PATH == VALUE`, `PATH != VALUE` or `changed(PATH)`; a value is JSON or a bare word.
(() => {
  const { JSONNumber, JSONParseError, parse: parseJSON, compact, equal, typeName } = RewindPage.json;
  const SYNTAX = "PATH == VALUE, PATH != VALUE or changed(PATH)";

  /** A condition that cannot be used: what is wrong and at which column (1-based, in characters). */
  class ConditionError extends Error {
    constructor(message, column, { word = "", choices = [], suggestion = null } = {}) {
      super(message);
      this.column = column;
      this.word = word;
      this.choices = choices;
      this.suggestion = suggestion;
    }
    /** `at column 16: … Did you mean 'balanced'?`, with a near miss among the choices as `rewind find` adds it. */
    get reason() {
      let text = `at column ${this.column}: ${this.message}`;
      if (this.suggestion !== null) return text + `. Did you mean '${this.suggestion}'?`;
      const near = closestName(this.word, this.choices);
      return near === null ? text : text + `. Did you mean '${near}'?`;
    }
  }

  /** The characters of `text` as Swift counts them: grapheme clusters. */
  function characters(text) {
    if (typeof Intl !== "undefined" && Intl.Segmenter) {
      return Array.from(new Intl.Segmenter().segment(text), (part) => part.segment);
    }
    return Array.from(text);
  }
  const isWhitespace = (character) => /^\p{White_Space}/u.test(character);
  const isPathCharacter = (character) => character === "_" || /^[\p{Alphabetic}\p{N}]/u.test(character);
  const isPath = (text) =>
    text !== "" && text.split(".").every((part) => part !== "" && characters(part).every(isPathCharacter));

  /** Reads a condition one character at a time, knowing each one's column. */
  class Scanner {
    constructor(text) {
      this.characters = characters(text);
      this.position = 0;
    }
    get isAtEnd() {
      return this.position >= this.characters.length;
    }
    get current() {
      return this.isAtEnd ? null : this.characters[this.position];
    }
    error(message, index = this.position) {
      return new ConditionError(message, index + 1);
    }
    skipWhitespace() {
      while (this.current !== null && isWhitespace(this.current)) this.position++;
    }
    read(accepts) {
      const start = this.position;
      while (this.current !== null && accepts(this.current)) this.position++;
      return this.characters.slice(start, this.position).join("");
    }
    refuseCombinations() {
      let inString = false;
      for (let index = 0; index < this.characters.length; index++) {
        const character = this.characters[index];
        if (inString) {
          if (character === "\\") index++;
          else if (character === '"') inString = false;
        } else if (character === '"') {
          inString = true;
        } else if ((character === "&" || character === "|") && this.characters[index + 1] === character) {
          throw this.error(
            `'${character}${character}' is not supported: a condition is one comparison (${SYNTAX}); run find once for each`,
            index,
          );
        }
      }
    }
    readPath(expected) {
      const start = this.position;
      const path = this.read((character) => isPathCharacter(character) || character === ".");
      if (path === "") {
        const found = this.current === null ? "the end" : `'${this.current}'`;
        throw this.error(`expected a field path before ${expected}, found ${found}`, start);
      }
      if (!isPath(path)) {
        throw this.error(`'${path}' is not a field path: names (letters, digits, _) joined by single dots`, start);
      }
      return path;
    }
    readComparison() {
      for (const comparison of ["==", "!="]) {
        if (this.characters[this.position] === comparison[0] && this.characters[this.position + 1] === comparison[1]) {
          this.position += 2;
          return comparison;
        }
      }
      const current = this.current;
      if (current === null) throw this.error("expected == or != after the field path");
      if (current === "=") throw this.error("expected == or != after the field path: a single = does not compare");
      if (current === "<" || current === ">") throw this.error(`only == and != compare: '${current}' is not supported`);
      throw this.error(`expected == or != after the field path, found '${current}'`);
    }
    readValue() {
      const start = this.position;
      const current = this.current;
      if (current === '"') {
        let index = this.position + 1;
        while (index < this.characters.length && this.characters[index] !== '"') {
          index += this.characters[index] === "\\" ? 2 : 1;
        }
        if (index >= this.characters.length) throw this.error('the string has no closing quote (")', start);
        this.position = index + 1;
        return this.parseJSON(start);
      }
      if (current === "[" || current === "{") {
        this.position = this.characters.length;
        while (this.position > start && isWhitespace(this.characters[this.position - 1])) this.position--;
        return this.parseJSON(start);
      }
      const word = this.read((character) => !isWhitespace(character) && character !== '"');
      if (this.current === '"') throw this.error("a quote in the middle of a value: quote the whole value");
      try {
        return parseJSON(word);
      } catch {
        return word;
      }
    }
    parseJSON(start) {
      const text = this.characters.slice(start, this.position).join("");
      try {
        return parseJSON(text);
      } catch (error) {
        if (!(error instanceof JSONParseError)) throw error;
        const prefix = characters(text.slice(0, error.offset));
        throw this.error(`not a JSON value: ${error.message}`, start + prefix.length);
      }
    }
    expectEnd(what) {
      this.skipWhitespace();
      if (this.isAtEnd) return;
      const rest = this.characters.slice(this.position);
      const end = rest.findIndex(isWhitespace);
      const found = (end < 0 ? rest : rest.slice(0, end)).join("");
      throw this.error(
        `expected the end of the condition after ${what}, found '${found}'` +
          (what === "the value" ? " (quote a value with spaces)" : ""),
      );
    }
  }

  /**
   * Parses a condition: `{kind: "equals"|"notEquals"|"changed", path, value, text,
   * pathColumn, valueColumn}`. Throws a ConditionError.
   */
  function parse(text) {
    const scanner = new Scanner(text);
    scanner.refuseCombinations();
    scanner.skipWhitespace();
    if (scanner.isAtEnd) throw scanner.error(`expected a condition: ${SYNTAX}`);
    const start = scanner.position;
    const word = scanner.read((character) => isPathCharacter(character) || character === ".");
    scanner.skipWhitespace();
    if (word === "changed" && scanner.current === "(") {
      scanner.position++;
      scanner.skipWhitespace();
      const pathStart = scanner.position;
      const path = scanner.readPath("')'");
      scanner.skipWhitespace();
      if (scanner.current !== ")") throw scanner.error("expected ')' after the field path in changed(…)");
      scanner.position++;
      scanner.expectEnd("changed(…)");
      return { kind: "changed", path, value: undefined, text, pathColumn: pathStart + 1, valueColumn: pathStart + 1 };
    }
    scanner.position = start;
    const path = scanner.readPath("== or !=");
    scanner.skipWhitespace();
    const comparison = scanner.readComparison();
    scanner.skipWhitespace();
    if (scanner.isAtEnd) throw scanner.error(`expected a value after ${comparison}`);
    const valueStart = scanner.position;
    const value = scanner.readValue();
    scanner.expectEnd("the value");
    return {
      kind: comparison === "==" ? "equals" : "notEquals",
      path,
      value,
      text,
      pathColumn: start + 1,
      valueColumn: valueStart + 1,
    };
  }

  /** `split.style == "balanced"`, `changed(split.style)`: as Condition.description writes it. */
  function describe(condition) {
    if (condition.kind === "changed") return `changed(${condition.path})`;
    return `${condition.path} ${condition.kind === "equals" ? "==" : "!="} ${compact(condition.value)}`;
  }

  /** Whether the condition holds for a field's value (never for `changed`). */
  function holds(condition, value) {
    if (condition.kind === "equals") return equal(value, condition.value);
    if (condition.kind === "notEquals") return !equal(value, condition.value);
    return false;
  }

  const article = (noun) => ("aeiou".includes(noun.toLowerCase()[0] || "") ? "an" : "a");

  /** What a field of `kind` holds, for messages (FieldKind.description). */
  function describeKind(kind) {
    if (typeof kind === "string") {
      return { integer: "an integer", number: "a number", boolean: "true or false", string: "a string", any: "any JSON value" }[kind];
    }
    if (kind.oneOf) return "one of " + kind.oneOf.join(", ");
    if (kind.identifier !== undefined) return `the id of ${article(kind.identifier)} ${kind.identifier}`;
    if (kind.list !== undefined) return kind.list === "any" ? "a list" : `a list, each element ${describeKind(kind.list)}`;
    return `${describeKind(kind.optional)} or null`;
  }

  function intValue(number) {
    if (number.isInteger) return BigInt(number.text);
    const value = Number(number.text);
    return Math.round(value) === value && Math.abs(value) < 9.2e18 ? value : null;
  }

  /** What is wrong with `value` for a field of `kind` (Domain.problem(with:kind:path:)), null when it fits. */
  function problem(value, kind, field, holder = null, suggesting = true) {
    const path = field.path;
    holder = holder ?? `${path} holds`;
    const isNumber = value instanceof JSONNumber;
    if (
      kind === "any" ||
      (kind.optional !== undefined && value === null) ||
      (kind === "integer" && isNumber && value.isInteger) ||
      (kind === "number" && isNumber) ||
      (kind === "boolean" && typeof value === "boolean") ||
      (kind === "string" && typeof value === "string")
    ) {
      return null;
    }
    if (kind === "integer" && isNumber && intValue(value) !== null) return null;
    if (kind.optional !== undefined) return problem(value, kind.optional, field, holder, suggesting);
    if (kind.oneOf && typeof value === "string") {
      if (kind.oneOf.includes(value)) return null;
      return { message: `${holder} ${describeKind(kind)}, not '${value}'`, word: value, choices: kind.oneOf };
    }
    if (kind.identifier !== undefined && typeof value === "string") {
      const known = field.known;
      if (!known || known.some(([id]) => id === value)) return null;
      const lowered = value.toLowerCase();
      const meant = known.filter(([id, name]) => (name !== null && name.toLowerCase() === lowered) || id.toLowerCase() === lowered);
      return {
        message: `'${value}' is not the id of ${article(kind.identifier)} ${kind.identifier} in this session`,
        word: value,
        choices: known.map(([id]) => id),
        suggestion: meant.length === 0 ? null : meant.slice(0, 3).map(([id]) => id).join("' or '"),
      };
    }
    if (kind.list !== undefined && Array.isArray(value)) {
      for (const member of value) {
        const found = problem(member, kind.list, field, `each element of ${path} is`, suggesting);
        if (found) return found;
      }
      return null;
    }
    const found = value === null ? "null" : `${typeName(value)} (${compact(value)})`;
    const meant = suggesting ? rewritten(value, kind, field) : null;
    return { message: `${holder} ${describeKind(kind)}, not ${found}`, suggestion: meant === null ? null : compact(meant) };
  }

  /** The value a user most likely meant for a value in the wrong form, or null. */
  function rewritten(value, kind, field) {
    let candidates = [];
    if (typeof value === "string") {
      try {
        candidates.push(parseJSON(value));
      } catch {
        // not JSON: no candidate from it
      }
    } else if (value instanceof JSONNumber || typeof value === "boolean") {
      candidates.push(compact(value));
    }
    candidates = candidates.concat(candidates.map((candidate) => [candidate]), [[value]]);
    return candidates.find((candidate) => problem(candidate, kind, field, null, false) === null) ?? null;
  }

  /**
   * Checks a parsed condition against the session's fields (Domain.check): returns the
   * field's index, or throws a ConditionError at the column of the path or the value.
   */
  function check(condition, fields) {
    const index = fields.findIndex((field) => field.path === condition.path);
    if (index < 0) {
      const paths = fields.map((field) => field.path);
      throw new ConditionError(
        `'${condition.path}' is not a state field; the fields are ${paths.join(", ")}`,
        condition.pathColumn,
        { word: condition.path, choices: paths },
      );
    }
    if (condition.kind === "changed") return index;
    const found = problem(condition.value, fields[index].kind, fields[index]);
    if (found === null) return index;
    throw new ConditionError(found.message, condition.valueColumn, {
      word: found.word ?? "",
      choices: found.choices ?? [],
      suggestion: found.suggestion ?? null,
    });
  }

  /** The optimal-string-alignment distance (Levenshtein plus swaps of neighbours). */
  function editDistance(a, b) {
    if (a.length === 0) return b.length;
    if (b.length === 0) return a.length;
    let beforePrevious = new Array(b.length + 1).fill(0);
    let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
    let current = new Array(b.length + 1).fill(0);
    for (let i = 1; i <= a.length; i++) {
      current[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const cost = a[i - 1] === b[j - 1] ? 0 : 1;
        let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          value = Math.min(value, beforePrevious[j - 2] + 1);
        }
        current[j] = value;
      }
      [beforePrevious, previous, current] = [previous, current, beforePrevious];
    }
    return previous[b.length];
  }

  /** The name `word` is most likely a slip of (RewindArguments' closestName), or null. */
  function closestName(word, names) {
    if (word === "") return null;
    const typed = characters(word.toLowerCase());
    const limit = typed.length < 4 ? 1 : 2;
    let best = null;
    for (const name of names) {
      const distance = editDistance(typed, characters(name.toLowerCase()));
      if (distance <= limit && (best === null || distance < best.distance)) best = { name, distance };
    }
    if (best !== null) return best.name;
    return names.find((name) => name.toLowerCase().startsWith(word.toLowerCase())) ?? null;
  }

  RewindPage.condition = { SYNTAX, ConditionError, parse, check, describe, holds };
})();
