// navigation-screen.js: the navigation domain's screens in a session's page, drawn from
// the state's JSON as the seeds draw them: the black menu strip with white labels, a 2-pt
// white underline under the selected day and a 1-pt gray line under the others, scrolled
// as recorded; the split view's visible columns (sidebar, content, detail) with their
// titles, rows, disclosures and selection, the detail's photo as a labelled placeholder,
// the tutorials' placeholder texts, the leading columns over the detail when they
// overlay it, and the compact one-column stack with its back button; all in a frame of
// the device's proportions, scaled to fit. Text from the session goes in as text only.
(() => {
  const make = (tag, className, content) => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (content !== undefined) element.textContent = content;
    return element;
  };

  /** The catalog's nodes by id, with their parents and depths. */
  function indexCatalog(catalog) {
    const nodes = new Map();
    const walk = (node, parent, depth) => {
      nodes.set(node.id, { node, parent, depth });
      for (const child of node.children || []) walk(child, node, depth + 1);
    };
    for (const category of catalog.categories) walk(category, null, 0);
    return nodes;
  }

  class NavigationScreen {
    constructor(element, session) {
      this.element = element;
      this.data = session.data;
      this.nodes = indexCatalog(this.data.catalog);
      this.viewport = make("div", "nav-viewport");
      this.device = make("div", "nav-device");
      this.screen = make("div", "nav-screen");
      this.screen.setAttribute("role", "group");
      this.menu = make("nav", "nav-menu");
      this.menu.setAttribute("aria-label", "Menu");
      this.menuViewport = make("div", "nav-menu-viewport");
      this.strip = make("ol", "nav-strip");
      this.tabs = this.data.catalog.menuLabels.map((label, index) => {
        const tab = make("li", "nav-tab");
        tab.style.width = `${this.data.catalog.menuLabelWidths[index]}px`;
        tab.append(make("span", "nav-tab-label", label), make("span", "nav-tab-line"));
        this.strip.append(tab);
        return tab;
      });
      this.menuViewport.append(this.strip);
      this.menu.append(this.menuViewport);
      this.split = make("div", "nav-split");
      this.screen.append(this.menu, this.split);
      this.device.append(this.screen);
      this.viewport.append(this.device);
      element.replaceChildren(this.viewport);
      this.size = [0, 0];
      new ResizeObserver(() => this.fit()).observe(element);
    }

    /**
     * Scales the device to fit the element's box, centred. The page gives the element the
     * same size whatever the state, so that turning the device moves nothing around it.
     */
    fit() {
      const [width, height] = this.size;
      if (width === 0) return;
      const available = [this.element.clientWidth, this.element.clientHeight];
      const scale = Math.min(available[0] / width, available[1] / height, 1.5);
      this.device.style.transform = `scale(${scale})`;
      this.device.style.left = `${(available[0] - width * scale) / 2}px`;
      this.device.style.top = `${(available[1] - height * scale) / 2}px`;
      // The menu's lines are 1 and 2 pixels on the page's screen, as the seeds draw them,
      // whatever the scale.
      this.device.style.setProperty("--nav-pixel", `${Math.max(1, 1 / scale)}px`);
    }

    render(state) {
      const { menu, split } = state;
      const screen = this.data.screen;
      const [width, height] = screen[split.orientation] || screen.landscape;
      const bezel = screen.idiom === "phone" ? 14 : 18;
      this.device.className = `nav-device nav-${screen.idiom} nav-${split.orientation}`;
      this.screen.style.width = `${width}px`;
      this.screen.style.height = `${height}px`;
      this.device.style.width = `${width + 2 * bezel}px`;
      this.device.style.height = `${height + 2 * bezel}px`;
      this.device.style.padding = `${bezel}px`;
      if (this.size[0] !== width + 2 * bezel || this.size[1] !== height + 2 * bezel) {
        this.size = [width + 2 * bezel, height + 2 * bezel];
        this.fit();
      }
      const shown = split.sizeClass === "compact" ? [split.compactColumn] : split.visibleColumns;
      this.screen.setAttribute(
        "aria-label",
        `${screen.name}, ${split.orientation}, ${split.sizeClass} width: ${shown.join(", ")}` +
          (split.overlay ? ", the leading columns over the detail" : ""),
      );

      // The menu strip: its viewport as wide as recorded, scrolled as recorded.
      this.menuViewport.style.width = `${menu.viewportWidth}px`;
      this.strip.style.transform = `translateX(${-menu.scrollOffset}px)`;
      this.tabs.forEach((tab, index) => {
        const selected = index === menu.selectedIndex;
        tab.classList.toggle("selected", selected);
        if (selected) tab.setAttribute("aria-current", "true");
        else tab.removeAttribute("aria-current");
      });

      // The split view.
      this.split.className = `nav-split nav-${split.sizeClass}` + (split.overlay ? " nav-overlay" : "");
      if (split.sizeClass === "compact") {
        const column = this.column(split.compactColumn, state);
        if (split.compactColumn !== "sidebar") column.prepend(this.backButton(split.compactColumn, state));
        column.classList.add("nav-full");
        this.split.replaceChildren(column);
        return;
      }
      const columns = split.visibleColumns.map((name) => {
        const column = this.column(name, state);
        if (name === "detail") column.classList.add("nav-detail-column");
        else column.style.width = `${this.leadingWidth(name, width, split.visibleColumns.length)}px`;
        return column;
      });
      if (split.visibleColumns.length === 1) columns[0].classList.add("nav-full");
      this.split.replaceChildren(...columns);
    }

    /** The width of a leading column, in points, for a screen `width` points wide. */
    leadingWidth(name, width, visible) {
      const share = visible === 3 ? 0.27 : 0.32;
      return Math.round(Math.min(name === "sidebar" ? 320 : 340, width * share));
    }

    name(id) {
      const entry = this.nodes.get(id);
      return entry ? entry.node.name : id;
    }

    backButton(column, state) {
      const { split } = state;
      let title = this.data.texts.sidebarTitle;
      if (column === "detail" && split.layout === "threeColumn") {
        title = split.selectedCategory === null ? "Items" : this.name(split.selectedCategory);
      }
      const back = make("div", "nav-back", `‹ ${title}`);
      back.setAttribute("aria-label", `Back to ${title}`);
      return back;
    }

    /** One column: its title and rows, or its placeholder. */
    column(name, state) {
      const { split } = state;
      const { texts } = this.data;
      const column = make("section", `nav-column nav-${name}`);
      const title = (text) => column.append(make("h3", "nav-title", text));
      const placeholder = (text) => column.append(make("p", "nav-placeholder", text));
      if (name === "sidebar") {
        title(texts.sidebarTitle);
        const list = make("ul", "nav-list");
        for (const category of this.data.catalog.categories) {
          const row = make("li", "nav-row", category.name);
          if (split.selectedCategory === category.id) {
            row.classList.add("selected");
            row.setAttribute("aria-current", "true");
          }
          list.append(row);
        }
        column.append(list);
        return column;
      }
      if (name === "content" || split.layout === "twoColumn") {
        const category = split.selectedCategory === null ? null : this.nodes.get(split.selectedCategory);
        if (!category) {
          title(name === "content" ? "Items" : "Detail");
          placeholder(name === "content" ? texts.selectMenuItem : texts.selectCategory);
          return column;
        }
        title(category.node.name);
        const list = make("ul", "nav-list");
        this.itemRows(category.node, 0, state, list);
        if (list.childElementCount === 0) list.append(make("li", "nav-row nav-empty", texts.noItems));
        column.append(list);
        return column;
      }
      const item = split.selectedItem === null ? null : this.nodes.get(split.selectedItem);
      if (!item) {
        title("Detail");
        placeholder(texts.selectItem);
        return column;
      }
      title(item.node.name);
      const photo = make("figure", "nav-photo");
      const picture = make("div", "nav-picture");
      picture.append(make("span", "nav-picture-sun"), make("span", "nav-picture-hill"));
      photo.append(picture, make("figcaption", "nav-caption", item.node.image === "" ? "no photo" : item.node.image));
      photo.setAttribute("aria-label", item.node.image === "" ? "no photo" : `photo: ${item.node.image}`);
      column.append(photo);
      return column;
    }

    /** Whether `id` lies below `ancestor`. */
    isBelow(id, ancestor) {
      let entry = this.nodes.get(id);
      while (entry && entry.parent) {
        if (entry.parent === ancestor) return true;
        entry = this.nodes.get(entry.parent.id);
      }
      return false;
    }

    /** The sub-items of `parent`, expanded ones followed by their children, indented. */
    itemRows(parent, depth, state, list) {
      const { split } = state;
      for (const child of parent.children || []) {
        const expandable = (child.children || []).length > 0;
        const expanded = expandable && split.expanded.includes(child.id);
        const row = make("li", "nav-row");
        row.style.paddingLeft = `${16 + depth * 20}px`;
        const disclosure = make("span", "nav-disclosure" + (expandable ? (expanded ? " open" : "") : " none"));
        disclosure.setAttribute("aria-hidden", "true");
        row.append(disclosure, make("span", "nav-row-label", child.name));
        if (expandable) row.setAttribute("aria-expanded", expanded ? "true" : "false");
        if (split.selectedItem === child.id) {
          row.classList.add("selected");
          row.setAttribute("aria-current", "true");
        } else if (split.selectedItem !== null && !expanded && this.isBelow(split.selectedItem, child)) {
          row.classList.add("holds-selection");
        }
        list.append(row);
        if (expanded) this.itemRows(child, depth + 1, state, list);
      }
    }
  }

  let screen = null;
  RewindPage.defineRenderer({
    render(element, state, session) {
      if (!screen || screen.element !== element) screen = new NavigationScreen(element, session);
      screen.render(state);
    },
  });
})();
