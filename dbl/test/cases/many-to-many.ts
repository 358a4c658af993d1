/**
 * manyToMany associations through the repository, on tables the migration generator makes from
 * schemas-m2m.ts: preload through the join table (one query per level, its SQL checked), putAssoc
 * replacing the set of links (the join table's rows checked, and the statements it runs), a link
 * to a missing row rolling the whole write back, and ON DELETE on both sides.
 */
import { beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest'
import { castAssoc, putAssoc } from '../../assoc.ts'
import { cast, change, errorsToJson, type Changeset } from '../../changeset.ts'
import { noAssocConstraint } from '../../constraints.ts'
import { operationsSql } from '../../migrations/ddl.ts'
import { planMigration } from '../../migrations/diff.ts'
import { modelFromSchemas } from '../../migrations/model.ts'
import { from } from '../../query/builder.ts'
import { orderBy } from '../../query/operators.ts'
import { defineRepo, type Repo } from '../../repo.ts'
import type { QueryEvent } from '../../repo/telemetry.ts'
import type { RecordOf } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'
import { m2mSchemas, m2mTables, Person, Skill, Tag, WorkOrder } from '../schemas-m2m.ts'

type Order = RecordOf<typeof WorkOrder>

/** A repo on the suite's database that records every statement. */
function logging(t: SuiteContext): { repo: Repo; events: QueryEvent[] } {
  const events: QueryEvent[] = []
  return { repo: defineRepo({ adapter: t.adapter, log: (e) => events.push(e) }), events }
}

const must = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`)
  return r.value
}

/** A read's record, which must be there. */
const found = <T>(r: T | undefined): T => {
  if (r === undefined) throw new Error('expected a record')
  return r
}

/** The error of a failed write, as a changeset's errors. */
const errorsOf = (r: { ok: boolean }): unknown => errorsToJson((r as unknown as { error: Changeset }).error)

/** The join table's rows, read straight through the adapter. */
const links = async (t: SuiteContext) =>
  (await t.adapter.query('select work_order_id, tag_id from work_order_tags order by work_order_id, tag_id')).rows

/** Tags 1 urgent, 2 electrical, 3 outdoor; orders 1 "Fix lights", 2 "Paint fence", 3 "Inspect". */
async function seed(t: SuiteContext): Promise<Order[]> {
  must(await t.repo.insertAll(Tag, [{ name: 'urgent' }, { name: 'electrical' }, { name: 'outdoor' }]))
  return must(
    await t.repo.insertAll(WorkOrder, [{ title: 'Fix lights' }, { title: 'Paint fence' }, { title: 'Inspect' }]),
  ).rows
}

const link = (t: SuiteContext, pairs: [number, number][]) =>
  t.adapter.query('insert into work_order_tags (work_order_id, tag_id) select * from unnest($1::int[], $2::int[])', [
    pairs.map((p) => p[0]),
    pairs.map((p) => p[1]),
  ])

export function manyToManyCases(t: SuiteContext): void {
  describe('manyToMany associations', () => {
    beforeAll(async () => {
      await t.adapter.query(`DROP TABLE IF EXISTS ${m2mTables.join(', ')}`)
      for (const sql of operationsSql(planMigration(new Map(), modelFromSchemas(m2mSchemas)).up))
        await t.adapter.query(sql)
    })
    beforeEach(async () => {
      await t.adapter.query(`TRUNCATE ${m2mTables.join(', ')} RESTART IDENTITY`)
    })

    it('preload: one query joining the join table; each list in key order, [] without links, a shared tag in both lists', async () => {
      const orders = await seed(t)
      await link(t, [
        [1, 3],
        [1, 1],
        [2, 1],
      ])
      const { repo, events } = logging(t)
      const loaded = await repo.preload(WorkOrder, orders, 'tags')
      expect(loaded.map((o) => [o.title, o.tags.map((x) => x.name)])).toEqual([
        ['Fix lights', ['urgent', 'outdoor']],
        ['Paint fence', ['urgent']],
        ['Inspect', []],
      ])
      // Exactly the related rows: the join column used to group them is not left on them.
      expect(loaded[0]!.tags[0]).toEqual({ id: 1, name: 'urgent' })
      expectTypeOf(loaded[0]!.tags).toEqualTypeOf<RecordOf<typeof Tag>[]>()
      expect(events.map((e) => [e.query, e.params])).toEqual([
        [
          'select "tags"."id", "tags"."name", "work_order_tags"."work_order_id" as "__vela_owner" from "tags" ' +
            'inner join "work_order_tags" on "work_order_tags"."tag_id" = "tags"."id" where "work_order_tags"."work_order_id" = any($1) order by "tags"."id" asc',
          [[1, 2, 3]],
        ],
      ])
    })

    it('preload nested, from the other side: tags → work orders → their tags, one query per level', async () => {
      const orders = await seed(t)
      await link(t, [
        [1, 1],
        [1, 2],
        [2, 1],
      ])
      const tags = await t.repo.all(orderBy(from(Tag), 'id'))
      const { repo, events } = logging(t)
      const loaded = await repo.preload(Tag, tags, { work_orders: ['tags'] })
      expect(events.length).toBe(2)
      // Order 1 is linked to two of the tags: its row is fetched once per tag, its tags loaded once.
      expect(events[1]!.params).toEqual([[1, 2]])
      const shape = loaded.map((tag) => [
        tag.name,
        (tag.work_orders as (Order & { tags: { name: string }[] })[]).map((o) => [o.title, o.tags.map((x) => x.name)]),
      ])
      expect(shape).toEqual([
        [
          'urgent',
          [
            ['Fix lights', ['urgent', 'electrical']],
            ['Paint fence', ['urgent']],
          ],
        ],
        ['electrical', [['Fix lights', ['urgent', 'electrical']]]],
        ['outdoor', []],
      ])
      expect(orders.length).toBe(3)
      // A name the related schema does not have: a type error, and a throw before any query.
      // @ts-expect-error: tags have no association "nope"
      await expect(repo.preload(WorkOrder, orders, { tags: ['nope'] })).rejects.toThrow(
        'preload work_orders.tags: schema tags has no association "nope"',
      )
      expect(events.length).toBe(2)
    })

    it('putAssoc on insert: ids (as a form sends them), loaded records and new records are linked, in one transaction', async () => {
      await seed(t)
      const urgent = found(await t.repo.get(Tag, 1))
      const { repo, events } = logging(t)
      const cs = putAssoc(cast(WorkOrder, {}, { title: 'Rewire' }, ['title']), 'tags', [
        '2',
        urgent,
        { name: 'indoor' },
        2,
      ])
      const saved = must(await repo.insert(cs)) as Order & { tags: RecordOf<typeof Tag>[] }
      // Each record once, in the order given; one given by its key alone comes back as just the key.
      expect(saved.tags).toEqual([{ id: 2 }, { id: 1, name: 'urgent' }, { id: 4, name: 'indoor' }])
      expect(await links(t)).toEqual([
        { work_order_id: 4, tag_id: 1 },
        { work_order_id: 4, tag_id: 2 },
        { work_order_id: 4, tag_id: 4 },
      ])
      // The order, the new tag, then one statement for every link; no delete for a new record.
      expect(events.map((e) => e.query.split(' ').slice(0, 3).join(' '))).toEqual([
        'insert into "work_orders"',
        'insert into "tags"',
        'insert into "work_order_tags"',
      ])
      expect(events[2]!.query).toBe(
        'insert into "work_order_tags" ("work_order_id", "tag_id") select $1::bigint, unnest($2::bigint[]) on conflict do nothing',
      )
      expect(events[2]!.params).toEqual([4, [2, 1, 4]])
    })

    it('putAssoc on update replaces the set: links left out deleted, new ones inserted, kept ones untouched', async () => {
      const orders = await seed(t)
      await link(t, [
        [1, 1],
        [1, 2],
        [2, 1],
      ])
      const { repo, events } = logging(t)
      const saved = must(
        await repo.update(putAssoc(change(WorkOrder, orders[0]!, { title: 'Fix all lights' }), 'tags', [2, 3])),
      )
      expect(saved).toMatchObject({ id: 1, title: 'Fix all lights', tags: [{ id: 2 }, { id: 3 }] })
      expect(await links(t)).toEqual([
        { work_order_id: 1, tag_id: 2 },
        { work_order_id: 1, tag_id: 3 },
        { work_order_id: 2, tag_id: 1 },
      ])
      expect(events.map((e) => [e.query, e.params])).toEqual([
        ['update "work_orders" set "title" = $1 where "id" = $2 returning "id", "title"', ['Fix all lights', 1]],
        ['delete from "work_order_tags" where "work_order_id" = $1 and not ("tag_id" = any($2))', [1, [2, 3]]],
        [
          'insert into "work_order_tags" ("work_order_id", "tag_id") select $1::bigint, unnest($2::bigint[]) on conflict do nothing',
          [1, [2, 3]],
        ],
      ])
      // The same set again changes nothing; an empty set removes every link of this order only.
      must(await t.repo.update(putAssoc(change(WorkOrder, saved), 'tags', [3, 2])))
      expect(await links(t)).toEqual([
        { work_order_id: 1, tag_id: 2 },
        { work_order_id: 1, tag_id: 3 },
        { work_order_id: 2, tag_id: 1 },
      ])
      must(await t.repo.update(putAssoc(change(WorkOrder, saved), 'tags', [])))
      expect(await links(t)).toEqual([{ work_order_id: 2, tag_id: 1 }])
    })

    it('a link to a row that does not exist rolls the whole write back: "does not exist" on the association', async () => {
      const orders = await seed(t)
      await link(t, [[1, 1]])
      const inserted = await t.repo.insert(
        putAssoc(cast(WorkOrder, {}, { title: 'New' }, ['title']), 'tags', [{ name: 'fresh' }, 1, 99]),
      )
      expect(inserted.ok).toBe(false)
      expect(errorsOf(inserted)).toEqual({ tags: ['does not exist'] })
      expect(await t.count('work_orders')).toBe(3)
      expect(await t.count('tags')).toBe(3)
      expect(await links(t)).toEqual([{ work_order_id: 1, tag_id: 1 }])

      const updated = await t.repo.update(
        putAssoc(change(WorkOrder, orders[0]!, { title: 'Renamed' }), 'tags', [2, 99]),
      )
      expect(errorsOf(updated)).toEqual({ tags: ['does not exist'] })
      expect(found(await t.repo.get(WorkOrder, 1)).title).toBe('Fix lights')
      expect(await links(t)).toEqual([{ work_order_id: 1, tag_id: 1 }])
    })

    it('an id that cannot be a key is "is invalid" before any query; castAssoc is refused for manyToMany', async () => {
      await seed(t)
      const cs = putAssoc(cast(WorkOrder, {}, { title: 'X' }, ['title']), 'tags', [1, 'abc'])
      expect(cs.valid).toBe(false)
      expect(errorsToJson(cs)).toEqual({ tags: ['is invalid'] })
      const { repo, events } = logging(t)
      expect((await repo.insert(cs)).ok).toBe(false)
      expect(events).toEqual([])
      expect(() => castAssoc(cast(WorkOrder, {}, { tags: [1] }, ['title']), 'tags')).toThrow(
        /manyToMany: give the set with putAssoc/,
      )
    })

    it('ON DELETE cascade: deleting either side deletes its links, the other side stays', async () => {
      const orders = await seed(t)
      await link(t, [
        [1, 1],
        [1, 2],
        [2, 1],
        [3, 3],
      ])
      must(await t.repo.delete(WorkOrder, orders[0]!))
      expect(await links(t)).toEqual([
        { work_order_id: 2, tag_id: 1 },
        { work_order_id: 3, tag_id: 3 },
      ])
      must(await t.repo.delete(Tag, found(await t.repo.get(Tag, 1))))
      expect(await links(t)).toEqual([{ work_order_id: 3, tag_id: 3 }])
      expect(await t.count('work_orders')).toBe(2)
    })

    it('string keys, a self-referencing association with joinKeys, and ON DELETE restrict as a changeset error', async () => {
      must(
        await t.repo.insertAll(Skill, [
          { code: 'weld', label: 'Welding' },
          { code: 'wire', label: 'Wiring' },
        ]),
      )
      const ann = must(
        await t.repo.insert(putAssoc(cast(Person, {}, { name: 'Ann' }, ['name']), 'skills', ['wire', 'weld'])),
      )
      const bob = must(await t.repo.insert(putAssoc(cast(Person, {}, { name: 'Bob' }, ['name']), 'friends', [ann.id])))
      expect((await t.adapter.query('select person_id, skill_id from person_skills order by skill_id')).rows).toEqual([
        { person_id: ann.id, skill_id: 'weld' },
        { person_id: ann.id, skill_id: 'wire' },
      ])
      expect((await t.adapter.query('select person_id, friend_id from friendships')).rows).toEqual([
        { person_id: bob.id, friend_id: ann.id },
      ])
      const people = await t.repo.preload(Person, [ann, bob], ['skills', 'friends'])
      expect(
        people.map((p) => [p.name, p.skills.map((s) => s.code), (p.friends as { name: string }[]).map((f) => f.name)]),
      ).toEqual([
        ['Ann', ['weld', 'wire'], []],
        ['Bob', [], ['Ann']],
      ])
      // Bob's link holds Ann (restrict): the delete is refused, as a field error on `friends`.
      const refused = await t.repo.delete(noAssocConstraint(change(Person, bob), 'friends'))
      expect(errorsOf(refused)).toEqual({ friends: ['are still associated with this entry'] })
    })
  })
}
