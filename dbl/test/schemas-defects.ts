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
]

export const defectTables = ['defect_gadgets', 'defect_tokens', 'defect_slots']
