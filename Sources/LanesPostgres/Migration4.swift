extension Schema {
    /// Every write to a board reaches open screens, Lanes' own or a member's raw SQL (psql).
    ///
    /// Open clients look for changes when the board's version rises (after its NOTIFY), and read
    /// the card rows whose `seq` is above the version they hold, and the removals likewise. Lanes'
    /// commits stamp their rows with the next version and raise it; a raw `UPDATE lanes.cards …`
    /// did neither, so no screen saw it. Now, after each statement on `cards` or `columns`:
    /// - a board whose version this transaction has not raised yet (its row's `xmin` is not this
    ///   transaction) is raised by one, else kept (one raise per transaction, Lanes' commit included;
    ///   inside a savepoint the row's `xmin` is the savepoint's, so each statement there raises it
    ///   again: more versions than needed, never fewer);
    ///   a row stamped with a higher `seq` (Lanes' next version) raises it to that;
    /// - rows the statement wrote with a `seq` below the result are stamped with it (and a changed
    ///   card's row `version` goes up, as Lanes' edits do); a deleted card gets a `removals` row;
    /// - raising the version is an UPDATE of `boards`, whose trigger sends the board's usual NOTIFY.
    /// An UPDATE of `boards` that leaves the version as it was (settings, rules, a rename) raises it
    /// too, once per transaction.
    ///
    /// The functions run as the writer (SECURITY INVOKER), not as the schema's owner: they do only
    /// what the writer may do anyway (members may raise their own board's version), under the same
    /// row-level security, so they reach no other board. Nobody may call them (trigger functions;
    /// EXECUTE revoked), and only the tables' owner may drop or disable the triggers.
    ///
    /// Also three partial indexes of the history for flow metrics: column rows; card rows that are
    /// not moves; every card row with its time, card and column (read by an index-only scan).
    static let migration4 = """
        CREATE FUNCTION lanes.stamp_written_rows() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE r record; cur bigint; mine boolean; target bigint; BEGIN
                -- Its own stamping of rows below (and a board's deletion cascading) is not a new write.
                IF pg_trigger_depth() > 1 THEN RETURN NULL; END IF;
                IF TG_OP = 'DELETE' THEN
                    FOR r IN SELECT o.board_id FROM old_rows o GROUP BY o.board_id LOOP
                        SELECT b.version, b.xmin = pg_current_xact_id()::xid INTO cur, mine
                            FROM lanes.boards b WHERE b.id = r.board_id FOR UPDATE;
                        CONTINUE WHEN NOT FOUND;  -- not the writer's board, or being deleted with it
                        target := CASE WHEN mine THEN cur ELSE cur + 1 END;
                        IF target > cur THEN UPDATE lanes.boards SET version = target WHERE id = r.board_id; END IF;
                        IF TG_TABLE_NAME = 'cards' THEN
                            INSERT INTO lanes.removals (board_id, card_id, seq)
                                SELECT o.board_id, o.id, target FROM old_rows o WHERE o.board_id = r.board_id
                                ON CONFLICT (board_id, card_id) DO UPDATE SET seq = EXCLUDED.seq;
                        END IF;
                    END LOOP;
                    RETURN NULL;
                END IF;
                FOR r IN SELECT n.board_id, min(n.seq) AS lo, max(n.seq) AS hi FROM new_rows n GROUP BY n.board_id LOOP
                    SELECT b.version, b.xmin = pg_current_xact_id()::xid INTO cur, mine
                        FROM lanes.boards b WHERE b.id = r.board_id FOR UPDATE;
                    CONTINUE WHEN NOT FOUND;
                    target := greatest(CASE WHEN mine THEN cur ELSE cur + 1 END, r.hi);
                    IF target > cur THEN UPDATE lanes.boards SET version = target WHERE id = r.board_id; END IF;
                    CONTINUE WHEN r.lo >= target;
                    IF TG_TABLE_NAME = 'cards' THEN
                        UPDATE lanes.cards c SET seq = target, version = c.version + CASE WHEN TG_OP = 'UPDATE' THEN 1 ELSE 0 END
                            FROM new_rows n WHERE c.board_id = r.board_id AND n.board_id = r.board_id AND c.id = n.id AND c.seq < target;
                    ELSE
                        UPDATE lanes.columns c SET seq = target, version = c.version + CASE WHEN TG_OP = 'UPDATE' THEN 1 ELSE 0 END
                            FROM new_rows n WHERE c.board_id = r.board_id AND n.board_id = r.board_id AND c.id = n.id AND c.seq < target;
                    END IF;
                END LOOP;
                RETURN NULL;
            END $$;
        CREATE TRIGGER cards_stamp_insert AFTER INSERT ON lanes.cards REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.stamp_written_rows();
        CREATE TRIGGER cards_stamp_update AFTER UPDATE ON lanes.cards REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.stamp_written_rows();
        CREATE TRIGGER cards_stamp_delete AFTER DELETE ON lanes.cards REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.stamp_written_rows();
        CREATE TRIGGER columns_stamp_insert AFTER INSERT ON lanes.columns REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.stamp_written_rows();
        CREATE TRIGGER columns_stamp_update AFTER UPDATE ON lanes.columns REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.stamp_written_rows();
        CREATE TRIGGER columns_stamp_delete AFTER DELETE ON lanes.columns REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.stamp_written_rows();

        CREATE FUNCTION lanes.raise_board_version() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN
                IF NEW.version = OLD.version AND OLD.xmin <> pg_current_xact_id()::xid THEN
                    NEW.version := OLD.version + 1;
                END IF;
                RETURN NEW;
            END $$;
        CREATE TRIGGER boards_raise_version BEFORE UPDATE ON lanes.boards FOR EACH ROW EXECUTE FUNCTION lanes.raise_board_version();

        -- Flow metrics (PostgresFlowHistory) read a board's column rows, its card rows that are not
        -- moves (with their titles), and every card row from the index alone (an index-only scan: the wide rows, with
        -- their before/after images, are not read).
        CREATE INDEX history_column_rows ON lanes.history (board_id, id) WHERE entity = 'column';
        CREATE INDEX history_card_changes ON lanes.history (board_id, id) WHERE entity = 'card' AND kind <> 'moved';
        CREATE INDEX history_card_flow ON lanes.history (board_id, id) INCLUDE (at, card_id, column_id) WHERE entity = 'card';

        REVOKE ALL ON FUNCTION lanes.stamp_written_rows(), lanes.raise_board_version() FROM PUBLIC;
        """
}
