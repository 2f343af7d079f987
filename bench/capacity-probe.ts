// Modelled capacity of the bench's requests: a middleware on the app's client that, while switched
// on, reads through an unmetered client what each data call reads and writes (the items before and
// after a write, the full page of a Query, the whole items of a GetItem or BatchGet) and prices it
// by DynamoDB's rules (capacity-model.ts), under today's table layout and the proposed ones. It is
// switched on for one untimed repetition of each kind (measure.ts): its own reads slow that call.
import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { unmarshall } from '@aws-sdk/util-dynamodb'
import { META, type IndexDeclaration } from '../lib/table.js'
import { itemBytes } from '../lib/storage/item-size.js'
import { readUnits, writeCost, writeFloor, type Item, type ItemChange } from './capacity-model.js'

/** Capacity modelled since the last take. */
export interface Modelled {
  readonly rcu: number
  /** Write units under today's layout: `tableWcu + indexWcu`. */
  readonly wcu: number
  readonly tableWcu: number
  readonly indexWcu: number
  /** The write floor (capacity-model.ts, writeFloor). */
  readonly floorWcu: number
  /** Write units under each alternative layout, by name. */
  readonly layouts: Readonly<Record<string, number>>
}

type Input = Record<string, unknown>
type Target = { key: Item; kind: 'put' | 'update' | 'delete' | 'check' }

/** Partition keys of the settings items read through the services' caches (capacity.ts counts them apart). */
const LOOKUPS: ReadonlySet<string> = new Set([META.config, META.token, META.index])

const ATTRIBUTE_VALUE = /^(S|N|B|BOOL|NULL|M|L|SS|NS|BS)$/
/** An item as the document client takes it (the base client's AttributeValues unmarshalled). */
function native(item: Item): Item {
  const values = Object.values(item)
  const marshalled = values.length > 0 && values.every((v) => v !== null && typeof v === 'object' && Object.keys(v).length === 1 && ATTRIBUTE_VALUE.test(Object.keys(v)[0]!))
  return marshalled ? unmarshall(item as never) : item
}

/** The items a write call targets. */
function targetsOf(command: string, input: Input): { table: string; target: Target }[] {
  const keyOf = (entry: Input) => native((entry.Key ?? entry.Item) as Item)
  if (command === 'TransactWriteItemsCommand') {
    return ((input.TransactItems ?? []) as Input[]).map((action) => {
      const [kind, entry] = Object.entries(action)[0] as [string, Input]
      const mapped = ({ Put: 'put', Update: 'update', Delete: 'delete', ConditionCheck: 'check' } as const)[kind as 'Put']
      return { table: String(entry.TableName), target: { key: keyOf(entry), kind: mapped } }
    })
  }
  if (command === 'BatchWriteItemCommand') {
    return Object.entries((input.RequestItems ?? {}) as Record<string, Input[]>).flatMap(([table, requests]) =>
      requests.map((request) => (request.PutRequest !== undefined ? { table, target: { key: keyOf(request.PutRequest as Input), kind: 'put' as const } } : { table, target: { key: keyOf(request.DeleteRequest as Input), kind: 'delete' as const } })))
  }
  const kind = ({ PutItemCommand: 'put', UpdateItemCommand: 'update', DeleteItemCommand: 'delete' } as const)[command as 'PutItemCommand']
  return kind === undefined ? [] : [{ table: String(input.TableName), target: { key: keyOf(input), kind } }]
}

/** Expression attribute names and values a key condition uses (a Query refuses unused ones). */
function usedBy(expression: string, map: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (map === undefined) return undefined
  const kept = Object.entries(map).filter(([name]) => new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`).test(expression))
  return kept.length === 0 ? undefined : Object.fromEntries(kept)
}

export class CapacityProbe {
  /** Model the calls made while this is true. */
  active = false
  private spent = this.empty()

  /**
   * @param reader an unmetered client for the probe's own reads
   * @param keyNames the table's partition and sort key names
   * @param layouts today's index declarations under `today`, and the alternatives to price beside them
   */
  constructor(db: DynamoDBDocumentClient, private readonly reader: DynamoDBDocumentClient, private readonly keyNames: readonly [string, string], private readonly layouts: Readonly<Record<string, readonly IndexDeclaration[]>>) {
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (!this.active) return next(args)
        const command = context.commandName ?? ''
        const input = args.input as Input
        const targets = targetsOf(command, input)
        const before = await Promise.all(targets.map(({ table, target }) => this.get(table, target.key)))
        const result = await next(args)
        if (targets.length > 0) {
          const after = await Promise.all(targets.map(({ table, target }, i) => (target.kind === 'check' ? before[i] : this.get(table, target.key))))
          this.recordWrite(targets.map(({ target }, i): ItemChange => ({ before: before[i], after: target.kind === 'delete' ? undefined : after[i], check: target.kind === 'check' })), command === 'TransactWriteItemsCommand')
        } else await this.recordRead(command, input)
        return result
      },
      { step: 'initialize', name: 'benchCapacityProbe', override: true },
    )
  }

  private empty() {
    return { rcu: 0, wcu: 0, tableWcu: 0, indexWcu: 0, floorWcu: 0, layouts: {} as Record<string, number> }
  }

  private async get(table: string, key: Item): Promise<Item | undefined> {
    const [pk, sk] = this.keyNames
    return (await this.reader.send(new GetCommand({ TableName: table, Key: { [pk]: key[pk], [sk]: key[sk] }, ConsistentRead: true }))).Item
  }

  private recordWrite(changes: ItemChange[], transactional: boolean): void {
    const s = this.spent
    for (const [name, indexes] of Object.entries(this.layouts)) {
      const cost = writeCost(changes, transactional, indexes)
      if (name === 'today') {
        s.tableWcu += cost.table
        s.indexWcu += cost.indexes
        s.wcu += cost.table + cost.indexes
        s.floorWcu += writeFloor(changes, indexes)
      } else s.layouts[name] = (s.layouts[name] ?? 0) + cost.table + cost.indexes
    }
  }

  private async recordRead(command: string, input: Input): Promise<void> {
    const consistency = (strong: unknown): 'strong' | 'eventual' => (strong === true ? 'strong' : 'eventual')
    if (command === 'GetItemCommand') {
      // The cached settings lookups (locale registry, role, token), which the meter counts apart.
      if (LOOKUPS.has(String(native(input.Key as Item)[this.keyNames[0]]))) return
      const item = await this.get(String(input.TableName), native(input.Key as Item))
      this.spent.rcu += readUnits(item === undefined ? 0 : itemBytes(item), consistency(input.ConsistentRead))
    } else if (command === 'BatchGetItemCommand') {
      for (const [table, request] of Object.entries(input.RequestItems as Record<string, Input>)) {
        const keys = (request.Keys as Item[]).map(native)
        const items = await Promise.all(keys.map((key) => this.get(table, key)))
        for (const item of items) this.spent.rcu += readUnits(item === undefined ? 0 : itemBytes(item), consistency(request.ConsistentRead))
      }
    } else if (command === 'TransactGetItemsCommand') {
      for (const { Get: get } of input.TransactItems as { Get: Input }[]) {
        const item = await this.get(String(get.TableName), native(get.Key as Item))
        this.spent.rcu += readUnits(item === undefined ? 0 : itemBytes(item), 'transactional')
      }
    } else if (command === 'QueryCommand') {
      // The same page without its filter or projection: what DynamoDB reads (and charges) for it.
      const condition = String(input.KeyConditionExpression)
      const page = await this.reader.send(new QueryCommand({
        TableName: input.TableName as string, IndexName: input.IndexName as string | undefined, KeyConditionExpression: condition,
        ExpressionAttributeNames: usedBy(condition, input.ExpressionAttributeNames as Record<string, unknown>) as Record<string, string> | undefined,
        ExpressionAttributeValues: usedBy(condition, input.ExpressionAttributeValues as Record<string, unknown>),
        Limit: input.Limit as number | undefined, ExclusiveStartKey: input.ExclusiveStartKey as Item | undefined,
        ScanIndexForward: input.ScanIndexForward as boolean | undefined, ConsistentRead: input.ConsistentRead as boolean | undefined,
      }))
      this.spent.rcu += readUnits((page.Items ?? []).reduce((sum, item) => sum + itemBytes(item), 0), consistency(input.ConsistentRead))
    }
  }

  /** What was modelled since the last take, and starts afresh. */
  take(): Modelled {
    const taken = this.spent
    this.spent = this.empty()
    return taken
  }
}
