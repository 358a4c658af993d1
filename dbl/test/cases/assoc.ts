import { describe, expect, it } from 'vitest'
import { castAssoc, putAssoc } from '../../assoc.ts'
import { cast, errorsToJson, type Changeset } from '../../changeset.ts'
import { from } from '../../query/builder.ts'
import { orderBy } from '../../query/operators.ts'
import { defineRepo } from '../../repo.ts'
import type { QueryEvent } from '../../repo/telemetry.ts'
import { validateLength } from '../../validations.ts'
import type { SuiteContext } from '../suite-context.ts'
import { Post, User } from '../schemas.ts'

const userParams = (extra: Record<string, unknown>) => ({ name: 'Ann', email: 'ann@x.io', ...extra })

export function assocCases(t: SuiteContext): void {
  describe('associations', () => {
    it('castAssoc + insert: parent first, then children with its key, in one transaction', async () => {
      const events: QueryEvent[] = []
      const repo = defineRepo({ adapter: t.adapter, log: (e) => events.push(e) })
      const cs = castAssoc(
        cast(User, {}, userParams({ posts: [{ title: 'One' }, { title: 'Two', user_id: 999 }] }), ['name', 'email']),
        'posts',
      )
      const r = await repo.insert(cs)
      if (!r.ok) throw new Error(JSON.stringify(r.error))
      const posts = (r.value as unknown as { posts: { user_id: number; title: string }[] }).posts
      expect(posts.map((p) => [p.title, p.user_id])).toEqual([
        ['One', r.value.id],
        ['Two', r.value.id],
      ])
      expect(events.map((e) => e.query.split(' ').slice(0, 3).join(' '))).toEqual([
        'insert into "users"',
        'insert into "posts"',
        'insert into "posts"',
      ])
      const stored = await t.adapter.query('select title, user_id from posts order by id')
      expect(stored.rows).toEqual([
        { title: 'One', user_id: r.value.id },
        { title: 'Two', user_id: r.value.id },
      ])
    })

    it('a custom `with` validates children; an invalid child makes nothing happen, with nested errors', async () => {
      const withTitle = (data: Record<string, unknown>, params: Record<string, unknown>) =>
        validateLength(cast(Post, data, params, ['title']), 'title', { min: 3 })
      const cs = castAssoc(
        cast(User, {}, userParams({ posts: { 0: { title: 'Good' }, 1: { title: 'No' } } }), ['name', 'email']),
        'posts',
        { with: withTitle },
      )
      expect(cs.valid).toBe(false)
      expect(errorsToJson(cs)).toEqual({ posts: [{}, { title: ['should be at least 3 character(s)'] }] })
      const r = await t.repo.insert(cs)
      expect(r.ok).toBe(false)
      expect(await t.count('users')).toBe(0)
    })

    it('a child refused by the database rolls the parent back', async () => {
      // posts_title_check needs more than one character; nothing validates it before the database.
      const cs = castAssoc(
        cast(User, {}, userParams({ posts: [{ title: 'Fine' }, { title: 'x' }] }), ['name', 'email']),
        'posts',
      )
      await expect(t.repo.insert(cs)).rejects.toMatchObject({ kind: 'db_error', code: '23514' })
      expect(await t.count('users')).toBe(0)
      expect(await t.count('posts')).toBe(0)
    })

    it('castAssoc: hasOne, wrong shapes and required', async () => {
      const one = await t.repo.insert(
        castAssoc(cast(User, {}, userParams({ profile: { bio: 'Hi' } }), ['name', 'email']), 'profile'),
      )
      expect(one.ok && (one.value as unknown as { profile: unknown }).profile).toEqual({ id: 1, bio: 'Hi', user_id: 1 })
      const bad = castAssoc(cast(User, {}, userParams({ posts: 'nope' }), ['name']), 'posts')
      expect(errorsToJson(bad)).toEqual({ posts: ['is invalid'] })
      const missing = castAssoc(cast(User, {}, userParams({}), ['name']), 'posts', { required: true })
      expect(errorsToJson(missing)).toEqual({ posts: ["can't be blank"] })
      expect(() => castAssoc(cast(Post, {}, {}, []), 'user')).toThrow('take hasMany or hasOne')
    })

    it('putAssoc inserts children built in code', async () => {
      const cs = putAssoc(cast(User, {}, userParams({}), ['name', 'email']), 'posts', [
        { title: 'Alpha' },
        cast(Post, {}, { title: 'Beta' }, ['title']),
      ])
      const r = await t.repo.insert(cs)
      expect(r.ok).toBe(true)
      expect((await t.adapter.query('select title, user_id from posts order by id')).rows).toEqual([
        { title: 'Alpha', user_id: 1 },
        { title: 'Beta', user_id: 1 },
      ])
    })

    it('preload: hasMany, hasOne and belongsTo, for lists and single records', async () => {
      await t.repo.insert(
        putAssoc(
          putAssoc(cast(User, {}, userParams({}), ['name', 'email']), 'posts', [{ title: 'P1' }, { title: 'P2' }]),
          'profile',
          { bio: 'B' },
        ),
      )
      await t.repo.insert(cast(User, {}, { name: 'Bob', email: 'bob@x.io' }, ['name', 'email']))
      await t.repo.insert(cast(Post, {}, { title: 'Orphan' }, ['title']))
      const users = await t.repo.all(orderBy(from(User), 'id'))
      const loaded = await t.repo.preload(User, users, ['posts', 'profile'])
      expect(
        loaded.map((u) => [
          u.name,
          (u.posts as { title: string }[]).map((p) => p.title),
          (u.profile as { bio: string } | null)?.bio ?? null,
        ]),
      ).toEqual([
        ['Ann', ['P1', 'P2'], 'B'],
        ['Bob', [], null],
      ])
      const posts = await t.repo.all(orderBy(from(Post), 'id'))
      const withUser = await t.repo.preload(Post, posts, 'user')
      expect(withUser.map((p) => (p.user as { name: string } | null)?.name ?? null)).toEqual(['Ann', 'Ann', null])
      const single = await t.repo.preload(User, users[0]!, 'posts')
      expect((single.posts as unknown[]).length).toBe(2)
      // @ts-expect-error -- names are checked against User's associations
      await expect(t.repo.preload(User, users, 'nope')).rejects.toThrow('no association "nope"')
    })

    it('errors of an invalid hasOne child nest as an object', () => {
      const cs = castAssoc(cast(User, {}, userParams({ profile: { bio: 5 } }), ['name', 'email']), 'profile')
      expect(errorsToJson(cs as Changeset)).toEqual({ profile: { bio: ['is invalid'] } })
    })
  })
}
