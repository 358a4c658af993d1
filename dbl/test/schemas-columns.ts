/**
 * Schemas whose fields are stored under other column names (`column`), with their DDL as the
 * migration generator writes it: writers with renamed key and timestamps, labels keyed by a
 * renamed string key, and audited, soft-deleted posts with renamed jsonb, array and embedded
 * columns, a renamed foreign key, a unique index and labels through a join table (cases/columns.ts).
 */
import { AUDIT_TABLE } from '../audit/entry.ts'
import { defineEmbeddedSchema } from '../embedded.ts'
import { operationsSql } from '../migrations/ddl.ts'
import { planMigration } from '../migrations/diff.ts'
import { modelFromSchemas } from '../migrations/model.ts'
import { belongsTo, defineSchema, hasMany, manyToMany, type AnySchema } from '../schema.ts'

export const CnWriter = defineSchema({
  table: 'cn_writers',
  fields: {
    id: { type: 'id', column: 'writer_id' },
    name: { type: 'string', nullable: false, column: 'full_name' },
    inserted_at: { type: 'utc_datetime', column: 'created_on' },
    updated_at: { type: 'utc_datetime', column: 'changed_on' },
  },
  associations: { posts: hasMany((): AnySchema => CnPost, { foreignKey: 'author_id' }) },
})

export const CnLabel = defineSchema({
  table: 'cn_labels',
  fields: { code: { type: 'string', primaryKey: true, column: 'label_code' }, name: 'string' },
})

export const CnLink = defineEmbeddedSchema({ name: 'link', fields: { url: 'string', seen_at: 'utc_datetime' } })

export const CnPost = defineSchema({
  table: 'cn_posts',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false, column: 'post_title' },
    words: { type: 'integer', column: 'word_count' },
    author_id: { type: 'integer', column: 'writer_ref' },
    meta: { type: 'jsonb', column: 'meta_json' },
    tags: { type: { array: 'string' }, column: 'tag_list' },
    links: { type: { embedsMany: CnLink }, column: 'link_list' },
    removed_at: { type: 'utc_datetime', column: 'removed_on' },
  },
  softDelete: 'removed_at',
  audit: true,
  associations: {
    author: belongsTo((): AnySchema => CnWriter),
    labels: manyToMany((): AnySchema => CnLabel, { joinThrough: 'cn_post_labels', joinKeys: ['post_id', 'label'] }),
  },
  indexes: [{ columns: ['title'], unique: true }],
})

// The audit table is created with the hook schemas' (schemas-hooks.ts).
const ops = planMigration(new Map(), modelFromSchemas([CnWriter, CnLabel, CnPost])).up
export const columnsDdl = operationsSql(ops.filter((op) => !('table' in op) || op.table !== AUDIT_TABLE))

export const columnsTables = ['cn_writers', 'cn_labels', 'cn_posts', 'cn_post_labels']
