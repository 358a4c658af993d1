/**
 * Lifecycle hooks and the audit option of `defineSchema`: the types of `hooks` and `audit`,
 * added to `SchemaDefinition` here (where the changeset and repository types are known; schema.ts
 * cannot name them without an import cycle). The repository runs them (repo/run-hooks.ts):
 *
 *   prepareChanges functions → before-hook → the statement → audit row → after-hook
 *
 * all in the write's transaction (a write outside one gets one, only for a schema or changeset
 * that has something to run). A before-hook gives the changeset to write: an error added to it
 * stops the write, which returns `{ ok: false, error: changeset }`. A hook that throws rolls the
 * write back and the write rejects with what it threw. Bulk writes (`insertAll`, `updateAll`,
 * `deleteAll`) run no hooks and record no audit rows: they write rows without changesets.
 */
import type { Changeset } from './changeset.ts'
import type { Repo } from './repo.ts'
import type { Associations, AnySchema, FieldSpec, RecordOf, Schema } from './schema.ts'

/** What a before-hook gives: the changeset to write (nothing: the one it got). */
export type BeforeHookResult<S extends AnySchema> = Changeset<S> | undefined | void

/**
 * The hooks a schema may declare. Before-hooks get the changeset about to be written and give the
 * one to write; after-hooks get the record as stored (for a delete, as it was) and the changeset.
 */
export interface SchemaHooks<S extends AnySchema> {
  beforeInsert?(cs: Changeset<S>, repo: Repo): BeforeHookResult<S> | Promise<BeforeHookResult<S>>
  afterInsert?(record: RecordOf<S>, cs: Changeset<S>, repo: Repo): unknown
  beforeUpdate?(cs: Changeset<S>, repo: Repo): BeforeHookResult<S> | Promise<BeforeHookResult<S>>
  afterUpdate?(record: RecordOf<S>, cs: Changeset<S>, repo: Repo): unknown
  beforeDelete?(cs: Changeset<S>, repo: Repo): BeforeHookResult<S> | Promise<BeforeHookResult<S>>
  afterDelete?(record: RecordOf<S>, cs: Changeset<S>, repo: Repo): unknown
}

/** `audit: { redact }`: fields whose values the audit rows never hold (they show `"[redacted]"`). */
export interface AuditOptions {
  readonly redact?: readonly string[]
}

declare module './schema.ts' {
  interface SchemaDefinition<F extends Record<string, FieldSpec>, A extends Associations = Associations> {
    /**
     * Lifecycle hooks run around each `insert`, `update` and `delete` of a changeset of this
     * schema, in the write's transaction (hooks.ts).
     *
     * @example
     * hooks: { beforeInsert: (cs) => cs.putChange('slug', slugify(String(cs.changes.title))) }
     */
    readonly hooks?: SchemaHooks<Schema<F, A>>
    /**
     * Records every insert, update and delete of a changeset of this schema in the `vela_audit`
     * table: who (the actor, see `withActor`), what (table, key, action, changed fields old → new)
     * and when. `{ redact: ['password_hash'] }` keeps fields' values out of it.
     */
    readonly audit?: boolean | AuditOptions
  }
}
