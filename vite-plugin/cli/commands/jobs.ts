/**
 * `vela jobs` (list the runs), `vela jobs retry <id>`, `vela jobs cancel <id>` and `vela jobs
 * work` (a process that runs the app's jobs and serves nothing). The implementations are in
 * jobs-run.ts, imported when a command runs.
 */
import type { CommandSpec } from './args.ts'
import { UsageError, defineCommand } from './args.ts'

const STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed']

const listCommand = defineCommand({
  name: 'jobs',
  summary: 'list background job runs (src/jobs), newest first',
  description: `Lists the runs of the app's jobs in its database (the repo src/repo.ts exports), newest
first: id, job, state, attempt, when it runs, and the error of a failed run.`,
  options: {
    state: {
      type: 'string',
      multiple: true,
      value: '<state>',
      description: `only runs in this state (repeatable): ${STATES.join(', ')}`,
    },
    limit: { type: 'string', value: '<n>', description: 'at most n runs', byDefault: '50' },
    json: { type: 'boolean', description: 'print the runs as JSON' },
  },
  example: 'vela jobs --state failed\nvela jobs retry 0190c7c2-…',
  async run({ root, values }) {
    const states = values.state ?? []
    for (const s of states)
      if (!STATES.includes(s))
        throw new UsageError(`--state takes one of ${STATES.join(', ')}, got ${JSON.stringify(s)}`)
    const limit = values.limit === undefined ? 50 : Number(values.limit)
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw new UsageError(`--limit takes a whole number from 1 to 1000, got ${JSON.stringify(values.limit)}`)
    const { listRuns } = await import('./jobs-run.ts')
    await listRuns(root, { states, limit, json: values.json ?? false })
    return 0
  },
})

const idArg = [{ name: '<id>', description: 'the run, as `vela jobs` lists it' }]
const checkId = (positionals: readonly string[]) => {
  const [id, extra] = positionals
  if (!id) throw new UsageError('needs the id of a run (vela jobs lists them)')
  if (extra !== undefined) throw new UsageError(`takes one id, got also ${JSON.stringify(extra)}`)
  return id
}

const retryCommand = defineCommand({
  name: 'jobs retry',
  summary: 'put a failed or cancelled run back in its queue',
  description: 'Puts a failed (or cancelled) run back in its queue: a worker runs it again.',
  positionals: idArg,
  options: {},
  example: 'vela jobs retry 0190c7c2-4f0e-7b4e-9c1d-5c2f8a6b1e3d',
  async run({ root, positionals }) {
    const { actOnRun } = await import('./jobs-run.ts')
    return actOnRun(root, 'retry', checkId(positionals))
  },
})

const cancelCommand = defineCommand({
  name: 'jobs cancel',
  summary: 'cancel a run that has not finished',
  description:
    'Cancels a queued, scheduled or running run (a running handler is not interrupted; its result is dropped).',
  positionals: idArg,
  options: {},
  example: 'vela jobs cancel 0190c7c2-4f0e-7b4e-9c1d-5c2f8a6b1e3d',
  async run({ root, positionals }) {
    const { actOnRun } = await import('./jobs-run.ts')
    return actOnRun(root, 'cancel', checkId(positionals))
  },
})

const workCommand = defineCommand({
  name: 'jobs work',
  summary: "run the app's jobs in this process (no HTTP), until SIGTERM",
  description: `Starts the app (its start hook: database, migrations) and runs its jobs, serving no
requests, until SIGTERM or SIGINT: then running jobs get jobs.shutdownTimeout to finish. With
jobs: { inApp: false } in src/app.ts, only these processes run jobs, so web and worker processes
scale apart. It runs the sources; the built server is a worker process with VELA_JOBS=work
(VELA_JOBS=work node dist/server/index.mjs).`,
  options: {},
  example: 'vela jobs work',
  async run({ root }) {
    const { work } = await import('./jobs-run.ts')
    await work(root)
    return 0
  },
})

export const JOBS_COMMANDS: readonly CommandSpec[] = [listCommand, retryCommand, cancelCommand, workCommand] as never
