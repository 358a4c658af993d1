var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res2, err4) => function __init() {
  if (err4) throw err4[0];
  try {
    return fn && (res2 = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res2;
  } catch (e) {
    throw err4 = [e], e;
  }
};
var __export = (target, all3) => {
  for (var name in all3)
    __defProp(target, name, { get: all3[name], enumerable: true });
};

// ../vela-old/dbl/inflect.ts
function singularize(plural) {
  const cut = plural.lastIndexOf("_") + 1;
  const head = plural.slice(0, cut);
  const word = plural.slice(cut);
  const one3 = (s) => head + s;
  if (UNCOUNTABLE.has(word)) return plural;
  if (Object.hasOwn(IRREGULAR, word)) return one3(IRREGULAR[word]);
  if (SINGULAR_OF_IRREGULAR.has(word) || /(ss|is)$/.test(word) || !word.endsWith("s") || word === "s") return void 0;
  if (/[^aeiou]ies$/.test(word)) return one3(`${word.slice(0, -3)}y`);
  if (/(x|ch|sh|ss|zz)es$/.test(word)) return one3(word.slice(0, -2));
  return one3(word.slice(0, -1));
}
var IRREGULAR, UNCOUNTABLE, SINGULAR_OF_IRREGULAR;
var init_inflect = __esm({
  "../vela-old/dbl/inflect.ts"() {
    "use strict";
    IRREGULAR = {
      people: "person",
      children: "child",
      men: "man",
      women: "woman",
      mice: "mouse",
      movies: "movie",
      cookies: "cookie",
      zombies: "zombie",
      calories: "calorie",
      caches: "cache",
      statuses: "status",
      buses: "bus",
      viruses: "virus",
      bonuses: "bonus",
      campuses: "campus",
      analyses: "analysis",
      crises: "crisis",
      theses: "thesis",
      quizzes: "quiz",
      heroes: "hero",
      leaves: "leaf",
      knives: "knife",
      lives: "life",
      wives: "wife",
      halves: "half",
      shelves: "shelf",
      wolves: "wolf"
    };
    UNCOUNTABLE = /* @__PURE__ */ new Set([
      "news",
      "series",
      "species",
      "data",
      "metadata",
      "media",
      "equipment",
      "information",
      "feedback",
      "staff",
      "sheep",
      "fish",
      "deer"
    ]);
    SINGULAR_OF_IRREGULAR = new Set(Object.values(IRREGULAR));
  }
});

// ../vela-old/dbl/schema.ts
function belongsTo(schema, opts = {}) {
  return { kind: "belongsTo", schema, ...opts };
}
function hasMany(schema, opts = {}) {
  return { kind: "hasMany", schema, ...opts };
}
function joinThroughOf(owner, name) {
  const a = owner.associations[name];
  if (a?.kind !== "manyToMany" || !a.joinThrough)
    throw new Error(`schema ${owner.table} has no manyToMany association "${name}"`);
  const related = a.schema();
  const ownerKey = foreignKeyOf(owner, name, a);
  const relatedKey = a.joinKeys?.[1] ?? `${singularize(related.table) ?? related.table}_id`;
  if (ownerKey === relatedKey) {
    throw new Error(
      `association ${owner.table}.${name}: both join keys would be "${ownerKey}"; give joinKeys: ['<column for ${owner.table}>', '<column for ${related.table}>']`
    );
  }
  return {
    table: a.joinThrough,
    ownerKey,
    relatedKey,
    ownerColumn: owner.primaryKey,
    relatedColumn: related.primaryKey,
    related,
    onDelete: a.onDelete ?? "cascade"
  };
}
function foreignKeyOf(owner, name, a) {
  if (a.kind === "manyToMany" && a.joinKeys) return a.joinKeys[0];
  if (a.foreignKey !== void 0) return a.foreignKey;
  return a.kind === "belongsTo" ? `${name}_id` : `${singularize(owner.table) ?? owner.table}_id`;
}
function defineSchema(def) {
  const fields = Object.entries(def.fields).map(([name, spec]) => normaliseField(name, spec));
  const embedded = def.embedded ?? false;
  const primaryKey = def.primaryKey ?? fields.find((f) => f.primaryKey)?.name ?? (embedded ? "" : "id");
  const byName = {};
  for (const f of fields) {
    const isPk = f.name === primaryKey;
    byName[f.name] = isPk ? { ...f, primaryKey: true, nullable: false } : f;
  }
  if (primaryKey !== "" && !byName[primaryKey])
    throw new Error(`schema ${def.table}: primary key "${primaryKey}" is not one of its fields`);
  if (byName[primaryKey]?.virtual)
    throw new Error(`schema ${def.table}: the primary key "${primaryKey}" cannot be virtual`);
  if (embedded && (def.indexes?.length || Object.keys(def.associations ?? {}).length)) {
    throw new Error(`schema ${def.table} is embedded: it has no table, so no indexes or associations`);
  }
  const indexes = (def.indexes ?? []).map((ix) => ({
    columns: ix.columns,
    unique: ix.unique ?? false,
    name: ix.name ?? `${def.table}_${ix.columns.join("_")}_index`
  }));
  for (const ix of indexes) {
    for (const c of ix.columns) {
      if (!byName[c] || byName[c].virtual)
        throw new Error(`schema ${def.table}: index ${ix.name} names unknown field "${c}"`);
    }
  }
  return {
    kind: "vela.schema",
    table: def.table,
    primaryKey,
    fields: fields.map((f) => byName[f.name]),
    fieldsByName: byName,
    associations: def.associations ?? {},
    indexes,
    embedded
  };
}
function normaliseField(name, spec) {
  const opts = typeof spec === "string" || !("type" in spec) ? { type: spec } : spec;
  const primaryKey = opts.primaryKey ?? false;
  return {
    name,
    type: opts.type,
    primaryKey,
    nullable: opts.nullable ?? !(primaryKey || opts.type === "id"),
    default: opts.default,
    size: opts.size,
    renamedFrom: opts.renamedFrom,
    virtual: opts.virtual ?? false
  };
}
var init_schema = __esm({
  "../vela-old/dbl/schema.ts"() {
    "use strict";
    init_inflect();
  }
});

// ../vela-old/dbl/result.ts
var init_result = __esm({
  "../vela-old/dbl/result.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/cast.ts
function jsonText(value) {
  let faithful = true;
  let text;
  try {
    text = JSON.stringify(value, function(key, v) {
      if (key.includes("\0")) faithful = false;
      else if (v === void 0) faithful &&= !(Array.isArray(this) || key === "");
      else if (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint") faithful = false;
      else if (typeof v === "number") faithful &&= Number.isFinite(v);
      else if (typeof v === "string") faithful &&= !v.includes("\0");
      else if (typeof v === "object" && v !== null && opaque.some((c) => v instanceof c)) faithful = false;
      return faithful ? v : void 0;
    });
  } catch {
    return void 0;
  }
  return faithful ? text : void 0;
}
var opaque;
var init_cast = __esm({
  "../vela-old/dbl/cast.ts"() {
    "use strict";
    opaque = [Map, Set, WeakMap, WeakSet, RegExp, Promise];
  }
});

// ../vela-old/dbl/changeset.ts
var init_changeset = __esm({
  "../vela-old/dbl/changeset.ts"() {
    "use strict";
    init_cast();
  }
});

// ../vela-old/dbl/validations.ts
var segmenter;
var init_validations = __esm({
  "../vela-old/dbl/validations.ts"() {
    "use strict";
    init_changeset();
    segmenter = new Intl.Segmenter();
  }
});

// ../vela-old/dbl/record-origin.ts
var init_record_origin = __esm({
  "../vela-old/dbl/record-origin.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/sql.ts
import knex from "knex";
function marker(index) {
  return MARK + index;
}
function compiled(key, build3) {
  const hit = cache.get(key);
  if (hit) return hit;
  const native = build3().toSQL().toNative();
  const order = native.bindings.map((b) => {
    if (typeof b !== "number" || b < MARK)
      throw new Error(`vela.dbl: unexpected literal binding ${String(b)} in ${native.sql}`);
    return b - MARK;
  });
  const c = { sql: native.sql, order: order.every((v, i) => v === i) ? void 0 : order };
  if (cache.size >= MAX_SHAPES) cache.clear();
  cache.set(key, c);
  return c;
}
function paramsFor(c, values) {
  return c.order ? c.order.map((i) => values[i]) : values;
}
function isJsonField(field) {
  const t = field.type;
  return typeof t === "string" ? t === "jsonb" : "embedsOne" in t || "embedsMany" in t;
}
function dumpValue(field, value) {
  if (value === null || value === void 0 || !isJsonField(field)) return value;
  const text = jsonText(value);
  if (text === void 0) throw new JsonValueError(field.name);
  return text;
}
function sqlOf(schema) {
  let s = schemaSql.get(schema);
  if (!s) {
    if (schema.embedded)
      throw new Error(
        `schema ${schema.table} is embedded: it has no table; store it in a parent's embedsOne / embedsMany field`
      );
    const stored = schema.fields.filter((f) => !f.virtual);
    s = {
      columns: stored.map((f) => f.name),
      jsonbFields: stored.filter((f) => f.type === "jsonb").map((f) => f.name),
      embeds: stored.filter((f) => typeof f.type === "object" && ("embedsOne" in f.type || "embedsMany" in f.type))
    };
    schemaSql.set(schema, s);
  }
  return s;
}
var kx, MARK, MAX_SHAPES, cache, JsonValueError, schemaSql;
var init_sql = __esm({
  "../vela-old/dbl/sql.ts"() {
    "use strict";
    init_cast();
    kx = knex({ client: "pg" });
    MARK = 1e9;
    MAX_SHAPES = 5e3;
    cache = /* @__PURE__ */ new Map();
    JsonValueError = class extends TypeError {
      constructor(field) {
        super(
          `vela.dbl: ${field}: a jsonb value JSON cannot carry (a function, a BigInt, a cycle, undefined in a list, NaN, a Map or Set, a NUL character)`
        );
        this.field = field;
      }
      field;
    };
    schemaSql = /* @__PURE__ */ new WeakMap();
  }
});

// ../vela-old/dbl/embedded.ts
var init_embedded = __esm({
  "../vela-old/dbl/embedded.ts"() {
    "use strict";
    init_record_origin();
    init_cast();
    init_changeset();
    init_schema();
    init_sql();
  }
});

// ../vela-old/dbl/optimistic-lock.ts
var init_optimistic_lock = __esm({
  "../vela-old/dbl/optimistic-lock.ts"() {
    "use strict";
    init_changeset();
  }
});

// ../vela-old/dbl/constraints.ts
var init_constraints = __esm({
  "../vela-old/dbl/constraints.ts"() {
    "use strict";
    init_changeset();
    init_schema();
  }
});

// ../vela-old/dbl/assoc.ts
function resolveAssoc(owner, name) {
  const a = owner.associations[name];
  if (!a) throw new Error(`schema ${owner.table} has no association "${name}"`);
  if (a.kind === "manyToMany") {
    const through = joinThroughOf(owner, name);
    return { name, kind: a.kind, owner, related: through.related, foreignKey: through.ownerKey, through };
  }
  const related = a.schema();
  const foreignKey = foreignKeyOf(owner, name, a);
  const holder = a.kind === "belongsTo" ? owner : related;
  if (!holder.fieldsByName[foreignKey])
    throw new Error(`association ${owner.table}.${name}: ${holder.table} has no field "${foreignKey}"`);
  return { name, kind: a.kind, owner, related, foreignKey };
}
var init_assoc = __esm({
  "../vela-old/dbl/assoc.ts"() {
    "use strict";
    init_cast();
    init_changeset();
    init_schema();
  }
});

// ../vela-old/dbl/query-aggregate.ts
function make(fn, arg, distinct3 = false) {
  if (arg !== void 0 && typeof arg !== "string") {
    if (!Array.isArray(arg) || arg.length !== 3 || typeof arg[0] !== "string" || typeof arg[2] !== "string" || !arithOps.has(arg[1])) {
      throw new Error(`${fn}: give a field or [field, '+' | '-' | '*' | '/', field], got ${JSON.stringify(arg)}`);
    }
  }
  return { kind: "vela.aggregate", fn, arg, distinct: distinct3 };
}
function isAggregate(value) {
  return typeof value === "object" && value !== null && value.kind === "vela.aggregate";
}
function countAggregate(field, opts = {}) {
  return make("count", field, opts.distinct === true);
}
function sum(arg) {
  return make("sum", arg);
}
function refsOf(a) {
  return a.arg === void 0 ? [] : typeof a.arg === "string" ? [a.arg] : [a.arg[0], a.arg[2]];
}
function checkAggregate(a, fields, ref) {
  const needsNumber = a.fn === "sum" || a.fn === "avg" || Array.isArray(a.arg);
  if (!needsNumber) return;
  fields.forEach((f, i) => {
    if (!numeric.has(f.type))
      throw new Error(`${a.fn}(${ref[i]}): ${ref[i]} is a ${JSON.stringify(f.type)} field, not a number`);
  });
}
function aggregateKey(a) {
  const arg = a.arg === void 0 ? "*" : typeof a.arg === "string" ? a.arg : a.arg.join(" ");
  return `${a.fn}(${a.distinct ? "distinct " : ""}${arg})`;
}
var arithOps, numeric;
var init_query_aggregate = __esm({
  "../vela-old/dbl/query-aggregate.ts"() {
    "use strict";
    arithOps = /* @__PURE__ */ new Set(["+", "-", "*", "/"]);
    numeric = /* @__PURE__ */ new Set(["id", "integer", "float"]);
  }
});

// ../vela-old/dbl/query-paths.ts
function resolveJoinPath(schema, joins, path3) {
  const dot = path3.lastIndexOf(".");
  const parent = dot < 0 ? void 0 : path3.slice(0, dot);
  const owner = parent === void 0 ? schema : joins.find((j) => j.path === parent)?.assoc.related;
  if (!owner) throw new Error(`join ${path3}: ${parent} is not joined`);
  const name = path3.slice(dot + 1);
  if (!Object.hasOwn(owner.associations, name))
    throw new Error(`join ${path3}: schema ${owner.table} has no association "${name}"`);
  const assoc = resolveAssoc(owner, name);
  return { assoc, through: assoc.through };
}
function resolveRef(schema, joins, ref) {
  const found = findRef(schema, joins, ref);
  if (found.field.virtual)
    throw new Error(`field ${JSON.stringify(ref)} is virtual (never stored), so a query cannot use it`);
  return found;
}
function findRef(schema, joins, ref) {
  if (typeof ref === "string") {
    const dot = ref.lastIndexOf(".");
    if (dot < 0) {
      if (Object.hasOwn(schema.fieldsByName, ref)) return { path: void 0, field: schema.fieldsByName[ref] };
    } else {
      const path3 = ref.slice(0, dot);
      const name = ref.slice(dot + 1);
      const join5 = joins.find((j) => j.path === path3);
      if (!join5) throw new Error(`field ${ref}: join '${path3}' first (join or leftJoin)`);
      const related = join5.assoc.related;
      if (Object.hasOwn(related.fieldsByName, name)) return { path: path3, field: related.fieldsByName[name] };
      throw new Error(`field ${ref}: schema ${related.table} has no field ${JSON.stringify(name)}`);
    }
  }
  throw new Error(`schema ${schema.table} has no field ${JSON.stringify(ref)}`);
}
var init_query_paths = __esm({
  "../vela-old/dbl/query-paths.ts"() {
    "use strict";
    init_assoc();
  }
});

// ../vela-old/dbl/query.ts
function escapeLike(text) {
  return text.replace(/[\\%_]/g, "\\$&");
}
function likePattern(field, op, value) {
  if (typeof value === "string") {
    if (/\\*$/.exec(value)[0].length % 2 === 1) {
      throw new Error(
        `where ${field} ${op} ${JSON.stringify(value)}: the pattern ends with a lone escape character (\\); for text a user typed, use { contains: text } (or escapeLike(text))`
      );
    }
    return value;
  }
  const keys3 = typeof value === "object" && value !== null ? Object.keys(value) : [];
  const text = keys3.length === 1 ? value[keys3[0]] : void 0;
  if (typeof text === "string") {
    if (keys3[0] === "contains") return `%${escapeLike(text)}%`;
    if (keys3[0] === "startsWith") return `${escapeLike(text)}%`;
    if (keys3[0] === "endsWith") return `%${escapeLike(text)}`;
  }
  throw new Error(`where ${field} ${op}: give a pattern string or one of { contains | startsWith | endsWith: string }`);
}
function from(schema) {
  return {
    kind: "vela.query",
    schema,
    joins: [],
    where: [],
    orderBy: [],
    limit: void 0,
    offset: void 0,
    select: void 0,
    selectAs: void 0,
    groupBy: [],
    having: [],
    distinct: false,
    lock: void 0,
    count: false
  };
}
function isQuery(value) {
  return typeof value === "object" && value !== null && value.kind === "vela.query";
}
function cond(a, op, value) {
  if (typeof a !== "string") return clausesCond(a);
  if (typeof op !== "string" || !ops.has(op)) throw new Error(`unknown query operator ${JSON.stringify(op)}`);
  if (op === "is null" || op === "is not null") return { "~cond": "op", field: a, op, value: void 0 };
  if (value === void 0) throw new Error(`where ${a} ${op}: the value is undefined`);
  if (op === "in" || op === "not in") {
    if (isQuery(value)) return { "~cond": "op", field: a, op, value: checkSubquery(value, `where ${a} ${op}`) };
    if (!Array.isArray(value)) throw new Error(`where ${a} ${op}: the value must be an array or a one-column subquery`);
  }
  if (value === null) throw new Error(`where ${a} ${op} null: use 'is null' / 'is not null'`);
  if (op.endsWith("like")) return { "~cond": "op", field: a, op, value: likePattern(a, op, value) };
  return { "~cond": "op", field: a, op, value };
}
function checkSubquery(q, what) {
  const columns2 = q.select?.length ?? (q.selectAs ? Object.keys(q.selectAs).length : 0);
  if (columns2 !== 1 || q.count)
    throw new Error(`${what}: the subquery must select exactly one column (select(q, ['id']))`);
  if (q.lock) throw new Error(`${what}: a subquery cannot lock rows`);
  return q;
}
function clausesCond(clauses) {
  const conds = [];
  for (const field of Object.keys(clauses)) {
    const value = clauses[field];
    if (value === void 0) throw new Error(`where { ${field}: undefined }: a value is missing (use null for IS NULL)`);
    conds.push(
      value === null ? { "~cond": "op", field, op: "is null", value: void 0 } : Array.isArray(value) ? { "~cond": "op", field, op: "in", value } : { "~cond": "op", field, op: "=", value }
    );
  }
  return conds.length === 1 ? conds[0] : { "~cond": "and", conds };
}
function checkRef(q, ref) {
  resolveRef(q.schema, q.joins, ref);
  return ref;
}
function checkCond(q, c) {
  if (c["~cond"] === "op") checkRef(q, c.field);
  else if (c["~cond"] === "not") checkCond(q, c.cond);
  else if (c["~cond"] === "exists") {
    if (c.correlate) checkRef(q, c.correlate[0]);
  } else for (const x of c.conds) checkCond(q, x);
}
function where(q, a, op, value) {
  const c = typeof a === "string" ? cond(a, op, value) : isCond(a) ? a : clausesCond(a);
  checkCond(q, c);
  return { ...q, where: [...q.where, c] };
}
function isCond(value) {
  return Object.hasOwn(value, "~cond");
}
function orderBy(q, ...terms) {
  const flat = [];
  const check = (f) => typeof f === "string" && q.selectAs && Object.hasOwn(q.selectAs, f) ? f : checkRef(q, f);
  const add = (t) => {
    if (typeof t === "string") return void flat.push([check(t), "asc"]);
    if (!Array.isArray(t)) throw new Error(`orderBy: ${JSON.stringify(t)} is not a field or [field, direction]`);
    if (t.length === 2 && typeof t[0] === "string" && (t[1] === "asc" || t[1] === "desc")) {
      return void flat.push([check(t[0]), t[1]]);
    }
    for (const x of t) add(x);
  };
  for (const t of terms) add(t);
  return { ...q, orderBy: [...q.orderBy, ...flat] };
}
function count0(n, what) {
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
    throw new Error(`${what} must be a non-negative integer, got ${String(n)}`);
  return n;
}
function limit(q, n) {
  return { ...q, limit: count0(n, "limit") };
}
function checkAggregateIn(q, a) {
  const refs = refsOf(a);
  checkAggregate(
    a,
    refs.map((r) => resolveRef(q.schema, q.joins, r).field),
    refs
  );
}
function select(q, spec) {
  if (Array.isArray(spec)) {
    if (spec.length === 0) throw new Error("select: give at least one field");
    for (const f of spec) checkRef(q, f);
    return { ...q, select: [...spec], selectAs: void 0 };
  }
  if (typeof spec !== "object" || spec === null)
    throw new Error("select: give a list of fields or { name: field | aggregate }");
  const names = Object.keys(spec);
  if (names.length === 0) throw new Error("select: give at least one field");
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new Error(`select: output name ${JSON.stringify(name)} must be letters, digits and _`);
    const v = spec[name];
    if (isAggregate(v)) checkAggregateIn(q, v);
    else checkRef(q, v);
  }
  return { ...q, select: void 0, selectAs: { ...spec } };
}
function count(a, opts) {
  if (isQuery(a)) return { ...a, count: true };
  if (a !== void 0 && typeof a !== "string") throw new Error("count: give a query, a field, or nothing");
  return countAggregate(a, opts);
}
var ops;
var init_query = __esm({
  "../vela-old/dbl/query.ts"() {
    "use strict";
    init_query_aggregate();
    init_query_paths();
    ops = /* @__PURE__ */ new Set([
      "=",
      "!=",
      "<>",
      "<",
      "<=",
      ">",
      ">=",
      "like",
      "not like",
      "ilike",
      "not ilike",
      "in",
      "not in",
      "is null",
      "is not null"
    ]);
  }
});

// ../vela-old/dbl/query-join.ts
function addJoin(q, path3, kind) {
  if (typeof path3 !== "string" || path3 === "")
    throw new Error(`join: ${JSON.stringify(path3)} is not an association path`);
  const segments = path3.split(".");
  let joins = q.joins;
  for (let i = 1; i <= segments.length; i++) {
    const p = segments.slice(0, i).join(".");
    const existing = joins.find((j) => j.path === p);
    if (existing) {
      if (i === segments.length && existing.kind !== kind)
        throw new Error(`join ${path3}: already joined as ${existing.kind === "left" ? "leftJoin" : "join"}`);
      continue;
    }
    const { assoc, through } = resolveJoinPath(q.schema, joins, p);
    const spec = { path: p, kind, assoc, through };
    joins = [...joins, spec];
  }
  return { ...q, joins };
}
function join(q, path3) {
  return addJoin(q, path3, "inner");
}
function groupBy(q, fields) {
  if (!Array.isArray(fields) || fields.length === 0) throw new Error("groupBy: give at least one field");
  for (const f of fields) checkRef(q, f);
  return { ...q, groupBy: [...q.groupBy, ...fields] };
}
var init_query_join = __esm({
  "../vela-old/dbl/query-join.ts"() {
    "use strict";
    init_query_paths();
    init_query();
  }
});

// ../vela-old/dbl/multi.ts
var init_multi = __esm({
  "../vela-old/dbl/multi.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/deadlines.ts
var DEFAULT_DEADLINES, keys;
var init_deadlines = __esm({
  "../vela-old/dbl/deadlines.ts"() {
    "use strict";
    DEFAULT_DEADLINES = {
      connectTimeoutMs: 5e3,
      acquireTimeoutMs: 5e3,
      statementTimeoutMs: 3e4,
      idleTimeoutMs: 1e4
    };
    keys = Object.keys(DEFAULT_DEADLINES);
  }
});

// ../vela-old/dbl/unavailable.ts
var init_unavailable = __esm({
  "../vela-old/dbl/unavailable.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/adapters/pg.ts
import pg from "pg";
var NO_ANSWER_DEADLINE;
var init_pg = __esm({
  "../vela-old/dbl/adapters/pg.ts"() {
    "use strict";
    init_deadlines();
    init_unavailable();
    pg.types.setTypeParser(20, (v) => Number(v));
    pg.types.setTypeParser(1082, (v) => v);
    NO_ANSWER_DEADLINE = 2 ** 31 - 1;
  }
});

// ../vela-old/dbl/db-error.ts
var DbError;
var init_db_error = __esm({
  "../vela-old/dbl/db-error.ts"() {
    "use strict";
    DbError = class extends Error {
      kind = "db_error";
      code;
      constraintKind;
      constraint;
      table;
      column;
      detail;
      /** 400 for a value the database refused (SQLSTATE class 22), else 500. */
      status;
      /** Whether a client may see `message`: only for the 400s, which describe the value it sent. */
      expose;
      constructor(fields) {
        super(fields.message);
        this.code = fields.code;
        this.constraintKind = fields.constraintKind;
        this.constraint = fields.constraint;
        this.table = fields.table;
        this.column = fields.column;
        this.detail = fields.detail;
        this.status = fields.code?.startsWith("22") ? 400 : 500;
        this.expose = this.status === 400;
      }
      /** The fields as a plain object (what JSON bodies and logs of `{ ok: false, error }` show). */
      toJSON() {
        const { kind, code, message, constraintKind, constraint, table: table2, column, detail } = this;
        return { kind, code, message, constraintKind, constraint, table: table2, column, detail };
      }
    };
    Object.defineProperty(DbError.prototype, "name", { value: "DbError", writable: true, configurable: true });
  }
});

// ../vela-old/dbl/repo/start.ts
var init_start = __esm({
  "../vela-old/dbl/repo/start.ts"() {
    "use strict";
    init_db_error();
    init_unavailable();
  }
});

// ../vela-old/dbl/adapters/pglite-template.ts
import { PGlite } from "@electric-sql/pglite";
var init_pglite_template = __esm({
  "../vela-old/dbl/adapters/pglite-template.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/adapters/turns.ts
var init_turns = __esm({
  "../vela-old/dbl/adapters/turns.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/adapters/pglite.ts
import { types } from "@electric-sql/pglite";
var parsers;
var init_pglite = __esm({
  "../vela-old/dbl/adapters/pglite.ts"() {
    "use strict";
    init_deadlines();
    init_unavailable();
    init_pglite_template();
    init_turns();
    parsers = {
      [types.INT8]: (v) => Number(v),
      [types.DATE]: (v) => v
    };
  }
});

// ../vela-old/dbl/query-compile.ts
var query_compile_exports = {};
__export(query_compile_exports, {
  compileDeleteAll: () => compileDeleteAll,
  compileSelect: () => compileSelect,
  compileUpdateAll: () => compileUpdateAll
});
function fieldOf(q, ref) {
  return ref.indexOf(".") < 0 && q.schema.fieldsByName[ref] || resolveRef(q.schema, q.joins, ref).field;
}
function walk(q, c, values) {
  switch (c["~cond"]) {
    case "op":
      if (c.op === "is null" || c.op === "is not null") return `${c.field} ${c.op}`;
      if (isQuery(c.value)) return `${c.field} ${c.op} (${queryKey(c.value, values)})`;
      {
        const field = fieldOf(q, c.field);
        values.push(
          Array.isArray(c.value) && c.op.endsWith("in") ? c.value.map((v) => dumpValue(field, v)) : dumpValue(field, c.value)
        );
      }
      return `${c.field} ${c.op}`;
    case "and":
    case "or":
      return `${c["~cond"]}(${c.conds.map((x) => walk(q, x, values)).join(",")})`;
    case "not":
      return `not(${walk(q, c.cond, values)})`;
    case "exists":
      return `exists(${c.correlate ? c.correlate.join("=") : ""};${queryKey(c.query, values)})`;
  }
}
function scopeOf(q, outer) {
  const used = new Set(outer?.used);
  const alloc = (name) => {
    let a = name;
    for (let i = 2; used.has(a); i++) a = `${name}_${i}`;
    used.add(a);
    return a;
  };
  const root = alloc(q.schema.table);
  const aliases = /* @__PURE__ */ new Map();
  for (const j of q.joins) {
    aliases.set(j.path, alloc(j.path.replaceAll(".", "__")));
    if (j.through) aliases.set(`${j.path}~through`, alloc(`${j.path.replaceAll(".", "__")}__through`));
  }
  const qualify = outer !== void 0 || q.joins.length > 0 || hasSubquery(q.where);
  return { q, root, qualify, aliases, used };
}
function hasSubquery(conds) {
  return conds.some(
    (c) => c["~cond"] === "exists" || c["~cond"] === "op" && isQuery(c.value) ? true : c["~cond"] === "not" ? hasSubquery([c.cond]) : c["~cond"] === "op" ? false : hasSubquery(c.conds)
  );
}
function col(s, ref, qualify = s.qualify) {
  const dot = ref.lastIndexOf(".");
  if (dot < 0) return qualify ? `${s.root}.${ref}` : ref;
  return `${s.aliases.get(ref.slice(0, dot))}.${ref.slice(dot + 1)}`;
}
function tableAs(table2, alias) {
  return alias === table2 ? table2 : { [alias]: table2 };
}
function applyJoins(b, s) {
  for (const j of s.q.joins) {
    const dot = j.path.lastIndexOf(".");
    const parent = dot < 0 ? s.root : s.aliases.get(j.path.slice(0, dot));
    const alias = s.aliases.get(j.path);
    const { assoc } = j;
    const add = (table2, as, left, right) => void (j.kind === "left" ? b.leftJoin(tableAs(table2, as), left, right) : b.innerJoin(tableAs(table2, as), left, right));
    const through = j.through;
    if (through) {
      const t = s.aliases.get(`${j.path}~through`);
      add(through.table, t, `${t}.${through.ownerKey}`, `${parent}.${through.ownerColumn}`);
      add(assoc.related.table, alias, `${alias}.${through.relatedColumn}`, `${t}.${through.relatedKey}`);
    } else if (assoc.kind === "belongsTo")
      add(assoc.related.table, alias, `${alias}.${assoc.related.primaryKey}`, `${parent}.${assoc.foreignKey}`);
    else add(assoc.related.table, alias, `${alias}.${assoc.foreignKey}`, `${parent}.${assoc.owner.primaryKey}`);
  }
}
function valueCount(q, c) {
  const scratch = [];
  walk(q, c, scratch);
  return scratch.length;
}
function apply(b, s, c, useOr, next) {
  const w = useOr ? b.orWhere.bind(b) : b.where.bind(b);
  const raw = (sql, bindings) => void (useOr ? b.orWhereRaw(sql, bindings) : b.whereRaw(sql, bindings));
  switch (c["~cond"]) {
    case "op": {
      const f = col(s, c.field);
      if (c.op === "is null") return void (useOr ? b.orWhereNull(f) : b.whereNull(f));
      if (c.op === "is not null") return void (useOr ? b.orWhereNotNull(f) : b.whereNotNull(f));
      if (isQuery(c.value)) {
        const sub = build(c.value, scopeOf(c.value, s), next, "in");
        if (c.op === "in") return void (useOr ? b.orWhereIn(f, sub) : b.whereIn(f, sub));
        return void (useOr ? b.orWhereNotIn(f, sub) : b.whereNotIn(f, sub));
      }
      const m = marker(next.i++);
      if (c.op === "in") return raw("?? = any(?)", [f, m]);
      if (c.op === "not in") return raw("not (?? = any(?))", [f, m]);
      if (c.op.startsWith("not "))
        return void (useOr ? b.orWhereNot(f, c.op.slice(4), m) : b.whereNot(f, c.op.slice(4), m));
      return void w(f, c.op === "!=" ? "<>" : c.op, m);
    }
    case "and":
    case "or": {
      if (c.conds.length === 0) return raw(c["~cond"] === "and" ? "true" : "false", []);
      const inner = c["~cond"] === "or";
      const local = { i: next.i };
      next.i += valueCount(s.q, c);
      return void w((sub) => {
        for (const x of c.conds) apply(sub, s, x, inner, local);
      });
    }
    case "not": {
      const local = { i: next.i };
      next.i += valueCount(s.q, c);
      const group = (sub) => apply(sub, s, c.cond, false, local);
      return void (useOr ? b.orWhereNot(group) : b.whereNot(group));
    }
    case "exists": {
      const inner = scopeOf(c.query, s);
      const sub = build(c.query, inner, next, "exists");
      if (c.correlate) sub.whereRaw("?? = ??", [col(inner, c.correlate[1]), col(s, c.correlate[0], true)]);
      return void (useOr ? b.orWhereExists(sub) : b.whereExists(sub));
    }
  }
}
function aggregateSql(s, a) {
  if (a.arg === void 0) return { sql: "count(*)", bindings: [] };
  const d2 = a.distinct ? "distinct " : "";
  if (typeof a.arg === "string") return { sql: `${a.fn}(${d2}??)`, bindings: [col(s, a.arg)] };
  return { sql: `${a.fn}(${d2}?? ${a.arg[1]} ??)`, bindings: [col(s, a.arg[0]), col(s, a.arg[2])] };
}
function columns(s) {
  const q = s.q;
  if (q.selectAs) {
    return Object.entries(q.selectAs).map(([name, v]) => {
      if (typeof v === "string") return name === v && !s.qualify ? v : { [name]: col(s, v) };
      const a = aggregateSql(s, v);
      return kx.raw(`${a.sql} as ??`, [...a.bindings, name]);
    });
  }
  if (q.select) return q.select.map((ref) => ref.indexOf(".") < 0 ? col(s, ref) : { [ref]: col(s, ref) });
  const cols = sqlOf(q.schema).columns;
  return s.qualify ? cols.map((c) => `${s.root}.${c}`) : [...cols];
}
function checkLock(q) {
  if (!q.lock) return;
  const aggregates = q.selectAs !== void 0 && Object.values(q.selectAs).some((v) => typeof v !== "string");
  if (q.count || q.distinct || q.groupBy.length || q.having.length || aggregates) {
    throw new Error(
      `lock ${q.lock.mode}: rows of a count, distinct, grouped or aggregate query cannot be locked (lock the rows themselves)`
    );
  }
}
function build(q, s, next, as) {
  checkLock(q);
  const b = kx(tableAs(q.schema.table, s.root));
  const keepColumns = q.distinct || q.groupBy.length > 0 || q.selectAs !== void 0;
  b.select(as === "exists" || q.count && !keepColumns ? kx.raw("1") : columns(s));
  if (q.distinct && as !== "exists") b.distinct();
  applyJoins(b, s);
  for (const c of q.where) apply(b, s, c, false, next);
  if (q.groupBy.length) b.groupBy(q.groupBy.map((f) => col(s, f)));
  for (const h of q.having) {
    const a = aggregateSql(s, h.aggregate);
    b.havingRaw(`${a.sql} ${h.op === "!=" ? "<>" : h.op} ?`, [...a.bindings, marker(next.i++)]);
  }
  if (!q.count && as !== "exists") {
    for (const [f, d2] of q.orderBy) b.orderBy(q.selectAs && Object.hasOwn(q.selectAs, f) ? f : col(s, f), d2);
  }
  if (q.limit !== void 0) b.limit(marker(next.i++));
  if (q.offset !== void 0) b.offset(marker(next.i++));
  if (q.lock) {
    b[lockCalls[q.lock.mode]]();
    if (q.lock.skipLocked) b.skipLocked();
    if (q.lock.noWait) b.noWait();
  }
  return b;
}
function queryKey(q, values) {
  let key = q.schema.table;
  if (q.joins.length) key += ` join ${q.joins.map((j) => `${j.path}:${j.kind}`).join(",")}`;
  if (q.selectAs)
    key += ` as ${Object.entries(q.selectAs).map(([n, v]) => `${n}=${typeof v === "string" ? v : aggregateKey(v)}`).join(",")}`;
  else key += ` ${q.select ? q.select.join(",") : "*"}`;
  key += ` where `;
  for (const c of q.where) key += walk(q, c, values) + ";";
  if (q.groupBy.length) key += ` group ${q.groupBy.join(",")}`;
  if (q.having.length) {
    key += " having ";
    for (const h of q.having) key += `${aggregateKey(h.aggregate)}${h.op};`, values.push(h.value);
  }
  if (q.count) key += " count";
  else if (q.orderBy.length) key += ` order ${q.orderBy.map(([f, d2]) => f + " " + d2).join(",")}`;
  if (q.distinct) key += " distinct";
  if (q.limit !== void 0) key += " limit", values.push(q.limit);
  if (q.offset !== void 0) key += " offset", values.push(q.offset);
  if (q.lock) key += ` ${q.lock.mode}${q.lock.skipLocked ? " skip locked" : ""}${q.lock.noWait ? " nowait" : ""}`;
  return key;
}
function shapeOf(q) {
  if (q.count) return null;
  if (q.selectAs) {
    const numeric3 = Object.entries(q.selectAs).filter(
      ([, v]) => typeof v !== "string" && (v.fn === "sum" || v.fn === "avg" || (v.fn === "min" || v.fn === "max") && Array.isArray(v.arg))
    ).map(([n]) => n);
    if (numeric3.length === 0) return null;
    return (row) => {
      for (const n of numeric3) if (typeof row[n] === "string") row[n] = Number(row[n]);
      return row;
    };
  }
  const nested2 = (q.select ?? []).filter((r) => r.indexOf(".") >= 0).map((r) => [r, r.split(".")]);
  if (nested2.length === 0) return null;
  const plain = q.select.filter((r) => r.indexOf(".") < 0);
  return (row) => {
    const out = {};
    for (const k of plain) out[k] = row[k];
    for (const [k, path3] of nested2) {
      let o = out;
      for (let i = 0; i < path3.length - 1; i++) o = o[path3[i]] ??= {};
      o[path3[path3.length - 1]] = row[k];
    }
    return out;
  };
}
function compileSelect(q) {
  const values = [];
  const key = `select ${queryKey(q, values)}`;
  const c = compiled(key, () => {
    const b = build(q, scopeOf(q, void 0), { i: 0 }, "top");
    return q.count ? kx.count({ count: "*" }).from(b.as("counted")) : b;
  });
  let shape2 = shapes.get(c);
  if (shape2 === void 0) shapes.set(c, shape2 = shapeOf(q));
  return { sql: c.sql, params: paramsFor(c, values), shape: shape2 ?? void 0 };
}
function checkBulk(q, what) {
  if (q.limit !== void 0 || q.offset !== void 0 || q.orderBy.length || q.select || q.selectAs || q.count || q.joins.length || q.groupBy.length || q.having.length || q.distinct || q.lock) {
    throw new Error(
      `${what}: only where clauses apply (no join, limit, offset, orderBy, select, groupBy, having, distinct, lock or count)`
    );
  }
}
function whereKey(q, values) {
  let key = "";
  for (const c of q.where) key += walk(q, c, values) + ";";
  return key;
}
function applyWheres(b, q, next) {
  const s = scopeOf(q, void 0);
  for (const c of q.where) apply(b, s, c, false, next);
  return b;
}
function compileUpdateAll(q, set) {
  checkBulk(q, "updateAll");
  const fields = Object.keys(set).sort();
  if (fields.length === 0) throw new Error("updateAll: nothing to set");
  const values = fields.map((f) => dumpValue(q.schema.fieldsByName[f], set[f]));
  const key = `update ${q.schema.table} set ${fields.join(",")} where ${whereKey(q, values)}`;
  const c = compiled(key, () => {
    const next = { i: 0 };
    const data = {};
    for (const f of fields) data[f] = marker(next.i++);
    return applyWheres(kx(q.schema.table).update(data), q, next);
  });
  return { sql: c.sql, params: paramsFor(c, values) };
}
function compileDeleteAll(q) {
  checkBulk(q, "deleteAll");
  const values = [];
  const key = `delete ${q.schema.table} where ${whereKey(q, values)}`;
  const c = compiled(key, () => applyWheres(kx(q.schema.table).del(), q, { i: 0 }));
  return { sql: c.sql, params: paramsFor(c, values) };
}
var lockCalls, shapes;
var init_query_compile = __esm({
  "../vela-old/dbl/query-compile.ts"() {
    "use strict";
    init_query_aggregate();
    init_query_paths();
    init_sql();
    init_query();
    lockCalls = {
      "for update": "forUpdate",
      "for no key update": "forNoKeyUpdate",
      "for share": "forShare",
      "for key share": "forKeyShare"
    };
    shapes = /* @__PURE__ */ new WeakMap();
  }
});

// ../vela-old/dbl/repo/context.ts
var init_context = __esm({
  "../vela-old/dbl/repo/context.ts"() {
    "use strict";
    init_db_error();
    init_result();
    init_unavailable();
  }
});

// ../vela-old/dbl/repo/bulk.ts
var init_bulk = __esm({
  "../vela-old/dbl/repo/bulk.ts"() {
    "use strict";
    init_query_compile();
    init_result();
    init_sql();
    init_embedded();
    init_context();
  }
});

// ../vela-old/dbl/repo/transaction.ts
var init_transaction = __esm({
  "../vela-old/dbl/repo/transaction.ts"() {
    "use strict";
    init_result();
  }
});

// ../vela-old/dbl/migrations/columns.ts
var init_columns = __esm({
  "../vela-old/dbl/migrations/columns.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/repo/through-sql.ts
var init_through_sql = __esm({
  "../vela-old/dbl/repo/through-sql.ts"() {
    "use strict";
    init_columns();
    init_sql();
  }
});

// ../vela-old/dbl/repo/links.ts
var init_links = __esm({
  "../vela-old/dbl/repo/links.ts"() {
    "use strict";
    init_changeset();
    init_constraints();
    init_db_error();
    init_columns();
    init_result();
    init_sql();
    init_context();
    init_through_sql();
  }
});

// ../vela-old/dbl/repo/write.ts
var init_write = __esm({
  "../vela-old/dbl/repo/write.ts"() {
    "use strict";
    init_assoc();
    init_changeset();
    init_constraints();
    init_db_error();
    init_result();
    init_sql();
    init_embedded();
    init_context();
    init_links();
    init_transaction();
  }
});

// ../vela-old/dbl/repo/multi.ts
var init_multi2 = __esm({
  "../vela-old/dbl/repo/multi.ts"() {
    "use strict";
    init_result();
    init_transaction();
    init_write();
  }
});

// ../vela-old/dbl/repo/preload-spec.ts
var init_preload_spec = __esm({
  "../vela-old/dbl/repo/preload-spec.ts"() {
    "use strict";
    init_assoc();
  }
});

// ../vela-old/dbl/repo/preload.ts
var init_preload = __esm({
  "../vela-old/dbl/repo/preload.ts"() {
    "use strict";
    init_query();
    init_query_compile();
    init_result();
    init_embedded();
    init_sql();
    init_context();
    init_preload_spec();
    init_through_sql();
  }
});

// ../vela-old/dbl/repo/read.ts
var init_read = __esm({
  "../vela-old/dbl/repo/read.ts"() {
    "use strict";
    init_cast();
    init_query();
    init_query_compile();
    init_result();
    init_sql();
    init_embedded();
    init_context();
  }
});

// ../vela-old/dbl/repo/exists.ts
var init_exists = __esm({
  "../vela-old/dbl/repo/exists.ts"() {
    "use strict";
    init_query_compile();
    init_result();
    init_context();
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/version.mjs
var VERSION;
var init_version = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/version.mjs"() {
    VERSION = "1.10.0";
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/internal/semver.mjs
function _makeCompatibilityCheck(ownVersion) {
  const acceptedVersions = /* @__PURE__ */ new Set([ownVersion]);
  const rejectedVersions = /* @__PURE__ */ new Set();
  const myVersionMatch = ownVersion.match(re);
  if (!myVersionMatch) return () => false;
  const ownVersionParsed = {
    major: +myVersionMatch[1],
    minor: +myVersionMatch[2],
    patch: +myVersionMatch[3],
    prerelease: myVersionMatch[4]
  };
  if (ownVersionParsed.prerelease != null) return function isExactmatch(globalVersion) {
    return globalVersion === ownVersion;
  };
  function _reject(v) {
    rejectedVersions.add(v);
    return false;
  }
  function _accept(v) {
    acceptedVersions.add(v);
    return true;
  }
  return function isCompatible2(globalVersion) {
    if (acceptedVersions.has(globalVersion)) return true;
    if (rejectedVersions.has(globalVersion)) return false;
    const globalVersionMatch = globalVersion.match(re);
    if (!globalVersionMatch) return _reject(globalVersion);
    const globalVersionParsed = {
      major: +globalVersionMatch[1],
      minor: +globalVersionMatch[2],
      patch: +globalVersionMatch[3],
      prerelease: globalVersionMatch[4]
    };
    if (globalVersionParsed.prerelease != null) return _reject(globalVersion);
    if (ownVersionParsed.major !== globalVersionParsed.major) return _reject(globalVersion);
    if (ownVersionParsed.major === 0) {
      if (ownVersionParsed.minor === globalVersionParsed.minor && ownVersionParsed.patch <= globalVersionParsed.patch) return _accept(globalVersion);
      return _reject(globalVersion);
    }
    if (ownVersionParsed.minor <= globalVersionParsed.minor) return _accept(globalVersion);
    return _reject(globalVersion);
  };
}
var re, isCompatible;
var init_semver = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/internal/semver.mjs"() {
    init_version();
    re = /^(\d+)\.(\d+)\.(\d+)(-(.+))?$/;
    isCompatible = _makeCompatibilityCheck(VERSION);
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/internal/global-utils.mjs
function _makeGlobalApi() {
  return Object.defineProperty({}, "version", {
    value: VERSION,
    enumerable: true,
    writable: false,
    configurable: false
  });
}
function registerGlobal(type, instance, diag, allowOverride = false) {
  var _global$GLOBAL_OPENTE;
  const api = _global[GLOBAL_OPENTELEMETRY_API_KEY] = (_global$GLOBAL_OPENTE = _global[GLOBAL_OPENTELEMETRY_API_KEY]) !== null && _global$GLOBAL_OPENTE !== void 0 ? _global$GLOBAL_OPENTE : _makeGlobalApi();
  if (!allowOverride && api[type]) {
    const err4 = /* @__PURE__ */ new Error(`@opentelemetry/api: Attempted duplicate registration of API: ${type}`);
    diag.error(err4.stack || err4.message);
    return false;
  }
  if (api.version !== "1.10.0") {
    const err4 = /* @__PURE__ */ new Error(`@opentelemetry/api: Registration of version v${api.version} for ${type} does not match previously registered API v${VERSION}`);
    diag.error(err4.stack || err4.message);
    return false;
  }
  api[type] = instance;
  diag.debug(`@opentelemetry/api: Registered a global for ${type} v${VERSION}.`);
  return true;
}
function getGlobal(type) {
  const api = _global[GLOBAL_OPENTELEMETRY_API_KEY];
  if (api == null) return;
  if (api !== _compatibleGlobalApi) {
    if (!api.version || !isCompatible(api.version)) return;
    _compatibleGlobalApi = api;
  }
  return api[type];
}
function unregisterGlobal(type, diag) {
  diag.debug(`@opentelemetry/api: Unregistering a global for ${type} v${VERSION}.`);
  const api = _global[GLOBAL_OPENTELEMETRY_API_KEY];
  if (api) delete api[type];
}
var major, GLOBAL_OPENTELEMETRY_API_KEY, _global, _compatibleGlobalApi;
var init_global_utils = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/internal/global-utils.mjs"() {
    init_version();
    init_semver();
    major = VERSION.split(".")[0];
    GLOBAL_OPENTELEMETRY_API_KEY = /* @__PURE__ */ Symbol.for(`opentelemetry.js.api.${major}`);
    _global = typeof globalThis === "object" ? globalThis : typeof self === "object" ? self : typeof window === "object" ? window : typeof global === "object" ? global : {};
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/diag/ComponentLogger.mjs
function logProxy(funcName, namespace, args) {
  const logger = getGlobal("diag");
  if (!logger) return;
  return logger[funcName](namespace, ...args);
}
var DiagComponentLogger;
var init_ComponentLogger = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/diag/ComponentLogger.mjs"() {
    init_global_utils();
    DiagComponentLogger = class {
      constructor(props) {
        this._namespace = props.namespace || "DiagComponentLogger";
      }
      debug(...args) {
        return logProxy("debug", this._namespace, args);
      }
      error(...args) {
        return logProxy("error", this._namespace, args);
      }
      info(...args) {
        return logProxy("info", this._namespace, args);
      }
      warn(...args) {
        return logProxy("warn", this._namespace, args);
      }
      verbose(...args) {
        return logProxy("verbose", this._namespace, args);
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/diag/internal/logLevelLogger.mjs
function createLogLevelDiagLogger(maxLevel, logger) {
  if (maxLevel < 0) maxLevel = 0;
  else if (maxLevel > 9999) maxLevel = 9999;
  logger = logger || {};
  function _filterFunc(funcName, theLevel) {
    const theFunc = logger[funcName];
    if (typeof theFunc === "function" && maxLevel >= theLevel) return theFunc.bind(logger);
    return function() {
    };
  }
  return {
    error: _filterFunc("error", 30),
    warn: _filterFunc("warn", 50),
    info: _filterFunc("info", 60),
    debug: _filterFunc("debug", 70),
    verbose: _filterFunc("verbose", 80)
  };
}
var init_logLevelLogger = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/diag/internal/logLevelLogger.mjs"() {
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/api/diag.mjs
var API_NAME, DiagAPI;
var init_diag = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/api/diag.mjs"() {
    init_global_utils();
    init_ComponentLogger();
    init_logLevelLogger();
    API_NAME = "diag";
    DiagAPI = class DiagAPI2 {
      /** Get the singleton instance of the DiagAPI API */
      static instance() {
        if (!this._instance) this._instance = new DiagAPI2();
        return this._instance;
      }
      /**
      * Private internal constructor
      * @private
      */
      constructor() {
        function _logProxy(funcName) {
          return function(...args) {
            const logger = getGlobal("diag");
            if (!logger) return;
            return logger[funcName](...args);
          };
        }
        const self2 = this;
        const setLogger = (logger, optionsOrLogLevel = { logLevel: 60 }) => {
          var _optionsOrLogLevel$lo;
          if (logger === self2) {
            var _err$stack;
            const err4 = /* @__PURE__ */ new Error("Cannot use diag as the logger for itself. Please use a DiagLogger implementation like ConsoleDiagLogger or a custom implementation");
            self2.error((_err$stack = err4.stack) !== null && _err$stack !== void 0 ? _err$stack : err4.message);
            return false;
          }
          if (typeof optionsOrLogLevel === "number") optionsOrLogLevel = { logLevel: optionsOrLogLevel };
          const oldLogger = getGlobal("diag");
          const newLogger = createLogLevelDiagLogger((_optionsOrLogLevel$lo = optionsOrLogLevel.logLevel) !== null && _optionsOrLogLevel$lo !== void 0 ? _optionsOrLogLevel$lo : 60, logger);
          if (oldLogger && !optionsOrLogLevel.suppressOverrideMessage) {
            var _Error$stack;
            const stack = (_Error$stack = (/* @__PURE__ */ new Error()).stack) !== null && _Error$stack !== void 0 ? _Error$stack : "<failed to generate stacktrace>";
            oldLogger.warn(`Current logger will be overwritten from ${stack}`);
            newLogger.warn(`Current logger will overwrite one already registered from ${stack}`);
          }
          return registerGlobal("diag", newLogger, self2, true);
        };
        self2.setLogger = setLogger;
        self2.disable = () => {
          unregisterGlobal(API_NAME, self2);
        };
        self2.createComponentLogger = (options) => {
          return new DiagComponentLogger(options);
        };
        self2.verbose = _logProxy("verbose");
        self2.debug = _logProxy("debug");
        self2.info = _logProxy("info");
        self2.warn = _logProxy("warn");
        self2.error = _logProxy("error");
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/context/context.mjs
function createContextKey(description) {
  return Symbol.for(description);
}
var ROOT_CONTEXT;
var init_context2 = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/context/context.mjs"() {
    ROOT_CONTEXT = new class BaseContext {
      /**
      * Construct a new context which inherits values from an optional parent context.
      *
      * @param parentContext a context from which to inherit values
      */
      constructor(parentContext) {
        const self2 = this;
        self2._currentContext = parentContext ? new Map(parentContext) : /* @__PURE__ */ new Map();
        self2.getValue = (key) => self2._currentContext.get(key);
        self2.setValue = (key, value) => {
          const context = new BaseContext(self2._currentContext);
          context._currentContext.set(key, value);
          return context;
        };
        self2.deleteValue = (key) => {
          const context = new BaseContext(self2._currentContext);
          context._currentContext.delete(key);
          return context;
        };
      }
    }();
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/invalid-span-constants.mjs
var INVALID_SPANID, INVALID_TRACEID, INVALID_SPAN_CONTEXT;
var init_invalid_span_constants = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/invalid-span-constants.mjs"() {
    INVALID_SPANID = "0000000000000000";
    INVALID_TRACEID = "00000000000000000000000000000000";
    INVALID_SPAN_CONTEXT = {
      traceId: INVALID_TRACEID,
      spanId: INVALID_SPANID,
      traceFlags: 0
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/NonRecordingSpan.mjs
var NonRecordingSpan;
var init_NonRecordingSpan = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/NonRecordingSpan.mjs"() {
    init_invalid_span_constants();
    NonRecordingSpan = class {
      constructor(spanContext = INVALID_SPAN_CONTEXT) {
        this._spanContext = spanContext;
      }
      spanContext() {
        return this._spanContext;
      }
      setAttribute(_key, _value) {
        return this;
      }
      setAttributes(_attributes) {
        return this;
      }
      addEvent(_name, _attributes) {
        return this;
      }
      addLink(_link) {
        return this;
      }
      addLinks(_links) {
        return this;
      }
      setStatus(_status) {
        return this;
      }
      updateName(_name) {
        return this;
      }
      end(_endTime) {
      }
      isRecording() {
        return false;
      }
      recordException(_exception, _time) {
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/spancontext-utils.mjs
function isValidHex(id, length) {
  if (typeof id !== "string" || id.length !== length) return false;
  let r = 0;
  for (let i = 0; i < id.length; i += 4) r += (isHex[id.charCodeAt(i)] | 0) + (isHex[id.charCodeAt(i + 1)] | 0) + (isHex[id.charCodeAt(i + 2)] | 0) + (isHex[id.charCodeAt(i + 3)] | 0);
  return r === length;
}
function isValidTraceId(traceId) {
  return isValidHex(traceId, 32) && traceId !== "00000000000000000000000000000000";
}
function isValidSpanId(spanId) {
  return isValidHex(spanId, 16) && spanId !== "0000000000000000";
}
function isSpanContextValid(spanContext) {
  return isValidTraceId(spanContext.traceId) && isValidSpanId(spanContext.spanId);
}
function wrapSpanContext(spanContext) {
  return new NonRecordingSpan(spanContext);
}
var isHex;
var init_spancontext_utils = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/spancontext-utils.mjs"() {
    init_NonRecordingSpan();
    isHex = new Uint8Array([
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      1,
      1,
      1,
      1,
      1,
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      1,
      1,
      1,
      1,
      1,
      1
    ]);
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/context/NoopContextManager.mjs
var NoopContextManager;
var init_NoopContextManager = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/context/NoopContextManager.mjs"() {
    init_context2();
    NoopContextManager = class {
      active() {
        return ROOT_CONTEXT;
      }
      with(_context, fn, thisArg, ...args) {
        return fn.call(thisArg, ...args);
      }
      bind(_context, target) {
        return target;
      }
      enable() {
        return this;
      }
      disable() {
        return this;
      }
      /** @experimental This API is experimental and may change in minor releases without prior notice. */
      attach(_context) {
        return { dispose() {
        } };
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/api/context.mjs
var API_NAME2, NOOP_CONTEXT_MANAGER, NOOP_TOKEN, ContextAPI;
var init_context3 = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/api/context.mjs"() {
    init_global_utils();
    init_diag();
    init_NoopContextManager();
    API_NAME2 = "context";
    NOOP_CONTEXT_MANAGER = new NoopContextManager();
    NOOP_TOKEN = Object.freeze({ dispose: () => {
    } });
    ContextAPI = class ContextAPI2 {
      /** Empty private constructor prevents end users from constructing a new instance of the API */
      constructor() {
        this._attachUnsupportedWarned = false;
      }
      /** Get the singleton instance of the Context API */
      static getInstance() {
        if (!this._instance) this._instance = new ContextAPI2();
        return this._instance;
      }
      /**
      * Set the current context manager.
      *
      * @returns true if the context manager was successfully registered, else false
      */
      setGlobalContextManager(contextManager) {
        return registerGlobal(API_NAME2, contextManager, DiagAPI.instance());
      }
      /**
      * Get the currently active context
      */
      active() {
        return this._getContextManager().active();
      }
      /**
      * Execute a function with an active context
      *
      * @param context context to be active during function execution
      * @param fn function to execute in a context
      * @param thisArg optional receiver to be used for calling fn
      * @param args optional arguments forwarded to fn
      */
      with(context, fn, thisArg, ...args) {
        return this._getContextManager().with(context, fn, thisArg, ...args);
      }
      /**
      * Bind a context to a target function or event emitter
      *
      * @param context context to bind to the event emitter or function. Defaults to the currently active context
      * @param target function or event emitter to bind
      */
      bind(context, target) {
        return this._getContextManager().bind(context, target);
      }
      /**
      * Imperatively sets `context` as active, returning a {@link ContextManagementToken} whose
      * {@link ContextManagementToken.dispose} restores the previous context.
      *
      * This is a delicate, low-level API - prefer {@link with}/{@link bind}, which
      * restore context automatically. Use `attach` only to bridge callback
      * boundaries that `with` cannot wrap. Call `token.dispose()` when the
      * operation is done.
      *
      * **Caveat for async functions:** If called inside an async function before
      * the first `await`, the context change may leak into the caller's context
      * and remain active there. Prefer {@link with} for async code.
      *
      * Support is best-effort and varies by the active ContextManager (see
      * {@link ContextManager.attach}); if it does not implement `attach`, this logs
      * a warning and returns a no-op token.
      *
      * @param context The Context to attach
      * @returns A {@link ContextManagementToken} whose dispose() restores the previous Context
      * @since 1.10.0
      * @experimental This API is experimental and may change in minor releases without prior notice.
      */
      attach(context) {
        const contextManager = this._getContextManager();
        if (contextManager.attach) return contextManager.attach(context);
        if (!this._attachUnsupportedWarned) {
          this._attachUnsupportedWarned = true;
          DiagAPI.instance().warn("The current ContextManager does not implement attach(). The context will not be attached. Use a ContextManager that supports attach() (e.g. AsyncLocalStorageContextManager) or use with()/bind() instead.");
        }
        return NOOP_TOKEN;
      }
      _getContextManager() {
        return getGlobal(API_NAME2) || NOOP_CONTEXT_MANAGER;
      }
      /** Disable and remove the global context manager */
      disable() {
        this._getContextManager().disable();
        unregisterGlobal(API_NAME2, DiagAPI.instance());
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/context-utils.mjs
function getSpan(context) {
  return context.getValue(SPAN_KEY) || void 0;
}
function getActiveSpan() {
  return getSpan(ContextAPI.getInstance().active());
}
function setSpan(context, span) {
  return context.setValue(SPAN_KEY, span);
}
function deleteSpan(context) {
  return context.deleteValue(SPAN_KEY);
}
function setSpanContext(context, spanContext) {
  return setSpan(context, new NonRecordingSpan(spanContext));
}
function getSpanContext(context) {
  var _getSpan;
  return (_getSpan = getSpan(context)) === null || _getSpan === void 0 ? void 0 : _getSpan.spanContext();
}
var SPAN_KEY;
var init_context_utils = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/context-utils.mjs"() {
    init_context2();
    init_context3();
    init_NonRecordingSpan();
    SPAN_KEY = createContextKey("OpenTelemetry Context Key SPAN");
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/NoopTracer.mjs
function isSpanContext(spanContext) {
  return spanContext !== null && typeof spanContext === "object" && "spanId" in spanContext && typeof spanContext["spanId"] === "string" && "traceId" in spanContext && typeof spanContext["traceId"] === "string" && "traceFlags" in spanContext && typeof spanContext["traceFlags"] === "number";
}
var contextApi, NoopTracer;
var init_NoopTracer = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/NoopTracer.mjs"() {
    init_context3();
    init_NonRecordingSpan();
    init_context_utils();
    init_spancontext_utils();
    contextApi = ContextAPI.getInstance();
    NoopTracer = class {
      startSpan(name, options, context = contextApi.active()) {
        if (Boolean(options === null || options === void 0 ? void 0 : options.root)) return new NonRecordingSpan();
        const parentFromContext = context && getSpanContext(context);
        if (isSpanContext(parentFromContext) && isSpanContextValid(parentFromContext)) return new NonRecordingSpan(parentFromContext);
        else return new NonRecordingSpan();
      }
      startActiveSpan(name, arg2, arg3, arg4) {
        var _ctx;
        let opts;
        let ctx;
        let fn;
        if (arguments.length < 2) return;
        else if (arguments.length === 2) fn = arg2;
        else if (arguments.length === 3) {
          opts = arg2;
          fn = arg3;
        } else {
          opts = arg2;
          ctx = arg3;
          fn = arg4;
        }
        const parentContext = (_ctx = ctx) !== null && _ctx !== void 0 ? _ctx : contextApi.active();
        const span = this.startSpan(name, opts, parentContext);
        const contextWithSpanSet = setSpan(parentContext, span);
        return contextApi.with(contextWithSpanSet, fn, void 0, span);
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/ProxyTracer.mjs
var NOOP_TRACER, ProxyTracer;
var init_ProxyTracer = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/ProxyTracer.mjs"() {
    init_NoopTracer();
    NOOP_TRACER = new NoopTracer();
    ProxyTracer = class {
      constructor(provider, name, version, options) {
        this._provider = provider;
        this.name = name;
        this.version = version;
        this.options = options;
      }
      startSpan(name, options, context) {
        return this._getTracer().startSpan(name, options, context);
      }
      startActiveSpan(_name, _options, _context, _fn) {
        const tracer = this._getTracer();
        return Reflect.apply(tracer.startActiveSpan, tracer, arguments);
      }
      /**
      * Try to get a tracer from the proxy tracer provider.
      * If the proxy tracer provider has no delegate, return a noop tracer.
      */
      _getTracer() {
        if (this._delegate) return this._delegate;
        const tracer = this._provider.getDelegateTracer(this.name, this.version, this.options);
        if (!tracer) return NOOP_TRACER;
        this._delegate = tracer;
        return this._delegate;
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/span_kind.mjs
var SpanKind;
var init_span_kind = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/span_kind.mjs"() {
    SpanKind = /* @__PURE__ */ (function(SpanKind2) {
      SpanKind2[SpanKind2["INTERNAL"] = 0] = "INTERNAL";
      SpanKind2[SpanKind2["SERVER"] = 1] = "SERVER";
      SpanKind2[SpanKind2["CLIENT"] = 2] = "CLIENT";
      SpanKind2[SpanKind2["PRODUCER"] = 3] = "PRODUCER";
      SpanKind2[SpanKind2["CONSUMER"] = 4] = "CONSUMER";
      return SpanKind2;
    })({});
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/status.mjs
var SpanStatusCode;
var init_status = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/status.mjs"() {
    SpanStatusCode = /* @__PURE__ */ (function(SpanStatusCode2) {
      SpanStatusCode2[SpanStatusCode2["UNSET"] = 0] = "UNSET";
      SpanStatusCode2[SpanStatusCode2["OK"] = 1] = "OK";
      SpanStatusCode2[SpanStatusCode2["ERROR"] = 2] = "ERROR";
      return SpanStatusCode2;
    })({});
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/NoopTracerProvider.mjs
var NoopTracerProvider;
var init_NoopTracerProvider = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/NoopTracerProvider.mjs"() {
    init_NoopTracer();
    NoopTracerProvider = class {
      getTracer(_name, _version, _options) {
        return new NoopTracer();
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/ProxyTracerProvider.mjs
var NOOP_TRACER_PROVIDER, ProxyTracerProvider;
var init_ProxyTracerProvider = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace/ProxyTracerProvider.mjs"() {
    init_ProxyTracer();
    init_NoopTracerProvider();
    NOOP_TRACER_PROVIDER = new NoopTracerProvider();
    ProxyTracerProvider = class {
      /**
      * Get a {@link ProxyTracer}
      */
      getTracer(name, version, options) {
        var _this$getDelegateTrac;
        return (_this$getDelegateTrac = this.getDelegateTracer(name, version, options)) !== null && _this$getDelegateTrac !== void 0 ? _this$getDelegateTrac : new ProxyTracer(this, name, version, options);
      }
      getDelegate() {
        var _this$_delegate;
        return (_this$_delegate = this._delegate) !== null && _this$_delegate !== void 0 ? _this$_delegate : NOOP_TRACER_PROVIDER;
      }
      /**
      * Set the delegate tracer provider
      */
      setDelegate(delegate) {
        this._delegate = delegate;
      }
      getDelegateTracer(name, version, options) {
        var _this$_delegate2;
        return (_this$_delegate2 = this._delegate) === null || _this$_delegate2 === void 0 ? void 0 : _this$_delegate2.getTracer(name, version, options);
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/api/trace.mjs
var API_NAME3, TraceAPI;
var init_trace = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/api/trace.mjs"() {
    init_global_utils();
    init_diag();
    init_context_utils();
    init_spancontext_utils();
    init_ProxyTracerProvider();
    API_NAME3 = "trace";
    TraceAPI = class TraceAPI2 {
      /** Empty private constructor prevents end users from constructing a new instance of the API */
      constructor() {
        this._proxyTracerProvider = new ProxyTracerProvider();
        this.wrapSpanContext = wrapSpanContext;
        this.isSpanContextValid = isSpanContextValid;
        this.deleteSpan = deleteSpan;
        this.getSpan = getSpan;
        this.getActiveSpan = getActiveSpan;
        this.getSpanContext = getSpanContext;
        this.setSpan = setSpan;
        this.setSpanContext = setSpanContext;
      }
      /** Get the singleton instance of the Trace API */
      static getInstance() {
        if (!this._instance) this._instance = new TraceAPI2();
        return this._instance;
      }
      /**
      * Set the current global tracer.
      *
      * @returns true if the tracer provider was successfully registered, else false
      */
      setGlobalTracerProvider(provider) {
        const success = registerGlobal(API_NAME3, this._proxyTracerProvider, DiagAPI.instance());
        if (success) this._proxyTracerProvider.setDelegate(provider);
        return success;
      }
      /**
      * Returns the global tracer provider.
      */
      getTracerProvider() {
        return getGlobal(API_NAME3) || this._proxyTracerProvider;
      }
      /**
      * Returns a tracer from the global tracer provider.
      */
      getTracer(name, version) {
        return this.getTracerProvider().getTracer(name, version);
      }
      /** Remove the global tracer provider */
      disable() {
        unregisterGlobal(API_NAME3, DiagAPI.instance());
        this._proxyTracerProvider = new ProxyTracerProvider();
      }
    };
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace-api.mjs
var trace;
var init_trace_api = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/trace-api.mjs"() {
    init_trace();
    trace = TraceAPI.getInstance();
  }
});

// ../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/index.mjs
var init_dist = __esm({
  "../../work/wt-dbl-chains/node_modules/@opentelemetry/api/dist/index.mjs"() {
    init_span_kind();
    init_status();
    init_ProxyTracerProvider();
    init_trace_api();
  }
});

// ../vela-old/dbl/repo/query-recorder.ts
var init_query_recorder = __esm({
  "../vela-old/dbl/repo/query-recorder.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/repo/telemetry.ts
var noopProvider;
var init_telemetry = __esm({
  "../vela-old/dbl/repo/telemetry.ts"() {
    "use strict";
    init_dist();
    init_query_recorder();
    noopProvider = new ProxyTracerProvider().getDelegate();
  }
});

// ../vela-old/dbl/repo.ts
var init_repo = __esm({
  "../vela-old/dbl/repo.ts"() {
    "use strict";
    init_pg();
    init_deadlines();
    init_start();
    init_pglite();
    init_result();
    init_bulk();
    init_context();
    init_multi2();
    init_preload();
    init_record_origin();
    init_read();
    init_exists();
    init_telemetry();
    init_transaction();
    init_write();
    init_changeset();
  }
});

// ../vela-old/dbl/migrations/operations.ts
var init_operations = __esm({
  "../vela-old/dbl/migrations/operations.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/migrations/ddl.ts
var init_ddl = __esm({
  "../vela-old/dbl/migrations/ddl.ts"() {
    "use strict";
    init_columns();
  }
});

// ../vela-old/dbl/migrations/migrator.ts
var init_migrator = __esm({
  "../vela-old/dbl/migrations/migrator.ts"() {
    "use strict";
    init_ddl();
  }
});

// ../vela-old/dbl/migrations/load.ts
var init_load = __esm({
  "../vela-old/dbl/migrations/load.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/migrations/foreign-keys.ts
var init_foreign_keys = __esm({
  "../vela-old/dbl/migrations/foreign-keys.ts"() {
    "use strict";
    init_columns();
  }
});

// ../vela-old/dbl/migrations/join-tables.ts
var init_join_tables = __esm({
  "../vela-old/dbl/migrations/join-tables.ts"() {
    "use strict";
    init_schema();
    init_columns();
    init_foreign_keys();
  }
});

// ../vela-old/dbl/migrations/model.ts
var init_model = __esm({
  "../vela-old/dbl/migrations/model.ts"() {
    "use strict";
    init_assoc();
    init_columns();
    init_foreign_keys();
    init_join_tables();
  }
});

// ../vela-old/dbl/migrations/table-order.ts
var init_table_order = __esm({
  "../vela-old/dbl/migrations/table-order.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/migrations/decisions.ts
var init_decisions = __esm({
  "../vela-old/dbl/migrations/decisions.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/migrations/diff.ts
var init_diff = __esm({
  "../vela-old/dbl/migrations/diff.ts"() {
    "use strict";
    init_columns();
    init_foreign_keys();
    init_model();
    init_operations();
    init_table_order();
    init_decisions();
    init_decisions();
  }
});

// ../vela-old/dbl/migrations/render.ts
var init_render = __esm({
  "../vela-old/dbl/migrations/render.ts"() {
    "use strict";
  }
});

// ../vela-old/dbl/migrations/generate.ts
var init_generate = __esm({
  "../vela-old/dbl/migrations/generate.ts"() {
    "use strict";
    init_diff();
    init_load();
    init_model();
    init_render();
  }
});

// ../vela-old/dbl/index.ts
var init_dbl = __esm({
  "../vela-old/dbl/index.ts"() {
    "use strict";
    init_schema();
    init_result();
    init_changeset();
    init_validations();
    init_embedded();
    init_optimistic_lock();
    init_constraints();
    init_assoc();
    init_query();
    init_query_join();
    init_query_aggregate();
    init_multi();
    init_repo();
    init_db_error();
    init_unavailable();
    init_deadlines();
    init_pg();
    init_pglite();
    init_operations();
    init_migrator();
    init_load();
    init_generate();
    init_diff();
  }
});

// ../vela-old/bench/dbl/queries.ts
var queries_exports = {};
__export(queries_exports, {
  Customer: () => Customer,
  JOIN_SQL: () => JOIN_SQL,
  LineItem: () => LineItem,
  QUERY_DDL: () => QUERY_DDL,
  QUERY_SEED: () => QUERY_SEED,
  SUMMARY_SQL: () => SUMMARY_SQL,
  WorkOrder: () => WorkOrder,
  knexJoin: () => knexJoin,
  knexSummary: () => knexSummary,
  velaJoin: () => velaJoin,
  velaSummary: () => velaSummary
});
var Customer, LineItem, WorkOrder, QUERY_DDL, QUERY_SEED, velaJoin, velaSummary, knexJoin, knexSummary, JOIN_SQL, SUMMARY_SQL;
var init_queries = __esm({
  "../vela-old/bench/dbl/queries.ts"() {
    "use strict";
    init_dbl();
    Customer = defineSchema({
      table: "customers",
      fields: {
        id: "id",
        name: { type: "string", nullable: false },
        tier: { type: { enum: ["free", "pro"] }, nullable: false }
      },
      associations: { work_orders: hasMany(() => WorkOrder) }
    });
    LineItem = defineSchema({
      table: "order_lines",
      fields: {
        id: "id",
        work_order_id: { type: "integer", nullable: false },
        quantity: { type: "integer", nullable: false },
        unit_price: { type: "integer", nullable: false }
      }
    });
    WorkOrder = defineSchema({
      table: "orders",
      fields: {
        id: "id",
        title: { type: "string", nullable: false },
        status: { type: { enum: ["open", "done"] }, nullable: false },
        customer_id: { type: "integer", nullable: false }
      },
      associations: {
        customer: belongsTo(() => Customer),
        line_items: hasMany(() => LineItem, { foreignKey: "work_order_id" })
      }
    });
    QUERY_DDL = `create table if not exists customers (id bigserial primary key, name varchar(255) not null, tier varchar(255) not null);
create table if not exists orders (id bigserial primary key, title varchar(255) not null, status varchar(255) not null, customer_id integer not null references customers(id));
create index if not exists orders_customer_id_index on orders (customer_id);
create table if not exists order_lines (id bigserial primary key, work_order_id integer not null references orders(id), quantity integer not null, unit_price integer not null);
create index if not exists order_lines_work_order_id_index on order_lines (work_order_id)`;
    QUERY_SEED = `insert into customers (name, tier) select 'Customer ' || i, case when i % 2 = 0 then 'pro' else 'free' end from generate_series(1, 50) i;
insert into orders (title, status, customer_id) select 'Order ' || i, case when i % 3 = 0 then 'done' else 'open' end, 1 + i % 50 from generate_series(1, 500) i;
insert into order_lines (work_order_id, quantity, unit_price) select 1 + i % 500, 1 + i % 5, 100 + i % 700 from generate_series(1, 1500) i`;
    velaJoin = (tier) => select(limit(orderBy(where(join(from(WorkOrder), "customer"), "customer.tier", "=", tier), "id"), 50), [
      "id",
      "title",
      "status",
      "customer.name"
    ]);
    velaSummary = (status3) => orderBy(
      select(groupBy(join(where(from(WorkOrder), "status", "=", status3), "line_items"), ["customer_id"]), {
        customer_id: "customer_id",
        orders: count("id", { distinct: true }),
        total: sum(["line_items.quantity", "*", "line_items.unit_price"])
      }),
      "customer_id"
    );
    knexJoin = (k, tier) => k("orders").join("customers", "customers.id", "orders.customer_id").where("customers.tier", tier).orderBy("orders.id").limit(50).select("orders.id", "orders.title", "orders.status", "customers.name");
    knexSummary = (k, status3) => k("orders").join("order_lines", "order_lines.work_order_id", "orders.id").where("orders.status", status3).groupBy("orders.customer_id").orderBy("orders.customer_id").select(
      "orders.customer_id",
      k.raw("count(distinct ??) as ??", ["orders.id", "orders"]),
      k.raw("sum(?? * ??) as ??", ["order_lines.quantity", "order_lines.unit_price", "total"])
    );
    JOIN_SQL = 'select "orders"."id", "orders"."title", "orders"."status", "customer"."name" as "customer.name" from "orders" inner join "customers" as "customer" on "customer"."id" = "orders"."customer_id" where "customer"."tier" = $1 order by "orders"."id" asc limit $2';
    SUMMARY_SQL = 'select "orders"."customer_id" as "customer_id", count(distinct "orders"."id") as "orders", sum("line_items"."quantity" * "line_items"."unit_price") as "total" from "orders" inner join "order_lines" as "line_items" on "line_items"."work_order_id" = "orders"."id" where "orders"."status" = $1 group by "orders"."customer_id" order by "orders"."customer_id" asc';
  }
});

// ../../work/wt-dbl-chains/dbl/inflect.ts
function singularize2(plural) {
  const cut = plural.lastIndexOf("_") + 1;
  const head = plural.slice(0, cut);
  const word = plural.slice(cut);
  const one3 = (s) => head + s;
  if (UNCOUNTABLE2.has(word)) return plural;
  if (Object.hasOwn(IRREGULAR2, word)) return one3(IRREGULAR2[word]);
  if (SINGULAR_OF_IRREGULAR2.has(word) || /(ss|is)$/.test(word) || !word.endsWith("s") || word === "s") return void 0;
  if (/[^aeiou]ies$/.test(word)) return one3(`${word.slice(0, -3)}y`);
  if (/(x|ch|sh|ss|zz)es$/.test(word)) return one3(word.slice(0, -2));
  return one3(word.slice(0, -1));
}
var IRREGULAR2, UNCOUNTABLE2, SINGULAR_OF_IRREGULAR2;
var init_inflect2 = __esm({
  "../../work/wt-dbl-chains/dbl/inflect.ts"() {
    "use strict";
    IRREGULAR2 = {
      people: "person",
      children: "child",
      men: "man",
      women: "woman",
      mice: "mouse",
      movies: "movie",
      cookies: "cookie",
      zombies: "zombie",
      calories: "calorie",
      caches: "cache",
      statuses: "status",
      buses: "bus",
      viruses: "virus",
      bonuses: "bonus",
      campuses: "campus",
      analyses: "analysis",
      crises: "crisis",
      theses: "thesis",
      quizzes: "quiz",
      heroes: "hero",
      leaves: "leaf",
      knives: "knife",
      lives: "life",
      wives: "wife",
      halves: "half",
      shelves: "shelf",
      wolves: "wolf"
    };
    UNCOUNTABLE2 = /* @__PURE__ */ new Set([
      "news",
      "series",
      "species",
      "data",
      "metadata",
      "media",
      "equipment",
      "information",
      "feedback",
      "staff",
      "sheep",
      "fish",
      "deer"
    ]);
    SINGULAR_OF_IRREGULAR2 = new Set(Object.values(IRREGULAR2));
  }
});

// ../../work/wt-dbl-chains/dbl/schema.ts
function belongsTo2(schema, opts = {}) {
  return { kind: "belongsTo", schema, ...opts };
}
function hasOne2(schema, opts = {}) {
  return { kind: "hasOne", schema, ...opts };
}
function hasMany2(schema, opts = {}) {
  return { kind: "hasMany", schema, ...opts };
}
function manyToMany2(schema, opts) {
  if (typeof opts?.joinThrough !== "string" || opts.joinThrough === "")
    throw new Error('manyToMany: give the join table as { joinThrough: "<table>" }');
  if (opts.joinKeys !== void 0 && !(opts.joinKeys.length === 2 && opts.joinKeys.every((k) => typeof k === "string" && k !== "") && opts.joinKeys[0] !== opts.joinKeys[1])) {
    throw new Error(`manyToMany ${opts.joinThrough}: joinKeys must be two different column names`);
  }
  return { kind: "manyToMany", schema, ...opts };
}
function joinThroughOf2(owner, name) {
  const a = owner.associations[name];
  if (a?.kind !== "manyToMany" || !a.joinThrough)
    throw new Error(`schema ${owner.table} has no manyToMany association "${name}"`);
  const related = a.schema();
  const ownerKey = foreignKeyOf2(owner, name, a);
  const relatedKey = a.joinKeys?.[1] ?? `${singularize2(related.table) ?? related.table}_id`;
  if (ownerKey === relatedKey) {
    throw new Error(
      `association ${owner.table}.${name}: both join keys would be "${ownerKey}"; give joinKeys: ['<column for ${owner.table}>', '<column for ${related.table}>']`
    );
  }
  return {
    table: a.joinThrough,
    ownerKey,
    relatedKey,
    ownerColumn: owner.primaryKey,
    relatedColumn: related.primaryKey,
    related,
    onDelete: a.onDelete ?? "cascade"
  };
}
function foreignKeyOf2(owner, name, a) {
  if (a.kind === "manyToMany" && a.joinKeys) return a.joinKeys[0];
  if (a.foreignKey !== void 0) return a.foreignKey;
  return a.kind === "belongsTo" ? `${name}_id` : `${singularize2(owner.table) ?? owner.table}_id`;
}
function defineSchema2(def) {
  const fields = Object.entries(def.fields).map(([name, spec]) => normaliseField2(name, spec));
  const embedded = def.embedded ?? false;
  const primaryKey = def.primaryKey ?? fields.find((f) => f.primaryKey)?.name ?? (embedded ? "" : "id");
  const byName = {};
  for (const f of fields) {
    const isPk = f.name === primaryKey;
    byName[f.name] = isPk ? { ...f, primaryKey: true, nullable: false } : f;
  }
  if (primaryKey !== "" && !byName[primaryKey])
    throw new Error(`schema ${def.table}: primary key "${primaryKey}" is not one of its fields`);
  if (byName[primaryKey]?.virtual)
    throw new Error(`schema ${def.table}: the primary key "${primaryKey}" cannot be virtual`);
  if (embedded && (def.indexes?.length || Object.keys(def.associations ?? {}).length)) {
    throw new Error(`schema ${def.table} is embedded: it has no table, so no indexes or associations`);
  }
  const indexes = (def.indexes ?? []).map((ix) => ({
    columns: ix.columns,
    unique: ix.unique ?? false,
    name: ix.name ?? `${def.table}_${ix.columns.join("_")}_index`
  }));
  for (const ix of indexes) {
    for (const c of ix.columns) {
      if (!byName[c] || byName[c].virtual)
        throw new Error(`schema ${def.table}: index ${ix.name} names unknown field "${c}"`);
    }
  }
  return {
    kind: "vela.schema",
    table: def.table,
    primaryKey,
    fields: fields.map((f) => byName[f.name]),
    fieldsByName: byName,
    associations: def.associations ?? {},
    indexes,
    embedded
  };
}
function normaliseField2(name, spec) {
  const opts = typeof spec === "string" || !("type" in spec) ? { type: spec } : spec;
  const primaryKey = opts.primaryKey ?? false;
  return {
    name,
    type: opts.type,
    primaryKey,
    nullable: opts.nullable ?? !(primaryKey || opts.type === "id"),
    default: opts.default,
    size: opts.size,
    renamedFrom: opts.renamedFrom,
    virtual: opts.virtual ?? false
  };
}
function timestamps2() {
  return { inserted_at: "utc_datetime", updated_at: "utc_datetime" };
}
var init_schema2 = __esm({
  "../../work/wt-dbl-chains/dbl/schema.ts"() {
    "use strict";
    init_inflect2();
  }
});

// ../../work/wt-dbl-chains/dbl/cast.ts
function integer(min3, max3) {
  return (v) => {
    const n = typeof v === "number" ? v : typeof v === "string" && intPattern.test(v) ? Number(v) : NaN;
    return Number.isSafeInteger(n) && n >= min3 && n <= max3 ? n : INVALID2;
  };
}
function validCalendarDate(y, m, d2) {
  if (m < 1 || m > 12 || d2 < 1) return false;
  return d2 <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}
function jsonText2(value) {
  let faithful = true;
  let text;
  try {
    text = JSON.stringify(value, function(key, v) {
      if (key.includes("\0")) faithful = false;
      else if (v === void 0) faithful &&= !(Array.isArray(this) || key === "");
      else if (typeof v === "function" || typeof v === "symbol" || typeof v === "bigint") faithful = false;
      else if (typeof v === "number") faithful &&= Number.isFinite(v);
      else if (typeof v === "string") faithful &&= !v.includes("\0");
      else if (typeof v === "object" && v !== null && opaque2.some((c) => v instanceof c)) faithful = false;
      return faithful ? v : void 0;
    });
  } catch {
    return void 0;
  }
  return faithful ? text : void 0;
}
function castEnum(values) {
  const allowed = new Set(values);
  return (v) => typeof v === "string" && allowed.has(v) ? v : INVALID2;
}
function castArray(element) {
  return (v) => {
    if (!Array.isArray(v)) return INVALID2;
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const c = v[i] === null ? null : element(v[i]);
      if (c === INVALID2) return INVALID2;
      out[i] = c;
    }
    return out;
  };
}
function castEmbedded2(schema, value, lenient = false) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return lenient ? value : INVALID2;
  const casters = castersOf2(schema);
  const out = {};
  for (const f of schema.fields) {
    if (f.virtual) continue;
    const raw = value[f.name];
    const c = raw === void 0 || raw === null ? null : casters[f.name](raw);
    if (c === INVALID2 && !lenient) return INVALID2;
    out[f.name] = c === INVALID2 ? raw : c;
  }
  return out;
}
function castEmbedList(schema) {
  return (v) => {
    if (!Array.isArray(v)) return INVALID2;
    const out = v.map((x) => castEmbedded2(schema, x));
    return out.includes(INVALID2) ? INVALID2 : out;
  };
}
function casterFor(type) {
  if (typeof type === "object") {
    if ("embedsOne" in type) return (v) => castEmbedded2(type.embedsOne, v);
    if ("embedsMany" in type) return castEmbedList(type.embedsMany);
    return "array" in type ? castArray(casterFor(type.array)) : castEnum(type.enum);
  }
  switch (type) {
    case "id":
      return integer(1 - Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    case "integer":
      return integer(INT4_MIN, INT4_MAX);
    case "float":
      return castFloat;
    case "boolean":
      return castBoolean;
    case "string":
    case "text":
      return castString;
    case "uuid":
      return castUuid;
    case "date":
      return castDate;
    case "utc_datetime":
      return castDateTime;
    case "jsonb":
      return castJson;
  }
}
function castersOf2(schema) {
  let casters = cache2.get(schema);
  if (!casters) {
    const built = {};
    for (const f of schema.fields) built[f.name] = casterFor(f.type);
    casters = built;
    cache2.set(schema, casters);
  }
  return casters;
}
function defaultsOf2(schema) {
  let defaults = defaultsCache.get(schema);
  if (!defaults) {
    const casters = castersOf2(schema);
    defaults = schema.fields.flatMap((f) => {
      if (f.default === void 0 || f.default === null) return [];
      const cast3 = casters[f.name](f.default);
      return [[f.name, cast3 === INVALID2 ? f.default : cast3]];
    });
    defaultsCache.set(schema, defaults);
  }
  return defaults;
}
var INVALID2, INT4_MIN, INT4_MAX, intPattern, floatPattern, uuidPattern, hex32Pattern, datePattern, dateTimePattern, castFloat, castBoolean, castString, castUuid, castDate, castDateTime, opaque2, castJson, cache2, defaultsCache;
var init_cast2 = __esm({
  "../../work/wt-dbl-chains/dbl/cast.ts"() {
    "use strict";
    INVALID2 = /* @__PURE__ */ Symbol("vela.dbl.invalid");
    INT4_MIN = -2147483648;
    INT4_MAX = 2147483647;
    intPattern = /^[+-]?\d+$/;
    floatPattern = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
    uuidPattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
    hex32Pattern = /^[0-9a-fA-F]{32}$/;
    datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
    dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
    castFloat = (v) => {
      const n = typeof v === "number" ? v : typeof v === "string" && floatPattern.test(v) ? Number(v) : NaN;
      return Number.isFinite(n) ? n : INVALID2;
    };
    castBoolean = (v) => {
      if (typeof v === "boolean") return v;
      if (v === "true" || v === "1") return true;
      if (v === "false" || v === "0") return false;
      return INVALID2;
    };
    castString = (v) => typeof v === "string" && !v.includes("\0") ? v : INVALID2;
    castUuid = (v) => {
      if (typeof v !== "string") return INVALID2;
      if (uuidPattern.test(v)) return v.toLowerCase();
      if (!hex32Pattern.test(v)) return INVALID2;
      const h = v.toLowerCase();
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    };
    castDate = (v) => {
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? INVALID2 : v.toISOString().slice(0, 10);
      if (typeof v !== "string") return INVALID2;
      const m = datePattern.exec(v);
      return m && validCalendarDate(+m[1], +m[2], +m[3]) ? v : INVALID2;
    };
    castDateTime = (v) => {
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? INVALID2 : v;
      if (typeof v !== "string") return INVALID2;
      const m = dateTimePattern.exec(v);
      if (!m || !validCalendarDate(+m[1], +m[2], +m[3])) return INVALID2;
      if (+m[4] > 23 || +m[5] > 59 || m[6] !== void 0 && +m[6] > 59) return INVALID2;
      const zone = (m[8] ?? "Z").toUpperCase();
      const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? "00"}${(m[7] ?? "").slice(0, 4)}${zone}`;
      const d2 = new Date(zone.length === 3 ? iso + ":00" : zone.length === 5 ? iso.slice(0, -2) + ":" + iso.slice(-2) : iso);
      return Number.isNaN(d2.getTime()) ? INVALID2 : d2;
    };
    opaque2 = [Map, Set, WeakMap, WeakSet, RegExp, Promise];
    castJson = (v) => jsonText2(v) === void 0 ? INVALID2 : v;
    cache2 = /* @__PURE__ */ new WeakMap();
    defaultsCache = /* @__PURE__ */ new WeakMap();
  }
});

// ../../work/wt-dbl-chains/dbl/changeset.ts
function isChangeset2(value) {
  return typeof value === "object" && value !== null && value.kind === "vela.changeset";
}
function assertFields(schema, fields) {
  for (const f of fields) {
    if (!schema.fieldsByName[f]) throw new Error(`schema ${schema.table} has no field "${f}"`);
  }
}
function same(a, b) {
  if ((a ?? null) === (b ?? null)) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null)
    return JSON.stringify(a) === JSON.stringify(b);
  return false;
}
function emptyChangeset2(schema, data) {
  return {
    kind: "vela.changeset",
    schema,
    data: data ?? {},
    params: {},
    changes: {},
    errors: [],
    valid: true,
    action: null,
    assocChanges: {},
    embeds: {},
    constraints: [],
    filters: {}
  };
}
function cast2(schema, existing, params, allowed) {
  assertFields(schema, allowed);
  for (const name of allowed) {
    const t = schema.fieldsByName[name].type;
    if (typeof t === "object" && ("embedsOne" in t || "embedsMany" in t))
      throw new Error(`cast: ${schema.table}.${name} is an embedded field; cast it with castEmbed(cs, '${name}')`);
  }
  const base = emptyChangeset2(schema, withDefaults(schema, existing));
  const input = params ?? {};
  const casters = castersOf2(schema);
  const data = base.data;
  const changes = {};
  const errors = [];
  for (const name of allowed) {
    if (!Object.hasOwn(input, name)) continue;
    const raw = input[name];
    const field = schema.fieldsByName[name];
    const value = raw === void 0 || raw === null || typeof raw === "string" && BLANK.test(raw) ? null : casters[name](raw);
    if (value === INVALID2) {
      errors.push({ field: name, message: "is invalid", meta: { type: field.type, validation: "cast" } });
      continue;
    }
    if (field.type === "string" && typeof value === "string" && !field.virtual) {
      const error = varcharError2(name, value, field.size ?? 255);
      if (error) errors.push(error);
    }
    if (!same(value, data[name])) changes[name] = value;
  }
  return { ...base, params: input, changes, errors, valid: errors.length === 0 };
}
function withDefaults(schema, existing) {
  const record = existing;
  if (record?.[schema.primaryKey] != null) return existing;
  const defaults = defaultsOf2(schema);
  if (defaults.length === 0) return existing;
  const out = { ...record };
  for (const [name, value] of defaults)
    if (out[name] === void 0) out[name] = typeof value === "object" ? structuredClone(value) : value;
  return out;
}
function varcharError2(field, value, size) {
  if (value.length <= size) return void 0;
  let count5 = 0;
  for (const _ of value) if (++count5 > size) break;
  return count5 > size ? {
    field,
    message: "should be at most %{count} character(s)",
    meta: { count: size, validation: "length", kind: "max", type: "string" }
  } : void 0;
}
function change2(schema, record, changes = {}) {
  assertFields(schema, Object.keys(changes));
  const base = emptyChangeset2(schema, record);
  const kept = {};
  for (const [k, v] of Object.entries(changes)) if (!same(v, base.data[k])) kept[k] = v;
  return { ...base, changes: kept };
}
function putChange2(cs, field, value) {
  assertFields(cs.schema, [field]);
  const changes = { ...cs.changes };
  if (same(value, cs.data[field])) delete changes[field];
  else changes[field] = value;
  return { ...cs, changes };
}
function getField2(cs, field) {
  const changes = cs.changes;
  return Object.hasOwn(changes, field) ? changes[field] : cs.data[field];
}
function getChange2(cs, field) {
  return cs.changes[field];
}
function addError2(cs, field, message, meta = {}) {
  return { ...cs, errors: [...cs.errors, { field, message, meta }], valid: false };
}
function applyChanges2(cs) {
  return { ...cs.data, ...cs.changes };
}
function errorMessage2(error) {
  return error.message.replace(
    /%\{(\w+)\}/g,
    (whole, key) => key in error.meta ? String(error.meta[key]) : whole
  );
}
function errorsToJson2(cs) {
  const out = {};
  for (const e of cs.errors) (out[e.field] ??= []).push(errorMessage2(e));
  for (const [name, children] of Object.entries(cs.assocChanges)) {
    if (children.every((c) => c.valid)) continue;
    const kind = cs.schema.associations[name]?.kind;
    out[name] = kind === "hasOne" ? errorsToJson2(children[0]) : children.map(errorsToJson2);
  }
  for (const [name, child] of Object.entries(cs.embeds)) {
    if (Array.isArray(child)) {
      if (!child.every((c) => c.valid)) out[name] = child.map(errorsToJson2);
    } else if (!child.valid) out[name] = errorsToJson2(child);
  }
  return out;
}
var BLANK;
var init_changeset2 = __esm({
  "../../work/wt-dbl-chains/dbl/changeset.ts"() {
    "use strict";
    init_cast2();
    BLANK = /^\s*$/;
  }
});

// ../../work/wt-dbl-chains/dbl/embedded.ts
function defineEmbeddedSchema2(def) {
  return defineSchema2({ table: def.name, fields: def.fields, primaryKey: def.primaryKey, embedded: true });
}
function checkEmbedded(schema, what) {
  if (!schema?.embedded) throw new Error(`${what}: give a schema made with defineEmbeddedSchema`);
}
function embedsOne2(schema) {
  checkEmbedded(schema, "embedsOne");
  return { embedsOne: schema };
}
function embedsMany2(schema) {
  checkEmbedded(schema, "embedsMany");
  return { embedsMany: schema };
}
function embedOf(schema, name) {
  const t = schema.fieldsByName[name]?.type;
  if (typeof t === "object" && "embedsOne" in t) return { related: t.embedsOne, many: false };
  if (typeof t === "object" && "embedsMany" in t) return { related: t.embedsMany, many: true };
  throw new Error(`castEmbed: ${schema.table} has no embedsOne / embedsMany field "${name}"`);
}
function defaultWith(related) {
  const plain = related.fields.filter(
    (f) => !(typeof f.type === "object" && ("embedsOne" in f.type || "embedsMany" in f.type))
  );
  const nested2 = related.fields.filter((f) => !plain.includes(f));
  return (data, params) => nested2.reduce(
    (cs, f) => castEmbed2(cs, f.name),
    cast2(
      related,
      data,
      params,
      plain.map((f) => f.name)
    )
  );
}
function storedValue(child) {
  const out = {};
  for (const f of child.schema.fields) if (!f.virtual) out[f.name] = getField2(child, f.name) ?? null;
  return out;
}
function paramList(value) {
  if (Array.isArray(value)) return value;
  if (typeof value === "object" && value !== null && Object.keys(value).every((k) => /^\d+$/.test(k))) {
    return Object.keys(value).sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
  }
  return void 0;
}
function castEmbed2(cs, name, opts = {}) {
  const { related, many } = embedOf(cs.schema, name);
  const stored = cs.data[name];
  const blank = () => opts.required ? addError2(cs, name, "can't be blank", { validation: "required" }) : cs;
  if (!Object.hasOwn(cs.params, name) || cs.params[name] === void 0) {
    return stored === null || stored === void 0 || Array.isArray(stored) && stored.length === 0 ? blank() : cs;
  }
  const raw = cs.params[name];
  if (raw === null) return withEmbed(blank(), name, null, []);
  const make3 = opts.with ?? defaultWith(related);
  const list2 = many ? paramList(raw) : isMap(raw) ? [raw] : void 0;
  if (!list2?.every(isMap))
    return addError2(cs, name, "is invalid", { validation: "embed", type: many ? "embedsMany" : "embedsOne" });
  const existing = Array.isArray(stored) ? stored : isMap(stored) ? [stored] : [];
  const pk = related.primaryKey;
  const keyOf = pk ? castersOf2(related)[pk] : void 0;
  const children = list2.map((p) => {
    if (!many) return make3(existing[0] ?? {}, p);
    const key = keyOf && p[pk] != null ? keyOf(p[pk]) : INVALID2;
    const match = key === INVALID2 ? void 0 : existing.find((e) => e[pk] === key);
    return make3(match ?? {}, p);
  });
  for (const c of children)
    if (c.schema !== related) throw new Error(`castEmbed ${name}: \`with\` must return a changeset of ${related.table}`);
  if (opts.required && children.length === 0) return withEmbed(blank(), name, [], []);
  const value = many ? children.map(storedValue) : storedValue(children[0]);
  return withEmbed(cs, name, value, many ? children : children[0]);
}
function withEmbed(cs, name, value, children) {
  const list2 = Array.isArray(children) ? children : [children];
  const changes = { ...cs.changes };
  const before = cs.data[name] ?? null;
  if (JSON.stringify(before) === JSON.stringify(value)) delete changes[name];
  else changes[name] = value;
  const embeds = { ...cs.embeds, [name]: children };
  return { ...cs, changes, embeds, valid: cs.valid && list2.every((c) => c.valid) };
}
var isMap;
var init_embedded2 = __esm({
  "../../work/wt-dbl-chains/dbl/embedded.ts"() {
    "use strict";
    init_cast2();
    init_changeset2();
    init_schema2();
    isMap = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
  }
});

// ../../work/wt-dbl-chains/dbl/assoc.ts
function resolveAssoc2(owner, name) {
  const a = owner.associations[name];
  if (!a) throw new Error(`schema ${owner.table} has no association "${name}"`);
  if (a.kind === "manyToMany") {
    const through = joinThroughOf2(owner, name);
    return { name, kind: a.kind, owner, related: through.related, foreignKey: through.ownerKey, through };
  }
  const related = a.schema();
  const foreignKey = foreignKeyOf2(owner, name, a);
  const holder = a.kind === "belongsTo" ? owner : related;
  if (!holder.fieldsByName[foreignKey])
    throw new Error(`association ${owner.table}.${name}: ${holder.table} has no field "${foreignKey}"`);
  return { name, kind: a.kind, owner, related, foreignKey };
}
function childAssoc(cs, name) {
  const assoc = resolveAssoc2(cs.schema, name);
  if (assoc.kind === "belongsTo")
    throw new Error(
      `${cs.schema.table}.${name}: castAssoc/putAssoc take hasMany or hasOne associations (putAssoc also manyToMany)`
    );
  return assoc;
}
function withChildren(cs, name, children) {
  return {
    ...cs,
    assocChanges: { ...cs.assocChanges, [name]: children },
    valid: cs.valid && children.every((c) => c.valid)
  };
}
function defaultWith2(assoc) {
  const allowed = assoc.related.fields.filter((f) => !f.primaryKey && f.name !== assoc.foreignKey).map((f) => f.name);
  return (data, params) => cast2(assoc.related, data, params, allowed);
}
function paramList2(value) {
  if (Array.isArray(value)) return value;
  if (typeof value === "object" && value !== null) {
    return Object.keys(value).sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
  }
  return void 0;
}
function castAssoc2(cs, name, opts = {}) {
  const assoc = childAssoc(cs, name);
  if (assoc.kind === "manyToMany")
    throw new Error(
      `${cs.schema.table}.${name} is manyToMany: give the set with putAssoc(cs, '${name}', ids or records)`
    );
  if (!Object.hasOwn(cs.params, name) || cs.params[name] === null || cs.params[name] === void 0) {
    return opts.required ? addError2(cs, name, "can't be blank", { validation: "required" }) : cs;
  }
  const make3 = opts.with ?? defaultWith2(assoc);
  const raw = cs.params[name];
  const list2 = assoc.kind === "hasOne" ? typeof raw === "object" && !Array.isArray(raw) ? [raw] : void 0 : paramList2(raw);
  if (!list2?.every((p) => typeof p === "object" && p !== null && !Array.isArray(p))) {
    return addError2(cs, name, "is invalid", { validation: "assoc", type: assoc.kind });
  }
  const loaded2 = cs.data[name];
  const existing = Array.isArray(loaded2) ? loaded2 : loaded2 ? [loaded2] : [];
  const pk = assoc.related.primaryKey;
  const children = list2.map((p) => {
    const match = p[pk] === void 0 ? void 0 : existing.find((e) => String(e[pk]) === String(p[pk]));
    const child = make3(match ?? {}, p);
    return { ...child, action: match ? "update" : "insert" };
  });
  if (opts.required && children.length === 0) return addError2(cs, name, "can't be blank", { validation: "required" });
  return withChildren(cs, name, children);
}
function putAssoc2(cs, name, children) {
  const assoc = childAssoc(cs, name);
  const list2 = children === null ? [] : Array.isArray(children) ? children : [children];
  if (assoc.kind === "hasOne" && list2.length > 1)
    throw new Error(`${cs.schema.table}.${name} is hasOne: putAssoc takes one child`);
  if (assoc.kind === "manyToMany") return putLinks(cs, assoc, list2);
  if (list2.some((c) => typeof c !== "object" || c === null))
    throw new Error(`${cs.schema.table}.${name} is ${assoc.kind}: putAssoc takes changesets or maps of fields, not ids`);
  const built = list2.map(
    (c) => isChangeset2(c) ? c : change2(assoc.related, {}, c)
  );
  const pk = assoc.related.primaryKey;
  const actionOf = (c) => c.action ?? (c.data[pk] == null ? "insert" : "update");
  return withChildren(
    cs,
    name,
    built.map((c) => ({ ...c, action: actionOf(c) }))
  );
}
function putLinks(cs, assoc, list2) {
  const related = assoc.related;
  const pk = related.primaryKey;
  const castKey = castersOf2(related)[pk];
  const built = [];
  for (const entry of list2) {
    if (isChangeset2(entry)) {
      built.push({
        ...entry,
        action: entry.action ?? (entry.data[pk] == null ? "insert" : "update")
      });
    } else if (typeof entry === "object" && entry !== null) {
      const key = entry[pk];
      built.push(
        key == null ? { ...change2(related, {}, entry), action: "insert" } : { ...change2(related, entry), action: "update" }
      );
    } else {
      const key = typeof entry === "number" || typeof entry === "string" ? castKey(entry) : INVALID2;
      if (key === INVALID2 || key === null)
        return addError2(cs, assoc.name, "is invalid", { validation: "assoc", type: "manyToMany" });
      built.push({ ...change2(related, { [pk]: key }), action: "update" });
    }
  }
  return withChildren(cs, assoc.name, built);
}
var init_assoc2 = __esm({
  "../../work/wt-dbl-chains/dbl/assoc.ts"() {
    "use strict";
    init_cast2();
    init_changeset2();
    init_schema2();
  }
});

// ../../work/wt-dbl-chains/dbl/optimistic-lock.ts
function nextVersion(current) {
  return current === null || current >= INT4_MAX2 ? 1 : current + 1;
}
function optimisticLock2(cs, field, incrementer = nextVersion) {
  const f = cs.schema.fieldsByName[field];
  if (!f || f.virtual || f.type !== "integer" && f.type !== "id")
    throw new Error(`optimisticLock: ${cs.schema.table}.${String(field)} must be a stored integer field`);
  const current = getField2(cs, field) ?? null;
  return {
    ...cs,
    changes: { ...cs.changes, [field]: incrementer(current) },
    filters: { ...cs.filters, [field]: current }
  };
}
var INT4_MAX2;
var init_optimistic_lock2 = __esm({
  "../../work/wt-dbl-chains/dbl/optimistic-lock.ts"() {
    "use strict";
    init_changeset2();
    INT4_MAX2 = 2147483647;
  }
});

// ../../work/wt-dbl-chains/dbl/constraints.ts
function declare(cs, decl) {
  return { ...cs, constraints: [...cs.constraints, decl] };
}
function fieldList(cs, fields) {
  const list2 = typeof fields === "string" ? [fields] : fields;
  for (const f of list2) if (!cs.schema.fieldsByName[f]) throw new Error(`schema ${cs.schema.table} has no field "${f}"`);
  return list2;
}
function uniqueConstraint2(cs, fields, opts = {}) {
  const list2 = fieldList(cs, fields);
  const stem = `${cs.schema.table}_${list2.join("_")}`;
  return declare(cs, {
    type: "unique",
    constraint: opts.name ?? `${stem}_index`,
    aliases: opts.name ? [] : [`${stem}_key`],
    field: list2[0],
    message: opts.message ?? "has already been taken"
  });
}
function foreignKeyConstraint2(cs, field, opts = {}) {
  fieldList(cs, field);
  return declare(cs, {
    type: "foreign_key",
    constraint: opts.name ?? `${cs.schema.table}_${field}_fkey`,
    aliases: [],
    field,
    message: opts.message ?? "does not exist"
  });
}
function assocConstraint2(cs, assoc, opts = {}) {
  const a = cs.schema.associations[assoc];
  if (a?.kind !== "belongsTo") throw new Error(`schema ${cs.schema.table} has no belongsTo association "${assoc}"`);
  const fk = foreignKeyOf2(cs.schema, assoc, a);
  return declare(cs, {
    type: "foreign_key",
    constraint: opts.name ?? `${cs.schema.table}_${fk}_fkey`,
    aliases: [],
    field: assoc,
    message: opts.message ?? "does not exist"
  });
}
function noAssocConstraint2(cs, assoc, opts = {}) {
  const a = cs.schema.associations[assoc];
  if (!a || a.kind === "belongsTo")
    throw new Error(`schema ${cs.schema.table} has no hasOne/hasMany/manyToMany association "${assoc}"`);
  const child = a.kind === "manyToMany" ? joinThroughOf2(cs.schema, assoc).table : a.schema().table;
  const fk = foreignKeyOf2(cs.schema, assoc, a);
  return declare(cs, {
    type: "foreign_key",
    constraint: opts.name ?? `${child}_${fk}_fkey`,
    aliases: [],
    field: assoc,
    message: opts.message ?? (a.kind !== "hasOne" ? "are still associated with this entry" : "is still associated with this entry")
  });
}
function checkConstraint2(cs, field, opts) {
  fieldList(cs, field);
  return declare(cs, {
    type: "check",
    constraint: opts.name,
    aliases: [],
    field,
    message: opts.message ?? "is invalid"
  });
}
function exclusionConstraint2(cs, field, opts = {}) {
  fieldList(cs, field);
  return declare(cs, {
    type: "exclusion",
    constraint: opts.name ?? `${cs.schema.table}_${field}_excl`,
    aliases: [],
    field,
    message: opts.message ?? "violates an exclusion constraint"
  });
}
function constraintError2(cs, error) {
  if (!error.constraintKind) return void 0;
  if (error.constraintKind === "not_null") {
    const column = error.column;
    if (!column || !cs.schema.fieldsByName[column] || error.table !== cs.schema.table) return void 0;
    return addError2(cs, column, "can't be blank", { validation: "required", constraint: "not_null" });
  }
  const name = error.constraint;
  const decl = cs.constraints.find(
    (d2) => d2.type === error.constraintKind && (d2.constraint === name || d2.aliases.includes(name ?? ""))
  ) ?? schemaUnique(cs.schema, error);
  if (!decl) return void 0;
  return addError2(cs, decl.field, decl.message, { constraint: decl.type, constraint_name: decl.constraint });
}
function schemaUnique(schema, error) {
  if (error.constraintKind !== "unique" || !error.constraint) return void 0;
  const ix = schema.indexes.find((i) => i.unique && i.name === error.constraint);
  return ix && { type: "unique", constraint: ix.name, aliases: [], field: ix.columns[0], message: "has already been taken" };
}
var init_constraints2 = __esm({
  "../../work/wt-dbl-chains/dbl/constraints.ts"() {
    "use strict";
    init_changeset2();
    init_schema2();
  }
});

// ../../work/wt-dbl-chains/dbl/validations.ts
function changed(cs, field) {
  const value = cs.changes[field];
  return value === void 0 ? null : value;
}
function hasError(cs, field) {
  return cs.errors.some((e) => e.field === field);
}
function validateRequired2(cs, fields, opts = {}) {
  let out = cs;
  for (const field of fields) {
    if (!cs.schema.fieldsByName[field]) throw new Error(`schema ${cs.schema.table} has no field "${field}"`);
    const value = getField2(cs, field);
    const blank = value === null || value === void 0 || typeof value === "string" && value.trim() === "";
    if (blank && !hasError(cs, field))
      out = addError2(out, field, opts.message ?? "can't be blank", { validation: "required" });
  }
  return out;
}
function lengthOf(value, count5) {
  if (count5 === "bytes") return Buffer.byteLength(value);
  if (count5 === "codepoints") return [...value].length;
  let n = 0;
  for (const _ of segmenter2.segment(value)) n++;
  return n;
}
function validateLength2(cs, field, opts) {
  const value = changed(cs, field);
  if (typeof value !== "string" && !Array.isArray(value)) return cs;
  const isList = Array.isArray(value);
  const length = isList ? value.length : lengthOf(value, opts.count);
  const unit = isList ? "item(s)" : opts.count === "bytes" ? "byte(s)" : "character(s)";
  const verb = isList ? "should have" : "should be";
  const type = isList ? "list" : opts.count === "bytes" ? "binary" : "string";
  const fail = (kind, count5, text) => addError2(cs, field, opts.message ?? text, { count: count5, validation: "length", kind, type });
  if (opts.is !== void 0 && length !== opts.is) return fail("is", opts.is, `${verb} %{count} ${unit}`);
  if (opts.min !== void 0 && length < opts.min) return fail("min", opts.min, `${verb} at least %{count} ${unit}`);
  if (opts.max !== void 0 && length > opts.max) return fail("max", opts.max, `${verb} at most %{count} ${unit}`);
  return cs;
}
function validateNumber2(cs, field, opts) {
  const value = changed(cs, field);
  if (typeof value !== "number") return cs;
  for (const [kind, text, holds] of numberRules) {
    const number = opts[kind];
    if (number !== void 0 && !holds(value, number)) {
      return addError2(cs, field, opts.message ?? text, { validation: "number", kind, number });
    }
  }
  return cs;
}
function validateFormat2(cs, field, format, opts = {}) {
  const value = changed(cs, field);
  if (typeof value !== "string") return cs;
  const re2 = format.global || format.sticky ? new RegExp(format.source, format.flags.replace(/[gy]/g, "")) : format;
  return re2.test(value) ? cs : addError2(cs, field, opts.message ?? "has invalid format", { validation: "format" });
}
function validateInclusion2(cs, field, values, opts = {}) {
  const value = changed(cs, field);
  if (value === null || values.includes(value)) return cs;
  return addError2(cs, field, opts.message ?? "is invalid", { validation: "inclusion", enum: values });
}
function validateExclusion2(cs, field, values, opts = {}) {
  const value = changed(cs, field);
  if (value === null || !values.includes(value)) return cs;
  return addError2(cs, field, opts.message ?? "is reserved", { validation: "exclusion", enum: values });
}
function validateChange2(cs, field, check) {
  const value = changed(cs, field);
  if (value === null) return cs;
  return check(field, value).reduce((acc, message) => addError2(acc, field, message, { validation: "custom" }), cs);
}
function validateConfirmation2(cs, field, opts = {}) {
  if (changed(cs, field) === null) return cs;
  const key = `${field}_confirmation`;
  if (!Object.hasOwn(cs.params, key) || cs.params[key] === void 0) {
    return opts.required ? addError2(cs, key, opts.message ?? "can't be blank", { validation: "confirmation" }) : cs;
  }
  if (cs.params[key] === cs.params[field]) return cs;
  return addError2(cs, key, opts.message ?? "does not match confirmation", { validation: "confirmation" });
}
function validateSubset2(cs, field, values, opts = {}) {
  const value = changed(cs, field);
  if (!Array.isArray(value) || value.every((v) => values.includes(v))) return cs;
  return addError2(cs, field, opts.message ?? "has an invalid entry", { validation: "subset", enum: values });
}
var segmenter2, numberRules;
var init_validations2 = __esm({
  "../../work/wt-dbl-chains/dbl/validations.ts"() {
    "use strict";
    init_changeset2();
    segmenter2 = new Intl.Segmenter();
    numberRules = [
      ["lessThan", "must be less than %{number}", (v, n) => v < n],
      ["greaterThan", "must be greater than %{number}", (v, n) => v > n],
      ["lessThanOrEqualTo", "must be less than or equal to %{number}", (v, n) => v <= n],
      ["greaterThanOrEqualTo", "must be greater than or equal to %{number}", (v, n) => v >= n],
      ["equalTo", "must be equal to %{number}", (v, n) => v === n],
      ["notEqualTo", "must be not equal to %{number}", (v, n) => v !== n]
    ];
  }
});

// ../../work/wt-dbl-chains/server/deprecation.ts
function warnDeprecated(code, message) {
  if (warned.has(code)) return;
  warned.add(code);
  process.emitWarning(message, { type: "DeprecationWarning", code });
}
var warned;
var init_deprecation = __esm({
  "../../work/wt-dbl-chains/server/deprecation.ts"() {
    "use strict";
    warned = /* @__PURE__ */ new Set();
  }
});

// ../../work/wt-dbl-chains/dbl/query/aggregate.ts
function make2(fn, arg, distinct3 = false) {
  if (arg !== void 0 && typeof arg !== "string") {
    if (!Array.isArray(arg) || arg.length !== 3 || typeof arg[0] !== "string" || typeof arg[2] !== "string" || !arithOps2.has(arg[1])) {
      throw new Error(`${fn}: give a field or [field, '+' | '-' | '*' | '/', field], got ${JSON.stringify(arg)}`);
    }
  }
  return { kind: "vela.aggregate", fn, arg, distinct: distinct3 };
}
function isAggregate2(value) {
  return typeof value === "object" && value !== null && value.kind === "vela.aggregate";
}
function countAggregate2(field, opts = {}) {
  return make2("count", field, opts.distinct === true);
}
function sum2(arg) {
  return make2("sum", arg);
}
function avg2(arg) {
  return make2("avg", arg);
}
function min2(arg) {
  return make2("min", arg);
}
function max2(arg) {
  return make2("max", arg);
}
function refsOf2(a) {
  return a.arg === void 0 ? [] : typeof a.arg === "string" ? [a.arg] : [a.arg[0], a.arg[2]];
}
function checkAggregate2(a, fields, ref) {
  const needsNumber = a.fn === "sum" || a.fn === "avg" || Array.isArray(a.arg);
  if (!needsNumber) return;
  fields.forEach((f, i) => {
    if (!numeric2.has(f.type))
      throw new Error(`${a.fn}(${ref[i]}): ${ref[i]} is a ${JSON.stringify(f.type)} field, not a number`);
  });
}
function aggregateKey2(a) {
  const arg = a.arg === void 0 ? "*" : typeof a.arg === "string" ? a.arg : a.arg.join(" ");
  return `${a.fn}(${a.distinct ? "distinct " : ""}${arg})`;
}
var arithOps2, numeric2;
var init_aggregate = __esm({
  "../../work/wt-dbl-chains/dbl/query/aggregate.ts"() {
    "use strict";
    arithOps2 = /* @__PURE__ */ new Set(["+", "-", "*", "/"]);
    numeric2 = /* @__PURE__ */ new Set(["id", "integer", "float"]);
  }
});

// ../../work/wt-dbl-chains/dbl/query/value.ts
function derive(q) {
  return new QueryValue(q);
}
function isQuery2(value) {
  return typeof value === "object" && value !== null && value.kind === "vela.query";
}
var QueryValue, EMPTY;
var init_value = __esm({
  "../../work/wt-dbl-chains/dbl/query/value.ts"() {
    "use strict";
    QueryValue = class {
      kind;
      schema;
      joins;
      conds;
      order;
      maxRows;
      skipRows;
      columns;
      columnsAs;
      groups;
      havings;
      isDistinct;
      rowLock;
      countRows;
      subqueries;
      constructor(q) {
        this.kind = "vela.query";
        this.schema = q.schema;
        this.joins = q.joins;
        this.conds = q.conds;
        this.order = q.order;
        this.maxRows = q.maxRows;
        this.skipRows = q.skipRows;
        this.columns = q.columns;
        this.columnsAs = q.columnsAs;
        this.groups = q.groups;
        this.havings = q.havings;
        this.isDistinct = q.isDistinct;
        this.rowLock = q.rowLock;
        this.countRows = q.countRows;
        this.subqueries = q.subqueries;
      }
    };
    EMPTY = Object.freeze([]);
  }
});

// ../../work/wt-dbl-chains/dbl/query/paths.ts
function resolveJoinPath2(schema, joins, path3) {
  const dot = path3.lastIndexOf(".");
  const parent = dot < 0 ? void 0 : path3.slice(0, dot);
  const owner = parent === void 0 ? schema : joins.find((j) => j.path === parent)?.assoc.related;
  if (!owner) throw new Error(`join ${path3}: ${parent} is not joined`);
  const name = path3.slice(dot + 1);
  if (!Object.hasOwn(owner.associations, name))
    throw new Error(`join ${path3}: schema ${owner.table} has no association "${name}"`);
  const assoc = resolveAssoc2(owner, name);
  return { assoc, through: assoc.through };
}
function resolveRef2(schema, joins, ref) {
  const found = findRef2(schema, joins, ref);
  if (found.field.virtual)
    throw new Error(`field ${JSON.stringify(ref)} is virtual (never stored), so a query cannot use it`);
  return found;
}
function findRef2(schema, joins, ref) {
  if (typeof ref === "string") {
    const dot = ref.lastIndexOf(".");
    if (dot < 0) {
      if (Object.hasOwn(schema.fieldsByName, ref)) return { path: void 0, field: schema.fieldsByName[ref] };
    } else {
      const path3 = ref.slice(0, dot);
      const name = ref.slice(dot + 1);
      const join5 = joins.find((j) => j.path === path3);
      if (!join5) throw new Error(`field ${ref}: join '${path3}' first (join or leftJoin)`);
      const related = join5.assoc.related;
      if (Object.hasOwn(related.fieldsByName, name)) return { path: path3, field: related.fieldsByName[name] };
      throw new Error(`field ${ref}: schema ${related.table} has no field ${JSON.stringify(name)}`);
    }
  }
  throw new Error(`schema ${schema.table} has no field ${JSON.stringify(ref)}`);
}
var init_paths = __esm({
  "../../work/wt-dbl-chains/dbl/query/paths.ts"() {
    "use strict";
    init_assoc2();
  }
});

// ../../work/wt-dbl-chains/dbl/query/conditions.ts
function escapeLike2(text) {
  return text.replace(/[\\%_]/g, "\\$&");
}
function likePattern2(field, op, value) {
  if (typeof value === "string") {
    if (/\\*$/.exec(value)[0].length % 2 === 1) {
      throw new Error(
        `where ${field} ${op} ${JSON.stringify(value)}: the pattern ends with a lone escape character (\\); for text a user typed, use { contains: text } (or escapeLike(text))`
      );
    }
    return value;
  }
  const keys3 = typeof value === "object" && value !== null ? Object.keys(value) : [];
  const text = keys3.length === 1 ? value[keys3[0]] : void 0;
  if (typeof text === "string") {
    if (keys3[0] === "contains") return `%${escapeLike2(text)}%`;
    if (keys3[0] === "startsWith") return `${escapeLike2(text)}%`;
    if (keys3[0] === "endsWith") return `%${escapeLike2(text)}`;
  }
  throw new Error(`where ${field} ${op}: give a pattern string or one of { contains | startsWith | endsWith: string }`);
}
function cond2(a, op, value) {
  if (typeof a !== "string") return clausesCond2(a);
  if (typeof op !== "string" || !ops2.has(op)) throw new Error(`unknown query operator ${JSON.stringify(op)}`);
  if (op === "is null" || op === "is not null") return { "~cond": "op", field: a, op, value: void 0 };
  if (value === void 0) throw new Error(`where ${a} ${op}: the value is undefined`);
  if (op === "in" || op === "not in") {
    if (isQuery2(value)) return { "~cond": "op", field: a, op, value: checkSubquery2(value, `where ${a} ${op}`) };
    if (!Array.isArray(value)) throw new Error(`where ${a} ${op}: the value must be an array or a one-column subquery`);
  }
  if (value === null) throw new Error(`where ${a} ${op} null: use 'is null' / 'is not null'`);
  if (op.endsWith("like")) return { "~cond": "op", field: a, op, value: likePattern2(a, op, value) };
  return { "~cond": "op", field: a, op, value };
}
function checkSubquery2(q, what) {
  const columns2 = q.columns?.length ?? (q.columnsAs ? Object.keys(q.columnsAs).length : 0);
  if (columns2 !== 1 || q.countRows)
    throw new Error(`${what}: the subquery must select exactly one column (q.select(['id']))`);
  if (q.rowLock) throw new Error(`${what}: a subquery cannot lock rows`);
  return q;
}
function clausesCond2(clauses) {
  const conds = [];
  for (const field of Object.keys(clauses)) {
    const value = clauses[field];
    if (value === void 0) throw new Error(`where { ${field}: undefined }: a value is missing (use null for IS NULL)`);
    conds.push(
      value === null ? { "~cond": "op", field, op: "is null", value: void 0 } : Array.isArray(value) ? { "~cond": "op", field, op: "in", value } : { "~cond": "op", field, op: "=", value }
    );
  }
  return conds.length === 1 ? conds[0] : { "~cond": "and", conds };
}
function and2(...conds) {
  return { "~cond": "and", conds };
}
function or2(...conds) {
  return { "~cond": "or", conds };
}
function not2(c) {
  return { "~cond": "not", cond: c };
}
function exists3(subquery, opts = {}) {
  if (!isQuery2(subquery)) throw new Error("exists: give a query (from(\u2026))");
  if (subquery.rowLock) throw new Error("exists: a subquery cannot lock rows");
  const c = opts.correlate;
  if (c !== void 0) {
    if (!Array.isArray(c) || c.length !== 2) throw new Error("exists: correlate is [outer field, inner field]");
    resolveRef2(subquery.schema, subquery.joins, c[1]);
  }
  return { "~cond": "exists", query: subquery, correlate: c };
}
function isCond2(value) {
  return Object.hasOwn(value, "~cond");
}
function hasSubquery2(c) {
  switch (c["~cond"]) {
    case "exists":
      return true;
    case "op":
      return isQuery2(c.value);
    case "not":
      return hasSubquery2(c.cond);
    default:
      return c.conds.some(hasSubquery2);
  }
}
var ops2;
var init_conditions = __esm({
  "../../work/wt-dbl-chains/dbl/query/conditions.ts"() {
    "use strict";
    init_value();
    init_paths();
    ops2 = /* @__PURE__ */ new Set([
      "=",
      "!=",
      "<>",
      "<",
      "<=",
      ">",
      ">=",
      "like",
      "not like",
      "ilike",
      "not ilike",
      "in",
      "not in",
      "is null",
      "is not null"
    ]);
  }
});

// ../../work/wt-dbl-chains/dbl/query/operators.ts
function checkRef2(q, ref) {
  resolveRef2(q.schema, q.joins, ref);
  return ref;
}
function checkCond2(q, c) {
  if (c["~cond"] === "op") checkRef2(q, c.field);
  else if (c["~cond"] === "not") checkCond2(q, c.cond);
  else if (c["~cond"] === "exists") {
    if (c.correlate) checkRef2(q, c.correlate[0]);
  } else for (const x of c.conds) checkCond2(q, x);
}
function where2(q, a, op, value) {
  const c = typeof a === "string" ? cond2(a, op, value) : isCond2(a) ? a : clausesCond2(a);
  checkCond2(q, c);
  const n = derive(q);
  n.conds = [...q.conds, c];
  if (!q.subqueries && hasSubquery2(c)) n.subqueries = true;
  return n;
}
function orderBy2(q, ...terms) {
  return orderByTerms(q, terms);
}
function orderByTerms(q, terms) {
  const flat = [];
  const check = (f) => typeof f === "string" && q.columnsAs && Object.hasOwn(q.columnsAs, f) ? f : checkRef2(q, f);
  const add = (t) => {
    if (typeof t === "string") return void flat.push([check(t), "asc"]);
    if (!Array.isArray(t)) throw new Error(`orderBy: ${JSON.stringify(t)} is not a field or [field, direction]`);
    if (t.length === 2 && typeof t[0] === "string" && (t[1] === "asc" || t[1] === "desc")) {
      return void flat.push([check(t[0]), t[1]]);
    }
    for (const x of t) add(x);
  };
  for (const t of terms) add(t);
  const n = derive(q);
  n.order = q.order.length ? [...q.order, ...flat] : flat;
  return n;
}
function count02(n, what) {
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
    throw new Error(`${what} must be a non-negative integer, got ${String(n)}`);
  return n;
}
function limit2(q, n) {
  const next = derive(q);
  next.maxRows = count02(n, "limit");
  return next;
}
function offset2(q, n) {
  const next = derive(q);
  next.skipRows = count02(n, "offset");
  return next;
}
function checkAggregateIn2(q, a) {
  const refs = refsOf2(a);
  checkAggregate2(
    a,
    refs.map((r) => resolveRef2(q.schema, q.joins, r).field),
    refs
  );
}
function select2(q, spec) {
  if (Array.isArray(spec)) {
    if (spec.length === 0) throw new Error("select: give at least one field");
    for (const f of spec) checkRef2(q, f);
    const n2 = derive(q);
    n2.columns = [...spec];
    n2.columnsAs = void 0;
    return n2;
  }
  if (typeof spec !== "object" || spec === null)
    throw new Error("select: give a list of fields or { name: field | aggregate }");
  const names = Object.keys(spec);
  if (names.length === 0) throw new Error("select: give at least one field");
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new Error(`select: output name ${JSON.stringify(name)} must be letters, digits and _`);
    const v = spec[name];
    if (isAggregate2(v)) checkAggregateIn2(q, v);
    else checkRef2(q, v);
  }
  const n = derive(q);
  n.columns = void 0;
  n.columnsAs = { ...spec };
  return n;
}
function count2(a, opts) {
  if (isQuery2(a)) {
    warnDeprecated(
      "VELA_DEP_DBL_COUNT_QUERY",
      "count(query) is deprecated: use repo.count(query), which gives the number of rows (count() stays the COUNT aggregate)"
    );
    const n = derive(a);
    n.countRows = true;
    return n;
  }
  if (a !== void 0 && typeof a !== "string") throw new Error("count: give a field, or nothing");
  return countAggregate2(a, opts);
}
var init_operators = __esm({
  "../../work/wt-dbl-chains/dbl/query/operators.ts"() {
    "use strict";
    init_deprecation();
    init_aggregate();
    init_conditions();
    init_paths();
    init_value();
  }
});

// ../../work/wt-dbl-chains/dbl/query/join.ts
function addJoin2(q, path3, kind) {
  if (typeof path3 !== "string" || path3 === "")
    throw new Error(`join: ${JSON.stringify(path3)} is not an association path`);
  const segments = path3.split(".");
  let joins = q.joins;
  for (let i = 1; i <= segments.length; i++) {
    const p = segments.slice(0, i).join(".");
    const existing = joins.find((j) => j.path === p);
    if (existing) {
      if (i === segments.length && existing.kind !== kind)
        throw new Error(`join ${path3}: already joined as ${existing.kind === "left" ? "leftJoin" : "join"}`);
      continue;
    }
    const { assoc, through } = resolveJoinPath2(q.schema, joins, p);
    const spec = { path: p, kind, assoc, through };
    joins = [...joins, spec];
  }
  const n = derive(q);
  n.joins = joins;
  return n;
}
function join2(q, path3) {
  return addJoin2(q, path3, "inner");
}
function leftJoin2(q, path3) {
  return addJoin2(q, path3, "left");
}
function groupBy2(q, fields) {
  if (!Array.isArray(fields) || fields.length === 0) throw new Error("groupBy: give at least one field");
  for (const f of fields) checkRef2(q, f);
  const n = derive(q);
  n.groups = [...q.groups, ...fields];
  return n;
}
function having2(q, aggregate, op, value) {
  checkAggregateIn2(q, aggregate);
  if (!compareOps.has(op)) throw new Error(`having: unknown operator ${JSON.stringify(op)}`);
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new Error(`having: the value must be a finite number, got ${String(value)}`);
  const n = derive(q);
  n.havings = [...q.havings, { aggregate, op, value }];
  return n;
}
function distinct2(q) {
  const n = derive(q);
  n.isDistinct = true;
  return n;
}
function lock2(q, mode, opts = {}) {
  if (!lockModes.has(mode))
    throw new Error(
      `lock: unknown mode ${JSON.stringify(mode)} (for update, for no key update, for share, for key share)`
    );
  if (opts.skipLocked && opts.noWait) throw new Error("lock: skipLocked and noWait exclude each other");
  const n = derive(q);
  n.rowLock = { mode, skipLocked: opts.skipLocked === true, noWait: opts.noWait === true };
  return n;
}
var compareOps, lockModes;
var init_join = __esm({
  "../../work/wt-dbl-chains/dbl/query/join.ts"() {
    "use strict";
    init_operators();
    init_paths();
    init_value();
    compareOps = /* @__PURE__ */ new Set(["=", "!=", "<>", "<", "<=", ">", ">="]);
    lockModes = /* @__PURE__ */ new Set([
      "for update",
      "for no key update",
      "for share",
      "for key share"
    ]);
  }
});

// ../../work/wt-dbl-chains/dbl/query/methods.ts
var call, methods;
var init_methods = __esm({
  "../../work/wt-dbl-chains/dbl/query/methods.ts"() {
    "use strict";
    init_join();
    init_operators();
    init_value();
    call = (f) => f;
    methods = {
      where(a, op, value) {
        return call(where2)(this, a, op, value);
      },
      orderBy(...terms) {
        return orderByTerms(this, terms);
      },
      limit(n) {
        return call(limit2)(this, n);
      },
      offset(n) {
        return call(offset2)(this, n);
      },
      select(spec) {
        return call(select2)(this, spec);
      },
      join(path3) {
        return call(join2)(this, path3);
      },
      leftJoin(path3) {
        return call(leftJoin2)(this, path3);
      },
      groupBy(fields) {
        return call(groupBy2)(this, fields);
      },
      having(aggregate, op, value) {
        return call(having2)(this, aggregate, op, value);
      },
      distinct() {
        return call(distinct2)(this);
      },
      lock(mode, opts) {
        return call(lock2)(this, mode, opts);
      }
    };
    for (const name of Object.keys(methods)) {
      Object.defineProperty(QueryValue.prototype, name, { value: methods[name], writable: true, configurable: true });
    }
  }
});

// ../../work/wt-dbl-chains/dbl/query/builder.ts
function from2(schema) {
  return new QueryValue({
    kind: "vela.query",
    schema,
    joins: EMPTY,
    conds: EMPTY,
    order: EMPTY,
    maxRows: void 0,
    skipRows: void 0,
    columns: void 0,
    columnsAs: void 0,
    groups: EMPTY,
    havings: EMPTY,
    isDistinct: false,
    rowLock: void 0,
    countRows: false,
    subqueries: false
  });
}
function withCount(q) {
  const n = derive(q);
  n.countRows = true;
  return n;
}
var init_builder = __esm({
  "../../work/wt-dbl-chains/dbl/query/builder.ts"() {
    "use strict";
    init_methods();
    init_value();
    init_value();
  }
});

// ../../work/wt-dbl-chains/dbl/deadlines.ts
function resolveDeadlines2(opts, where3 = "defineRepo") {
  const out = { ...DEFAULT_DEADLINES2 };
  for (const key of keys2) {
    const v = opts[key];
    if (v === void 0) continue;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0 || v > 2 ** 31 - 1) {
      throw Object.assign(
        new Error(`${where3}: ${key} must be a whole number of milliseconds (0 = no deadline), got ${String(v)}`),
        { code: "VELA_ERR_CONFIG" }
      );
    }
    out[key] = v;
  }
  return { ...out, answerTimeoutMs: out.statementTimeoutMs ? out.statementTimeoutMs + ANSWER_GRACE_MS : 0 };
}
var DEFAULT_DEADLINES2, ANSWER_GRACE_MS, keys2;
var init_deadlines2 = __esm({
  "../../work/wt-dbl-chains/dbl/deadlines.ts"() {
    "use strict";
    DEFAULT_DEADLINES2 = {
      connectTimeoutMs: 5e3,
      acquireTimeoutMs: 5e3,
      statementTimeoutMs: 3e4,
      idleTimeoutMs: 1e4
    };
    ANSWER_GRACE_MS = 1e3;
    keys2 = Object.keys(DEFAULT_DEADLINES2);
  }
});

// ../../work/wt-dbl-chains/dbl/unavailable.ts
function isDbUnavailable2(value) {
  return value instanceof DbUnavailableError2;
}
function isDbOutcomeUnknown2(value) {
  return value instanceof DbOutcomeUnknownError2;
}
function forRead2(error) {
  return error instanceof DbOutcomeUnknownError2 ? error.unavailable : error;
}
function classify2(error, address, d2) {
  if (error instanceof DbUnavailableError2) return error;
  if (typeof error !== "object" || error === null) return void 0;
  const e = error;
  const code = typeof e.code === "string" ? e.code : void 0;
  const message = typeof e.message === "string" ? e.message : "";
  const make3 = (reason, text) => new DbUnavailableError2(reason, address, `database ${address}: ${text}`, { cause: error });
  if (message === "timeout exceeded when trying to connect") {
    return make3(
      "acquire_timeout",
      `no connection free within ${d2.acquireTimeoutMs} ms (acquireTimeoutMs; every pooled connection busy or connecting)`
    );
  }
  if (message === "Connection terminated due to connection timeout") {
    return make3("connect_timeout", `no connection within ${d2.acquireTimeoutMs} ms (acquireTimeoutMs)`);
  }
  if (message === "timeout expired")
    return make3("connect_timeout", `no connection within ${d2.connectTimeoutMs} ms (connectTimeoutMs)`);
  if (message === "Query read timeout") {
    return make3(
      "statement_timeout",
      `no answer within ${d2.answerTimeoutMs} ms (statementTimeoutMs ${d2.statementTimeoutMs} + ${d2.answerTimeoutMs - d2.statementTimeoutMs} ms grace)`
    );
  }
  if (code === "57014" && /statement timeout/.test(message)) {
    return make3("statement_timeout", `statement cancelled after ${d2.statementTimeoutMs} ms (statementTimeoutMs)`);
  }
  if (code && serverRefusals.has(code)) return make3("server_unavailable", `not serving: ${message} (${code})`);
  if (code?.startsWith("08")) return make3("connection_lost", `connection failed: ${message} (${code})`);
  if (code && refused.has(code)) return make3("unreachable", `unreachable: ${describeSocketError(code)}`);
  if (code && broken.has(code)) return make3("connection_lost", `connection lost: ${describeSocketError(code)}`);
  if (/^Connection terminated/.test(message) || /not queryable/.test(message))
    return make3("connection_lost", `connection lost: ${message}`);
  if (Array.isArray(e.errors) && e.errors.length) return classify2(e.errors[0], address, d2);
  return void 0;
}
function unanswered2(error, u) {
  if (u.reason !== "statement_timeout" && u.reason !== "connection_lost") return false;
  const e = typeof error === "object" && error !== null ? error : {};
  if (typeof e.code === "string" && SQLSTATE.test(e.code)) return false;
  return !(typeof e.message === "string" && /not queryable/.test(e.message));
}
function describeSocketError(code) {
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused (ECONNREFUSED)";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `host name not resolved (${code})`;
    case "ECONNRESET":
      return "connection reset (ECONNRESET)";
    default:
      return code;
  }
}
var DB_UNAVAILABLE2, DB_OUTCOME_UNKNOWN2, DbUnavailableError2, DbOutcomeUnknownError2, refused, broken, serverRefusals, SQLSTATE;
var init_unavailable2 = __esm({
  "../../work/wt-dbl-chains/dbl/unavailable.ts"() {
    "use strict";
    DB_UNAVAILABLE2 = "VELA_ERR_DB_UNAVAILABLE";
    DB_OUTCOME_UNKNOWN2 = "VELA_ERR_DB_OUTCOME_UNKNOWN";
    DbUnavailableError2 = class extends Error {
      constructor(reason, address, message, options) {
        super(message, options);
        this.reason = reason;
        this.address = address;
      }
      reason;
      address;
      name = "DbUnavailableError";
      code = DB_UNAVAILABLE2;
      /** The HTTP status a request failing on this should get: 503, with `Retry-After`. */
      status = 503;
    };
    DbOutcomeUnknownError2 = class extends DbUnavailableError2 {
      constructor(unavailable) {
        super(
          unavailable.reason,
          unavailable.address,
          `${unavailable.message}; the statement was sent and may have been applied`,
          { cause: unavailable }
        );
        this.unavailable = unavailable;
      }
      unavailable;
      name = "DbOutcomeUnknownError";
      code = DB_OUTCOME_UNKNOWN2;
      /** The HTTP status a request failing on this should get: 504, without `Retry-After`. */
      status = 504;
    };
    refused = /* @__PURE__ */ new Set([
      "ECONNREFUSED",
      "ENOTFOUND",
      "EAI_AGAIN",
      "EHOSTUNREACH",
      "ENETUNREACH",
      "EADDRNOTAVAIL",
      "ENOENT"
    ]);
    broken = /* @__PURE__ */ new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT", "ECONNABORTED"]);
    serverRefusals = /* @__PURE__ */ new Set(["57P01", "57P02", "57P03", "53300"]);
    SQLSTATE = /^[0-9A-Z]{5}$/;
  }
});

// ../../work/wt-dbl-chains/dbl/adapters/pg.ts
import { AsyncResource } from "node:async_hooks";
import pg2 from "pg";
function pgAddress2(opts) {
  if (opts.url) {
    const u = new URL(opts.url);
    return `${u.hostname || u.searchParams.get("host") || "localhost"}:${u.port || 5432}`;
  }
  return `${opts.hostname ?? "127.0.0.1"}:${opts.port ?? 5432}`;
}
function createPgAdapter2(opts) {
  const d2 = resolveDeadlines2(opts, "createPgAdapter");
  const address = pgAddress2(opts);
  const connectTimeoutMs = d2.connectTimeoutMs;
  class DeadlineClient extends pg2.Client {
    constructor(config) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
      this.on("error", () => {
      });
    }
  }
  const common = {
    max: opts.poolSize ?? 10,
    Client: DeadlineClient,
    connectionTimeoutMillis: d2.acquireTimeoutMs,
    idleTimeoutMillis: d2.idleTimeoutMs,
    statement_timeout: d2.statementTimeoutMs || void 0,
    query_timeout: d2.answerTimeoutMs || void 0
  };
  const pool = new pg2.Pool(
    opts.url ? { ...common, connectionString: opts.url } : {
      ...common,
      host: opts.hostname ?? "127.0.0.1",
      port: opts.port ?? 5432,
      database: opts.database,
      user: opts.username,
      password: opts.password
    }
  );
  pool.on("error", () => {
  });
  const clients = /* @__PURE__ */ new Set();
  pool.on("connect", (c) => clients.add(c));
  pool.on("remove", (c) => clients.delete(c));
  const failed = /* @__PURE__ */ new WeakMap();
  const release = (client) => client.release(failed.has(client) ? new Error("vela.dbl: connection failed, not reused") : void 0);
  function send(client, sql, params, alone, answerTimeoutMs, done) {
    const earlier = failed.get(client);
    if (earlier) return done(earlier);
    let answered = false;
    const callback = (e, res2) => {
      if (answered) return;
      answered = true;
      if (!e) return done(void 0, { rows: res2.rows, rowCount: res2.rowCount ?? res2.rows.length });
      const u = classify2(e, address, d2);
      if (!u) return done(e);
      failed.set(client, u);
      done(alone && unanswered2(e, u) ? new DbOutcomeUnknownError2(u) : u);
    };
    try {
      if (answerTimeoutMs)
        client.query(
          { text: sql, values: params, query_timeout: answerTimeoutMs },
          callback
        );
      else client.query(sql, params, callback);
    } catch (e) {
      callback(e, void 0);
    }
  }
  const run = (client, sql, params, alone, answerTimeoutMs) => new Promise(
    (resolve, reject) => send(client, sql, params, alone, answerTimeoutMs, (e, res2) => e ? reject(e) : resolve(res2))
  );
  function acquire(use, failedToConnect) {
    const caller = new AsyncResource("vela.dbl.acquire", { requireManualDestroy: true });
    pool.connect((e, client) => {
      caller.runInAsyncScope(() => e || !client ? failedToConnect(classify2(e, address, d2) ?? e) : use(client));
      caller.emitDestroy();
    });
  }
  const query2 = (sql, params) => new Promise(
    (resolve, reject) => acquire(
      (client) => send(client, sql, params, true, void 0, (e, res2) => {
        release(client);
        if (e) reject(e);
        else resolve(res2);
      }),
      reject
    )
  );
  async function withClient(fn) {
    const client = await new Promise((resolve, reject) => acquire(resolve, reject));
    try {
      return await fn(client);
    } finally {
      release(client);
    }
  }
  return {
    kind: "pg",
    query: query2,
    transaction: (fn) => withClient(async (client) => {
      await run(client, "BEGIN", void 0, false);
      try {
        const value = await fn({ query: (sql, params) => run(client, sql, params, false) });
        await run(client, "COMMIT", void 0, true);
        return value;
      } catch (err4) {
        if (!failed.has(client))
          await client.query("ROLLBACK").catch((e) => failed.set(client, classify2(e, address, d2) ?? e));
        throw err4;
      }
    }),
    session: (fn) => withClient(async (client) => {
      const conn = { query: (sql, params) => run(client, sql, params, true, NO_ANSWER_DEADLINE2) };
      if (!d2.statementTimeoutMs) return fn(conn);
      await conn.query("SET statement_timeout = 0");
      try {
        return await fn(conn);
      } finally {
        if (!failed.has(client))
          await conn.query("RESET statement_timeout").catch((e) => failed.set(client, e));
      }
    }),
    async close() {
      let timer;
      const bound = new Promise((resolve) => timer = setTimeout(resolve, connectTimeoutMs || 5e3));
      await Promise.race([pool.end(), bound]);
      clearTimeout(timer);
      for (const c of clients)
        c.connection?.stream?.destroy();
    }
  };
}
var NO_ANSWER_DEADLINE2;
var init_pg2 = __esm({
  "../../work/wt-dbl-chains/dbl/adapters/pg.ts"() {
    "use strict";
    init_deadlines2();
    init_unavailable2();
    pg2.types.setTypeParser(20, (v) => Number(v));
    pg2.types.setTypeParser(1082, (v) => v);
    NO_ANSWER_DEADLINE2 = 2 ** 31 - 1;
  }
});

// ../../work/wt-dbl-chains/dbl/db-error.ts
function toDbError2(error) {
  const e = typeof error === "object" && error !== null ? error : {};
  const code = str(e.code);
  return new DbError2({
    code,
    message: str(e.message) ?? String(error),
    constraintKind: code ? constraintKinds[code] : void 0,
    constraint: str(e.constraint),
    table: str(e.table),
    column: str(e.column),
    detail: str(e.detail)
  });
}
function isServerError2(error) {
  if (typeof error !== "object" || error === null) return false;
  const code = error.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith("08");
}
function isDbError2(value) {
  return typeof value === "object" && value !== null && value.kind === "db_error";
}
var DbError2, constraintKinds, str;
var init_db_error2 = __esm({
  "../../work/wt-dbl-chains/dbl/db-error.ts"() {
    "use strict";
    DbError2 = class extends Error {
      kind = "db_error";
      code;
      constraintKind;
      constraint;
      table;
      column;
      detail;
      /** 400 for a value the database refused (SQLSTATE class 22), else 500. */
      status;
      /** Whether a client may see `message`: only for the 400s, which describe the value it sent. */
      expose;
      constructor(fields) {
        super(fields.message);
        this.code = fields.code;
        this.constraintKind = fields.constraintKind;
        this.constraint = fields.constraint;
        this.table = fields.table;
        this.column = fields.column;
        this.detail = fields.detail;
        this.status = fields.code?.startsWith("22") ? 400 : 500;
        this.expose = this.status === 400;
      }
      /** The fields as a plain object (what JSON bodies and logs of `{ ok: false, error }` show). */
      toJSON() {
        const { kind, code, message, constraintKind, constraint, table: table2, column, detail } = this;
        return { kind, code, message, constraintKind, constraint, table: table2, column, detail };
      }
    };
    Object.defineProperty(DbError2.prototype, "name", { value: "DbError", writable: true, configurable: true });
    constraintKinds = {
      "23505": "unique",
      "23503": "foreign_key",
      // restrict_violation: ON DELETE RESTRICT refusing the delete of a still referenced row.
      "23001": "foreign_key",
      "23514": "check",
      "23502": "not_null",
      "23P01": "exclusion"
    };
    str = (v) => typeof v === "string" && v !== "" ? v : void 0;
  }
});

// ../../work/wt-dbl-chains/dbl/repo/start.ts
function resolveStartRetry2(opts = {}) {
  const out = { ...DEFAULT_START_RETRY, ...opts };
  for (const [key, min3] of [
    ["attempts", 1],
    ["delayMs", 0],
    ["timeoutMs", 0]
  ]) {
    const v = out[key];
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min3) {
      throw Object.assign(
        new Error(`defineRepo: startRetry.${key} must be a whole number \u2265 ${min3}, got ${String(v)}`),
        { code: "VELA_ERR_CONFIG" }
      );
    }
  }
  return out;
}
async function firstConnection2(probe, address, retry, log) {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await probe();
      return;
    } catch (e) {
      if (!isDbUnavailable2(e)) {
        if (!isServerError2(e)) throw e;
        const { message, code } = e;
        throw new DbUnavailableError2("refused", address, `database ${address}: ${message} (${code})`, { cause: e });
      }
      const delay = retry.delayMs * 2 ** (attempt - 1);
      if (attempt >= retry.attempts || Date.now() + delay - started > retry.timeoutMs) {
        const took = ((Date.now() - started) / 1e3).toFixed(1);
        throw new DbUnavailableError2(
          e.reason,
          e.address,
          `${e.message}; gave up after ${attempt} attempt${attempt > 1 ? "s" : ""} in ${took} s`,
          { cause: e }
        );
      }
      log(`${e.message}; attempt ${attempt + 1} of ${retry.attempts} in ${delay} ms`);
      await sleep(delay);
    }
  }
}
var DEFAULT_START_RETRY, sleep;
var init_start2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/start.ts"() {
    "use strict";
    init_db_error2();
    init_unavailable2();
    DEFAULT_START_RETRY = { attempts: 5, delayMs: 500, timeoutMs: 1e4 };
    sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  }
});

// ../../work/wt-dbl-chains/dbl/adapters/pglite-template.ts
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join as join3 } from "node:path";
import { PGlite as PGlite2 } from "@electric-sql/pglite";
function templateFile() {
  const version = pgliteVersion();
  const dir = privateTempDir();
  return version && dir ? join3(dir, `pglite-${version}-empty.tgz`) : void 0;
}
async function openPglite2(dataDir, options, file = templateFile()) {
  if (!file || dataDir !== void 0 && !isEmptyOrMissing(dataDir)) return PGlite2.create(dataDir, options);
  const template = readTemplate(file);
  if (template) {
    try {
      return await PGlite2.create(dataDir, { ...options, loadDataDir: template });
    } catch {
      forget(file);
      if (dataDir !== void 0)
        for (const entry of readdirSync(dataDir)) rmSync(join3(dataDir, entry), { recursive: true, force: true });
    }
  }
  const db = await PGlite2.create(dataDir, options);
  await saveTemplate(db, file);
  return db;
}
function readTemplate(file) {
  let blob = loaded.get(file);
  if (!blob && existsSync(file)) {
    try {
      blob = new Blob([readFileSync(file)]);
      loaded.set(file, blob);
    } catch {
      return void 0;
    }
  }
  return blob;
}
function forget(file) {
  loaded.delete(file);
  rmSync(file, { force: true });
}
async function saveTemplate(db, file) {
  try {
    const bytes = new Uint8Array(await (await db.dumpDataDir("gzip")).arrayBuffer());
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    writeFileSync(partial, bytes, { mode: 384 });
    renameSync(partial, file);
  } catch {
  }
}
function isEmptyOrMissing(dir) {
  try {
    return readdirSync(dir).length === 0;
  } catch (e) {
    return e.code === "ENOENT";
  }
}
function pgliteVersion() {
  try {
    const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
    return JSON.parse(readFileSync(join3(dirname(entry), "..", "package.json"), "utf8")).version;
  } catch {
    return void 0;
  }
}
function privateTempDir() {
  const uid = process.getuid?.();
  const dir = join3(tmpdir(), uid === void 0 ? "vela" : `vela-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 448 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return void 0;
    if (uid !== void 0 && (stat.uid !== uid || (stat.mode & 63) !== 0)) return void 0;
    return dir;
  } catch {
    return void 0;
  }
}
var loaded;
var init_pglite_template2 = __esm({
  "../../work/wt-dbl-chains/dbl/adapters/pglite-template.ts"() {
    "use strict";
    loaded = /* @__PURE__ */ new Map();
  }
});

// ../../work/wt-dbl-chains/dbl/adapters/turns.ts
function createTurns2(waitMs, onTimeout) {
  let busy = false;
  const waiting = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next.go();
    else busy = false;
  };
  const wait = () => new Promise((resolve, reject) => {
    const entry = {
      go() {
        clearTimeout(timer);
        resolve();
      }
    };
    const timer = waitMs ? setTimeout(() => {
      waiting.splice(waiting.indexOf(entry), 1);
      reject(onTimeout());
    }, waitMs) : void 0;
    waiting.push(entry);
  });
  return async (fn) => {
    if (busy) await wait();
    else busy = true;
    try {
      return await fn();
    } finally {
      release();
    }
  };
}
var init_turns2 = __esm({
  "../../work/wt-dbl-chains/dbl/adapters/turns.ts"() {
    "use strict";
  }
});

// ../../work/wt-dbl-chains/dbl/adapters/pglite.ts
import { mkdirSync as mkdirSync2 } from "node:fs";
import { types as types2 } from "@electric-sql/pglite";
async function createPgliteAdapter2(opts = {}) {
  const { acquireTimeoutMs } = resolveDeadlines2({ acquireTimeoutMs: opts.acquireTimeoutMs }, "createPgliteAdapter");
  if (opts.dataDir) mkdirSync2(opts.dataDir, { recursive: true });
  const db = await openPglite2(opts.dataDir, { parsers: parsers2 });
  const turn = createTurns2(
    acquireTimeoutMs,
    () => new DbUnavailableError2(
      "acquire_timeout",
      "PGlite",
      `database PGlite: no turn within ${acquireTimeoutMs} ms (acquireTimeoutMs; it runs one query or transaction at a time, and the current one is still running)`
    )
  );
  const run = async (q, sql, params) => {
    const res2 = await q.query(sql, params);
    return { rows: res2.rows, rowCount: res2.affectedRows || res2.rows.length };
  };
  const query2 = (sql, params) => turn(() => run(db, sql, params));
  return {
    kind: "pglite",
    query: query2,
    // The transaction holds the turn until it ends; its own statements run inside it.
    transaction: (fn) => turn(() => db.transaction((tx) => fn({ query: (sql, params) => run(tx, sql, params) }))),
    // PGlite has a single session: every call is already on "one connection".
    session: (fn) => fn({ query: query2 }),
    close: () => db.close()
  };
}
var parsers2;
var init_pglite2 = __esm({
  "../../work/wt-dbl-chains/dbl/adapters/pglite.ts"() {
    "use strict";
    init_deadlines2();
    init_unavailable2();
    init_pglite_template2();
    init_turns2();
    parsers2 = {
      [types2.INT8]: (v) => Number(v),
      [types2.DATE]: (v) => v
    };
  }
});

// ../../work/wt-dbl-chains/dbl/result.ts
function ok2(value) {
  return { ok: true, value };
}
function err2(error) {
  return { ok: false, error };
}
function isResult2(value) {
  return typeof value === "object" && value !== null && typeof value.ok === "boolean" && ("value" in value || "error" in value);
}
var init_result2 = __esm({
  "../../work/wt-dbl-chains/dbl/result.ts"() {
    "use strict";
  }
});

// ../../work/wt-dbl-chains/dbl/sql.ts
import knex2 from "knex";
function marker2(index) {
  return MARK2 + index;
}
function compiled2(key, build3) {
  const hit = cache3.get(key);
  if (hit) return hit;
  const native = build3().toSQL().toNative();
  const order = native.bindings.map((b) => {
    if (typeof b !== "number" || b < MARK2)
      throw new Error(`vela.dbl: unexpected literal binding ${String(b)} in ${native.sql}`);
    return b - MARK2;
  });
  const c = { sql: native.sql, order: order.every((v, i) => v === i) ? void 0 : order };
  if (cache3.size >= MAX_SHAPES2) cache3.clear();
  cache3.set(key, c);
  return c;
}
function paramsFor2(c, values) {
  return c.order ? c.order.map((i) => values[i]) : values;
}
function isJsonField2(field) {
  const t = field.type;
  return typeof t === "string" ? t === "jsonb" : "embedsOne" in t || "embedsMany" in t;
}
function dumpValue2(field, value) {
  if (value === null || value === void 0 || !isJsonField2(field)) return value;
  const text = jsonText2(value);
  if (text === void 0) throw new JsonValueError2(field.name);
  return text;
}
function sqlOf2(schema) {
  let s = schemaSql2.get(schema);
  if (!s) {
    if (schema.embedded)
      throw new Error(
        `schema ${schema.table} is embedded: it has no table; store it in a parent's embedsOne / embedsMany field`
      );
    const stored = schema.fields.filter((f) => !f.virtual);
    s = {
      columns: stored.map((f) => f.name),
      jsonbFields: stored.filter((f) => f.type === "jsonb").map((f) => f.name),
      embeds: stored.filter((f) => typeof f.type === "object" && ("embedsOne" in f.type || "embedsMany" in f.type))
    };
    schemaSql2.set(schema, s);
  }
  return s;
}
var kx2, MARK2, MAX_SHAPES2, cache3, JsonValueError2, schemaSql2;
var init_sql2 = __esm({
  "../../work/wt-dbl-chains/dbl/sql.ts"() {
    "use strict";
    init_cast2();
    kx2 = knex2({ client: "pg" });
    MARK2 = 1e9;
    MAX_SHAPES2 = 5e3;
    cache3 = /* @__PURE__ */ new Map();
    JsonValueError2 = class extends TypeError {
      constructor(field) {
        super(
          `vela.dbl: ${field}: a jsonb value JSON cannot carry (a function, a BigInt, a cycle, undefined in a list, NaN, a Map or Set, a NUL character)`
        );
        this.field = field;
      }
      field;
    };
    schemaSql2 = /* @__PURE__ */ new WeakMap();
  }
});

// ../../work/wt-dbl-chains/dbl/query/compile.ts
var compile_exports = {};
__export(compile_exports, {
  compileDeleteAll: () => compileDeleteAll2,
  compileSelect: () => compileSelect2,
  compileSelectKeyed: () => compileSelectKeyed,
  compileUpdateAll: () => compileUpdateAll2,
  quote: () => quote
});
function quote(id) {
  return id.indexOf('"') < 0 ? `"${id}"` : `"${id.replaceAll('"', '""')}"`;
}
function scopeOf2(q, outer) {
  if (!outer && q.joins.length === 0) {
    const root2 = q.schema.table;
    return { q, root: root2, rootQ: quote(root2), qualify: q.subqueries, aliases: void 0, used: NO_ALIASES };
  }
  const used = new Set(outer ? outer.used : void 0);
  if (outer) used.add(outer.root);
  const alloc = (name) => {
    let a = name;
    for (let i = 2; used.has(a); i++) a = `${name}_${i}`;
    used.add(a);
    return a;
  };
  const root = alloc(q.schema.table);
  const aliases = /* @__PURE__ */ new Map();
  for (const j of q.joins) {
    aliases.set(j.path, quote(alloc(j.path.replaceAll(".", "__"))));
    if (j.through) aliases.set(`${j.path}~through`, quote(alloc(`${j.path.replaceAll(".", "__")}__through`)));
  }
  const qualify = outer !== void 0 || q.joins.length > 0 || q.subqueries;
  return { q, root, rootQ: quote(root), qualify, aliases, used };
}
function col2(s, ref, qualify = s.qualify) {
  const dot = ref.lastIndexOf(".");
  if (dot < 0) return qualify ? `${s.rootQ}.${quote(ref)}` : quote(ref);
  return `${s.aliases.get(ref.slice(0, dot))}.${quote(ref.slice(dot + 1))}`;
}
function tableAs2(table2, aliasQ) {
  const t = quote(table2);
  return aliasQ === t ? t : `${t} as ${aliasQ}`;
}
function joinsSql(s) {
  let sql = "";
  for (const j of s.q.joins) {
    const dot = j.path.lastIndexOf(".");
    const parent = dot < 0 ? s.rootQ : s.aliases.get(j.path.slice(0, dot));
    const alias = s.aliases.get(j.path);
    const { assoc } = j;
    const kind = j.kind === "left" ? " left join " : " inner join ";
    const through = j.through;
    if (through) {
      const t = s.aliases.get(`${j.path}~through`);
      sql += `${kind}${tableAs2(through.table, t)} on ${t}.${quote(through.ownerKey)} = ${parent}.${quote(through.ownerColumn)}`;
      sql += `${kind}${tableAs2(assoc.related.table, alias)} on ${alias}.${quote(through.relatedColumn)} = ${t}.${quote(through.relatedKey)}`;
    } else if (assoc.kind === "belongsTo") {
      sql += `${kind}${tableAs2(assoc.related.table, alias)} on ${alias}.${quote(assoc.related.primaryKey)} = ${parent}.${quote(assoc.foreignKey)}`;
    } else {
      sql += `${kind}${tableAs2(assoc.related.table, alias)} on ${alias}.${quote(assoc.foreignKey)} = ${parent}.${quote(assoc.owner.primaryKey)}`;
    }
  }
  return sql;
}
function fieldOf2(q, ref) {
  return ref.indexOf(".") < 0 && q.schema.fieldsByName[ref] || resolveRef2(q.schema, q.joins, ref).field;
}
function param(w, value) {
  w.params.push(value);
  return w.emit ? `$${w.params.length}` : "";
}
function condSql(w, q, s, c) {
  switch (c["~cond"]) {
    case "op": {
      const op = c.op;
      w.key += `${c.field} ${op};`;
      if (op === "is null" || op === "is not null") return w.emit ? `${col2(s, c.field)} ${op}` : "";
      if (isQuery2(c.value)) {
        w.key += "(";
        const sub = selectSql(w, c.value, w.emit ? scopeOf2(c.value, s) : void 0, "in", void 0);
        w.key += ")";
        return w.emit ? `${col2(s, c.field)} ${op} (${sub})` : "";
      }
      const field = fieldOf2(q, c.field);
      if (op === "in" || op === "not in") {
        const p2 = param(
          w,
          c.value.map((v) => dumpValue2(field, v))
        );
        if (!w.emit) return "";
        return op === "in" ? `${col2(s, c.field)} = any(${p2})` : `not (${col2(s, c.field)} = any(${p2}))`;
      }
      const p = param(w, dumpValue2(field, c.value));
      if (!w.emit) return "";
      if (op === "not like" || op === "not ilike") return `not ${col2(s, c.field)} ${op.slice(4)} ${p}`;
      return `${col2(s, c.field)} ${op === "!=" ? "<>" : op} ${p}`;
    }
    case "and":
    case "or": {
      const kind = c["~cond"];
      w.key += `${kind}(`;
      if (c.conds.length === 0) {
        w.key += ")";
        return kind === "and" ? "true" : "false";
      }
      const sql = condsSql(w, q, s, c.conds, kind === "or" ? " or " : " and ");
      w.key += ")";
      return w.emit ? `(${sql})` : "";
    }
    case "not": {
      w.key += "not(";
      const sql = condSql(w, q, s, c.cond);
      w.key += ")";
      return w.emit ? `not (${sql})` : "";
    }
    case "exists": {
      w.key += `exists(${c.correlate ? c.correlate.join("=") : ""};`;
      const inner = w.emit ? scopeOf2(c.query, s) : void 0;
      const correlate = c.correlate && inner ? `${col2(inner, c.correlate[1])} = ${col2(s, c.correlate[0], true)}` : void 0;
      const sub = selectSql(w, c.query, inner, "exists", correlate);
      w.key += ")";
      return w.emit ? `exists (${sub})` : "";
    }
  }
}
function condsSql(w, q, s, conds, joiner) {
  let sql = condSql(w, q, s, conds[0]);
  for (let i = 1; i < conds.length; i++) {
    const next = condSql(w, q, s, conds[i]);
    if (w.emit) sql += joiner + next;
  }
  return sql;
}
function aggregateSql2(s, a) {
  if (a.arg === void 0) return "count(*)";
  const d2 = a.distinct ? "distinct " : "";
  if (typeof a.arg === "string") return `${a.fn}(${d2}${col2(s, a.arg)})`;
  return `${a.fn}(${d2}${col2(s, a.arg[0])} ${a.arg[1]} ${col2(s, a.arg[2])})`;
}
function columnsSql(s) {
  const q = s.q;
  if (q.columnsAs) {
    let sql = "";
    for (const name in q.columnsAs) {
      const v = q.columnsAs[name];
      if (sql) sql += ", ";
      if (typeof v !== "string") sql += `${aggregateSql2(s, v)} as ${quote(name)}`;
      else if (name === v && !s.qualify) sql += quote(v);
      else sql += `${col2(s, v)} as ${quote(name)}`;
    }
    return sql;
  }
  if (q.columns) {
    let sql = "";
    for (const ref of q.columns) {
      if (sql) sql += ", ";
      sql += ref.indexOf(".") < 0 ? col2(s, ref) : `${col2(s, ref)} as ${quote(ref)}`;
    }
    return sql;
  }
  const schema = q.schema;
  let all3 = allColumns.get(schema);
  if (!all3) {
    const cols = sqlOf2(schema).columns.map(quote);
    const t = quote(schema.table);
    all3 = { plain: cols.join(", "), qualified: cols.map((c) => `${t}.${c}`).join(", ") };
    allColumns.set(schema, all3);
  }
  if (!s.qualify) return all3.plain;
  if (s.root === schema.table) return all3.qualified;
  return sqlOf2(schema).columns.map((c) => `${s.rootQ}.${quote(c)}`).join(", ");
}
function columnsKey(q) {
  if (q.columnsAs) {
    let key = " as ";
    for (const name in q.columnsAs) {
      const v = q.columnsAs[name];
      key += `${name}=${typeof v === "string" ? v : aggregateKey2(v)},`;
    }
    return key;
  }
  return q.columns ? ` ${q.columns.join(",")}` : " *";
}
function checkLock2(q) {
  if (!q.rowLock) return;
  const aggregates = q.columnsAs !== void 0 && Object.values(q.columnsAs).some((v) => typeof v !== "string");
  if (q.countRows || q.isDistinct || q.groups.length || q.havings.length || aggregates) {
    throw new Error(
      `lock ${q.rowLock.mode}: rows of a count, distinct, grouped or aggregate query cannot be locked (lock the rows themselves)`
    );
  }
}
function selectSql(w, q, s, as, correlate) {
  checkLock2(q);
  const emit = w.emit;
  w.key += q.schema.table;
  for (const j of q.joins) w.key += ` ${j.kind} ${j.path}`;
  w.key += columnsKey(q);
  let sql = "";
  if (emit) {
    const keepColumns = q.isDistinct || q.groups.length > 0 || q.columnsAs !== void 0;
    sql = q.isDistinct && as !== "exists" ? "select distinct " : "select ";
    sql += as === "exists" || q.countRows && !keepColumns ? "1" : columnsSql(s);
    sql += ` from ${tableAs2(q.schema.table, s.rootQ)}`;
    if (q.joins.length) sql += joinsSql(s);
  }
  if (q.conds.length) {
    w.key += " where ";
    const where3 = condsSql(w, q, s, q.conds, " and ");
    if (emit) sql += ` where ${where3}${correlate ? ` and ${correlate}` : ""}`;
  } else if (correlate) sql += ` where ${correlate}`;
  if (q.groups.length) {
    w.key += ` group ${q.groups.join(",")}`;
    if (emit) {
      sql += " group by ";
      for (let i = 0; i < q.groups.length; i++) sql += (i ? ", " : "") + col2(s, q.groups[i]);
    }
  }
  for (let i = 0; i < q.havings.length; i++) {
    const h = q.havings[i];
    w.key += ` having ${aggregateKey2(h.aggregate)}${h.op}`;
    const p = param(w, h.value);
    if (emit) sql += `${i ? " and " : " having "}${aggregateSql2(s, h.aggregate)} ${h.op === "!=" ? "<>" : h.op} ${p}`;
  }
  if (q.countRows) w.key += " count";
  else if (as !== "exists" && q.order.length) {
    w.key += " order";
    if (emit) sql += " order by ";
    for (let i = 0; i < q.order.length; i++) {
      const [f, d2] = q.order[i];
      w.key += ` ${f} ${d2}`;
      if (emit) sql += `${i ? ", " : ""}${q.columnsAs && Object.hasOwn(q.columnsAs, f) ? quote(f) : col2(s, f)} ${d2}`;
    }
  }
  if (q.isDistinct) w.key += " distinct";
  if (q.maxRows !== void 0) {
    w.key += " limit";
    const p = param(w, q.maxRows);
    if (emit) sql += ` limit ${p}`;
  }
  if (q.skipRows !== void 0) {
    w.key += " offset";
    const p = param(w, q.skipRows);
    if (emit) sql += ` offset ${p}`;
  }
  if (q.rowLock) {
    const l = ` ${q.rowLock.mode}${q.rowLock.skipLocked ? " skip locked" : ""}${q.rowLock.noWait ? " nowait" : ""}`;
    w.key += l;
    sql += l;
  }
  return sql;
}
function shapeOf2(q) {
  if (q.countRows) return null;
  if (q.columnsAs) {
    const numeric3 = Object.entries(q.columnsAs).filter(
      ([, v]) => typeof v !== "string" && (v.fn === "sum" || v.fn === "avg" || (v.fn === "min" || v.fn === "max") && Array.isArray(v.arg))
    ).map(([n]) => n);
    if (numeric3.length === 0) return null;
    return (row) => {
      for (const n of numeric3) if (typeof row[n] === "string") row[n] = Number(row[n]);
      return row;
    };
  }
  const nested2 = (q.columns ?? []).filter((r) => r.indexOf(".") >= 0).map((r) => [r, r.split(".")]);
  if (nested2.length === 0) return null;
  const plain = q.columns.filter((r) => r.indexOf(".") < 0);
  return (row) => {
    const out = {};
    for (const k of plain) out[k] = row[k];
    for (const [k, path3] of nested2) {
      let o = out;
      for (let i = 0; i < path3.length - 1; i++) o = o[path3[i]] ??= {};
      o[path3[path3.length - 1]] = row[k];
    }
    return out;
  };
}
function walkSelect(q, emit) {
  const w = { key: "select ", params: [], emit };
  let sql = selectSql(w, q, emit ? scopeOf2(q, void 0) : void 0, "top", void 0);
  if (emit && q.countRows) sql = `select count(*) as "count" from (${sql}) as "counted"`;
  return { key: w.key, sql, params: w.params };
}
function compileSelectKeyed(q) {
  let { key, params } = walkSelect(q, false);
  let hit = cache4.get(key);
  if (!hit) {
    const full = walkSelect(q, true);
    ({ key, params } = full);
    if (cache4.size >= MAX_SHAPES3) cache4.clear();
    cache4.set(key, hit = { sql: full.sql, shape: shapeOf2(q) ?? void 0 });
  }
  return { key, sql: hit.sql, params, shape: hit.shape };
}
function compileSelect2(q) {
  return compileSelectKeyed(q);
}
function checkBulk2(q, what) {
  if (q.maxRows !== void 0 || q.skipRows !== void 0 || q.order.length || q.columns || q.columnsAs || q.countRows || q.joins.length || q.groups.length || q.havings.length || q.isDistinct || q.rowLock) {
    throw new Error(
      `${what}: only where clauses apply (no join, limit, offset, orderBy, select, groupBy, having, distinct, lock or count)`
    );
  }
}
function whereSql(q, params) {
  if (!q.conds.length) return "";
  const w = { key: "", params, emit: true };
  return ` where ${condsSql(w, q, scopeOf2(q, void 0), q.conds, " and ")}`;
}
function compileUpdateAll2(q, set) {
  checkBulk2(q, "updateAll");
  const fields = Object.keys(set).sort();
  if (fields.length === 0) throw new Error("updateAll: nothing to set");
  const params = [];
  let sql = `update ${quote(q.schema.table)} set `;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    params.push(dumpValue2(q.schema.fieldsByName[f], set[f]));
    sql += `${i ? ", " : ""}${quote(f)} = $${params.length}`;
  }
  sql += whereSql(q, params);
  return { sql, params };
}
function compileDeleteAll2(q) {
  checkBulk2(q, "deleteAll");
  const params = [];
  const sql = `delete from ${quote(q.schema.table)}${whereSql(q, params)}`;
  return { sql, params };
}
var NO_ALIASES, allColumns, MAX_SHAPES3, cache4;
var init_compile = __esm({
  "../../work/wt-dbl-chains/dbl/query/compile.ts"() {
    "use strict";
    init_aggregate();
    init_paths();
    init_value();
    init_sql2();
    NO_ALIASES = /* @__PURE__ */ new Set();
    allColumns = /* @__PURE__ */ new WeakMap();
    MAX_SHAPES3 = 5e3;
    cache4 = /* @__PURE__ */ new Map();
  }
});

// ../../work/wt-dbl-chains/dbl/record-origin.ts
function markRows2(schema, rows) {
  for (const row of rows) if (typeof row === "object" && row !== null) origin.set(row, schema);
}
function schemaOfRecord2(record) {
  return typeof record === "object" && record !== null ? origin.get(record) : void 0;
}
var origin;
var init_record_origin2 = __esm({
  "../../work/wt-dbl-chains/dbl/record-origin.ts"() {
    "use strict";
    origin = /* @__PURE__ */ new WeakMap();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/load-rows.ts
function loadRows2(schema, rows) {
  markRows2(schema, rows);
  const embeds = sqlOf2(schema).embeds;
  if (embeds.length === 0) return rows;
  for (const row of rows) {
    for (const f of embeds) {
      const v = row[f.name];
      if (v === null || v === void 0) continue;
      const t = f.type;
      if (t.embedsOne) row[f.name] = castEmbedded2(t.embedsOne, v, true);
      else if (Array.isArray(v)) row[f.name] = v.map((x) => castEmbedded2(t.embedsMany, x, true));
    }
  }
  return rows;
}
var init_load_rows = __esm({
  "../../work/wt-dbl-chains/dbl/repo/load-rows.ts"() {
    "use strict";
    init_cast2();
    init_record_origin2();
    init_sql2();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/context.ts
function exec2(ctx, sql, params, label2) {
  const conn = ctx.tx.getStore()?.conn ?? ctx.adapter;
  return conn ? ctx.run(conn, sql, params, label2) : ctx.start().then((adapter) => ctx.run(adapter, sql, params, label2));
}
function failure2(error) {
  if (isServerError2(error)) return err2(toDbError2(error));
  throw error;
}
function throwRead(error) {
  const e = forRead2(error);
  throw isServerError2(e) ? toDbError2(e) : e;
}
var init_context4 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/context.ts"() {
    "use strict";
    init_db_error2();
    init_result2();
    init_unavailable2();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/bulk.ts
function checkKeys(schema, row, what) {
  for (const k of Object.keys(row)) {
    if (!Object.hasOwn(schema.fieldsByName, k))
      throw new Error(`${what}: schema ${schema.table} has no field ${JSON.stringify(k)}`);
    if (schema.fieldsByName[k].virtual) throw new Error(`${what}: ${schema.table}.${k} is virtual (never stored)`);
  }
}
async function insertAll2(ctx, schema, rows) {
  if (rows.length === 0) return ok2({ count: 0, rows: [] });
  const now = /* @__PURE__ */ new Date();
  const stamps = ["inserted_at", "updated_at"].filter((t) => schema.fieldsByName[t]);
  const fields = new Set(stamps);
  for (const r of rows) {
    checkKeys(schema, r, "insertAll");
    for (const k of Object.keys(r)) fields.add(k);
  }
  const columns2 = [...fields].sort();
  const values = [];
  const data = rows.map((r) => {
    const src = r;
    const out = {};
    for (const c of columns2) {
      const v = src[c] == null && stamps.includes(c) ? now : src[c];
      if (v === void 0) continue;
      out[c] = marker2(values.length);
      values.push(dumpValue2(schema.fieldsByName[c], v));
    }
    return out;
  });
  const native = kx2(schema.table).insert(data).returning(sqlOf2(schema).columns).toSQL().toNative();
  const params = native.bindings.map((b) => values[b - marker2(0)]);
  try {
    const res2 = await exec2(ctx, native.sql, params, `INSERT ${schema.table}`);
    return ok2({ count: res2.rowCount, rows: loadRows2(schema, res2.rows) });
  } catch (e) {
    return failure2(e);
  }
}
async function updateAll2(ctx, q, set) {
  checkKeys(q.schema, set, "updateAll");
  const { sql, params } = compileUpdateAll2(q, set);
  try {
    return ok2({ count: (await exec2(ctx, sql, params, `UPDATE ${q.schema.table}`)).rowCount });
  } catch (e) {
    return failure2(e);
  }
}
async function deleteAll2(ctx, q) {
  const { sql, params } = compileDeleteAll2(q);
  try {
    return ok2({ count: (await exec2(ctx, sql, params, `DELETE ${q.schema.table}`)).rowCount });
  } catch (e) {
    return failure2(e);
  }
}
var init_bulk2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/bulk.ts"() {
    "use strict";
    init_compile();
    init_result2();
    init_sql2();
    init_load_rows();
    init_context4();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/transaction.ts
function rollback3(ctx, value) {
  if (!ctx.tx.getStore()) throw new Error("repo.rollback() called outside a transaction");
  throw new Rollback(value);
}
function asResult(value) {
  return isResult2(value) ? value : ok2(value);
}
async function transaction2(ctx, fn) {
  const outer = ctx.tx.getStore();
  if (outer) return nested(outer, fn);
  const adapter = ctx.adapter ?? await ctx.start();
  try {
    const value = await adapter.transaction(async (conn) => {
      const state = { conn, tainted: void 0 };
      const v = await ctx.tx.run(state, fn);
      if (state.tainted) throw new Rollback(state.tainted.value);
      if (isResult2(v) && !v.ok) throw new Rollback(v.error);
      return v;
    });
    return asResult(value);
  } catch (e) {
    if (e instanceof Rollback) return err2(e.value);
    throw e;
  }
}
async function nested(state, fn) {
  try {
    const v = await fn();
    if (isResult2(v) && !v.ok) state.tainted ??= { value: v.error };
    return asResult(v);
  } catch (e) {
    state.tainted ??= { value: e instanceof Rollback ? e.value : e };
    if (e instanceof Rollback) return err2(e.value);
    throw e;
  }
}
var Rollback;
var init_transaction2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/transaction.ts"() {
    "use strict";
    init_result2();
    Rollback = class {
      value;
      constructor(value) {
        this.value = value;
      }
    };
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/columns.ts
function ident2(name) {
  if (name.length === 0) throw new Error("an empty name is not a valid table, column or index name");
  if (Buffer.byteLength(name) > MAX_IDENTIFIER) {
    throw new Error(`"${name}" is longer than ${MAX_IDENTIFIER} bytes; PostgreSQL would truncate it`);
  }
  if (name.includes("\0")) throw new Error("a name cannot contain a NUL character");
  return `"${name.replaceAll('"', '""')}"`;
}
function storedType2(type) {
  if (typeof type === "string") return type;
  if ("enum" in type) return "string";
  if ("embedsOne" in type || "embedsMany" in type) return "jsonb";
  return { array: storedType2(type.array) };
}
function baseType(type) {
  return typeof type === "object" && "array" in type ? baseType(type.array) : type;
}
function resolveColumn2(column) {
  const type = storedType2(column.type);
  const primaryKey = column.primaryKey ?? false;
  const size = baseType(type) === "string" && column.size !== void 0 && column.size !== 255 ? column.size : void 0;
  if (size !== void 0 && !(Number.isInteger(size) && size > 0 && size <= 10485760)) {
    throw new Error(`column ${column.name}: size ${size} is not a VARCHAR size (1 to 10485760)`);
  }
  if (type === "id" && column.default !== void 0 && column.default !== null) {
    throw new Error(`column ${column.name}: an id column takes its default from its sequence; remove \`default\``);
  }
  return {
    name: column.name,
    type,
    primaryKey,
    nullable: primaryKey ? false : column.nullable ?? type !== "id",
    default: column.default === null ? void 0 : column.default,
    size,
    references: column.references ? resolveReferences2(column.references, `column ${column.name}`) : void 0
  };
}
function resolveReferences2(refs, where3) {
  const onDelete = refs.onDelete ?? "no_action";
  if (!Object.hasOwn(ON_DELETE, onDelete)) {
    throw new Error(`${where3}: onDelete ${JSON.stringify(onDelete)} is not one of ${Object.keys(ON_DELETE).join(", ")}`);
  }
  if (typeof refs.table !== "string" || refs.table === "") throw new Error(`${where3}: references needs a \`table\``);
  return { table: refs.table, column: refs.column ?? "id", onDelete };
}
function fkeyName2(table2, column) {
  return `${table2}_${column}_fkey`;
}
function sameReferences2(a, b) {
  if (!a || !b) return a === b;
  return a.table === b.table && a.column === b.column && a.onDelete === b.onDelete;
}
function sqlType2(type, size, serial = true) {
  if (typeof type === "object") {
    if ("enum" in type) return "varchar(255)";
    if (!("array" in type)) return "jsonb";
    return `${sqlType2(type.array, size, false)}[]`;
  }
  switch (type) {
    case "id":
      return serial ? "bigserial" : "bigint";
    case "string":
      return `varchar(${size ?? 255})`;
    case "text":
      return "text";
    case "integer":
      return "integer";
    case "float":
      return "double precision";
    case "boolean":
      return "boolean";
    case "utc_datetime":
      return "timestamptz";
    case "date":
      return "date";
    case "uuid":
      return "uuid";
    case "jsonb":
      return "jsonb";
  }
  throw new Error(`unknown column type ${JSON.stringify(type)}`);
}
function typeLabel2(type) {
  return typeof type === "string" ? type : JSON.stringify(type);
}
function arrayElement(value, type, where3) {
  if (value === null) return "NULL";
  if (Array.isArray(value)) return `{${value.map((v) => arrayElement(v, type, where3)).join(",")}}`;
  const text = scalarText(value, baseType(type), where3);
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
function scalarText(value, type, where3) {
  const bad = () => new Error(`${where3}: default ${describe(value)} does not fit type ${typeLabel2(type)}`);
  switch (type) {
    case "integer":
    case "id":
      if (typeof value !== "number" || !Number.isSafeInteger(value)) throw bad();
      return String(value);
    case "float":
      if (typeof value !== "number" || !Number.isFinite(value)) throw bad();
      return String(value);
    case "boolean":
      if (typeof value !== "boolean") throw bad();
      return String(value);
    case "utc_datetime":
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
      if (typeof value !== "string") throw bad();
      return value;
    case "date":
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString().slice(0, 10);
      if (typeof value !== "string") throw bad();
      return value;
    case "string":
    case "text":
    case "uuid":
      if (typeof value !== "string") throw bad();
      return value;
    case "jsonb": {
      const json = JSON.stringify(value);
      if (json === void 0) throw bad();
      return json;
    }
  }
  throw bad();
}
function describe(value) {
  if (value instanceof Date) return `Date(${value.toISOString()})`;
  return JSON.stringify(value) ?? String(value);
}
function defaultSql2(value, type, where3) {
  if (value === void 0 || value === null) return void 0;
  const stored = storedType2(type);
  if (typeof stored === "object") {
    if (!Array.isArray(value))
      throw new Error(`${where3}: default ${describe(value)} does not fit type ${typeLabel2(type)}`);
    return quote2(arrayElement(value, stored, where3));
  }
  return quote2(scalarText(value, stored, where3));
}
function generatedDefaultSql2(column, singleKey) {
  return singleKey && column.primaryKey && column.type === "uuid" && column.default === void 0 ? "gen_random_uuid()" : void 0;
}
function untypedDefaultSql2(value, where3) {
  if (value === void 0 || value === null) return void 0;
  if (Array.isArray(value)) {
    throw new Error(`${where3}: an array default needs the column's \`type\` next to it (PostgreSQL array or jsonb?)`);
  }
  if (typeof value === "object" && !(value instanceof Date)) return defaultSql2(value, "jsonb", where3);
  if (typeof value === "number") return defaultSql2(value, Number.isInteger(value) ? "integer" : "float", where3);
  if (typeof value === "boolean") return defaultSql2(value, "boolean", where3);
  if (value instanceof Date) return defaultSql2(value, "utc_datetime", where3);
  return defaultSql2(value, "text", where3);
}
var MAX_IDENTIFIER, ON_DELETE, onDeleteSql2, quote2;
var init_columns2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/columns.ts"() {
    "use strict";
    MAX_IDENTIFIER = 63;
    ON_DELETE = {
      no_action: "NO ACTION",
      restrict: "RESTRICT",
      cascade: "CASCADE",
      set_null: "SET NULL"
    };
    onDeleteSql2 = (onDelete) => ON_DELETE[onDelete];
    quote2 = (s) => {
      if (s.includes("\0")) throw new Error("a default cannot contain a NUL character");
      return `'${s.replaceAll("'", "''")}'`;
    };
  }
});

// ../../work/wt-dbl-chains/dbl/repo/through-sql.ts
function keyType(schema) {
  const f = schema.fieldsByName[schema.primaryKey];
  return sqlType2(storedType2(f.type), f.size, false);
}
function selectThrough2(t) {
  const related = t.related;
  return compiled2(
    `through select ${shape(t)}`,
    () => kx2(related.table).join(t.table, `${t.table}.${t.relatedKey}`, `${related.table}.${t.relatedColumn}`).select([
      ...sqlOf2(related).columns.map((c) => `${related.table}.${c}`),
      { [OWNER_ALIAS2]: `${t.table}.${t.ownerKey}` }
    ]).whereRaw("?? = any(?)", [`${t.table}.${t.ownerKey}`, marker2(0)]).orderBy(`${related.table}.${t.relatedColumn}`)
  );
}
function deleteOtherLinks2(t) {
  return compiled2(
    `through delete ${shape(t)}`,
    () => kx2(t.table).where(t.ownerKey, marker2(0)).whereRaw("not (?? = any(?))", [t.relatedKey, marker2(1)]).del()
  );
}
function insertLinks2(owner, t) {
  return compiled2(
    `through insert ${owner.table}.${owner.primaryKey} ${shape(t)}`,
    () => kx2.into(kx2.raw("?? (??, ??)", [t.table, t.ownerKey, t.relatedKey])).insert(
      kx2.select(
        kx2.raw(`?::${keyType(owner)}`, [marker2(0)]),
        kx2.raw(`unnest(?::${keyType(t.related)}[])`, [marker2(1)])
      )
    ).onConflict().ignore()
  );
}
var OWNER_ALIAS2, shape;
var init_through_sql2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/through-sql.ts"() {
    "use strict";
    init_columns2();
    init_sql2();
    OWNER_ALIAS2 = "__vela_owner";
    shape = (t) => `${t.table} ${t.ownerKey} ${t.relatedKey} ${t.related.table}.${t.relatedColumn}`;
  }
});

// ../../work/wt-dbl-chains/dbl/repo/links.ts
async function replaceLinks2(ctx, cs, assoc, ownerKey, linked, replacing) {
  const t = assoc.through;
  const keys3 = [...new Set(linked.map((r) => r[t.relatedColumn]))];
  try {
    if (replacing) {
      const c = deleteOtherLinks2(t);
      await exec2(ctx, c.sql, paramsFor2(c, [ownerKey, keys3]), `DELETE ${t.table}`);
    }
    if (keys3.length > 0) {
      const c = insertLinks2(cs.schema, t);
      await exec2(ctx, c.sql, paramsFor2(c, [ownerKey, keys3]), `INSERT ${t.table}`);
    }
    return ok2(void 0);
  } catch (e) {
    if (!isServerError2(e)) throw e;
    const dbError = toDbError2(e);
    const missing = dbError.constraintKind === "foreign_key" && dbError.table === t.table && (dbError.constraint === fkeyName2(t.table, t.relatedKey) || (dbError.detail ?? "").startsWith(`Key (${t.relatedKey})=`));
    if (missing)
      return err2(
        addError2(cs, assoc.name, "does not exist", { constraint: "foreign_key", constraint_name: dbError.constraint })
      );
    return err2(constraintError2(cs, dbError) ?? dbError);
  }
}
var init_links2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/links.ts"() {
    "use strict";
    init_changeset2();
    init_constraints2();
    init_db_error2();
    init_columns2();
    init_result2();
    init_sql2();
    init_context4();
    init_through_sql2();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/write.ts
function withAction(cs, action) {
  return cs.action === action ? cs : { ...cs, action };
}
function sizeErrors(cs) {
  let out = cs;
  for (const [name, value] of Object.entries(cs.changes)) {
    const f = cs.schema.fieldsByName[name];
    if (f.type === "jsonb" && value === void 0 && !out.errors.some((x) => x.field === name))
      out = addError2(out, name, "is invalid", { type: "jsonb", validation: "cast" });
    if (f.type !== "string" || typeof value !== "string" || f.virtual) continue;
    const e = varcharError2(name, value, f.size ?? 255);
    if (e && !out.errors.some((x) => x.field === name && x.message === e.message))
      out = addError2(out, name, e.message, e.meta);
  }
  return out;
}
function hasChildren(cs) {
  return Object.entries(cs.assocChanges).some(
    ([name, list2]) => list2.length > 0 || cs.schema.associations[name]?.kind === "manyToMany"
  );
}
function writeFailure(cs, e) {
  if (e instanceof JsonValueError2)
    return err2(addError2(cs, e.field, "is invalid", { type: "jsonb", validation: "cast" }));
  if (!isServerError2(e)) throw e;
  const dbError = toDbError2(e);
  return err2(constraintError2(cs, dbError) ?? dbError);
}
function conflictKey(conflict) {
  if (!conflict) return "";
  if ("action" in conflict) {
    if (conflict.action !== "nothing" || "replace" in conflict)
      throw new Error(`insert onConflict: give { target, replace } or { target?, action: 'nothing' }`);
    return ` on ${(conflict.target ?? []).join(",")} nothing`;
  }
  return ` on ${conflict.target.join(",")} set ${conflict.replace.join(",")}`;
}
async function insertRow(ctx, schema, row, opts) {
  const fields = Object.keys(row).sort();
  const conflict = opts.onConflict;
  const c = compiled2(`insert ${schema.table} ${fields.join(",")}${conflictKey(conflict)}`, () => {
    const data = {};
    fields.forEach((f, i) => data[f] = marker2(i));
    const q = kx2(schema.table).insert(data).returning(sqlOf2(schema).columns);
    if (!conflict) return q;
    if ("action" in conflict)
      return (conflict.target?.length ? q.onConflict(conflict.target) : q.onConflict()).ignore();
    return q.onConflict(conflict.target).merge(conflict.replace);
  });
  const values = fields.map((f) => dumpValue2(schema.fieldsByName[f], row[f]));
  const res2 = await exec2(ctx, c.sql, paramsFor2(c, values), `INSERT ${schema.table}`);
  return loadRows2(schema, res2.rows)[0] ?? null;
}
async function insert2(ctx, input, opts = {}) {
  const cs = sizeErrors(withAction(input, "insert"));
  if (!cs.valid || cs.errors.length) return err2(cs);
  if (hasChildren(cs)) return inTransaction(ctx, () => insertWithChildren(ctx, cs, opts));
  return insertOne(ctx, cs, opts);
}
async function insertOne(ctx, cs, opts) {
  const schema = cs.schema;
  const row = {};
  const merged = { ...cs.data, ...cs.changes };
  for (const f of schema.fields) {
    const v = merged[f.name];
    if (v !== void 0 && !f.virtual && !(f.primaryKey && v === null)) row[f.name] = v;
  }
  const now = /* @__PURE__ */ new Date();
  for (const t of ["inserted_at", "updated_at"]) if (schema.fieldsByName[t] && row[t] == null) row[t] = now;
  try {
    return ok2(await insertRow(ctx, schema, row, opts));
  } catch (e) {
    return writeFailure(cs, e);
  }
}
async function inTransaction(ctx, fn) {
  const res2 = await transaction2(ctx, fn);
  return res2;
}
async function insertWithChildren(ctx, cs, opts) {
  const parent = await insertOne(ctx, cs, opts);
  if (!parent.ok || parent.value === null) return parent;
  return saveChildren(ctx, cs, parent.value);
}
async function saveChildren(ctx, cs, parent) {
  const out = { ...parent };
  for (const [name, children] of Object.entries(cs.assocChanges)) {
    const assoc = resolveAssoc2(cs.schema, name);
    const key = parent[cs.schema.primaryKey];
    const saved = [];
    for (let i = 0; i < children.length; i++) {
      const child = assoc.through ? children[i] : putChange2(children[i], assoc.foreignKey, key);
      const res2 = child.action === "update" ? await update2(ctx, child) : await insert2(ctx, child);
      if (!res2.ok) {
        if (!isChangesetError(res2.error)) return res2;
        const list2 = [...children];
        list2[i] = res2.error;
        return err2({ ...cs, assocChanges: { ...cs.assocChanges, [name]: list2 }, valid: false });
      }
      saved.push(res2.value);
    }
    if (assoc.through) {
      const linked = await replaceLinks2(ctx, cs, assoc, key, saved, cs.action === "update");
      if (!linked.ok) return linked;
    }
    out[name] = assoc.kind === "hasOne" ? saved[0] ?? null : assoc.through ? onceEach(saved, assoc.related.primaryKey) : saved;
  }
  return ok2(out);
}
function onceEach(records, pk) {
  const seen = /* @__PURE__ */ new Set();
  return records.filter((r) => !seen.has(r[pk]) && (seen.add(r[pk]), true));
}
function isChangesetError(e) {
  return typeof e === "object" && e !== null && e.kind === "vela.changeset";
}
function stale(cs) {
  return err2(addError2(cs, Object.keys(cs.filters)[0] ?? cs.schema.primaryKey, "is stale", { stale: true }));
}
function filtered(cs, b, first) {
  let i = first;
  b.where(cs.schema.primaryKey, marker2(i++));
  for (const f of Object.keys(cs.filters).sort()) {
    if (cs.filters[f] === null) b.whereNull(f);
    else b.where(f, marker2(i++));
  }
  return b;
}
function filterKey(cs) {
  const keys3 = Object.keys(cs.filters);
  return keys3.length ? ` if ${keys3.sort().map((f) => cs.filters[f] === null ? f + " null" : f).join(",")}` : "";
}
function filterValues(cs) {
  const out = [];
  for (const f of Object.keys(cs.filters).sort())
    if (cs.filters[f] !== null) out.push(dumpValue2(cs.schema.fieldsByName[f], cs.filters[f]));
  return out;
}
async function update2(ctx, input) {
  const cs = sizeErrors(withAction(input, "update"));
  if (!cs.valid || cs.errors.length) return err2(cs);
  const schema = cs.schema;
  const id = cs.data[schema.primaryKey];
  if (id === void 0 || id === null)
    throw new Error(`update: the changeset's data has no ${schema.primaryKey}; insert it instead`);
  const changes = {};
  for (const [k, v] of Object.entries(cs.changes)) if (!schema.fieldsByName[k].virtual) changes[k] = v;
  const fields = Object.keys(changes);
  if (fields.length === 0 && !hasChildren(cs)) return ok2({ ...cs.data });
  if (hasChildren(cs)) {
    return inTransaction(ctx, async () => {
      const parent = await update2(ctx, { ...cs, assocChanges: {} });
      return parent.ok ? saveChildren(ctx, cs, parent.value) : parent;
    });
  }
  if (schema.fieldsByName.updated_at && !("updated_at" in changes)) changes.updated_at = /* @__PURE__ */ new Date();
  const set = Object.keys(changes).sort();
  const c = compiled2(`update ${schema.table} ${set.join(",")}${filterKey(cs)}`, () => {
    const data = {};
    set.forEach((f, i) => data[f] = marker2(i));
    return filtered(cs, kx2(schema.table).update(data), set.length).returning(sqlOf2(schema).columns);
  });
  try {
    const values = set.map((f) => dumpValue2(schema.fieldsByName[f], changes[f]));
    values.push(id, ...filterValues(cs));
    const res2 = await exec2(ctx, c.sql, paramsFor2(c, values), `UPDATE ${schema.table}`);
    return res2.rows.length ? ok2(loadRows2(schema, res2.rows)[0]) : stale(cs);
  } catch (e) {
    return writeFailure(cs, e);
  }
}
async function remove2(ctx, input) {
  const cs = withAction(input, "delete");
  if (!cs.valid) return err2(cs);
  const schema = cs.schema;
  const id = cs.data[schema.primaryKey];
  if (id === void 0 || id === null) throw new Error(`delete: the record has no ${schema.primaryKey}`);
  const c = compiled2(
    `delete ${schema.table}${filterKey(cs)}`,
    () => filtered(cs, kx2(schema.table), 0).del().returning(sqlOf2(schema).columns)
  );
  try {
    const res2 = await exec2(ctx, c.sql, [id, ...filterValues(cs)], `DELETE ${schema.table}`);
    return res2.rows.length ? ok2(loadRows2(schema, res2.rows)[0]) : stale(cs);
  } catch (e) {
    return writeFailure(cs, e);
  }
}
var init_write2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/write.ts"() {
    "use strict";
    init_assoc2();
    init_changeset2();
    init_constraints2();
    init_db_error2();
    init_result2();
    init_sql2();
    init_load_rows();
    init_context4();
    init_links2();
    init_transaction2();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/multi.ts
async function runMulti2(ctx, repo, m) {
  const res2 = await transaction2(ctx, async () => {
    const changes = {};
    for (const step of m.steps) {
      let out;
      try {
        if (step.op === "run") {
          const v = await step.fn(repo, { ...changes });
          out = isResult2(v) ? v : ok2(v);
        } else {
          const cs = step.changeset({ ...changes });
          out = step.op === "insert" ? await insert2(ctx, cs) : step.op === "update" ? await update2(ctx, cs) : await remove2(ctx, cs);
        }
      } catch (e) {
        throw Object.assign(e instanceof Error ? e : new Error(String(e)), { multiStep: step.name });
      }
      if (!out.ok) rollback3(ctx, { step: step.name, error: out.error, completed: { ...changes } });
      changes[step.name] = out.value;
    }
    return changes;
  });
  return res2.ok ? ok2(res2.value) : err2(res2.error);
}
var init_multi3 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/multi.ts"() {
    "use strict";
    init_result2();
    init_transaction2();
    init_write2();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/preload-spec.ts
function resolveSpec2(schema, spec, path3 = schema.table) {
  const wanted = /* @__PURE__ */ new Map();
  const add = (name, sub) => {
    const subs = wanted.get(name) ?? [];
    if (sub !== void 0) subs.push(sub);
    wanted.set(name, subs);
  };
  for (const item of Array.isArray(spec) ? spec : [spec]) {
    if (typeof item === "string") add(item, void 0);
    else if (typeof item === "object" && item !== null && !Array.isArray(item))
      for (const [k, v] of Object.entries(item)) add(k, v);
    else throw new Error(`preload ${path3}: ${JSON.stringify(item)} is not an association name or { name: [...] }`);
  }
  return [...wanted].map(([name, subs]) => {
    if (!Object.hasOwn(schema.associations, name)) {
      throw new Error(`preload ${path3}: schema ${schema.table} has no association "${name}"`);
    }
    const assoc = resolveAssoc2(schema, name);
    return { assoc, children: resolveSpec2(assoc.related, subs.flat(), `${path3}.${name}`) };
  });
}
var init_preload_spec2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/preload-spec.ts"() {
    "use strict";
    init_assoc2();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/preload.ts
async function fetchLevel(ctx, keys3, node) {
  const { assoc } = node;
  const related = assoc.related;
  const through = assoc.through;
  if (keys3.length === 0) return { rows: [], links: [] };
  const theirKey = assoc.kind === "belongsTo" ? related.primaryKey : assoc.foreignKey;
  let found;
  try {
    if (through) {
      const c = selectThrough2(through);
      found = loadRows2(related, (await exec2(ctx, c.sql, paramsFor2(c, [keys3]), `SELECT ${related.table}`)).rows);
    } else {
      const { sql, params } = compileSelect2(
        from2(related).where(theirKey, "in", keys3).orderBy(related.primaryKey)
      );
      found = loadRows2(related, (await exec2(ctx, sql, params, `SELECT ${related.table}`)).rows);
    }
  } catch (e) {
    throwRead(e);
  }
  if (!through) return { rows: found, links: found.map((row, i) => [row[theirKey], i]) };
  const rows = [];
  const at = /* @__PURE__ */ new Map();
  const links = found.map(({ [OWNER_ALIAS2]: owner, ...row }) => {
    const k = String(row[related.primaryKey]);
    let i = at.get(k);
    if (i === void 0) at.set(k, i = rows.push(row) - 1);
    return [owner, i];
  });
  return { rows, links };
}
async function loadNode(ctx, records, node) {
  const { assoc } = node;
  const ourKey = assoc.kind === "belongsTo" ? assoc.foreignKey : assoc.owner.primaryKey;
  const keys3 = [...new Set(records.map((r) => r[ourKey]).filter(present))];
  const level = await fetchLevel(ctx, keys3, node);
  const nested2 = await loadAll(ctx, level.rows, node.children);
  const groups = /* @__PURE__ */ new Map();
  for (const [owner, i] of level.links) {
    const k = String(owner);
    const list2 = groups.get(k);
    if (list2) list2.push(nested2[i]);
    else groups.set(k, [nested2[i]]);
  }
  const many = assoc.kind === "hasMany" || assoc.kind === "manyToMany";
  return records.map((r) => {
    const matches = present(r[ourKey]) ? groups.get(String(r[ourKey])) ?? [] : [];
    return { ...r, [assoc.name]: many ? matches : matches[0] ?? null };
  });
}
async function loadAll(ctx, records, nodes) {
  let rows = records;
  for (const node of nodes) rows = await loadNode(ctx, rows, node);
  return rows;
}
async function preload2(ctx, schema, records, spec) {
  const nodes = resolveSpec2(schema, spec);
  for (const { assoc } of nodes) {
    const key = assoc.kind === "belongsTo" ? assoc.foreignKey : schema.primaryKey;
    if (records.some((r) => !Object.hasOwn(r, key)))
      throw new Error(`preload ${schema.table}.${assoc.name}: a record has no "${key}" field (select it)`);
  }
  return await loadAll(ctx, records, nodes);
}
var present;
var init_preload2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/preload.ts"() {
    "use strict";
    init_builder();
    init_compile();
    init_load_rows();
    init_sql2();
    init_context4();
    init_preload_spec2();
    init_through_sql2();
    present = (k) => k !== null && k !== void 0;
  }
});

// ../../work/wt-dbl-chains/dbl/multiple-results-error.ts
var MultipleResultsError;
var init_multiple_results_error = __esm({
  "../../work/wt-dbl-chains/dbl/multiple-results-error.ts"() {
    "use strict";
    MultipleResultsError = class extends Error {
      kind = "multiple_results";
      /** The table the query read. */
      table;
      status = 500;
      constructor(table2) {
        super(`vela.dbl: expected at most one row from ${table2}, got several (add a condition, or use repo.all)`);
        this.table = table2;
      }
    };
    Object.defineProperty(MultipleResultsError.prototype, "name", {
      value: "MultipleResultsError",
      writable: true,
      configurable: true
    });
  }
});

// ../../work/wt-dbl-chains/dbl/repo/read.ts
async function all2(ctx, q) {
  const { sql, params, shape: shape2 } = compileSelect2(q);
  let raw;
  try {
    raw = (await exec2(ctx, sql, params, `SELECT ${q.schema.table}`)).rows;
  } catch (e) {
    throwRead(e);
  }
  const rows = q.columnsAs ? raw : loadRows2(q.schema, raw);
  return shape2 ? rows.map(shape2) : rows;
}
async function one2(ctx, q) {
  const rows = await all2(ctx, q.maxRows === void 0 && !q.countRows ? q.limit(2) : q);
  if (rows.length > 1) throw new MultipleResultsError(q.schema.table);
  return rows[0];
}
async function count3(ctx, q) {
  const rows = await all2(ctx, withCount(q));
  return Number(rows[0].count);
}
async function get2(ctx, schema, id) {
  const pk = schema.primaryKey;
  const value = id === null || id === void 0 ? INVALID2 : castersOf2(schema)[pk](id);
  if (value === INVALID2) return void 0;
  let c = getStatements.get(schema);
  if (!c)
    getStatements.set(
      schema,
      c = compiled2(`get ${schema.table}`, () => kx2(schema.table).select(sqlOf2(schema).columns).where(pk, marker2(0)))
    );
  let rows;
  try {
    rows = (await exec2(ctx, c.sql, [value], `SELECT ${schema.table}`)).rows;
  } catch (e) {
    throwRead(e);
  }
  return rows.length ? loadRows2(schema, rows)[0] : void 0;
}
async function getBy2(ctx, schema, clauses) {
  const casters = castersOf2(schema);
  const conds = [];
  for (const [field, raw] of Object.entries(clauses)) {
    const caster = Object.hasOwn(casters, field) ? casters[field] : void 0;
    if (!caster) throw new Error(`schema ${schema.table} has no field ${JSON.stringify(field)}`);
    if (raw === void 0) throw new Error(`getBy { ${field}: undefined }: a value is missing (use null for IS NULL)`);
    const value = raw === null ? null : caster(raw);
    if (value === INVALID2) return void 0;
    conds.push(value === null ? cond2(field, "is null") : cond2(field, "=", value));
  }
  const { sql, params } = compileSelect2(
    from2(schema).where(and2(...conds)).limit(2)
  );
  let rows;
  try {
    rows = (await exec2(ctx, sql, params, `SELECT ${schema.table}`)).rows;
  } catch (e) {
    throwRead(e);
  }
  if (rows.length > 1) throw new MultipleResultsError(schema.table);
  return rows.length ? loadRows2(schema, rows)[0] : void 0;
}
var getStatements;
var init_read2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/read.ts"() {
    "use strict";
    init_cast2();
    init_multiple_results_error();
    init_conditions();
    init_builder();
    init_compile();
    init_sql2();
    init_load_rows();
    init_context4();
    getStatements = /* @__PURE__ */ new WeakMap();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/exists.ts
function compileExists(q) {
  const plain = derive(q);
  plain.order = [];
  plain.countRows = false;
  const { sql, params } = compileSelect2(plain);
  return { sql: `select exists (${sql}) as "exists"`, params };
}
async function exists4(ctx, q) {
  const { sql, params } = compileExists(q);
  try {
    const res2 = await exec2(ctx, sql, params, `SELECT ${q.schema.table}`);
    return res2.rows[0].exists === true;
  } catch (e) {
    throwRead(e);
  }
}
var init_exists2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/exists.ts"() {
    "use strict";
    init_value();
    init_compile();
    init_context4();
  }
});

// ../../work/wt-dbl-chains/dbl/repo/query-recorder.ts
function recordedQuery2(sql, params, label2, query2) {
  const recorder = globalThis[kQueries];
  const done = recorder?.start(sql, params, label2);
  if (!done) return query2();
  return query2().then(
    (res2) => {
      done(res2.rowCount);
      return res2;
    },
    (error) => {
      done(0, error);
      throw error;
    }
  );
}
var kQueries;
var init_query_recorder2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/query-recorder.ts"() {
    "use strict";
    kQueries = /* @__PURE__ */ Symbol.for("vela.dashboard.queries");
  }
});

// ../../work/wt-dbl-chains/dbl/repo/telemetry.ts
function queryTracer() {
  const global2 = trace.getTracerProvider();
  const provider = global2 instanceof ProxyTracerProvider ? global2.getDelegate() : global2;
  if (provider === noopProvider2) return void 0;
  const active = trace.getActiveSpan();
  if (active !== void 0 && !active.isRecording()) return void 0;
  if (tracerOf?.provider !== provider) tracerOf = { provider, tracer: provider.getTracer("vela.dbl") };
  return tracerOf.tracer;
}
function query(conn, sql, params, label2) {
  const tracer = queryTracer();
  return tracer ? traced(tracer, conn, sql, params, label2) : conn.query(sql, params);
}
function traced(tracer, conn, sql, params, label2) {
  const span = tracer.startSpan(label2 ?? "db.query", {
    kind: SpanKind.CLIENT,
    attributes: { "db.system": "postgresql", "db.statement": sql }
  });
  return conn.query(sql, params).then(
    (res2) => {
      span.setAttribute("db.response.returned_rows", res2.rowCount);
      span.end();
      return res2;
    },
    (error) => {
      span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
      span.end();
      throw error;
    }
  );
}
function logLine(e) {
  console.info(
    `[${e.repo}] ${e.result === "ok" ? "OK" : "ERROR"} ${e.durationUs}\xB5s ${e.numRows} row(s): ${e.query} ${JSON.stringify(e.params)}`
  );
}
function createRunner2(repo, log) {
  const emit = log === true ? logLine : typeof log === "function" ? log : void 0;
  if (!emit) {
    return (conn, sql, params, label2) => recordedQuery2(sql, params, label2, () => query(conn, sql, params, label2));
  }
  return async (conn, sql, params, label2) => {
    const start = performance.now();
    let result = "error";
    let numRows = 0;
    try {
      const res2 = await recordedQuery2(sql, params, label2, () => query(conn, sql, params, label2));
      result = "ok";
      numRows = res2.rowCount;
      return res2;
    } finally {
      const durationUs = Math.round((performance.now() - start) * 1e3);
      try {
        emit({ query: sql, params, result, numRows, durationUs, repo });
      } catch {
      }
    }
  };
}
var noopProvider2, tracerOf;
var init_telemetry2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo/telemetry.ts"() {
    "use strict";
    init_dist();
    init_query_recorder2();
    noopProvider2 = new ProxyTracerProvider().getDelegate();
  }
});

// ../../work/wt-dbl-chains/dbl/repo.ts
import { AsyncLocalStorage } from "node:async_hooks";
import { join as join4 } from "node:path";
function backendOf(config) {
  if (typeof config.adapter === "object") return config.adapter.kind;
  const server = config.url ? config.url !== MEMORY_URL : !!config.hostname;
  return config.adapter ?? (server ? "pg" : "pglite");
}
function embeddedDataDir(config, env = process.env, cwd = process.cwd()) {
  if (config.dataDir) return config.dataDir;
  if (config.url === MEMORY_URL || env.VELA_ENV === "test" || env.VITEST) return void 0;
  return join4(cwd, ".data", "pglite");
}
function defineRepo2(config = {}) {
  const backend = backendOf(config);
  resolveDeadlines2(config);
  const retry = resolveStartRetry2(config.startRetry);
  const name = config.name ?? "repo";
  let starting;
  const ctx = {
    name,
    adapter: typeof config.adapter === "object" ? config.adapter : void 0,
    tx: new AsyncLocalStorage(),
    run: createRunner2(name, config.log),
    // Creates the adapter; a pg pool connects on its first query. Operations call this.
    start() {
      starting ??= (async () => {
        const a = typeof config.adapter === "object" ? config.adapter : backend === "pg" ? createPgAdapter2(config) : await createPgliteAdapter2({
          dataDir: embeddedDataDir(config),
          acquireTimeoutMs: config.acquireTimeoutMs
        });
        ctx.adapter = a;
        return a;
      })();
      return starting;
    }
  };
  const repo = {
    name: ctx.name,
    config,
    backend,
    // Also waits for the server (repo/start.ts): only here, at start-up. An operation that starts
    // the repo on demand tries once, as every later operation does; a request must not wait 10 s.
    async start() {
      const a = await ctx.start();
      if (a.kind !== "pg" || typeof config.adapter === "object") return;
      try {
        await firstConnection2(
          () => a.query("SELECT 1"),
          pgAddress2(config),
          retry,
          (line) => console.warn(`[${name}] ${line}`)
        );
      } catch (e) {
        await repo.stop();
        throw e;
      }
    },
    adapter: () => ctx.start(),
    async stop() {
      const a = ctx.adapter;
      ctx.adapter = void 0;
      starting = void 0;
      if (a) await a.close();
    },
    all: (q) => all2(ctx, q),
    one: (q) => one2(ctx, q),
    get: (schema, id) => get2(ctx, schema, id),
    getBy: (schema, clauses) => getBy2(ctx, schema, clauses),
    count: (q) => count3(ctx, q),
    exists: (q) => exists4(ctx, q),
    async reload(a, b) {
      const schema = b === void 0 ? schemaOfRecord2(a) : a;
      const record = b === void 0 ? a : b;
      if (!schema)
        throw new Error(
          "reload(record): this object was not read or written by a repository (a copy, or made by hand); call repo.reload(Schema, record)"
        );
      const id = record?.[schema.primaryKey];
      if (id === void 0 || id === null) throw new Error(`reload: the record has no ${schema.primaryKey}`);
      return get2(ctx, schema, id);
    },
    insert: ((cs, opts) => insert2(ctx, cs, opts)),
    update: (cs) => update2(ctx, cs),
    delete: ((a, record) => remove2(ctx, isChangeset2(a) ? a : emptyChangeset2(a, record))),
    insertAll: (schema, rows) => insertAll2(ctx, schema, rows),
    updateAll: (q, set) => updateAll2(ctx, q, set),
    deleteAll: (q) => deleteAll2(ctx, q),
    preload: (async (schema, records, spec) => {
      const single = !Array.isArray(records);
      const res2 = await preload2(ctx, schema, single ? [records] : records, spec);
      return single ? res2[0] : res2;
    }),
    transaction: (fn) => transaction2(ctx, () => fn(repo)),
    rollback: (value) => rollback3(ctx, value),
    multi: (m) => runMulti2(ctx, repo, m),
    async query(sql, params = []) {
      try {
        return ok2(await exec2(ctx, sql, [...params], "db.query"));
      } catch (e) {
        return failure2(e);
      }
    }
  };
  return repo;
}
var MEMORY_URL;
var init_repo2 = __esm({
  "../../work/wt-dbl-chains/dbl/repo.ts"() {
    "use strict";
    init_pg2();
    init_deadlines2();
    init_start2();
    init_pglite2();
    init_result2();
    init_bulk2();
    init_context4();
    init_multi3();
    init_preload2();
    init_record_origin2();
    init_read2();
    init_exists2();
    init_telemetry2();
    init_transaction2();
    init_write2();
    init_changeset2();
    MEMORY_URL = "memory:";
  }
});

// ../../work/wt-dbl-chains/dbl/multi.ts
function build2(steps) {
  const add = (step) => {
    if (steps.some((s) => s.name === step.name)) throw new Error(`multi: a step named "${step.name}" already exists`);
    return build2([...steps, step]);
  };
  const csStep = (op) => (name, cs) => add({
    name,
    op,
    changeset: typeof cs === "function" ? cs : () => cs
  });
  return {
    kind: "vela.multi",
    steps,
    insert: csStep("insert"),
    update: csStep("update"),
    delete: csStep("delete"),
    run: (name, fn) => add({ name, op: "run", fn })
  };
}
function newMulti2() {
  return build2([]);
}
var init_multi4 = __esm({
  "../../work/wt-dbl-chains/dbl/multi.ts"() {
    "use strict";
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/operations.ts
function defineMigration2(migration) {
  return migration;
}
function createTable2(table2, columns2) {
  return { op: "createTable", table: table2, columns: columns2 };
}
function dropTable2(table2) {
  return { op: "dropTable", table: table2 };
}
function alterTable2(table2, changes) {
  return { op: "alterTable", table: table2, changes };
}
function addColumn2(column) {
  return { change: "addColumn", column };
}
function dropColumn2(name) {
  return { change: "dropColumn", name };
}
function renameColumn2(from4, to) {
  return { change: "renameColumn", from: from4, to };
}
function modifyColumn2(name, set) {
  return { change: "modifyColumn", name, set };
}
function indexName(table2, columns2) {
  return `${table2}_${columns2.join("_")}_index`;
}
function createIndex2(table2, columns2, opts = {}) {
  return {
    op: "createIndex",
    table: table2,
    columns: columns2,
    unique: opts.unique ?? false,
    name: opts.name ?? indexName(table2, columns2)
  };
}
function dropIndex2(table2, name) {
  return { op: "dropIndex", table: table2, name };
}
function execute2(sql) {
  return { op: "execute", sql };
}
var init_operations2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/operations.ts"() {
    "use strict";
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/ddl.ts
function referencesSql(refs) {
  return `REFERENCES ${ident2(refs.table)} (${ident2(refs.column)}) ON DELETE ${onDeleteSql2(refs.onDelete)}`;
}
function columnDefinition(table2, column, inlinePrimaryKey) {
  const parts = [ident2(column.name), sqlType2(column.type, column.size)];
  if (column.primaryKey && inlinePrimaryKey) parts.push("PRIMARY KEY");
  else if (!column.nullable) parts.push("NOT NULL");
  const def = defaultSql2(column.default, column.type, `column ${table2}.${column.name}`) ?? generatedDefaultSql2(column, inlinePrimaryKey);
  if (def !== void 0) parts.push(`DEFAULT ${def}`);
  if (column.references)
    parts.push(`CONSTRAINT ${ident2(fkeyName2(table2, column.name))} ${referencesSql(column.references)}`);
  return parts.join(" ");
}
function createTableSql(table2, columns2) {
  if (columns2.length === 0) throw new Error(`createTable ${table2}: a table needs at least one column`);
  const resolved = columns2.map(resolveColumn2);
  const seen = /* @__PURE__ */ new Set();
  for (const c of resolved) {
    if (seen.has(c.name)) throw new Error(`createTable ${table2}: column "${c.name}" appears twice`);
    seen.add(c.name);
  }
  const keys3 = resolved.filter((c) => c.primaryKey);
  const defs = resolved.map((c) => columnDefinition(table2, c, keys3.length === 1));
  if (keys3.length > 1) defs.push(`PRIMARY KEY (${keys3.map((c) => ident2(c.name)).join(", ")})`);
  return `CREATE TABLE ${ident2(table2)} (${defs.join(", ")})`;
}
function alterSql(table2, change4) {
  const t = `ALTER TABLE ${ident2(table2)}`;
  switch (change4.change) {
    case "addColumn": {
      const column = resolveColumn2(change4.column);
      return [`${t} ADD COLUMN ${columnDefinition(table2, column, true)}`];
    }
    case "dropColumn":
      return [`${t} DROP COLUMN ${ident2(change4.name)}`];
    case "renameColumn":
      return [
        `${t} RENAME COLUMN ${ident2(change4.from)} TO ${ident2(change4.to)}`,
        ...renameFkeySql(table2, change4.from, change4.to)
      ];
    case "modifyColumn":
      return modifySql(table2, change4.name, change4.set);
  }
}
function modifySql(table2, name, set) {
  const where3 = `modifyColumn ${table2}.${name}`;
  const col3 = `ALTER TABLE ${ident2(table2)} ALTER COLUMN ${ident2(name)}`;
  const out = [];
  const changesDefault = set.default !== void 0;
  if (set.size !== void 0 && set.type === void 0) throw new Error(`${where3}: \`size\` needs \`type\` next to it`);
  if (set.type === "id")
    throw new Error(`${where3}: a column cannot become an id (BIGSERIAL); add a new id column instead`);
  const fkey = () => ident2(fkeyName2(table2, name));
  if (set.references !== void 0) {
    out.push(`ALTER TABLE ${ident2(table2)} DROP CONSTRAINT ${set.references === null ? "" : "IF EXISTS "}${fkey()}`);
  }
  if (changesDefault) out.push(`${col3} DROP DEFAULT`);
  if (set.type !== void 0) {
    const resolved = resolveColumn2({ name, type: set.type, size: set.size });
    const type = sqlType2(resolved.type, resolved.size, false);
    const base = textBase(resolved.type);
    out.push(base ? `${col3} TYPE ${type}` : `${col3} TYPE ${type} USING ${ident2(name)}::${type}`);
  }
  if (changesDefault && set.default !== null) {
    const literal2 = set.type !== void 0 ? defaultSql2(set.default, set.type, where3) : untypedDefaultSql2(set.default, where3);
    out.push(`${col3} SET DEFAULT ${literal2}`);
  }
  if (set.nullable !== void 0) out.push(`${col3} ${set.nullable ? "DROP" : "SET"} NOT NULL`);
  if (set.references) {
    const refs = resolveReferences2(set.references, where3);
    out.push(`ALTER TABLE ${ident2(table2)} ADD CONSTRAINT ${fkey()} FOREIGN KEY (${ident2(name)}) ${referencesSql(refs)}`);
  }
  if (out.length === 0) throw new Error(`${where3}: nothing to modify (give type, nullable, default or references)`);
  return out;
}
function renameFkeySql(table2, from4, to) {
  const [old, neu] = [fkeyName2(table2, from4), fkeyName2(table2, to)];
  if (Buffer.byteLength(old) > 63 || Buffer.byteLength(neu) > 63) return [];
  const text = (s) => `'${s.replaceAll("'", "''")}'`;
  return [
    `DO $vela$ BEGIN IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = ${text(ident2(table2))}::regclass AND conname = ${text(old)}) THEN ALTER TABLE ${ident2(table2)} RENAME CONSTRAINT ${ident2(old)} TO ${ident2(neu)}; END IF; END $vela$`
  ];
}
function textBase(type) {
  if (typeof type === "object") return "array" in type ? textBase(type.array) : true;
  return type === "string" || type === "text";
}
function operationSql(op) {
  switch (op.op) {
    case "createTable":
      return [createTableSql(op.table, op.columns)];
    case "dropTable":
      return [`DROP TABLE ${ident2(op.table)}`];
    case "alterTable":
      if (op.changes.length === 0) throw new Error(`alterTable ${op.table}: no changes given`);
      return op.changes.flatMap((change4) => alterSql(op.table, change4));
    case "createIndex": {
      if (op.columns.length === 0) throw new Error(`createIndex ${op.name}: no columns given`);
      const cols = op.columns.map(ident2).join(", ");
      return [`CREATE ${op.unique ? "UNIQUE " : ""}INDEX ${ident2(op.name)} ON ${ident2(op.table)} (${cols})`];
    }
    case "dropIndex":
      return [`DROP INDEX ${ident2(op.name)}`];
    case "execute":
      return [op.sql];
  }
  throw new Error(`unknown migration operation ${JSON.stringify(op.op)}`);
}
function operationsSql2(ops3) {
  return ops3.flatMap(operationSql);
}
var init_ddl2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/ddl.ts"() {
    "use strict";
    init_columns2();
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/migrator.ts
async function withLock(adapter, fn) {
  return adapter.session(async (conn) => {
    await conn.query(`SELECT ${LOCK}`);
    try {
      await conn.query(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version bigint PRIMARY KEY, name text NOT NULL, inserted_at timestamptz NOT NULL DEFAULT now())"
      );
      return await fn(conn);
    } finally {
      await conn.query(`SELECT ${UNLOCK}`);
    }
  });
}
async function appliedRows(conn) {
  const res2 = await conn.query(
    "SELECT version, name, inserted_at FROM schema_migrations ORDER BY version"
  );
  return res2.rows;
}
async function runInTransaction(conn, migration, statements, bookkeeping) {
  await conn.query("BEGIN");
  let current = "";
  try {
    for (const sql of statements) {
      current = sql;
      await conn.query(sql);
    }
    await conn.query(...bookkeeping);
    await conn.query("COMMIT");
  } catch (err4) {
    await conn.query("ROLLBACK").catch(() => {
    });
    const where3 = migration.file ?? label(migration);
    throw new Error(
      `migration ${where3} failed and was rolled back: ${err4.message}
  while running: ${current}`,
      {
        cause: err4
      }
    );
  }
}
function sortedUnique(migrations) {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].version === sorted[i - 1].version)
      throw new Error(`two migrations share version ${sorted[i].version}`);
  }
  return sorted;
}
async function migrate2(target, migrations, opts = {}) {
  const ordered = sortedUnique(migrations);
  const adapter = await adapterOf(target);
  return withLock(adapter, async (conn) => {
    const applied = new Set((await appliedRows(conn)).map((r) => r.version));
    const done = [];
    for (const m of ordered) {
      if (applied.has(m.version)) continue;
      const statements = compile(m, "up");
      await runInTransaction(conn, m, statements, [
        "INSERT INTO schema_migrations (version, name, inserted_at) VALUES ($1, $2, now())",
        [m.version, m.name]
      ]);
      opts.log?.(`migrated ${label(m)}`);
      done.push({ version: m.version, name: m.name });
    }
    return done;
  });
}
async function rollback4(target, migrations, opts = {}) {
  const steps = opts.steps ?? 1;
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`rollback: steps must be a positive integer, got ${steps}`);
  const byVersion = new Map(sortedUnique(migrations).map((m) => [m.version, m]));
  const adapter = await adapterOf(target);
  return withLock(adapter, async (conn) => {
    const applied = (await appliedRows(conn)).reverse().slice(0, steps);
    const done = [];
    for (const row of applied) {
      const m = byVersion.get(row.version);
      if (!m) throw new Error(`cannot roll back ${label(row)}: it is applied but its migration file is missing`);
      await runInTransaction(conn, m, compile(m, "down"), [
        "DELETE FROM schema_migrations WHERE version = $1",
        [m.version]
      ]);
      opts.log?.(`rolled back ${label(m)}`);
      done.push({ version: m.version, name: m.name });
    }
    return done;
  });
}
async function status2(target, migrations) {
  const adapter = await adapterOf(target);
  const exists5 = await adapter.query("SELECT to_regclass('schema_migrations')::text AS t");
  const rows = exists5.rows[0]?.t ? await appliedRows(adapter) : [];
  const appliedAt = new Map(rows.map((r) => [r.version, r]));
  const list2 = sortedUnique(migrations).map((m) => ({
    version: m.version,
    name: m.name,
    applied: appliedAt.has(m.version),
    appliedAt: appliedAt.get(m.version)?.inserted_at ?? null,
    file: m.file ?? null
  }));
  const known = new Set(list2.map((s) => s.version));
  for (const r of rows) {
    if (!known.has(r.version))
      list2.push({ version: r.version, name: r.name, applied: true, appliedAt: r.inserted_at, file: null });
  }
  return list2.sort((a, b) => a.version - b.version);
}
function compile(m, direction) {
  try {
    return operationsSql2(m[direction]());
  } catch (err4) {
    throw new Error(`migration ${m.file ?? label(m)} (${direction}): ${err4.message}`, { cause: err4 });
  }
}
var LOCK, UNLOCK, label, adapterOf;
var init_migrator2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/migrator.ts"() {
    "use strict";
    init_ddl2();
    LOCK = "pg_advisory_lock(1986358369, 1)";
    UNLOCK = "pg_advisory_unlock(1986358369, 1)";
    label = (m) => `m${m.version}_${m.name}`;
    adapterOf = (t) => "kind" in t ? Promise.resolve(t) : t.adapter();
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/load.ts
import { readdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
function migrationFileName2(version, name) {
  return `m${version}_${name}.ts`;
}
async function loadMigrations2(dir, opts = {}) {
  const onIgnored = opts.onIgnored ?? ((file, reason) => console.warn(`[vela migrations] ignoring ${file}: ${reason}`));
  let entries;
  try {
    entries = (await readdir(dir, { withFileTypes: true })).filter((e) => !e.isDirectory()).map((e) => e.name);
  } catch (err4) {
    if (err4.code === "ENOENT") return [];
    throw err4;
  }
  const found = [];
  for (const entry of entries.sort()) {
    if (UNRELATED.test(entry) || !/\.(ts|mts|js|mjs)$/.test(entry)) continue;
    const file = path.join(dir, entry);
    const match = MIGRATION_FILE.exec(entry);
    if (!match) {
      onIgnored(file, "a migration file is named m<YYYYMMDDHHMMSS>_<name>.ts (name: lowercase letters, digits, _)");
      continue;
    }
    found.push({ version: Number(match[1]), name: match[2], file });
  }
  const migrations = [];
  for (const f of sortedByVersion(found)) {
    const mod = await importMigration(
      f.file,
      opts.importModule ?? ((file) => import(
        /* @vite-ignore */
        pathToFileURL(file).href
      ))
    );
    migrations.push({ ...f, ...mod });
  }
  return migrations;
}
function sortedByVersion(list2) {
  const byVersion = /* @__PURE__ */ new Map();
  for (const m of list2) {
    const other = byVersion.get(m.version);
    if (other) throw new Error(`two migrations share version ${m.version}: ${other.file} and ${m.file}`);
    byVersion.set(m.version, m);
  }
  return [...list2].sort((a, b) => a.version - b.version);
}
async function importMigration(file, importModule) {
  let mod;
  try {
    mod = await importModule(file);
  } catch (err4) {
    throw new Error(`migration ${file} could not be loaded: ${err4.message}`, { cause: err4 });
  }
  return migrationOfModule(file, mod);
}
function migrationOfModule(file, loaded2) {
  const mod = loaded2 ?? {};
  const source = typeof mod.up === "function" || typeof mod.down === "function" ? mod : mod.default;
  const up = source?.up;
  const down = source?.down;
  const missing = [typeof up !== "function" && "up()", typeof down !== "function" && "down()"].filter(Boolean);
  if (missing.length > 0) {
    throw new Error(
      `migration ${file} does not export ${missing.join(" and ")}; a migration exports up() and down() returning operations`
    );
  }
  return { up: checked(file, "up", up), down: checked(file, "down", down) };
}
function checked(file, which, fn) {
  return () => {
    const ops3 = fn();
    if (!Array.isArray(ops3)) throw new Error(`migration ${file}: ${which}() must return an array of operations`);
    for (const op of ops3) {
      if (typeof op !== "object" || op === null || typeof op.op !== "string") {
        throw new Error(`migration ${file}: ${which}() returned ${JSON.stringify(op)}, which is not an operation`);
      }
    }
    return ops3;
  };
}
var MIGRATION_FILE, UNRELATED;
var init_load2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/load.ts"() {
    "use strict";
    MIGRATION_FILE = /^m(\d{14})_([a-z0-9_]+)\.(ts|mts|js|mjs)$/;
    UNRELATED = /(\.d\.ts|\.test\.ts|\.spec\.ts|\.map|\.md)$|^\./;
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/foreign-keys.ts
function referencing2(model, table2, column) {
  const found = [];
  for (const t of model.values()) {
    for (const c of t.columns) {
      if (c.references?.table === table2 && (column === void 0 || c.references.column === column))
        found.push({ table: t.name, column: c.name });
    }
  }
  return found;
}
function checkReference2(model, self2, column, where3) {
  const refs = column.references;
  if (!refs) return;
  const target = refs.table === self2.name ? self2 : model.get(refs.table);
  const at = `${where3}: ${self2.name}.${column.name} references ${refs.table}.${refs.column}`;
  const name = fkeyName2(self2.name, column.name);
  if (Buffer.byteLength(name) > 63)
    throw new Error(
      `${at}, but its constraint name "${name}" is longer than 63 bytes; shorten the table or column name`
    );
  if (!target)
    throw new Error(`${at}, but table "${refs.table}" does not exist at this point of the migrations (create it first)`);
  const referenced = target.columns.find((c) => c.name === refs.column);
  if (!referenced) throw new Error(`${at}, but table "${refs.table}" has no column "${refs.column}"`);
  if (family(column.type) !== family(referenced.type)) {
    throw new Error(
      `${at}, but ${typeLabel2(column.type)} and ${typeLabel2(referenced.type)} cannot be compared (give ${self2.name}.${column.name} the type of ${refs.table}.${refs.column})`
    );
  }
  if (!isUniqueColumn2(target, refs.column)) {
    throw new Error(`${at}, which is neither its table's one-column primary key nor unique on its own`);
  }
}
function family(type) {
  const t = storedType2(type);
  if (t === "id" || t === "integer") return "integer";
  if (t === "string" || t === "text") return "text";
  return typeLabel2(t);
}
function isUniqueColumn2(t, column) {
  const keys3 = t.columns.filter((c) => c.primaryKey);
  if (keys3.length === 1 && keys3[0].name === column) return true;
  return t.indexes.some((ix) => ix.unique && ix.columns.length === 1 && ix.columns[0] === column);
}
function checkTableDrop2(model, table2, where3) {
  const others = referencing2(model, table2).filter((r) => r.table !== table2);
  if (others.length > 0) {
    throw new Error(
      `${where3}: table "${table2}" is still referenced by ${list(others)}; drop those columns or their references (or those tables) first`
    );
  }
}
function checkColumnDrop2(model, table2, column, where3) {
  const refs = referencing2(model, table2, column).filter((r) => !(r.table === table2 && r.column === column));
  if (refs.length > 0)
    throw new Error(
      `${where3}: column ${table2}.${column} is still referenced by ${list(refs)}; drop those references first`
    );
}
function checkIndexDrop2(model, t, name, where3) {
  const ix = t.indexes.find((i) => i.name === name);
  if (!ix?.unique || ix.columns.length !== 1) return;
  const column = ix.columns[0];
  const rest = { ...t, indexes: t.indexes.filter((i) => i !== ix) };
  const refs = referencing2(model, t.name, column);
  if (refs.length > 0 && !isUniqueColumn2(rest, column)) {
    throw new Error(
      `${where3}: index "${name}" keeps ${t.name}.${column} unique for the foreign keys of ${list(refs)}; drop those references first`
    );
  }
}
function followRename2(model, table2, from4, to) {
  for (const t of model.values()) {
    t.columns = t.columns.map(
      (c) => c.references?.table === table2 && c.references.column === from4 ? { ...c, references: { ...c.references, column: to } } : c
    );
  }
}
var list;
var init_foreign_keys2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/foreign-keys.ts"() {
    "use strict";
    init_columns2();
    list = (refs) => refs.map((r) => `${r.table}.${r.column}`).join(", ");
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/join-tables.ts
function keyType2(schema) {
  const f = schema.fieldsByName[schema.primaryKey];
  return { type: f.type === "id" ? "integer" : f.type, size: f.size };
}
function sameTable(a, b) {
  const col3 = (c) => JSON.stringify([c.name, c.type, c.size, c.nullable]);
  return a.columns.length === b.columns.length && a.columns.every(
    (c, i) => col3(c) === col3(b.columns[i]) && sameReferences2(c.references, b.columns[i].references)
  ) && JSON.stringify(a.indexes) === JSON.stringify(b.indexes);
}
function addJoinTables2(model, schemas, warnings) {
  const own = new Set(schemas.map((s) => s.table));
  for (const s of schemas) {
    for (const [name, a] of Object.entries(s.associations)) {
      if (a.kind !== "manyToMany") continue;
      const t = joinThroughOf2(s, name);
      const where3 = `association ${s.table}.${name}`;
      if (own.has(t.table)) continue;
      if (!model.has(t.related.table)) {
        warnings.push(
          `${where3}: no schema given uses the table "${t.related.table}"; the join table "${t.table}" is not generated`
        );
        continue;
      }
      const key = (column, side) => ({
        ...resolveColumn2({ name: column, ...keyType2(side), nullable: false }),
        references: resolveReferences2({ table: side.table, column: side.primaryKey, onDelete: t.onDelete }, where3)
      });
      const columns2 = [key(t.ownerKey, s), key(t.relatedKey, t.related)].sort((x, y) => x.name < y.name ? -1 : 1);
      const [first, second] = columns2.map((c) => c.name);
      const table2 = {
        name: t.table,
        columns: columns2,
        indexes: [
          { table: t.table, columns: [first, second], unique: true, name: `${t.table}_${first}_${second}_index` },
          { table: t.table, columns: [second], unique: false, name: `${t.table}_${second}_index` }
        ]
      };
      for (const ix of table2.indexes) {
        if (Buffer.byteLength(ix.name) > 63)
          throw new Error(
            `${where3}: the join table's index name "${ix.name}" is longer than 63 bytes; shorten joinThrough or joinKeys`
          );
      }
      const existing = model.get(t.table);
      if (existing && !sameTable(existing, table2)) {
        throw new Error(
          `${where3}: the join table "${t.table}" is declared by another manyToMany association with other columns, references or onDelete; make the two declarations agree`
        );
      }
      for (const c of columns2) checkReference2(model, table2, c, `schema ${s.table}, ${where3}`);
      model.set(t.table, table2);
    }
  }
}
var init_join_tables2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/join-tables.ts"() {
    "use strict";
    init_schema2();
    init_columns2();
    init_foreign_keys2();
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/model.ts
function table(model, name, where3) {
  const t = model.get(name);
  if (!t) throw new Error(`${where3}: table "${name}" does not exist at this point of the migrations`);
  return t;
}
function columnIndex(t, name, where3) {
  const i = t.columns.findIndex((c) => c.name === name);
  if (i < 0) throw new Error(`${where3}: table "${t.name}" has no column "${name}"`);
  return i;
}
function applyChange(model, t, change4, where3) {
  switch (change4.change) {
    case "addColumn": {
      if (t.columns.some((c) => c.name === change4.column.name))
        throw new Error(`${where3}: table "${t.name}" already has a column "${change4.column.name}"`);
      const column = resolveColumn2(change4.column);
      checkReference2(model, t, column, where3);
      t.columns.push(column);
      return;
    }
    case "dropColumn":
      checkColumnDrop2(model, t.name, change4.name, where3);
      t.columns.splice(columnIndex(t, change4.name, where3), 1);
      t.indexes = t.indexes.filter((ix) => !ix.columns.includes(change4.name));
      return;
    case "renameColumn": {
      const i = columnIndex(t, change4.from, where3);
      if (t.columns.some((c) => c.name === change4.to))
        throw new Error(`${where3}: table "${t.name}" already has a column "${change4.to}"`);
      t.columns[i] = { ...t.columns[i], name: change4.to };
      t.indexes = t.indexes.map((ix) => ({
        ...ix,
        columns: ix.columns.map((c) => c === change4.from ? change4.to : c)
      }));
      followRename2(model, t.name, change4.from, change4.to);
      return;
    }
    case "modifyColumn": {
      const i = columnIndex(t, change4.name, where3);
      const old = t.columns[i];
      const { set } = change4;
      const typed = set.type !== void 0 ? resolveColumn2({ name: old.name, type: set.type, size: set.size }) : old;
      if (set.references === null && !old.references)
        throw new Error(`${where3}: column ${t.name}.${old.name} has no foreign key to drop`);
      const column = {
        ...old,
        type: typed.type,
        size: typed.size,
        nullable: old.primaryKey ? false : set.nullable ?? old.nullable,
        default: set.default === void 0 ? old.default : set.default === null ? void 0 : set.default,
        references: set.references === void 0 ? old.references : set.references === null ? void 0 : resolveReferences2(set.references, where3)
      };
      checkReference2(model, t, column, where3);
      t.columns[i] = column;
      try {
        for (const r of referencing2(model, t.name, column.name)) {
          const other = model.get(r.table);
          checkReference2(model, other, other.columns.find((c) => c.name === r.column), where3);
        }
      } catch (e) {
        t.columns[i] = old;
        throw e;
      }
      return;
    }
  }
}
function findIndex(model, name) {
  for (const t of model.values()) if (t.indexes.some((ix) => ix.name === name)) return t;
  return void 0;
}
function applyOperation2(model, op, where3) {
  switch (op.op) {
    case "createTable": {
      if (model.has(op.table)) throw new Error(`${where3}: table "${op.table}" already exists`);
      const t = { name: op.table, columns: op.columns.map(resolveColumn2), indexes: [] };
      for (const c of t.columns) checkReference2(model, t, c, where3);
      model.set(op.table, t);
      return;
    }
    case "dropTable":
      table(model, op.table, where3);
      checkTableDrop2(model, op.table, where3);
      model.delete(op.table);
      return;
    case "alterTable": {
      const t = table(model, op.table, where3);
      for (const change4 of op.changes) applyChange(model, t, change4, where3);
      return;
    }
    case "createIndex": {
      const t = table(model, op.table, where3);
      for (const c of op.columns) columnIndex(t, c, where3);
      if (findIndex(model, op.name)) throw new Error(`${where3}: an index "${op.name}" already exists`);
      t.indexes.push({ table: op.table, columns: [...op.columns], unique: op.unique, name: op.name });
      return;
    }
    case "dropIndex": {
      const t = table(model, op.table, where3);
      if (!t.indexes.some((ix) => ix.name === op.name))
        throw new Error(`${where3}: table "${op.table}" has no index "${op.name}"`);
      checkIndexDrop2(model, t, op.name, where3);
      t.indexes = t.indexes.filter((ix) => ix.name !== op.name);
      return;
    }
    case "execute":
      return;
  }
}
function cloneModel2(model) {
  return new Map([...model].map(([name, t]) => [name, { name, columns: [...t.columns], indexes: [...t.indexes] }]));
}
function modelFromMigrations2(migrations) {
  const model = /* @__PURE__ */ new Map();
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    const where3 = `migration ${m.file ?? `m${m.version}_${m.name}`}`;
    for (const op of m.up()) applyOperation2(model, op, where3);
  }
  return model;
}
function modelFromSchemas2(schemas, warnings = []) {
  const model = /* @__PURE__ */ new Map();
  for (const s of schemas) {
    if (model.has(s.table)) throw new Error(`two schemas use the table "${s.table}"`);
    if (s.embedded)
      throw new Error(
        `schema ${s.table} is embedded: it has no table of its own (its records live in a parent's jsonb field)`
      );
    const columns2 = s.fields.filter((f) => !f.virtual).map(
      (f) => resolveColumn2({
        name: f.name,
        type: f.type,
        primaryKey: f.primaryKey,
        nullable: f.nullable,
        default: typeof f.default === "function" ? void 0 : f.default,
        size: f.size
      })
    );
    const indexes = s.indexes.map((ix) => ({
      table: s.table,
      columns: [...ix.columns],
      unique: ix.unique,
      name: ix.name
    }));
    model.set(s.table, { name: s.table, columns: columns2, indexes });
  }
  for (const s of schemas) addBelongsTo(model, s, warnings);
  addJoinTables2(model, schemas, warnings);
  return model;
}
function addBelongsTo(model, s, warnings) {
  const t = model.get(s.table);
  for (const [name, a] of Object.entries(s.associations)) {
    if (a.kind !== "belongsTo") continue;
    let assoc;
    try {
      assoc = resolveAssoc2(s, name);
    } catch (e) {
      warnings.push(`${e.message}; no foreign key is generated for it`);
      continue;
    }
    const { related, foreignKey } = assoc;
    if (!model.has(related.table)) {
      warnings.push(
        `association ${s.table}.${name}: no schema given uses the table "${related.table}"; no foreign key is generated for ${s.table}.${foreignKey}`
      );
      continue;
    }
    const i = t.columns.findIndex((c) => c.name === foreignKey);
    const refs = resolveReferences2(
      { table: related.table, column: related.primaryKey, onDelete: a.onDelete },
      `association ${s.table}.${name}`
    );
    const existing = t.columns[i].references;
    if (existing && !sameReferences2(existing, refs)) {
      throw new Error(
        `schema ${s.table}: two belongsTo associations use the column "${foreignKey}" with different references`
      );
    }
    if (refs.onDelete === "set_null" && !t.columns[i].nullable) {
      warnings.push(
        `association ${s.table}.${name}: onDelete set_null on the NOT NULL column ${s.table}.${foreignKey}; deleting a referenced ${related.table} row will fail`
      );
    }
    t.columns[i] = { ...t.columns[i], references: refs };
    checkReference2(model, t, t.columns[i], `schema ${s.table}, association ${name}`);
  }
}
function schemaRenames2(schemas) {
  const renames = {};
  for (const s of schemas)
    for (const f of s.fields) if (f.renamedFrom && !f.virtual) renames[`${s.table}.${f.name}`] = f.renamedFrom;
  return renames;
}
var init_model2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/model.ts"() {
    "use strict";
    init_assoc2();
    init_columns2();
    init_foreign_keys2();
    init_join_tables2();
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/table-order.ts
function creationOrder2(tables, later = () => false) {
  const inSet = new Set(tables.map((t) => t.name));
  const done = /* @__PURE__ */ new Set();
  const deferred = tables.flatMap(
    (t) => t.columns.filter((c) => c.references && later(t, c)).map((c) => ({ table: t.name, column: c.name }))
  );
  const waitsOn = (t) => t.columns.filter(
    (c) => c.references && c.references.table !== t.name && inSet.has(c.references.table) && !done.has(c.references.table) && !isDeferred2(deferred, t.name, c.name)
  );
  const pending = [...tables];
  const order = [];
  while (pending.length > 0) {
    let i = pending.findIndex((t) => waitsOn(t).length === 0);
    if (i < 0) {
      i = 0;
      for (const c of waitsOn(pending[0])) deferred.push({ table: pending[0].name, column: c.name });
    }
    const [next] = pending.splice(i, 1);
    order.push(next);
    done.add(next.name);
  }
  return { order, deferred };
}
var isDeferred2;
var init_table_order2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/table-order.ts"() {
    "use strict";
    isDeferred2 = (deferred, table2, column) => deferred.some((d2) => d2.table === table2 && d2.column === column);
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/decisions.ts
function decisionMessage(list2) {
  const lines = [
    "Migration not generated: a column disappears while another appears in the same table, which may be a rename. Decide for each:"
  ];
  for (const { table: table2, disappearing, appearing } of list2) {
    const olds = disappearing.map((c) => `"${c}"`).join(", ");
    lines.push(
      `  table "${table2}": ${olds} disappear${disappearing.length === 1 ? "s" : ""}; ${appearing.map((c) => `"${c}"`).join(", ")} appear${appearing.length === 1 ? "s" : ""}`
    );
    for (const neu of appearing) {
      for (const old of disappearing) {
        lines.push(
          `    - "${neu}" is "${old}" renamed (data kept): add renamedFrom: '${old}' to the field "${neu}" of the ${table2} schema, or pass decisions { renames: { '${table2}.${neu}': '${old}' } } (CLI: --rename ${table2}.${neu}=${old})`
        );
      }
    }
    for (const old of disappearing) {
      lines.push(
        `    - "${old}" is dropped with its data: pass decisions { dropColumns: ['${table2}.${old}'] } (CLI: --drop-column ${table2}.${old})`
      );
    }
  }
  return lines.join("\n");
}
var MigrationDecisionError2;
var init_decisions2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/decisions.ts"() {
    "use strict";
    MigrationDecisionError2 = class extends Error {
      constructor(ambiguities) {
        super(decisionMessage(ambiguities));
        this.ambiguities = ambiguities;
        this.name = "MigrationDecisionError";
      }
      ambiguities;
    };
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/diff.ts
function columnOf(c) {
  const nullableByDefault = !c.primaryKey && c.type !== "id";
  return {
    name: c.name,
    type: c.type,
    ...c.primaryKey ? { primaryKey: true } : {},
    ...c.nullable !== nullableByDefault ? { nullable: c.nullable } : {},
    ...c.default !== void 0 ? { default: c.default } : {},
    ...c.size !== void 0 ? { size: c.size } : {},
    ...c.references ? { references: referencesOf(c.references) } : {}
  };
}
function referencesOf(r) {
  return {
    table: r.table,
    ...r.column !== "id" ? { column: r.column } : {},
    ...r.onDelete !== "no_action" ? { onDelete: r.onDelete } : {}
  };
}
function modification(from4, to) {
  const typeChanged = typeKey(from4) !== typeKey(to);
  const defaultChanged = defaultKey(from4) !== defaultKey(to);
  const setDefault = defaultChanged || typeChanged && (from4.default !== void 0 || to.default !== void 0);
  const setType = typeChanged || setDefault && to.default !== void 0 && needsTypeForDefault(to);
  const set = {
    ...setType ? { type: to.type, ...to.size !== void 0 ? { size: to.size } : {} } : {},
    ...from4.nullable !== to.nullable ? { nullable: to.nullable } : {},
    ...setDefault ? { default: to.default ?? null } : {},
    ...!sameReferences2(from4.references, to.references) ? { references: to.references ? referencesOf(to.references) : null } : {}
  };
  return Object.keys(set).length > 0 ? set : void 0;
}
function tableRenames(from4, to, decisions) {
  const table2 = to.name;
  const warnings = [];
  const changes = [];
  const fromNames = new Set(from4.columns.map((c) => c.name));
  const toNames = new Set(to.columns.map((c) => c.name));
  const renamed = /* @__PURE__ */ new Map();
  for (const col3 of to.columns) {
    const old = decisions.renames?.[`${table2}.${col3.name}`];
    if (old === void 0 || fromNames.has(col3.name)) continue;
    if (toNames.has(old))
      throw new Error(
        `${table2}.${col3.name} is declared renamed from "${old}", but "${old}" is still a field of the ${table2} schema`
      );
    if (!fromNames.has(old)) {
      warnings.push(
        `${table2}.${col3.name} is declared renamed from "${old}", which does not exist; "${col3.name}" is added as a new column`
      );
      continue;
    }
    renamed.set(old, col3.name);
    changes.push(renameColumn2(old, col3.name));
  }
  return { renamed, changes, warnings };
}
function diffTable(from4, to, decisions, follow) {
  const table2 = to.name;
  const toNames = new Set(to.columns.map((c) => c.name));
  const { renamed, changes, warnings } = tableRenames(from4, to, decisions);
  const current = from4.columns.map((c) => ({
    ...c,
    name: renamed.get(c.name) ?? c.name,
    references: follow(c.references)
  }));
  const currentNames = new Set(current.map((c) => c.name));
  const disappearing = current.filter((c) => !toNames.has(c.name)).map((c) => c.name);
  const appearing = to.columns.filter((c) => !currentNames.has(c.name));
  const undecided = disappearing.filter((c) => !decisions.dropColumns?.includes(`${table2}.${c}`));
  const ambiguity = appearing.length > 0 && undecided.length > 0 ? { table: table2, disappearing: undecided, appearing: appearing.map((c) => c.name) } : void 0;
  for (const name of disappearing) changes.push(dropColumn2(name));
  for (const col3 of appearing) {
    if (!col3.nullable && col3.default === void 0 && col3.type !== "id") {
      warnings.push(
        `${table2}.${col3.name} is added NOT NULL without a default: the migration fails if ${table2} has rows`
      );
    }
    changes.push(addColumn2(columnOf(col3)));
  }
  for (const col3 of to.columns) {
    const before = current.find((c) => c.name === col3.name);
    if (!before) continue;
    if (before.primaryKey !== col3.primaryKey)
      warnings.push(`${table2}.${col3.name}: primary key changes are not generated; write that migration by hand`);
    const set = modification(before, col3);
    if (set) changes.push(modifyColumn2(col3.name, set));
    if (before.references && !col3.references) {
      warnings.push(
        `${table2}.${col3.name} loses its foreign key to ${before.references.table}.${before.references.column}: no belongsTo of the ${table2} schema declares it`
      );
    }
    if (!before.references && col3.references) {
      warnings.push(
        `${table2}.${col3.name} gets a foreign key to ${col3.references.table}.${col3.references.column}: the migration fails if a row of ${table2} has a ${col3.name} that matches none`
      );
    }
  }
  const fromIndexes = from4.indexes.map((ix) => ({ ...ix, columns: ix.columns.map((c) => renamed.get(c) ?? c) }));
  const same2 = (a, b) => a.unique === b.unique && a.columns.join("\0") === b.columns.join("\0");
  const dropped = fromIndexes.filter((ix) => !to.indexes.some((t) => t.name === ix.name && same2(ix, t)));
  const created = to.indexes.filter((ix) => !fromIndexes.some((f) => f.name === ix.name && same2(ix, f)));
  const operations = [
    ...dropped.map((ix) => dropIndex2(table2, ix.name)),
    ...changes.length > 0 ? [alterTable2(table2, changes)] : [],
    ...created.map((ix) => createIndex2(table2, ix.columns, { unique: ix.unique, name: ix.name }))
  ];
  return { operations, warnings, ambiguity };
}
function foreignKeyChanges(model, refs, drop) {
  const tables = [...new Set(refs.map((r) => r.table))];
  return tables.map((table2) => {
    const columns2 = refs.filter((r) => r.table === table2).map((r) => model.get(table2).columns.find((c) => c.name === r.column));
    return alterTable2(
      table2,
      columns2.map((c) => modifyColumn2(c.name, { references: drop ? null : referencesOf(c.references) }))
    );
  });
}
function diffModels(from4, to, decisions = {}) {
  const operations = [];
  const warnings = [];
  const ambiguities = [];
  const settledIn = (m) => (_, c) => {
    const target = c.references.table;
    return from4.has(target) && to.has(target) && !isUniqueColumn2(m.get(target), c.references.column);
  };
  const created = creationOrder2(
    [...to.values()].filter((t) => !from4.has(t.name)),
    settledIn(from4)
  );
  const dropped = creationOrder2(
    [...from4.values()].filter((t) => !to.has(t.name) && decisions.dropTables?.includes(t.name)),
    settledIn(to)
  );
  for (const t of created.order) {
    const columns2 = t.columns.map(
      (c) => isDeferred2(created.deferred, t.name, c.name) ? { ...c, references: void 0 } : c
    );
    operations.push(createTable2(t.name, columns2.map(columnOf)));
    for (const ix of t.indexes) operations.push(createIndex2(t.name, ix.columns, { unique: ix.unique, name: ix.name }));
  }
  operations.push(...foreignKeyChanges(from4, dropped.deferred, true));
  const kept = [...to.values()].filter((t) => from4.has(t.name));
  const renames = new Map(
    kept.flatMap(
      (t) => [...tableRenames(from4.get(t.name), t, decisions).renamed].map(([old, neu]) => [`${t.name}.${old}`, neu])
    )
  );
  const follow = (r) => r && renames.has(`${r.table}.${r.column}`) ? { ...r, column: renames.get(`${r.table}.${r.column}`) } : r;
  for (const t of creationOrder2(kept).order) {
    const before = from4.get(t.name);
    const d2 = diffTable(before, t, decisions, follow);
    operations.push(...d2.operations);
    warnings.push(...d2.warnings);
    if (d2.ambiguity) ambiguities.push(d2.ambiguity);
  }
  operations.push(...foreignKeyChanges(to, created.deferred, false));
  operations.push(...[...dropped.order].reverse().map((t) => dropTable2(t.name)));
  for (const t of from4.values()) {
    if (to.has(t.name)) continue;
    if (!decisions.dropTables?.includes(t.name)) {
      warnings.push(
        `table "${t.name}" is in the migrations but no schema uses it; it is kept. To drop it with its data, pass decisions { dropTables: ['${t.name}'] } (CLI: --drop-table ${t.name})`
      );
    }
  }
  return { operations, warnings, ambiguities };
}
function planMigration2(from4, to, decisions = {}) {
  const forward = diffModels(from4, to, decisions);
  if (forward.ambiguities.length > 0) throw new MigrationDecisionError2(forward.ambiguities);
  const renames = {};
  const dropColumns = [];
  const dropTables = [...to.keys()].filter((t) => !from4.has(t));
  for (const op of forward.operations) {
    if (op.op !== "alterTable") continue;
    for (const c of op.changes) {
      if (c.change === "renameColumn") renames[`${op.table}.${c.from}`] = c.to;
      if (c.change === "addColumn") dropColumns.push(`${op.table}.${c.column.name}`);
    }
  }
  const target = new Map([...from4].filter(([name]) => to.has(name) || decisions.dropTables?.includes(name)));
  const backward = diffModels(to, target, { renames, dropColumns, dropTables });
  const after = replay(from4, forward.operations, "up()");
  replay(after, backward.operations, "down()");
  return { up: forward.operations, down: backward.operations, warnings: forward.warnings };
}
function replay(model, ops3, which) {
  const copy = cloneModel2(model);
  for (const op of ops3) applyOperation2(copy, op, `Migration not generated: its ${which} would fail`);
  return copy;
}
var typeKey, defaultKey, needsTypeForDefault;
var init_diff2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/diff.ts"() {
    "use strict";
    init_columns2();
    init_foreign_keys2();
    init_model2();
    init_operations2();
    init_table_order2();
    init_decisions2();
    init_decisions2();
    typeKey = (c) => sqlType2(c.type, c.size);
    defaultKey = (c) => defaultSql2(c.default, c.type, `column ${c.name}`);
    needsTypeForDefault = (c) => c.type === "jsonb" || typeof c.type === "object";
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/render.ts
function literal(value) {
  if (value === null) return "null";
  if (typeof value === "string")
    return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replaceAll("\n", "\\n").replaceAll("\r", "\\r")}'`;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} into a migration file`);
    return Object.is(value, -0) ? "0" : String(value);
  }
  if (typeof value === "boolean") return String(value);
  if (value instanceof Date) return `new Date(${literal(value.toISOString())})`;
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value).filter(([, v]) => v !== void 0);
    if (entries.length === 0) return "{}";
    return `{ ${entries.map(([k, v]) => `${IDENTIFIER.test(k) ? k : literal(k)}: ${literal(v)}`).join(", ")} }`;
  }
  throw new Error(`cannot write ${String(value)} into a migration file`);
}
function change3(c) {
  switch (c.change) {
    case "addColumn":
      return { helper: "addColumn", code: `addColumn(${literal(c.column)})` };
    case "dropColumn":
      return { helper: "dropColumn", code: `dropColumn(${literal(c.name)})` };
    case "renameColumn":
      return { helper: "renameColumn", code: `renameColumn(${literal(c.from)}, ${literal(c.to)})` };
    case "modifyColumn":
      return { helper: "modifyColumn", code: `modifyColumn(${literal(c.name)}, ${literal(c.set)})` };
  }
}
function operation(op, helpers) {
  helpers.add(op.op);
  switch (op.op) {
    case "createTable":
      return `createTable(${literal(op.table)}, [
${op.columns.map((c) => `      ${literal(c)},`).join("\n")}
    ])`;
    case "dropTable":
      return `dropTable(${literal(op.table)})`;
    case "alterTable": {
      const lines = op.changes.map((c) => {
        const { helper, code } = change3(c);
        helpers.add(helper);
        return `      ${code},`;
      });
      return `alterTable(${literal(op.table)}, [
${lines.join("\n")}
    ])`;
    }
    case "createIndex":
      return `createIndex(${literal(op.table)}, ${literal(op.columns)}, ${literal({ ...op.unique ? { unique: true } : {}, name: op.name })})`;
    case "dropIndex":
      return `dropIndex(${literal(op.table)}, ${literal(op.name)})`;
    case "execute":
      return `execute(${literal(op.sql)})`;
  }
}
function body(name, ops3, helpers) {
  if (ops3.length === 0) return `export function ${name}() {
  return []
}
`;
  return `export function ${name}() {
  return [
${ops3.map((op) => `    ${operation(op, helpers)},`).join("\n")}
  ]
}
`;
}
function renderMigration2(up, down, importFrom) {
  const helpers = /* @__PURE__ */ new Set();
  const upCode = body("up", up, helpers);
  const downCode = body("down", down, helpers);
  const names = [...helpers].sort();
  return [
    "// Generated by vela from the schemas. Review it before it is applied; edits are kept.",
    `import { ${names.join(", ")} } from ${literal(importFrom)}`,
    "",
    upCode,
    downCode
  ].join("\n").trimEnd() + "\n";
}
var IDENTIFIER;
var init_render2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/render.ts"() {
    "use strict";
    IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  }
});

// ../../work/wt-dbl-chains/dbl/migrations/generate.ts
import { randomBytes } from "node:crypto";
import { link, mkdir, rm, writeFile } from "node:fs/promises";
import path2 from "node:path";
async function generateMigration2(opts) {
  const warnings = [];
  const migrations = await loadMigrations2(opts.migrationsDir, {
    onIgnored: (file2, reason) => warnings.push(`ignored ${file2}: ${reason}`),
    importModule: opts.importModule
  });
  const current = modelFromMigrations2(migrations);
  const target = modelFromSchemas2(opts.schemas, warnings);
  const decisions = {
    ...opts.decisions,
    // An explicit decision wins over the field option.
    renames: { ...schemaRenames2(opts.schemas), ...opts.decisions?.renames }
  };
  const plan = planMigration2(current, target, decisions);
  warnings.push(...plan.warnings);
  if (plan.up.length === 0) return { written: null, name: null, operations: [], down: [], warnings };
  const name = migrationName(plan.up);
  const last = migrations.at(-1)?.version;
  const file = path2.join(opts.migrationsDir, migrationFileName2(versionAfter(opts.now ?? /* @__PURE__ */ new Date(), last), name));
  await mkdir(opts.migrationsDir, { recursive: true });
  const temp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, renderMigration2(plan.up, plan.down, opts.importFrom ?? "vela/dbl"), { flag: "wx" });
    await link(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
  return { written: file, name, operations: plan.up, down: plan.down, warnings };
}
function migrationName(ops3) {
  const tables = new Set(ops3.map((op) => "table" in op ? op.table : ""));
  if (tables.size !== 1 || tables.has("")) return "update_schema";
  const [table2] = tables;
  if (ops3.some((op) => op.op === "dropTable")) return "update_schema";
  return ops3.some((op) => op.op === "createTable") ? `create_${fileSafe(table2)}` : `alter_${fileSafe(table2)}`;
}
function timestamp(d2) {
  return `${pad(d2.getUTCFullYear(), 4)}${pad(d2.getUTCMonth() + 1)}${pad(d2.getUTCDate())}${pad(d2.getUTCHours())}${pad(d2.getUTCMinutes())}${pad(d2.getUTCSeconds())}`;
}
function parseVersion(v) {
  const s = String(v);
  const part = (from4, to) => Number(s.slice(from4, to));
  return new Date(Date.UTC(part(0, 4), part(4, 6) - 1, part(6, 8), part(8, 10), part(10, 12), part(12, 14)));
}
function versionAfter(now, last) {
  const stamp = timestamp(now);
  if (last === void 0 || Number(stamp) > last) return stamp;
  return timestamp(new Date(parseVersion(last).getTime() + 1e3));
}
var fileSafe, pad;
var init_generate2 = __esm({
  "../../work/wt-dbl-chains/dbl/migrations/generate.ts"() {
    "use strict";
    init_diff2();
    init_load2();
    init_model2();
    init_render2();
    fileSafe = (table2) => table2.toLowerCase().replace(/[^a-z0-9_]+/g, "_");
    pad = (n, width = 2) => String(n).padStart(width, "0");
  }
});

// ../../work/wt-dbl-chains/dbl/deprecated.ts
function ok3(value) {
  warnDeprecated("VELA_DEP_DBL_OK", "ok from 'vela/dbl' is deprecated: compare result.ok instead of building results");
  return ok2(value);
}
function err3(error) {
  warnDeprecated("VELA_DEP_DBL_ERR", "err from 'vela/dbl' is deprecated: compare result.ok instead of building results");
  return err2(error);
}
var init_deprecated = __esm({
  "../../work/wt-dbl-chains/dbl/deprecated.ts"() {
    "use strict";
    init_deprecation();
    init_result2();
  }
});

// ../../work/wt-dbl-chains/dbl/index.ts
var dbl_exports = {};
__export(dbl_exports, {
  DB_OUTCOME_UNKNOWN: () => DB_OUTCOME_UNKNOWN2,
  DB_UNAVAILABLE: () => DB_UNAVAILABLE2,
  DEFAULT_DEADLINES: () => DEFAULT_DEADLINES2,
  DbError: () => DbError2,
  DbOutcomeUnknownError: () => DbOutcomeUnknownError2,
  DbUnavailableError: () => DbUnavailableError2,
  MigrationDecisionError: () => MigrationDecisionError2,
  MultipleResultsError: () => MultipleResultsError,
  addColumn: () => addColumn2,
  addError: () => addError2,
  alterTable: () => alterTable2,
  and: () => and2,
  applyChanges: () => applyChanges2,
  assocConstraint: () => assocConstraint2,
  avg: () => avg2,
  belongsTo: () => belongsTo2,
  cast: () => cast2,
  castAssoc: () => castAssoc2,
  castEmbed: () => castEmbed2,
  change: () => change2,
  checkConstraint: () => checkConstraint2,
  cond: () => cond2,
  count: () => count2,
  createIndex: () => createIndex2,
  createPgAdapter: () => createPgAdapter2,
  createPgliteAdapter: () => createPgliteAdapter2,
  createTable: () => createTable2,
  defineEmbeddedSchema: () => defineEmbeddedSchema2,
  defineMigration: () => defineMigration2,
  defineRepo: () => defineRepo2,
  defineSchema: () => defineSchema2,
  distinct: () => distinct2,
  dropColumn: () => dropColumn2,
  dropIndex: () => dropIndex2,
  dropTable: () => dropTable2,
  embedsMany: () => embedsMany2,
  embedsOne: () => embedsOne2,
  err: () => err3,
  errorMessage: () => errorMessage2,
  errorsToJson: () => errorsToJson2,
  escapeLike: () => escapeLike2,
  exclusionConstraint: () => exclusionConstraint2,
  execute: () => execute2,
  exists: () => exists3,
  foreignKeyConstraint: () => foreignKeyConstraint2,
  from: () => from2,
  generateMigration: () => generateMigration2,
  getChange: () => getChange2,
  getField: () => getField2,
  groupBy: () => groupBy2,
  hasMany: () => hasMany2,
  hasOne: () => hasOne2,
  having: () => having2,
  isChangeset: () => isChangeset2,
  isDbError: () => isDbError2,
  isDbOutcomeUnknown: () => isDbOutcomeUnknown2,
  isDbUnavailable: () => isDbUnavailable2,
  join: () => join2,
  leftJoin: () => leftJoin2,
  limit: () => limit2,
  loadMigrations: () => loadMigrations2,
  lock: () => lock2,
  manyToMany: () => manyToMany2,
  max: () => max2,
  migrate: () => migrate2,
  migrationStatus: () => status2,
  min: () => min2,
  modifyColumn: () => modifyColumn2,
  newMulti: () => newMulti2,
  noAssocConstraint: () => noAssocConstraint2,
  not: () => not2,
  offset: () => offset2,
  ok: () => ok3,
  optimisticLock: () => optimisticLock2,
  or: () => or2,
  orderBy: () => orderBy2,
  putAssoc: () => putAssoc2,
  putChange: () => putChange2,
  renameColumn: () => renameColumn2,
  rollbackMigrations: () => rollback4,
  select: () => select2,
  sum: () => sum2,
  timestamps: () => timestamps2,
  uniqueConstraint: () => uniqueConstraint2,
  validateChange: () => validateChange2,
  validateConfirmation: () => validateConfirmation2,
  validateExclusion: () => validateExclusion2,
  validateFormat: () => validateFormat2,
  validateInclusion: () => validateInclusion2,
  validateLength: () => validateLength2,
  validateNumber: () => validateNumber2,
  validateRequired: () => validateRequired2,
  validateSubset: () => validateSubset2,
  where: () => where2
});
var init_dbl2 = __esm({
  "../../work/wt-dbl-chains/dbl/index.ts"() {
    "use strict";
    init_schema2();
    init_embedded2();
    init_changeset2();
    init_assoc2();
    init_optimistic_lock2();
    init_constraints2();
    init_validations2();
    init_builder();
    init_conditions();
    init_operators();
    init_join();
    init_aggregate();
    init_repo2();
    init_multi4();
    init_deadlines2();
    init_pg2();
    init_pglite2();
    init_db_error2();
    init_multiple_results_error();
    init_unavailable2();
    init_operations2();
    init_migrator2();
    init_load2();
    init_generate2();
    init_diff2();
    init_deprecated();
  }
});

// ../../work/wt-dbl-chains/bench/dbl/queries.ts
var queries_exports2 = {};
__export(queries_exports2, {
  Customer: () => Customer2,
  JOIN_SQL: () => JOIN_SQL2,
  LineItem: () => LineItem2,
  QUERY_DDL: () => QUERY_DDL2,
  QUERY_SEED: () => QUERY_SEED2,
  SUMMARY_SQL: () => SUMMARY_SQL2,
  WorkOrder: () => WorkOrder2,
  knexJoin: () => knexJoin2,
  knexSummary: () => knexSummary2,
  velaJoin: () => velaJoin2,
  velaSummary: () => velaSummary2
});
var Customer2, LineItem2, WorkOrder2, QUERY_DDL2, QUERY_SEED2, velaJoin2, velaSummary2, knexJoin2, knexSummary2, JOIN_SQL2, SUMMARY_SQL2;
var init_queries2 = __esm({
  "../../work/wt-dbl-chains/bench/dbl/queries.ts"() {
    "use strict";
    init_dbl2();
    Customer2 = defineSchema2({
      table: "customers",
      fields: {
        id: "id",
        name: { type: "string", nullable: false },
        tier: { type: { enum: ["free", "pro"] }, nullable: false }
      },
      associations: { work_orders: hasMany2(() => WorkOrder2) }
    });
    LineItem2 = defineSchema2({
      table: "order_lines",
      fields: {
        id: "id",
        work_order_id: { type: "integer", nullable: false },
        quantity: { type: "integer", nullable: false },
        unit_price: { type: "integer", nullable: false }
      }
    });
    WorkOrder2 = defineSchema2({
      table: "orders",
      fields: {
        id: "id",
        title: { type: "string", nullable: false },
        status: { type: { enum: ["open", "done"] }, nullable: false },
        customer_id: { type: "integer", nullable: false }
      },
      associations: {
        customer: belongsTo2(() => Customer2),
        line_items: hasMany2(() => LineItem2, { foreignKey: "work_order_id" })
      }
    });
    QUERY_DDL2 = `create table if not exists customers (id bigserial primary key, name varchar(255) not null, tier varchar(255) not null);
create table if not exists orders (id bigserial primary key, title varchar(255) not null, status varchar(255) not null, customer_id integer not null references customers(id));
create index if not exists orders_customer_id_index on orders (customer_id);
create table if not exists order_lines (id bigserial primary key, work_order_id integer not null references orders(id), quantity integer not null, unit_price integer not null);
create index if not exists order_lines_work_order_id_index on order_lines (work_order_id)`;
    QUERY_SEED2 = `insert into customers (name, tier) select 'Customer ' || i, case when i % 2 = 0 then 'pro' else 'free' end from generate_series(1, 50) i;
insert into orders (title, status, customer_id) select 'Order ' || i, case when i % 3 = 0 then 'done' else 'open' end, 1 + i % 50 from generate_series(1, 500) i;
insert into order_lines (work_order_id, quantity, unit_price) select 1 + i % 500, 1 + i % 5, 100 + i % 700 from generate_series(1, 1500) i`;
    velaJoin2 = (tier) => select2(limit2(orderBy2(where2(join2(from2(WorkOrder2), "customer"), "customer.tier", "=", tier), "id"), 50), [
      "id",
      "title",
      "status",
      "customer.name"
    ]);
    velaSummary2 = (status3) => orderBy2(
      select2(groupBy2(join2(where2(from2(WorkOrder2), "status", "=", status3), "line_items"), ["customer_id"]), {
        customer_id: "customer_id",
        orders: count2("id", { distinct: true }),
        total: sum2(["line_items.quantity", "*", "line_items.unit_price"])
      }),
      "customer_id"
    );
    knexJoin2 = (k, tier) => k("orders").join("customers", "customers.id", "orders.customer_id").where("customers.tier", tier).orderBy("orders.id").limit(50).select("orders.id", "orders.title", "orders.status", "customers.name");
    knexSummary2 = (k, status3) => k("orders").join("order_lines", "order_lines.work_order_id", "orders.id").where("orders.status", status3).groupBy("orders.customer_id").orderBy("orders.customer_id").select(
      "orders.customer_id",
      k.raw("count(distinct ??) as ??", ["orders.id", "orders"]),
      k.raw("sum(?? * ??) as ??", ["order_lines.quantity", "order_lines.unit_price", "total"])
    );
    JOIN_SQL2 = 'select "orders"."id", "orders"."title", "orders"."status", "customer"."name" as "customer.name" from "orders" inner join "customers" as "customer" on "customer"."id" = "orders"."customer_id" where "customer"."tier" = $1 order by "orders"."id" asc limit $2';
    SUMMARY_SQL2 = 'select "orders"."customer_id" as "customer_id", count(distinct "orders"."id") as "orders", sum("line_items"."quantity" * "line_items"."unit_price") as "total" from "orders" inner join "order_lines" as "line_items" on "line_items"."work_order_id" = "orders"."id" where "orders"."status" = $1 group by "orders"."customer_id" order by "orders"."customer_id" asc';
  }
});

// bench-static.mts
var oldQ = await Promise.resolve().then(() => (init_queries(), queries_exports));
var oldC = await Promise.resolve().then(() => (init_query_compile(), query_compile_exports));
var newQ = await Promise.resolve().then(() => (init_queries2(), queries_exports2));
var newC = await Promise.resolve().then(() => (init_compile(), compile_exports));
var d = await Promise.resolve().then(() => (init_dbl2(), dbl_exports));
var { from: from3, count: count4, sum: sum3 } = d;
var { WorkOrder: WorkOrder3 } = newQ;
var chainJoin = (tier) => from3(WorkOrder3).join("customer").where("customer.tier", "=", tier).orderBy("id").limit(50).select(["id", "title", "status", "customer.name"]);
var chainSummary = (status3) => from3(WorkOrder3).where("status", "=", status3).join("line_items").groupBy(["customer_id"]).select({ customer_id: "customer_id", orders: count4("id", { distinct: true }), total: sum3(["line_items.quantity", "*", "line_items.unit_price"]) }).orderBy("customer_id");
function cost(f) {
  for (let i = 0; i < 2e4; i++) f();
  const n = 2e5;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  return Number(process.hrtime.bigint() - t0) / n / 1e3;
}
var cases = {
  "join+filter old": () => oldC.compileSelect(oldQ.velaJoin("pro")),
  "join+filter new (functions)": () => newC.compileSelect(newQ.velaJoin("pro")),
  "join+filter new (chain)": () => newC.compileSelect(chainJoin("pro")),
  "grouped aggregate old": () => oldC.compileSelect(oldQ.velaSummary("open")),
  "grouped aggregate new (functions)": () => newC.compileSelect(newQ.velaSummary("open")),
  "grouped aggregate new (chain)": () => newC.compileSelect(chainSummary("open"))
};
var only = process.env.ONLY;
if (only) {
  const f = cases[only];
  const n = Number(process.env.N ?? 1);
  for (let i = 0; i < n; i++) f();
  process.exit(0);
}
var res = {};
for (let r = 0; r < 5; r++) for (const [k, f] of Object.entries(cases)) (res[k] ??= []).push(cost(f));
var med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.table(Object.fromEntries(Object.entries(res).map(([k, v]) => [k, { "median \xB5s": +med(v).toFixed(3) }])));
