extension Schema {
    /// #40: no role holds a privilege README's table does not list; the history is the server's.
    ///
    /// Upgrades a database of migration 7 in place (every row kept).
    /// - No table-level DELETE for anyone but the tables' owner. Table-level DELETE (or UPDATE)
    ///   is what `LOCK TABLE … IN ACCESS EXCLUSIVE MODE` asks for, and any role held it through
    ///   PUBLIC: one `LOCK TABLE lanes.boards, lanes.cards` froze every team. Deletes now go through
    ///   five *deletion views*, `lanes.card_deletions (board_id, id)`, `column_deletions (board_id,
    ///   id)`, `removal_deletions (board_id, card_id)`, `member_deletions (board_id, role)` and
    ///   `board_deletions (id)`: an `INSERT` into one is rewritten (an unconditional `DO INSTEAD`
    ///   rule) into the `DELETE` of the rows it names. A rule's action has its privileges checked
    ///   as the view's owner, but it runs as the session: `current_user` stays the member, so row
    ///   security, the triggers (version, seq, removals, history, flow aggregates) and every
    ///   `changed_by`/`removed_by` are exactly what a member's own DELETE gave. Each rule also says
    ///   who may delete, as the table's policy does (so an owner exempt from row security, such as
    ///   a superuser or `members`' owner, deletes nothing more through it). The views select no
    ///   table, so even the `ROW EXCLUSIVE` lock their `INSERT` allows locks no table; members hold
    ///   `SELECT` (ACCESS SHARE, what every read takes) and column privileges, with which `LOCK
    ///   TABLE` in any stronger mode is refused. `INSERT … RETURNING 1` counts what was deleted.
    /// - `restore_point` is no member's to write: `lanes restore` calls `lanes.record_restore(board,
    ///   time)` in the transaction of its commit, which writes the `restored` history entry as the
    ///   server (the session's role, server time) only for a member of the board whose transaction
    ///   has just changed it, to a time not in the future. A member can no longer write one that
    ///   goes with no change, in another's name, or by a plain `UPDATE`.
    static let migration8 = """
        REVOKE DELETE ON lanes.boards, lanes.members, lanes.columns, lanes.cards, lanes.removals FROM PUBLIC;
        REVOKE UPDATE (restore_point) ON lanes.boards FROM PUBLIC;

        CREATE VIEW lanes.card_deletions AS SELECT NULL::bigint AS board_id, NULL::bigint AS id WHERE false;
        CREATE RULE card_deletions AS ON INSERT TO lanes.card_deletions DO INSTEAD
            DELETE FROM lanes.cards c WHERE c.board_id = NEW.board_id AND c.id = NEW.id
                AND c.board_id IN (SELECT lanes.member_boards(current_user))
            RETURNING c.board_id, c.id;
        CREATE VIEW lanes.column_deletions AS SELECT NULL::bigint AS board_id, NULL::bigint AS id WHERE false;
        CREATE RULE column_deletions AS ON INSERT TO lanes.column_deletions DO INSTEAD
            DELETE FROM lanes.columns c WHERE c.board_id = NEW.board_id AND c.id = NEW.id
                AND c.board_id IN (SELECT lanes.member_boards(current_user))
            RETURNING c.board_id, c.id;
        CREATE VIEW lanes.removal_deletions AS SELECT NULL::bigint AS board_id, NULL::bigint AS card_id WHERE false;
        CREATE RULE removal_deletions AS ON INSERT TO lanes.removal_deletions DO INSTEAD
            DELETE FROM lanes.removals r WHERE r.board_id = NEW.board_id AND r.card_id = NEW.card_id
                AND r.board_id IN (SELECT lanes.member_boards(current_user))
            RETURNING r.board_id, r.card_id;
        CREATE VIEW lanes.member_deletions AS SELECT NULL::bigint AS board_id, NULL::name AS role WHERE false;
        CREATE RULE member_deletions AS ON INSERT TO lanes.member_deletions DO INSTEAD
            DELETE FROM lanes.members m WHERE m.board_id = NEW.board_id AND m.role = NEW.role
                AND NOT m.is_owner AND lanes.may_grant(m.board_id, current_user)
            RETURNING m.board_id, m.role;
        CREATE VIEW lanes.board_deletions AS SELECT NULL::bigint AS id WHERE false;
        CREATE RULE board_deletions AS ON INSERT TO lanes.board_deletions DO INSTEAD
            DELETE FROM lanes.boards b WHERE b.id = NEW.id AND b.owner = current_user
                AND b.id IN (SELECT lanes.member_boards(current_user))
            RETURNING b.id;
        REVOKE ALL ON lanes.card_deletions, lanes.column_deletions, lanes.removal_deletions, lanes.member_deletions,
            lanes.board_deletions FROM PUBLIC;
        GRANT INSERT ON lanes.card_deletions, lanes.column_deletions, lanes.removal_deletions, lanes.member_deletions,
            lanes.board_deletions TO PUBLIC;

        CREATE FUNCTION lanes.record_restore(b bigint, back_to timestamptz) RETURNS void
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
            AS $$ DECLARE latest record; BEGIN
                IF b IS NULL OR b NOT IN (SELECT lanes.member_boards(lanes.invoker())) THEN
                    RAISE EXCEPTION 'role % is not a member of board %: only its members restore it', lanes.invoker(), b
                        USING ERRCODE = '42501';
                END IF;
                IF back_to IS NULL OR back_to > now() THEN
                    RAISE EXCEPTION 'a board is restored to a time that has passed, not %', back_to USING ERRCODE = '22023';
                END IF;
                -- The board's newest change (its row lock orders every writer of the board): this transaction's
                -- own? History rows carry their transaction's start (now(), the same in its savepoints) and role.
                SELECT h.at, h.role INTO latest FROM lanes.history h
                    WHERE h.board_id = b AND h.entity <> 'member' ORDER BY h.id DESC LIMIT 1;
                IF latest.at IS DISTINCT FROM now() OR latest.role IS DISTINCT FROM lanes.invoker() THEN
                    RAISE EXCEPTION 'a restore is recorded only with the change it makes to board %, in the same transaction (this one has changed nothing on it)', b
                        USING ERRCODE = '42501';
                END IF;
                INSERT INTO lanes.history (board_id, role, entity, kind, after)
                VALUES (b, lanes.invoker(), 'board', 'restored', jsonb_build_object('to', back_to));
                PERFORM lanes.notify_board(b);
            END $$;
        REVOKE ALL ON FUNCTION lanes.record_restore(bigint, timestamptz) FROM PUBLIC;
        GRANT EXECUTE ON FUNCTION lanes.record_restore(bigint, timestamptz) TO PUBLIC;
        """
}
