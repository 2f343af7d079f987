// Schema files (content-model.md §14): both layouts read as Strapi writes them, every option
// normalized, and every bad file refused with one line naming the file and the key path.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadContentTypes } from '../../lib/schema/load.js'
import { SchemaError } from '../../lib/schema/model.js'

const FIXTURE = new URL('../fixtures/strapi-project/src/api/', import.meta.url).pathname

/** A folder holding one `<name>/schema.json` per entry. */
function folderOf(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'schemas-'))
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name), { recursive: true })
    writeFileSync(join(dir, name, 'schema.json'), typeof content === 'string' ? content : JSON.stringify(content))
  }
  return dir
}

const valid = (attributes: Record<string, unknown> = { title: { type: 'string' } }, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' },
  pluginOptions: { i18n: { localized: true } },
  attributes,
  ...extra,
})

/** The SchemaError message loading `schema` gives (as thing/schema.json). */
function problemOf(schema: unknown): string {
  try {
    loadContentTypes(folderOf({ thing: schema }))
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaError)
    return (error as Error).message
  }
  throw new Error('the schema was accepted')
}

describe('loading schema files', () => {
  it('reads a Strapi src/api tree as it is, naming each type api::<api>.<name>', () => {
    const types = loadContentTypes(FIXTURE)
    expect(types.map((type) => type.uid)).toEqual(['api::note.note', 'api::shop.product'])
    const product = types[1]!
    expect(product).toMatchObject({ kind: 'collection', singularName: 'product', pluralName: 'products', displayName: 'Product', localized: true, draftAndPublish: false })
    expect(product.attributes.name).toEqual({ type: 'string', localized: true, required: true, minLength: 2, maxLength: 40 })
    expect(product.attributes.sku).toEqual({ type: 'string', localized: false, unique: true, regex: '^[A-Z]{3}-\\d{3}$' })
    expect(product.attributes.stock).toEqual({ type: 'integer', localized: false, min: 0, max: 10000, default: 0 })
    expect(product.attributes.secret).toMatchObject({ type: 'password', private: true, minLength: 8 })
    expect(product.attributes.internalCode).toMatchObject({ writable: false, default: 'N/A' })
    expect(product.attributes.notes).toMatchObject({ searchable: false })
    expect(product.attributes.slug).toEqual({ type: 'uid', localized: true, targetField: 'name' })
  })

  it('makes every attribute of a type without i18n non-localized', () => {
    const note = loadContentTypes(FIXTURE)[0]!
    expect(note.localized).toBe(false)
    expect(Object.values(note.attributes).map((attribute) => attribute.localized)).toEqual([false, false])
  })

  it('reads the flat layout <dir>/<name>/schema.json with the folder name as api and name', () => {
    const [type] = loadContentTypes(folderOf({ thing: valid() }))
    expect(type?.uid).toBe('api::thing.thing')
  })

  it('ships the example types of content-model.md §17 with their relations', () => {
    const types = loadContentTypes()
    expect(types.map((type) => type.uid)).toEqual(['api::article.article', 'api::author.author', 'api::homepage.homepage', 'api::tag.tag'])
    const [article, author, homepage, tag] = types
    expect(article?.draftAndPublish).toBe(true)
    expect(homepage).toMatchObject({ kind: 'single', draftAndPublish: true })
    expect(Object.fromEntries(Object.entries(article!.attributes).map(([name, a]) => [name, [a.type, a.localized]]))).toEqual({
      title: ['string', true], body: ['blocks', true], slug: ['string', true], views: ['integer', false], category: ['string', false],
    })
    expect(author?.attributes).toEqual({
      name: { type: 'string', localized: true, required: true },
      email: { type: 'email', localized: false, unique: true, private: true },
    })
    expect(tag?.attributes.slug).toEqual({ type: 'uid', localized: false, unique: true, targetField: 'name' })
    expect(article?.relations).toEqual({
      author: { relation: 'manyToOne', target: 'api::author.author', many: false, inversedBy: 'articles' },
      tags: { relation: 'manyToMany', target: 'api::tag.tag', many: true, inversedBy: 'articles' },
    })
    expect(author?.relations).toEqual({ articles: { relation: 'oneToMany', target: 'api::article.article', many: true, mappedBy: 'author' } })
    expect(tag?.relations).toEqual({ articles: { relation: 'manyToMany', target: 'api::article.article', many: true, mappedBy: 'tags' } })
    expect(homepage?.relations).toEqual({ featured: { relation: 'manyToMany', target: 'api::article.article', many: true } })
  })
})

describe('relation attributes (content-model.md §16)', () => {
  const person = (attributes: Record<string, unknown>) => ({ ...valid(attributes), info: { singularName: 'person', pluralName: 'people' } })
  const refusal = (files: Record<string, unknown>) => {
    try {
      loadContentTypes(folderOf(files))
    } catch (error) {
      expect(error).toBeInstanceOf(SchemaError)
      return (error as Error).message
    }
    throw new Error('the schema was accepted')
  }

  it('reads every kind, one way and two ways, with the many flag of each side', () => {
    const types = loadContentTypes(folderOf({
      thing: valid({
        owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person', inversedBy: 'things' },
        best: { type: 'relation', relation: 'oneToOne', target: 'api::person.person', inversedBy: 'favourite' },
        watchers: { type: 'relation', relation: 'manyWay', target: 'api::person.person' },
        creator: { type: 'relation', relation: 'oneWay', target: 'api::person.person', private: true },
      }),
      person: person({
        things: { type: 'relation', relation: 'oneToMany', target: 'api::thing.thing', mappedBy: 'owner' },
        favourite: { type: 'relation', relation: 'oneToOne', target: 'api::thing.thing', mappedBy: 'best' },
      }),
    }))
    const thing = types.find((type) => type.singularName === 'thing')!
    expect(thing.relations.owner).toEqual({ relation: 'manyToOne', target: 'api::person.person', many: false, inversedBy: 'things' })
    expect(thing.relations.watchers).toEqual({ relation: 'manyWay', target: 'api::person.person', many: true })
    expect(thing.relations.creator).toEqual({ relation: 'oneWay', target: 'api::person.person', many: false, private: true })
    expect(thing.attributes).toEqual({})
  })

  it.each([
    ['a target that is not a type', { thing: valid({ owner: { type: 'relation', relation: 'manyToOne', target: 'api::nobody.nobody' } }) }, /thing\/schema\.json: attributes\.owner: target 'api::nobody\.nobody' is not a content type/],
    ['an inverse missing on the target', { thing: valid({ owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person', inversedBy: 'things' } }), person: person({}) }, /thing\/schema\.json: attributes\.owner: inversedBy 'things' is not a relation attribute of api::person\.person/],
    ['an inverse naming another attribute', {
      thing: valid({ owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person', inversedBy: 'things' } }),
      person: person({ things: { type: 'relation', relation: 'oneToMany', target: 'api::thing.thing', mappedBy: 'other' } }),
    }, /attributes\.(owner|things): (inversedBy|mappedBy) '(things|owner|other)' (does not match|is not a relation)/],
    ['kinds that do not pair', {
      thing: valid({ owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person', inversedBy: 'things' } }),
      person: person({ things: { type: 'relation', relation: 'manyToMany', target: 'api::thing.thing', mappedBy: 'owner' } }),
    }, /relation '(manyToOne|manyToMany)' does not match/],
    ['an unknown kind', { thing: valid({ owner: { type: 'relation', relation: 'manyToSome', target: 'api::thing.thing' } }) }, /attributes\.owner\.relation: must be one of/],
    ['a one-way relation with an inverse', { thing: valid({ owner: { type: 'relation', relation: 'oneWay', target: 'api::thing.thing', inversedBy: 'x' } }) }, /attributes\.owner\.relation: 'oneWay' has no inverse/],
    ['an unknown key', { thing: valid({ owner: { type: 'relation', relation: 'oneWay', target: 'api::thing.thing', required: true } }) }, /attributes\.owner\.required: unknown key/],
  ])('stops start-up on %s, naming the file and the attribute', (_, files, message) => {
    expect(refusal(files)).toMatch(message)
  })
})

describe('refusing a bad schema file with one line naming the file and the key path', () => {
  it.each([
    ['a component no components folder declares', valid({ seo: { type: 'component', component: 'shared.seo' } }), /thing\/schema\.json: attributes\.seo\.component: unknown component 'shared\.seo' \(components: none found in /],
    ['a dynamic zone listing no component', valid({ blocks: { type: 'dynamiczone', components: [] } }), /attributes\.blocks\.components: must list at least one component/],
    ['a media attribute allowing an unknown kind of file', valid({ cover: { type: 'media', allowedTypes: ['pictures'] } }), /attributes\.cover\.allowedTypes\.0: must list some of images, videos, audios, files/],
    ['a media attribute with an unknown key', valid({ cover: { type: 'media', multipel: true } }), /attributes\.cover\.multipel: unknown key/],
    ['a morph relation to another type than files', valid({ related: { type: 'relation', relation: 'morphMany', target: 'api::thing.thing' } }), /attributes\.related\.relation: must be one of/],
    ['an unknown attribute type', valid({ x: { type: 'colour' } }), /attributes\.x\.type: unknown attribute type 'colour'/],
    ['an unknown attribute key', valid({ title: { type: 'string', maxLenght: 3 } }), /attributes\.title\.maxLenght: unknown key/],
    ['an unknown top-level key', valid(undefined, { kinds: 'x' }), /thing\/schema\.json: kinds: unknown key/],
    ['an unknown info key', { ...valid(), info: { singularName: 'thing', pluralName: 'things', plural: 'x' } }, /info\.plural: unknown key/],
    ['an unknown plugin option', valid({ title: { type: 'string', pluginOptions: { i18n: { localised: true } } } }), /attributes\.title\.pluginOptions\.i18n\.localised: unknown key/],
    ['a wrong kind', { ...valid(), kind: 'collection' }, /kind: must be 'collectionType' or 'singleType'/],
    ['a missing info', { kind: 'collectionType', attributes: {} }, /info: is required/],
    ['a plural name that is not kebab-case', { ...valid(), info: { singularName: 'thing', pluralName: 'Things' } }, /info\.pluralName: must be lower-case kebab-case/],
    ['an option of another type', valid({ views: { type: 'integer', maxLength: 3 } }), /attributes\.views\.maxLength: unknown key/],
    ['an enumeration without values', valid({ size: { type: 'enumeration' } }), /attributes\.size\.enum/],
    ['a default of the wrong type', valid({ views: { type: 'integer', default: 'many' } }), /attributes\.views\.default: is not a valid value: must be a `number` type/],
    ['a default outside the bounds', valid({ views: { type: 'integer', min: 1, default: 0 } }), /attributes\.views\.default: is not a valid value: must be greater than or equal to 1/],
    ['min above max', valid({ views: { type: 'integer', min: 5, max: 1 } }), /attributes\.views\.min: must not be greater than max/],
    ['a regex that does not compile', valid({ code: { type: 'string', regex: '([a-z' } }), /attributes\.code\.regex: is not a valid regular expression/],
    ['a targetField naming no text attribute', valid({ slug: { type: 'uid', targetField: 'nope' } }), /attributes\.slug\.targetField: must name a text attribute/],
    ['a reserved attribute name', valid({ documentId: { type: 'string' } }), /attributes\.documentId: 'documentId' is a reserved name/],
    ['a storage key as attribute name', valid({ k3: { type: 'string' } }), /attributes\.k3: 'k3' is a reserved name/],
    ['unique on a json attribute', valid({ data: { type: 'json', unique: true } }), /attributes\.data\.unique: unique is not supported on json/],
    ['a route the API keeps', { ...valid(), info: { singularName: 'thing', pluralName: 'i18n' } }, /info\.pluralName: 'i18n' is a route the API keeps/],
    ['a file that is not JSON', '{ "kind": ', /thing\/schema\.json: not valid JSON/],
  ])('refuses %s', (_, schema, message) => {
    const problem = problemOf(schema)
    expect(problem).toMatch(message)
    expect(problem).not.toContain('\n')
  })

  it('refuses two types sharing a route name', () => {
    const dir = folderOf({ thing: valid(), other: { ...valid(), info: { singularName: 'other', pluralName: 'things' } } })
    expect(() => loadContentTypes(dir)).toThrow(/info: the name 'things' is already used by/)
  })

  it('refuses a folder that does not exist or holds no schema file, naming it', () => {
    expect(() => loadContentTypes('/no/such/folder')).toThrow(/\/no\/such\/folder: the content types folder does not exist/)
    expect(() => loadContentTypes(mkdtempSync(join(tmpdir(), 'empty-')))).toThrow(/no schema\.json found/)
  })
})
