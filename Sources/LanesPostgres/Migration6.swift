extension Schema {
    /// The flow aggregates (migration 5) stay exact when the columns change after cards (a column
    /// renamed, added, deleted or reordered); the history's triggers take the board's lock before
    /// the aggregates'; a deleted board's aggregates go with it.
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

        CREATE OR REPLACE FUNCTION lanes.flow_fold(b lanes.flow_boards, h lanes.history) RETURNS lanes.flow_boards
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE c lanes.flow_cards; found_card boolean; t bigint; secs bigint;
                          nt text; d integer; BEGIN
                IF h.entity NOT IN ('card', 'column') OR h.kind NOT IN ('added', 'moved', 'edited', 'deleted') THEN RETURN b; END IF;
                secs := floor(extract(epoch FROM h.at))::bigint;
                IF b.board_id IS NULL THEN
                    b.board_id := h.board_id; b.exact := true; b.start_at := secs; b.last_at := secs; b.last_id := h.id;
                    b.folded_rows := 0; b.card_rows := 0; b.card_events := false; b.column_ids := '{}';
                    b.epoch := 0; b.run_open := false; b.epoch_rows := '{}'; b.epoch_at := '{}';
                END IF;
                t := greatest(secs, b.last_at);
                IF h.id < b.last_id THEN b.exact := false; END IF;  -- committed out of the record's order
                b.last_id := greatest(b.last_id, h.id);
                b.folded_rows := b.folded_rows + 1;
                IF h.entity = 'column' THEN
                    IF h.column_id IS NULL THEN
                        b.exact := false;
                    ELSE
                        IF h.kind = 'added' THEN
                            b.column_ids := b.column_ids || h.column_id;
                        ELSIF NOT (h.column_id = ANY (b.column_ids)) THEN
                            b.exact := false;  -- a column from before the record
                        END IF;
                        -- Column rows at one moment with no card row between are one new set of columns (an epoch).
                        IF b.run_open AND t = b.last_at THEN
                            b.epoch_rows := b.epoch_rows[1:b.epoch - 1] || h.id;
                        ELSE
                            b.epoch := b.epoch + 1;
                            b.epoch_rows := b.epoch_rows || h.id;
                            b.epoch_at := b.epoch_at || t;
                            b.run_open := true;
                        END IF;
                    END IF;
                    b.last_at := t;
                    RETURN b;
                END IF;
                b.last_at := t;
                b.run_open := false;
                b.card_rows := b.card_rows + 1;
                IF h.card_id IS NULL THEN
                    b.exact := false;
                    RETURN b;
                END IF;
                IF h.column_id IS NOT NULL AND NOT (h.column_id = ANY (b.column_ids)) THEN b.exact := false; END IF;
                SELECT * INTO c FROM lanes.flow_cards WHERE board_id = h.board_id AND card_id = h.card_id;
                found_card := FOUND;
                IF NOT found_card AND h.kind <> 'added' THEN b.exact := false; END IF;  -- a card from before the record
                d := CASE WHEN t >= 0 THEN t / 86400 ELSE (t - 86399) / 86400 END;
                IF h.kind = 'deleted' THEN
                    b.last_event := t;
                    b.card_events := true;
                    IF found_card AND NOT c.gone THEN
                        IF c.epoch < b.epoch THEN
                            INSERT INTO lanes.flow_presence (board_id, card_id, epoch, column_id) VALUES (h.board_id, h.card_id, b.epoch, c.column_id);
                        END IF;
                        UPDATE lanes.flow_stints SET seconds = seconds + (t - c.entered)
                            WHERE board_id = h.board_id AND card_id = h.card_id AND column_id = c.column_id;
                        INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (h.board_id, d, c.column_id, -1);
                        UPDATE lanes.flow_cards SET gone = true, gone_title = coalesce(h.before ->> 'title', c.title), epoch = b.epoch
                            WHERE board_id = h.board_id AND card_id = h.card_id;
                    END IF;
                    RETURN b;
                END IF;
                nt := CASE WHEN h.kind = 'moved' THEN NULL ELSE h.after ->> 'title' END;
                IF h.kind = 'edited' AND (nt IS NULL OR h.column_id IS NULL) THEN
                    RETURN b;  -- no event: an edit of something other than the title
                ELSIF h.column_id IS NULL THEN
                    -- No event; an added row's title is still the card's.
                    IF nt IS NOT NULL AND found_card THEN
                        UPDATE lanes.flow_cards SET title = nt WHERE board_id = h.board_id AND card_id = h.card_id;
                    ELSIF nt IS NOT NULL THEN
                        b.exact := false;
                    END IF;
                    RETURN b;
                END IF;
                b.last_event := t;
                b.card_events := true;
                IF found_card AND NOT c.gone THEN
                    IF c.epoch < b.epoch THEN
                        INSERT INTO lanes.flow_presence (board_id, card_id, epoch, column_id) VALUES (h.board_id, h.card_id, b.epoch, c.column_id);
                    END IF;
                    IF h.column_id <> c.column_id THEN
                        UPDATE lanes.flow_stints SET seconds = seconds + (t - c.entered)
                            WHERE board_id = h.board_id AND card_id = h.card_id AND column_id = c.column_id;
                        INSERT INTO lanes.flow_stints (board_id, card_id, column_id, first_row) VALUES (h.board_id, h.card_id, h.column_id, h.id)
                            ON CONFLICT (board_id, card_id, column_id) DO NOTHING;
                        INSERT INTO lanes.flow_moves (board_id, card_id, epoch, from_column, to_column, first_at, last_at)
                            VALUES (h.board_id, h.card_id, b.epoch, c.column_id, h.column_id, t, t)
                            ON CONFLICT (board_id, card_id, epoch, from_column, to_column) DO UPDATE SET last_at = EXCLUDED.last_at;
                        INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (h.board_id, d, c.column_id, -1), (h.board_id, d, h.column_id, 1);
                    END IF;
                    UPDATE lanes.flow_cards SET title = coalesce(nt, c.title), column_id = h.column_id, epoch = b.epoch,
                            entered = CASE WHEN h.column_id <> c.column_id THEN t ELSE c.entered END
                        WHERE board_id = h.board_id AND card_id = h.card_id;
                ELSE
                    -- It appears: a new life (a card deleted and added again starts afresh).
                    DELETE FROM lanes.flow_stints WHERE board_id = h.board_id AND card_id = h.card_id;
                    DELETE FROM lanes.flow_moves WHERE board_id = h.board_id AND card_id = h.card_id;
                    DELETE FROM lanes.flow_presence WHERE board_id = h.board_id AND card_id = h.card_id;
                    INSERT INTO lanes.flow_cards (board_id, card_id, title, column_id, appeared, appeared_row, entered, appeared_epoch, epoch)
                        VALUES (h.board_id, h.card_id, coalesce(nt, c.title), h.column_id, t, h.id, t, b.epoch, b.epoch)
                        ON CONFLICT (board_id, card_id) DO UPDATE SET title = EXCLUDED.title, gone_title = NULL, column_id = EXCLUDED.column_id,
                            gone = false, appeared = EXCLUDED.appeared, appeared_row = EXCLUDED.appeared_row, entered = EXCLUDED.entered,
                            appeared_epoch = EXCLUDED.appeared_epoch, epoch = EXCLUDED.epoch;
                    INSERT INTO lanes.flow_stints (board_id, card_id, column_id, first_row) VALUES (h.board_id, h.card_id, h.column_id, h.id);
                    INSERT INTO lanes.flow_moves (board_id, card_id, epoch, from_column, to_column, first_at, last_at)
                        VALUES (h.board_id, h.card_id, b.epoch, 0, h.column_id, t, t);
                    INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (h.board_id, d, h.column_id, 1);
                END IF;
                RETURN b;
            END $$;

        CREATE OR REPLACE FUNCTION lanes.flow_save(b lanes.flow_boards, d0 integer) RETURNS void
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN
                IF b.board_id IS NULL THEN RETURN; END IF;
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

        -- A board's aggregates folded again from its first history row (none for a deleted board).
        CREATE OR REPLACE FUNCTION lanes.flow_refold(board bigint) RETURNS void
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE h lanes.history; b lanes.flow_boards; BEGIN
                PERFORM lanes.flow_forget(board);
                IF lanes.board_gone(board) THEN RETURN; END IF;
                FOR h IN SELECT * FROM lanes.history WHERE board_id = board AND entity IN ('card', 'column') ORDER BY id LOOP
                    b := lanes.flow_fold(b, h);
                END LOOP;
                PERFORM lanes.flow_save(b, -2147483648);
            END $$;

        CREATE OR REPLACE FUNCTION lanes.flow_record() RETURNS trigger
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
        REVOKE ALL ON FUNCTION lanes.flow_forget(bigint), lanes.lock_board_first() FROM PUBLIC;

        -- Every board's history again, into the new shape.
        \(flowBackfill)
        """
}
