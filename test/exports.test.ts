// The public API, subpath by subpath, as an app gets it: each entry point is imported by name
// through the package's `exports` (node resolving `vela/...` from inside the package, so dist/,
// built by vitest's global setup), and its sorted export names must equal the list written here.
// A name appearing or disappearing fails this test: change the list on purpose, in the same commit.
// The types users write against are checked by compiling test/fixtures/public-types against the
// package's .d.ts files (the `types` condition of the same exports).
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

const EXPECTED: Record<string, string[]> = {
  vela: [
    'CSRF_FORM_FIELD',
    'CSRF_HEADER',
    'HttpError',
    'MemoryRateLimitStore',
    'MemorySessionStore',
    'MemoryStore',
    'RedisRateLimitStore',
    'RedisSessionStore',
    'RedisStore',
    'VelaError',
    'VelaRequest',
    'breakPhase',
    'byAddress',
    'byAddressAndField',
    'byField',
    'coalesceLog',
    'corsPlugin',
    'createApp',
    'csrfPlugin',
    'defineApp',
    'definePlugin',
    'defineRoute',
    'defineRoutes',
    'defineStreamHandler',
    'defineValidation',
    'defineWebSocket',
    'fail',
    'hashPassword',
    'httpError',
    'installShutdown',
    'isHttpError',
    'isReply',
    'isVelaError',
    'json',
    'listen',
    'matchedRoute',
    'metricsStreamHandler',
    'ok',
    'passwordHashing',
    'rateLimitPlugin',
    'redirect',
    'redisPubSub',
    'renewSession',
    'requestPlugin',
    'securityHeaders',
    'sendfile',
    'sessionPlugin',
    'sessionPlugins',
    'setMetricsUserData',
    'staticDir',
    'status',
    'stop',
    'verifyPassword',
    'view',
  ],
  'vela/vite': ['default', 'devAppOf'],
  'vela/dbl': [
    'AUDIT_TABLE',
    'AuditEntry',
    'BAD_PAGINATION',
    'DB_OUTCOME_UNKNOWN',
    'DB_UNAVAILABLE',
    'DEFAULT_DEADLINES',
    'DbError',
    'DbOutcomeUnknownError',
    'DbUnavailableError',
    'LoadError',
    'MigrationDecisionError',
    'MultipleResultsError',
    'PaginationError',
    'UnsafeMigrationError',
    'actorScope',
    'addCheck',
    'validateCheck',
    'addColumn',
    'addError',
    'addForeignKey',
    'alterTable',
    'and',
    'applyChanges',
    'assocConstraint',
    'auditActorHandler',
    'avg',
    'belongsTo',
    'between',
    'cast',
    'castAssoc',
    'castEmbed',
    'change',
    'checkConstraint',
    'cond',
    'count',
    'createIndex',
    'createPgAdapter',
    'createPgliteAdapter',
    'createTable',
    'cte',
    'currentActor',
    'defineEmbeddedSchema',
    'defineFactory',
    'defineMigration',
    'defineRepo',
    'defineSchema',
    'denseRank',
    'distinct',
    'distinctOn',
    'dropCheck',
    'dropColumn',
    'dropForeignKey',
    'dropIndex',
    'dropTable',
    'embedsMany',
    'embedsOne',
    'err',
    'errorMessage',
    'errorsToJson',
    'escapeLike',
    'except',
    'exclusionConstraint',
    'execute',
    'exists',
    'factory',
    'field',
    'foreignKeyConstraint',
    'from',
    'generateMigration',
    'getChange',
    'getField',
    'groupBy',
    'hasMany',
    'hasOne',
    'having',
    'historyOf',
    'intersect',
    'isChangeset',
    'isDbError',
    'isDbOutcomeUnknown',
    'isDbUnavailable',
    'isSql',
    'isWindow',
    'join',
    'leftJoin',
    'limit',
    'loadMigrations',
    'lock',
    'manyToMany',
    'max',
    'migrate',
    'migrationStatus',
    'min',
    'modifyColumn',
    'newMulti',
    'noAssocConstraint',
    'not',
    'notBetween',
    'offset',
    'ok',
    'optimisticLock',
    'or',
    'orderBy',
    'over',
    'prepareChanges',
    'putAssoc',
    'putChange',
    'rank',
    'renameColumn',
    'requestValue',
    'rollbackMigrations',
    'rowNumber',
    'select',
    'setActor',
    'setPrimaryKey',
    'sql',
    'sum',
    'textSearch',
    'timestamps',
    'tsRank',
    'union',
    'unionAll',
    'uniqueConstraint',
    'unscoped',
    'validateChange',
    'validateConfirmation',
    'validateExclusion',
    'validateFormat',
    'validateInclusion',
    'validateLength',
    'validateNumber',
    'validateRequired',
    'validateSubset',
    'where',
    'withActor',
    'withDeleted',
    'withoutScopes',
  ],
  'vela/telemetry': ['setup', 'setupTelemetry', 'telemetryPlugin', 'telemetryStreamHandler'],
  'vela/jobs': ['JOBS_SCHEMA', 'defineJob', 'isJob', 'jobTables', 'jobsFromModules', 'startJobs'],
  'vela/mail': ['MAILBOX_LIMIT', 'clearMailbox', 'defineMailer', 'mailJob', 'mailboxMessages'],
  'vela/testing': [
    'clearMail',
    'createTestApp',
    'drainJobs',
    'enqueuedJobs',
    'inject',
    'lastMail',
    'sentMail',
    'startTestServer',
    'toRequest',
  ],
  'vela/client': ['createClient'],
}

/** Every subpath's export names, read by a plain node process importing `vela/...` by name. */
function exportedNames(): Record<string, string[]> {
  const script = `const out = {}
for (const subpath of ${JSON.stringify(Object.keys(EXPECTED))}) out[subpath] = Object.keys(await import(subpath)).sort()
process.stdout.write(JSON.stringify(out))`
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
  )
}

describe('public API', () => {
  const actual = exportedNames()

  it('the package exports every subpath this test lists, and no other module entry', async () => {
    const { exports } = (await import('../package.json', { with: { type: 'json' } })).default as {
      exports: Record<string, unknown>
    }
    const modules = Object.keys(exports).filter(
      (k) => typeof exports[k] === 'object' && 'import' in (exports[k] as object),
    )
    expect(modules.map((k) => `vela${k.slice(1)}`).sort()).toEqual(Object.keys(EXPECTED).sort())
  })

  for (const subpath of Object.keys(EXPECTED)) {
    it(`${subpath} exports exactly its list`, () => {
      expect(actual[subpath]).toEqual([...EXPECTED[subpath]!].sort())
    })
  }

  it('the types users write against are exported (tsc on test/fixtures/public-types, through the .d.ts files)', () => {
    const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url))
    let errors = ''
    try {
      execFileSync(process.execPath, [tsc, '-p', 'test/fixtures/public-types/tsconfig.json'], {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
      })
    } catch (err) {
      errors = `${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}` || String(err)
    }
    expect(errors).toBe('')
  })
})
