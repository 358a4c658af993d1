/**
 * `vela/testing`: the app under test from the app's own sources (`createTestApp`, test-app.ts),
 * and requests to any `VelaApp` in-process (`inject`) or over a real listener (`startTestServer`),
 * inject.ts; the app's background jobs run on demand (`drainJobs`) or are looked at
 * (`enqueuedJobs`), jobs.ts; the mail the app's mailers kept instead of sending (`sentMail`,
 * `lastMail`, `clearMail`), mail.ts.
 */
export { inject, startTestServer, toRequest } from './inject.ts'
export type { InjectOptions, TestServer } from './inject.ts'
export { createTestApp } from './test-app.ts'
export { drainJobs, enqueuedJobs } from './jobs.ts'
export { clearMail, lastMail, sentMail } from './mail.ts'
export type { SentMailFilter } from './mail.ts'
export type { TestApp, TestAppOptions } from './test-app.ts'
