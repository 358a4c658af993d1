// How the typed client writes paths and query strings.
import { expect, it } from 'vitest'
import { fillPath, queryString } from './query.ts'

it('query: repeated keys for arrays, undefined left out, values as text', () => {
  expect(queryString({ tag: ['a b', 'c'], page: 2, all: true, skip: undefined })).toBe('?tag=a+b&tag=c&page=2&all=true')
  expect(queryString({ skip: undefined })).toBe('')
  expect(queryString(undefined)).toBe('')
})

it('path: each :param filled and percent-encoded; a missing one throws', () => {
  expect(fillPath('/api/products/:id/notes/:note_id', { id: 1, note_id: 'a/b' })).toBe('/api/products/1/notes/a%2Fb')
  expect(() => fillPath('/api/products/:id', {})).toThrow('/api/products/:id: missing path parameter "id"')
})
