/** Schemas for the changeset cases (cases/changesets-more.ts): virtual fields, embeds, a lock version. */
import { defineEmbeddedSchema, embedsMany, embedsOne } from '../embedded.ts'
import { defineSchema, timestamps } from '../schema.ts'

export const Geo = defineEmbeddedSchema({ name: 'geo', fields: { lat: 'float', lng: 'float' } })

export const Address = defineEmbeddedSchema({
  name: 'address',
  fields: {
    street: 'string',
    city: { type: 'string', nullable: false },
    verified_at: 'utc_datetime',
    geo: embedsOne(Geo),
  },
})

export const Item = defineEmbeddedSchema({
  name: 'item',
  primaryKey: 'id',
  fields: {
    id: 'uuid',
    name: { type: 'string', nullable: false },
    quantity: 'integer',
    note: { type: 'string', virtual: true },
  },
})

export const Account = defineSchema({
  table: 'cs_accounts',
  fields: {
    id: 'id',
    email: { type: 'string', nullable: false },
    password: { type: 'string', virtual: true },
    password_hash: 'string',
    tags: { type: { array: 'string' } },
    address: embedsOne(Address),
    items: { type: embedsMany(Item), nullable: false, default: [] },
    lock_version: { type: 'integer', nullable: false, default: 1 },
    ...timestamps(),
  },
})

/** What the migration generator writes for Account (generate-embeds.test.ts checks it does). */
export const changesetsDdl = [
  `create table cs_accounts (id bigserial primary key, email varchar(255) not null, password_hash varchar(255),
     tags varchar(255)[], address jsonb, items jsonb not null default '[]', lock_version integer not null default 1,
     inserted_at timestamptz, updated_at timestamptz)`,
]

export const changesetsTables = ['cs_accounts']
