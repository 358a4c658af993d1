import { describe, expect, it } from 'vitest'
import {
  addError,
  castAssoc,
  castEmbed,
  cast,
  change,
  checkConstraint,
  defineRepo,
  errorsToJson,
  foreignKeyConstraint,
  assocConstraint,
  isChangeset,
  noAssocConstraint,
  optimisticLock,
  putAssoc,
  putChange,
  uniqueConstraint,
  validateChange,
  validateConfirmation,
  validateExclusion,
  validateFormat,
  validateInclusion,
  validateLength,
  validateNumber,
  validateRequired,
  validateSubset,
  type Changeset,
} from './index.ts'
import { Account, Address } from './test/schemas-changesets.ts'
import { ddl, Post, Product, User } from './test/schemas.ts'

const product = { id: 1, name: 'Tea', price: 100, description: null, inserted_at: null, updated_at: null }

describe('changeset methods', () => {
  it('a chain gives what the free functions give', () => {
    const params = { name: 'ad', price: '-3', description: 'x'.repeat(5) }
    const chained = cast(Product, null, params, ['name', 'price', 'description'])
      .validateRequired(['name', 'price'])
      .validateLength('name', { min: 3 })
      .validateNumber('price', { greaterThan: 0 })
      .validateFormat('description', /^y/)
      .validateInclusion('name', ['Tea'])
      .validateExclusion('name', ['ad'])
      .validateChange('description', () => ['is dull'])
      .putChange('description', 'yyy')
      .addError('name', 'is odd', { why: 'test' })
      .uniqueConstraint('name')
      .checkConstraint('price', { name: 'price_positive' })
    let free = cast(Product, null, params, ['name', 'price', 'description'])
    free = validateRequired(free, ['name', 'price'])
    free = validateLength(free, 'name', { min: 3 })
    free = validateNumber(free, 'price', { greaterThan: 0 })
    free = validateFormat(free, 'description', /^y/)
    free = validateInclusion(free, 'name', ['Tea'])
    free = validateExclusion(free, 'name', ['ad'])
    free = validateChange(free, 'description', () => ['is dull'])
    free = putChange(free, 'description', 'yyy')
    free = addError(free, 'name', 'is odd', { why: 'test' })
    free = uniqueConstraint(free, 'name')
    free = checkConstraint(free, 'price', { name: 'price_positive' })
    expect(chained).toEqual(free)
    expect(errorsToJson(chained)).toEqual({
      name: ['should be at least 3 character(s)', 'is invalid', 'is reserved', 'is odd'],
      price: ['must be greater than 0'],
      description: ['has invalid format', 'is dull'],
    })
  })

  it('associations, embeds, constraints on them and the lock chain as their functions do', () => {
    const body = { name: 'Ada', posts: [{ title: 'First' }] }
    const user = cast(User, null, body, ['name']).castAssoc('posts').noAssocConstraint('posts')
    expect(user).toEqual(noAssocConstraint(castAssoc(cast(User, null, body, ['name']), 'posts'), 'posts'))
    expect(user.assocChanges.posts?.[0]?.changes).toEqual({ title: 'First' })
    expect(cast(User, null, {}, ['name']).putAssoc('posts', [{ title: 'Hi' }])).toEqual(
      putAssoc(cast(User, null, {}, ['name']), 'posts', [{ title: 'Hi' }]),
    )

    const post = change(Post, { id: 3, title: 'T', user_id: 9 }).foreignKeyConstraint('user_id').assocConstraint('user')
    expect(post).toEqual(
      assocConstraint(foreignKeyConstraint(change(Post, { id: 3, title: 'T', user_id: 9 }), 'user_id'), 'user'),
    )

    const account = { id: 7, email: 'a@x.io', lock_version: 3, tags: [] }
    const params = { password: 'p', password_confirmation: 'q', tags: ['a', 'z'], address: { street: 'Main' } }
    const chained = cast(Account, account, params, ['password', 'tags'])
      .validateConfirmation('password')
      .validateSubset('tags', ['a', 'b'])
      .castEmbed('address', { with: (d, p) => validateRequired(cast(Address, d, p, ['street', 'city']), ['city']) })
      .optimisticLock('lock_version')
    const free = optimisticLock(
      castEmbed(
        validateSubset(validateConfirmation(cast(Account, account, params, ['password', 'tags']), 'password'), 'tags', [
          'a',
          'b',
        ]),
        'address',
        {
          with: (d, p) => validateRequired(cast(Address, d, p, ['street', 'city']), ['city']),
        },
      ),
      'lock_version',
    )
    expect(chained).toEqual(free)
    expect(errorsToJson(chained)).toEqual({
      password_confirmation: ['does not match confirmation'],
      tags: ['has an invalid entry'],
      address: { city: ["can't be blank"] },
    })
    expect(chained.filters).toEqual({ lock_version: 3 })
  })

  it('change sets several fields uncast; a value equal to the record drops its change', () => {
    const cs = change(Product, product, { price: 120 }).change({ name: 'Green tea', price: 100 })
    expect(cs.changes).toEqual({ name: 'Green tea' })
    expect(cs).toEqual(
      putChange(putChange(change(Product, product, { price: 120 }), 'name', 'Green tea'), 'price', 100),
    )
  })

  it('leaves the changeset it is called on as it was', () => {
    const base = cast(Product, product, { name: 'Green tea' }, ['name'])
    const snapshot = {
      ...base,
      changes: { ...base.changes },
      errors: [...base.errors],
      constraints: [...base.constraints],
    }
    const next = base
      .validateLength('name', { max: 3 })
      .putChange('price', 5)
      .uniqueConstraint('name')
      .optimisticLock('price')
    expect(next).not.toBe(base)
    expect(base).toEqual(snapshot)
    expect(base.valid).toBe(true)
    expect(next.errors).toHaveLength(1)
    expect(next.changes).toEqual({ name: 'Green tea', price: 6 })
  })

  it('methods are not fields: a changeset still equals, spreads and tests as its plain fields', () => {
    const cs = cast(Product, null, { name: 'Tea' }, ['name'])
    expect(Object.keys(cs)).toEqual([
      'kind',
      'schema',
      'data',
      'params',
      'changes',
      'errors',
      'valid',
      'action',
      'assocChanges',
      'embeds',
      'constraints',
      'filters',
      'prepare',
    ])
    expect(cs).toEqual({ ...cs })
    expect(isChangeset(cs.validateRequired(['price']))).toBe(true)
    expect(errorsToJson(cs.validateRequired(['price']))).toEqual({ price: ["can't be blank"] })
  })

  it('a changeset a failed write returns still has its methods', async () => {
    const repo = defineRepo({})
    try {
      for (const statement of ddl) await repo.query(statement)
      expect((await repo.insert(cast(Product, null, { name: 'Tea', price: 1 }, ['name', 'price']))).ok).toBe(true)

      const taken = await repo.insert(cast(Product, null, { name: 'Tea', price: 2 }, ['name', 'price']))
      if (taken.ok || !isChangeset(taken.error)) throw new Error(`expected the changeset back: ${String(taken)}`)
      expect(errorsToJson(taken.error)).toEqual({ name: ['has already been taken'] })
      const more = taken.error.validateLength('name', { max: 3 }).addError('price', 'is too low')
      expect(errorsToJson(more)).toEqual({ name: ['has already been taken'], price: ['is too low'] })

      // A child refused by its CHECK constraint fails the parent's write: the parent comes back with the child's error.
      const nested = await repo.insert(
        cast(User, null, { name: 'Ada', email: 'ada@x.io', posts: [{ title: 'x' }] }, ['name', 'email']).castAssoc(
          'posts',
          {
            with: (data, params) =>
              cast(Post, data, params, ['title']).checkConstraint('title', {
                name: 'posts_title_check',
                message: 'is too short',
              }),
          },
        ),
      )
      if (nested.ok || !isChangeset(nested.error)) throw new Error('expected the changeset back')
      expect(errorsToJson(nested.error)).toEqual({ posts: [{ title: ['is too short'] }] })
      expect(errorsToJson(nested.error.addError('name', 'try again'))).toEqual({
        name: ['try again'],
        posts: [{ title: ['is too short'] }],
      })
    } finally {
      await repo.stop()
    }
  })

  it('methods check field names as the functions do', () => {
    const cs = cast(Product, null, {}, ['name'])
    // @ts-expect-error -- Product has no field "nme"
    expect(() => cs.validateRequired(['nme'])).toThrow('schema products has no field "nme"')
    // @ts-expect-error -- nor "colour"
    expect(() => cs.putChange('colour', 'red')).toThrow('schema products has no field "colour"')
    // Types only: each of these is refused before it could run.
    const _typesOnly = (account: Changeset<typeof Account>) => [
      // @ts-expect-error -- a string value for an integer field
      cs.putChange('price', 'cheap'),
      // @ts-expect-error -- the lock version must be a number field
      account.optimisticLock('email'),
      // @ts-expect-error -- castEmbed takes embedded fields only
      account.castEmbed('email'),
      // @ts-expect-error -- validateSubset takes list fields only
      account.validateSubset('email', ['a']),
      // @ts-expect-error -- no field "sku" to validate
      cs.validateNumber('sku', { greaterThan: 0 }),
    ]
  })
})
