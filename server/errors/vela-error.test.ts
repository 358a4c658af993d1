// VelaError (vela-error.ts): a stable code beside the message, the code in the stack's first line,
// and a check by shape that works across two copies of the module.
import { describe, expect, it } from 'vitest'
import { VELA_ERROR_CODES, VelaError, isVelaError } from './vela-error.ts'

describe('VelaError', () => {
  it('keeps the message, carries the code, and names itself VelaError', () => {
    const err = new VelaError('VELA_ERR_CONFIG', 'PORT must be an integer from 0 to 65535, got "x"')
    expect(err).toBeInstanceOf(Error)
    expect(err).toMatchObject({
      name: 'VelaError',
      code: 'VELA_ERR_CONFIG',
      message: 'PORT must be an integer from 0 to 65535, got "x"',
    })
    expect(String(err)).toBe('VelaError: PORT must be an integer from 0 to 65535, got "x"')
  })

  it("the stack's first line carries the code, as Node's own coded errors do", () => {
    const err = new VelaError('VELA_ERR_DUPLICATE_ROUTE', 'route GET /a is declared twice')
    expect(err.stack!.split('\n')[0]).toBe('VelaError [VELA_ERR_DUPLICATE_ROUTE]: route GET /a is declared twice')
  })

  it('keeps a cause', () => {
    const cause = new Error('underlying')
    expect(new VelaError('VELA_ERR_PLUGIN', 'wrapped', { cause }).cause).toBe(cause)
  })

  it('isVelaError checks the shape (another copy of the class passes) and, if given, the code', () => {
    const err = new VelaError('VELA_ERR_ROUTE', 'bad')
    expect(isVelaError(err)).toBe(true)
    expect(isVelaError(err, 'VELA_ERR_ROUTE')).toBe(true)
    expect(isVelaError(err, 'VELA_ERR_CONFIG')).toBe(false)
    const twin = Object.assign(new Error('bad'), { name: 'VelaError', code: 'VELA_ERR_ROUTE' })
    expect(isVelaError(twin, 'VELA_ERR_ROUTE')).toBe(true)
    expect(isVelaError(Object.assign(new Error('x'), { name: 'VelaError', code: 'VELA_ERR_NOPE' }))).toBe(false)
    expect(isVelaError({ name: 'VelaError', code: 'VELA_ERR_ROUTE' })).toBe(false)
    expect(isVelaError(new Error('plain'))).toBe(false)
  })

  it('the codes are stable: this list changes only on purpose (tools match on them)', () => {
    expect(Object.keys(VELA_ERROR_CODES)).toEqual([
      'VELA_ERR_CONFIG',
      'VELA_ERR_ROUTE',
      'VELA_ERR_DUPLICATE_ROUTE',
      'VELA_ERR_PLUGIN',
      'VELA_ERR_STREAM_HANDLER',
      'VELA_ERR_WEBSOCKET',
      'VELA_ERR_TELEMETRY',
      'VELA_ERR_JOB',
      'VELA_ERR_MAIL',
    ])
  })
})
