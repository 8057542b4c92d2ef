// A minimal reproducer, for swift-corelibs-foundation, of URLSession burning CPU on Linux while it waits for a
// response: one GET to a server that accepts and answers only after 30 s. Run by Benchmarks/urlsession-spin/run.
//
// What happens (FoundationNetworking's libcurl/MultiHandle.swift): curl asks for write readiness while it connects and
// sends (CURL_POLL_OUT or CURL_POLL_INOUT), then for read readiness alone (CURL_POLL_IN) while it waits. The
// register callback creates the sources an action needs but never cancels one it no longer needs, so the write
// source made for the request stays; the socket is always writable, so libdispatch fires it, Foundation calls
// curl_multi_socket_action, curl finds nothing to do, and the source is re-armed: a busy loop until the answer.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let url = URL(string: CommandLine.arguments[1])!
let done = DispatchSemaphore(value: 0)
URLSession.shared.dataTask(with: url) { data, _, error in
    print("answered:", data?.count ?? -1, error.map { "\($0)" } ?? "no error")
    done.signal()
}.resume()
done.wait()
