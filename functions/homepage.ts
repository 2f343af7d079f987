import { handle } from 'hono/aws-lambda'
import { createContentApp } from '../lib/content-app.js'
import { contentTypes } from '../lib/content-types.js'
import { lambdaServices } from './runtime.js'

export const handler = handle(createContentApp(contentTypes.homepage, await lambdaServices()))
