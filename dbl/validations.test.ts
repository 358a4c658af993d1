import { describe, expect, it } from 'vitest'
import { cast, errorsToJson, putChange } from './changeset.ts'
import { defineSchema } from './schema.ts'
import { validateConfirmation, validateSubset } from './validations.ts'
import { Account } from './test/schemas-changesets.ts'

describe('validateConfirmation', () => {
  const signUp = (params: Record<string, unknown>) => cast(Account, {}, params, ['email', 'password'])

  it('"does not match confirmation" on <field>_confirmation when the two params differ', () => {
    expect(
      errorsToJson(validateConfirmation(signUp({ password: 'a', password_confirmation: 'b' }), 'password')),
    ).toEqual({
      password_confirmation: ['does not match confirmation'],
    })
    expect(validateConfirmation(signUp({ password: 'a', password_confirmation: 'a' }), 'password').valid).toBe(true)
  })

  it('compares the params as sent, not cast: " a" is not "a"', () => {
    expect(validateConfirmation(signUp({ password: ' a', password_confirmation: 'a' }), 'password').valid).toBe(false)
  })

  it('skips an unchanged field; a missing confirmation passes unless required; a custom message', () => {
    expect(validateConfirmation(signUp({ password_confirmation: 'x' }), 'password').valid).toBe(true)
    expect(validateConfirmation(signUp({ password: 'a' }), 'password').valid).toBe(true)
    expect(errorsToJson(validateConfirmation(signUp({ password: 'a' }), 'password', { required: true }))).toEqual({
      password_confirmation: ["can't be blank"],
    })
    expect(
      errorsToJson(
        validateConfirmation(signUp({ password: 'a', password_confirmation: 'b' }), 'password', {
          message: 'must match',
        }),
      ),
    ).toEqual({
      password_confirmation: ['must match'],
    })
  })

  it('works on a stored field too (an email typed twice)', () => {
    const cs = validateConfirmation(signUp({ email: 'a@x.io', email_confirmation: 'a@x.com' }), 'email')
    expect(errorsToJson(cs)).toEqual({ email_confirmation: ['does not match confirmation'] })
  })
})

describe('validateSubset', () => {
  const Post = defineSchema({
    table: 'posts',
    fields: { id: 'id', tags: { type: { array: 'string' } }, scores: { type: { array: 'integer' } } },
  })

  it('"has an invalid entry" when any element is outside the allowed values', () => {
    const cs = validateSubset(cast(Post, {}, { tags: ['news', 'spam'] }, ['tags']), 'tags', ['news', 'howto'])
    expect(errorsToJson(cs)).toEqual({ tags: ['has an invalid entry'] })
    expect(cs.errors[0]!.meta).toEqual({ validation: 'subset', enum: ['news', 'howto'] })
  })

  it('passes a subset, an empty list, an unchanged or null field; compares cast values', () => {
    expect(validateSubset(cast(Post, {}, { tags: ['news'] }, ['tags']), 'tags', ['news', 'howto']).valid).toBe(true)
    expect(validateSubset(cast(Post, {}, { tags: [] }, ['tags']), 'tags', ['news']).valid).toBe(true)
    expect(validateSubset(cast(Post, {}, {}, ['tags']), 'tags', ['news']).valid).toBe(true)
    expect(validateSubset(putChange(cast(Post, {}, {}, []), 'tags', null), 'tags', ['news']).valid).toBe(true)
    expect(validateSubset(cast(Post, {}, { scores: ['1', '2'] }, ['scores']), 'scores', [1, 2, 3]).valid).toBe(true)
    expect(
      errorsToJson(
        validateSubset(cast(Post, {}, { tags: ['x'] }, ['tags']), 'tags', ['news'], { message: 'unknown tag' }),
      ),
    ).toEqual({ tags: ['unknown tag'] })
  })
})
