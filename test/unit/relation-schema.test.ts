// Relation attributes in schema files (content-model.md §16, §17): the shipped examples declare the
// relations of §17, both sides of each pair agree, and a relation to an unknown type or with a
// mismatched inverse stops loading with one line naming the file and the attribute.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CONTENT_TYPES_DIR, loadContentTypes } from '../../lib/schema/load.js'
import { SchemaError } from '../../lib/schema/model.js'

/** A folder holding one `<name>/schema.json` per entry. */
function folderOf(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'relation-schemas-'))
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name), { recursive: true })
    writeFileSync(join(dir, name, 'schema.json'), JSON.stringify(content))
  }
  return dir
}

/** A localized collection type `name` (plural `<name>s`) with a title and `attributes`. */
const collection = (name: string, attributes: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  info: { singularName: name, pluralName: `${name}s`, displayName: name },
  pluginOptions: { i18n: { localized: true } },
  attributes: { title: { type: 'string' }, ...attributes },
})

const relation = (kind: string, target: string, side: Record<string, string> = {}) => ({ type: 'relation', relation: kind, target, ...side })

/** The SchemaError message loading `files` gives. */
function problemOf(files: Record<string, unknown>): string {
  try {
    loadContentTypes(folderOf(files))
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaError)
    return (error as Error).message
  }
  throw new Error('the schemas were accepted')
}

/** The attributes of a shipped schema file, as written. */
const shippedAttributes = (name: string) =>
  (JSON.parse(readFileSync(join(DEFAULT_CONTENT_TYPES_DIR, name, 'schema.json'), 'utf8')) as { attributes: Record<string, Record<string, unknown>> }).attributes

describe('the shipped relations (§17)', () => {
  it('declares article.author, article.tags, author.articles, tag.articles and homepage.featured', () => {
    expect(shippedAttributes('article').author).toMatchObject({ type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' })
    expect(shippedAttributes('article').tags).toMatchObject({ type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' })
    expect(shippedAttributes('author').articles).toMatchObject({ type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' })
    expect(shippedAttributes('tag').articles).toMatchObject({ type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' })
    const featured = shippedAttributes('homepage').featured
    expect(featured).toMatchObject({ type: 'relation', relation: 'manyToMany', target: 'api::article.article' })
    expect(featured).not.toHaveProperty('inversedBy')
    expect(featured).not.toHaveProperty('mappedBy')
  })

  it('keeps the §9 and §17 scalar attributes of every shipped type', () => {
    expect(Object.keys(shippedAttributes('article'))).toEqual(expect.arrayContaining(['title', 'body', 'slug', 'views', 'category', 'author', 'tags']))
    expect(Object.keys(shippedAttributes('author'))).toEqual(expect.arrayContaining(['name', 'email', 'articles']))
    expect(Object.keys(shippedAttributes('tag'))).toEqual(expect.arrayContaining(['name', 'slug', 'articles']))
    expect(Object.keys(shippedAttributes('homepage'))).toEqual(expect.arrayContaining(['title', 'tagline', 'featured']))
  })

  it('loads them', () => {
    expect(loadContentTypes().map((type) => type.uid)).toEqual(['api::article.article', 'api::author.author', 'api::homepage.homepage', 'api::tag.tag'])
  })
})

describe('relation attributes in schema files', () => {
  it('accepts every kind, with an inverse and one way, and a type relating to itself', () => {
    const types = loadContentTypes(folderOf({
      person: collection('person', {
        passport: relation('oneToOne', 'api::passport.passport', { inversedBy: 'holder' }),
        pets: relation('oneToMany', 'api::pet.pet', { mappedBy: 'owner' }),
        clubs: relation('manyToMany', 'api::club.club', { inversedBy: 'members' }),
        friends: relation('manyToMany', 'api::person.person'),
        badge: relation('oneToOne', 'api::pet.pet'),
        mentor: relation('oneWay', 'api::person.person'),
        likes: relation('manyWay', 'api::pet.pet'),
      }),
      passport: collection('passport', { holder: relation('oneToOne', 'api::person.person', { mappedBy: 'passport' }) }),
      pet: collection('pet', { owner: relation('manyToOne', 'api::person.person', { inversedBy: 'pets' }) }),
      club: collection('club', { members: relation('manyToMany', 'api::person.person', { mappedBy: 'clubs' }) }),
    }))
    expect(types.map((type) => type.uid).sort()).toEqual(['api::club.club', 'api::passport.passport', 'api::person.person', 'api::pet.pet'])
  })

  it.each([
    ['a target that is no type', { thing: collection('thing', { owner: relation('manyToOne', 'api::nope.nope') }) }, 'thing', 'owner'],
    ['a target in another api', { thing: collection('thing', { owner: relation('manyToOne', 'api::other.thing') }) }, 'thing', 'owner'],
  ])('stops on %s, naming the file and the attribute in one line', (_, files, file, attribute) => {
    const message = problemOf(files)
    expect(message).toMatch(new RegExp(`${file}/schema\\.json`))
    expect(message).toMatch(new RegExp(`\\b${attribute}\\b`))
    expect(message).not.toMatch(/relation attributes are not supported/)
    expect(message).not.toContain('\n')
  })

  it.each([
    ['inversedBy naming no attribute of the target', {
      thing: collection('thing', { owner: relation('manyToOne', 'api::person.person', { inversedBy: 'things' }) }),
      person: collection('person'),
    }],
    ['mappedBy naming no attribute of the target', {
      thing: collection('thing'),
      person: collection('person', { things: relation('oneToMany', 'api::thing.thing', { mappedBy: 'owner' }) }),
    }],
    ['inversedBy naming a scalar attribute of the target', {
      thing: collection('thing', { owner: relation('manyToOne', 'api::person.person', { inversedBy: 'title' }) }),
      person: collection('person'),
    }],
    ['an inverse pointing at another type', {
      thing: collection('thing', { owner: relation('manyToOne', 'api::person.person', { inversedBy: 'things' }) }),
      person: collection('person', { things: relation('oneToMany', 'api::club.club', { mappedBy: 'owner' }) }),
      club: collection('club', { owner: relation('manyToOne', 'api::person.person') }),
    }],
    ['an inverse naming another attribute back', {
      thing: collection('thing', { owner: relation('manyToOne', 'api::person.person', { inversedBy: 'things' }), keeper: relation('manyToOne', 'api::person.person') }),
      person: collection('person', { things: relation('oneToMany', 'api::thing.thing', { mappedBy: 'keeper' }) }),
    }],
    ['both sides inversedBy', {
      thing: collection('thing', { owner: relation('manyToOne', 'api::person.person', { inversedBy: 'things' }) }),
      person: collection('person', { things: relation('oneToMany', 'api::thing.thing', { inversedBy: 'owner' }) }),
    }],
    ['kinds that do not mirror (manyToOne against manyToMany)', {
      thing: collection('thing', { owner: relation('manyToOne', 'api::person.person', { inversedBy: 'things' }) }),
      person: collection('person', { things: relation('manyToMany', 'api::thing.thing', { mappedBy: 'owner' }) }),
    }],
    ['an owning side without its inverse declared', {
      thing: collection('thing', { owner: relation('oneToOne', 'api::person.person', { inversedBy: 'item' }) }),
      person: collection('person', { item: relation('oneToOne', 'api::thing.thing') }),
    }],
  ])('stops on a mismatched inverse: %s, naming the file and the attribute in one line', (_, files) => {
    const message = problemOf(files)
    expect(message).toMatch(/(thing|person)\/schema\.json/)
    expect(message).toMatch(/\b(owner|things|item|keeper|title)\b/)
    expect(message).not.toMatch(/relation attributes are not supported/)
    expect(message).not.toContain('\n')
  })

  it.each([
    ['an unknown relation kind', relation('oneToFew', 'api::thing.thing')],
    ['no target', { type: 'relation', relation: 'manyToOne' }],
    ['both inversedBy and mappedBy', relation('manyToOne', 'api::thing.thing', { inversedBy: 'a', mappedBy: 'b' })],
  ])('stops on %s, naming the file and the attribute', (_, attribute) => {
    const message = problemOf({ thing: collection('thing', { broken: attribute }) })
    expect(message).toMatch(/thing\/schema\.json/)
    expect(message).toMatch(/broken/)
  })
})
