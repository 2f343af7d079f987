// Derived uids under parallel creates (issue 33, point 1): a `uid` the client did not send never
// fails as not unique. Each round, writers on as many processes (Lambda instances) on one table
// create tags whose names slugify to a few shared bases; a barrier holds every create's transaction
// until all have read the same free values, so every round's writers claim the same slugs at once.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPeer, createTestContext, holdWrites, json, type TestContext } from '../support/context.js'
import { rounds } from '../support/rounds.js'

type Doc = Record<string, any>

/** Names that slugify to the same base: `Solo <tag>` in several spellings. */
const spellings = (tag: string) => [`Solo ${tag}`, `solo-${tag}`, `SOLO ${tag}!`, `  Solo   ${tag} `, `Sólo ${tag}`]

describe('derived uids under parallel creates', () => {
  const WRITERS = 8
  let ctx: TestContext
  let key: string
  let processes: Pick<TestContext, 'request'>[]

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    processes = [ctx, ...Array.from({ length: WRITERS - 1 }, () => createPeer(ctx))]
  })
  afterEach(() => {
    ctx.db.middlewareStack.remove('barrier')
  })

  /** Holds every write that claims a tag slug until `count` have arrived. */
  const barrier = (count: number) => holdWrites(ctx, 'api::tag.tag#slug#', count)

  it.each(Array.from({ length: rounds(6) }, (_, round) => round))('gives every writer a 200 and a distinct slug, round %i', async (round) => {
    // Prepare: two or three bases, one of them already held by a document.
    const bases = Array.from({ length: 2 + (round % 2) }, (_, i) => `${round}-${i}-${Math.random().toString(36).slice(2, 7)}`)
    const held = await ctx.request('POST', '/api/tags', { token: key, body: { data: { name: `Solo ${bases[0]}` } } })
    expect(held.status).toBe(200)
    const names = Array.from({ length: WRITERS }, () => {
      const base = bases[Math.floor(Math.random() * bases.length)]!
      const options = spellings(base)
      return options[Math.floor(Math.random() * options.length)]!
    })
    // Act
    barrier(WRITERS)
    const responses = await Promise.all(names.map((name, i) => processes[i]!.request('POST', '/api/tags', { token: key, body: { data: { name } } })))
    // Assess
    const bodies: Doc[] = await Promise.all(responses.map((response) => json(response)))
    expect(responses.map((response, i) => ({ status: response.status, error: bodies[i]?.error?.message }))).toEqual(names.map(() => ({ status: 200, error: undefined })))
    const slugs = [(await json(held)).data.slug, ...bodies.map((body) => body.data.slug)]
    expect(new Set(slugs).size).toBe(slugs.length)
    for (const [i, body] of bodies.entries()) {
      const base = `solo-${bases.find((entry) => spellings(entry).includes(names[i]!))}`
      expect(body.data.slug).toMatch(new RegExp(`^${base}(-\\d+)?$`))
    }
    const listed = await json(await ctx.request('GET', `/api/tags?filters[slug][$startsWith]=solo-${round}-&pagination[pageSize]=100`))
    expect(listed.data.map((doc: Doc) => doc.slug).sort()).toEqual([...slugs].sort())
  })

  it('still refuses a slug the client sent when a parallel create took it: one 200, the others 400', async () => {
    const slug = `sent-${Math.random().toString(36).slice(2, 7)}`
    barrier(4)
    const responses = await Promise.all(processes.slice(0, 4).map((process, i) => process.request('POST', '/api/tags', { token: key, body: { data: { name: `Sent ${i}`, slug } } })))
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400, 400])
    for (const response of responses.filter((entry) => entry.status === 400)) {
      expect((await json(response)).error).toMatchObject({ message: 'This attribute must be unique', details: { errors: [{ path: ['slug'] }] } })
    }
  })
})
