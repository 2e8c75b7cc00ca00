extension Schema {
    /// Roles as the server enforces them, the history no member can rewrite, secret channels.
    ///
    /// Upgrades a database of migration 1 in place (boards, members, cards all kept). What it
    /// holds, as README's table says it:
    /// - Column privileges: a member writes a board's content (columns, cards, limits, rules,
    ///   settings) but never `id`, `owner`, `name`, `created_at` or any `changed_by`; the
    ///   `guard_board` trigger lets only the owner change `name` or `owner` (rename, hand over).
    /// - `changed_by`/`removed_by` come from the server: the column default on INSERT (not
    ///   insertable) and a BEFORE UPDATE trigger (not updatable), both `current_user`.
    /// - A card's column is on the card's board (a foreign key on both ids).
    /// - `member_boards` and `may_grant` answer only about `lanes.invoker()`, the role the
    ///   session runs as (SET ROLE included): a role asking about another role learns nothing.
    /// - `lanes.history`: one row per change of a card, column, board or member, written by
    ///   the schema's triggers (SECURITY DEFINER, as the schema's owner) with server time and
    ///   role; members SELECT their boards' rows, nobody else may INSERT, UPDATE or DELETE.
    /// - `board_names.channel`: each board's NOTIFY channel is a random name only members can
    ///   read; the triggers send an empty payload on it when the board, or who may see it, changes.
    static let migration2 = """
        CREATE FUNCTION lanes.invoker() RETURNS name
            LANGUAGE sql STABLE SET search_path = pg_catalog
            AS $$ SELECT CASE WHEN current_setting('role') = 'none' THEN session_user
                              ELSE current_setting('role')::name END $$;

        CREATE OR REPLACE FUNCTION lanes.member_boards(r name) RETURNS SETOF bigint
            LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
            AS $$ SELECT board_id FROM lanes.members WHERE role = r AND r = lanes.invoker() $$;
        CREATE OR REPLACE FUNCTION lanes.may_grant(b bigint, r name) RETURNS boolean
            LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
            AS $$ SELECT EXISTS (SELECT 1 FROM lanes.members WHERE board_id = b AND role = r AND can_grant
                                 AND r = lanes.invoker()) $$;

        ALTER TABLE lanes.boards ALTER COLUMN id SET DEFAULT nextval('lanes.board_ids');
        -- The time `lanes restore --at` last brought the board back to (recorded as a 'restored' change).
        ALTER TABLE lanes.boards ADD COLUMN restore_point timestamptz;
        -- FORCEd row security hides every row from the owner, the foreign key's check included:
        -- lifted for this transaction, so the check (and the one below) sees every row.
        ALTER TABLE lanes.cards NO FORCE ROW LEVEL SECURITY;
        ALTER TABLE lanes.columns NO FORCE ROW LEVEL SECURITY;
        DO $$ DECLARE bad text; BEGIN
            SELECT string_agg(format('card %s of board %s is in column %s of board %s', c.id, c.board_id, c.column_id, k.board_id), '; ')
            INTO bad FROM lanes.cards c JOIN lanes.columns k ON k.id = c.column_id WHERE k.board_id <> c.board_id;
            IF bad IS NOT NULL THEN
                RAISE EXCEPTION 'cannot upgrade the Lanes schema: % (written around the old schema''s checks; move each such card to a column of its own board, then open a board again)', bad
                    USING ERRCODE = '23503';
            END IF;
        END $$;
        ALTER TABLE lanes.columns ADD CONSTRAINT columns_board_id_id UNIQUE (board_id, id);
        ALTER TABLE lanes.cards DROP CONSTRAINT cards_column_id_fkey;
        ALTER TABLE lanes.cards ADD CONSTRAINT cards_column_on_same_board
            FOREIGN KEY (board_id, column_id) REFERENCES lanes.columns (board_id, id);
        ALTER TABLE lanes.cards FORCE ROW LEVEL SECURITY;
        ALTER TABLE lanes.columns FORCE ROW LEVEL SECURITY;

        ALTER TABLE lanes.board_names ADD COLUMN channel text NOT NULL
            DEFAULT 'lanes_' || replace(gen_random_uuid()::text, '-', '');
        CREATE POLICY member_reads ON lanes.board_names FOR SELECT
            USING (board_id IN (SELECT lanes.member_boards(current_user)));
        -- The schema's triggers read column titles for the history (columns is FORCEd).
        CREATE POLICY schema_triggers_read ON lanes.columns FOR SELECT
            USING (pg_trigger_depth() > 0
                   AND current_user = (SELECT nspowner::regrole::name FROM pg_catalog.pg_namespace WHERE nspname = 'lanes'));

        CREATE TABLE lanes.history (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            board_id bigint NOT NULL,
            at timestamptz NOT NULL DEFAULT now(),
            role name NOT NULL,
            entity text NOT NULL CHECK (entity IN ('board', 'column', 'card', 'member')),
            kind text NOT NULL,
            card_id bigint,
            column_id bigint,
            column_title text,
            before jsonb,
            after jsonb);
        CREATE INDEX history_by_board ON lanes.history (board_id, id);
        CREATE INDEX history_by_card ON lanes.history (board_id, card_id, id) WHERE card_id IS NOT NULL;
        CREATE INDEX history_board_deleted ON lanes.history (board_id) WHERE entity = 'board' AND kind = 'deleted';
        ALTER TABLE lanes.history ENABLE ROW LEVEL SECURITY;  -- not FORCEd: the schema's triggers write it as its owner
        CREATE POLICY member_reads ON lanes.history FOR SELECT
            USING (board_id IN (SELECT lanes.member_boards(current_user)));

        -- Whether a board is being (or was) deleted: its cascade leaves no per-card rows.
        CREATE FUNCTION lanes.board_gone(b bigint) RETURNS boolean
            LANGUAGE sql STABLE SET search_path = pg_catalog
            AS $$ SELECT EXISTS (SELECT 1 FROM lanes.history WHERE board_id = b AND entity = 'board' AND kind = 'deleted') $$;
        -- The fields of a whose values differ in b. (These helpers run only inside the schema's
        -- triggers, whose search_path is fixed; without a SET of their own they are inlined.)
        CREATE FUNCTION lanes.changed_fields(a jsonb, b jsonb) RETURNS jsonb
            LANGUAGE sql IMMUTABLE
            AS $$ SELECT coalesce(pg_catalog.jsonb_object_agg(k, a -> k), '{}'::jsonb) FROM pg_catalog.jsonb_object_keys(a) AS k
                  WHERE (a -> k) IS DISTINCT FROM (b -> k) $$;
        CREATE FUNCTION lanes.notify_board(b bigint) RETURNS void
            LANGUAGE sql VOLATILE SET search_path = pg_catalog
            AS $$ SELECT pg_notify(channel, '') FROM lanes.board_names WHERE board_id = b $$;

        CREATE FUNCTION lanes.stamp_changed_by() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN NEW.changed_by := current_user; RETURN NEW; END $$;
        CREATE FUNCTION lanes.stamp_removed_by() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN NEW.removed_by := current_user; RETURN NEW; END $$;
        CREATE TRIGGER columns_changed_by BEFORE UPDATE ON lanes.columns FOR EACH ROW EXECUTE FUNCTION lanes.stamp_changed_by();
        CREATE TRIGGER cards_changed_by BEFORE UPDATE ON lanes.cards FOR EACH ROW EXECUTE FUNCTION lanes.stamp_changed_by();
        CREATE TRIGGER removals_removed_by BEFORE UPDATE ON lanes.removals FOR EACH ROW EXECUTE FUNCTION lanes.stamp_removed_by();

        -- Runs as the caller: only the owner renames a board or hands it over, to a role that exists.
        CREATE FUNCTION lanes.guard_board() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN
                IF (NEW.name IS DISTINCT FROM OLD.name OR NEW.owner IS DISTINCT FROM OLD.owner) AND current_user <> OLD.owner THEN
                    RAISE EXCEPTION 'only the owner of board "%" (role %) may rename it or hand it over', OLD.name, OLD.owner
                        USING ERRCODE = '42501';
                END IF;
                IF NEW.owner IS DISTINCT FROM OLD.owner AND NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = NEW.owner) THEN
                    RAISE EXCEPTION 'there is no role "%"', NEW.owner USING ERRCODE = '42704';
                END IF;
                IF NEW.name IS DISTINCT FROM OLD.name AND btrim(NEW.name) = '' THEN
                    RAISE EXCEPTION 'a board''s name cannot be empty' USING ERRCODE = '22023';
                END IF;
                NEW.changed_by := current_user;
                RETURN NEW;
            END $$;
        CREATE TRIGGER boards_guard BEFORE UPDATE ON lanes.boards FOR EACH ROW EXECUTE FUNCTION lanes.guard_board();

        -- Runs as the caller: a member is granted only to a role that exists.
        CREATE FUNCTION lanes.guard_member() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = NEW.role) THEN
                    RAISE EXCEPTION 'there is no role "%"', NEW.role USING ERRCODE = '42704';
                END IF;
                RETURN NEW;
            END $$;
        CREATE TRIGGER members_guard BEFORE INSERT ON lanes.members FOR EACH ROW EXECUTE FUNCTION lanes.guard_member();

        CREATE FUNCTION lanes.card_image(c lanes.cards) RETURNS jsonb
            LANGUAGE sql IMMUTABLE
            AS $$ SELECT pg_catalog.jsonb_build_object('title', c.title, 'due', c.due, 'description', c.description,
                                            'subtasks', c.subtasks, 'done', c.done, 'extra_lines', c.extra_lines) $$;
        CREATE FUNCTION lanes.column_image(c lanes.columns) RETURNS jsonb
            LANGUAGE sql IMMUTABLE
            AS $$ SELECT pg_catalog.jsonb_build_object('title', c.title, 'wip_limit', c.wip_limit, 'extra_lines', c.extra_lines) $$;

        -- Card history. Added and deleted cards one statement at a time (transition tables: a 100k-card
        -- copy is one INSERT here); changes row by row (a commit changes few rows, and a row trigger's
        -- plans are cached: a quarter of the statement trigger's cost per changed card, measured).
        CREATE FUNCTION lanes.record_cards() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
            AS $$ BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO lanes.history (board_id, role, entity, kind, card_id, column_id, column_title, after)
                    SELECT n.board_id, n.changed_by, 'card', 'added', n.id, n.column_id, c.title,
                           jsonb_strip_nulls(lanes.card_image(n) || jsonb_build_object('key', n.key))
                    FROM new_rows n LEFT JOIN lanes.columns c ON c.board_id = n.board_id AND c.id = n.column_id
                    ORDER BY n.board_id, n.column_id, n.key;
                ELSIF TG_OP = 'DELETE' THEN
                    INSERT INTO lanes.history (board_id, role, entity, kind, card_id, column_id, column_title, before)
                    SELECT o.board_id, lanes.invoker(), 'card', 'deleted', o.id, o.column_id, c.title,
                           jsonb_strip_nulls(lanes.card_image(o) || jsonb_build_object('key', o.key))
                    FROM old_rows o LEFT JOIN lanes.columns c ON c.board_id = o.board_id AND c.id = o.column_id
                    WHERE NOT lanes.board_gone(o.board_id);
                END IF;
                RETURN NULL;
            END $$;
        CREATE TRIGGER cards_history_insert AFTER INSERT ON lanes.cards REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.record_cards();
        CREATE FUNCTION lanes.record_card_change() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
            AS $$ DECLARE t text; BEGIN
                IF NEW.column_id <> OLD.column_id OR NEW.key <> OLD.key THEN
                    t := (SELECT title FROM lanes.columns WHERE board_id = NEW.board_id AND id = NEW.column_id);
                    INSERT INTO lanes.history (board_id, role, entity, kind, card_id, column_id, column_title, before, after)
                    VALUES (NEW.board_id, NEW.changed_by, 'card', CASE WHEN NEW.column_id <> OLD.column_id THEN 'moved' ELSE 'reordered' END,
                            NEW.id, NEW.column_id, t,
                            jsonb_build_object('column_id', OLD.column_id, 'column_title',
                                (SELECT title FROM lanes.columns WHERE board_id = OLD.board_id AND id = OLD.column_id), 'key', OLD.key),
                            jsonb_build_object('column_id', NEW.column_id, 'key', NEW.key));
                END IF;
                IF (NEW.title, NEW.due, NEW.description, NEW.subtasks, NEW.done, NEW.extra_lines)
                   IS DISTINCT FROM (OLD.title, OLD.due, OLD.description, OLD.subtasks, OLD.done, OLD.extra_lines) THEN
                    INSERT INTO lanes.history (board_id, role, entity, kind, card_id, column_id, column_title, before, after)
                    VALUES (NEW.board_id, NEW.changed_by, 'card', 'edited', NEW.id, NEW.column_id,
                            coalesce(t, (SELECT title FROM lanes.columns WHERE board_id = NEW.board_id AND id = NEW.column_id)),
                            CASE WHEN OLD.title IS DISTINCT FROM NEW.title THEN jsonb_build_object('title', OLD.title) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.due IS DISTINCT FROM NEW.due THEN jsonb_build_object('due', OLD.due) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.description IS DISTINCT FROM NEW.description THEN jsonb_build_object('description', OLD.description) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.subtasks IS DISTINCT FROM NEW.subtasks THEN jsonb_build_object('subtasks', OLD.subtasks) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.done IS DISTINCT FROM NEW.done THEN jsonb_build_object('done', OLD.done) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.extra_lines IS DISTINCT FROM NEW.extra_lines THEN jsonb_build_object('extra_lines', OLD.extra_lines) ELSE '{}'::jsonb END,
                            CASE WHEN NEW.title IS DISTINCT FROM OLD.title THEN jsonb_build_object('title', NEW.title) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.due IS DISTINCT FROM OLD.due THEN jsonb_build_object('due', NEW.due) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.description IS DISTINCT FROM OLD.description THEN jsonb_build_object('description', NEW.description) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.subtasks IS DISTINCT FROM OLD.subtasks THEN jsonb_build_object('subtasks', NEW.subtasks) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.done IS DISTINCT FROM OLD.done THEN jsonb_build_object('done', NEW.done) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.extra_lines IS DISTINCT FROM OLD.extra_lines THEN jsonb_build_object('extra_lines', NEW.extra_lines) ELSE '{}'::jsonb END);
                END IF;
                RETURN NULL;
            END $$;
        CREATE TRIGGER cards_history_update AFTER UPDATE ON lanes.cards FOR EACH ROW EXECUTE FUNCTION lanes.record_card_change();
        CREATE TRIGGER cards_history_delete AFTER DELETE ON lanes.cards REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION lanes.record_cards();

        CREATE FUNCTION lanes.record_columns() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
            AS $$ BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO lanes.history (board_id, role, entity, kind, column_id, column_title, after)
                    SELECT NEW.board_id, NEW.changed_by, 'column', 'added', NEW.id, NEW.title,
                           jsonb_strip_nulls(lanes.column_image(NEW) || jsonb_build_object('key', NEW.key));
                    RETURN NULL;
                ELSIF TG_OP = 'DELETE' THEN
                    IF lanes.board_gone(OLD.board_id) THEN RETURN NULL; END IF;
                    INSERT INTO lanes.history (board_id, role, entity, kind, column_id, column_title, before)
                    SELECT OLD.board_id, lanes.invoker(), 'column', 'deleted', OLD.id, OLD.title,
                           jsonb_strip_nulls(lanes.column_image(OLD) || jsonb_build_object('key', OLD.key));
                    RETURN NULL;
                END IF;
                IF NEW.key <> OLD.key THEN
                    INSERT INTO lanes.history (board_id, role, entity, kind, column_id, column_title, before, after)
                    VALUES (NEW.board_id, NEW.changed_by, 'column', 'moved', NEW.id, NEW.title,
                            jsonb_build_object('key', OLD.key), jsonb_build_object('key', NEW.key));
                END IF;
                IF lanes.column_image(NEW) <> lanes.column_image(OLD) THEN
                    INSERT INTO lanes.history (board_id, role, entity, kind, column_id, column_title, before, after)
                    VALUES (NEW.board_id, NEW.changed_by, 'column', 'edited', NEW.id, NEW.title,
                            lanes.changed_fields(lanes.column_image(OLD), lanes.column_image(NEW)),
                            lanes.changed_fields(lanes.column_image(NEW), lanes.column_image(OLD)));
                END IF;
                RETURN NULL;
            END $$;
        CREATE TRIGGER columns_history AFTER INSERT OR UPDATE OR DELETE ON lanes.columns
            FOR EACH ROW EXECUTE FUNCTION lanes.record_columns();

        CREATE FUNCTION lanes.record_board() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
            AS $$ BEGIN
                IF TG_OP = 'INSERT' THEN
                    INSERT INTO lanes.history (board_id, role, entity, kind, after)
                    VALUES (NEW.id, NEW.changed_by, 'board', 'created', jsonb_build_object('name', NEW.name, 'owner', NEW.owner));
                    RETURN NULL;
                ELSIF TG_OP = 'DELETE' THEN
                    -- BEFORE the cascade: board_gone() is true for the rows it deletes.
                    INSERT INTO lanes.history (board_id, role, entity, kind, before)
                    VALUES (OLD.id, lanes.invoker(), 'board', 'deleted', jsonb_build_object('name', OLD.name, 'owner', OLD.owner));
                    PERFORM lanes.notify_board(OLD.id);
                    RETURN OLD;
                END IF;
                IF NEW.name IS DISTINCT FROM OLD.name THEN
                    UPDATE lanes.board_names SET name = NEW.name WHERE board_id = NEW.id;
                    INSERT INTO lanes.history (board_id, role, entity, kind, before, after)
                    VALUES (NEW.id, NEW.changed_by, 'board', 'renamed', jsonb_build_object('name', OLD.name), jsonb_build_object('name', NEW.name));
                END IF;
                IF NEW.owner IS DISTINCT FROM OLD.owner THEN
                    UPDATE lanes.members SET is_owner = false WHERE board_id = NEW.id AND role = OLD.owner;
                    INSERT INTO lanes.members (board_id, role, can_grant, is_owner) VALUES (NEW.id, NEW.owner, true, true)
                        ON CONFLICT (board_id, role) DO UPDATE SET can_grant = true, is_owner = true;
                    INSERT INTO lanes.history (board_id, role, entity, kind, before, after)
                    VALUES (NEW.id, NEW.changed_by, 'board', 'handed over', jsonb_build_object('owner', OLD.owner), jsonb_build_object('owner', NEW.owner));
                END IF;
                IF NEW.restore_point IS DISTINCT FROM OLD.restore_point THEN
                    INSERT INTO lanes.history (board_id, role, entity, kind, after)
                    VALUES (NEW.id, NEW.changed_by, 'board', 'restored', jsonb_build_object('to', NEW.restore_point));
                END IF;
                IF (NEW.dialect, NEW.frontmatter, NEW.preamble, NEW.archive, NEW.settings, NEW.epilogue, NEW.accept_rules)
                   IS DISTINCT FROM (OLD.dialect, OLD.frontmatter, OLD.preamble, OLD.archive, OLD.settings, OLD.epilogue, OLD.accept_rules) THEN
                    INSERT INTO lanes.history (board_id, role, entity, kind, before, after)
                    VALUES (NEW.id, NEW.changed_by, 'board', 'edited',
                            CASE WHEN OLD.dialect IS DISTINCT FROM NEW.dialect THEN jsonb_build_object('dialect', OLD.dialect) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.frontmatter IS DISTINCT FROM NEW.frontmatter THEN jsonb_build_object('frontmatter', OLD.frontmatter) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.preamble IS DISTINCT FROM NEW.preamble THEN jsonb_build_object('preamble', OLD.preamble) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.archive IS DISTINCT FROM NEW.archive THEN jsonb_build_object('archive', OLD.archive) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.settings IS DISTINCT FROM NEW.settings THEN jsonb_build_object('settings', OLD.settings) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.epilogue IS DISTINCT FROM NEW.epilogue THEN jsonb_build_object('epilogue', OLD.epilogue) ELSE '{}'::jsonb END
                            || CASE WHEN OLD.accept_rules IS DISTINCT FROM NEW.accept_rules THEN jsonb_build_object('accept_rules', OLD.accept_rules) ELSE '{}'::jsonb END,
                            CASE WHEN NEW.dialect IS DISTINCT FROM OLD.dialect THEN jsonb_build_object('dialect', NEW.dialect) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.frontmatter IS DISTINCT FROM OLD.frontmatter THEN jsonb_build_object('frontmatter', NEW.frontmatter) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.preamble IS DISTINCT FROM OLD.preamble THEN jsonb_build_object('preamble', NEW.preamble) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.archive IS DISTINCT FROM OLD.archive THEN jsonb_build_object('archive', NEW.archive) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.settings IS DISTINCT FROM OLD.settings THEN jsonb_build_object('settings', NEW.settings) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.epilogue IS DISTINCT FROM OLD.epilogue THEN jsonb_build_object('epilogue', NEW.epilogue) ELSE '{}'::jsonb END
                            || CASE WHEN NEW.accept_rules IS DISTINCT FROM OLD.accept_rules THEN jsonb_build_object('accept_rules', NEW.accept_rules) ELSE '{}'::jsonb END);
                END IF;
                PERFORM lanes.notify_board(NEW.id);
                RETURN NULL;
            END $$;
        CREATE TRIGGER boards_history AFTER INSERT OR UPDATE ON lanes.boards FOR EACH ROW EXECUTE FUNCTION lanes.record_board();
        CREATE TRIGGER boards_history_delete BEFORE DELETE ON lanes.boards FOR EACH ROW EXECUTE FUNCTION lanes.record_board();

        CREATE FUNCTION lanes.record_members() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
            AS $$ BEGIN
                IF TG_OP = 'DELETE' THEN
                    IF lanes.board_gone(OLD.board_id) THEN RETURN NULL; END IF;
                    INSERT INTO lanes.history (board_id, role, entity, kind, before)
                    VALUES (OLD.board_id, lanes.invoker(), 'member', 'revoked', jsonb_build_object('role', OLD.role, 'can_grant', OLD.can_grant));
                    PERFORM lanes.notify_board(OLD.board_id);
                ELSE
                    INSERT INTO lanes.history (board_id, role, entity, kind, after)
                    VALUES (NEW.board_id, lanes.invoker(), 'member', CASE WHEN TG_OP = 'INSERT' THEN 'granted' ELSE 'changed' END,
                            jsonb_build_object('role', NEW.role, 'can_grant', NEW.can_grant, 'owner', NEW.is_owner));
                END IF;
                RETURN NULL;
            END $$;
        CREATE TRIGGER members_history AFTER INSERT OR UPDATE OR DELETE ON lanes.members
            FOR EACH ROW EXECUTE FUNCTION lanes.record_members();

        REVOKE ALL ON FUNCTION lanes.invoker(), lanes.board_gone(bigint),
            lanes.changed_fields(jsonb, jsonb), lanes.notify_board(bigint), lanes.stamp_changed_by(),
            lanes.stamp_removed_by(), lanes.guard_board(), lanes.guard_member(), lanes.card_image(lanes.cards),
            lanes.column_image(lanes.columns), lanes.record_cards(), lanes.record_card_change(),
            lanes.record_columns(), lanes.record_board(), lanes.record_members() FROM PUBLIC;

        -- Privileges: whole rows to read, only content columns to write.
        REVOKE ALL ON lanes.boards, lanes.members, lanes.columns, lanes.cards, lanes.removals, lanes.commits FROM PUBLIC;
        GRANT SELECT ON lanes.boards, lanes.members, lanes.columns, lanes.cards, lanes.removals, lanes.commits,
            lanes.board_names, lanes.history TO PUBLIC;
        GRANT DELETE ON lanes.boards, lanes.members, lanes.columns, lanes.cards, lanes.removals TO PUBLIC;
        GRANT INSERT (name, version, dialect, frontmatter, preamble, archive, settings, epilogue, accept_rules),
            UPDATE (name, owner, version, dialect, frontmatter, preamble, archive, settings, epilogue, accept_rules, restore_point)
            ON lanes.boards TO PUBLIC;
        GRANT INSERT (board_id, role, can_grant), UPDATE (can_grant) ON lanes.members TO PUBLIC;
        GRANT INSERT (board_id, key, title, wip_limit, extra_lines, seq),
            UPDATE (key, title, wip_limit, extra_lines, version, seq) ON lanes.columns TO PUBLIC;
        GRANT INSERT (board_id, id, column_id, key, title, due, description, subtasks, done, extra_lines, seq),
            UPDATE (column_id, key, title, due, description, subtasks, done, extra_lines, version, seq) ON lanes.cards TO PUBLIC;
        GRANT INSERT (board_id, card_id, seq), UPDATE (seq) ON lanes.removals TO PUBLIC;
        GRANT INSERT (board_id, token, seq) ON lanes.commits TO PUBLIC;
        """
}
