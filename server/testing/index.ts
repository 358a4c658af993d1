/**
 * `vela/testing`: the app under test from the app's own sources (`createTestApp`, test-app.ts),
 * and requests to any `VelaApp` in-process (`inject`) or over a real listener (`startTestServer`),
 * inject.ts.
 */
export { inject, startTestServer, toRequest } from './inject.ts'
export type { InjectOptions, TestServer } from './inject.ts'
export { createTestApp } from './test-app.ts'
export type { TestApp, TestAppOptions } from './test-app.ts'
