// scrubber.js: the timeline under the screen: a slider over the page's time span with every
// event drawn as a tick, its kind's colour above and below the shares of its outcomes
// (applied, unchanged, rejected: rejected ones at the bottom, a third of the band at least). Clicking or dragging moves the cursor to the last event at or
// before the time under the pointer, just past either end to that end; it is keyboard
// operable as an ARIA slider.
(() => {
  /** Colours of event kinds, in order, readable on light and dark backgrounds; none is the
   *  green or the red of the outcomes. */
  const KIND_COLOURS = [
    "#4e79a7", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#9c755f",
    "#ff9da7", "#17becf", "#bcbd22", "#3f51b5", "#c5b0d5", "#e377c2",
  ];
  const OUTCOME_COLOURS = ["#2e9d4a", "#9a9a9a", "#d62728"];

  class Scrubber {
    /**
     * @param element the slider element (holding a canvas and a cursor element)
     * @param session the page's session
     * @param player  what moves the cursor: seekTime(time), step(delta), seek(sequence)
     */
    constructor(element, session, player) {
      this.element = element;
      this.session = session;
      this.player = player;
      this.canvas = element.querySelector("canvas");
      this.cursor = element.querySelector(".scrubber-cursor");
      this.pin = element.querySelector(".scrubber-pin");
      this.element.addEventListener("pointerdown", (event) => this.pointerDown(event));
      this.element.addEventListener("pointermove", (event) => this.pointerMove(event));
      this.element.addEventListener("pointerup", (event) => this.pointerUp(event));
      this.element.addEventListener("pointercancel", (event) => this.pointerUp(event));
      this.element.addEventListener("keydown", (event) => this.keyDown(event));
      this.dragging = false;
      this.width = 0;
      new ResizeObserver(() => this.draw()).observe(this.element);
    }

    static kindColour(index) {
      return KIND_COLOURS[index % KIND_COLOURS.length];
    }
    static outcomeColour(index) {
      return OUTCOME_COLOURS[index];
    }

    /** The fraction of the span (0–1) of a time. */
    fraction(time) {
      const span = this.session.endTime - this.session.startTime;
      return span > 0 ? (time - this.session.startTime) / span : 1;
    }

    /** The time under a horizontal position in the element's box. */
    timeAt(clientX) {
      const box = this.element.getBoundingClientRect();
      const fraction = Math.min(Math.max((clientX - box.left) / box.width, 0), 1);
      return this.session.startTime + fraction * (this.session.endTime - this.session.startTime);
    }

    /**
     * Goes to the last point at or before the time under a horizontal position; at or past
     * the left edge, to the page's first point (the start, before events at its time); on
     * the last pixel column the ticks are drawn in (the one of the events at the end) or
     * past it, to the page's last point. (The time under that column is a pixel's worth
     * before the end: a click there went to an event a pixel before the last ones.)
     */
    seekAt(clientX) {
      if (clientX <= this.element.getBoundingClientRect().left) this.player.seek(this.session.from);
      else if (clientX >= this.canvas.getBoundingClientRect().right - 1) this.player.seek(this.session.to);
      else this.player.seekTime(this.timeAt(clientX));
    }

    pointerDown(event) {
      if (event.button !== 0) return;
      event.preventDefault();
      this.element.focus();
      this.dragging = true;
      this.element.setPointerCapture(event.pointerId);
      this.seekAt(event.clientX);
    }
    pointerMove(event) {
      if (this.dragging) this.seekAt(event.clientX);
    }
    pointerUp(event) {
      if (!this.dragging) return;
      this.dragging = false;
      if (this.element.hasPointerCapture(event.pointerId)) this.element.releasePointerCapture(event.pointerId);
    }

    keyDown(event) {
      const span = this.session.endTime - this.session.startTime;
      const time = this.session.timeOf(this.player.sequence);
      switch (event.key) {
        case "ArrowLeft":
        case "ArrowDown":
          this.player.step(-1);
          break;
        case "ArrowRight":
        case "ArrowUp":
          this.player.step(1);
          break;
        case "PageDown":
          this.player.seekTime(time - span / 10);
          break;
        case "PageUp":
          this.player.seekTime(time + span / 10);
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

    /** Draws the ticks: one pixel column shows its last event's kind and its events' outcomes' shares. */
    draw() {
      const ratio = window.devicePixelRatio || 1;
      const width = Math.max(Math.round(this.canvas.clientWidth * ratio), 1);
      const height = Math.max(Math.round(this.canvas.clientHeight * ratio), 1);
      if (this.canvas.width !== width) this.canvas.width = width;
      if (this.canvas.height !== height) this.canvas.height = height;
      this.width = width;
      const context = this.canvas.getContext("2d");
      context.clearRect(0, 0, width, height);
      const { session } = this;
      const kinds = new Int32Array(width).fill(-1);
      // Each column's events of each outcome (applied, unchanged, rejected).
      const outcomes = new Int32Array(width * 3);
      for (let index = 0; index < session.count; index++) {
        const column = Math.min(Math.floor(this.fraction(session.times[index]) * width), width - 1);
        const code = session.codes[index];
        outcomes[column * 3 + (code % 3)] += 1;
        kinds[column] = Math.floor(code / 3);
      }
      const split = Math.round(height * 0.6);
      const band = height - split;
      for (let column = 0; column < width; column++) {
        if (kinds[column] < 0) continue;
        context.fillStyle = Scrubber.kindColour(kinds[column]);
        context.fillRect(column, 0, 1, split);
        // The outcomes' shares, top to bottom, rejected ones at the bottom and never less
        // than a third of the band: a column was red whenever one event of it was
        // rejected, and a long session of a few rejections looked mostly rejected.
        const [applied, unchanged, rejected] = outcomes.subarray(column * 3, column * 3 + 3);
        const total = applied + unchanged + rejected;
        const red = rejected === 0 ? 0 : Math.max(Math.round((band * rejected) / total), Math.ceil(band / 3));
        const green = applied + unchanged === 0 ? 0 : Math.round(((band - red) * applied) / (applied + unchanged));
        const shares = [
          [0, green],
          [1, band - red - green],
          [2, red],
        ];
        let y = split;
        for (const [outcome, rows] of shares) {
          if (rows <= 0) continue;
          context.fillStyle = OUTCOME_COLOURS[outcome];
          context.fillRect(column, y, 1, rows);
          y += rows;
        }
      }
      this.update();
    }

    /** Places the cursor (and the pinned point) and says where it is. */
    update(pinned = this.pinned) {
      this.pinned = pinned;
      const { session, player } = this;
      const sequence = player.sequence;
      this.cursor.style.left = `${this.fraction(session.timeOf(sequence)) * 100}%`;
      if (pinned === null || pinned === undefined) {
        this.pin.hidden = true;
      } else {
        this.pin.hidden = false;
        this.pin.style.left = `${this.fraction(session.timeOf(pinned)) * 100}%`;
      }
      this.element.setAttribute("aria-valuemin", String(session.from));
      this.element.setAttribute("aria-valuemax", String(session.to));
      this.element.setAttribute("aria-valuenow", String(sequence));
      this.element.setAttribute("aria-valuetext", player.positionText());
    }
  }

  RewindPage.Scrubber = Scrubber;
})();
