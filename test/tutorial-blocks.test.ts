// How test/tutorial.test.ts reads the tutorial's blocks, checked without running them (quick tier):
// a block it would not understand is an error, never a block left out.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { missingLines, tutorialSteps } from './support/tutorial-blocks.ts'

const fence = '```'
const page = (...lines: string[]) => lines.join('\n')

describe('tutorialSteps', () => {
  it('reads the real page: every block of it is one the tutorial test runs or compares', () => {
    const steps = tutorialSteps(
      readFileSync(fileURLToPath(new URL('../docs/getting-started.md', import.meta.url)), 'utf8'),
    )
    const kinds = steps.flatMap((s) => s.blocks.map((b) => b.action.kind))
    for (const kind of ['file', 'append', 'generated', 'run', 'server', 'setup', 'output'])
      expect(kinds, kind).toContain(kind)
  })

  it('writes files as a reader copies them: diff markers gone, removed lines left out', () => {
    const [, step] = tutorialSteps(
      page(
        '## 1. One',
        `${fence}ts file=src/a.ts stop`,
        '// src/a.ts',
        "import { x } from 'y' // [!code ++]",
        'const old = 1 // [!code --]',
        'export const a = x',
        fence,
      ),
    )
    expect(step!.blocks).toEqual([
      {
        line: 2,
        stop: true,
        action: { kind: 'file', path: 'src/a.ts', code: "// src/a.ts\nimport { x } from 'y'\nexport const a = x" },
      },
    ])
  })

  it('splits commands by line, joins continued lines and drops comments', () => {
    const [, step] = tutorialSteps(page('## 1. One', `${fence}sh`, '# first', 'cd app', 'npm run \\', '  build', fence))
    expect(step!.blocks[0]!.action).toEqual({ kind: 'run', commands: ['cd app', 'npm run build'] })
  })

  it.each([
    ['an unknown word', page('## 1', `${fence}sh serve`, 'npm start', fence), /unknown word "serve"/],
    [
      'a code block that says nothing',
      page('## 1', `${fence}ts`, 'const a = 1', fence),
      /one of file=, append= or generated=/,
    ],
    [
      'a file whose first line does not name it',
      page('## 1', `${fence}ts file=src/a.ts`, '// src/b.ts', fence),
      /\/\/ src\/a\.ts/,
    ],
    ['output after no command', page('## 1', `${fence}text output`, 'ok', fence), /must follow a command block/],
    ['two commands in a server block', page('## 1', `${fence}sh server`, 'a', 'b', fence), /one command/],
    ['a block never closed', page('## 1', `${fence}sh`, 'ls'), /never closed/],
  ])('refuses %s, naming its line', (_, markdown, message) => {
    expect(() => tutorialSteps(markdown)).toThrow(message)
  })
})

describe('missingLines', () => {
  const curl = 'HTTP/1.1 201 Created\r\nvary: Origin\r\n\r\n{"id":1,"at":"2026-12-07T12:00:00Z"}\n'

  it('matches each shown line to a printed one: … for anything, spaces loosely, any migration version', () => {
    expect(missingLines('HTTP/1.1 201 Created\n…\n{"id":1,"at":"…"}', curl)).toEqual([])
    expect(missingLines('up   20260101000000 create_notes', 'up       20261207120628 create_notes')).toEqual([])
    expect(missingLines('✓ built in …', '\u001b[32m✓ built in 2.25s\u001b[39m')).toEqual([])
  })

  it('names the shown lines nothing printed', () => {
    expect(missingLines('HTTP/1.1 201 Created\n{"id":2,"at":"…"}', curl)).toEqual(['{"id":2,"at":"…"}'])
    // A line matches whole: a part of a printed line is not enough.
    expect(missingLines('201 Created', curl)).toEqual(['201 Created'])
  })
})
