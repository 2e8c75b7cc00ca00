extension Schema {
    /// Who finished a card: the flow aggregates keep the role of each move's last occurrence, so
    /// `lanes metrics` can split the cards agents finished from those people finished (#41).
    ///
    /// Upgrades a database of migration 8 in place (every row kept; the aggregates folded again).
    /// - `flow_moves.last_row`, `flow_moves.last_by`: the history row of the last move of its kind
    ///   (epoch, column left, column entered) and that row's `role`. The reader takes the author of
    ///   the last entry into done (by time, then by row: several moves in one second are in the
    ///   record's order) after applying what the columns mean, as it takes its time.
    /// - `flow_row` carries the row's role (`flow_row_of` takes it; `flow_fold_rows`,
    ///   `flow_put_card`, `flow_refold` and `flow_record` pass it on).
    /// - `history_card_flow`, the index the whole record is read from (migration 4), includes the
    ///   role, so that read stays an index-only scan.
    /// Who is an agent is not in the schema: an administrator makes the role a member of a group
    /// role `lanes_agents` (`CREATE ROLE lanes_agents NOLOGIN; GRANT lanes_agents TO claude`), which
    /// only a role with the right to grant it can change; the reader asks `pg_auth_members`.
    static let migration9 = """
        ALTER TABLE lanes.flow_moves ADD COLUMN last_row bigint NOT NULL DEFAULT 0, ADD COLUMN last_by name;
        ALTER TYPE lanes.flow_row ADD ATTRIBUTE role name;
        DROP FUNCTION lanes.flow_row_of(bigint, timestamptz, text, text, bigint, bigint, jsonb, jsonb);
        DROP FUNCTION lanes.flow_put_card(lanes.flow_cards, bigint[], bigint[], bigint[], integer[], bigint[], bigint[], bigint[], bigint[],
                                          integer[], bigint[]);

        -- A history row as the fold reads it, with its role.
        CREATE FUNCTION lanes.flow_row_of(id bigint, at timestamptz, entity text, kind text, card_id bigint, column_id bigint,
                                          after jsonb, before jsonb, role name) RETURNS lanes.flow_row
            LANGUAGE sql STABLE SET search_path = pg_catalog
            AS $$ SELECT ROW(id, floor(extract(epoch FROM at))::bigint, entity, kind, card_id, column_id,
                             CASE WHEN kind <> 'moved' THEN after ->> 'title' END, before ->> 'title', NULL, NULL, role)::lanes.flow_row $$;

        -- As migration 6's, and each move's last row and role (mv_row, mv_by).
        CREATE OR REPLACE FUNCTION lanes.flow_fold_rows(board bigint, b lanes.flow_boards, rows lanes.flow_row[]) RETURNS lanes.flow_boards
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE r lanes.flow_row; cards lanes.flow_row[] := '{}'; t bigint; cur bigint; c lanes.flow_cards;
                          found_card boolean; dirty boolean; nt text; d integer; i integer; k text;
                          st_col bigint[]; st_first bigint[]; st_secs bigint[];
                          mv_key text[]; mv_epoch integer[]; mv_from bigint[]; mv_to bigint[]; mv_first bigint[]; mv_last bigint[];
                          mv_row bigint[]; mv_by name[];
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
                            PERFORM lanes.flow_put_card(c, st_col, st_first, st_secs, mv_epoch, mv_from, mv_to, mv_first, mv_last, mv_row, mv_by,
                                                        pr_epoch, pr_col);
                        END IF;
                        cur := r.card_id;
                        SELECT * INTO c FROM lanes.flow_cards WHERE board_id = b.board_id AND card_id = r.card_id;
                        found_card := FOUND;
                        dirty := false;
                        st_col := '{}'; st_first := '{}'; st_secs := '{}';
                        mv_key := '{}'; mv_epoch := '{}'; mv_from := '{}'; mv_to := '{}'; mv_first := '{}'; mv_last := '{}';
                        mv_row := '{}'; mv_by := '{}';
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
                                mv_row := mv_row || r.id; mv_by := mv_by || r.role;
                            ELSE
                                mv_last[i] := t; mv_row[i] := r.id; mv_by[i] := r.role;
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
                        mv_row := ARRAY[r.id]; mv_by := ARRAY[r.role];
                        pr_epoch := '{}'; pr_col := '{}';
                        INSERT INTO lanes.flow_days (board_id, day, column_id, delta) VALUES (b.board_id, d, r.column_id, 1);
                        dirty := true;
                    END IF;
                END LOOP;
                IF cur IS NOT NULL AND dirty THEN
                    PERFORM lanes.flow_put_card(c, st_col, st_first, st_secs, mv_epoch, mv_from, mv_to, mv_first, mv_last, mv_row, mv_by,
                                                        pr_epoch, pr_col);
                END IF;
                RETURN b;
            END $$;

        -- A card's state after a statement, and what changed of its stays, moves and presence (each row written once).
        CREATE FUNCTION lanes.flow_put_card(c lanes.flow_cards, st_col bigint[], st_first bigint[], st_secs bigint[],
                                            mv_epoch integer[], mv_from bigint[], mv_to bigint[], mv_first bigint[], mv_last bigint[],
                                            mv_row bigint[], mv_by name[], pr_epoch integer[], pr_col bigint[]) RETURNS void
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
                    INSERT INTO lanes.flow_moves (board_id, card_id, epoch, from_column, to_column, first_at, last_at, last_row, last_by)
                        SELECT c.board_id, c.card_id, u.e, u.f, u.t, u.a, u.z, u.r, u.w
                        FROM unnest(mv_epoch, mv_from, mv_to, mv_first, mv_last, mv_row, mv_by) AS u (e, f, t, a, z, r, w)
                        ON CONFLICT (board_id, card_id, epoch, from_column, to_column) DO UPDATE
                        SET last_at = EXCLUDED.last_at, last_row = EXCLUDED.last_row, last_by = EXCLUDED.last_by;
                END IF;
                IF cardinality(pr_epoch) > 0 THEN
                    INSERT INTO lanes.flow_presence (board_id, card_id, epoch, column_id)
                        SELECT c.board_id, c.card_id, u.e, u.col FROM unnest(pr_epoch, pr_col) AS u (e, col)
                        ON CONFLICT (board_id, card_id, epoch) DO NOTHING;
                END IF;
            END $$;

        -- A board's aggregates folded again from its first history row (none for a deleted board).
        CREATE OR REPLACE FUNCTION lanes.flow_refold(board bigint) RETURNS void
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ DECLARE chunk lanes.flow_row[]; b lanes.flow_boards; BEGIN
                PERFORM lanes.flow_forget(board);
                IF lanes.board_gone(board) THEN RETURN; END IF;
                FOR chunk IN SELECT array_agg(x.r ORDER BY (x.r).id)
                             FROM (SELECT lanes.flow_row_of(h.id, h.at, h.entity, h.kind, h.card_id, h.column_id, h.after, h.before, h.role),
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
                                     FROM (SELECT lanes.flow_row_of(n.id, n.at, n.entity, n.kind, n.card_id, n.column_id, n.after, n.before, n.role),
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

        DROP INDEX lanes.history_card_flow;
        CREATE INDEX history_card_flow ON lanes.history (board_id, id) INCLUDE (at, card_id, column_id, role) WHERE entity = 'card';

        REVOKE ALL ON FUNCTION lanes.flow_row_of(bigint, timestamptz, text, text, bigint, bigint, jsonb, jsonb, name),
            lanes.flow_put_card(lanes.flow_cards, bigint[], bigint[], bigint[], integer[], bigint[], bigint[], bigint[], bigint[],
                                bigint[], name[], integer[], bigint[]) FROM PUBLIC;

        -- Every board's history again, with its roles.
        \(flowBackfill)
        """
}
