import Foundation
import Testing
@testable import LanesPostgres

/// `lanes.member_boards`, the membership check every row policy calls, on the real server: what
/// migration 10 made of it answers as migration 9's did for every kind of role and context, a
/// member's own search_path and objects do not change its answer, and the plan it keeps per
/// session follows SET ROLE, grants and snapshots. Each test has a database of its own.
@Suite("Membership check: migration 10", .serialized)
struct MemberCheckTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
    }

    /// A role with no grant on any board.
    static let outsider = "member_check_dave"
    static let roles = ["lanes_admin", "alice", "bob", "carol", outsider]
    /// Every table whose rows a policy gives by board.
    static let tables = [
        "boards", "members", "board_names", "columns", "cards", "removals", "commits", "history", "flow_boards",
        "flow_cards", "flow_moves", "flow_stints", "flow_days", "flow_presence",
    ]

    /// A database of its own at schema version `through`; `drop` removes it.
    func database(_ stem: String, through: Int) throws -> (name: String, drop: () -> Void) {
        let superuser = try server.connect("postgres", database: "postgres")
        try superuser.query(
            """
            DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(Self.outsider)') THEN
                CREATE ROLE \(Self.outsider) LOGIN; END IF; END $$
            """)
        let name = "\(stem)_\(UInt32.random(in: 0...UInt32.max))"
        try superuser.query("CREATE DATABASE \(name) OWNER lanes_admin")
        let admin = try server.connect("lanes_admin", database: name)
        defer { admin.close() }
        try Schema.migrate(admin, through: through)
        #expect(try Schema.currentVersion(admin) == through)
        return (name, { _ = try? superuser.query("DROP DATABASE \(name) WITH (FORCE)") })
    }

    /// A board `name` of `owner`'s, written with plain SQL as a client of any schema version
    /// could: two columns, three cards; its id.
    @discardableResult
    func board(_ owner: PGConnection, _ name: String) throws -> String {
        try owner.query("INSERT INTO lanes.boards (name, version) VALUES ($1, 0)", [name])
        let id = try #require(try owner.query("SELECT currval('lanes.board_ids')")[0, 0])
        try owner.query("UPDATE lanes.boards SET version = 1, accept_rules = '' WHERE id = $1", [id])
        var columns: [String] = []
        for (i, title) in ["To do", "Done"].enumerated() {
            columns.append(
                try #require(
                    try owner.query(
                        "INSERT INTO lanes.columns (board_id, key, title, seq) VALUES ($1, $2, $3, 1) RETURNING id",
                        [id, "k\(i)", title])[0, 0]))
        }
        for j in 0..<3 {
            try owner.query(
                "INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ($1, $2, $3, $4, $5, 1)",
                [id, String(Int64(j + 1) * 1_000_003), columns[0], "c\(j)", "\(name) \(j)"])
        }
        return id
    }

    /// The boards `member_boards(name)` answers on `db`, ascending, comma-separated ("" for none).
    func boards(_ db: PGConnection, of name: String, function: String = "lanes.member_boards") throws -> String {
        try db.query(
            "SELECT coalesce(string_agg(b::text, ',' ORDER BY b), '') FROM \(function)($1) b", [name])[0, 0] ?? "NULL"
    }

    /// `sql` in a transaction rolled back: the rows it returned, or the error's SQLSTATE.
    func attempt(_ db: PGConnection, _ sql: String, _ params: [String?] = []) throws -> String {
        try db.query("BEGIN")
        defer { _ = try? db.query("ROLLBACK") }
        do {
            return "\(try db.query(sql, params).count) rows"
        } catch let e as PostgresError {
            return "refused \(e.sqlState)"
        }
    }

    // MARK: The same answers after the upgrade

    @Test("a database of migration 9 upgraded to 10 gives every kind of role, in every context, exactly what it gave")
    func upgradeKeepsEveryAnswer() throws {
        let (db, drop) = try database("mc10", through: 9)
        defer { drop() }
        let alice = try server.connect("alice", database: db)
        let bob = try server.connect("bob", database: db)
        let admin = try server.connect("lanes_admin", database: db)
        let superuser = try server.connect("postgres", database: db)
        defer { [alice, bob, admin, superuser].forEach { $0.close() } }
        let team = try board(alice, "team")
        let mine = try board(alice, "private")
        let admins = try board(admin, "admins")
        try alice.query("INSERT INTO lanes.members (board_id, role) VALUES ($1, 'bob')", [team])
        try alice.query("INSERT INTO lanes.members (board_id, role, can_grant) VALUES ($1, 'carol', true)", [team])
        // Rows in every table: a removal, a commit token, a move (history, flow aggregates).
        try bob.query("INSERT INTO lanes.removals (board_id, card_id, seq) VALUES ($1, 99, 1)", [team])
        try bob.query("INSERT INTO lanes.commits (board_id, token, seq) VALUES ($1, 'tok', 1)", [team])
        try bob.query(
            """
            UPDATE lanes.cards SET column_id = (SELECT id FROM lanes.columns WHERE board_id = $1 AND key = 'k1'), key = 'z'
            WHERE board_id = $1 AND key = 'c0'
            """, [team])
        try bob.query("UPDATE lanes.columns SET title = 'Doing' WHERE board_id = $1 AND key = 'k0'", [team])
        try bob.query(
            "UPDATE lanes.cards SET column_id = (SELECT id FROM lanes.columns WHERE board_id = $1 AND key = 'k0') WHERE board_id = $1 AND key = 'z'",
            [team])
        // A definer function of bob's own: inside it the session's role is not the current user.
        try superuser.query("CREATE SCHEMA peek AUTHORIZATION bob")
        try bob.query(
            """
            CREATE FUNCTION peek.peek() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
            AS $$ SELECT (SELECT count(*) FROM lanes.cards)::text || ' cards, boards '
                || coalesce((SELECT string_agg(b::text, ',' ORDER BY b) FROM lanes.member_boards(current_user) b), '') $$
            """)
        try bob.query("GRANT USAGE ON SCHEMA peek TO PUBLIC")

        var firstColumn: [String: String] = [:]
        for id in [team, mine, admins] {
            firstColumn[id] = try superuser.query("SELECT min(id) FROM lanes.columns WHERE board_id = $1", [id])[0, 0]
        }

        func observe() throws -> [String: String] {
            var seen: [String: String] = [:]
            for role in Self.roles {
                let c = try server.connect(role, database: db)
                defer { c.close() }
                for name in Self.roles + ["postgres"] {
                    seen["\(role) asks for \(name)'s boards"] = try boards(c, of: name)
                }
                for table in Self.tables {
                    seen["\(role) reads \(table)"] = try c.query("SELECT count(*) FROM lanes.\(table)")[0, 0]
                }
                for (label, id) in [("team", team), ("private", mine), ("admins", admins)] {
                    seen["\(role) updates \(label)'s cards"] = try attempt(
                        c, "UPDATE lanes.cards SET title = title || '~' WHERE board_id = $1 RETURNING 1", [id])
                    seen["\(role) adds a card to \(label)"] = try attempt(
                        c,
                        """
                        INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq)
                        VALUES ($1, 77, $2, 'new', 'new', 1) RETURNING 1
                        """, [id, firstColumn[id]])
                    seen["\(role) writes \(label)'s version"] = try attempt(
                        c, "UPDATE lanes.boards SET version = version + 1 WHERE id = $1 RETURNING 1", [id])
                }
                seen["\(role) through bob's definer function"] = try c.query("SELECT peek.peek()")[0, 0]
            }
            for role in Self.roles {
                try superuser.query("SET ROLE \(role)")
                seen["postgres as \(role) asks for \(role)'s boards"] = try boards(superuser, of: role)
                seen["postgres as \(role) asks for postgres's boards"] = try boards(superuser, of: "postgres")
                seen["postgres as \(role) reads cards"] = try superuser.query("SELECT count(*) FROM lanes.cards")[0, 0]
                try superuser.query("RESET ROLE")
            }
            seen["postgres asks for postgres's boards"] = try boards(superuser, of: "postgres")
            seen["postgres asks for alice's boards"] = try boards(superuser, of: "alice")
            return seen
        }
        func shape() throws -> [String?] {
            try superuser.query(
                """
                SELECT l.lanname, p.prosecdef::text, p.provolatile::text, array_to_string(p.proconfig, ' '), p.proretset::text,
                    p.prorows::text, pg_get_userbyid(p.proowner)::text,
                    has_function_privilege('\(Self.outsider)', p.oid, 'EXECUTE')::text
                FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
                WHERE p.oid = 'lanes.member_boards(name)'::regprocedure
                """
            ).values[0]
        }

        let before = try observe()
        #expect(try shape() == ["sql", "true", "s", "search_path=pg_catalog", "true", "1000", "lanes_admin", "true"])
        // What the observations hold (so an equal pair of them says something).
        #expect(before["alice asks for alice's boards"] == "\(team),\(mine)")
        #expect(before["bob asks for bob's boards"] == team)
        #expect(before["bob asks for alice's boards"] == "")
        #expect(before["\(Self.outsider) reads cards"] == "0")
        #expect(before["bob reads cards"] == "3")
        #expect(before["bob updates private's cards"] == "0 rows")
        #expect(before["bob adds a card to private"] == "refused 42501")
        #expect(before["bob adds a card to team"] == "1 rows")
        #expect(before["lanes_admin reads cards"] == "3")
        #expect(before["alice through bob's definer function"] == "0 cards, boards ")
        #expect(before["bob through bob's definer function"] == "3 cards, boards \(team)")
        #expect(before["postgres as alice asks for alice's boards"] == "\(team),\(mine)")
        #expect(before["postgres as alice asks for postgres's boards"] == "")
        #expect(before["bob reads history"].flatMap { Int($0) } ?? 0 > 0)
        #expect(before["bob reads flow_presence"].flatMap { Int($0) } ?? 0 > 0)

        // The path every open takes: connect, migrate.
        try Schema.migrate(admin)
        #expect(try Schema.currentVersion(admin) == 10)
        #expect(
            try shape() == ["plpgsql", "true", "s", "search_path=pg_catalog", "true", "1000", "lanes_admin", "true"])
        let after = try observe()
        #expect(after.count == before.count)
        for (key, value) in before.sorted(by: { $0.key < $1.key }) {
            #expect(after[key] == value, "\(key)")
        }
    }

    // MARK: A hostile search_path

    @Test(
        "a member's own current_setting, = and members tables first on its search_path change nothing member_boards answers",
        arguments: [9, Schema.latest])
    func hostileSearchPath(version: Int) throws {
        let (db, drop) = try database("mcsp", through: version)
        defer { drop() }
        let alice = try server.connect("alice", database: db)
        let admin = try server.connect("lanes_admin", database: db)
        let superuser = try server.connect("postgres", database: db)
        defer { [alice, admin, superuser].forEach { $0.close() } }
        let team = try board(alice, "team")
        let mine = try board(alice, "private")
        try alice.query("INSERT INTO lanes.members (board_id, role) VALUES ($1, 'bob')", [team])
        try superuser.query("CREATE SCHEMA hostile AUTHORIZATION bob")
        // The control: the same body with no SET clause, as the schema's owner (what the SET clause stops).
        try admin.query("CREATE SCHEMA control")
        try admin.query(
            """
            DO $$ BEGIN
                EXECUTE format('CREATE FUNCTION control.unset(r name) RETURNS SETOF bigint LANGUAGE %I STABLE SECURITY DEFINER AS %L',
                    (SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = 'lanes.member_boards(name)'::regprocedure),
                    (SELECT prosrc FROM pg_proc WHERE oid = 'lanes.member_boards(name)'::regprocedure));
            END $$
            """)
        try admin.query("GRANT USAGE ON SCHEMA control TO PUBLIC")

        // A new session of bob's: member_boards is first compiled and planned under his path.
        let bob = try server.connect("bob", database: db)
        defer { bob.close() }
        try bob.query(
            "CREATE FUNCTION hostile.current_setting(text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT 'alice'::text $$"
        )
        try bob.query(
            "CREATE FUNCTION hostile.always(name, name) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$ SELECT true $$")
        try bob.query("CREATE OPERATOR hostile.= (LEFTARG = name, RIGHTARG = name, FUNCTION = hostile.always)")
        try bob.query("CREATE TABLE hostile.members (board_id bigint, role name)")
        try bob.query("INSERT INTO hostile.members VALUES ($1, 'bob')", [mine])
        try bob.query("CREATE TEMP TABLE members (board_id bigint, role name)")
        try bob.query("INSERT INTO pg_temp.members VALUES ($1, 'bob')", [mine])
        try bob.query("GRANT USAGE ON SCHEMA hostile TO PUBLIC")  // so the schema's owner looks there too
        try bob.query("SET search_path = hostile, pg_temp, pg_catalog")
        try bob.query("SET plpgsql.variable_conflict = use_column")  // the session's, when the body is compiled
        // His objects are what unqualified names mean in his session.
        #expect(try bob.query("SELECT current_setting('role')")[0, 0] == "alice")
        #expect(try bob.query("SELECT 'x'::name = 'y'::name")[0, 0] == "t")

        for _ in 0..<7 {  // past the fifth call, where a kept plan may become generic
            #expect(try boards(bob, of: "alice") == "")
            #expect(try boards(bob, of: "bob") == team)
            #expect(try bob.query("SELECT count(*) FROM lanes.cards WHERE board_id = $1", [mine])[0, 0] == "0")
            #expect(try bob.query("SELECT count(*) FROM lanes.cards")[0, 0] == "3")
            #expect(try bob.query("SELECT count(*) FROM lanes.boards")[0, 0] == "1")
        }
        // Without the SET clause the same body, compiled here, would answer with alice's private board.
        let unset = try boards(bob, of: "alice", function: "control.unset")
        #expect(unset.split(separator: ",").contains(Substring(mine)), "\(unset)")
    }

    // MARK: A plan kept per session

    @Test(
        "in one session, member_boards follows SET ROLE, a revoke and a grant, and reads the caller's snapshot",
        arguments: [9, Schema.latest])
    func keptPlanFollowsTheSession(version: Int) throws {
        let (db, drop) = try database("mcss", through: version)
        defer { drop() }
        let alice = try server.connect("alice", database: db)
        let superuser = try server.connect("postgres", database: db)
        defer { [alice, superuser].forEach { $0.close() } }
        let team = try board(alice, "team")
        let mine = try board(alice, "private")
        try alice.query("INSERT INTO lanes.members (board_id, role) VALUES ($1, 'bob')", [team])

        let expected = ["alice": "\(team),\(mine)", "bob": team, "carol": ""]
        for _ in 0..<7 {
            for (role, answer) in expected.sorted(by: { $0.key < $1.key }) {
                try superuser.query("SET ROLE \(role)")
                #expect(try boards(superuser, of: role) == answer, "as \(role)")
                #expect(try boards(superuser, of: "alice") == (role == "alice" ? answer : ""), "as \(role)")
                try superuser.query("RESET ROLE")
            }
            #expect(try boards(superuser, of: "postgres") == "")
            #expect(try boards(superuser, of: "bob") == "")
        }

        let bob = try server.connect("bob", database: db)
        defer { bob.close() }
        for _ in 0..<7 { #expect(try boards(bob, of: "bob") == team) }
        try alice.query("INSERT INTO lanes.member_deletions (board_id, role) VALUES ($1, 'bob')", [team])
        #expect(try boards(bob, of: "bob") == "")
        #expect(try bob.query("SELECT count(*) FROM lanes.cards")[0, 0] == "0")
        try alice.query("INSERT INTO lanes.members (board_id, role) VALUES ($1, 'bob')", [team])
        #expect(try boards(bob, of: "bob") == team)

        // A repeatable-read transaction keeps its snapshot: a revoke after it began is not in it.
        try bob.query("BEGIN ISOLATION LEVEL REPEATABLE READ")
        #expect(try boards(bob, of: "bob") == team)
        try alice.query("INSERT INTO lanes.member_deletions (board_id, role) VALUES ($1, 'bob')", [team])
        #expect(try boards(bob, of: "bob") == team)
        #expect(try bob.query("SELECT count(*) FROM lanes.cards")[0, 0] == "3")
        try bob.query("COMMIT")
        #expect(try boards(bob, of: "bob") == "")
    }
}
