/**
 * Tables for the defect cases (cases/defects.ts). Their DDL comes from the migration compiler
 * (ddl.ts), so the cases also check what a generated migration creates: the uuid key's default,
 * the unique indexes under the names the schemas know them by.
 */
import { createIndex, createTable, type Column } from '../migrations/operations.ts'
import { operationSql } from '../migrations/ddl.ts'
import { defineSchema, type AnySchema } from '../schema.ts'

/** Defaults, two unique indexes (one of two columns) and a field several rows share. */
export const Gadget = defineSchema({
  table: 'defect_gadgets',
  fields: {
    id: 'id',
    code: { type: 'string', nullable: false },
    color: 'string',
    maker: 'string',
    serial: 'integer',
    status: { type: 'string', nullable: false, default: 'draft' },
    stock: { type: 'integer', nullable: false, default: 0 },
    labels: { type: { array: 'string' }, default: ['new'] },
  },
  indexes: [
    { columns: ['code'], unique: true },
    { columns: ['maker', 'serial'], unique: true },
  ],
})

/** A uuid primary key the database generates. */
export const Token = defineSchema({
  table: 'defect_tokens',
  fields: { id: { type: 'uuid', primaryKey: true }, label: 'string' },
})

/** `during` is a tsrange column under an unnamed EXCLUDE constraint; the schema sees text. */
export const Slot = defineSchema({
  table: 'defect_slots',
  fields: { id: 'id', during: 'string' },
})

/**
 * Unique indexes the schema declares, made by a hand-written migration as UNIQUE constraints, so
 * PostgreSQL names them `<table>_<columns>_key`; `label`'s index and constraint share an explicit
 * name, `nick`'s index has one the database does not (its constraint is `defect_badges_nick_key`).
 */
export const Badge = defineSchema({
  table: 'defect_badges',
  fields: { id: 'id', code: 'string', maker: 'string', serial: 'integer', label: 'string', nick: 'string' },
  indexes: [
    { columns: ['code'], unique: true },
    { columns: ['maker', 'serial'], unique: true },
    { columns: ['label'], unique: true, name: 'defect_badges_label_uniq' },
    { columns: ['nick'], unique: true, name: 'defect_badges_nick_uniq' },
  ],
})

/** Names PostgreSQL shortens to 63 bytes: an inline UNIQUE's `_key` name, and a constraint named too long. */
export const LongBadge = defineSchema({
  table: 'defect_badges_whose_table_name_is_long_enough_to_be_cut',
  fields: { id: 'id', registration_number_given_by_the_issuing_office: 'string', serial_code: 'string' },
  indexes: [{ columns: ['registration_number_given_by_the_issuing_office'], unique: true }],
})
export const longConstraintName = `${LongBadge.table}_serial_code_is_unique_across_all_badges`

/** An enum field and an array of enum values; rows outside them are written by raw SQL. */
export const Ticket = defineSchema({
  table: 'defect_tickets',
  fields: {
    id: 'id',
    title: 'string',
    state: { type: { enum: ['open', 'closed'] } },
    kinds: { type: { array: { enum: ['bug', 'idea'] } } },
  },
})

/** The schema's fields as migration columns (what the generator writes for a new table). */
function columns(schema: AnySchema): Column[] {
  return schema.fields.map((f) => ({
    name: f.name,
    type: f.type,
    ...(f.primaryKey && { primaryKey: true }),
    ...(!f.nullable && !f.primaryKey && { nullable: false }),
    ...(f.default !== undefined && { default: f.default }),
  }))
}

export const defectDdl = [
  ...operationSql(createTable(Gadget.table, columns(Gadget))),
  ...Gadget.indexes.flatMap((ix) =>
    operationSql(createIndex(Gadget.table, ix.columns, { unique: true, name: ix.name })),
  ),
  ...operationSql(createTable(Token.table, columns(Token))),
  'create table defect_slots (id bigserial primary key, during tsrange, exclude using gist (during with &&))',
  `create table defect_badges (id bigserial primary key, code varchar(255) unique, maker varchar(255),
     serial integer, label varchar(255), nick varchar(255) unique, unique (maker, serial),
     constraint defect_badges_label_uniq unique (label))`,
  `create table ${LongBadge.table} (id bigserial primary key,
     registration_number_given_by_the_issuing_office varchar(255) unique, serial_code varchar(255),
     constraint ${longConstraintName} unique (serial_code))`,
  ...operationSql(createTable(Ticket.table, columns(Ticket))),
]

export const defectTables = [
  'defect_gadgets',
  'defect_tokens',
  'defect_slots',
  'defect_badges',
  LongBadge.table,
  'defect_tickets',
]
