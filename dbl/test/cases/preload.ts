/**
 * Nested preloads: every association kind, two and three levels deep, one query per association
 * per level (counted through the `log` hook), empty and missing cases, and names that do not exist.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { from } from '../../query/builder.ts'
import { orderBy } from '../../query/operators.ts'
import { defineRepo, type Repo } from '../../repo.ts'
import type { QueryEvent } from '../../repo/telemetry.ts'
import type { RecordOf } from '../../schema.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Comment, Post, Profile, User } from '../schemas.ts'

/** A repo on the suite's database that records the tables each query reads. */
function counting(t: SuiteContext): { repo: Repo; events: QueryEvent[]; tables(): string[] } {
  const events: QueryEvent[] = []
  const repo = defineRepo({ adapter: t.adapter, log: (e) => events.push(e) })
  return { repo, events, tables: () => events.map((e) => /from "(\w+)"/.exec(e.query)?.[1] ?? e.query) }
}

/**
 * Ann (profile) wrote P1, P2; Bob (no profile) wrote P3; Cy wrote nothing; "Orphan" has no user.
 * P1 has comments by Bob and Ann, P3 one by Bob and one without author; P2 and Orphan have none.
 */
async function seed(t: SuiteContext): Promise<void> {
  const run = async (p: Promise<{ ok: boolean }>) => expect((await p).ok).toBe(true)
  await run(
    t.repo.insertAll(User, [
      { name: 'Ann', email: 'a@x.io' },
      { name: 'Bob', email: 'b@x.io' },
      { name: 'Cy', email: 'c@x.io' },
    ]),
  )
  await run(t.repo.insertAll(Profile, [{ bio: 'Ann bio', user_id: 1 }]))
  await run(
    t.repo.insertAll(Post, [
      { title: 'P1', user_id: 1 },
      { title: 'P2', user_id: 1 },
      { title: 'P3', user_id: 2 },
      { title: 'Orphan' },
    ]),
  )
  await run(
    t.repo.insertAll(Comment, [
      { body: 'c1', post_id: 1, author_id: 2 },
      { body: 'c2', post_id: 1, author_id: 1 },
      { body: 'c3', post_id: 3, author_id: 2 },
      { body: 'c4', post_id: 3 },
    ]),
  )
}

async function allOf<S extends typeof User | typeof Post>(t: SuiteContext, schema: S): Promise<RecordOf<S>[]> {
  const r = await t.repo.all(orderBy(from(schema), 'id'))
  return r as RecordOf<S>[]
}

export function preloadCases(t: SuiteContext): void {
  describe('nested preloads', () => {
    it('two levels (hasMany in hasMany): one query per level, each list in key order, [] when empty', async () => {
      await seed(t)
      const users = await allOf(t, User)
      const c = counting(t)
      const r = await c.repo.preload(User, users, [{ posts: ['comments'] }])
      expect(c.tables()).toEqual(['posts', 'comments'])
      // Keys are collected over every parent at the level: all users, then all posts found.
      expect(c.events.map((e) => e.params)).toEqual([[[1, 2, 3]], [[1, 2, 3]]])
      expect(r.map((u) => [u.name, u.posts.map((p) => [p.title, p.comments.map((x) => x.body)])])).toEqual([
        [
          'Ann',
          [
            ['P1', ['c1', 'c2']],
            ['P2', []],
          ],
        ],
        ['Bob', [['P3', ['c3', 'c4']]]],
        ['Cy', []],
      ])
      expectTypeOf(r[0]!.posts[0]!.comments[0]!).toEqualTypeOf<RecordOf<typeof Comment>>()
    })

    it('three levels with belongsTo and hasOne: comments → author → profile, null where missing', async () => {
      await seed(t)
      const posts = await allOf(t, Post)
      const c = counting(t)
      const r = await c.repo.preload(Post, posts, ['user', { comments: [{ author: ['profile'] }] }])
      expect(c.tables()).toEqual(['users', 'comments', 'users', 'profiles'])
      // Bob wrote two of the comments: his id is asked for once.
      expect(c.events.map((e) => e.params)).toEqual([[[1, 2]], [[1, 2, 3, 4]], [[2, 1]], [[1, 2]]])
      const shape = r.map((p) => [
        p.title,
        (p.user as { name: string } | null)?.name ?? null,
        p.comments.map((x) => {
          // Comment.author points at an AnySchema (the cut cycle), so its type is not known here.
          const author = x.author as { name: string; profile: { bio: string } | null } | null
          return [x.body, author?.name ?? null, author ? (author.profile?.bio ?? null) : 'no author']
        }),
      ])
      expect(shape).toEqual([
        [
          'P1',
          'Ann',
          [
            ['c1', 'Bob', null],
            ['c2', 'Ann', 'Ann bio'],
          ],
        ],
        ['P2', 'Ann', []],
        [
          'P3',
          'Bob',
          [
            ['c3', 'Bob', null],
            ['c4', null, 'no author'],
          ],
        ],
        ['Orphan', null, []],
      ])
    })

    it('works on a single record from get, and types the result from the schemas', async () => {
      await seed(t)
      const ann = await t.repo.get(User, 1)
      if (!ann) throw new Error('get failed')
      const r = await t.repo.preload(User, ann, ['profile', { posts: 'comments' }])
      expect(r.profile?.bio).toBe('Ann bio')
      expect(r.posts.map((p) => p.comments.length)).toEqual([2, 0])
      expectTypeOf(r.profile).toEqualTypeOf<RecordOf<typeof Profile> | null>()
      expectTypeOf(r.posts[0]!.title).toEqualTypeOf<string>()
      // The way back (comment → author) is typed AnySchema in the test schemas: any name is accepted.
      expectTypeOf(r.posts[0]!.comments[0]!).toEqualTypeOf<RecordOf<typeof Comment>>()
    })

    it('duplicates: the same parent twice and the same association twice cost no extra query', async () => {
      await seed(t)
      const [p1] = await allOf(t, Post)
      const c = counting(t)
      const r = await c.repo.preload(Post, [p1!, p1!], ['comments', { comments: ['author'] }, 'comments'])
      expect(c.tables()).toEqual(['comments', 'users'])
      expect(c.events[0]!.params).toEqual([[1]])
      for (const p of r)
        expect(p.comments.map((x) => [x.body, (x.author as { name: string }).name])).toEqual([
          ['c1', 'Bob'],
          ['c2', 'Ann'],
        ])
    })

    it('no parents, or no keys at a level: no query at all', async () => {
      await seed(t)
      const c = counting(t)
      expect(await c.repo.preload(User, [], [{ posts: ['comments'] }, 'profile'])).toEqual([])
      const orphan = (await allOf(t, Post)).filter((p) => p.user_id === null)
      const r = await c.repo.preload(Post, orphan, [{ user: ['profile'] }])
      expect(r.map((p) => p.user)).toEqual([null])
      expect(c.events).toEqual([])
    })

    it('an unknown name, at any depth, throws naming the schema, the name and the path, before any query', async () => {
      await seed(t)
      const users = await allOf(t, User)
      const c = counting(t)
      // @ts-expect-error -- User has no association "comments"
      await expect(c.repo.preload(User, users, ['comments'])).rejects.toThrow(
        'preload users: schema users has no association "comments"',
      )
      // @ts-expect-error -- Post (typed through User.posts) has no association "tags"
      await expect(c.repo.preload(User, users, ['profile', { posts: ['comments', 'tags'] }])).rejects.toThrow(
        'preload users.posts: schema posts has no association "tags"',
      )
      // @ts-expect-error -- checked through User.posts and Post.comments
      await expect(c.repo.preload(User, users, [{ posts: [{ comments: ['nope'] }] }])).rejects.toThrow(
        'preload users.posts.comments: schema comments has no association "nope"',
      )
      // @ts-expect-error -- an extra key beside a valid one is caught too
      await expect(c.repo.preload(User, users, [{ posts: [], nope: [] }])).rejects.toThrow(
        'schema users has no association "nope"',
      )
      // @ts-expect-error -- rows without the key (from a select) cannot be matched
      await expect(c.repo.preload(User, [{ name: 'Ann' }], 'posts')).rejects.toThrow(
        'preload users.posts: a record has no "id" field (select it)',
      )
      // @ts-expect-error -- a number is not a spec
      await expect(c.repo.preload(User, users, [{ posts: [7] }])).rejects.toThrow(
        'preload users.posts: 7 is not an association name',
      )
      expect(c.events).toEqual([])
    })
  })
}
