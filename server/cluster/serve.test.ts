// VELA_WORKERS as the built server reads it (serve.ts): unset, empty or 1 is one process; `auto`
// is the machine's available parallelism; anything but a whole number from 1 is refused with a
// message naming the variable. The built server itself: test/cluster/workers.test.ts.
import { expect, it } from 'vitest'
import { isVelaError } from '../errors/vela-error.ts'
import { workerCount } from './serve.ts'

it('unset, empty or blank is 1; a whole number is itself; auto is the available parallelism (at least 1)', () => {
  expect(workerCount(undefined)).toBe(1)
  expect(workerCount('')).toBe(1)
  expect(workerCount('  ')).toBe(1)
  expect(workerCount('1')).toBe(1)
  expect(workerCount(' 4 ')).toBe(4)
  expect(workerCount('auto', () => 6)).toBe(6)
  expect(workerCount('auto', () => 0)).toBe(1)
})

it('anything else is VELA_ERR_CONFIG naming VELA_WORKERS and the value', () => {
  for (const value of ['0', '-2', '2.5', 'two', 'AUTO', '12345', '0x10']) {
    let thrown: unknown
    try {
      workerCount(value)
    } catch (err) {
      thrown = err
    }
    expect(isVelaError(thrown) && thrown.code).toBe('VELA_ERR_CONFIG')
    expect((thrown as Error).message).toBe(
      `VELA_WORKERS must be a whole number from 1 to 9999 or "auto", not ${JSON.stringify(value)}`,
    )
  }
})
