/**
 * The development dashboard's recorder: a stream handler (the observer contract, so it sees every
 * request, 404s included) that opens a record per request, runs the rest of the request with that
 * record as its async context (so queries and console lines attach to it, context.ts), and stores
 * it when the response has been sent. It records only in the `dev` environment.
 */
import type { StreamHandler } from '../contracts/config.ts'
import type { RequestFacts } from '../contracts/request.ts'
import { defineStreamHandler } from '../stream-handlers/stream-handlers.ts'
import type { Recording } from './context.ts'
import { recordings } from './context.ts'
import type { Outcome } from '../respond.ts'
import type { RequestRecord } from './record.ts'
import { LIMITS, cut } from './record.ts'
import { REDACTED, isSecretName, redactQuery, redactResponseHeader } from './redact.ts'
import type { RequestStore } from './store.ts'
import type { RequestTrace } from './trace.ts'
import { setTrace } from './trace.ts'

/** How the recorder records. */
export interface RecorderOptions {
  /** Keep query parameters (default `true`); `false` records them as `[redacted]`. */
  params?: boolean
}

/** The stream handler that records each request of a `dev` app into `store`. */
export function dashboardRecorder(store: RequestStore, opts: RecorderOptions = {}): StreamHandler {
  let seq = 0
  const params = opts.params ?? true
  return defineStreamHandler({
    name: 'dashboard',
    observe(config) {
      if (config.environment !== 'dev') return undefined
      return (facts) => {
        const record = openRecord(facts, `r${++seq}`)
        const recording: Recording = { record, started: performance.now(), params }
        setTrace(facts, traceInto(record, recording.started))
        return {
          run: (next) => recordings.run(recording, next),
          end(outcome) {
            const durationMs = performance.now() - recording.started
            record.status = outcome.status
            record.durationMs = durationMs
            record.size = outcome.responseBodySize
            if (outcome.route)
              record.route = {
                path: outcome.route.path,
                controller: outcome.route.controller,
                action: outcome.route.action,
                prefix: outcome.route.prefix,
              }
            const thrown = outcome.error ?? outcome.exception
            if (thrown !== undefined) record.error = describeError(thrown)
            const name = outcome.route ? `${record.method} ${outcome.route.path}` : `${record.method} ${record.path}`
            record.spans.unshift({ kind: 'request', name, startMs: 0, durationMs })
            // The record's JSON weight, its own `bytes` figure included.
            const weight = Buffer.byteLength(JSON.stringify(record))
            record.bytes = weight + String(weight).length

            store.add(record)
          },
        }
      }
    },
  })
}

function openRecord(facts: RequestFacts, storeId: string): RequestRecord {
  const headers = facts
    .headerNames()
    .map((name) => [name, isSecretName(name) ? REDACTED : cut(facts.header(name) ?? '', LIMITS.header)] as const)
  const id = (facts as { id?: unknown }).id
  return {
    id: typeof id === 'string' && id !== '' ? id : storeId,
    startedAt: Date.now(),
    method: facts.method,
    path: cut(facts.path, LIMITS.header),
    query: facts.query === undefined ? undefined : cut(redactQuery(facts.query), LIMITS.header),
    client: facts.peer,
    headers,
    logs: [],
    spans: [],
    plugins: [],
    bytes: 0,
  }
}

function describeError(thrown: unknown): NonNullable<RequestRecord['error']> {
  if (thrown instanceof Error)
    return {
      name: thrown.name,
      message: cut(thrown.message, LIMITS.message),
      stack: thrown.stack === undefined ? undefined : cut(thrown.stack, LIMITS.stack),
    }
  return { name: typeof thrown, message: cut(String(thrown), LIMITS.message) }
}

/** Where the pipeline's reports on `record` go: plugins up to the cap, the security verdict, the response's headers (redacted, cut). */
function traceInto(record: RequestRecord, started: number): RequestTrace {
  return {
    started,
    plugin(step) {
      if (record.plugins.length < LIMITS.plugins)
        record.plugins.push(
          step.outcome.kind === 'failed' || step.outcome.kind === 'threw'
            ? { ...step, outcome: { ...step.outcome, message: cut(step.outcome.message, LIMITS.message) } }
            : step,
        )
    },
    security(verdict) {
      record.security =
        verdict.message === undefined ? verdict : { ...verdict, message: cut(verdict.message, LIMITS.message) }
    },
    response(outcome) {
      record.responseHeaders = headerPairs(outcome)
        .slice(0, LIMITS.headers)
        .map(([name, value]) => [name, cut(redactResponseHeader(name, value), LIMITS.header)] as const)
    },
  }
}

function headerPairs(outcome: Outcome): [string, string][] {
  const headers = (outcome as { headers?: unknown }).headers
  if (headers instanceof Headers) {
    const pairs: [string, string][] = []
    headers.forEach((value, name) => {
      if (name !== 'set-cookie') pairs.push([name, value])
    })
    for (const cookie of headers.getSetCookie()) pairs.push(['set-cookie', cookie])
    return pairs
  }
  if (!headers || typeof headers !== 'object') return []
  return Object.entries(headers as Record<string, unknown>).flatMap(([name, value]) =>
    Array.isArray(value)
      ? value.map((v) => [name.toLowerCase(), String(v)] as [string, string])
      : [[name.toLowerCase(), String(value)] as [string, string]],
  )
}
