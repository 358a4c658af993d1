/**
 * One `/metrics` for a multi-process server (`VELA_WORKERS`, server/cluster/). Each worker records
 * its own requests in its own registry and binds no metrics port; the primary serves `/metrics`
 * with the sum: on each scrape it asks every reporting worker for its registry
 * (`getMetricsAsJSON()`, over node:cluster's IPC channel) and adds them up with prom-client's
 * `AggregatorRegistry.aggregate` (counters and histogram buckets add; so do gauges such as the
 * active requests), its own registry included (metrics an app registers in the primary). In the
 * OpenMetrics exposition each histogram bucket keeps the most recent exemplar any worker had on it
 * (prom-client's sum drops them).
 *
 * Why not prom-client's `clusterMetrics()`: it asks every connected worker, and one that has not
 * set up telemetry (still starting, being replaced) never answers, which fails the whole scrape
 * after 5 s. Here a worker says when it starts and stops reporting; the primary asks those.
 * A worker that exits takes its counts with it: the sums drop, which Prometheus's `rate()` reads
 * as a counter reset.
 */
import cluster from 'node:cluster'
import type { Worker } from 'node:cluster'
import { AggregatorRegistry } from 'prom-client'
import type { Registry } from 'prom-client'
import type { MetricsJson } from './exposition.ts'
import { openMetricsText, withLatestExemplars } from './exposition.ts'
import type { MetricsSource } from './prometheus.ts'

export type MetricsMessage =
  | { readonly vela: 'metrics-reporting' }
  | { readonly vela: 'metrics-stopped' }
  | { readonly vela: 'metrics-request'; readonly id: number }
  | { readonly vela: 'metrics'; readonly id: number; readonly metrics?: MetricsJson; readonly error?: string }

function is<K extends MetricsMessage['vela']>(
  message: unknown,
  kind: K,
): message is Extract<MetricsMessage, { vela: K }> {
  return typeof message === 'object' && message !== null && (message as { vela?: unknown }).vela === kind
}

/** A worker's side of the IPC channel (the process's own; tests give a fake). */
export interface PrimaryLink {
  on(event: 'message', listener: (message: unknown) => void): unknown
  off(event: 'message', listener: (message: unknown) => void): unknown
  send?(
    message: MetricsMessage,
    sendHandle: undefined,
    options: undefined,
    callback: (error: Error | null) => void,
  ): boolean
}

/** The primary's view of its workers (node:cluster; tests give a fake). */
export interface WorkerHub {
  on(event: 'message' | 'disconnect' | 'exit', listener: (worker: Worker, message?: unknown) => void): unknown
  off(event: 'message' | 'disconnect' | 'exit', listener: (worker: Worker, message?: unknown) => void): unknown
  readonly workers?: NodeJS.Dict<Worker>
}

/** In a worker: answers the primary's requests with `registry`'s metrics, until the returned function is called. */
export function reportToPrimary(registry: Registry, link: PrimaryLink = process): () => void {
  // The callback: a channel closing under a send (the primary gone) is not an uncaught error.
  const send = (message: MetricsMessage) => void link.send?.(message, undefined, undefined, () => {})
  const onMessage = (message: unknown) => {
    if (!is(message, 'metrics-request')) return
    const { id } = message
    registry.getMetricsAsJSON().then(
      (metrics) => send({ vela: 'metrics', id, metrics }),
      (err: unknown) => send({ vela: 'metrics', id, error: String((err as Error)?.message ?? err) }),
    )
  }
  link.on('message', onMessage)
  send({ vela: 'metrics-reporting' })
  return () => {
    link.off('message', onMessage)
    send({ vela: 'metrics-stopped' })
  }
}

export interface ClusterMetrics extends MetricsSource {
  /** Stops listening to the workers. */
  close(): void
}

interface Scrape {
  readonly waiting: Set<number>
  readonly answers: MetricsJson[]
  done(err?: Error): void
}

/** In the primary: the sum of `own` and the reporting workers' registries; a worker silent for `timeoutMs` fails the scrape. */
export function clusterMetrics(own: Registry, timeoutMs = 5000, hub: WorkerHub = cluster): ClusterMetrics {
  const reporting = new Set<number>()
  const scrapes = new Map<number, Scrape>()
  let nextId = 0

  const gone = (workerId: number) => {
    reporting.delete(workerId)
    for (const s of scrapes.values()) if (s.waiting.delete(workerId) && s.waiting.size === 0) s.done()
  }
  const onMessage = (worker: Worker, message?: unknown) => {
    if (is(message, 'metrics-reporting')) reporting.add(worker.id)
    else if (is(message, 'metrics-stopped')) gone(worker.id)
    else if (is(message, 'metrics')) {
      const scrape = scrapes.get(message.id)
      if (!scrape?.waiting.delete(worker.id)) return
      if (message.error !== undefined) return scrape.done(new Error(`worker ${worker.id}: ${message.error}`))
      scrape.answers.push(message.metrics ?? [])
      if (scrape.waiting.size === 0) scrape.done()
    }
  }
  const onGone = (worker: Worker) => gone(worker.id)
  hub.on('message', onMessage)
  hub.on('disconnect', onGone)
  hub.on('exit', onGone)

  return {
    async metrics(format = 'prometheus') {
      const id = nextId++
      const answers = [await own.getMetricsAsJSON()]
      const workers = [...reporting].map((w) => hub.workers?.[w]).filter((w): w is Worker => w?.isConnected() === true)
      await new Promise<void>((resolve, reject) => {
        const waiting = new Set(workers.map((w) => w.id))
        const timer = setTimeout(
          () => done(new Error(`no metrics from worker ${[...waiting].join(', ')} within ${timeoutMs} ms`)),
          timeoutMs,
        )
        const done = (err?: Error) => {
          clearTimeout(timer)
          scrapes.delete(id)
          if (err) reject(err)
          else resolve()
        }
        scrapes.set(id, { waiting, answers, done })
        for (const w of workers) w.send({ vela: 'metrics-request', id } satisfies MetricsMessage, () => {})
        if (waiting.size === 0) done()
      })
      const summed = AggregatorRegistry.aggregate(answers)
      if (format === 'prometheus') return summed.metrics()
      return openMetricsText(withLatestExemplars(await summed.getMetricsAsJSON(), answers))
    },
    close() {
      hub.off('message', onMessage)
      hub.off('disconnect', onGone)
      hub.off('exit', onGone)
    },
  }
}
