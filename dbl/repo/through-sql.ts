/**
 * The statements a manyToMany association runs on its join table, built by knex once per
 * association shape and cached (sql.ts): the preload's join, and the two writes that replace a
 * record's set of links. Every key travels as a parameter; a list of keys is one array parameter,
 * so the statement does not depend on how many there are. Their callers load knex first (`loadKnex`).
 */
import { sqlType, storedType } from '../migrations/columns.ts'
import type { AnySchema, JoinThrough } from '../schema.ts'
import { columnOf, selectAs } from '../column-names.ts'
import { compiled, kx, marker, sqlOf, type Compiled } from '../sql.ts'

/** The column the preload adds to each related row: the owner key it was found for. */
export const OWNER_ALIAS = '__vela_owner'

/** The SQL type of a schema's primary key, for casting parameters whose type PostgreSQL cannot infer. */
function keyType(schema: AnySchema): string {
  const f = schema.fieldsByName[schema.primaryKey]!
  return sqlType(storedType(f.type), f.size, false)
}

const shape = (t: JoinThrough) => `${t.table} ${t.ownerKey} ${t.relatedKey} ${t.related.table}.${t.relatedColumn}`

/**
 * `SELECT related.*, jt.ownerKey AS __vela_owner FROM related JOIN jt ON jt.relatedKey = related.pk
 * WHERE jt.ownerKey = any($1) ORDER BY related.pk`: every related row linked to any of the owners.
 */
export function selectThrough(t: JoinThrough): Compiled {
  const related = t.related
  const relatedColumn = columnOf(related, t.relatedColumn)
  return compiled(`through select ${shape(t)}`, () =>
    kx(related.table)
      .join(t.table, `${t.table}.${t.relatedKey}`, `${related.table}.${relatedColumn}`)
      .select([
        ...sqlOf(related).columns.map((c) => selectAs(related, c, `${related.table}.`)),
        { [OWNER_ALIAS]: `${t.table}.${t.ownerKey}` },
      ])
      .whereRaw('?? = any(?)', [`${t.table}.${t.ownerKey}`, marker(0)])
      .orderBy(`${related.table}.${relatedColumn}`),
  )
}

/** `DELETE FROM jt WHERE ownerKey = $1 AND NOT (relatedKey = any($2))`: the links of one owner left out of its new set. */
export function deleteOtherLinks(t: JoinThrough): Compiled {
  return compiled(`through delete ${shape(t)}`, () =>
    kx(t.table)
      .where(t.ownerKey, marker(0))
      .whereRaw('not (?? = any(?))', [t.relatedKey, marker(1)])
      .del(),
  )
}

/**
 * `INSERT INTO jt (ownerKey, relatedKey) SELECT $1, unnest($2) ON CONFLICT DO NOTHING`: one
 * statement for the whole set; links already there are kept as they are (the join table's unique
 * index over the pair makes them conflicts). The casts tell PostgreSQL the parameters' types.
 */
export function insertLinks(owner: AnySchema, t: JoinThrough): Compiled {
  return compiled(`through insert ${owner.table}.${owner.primaryKey} ${shape(t)}`, () =>
    kx
      .into(kx.raw('?? (??, ??)', [t.table, t.ownerKey, t.relatedKey]))
      .insert(
        kx.select(
          kx.raw(`?::${keyType(owner)}`, [marker(0)]),
          kx.raw(`unnest(?::${keyType(t.related)}[])`, [marker(1)]),
        ),
      )
      .onConflict()
      .ignore(),
  )
}
