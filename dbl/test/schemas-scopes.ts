/**
 * Schemas with default scopes, with their DDL: soft-deleted notes of authors (and tags linked to
 * authors through a join table), and items of tenants, filtered by a request value.
 */
import { requestValue } from '../scopes.ts'
import { belongsTo, defineSchema, hasMany, manyToMany, type AnySchema } from '../schema.ts'

/** The tenant of the current request, as a plugin would set it. */
export const tenant = requestValue<number>('tenant')

export const Author = defineSchema({
  table: 'sd_authors',
  fields: { id: 'id', name: { type: 'string', nullable: false }, deleted_at: 'utc_datetime' },
  softDelete: true,
  associations: {
    notes: hasMany((): AnySchema => Note, { foreignKey: 'author_id' }),
    tags: manyToMany((): AnySchema => Tag, { joinThrough: 'sd_author_tags', joinKeys: ['author_id', 'tag_id'] }),
  },
})

export const Note = defineSchema({
  table: 'sd_notes',
  fields: {
    id: 'id',
    title: { type: 'string', nullable: false },
    author_id: 'integer',
    removed_at: 'utc_datetime',
  },
  softDelete: 'removed_at',
  associations: { author: belongsTo((): AnySchema => Author) },
})

export const Tag = defineSchema({
  table: 'sd_tags',
  fields: { id: 'id', name: { type: 'string', nullable: false }, deleted_at: 'utc_datetime' },
  softDelete: true,
})

export const Shelf = defineSchema({
  table: 'tenant_shelves',
  fields: { id: 'id', name: { type: 'string', nullable: false } },
  associations: { items: hasMany((): AnySchema => Item, { foreignKey: 'shelf_id' }) },
})

export const Item = defineSchema({
  table: 'tenant_items',
  fields: {
    id: 'id',
    name: { type: 'string', nullable: false },
    tenant_id: { type: 'integer', nullable: false },
    shelf_id: 'integer',
  },
  scopes: { tenant: () => ({ tenant_id: tenant.get() }) },
})

export const scopesDdl = [
  `create table sd_authors (id bigserial primary key, name varchar(255) not null, deleted_at timestamptz)`,
  `create table sd_notes (id bigserial primary key, title varchar(255) not null, author_id integer references sd_authors(id), removed_at timestamptz)`,
  `create table sd_tags (id bigserial primary key, name varchar(255) not null, deleted_at timestamptz)`,
  `create table sd_author_tags (author_id integer not null references sd_authors(id), tag_id integer not null references sd_tags(id), unique (author_id, tag_id))`,
  `create table tenant_shelves (id bigserial primary key, name varchar(255) not null)`,
  `create table tenant_items (id bigserial primary key, name varchar(255) not null, tenant_id integer not null, shelf_id integer references tenant_shelves(id))`,
]

export const scopesTables = ['sd_author_tags', 'sd_notes', 'sd_tags', 'sd_authors', 'tenant_items', 'tenant_shelves']
