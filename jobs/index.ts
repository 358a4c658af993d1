/**
 * `vela/jobs`: background jobs in the app's own PostgreSQL (or embedded PGlite), on pg-boss.
 * `src/jobs/*.ts` export `defineJob({ handler, … })`; `job.enqueue(args, opts)` inserts a run, in
 * the caller's transaction when there is one; the app runs them (`jobs` in its config) or
 * `vela jobs work` does. The tables come with the app's migrations (`jobTables`).
 */
export { defineJob, isJob } from './define.ts'
export type { BackoffOptions, EnqueuedJob, EnqueueOptions, Job, JobContext, JobDefinition } from './define.ts'
export type { JobsConfig } from './options.ts'
export { jobTables, JOBS_SCHEMA } from './tables.ts'
export { startJobs } from './runtime.ts'
export { jobsFromModules } from './discover.ts'
export type { DrainResult, JobsRuntime, StartJobsOptions } from './runtime.ts'
export type { JobRow, JobState } from './listing.ts'
