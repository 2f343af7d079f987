// Sorting by a to-one relation's field (`sort=author.name`, content-model.md §16): no index holds
// a source's order by its target's values, so every match is read (within api.rest.maxScan, a 400
// before reading past it), its targets read in batched key reads, and the page cut in memory.
import { typeByUid, type ContentType } from '../content-types.js'
import { targetOf } from './targets.js'
import { componentValueAt, sortComparator, type SortEntry } from '../query/sort.js'
import { overBudget, type ListRequest, type ListResult } from '../storage/lists/reader.js'
import type { Validator } from '../storage/lists/validator.js'
import { versionValues } from '../storage/items.js'
import { readTargets, type PopulateContext } from './populate.js'

/** A page of `type` ordered by `request.sort`, some of whose entries go through relations. */
export async function sortedThroughRelations(ctx: Pick<PopulateContext, 'services' | 'status' | 'fallback' | 'read'>, type: ContentType, request: ListRequest, validator: Validator, locale: string): Promise<ListResult> {
  const { lists, config } = ctx.services
  const maxScan = config.rest.maxScan
  if (request.filter === undefined && (await validator.get()).total > maxScan) throw overBudget(maxScan)
  const all = await lists.list(type, { ...request, sort: [], offset: 0, limit: maxScan }, validator)
  if (all.total > all.versions.length) throw overBudget(maxScan)
  const typeOf = (uid: string) => typeByUid(ctx.services.types, uid) as ContentType
  const values = all.versions.map((version) => ({ version, values: versionValues(version) as Record<string, unknown> }))
  // Through components: the version's own values.
  for (const entry of request.sort) {
    if (!Object.hasOwn(type.components, entry.field.split('.')[0] as string)) continue
    for (const each of values) each.values[entry.field] = componentValueAt(each.version.attributes, entry.field)
  }
  for (const name of new Set(request.sort.filter((entry) => entry.field.includes('.')).map((entry) => entry.field.split('.')[0] as string))) {
    if (Object.hasOwn(type.components, name)) continue
    const target = targetOf(ctx.services, type, name)
    const byLocale = new Map<string, typeof values>()
    for (const each of values) byLocale.set(each.version.locale, [...(byLocale.get(each.version.locale) ?? []), each])
    for (const [code, group] of byLocale) {
      const targets = await readTargets(ctx, target, [...new Set(group.flatMap(({ values: own }) => (typeof own[name] === 'string' ? [own[name] as string] : [])))], locale === '*' ? code : locale)
      for (const { values: own } of group) {
        const found = typeof own[name] === 'string' ? targets.get(own[name] as string) : undefined
        const shown = found === undefined ? undefined : versionValues(found)
        for (const entry of request.sort) if (entry.field.startsWith(`${name}.`)) own[entry.field] = shown?.[entry.field.slice(name.length + 1)] ?? null
      }
    }
  }
  const compare = sortComparator(request.sort as SortEntry[], type, request.collation, typeOf)
  const page = values.sort((a, b) => compare(a.values, b.values)).slice(request.offset, request.offset + request.limit)
  return { versions: page.map(({ version }) => version), total: all.total }
}
