// The bundles' stand-in for `side-channel` (functions/side-channel.cjs): qs built with it, as the
// Lambda bundles are, parses and stringifies exactly as qs with the package's own.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import qs from 'qs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ESBUILD_OPTIONS } from '../../infra/content-api-stack.js'

const dir = mkdtempSync(join(tmpdir(), 'side-channel-shim-'))
let shimmed: typeof qs
let inputs: string[] = []

beforeAll(async () => {
  const entry = join(dir, 'entry.cjs')
  writeFileSync(entry, "module.exports = require('qs')")
  const outfile = join(dir, 'qs.cjs')
  const { metafile } = await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'cjs', alias: ESBUILD_OPTIONS.alias, nodePaths: [join(import.meta.dirname, '../../node_modules')], logLevel: 'silent', metafile: true })
  inputs = Object.keys(metafile.inputs)
  shimmed = createRequire(import.meta.url)(outfile) as typeof qs
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

// As lib/query/parse.ts parses, and its tolerant second pass.
const OPTIONS = { depth: 20, strictDepth: true, arrayLimit: 100, parameterLimit: 1000, plainObjects: true, allowPrototypes: false, allowDots: false, comma: false, throwOnLimitExceeded: true }
const outcome = (parse: () => unknown) => {
  try {
    return { value: parse() }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

describe('qs with the side-channel shim', () => {
  it('is built with the shim, without the package side-channel', () => {
    expect(inputs.some((input) => input.endsWith('functions/side-channel.cjs'))).toBe(true)
    expect(inputs.filter((input) => /node_modules\/(side-channel|object-inspect|get-intrinsic)\//.test(input))).toEqual([])
  })

  it.each([
    'filters[title][$eq]=a&sort[0]=title:asc&sort[1]=id:desc',
    'filters[$or][0][title][$containsi]=x&filters[$or][1][views][$gt]=3&filters[$and][0][$not][slug][$null]=true',
    'a[]=1&a[]=2&a[5]=3&a[1]=x',
    `a=${Array.from({ length: 150 }, (_, i) => i).join('&a=')}`,
    `${Array.from({ length: 120 }, (_, i) => `f[${i}]=${i}`).join('&')}`,
    'a[b][c][d][e][f][g][h][i][j][k][l][m][n][o][p][q][r][s][t][u][v][w]=deep',
    '__proto__[x]=1&constructor[prototype][y]=2&a[__proto__][z]=3',
    'a=1&a=2&b[c]=3&b[c]=4&b=5',
  ])('parses %s as qs does', (search) => {
    for (const options of [OPTIONS, { ...OPTIONS, arrayLimit: OPTIONS.parameterLimit, throwOnLimitExceeded: false }]) {
      expect(outcome(() => shimmed.parse(search, options))).toEqual(outcome(() => qs.parse(search, options)))
    }
  })

  it('stringifies as qs does, and still refuses a cyclic object', () => {
    const value = { a: [1, { b: 'c' }], d: { e: { f: null } }, g: '' }
    expect(shimmed.stringify(value)).toBe(qs.stringify(value))
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    expect(outcome(() => shimmed.stringify(cyclic))).toEqual(outcome(() => qs.stringify(cyclic)))
  })
})
