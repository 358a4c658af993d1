/**
 * Full-text search (PostgreSQL): `textSearch` is a condition, `tsRank` a select column and sort
 * term, both `sql` fragments over the same document. The document is the fields' text, joined by
 * spaces (a null field counts as empty), as `to_tsvector(language, …)`; the search text is parsed
 * by `websearch_to_tsquery` (quotes, `or`, `-word`, as search engines take them), `plainto_tsquery`
 * (every word) or `phraseto_tsquery` (the words in order). The search text is a parameter.
 *
 * **Choice:** the language is written into the SQL as a constant, not sent as a parameter: an
 * expression index (`create index … using gin (to_tsvector('english', title))`) serves only a
 * query whose expression is the same, constant included. It is the program's choice, checked to be
 * a plain name (`english`, `simple`, …), never user input.
 *
 *   from(Note).where(textSearch(['title', 'body'], req.query.q)).orderBy([tsRank(['title', 'body'], req.query.q), 'desc'])
 */
import type { FieldRef, Sql } from './fragment.ts'
import { field } from './fragment.ts'

/** How the search text is read: as a web search box (`websearch`), every word (`plain`), or a phrase. */
export type TextSearchMode = 'websearch' | 'plain' | 'phrase'

/** The language of the document and the search (a text search configuration: `english`, `simple`, …), and how the search text is read. */
export interface TextSearchOptions {
  /** Default `'english'`. */
  readonly language?: string
  /** Default `'websearch'`. */
  readonly mode?: TextSearchMode
}

const parsers: Readonly<Record<TextSearchMode, string>> = {
  websearch: 'websearch_to_tsquery',
  plain: 'plainto_tsquery',
  phrase: 'phraseto_tsquery',
}

/** The fragment's strings and arguments for `to_tsvector(…) <op> <parser>(…, $query)`. */
function parts(
  what: string,
  fields: string | readonly string[],
  query: unknown,
  opts: TextSearchOptions,
  open: string,
  between: string,
  close: string,
): Sql {
  const list = typeof fields === 'string' ? [fields] : fields
  if (!Array.isArray(list) || list.length === 0 || list.some((f) => typeof f !== 'string' || f === ''))
    throw new Error(`${what}: give a field or a list of fields`)
  if (typeof query !== 'string') throw new Error(`${what}: the search text must be a string, got ${typeof query}`)
  const language = opts.language ?? 'english'
  if (typeof language !== 'string' || !/^[a-z_][a-z0-9_]*$/.test(language))
    throw new Error(
      `${what}: language ${JSON.stringify(language)} must be a text search configuration name (english, simple, …)`,
    )
  const parser = parsers[opts.mode ?? 'websearch']
  if (!parser) throw new Error(`${what}: mode ${JSON.stringify(opts.mode)} is not websearch, plain or phrase`)
  // One field as it is; several as coalesce(a, '') || ' ' || coalesce(b, ''), an immutable expression an index can hold.
  const strings: string[] = [`${open}to_tsvector('${language}', ${list.length > 1 ? 'coalesce(' : ''}`]
  const args: (FieldRef | string)[] = []
  list.forEach((f, i) => {
    args.push(field(f))
    if (i < list.length - 1) strings.push(`, '') || ' ' || coalesce(`)
  })
  strings.push(`${list.length > 1 ? ", '')" : ''})${between}${parser}('${language}', `)
  args.push(query)
  strings.push(`)${close}`)
  return { '~cond': 'sql', kind: 'vela.sql', parts: strings, args }
}

/**
 * A full-text match: the fields' text (as one document) matches the search text
 * (`to_tsvector('english', …) @@ websearch_to_tsquery('english', $1)`). A condition for `where`.
 *
 * @example
 * from(Note).where(textSearch(['title', 'body'], '"oat milk" -cow'))
 * from(Note).where(textSearch('title', 'milk', { language: 'simple', mode: 'plain' }))
 */
export function textSearch<const F extends string>(
  fields: F | readonly F[],
  query: string,
  opts: TextSearchOptions = {},
): Sql<boolean, F> {
  return parts('textSearch', fields, query, opts, '', ' @@ ', '') as Sql<boolean, F>
}

/**
 * How well the fields' text matches the search text (`ts_rank`: higher is better), a number for
 * `select`'s object form or an `orderBy` term. Give it the same fields and options as `textSearch`.
 *
 * @example
 * const q = req.query.q
 * from(Note).where(textSearch(['title', 'body'], q)).select({ id: 'id', rank: tsRank(['title', 'body'], q) }).orderBy(['rank', 'desc'])
 */
export function tsRank<const F extends string>(
  fields: F | readonly F[],
  query: string,
  opts: TextSearchOptions = {},
): Sql<number, F> {
  return parts('tsRank', fields, query, opts, 'ts_rank(', ', ', ')') as Sql<number, F>
}
