// What a typed client reads from a handler's return type: the status of each reply as the literal
// the reply helper was given, in the options (`json(body, { status: 201 })`) as in the forms before.
import { expect, expectTypeOf, it, vi } from 'vitest'
import { json, redirect, status, view } from '../server/replies.ts'
import type { HandlerResponses } from './route-types.ts'

const create = (valid: boolean) =>
  valid
    ? json({ id: 1 }, { status: 201, headers: { location: '/notes/1' } })
    : status(422, { errors: { title: ['x'] } })
const show = (found: boolean) => (found ? json({ id: 1 }) : status(404, { error: 'gone' }))
const remove = () => status(204)
const page = (ok: boolean) => (ok ? view({ title: 'x' }) : view('not_found', {}, { status: 404 }))
const moved = () => redirect('/new', { status: 301 })
const legacy = () => json(201, {}, { id: 1 })

it('reply statuses reach the typed client as literals', () => {
  // The old form warns when called; these handlers are only typed here, except `legacy` below.
  const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
  try {
    expectTypeOf<HandlerResponses<typeof create>>().toEqualTypeOf<
      { status: 201; body: { id: number } } | { status: 422; body: { errors: { title: string[] } } }
    >()
    expectTypeOf<HandlerResponses<typeof show>>().toEqualTypeOf<
      { status: 200; body: { id: number } } | { status: 404; body: { error: string } }
    >()
    expectTypeOf<HandlerResponses<typeof remove>>().toEqualTypeOf<{ status: 204; body: undefined }>()
    expectTypeOf<HandlerResponses<typeof page>>().toEqualTypeOf<{ status: number; body: string }>()
    expectTypeOf<HandlerResponses<typeof moved>>().toEqualTypeOf<{ status: number; body: string }>()
    expectTypeOf<HandlerResponses<typeof legacy>>().toEqualTypeOf<{ status: 201; body: { id: number } }>()
    expect(create(true).status).toBe(201)
    expect(legacy().status).toBe(201)
  } finally {
    warn.mockRestore()
  }
})
