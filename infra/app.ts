// The CDK app: one stack per stage, `npx cdk deploy --context stage=dev` (see cdk.json for the
// stages' settings). Environment-agnostic, so `cdk synth` needs no AWS credentials.
import { resolve } from 'node:path'
import { App, Tags } from 'aws-cdk-lib'
import { SchemaError } from '../lib/schema/model.js'
import { ContentApiStack } from './content-api-stack.js'
import { stageFromContext } from './stage-config.js'

const app = new App()
const stage = stageFromContext((key) => app.node.tryGetContext(key))
// The schema folder: context `contentTypesDir` (cdk.json or --context), else CONTENT_TYPES_DIR, else the examples.
const dir = (app.node.tryGetContext('contentTypesDir') as string | undefined) ?? process.env.CONTENT_TYPES_DIR
let stack: ContentApiStack
try {
  stack = new ContentApiStack(app, `ContentApi-${stage.name}`, {
    stage,
    description: `Localized, Strapi v5 compatible content API (${stage.name})`,
    contentTypesDir: dir === undefined || dir === '' ? undefined : resolve(dir),
  })
} catch (error) {
  // A bad schema file is one line naming the file and the key, as at the local server's start.
  if (!(error instanceof SchemaError)) throw error
  console.error(`Cannot synthesize: ${error.message}`)
  process.exit(1)
}
Tags.of(stack).add('project', 'content-api')
Tags.of(stack).add('stage', stage.name)
