/**
 * Schemas for the prepareChanges, lifecycle hook and audit cases (cases/prepare-changes.ts,
 * cases/hooks.ts, cases/audit.ts), with their DDL as the migration generator writes it (the audit
 * table comes with it because a schema is audited). Hooks record their calls in `hookCalls`, and
 * act on marker values of the title (`refuse`, `boom`), so one schema serves every case.
 */
import { change, type Changeset } from '../changeset.ts'
import '../changeset-methods.ts'
import { AUDIT_TABLE } from '../audit/entry.ts'
import { operationsSql } from '../migrations/ddl.ts'
import { planMigration } from '../migrations/diff.ts'
import { modelFromSchemas } from '../migrations/model.ts'
import { defineSchema, timestamps } from '../schema.ts'

/** What the hooks were called with, in order: `<hook>:<title>`. Cases empty it first. */
export const hookCalls: string[] = []

export const HkCounter = defineSchema({
  table: 'hk_counters',
  fields: { id: 'id', name: { type: 'string', nullable: false } },
  indexes: [{ columns: ['name'], unique: true }],
})

const title = (cs: Changeset) => String(cs.changes.title ?? cs.data.title)

export const HkNote = defineSchema({
  table: 'hk_notes',
  fields: { id: 'id', title: { type: 'string', nullable: false }, slug: 'string', ...timestamps() },
  hooks: {
    beforeInsert(cs) {
      hookCalls.push(`beforeInsert:${title(cs)}`)
      if (cs.changes.title === 'refuse') return cs.addError('title', 'is reserved')
      return cs.putChange('slug', String(cs.changes.title).toLowerCase().replaceAll(' ', '-'))
    },
    async afterInsert(note, _cs, repo) {
      hookCalls.push(`afterInsert:${note.title}#${note.id}`)
      // Written in the insert's transaction: undone with it.
      await repo.insert(change(HkCounter, null, { name: `note ${note.id}` }))
      if (note.title === 'boom') throw new Error('afterInsert failed')
    },
    beforeUpdate(cs) {
      hookCalls.push(`beforeUpdate:${cs.data.title}->${cs.changes.title}`)
    },
    afterUpdate(note, cs) {
      hookCalls.push(`afterUpdate:${cs.data.title}->${note.title}`)
    },
    beforeDelete(cs) {
      hookCalls.push(`beforeDelete:${cs.data.title}`)
      return cs.data.title === 'keep' ? cs.addError('title', 'is kept') : cs
    },
    afterDelete(note) {
      hookCalls.push(`afterDelete:${note.title}`)
    },
  },
})

export const HkAccount = defineSchema({
  table: 'hk_accounts',
  fields: {
    id: 'id',
    email: { type: 'string', nullable: false },
    plan: 'string',
    password_hash: 'string',
    ...timestamps(),
  },
  audit: { redact: ['password_hash'] },
})

const schemas = [HkCounter, HkNote, HkAccount]

/** The generator's own migration for these schemas, as SQL: the audit table is in it. */
export const hooksDdl = operationsSql(planMigration(new Map(), modelFromSchemas(schemas)).up)

export const hooksTables = ['hk_counters', 'hk_notes', 'hk_accounts', AUDIT_TABLE]
