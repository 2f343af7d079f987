// The component fields of the admin's document form as pure logic: a submitted form read into
// entries, their edits (add, move, remove, bounded by max), and the `data` they write (ids kept,
// new entries without one, empty texts left to defaults or cleared, problems by full path).
import { describe, expect, it } from 'vitest'
import type { ComponentField, ComponentSchema, ContentType } from '../../lib/content-types.js'
import { applyEdit } from '../../lib/admin-ui/components-form/edits.js'
import { entriesFromForm, valueOf } from '../../lib/admin-ui/components-form/state.js'
import { Form } from '../../lib/admin-ui/form.js'

const button: ComponentSchema = { uid: 'shared.button', displayName: 'Button', attributes: { text: { type: 'string', localized: true }, size: { type: 'integer', localized: true } }, relations: {}, components: {} }
const hero: ComponentSchema = { uid: 'blocks.hero', displayName: 'Hero', attributes: { heading: { type: 'string', localized: true } }, relations: {}, components: { ctas: { kind: 'component', localized: true, repeatable: true, components: [button], max: 2 } } }
const links: ComponentField = { kind: 'component', localized: true, repeatable: true, components: [button], max: 3 }
const blocks: ComponentField = { kind: 'dynamiczone', localized: true, repeatable: true, components: [hero, button] }
const type = { uid: 'api::page.page', kind: 'collection', singularName: 'page', pluralName: 'pages', displayName: 'Page', localized: true, draftAndPublish: true, attributes: {}, relations: {}, components: { links, blocks } } as ContentType

const form = (fields: Record<string, string | string[]>) => new Form(fields)
const twoLinks = { 'f.links._n': '2', 'f.links.0._uid': 'shared.button', 'f.links.0._id': '7', 'f.links.0.text': 'One', 'f.links.0.size': '', 'f.links.1._uid': 'shared.button', 'f.links.1.text': 'Two', 'f.links.1.size': '3' }

describe('the component fields of a document form', () => {
  it('writes entries in order, keeping ids, clearing emptied values of kept entries and leaving new ones to defaults', () => {
    const problems = new Map<string, string>()
    const entries = entriesFromForm(form(twoLinks), links, 'links') ?? []
    expect(valueOf(links, entries, 'links', problems)).toEqual([{ id: 7, text: 'One', size: null }, { text: 'Two', size: 3 }])
    expect(problems.size).toBe(0)
  })

  it('names a problem by its full path', () => {
    const problems = new Map<string, string>()
    const entries = entriesFromForm(form({ ...twoLinks, 'f.links.1.size': 'three' }), links, 'links') ?? []
    valueOf(links, entries, 'links', problems)
    expect([...problems]).toEqual([['links.1.size', 'size must be a whole number']])
  })

  it('reads nothing for a field the form did not hold, and drops entries of components the zone does not list', () => {
    expect(entriesFromForm(form({}), links, 'links')).toBeUndefined()
    const entries = entriesFromForm(form({ 'f.blocks._n': '2', 'f.blocks.0._uid': 'blocks.other', 'f.blocks.1._uid': 'blocks.hero', 'f.blocks.1.heading': 'Hi', 'f.blocks.1.ctas._n': '0' }), blocks, 'blocks') ?? []
    expect(valueOf(blocks, entries, 'blocks', new Map())).toEqual([{ __component: 'blocks.hero', heading: 'Hi', ctas: [] }])
  })

  it('moves, removes and adds entries, nested ones too, and says where the focus goes', () => {
    const values = new Map([['links', entriesFromForm(form(twoLinks), links, 'links') ?? []]])
    expect(applyEdit(type, values, 'c-up:links.1', form({}))).toBe('cf-links-0-down')
    expect(values.get('links')?.map((entry) => entry.texts.get('text'))).toEqual(['Two', 'One'])
    expect(applyEdit(type, values, 'c-remove:links.0', form({}))).toBe('cf-links-0-remove')
    expect(values.get('links')?.map((entry) => entry.id)).toEqual([7])
    expect(applyEdit(type, values, 'c-add:links', form({}))).toBe('cf-links-1')

    values.set('blocks', [])
    expect(applyEdit(type, values, 'c-add:blocks', form({ 'f.blocks._add': 'blocks.hero' }))).toBe('cf-blocks-0')
    expect(applyEdit(type, values, 'c-add:blocks.0.ctas', form({}))).toBe('cf-blocks-0-ctas-0')
    expect(values.get('blocks')?.[0]?.nested.get('ctas')).toHaveLength(1)
  })

  it('adds nothing past max, nor a component the zone does not list', () => {
    const values = new Map([['links', entriesFromForm(form(twoLinks), links, 'links') ?? []]])
    applyEdit(type, values, 'c-add:links', form({}))
    expect(applyEdit(type, values, 'c-add:links', form({}))).toBe('cf-links-add')
    expect(values.get('links')).toHaveLength(3)
    values.set('blocks', [])
    expect(applyEdit(type, values, 'c-add:blocks', form({ 'f.blocks._add': 'blocks.nope' }))).toBe('cf-blocks-add')
    expect(values.get('blocks')).toHaveLength(0)
    expect(applyEdit(type, values, 'c-remove:links.9', form({}))).toBeUndefined()
  })
})
