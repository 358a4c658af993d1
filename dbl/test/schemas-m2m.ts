/**
 * Schemas with manyToMany associations for the shared case suite (cases/many-to-many.ts), whose
 * tables are made by the migration generator from these schemas:
 * - work orders ↔ tags through `work_order_tags`, declared on both sides (the table is made once);
 * - people ↔ skills through `person_skills`, a skill keyed by a string `code`;
 * - people ↔ people (`friends`) through `friendships`, with joinKeys and ON DELETE restrict.
 */
import { defineSchema, manyToMany, type AnySchema } from '../schema.ts'

export const Tag = defineSchema({
  table: 'tags',
  fields: { id: 'id', name: { type: 'string', nullable: false } },
  // The way back is cut with AnySchema (TypeScript cannot infer a cycle).
  associations: { work_orders: manyToMany((): AnySchema => WorkOrder, { joinThrough: 'work_order_tags' }) },
})

export const WorkOrder = defineSchema({
  table: 'work_orders',
  fields: { id: 'id', title: { type: 'string', nullable: false } },
  associations: { tags: manyToMany(() => Tag, { joinThrough: 'work_order_tags' }) },
})

export const Skill = defineSchema({
  table: 'skills',
  primaryKey: 'code',
  fields: { code: { type: 'string', size: 20 }, label: 'string' },
})

export const Person = defineSchema({
  table: 'people',
  fields: { id: 'id', name: 'string' },
  associations: {
    skills: manyToMany(() => Skill, { joinThrough: 'person_skills' }),
    friends: manyToMany((): AnySchema => Person, {
      joinThrough: 'friendships',
      joinKeys: ['person_id', 'friend_id'],
      onDelete: 'restrict',
    }),
  },
})

export const m2mSchemas: readonly AnySchema[] = [Tag, WorkOrder, Skill, Person]
/** Every table of these schemas, join tables first (the order to drop or truncate them in). */
export const m2mTables = ['work_order_tags', 'person_skills', 'friendships', 'tags', 'work_orders', 'skills', 'people']
