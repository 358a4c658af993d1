/**
 * Runs as the CLI (`vela jobs`) and the dashboard show them: read from the engine's job table
 * across queues, newest first. pg-boss's own `findJobs` reads one queue at a time.
 */
import type { Repo } from '../dbl/repo.ts'
import { JOBS_SCHEMA } from './tables.ts'

/** A run's state, as pg-boss names it: `created` (queued or scheduled), `retry`, `active`, `completed`, `cancelled`, `failed`. */
export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed'

export const JOB_STATES: readonly JobState[] = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed']

/** One run, as listed. */
export interface JobRow {
  readonly id: string
  /** The job's name (`send_welcome`). */
  readonly name: string
  readonly queue: string
  readonly state: JobState
  readonly args: unknown
  /** 1 for the first run, … (the attempt in progress or last made). */
  readonly attempt: number
  /** Runs at most: 1 + retries. */
  readonly maxAttempts: number
  readonly priority: number
  /** The key it was enqueued with, if any. */
  readonly key: string | null
  readonly runAt: Date
  readonly createdAt: Date
  readonly startedAt: Date | null
  readonly completedAt: Date | null
  /** The last failure's message (failed and retrying runs). */
  readonly error: string | null
}

interface Row {
  id: string
  name: string
  state: JobState
  data: { job?: string; args?: unknown } | null
  retry_count: number
  retry_limit: number
  priority: number
  singleton_key: string | null
  start_after: Date
  created_on: Date
  started_on: Date | null
  completed_on: Date | null
  output: { message?: string } | null
}

const MAX_LIMIT = 1000

/** What `listJobs` lists: runs of some jobs, in some states, or one run by id, at most `limit`. */
export interface ListOptions {
  /** Only runs of these jobs (default: every job's). */
  readonly jobs?: readonly string[]
  readonly states?: readonly JobState[]
  readonly id?: string
  /** Default 100, at most 1000. */
  readonly limit?: number
}

/** Runs newest first. Internal queues (`__pgboss__…`) are left out. */
export async function listJobs(repo: Repo, opts: ListOptions = {}): Promise<JobRow[]> {
  const limit = Math.min(Math.max(1, Math.floor(opts.limit ?? 100)), MAX_LIMIT)
  const where = ["name NOT LIKE '\\_\\_pgboss%'"]
  const params: unknown[] = []
  if (opts.jobs) {
    params.push(opts.jobs)
    where.push(`data->>'job' = ANY($${params.length})`)
  }
  if (opts.states?.length) {
    params.push(opts.states.filter((s) => JOB_STATES.includes(s)))
    where.push(`state::text = ANY($${params.length})`)
  }
  if (opts.id !== undefined) {
    if (!/^[0-9a-f-]{36}$/i.test(opts.id)) return []
    params.push(opts.id)
    where.push(`id = $${params.length}::uuid`)
  }
  params.push(limit)
  const conn = repo.currentTransaction() ?? (await repo.adapter())
  const { rows } = await conn.query<Row & Record<string, unknown>>(
    `SELECT id::text AS id, name, state::text AS state, data, retry_count, retry_limit, priority, singleton_key,
            start_after, created_on, started_on, completed_on, output
       FROM ${JOBS_SCHEMA}.job WHERE ${where.join(' AND ')}
      ORDER BY created_on DESC, id LIMIT $${params.length}`,
    params,
  )
  return rows.map((r) => ({
    id: r.id,
    name: r.data?.job ?? r.name,
    queue: r.name,
    state: r.state,
    args: r.data?.args,
    attempt: r.state === 'created' ? 0 : r.retry_count + 1,
    maxAttempts: r.retry_limit + 1,
    priority: r.priority,
    key: r.singleton_key && r.data?.job ? r.singleton_key.replace(`${r.data.job}:`, '') : r.singleton_key,
    runAt: r.start_after,
    createdAt: r.created_on,
    startedAt: r.started_on,
    completedAt: r.completed_on,
    error: r.state === 'failed' || r.state === 'retry' ? (r.output?.message ?? null) : null,
  }))
}
