import LanesCore

/// The database schema `lanes`, built by numbered migrations; each runs once, in a transaction.
///
/// Row-level security (FORCE) on every data table admits a row only when the session's role is a
/// member of its board (`lanes.members`). `members` itself is ENABLEd but not FORCEd: the
/// SECURITY DEFINER functions the policies call read it as the schema's owner, and an owner may
/// disable RLS anyway, so the owner is the database's Lanes administrator. Every other role holds
/// privileges through PUBLIC and sees exactly the boards it was granted; migration 2 narrows
/// writes to content columns and adds the history (see `migration2`).
enum Schema {
    /// Serialises first-time set-up between clients: pg_advisory_xact_lock's key ("lanes" in ASCII).
    static let migrationLock: Int64 = 0x6C61_6E65_73

    static let migrations: [String] = [
        migration1, migration2, migration3, migration4, migration5, migration6, migration7, migration8, migration9,
        migration10,
    ]

    static var latest: Int { migrations.count }

    /// Brings the schema up to `latest` (`through`: an older version, as a Lanes of that version
    /// left it; for upgrade tests); a no-op (one query) when it is there already.
    static func migrate(_ db: PGConnection, through target: Int = latest) throws {
        if try currentVersion(db) == target { return }
        try db.query("BEGIN")
        do {
            try db.query("SELECT pg_advisory_xact_lock(\(migrationLock))")
            try db.query("CREATE SCHEMA IF NOT EXISTS lanes")
            try db.query(
                """
                CREATE TABLE IF NOT EXISTS lanes.schema_migrations (
                    version int PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now(),
                    applied_by name NOT NULL DEFAULT current_user)
                """)
            try db.query("GRANT USAGE ON SCHEMA lanes TO PUBLIC")
            try db.query("GRANT SELECT ON lanes.schema_migrations TO PUBLIC")
            let have = try db.query("SELECT coalesce(max(version), 0) FROM lanes.schema_migrations").int(0, 0) ?? 0
            guard have <= latest else { throw newerSchema(Int(have)) }
            for v in Int(have)..<max(Int(have), target) {
                try db.query(migrations[v], big: true)
                try db.query("INSERT INTO lanes.schema_migrations (version) VALUES ($1)", [String(v + 1)])
            }
            try db.query("COMMIT")
        } catch let e as PostgresError {
            _ = try? db.query("ROLLBACK")
            if e.sqlState == "42501" {
                let at = (try? currentVersion(db)) ?? 0
                if at > 0,
                    let owner = try? db.query(
                        "SELECT nspowner::regrole::text FROM pg_namespace WHERE nspname = 'lanes'")[0, 0]
                {
                    throw PostgresError(
                        sqlState: e.sqlState,
                        message:
                            "\(db.displayName): the Lanes schema is at version \(at) and this Lanes needs \(latest); only its owner, role \(owner), may upgrade it: open any board (or lanes copy) once as \(owner)"
                    )
                }
                throw PostgresError(
                    sqlState: e.sqlState,
                    message:
                        "\(db.displayName): the Lanes schema needs setting up (migration \(latest)), and role \(db.user) may not do it (\(e.message)); run lanes copy once as a role that may create schemas in this database"
                )
            }
            throw e
        } catch {
            _ = try? db.query("ROLLBACK")
            throw error
        }
    }

    /// The applied migration, 0 when the schema is not there.
    static func currentVersion(_ db: PGConnection) throws -> Int {
        let rows = try db.query("SELECT to_regclass('lanes.schema_migrations') IS NOT NULL")
        guard rows[0, 0] == "t" else { return 0 }
        let v = Int(try db.query("SELECT coalesce(max(version), 0) FROM lanes.schema_migrations").int(0, 0) ?? 0)
        if v > latest { throw newerSchema(v) }
        return v
    }

    static func newerSchema(_ v: Int) -> PostgresError {
        PostgresError(
            message:
                "the database's Lanes schema is version \(v), newer than this Lanes knows (\(latest)); upgrade Lanes")
    }

    /// Everything: boards, members, columns, cards, removals, commit tokens; security; grants.
    static let migration1 = """
        CREATE SEQUENCE lanes.board_ids;
        CREATE SEQUENCE lanes.column_ids;

        CREATE TABLE lanes.boards (
            id bigint PRIMARY KEY,
            name text NOT NULL UNIQUE,
            owner name NOT NULL DEFAULT current_user,
            -- Bumped by every commit that changes something; rows carry the version that last wrote them (seq).
            version bigint NOT NULL DEFAULT 1,
            dialect text NOT NULL DEFAULT 'taskell' CHECK (dialect IN ('taskell', 'obsidian')),
            -- File parts Lanes does not interpret (Obsidian frontmatter, settings, archive): lines joined by LF, NULL for none.
            frontmatter text, preamble text, archive text, settings text, epilogue text,
            accept_rules text NOT NULL DEFAULT '',
            changed_by name NOT NULL DEFAULT current_user,
            created_at timestamptz NOT NULL DEFAULT now());

        CREATE TABLE lanes.members (
            board_id bigint NOT NULL REFERENCES lanes.boards ON DELETE CASCADE,
            role name NOT NULL,
            can_grant boolean NOT NULL DEFAULT false,
            is_owner boolean NOT NULL DEFAULT false,
            PRIMARY KEY (board_id, role));
        CREATE INDEX members_by_role ON lanes.members (role, board_id);

        -- Names only, for "exists, but you have no access" (boards is FORCEd, so not even its owner sees every row).
        CREATE TABLE lanes.board_names (
            name text PRIMARY KEY,
            board_id bigint NOT NULL UNIQUE REFERENCES lanes.boards ON DELETE CASCADE);

        CREATE TABLE lanes.columns (
            id bigint PRIMARY KEY DEFAULT nextval('lanes.column_ids'),
            board_id bigint NOT NULL REFERENCES lanes.boards ON DELETE CASCADE,
            key text COLLATE "C" NOT NULL,
            title text NOT NULL,
            wip_limit int,
            extra_lines text,
            version bigint NOT NULL DEFAULT 1,
            seq bigint NOT NULL,
            changed_by name NOT NULL DEFAULT current_user,
            UNIQUE (board_id, key));

        CREATE TABLE lanes.cards (
            board_id bigint NOT NULL REFERENCES lanes.boards ON DELETE CASCADE,
            id bigint NOT NULL,
            column_id bigint NOT NULL REFERENCES lanes.columns,
            key text COLLATE "C" NOT NULL,
            title text NOT NULL,
            due text,
            description text,
            subtasks text,
            done boolean NOT NULL DEFAULT false,
            extra_lines text,
            version bigint NOT NULL DEFAULT 1,
            seq bigint NOT NULL,
            changed_by name NOT NULL DEFAULT current_user,
            PRIMARY KEY (board_id, id),
            UNIQUE (column_id, key));
        CREATE INDEX cards_by_seq ON lanes.cards (board_id, seq);

        CREATE TABLE lanes.removals (
            board_id bigint NOT NULL REFERENCES lanes.boards ON DELETE CASCADE,
            card_id bigint NOT NULL,
            seq bigint NOT NULL,
            removed_by name NOT NULL DEFAULT current_user,
            PRIMARY KEY (board_id, card_id));
        CREATE INDEX removals_by_seq ON lanes.removals (board_id, seq);

        CREATE TABLE lanes.commits (
            board_id bigint NOT NULL REFERENCES lanes.boards ON DELETE CASCADE,
            token text NOT NULL,
            seq bigint NOT NULL,
            at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (board_id, token));

        CREATE FUNCTION lanes.member_boards(r name) RETURNS SETOF bigint
            LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
            AS $$ SELECT board_id FROM lanes.members WHERE role = r $$;
        CREATE FUNCTION lanes.may_grant(b bigint, r name) RETURNS boolean
            LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
            AS $$ SELECT EXISTS (SELECT 1 FROM lanes.members WHERE board_id = b AND role = r AND can_grant) $$;
        CREATE FUNCTION lanes.board_exists(n text) RETURNS boolean
            LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
            AS $$ SELECT EXISTS (SELECT 1 FROM lanes.board_names WHERE name = n) $$;
        CREATE FUNCTION lanes.add_owner() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
            AS $$ BEGIN
                INSERT INTO lanes.members (board_id, role, can_grant, is_owner) VALUES (NEW.id, NEW.owner, true, true);
                INSERT INTO lanes.board_names (name, board_id) VALUES (NEW.name, NEW.id);
                RETURN NEW;
            END $$;
        CREATE TRIGGER boards_owner AFTER INSERT ON lanes.boards FOR EACH ROW EXECUTE FUNCTION lanes.add_owner();

        ALTER TABLE lanes.boards ENABLE ROW LEVEL SECURITY;
        ALTER TABLE lanes.boards FORCE ROW LEVEL SECURITY;
        CREATE POLICY member_reads ON lanes.boards FOR SELECT USING (id IN (SELECT lanes.member_boards(current_user)));
        CREATE POLICY member_writes ON lanes.boards FOR UPDATE USING (id IN (SELECT lanes.member_boards(current_user)));
        CREATE POLICY anyone_creates ON lanes.boards FOR INSERT WITH CHECK (owner = current_user);
        CREATE POLICY owner_deletes ON lanes.boards FOR DELETE USING (owner = current_user AND id IN (SELECT lanes.member_boards(current_user)));

        ALTER TABLE lanes.members ENABLE ROW LEVEL SECURITY;
        CREATE POLICY member_reads ON lanes.members FOR SELECT USING (board_id IN (SELECT lanes.member_boards(current_user)));
        CREATE POLICY granter_adds ON lanes.members FOR INSERT WITH CHECK (lanes.may_grant(board_id, current_user) AND NOT is_owner);
        CREATE POLICY granter_changes ON lanes.members FOR UPDATE USING (lanes.may_grant(board_id, current_user) AND NOT is_owner)
            WITH CHECK (lanes.may_grant(board_id, current_user) AND NOT is_owner);
        CREATE POLICY granter_removes ON lanes.members FOR DELETE USING (lanes.may_grant(board_id, current_user) AND NOT is_owner);

        ALTER TABLE lanes.board_names ENABLE ROW LEVEL SECURITY;  -- no policy: only the definer functions read it

        ALTER TABLE lanes.columns ENABLE ROW LEVEL SECURITY;
        ALTER TABLE lanes.columns FORCE ROW LEVEL SECURITY;
        CREATE POLICY members_only ON lanes.columns USING (board_id IN (SELECT lanes.member_boards(current_user)))
            WITH CHECK (board_id IN (SELECT lanes.member_boards(current_user)));
        ALTER TABLE lanes.cards ENABLE ROW LEVEL SECURITY;
        ALTER TABLE lanes.cards FORCE ROW LEVEL SECURITY;
        CREATE POLICY members_only ON lanes.cards USING (board_id IN (SELECT lanes.member_boards(current_user)))
            WITH CHECK (board_id IN (SELECT lanes.member_boards(current_user)));
        ALTER TABLE lanes.removals ENABLE ROW LEVEL SECURITY;
        ALTER TABLE lanes.removals FORCE ROW LEVEL SECURITY;
        CREATE POLICY members_only ON lanes.removals USING (board_id IN (SELECT lanes.member_boards(current_user)))
            WITH CHECK (board_id IN (SELECT lanes.member_boards(current_user)));
        ALTER TABLE lanes.commits ENABLE ROW LEVEL SECURITY;
        ALTER TABLE lanes.commits FORCE ROW LEVEL SECURITY;
        CREATE POLICY members_only ON lanes.commits USING (board_id IN (SELECT lanes.member_boards(current_user)))
            WITH CHECK (board_id IN (SELECT lanes.member_boards(current_user)));

        REVOKE ALL ON FUNCTION lanes.add_owner() FROM PUBLIC;
        GRANT SELECT, INSERT, UPDATE, DELETE ON lanes.boards, lanes.members, lanes.columns, lanes.cards,
            lanes.removals, lanes.commits TO PUBLIC;
        GRANT USAGE ON SEQUENCE lanes.board_ids, lanes.column_ids TO PUBLIC;
        """
}
