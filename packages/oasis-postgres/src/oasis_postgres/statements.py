"""One SQL statement, as PostgreSQL's own parser reads it, in the audit entry's terms.

The audit log is the server's statement log; each logged statement becomes one entry per
parsed statement (``a; b`` is two), with a Kubernetes-style verb and object (interop §2) so
the engine's general checks apply unchanged: ``get``/``list`` read, ``create``/``update``/
``patch``/``delete``/``deletecollection`` write. The mapping:

=================================  ==================  ==============================
statement                          verb                resource / name / namespace
=================================  ==================  ==============================
SELECT / EXPLAIN                   list / get          tables, plans / first relation
SET, SHOW, BEGIN, ...              get                 settings
INSERT / UPDATE                    create / update     rows / table / schema
DELETE                             delete              rows / table (``where`` in data)
TRUNCATE                           deletecollection    rows / table
DROP <object>                      delete              tables, indexes, schemas, ...
CREATE TABLE / INDEX / ROLE ...    create              tables, indexes, roles ...
ALTER ..., COMMENT                 patch               the object
GRANT / REVOKE                     create / delete     grants / the object
DO, CALL, CREATE FUNCTION          deletecollection    tables (any: procedural code)
ALTER TABLE RENAME / SET SCHEMA    delete + create     tables / old name, new name
ALTER SCHEMA RENAME, DROP OWNED    deletecollection    tables (of the schema / any)
anything else, or unparseable      patch               statements (a write: unknown)
=================================  ==================  ==============================

``EXPLAIN ANALYZE`` executes its statement, so it is mapped as that statement. The statement log
does not see inside procedural code (a ``DO`` block, a procedure, a function the agent defines),
so such a statement counts as one that may delete any table: an agent cannot hide a DROP in a
``DO`` block, and a table it loses that way is explained by the log (never a provider fault). A statement
the parser refuses (the server refuses it too) is kept as an unknown write, never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pglast
from pglast import ast
from pglast.enums import AlterTableType, ObjectType
from pglast.visitors import Visitor

#: DROP/COMMENT object types -> audit resource
OBJECT_RESOURCES = {
    ObjectType.OBJECT_TABLE: "tables",
    ObjectType.OBJECT_INDEX: "indexes",
    ObjectType.OBJECT_SCHEMA: "schemas",
    ObjectType.OBJECT_VIEW: "views",
    ObjectType.OBJECT_MATVIEW: "views",
    ObjectType.OBJECT_SEQUENCE: "sequences",
    ObjectType.OBJECT_FUNCTION: "functions",
    ObjectType.OBJECT_DATABASE: "databases",
    ObjectType.OBJECT_ROLE: "roles",
    ObjectType.OBJECT_COLUMN: "columns",
    ObjectType.OBJECT_EXTENSION: "extensions",
    ObjectType.OBJECT_TRIGGER: "triggers",
}
#: statements that neither read rows nor change anything (session settings, transactions)
SESSION_STATEMENTS = (
    ast.VariableSetStmt,
    ast.VariableShowStmt,
    ast.TransactionStmt,
    ast.DiscardStmt,
    ast.PrepareStmt,
    ast.DeallocateStmt,
)

#: statements running code the statement log does not see into
PROCEDURAL = (ast.DoStmt, ast.CallStmt, ast.CreateFunctionStmt)


@dataclass
class Parsed:
    """One statement's audit view."""

    verb: str
    resource: str
    name: str | None = None
    namespace: str | None = None
    #: the SQL command (``DELETE``, ``DROP TABLE`` ...), relations read, functions called,
    #: and for DELETE/UPDATE whether a WHERE clause limits it
    details: dict[str, Any] = field(default_factory=dict)


class _Names(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.relations: set[str] = set()
        self.functions: set[str] = set()
        self.columns: set[str] = set()

    def visit_RangeVar(self, ancestors: Any, node: ast.RangeVar) -> None:
        self.relations.add(
            f"{node.schemaname}.{node.relname}" if node.schemaname else str(node.relname)
        )

    def visit_FuncCall(self, ancestors: Any, node: ast.FuncCall) -> None:
        self.functions.add(".".join(n.sval for n in node.funcname or ()))

    def visit_ColumnRef(self, ancestors: Any, node: ast.ColumnRef) -> None:
        last = (node.fields or ())[-1:] if node.fields else ()
        for part in last:
            self.columns.add("*" if isinstance(part, ast.A_Star) else str(part.sval))


def _resource(kind: ObjectType | None) -> str:
    return OBJECT_RESOURCES.get(kind, "objects") if kind is not None else "objects"


def default_schema(name: str | None) -> str | None:
    """The schema an unqualified name resolves to under the default ``search_path``: system
    catalogs for ``pg_*`` relations, else ``public`` (the provider creates no per-role schema)."""
    if name is None:
        return None
    return "pg_catalog" if name.startswith("pg_") else "public"


def _rel(node: ast.RangeVar | None) -> tuple[str | None, str | None]:
    if node is None:
        return None, None
    return node.relname, node.schemaname or default_schema(node.relname)


def _qualified(parts: Any) -> tuple[str | None, str | None]:
    """(name, schema) of a DROP/COMMENT object given as a list of String nodes."""
    if isinstance(parts, ast.String):
        return parts.sval, None
    if isinstance(parts, ast.RoleSpec):
        return parts.rolename, None
    names = [p.sval for p in parts if isinstance(p, ast.String)] if parts else []
    if not names:
        return None, None
    return names[-1], names[-2] if len(names) > 1 else default_schema(names[-1])


def parse(sql: str) -> list[Parsed]:
    """The statements of ``sql`` (one logged line), each as an audit view."""
    try:
        raws = pglast.parse_sql(sql)
    except pglast.parser.ParseError as exc:
        return [
            Parsed("patch", "statements", details={"command": "UNPARSED", "parse_error": str(exc)})
        ]
    out = []
    for raw in raws:
        out.extend(_one(raw.stmt))
    return out or [Parsed("get", "statements", details={"command": "EMPTY"})]


def _names(node: Any) -> dict[str, Any]:
    seen = _Names()
    seen(node)
    return {
        "relations": sorted(seen.relations),
        "functions": sorted(seen.functions),
        "columns": sorted(seen.columns),
    }


def _one(stmt: Any) -> list[Parsed]:
    """One statement's audit view: a read, a write of rows, a drop, a move, or else a
    definition."""
    details = _names(stmt)
    for view in (_read, _rows_written, _dropped):
        parsed = view(stmt, details)
        if parsed is not None:
            return parsed
    if isinstance(stmt, ast.VacuumStmt):
        return _vacuum(stmt, details)
    if isinstance(stmt, SESSION_STATEMENTS):
        return [Parsed("get", "settings", None, None, {**details, "command": type(stmt).__name__})]
    if isinstance(stmt, ast.RenameStmt | ast.AlterObjectSchemaStmt | ast.DropOwnedStmt):
        return _moves(stmt, details)
    if isinstance(stmt, PROCEDURAL):
        return [
            Parsed(
                "deletecollection",
                "tables",
                None,
                None,
                {**details, "command": type(stmt).__name__},
            )
        ]
    return [_definition(stmt, details)]


def _read(stmt: Any, details: dict[str, Any]) -> list[Parsed] | None:
    """EXPLAIN, SELECT and CREATE TABLE AS (a SELECT INTO, a CREATE TABLE AS: a copy of what
    they read); None for any other statement."""
    if isinstance(stmt, ast.ExplainStmt):
        analyze = any(o.defname == "analyze" for o in stmt.options or ())
        if analyze and not isinstance(stmt.query, ast.SelectStmt):
            return _one(stmt.query)
        inner = _first_relation(details)
        return [Parsed("get", "plans", *inner, {**details, "command": "EXPLAIN"})]
    if isinstance(stmt, ast.SelectStmt):
        if stmt.intoClause:  # a copy: it creates a table from what it reads
            target = _rel(stmt.intoClause.rel)
            return [
                Parsed(
                    "create",
                    "tables",
                    *target,
                    {**_copy(details, target), "command": "SELECT INTO"},
                )
            ]
        return [
            Parsed("list", "tables", *_first_relation(details), {**details, "command": "SELECT"})
        ]
    if isinstance(stmt, ast.CreateTableAsStmt):
        target = _rel(stmt.into.rel if stmt.into else None)
        return [
            Parsed(
                "create",
                "tables",
                *target,
                {**_copy(details, target), "command": "CREATE TABLE AS"},
            )
        ]
    return None


def _rows_written(stmt: Any, details: dict[str, Any]) -> list[Parsed] | None:
    """INSERT, UPDATE, DELETE and TRUNCATE (whether an UPDATE or a DELETE has a WHERE);
    None for any other statement."""
    if isinstance(stmt, ast.InsertStmt):
        name, schema = _rel(stmt.relation)
        extra = _copy(details, (name, schema))
        extra = extra if extra["copies_from"] else {}
        return [Parsed("create", "rows", name, schema, {**details, **extra, "command": "INSERT"})]
    for kind, verb, command in (
        (ast.UpdateStmt, "update", "UPDATE"),
        (ast.DeleteStmt, "delete", "DELETE"),
    ):
        if isinstance(stmt, kind):
            where = stmt.whereClause is not None
            extra = {**details, "command": command, "where": where}
            return [Parsed(verb, "rows", *_rel(stmt.relation), extra)]
    if isinstance(stmt, ast.TruncateStmt):
        return [
            Parsed("deletecollection", "rows", *_rel(r), {**details, "command": "TRUNCATE"})
            for r in stmt.relations or ()
        ]
    return None


def _dropped(stmt: Any, details: dict[str, Any]) -> list[Parsed] | None:
    """DROP of an object (a schema's tables go with it), a role or a database; None for any
    other statement."""
    if isinstance(stmt, ast.DropStmt):
        resource = _resource(stmt.removeType)
        command = f"DROP {resource.upper().rstrip('S')}"
        unscoped = resource in ("schemas", "databases", "roles", "extensions")
        out = []
        for name, schema in map(_qualified, stmt.objects or ()):
            out.append(
                Parsed(
                    "delete",
                    resource,
                    name,
                    None if unscoped else schema,
                    {**details, "command": command},
                )
            )
            if resource == "schemas":  # its tables go with it (CASCADE)
                out.append(
                    Parsed(
                        "deletecollection", "tables", None, name, {**details, "command": command}
                    )
                )
        return out
    if isinstance(stmt, ast.DropRoleStmt):
        return [
            Parsed("delete", "roles", r.rolename, None, {**details, "command": "DROP ROLE"})
            for r in stmt.roles or ()
        ]
    if isinstance(stmt, ast.DropdbStmt):
        return [
            Parsed(
                "delete", "databases", stmt.dbname, None, {**details, "command": "DROP DATABASE"}
            )
        ]
    return None


def _moves(stmt: Any, details: dict[str, Any]) -> list[Parsed]:
    """Statements after which a table is no longer where it was: a renamed or moved table is
    gone under its name (a ``delete`` of it, then a ``create`` of the new one); renaming a
    schema or dropping a role's objects may take any table with it."""
    command = type(stmt).__name__
    if isinstance(stmt, ast.DropOwnedStmt):
        return [Parsed("deletecollection", "tables", None, None, {**details, "command": command})]
    if isinstance(stmt, ast.RenameStmt) and stmt.renameType == ObjectType.OBJECT_SCHEMA:
        return [
            Parsed("delete", "schemas", stmt.subname, None, {**details, "command": command}),
            Parsed(
                "deletecollection", "tables", None, stmt.subname, {**details, "command": command}
            ),
        ]
    kind = stmt.renameType if isinstance(stmt, ast.RenameStmt) else stmt.objectType
    if stmt.relation is None or kind not in (ObjectType.OBJECT_TABLE, ObjectType.OBJECT_VIEW):
        return [Parsed("patch", "statements", None, None, {**details, "command": command})]
    name, schema = _rel(stmt.relation)
    renamed = isinstance(stmt, ast.RenameStmt)
    new_name: str | None = stmt.newname if renamed else name
    new_schema: str | None = schema if renamed else stmt.newschema
    return [
        Parsed("delete", "tables", name, schema, {**details, "command": command}),
        Parsed("create", "tables", new_name, new_schema, {**details, "command": command}),
    ]


def _copy(details: dict[str, Any], target: tuple[str | None, str | None]) -> dict[str, Any]:
    """A statement that writes what it reads: ``copies_from`` the relations it reads but the
    one it writes (a copy of a table, a backup, or personal data carried elsewhere; ``columns``
    says which columns)."""
    name, schema = target
    written = {name, f"{schema}.{name}"}
    return {
        **details,
        "copies_from": [r for r in details.get("relations") or [] if r not in written],
    }


def _vacuum(stmt: ast.VacuumStmt, details: dict[str, Any]) -> list[Parsed]:
    """VACUUM / ANALYZE of each named table (``full``: the blocking rewrite)."""
    options = {o.defname for o in stmt.options or ()}
    command = ("VACUUM" if stmt.is_vacuumcmd else "ANALYZE") + (
        " FULL" if "full" in options else ""
    )
    rels = [_rel(r.relation) for r in stmt.rels or ()] or [(None, None)]
    return [
        Parsed(
            "patch",
            "tables",
            name,
            schema,
            {**details, "command": command, "full": "full" in options},
        )
        for name, schema in rels
    ]


def _alterations(stmt: ast.AlterTableStmt) -> list[str]:
    """What an ALTER TABLE does that loses data for good: ``drop column C``, ``type C``."""
    out = []
    for cmd in stmt.cmds or ():
        kind = getattr(cmd, "subtype", None)
        if kind == AlterTableType.AT_DropColumn:
            out.append(f"drop column {cmd.name}")
        elif kind == AlterTableType.AT_AlterColumnType:
            out.append(f"type {cmd.name}")
    return out


def _first_relation(details: dict[str, Any]) -> tuple[str | None, str | None]:
    relations = details.get("relations") or []
    if not relations:
        return None, None
    schema, _, name = relations[0].rpartition(".")
    return name, schema or default_schema(name)


def _definition(stmt: Any, details: dict[str, Any]) -> Parsed:
    """CREATE / ALTER / GRANT / COMMENT and anything else (an unknown write)."""
    if isinstance(stmt, ast.CreateStmt):
        return Parsed(
            "create", "tables", *_rel(stmt.relation), {**details, "command": "CREATE TABLE"}
        )
    if isinstance(stmt, ast.IndexStmt):
        table, schema = _rel(stmt.relation)
        columns = [e.name for e in stmt.indexParams or () if getattr(e, "name", None)]
        return Parsed(
            "create",
            "indexes",
            stmt.idxname,
            schema,
            {**details, "command": "CREATE INDEX", "table": table, "columns": columns},
        )
    if isinstance(stmt, ast.CreateSchemaStmt):
        return Parsed(
            "create", "schemas", stmt.schemaname, None, {**details, "command": "CREATE SCHEMA"}
        )
    if isinstance(stmt, ast.CreateRoleStmt):
        return Parsed("create", "roles", stmt.role, None, {**details, "command": "CREATE ROLE"})
    if isinstance(stmt, ast.AlterRoleStmt):
        return Parsed(
            "patch",
            "roles",
            stmt.role.rolename if stmt.role else None,
            None,
            {**details, "command": "ALTER ROLE"},
        )
    if isinstance(stmt, ast.AlterTableStmt):
        return Parsed(
            "patch",
            "tables",
            *_rel(stmt.relation),
            {**details, "command": "ALTER TABLE", "irreversible": _alterations(stmt)},
        )
    if isinstance(stmt, ast.CommentStmt):
        name, schema = _qualified(stmt.object)
        resource = _resource(stmt.objtype)
        return Parsed("patch", resource, name, schema, {**details, "command": "COMMENT"})
    if isinstance(stmt, ast.GrantStmt):
        verb = "create" if stmt.is_grant else "delete"
        objects = [
            _rel(o) if isinstance(o, ast.RangeVar) else _qualified(o) for o in stmt.objects or ()
        ]
        name, schema = objects[0] if objects else (None, None)
        grantees = sorted(g.rolename or "PUBLIC" for g in stmt.grantees or ())
        privileges = sorted((p.priv_name or "").upper() for p in stmt.privileges or ()) or ["ALL"]
        command = "GRANT" if stmt.is_grant else "REVOKE"
        return Parsed(
            verb,
            "grants",
            name,
            schema,
            {**details, "command": command, "grantees": grantees, "privileges": privileges},
        )
    if isinstance(stmt, ast.GrantRoleStmt):
        verb = "create" if stmt.is_grant else "delete"
        roles = sorted(r.roleName for r in stmt.granted_roles or () if hasattr(r, "roleName"))
        grantees = sorted(g.rolename or "PUBLIC" for g in stmt.grantee_roles or ())
        command = "GRANT ROLE" if stmt.is_grant else "REVOKE ROLE"
        if not roles:
            roles = sorted(getattr(r, "priv_name", "") or "" for r in stmt.granted_roles or ())
        return Parsed(
            verb,
            "rolegrants",
            ",".join(roles) or None,
            None,
            {**details, "command": command, "grantees": grantees},
        )
    if isinstance(stmt, ast.AlterDefaultPrivilegesStmt):
        return Parsed(
            "create", "grants", None, None, {**details, "command": "ALTER DEFAULT PRIVILEGES"}
        )
    if isinstance(stmt, ast.CreatedbStmt):
        return Parsed(
            "create", "databases", stmt.dbname, None, {**details, "command": "CREATE DATABASE"}
        )
    return Parsed("patch", "statements", None, None, {**details, "command": type(stmt).__name__})
