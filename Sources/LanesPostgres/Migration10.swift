extension Schema {
    /// Row security's membership check planned once per server session, not on every statement (#43).
    ///
    /// Upgrades a database of migration 9 in place; only `lanes.member_boards(r)` changes, and its
    /// answer does not: the boards of role `r` when `r` is the role the session runs as (SET ROLE
    /// included), nothing otherwise. Every row policy calls it, so nearly every statement a member
    /// sends runs it: as a SQL function its query was parsed and planned on each call, and it
    /// called `lanes.invoker()`, a function with a SET clause of its own (DECISIONS 43.12). Now:
    /// - PL/pgSQL: the server compiles it and plans its query once per session, then reuses the plan.
    /// - The session's role is `lanes.invoker()`'s expression written into the query, not a call.
    /// - Still SECURITY DEFINER with `SET search_path = pg_catalog`: the body is compiled and its
    ///   query planned under that path whatever the caller's (a member's own `=` or
    ///   `current_setting` in a schema first on its path is never what it runs), still STABLE (it
    ///   reads the calling statement's snapshot), its privileges kept (EXECUTE for everyone).
    static let migration10 = """
        CREATE OR REPLACE FUNCTION lanes.member_boards(r name) RETURNS SETOF bigint
            LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog
            AS $$ BEGIN
                RETURN QUERY SELECT m.board_id FROM lanes.members m
                    WHERE m.role = r AND r = CASE WHEN current_setting('role') = 'none' THEN session_user
                                                  ELSE current_setting('role')::name END;
            END $$;
        """
}
