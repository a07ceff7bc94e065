#if canImport(Glibc)
  import Foundation
  import Glibc
  import TestSupport

  /// A headless Chromium driven through the DevTools protocol over a pipe
  /// (`--remote-debugging-pipe`: the browser reads commands on its fd 3 and writes answers
  /// and events on its fd 4, each message JSON ending in a NUL byte): no port, no network.
  ///
  /// The browser runs in a process group of its own with a profile in a temporary
  /// directory; ``close()`` (or releasing the object) ends the group and waits for it.
  /// Every call waits at most ``timeout``. (Linux only: it spawns the browser with Glibc's
  /// `posix_spawn`, and the browser tests use Debian's `chromium`.)
  final class HeadlessChromium {
    struct Failure: Error, CustomStringConvertible {
      var description: String
      init(_ description: String) { self.description = description }
    }

    /// An event the browser sent: its method, parameters and the page session it is of.
    struct Event {
      var method: String
      var params: [String: Any]
      var session: String?
    }

    /// How long one command may take.
    let timeout: TimeInterval = 30
    private let pid: pid_t
    private let commands: Int32
    private let answers: Int32
    private let profile = TemporaryDirectory()
    private var nextID = 1
    private var received: [UInt8] = []
    private var closed = false
    /// Every event received so far.
    private(set) var events: [Event] = []

    /// The browser's executable: `chromium` as Debian installs it, or another Chromium
    /// found on the path.
    static var executable: String? {
      for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let path = TestSupport.executable(named: name) { return path }
      }
      return FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
        ? "/usr/bin/chromium" : nil
    }

    /// Starts a browser.
    /// - Throws: ``Failure`` when no Chromium is installed or it cannot be started.
    init() throws {
      guard let executable = HeadlessChromium.executable else {
        throw Failure("no Chromium found: Tools/install-dependencies installs Debian's chromium")
      }
      // Both pipes close on exec; the child gets its ends as fds 3 and 4 by dup2, which
      // clears the flag on the copies only.
      var toBrowser: [Int32] = [0, 0]
      var fromBrowser: [Int32] = [0, 0]
      guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
        throw Failure("cannot make pipes: errno \(errno)")
      }
      for descriptor in toBrowser + fromBrowser { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      // Above fd 4, so that placing one end cannot overwrite the other.
      let childReads = fcntl(toBrowser[0], F_DUPFD_CLOEXEC, 10)
      let childWrites = fcntl(fromBrowser[1], F_DUPFD_CLOEXEC, 10)
      closeDescriptor(toBrowser[0])
      closeDescriptor(fromBrowser[1])
      commands = toBrowser[1]
      answers = fromBrowser[0]

      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(
        &actions, 1, profile.file("browser.log"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
      posix_spawn_file_actions_adddup2(&actions, childReads, 3)
      posix_spawn_file_actions_adddup2(&actions, childWrites, 4)
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
      posix_spawnattr_setpgroup(&attributes, 0)

      let arguments = [
        executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
        "--user-data-dir=\(profile.path)", "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
        "--force-color-profile=srgb", "about:blank",
      ]
      var environment = ProcessInfo.processInfo.environment
      environment["HOME"] = profile.path
      let argv = arguments.map { strdup($0) } + [nil]
      let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer {
        for string in argv + envp { free(string) }
      }
      var child: pid_t = 0
      let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
      closeDescriptor(childReads)
      closeDescriptor(childWrites)
      guard status == 0 else {
        closeDescriptor(commands)
        closeDescriptor(answers)
        throw Failure("cannot start \(executable): error \(status)")
      }
      pid = child
    }

    deinit { close() }

    /// What the browser wrote on its standard error (for messages).
    var log: String {
      (try? String(contentsOfFile: profile.file("browser.log"), encoding: .utf8)) ?? ""
    }

    /// Sends a command and waits for its answer, keeping the events that come before it.
    /// - Returns: the answer's `result`.
    /// - Throws: ``Failure`` with the browser's error, or when no answer comes in time.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil) throws
      -> [String: Any]
    {
      let id = nextID
      nextID += 1
      var message: [String: Any] = ["id": id, "method": method, "params": params]
      if let session { message["sessionId"] = session }
      var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
      bytes.append(0)
      var written = 0
      while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw Failure("\(method): the browser is gone (errno \(errno))") }
        written += count
      }
      let deadline = Date().addingTimeInterval(timeout)
      while true {
        guard let answer = try nextMessage(until: deadline) else {
          throw Failure("\(method): no answer within \(Int(timeout)) s")
        }
        guard (answer["id"] as? Int) == id else { continue }
        if let error = answer["error"] as? [String: Any] {
          throw Failure("\(method): \(error["message"] ?? error)")
        }
        return answer["result"] as? [String: Any] ?? [:]
      }
    }

    /// Waits until an event `method` of `session` has come (counting those already
    /// received after index `since`), and returns it.
    @discardableResult
    func waitForEvent(_ method: String, session: String?, since: Int = 0) throws -> Event {
      let deadline = Date().addingTimeInterval(timeout)
      var checked = since
      while true {
        while checked < events.count {
          let event = events[checked]
          checked += 1
          if event.method == method && event.session == session { return event }
        }
        guard try nextMessage(until: deadline) != nil else {
          throw Failure("no \(method) within \(Int(timeout)) s")
        }
      }
    }

    /// The next message, read from the pipe; an event is also kept in ``events``. Nil when
    /// none comes before `deadline`.
    private func nextMessage(until deadline: Date) throws -> [String: Any]? {
      while true {
        if let end = received.firstIndex(of: 0) {
          let data = Data(received[..<end])
          received.removeSubrange(...end)
          guard let message = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            continue
          }
          if let method = message["method"] as? String {
            events.append(
              Event(
                method: method, params: message["params"] as? [String: Any] ?? [:],
                session: message["sessionId"] as? String))
          }
          return message
        }
        let left = deadline.timeIntervalSinceNow
        guard left > 0 else { return nil }
        var descriptor = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(min(left, 1) * 1_000) + 1)
        if ready < 0 && errno == EINTR { continue }
        guard ready > 0 else { continue }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw Failure("the browser closed its pipe:\n\(log.suffix(2_000))") }
        received += chunk[..<count]
      }
    }

    /// Opens a new tab and attaches to it.
    func newPage(width: Int = 1280, height: Int = 900) throws -> BrowserPage {
      let target = try send("Target.createTarget", ["url": "about:blank"])
      guard let targetID = target["targetId"] as? String else { throw Failure("no target id") }
      let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
      guard let session = attached["sessionId"] as? String else { throw Failure("no session id") }
      let page = BrowserPage(browser: self, session: session, target: targetID)
      for domain in ["Page", "Runtime", "Network", "Log"] {
        try send("\(domain).enable", session: session)
      }
      try page.resize(width: width, height: height)
      return page
    }

    /// Ends the browser: asks it to close, then ends its process group, and waits for it.
    func close() {
      guard !closed else { return }
      closed = true
      _ = try? send("Browser.close")
      var status: Int32 = 0
      for _ in 0..<40 {
        if waitpid(pid, &status, WNOHANG) == pid { break }
        usleep(25_000)
      }
      // The renderer and GPU processes are in the browser's group, which is its pid.
      kill(-pid, SIGKILL)
      _ = waitpid(pid, &status, WNOHANG)
      closeDescriptor(commands)
      closeDescriptor(answers)
    }
  }

  /// One tab of a ``HeadlessChromium``.
  final class BrowserPage {
    let browser: HeadlessChromium
    let session: String
    let target: String

    init(browser: HeadlessChromium, session: String, target: String) {
      self.browser = browser
      self.session = session
      self.target = target
    }

    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
      try browser.send(method, params, session: session)
    }

    /// Sets the viewport, in CSS pixels, at one device pixel each.
    func resize(width: Int, height: Int) throws {
      try send(
        "Emulation.setDeviceMetricsOverride",
        ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
    }

    /// Loads `url` and waits for its `load` event.
    func open(_ url: String) throws {
      let since = browser.events.count
      let result = try send("Page.navigate", ["url": url])
      if let error = result["errorText"] as? String {
        throw HeadlessChromium.Failure("\(url): \(error)")
      }
      try browser.waitForEvent("Page.loadEventFired", session: session, since: since)
    }

    /// Evaluates a JavaScript expression (awaiting a promise) and returns its value as JSON
    /// gives it (nil for undefined or null).
    /// - Throws: ``HeadlessChromium/Failure`` with the exception's text when it throws.
    @discardableResult
    func evaluate(_ expression: String) throws -> Any? {
      let result = try send(
        "Runtime.evaluate",
        ["expression": expression, "returnByValue": true, "awaitPromise": true])
      if let exception = result["exceptionDetails"] as? [String: Any] {
        let thrown = (exception["exception"] as? [String: Any])?["description"] as? String
        throw HeadlessChromium.Failure(thrown ?? (exception["text"] as? String) ?? "\(exception)")
      }
      return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits for the page to draw twice: what a scroll or a resize set off has happened.
    func nextFrame() throws {
      try evaluate(
        "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
      )
    }

    /// The value of an expression that must be a string.
    func string(_ expression: String) throws -> String {
      guard let value = try evaluate(expression) as? String else {
        throw HeadlessChromium.Failure("\(expression) is not a string")
      }
      return value
    }

    /// The value of an expression that must be a number.
    func number(_ expression: String) throws -> Double {
      guard let value = try evaluate(expression) as? NSNumber else {
        throw HeadlessChromium.Failure("\(expression) is not a number")
      }
      return value.doubleValue
    }

    /// The centre and box of the element a CSS selector finds, in CSS pixels, after
    /// scrolling it into view.
    func box(_ selector: String) throws -> (x: Double, y: Double, width: Double, height: Double) {
      let quoted = String(
        decoding: try JSONSerialization.data(withJSONObject: [selector]), as: UTF8.self)
      guard
        let values = try evaluate(
          """
          (() => { const element = document.querySelector(\(quoted)[0]);
            if (!element) return null;
            element.scrollIntoView({block: "nearest", inline: "nearest"});
            const box = element.getBoundingClientRect();
            return [box.left, box.top, box.width, box.height]; })()
          """) as? [NSNumber]
      else { throw HeadlessChromium.Failure("no element \(selector)") }
      return (
        values[0].doubleValue, values[1].doubleValue, values[2].doubleValue, values[3].doubleValue
      )
    }

    /// Presses and releases the left button at a point, as a user's click.
    func click(x: Double, y: Double) throws {
      try send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": x, "y": y])
      for type in ["mousePressed", "mouseReleased"] {
        try send(
          "Input.dispatchMouseEvent",
          [
            "type": type, "x": x, "y": y, "button": "left",
            "buttons": type == "mousePressed" ? 1 : 0, "clickCount": 1,
          ])
      }
    }

    /// Clicks the centre of the element a CSS selector finds.
    func click(_ selector: String) throws {
      let box = try box(selector)
      try click(x: box.x + box.width / 2, y: box.y + box.height / 2)
    }

    /// Presses the left button at `from`, moves in `steps` to `to`, and releases it there.
    func drag(from: (x: Double, y: Double), to: (x: Double, y: Double), steps: Int = 8) throws {
      try send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": from.x, "y": from.y])
      try send(
        "Input.dispatchMouseEvent",
        [
          "type": "mousePressed", "x": from.x, "y": from.y, "button": "left", "buttons": 1,
          "clickCount": 1,
        ])
      for step in 1...steps {
        let fraction = Double(step) / Double(steps)
        try send(
          "Input.dispatchMouseEvent",
          [
            "type": "mouseMoved", "x": from.x + (to.x - from.x) * fraction,
            "y": from.y + (to.y - from.y) * fraction, "button": "left", "buttons": 1,
          ])
      }
      try send(
        "Input.dispatchMouseEvent",
        [
          "type": "mouseReleased", "x": to.x, "y": to.y, "button": "left", "buttons": 0,
          "clickCount": 1,
        ])
    }

    /// The DOM key names this driver presses, with their key codes.
    private static let keyCodes: [String: Int] = [
      "ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, "Home": 36, "End": 35,
      "Enter": 13, "Tab": 9, " ": 32, "PageUp": 33, "PageDown": 34, "Escape": 27, "/": 191, "p": 80,
    ]

    /// Presses and releases a key (a DOM key name: `ArrowRight`, `Enter`, `Tab`, `p`).
    func press(_ key: String, shift: Bool = false) throws {
      let code = HeadlessChromium.keyCode(key)
      var down: [String: Any] = [
        "type": "keyDown", "key": key, "code": code.name,
        "windowsVirtualKeyCode": BrowserPage.keyCodes[key] ?? 0, "modifiers": shift ? 8 : 0,
      ]
      if let text = code.text { down["text"] = text }
      try send("Input.dispatchKeyEvent", down)
      var up = down
      up["type"] = "keyUp"
      up["text"] = nil
      try send("Input.dispatchKeyEvent", up)
    }

    /// Types text into the focused element.
    func type(_ text: String) throws {
      try send("Input.insertText", ["text": text])
    }

    /// A screenshot of the viewport, PNG.
    func screenshot() throws -> Data {
      let result = try send("Page.captureScreenshot", ["format": "png"])
      guard let base64 = result["data"] as? String, let data = Data(base64Encoded: base64) else {
        throw HeadlessChromium.Failure("no screenshot")
      }
      return data
    }

    /// The URLs this tab asked for, as the browser's network log has them.
    var requests: [String] {
      browser.events.filter { $0.method == "Network.requestWillBeSent" && $0.session == session }
        .compactMap { ($0.params["request"] as? [String: Any])?["url"] as? String }
    }

    /// The errors this tab reported: exceptions, console errors, log entries of level error
    /// (a Content-Security-Policy violation among them).
    var errors: [String] {
      browser.events.filter { $0.session == session }.compactMap { event in
        switch event.method {
        case "Runtime.exceptionThrown":
          let details = event.params["exceptionDetails"] as? [String: Any]
          return
            "exception: \((details?["exception"] as? [String: Any])?["description"] ?? details?["text"] ?? "")"
        case "Runtime.consoleAPICalled" where event.params["type"] as? String == "error":
          return "console.error: \(event.params["args"] ?? "")"
        case "Log.entryAdded":
          let entry = event.params["entry"] as? [String: Any]
          guard entry?["level"] as? String == "error" else { return nil }
          return "log: \(entry?["text"] ?? "")"
        default: return nil
        }
      }
    }
  }

  extension HeadlessChromium {
    /// The DOM `code` of a key, and the text it types (Enter types a carriage return).
    fileprivate static func keyCode(_ key: String) -> (name: String, text: String?) {
      switch key {
      case "Enter": ("Enter", "\r")
      case " ": ("Space", " ")
      case "/": ("Slash", "/")
      case "p": ("KeyP", "p")
      default: (key, nil)
      }
    }
  }

  /// Closes a file descriptor (`close`, which the classes' own `close()` hides).
  private func closeDescriptor(_ descriptor: Int32) {
    _ = Glibc.close(descriptor)
  }
#endif
