extension Schema {
    /// Flow metrics kept by the server as the board changes: per card, per (card, column) and per
    /// (day, column), so `lanes metrics` reads O(cards × columns + days × columns) rows, not every
    /// change.
    ///
    /// The aggregates are a fold of `lanes.history` in the record's order (`id`), exactly as
    /// `ServerHistory.Stream` reads it: the same kinds, the same times (a row dated before the one
    /// before it counts at that one's time), a card deleted and added again starting afresh.
    /// They hold where a card went, never what a column means: which columns are in progress or
    /// done is applied when they are read (`FlowMetrics.compute(_ summary:)`).
    /// - `flow_boards`: per board, the fold's state, and whether the aggregates can stand for the
    ///   record (`exact`: every card and column came in by an `added` row of the record, in the
    ///   record's order; `single_layout`: the columns were set once, before any card row). The
    ///   reader reads the whole record when either is false.
    /// - `flow_cards`: the card's current life: its title, column (or the one it left, when gone),
    ///   when it appeared and entered its column.
    /// - `flow_moves`: per (card, column left, column entered; 0: it appeared), the first and last
    ///   time; cycle time's "first seen in progress" and "last entered done" come from these.
    /// - `flow_stints`: per (card, column), the seconds of its closed stays and the row of its first
    ///   entry (the order of a card's time in each column).
    /// - `flow_days`: per (UTC day, column), the change in the column's card count (cumulative flow).
    ///
    /// Only the schema's triggers write them: one after each INSERT into `lanes.history` (its rows
    /// are written by the SECURITY DEFINER history triggers, so as the schema's owner); an UPDATE
    /// or DELETE of history rows (only the owner or a superuser can) folds the boards they touch
    /// again from their first row. The functions are SECURITY INVOKER, EXECUTE revoked from
    /// everyone. Members read their boards' rows (row-level security like `lanes.history`); nobody
    /// else may read, and nobody may write them directly.
    ///
    /// The migration folds every board's history that is already there. (Migration 6 replaces
    /// `single_layout` and the per-row fold: see `migration6`.)
    static let migration5 = """
        CREATE TABLE lanes.flow_boards (
            board_id bigint PRIMARY KEY,
            exact boolean NOT NULL DEFAULT true,
            single_layout boolean NOT NULL DEFAULT true,
            start_at bigint NOT NULL,
            layout_at bigint,
            last_at bigint NOT NULL,
            last_event bigint,
            last_id bigint NOT NULL,
            folded_rows bigint NOT NULL DEFAULT 0,
            card_rows bigint NOT NULL DEFAULT 0,
            card_events boolean NOT NULL DEFAULT false,
            column_ids bigint[] NOT NULL DEFAULT '{}',
            first_card_at bigint,
            only_adds boolean NOT NULL DEFAULT true,
            layout_end bigint,
            pending_run bigint,
            runs bigint[] NOT NULL DEFAULT '{}');
        CREATE TABLE lanes.flow_cards (
            board_id bigint NOT NULL,
            card_id bigint NOT NULL,
            title text,
            gone_title text,
            column_id bigint NOT NULL,
            gone boolean NOT NULL DEFAULT false,
            appeared bigint NOT NULL,
            appeared_row bigint NOT NULL,
            entered bigint NOT NULL,
            PRIMARY KEY (board_id, card_id));
        CREATE TABLE lanes.flow_moves (
            board_id bigint NOT NULL,
            card_id bigint NOT NULL,
            from_column bigint NOT NULL,
            to_column bigint NOT NULL,
            first_at bigint NOT NULL,
            last_at bigint NOT NULL,
            PRIMARY KEY (board_id, card_id, from_column, to_column));
        CREATE TABLE lanes.flow_stints (
            board_id bigint NOT NULL,
            card_id bigint NOT NULL,
            column_id bigint NOT NULL,
            first_row bigint NOT NULL,
            seconds bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (board_id, card_id, column_id));
        -- One row per (board, day, column) after each statement (a statement appends, then sums its days).
        CREATE TABLE lanes.flow_days (
            board_id bigint NOT NULL,
            day integer NOT NULL,
            column_id bigint NOT NULL,
            delta integer NOT NULL);
        CREATE INDEX flow_days_by_day ON lanes.flow_days (board_id, day);

        -- One history row folded in (the record's order): what ServerHistory.Stream and
        -- FlowMetrics make of it, less what the columns mean. The board's state is the caller's
        -- (`b`, given back changed; saved once per statement by flow_save: a row updated for every
        -- history row of a 1M-row statement would make each update walk all its earlier versions);
        -- day changes are appended to flow_days, summed by flow_save.
        CREATE FUNCTION lanes.flow_fold(b lanes.flow_boards, h lanes.history) RETURNS lanes.flow_boards
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE c lanes.flow_cards; found_card boolean; t bigint; secs bigint;
                          nt text; d integer; BEGIN
                IF h.entity NOT IN ('card', 'column') OR h.kind NOT IN ('added', 'moved', 'edited', 'deleted') THEN RETURN b; END IF;
                secs := floor(extract(epoch FROM h.at))::bigint;
                IF b.board_id IS NULL THEN
                    b := ROW(h.board_id, true, true, secs, NULL, secs, NULL, h.id, 0, 0, false, '{}', NULL, true, NULL, NULL, '{}')::lanes.flow_boards;
                END IF;
                t := greatest(secs, b.last_at);
                IF h.id < b.last_id THEN b.exact := false; END IF;  -- committed out of the record's order
                b.last_at := t;
                b.last_id := greatest(b.last_id, h.id);
                b.folded_rows := b.folded_rows + 1;
                IF h.entity = 'column' THEN
                    IF h.kind = 'added' THEN
                        b.column_ids := b.column_ids || h.column_id;
                    ELSIF h.column_id IS NULL OR NOT (h.column_id = ANY (b.column_ids)) THEN
                        b.exact := false;  -- a column from before the record
                    END IF;
                    IF h.kind IN ('added', 'moved', 'deleted') OR (h.kind = 'edited' AND (h.after ->> 'title') IS NOT NULL) THEN
                        -- The columns are set once: at one moment, with nothing but new cards added among them.
                        IF (b.layout_at IS NOT NULL AND b.layout_at <> t)
                           OR (b.card_rows > 0 AND NOT (b.only_adds AND b.first_card_at = t)) THEN
                            b.single_layout := false;
                        END IF;
                        b.layout_at := t;
                        b.layout_end := h.id;
                    END IF;
                    b.pending_run := h.id;
                    RETURN b;
                END IF;
                b.card_rows := b.card_rows + 1;
                IF b.first_card_at IS NULL THEN b.first_card_at := t; END IF;
                -- The columns as they were after the column rows just before a card row are what
                -- the record's reader gives that card row (they matter while the columns are being set).
                IF b.pending_run IS NOT NULL THEN
                    b.runs := b.runs || b.pending_run;
                    b.pending_run := NULL;
                END IF;
                IF h.card_id IS NULL THEN
                    b.exact := false;
                ELSE
                    IF h.column_id IS NOT NULL AND NOT (h.column_id = ANY (b.column_ids)) THEN b.exact := false; END IF;
                    SELECT * INTO c FROM lanes.flow_cards WHERE board_id = h.board_id AND card_id = h.card_id;
                    found_card := FOUND;
                    IF NOT found_card AND h.kind <> 'added' THEN b.exact := false; END IF;  -- a card from before the record
                    IF found_card OR h.kind <> 'added' THEN b.only_adds := false; END IF;
                    d := CASE WHEN t >= 0 THEN t / 86400 ELSE (t - 86399) / 86400 END;
                    IF h.kind = 'deleted' THEN
                        b.last_event := t;
                        b.card_events := true;
                        IF found_card AND NOT c.gone THEN
                            UPDATE lanes.flow_stints SET seconds = seconds + (t - c.entered)
                                WHERE board_id = h.board_id AND card_id = h.card_id AND column_id = c.column_id;
                            INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (h.board_id, d, c.column_id, -1);
                            UPDATE lanes.flow_cards SET gone = true, gone_title = coalesce(h.before ->> 'title', c.title)
                                WHERE board_id = h.board_id AND card_id = h.card_id;
                        END IF;
                    ELSE
                        nt := CASE WHEN h.kind = 'moved' THEN NULL ELSE h.after ->> 'title' END;
                        IF h.kind = 'edited' AND (nt IS NULL OR h.column_id IS NULL) THEN
                            NULL;  -- no event: an edit of something other than the title
                        ELSIF h.column_id IS NULL THEN
                            -- No event; an added row's title is still the card's.
                            IF nt IS NOT NULL AND found_card THEN
                                UPDATE lanes.flow_cards SET title = nt WHERE board_id = h.board_id AND card_id = h.card_id;
                            ELSIF nt IS NOT NULL THEN
                                b.exact := false;
                            END IF;
                        ELSE
                            b.last_event := t;
                            b.card_events := true;
                            IF found_card AND NOT c.gone THEN
                                IF h.column_id <> c.column_id THEN
                                    UPDATE lanes.flow_stints SET seconds = seconds + (t - c.entered)
                                        WHERE board_id = h.board_id AND card_id = h.card_id AND column_id = c.column_id;
                                    INSERT INTO lanes.flow_stints (board_id, card_id, column_id, first_row) VALUES (h.board_id, h.card_id, h.column_id, h.id)
                                        ON CONFLICT (board_id, card_id, column_id) DO NOTHING;
                                    INSERT INTO lanes.flow_moves (board_id, card_id, from_column, to_column, first_at, last_at)
                                        VALUES (h.board_id, h.card_id, c.column_id, h.column_id, t, t)
                                        ON CONFLICT (board_id, card_id, from_column, to_column) DO UPDATE SET last_at = EXCLUDED.last_at;
                                    INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (h.board_id, d, c.column_id, -1), (h.board_id, d, h.column_id, 1);
                                END IF;
                                UPDATE lanes.flow_cards SET title = coalesce(nt, c.title), column_id = h.column_id,
                                        entered = CASE WHEN h.column_id <> c.column_id THEN t ELSE c.entered END
                                    WHERE board_id = h.board_id AND card_id = h.card_id;
                            ELSE
                                -- It appears: a new life (a card deleted and added again starts afresh).
                                DELETE FROM lanes.flow_stints WHERE board_id = h.board_id AND card_id = h.card_id;
                                DELETE FROM lanes.flow_moves WHERE board_id = h.board_id AND card_id = h.card_id;
                                INSERT INTO lanes.flow_cards (board_id, card_id, title, column_id, appeared, appeared_row, entered)
                                    VALUES (h.board_id, h.card_id, coalesce(nt, c.title), h.column_id, t, h.id, t)
                                    ON CONFLICT (board_id, card_id) DO UPDATE SET title = EXCLUDED.title, gone_title = NULL, column_id = EXCLUDED.column_id,
                                        gone = false, appeared = EXCLUDED.appeared, appeared_row = EXCLUDED.appeared_row, entered = EXCLUDED.entered;
                                INSERT INTO lanes.flow_stints (board_id, card_id, column_id, first_row) VALUES (h.board_id, h.card_id, h.column_id, h.id);
                                INSERT INTO lanes.flow_moves (board_id, card_id, from_column, to_column, first_at, last_at)
                                    VALUES (h.board_id, h.card_id, 0, h.column_id, t, t);
                                INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (h.board_id, d, h.column_id, 1);
                            END IF;
                        END IF;
                    END IF;
                END IF;
                RETURN b;
            END $$;

        -- A board's state after a statement, and its days from `d0` summed (one row per day and column).
        CREATE FUNCTION lanes.flow_save(b lanes.flow_boards, d0 integer) RETURNS void
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN
                IF b.board_id IS NULL THEN RETURN; END IF;
                -- Updated in place (a writer waiting for this row's lock then reads the new state).
                UPDATE lanes.flow_boards f SET exact = b.exact, single_layout = b.single_layout, start_at = b.start_at,
                    layout_at = b.layout_at, last_at = b.last_at, last_event = b.last_event, last_id = b.last_id,
                    folded_rows = b.folded_rows, card_rows = b.card_rows, card_events = b.card_events, column_ids = b.column_ids,
                    first_card_at = b.first_card_at, only_adds = b.only_adds, layout_end = b.layout_end,
                    pending_run = b.pending_run, runs = b.runs
                    WHERE f.board_id = b.board_id;
                IF NOT FOUND THEN INSERT INTO lanes.flow_boards SELECT (b).*; END IF;
                WITH gone AS (DELETE FROM lanes.flow_days WHERE board_id = b.board_id AND day >= d0 RETURNING day, column_id, delta)
                INSERT INTO lanes.flow_days (board_id, day, column_id, delta)
                    SELECT b.board_id, g.day, g.column_id, sum(g.delta) FROM gone g GROUP BY g.day, g.column_id HAVING sum(g.delta) <> 0;
            END $$;

        -- A board's aggregates folded again from its first history row.
        CREATE FUNCTION lanes.flow_refold(board bigint) RETURNS void
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE h lanes.history; b lanes.flow_boards; BEGIN
                DELETE FROM lanes.flow_boards WHERE board_id = board;
                DELETE FROM lanes.flow_cards WHERE board_id = board;
                DELETE FROM lanes.flow_moves WHERE board_id = board;
                DELETE FROM lanes.flow_stints WHERE board_id = board;
                DELETE FROM lanes.flow_days WHERE board_id = board;
                FOR h IN SELECT * FROM lanes.history WHERE board_id = board AND entity IN ('card', 'column') ORDER BY id LOOP
                    b := lanes.flow_fold(b, h);
                END LOOP;
                PERFORM lanes.flow_save(b, -2147483648);
            END $$;

        CREATE FUNCTION lanes.flow_record() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE h lanes.history; b bigint; s lanes.flow_boards; d0 integer; BEGIN
                IF TG_OP = 'INSERT' THEN
                    FOR b IN SELECT DISTINCT n.board_id FROM new_rows n WHERE n.entity IN ('card', 'column') ORDER BY 1 LOOP
                        SELECT * INTO s FROM lanes.flow_boards WHERE board_id = b FOR UPDATE;
                        d0 := NULL;
                        FOR h IN SELECT * FROM new_rows n WHERE n.board_id = b AND n.entity IN ('card', 'column') ORDER BY n.id LOOP
                            s := lanes.flow_fold(s, h);
                            -- Days before the first row's (times only rise) are not touched.
                            IF d0 IS NULL AND s.board_id IS NOT NULL THEN
                                d0 := CASE WHEN s.last_at >= 0 THEN s.last_at / 86400 ELSE (s.last_at - 86399) / 86400 END;
                            END IF;
                        END LOOP;
                        PERFORM lanes.flow_save(s, d0);
                    END LOOP;
                ELSIF TG_OP = 'UPDATE' THEN
                    FOR b IN SELECT board_id FROM old_rows UNION SELECT board_id FROM new_rows ORDER BY 1 LOOP
                        PERFORM lanes.flow_refold(b);
                    END LOOP;
                ELSE
                    FOR b IN SELECT DISTINCT board_id FROM old_rows ORDER BY 1 LOOP
                        PERFORM lanes.flow_refold(b);
                    END LOOP;
                END IF;
                RETURN NULL;
            END $$;
        CREATE TRIGGER history_flow_insert AFTER INSERT ON lanes.history REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.flow_record();
        CREATE TRIGGER history_flow_update AFTER UPDATE ON lanes.history REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.flow_record();
        CREATE TRIGGER history_flow_delete AFTER DELETE ON lanes.history REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.flow_record();

        ALTER TABLE lanes.flow_boards ENABLE ROW LEVEL SECURITY;  -- not FORCEd: the schema's triggers write them as its owner
        ALTER TABLE lanes.flow_cards ENABLE ROW LEVEL SECURITY;
        ALTER TABLE lanes.flow_moves ENABLE ROW LEVEL SECURITY;
        ALTER TABLE lanes.flow_stints ENABLE ROW LEVEL SECURITY;
        ALTER TABLE lanes.flow_days ENABLE ROW LEVEL SECURITY;
        CREATE POLICY member_reads ON lanes.flow_boards FOR SELECT USING (board_id IN (SELECT lanes.member_boards(current_user)));
        CREATE POLICY member_reads ON lanes.flow_cards FOR SELECT USING (board_id IN (SELECT lanes.member_boards(current_user)));
        CREATE POLICY member_reads ON lanes.flow_moves FOR SELECT USING (board_id IN (SELECT lanes.member_boards(current_user)));
        CREATE POLICY member_reads ON lanes.flow_stints FOR SELECT USING (board_id IN (SELECT lanes.member_boards(current_user)));
        CREATE POLICY member_reads ON lanes.flow_days FOR SELECT USING (board_id IN (SELECT lanes.member_boards(current_user)));
        REVOKE ALL ON lanes.flow_boards, lanes.flow_cards, lanes.flow_moves, lanes.flow_stints, lanes.flow_days FROM PUBLIC;
        GRANT SELECT ON lanes.flow_boards, lanes.flow_cards, lanes.flow_moves, lanes.flow_stints, lanes.flow_days TO PUBLIC;
        REVOKE ALL ON FUNCTION lanes.flow_fold(lanes.flow_boards, lanes.history), lanes.flow_save(lanes.flow_boards, integer),
            lanes.flow_refold(bigint), lanes.flow_record() FROM PUBLIC;

        -- Every board's history so far.
        \(flowBackfill)
        """

    /// Folds every board's history again from its first row (the migration's backfill; running it
    /// again gives the same aggregates).
    static let flowBackfill = """
        DO $$ DECLARE b bigint; BEGIN
            FOR b IN SELECT DISTINCT board_id FROM lanes.history WHERE entity IN ('card', 'column') ORDER BY 1 LOOP
                PERFORM lanes.flow_refold(b);
            END LOOP;
        END $$;
        """
}
