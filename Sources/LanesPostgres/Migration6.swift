extension Schema {
    /// The flow aggregates (migration 5) stay exact when the columns change after cards (a column
    /// renamed, added, deleted or reordered); a statement's rows are folded per card; a write takes
    /// the board's lock before the aggregates'; a deleted board's aggregates go with it.
    ///
    /// The reader of the whole record gives a new set of columns after each run of column rows at
    /// one moment (no card row between); a card in a column whose meaning that set changes enters
    /// the new meaning then. So the aggregates now number those sets (a board's *epochs*:
    /// `flow_boards.epoch`, with the last column row and the moment of each, `epoch_rows`,
    /// `epoch_at`), and keep what the reader needs to apply each set's meanings at read time:
    /// - `flow_moves` per (card, epoch, column left, column entered): a move's meaning is that of
    ///   the set it happened under;
    /// - `flow_presence` per (card, epoch): the column the card was in when that set came, written
    ///   at the card's first row in the epoch (so once per card and epoch, nothing for a card that
    ///   stays put: it is where it was after its last row);
    /// - `flow_cards.appeared_epoch`, `flow_cards.epoch`: the epochs of its appearance and last row.
    /// The column sets themselves are the record's column rows (few), read again by the reader.
    /// `single_layout` and the columns that decided it are gone: every board's aggregates are exact
    /// unless a row came out of the record's order or named something from before the record.
    ///
    /// One statement's rows are folded per card in memory (`flow_fold_rows`): the board's state in
    /// the record's order first, then each card's rows together, its aggregate rows written once
    /// per statement (`flow_put_card`). Updating a card's rows once per history row made each update
    /// walk the versions the statement had already made of that row (20,000 rows in one statement
    /// folded in 2.4 s at 1,000 rows a card and 6.5 s at 4,000; in memory, 0.6–0.8 s either way).
    ///
    /// Lock order: a Lanes commit locks the board's row (`lanes.boards`) and then writes, reaching
    /// `flow_boards` through the history; a raw write reached `flow_boards` first and the board's
    /// row after (the stamping trigger), so the two could deadlock on one board. A row trigger on
    /// cards and columns now locks the board's row first (as the writer, once per transaction and
    /// board: a transaction-local setting remembers it), before the history is folded.
    static let migration6 = """
        ALTER TABLE lanes.flow_boards DROP COLUMN single_layout, DROP COLUMN layout_at, DROP COLUMN first_card_at,
            DROP COLUMN only_adds, DROP COLUMN layout_end, DROP COLUMN pending_run, DROP COLUMN runs,
            ADD COLUMN epoch integer NOT NULL DEFAULT 0,
            ADD COLUMN run_open boolean NOT NULL DEFAULT false,
            ADD COLUMN epoch_rows bigint[] NOT NULL DEFAULT '{}',
            ADD COLUMN epoch_at bigint[] NOT NULL DEFAULT '{}';
        ALTER TABLE lanes.flow_cards ADD COLUMN appeared_epoch integer NOT NULL DEFAULT 0,
            ADD COLUMN epoch integer NOT NULL DEFAULT 0;
        ALTER TABLE lanes.flow_moves ADD COLUMN epoch integer NOT NULL DEFAULT 0;
        ALTER TABLE lanes.flow_moves DROP CONSTRAINT flow_moves_pkey,
            ADD PRIMARY KEY (board_id, card_id, epoch, from_column, to_column);
        CREATE TABLE lanes.flow_presence (
            board_id bigint NOT NULL,
            card_id bigint NOT NULL,
            epoch integer NOT NULL,
            column_id bigint NOT NULL,
            PRIMARY KEY (board_id, card_id, epoch));

        -- What the fold reads of a history row; `t` and `epoch` are the fold's (its time, never before the
        -- row before; the set of columns it came under).
        CREATE TYPE lanes.flow_row AS (id bigint, secs bigint, entity text, kind text, card_id bigint, column_id bigint,
                                       title text, before_title text, t bigint, epoch integer);
        DROP FUNCTION lanes.flow_fold(lanes.flow_boards, lanes.history);

        -- Rows of one board folded in (the record's order, `rows` rising by id): what ServerHistory.Stream
        -- and FlowMetrics make of them, less what the columns mean. First the board's own state in
        -- the record's order (times, sets of columns, the columns known), in memory; then each card's
        -- rows together, in the record's order, on the card's state in memory, its aggregate rows
        -- written once (flow_put_card): a row updated once per history row within one statement makes
        -- each update walk that row's earlier versions (measured: quadratic in a card's rows).
        -- The board's state is the caller's (`b`, NULL for a board not folded yet; given back changed; saved by flow_save).
        CREATE FUNCTION lanes.flow_fold_rows(board bigint, b lanes.flow_boards, rows lanes.flow_row[]) RETURNS lanes.flow_boards
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE r lanes.flow_row; cards lanes.flow_row[] := '{}'; t bigint; cur bigint; c lanes.flow_cards;
                          found_card boolean; dirty boolean; nt text; d integer; i integer; k text;
                          st_col bigint[]; st_first bigint[]; st_secs bigint[];
                          mv_key text[]; mv_epoch integer[]; mv_from bigint[]; mv_to bigint[]; mv_first bigint[]; mv_last bigint[];
                          pr_epoch integer[]; pr_col bigint[]; BEGIN
                FOREACH r IN ARRAY rows LOOP
                    IF r.entity NOT IN ('card', 'column') OR r.kind NOT IN ('added', 'moved', 'edited', 'deleted') THEN CONTINUE; END IF;
                    IF b.last_id IS NULL THEN
                        b.board_id := board; b.exact := true; b.start_at := r.secs; b.last_at := r.secs; b.last_id := r.id;
                        b.folded_rows := 0; b.card_rows := 0; b.card_events := false; b.column_ids := '{}';
                        b.epoch := 0; b.run_open := false; b.epoch_rows := '{}'; b.epoch_at := '{}';
                    END IF;
                    t := greatest(r.secs, b.last_at);
                    IF r.id < b.last_id THEN b.exact := false; END IF;  -- committed out of the record's order
                    b.last_id := greatest(b.last_id, r.id);
                    b.folded_rows := b.folded_rows + 1;
                    IF r.entity = 'column' THEN
                        IF r.column_id IS NULL THEN
                            b.exact := false;
                        ELSE
                            IF r.kind = 'added' THEN
                                b.column_ids := b.column_ids || r.column_id;
                            ELSIF NOT (r.column_id = ANY (b.column_ids)) THEN
                                b.exact := false;  -- a column from before the record
                            END IF;
                            -- Column rows at one moment with no card row between are one new set of columns (an epoch).
                            IF b.run_open AND t = b.last_at THEN
                                b.epoch_rows := b.epoch_rows[1:b.epoch - 1] || r.id;
                            ELSE
                                b.epoch := b.epoch + 1;
                                b.epoch_rows := b.epoch_rows || r.id;
                                b.epoch_at := b.epoch_at || t;
                                b.run_open := true;
                            END IF;
                        END IF;
                        b.last_at := t;
                        CONTINUE;
                    END IF;
                    b.last_at := t;
                    b.run_open := false;
                    b.card_rows := b.card_rows + 1;
                    IF r.card_id IS NULL THEN b.exact := false; CONTINUE; END IF;
                    IF r.column_id IS NOT NULL AND NOT (r.column_id = ANY (b.column_ids)) THEN b.exact := false; END IF;
                    -- Which rows are events does not depend on the card.
                    IF r.kind = 'deleted' OR (r.column_id IS NOT NULL AND (r.kind <> 'edited' OR r.title IS NOT NULL)) THEN
                        b.last_event := t;
                        b.card_events := true;
                    END IF;
                    r.t := t;
                    r.epoch := b.epoch;
                    cards := cards || r;
                END LOOP;
                cur := NULL;
                FOR r IN SELECT * FROM unnest(cards) u ORDER BY u.card_id, u.id LOOP
                    IF cur IS DISTINCT FROM r.card_id THEN
                        IF cur IS NOT NULL AND dirty THEN
                            PERFORM lanes.flow_put_card(c, st_col, st_first, st_secs, mv_epoch, mv_from, mv_to, mv_first, mv_last, pr_epoch, pr_col);
                        END IF;
                        cur := r.card_id;
                        SELECT * INTO c FROM lanes.flow_cards WHERE board_id = b.board_id AND card_id = r.card_id;
                        found_card := FOUND;
                        dirty := false;
                        st_col := '{}'; st_first := '{}'; st_secs := '{}';
                        mv_key := '{}'; mv_epoch := '{}'; mv_from := '{}'; mv_to := '{}'; mv_first := '{}'; mv_last := '{}';
                        pr_epoch := '{}'; pr_col := '{}';
                    END IF;
                    IF NOT found_card AND r.kind <> 'added' THEN b.exact := false; END IF;  -- a card from before the record
                    t := r.t;
                    d := CASE WHEN t >= 0 THEN t / 86400 ELSE (t - 86399) / 86400 END;
                    IF r.kind = 'deleted' THEN
                        IF found_card AND NOT c.gone THEN
                            IF c.epoch < r.epoch THEN pr_epoch := pr_epoch || r.epoch; pr_col := pr_col || c.column_id; END IF;
                            i := array_position(st_col, c.column_id);
                            IF i IS NULL THEN
                                st_col := st_col || c.column_id; st_first := st_first || r.id; st_secs := st_secs || (t - c.entered);
                            ELSE
                                st_secs[i] := st_secs[i] + (t - c.entered);
                            END IF;
                            INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (b.board_id, d, c.column_id, -1);
                            c.gone := true; c.gone_title := coalesce(r.before_title, c.title); c.epoch := r.epoch;
                            dirty := true;
                        END IF;
                        CONTINUE;
                    END IF;
                    nt := CASE WHEN r.kind = 'moved' THEN NULL ELSE r.title END;
                    IF r.kind = 'edited' AND (nt IS NULL OR r.column_id IS NULL) THEN
                        CONTINUE;  -- no event: an edit of something other than the title
                    ELSIF r.column_id IS NULL THEN
                        -- No event; an added row's title is still the card's.
                        IF nt IS NOT NULL AND found_card THEN
                            c.title := nt; dirty := true;
                        ELSIF nt IS NOT NULL THEN
                            b.exact := false;
                        END IF;
                        CONTINUE;
                    END IF;
                    IF found_card AND NOT c.gone THEN
                        IF c.epoch < r.epoch THEN pr_epoch := pr_epoch || r.epoch; pr_col := pr_col || c.column_id; END IF;
                        IF r.column_id <> c.column_id THEN
                            i := array_position(st_col, c.column_id);
                            IF i IS NULL THEN
                                st_col := st_col || c.column_id; st_first := st_first || r.id; st_secs := st_secs || (t - c.entered);
                            ELSE
                                st_secs[i] := st_secs[i] + (t - c.entered);
                            END IF;
                            IF array_position(st_col, r.column_id) IS NULL THEN
                                st_col := st_col || r.column_id; st_first := st_first || r.id; st_secs := st_secs || 0::bigint;
                            END IF;
                            k := r.epoch || ':' || c.column_id || ':' || r.column_id;
                            i := array_position(mv_key, k);
                            IF i IS NULL THEN
                                mv_key := mv_key || k; mv_epoch := mv_epoch || r.epoch; mv_from := mv_from || c.column_id;
                                mv_to := mv_to || r.column_id; mv_first := mv_first || t; mv_last := mv_last || t;
                            ELSE
                                mv_last[i] := t;
                            END IF;
                            INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (b.board_id, d, c.column_id, -1), (b.board_id, d, r.column_id, 1);
                            c.entered := t;
                        END IF;
                        c.title := coalesce(nt, c.title); c.column_id := r.column_id; c.epoch := r.epoch;
                        dirty := true;
                    ELSE
                        -- It appears: a new life (a card deleted and added again starts afresh).
                        IF found_card THEN
                            DELETE FROM lanes.flow_stints WHERE board_id = b.board_id AND card_id = r.card_id;
                            DELETE FROM lanes.flow_moves WHERE board_id = b.board_id AND card_id = r.card_id;
                            DELETE FROM lanes.flow_presence WHERE board_id = b.board_id AND card_id = r.card_id;
                        END IF;
                        c := ROW(b.board_id, r.card_id, coalesce(nt, c.title), NULL, r.column_id, false, t, r.id, t, r.epoch, r.epoch)::lanes.flow_cards;
                        found_card := true;
                        st_col := ARRAY[r.column_id]; st_first := ARRAY[r.id]; st_secs := ARRAY[0::bigint];
                        mv_key := ARRAY[r.epoch || ':0:' || r.column_id]; mv_epoch := ARRAY[r.epoch]; mv_from := ARRAY[0::bigint];
                        mv_to := ARRAY[r.column_id]; mv_first := ARRAY[t]; mv_last := ARRAY[t];
                        pr_epoch := '{}'; pr_col := '{}';
                        INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (b.board_id, d, r.column_id, 1);
                        dirty := true;
                    END IF;
                END LOOP;
                IF cur IS NOT NULL AND dirty THEN
                    PERFORM lanes.flow_put_card(c, st_col, st_first, st_secs, mv_epoch, mv_from, mv_to, mv_first, mv_last, pr_epoch, pr_col);
                END IF;
                RETURN b;
            END $$;

        -- A card's state after a statement, and what changed of its stays, moves and presence (each row written once).
        CREATE FUNCTION lanes.flow_put_card(c lanes.flow_cards, st_col bigint[], st_first bigint[], st_secs bigint[],
                                            mv_epoch integer[], mv_from bigint[], mv_to bigint[], mv_first bigint[], mv_last bigint[],
                                            pr_epoch integer[], pr_col bigint[]) RETURNS void
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN
                INSERT INTO lanes.flow_cards (board_id, card_id, title, gone_title, column_id, gone, appeared, appeared_row, entered, appeared_epoch, epoch)
                    VALUES (c.board_id, c.card_id, c.title, c.gone_title, c.column_id, c.gone, c.appeared, c.appeared_row, c.entered, c.appeared_epoch, c.epoch)
                    ON CONFLICT (board_id, card_id) DO UPDATE SET title = EXCLUDED.title, gone_title = EXCLUDED.gone_title,
                        column_id = EXCLUDED.column_id, gone = EXCLUDED.gone, appeared = EXCLUDED.appeared, appeared_row = EXCLUDED.appeared_row,
                        entered = EXCLUDED.entered, appeared_epoch = EXCLUDED.appeared_epoch, epoch = EXCLUDED.epoch;
                IF cardinality(st_col) > 0 THEN
                    INSERT INTO lanes.flow_stints AS s (board_id, card_id, column_id, first_row, seconds)
                        SELECT c.board_id, c.card_id, u.col, u.first, u.secs FROM unnest(st_col, st_first, st_secs) AS u (col, first, secs)
                        ON CONFLICT (board_id, card_id, column_id) DO UPDATE SET seconds = s.seconds + EXCLUDED.seconds;
                END IF;
                IF cardinality(mv_epoch) > 0 THEN
                    INSERT INTO lanes.flow_moves (board_id, card_id, epoch, from_column, to_column, first_at, last_at)
                        SELECT c.board_id, c.card_id, u.e, u.f, u.t, u.a, u.z FROM unnest(mv_epoch, mv_from, mv_to, mv_first, mv_last) AS u (e, f, t, a, z)
                        ON CONFLICT (board_id, card_id, epoch, from_column, to_column) DO UPDATE SET last_at = EXCLUDED.last_at;
                END IF;
                IF cardinality(pr_epoch) > 0 THEN
                    INSERT INTO lanes.flow_presence (board_id, card_id, epoch, column_id)
                        SELECT c.board_id, c.card_id, u.e, u.col FROM unnest(pr_epoch, pr_col) AS u (e, col)
                        ON CONFLICT (board_id, card_id, epoch) DO NOTHING;
                END IF;
            END $$;

        CREATE OR REPLACE FUNCTION lanes.flow_save(b lanes.flow_boards, d0 integer) RETURNS void
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN
                IF b.last_id IS NULL THEN RETURN; END IF;
                -- Updated in place (a writer waiting for this row's lock then reads the new state).
                UPDATE lanes.flow_boards f SET exact = b.exact, start_at = b.start_at, last_at = b.last_at, last_event = b.last_event,
                    last_id = b.last_id, folded_rows = b.folded_rows, card_rows = b.card_rows, card_events = b.card_events,
                    column_ids = b.column_ids, epoch = b.epoch, run_open = b.run_open, epoch_rows = b.epoch_rows, epoch_at = b.epoch_at
                    WHERE f.board_id = b.board_id;
                IF NOT FOUND THEN
                    INSERT INTO lanes.flow_boards (board_id, exact, start_at, last_at, last_event, last_id, folded_rows, card_rows,
                                                   card_events, column_ids, epoch, run_open, epoch_rows, epoch_at)
                    VALUES (b.board_id, b.exact, b.start_at, b.last_at, b.last_event, b.last_id, b.folded_rows, b.card_rows,
                            b.card_events, b.column_ids, b.epoch, b.run_open, b.epoch_rows, b.epoch_at);
                END IF;
                WITH gone AS (DELETE FROM lanes.flow_days WHERE board_id = b.board_id AND day >= d0 RETURNING day, column_id, delta)
                INSERT INTO lanes.flow_days (board_id, day, column_id, delta)
                    SELECT b.board_id, g.day, g.column_id, sum(g.delta) FROM gone g GROUP BY g.day, g.column_id HAVING sum(g.delta) <> 0;
            END $$;

        -- A board's aggregates, gone.
        CREATE FUNCTION lanes.flow_forget(board bigint) RETURNS void
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN
                DELETE FROM lanes.flow_boards WHERE board_id = board;
                DELETE FROM lanes.flow_cards WHERE board_id = board;
                DELETE FROM lanes.flow_moves WHERE board_id = board;
                DELETE FROM lanes.flow_stints WHERE board_id = board;
                DELETE FROM lanes.flow_days WHERE board_id = board;
                DELETE FROM lanes.flow_presence WHERE board_id = board;
            END $$;

        -- A history row as the fold reads it (callers pass a board's rows in the record's order, in
        -- chunks: a statement of a million rows is not one array).
        CREATE FUNCTION lanes.flow_row_of(id bigint, at timestamptz, entity text, kind text, card_id bigint, column_id bigint,
                                          after jsonb, before jsonb) RETURNS lanes.flow_row
            LANGUAGE sql STABLE SET search_path = pg_catalog
            AS $$ SELECT ROW(id, floor(extract(epoch FROM at))::bigint, entity, kind, card_id, column_id,
                             CASE WHEN kind <> 'moved' THEN after ->> 'title' END, before ->> 'title', NULL, NULL)::lanes.flow_row $$;

        -- A board's aggregates folded again from its first history row (none for a deleted board).
        CREATE OR REPLACE FUNCTION lanes.flow_refold(board bigint) RETURNS void
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE chunk lanes.flow_row[]; b lanes.flow_boards; BEGIN
                PERFORM lanes.flow_forget(board);
                IF lanes.board_gone(board) THEN RETURN; END IF;
                FOR chunk IN SELECT array_agg(x.r ORDER BY (x.r).id)
                             FROM (SELECT lanes.flow_row_of(h.id, h.at, h.entity, h.kind, h.card_id, h.column_id, h.after, h.before),
                                          (row_number() OVER (ORDER BY h.id) - 1) / 100000
                                   FROM lanes.history h
                                   WHERE h.board_id = board AND h.entity IN ('card', 'column') AND h.kind IN ('added', 'moved', 'edited', 'deleted')) x (r, g)
                             GROUP BY x.g ORDER BY x.g LOOP
                    b := lanes.flow_fold_rows(board, b, chunk);
                END LOOP;
                PERFORM lanes.flow_save(b, -2147483648);
            END $$;

        CREATE OR REPLACE FUNCTION lanes.flow_record() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE chunk lanes.flow_row[]; b bigint; s lanes.flow_boards; d0 integer; BEGIN
                IF TG_OP = 'INSERT' THEN
                    FOR b IN SELECT DISTINCT n.board_id FROM new_rows n WHERE n.entity IN ('card', 'column') ORDER BY 1 LOOP
                        SELECT * INTO s FROM lanes.flow_boards WHERE board_id = b FOR UPDATE;
                        d0 := NULL;
                        FOR chunk IN SELECT array_agg(x.r ORDER BY (x.r).id)
                                     FROM (SELECT lanes.flow_row_of(n.id, n.at, n.entity, n.kind, n.card_id, n.column_id, n.after, n.before),
                                                  (row_number() OVER (ORDER BY n.id) - 1) / 100000
                                           FROM new_rows n
                                           WHERE n.board_id = b AND n.entity IN ('card', 'column') AND n.kind IN ('added', 'moved', 'edited', 'deleted')) x (r, g)
                                     GROUP BY x.g ORDER BY x.g LOOP
                            -- Days before the first row's (times only rise) are not touched.
                            IF d0 IS NULL THEN
                                d0 := greatest((chunk[1]).secs, s.last_at);
                                d0 := CASE WHEN d0 >= 0 THEN d0 / 86400 ELSE (d0 - 86399) / 86400 END;
                            END IF;
                            s := lanes.flow_fold_rows(b, s, chunk);
                        END LOOP;
                        IF d0 IS NOT NULL THEN PERFORM lanes.flow_save(s, d0); END IF;
                    END LOOP;
                    -- A deleted board (its cards' and columns' deletions are not recorded): its aggregates go too.
                    FOR b IN SELECT DISTINCT n.board_id FROM new_rows n WHERE n.entity = 'board' AND n.kind = 'deleted' LOOP
                        PERFORM lanes.flow_forget(b);
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

        -- The board's row before anything else a write of its cards or columns locks (the column a new
        -- card names, the aggregates): the order a Lanes commit takes them in. As the writer (who may
        -- lock their own board's row; the history's triggers run as the schema's owner, who sees no
        -- board row). Not for the schema's own writes inside a write (stamping, a board's deletion).
        CREATE FUNCTION lanes.lock_board_first() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE b bigint; BEGIN
                b := CASE WHEN TG_OP = 'DELETE' THEN OLD.board_id ELSE NEW.board_id END;
                IF current_setting('lanes.locked_board', true) IS DISTINCT FROM b::text THEN
                    PERFORM 1 FROM lanes.boards WHERE id = b FOR UPDATE;
                    PERFORM set_config('lanes.locked_board', b::text, true);
                END IF;
                RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
            END $$;
        CREATE TRIGGER cards_lock_board BEFORE INSERT OR UPDATE OR DELETE ON lanes.cards
            FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION lanes.lock_board_first();
        CREATE TRIGGER columns_lock_board BEFORE INSERT OR UPDATE OR DELETE ON lanes.columns
            FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION lanes.lock_board_first();

        ALTER TABLE lanes.flow_presence ENABLE ROW LEVEL SECURITY;  -- not FORCEd: the schema's triggers write it as its owner
        CREATE POLICY member_reads ON lanes.flow_presence FOR SELECT USING (board_id IN (SELECT lanes.member_boards(current_user)));
        REVOKE ALL ON lanes.flow_presence FROM PUBLIC;
        GRANT SELECT ON lanes.flow_presence TO PUBLIC;
        REVOKE ALL ON FUNCTION lanes.flow_forget(bigint), lanes.lock_board_first(), lanes.flow_fold_rows(bigint, lanes.flow_boards, lanes.flow_row[]),
            lanes.flow_put_card(lanes.flow_cards, bigint[], bigint[], bigint[], integer[], bigint[], bigint[], bigint[], bigint[], integer[], bigint[]),
            lanes.flow_row_of(bigint, timestamptz, text, text, bigint, bigint, jsonb, jsonb) FROM PUBLIC;

        -- Every board's history again, into the new shape.
        \(flowBackfill)
        """
}
