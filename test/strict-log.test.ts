// The strict log behind describeModes and the suites that used to silence the app's log
// (test/support/logs.ts): what makes a case fail, and what a declaration covers.
import { describe, expect, it } from 'vitest'
import { createLogCheck } from './support/logs.ts'

describe('strict log', () => {
  it('an entry no pattern declares fails the check, naming the message and the error', () => {
    const logs = createLogCheck()
    logs.log('500 on GET /boom (routes/r.anonymous)', new Error('kaboom'))
    expect(() => logs.check()).toThrow(
      'logged without expectLogged(): 500 on GET /boom (routes/r.anonymous): Error: kaboom',
    )
  })

  it('a declared entry passes; a declaration nothing matched fails, so it cannot go stale', () => {
    const logs = createLogCheck()
    logs.expectLogged(/^500 on GET \/boom .*kaboom$/)
    logs.log('500 on GET /boom (routes/r.anonymous)', new Error('kaboom'))
    expect(() => logs.check()).not.toThrow()
    logs.expectLogged(/kaboom/)
    expect(() => logs.check()).toThrow('expectLogged(/kaboom/) but nothing matching was logged')
  })

  it('each check starts afresh: entries and declarations belong to one case', () => {
    const logs = createLogCheck()
    logs.log('stream handler failed', 'a string reason')
    expect(logs.entries.map((e) => e.text)).toEqual(['stream handler failed: a string reason'])
    expect(() => logs.check()).toThrow(/stream handler failed/)
    expect(logs.entries).toEqual([])
    expect(() => logs.check()).not.toThrow()
  })

  it("a plugin failure's cause is part of the text patterns match", () => {
    const logs = createLogCheck()
    logs.expectLogged(/cause: pool exhausted/)
    logs.log('500 on GET /x', new Error('plugin p failed', { cause: new Error('pool exhausted') }))
    expect(() => logs.check()).not.toThrow()
  })
})
