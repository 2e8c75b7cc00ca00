"""The attack suite: every table, column, sequence and function of the `lanes` schema, taken from
pg_catalog, attacked with plain psql as each kind of role, against README's "Who may do what".

Roles (scripts/pg-test-cluster creates alice, bob, carol, lanes_admin; this suite adds dave):
    no grant = dave, member = bob, member --can-grant = carol, owner = alice.
Board A (alice's) is the target; board B (also alice's, nobody else granted) is "another board".
Every attempt runs in a savepoint inside one transaction per role and is rolled back, so each
sees the same board. The outcome of an attempt: `allowed` (rows affected or read, or the
function answered), else refused (an error, its SQLSTATE, or nothing touched under row-level
security). The matrix is printed; each cell must be exactly what README's table says.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

import pg_helpers
from pg_helpers import board_url, psql_bin

REPO = Path(__file__).resolve().parents[2]
DB = "attack"

# The highest version or seq the server takes (Schema.counterCeiling, migration 7).
COUNTER_CEILING = 1 << 62

ROLES = {"no grant": "dave", "member": "bob", "member --can-grant": "carol", "owner": "alice"}
KINDS = list(ROLES)

BOARD = """## To do

- Fix login
    @ 2024-01-31
    > The form rejects valid passwords.
    * [x] Reproduce
- Write docs

## Doing

- Review PR

## Done

- Set up CI

## Later
"""

# What a member may write, per table (INSERT / UPDATE), as README's "content" footnote lists it.
# A table or column not named here is one nobody may write: added later, it is refused until
# README and this list say otherwise.
INSERTABLE = {
    "boards": {"name", "version", "dialect", "frontmatter", "preamble", "archive", "settings", "epilogue", "accept_rules"},
    "members": {"board_id", "role", "can_grant"},
    "columns": {"board_id", "key", "title", "wip_limit", "extra_lines", "seq", "heading", "card_style", "after_list"},
    "cards": {"board_id", "id", "column_id", "key", "title", "due", "description", "subtasks", "done", "extra_lines", "seq"},
    "removals": {"board_id", "card_id", "seq"},
    "commits": {"board_id", "token", "seq"},
}
UPDATABLE = {
    "boards": {"version", "dialect", "frontmatter", "preamble", "archive", "settings", "epilogue", "accept_rules"},
    "columns": {"key", "title", "wip_limit", "extra_lines", "version", "seq", "heading", "card_style", "after_list"},
    "cards": {"column_id", "key", "title", "due", "description", "subtasks", "done", "extra_lines", "version", "seq"},
    "removals": {"seq"},
}
# The deletion views (migration 8): an INSERT into one deletes the rows it names from its table, as
# the README row says; nobody holds DELETE on a table. View -> (table, the row's key columns, README row).
DELETIONS = {"card_deletions": ("cards", ("board_id", "id"), "change"),
             "column_deletions": ("columns", ("board_id", "id"), "change"),
             "removal_deletions": ("removals", ("board_id", "card_id"), "change"),
             "member_deletions": ("members", ("board_id", "role"), "grant"),
             "board_deletions": ("boards", ("id",), "delete")}
LOCK_MODES = ["ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE", "SHARE ROW EXCLUSIVE",
              "EXCLUSIVE", "ACCESS EXCLUSIVE"]
# Tables whose rows belong to a board (read by members), and the column naming the board.
BOARD_COLUMN = {"boards": "id", "members": "board_id", "board_names": "board_id", "columns": "board_id",
                "cards": "board_id", "removals": "board_id", "commits": "board_id", "history": "board_id",
                # the flow aggregates the history's triggers keep (schema migrations 5 and 6)
                "flow_boards": "board_id", "flow_cards": "board_id", "flow_moves": "board_id", "flow_stints": "board_id",
                "flow_days": "board_id", "flow_presence": "board_id"}


def capability(table: str, statement: str, column: str | None = None) -> str:
    """The README row (its key) that decides a statement on a table (or column)."""
    content = table in INSERTABLE and table not in ("boards", "members")
    if statement in ("SELECT", "COPY TO"):
        if table == "schema_migrations":
            return "version"
        return "read" if table in BOARD_COLUMN else "nobody"
    if statement == "INSERT":
        if table == "boards":
            return "create" if column is None or column in INSERTABLE["boards"] else "nobody"
        if table == "members":
            return "grant" if column is None or column in INSERTABLE["members"] else "nobody"
        if content:
            return "change" if column is None or column in INSERTABLE[table] else "nobody"
        return "nobody"
    if statement == "UPDATE":
        if table == "boards" and column == "name":
            return "rename"
        if table == "boards" and column == "owner":
            return "hand over"
        if table == "members" and column == "can_grant":
            return "grant"
        return "change" if column in UPDATABLE.get(table, set()) else "nobody"
    if statement == "DELETE":
        return "nobody"  # migration 8: through the deletion views only
    return "nobody"


def lock_capability(rel: str, kind: str, mode: str) -> str:
    """LOCK TABLE: the lock a read takes on a table, the one a deletion takes on its view (which locks
    no table); every stronger mode is the tables' owner's alone (#40: ACCESS EXCLUSIVE froze every team)."""
    if kind in ("r", "p") and mode == "ACCESS SHARE":
        return "lock lightly"
    if kind == "v" and rel in DELETIONS and mode == "ROW EXCLUSIVE":
        return "lock lightly"
    return "nobody"


# ---------------------------------------------------------------------------------------------
# The server


def psql(pg, role: str, sql: str, db: str = DB) -> str:
    return pg_helpers.psql(pg, role, sql, db)


def url(pg, role: str, board: str) -> str:
    return board_url(pg, role, board, db=DB)


def lanes(lanes_bin, *args):
    return subprocess.run([str(lanes_bin), *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)


@pytest.fixture(scope="module")
def target(pg, lanes_bin, tmp_path_factory):
    """A database of its own: schema by lanes_admin, board A (alice; bob member, carol --can-grant), board B (alice)."""
    psql(pg, "postgres", f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)", db="postgres")
    psql(pg, "postgres", f"CREATE DATABASE {DB} OWNER lanes_admin", db="postgres")
    psql(pg, "postgres", "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'dave') THEN CREATE ROLE dave LOGIN; END IF; END $$",
         db="postgres")
    f = tmp_path_factory.mktemp("attack") / "board.md"
    f.write_text(BOARD)
    for role, board in (("lanes_admin", "setup"), ("alice", "A"), ("lanes_admin", "B"), ("alice", "C")):
        r = lanes(lanes_bin, "copy", str(f), url(pg, role, board))
        assert r.returncode == 0, r.stderr
    assert lanes(lanes_bin, "grant", url(pg, "alice", "A"), "bob").returncode == 0
    assert lanes(lanes_bin, "grant", "--can-grant", url(pg, "alice", "A"), "carol").returncode == 0
    a = int(psql(pg, "postgres", "SELECT id FROM lanes.boards WHERE name = 'A'"))
    b = int(psql(pg, "postgres", "SELECT id FROM lanes.boards WHERE name = 'B'"))
    c = int(psql(pg, "postgres", "SELECT id FROM lanes.boards WHERE name = 'C'"))
    # A removal and a commit token of board A, so those tables have rows to attack.
    psql(pg, "bob", f"INSERT INTO lanes.removals (board_id, card_id, seq) VALUES ({a}, 424242, 1)")
    psql(pg, "bob", f"INSERT INTO lanes.commits (board_id, token, seq) VALUES ({a}, 'attack-token', 1)")
    # A column renamed, then a card moved: a flow_presence row (where a card was when the columns changed).
    psql(pg, "bob", f"UPDATE lanes.columns SET title = title || ' (renamed)' WHERE board_id = {a} "
                    f"AND id = (SELECT min(id) FROM lanes.columns WHERE board_id = {a})")
    psql(pg, "bob", f"UPDATE lanes.cards SET column_id = (SELECT id FROM lanes.columns WHERE board_id = {a} AND title = 'Done'), key = 'zzz' "
                    f"WHERE board_id = {a} AND id = (SELECT min(id) FROM lanes.cards WHERE board_id = {a})")
    assert psql(pg, "postgres", f"SELECT count(*) FROM lanes.flow_presence WHERE board_id = {a}") != "0"
    return {"a": a, "b": b, "c": c}


# ---------------------------------------------------------------------------------------------
# The catalog


def catalog(pg):
    tables = psql(pg, "postgres", """
        SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'lanes' AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') ORDER BY c.relkind, c.relname""")
    rels = [tuple(line.split("|")) for line in tables.splitlines()]
    cols = psql(pg, "postgres", """
        SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef, a.attidentity
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'lanes' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY c.relname, a.attnum""")
    columns: dict[str, list[dict]] = {}
    for line in cols.splitlines():
        t, name, typ, notnull, hasdef, ident = line.split("|")
        columns.setdefault(t, []).append({"name": name, "type": typ, "required": notnull == "t" and hasdef == "f" and ident == "",
                                          "identity": ident})
    uniq = psql(pg, "postgres", """
        SELECT c.relname, a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey)
        WHERE n.nspname = 'lanes' AND i.indisunique""")
    unique = {(t, c) for t, c in (line.split("|") for line in uniq.splitlines())}
    funcs = psql(pg, "postgres", """
        SELECT p.proname, oidvectortypes(p.proargtypes), format_type(p.prorettype, NULL), p.proretset
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'lanes' ORDER BY 1, 2""")
    functions = []
    for line in funcs.splitlines():
        name, args, ret, setof = line.split("|")
        functions.append({"name": name, "args": [a.strip() for a in args.split(",") if a.strip()], "returns": ret, "setof": setof == "t"})
    return rels, columns, unique, functions


def triggers(pg) -> list[tuple[str, str]]:
    """(table, trigger) of every trigger the schema made on its tables (not the foreign keys' own)."""
    out = psql(pg, "postgres", """
        SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'lanes' AND NOT t.tgisinternal ORDER BY 1, 2""")
    return [tuple(line.split("|")) for line in out.splitlines()]


def literal(v) -> str:
    return "'" + str(v).replace("'", "''") + "'"


# ---------------------------------------------------------------------------------------------
# The attempts


class Attempt:
    def __init__(self, label: str, sql: str, expect: str, kind: str = "rows"):
        self.label, self.sql, self.expect, self.kind = label, sql, expect, kind


def attempts(pg, ids) -> list[Attempt]:
    a, b = ids["a"], ids["b"]
    rels, columns, unique, functions = catalog(pg)
    other_column = int(psql(pg, "postgres", f"SELECT id FROM lanes.columns WHERE board_id = {a} ORDER BY key OFFSET 1 LIMIT 1"))
    c_column = int(psql(pg, "postgres", f"SELECT id FROM lanes.columns WHERE board_id = {ids['c']} LIMIT 1"))
    out: list[Attempt] = []
    fresh = iter(range(1, 1_000_000))

    for rel, kind in rels:
        t = f"lanes.{rel}"
        if kind == "S":
            out.append(Attempt(f"nextval {rel}", f"SELECT nextval('{t}')", "create" if rel in ("board_ids", "column_ids") else "nobody", "value"))
            out.append(Attempt(f"setval {rel}", f"SELECT setval('{t}', 1)", "nobody", "value"))
            out.append(Attempt(f"SELECT {rel}", f"SELECT last_value FROM {t}", "nobody", "value"))
            out.append(Attempt(f"ALTER SEQUENCE {rel}", f"ALTER SEQUENCE {t} RESTART", "nobody", "ddl"))
            out.append(Attempt(f"DROP SEQUENCE {rel}", f"DROP SEQUENCE {t} CASCADE", "nobody", "ddl"))
            continue
        for mode in LOCK_MODES:
            out.append(Attempt(f"LOCK {rel} IN {mode}", f"LOCK TABLE {t} IN {mode} MODE", lock_capability(rel, kind, mode), "ddl"))
        bc = BOARD_COLUMN.get(rel)
        where = f"WHERE {bc} = {a}" if bc else ""
        out.append(Attempt(f"SELECT {rel}", f"SELECT count(*) FROM {t} {where}", capability(rel, "SELECT"), "count"))
        out.append(Attempt(f"COPY {rel} TO", f"COPY (SELECT * FROM {t} {where}) TO STDOUT", capability(rel, "COPY TO"), "copy"))
        out.append(Attempt(f"COPY {rel} FROM", f"\\copy {t} FROM '/dev/null'", "nobody", "copyin"))
        # (columns: the empty one; a column holding cards is kept by the cards' foreign key)
        out.append(Attempt(f"DELETE {rel}", f"DELETE FROM {t} {where}" + (" AND title = 'Later'" if rel == "columns" else ""),
                           capability(rel, "DELETE")))
        out.append(Attempt(f"TRUNCATE {rel}", f"TRUNCATE {t} CASCADE", "nobody", "ddl"))
        out.append(Attempt(f"ALTER {rel} ADD COLUMN", f"ALTER TABLE {t} ADD COLUMN attack int", "nobody", "ddl"))
        out.append(Attempt(f"ALTER {rel} DISABLE RLS", f"ALTER TABLE {t} DISABLE ROW LEVEL SECURITY", "nobody", "ddl"))
        out.append(Attempt(f"CREATE POLICY ON {rel}", f"CREATE POLICY attack ON {t} USING (true)", "nobody", "ddl"))
        out.append(Attempt(f"CREATE TRIGGER ON {rel}", f"CREATE TRIGGER attack BEFORE INSERT ON {t} FOR EACH ROW EXECUTE FUNCTION lanes.stamp_changed_by()", "nobody", "ddl"))
        out.append(Attempt(f"GRANT ON {rel}", f"GRANT ALL ON {t} TO PUBLIC", "nobody", "ddl"))
        out.append(Attempt(f"DROP {rel}", f"DROP {'VIEW' if kind == 'v' else 'TABLE'} {t} CASCADE", "nobody", "ddl"))
        if kind == "v":
            out.extend(deletion_attempts(pg, ids, rel))
            continue

        cols = columns[rel]
        template = psql(pg, "postgres", f"SELECT row_to_json(x) FROM {t} x {where} "
                        + ("AND role = 'bob' " if rel == "members" else "") + "LIMIT 1")
        row = json.loads(template) if template else {}

        def fresh_value(c):
            n = next(fresh)
            typ = c["type"]
            if typ in ("bigint", "integer"):
                return 900_000_000 + n
            if typ == "name":
                return "dave"
            if typ == "boolean":
                return False
            if typ.startswith("timestamp"):
                return "2030-01-01 00:00:00+00"
            if typ == "jsonb":
                return {}
            return f"attack-{n}"

        # INSERT: the row's required columns, then each other column added to them.
        required = [c for c in cols if c["required"]]
        def insert(extra, override=None):
            rec = {}
            for c in required + ([extra] if extra else []):
                v = row.get(c["name"])
                fresh_needed = ((rel, c["name"]) in unique and c["name"] not in ("board_id", "column_id")) or v is None
                rec[c["name"]] = fresh_value(c) if fresh_needed else v
            if rel == "members":
                rec["role"] = "dave"
            rec.update(override or {})
            names = ", ".join(rec)
            return f"INSERT INTO {t} ({names}) SELECT {names} FROM json_populate_record(NULL::{t}, {literal(json.dumps(rec))})"
        out.append(Attempt(f"INSERT {rel}", insert(None), capability(rel, "INSERT")))
        for c in cols:
            if c["required"]:
                continue
            out.append(Attempt(f"INSERT {rel} setting {c['name']}", insert(c), capability(rel, "INSERT", c["name"])))
        for c in cols:
            if c["name"] in ("version", "seq") and c["type"] == "bigint" and capability(rel, "INSERT", c["name"]) != "nobody":
                big = insert(None if c["required"] else c, {c["name"]: 9223372036854775807})
                out.append(Attempt(f"INSERT {rel} setting {c['name']} to 2^63 - 1", big, "nobody"))

        # UPDATE of each column, to a value it does not hold.
        for c in cols:
            name, typ = c["name"], c["type"]
            where_one = ""
            if name == "board_id":
                new = str(b)
            elif name == "column_id":
                new = str(other_column)
                where_one = f" AND id = (SELECT min(id) FROM {t} WHERE board_id = {a} AND column_id <> {other_column})"
            elif name == "owner":
                new = "CASE WHEN owner = 'carol' THEN 'bob' ELSE 'carol' END"
            elif name == "dialect":
                new = "CASE WHEN dialect = 'taskell' THEN 'obsidian' ELSE 'taskell' END"
            elif typ in ("bigint", "integer"):
                new = f"coalesce({name}, 0) + 1000003"
            elif typ == "name":
                new = "'dave'"
            elif typ == "text":
                new = f"coalesce({name}, '') || '~'"
            elif typ == "boolean":
                new = f"NOT {name}"
            elif typ.startswith("timestamp"):
                new = f"{name} + interval '1 second'"
            elif typ == "jsonb":
                new = "'{}'::jsonb"
            else:
                new = name
            target_rows = where + (" AND role = 'bob'" if rel == "members" else "") + where_one
            out.append(Attempt(f"UPDATE {rel}.{name}", f"UPDATE {t} SET {name} = {new} {target_rows}", capability(rel, "UPDATE", name)))
            # Counters a member may write (#40): never past the server's ceiling (a client's `+ 1` trapped
            # on 2^63 - 1), and a board's version never back (screens read the rows above the one they hold).
            if name in ("version", "seq") and typ == "bigint" and capability(rel, "UPDATE", name) != "nobody":
                for label, value in (("to 2^63 - 1", "9223372036854775807"), ("past 2^62", str(COUNTER_CEILING + 1)),
                                     ("to -1", "-1")):
                    out.append(Attempt(f"UPDATE {rel}.{name} {label}", f"UPDATE {t} SET {name} = {value} {target_rows}", "nobody"))
                if rel == "boards":
                    out.append(Attempt(f"UPDATE {rel}.{name} back", f"UPDATE {t} SET {name} = {name} - 1 {target_rows}", "nobody"))

    # Rows pointing at another board's rows: C is alice's too (she sees both), still refused.
    out.append(Attempt("INSERT card of A into a column of C",
                       f"INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ({a}, 777001, {c_column}, 'zz', 'planted', 1)",
                       "nobody"))
    out.append(Attempt("UPDATE card of A into a column of C",
                       f"UPDATE lanes.cards SET column_id = {c_column}, key = 'planted' "
                       f"WHERE board_id = {a} AND id = (SELECT min(id) FROM lanes.cards WHERE board_id = {a})", "nobody"))
    out.append(Attempt("INSERT column into B (lanes_admin's)",
                       f"INSERT INTO lanes.columns (board_id, key, title, seq) VALUES ({b}, 'zz', 'planted', 1)", "nobody"))
    out.append(Attempt("INSERT member of B (lanes_admin's)", f"INSERT INTO lanes.members (board_id, role) VALUES ({b}, 'dave')", "nobody"))

    # Schema objects of one's own.
    out.append(Attempt("CREATE TABLE in lanes", "CREATE TABLE lanes.attack (x int)", "nobody", "ddl"))
    out.append(Attempt("CREATE FUNCTION in lanes", "CREATE FUNCTION lanes.attack() RETURNS int LANGUAGE sql AS 'SELECT 1'", "nobody", "ddl"))

    # Functions, with every role's name where they take one.
    for f in functions:
        sig = f"lanes.{f['name']}({', '.join(f['args'])})"
        out.append(Attempt(f"DROP FUNCTION {f['name']}", f"DROP FUNCTION {sig} CASCADE", "nobody", "ddl"))
        out.append(Attempt(f"ALTER FUNCTION {f['name']}", f"ALTER FUNCTION {sig} SECURITY INVOKER", "nobody", "ddl"))
        def args(role_name):
            vals = []
            for typ in f["args"]:
                vals.append({"bigint": str(a), "name": literal(role_name), "text": "'A'", "jsonb": "'{}'::jsonb"}.get(typ, f"NULL::{typ}"))
            return ", ".join(vals)
        call = (lambda r: f"SELECT count(*) FROM lanes.{f['name']}({args(r)})") if f["setof"] else (lambda r: f"SELECT lanes.{f['name']}({args(r)})")
        kind = "answer"
        if f["name"] == "record_restore":
            continue  # called above, with and without a change
        if "name" in f["args"]:
            expect_own = {"member_boards": "read", "may_grant": "grant"}.get(f["name"], "nobody")
            out.append(Attempt(f"{f['name']}(own role)", call("@self"), expect_own, kind))
            for n in range(1, len(ROLES)):
                out.append(Attempt(f"{f['name']}(another role's name #{n})", call(f"@other{n}"), "nobody", kind))
        else:
            out.append(Attempt(f"{f['name']}()", call("@self"), "exists" if f["name"] == "board_exists" else "nobody", kind))

    # Triggers (migration 4's raise every board's version on raw writes): none may be dropped,
    # switched off, or bypassed (replica mode skips ordinary triggers; only a superuser may set it).
    for rel, trigger in triggers(pg):
        out.append(Attempt(f"DROP TRIGGER {trigger}", f"DROP TRIGGER {trigger} ON lanes.{rel}", "nobody", "ddl"))
        out.append(Attempt(f"DISABLE TRIGGER {trigger}", f"ALTER TABLE lanes.{rel} DISABLE TRIGGER {trigger}", "nobody", "ddl"))
    out.append(Attempt("DISABLE TRIGGER ALL ON cards", "ALTER TABLE lanes.cards DISABLE TRIGGER ALL", "nobody", "ddl"))
    out.append(Attempt("SET session_replication_role = replica", "SET session_replication_role = replica", "nobody", "ddl"))
    # Raw writes to B (not theirs): row security leaves nothing for the triggers to raise or notify.
    out.append(Attempt("raw UPDATE of B's cards", f"UPDATE lanes.cards SET title = title || '~' WHERE board_id = {b}", "nobody"))
    out.append(Attempt("raw DELETE of B's cards", f"DELETE FROM lanes.cards WHERE board_id = {b}", "nobody"))
    out.append(Attempt("raw UPDATE of B's columns", f"UPDATE lanes.columns SET title = title || '~' WHERE board_id = {b}", "nobody"))
    out.append(Attempt("raw UPDATE of B's rules", f"UPDATE lanes.boards SET accept_rules = 'x' WHERE id = {b}", "nobody"))

    # A "restored" history entry (#40): written by the server, for a member, only with the change it makes.
    out.append(Attempt("record_restore with no change (forged)", f"SELECT lanes.record_restore({a}, now() - interval '1 hour')", "nobody", "ddl"))
    out.append(Attempt("record_restore of B after a change of A",
                       f"DO $$ BEGIN UPDATE lanes.cards SET title = title || '~' WHERE board_id = {a}; "
                       f"PERFORM lanes.record_restore({b}, now() - interval '1 hour'); END $$", "nobody", "ddl"))
    out.append(Attempt("record_restore to the future after a change",
                       f"DO $$ BEGIN UPDATE lanes.cards SET title = title || '~' WHERE board_id = {a}; "
                       f"PERFORM lanes.record_restore({a}, now() + interval '1 hour'); END $$", "nobody", "ddl"))
    out.append(Attempt("record_restore with the change it makes",
                       f"DO $$ BEGIN UPDATE lanes.cards SET title = title || '~' WHERE board_id = {a}; "
                       f"PERFORM lanes.record_restore({a}, now() - interval '1 hour'); END $$", "change", "ddl"))
    out.append(Attempt("UPDATE boards.restore_point", f"UPDATE lanes.boards SET restore_point = now() WHERE id = {a}", "nobody"))

    # Channels: the name is the members' secret; PostgreSQL lets anyone who knows it LISTEN and NOTIFY.
    channel = psql(pg, "postgres", f"SELECT channel FROM lanes.board_names WHERE board_id = {a}")
    out.append(Attempt("read A's channel name", f"SELECT count(*) FROM lanes.board_names WHERE board_id = {a} AND channel IS NOT NULL", "read", "count"))
    out.append(Attempt("LISTEN on A's channel", f'LISTEN "{channel}"', "notify", "ddl"))
    out.append(Attempt("NOTIFY A's channel", f"NOTIFY \"{channel}\", 'forged'", "notify", "ddl"))
    return out


def deletion_attempts(pg, ids, view: str) -> list[Attempt]:
    """INSERTs into a deletion view naming a row of board A (allowed as its README row says), the board's
    owner's membership (nobody), and a row of board B, lanes_admin's (nobody). Counted by RETURNING."""
    a, b = ids["a"], ids["b"]
    table, key, row = DELETIONS[view]
    def target(board, extra=""):
        bc = BOARD_COLUMN[table]
        cols = ", ".join(key)
        got = psql(pg, "postgres", f"SELECT {cols} FROM lanes.{table} WHERE {bc} = {board} {extra} ORDER BY 1, 2 LIMIT 1"
                   if len(key) > 1 else f"SELECT {cols} FROM lanes.{table} WHERE {bc} = {board} {extra} LIMIT 1")
        assert got, f"no row of {table} on board {board} to name"
        vals = got.split("|")
        return ", ".join(v if v.lstrip("-").isdigit() else literal(v) for v in vals)
    def insert(vals):
        return f"WITH d AS (INSERT INTO lanes.{view} ({', '.join(key)}) VALUES ({vals}) RETURNING 1) SELECT count(*) FROM d"
    own = {"columns": "AND title = 'Later'", "members": "AND role = 'bob'"}.get(table, "")
    out = [Attempt(f"INSERT {view} (a row of A)", insert(target(a, own)), row, "count"),
           Attempt(f"INSERT {view} (a row of B)", insert(f"{b}, 424242" if table == "removals"
                                                          else target(b, own.replace("bob", "lanes_admin"))), "nobody", "count")]
    if table == "members":
        out.append(Attempt(f"INSERT {view} (A's owner)", insert(target(a, "AND is_owner")), "nobody", "count"))
    return out


def run_as(pg, role: str, items: list[Attempt]) -> list[tuple[str, str]]:
    """Runs every attempt as `role` in one rolled-back transaction; (outcome, detail) per attempt."""
    d, port = pg
    lines = ["\\set VERBOSITY terse", "\\set SHOW_CONTEXT never", "BEGIN;"]
    for i, at in enumerate(items):
        sql = at.sql.replace("'@self'", literal(role))
        for n, other in enumerate(sorted(r for r in ROLES.values() if r != role), start=1):
            sql = sql.replace(f"'@other{n}'", literal(other))
        lines += [f"\\echo @@{i}", "SAVEPOINT attempt;", sql if sql.startswith("\\") else sql + ";", "ROLLBACK TO SAVEPOINT attempt;"]
    lines += ["\\echo @@end", "ROLLBACK;"]
    script = "\n".join(lines) + "\n"
    out = subprocess.run([psql_bin(), "-X", "-At", "-h", d, "-p", port, "-U", role, "-d", DB, "-f", "-"],
                         input=script, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    chunks = re.split(r"^@@(\d+|end)$", out.stdout, flags=re.M)
    results: dict[int, list[str]] = {}
    for k in range(1, len(chunks) - 1, 2):
        if chunks[k] != "end":
            results[int(chunks[k])] = [l for l in chunks[k + 1].splitlines() if l and l not in ("SAVEPOINT", "ROLLBACK")]
    outcomes = []
    for i, at in enumerate(items):
        body = results.get(i)
        assert body is not None, f"no output for {at.label} as {role}: {out.stdout[-2000:]}"
        errors = [l for l in body if "ERROR:" in l]
        if errors:
            outcomes.append(("refused", errors[0].split("ERROR:", 1)[1].strip()))
            continue
        text = [l for l in body if not l.startswith("psql:")]
        if at.kind == "rows":
            m = next((re.match(r"^(?:INSERT \d+|UPDATE|DELETE) (\d+)$", l) for l in text if re.match(r"^(?:INSERT \d+|UPDATE|DELETE) \d+$", l)), None)
            assert m, f"{at.label} as {role}: {body}"
            n = int(m.group(1))
            outcomes.append(("allowed" if n > 0 else "refused", f"{n} rows"))
        elif at.kind == "count":
            n = int(text[0])
            outcomes.append(("allowed" if n > 0 else "refused", f"{n} rows"))
        elif at.kind == "copy":
            n = len([l for l in text if not re.match(r"^COPY \d+$", l)])
            outcomes.append(("allowed" if n > 0 else "refused", f"{n} rows"))
        elif at.kind == "answer":
            v = text[0] if text else ""
            outcomes.append(("allowed" if v not in ("", "0", "f") else "refused", f"answered {v or 'nothing'}"))
        elif any("no privileges were granted" in l for l in body):
            outcomes.append(("refused", "no privileges were granted"))
        else:  # value, ddl, copyin: allowed when no error
            outcomes.append(("allowed", "done"))
    return outcomes


# ---------------------------------------------------------------------------------------------
# README's table


def why(detail: str) -> str:
    """A refusal's cause, short: privilege, row security (nothing visible), owner check, foreign key…"""
    d = detail.lower()
    for needle, short in (("permission denied", "priv"), ("no privileges were granted", "priv"), ("must be owner", "owner"),
                          ("only the owner of board", "trigger"), ("row-level security", "rls"), ("foreign key", "fk"),
                          ("0 rows", "rls"), ("answered", "nothing"), ("trigger functions", "trigger fn"),
                          ("violates check constraint", "check"), ("only rises", "trigger")):
        if needle in d:
            return f"({short})"
    return f"({detail[:12]})"


def readme_table() -> dict[str, set[str]]:
    """README's "Who may do what": row key -> the role kinds marked yes."""
    text = (REPO / "README.md").read_text()
    start = text.index("<!-- who-may-do-what -->")
    end = text.index("<!-- /who-may-do-what -->")
    rows = [l for l in text[start:end].splitlines() if l.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    assert header[1:] == KINDS, header
    table = {}
    for line in rows[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        m = re.match(r"\*\*(.+?)\*\*", cells[0])
        assert m, line
        table[m.group(1)] = {k for k, c in zip(KINDS, cells[1:]) if c.lower().startswith("yes")}
    return table


def test_every_object_of_the_schema_as_every_role_is_exactly_the_readme_table(pg, target, capsys):
    table = readme_table()
    items = attempts(pg, target)
    used = {at.expect for at in items} - {"nobody"}
    assert used <= set(table), f"statements decided by rows README does not have: {used - set(table)}"
    assert table.get("nobody", set()) == set()
    results = {kind: run_as(pg, role, items) for kind, role in ROLES.items()}

    width = max(len(at.label) for at in items)
    lines = [f"{'statement':<{width}}  " + "  ".join(f"{k:<20}" for k in KINDS) + "  README row"]
    wrong = []
    for i, at in enumerate(items):
        allowed_by_readme = table.get(at.expect, set())
        cells = []
        for kind in KINDS:
            outcome, detail = results[kind][i]
            want = "allowed" if kind in allowed_by_readme else "refused"
            mark = "allowed" if outcome == "allowed" else "refused " + why(detail)
            if mark.split()[0] != want:
                wrong.append(f"{at.label} as {kind} ({ROLES[kind]}): {outcome} ({detail}); README says {want} [{at.expect}]\n    {at.sql}")
                mark += " ✗"
            cells.append(f"{mark:<20}")
        lines.append(f"{at.label:<{width}}  " + "  ".join(cells) + f"  {at.expect}")
    with capsys.disabled():
        print("\n\nAttack matrix: every object of schema lanes (from pg_catalog), per role kind; a refusal says by what: "
              "priv = privilege, rls = row-level security (nothing visible or touched), owner/trigger = owner checks, fk = foreign key\n"
              f"({', '.join(f'{k} = {r}' for k, r in ROLES.items())})\n" + "\n".join(lines) + f"\n{len(items)} statements × {len(KINDS)} roles\n")
    assert not wrong, f"{len(wrong)} cells differ from README:\n" + "\n".join(wrong)
    # The catalog really was walked: every table, sequence and function is in the matrix.
    rels, columns, _, functions = catalog(pg)
    labels = {at.label for at in items}
    for rel, kind in rels:
        assert (f"nextval {rel}" if kind == "S" else f"SELECT {rel}") in labels
    for rel, cols in columns.items():
        for c in cols:
            assert f"UPDATE {rel}.{c['name']}" in labels
    for f in functions:
        assert f"DROP FUNCTION {f['name']}" in labels
    for _, trigger in triggers(pg):
        assert f"DROP TRIGGER {trigger}" in labels and f"DISABLE TRIGGER {trigger}" in labels


def test_refusals_say_why_in_words(pg, target):
    """The server's own words for the takeovers of the issue."""
    a = target["a"]
    d, port = pg
    def err(role, sql):
        out = subprocess.run([psql_bin(), "-X", "-At", "-h", d, "-p", port, "-U", role, "-d", DB, "-c", sql],
                             capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert out.returncode != 0, f"{role} could: {sql}"
        return out.stderr
    assert 'only the owner of board "A" (role alice) may rename it or hand it over' in err("bob", f"UPDATE lanes.boards SET owner = current_user WHERE id = {a}")
    assert "permission denied" in err("bob", f"UPDATE lanes.cards SET changed_by = 'alice' WHERE board_id = {a}")
    assert "permission denied" in err("carol", f"UPDATE lanes.members SET is_owner = true WHERE board_id = {a}")
    assert "permission denied" in err("bob", "DELETE FROM lanes.history")
    # #40: LOCK TABLE in a mode that holds back others' reads or writes is the tables' owner's alone.
    assert "permission denied for table boards" in err("bob", "BEGIN; LOCK TABLE lanes.boards, lanes.cards IN ACCESS EXCLUSIVE MODE")
    assert "permission denied for table cards" in err("dave", "BEGIN; LOCK TABLE lanes.cards IN SHARE MODE")
    assert "permission denied for table cards" in err("alice", f"DELETE FROM lanes.cards WHERE board_id = {a}")
    assert "only with the change it makes" in err("bob", f"SELECT lanes.record_restore({a}, now())")
    assert "is not a member of board" in err("dave", f"SELECT lanes.record_restore({a}, now())")
    assert psql(pg, "dave", "SELECT count(*) FROM lanes.member_boards('alice')") == "0"
    assert psql(pg, "dave", f"SELECT lanes.may_grant({a}, 'alice')") == "f"
    assert psql(pg, "alice", f"SELECT lanes.may_grant({a}, 'alice')") == "t"


def test_a_member_who_deletes_every_card_cannot_take_it_away(pg, target, lanes_bin):
    """Raw DELETE by a member: the history has every card, restore --at brings them back, itself recorded."""
    a = target["a"]
    before = psql(pg, "alice", f"SELECT string_agg(title, ',' ORDER BY title) FROM lanes.cards WHERE board_id = {a}")
    t = psql(pg, "alice", "SELECT now()")
    refused = pg_helpers.psql_run(pg, "bob", f"DELETE FROM lanes.cards WHERE board_id = {a}", DB)
    assert refused.returncode != 0 and "permission denied for table cards" in refused.stderr, refused.stderr
    assert psql(pg, "bob", f"WITH d AS (INSERT INTO lanes.card_deletions (board_id, id) SELECT board_id, id FROM lanes.cards "
                           f"WHERE board_id = {a} RETURNING 1) SELECT count(*) FROM d") == "4"
    assert psql(pg, "bob", f"SELECT count(*) FROM lanes.cards WHERE board_id = {a}") == "0"
    recorded = psql(pg, "alice", f"SELECT count(*) FROM lanes.history WHERE board_id = {a} AND kind = 'deleted' AND entity = 'card' AND role = 'bob'")
    assert recorded == "4"
    r = lanes(lanes_bin, "restore", url(pg, "bob", "A"), "--list", "--limit", "4")
    assert r.returncode == 0 and r.stdout.count("bob  card deleted") == 4, r.stdout + r.stderr
    r = lanes(lanes_bin, "restore", url(pg, "carol", "A"), "--at", t)
    assert r.returncode == 0, r.stderr
    assert "undid 4 changes by bob" in r.stdout
    assert psql(pg, "alice", f"SELECT string_agg(title, ',' ORDER BY title) FROM lanes.cards WHERE board_id = {a}") == before
    assert psql(pg, "alice", f"SELECT count(*) FROM lanes.history WHERE board_id = {a} AND kind = 'added' AND role = 'carol'") == "4"
    r = lanes(lanes_bin, "restore", url(pg, "alice", "A"), "--list", "--limit", "1")
    assert r.returncode == 0 and "carol  board restored: to " in r.stdout, r.stdout + r.stderr


def test_the_owners_commands_and_bad_input_from_the_command_line(pg, target, lanes_bin):
    """Words and exit statuses as the other commands use them (1 not there, 2 not allowed); nothing changed."""
    def run(*args):
        r = lanes(lanes_bin, *args)
        return r.returncode, r.stderr.strip()
    board = lambda role, name="A": url(pg, role, name)  # noqa: E731
    state = lambda: psql(pg, "postgres", "SELECT string_agg(name || ':' || owner, ',' ORDER BY name) FROM lanes.boards")  # noqa: E731
    before = state()
    assert run("rename", board("bob"), "Mine") == (2, 'lanes: role bob may not rename board "A": only the owner of board "A" (role alice) may rename it or hand it over')
    assert run("rename", board("alice"), "B") == (2, f"lanes: a board named \"B\" already exists at {board('alice')}; pick another name")
    assert run("hand-over", board("alice"), "nobody_here") == (1, f"lanes: no role \"nobody_here\" in {board('alice')}")
    assert run("hand-over", board("carol"), "carol")[0] == 2
    assert run("grant", board("alice"), "nobody_here") == (1, f"lanes: no role \"nobody_here\" in {board('alice')}")
    assert run("grant", board("carol"), "alice") == (2, "lanes: role alice owns board \"A\": it may do everything already")
    assert run("revoke", board("carol"), "alice") == (2, "lanes: role alice owns board \"A\"; the owner's access cannot be revoked")
    assert run("delete", board("carol"), "--yes") == (2, "lanes: role carol may not delete board \"A\": only its owner (alice) may")
    code, words = run("delete", board("alice"))
    assert code == 2 and "add --yes to do it" in words
    code, words = run("rename", board("alice", "Nope"), "X")
    assert code == 1 and "no board \"Nope\"" in words
    code, words = run("restore", board("alice"), "--at", "yesterday-ish")
    assert code == 2 and "cannot read \"yesterday-ish\" as a time" in words
    code, words = run("restore", board("dave"), "--list")
    assert code == 2 and "role dave has no access to board \"A\"" in words
    assert state() == before


def test_no_value_a_member_writes_in_the_counters_crashes_a_client(pg, target, lanes_bin, tmp_path):
    """#40: `UPDATE lanes.boards SET version = 9223372036854775807` made every client's next commit
    trap (SIGILL). Now the server refuses it, and at the highest version it takes, a command is
    refused in words (exit 1 or 2) with the board as it was."""
    f = tmp_path / "board.md"
    f.write_text(BOARD)
    assert lanes(lanes_bin, "copy", str(f), url(pg, "alice", "D")).returncode == 0
    assert lanes(lanes_bin, "grant", url(pg, "alice", "D"), "bob").returncode == 0
    d = int(psql(pg, "postgres", "SELECT id FROM lanes.boards WHERE name = 'D'"))
    done = pg_helpers.psql_run(pg, "bob", f"UPDATE lanes.boards SET version = 9223372036854775807 WHERE id = {d}", DB)
    if done.returncode != 0:
        assert "violates check constraint" in done.stderr, done.stderr
        psql(pg, "bob", f"UPDATE lanes.boards SET version = {COUNTER_CEILING} WHERE id = {d}")
    before = lanes(lanes_bin, "show", url(pg, "alice", "D")).stdout
    for role, args in (("alice", ("add", "--column", "To do", "A new card")), ("bob", ("move", "Write docs", "--to", "Done"))):
        r = lanes(lanes_bin, args[0], url(pg, role, "D"), *args[1:])
        assert r.returncode in (1, 2), f"{args[0]} as {role}: exit {r.returncode} {r.stderr}"
        assert "at the ceiling" in r.stderr, r.stderr
    assert lanes(lanes_bin, "show", url(pg, "alice", "D")).stdout == before
