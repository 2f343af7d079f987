// No module imports itself through others (issue 20: bench/scenarios.ts and bench/filter-scenarios.ts
// imported each other). A cycle makes load order matter: a value read at import time is undefined
// on one side. Relative imports of lib/ and bench/, type-only imports included (they are the start of one).
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    // bench/results/ holds outputs and, once installed, a copy of the Strapi peer: not our sources.
    .filter((name) => name.endsWith('.ts') && !name.startsWith('results/') && !name.includes('node_modules'))
    .map((name) => join(ROOT, folder, name))
}

/** The relative imports of a file, as absolute .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^(?:import|export)[^'"]*from\s+'(\.[^']+)'/gm)].map((match) => resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')))
}

/** Every cycle found by a depth-first walk, each as the files along it. */
function cycles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]))
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const walk = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return
    if (state.get(file) === 'open') {
      found.push([...path.slice(path.indexOf(file)), file].map((entry) => relative(ROOT, entry)))
      return
    }
    state.set(file, 'open')
    for (const next of graph.get(file) ?? []) walk(next, [...path, file])
    state.set(file, 'done')
  }
  for (const file of files) walk(file, [])
  return found
}

/** The imports of `file` (relative ones as paths from the root, packages as named) that `refused` matches. */
function refusedImports(file: string, refused: RegExp): string[] {
  const text = readFileSync(file, 'utf8')
  const named = [...text.matchAll(/^(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map((match) => match[1]!)
  return named.map((name) => (name.startsWith('.') ? relative(ROOT, resolve(dirname(file), name.replace(/\.js$/, '.ts'))) : name)).filter((name) => refused.test(name))
}

/** What the document operations and the answer builder may not import: HTTP (Hono, the apps, lib/http.ts, lib/delivery/). */
const HTTP = /^(hono(\/|$)|lib\/(http|content-app|admin-app|server-app)\.ts$|lib\/(delivery|admin-ui)\/)/

describe('imports', () => {
  it.each(['lib', 'bench'])('has no import cycle in %s/', (folder) => {
    expect(cycles(sources(folder))).toEqual([])
  })

  // The operations are called by the routes, the admin interface, importers and webhook payloads alike (issue 32).
  it.each(['lib/operations', 'lib/answers'])('keeps %s/ free of HTTP', (folder) => {
    const found = sources(folder).flatMap((file) => refusedImports(file, HTTP).map((name) => `${relative(ROOT, file)} imports ${name}`))
    expect(found).toEqual([])
  })
})
