import LanesCore

/// A board's address in PostgreSQL: `postgresql://USER@HOST:PORT/DB?board=NAME` (or `postgres://`).
///
/// Lanes takes `board` (and `listen`) out of the query and gives libpq the rest unchanged, so its
/// environment (`PGHOST`, `PGPASSWORD`…), `~/.pgpass`, `sslmode`, `host=/socket/dir` and several
/// hosts (`postgresql://h1:5432,h2:5432/lanes?target_session_attrs=read-write`) all work. A
/// password in the URL is passed on but never shown: `display` leaves it out.
///
/// `listen=HOST:PORT` (or `listen=PORT`, the URL's own hosts) names where live updates are heard
/// when the URL points at a pooler in transaction pooling (PgBouncer): `LISTEN` needs a session
/// of its own, so Lanes keeps one connection there, beside the pooled one that carries every
/// query. HOST may be a socket directory (`listen=%2Fvar%2Frun%2Fpostgresql:5432`).
public struct PostgresURL: Hashable, Sendable, CustomStringConvertible {
    /// What libpq gets: the URL without the `board` parameter.
    public let conninfo: String
    public let board: String
    /// Where to LISTEN, when not on the connection itself (`listen=`).
    public let listen: ListenAddress?

    /// A server to LISTEN on beside a pooler: host nil for the URL's own hosts.
    public struct ListenAddress: Hashable, Sendable {
        public var host: String?
        public var port: String
    }
    /// The URL as messages show it: no password, `board` kept.
    public let display: String

    public var description: String { display }

    /// `text` with any password a connection string in it spells taken out (for messages).
    public static func withoutPasswords(_ text: String) -> String { Masking.mask(text) }

    /// Whether `s` is a PostgreSQL URL rather than a board file's path.
    public static func isURL(_ s: String) -> Bool {
        s.hasPrefix("postgresql://") || s.hasPrefix("postgres://")
    }

    public init(_ s: String) throws(CommandError) {
        guard PostgresURL.isURL(s) else {
            throw CommandError(.badInput, "not a PostgreSQL URL (postgresql://USER@HOST:PORT/DB?board=NAME)")
        }
        let (head, query) =
            s.firstIndex(of: "?").map { (String(s[..<$0]), String(s[s.index(after: $0)...])) } ?? (s, "")
        var kept: [String] = []
        var board: String?
        var listen: ListenAddress?
        var listenShown: String?
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            if part.hasPrefix("board=") {
                board = PostgresURL.percentDecoded(String(part.dropFirst("board=".count)))
            } else if part.hasPrefix("listen=") {
                let value = PostgresURL.percentDecoded(String(part.dropFirst("listen=".count)))
                let (host, port) =
                    value.lastIndex(of: ":").map { (String(value[..<$0]), String(value[value.index(after: $0)...])) }
                    ?? ("", value)
                guard let n = Int(port), (1...65535).contains(n) else {
                    throw CommandError(
                        .badInput,
                        "\(Masking.mask(head)): listen=\(value) is not HOST:PORT or PORT (where Lanes hears of changes, beside a pooler)"
                    )
                }
                listen = ListenAddress(host: host.isEmpty ? nil : host, port: String(n))
                listenShown = String(part)
            } else {
                kept.append(String(part))
            }
        }
        let shown = Masking.mask(head)
        guard let board, !board.isEmpty else {
            throw CommandError(.badInput, "\(shown): which board? Add ?board=NAME to the URL")
        }
        self.board = board
        self.listen = listen
        conninfo = kept.isEmpty ? head : head + "?" + kept.joined(separator: "&")
        let shownQuery =
            kept.map { Masking.mask($0) } + (listenShown.map { [$0] } ?? [])
            + ["board=" + PostgresURL.percentEncoded(board)]
        display = shown + "?" + shownQuery.joined(separator: "&")
    }

    static func percentDecoded(_ s: String) -> String {
        var bytes: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let b = u.popFirst() {
            if b == UInt8(ascii: "%"), u.count >= 2,
                let v = UInt8(String(decoding: u.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(v)
                u = u.dropFirst(2)
            } else if b == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func percentEncoded(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            let c = Character(Unicode.Scalar(b))
            if (c.isASCII && (c.isLetter || c.isNumber)) || "-._~".contains(c) {
                out.append(c)
            } else {
                out += "%" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
            }
        }
        return out
    }
}

/// Takes passwords out of text that may hold a connection string or a libpq message.
enum Masking {
    /// `postgresql://u:secret@h` → `postgresql://u@h`; `password=secret` → `password=***`.
    static func mask(_ s: String) -> String {
        var out = s
        // user:password@ in any URL in the text.
        for scheme in ["postgresql://", "postgres://"] {
            var searchFrom = out.startIndex
            while let r = out.range(of: scheme, range: searchFrom..<out.endIndex) {
                let rest = out[r.upperBound...]
                let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == " " }) ?? rest.endIndex
                let authority = rest[..<authorityEnd]
                if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                    out.removeSubrange(colon..<at)
                }
                searchFrom = r.upperBound
                if searchFrom >= out.endIndex { break }
            }
        }
        // password=… in a query or a key=value string, in any case (libpq's keywords are case-sensitive,
        // but a refusal that quotes the text must not print what the user meant as a password).
        let bytes = Array(out.utf8)
        let key = Array("password=".utf8)
        var result: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if i + key.count <= bytes.count,
                zip(bytes[i..<i + key.count], key).allSatisfy({ ($0 | 0x20) == $1 || $0 == $1 })
            {
                result += bytes[i..<i + key.count] + Array("***".utf8)
                i += key.count
                while i < bytes.count && bytes[i] != UInt8(ascii: "&") && bytes[i] != UInt8(ascii: " ") { i += 1 }
            } else {
                result.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
