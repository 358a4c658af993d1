/**
 * The development dashboard's recorder, given to each app the dev server makes as `createApp`
 * options (`withRecorder`), so the runtime's core knows nothing of the dashboard:
 * - a stream handler (the observer contract, so it sees every request, 404s included) that opens
 *   a record per request, runs the rest of the request with that record as its async context (so
 *   queries and console lines attach to it, context.ts), and stores it when the response has been
 *   sent;
 * - the pipeline's observer (server/pipeline/observer.ts): each plugin that ran and the security
 *   verdict go into the record;
 * - an `onResponse` hook, run after the app's own: the response headers as sent.
 * It records only in the `dev` environment.
 */
import type { CreateAppOptions } from '../contracts/app.ts'
import type { StreamHandler } from '../contracts/config.ts'
import type { RequestFacts } from '../contracts/request.ts'
import type { ResponseHook } from '../contracts/response.ts'
import type { PipelineObserver } from '../pipeline/observer.ts'
import { defineStreamHandler } from '../stream-handlers/stream-handlers.ts'
import type { Recording } from './context.ts'
import { recordings } from './context.ts'
import type { RequestRecord } from './record.ts'
import { LIMITS, cut } from './record.ts'
import { REDACTED, isSecretName, redactQuery, redactResponseHeader } from './redact.ts'
import type { RequestStore } from './store.ts'
import type { RequestTrace } from './trace.ts'
import { setTrace, traceOf } from './trace.ts'

/** How the recorder records. */
export interface RecorderOptions {
  /** Keep query parameters (default `true`); `false` records them as `[redacted]`. */
  params?: boolean
}

/** What records a `dev` app's requests: the parts `createApp` takes (see `withRecorder`). */
export interface Recorder {
  /** Opens each request's record and stores it once the response has been sent. */
  readonly streamHandler: StreamHandler
  /** Puts the plugins that ran and the security verdict into the record. */
  readonly observer: PipelineObserver
  /** Puts the response headers as sent into the record. */
  readonly onResponse: ResponseHook
}

/** The recorder of each request of a `dev` app into `store`. */
export function dashboardRecorder(store: RequestStore, opts: RecorderOptions = {}): Recorder {
  return { streamHandler: recordingHandler(store, opts), observer: { traceOf }, onResponse: recordResponse }
}

/**
 * `createApp` options with the recorder added: its stream handler outside the given ones, its
 * response hook after them (it sees the headers as sent), its observer beside the app's own.
 */
export function withRecorder(recorder: Recorder, opts: CreateAppOptions = {}): CreateAppOptions {
  return {
    ...opts,
    streamHandlers: [recorder.streamHandler, ...(opts.streamHandlers ?? [])],
    onResponse: [...(opts.onResponse ?? []), recorder.onResponse],
    observer: opts.observer ? bothObservers(recorder.observer, opts.observer) : recorder.observer,
  }
}

/** Reports every step to both observers, for the requests each of them traces. */
function bothObservers(first: PipelineObserver, second: PipelineObserver): PipelineObserver {
  return {
    traceOf(request) {
      const a = first.traceOf(request)
      const b = second.traceOf(request)
      if (!a || !b) return a ?? b
      return {
        started: a.started,
        plugin(step) {
          a.plugin(step)
          // The second trace counts its times from its own start.
          b.plugin({ ...step, startMs: step.startMs + a.started - b.started })
        },
        security(verdict) {
          a.security(verdict)
          b.security({ ...verdict, startMs: verdict.startMs + a.started - b.started })
        },
      }
    },
  }
}

/** The recorder's `onResponse` hook: a recorded request's response headers. */
function recordResponse(response: Parameters<ResponseHook>[0]): void {
  traceOf(response.request)?.responseHeaders(response.headerEntries())
}

function recordingHandler(store: RequestStore, opts: RecorderOptions): StreamHandler {
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

/** Where the reports on `record` go: plugins up to the cap, the security verdict, the response's headers (redacted, cut). */
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
    responseHeaders(entries) {
      record.responseHeaders = entries
        .slice(0, LIMITS.headers)
        .map(([name, value]) => [name, cut(redactResponseHeader(name, value), LIMITS.header)] as const)
    },
  }
}
