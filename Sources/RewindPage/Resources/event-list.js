// event-list.js: the events of the page as a list box, one row per point (the page's start,
// then each event: sequence, offset, kind, arguments, outcome and reason), synchronised
// with the cursor. Only the rows in view exist, so 200,000 events cost no more than 30.
(() => {
  const { compact } = RewindPage.json;
  const { shownOffset } = RewindPage.point;

  /**
   * An event's arguments as shown: its payload's values, `name=value` when it has several; a
   * string with a space, a quote or a control character (which would be obeyed, or reorder
   * the text around it) as JSON, which escapes it.
   */
  function argumentsText(event) {
    const members = [...event].filter(([key]) => !["seq", "time_us", "event", "outcome", "reason"].includes(key));
    const plainText = /^[^\s"\u0000-\u001F\u007F-\u009F\u2028-\u202E\u2066-\u2069]+$/u;
    const shown = (value) => (typeof value === "string" && plainText.test(value) ? value : compact(value));
    if (members.length === 1) return shown(members[0][1]);
    return members.map(([key, value]) => `${key}=${shown(value)}`).join(" ");
  }

  class EventList {
    constructor(element, session, player) {
      this.element = element;
      this.session = session;
      this.player = player;
      this.spacer = document.createElement("div");
      this.spacer.className = "event-spacer";
      this.element.append(this.spacer);
      this.rows = new Map();
      this.rowHeight = this.measureRow();
      this.spacer.style.height = `${(session.count + 1) * this.rowHeight}px`;
      this.element.addEventListener("scroll", () => this.render());
      this.element.addEventListener("click", (event) => {
        const row = event.target.closest(".event-row");
        if (row) this.player.seek(Number(row.dataset.sequence));
      });
      this.element.addEventListener("keydown", (event) => this.keyDown(event));
      new ResizeObserver(() => {
        const height = this.measureRow();
        if (height !== this.rowHeight) {
          // The rows laid out again at their new height, the cursor's in view.
          this.rowHeight = height;
          this.spacer.style.height = `${(session.count + 1) * this.rowHeight}px`;
          for (const row of this.rows.values()) row.remove();
          this.rows.clear();
          this.reveal();
        } else {
          this.render();
        }
      }).observe(this.element);
    }

    /**
     * The height of a row, in pixels, as the style sheet makes it (it follows the zoom): the
     * taller of the start's row and an event's, measured in a list of their own out of view.
     * Not in this list: scrolled millions of pixels down, a row's box reads rounded, a
     * different height after every resize.
     */
    measureRow() {
      const probe = document.createElement("div");
      probe.className = "event-list event-probe";
      probe.setAttribute("aria-hidden", "true");
      const rows = [this.row(this.session.from)];
      if (this.session.count > 0) rows.push(this.row(this.session.from + 1));
      for (const row of rows) {
        row.removeAttribute("id");
        row.style.position = "static";
        probe.append(row);
      }
      document.body.append(probe);
      const height = Math.max(...rows.map((row) => row.getBoundingClientRect().height)) || 24;
      probe.remove();
      return height;
    }

    keyDown(event) {
      const page = Math.max(Math.floor(this.element.clientHeight / this.rowHeight) - 1, 1);
      switch (event.key) {
        case "ArrowUp":
        case "ArrowLeft":
          this.player.step(-1);
          break;
        case "ArrowDown":
        case "ArrowRight":
          this.player.step(1);
          break;
        case "PageUp":
          this.player.step(-page);
          break;
        case "PageDown":
          this.player.step(page);
          break;
        case "Home":
          this.player.seek(this.session.from);
          break;
        case "End":
          this.player.seek(this.session.to);
          break;
        default:
          return;
      }
      event.preventDefault();
      event.stopPropagation();
    }

    /** The row of the point after event `sequence` (the page's start for its first point). */
    row(sequence) {
      const { session } = this;
      const row = document.createElement("div");
      row.className = "event-row";
      row.id = `event-${sequence}`;
      row.setAttribute("role", "option");
      row.dataset.sequence = String(sequence);
      const cell = (className, text) => {
        const span = document.createElement("span");
        span.className = className;
        span.textContent = text;
        row.append(span);
        return span;
      };
      cell("event-seq", String(sequence));
      cell("event-time", shownOffset(session.timeOf(sequence)));
      if (sequence === session.from) {
        cell("event-kind", sequence === 0 ? "start" : "page start");
        cell("event-args", sequence === 0 ? "the initial state" : `the state after event ${sequence}`);
        cell("event-outcome", "");
        return row;
      }
      const event = session.event(sequence);
      const code = session.codes[sequence - session.from - 1];
      const kind = cell("event-kind", event.get("event"));
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.backgroundColor = RewindPage.Scrubber.kindColour(Math.floor(code / 3));
      kind.prepend(swatch);
      cell("event-args", argumentsText(event));
      const outcome = event.get("outcome");
      const reason = event.get("reason");
      const outcomeCell = cell(`event-outcome outcome-${outcome}`, reason === undefined ? outcome : `${outcome}: ${reason}`);
      row.title = `${sequence} ${shownOffset(session.timeOf(sequence))} ${event.get("event")} ${argumentsText(event)} ${outcomeCell.textContent}`;
      return row;
    }

    /** Makes the rows in view (and a few around them), drops the others, marks the cursor's. */
    render() {
      const { session } = this;
      const first = Math.max(Math.floor(this.element.scrollTop / this.rowHeight) - 5, 0);
      const last = Math.min(Math.ceil((this.element.scrollTop + this.element.clientHeight) / this.rowHeight) + 5, session.count);
      for (const [index, row] of this.rows) {
        if (index < first || index > last) {
          row.remove();
          this.rows.delete(index);
        }
      }
      for (let index = first; index <= last; index++) {
        if (this.rows.has(index)) continue;
        const row = this.row(session.from + index);
        row.style.top = `${index * this.rowHeight}px`;
        row.style.height = `${this.rowHeight}px`;
        this.spacer.append(row);
        this.rows.set(index, row);
      }
      const current = this.player.sequence - session.from;
      for (const [index, row] of this.rows) {
        const selected = index === current;
        row.classList.toggle("current", selected);
        row.setAttribute("aria-selected", selected ? "true" : "false");
      }
      if (this.rows.has(current)) this.element.setAttribute("aria-activedescendant", `event-${this.player.sequence}`);
      else this.element.removeAttribute("aria-activedescendant");
    }

    /** Scrolls the cursor's row into view, then renders. */
    reveal() {
      const index = this.player.sequence - this.session.from;
      const top = index * this.rowHeight;
      const view = this.element.clientHeight;
      if (top < this.element.scrollTop) this.element.scrollTop = top;
      else if (top + this.rowHeight > this.element.scrollTop + view) this.element.scrollTop = top + this.rowHeight - view;
      this.render();
    }
  }

  RewindPage.EventList = EventList;
  RewindPage.argumentsText = argumentsText;
})();
