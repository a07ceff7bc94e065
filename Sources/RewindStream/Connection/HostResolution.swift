import Dispatch
import RewindJournal
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the hosts of a server's addresses resolve, asked when no server answered: a
/// name that does not resolve (a typo, a name under `.invalid`, no DNS server) is said to
/// be one, apart from a server that refuses or cannot be reached, which libnats reports
/// alike (`NATS_NO_SERVER`).
enum HostResolution {
  /// Why each of `hosts` that does not resolve does not, as `getaddrinfo` says (`name or
  /// service not known`, `temporary failure in name resolution`), in the order given;
  /// hosts that resolve, or whose lookup fails otherwise (out of memory), are left out.
  ///
  /// The lookups run at once, each on a thread of its own, and are waited for at most
  /// `milliseconds` in all: a resolver that does not answer (no DNS server reachable) can
  /// take its retries' whole time, which libnats' own lookup has taken already. One not
  /// answered by then is left out.
  /// - Complexity: one `getaddrinfo` call a host.
  static func failures(of hosts: [String], waitingAtMost milliseconds: Int) -> [(
    host: String, reason: String
  )] {
    let lookups = hosts.map { host in
      let lookup = Lookup()
      let started = DetachedThread.tryStart {
        lookup.code.withLock { $0 = resolve(host) }
        lookup.done.signal()
      }
      return started == 0 ? lookup : nil
    }
    let deadline = DispatchTime.now() + .milliseconds(milliseconds)
    return zip(hosts, lookups).compactMap { host, lookup in
      guard let lookup, lookup.done.wait(timeout: deadline) == .success,
        let code = lookup.code.withLock({ $0 }), code != 0, code != EAI_SYSTEM, code != EAI_MEMORY
      else { return nil }
      return (host, describe(code))
    }
  }

  /// One lookup's outcome: `getaddrinfo`'s code once it has returned.
  private final class Lookup: Sendable {
    let code = Mutex<Int32?>(nil)
    let done = DispatchSemaphore(value: 0)
  }

  /// `getaddrinfo`'s code for `host` (0 when it resolves), the addresses freed.
  private static func resolve(_ host: String) -> Int32 {
    var hints = addrinfo()
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var found: UnsafeMutablePointer<addrinfo>?
    let code = getaddrinfo(host, nil, &hints, &found)
    if let found { freeaddrinfo(found) }
    return code
  }

  /// `gai_strerror`'s text for `code`, its first letter lower-cased to follow a colon.
  private static func describe(_ code: Int32) -> String {
    let text = String(cString: gai_strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }
}
