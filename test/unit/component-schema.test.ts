// Component files and the keys real Strapi projects carry (content-model.md §14, §18): read from
// `src/components` beside `src/api` (or COMPONENTS_DIR), nested and resolved, every bad file refused
// with one line naming the file and the key path.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadContentTypes, loadOptionsFromEnv, type LoadOptions } from '../../lib/schema/load.js'
import { SchemaError } from '../../lib/schema/model.js'

const LAUNCHPAD = new URL('../fixtures/launchpad/src/api/', import.meta.url).pathname

/** A Strapi project folder: `src/api/thing/content-types/thing/schema.json` and `src/components/<category>/<name>.json`. */
function project(attributes: Record<string, unknown>, components: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'project-'))
  const typeDir = join(root, 'src', 'api', 'thing', 'content-types', 'thing')
  mkdirSync(typeDir, { recursive: true })
  writeFileSync(join(typeDir, 'schema.json'), JSON.stringify({
    kind: 'collectionType', info: { singularName: 'thing', pluralName: 'things' }, pluginOptions: { i18n: { localized: true } }, attributes, ...extra,
  }))
  for (const [uid, content] of Object.entries(components)) {
    const [category = '', name = ''] = uid.split('.')
    mkdirSync(join(root, 'src', 'components', category), { recursive: true })
    writeFileSync(join(root, 'src', 'components', category, `${name}.json`), typeof content === 'string' ? content : JSON.stringify(content))
  }
  return join(root, 'src', 'api')
}

const component = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ collectionName: 'components_x', info: { displayName: 'X', icon: 'x' }, options: {}, attributes, ...extra })

function problemOf(dir: string, options: LoadOptions = {}): string {
  try {
    loadContentTypes(dir, options)
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaError)
    expect((error as Error).message).not.toContain('\n')
    return (error as Error).message
  }
  throw new Error('the project was accepted')
}

describe('component files', () => {
  it('starts a real Strapi project (LaunchPad) unchanged, media inside its components too', () => {
    const types = loadContentTypes(LAUNCHPAD)
    const page = types.find((type) => type.uid === 'api::page.page')!
    expect(page.components.seo).toMatchObject({ kind: 'component', localized: true, repeatable: false })
    expect(page.components.seo!.components[0]!.uid).toBe('shared.seo')
    const zone = page.components.dynamic_zone!
    expect(zone).toMatchObject({ kind: 'dynamiczone', repeatable: true, localized: true })
    expect(zone.components.map((each) => each.uid)).toContain('dynamic-zone.hero')
    const hero = zone.components.find((each) => each.uid === 'dynamic-zone.hero')!
    expect(hero.components.CTAs).toMatchObject({ kind: 'component', repeatable: true })
    expect(hero.components.CTAs!.components[0]!.attributes.variant).toEqual({ type: 'enumeration', localized: false, enum: ['simple', 'outline', 'primary', 'muted'], default: 'primary' })
    const related = types.find((type) => type.uid === 'api::article.article')!.components.dynamic_zone!.components.find((each) => each.uid === 'dynamic-zone.related-articles')
    expect(related?.relations.articles).toMatchObject({ relation: 'oneToMany', target: 'api::article.article', many: true })
    // Media inside components (content-model.md §19): one-way relations to files, as at top level.
    expect(page.components.seo!.components[0]!.relations.metaImage).toEqual({ relation: 'oneWay', target: 'plugin::upload.file', many: false, media: { allowedTypes: ['images', 'files', 'videos'] } })
    expect(types.find((type) => type.uid === 'api::product.product')!.relations.images).toMatchObject({ target: 'plugin::upload.file', many: true })
  })

  it('starts Strapi 5\'s blog template unchanged: media at top level, inside components and in a zone', () => {
    const types = loadContentTypes(new URL('../fixtures/blog-template/src/api/', import.meta.url).pathname)
    const article = types.find((type) => type.uid === 'api::article.article')!
    const zone = article.components.blocks!
    expect(zone.components.map((each) => each.uid)).toEqual(['shared.media', 'shared.quote', 'shared.rich-text', 'shared.slider'])
    expect(zone.components[3]!.relations.files).toMatchObject({ target: 'plugin::upload.file', many: true, media: { allowedTypes: ['images'] } })
    expect(types.find((type) => type.uid === 'api::global.global')!.components.defaultSeo!.components[0]!.relations.shareImage).toMatchObject({ target: 'plugin::upload.file', many: false })
  })

  it('reads media inside a component (and Strapi\'s morph relation to files) as one-way relations to files', () => {
    const dir = project({ meta: { type: 'component', component: 'shared.a' } }, { 'shared.a': component({ image: { type: 'media', required: true, allowedTypes: ['images'] }, files: { type: 'relation', relation: 'morphMany', target: 'plugin::upload.file', morphBy: 'related' } }) })
    const schema = loadContentTypes(dir)[0]!.components.meta!.components[0]!
    expect(schema.relations.image).toEqual({ relation: 'oneWay', target: 'plugin::upload.file', many: false, media: { allowedTypes: ['images'], required: true } })
    expect(schema.relations.files).toMatchObject({ relation: 'manyWay', target: 'plugin::upload.file', many: true })
  })

  it('reads every attribute type and option inside a component, and nests components', () => {
    const dir = project({ meta: { type: 'component', component: 'shared.meta', required: true } }, {
      'shared.meta': component({ title: { type: 'string', required: true, maxLength: 60 }, views: { type: 'integer', min: 0 }, secret: { type: 'password' }, link: { type: 'component', component: 'shared.link', repeatable: true, min: 1, max: 3 } }),
      'shared.link': component({ url: { type: 'string', regex: '^https?://' }, kind: { type: 'enumeration', enum: ['a', 'b'] } }),
    })
    const [thing] = loadContentTypes(dir)
    const meta = thing!.components.meta!
    expect(meta).toMatchObject({ kind: 'component', repeatable: false, required: true, localized: false })
    const schema = meta.components[0]!
    expect(schema.attributes.title).toEqual({ type: 'string', localized: false, required: true, maxLength: 60 })
    expect(schema.attributes.secret).toMatchObject({ private: true })
    expect(schema.components.link).toMatchObject({ repeatable: true, min: 1, max: 3 })
    expect(schema.components.link!.components[0]!.attributes.kind).toMatchObject({ enum: ['a', 'b'] })
  })

  it('takes the components folder from COMPONENTS_DIR when set', () => {
    const dir = project({ meta: { type: 'component', component: 'shared.meta' } }, { 'shared.meta': component({ title: { type: 'string' } }) })
    const elsewhere = project({}, { 'shared.meta': component({ other: { type: 'string' } }) })
    const options = loadOptionsFromEnv({ COMPONENTS_DIR: join(elsewhere, '..', 'components') })
    const [thing] = loadContentTypes(dir, options)
    expect(Object.keys(thing!.components.meta!.components[0]!.attributes)).toEqual(['other'])
  })

  it.each([
    ['an unknown component uid', project({ meta: { type: 'component', component: 'shared.nope' } }, { 'shared.meta': component({}) }),
      /thing\/schema\.json: attributes\.meta\.component: unknown component 'shared\.nope' \(components: shared\.meta\)/],
    ['an unknown uid in a zone', project({ blocks: { type: 'dynamiczone', components: ['shared.meta', 'blocks.nope'] } }, { 'shared.meta': component({}) }),
      /thing\/schema\.json: attributes\.blocks\.components\.1: unknown component 'blocks\.nope'/],
    ['an unknown nested uid', project({}, { 'shared.meta': component({ inner: { type: 'component', component: 'shared.gone' } }) }),
      /shared\/meta\.json: attributes\.inner\.component: unknown component 'shared\.gone'/],
    ['a cycle of components', project({}, { 'shared.a': component({ b: { type: 'component', component: 'shared.b' } }), 'shared.b': component({ a: { type: 'component', component: 'shared.a', repeatable: true } }) }),
      /shared\/b\.json: attributes\.a\.component: components nest in a cycle: shared\.a → shared\.b → shared\.a/],
    ['a zone inside a component', project({}, { 'shared.a': component({ z: { type: 'dynamiczone', components: ['shared.a'] } }) }),
      /shared\/a\.json: attributes\.z\.type: dynamic zones cannot be nested/],
    ['an unknown key in a component file', project({}, { 'shared.a': component({}, { kind: 'x' }) }), /shared\/a\.json: kind: unknown key/],
    ['an unknown attribute key in a component', project({}, { 'shared.a': component({ title: { type: 'string', maxLenght: 2 } }) }), /shared\/a\.json: attributes\.title\.maxLenght: unknown key/],
    ['an unknown key on a component attribute', project({ meta: { type: 'component', component: 'shared.a', repetable: true } }, { 'shared.a': component({}) }), /thing\/schema\.json: attributes\.meta\.repetable: unknown key/],
    ['min on a single component', project({ meta: { type: 'component', component: 'shared.a', min: 1 } }, { 'shared.a': component({}) }), /attributes\.meta\.min: applies to repeatable components and dynamic zones only/],
    ['min above max', project({ blocks: { type: 'dynamiczone', components: ['shared.a'], min: 3, max: 1 } }, { 'shared.a': component({}) }), /attributes\.blocks\.min: must not be greater than max/],
    ['a two-way relation in a component', project({}, { 'shared.a': component({ owner: { type: 'relation', relation: 'manyToOne', target: 'api::thing.thing', inversedBy: 'x' } }) }), /shared\/a\.json: attributes\.owner: relations inside components are one-way/],
    ['a relation from a component to an unknown type', project({}, { 'shared.a': component({ owner: { type: 'relation', relation: 'oneToOne', target: 'api::nope.nope' } }) }), /shared\/a\.json: attributes\.owner: target 'api::nope\.nope' is not a content type/],
    ['a file that is not JSON', project({}, { 'shared.a': '{ "attributes": ' }), /shared\/a\.json: not valid JSON/],
    ['an unknown media kind inside a component', project({}, { 'shared.a': component({ image: { type: 'media', allowedTypes: ['pictures'] } }) }), /shared\/a\.json: attributes\.image\.allowedTypes\.0: must list some of images, videos, audios, files/],
  ])('refuses %s, naming the file and the key', (_, dir, message) => {
    expect(problemOf(dir)).toMatch(message)
  })
})

describe('keys real projects carry (content-model.md §14)', () => {
  it('accepts and ignores Strapi 4 and plugin keys', () => {
    const dir = project({
      title: { type: 'string', displayName: 'Title', conditions: { visible: { '==': [1, 1] } }, visible: true, pluginOptions: { i18n: { localized: true }, 'content-manager': { visible: false } } },
      owner: { type: 'relation', relation: 'oneWay', target: 'api::thing.thing', useJoinTable: false, displayName: 'Owner' },
    }, {}, { info: { singularName: 'thing', pluralName: 'things', name: 'Thing', icon: 'x' }, options: { increments: true, timestamps: true, reviewWorkflows: false, draftAndPublish: false }, pluginOptions: { i18n: { localized: true }, versions: { versioned: true } } })
    const [thing] = loadContentTypes(dir)
    expect(thing!.attributes.title).toEqual({ type: 'string', localized: true })
  })

  it('serves custom fields as their base type: CKEditor as richtext, color pickers as string, others as configured', () => {
    const dir = project({
      body: { type: 'customField', customField: 'plugin::ckeditor5.CKEditor', options: { preset: 'rich' } },
      colour: { type: 'customField', customField: 'plugin::color-picker.color', regex: '^#[0-9a-f]{6}$' },
      rating: { type: 'customField', customField: 'plugin::stars.rating', min: 0 },
    })
    const [thing] = loadContentTypes(dir, { customFields: { 'plugin::stars.rating': 'integer' } })
    expect(thing!.attributes.body).toEqual({ type: 'richtext', localized: false })
    expect(thing!.attributes.colour).toEqual({ type: 'string', localized: false, regex: '^#[0-9a-f]{6}$' })
    expect(thing!.attributes.rating).toEqual({ type: 'integer', localized: false, min: 0 })
  })

  it('stops on an unknown custom field, naming the key to set', () => {
    const dir = project({ rating: { type: 'customField', customField: 'plugin::stars.rating' } })
    expect(problemOf(dir)).toMatch(/thing\/schema\.json: attributes\.rating\.customField: unknown custom field 'plugin::stars\.rating': set customFields: \{ "plugin::stars\.rating": "<base type>" \}/)
  })

  it('reads CUSTOM_FIELDS as a JSON object, and refuses anything else naming the variable', () => {
    expect(loadOptionsFromEnv({ CUSTOM_FIELDS: '{"plugin::a.b":"string"}' }).customFields).toEqual({ 'plugin::a.b': 'string' })
    expect(() => loadOptionsFromEnv({ CUSTOM_FIELDS: '["x"]' })).toThrow(/^CUSTOM_FIELDS: must be a JSON object/)
  })

  it('accepts an attribute named status, warning at start-up when the type has draft & publish', () => {
    const warnings: string[] = []
    const plain = project({ status: { type: 'string' } })
    expect(loadContentTypes(plain, { warn: (message) => warnings.push(message) })[0]!.attributes.status).toEqual({ type: 'string', localized: false })
    expect(warnings).toEqual([])
    const drafts = project({ status: { type: 'enumeration', enum: ['a', 'b'] } }, {}, { options: { draftAndPublish: true } })
    loadContentTypes(drafts, { warn: (message) => warnings.push(message) })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/thing\/schema\.json: attributes\.status: .*the query parameter status still selects drafts/)
  })
})
