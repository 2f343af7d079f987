// The CDK app: one stack per stage, `npx cdk deploy --context stage=dev` (see cdk.json for the
// stages' settings). Environment-agnostic, so `cdk synth` needs no AWS credentials.
import { App, Tags } from 'aws-cdk-lib'
import { ContentApiStack } from './content-api-stack.js'
import { stageFromContext } from './stage-config.js'

const app = new App()
const stage = stageFromContext((key) => app.node.tryGetContext(key))
const stack = new ContentApiStack(app, `ContentApi-${stage.name}`, {
  stage,
  description: `Localized, Strapi v5 compatible content API (${stage.name})`,
})
Tags.of(stack).add('project', 'content-api')
Tags.of(stack).add('stage', stage.name)
