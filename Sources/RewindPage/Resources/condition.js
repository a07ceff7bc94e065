// condition.js: the condition language of `rewind find` (RewindCore's Condition), with the
// same grammar, the same checks against the session's fields and the same answers:
// comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`, `contains`), `changed(PATH)`, a boolean
// field alone (`split.overlay`: `split.overlay == true`), the event's
// `event`, `outcome` and `reason`, combined with `&&`, `||`, `!` and parentheses; a value
// is JSON or a bare word. See `rewind help conditions`.
(() => {
  const { JSONNumber, JSONParseError, parse: parseJSON, compact, equal, typeName } = RewindPage.json;
  const { count } = RewindPage.point;

  /**
   * `'text'` in a message, as Rewind quotes a value (Format.quoted): a text of more than 80
   * characters cut to its first 60, `'xxxx…' (5,000 characters)`.
   */
  function quotedValue(text, quote = "'") {
    const characters = [...text];
    if (characters.length <= 80) return `${quote}${text}${quote}`;
    return `${quote}${characters.slice(0, 60).join("")}…${quote} (${count(characters.length)} characters)`;
  }

  const SYNTAX =
    "PATH == VALUE, PATH != VALUE, PATH < NUMBER (<=, >, >=), PATH contains VALUE, changed(PATH) or a boolean PATH alone, combined with &&, || and !";
  const EVENT_WORDS = ["event", "outcome", "reason"];
  /** What an event word stands for, for messages (ConditionCompiler.eventWordMeaning). */
  const EVENT_WORD_MEANINGS = {
    event: "event is the event's kind",
    outcome: "outcome is applied, unchanged or rejected",
    reason: "reason is why the event was rejected (null when it was not)",
  };
  const OUTCOMES = ["applied", "unchanged", "rejected"];
  const OPERATORS = ["==", "!=", "<=", ">=", "<", ">"];
  const OPERATOR_LIST = "==, !=, <, <=, >, >= or contains";
  const MAXIMUM_COMPARISONS = 256;
  const MAXIMUM_NESTING = 64;

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

  /**
   * Whether `text` written as a bare value is read as that text: a word without spaces,
   * double quotes, parentheses, `&&` or `||`, that is no JSON value and does not start as
   * one (ConditionParser.readsBare).
   */
  function readsBare(text) {
    if (text === "" || text.startsWith("[") || text.startsWith("{")) return false;
    if ([...text].some((character) => isWhitespace(character) || '"()'.includes(character))) return false;
    if (text.includes("&&") || text.includes("||")) return false;
    try {
      parseJSON(text);
      return false;
    } catch {
      return true;
    }
  }

  /** Reads a condition one character at a time, knowing each one's column (ConditionParser). */
  class Scanner {
    constructor(text) {
      this.characters = characters(text);
      this.position = 0;
      this.comparisons = 0;
      this.depth = 0;
      this.lastRead = "the value";
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
    startsWith(text) {
      const wanted = characters(text);
      return wanted.every((character, index) => this.characters[this.position + index] === character);
    }
    word() {
      const rest = this.characters.slice(this.position);
      const end = rest.findIndex(isWhitespace);
      return (end < 0 ? rest : rest.slice(0, end)).join("");
    }
    found() {
      return this.isAtEnd ? "the end" : quotedValue(this.word());
    }
    skipWhitespace() {
      while (this.current !== null && isWhitespace(this.current)) this.position++;
    }
    read(accepts) {
      const start = this.position;
      while (this.current !== null && accepts(this.current)) this.position++;
      return this.characters.slice(start, this.position).join("");
    }
    nest() {
      this.depth++;
      if (this.depth > MAXIMUM_NESTING) throw this.error(`the condition nests more than ${MAXIMUM_NESTING} levels deep`);
    }
    parseOr() {
      let condition = this.parseAnd();
      for (;;) {
        this.skipWhitespace();
        if (!this.startsWith("||")) return condition;
        this.position += 2;
        condition = { kind: "or", left: condition, right: this.parseAnd() };
      }
    }
    parseAnd() {
      let condition = this.parseUnary();
      for (;;) {
        this.skipWhitespace();
        if (!this.startsWith("&&")) return condition;
        this.position += 2;
        condition = { kind: "and", left: condition, right: this.parseUnary() };
      }
    }
    parseUnary() {
      this.skipWhitespace();
      if (this.current !== "!") return this.parsePrimary();
      this.position++;
      this.skipWhitespace();
      // `!(…)` is one level of nesting, not two: the parenthesis counts it.
      const parenthesised = this.current === "(";
      if (!parenthesised) this.nest();
      const inner = this.parseUnary();
      if (!parenthesised) this.depth--;
      return { kind: "not", inner };
    }
    parsePrimary() {
      this.skipWhitespace();
      const start = this.position;
      if (this.current === "(") {
        this.position++;
        this.nest();
        const inner = this.parseOr();
        this.depth--;
        this.skipWhitespace();
        if (this.current !== ")") throw this.error(`expected ')' to close the '(' at column ${start + 1}, found ${this.found()}`);
        this.position++;
        this.lastRead = "')'";
        return inner;
      }
      if (this.current === null || !isPathCharacter(this.current)) {
        if (this.startsWith("&&") || this.startsWith("||")) {
          throw this.error(`expected a condition before '${this.word().slice(0, 2)}'`);
        }
        throw this.error(`expected a condition (a field path, changed(…), ! or '('), found ${this.found()}`);
      }
      const word = this.read((character) => isPathCharacter(character) || character === ".");
      this.skipWhitespace();
      if (word === "changed" && this.current === "(") {
        this.position++;
        this.skipWhitespace();
        const pathStart = this.position;
        const path = this.readPath("')'");
        this.skipWhitespace();
        if (this.current !== ")") throw this.error(`expected ')' after the field path in changed(…), found ${this.found()}`);
        this.position++;
        this.count(pathStart);
        this.lastRead = "changed(…)";
        return { kind: "changed", path, pathColumn: pathStart + 1, valueColumn: pathStart + 1 };
      }
      this.position = start;
      const path = this.readPath("a comparison");
      this.skipWhitespace();
      if (this.isAtEnd || this.current === ")" || this.startsWith("&&") || this.startsWith("||")) {
        // A path alone is the field being true (`split.overlay`, `!split.overlay`): the
        // check refuses it for a field that is not a boolean.
        this.count(start);
        this.lastRead = "the field path";
        return { kind: "compare", op: "==", path, value: true, pathColumn: start + 1, valueColumn: start + 1, alone: true };
      }
      const op = this.readOperator();
      this.skipWhitespace();
      const valueStart = this.position;
      const value = this.readValue(op);
      this.count(start);
      this.lastRead = "the value";
      if (!["==", "!=", "contains"].includes(op) && !(value instanceof JSONNumber)) {
        throw this.error(`'${op}' compares numbers: ${quotedValue(compact(value), "")} is not a number`, valueStart);
      }
      return { kind: "compare", op, path, value, pathColumn: start + 1, valueColumn: valueStart + 1 };
    }
    count(at) {
      if (this.comparisons >= MAXIMUM_COMPARISONS) {
        throw this.error(`the condition has more than ${MAXIMUM_COMPARISONS} comparisons`, at);
      }
      this.comparisons++;
    }
    readPath(expected) {
      const start = this.position;
      const path = this.read((character) => isPathCharacter(character) || character === ".");
      if (path === "") throw this.error(`expected a field path before ${expected}, found ${this.found()}`, start);
      if (!isPath(path)) {
        throw this.error(`${quotedValue(path)} is not a field path: names (letters, digits, _) joined by single dots`, start);
      }
      return path;
    }
    readOperator() {
      if (this.startsWith("===") || this.startsWith("!==")) {
        // JavaScript's strict operators, which would read as == and a bare value starting
        // with = (quoted, such a value is read).
        const meant = this.startsWith("===") ? "==" : "!=";
        throw this.error(`expected ${OPERATOR_LIST} after the field path: ${meant}= is not an operator; write ${meant}`);
      }
      for (const op of OPERATORS) {
        if (this.startsWith(op)) {
          this.position += op.length;
          return op;
        }
      }
      if (this.startsWith("contains")) {
        const after = this.characters[this.position + "contains".length];
        if (after === undefined || !isPathCharacter(after)) {
          this.position += "contains".length;
          return "contains";
        }
      }
      if (this.current === null) throw this.error(`expected ${OPERATOR_LIST} after the field path`);
      if (this.current === "=") {
        throw this.error(`expected ${OPERATOR_LIST} after the field path: a single = does not compare; write ==`);
      }
      throw this.error(`expected ${OPERATOR_LIST} after the field path, found ${this.found()}`);
    }
    endsBareValue(character) {
      return (
        isWhitespace(character) ||
        character === '"' ||
        character === "(" ||
        character === ")" ||
        this.startsWith("&&") ||
        this.startsWith("||")
      );
    }
    readValue(op) {
      const start = this.position;
      const current = this.current;
      if (current === null) throw this.error(`expected a value after ${op}`);
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
        const end = this.closingBracket(start);
        if (end !== null) {
          this.position = end + 1;
        } else {
          this.position = this.characters.length;
          while (this.position > start && isWhitespace(this.characters[this.position - 1])) this.position--;
        }
        return this.parseJSON(start);
      }
      if (current === "'" && this.closesSingleQuote(start)) throw this.singleQuoted();
      while (this.current !== null && !this.endsBareValue(this.current)) this.position++;
      const word = this.characters.slice(start, this.position).join("");
      if (this.current === '"') throw this.error("a quote in the middle of a value: quote the whole value");
      if (word === "") throw this.error(`expected a value after ${op}, found ${this.found()}`);
      try {
        return parseJSON(word);
      } catch {
        return word;
      }
    }
    /**
     * Whether the value at `quote` (a ') is written in single quotes: the next ' ends it
     * (the condition's end, or what ends a bare value, follows). A value that only starts
     * with one ('90s, 'it's) is a bare word, as it always was.
     */
    closesSingleQuote(quote) {
      const closing = this.characters.indexOf("'", quote + 1);
      if (closing < 0) return false;
      const next = this.characters[closing + 1];
      if (next === undefined) return true;
      if (isWhitespace(next) || next === '"' || next === "(" || next === ")") return true;
      const pair = next + (this.characters[closing + 2] ?? "");
      return pair === "&&" || pair === "||";
    }
    /**
     * The error for a value in single quotes (closesSingleQuote), which quote nothing in a
     * condition: at the quote, the value in double quotes, and bare when it reads bare as
     * that text.
     */
    singleQuoted() {
      const quote = this.position;
      const closing = this.characters.indexOf("'", quote + 1);
      const inner = this.characters.slice(quote + 1, closing).join("");
      let message = `single quotes do not quote a value: write ${quotedValue(compact(inner), "")} (in double quotes)`;
      if (readsBare(inner)) message += ` or ${quotedValue(inner, "")} (a bare word)`;
      return this.error(message, quote);
    }
    closingBracket(start) {
      let depth = 0;
      let inString = false;
      for (let index = start; index < this.characters.length; index++) {
        const character = this.characters[index];
        if (inString) {
          if (character === "\\") index++;
          else if (character === '"') inString = false;
        } else if (character === '"') {
          inString = true;
        } else if (character === "[" || character === "{") {
          depth++;
        } else if (character === "]" || character === "}") {
          depth--;
          if (depth === 0) return index;
        }
      }
      return null;
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
  }

  /**
   * Parses a condition into a tree of `{kind: "compare", op, path, value, pathColumn,
   * valueColumn}`, `{kind: "changed", path, pathColumn}`, `{kind: "not", inner}`,
   * `{kind: "and"|"or", left, right}`. Throws a ConditionError.
   */
  function parse(text) {
    const scanner = new Scanner(text);
    scanner.skipWhitespace();
    if (scanner.isAtEnd) throw scanner.error(`expected a condition: ${SYNTAX}`);
    const condition = scanner.parseOr();
    scanner.skipWhitespace();
    if (scanner.current !== null) {
      if (scanner.current === ")") throw scanner.error("')' has no matching '('");
      throw scanner.error(
        `expected &&, || or the end of the condition after ${scanner.lastRead}, found ${quotedValue(scanner.word())}` +
          (scanner.lastRead === "the value" ? " (quote a value with spaces)" : ""),
      );
    }
    return condition;
  }

  /** The condition as Condition.description writes it: parentheses only where precedence needs them. */
  function describe(condition, level = 1) {
    let text;
    let own;
    switch (condition.kind) {
      case "or":
        [text, own] = [`${describe(condition.left, 1)} || ${describe(condition.right, 2)}`, 1];
        break;
      case "and":
        [text, own] = [`${describe(condition.left, 2)} && ${describe(condition.right, 3)}`, 2];
        break;
      case "not":
        [text, own] = ["!" + describe(condition.inner, condition.inner.kind === "compare" ? 5 : 3), 3];
        break;
      case "changed":
        [text, own] = [`changed(${condition.path})`, 4];
        break;
      default:
        [text, own] = [`${condition.path} ${condition.op} ${compact(condition.value)}`, 4];
    }
    return own < level ? `(${text})` : text;
  }

  /** -1, 0 or 1 as the number `value` is below, at or above `bound`; null when it is not a number. */
  function order(value, bound) {
    if (!(value instanceof JSONNumber)) return null;
    if (value.isInteger && bound.isInteger) {
      const [a, b] = [BigInt(value.text), BigInt(bound.text)];
      return a < b ? -1 : a === b ? 0 : 1;
    }
    const [a, b] = [Number(value.text), Number(bound.text)];
    return a < b ? -1 : a === b ? 0 : 1;
  }

  /** Whether a value passes a comparison (ValueTest.holds). */
  function test(op, expected, value) {
    switch (op) {
      case "==":
        return equal(value, expected);
      case "!=":
        return !equal(value, expected);
      case "contains":
        if (Array.isArray(value)) return value.some((element) => equal(element, expected));
        if (typeof value === "string" && typeof expected === "string") return value.includes(expected);
        return false;
      default: {
        const found = order(value, expected);
        if (found === null) return false;
        return { "<": found < 0, "<=": found <= 0, ">": found > 0, ">=": found >= 0 }[op];
      }
    }
  }

  /**
   * Whether a compiled node holds (ConditionNode.holds): `values` by slot, `changed` the
   * set of field indices the event changed, `event` null at the start or
   * `{kind, outcome, reason()}`.
   */
  function holdsNode(node, values, changed, event) {
    switch (node.kind) {
      case "field":
        return test(node.op, node.value, values[node.slot]);
      case "changed":
        return changed.has(node.field);
      case "event":
        return test(node.op, node.value, event === null ? null : event.kind);
      case "outcome":
        return test(node.op, node.value, event === null ? null : event.outcome);
      case "reason":
        return test(node.op, node.value, event === null || event.outcome !== "rejected" ? null : event.reason());
      case "not":
        return !holdsNode(node.inner, values, changed, event);
      case "and":
        return holdsNode(node.left, values, changed, event) && holdsNode(node.right, values, changed, event);
      default:
        return holdsNode(node.left, values, changed, event) || holdsNode(node.right, values, changed, event);
    }
  }

  /** Whether a compiled condition holds. */
  function holds(compiled, values, changed, event) {
    return holdsNode(compiled.root, values, changed, event);
  }

  /** The value a match shows (CompiledCondition.shown): the field's, an object of them, or null. */
  function shown(compiled, values) {
    if (values.length === 0) return null;
    if (values.length === 1) return values[0];
    return new Map(compiled.paths.map((path, slot) => [path, values[slot]]));
  }

  const article = (noun) => ("aeiou".includes(noun.toLowerCase()[0] || "") ? "an" : "a");

  /** What a field of `kind` holds, for messages (FieldKind.description). */
  function describeKind(kind) {
    if (typeof kind === "string") {
      return { integer: "an integer", number: "a number", boolean: "true or false", string: "a string", any: "any JSON value" }[kind];
    }
    if (kind.oneOf) return "one of " + kind.oneOf.join(", ");
    if (kind.identifier !== undefined) return `the id of ${article(kind.identifier)} ${kind.identifier}`;
    if (kind.text !== undefined) return `${article(kind.text)} ${kind.text}`;
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
    if (kind === "integer" && isNumber && Number.isFinite(Number(value.text)) && Math.round(Number(value.text)) === Number(value.text)) {
      // A whole number past 64 bits, as Rewind says it.
      return { message: `${holder} ${describeKind(kind)}, and the whole number given is past the integers' range (-9223372036854775808 to 9223372036854775807)`, suggestion: null };
    }
    if (kind.optional !== undefined) return problem(value, kind.optional, field, holder, suggesting);
    if (kind.oneOf && typeof value === "string") {
      if (kind.oneOf.includes(value)) return null;
      return { message: `${holder} ${describeKind(kind)}, not ${quotedValue(value)}`, word: value, choices: kind.oneOf };
    }
    if (kind.identifier !== undefined && typeof value === "string") {
      const known = field.known;
      if (!known || known.some(([id]) => id === value)) return null;
      const lowered = value.toLowerCase();
      const meant = known.filter(([id, name]) => (name !== null && name.toLowerCase() === lowered) || id.toLowerCase() === lowered);
      return {
        message: `${quotedValue(value)} is not the id of ${article(kind.identifier)} ${kind.identifier} in this session`,
        word: value,
        choices: known.map(([id]) => id),
        suggestion: meant.length === 0 ? null : meant.slice(0, 3).map(([id]) => id).join("' or '"),
      };
    }
    if (kind.text !== undefined && typeof value === "string") {
      const known = field.known;
      if (!known || known.some(([text]) => text === value)) return null;
      // The text in other case: what was meant, certainly.
      const lowered = value.toLowerCase();
      const meant = known.filter(([text]) => text.toLowerCase() === lowered);
      return {
        message: `${quotedValue(value)} is not ${article(kind.text)} ${kind.text} in this session`,
        word: value,
        choices: known.map(([text]) => text),
        suggestion: meant.length === 0 ? null : meant.slice(0, 3).map(([text]) => text).join("' or '"),
      };
    }
    if (kind.list !== undefined && Array.isArray(value)) {
      for (const member of value) {
        const found = problem(member, kind.list, field, `each element of ${path} is`, suggesting);
        if (found) return found;
      }
      return null;
    }
    const found = value === null ? "null" : `${typeName(value)} (${quotedValue(compact(value), "")})`;
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

  /** What `contains` looks into for a field of `kind` (FieldKind.searched): {list: element}, "string" or null. */
  function searched(kind) {
    if (kind === "any") return { list: "any" };
    if (kind === "string") return "string";
    if (typeof kind === "string") return null;
    if (kind.list !== undefined) return { list: kind.list };
    if (kind.oneOf || kind.identifier !== undefined || kind.text !== undefined) return "string";
    if (kind.optional !== undefined) return searched(kind.optional);
    return null;
  }

  /** Whether `<` and the like compare a field of `kind` (FieldKind.holdsNumbers). */
  function holdsNumbers(kind) {
    if (kind === "integer" || kind === "number" || kind === "any") return true;
    if (typeof kind === "string") return false;
    return kind.optional !== undefined && holdsNumbers(kind.optional);
  }

  /**
   * Checks a parsed condition against the session's fields and event kinds (Domain.check)
   * and compiles it: `{root, fields, paths, aboutEvents}`, or throws a ConditionError at
   * the column of the path or the value. `eventKinds` is empty when the domain does not
   * list its kinds (then any kind is accepted).
   */
  function check(condition, fields, eventKinds = []) {
    const slots = [];
    let aboutEvents = false;
    const slotOf = (index) => {
      const found = slots.indexOf(index);
      if (found >= 0) return found;
      slots.push(index);
      return slots.length - 1;
    };
    const unknownPath = (node) => {
      const paths = fields.map((field) => field.path);
      return new ConditionError(
        `${quotedValue(node.path)} is not a state field; the fields are ${paths.join(", ")} (and event, outcome, reason name the event)`,
        node.pathColumn,
        { word: node.path, choices: paths.concat(EVENT_WORDS) },
      );
    };
    const compile = (node) => {
      switch (node.kind) {
        case "not":
          return { kind: "not", inner: compile(node.inner) };
        case "and":
        case "or":
          return { kind: node.kind, left: compile(node.left), right: compile(node.right) };
        case "changed": {
          const index = fields.findIndex((field) => field.path === node.path);
          if (index < 0) {
            if (EVENT_WORDS.includes(node.path)) {
              throw new ConditionError(`changed(…) takes a state field; '${node.path}' names the event`, node.pathColumn);
            }
            throw unknownPath(node);
          }
          aboutEvents = true;
          slotOf(index);
          return { kind: "changed", field: index };
        }
        default: {
          if (node.alone) checkAlone(node, fields, eventKinds);
          const index = fields.findIndex((field) => field.path === node.path);
          if (index >= 0) {
            checkField(fields[index], node);
            return { kind: "field", slot: slotOf(index), op: node.op, value: node.value };
          }
          if (!EVENT_WORDS.includes(node.path)) throw unknownPath(node);
          aboutEvents = true;
          checkEventWord(node, eventKinds);
          return { kind: node.path, op: node.op, value: node.value };
        }
      }
    };
    const root = compile(condition);
    return { root, fields: slots, paths: slots.map((index) => fields[index].path), aboutEvents };
  }

  /** Whether a field of `kind` holds true or false (FieldKind.isBoolean). */
  function isBoolean(kind) {
    if (kind === "boolean") return true;
    return typeof kind !== "string" && kind.optional !== undefined && isBoolean(kind.optional);
  }

  /** How a field of `kind` is compared, for a message (FieldKind.example). */
  function example(kind) {
    if (typeof kind !== "string") {
      if (kind.oneOf && kind.oneOf.length > 0) return `== ${kind.oneOf[0]}`;
      if (kind.list !== undefined) return "contains …";
      if (kind.optional !== undefined) return example(kind.optional);
    }
    return "== …";
  }

  /**
   * Checks a path written alone (ConditionCompiler.checkAlone): only a boolean field is a
   * condition alone.
   */
  function checkAlone(node, fields, eventKinds) {
    const path = node.path;
    const compare = "so it is no condition alone: compare it, e.g.";
    const field = fields.find((candidate) => candidate.path === path);
    if (field !== undefined) {
      if (isBoolean(field.kind)) return;
      throw new ConditionError(
        `${path} is not a boolean (it holds ${describeKind(field.kind)}), ${compare} ${path} ${example(field.kind)}`,
        node.pathColumn,
      );
    }
    if (EVENT_WORDS.includes(path)) {
      const shown = { event: `event == ${eventKinds[0] ?? "…"}`, outcome: "outcome == rejected", reason: "reason != null" }[path];
      throw new ConditionError(`${EVENT_WORD_MEANINGS[path]}, not a boolean, ${compare} ${shown}`, node.pathColumn);
    }
    if (path === "true" || path === "false") {
      const boolean = fields.find((candidate) => isBoolean(candidate.kind));
      const shown = boolean === undefined ? `PATH == ${path}` : `${boolean.path} == ${path}, or ${boolean.path} alone for a boolean field`;
      throw new ConditionError(`${path} is a value, not a condition: compare a field with it, e.g. ${shown}`, node.pathColumn);
    }
  }

  function checkField(field, node) {
    let found;
    if (node.op === "==" || node.op === "!=") {
      found = problem(node.value, field.kind, field);
    } else if (node.op === "contains") {
      const into = searched(field.kind);
      if (into === null) {
        throw new ConditionError(
          `contains looks into a list or a string, and ${field.path} holds ${describeKind(field.kind)}`,
          node.pathColumn,
        );
      }
      if (into === "string") {
        found =
          typeof node.value === "string"
            ? null
            : {
                message: `${field.path} holds ${describeKind(field.kind)}, and contains looks for a string in it, not ${typeName(node.value)} (${compact(node.value)})`,
              };
      } else {
        found = problem(node.value, into.list, field, `each element of ${field.path} is`);
      }
    } else {
      if (!holdsNumbers(field.kind)) {
        throw new ConditionError(
          `'${node.op}' compares numbers, and ${field.path} holds ${describeKind(field.kind)}`,
          node.pathColumn,
        );
      }
      found = null;
    }
    if (found === null) return;
    throw new ConditionError(found.message, node.valueColumn, {
      word: found.word ?? "",
      choices: found.choices ?? [],
      suggestion: found.suggestion ?? null,
    });
  }

  function checkEventWord(node, eventKinds) {
    const word = node.path;
    const what = EVENT_WORD_MEANINGS[word];
    if (!["==", "!=", "contains"].includes(node.op)) {
      throw new ConditionError(`'${node.op}' compares numbers, and ${what}`, node.pathColumn);
    }
    if (node.op === "contains" && word === "outcome") {
      throw new ConditionError(`${what}: compare it with == or !=`, node.pathColumn);
    }
    if (word === "reason" && node.value === null && node.op !== "contains") return;
    if (typeof node.value !== "string") {
      throw new ConditionError(`${what}, a string, not ${typeName(node.value)} (${compact(node.value)})`, node.valueColumn);
    }
    if (node.op === "contains") return;
    const choices = word === "event" ? eventKinds : word === "outcome" ? OUTCOMES : [];
    if (choices.length === 0 || choices.includes(node.value)) return;
    throw new ConditionError(
      `${quotedValue(node.value)} is not ${word === "event" ? "an event kind" : "an outcome"}; they are ${choices.join(", ")}`,
      node.valueColumn,
      { word: node.value, choices },
    );
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

  RewindPage.condition = { SYNTAX, ConditionError, parse, check, describe, holds, shown };
})();
