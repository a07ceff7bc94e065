// player.js: the page: reads its data, draws the session header, the screen at the cursor
// (with the domain's renderer, or as JSON), the transport (play/pause at recorded speed
// and faster, stepping), the scrubber, the event list, the changes at the cursor, the
// diff with a pinned point and the find box; binds the keyboard; and exposes
// `window.rewind` for scripts and tests.
(() => {
  const { pretty, compact, plain, shownText } = RewindPage.json;
  const { parseAsShown: parsePoint, exactOffset, shownOffset, duration, count } = RewindPage.point;
  const { parse: parseCondition, check, describe: describeCondition, ConditionError } = RewindPage.condition;

  let renderer = null;

  /** Registers the domain's renderer of its screens: `{render(element, state, session)}`. */
  RewindPage.defineRenderer = (definition) => {
    if (!definition || typeof definition.render !== "function") {
      throw new Error("a renderer needs a render(element, state, session) function");
    }
    renderer = definition;
  };

  const byId = (id) => document.getElementById(id);
  const text = (element, value) => {
    element.textContent = value;
    return element;
  };
  const make = (tag, className, content) => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (content !== undefined) element.textContent = content;
    return element;
  };

  /** The page's data: Base64 of raw DEFLATE, as many bytes inflated as the element says. */
  function readData() {
    const element = byId("rewind-data");
    const binary = atob(element.textContent.trim());
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
    return RewindPage.inflate(bytes, Number(element.dataset.length));
  }

  class Player {
    constructor(session) {
      this.session = session;
      this.sequence = session.from;
      this.pinned = null;
      this.playing = false;
      this.speed = 1;
      this.matches = [];
      this.plainSession = { header: session.header, data: session.meta.renderer };
      this.screen = byId("screen");
      this.scrubber = new RewindPage.Scrubber(byId("scrubber"), session, this);
      this.list = new RewindPage.EventList(byId("event-list"), session, this);
      this.header();
      this.legend();
      this.bind();
    }

    // MARK: Moving the cursor

    /** Moves the cursor to the state after event `sequence` (clamped to the page). */
    seek(sequence) {
      const target = Math.min(Math.max(sequence, this.session.from), this.session.to);
      if (target === this.sequence && this.drawn) return;
      this.sequence = target;
      this.update();
    }
    /** Moves `delta` events forward (or back). */
    step(delta) {
      this.pause();
      this.seek(this.sequence + delta);
    }
    /** Moves to the last event at or before `time` (microseconds from the session's start). */
    seekTime(time) {
      this.seek(this.session.lastAtOrBefore(time));
    }

    // MARK: Playing

    play() {
      if (this.playing) return;
      if (this.sequence === this.session.to) this.seek(this.session.from);
      this.playing = true;
      this.clock = this.session.timeOf(this.sequence);
      this.last = performance.now();
      const frame = (now) => {
        if (!this.playing) return;
        this.clock += (now - this.last) * 1000 * this.speed;
        this.last = now;
        this.seek(this.session.lastAtOrBefore(this.clock));
        if (this.clock >= this.session.endTime) this.pause();
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      this.updatePlayButton();
    }
    pause() {
      if (!this.playing) return;
      this.playing = false;
      this.updatePlayButton();
      this.noteAddress();
    }

    // MARK: The page's address

    /**
     * Writes the cursor into the page's address (`#at=12`) once it rests, so that the
     * address names the point shown: to share it, or to reload the page there. Not while
     * playing (browsers limit how often a page may change its address), not before the
     * page has read the address it opened with, and not when the address already stands for
     * the cursor (an `#at=+4s` the cursor went to stays as written).
     */
    noteAddress() {
      if (!this.followsAddress) return;
      clearTimeout(this.addressTimer);
      if (this.playing || this.sequence === this.addressSequence) return;
      this.addressTimer = setTimeout(() => {
        if (this.playing || this.sequence === this.addressSequence) return;
        try {
          history.replaceState(history.state, "", addressWith(this.sequence));
          this.addressSequence = this.sequence;
        } catch {
          // A page whose address cannot change (a sandboxed frame) keeps it.
          this.followsAddress = false;
        }
      }, 300);
    }
    updatePlayButton() {
      const button = byId("play");
      text(button, this.playing ? "Pause" : "Play");
      button.setAttribute("aria-pressed", this.playing ? "true" : "false");
    }

    // MARK: Drawing

    positionText() {
      const { session } = this;
      const time = shownOffset(session.timeOf(this.sequence));
      if (this.sequence === session.from) {
        return this.sequence === 0 ? `Start, before any event (${time})` : `Page start, after event ${this.sequence} (${time})`;
      }
      // Of the session's events, as the player's status line counts them: a page of a range
      // ended "Event 47465 of 47465", which read as the session's last.
      return `Event ${this.sequence} of ${session.meta.lastSequence} at ${time}: ${session.kindOf(this.sequence)}, ${session.outcomeOf(this.sequence)}`;
    }

    update() {
      this.drawn = true;
      this.noteAddress();
      const state = this.session.state(this.sequence);
      this.drawScreen(state);
      text(byId("position"), this.positionText());
      this.scrubber.update(this.pinned);
      this.list.reveal();
      this.drawChanges();
      this.drawDiff();
      this.drawMatches();
    }

    drawScreen(state) {
      if (renderer) {
        try {
          renderer.render(this.screen, plain(state), this.plainSession);
          return;
        } catch (error) {
          this.screen.replaceChildren(make("p", "error", `The screen cannot be drawn: ${error.message}`));
        }
      }
      let json = this.screen.querySelector("pre.state-json");
      if (!json) {
        json = make("pre", "state-json");
        json.tabIndex = 0;
        json.setAttribute("aria-label", "The state as JSON");
        this.screen.append(json);
      }
      json.textContent = pretty(state);
    }

    /** A table of field changes: field, one side, the other. */
    changeTable(changes, before, after) {
      const table = make("table", "changes-table");
      const head = table.createTHead().insertRow();
      for (const title of ["Field", before, after]) {
        const cell = make("th", null, title);
        cell.scope = "col";
        head.append(cell);
      }
      const body = table.createTBody();
      for (const change of changes) {
        const row = body.insertRow();
        const field = make("th", "field", change.path);
        field.scope = "row";
        row.append(field);
        row.insertCell().append(make("code", "old", compact(change.old)));
        row.insertCell().append(make("code", "new", compact(change.new)));
      }
      return table;
    }

    drawChanges() {
      const { session, sequence } = this;
      const target = byId("changes-body");
      if (sequence === session.from) {
        target.replaceChildren(make("p", "note", sequence === 0 ? "The start of the session: no event yet." : `The start of the page: the state after event ${sequence}.`));
        return;
      }
      const event = session.event(sequence);
      const title = make("p", "note");
      title.append(make("strong", null, `Event ${sequence}`), ` ${event.get("event")} ${RewindPage.argumentsText(event)} `);
      const outcome = event.get("outcome");
      if (outcome === "rejected") {
        title.append(make("span", "outcome-rejected", `rejected: ${event.get("reason")}`), "; nothing changed.");
        target.replaceChildren(title);
        return;
      }
      const changes = session.changes(sequence);
      if (changes.length === 0) {
        title.append(make("span", "outcome-unchanged", "unchanged"), ": the state is as it was.");
        target.replaceChildren(title);
        return;
      }
      title.append(make("span", "outcome-applied", "applied"), `, changing ${changes.length} ${changes.length === 1 ? "field" : "fields"}:`);
      target.replaceChildren(title, this.changeTable(changes, "Before", "After"));
    }

    drawDiff() {
      const target = byId("diff-body");
      const button = byId("pin");
      if (this.pinned === null) {
        text(button, "Pin this point");
        target.replaceChildren(make("p", "note", "Pin a point to compare the cursor with it."));
        return;
      }
      text(button, "Unpin");
      const pinnedName = `event ${this.pinned}`;
      const cursorName = `event ${this.sequence}`;
      const changes = this.session.diff(this.pinned, this.sequence);
      const note = make("p", "note", `Pinned: ${pinnedName} (${shownOffset(this.session.timeOf(this.pinned))}). `);
      if (changes.length === 0) {
        note.append(`No field differs between ${pinnedName} and ${cursorName}.`);
        target.replaceChildren(note);
        return;
      }
      note.append(`${changes.length} ${changes.length === 1 ? "field differs" : "fields differ"} from ${cursorName}:`);
      target.replaceChildren(note, this.changeTable(changes, `Pinned (${pinnedName})`, `Cursor (${cursorName})`));
    }

    togglePin() {
      this.pinned = this.pinned === null ? this.sequence : null;
      this.scrubber.update(this.pinned);
      this.drawDiff();
    }

    // MARK: Find

    /** Runs the find box's condition: every point where it becomes true. Throws a ConditionError. */
    find(conditionText) {
      const condition = parseCondition(conditionText);
      const listed = this.session.kinds.slice(0, this.session.meta.listedKinds ?? 0);
      const compiled = check(condition, this.session.fields, listed);
      return { condition, compiled, hits: this.session.find(compiled) };
    }

    /** Runs the find box's condition; the same condition again goes to the next match. */
    submitFind() {
      const input = byId("find-input");
      const status = byId("find-status");
      if (input.value === this.lastQuery && this.matches.length > 0) {
        this.nextMatch(1);
        return;
      }
      this.lastQuery = input.value;
      input.removeAttribute("aria-invalid");
      try {
        const { condition, compiled, hits } = this.find(input.value);
        this.matches = hits;
        this.matchCondition = describeCondition(condition);
        // As `rewind find`: a match shows the value of the fields the condition names.
        this.matchShowsValue = compiled.paths.length > 0;
        const verb = compiled.aboutEvents ? " holds" : " becomes true";
        if (hits.length === 0) {
          text(status, `No point in this page where ${this.matchCondition}${verb}.`);
        } else {
          text(status, `${count(hits.length)} ${hits.length === 1 ? "point" : "points"} where ${this.matchCondition}${verb}.`);
          this.nextMatch(1, true);
        }
      } catch (error) {
        this.matches = [];
        this.lastQuery = null;
        input.setAttribute("aria-invalid", "true");
        // Control and bidirectional characters escaped, as the command line shows them.
        text(status, shownText(error instanceof ConditionError ? `The condition is invalid: ${error.reason}` : String(error.message)));
      }
      this.drawMatches();
    }

    /**
     * Jumps to the next match after the cursor (1; at or after it with `inclusive`) or the
     * previous one before it (-1), going round at the ends.
     */
    nextMatch(direction, inclusive = false) {
      if (this.matches.length === 0) return;
      let index;
      if (direction > 0) {
        index = this.matches.findIndex((hit) => (inclusive ? hit.sequence >= this.sequence : hit.sequence > this.sequence));
        if (index < 0) index = 0;
      } else {
        index = this.matches.findLastIndex((hit) => hit.sequence < this.sequence);
        if (index < 0) index = this.matches.length - 1;
      }
      this.pause();
      this.seek(this.matches[index].sequence);
      this.drawMatches();
    }

    drawMatches() {
      const list = byId("find-matches");
      const shown = this.matches.slice(0, 500);
      const items = shown.map((hit) => {
        const item = make("li");
        const button = make("button", "match", "");
        button.type = "button";
        button.dataset.sequence = String(hit.sequence);
        // `event 12 at +1.234s: itemSelected grinders/vulcano (rejected) → "grinders/vulcano"`,
        // as `rewind find` prints a match.
        if (hit.sequence === this.session.from) {
          const place = hit.sequence === 0 ? "at the start (initial state)" : `at event ${hit.sequence} (the page's start)`;
          button.append(make("span", "match-place", place));
        } else {
          const event = this.session.event(hit.sequence);
          const place = `event ${hit.sequence} at ${shownOffset(this.session.timeOf(hit.sequence))}: `;
          const rejected = event.get("outcome") === "rejected" ? " (rejected)" : "";
          const description = `${event.get("event")} ${RewindPage.argumentsText(event)}`.trim() + rejected;
          button.append(make("span", "match-place", place), make("span", "match-event", description));
        }
        if (this.matchShowsValue) button.append(" → ", make("code", null, compact(hit.value)));
        if (hit.sequence === this.sequence) button.setAttribute("aria-current", "true");
        item.append(button);
        return item;
      });
      if (this.matches.length > shown.length) items.push(make("li", "note", `and ${count(this.matches.length - shown.length)} more (use Next)`));
      list.replaceChildren(...items);
      byId("find-previous").disabled = this.matches.length === 0;
      byId("find-next").disabled = this.matches.length === 0;
    }

    // MARK: The page around

    header() {
      const { session } = this;
      const { meta, header } = session;
      text(byId("title"), shownText(meta.title));
      const rows = [
        ["Journal", shownText(meta.file)],
        ["Session", header.session ?? "—"],
        [
          "Domain",
          // A journal of an older schema is read upcast: said as `rewind info` says it.
          meta.recordedSchema !== undefined && meta.recordedSchema !== header.schemaVersion
            ? `${header.domain} (schema ${meta.recordedSchema}, read as ${header.schemaVersion})`
            : `${header.domain} (schema ${header.schemaVersion})`,
        ],
        ["Device", shownText(header.device) || "—"],
        ["Started", header.start ?? "—"],
        [
          "Events",
          `${count(meta.events)} (${count(meta.counts.applied)} applied, ${count(meta.counts.unchanged)} unchanged, ${count(meta.counts.rejected)} rejected) over ${duration(session.endTime - session.startTime)}`,
        ],
      ];
      if (meta.from !== 0 || meta.to !== meta.lastSequence) {
        const part =
          meta.to === meta.from
            ? `the state after event ${meta.from}, no event (of ${count(meta.lastSequence)})`
            : `events ${meta.from + 1}–${meta.to} of ${count(meta.lastSequence)}`;
        rows.push(["Part", part]);
      }
      const list = byId("session-facts");
      for (const [name, value] of rows) {
        const row = make("div", "fact");
        row.append(make("dt", null, name), make("dd", null, value));
        list.append(row);
      }
      text(byId("generator"), `Written by ${meta.generator}.`);
    }

    /** The ticks' colours: the kinds of the page's events (above), the outcomes (below). */
    legend() {
      const seen = new Set();
      for (const code of this.session.codes) seen.add(Math.floor(code / 3));
      const entry = (colour, label) => {
        const item = make("li");
        const swatch = make("span", "swatch");
        swatch.style.backgroundColor = colour;
        item.append(swatch, label);
        return item;
      };
      const kinds = byId("legend-kinds");
      this.session.kinds.forEach((kind, index) => {
        if (seen.has(index)) kinds.append(entry(RewindPage.Scrubber.kindColour(index), kind));
      });
      const outcomes = byId("legend-outcomes");
      RewindPage.OUTCOMES.forEach((outcome, index) => outcomes.append(entry(RewindPage.Scrubber.outcomeColour(index), outcome)));
    }

    bind() {
      byId("play").addEventListener("click", () => (this.playing ? this.pause() : this.play()));
      byId("first").addEventListener("click", () => this.step(-Infinity));
      byId("previous").addEventListener("click", () => this.step(-1));
      byId("next").addEventListener("click", () => this.step(1));
      byId("last").addEventListener("click", () => this.step(Infinity));
      byId("speed").addEventListener("change", (event) => {
        // The clock keeps its time: what passed since the last frame at the old speed.
        if (this.playing) {
          const now = performance.now();
          this.clock += (now - this.last) * 1000 * this.speed;
          this.last = now;
        }
        this.speed = Number(event.target.value);
      });
      byId("pin").addEventListener("click", () => this.togglePin());
      byId("find-form").addEventListener("submit", (event) => {
        event.preventDefault();
        this.submitFind();
      });
      byId("find-next").addEventListener("click", () => this.nextMatch(1));
      byId("find-previous").addEventListener("click", () => this.nextMatch(-1));
      byId("find-matches").addEventListener("click", (event) => {
        const button = event.target.closest("button.match");
        if (!button) return;
        this.pause();
        this.seek(Number(button.dataset.sequence));
      });
      document.addEventListener("keydown", (event) => this.keyDown(event));
      window.addEventListener("hashchange", () => this.seekAddressPoint());
    }

    /**
     * Moves to the point the page's address names (`#at=…`), if any. One that names no point
     * of this page (or is not even text) leaves the cursor where it is, and the position
     * line says so: a typo in an address does not take the page away.
     */
    seekAddressPoint() {
      try {
        const point = pointInAddress();
        if (point === null) return;
        const sequence = this.session.resolve(parsePoint(point));
        this.pause();
        this.seek(sequence);
        this.addressSequence = this.sequence;
      } catch (error) {
        // The address stays as typed until the cursor moves.
        this.addressSequence = this.sequence;
        clearTimeout(this.addressTimer);
        text(byId("position"), `The address names no point of this page: ${error.message}`);
      }
    }

    /** The page's keys, when no control that takes them has the focus. */
    keyDown(event) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target;
      const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
      if (typing) {
        // Esc leaves the find box for the player's keys (the scrubber takes them).
        if (event.key === "Escape" && target.id === "find-input") {
          byId("scrubber").focus();
          event.preventDefault();
        }
        return;
      }
      switch (event.key) {
        case "ArrowLeft":
          this.step(-1);
          break;
        case "ArrowRight":
          this.step(1);
          break;
        case "Home":
          this.step(-Infinity);
          break;
        case "End":
          this.step(Infinity);
          break;
        case " ":
          if (target instanceof HTMLButtonElement) return;
          if (this.playing) this.pause();
          else this.play();
          break;
        case "/":
          byId("find-input").focus();
          break;
        case "p":
          this.togglePin();
          break;
        default:
          return;
      }
      event.preventDefault();
    }
  }

  /** The point in the page's address (`page.html#at=12`, `#at=+4s`), if any. */
  function pointInAddress() {
    const match = /(?:^|[#&])at=([^&]*)/.exec(location.hash);
    if (!match) return null;
    try {
      return decodeURIComponent(match[1]);
    } catch {
      const written = match[1].length > 40 ? `${match[1].slice(0, 30)}…` : match[1];
      throw new Error(`'${written}' is not text: in an address, a % and two hexadecimal digits stand for a byte of UTF-8`);
    }
  }

  /** The page's address with `at=` naming `sequence` (the fragment's other parts kept). */
  function addressWith(sequence) {
    const parts = location.hash.replace(/^#/, "").split("&").filter((part) => part !== "" && !part.startsWith("at="));
    return "#" + [`at=${sequence}`, ...parts].join("&");
  }

  /** Starts the page: reads the data, draws the first point, exposes `window.rewind`. */
  RewindPage.start = () => {
    let player;
    try {
      const session = new RewindPage.Session(readData());
      player = new Player(session);
      player.seek(session.from);
      player.seekAddressPoint();
      player.addressSequence = player.sequence;
      player.followsAddress = true;
    } catch (error) {
      const message = make("p", "error", `This page cannot be shown: ${error.message}`);
      message.setAttribute("role", "alert");
      document.querySelector("main").replaceChildren(message);
      throw error;
    }
    const position = () => {
      const time = player.session.timeOf(player.sequence);
      // To the microsecond, so that seek(position().offset) comes back here.
      return { sequence: player.sequence, offset: "+" + exactOffset(time), time_us: time };
    };
    /** The script interface, for automation and tests. */
    window.rewind = Object.freeze({
      /** Moves the cursor to a point (a sequence number, `"+12.5s"`, an ISO-8601 time, `"start"`, `"end"`, `"end-1"`); returns the position. */
      seek(point) {
        player.pause();
        player.seek(player.session.resolve(parsePoint(point)));
        return position();
      },
      /** The cursor: `{sequence, offset, time_us}`. */
      position,
      /** The state shown, exactly as `rewind state --at P --json` prints it (without its last newline). */
      shownState: () => pretty(player.session.state(player.sequence)),
      /** Event `sequence` of the page, exactly as `rewind log --json` prints it (without its newline). */
      event(sequence) {
        const { from, to } = player.session;
        if (!Number.isSafeInteger(sequence) || sequence <= from || sequence > to) {
          throw new Error(
            from === to
              ? `${sequence} is not an event of this page: it holds none (its point is ${from})`
              : `${sequence} is not an event of this page (its events are ${from + 1}–${to})`,
          );
        }
        return compact(player.session.event(sequence));
      },
      /**
       * Every point where a `find` condition becomes true: [{sequence, value}], values as
       * JSON text, null for a condition that names no field (one on the event alone, which
       * `rewind find --json` gives no value). Throws with the reason.
       */
      find(condition) {
        try {
          const { compiled, hits } = player.find(condition);
          const showsValue = compiled.paths.length > 0;
          return hits.map((hit) => ({ sequence: hit.sequence, value: showsValue ? compact(hit.value) : null }));
        } catch (error) {
          throw new Error(error instanceof ConditionError ? error.reason : error.message);
        }
      },
      /** The pinned point, or null. */
      pinned: () => player.pinned,
    });
    document.documentElement.dataset.openedMs = performance.now().toFixed(1);
    document.documentElement.dataset.ready = "true";
  };
})();
