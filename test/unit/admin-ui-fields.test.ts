import { describe, expect, it } from 'vitest'
import { readData } from '../../lib/admin-ui/fields.js'
import { Form } from '../../lib/admin-ui/form.js'
import type { ContentType } from '../../lib/content-types.js'

/** A type with one attribute of each kind the forms edit (none of the shipped types has them all). */
const type = {
  uid: 'api::sample.sample',
  kind: 'collection',
  singularName: 'sample',
  pluralName: 'samples',
  attributes: {
    name: { type: 'string', localized: true },
    count: { type: 'integer', localized: false },
    ratio: { type: 'float', localized: true },
    big: { type: 'biginteger', localized: true },
    flag: { type: 'boolean', localized: true },
    kind: { type: 'enumeration', localized: true, enum: ['a', 'b'] },
    at: { type: 'datetime', localized: true },
    meta: { type: 'json', localized: true },
    body: { type: 'blocks', localized: true },
  },
} as unknown as ContentType

const form = (fields: Record<string, string>) => new Form(Object.fromEntries(Object.entries(fields).map(([name, value]) => [`f.${name}`, value])))

describe('readData: a submitted form as the data of an API write', () => {
  it('reads each input as its attribute type', () => {
    const { data, problems } = readData(type, form({ name: 'N', count: '3', ratio: '0.5', big: '12345678901234567', flag: 'true', kind: 'b', at: '2026-11-25T10:00:00', meta: '{"a":[1]}', body: '[]' }), 'update')
    expect(problems.size).toBe(0)
    expect(data).toEqual({ name: 'N', count: 3, ratio: 0.5, big: '12345678901234567', flag: true, kind: 'b', at: '2026-11-25T10:00:00Z', meta: { a: [1] }, body: [] })
  })

  it('clears empty fields on an update, leaves them unset on a create, and reads an unchecked box as false', () => {
    expect(readData(type, form({ name: '', count: '' }), 'update').data).toEqual({ name: null, count: null, flag: false })
    expect(readData(type, form({ name: '', count: '' }), 'create').data).toEqual({ flag: false })
  })

  it('leaves shared attributes out of a new localization, which inherits them', () => {
    expect(readData(type, form({ name: 'Nom', count: '9' }), 'localization').data).toEqual({ name: 'Nom', flag: false })
  })

  it('names the fields it cannot read, before any API call', () => {
    const { problems } = readData(type, form({ count: '1.5', ratio: 'x', meta: '{nope' }), 'update')
    expect(problems.get('count')).toBe('count must be a whole number')
    expect(problems.get('ratio')).toBe('ratio must be a number')
    expect(problems.get('meta')).toMatch(/^meta is not valid JSON: /)
  })
})
