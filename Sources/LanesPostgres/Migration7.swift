extension Schema {
    /// #40: what a hostile member can reach with psql, narrowed to what README's table lists.
    ///
    /// Upgrades a database of migration 6 in place (every row kept).
    /// - Counters: members write `version` and `seq` (Lanes' commits stamp them), but only within
    ///   0…2^62 (`counterCeiling`), so no client's `+ 1` and no trigger's can overflow; a board's
    ///   `version` never goes back (a lower one would hide later writes from open screens, which
    ///   read the rows above the version they hold). Refused in words, SQLSTATE 22023.
    /// - A card's order key is unique per board and column (`board_id, column_id, key`): the old
    ///   `(column_id, key)` answered a member who named another board's column with that board's
    ///   keys (a unique-key error, raised before the foreign key's check).
    /// - A board's NOTIFY channel gets a new random name when a member is revoked or the board is
    ///   handed over, after a last notification on the old one (so open screens look, and read the
    ///   new name, which the revoked role can no longer read).
    static let migration7 = """
        ALTER TABLE lanes.boards ADD CONSTRAINT boards_version_in_range
            CHECK (version BETWEEN 0 AND \(counterCeiling));
        ALTER TABLE lanes.columns ADD CONSTRAINT columns_counters_in_range
            CHECK (version BETWEEN 0 AND \(counterCeiling) AND seq BETWEEN 0 AND \(counterCeiling));
        ALTER TABLE lanes.cards ADD CONSTRAINT cards_counters_in_range
            CHECK (version BETWEEN 0 AND \(counterCeiling) AND seq BETWEEN 0 AND \(counterCeiling));
        ALTER TABLE lanes.removals ADD CONSTRAINT removals_seq_in_range CHECK (seq BETWEEN 0 AND \(counterCeiling));
        ALTER TABLE lanes.commits ADD CONSTRAINT commits_seq_in_range CHECK (seq BETWEEN 0 AND \(counterCeiling));

        CREATE FUNCTION lanes.guard_version() RETURNS trigger
            LANGUAGE plpgsql SET search_path = pg_catalog
            AS $$ BEGIN
                IF NEW.version < OLD.version THEN
                    RAISE EXCEPTION 'the version of board "%" only rises (it is %, not %): a lower one would hide changes from open screens', OLD.name, OLD.version, NEW.version
                        USING ERRCODE = '22023';
                END IF;
                RETURN NEW;
            END $$;
        CREATE TRIGGER boards_version_rises BEFORE UPDATE ON lanes.boards FOR EACH ROW EXECUTE FUNCTION lanes.guard_version();

        ALTER TABLE lanes.cards DROP CONSTRAINT cards_column_id_key_key;
        ALTER TABLE lanes.cards ADD CONSTRAINT cards_board_column_key UNIQUE (board_id, column_id, key);

        CREATE FUNCTION lanes.rotate_channel() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog
            AS $$ DECLARE b bigint; BEGIN
                IF TG_TABLE_NAME = 'members' THEN
                    b := OLD.board_id;
                ELSE
                    IF NEW.owner IS NOT DISTINCT FROM OLD.owner THEN RETURN NULL; END IF;
                    b := NEW.id;
                END IF;
                IF lanes.board_gone(b) THEN RETURN NULL; END IF;  -- deleted: its name row goes with it
                PERFORM pg_notify(channel, '') FROM lanes.board_names WHERE board_id = b;
                UPDATE lanes.board_names SET channel = 'lanes_' || replace(gen_random_uuid()::text, '-', '')
                    WHERE board_id = b;
                RETURN NULL;
            END $$;
        CREATE TRIGGER members_rotate_channel AFTER DELETE ON lanes.members
            FOR EACH ROW EXECUTE FUNCTION lanes.rotate_channel();
        CREATE TRIGGER boards_rotate_channel AFTER UPDATE ON lanes.boards
            FOR EACH ROW EXECUTE FUNCTION lanes.rotate_channel();

        REVOKE ALL ON FUNCTION lanes.guard_version(), lanes.rotate_channel() FROM PUBLIC;
        """

    /// The highest `version` or `seq` the server accepts (2^62): far above what a board reaches
    /// (a commit a millisecond for 146 million years), far enough below 2^63 that `+ 1` never overflows.
    static let counterCeiling: Int64 = 1 << 62
}
