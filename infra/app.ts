// The CDK app: one stack per stage, `npx cdk deploy --context stage=dev` (see cdk.json for the
// stages' settings). Environment-agnostic, so `cdk synth` needs no AWS credentials.
import { resolve } from 'node:path'
import { App, Tags } from 'aws-cdk-lib'
import { loadOptionsFromEnv } from '../lib/schema/load.js'
import { SchemaError } from '../lib/schema/model.js'
import { ContentApiStack } from './content-api-stack.js'
import { stageFromContext } from './stage-config.js'

const app = new App()
const stage = stageFromContext((key) => app.node.tryGetContext(key))
// The schema folder: context `contentTypesDir` (cdk.json or --context), else CONTENT_TYPES_DIR, else the examples.
const dir = (app.node.tryGetContext('contentTypesDir') as string | undefined) ?? process.env.CONTENT_TYPES_DIR
// The components folder and custom fields likewise (context `componentsDir`, `customFields`; COMPONENTS_DIR, CUSTOM_FIELDS).
const components = (app.node.tryGetContext('componentsDir') as string | undefined) ?? process.env.COMPONENTS_DIR
let stack: ContentApiStack
try {
  stack = new ContentApiStack(app, `ContentApi-${stage.name}`, {
    stage,
    description: `Localized, Strapi v5 compatible content API (${stage.name})`,
    contentTypesDir: dir === undefined || dir === '' ? undefined : resolve(dir),
    componentsDir: components === undefined || components === '' ? undefined : resolve(components),
    customFields: (app.node.tryGetContext('customFields') as Record<string, string> | undefined) ?? loadOptionsFromEnv(process.env).customFields,
  })
} catch (error) {
  // A bad schema file is one line naming the file and the key, as at the local server's start.
  if (!(error instanceof SchemaError)) throw error
  console.error(`Cannot synthesize: ${error.message}`)
  process.exit(1)
}
Tags.of(stack).add('project', 'content-api')
Tags.of(stack).add('stage', stage.name)
